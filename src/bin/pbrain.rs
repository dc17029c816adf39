//! `pbrain-renju-engine`: the protocol engine under the file name Piskvork loads (`pbrain-*`).
//! Nothing is ever written to stderr. Arguments are ignored except four, for tuning and
//! testing by play: `--weights RULE=FILE` (repeatable) plays RULE with the evaluation weights in
//! FILE (the format of `renju_engine::pattern::code::CodeWeights::parse`) instead of the
//! embedded ones; `--param NAME=VALUE` (repeatable) sets one search parameter of every rule
//! (`renju_engine::search::params::SearchParams::TUNABLE`); `--threads N` searches with N
//! threads until the manager sends `INFO thread_num`; `--ponder` ponders until the manager sends
//! `INFO pondering` (for match runners that cannot send it); `--net FILE` (repeatable, one per
//! rule) plays the evaluation network in FILE (`renju-engine train`'s output) for its rule
//! instead of the classical evaluation (experimental: the network is not shipped yet). A bad
//! rule name, file, parameter name or value, or thread count, ends the process with exit status
//! 2 before any protocol line.

use renju_engine::pattern::code::CodeWeights;
use renju_engine::search::params::SearchParams;
use renju_engine::types::Rule;

/// Apply every `--weights RULE=FILE`, `--param NAME=VALUE`, `--threads N`, `--ponder` and
/// `--net FILE` argument.
fn apply_options(args: &[String]) -> Result<(), String> {
    let mut params: Option<SearchParams> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--param" {
            let spec = it.next().ok_or("--param needs NAME=VALUE")?;
            params = Some(params.unwrap_or(SearchParams::DEFAULT).with(spec)?);
            continue;
        }
        if a == "--ponder" {
            renju_engine::protocol::set_default_pondering(true);
            continue;
        }
        if a == "--threads" {
            let n = it.next().ok_or("--threads needs N")?;
            let n: usize = n.parse().map_err(|e| format!("--threads {n}: {e}"))?;
            if n == 0 {
                return Err("--threads needs at least 1".into());
            }
            renju_engine::protocol::set_default_threads(n);
            continue;
        }
        if a == "--net" {
            let file = it.next().ok_or("--net needs FILE")?;
            let bytes = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
            let net = renju_engine::nnue::Network::from_bytes(&bytes)
                .map_err(|e| format!("{file}: {e}"))?;
            renju_engine::nnue::set_for_process(&net)?;
            continue;
        }
        if a != "--weights" {
            continue;
        }
        let spec = it.next().ok_or("--weights needs RULE=FILE")?;
        let (rule, file) = spec.split_once('=').ok_or("--weights needs RULE=FILE")?;
        let rule: Rule = rule.parse().map_err(|e| format!("--weights: {e}"))?;
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        CodeWeights::set_for_process(rule, &text).map_err(|e| format!("{file}: {e}"))?;
    }
    match params {
        Some(p) => p.set_for_process(),
        None => Ok(()),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if apply_options(&args).is_err() {
        std::process::exit(2);
    }
    let stdin = std::io::stdin();
    let code = renju_engine::protocol::run(std::io::BufReader::new(stdin), std::io::stdout());
    std::process::exit(code);
}
