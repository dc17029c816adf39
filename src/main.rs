//! The `renju-engine` binary: without arguments the pbrain protocol engine on stdin/stdout;
//! with a subcommand the command line tools.

fn main() {
    if std::env::args_os().len() <= 1 {
        let stdin = std::io::stdin();
        let code = renju_engine::protocol::run(std::io::BufReader::new(stdin), std::io::stdout());
        std::process::exit(code);
    }
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let code = renju_engine::cli::run(std::env::args_os(), &mut stdout.lock(), &mut stderr.lock());
    std::process::exit(code);
}
