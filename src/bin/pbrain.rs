//! `pbrain-renju-engine`: the protocol engine under the file name Piskvork loads (`pbrain-*`).
//! Arguments are ignored; nothing is ever written to stderr.

fn main() {
    let stdin = std::io::stdin();
    let code = renju_engine::protocol::run(std::io::BufReader::new(stdin), std::io::stdout());
    std::process::exit(code);
}
