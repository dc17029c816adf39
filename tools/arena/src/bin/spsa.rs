//! `spsa`: tune one rule's class-level evaluation weights by play (simultaneous perturbation
//! stochastic approximation).
//!
//! Each iteration perturbs every class weight (per role, colour slot and class, from `Two` to
//! `OpenFour`) by `±c` at random, writes the two weight files, and plays a short match (through
//! the arena library) between the protocol engine with the plus file and with the minus file
//! (`--weights RULE=FILE`); the weights then move by `a · c · r · Δ`, where `r` is the plus
//! side's (wins - losses) per game and `Δ` the signs. Fits to positions have not predicted
//! playing strength here (see docs/strength.md); this measures the weights where they are
//! used. The state is saved after every iteration (`state.txt` in `--dir`, resumed when it
//! exists); the weights written to `--out` are the average over the last half of the iterations
//! run, which an SPRT must then judge like any other change.

use arena::game::{FoulMode, GameConfig, TimeControl};
use arena::openings;
use arena::tournament::{self, Book, Config, Format};
use clap::Parser;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use renju_engine::pattern::code::{
    code_patterns, combo_slot, embedded, CodeWeights, CODES, MOVER, WAITER,
};
use renju_engine::pattern::combine;
use renju_engine::types::{Color, Rule};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "spsa",
    about = "Tune class-level evaluation weights by play (SPSA over arena matches)"
)]
struct Args {
    /// The protocol engine (it must take `--weights RULE=FILE`).
    #[arg(long)]
    engine: PathBuf,
    /// Rule whose weights are tuned.
    #[arg(long)]
    rule: Rule,
    /// Board side.
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// Opening file for the matches.
    #[arg(long)]
    openings: PathBuf,
    /// Time control of the matches (arena format).
    #[arg(long, default_value = "0/0.05")]
    tc: String,
    /// Starting weights [default: the rule's embedded weights].
    #[arg(long)]
    base: Option<PathBuf>,
    /// Iterations to run (more on a resumed state).
    #[arg(long)]
    iterations: usize,
    /// Games per iteration (an even number: each opening with both colours).
    #[arg(long, default_value_t = 8)]
    games: usize,
    /// Step factor `a`.
    #[arg(long, default_value_t = 0.2)]
    a: f64,
    /// Perturbation `c` in percent of a weight's magnitude (at least `--c-min`).
    #[arg(long, default_value_t = 12.0)]
    c_pct: f64,
    /// Smallest perturbation, in evaluation points.
    #[arg(long, default_value_t = 2.0)]
    c_min: f64,
    /// Random seed (signs; the match openings follow the iteration number).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    /// Working directory: the state, the two weight files, the last match.
    #[arg(long)]
    dir: PathBuf,
    /// Where to write the tuned weights.
    #[arg(long)]
    out: PathBuf,
}

/// One tuned weight: role, colour slot and class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    role: usize,
    slot: usize,
    class: usize,
}

/// The tuned weights of `w`: every (role, colour slot, class) some code makes, classes `Two`
/// to `OpenFour`, with the weight of the class's first code.
fn keys_and_values(w: &CodeWeights, rule: Rule) -> Vec<(Key, f64)> {
    let mut out: Vec<(Key, f64)> = Vec::new();
    for role in [MOVER, WAITER] {
        for c in Color::ALL {
            let slot = combo_slot(rule, c);
            for code in 0..CODES {
                let class = combine(code_patterns(code), c, rule) as usize;
                if !(1..=10).contains(&class) {
                    continue;
                }
                let key = Key { role, slot, class };
                if !out.iter().any(|(k, _)| *k == key) {
                    out.push((key, f64::from(w.cell[role][slot][code])));
                }
            }
        }
    }
    out.sort_by_key(|(k, _)| (k.role, k.slot, k.class));
    out
}

