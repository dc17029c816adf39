//! The `renju-engine` binary.

fn main() {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let code = renju_engine::cli::run(std::env::args_os(), &mut stdout.lock(), &mut stderr.lock());
    std::process::exit(code);
}
