//! The `renju-engine` binary: without arguments the pbrain protocol engine on stdin/stdout;
//! with a subcommand the command line tools.

fn main() {
    if std::env::args_os().len() <= 1 {
        let stdin = std::io::stdin();
        let code = renju_engine::protocol::run(std::io::BufReader::new(stdin), std::io::stdout());
        std::process::exit(code);
    }
    // Unlocked handles (each write takes the lock): a lock held for the whole run would block
    // any other thread that writes, a search thread's panic message included, for good.
    let code = renju_engine::cli::run(
        std::env::args_os(),
        &mut std::io::stdout(),
        &mut std::io::stderr(),
    );
    std::process::exit(code);
}
