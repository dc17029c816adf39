//! `spsa`: tune one rule's class-level evaluation weights, or the search parameters, by play
//! (simultaneous perturbation stochastic approximation).
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
//!
//! With `--search` the tuned values are the search parameters instead
//! (`renju_engine::search::params::SearchParams::TUNABLE`, each perturbed by its own step and
//! kept in its range), played as `--param NAME=VALUE` arguments; `--out` then gets one
//! `NAME VALUE` line per parameter (the rounded mean); `--params` restricts it to some.

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
use renju_engine::search::params::SearchParams;
use renju_engine::types::{Color, Rule};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "spsa",
    about = "Tune class-level evaluation weights or search parameters by play (SPSA over arena matches)"
)]
struct Args {
    /// Tune the search parameters (`--param NAME=VALUE`) instead of the evaluation weights.
    #[arg(long)]
    search: bool,
    /// With `--search`: only these parameters (comma-separated names) [default: all].
    #[arg(long, value_delimiter = ',')]
    params: Vec<String>,
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
    /// Starting weights [default: the rule's embedded weights] (not with `--search`: it starts
    /// from the engine's defaults).
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
    /// Perturbation `c` in percent of a weight's magnitude (at least `--c-min`); with
    /// `--search` each parameter's own step instead.
    #[arg(long, default_value_t = 12.0)]
    c_pct: f64,
    /// Smallest perturbation, in evaluation points.
    #[arg(long, default_value_t = 2.0)]
    c_min: f64,
    /// Tune the threat-combination table too (mover level x waiter level, levels 0..=6, per
    /// colour slot), after the class weights.
    #[arg(long)]
    combos: bool,
    /// Tune only the threat-combination table (the class weights stay as the base's).
    #[arg(long)]
    combos_only: bool,
    /// Smallest perturbation of a combination weight, in evaluation points.
    #[arg(long, default_value_t = 16.0)]
    combo_c_min: f64,
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

/// The tuned combination weights: (colour slot, mover level, waiter level), levels below a
/// five (a five to play is a win the search sees).
fn combo_keys(rule: Rule) -> Vec<(usize, usize, usize)> {
    let mut slots: Vec<usize> = Color::ALL.iter().map(|&c| combo_slot(rule, c)).collect();
    slots.dedup();
    let mut out = Vec::new();
    for slot in slots {
        for a in 0..7 {
            for b in 0..7 {
                out.push((slot, a, b));
            }
        }
    }
    out
}

/// `w` with the combination weights of `keys` set to `theta` (rounded), in every colour of
/// their slot.
fn with_combos(mut w: CodeWeights, keys: &[(usize, usize, usize)], theta: &[f64]) -> CodeWeights {
    for (&(slot, a, b), t) in keys.iter().zip(theta) {
        for c in Color::ALL {
            if combo_slot(w.rule, c) == slot {
                w.combo[c.index()][a][b] = t.round() as i32;
            }
        }
    }
    w
}

/// `base` with the class weights of `keys` and then the combination weights of `combos` set to
/// `theta`.
fn full_weights(
    base: &CodeWeights,
    rule: Rule,
    keys: &[Key],
    combos: &[(usize, usize, usize)],
    theta: &[f64],
) -> CodeWeights {
    with_combos(
        weights_with(base, rule, keys, &theta[..keys.len()]),
        combos,
        &theta[keys.len()..],
    )
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
    let book = openings::load(&args.openings, args.size)?;
    for (i, o) in book.iter().enumerate() {
        o.to_board(args.size, rule)
            .map_err(|e| format!("opening {}: {e}", i + 1))?;
    }
    let tc = TimeControl::parse(&args.tc)?;
    let space = space_of(&args)?;
    std::fs::create_dir_all(&args.dir).map_err(|e| format!("{}: {e}", args.dir.display()))?;
    let start = space.start();
    let state_path = args.dir.join("state.txt");
    let mut history = load_state(&state_path, start.len())?;
    let mut theta: Vec<f64> = history.last().cloned().unwrap_or_else(|| start.clone());
    let mut rng = StdRng::seed_from_u64(args.seed ^ (history.len() as u64).wrapping_mul(0x9E37));
    let mut cfg = match_config(&args, tc);
    std::fs::create_dir_all(&cfg.out).map_err(|e| format!("{}: {e}", cfg.out.display()))?;
    for _ in 0..args.iterations {
        let it = history.len();
        let signs: Vec<f64> = theta
            .iter()
            .map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let c: Vec<f64> = (0..theta.len())
            .map(|i| space.step(i, theta[i], &args))
            .collect();
        let (wins, losses) =
            play_iteration(&args, &space, &mut cfg, &book, it, &theta, &c, &signs)?;
        let r = (wins - losses) / args.games as f64;
        for i in 0..theta.len() {
            theta[i] = space.clamp(i, theta[i] + args.a * c[i] * r * signs[i]);
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
    write_mean(&args, &space, &start, &history)
}

/// What the arguments ask to tune: search parameters, or evaluation weights over the base file
/// (the embedded weights without `--base`).
fn space_of(args: &Args) -> Result<Space, String> {
    let rule = args.rule;
    if args.search && (args.combos || args.combos_only) {
        return Err("--combos and --combos-only tune the evaluation, not with --search".into());
    }
    if args.search && args.base.is_some() {
        return Err("--base is for the evaluation weights, not with --search".into());
    }
    if args.search {
        let mut params = Vec::new();
        for name in &args.params {
            let i = SearchParams::TUNABLE
                .iter()
                .position(|t| t.name == name)
                .ok_or_else(|| format!("--params: unknown search parameter '{name}'"))?;
            params.push(i);
        }
        if params.is_empty() {
            params = (0..SearchParams::TUNABLE.len()).collect();
        }
        return Ok(Space::Search(params));
    }
    let base = match &args.base {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
            CodeWeights::parse(&text, rule).map_err(|e| format!("{}: {e}", p.display()))?
        }
        None => CodeWeights::parse(embedded(rule), rule)?,
    };
    Ok(Space::Weights {
        keys: if args.combos_only {
            Vec::new()
        } else {
            keys_and_values(&base, rule)
                .iter()
                .map(|(k, _)| *k)
                .collect()
        },
        combos: if args.combos || args.combos_only {
            combo_keys(rule)
        } else {
            Vec::new()
        },
        base: Box::new(base),
    })
}

/// The match of every iteration (its engines are set per iteration).
fn match_config(args: &Args, tc: TimeControl) -> Config {
    Config {
        engines: Vec::new(),
        game: GameConfig {
            rule: args.rule,
            size: args.size,
            tc,
            seat_tc: [None, None],
            tolerance_ms: 1000,
            draw_after: None,
            foul_mode: FoulMode::Lose,
            max_memory: 350 * 1024 * 1024,
            settle_ms: 0,
        },
        games: args.games,
        openings: Vec::new(),
        concurrency: args.concurrency.clamp(1, 64),
        sprt: None,
        out: args.dir.join("match"),
        format: Format::RoundRobin,
        about_timeout: Duration::from_secs(2),
        engine_tc: Vec::new(),
        warmup: false,
    }
}

/// Iteration `it`'s match: the engine with the plus values (`theta + c * signs`) against the
/// one with the minus values; the plus engine's wins and losses.
#[allow(clippy::too_many_arguments)]
fn play_iteration(
    args: &Args,
    space: &Space,
    cfg: &mut Config,
    book: &[openings::Opening],
    it: usize,
    theta: &[f64],
    c: &[f64],
    signs: &[f64],
) -> Result<(f64, f64), String> {
    let engine = args.engine.display().to_string();
    let (plus_file, minus_file) = (args.dir.join("plus.txt"), args.dir.join("minus.txt"));
    cfg.engines.clear();
    for (file, sign) in [(&plus_file, 1.0), (&minus_file, -1.0)] {
        let t: Vec<f64> = (0..theta.len())
            .map(|i| space.clamp(i, theta[i] + sign * c[i] * signs[i]))
            .collect();
        cfg.engines
            .push(space.engine_command(&engine, args.rule, &t, file, it)?);
    }
    cfg.openings = openings::order(book.to_vec(), true, args.seed * 1_000_003 + it as u64);
    let jobs = tournament::pairing_jobs(0, 1, args.games, cfg.openings.len());
    let mut results = Book::new(cfg, cfg.engines.clone(), jobs.len());
    let outcomes = tournament::run_jobs(cfg, jobs, &mut results, &Arc::new(AtomicBool::new(false)));
    if outcomes.len() != args.games {
        return Err(format!("iteration {it}: {} games played", outcomes.len()));
    }
    let wins = outcomes.iter().filter(|o| o.a_points() == 1.0).count() as f64;
    let losses = outcomes.iter().filter(|o| o.a_points() == 0.0).count() as f64;
    Ok((wins, losses))
}

/// Write the estimate: the average of the last half of the iterations (SPSA's iterates wander
/// by the noise of short matches; their mean is the estimate).
fn write_mean(
    args: &Args,
    space: &Space,
    start: &[f64],
    history: &[Vec<f64>],
) -> Result<(), String> {
    let tail = &history[history.len() / 2..];
    if tail.is_empty() {
        return Err("no iterations to average".into());
    }
    let mean: Vec<f64> = (0..start.len())
        .map(|i| tail.iter().map(|t| t[i]).sum::<f64>() / tail.len() as f64)
        .collect();
    let what = format!(
        "spsa --rule {} --tc {} --games {} --a {} --c-pct {} --seed {}{}: mean of iterations {}..{}",
        args.rule,
        args.tc,
        args.games,
        args.a,
        args.c_pct,
        args.seed,
        if args.search { " --search" } else { "" },
        history.len() - tail.len() + 1,
        history.len()
    );
    std::fs::write(&args.out, space.output(args.rule, &mean, &what))
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    for (i, (s, m)) in start.iter().zip(&mean).enumerate() {
        println!("{}: {s:.0} -> {m:.1}", space.name(i));
    }
    Ok(())
}

/// What a run tunes.
enum Space {
    /// The class weights of `keys` and the combination weights of `combos` (in this order),
    /// over the other weights of `base`.
    Weights {
        base: Box<CodeWeights>,
        keys: Vec<Key>,
        combos: Vec<(usize, usize, usize)>,
    },
    /// The search parameters of these indices in [`SearchParams::TUNABLE`], the others at
    /// their defaults.
    Search(Vec<usize>),
}

impl Space {
    /// The starting values.
    fn start(&self) -> Vec<f64> {
        match self {
            Space::Weights { base, keys, combos } => {
                let all = keys_and_values(base, base.rule);
                keys.iter()
                    .map(|k| all.iter().find(|(a, _)| a == k).map_or(0.0, |(_, v)| *v))
                    .chain(
                        combos
                            .iter()
                            .map(|&(slot, a, b)| f64::from(base.combo[slot][a][b])),
                    )
                    .collect()
            }
            Space::Search(params) => params
                .iter()
                .map(|&p| f64::from(SearchParams::DEFAULT.values()[p]))
                .collect(),
        }
    }

    /// The perturbation of value `i` at `t`.
    fn step(&self, i: usize, t: f64, args: &Args) -> f64 {
        match self {
            Space::Weights { keys, .. } => (t.abs() * args.c_pct / 100.0).max(if i < keys.len() {
                args.c_min
            } else {
                args.combo_c_min
            }),
            Space::Search(params) => SearchParams::TUNABLE[params[i]].step,
        }
    }

    /// Value `i` kept in its range.
    fn clamp(&self, i: usize, t: f64) -> f64 {
        match self {
            Space::Weights { .. } => t.clamp(-30_000.0, 30_000.0),
            Space::Search(params) => {
                let p = SearchParams::TUNABLE[params[i]];
                t.clamp(f64::from(p.min), f64::from(p.max))
            }
        }
    }

    /// A name for value `i`.
    fn name(&self, i: usize) -> String {
        match self {
            Space::Weights { keys, combos, .. } if i >= keys.len() => {
                let (slot, a, b) = combos[i - keys.len()];
                format!("combo {} {a} {b}", ["black", "white"][slot])
            }
            Space::Weights { keys, .. } => {
                let k = keys[i];
                format!(
                    "{} {} class {:2}",
                    ["mover", "waiter"][k.role],
                    ["black", "white"][k.slot],
                    k.class
                )
            }
            Space::Search(params) => SearchParams::TUNABLE[params[i]].name.to_string(),
        }
    }

    /// The engine's command line playing values `t` (the weights written to `file`).
    fn engine_command(
        &self,
        engine: &str,
        rule: Rule,
        t: &[f64],
        file: &Path,
        it: usize,
    ) -> Result<String, String> {
        match self {
            Space::Weights { base, keys, combos } => {
                let w = full_weights(base, rule, keys, combos, t);
                let text = w.to_text(&[format!("spsa iteration {it}")], rule != Rule::Renju);
                std::fs::write(file, text).map_err(|e| format!("{}: {e}", file.display()))?;
                Ok(format!("{engine} --weights {rule}={}", file.display()))
            }
            Space::Search(params) => Ok(std::iter::once(engine.to_string())
                .chain(params.iter().zip(t).map(|(&p, v)| {
                    format!(
                        "--param {}={}",
                        SearchParams::TUNABLE[p].name,
                        v.round() as i32
                    )
                }))
                .collect::<Vec<_>>()
                .join(" ")),
        }
    }

    /// The text written to `--out` for values `t`, with the comment `what`.
    fn output(&self, rule: Rule, t: &[f64], what: &str) -> String {
        match self {
            Space::Weights { base, keys, combos } => full_weights(base, rule, keys, combos, t).to_text(
                &[
                    what.to_string(),
                    if combos.is_empty() {
                        "class weights Two..OpenFour tuned by play; the combination table and scale as the base"
                    } else if keys.is_empty() {
                        "the combination table (levels 0..=6) tuned by play; the class weights and scale as the base"
                    } else {
                        "class weights Two..OpenFour and the combination table (levels 0..=6) tuned by play; the scale as the base"
                    }
                    .into(),
                ],
                rule != Rule::Renju,
            ),
            Space::Search(params) => {
                let mut out = format!("# {what}\n");
                for (&p, v) in params.iter().zip(t) {
                    out.push_str(&format!("{} {}\n", SearchParams::TUNABLE[p].name, v.round() as i32));
                }
                out
            }
        }
    }
}

fn main() {
    if let Err(e) = run() {
        eprintln!("spsa: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
#[path = "spsa/tests.rs"]
mod tests;