/// `base` with the tuned classes set to `theta` (rounded), every code of a class alike.
fn weights_with(base: &CodeWeights, rule: Rule, keys: &[Key], theta: &[f64]) -> CodeWeights {
    let mut w = base.clone();
    for role in [MOVER, WAITER] {
        for c in Color::ALL {
            for code in 0..CODES {
                let class = combine(code_patterns(code), c, rule) as usize;
                let key = Key {
                    role,
                    slot: combo_slot(rule, c),
                    class,
                };
                if let Some(i) = keys.iter().position(|k| *k == key) {
                    w.cell[role][c.index()][code] = theta[i].round() as i32;
                }
            }
        }
    }
    w.refresh();
    w
}

/// The saved state: iterations done and, per iteration, the weights after it.
fn load_state(path: &Path, n: usize) -> Result<Vec<Vec<f64>>, String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(Vec::new());
    };
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Result<Vec<f64>, _> = l.split_whitespace().map(str::parse::<f64>).collect();
            match v {
                Ok(v) if v.len() == n => Ok(v),
                _ => Err(format!("{}: bad state line '{l}'", path.display())),
            }
        })
        .collect()
}

fn run() -> Result<(), String> {
    let args = Args::parse();
    if args.games == 0 || args.games % 2 == 1 {
        return Err("--games must be even and positive".into());
    }
    let rule = args.rule;
    let base = match &args.base {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
            CodeWeights::parse(&text, rule).map_err(|e| format!("{}: {e}", p.display()))?
        }
        None => CodeWeights::parse(embedded(rule), rule)?,
    };
    let book = openings::load(&args.openings, args.size)?;
    for (i, o) in book.iter().enumerate() {
        o.to_board(args.size, rule)
            .map_err(|e| format!("opening {}: {e}", i + 1))?;
    }
    let tc = TimeControl::parse(&args.tc)?;
    std::fs::create_dir_all(&args.dir).map_err(|e| format!("{}: {e}", args.dir.display()))?;
    let start = keys_and_values(&base, rule);
    let keys: Vec<Key> = start.iter().map(|(k, _)| *k).collect();
    let state_path = args.dir.join("state.txt");
    let mut history = load_state(&state_path, keys.len())?;
    let mut theta: Vec<f64> = history
        .last()
        .cloned()
        .unwrap_or_else(|| start.iter().map(|(_, v)| *v).collect());
    let mut rng = StdRng::seed_from_u64(args.seed ^ (history.len() as u64).wrapping_mul(0x9E37));
    let engine = args.engine.display().to_string();
    let (plus_file, minus_file) = (args.dir.join("plus.txt"), args.dir.join("minus.txt"));
    // The match of every iteration: the engine with the plus file (A) against the minus file.
    let mut cfg = Config {
        engines: vec![
            format!("{engine} --weights {rule}={}", plus_file.display()),
            format!("{engine} --weights {rule}={}", minus_file.display()),
        ],
        game: GameConfig {
            rule,
            size: args.size,
            tc,
            tolerance_ms: 1000,
            draw_after: None,
            foul_mode: FoulMode::Lose,
            max_memory: 350 * 1024 * 1024,
        },
        games: args.games,
        openings: Vec::new(),
        concurrency: args.concurrency.clamp(1, 64),
        sprt: None,
        out: args.dir.join("match"),
        format: Format::RoundRobin,
        about_timeout: Duration::from_secs(2),
    };
    std::fs::create_dir_all(&cfg.out).map_err(|e| format!("{}: {e}", cfg.out.display()))?;
    for _ in 0..args.iterations {
        let it = history.len();
        let signs: Vec<f64> = keys
            .iter()
            .map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let c: Vec<f64> = theta
            .iter()
            .map(|t| (t.abs() * args.c_pct / 100.0).max(args.c_min))
            .collect();
        for (file, sign) in [(&plus_file, 1.0), (&minus_file, -1.0)] {
            let t: Vec<f64> = (0..keys.len())
                .map(|i| theta[i] + sign * c[i] * signs[i])
                .collect();
            let w = weights_with(&base, rule, &keys, &t);
            let text = w.to_text(&[format!("spsa iteration {it}")], rule != Rule::Renju);
            std::fs::write(file, text).map_err(|e| format!("{}: {e}", file.display()))?;
        }
        cfg.openings = openings::order(book.clone(), true, args.seed * 1_000_003 + it as u64);
        let jobs = tournament::pairing_jobs(0, 1, args.games, cfg.openings.len());
        let mut results = Book::new(&cfg, cfg.engines.clone(), jobs.len());
        let outcomes =
            tournament::run_jobs(&cfg, jobs, &mut results, &Arc::new(AtomicBool::new(false)));
        if outcomes.len() != args.games {
            return Err(format!("iteration {it}: {} games played", outcomes.len()));
        }
        let wins = outcomes.iter().filter(|o| o.a_points() == 1.0).count() as f64;
        let losses = outcomes.iter().filter(|o| o.a_points() == 0.0).count() as f64;
        let r = (wins - losses) / args.games as f64;
        for i in 0..keys.len() {
            theta[i] = (theta[i] + args.a * c[i] * r * signs[i]).clamp(-30_000.0, 30_000.0);
        }
        history.push(theta.clone());
        let line: Vec<String> = theta.iter().map(|t| format!("{t:.3}")).collect();
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&state_path)
            .and_then(|mut f| writeln!(f, "{}", line.join(" ")))
            .map_err(|e| format!("{}: {e}", state_path.display()))?;
        println!("iteration {}: plus {wins}-{losses}, r {r:+.3}", it + 1);
    }
    // The average of the last half of the iterations: SPSA's iterates wander by the noise of
    // short matches; their mean is the estimate.
    let tail = &history[history.len() / 2..];
    if tail.is_empty() {
        return Err("no iterations to average".into());
    }
    let mean: Vec<f64> = (0..keys.len())
        .map(|i| tail.iter().map(|t| t[i]).sum::<f64>() / tail.len() as f64)
        .collect();
    let w = weights_with(&base, rule, &keys, &mean);
    let comment = [
        format!(
            "spsa --rule {rule} --tc {} --games {} --a {} --c-pct {} --seed {}: mean of iterations {}..{}",
            args.tc,
            args.games,
            args.a,
            args.c_pct,
            args.seed,
            history.len() - tail.len() + 1,
            history.len()
        ),
        "class weights Two..OpenFour tuned by play; the combination table and scale as the base".into(),
    ];
    std::fs::write(&args.out, w.to_text(&comment, rule != Rule::Renju))
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    for ((k, s), m) in start.iter().zip(&mean) {
        println!(
            "{} {} class {:2}: {s:.0} -> {m:.1}",
            ["mover", "waiter"][k.role],
            ["black", "white"][k.slot],
            k.class
        );
    }
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("spsa: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_values_give_back_the_base_weights() {
        // The embedded files are class-level: reading the class weights and writing them back
        // must change nothing; a changed value must reach every code of its class.
        for rule in Rule::ALL {
            let base = CodeWeights::parse(embedded(rule), rule).unwrap();
            let start = keys_and_values(&base, rule);
            let keys: Vec<Key> = start.iter().map(|(k, _)| *k).collect();
            let mut theta: Vec<f64> = start.iter().map(|(_, v)| *v).collect();
            assert_eq!(weights_with(&base, rule, &keys, &theta), base, "{rule}");
            let i = keys.iter().position(|k| k.class == 5).expect("open three");
            theta[i] += 7.0;
            let w = weights_with(&base, rule, &keys, &theta);
            let k = keys[i];
            for c in Color::ALL {
                if combo_slot(rule, c) != k.slot {
                    continue;
                }
                for code in 0..CODES {
                    let class = combine(code_patterns(code), c, rule) as usize;
                    let want = base.cell[k.role][c.index()][code] + if class == 5 { 7 } else { 0 };
                    assert_eq!(w.cell[k.role][c.index()][code], want, "{rule} {c} {code}");
                }
            }
        }
    }
}
