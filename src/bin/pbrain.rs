//! `pbrain-renju-engine`: the protocol engine under the file name Piskvork loads (`pbrain-*`).
//! Nothing is ever written to stderr. Arguments are ignored except `--weights RULE=FILE`
//! (repeatable): play RULE with the evaluation weights in FILE (the format of
//! `renju_engine::pattern::code::CodeWeights::parse`) instead of the embedded ones, for tuning
//! by play; a bad rule name or file ends the process with exit status 2 before any protocol
//! line.

use renju_engine::pattern::code::CodeWeights;
use renju_engine::types::Rule;

/// Apply every `--weights RULE=FILE` argument.
fn load_weights(args: &[String]) -> Result<(), String> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a != "--weights" {
            continue;
        }
        let spec = it.next().ok_or("--weights needs RULE=FILE")?;
        let (rule, file) = spec.split_once('=').ok_or("--weights needs RULE=FILE")?;
        let rule: Rule = rule.parse().map_err(|e| format!("--weights: {e}"))?;
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        CodeWeights::set_for_process(rule, &text).map_err(|e| format!("{file}: {e}"))?;
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if load_weights(&args).is_err() {
        std::process::exit(2);
    }
    let stdin = std::io::stdin();
    let code = renju_engine::protocol::run(std::io::BufReader::new(stdin), std::io::stdout());
    std::process::exit(code);
}
