//! The `arena` binary: engine-vs-engine matches between pbrain engines.

use arena::game::{FoulMode, GameConfig, TimeControl};
use arena::openings;
use arena::stats::parse_sprt;
use arena::tournament::{self, Book, Config, Format};
use clap::Parser;
use renju_engine::types::{valid_size, Rule};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "arena",
    version,
    about = "Engine-vs-engine matches between pbrain engines"
)]
struct Args {
    /// An engine command line (with arguments); give two or more.
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// Rule: freestyle, standard, renju, caro, caro-overline (or a Gomocup number).
    #[arg(long)]
    rule: Rule,
    /// Board side.
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// Games per pairing (round robin, gauntlet) or per knockout mini-match.
    #[arg(long)]
    games: usize,
    /// Time control MATCH_S[/TURN_S][+INC_S], e.g. 60/5+0.5 or 0/1 (turn limit only).
    #[arg(long)]
    tc: String,
    /// Time odds: engine N (1-based, in the order of the `--engine` options) plays under its own
    /// time control, `N=MATCH_S[/TURN_S][+INC_S]` (repeatable), e.g. `2=20/1` for twice the time.
    #[arg(long = "engine-tc")]
    engine_tc: Vec<String>,
    /// Opening file (offset lines `dx,dy, ...` or move strings); each opening is played twice.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Shuffle the openings with this seed (default: file order).
    #[arg(long)]
    random_seed: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// SPRT `elo0,elo1[,alpha,beta]` (two engines only), decided on game pairs (one opening,
    /// colours swapped; the pentanomial LLR); stops early when decided.
    #[arg(long)]
    sprt: Option<String>,
    /// Draw when this many stones are on the board.
    #[arg(long)]
    draw_after: Option<usize>,
    /// Renju fouls: `lose` (default) or `reject` (refuse and ask again; a second foul loses).
    #[arg(long, default_value = "lose")]
    foul: String,
    /// Format: `roundrobin` (default), `gauntlet`, `knockout`, `double-knockout`.
    #[arg(long, default_value = "roundrobin")]
    format: String,
    /// Extra time past a limit before a forfeit (ms).
    #[arg(long, default_value_t = 1000)]
    tolerance: u64,
    /// `max_memory` sent to the engines (MB).
    #[arg(long, default_value_t = 350)]
    memory: u64,
    /// Before each `START` and move request, wait until the engine has printed nothing for
    /// this many ms (some engines, Rapfi among them, drop a command that arrives while they
    /// finish a move); 0 = send at once.
    #[arg(long, default_value_t = 30)]
    settle: u64,
    /// Let each engine process play one unscored move when it starts (some engines allocate
    /// their hash table inside the first move they are asked for).
    #[arg(long)]
    warmup: bool,
    /// Output folder for records and summary.json.
    #[arg(long)]
    out: PathBuf,
}

fn run() -> Result<(), String> {
    let args = arena::parse_args::<Args>()?;
    if args.engines.len() < 2 {
        return Err("give at least two --engine".into());
    }
    if !valid_size(args.size) {
        return Err(format!(
            "board size {} is not supported (5..=22)",
            args.size
        ));
    }
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let cfg = config(&args)?;
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    play(&cfg);
    Ok(())
}

/// The tournament the checked arguments describe.
fn config(args: &Args) -> Result<Config, String> {
    let tc = TimeControl::parse(&args.tc)?;
    let mut engine_tc = vec![None; args.engines.len()];
    for spec in &args.engine_tc {
        let (n, t) = spec
            .split_once('=')
            .ok_or_else(|| format!("--engine-tc '{spec}' is not N=TC"))?;
        let n: usize = n
            .trim()
            .parse()
            .map_err(|_| format!("--engine-tc '{spec}': bad engine number"))?;
        if n == 0 || n > args.engines.len() {
            return Err(format!(
                "--engine-tc '{spec}': there is no engine {n} (1..={})",
                args.engines.len()
            ));
        }
        engine_tc[n - 1] = Some(TimeControl::parse(t)?);
    }
    let foul_mode = match args.foul.as_str() {
        "lose" => FoulMode::Lose,
        "reject" => FoulMode::Reject,
        f => return Err(format!("unknown --foul mode '{f}' (lose or reject)")),
    };
    let format = match args.format.as_str() {
        "roundrobin" | "round-robin" => Format::RoundRobin,
        "gauntlet" => Format::Gauntlet,
        "knockout" => Format::Knockout { double: false },
        "double-knockout" => Format::Knockout { double: true },
        f => return Err(format!("unknown --format '{f}'")),
    };
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    if sprt.is_some() && args.engines.len() != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    let mut ops = match &args.openings {
        Some(p) => openings::load(p, args.size)?,
        None => Vec::new(),
    };
    if let Some(seed) = args.random_seed {
        ops = openings::order(ops, true, seed);
    }
    for (i, o) in ops.iter().enumerate() {
        o.to_board(args.size, args.rule)
            .map_err(|e| format!("opening {}: {e}", i + 1))?;
    }
    Ok(Config {
        engines: args.engines.clone(),
        game: GameConfig {
            rule: args.rule,
            size: args.size,
            tc,
            seat_tc: [None, None],
            tolerance_ms: args.tolerance,
            draw_after: args.draw_after,
            foul_mode,
            max_memory: args.memory * 1024 * 1024,
            settle_ms: args.settle,
        },
        games: args.games,
        openings: ops,
        concurrency: args.concurrency.clamp(1, 64),
        sprt,
        out: args.out.clone(),
        format,
        about_timeout: Duration::from_secs(2),
        engine_tc,
        warmup: args.warmup,
    })
}

/// Play the tournament of `cfg` and report it.
fn play(cfg: &Config) {
    let format = cfg.format;
    let n = cfg.engines.len();
    let names: Vec<String> = cfg.engines.clone();
    let stop = Arc::new(AtomicBool::new(false));
    match format {
        Format::RoundRobin | Format::Gauntlet => {
            let mut blocks = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if format == Format::Gauntlet && a != 0 {
                        continue;
                    }
                    blocks.push(tournament::pairing_jobs(
                        a,
                        b,
                        cfg.games,
                        cfg.openings.len(),
                    ));
                }
            }
            // A gauntlet's pairings take turns (the same machine load for each, comparable
            // when stopped early); a round robin plays them one after another.
            let jobs = if format == Format::Gauntlet {
                tournament::interleave(blocks)
            } else {
                blocks.concat()
            };
            let mut book = Book::new(cfg, names, jobs.len());
            tournament::run_jobs(cfg, jobs, &mut book, &stop);
            book.write_summary();
            book.report();
        }
        Format::Knockout { double } => {
            let mut book = Book::new(cfg, names, 0);
            let w = tournament::knockout(cfg, double, &mut book, &stop);
            book.write_summary();
            book.report();
            println!("knockout winner: {}", cfg.engines[w]);
        }
    }
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
