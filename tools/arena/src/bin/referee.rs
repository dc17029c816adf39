//! `referee`: a referee engine's post-mortem of an arena match (see `arena::referee`).
//!
//! `referee --referee CMD --dir MATCH_DIR --rule R [--time MS] [--threshold V] [--mate-plies N]
//! [--loser NAME] [--concurrency N] [--positions FILE]` asks the referee, in every decisive
//! game (or those lost by the engine named `--loser`), for its evaluation before and after each
//! move of the loser, and prints each game's first blunder, the blunders by phase, how often the
//! loser's move was the referee's and the mean loss per move by phase. `--positions` writes the
//! blunder positions with the referee's line.

use arena::engine::EngineProc;
use arena::referee::{
    self, judge_game, positions_file, read_game, Game, RefereeConfig, ReportConfig, Review,
};
use clap::Parser;
use renju_engine::postmortem::psq_records;
use renju_engine::types::Rule;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "referee",
    about = "A referee engine's post-mortem of a match's decisive games"
)]
struct Args {
    /// The referee's command line (any pbrain engine that prints its evaluation in MESSAGE
    /// lines: this engine's format or Rapfi's).
    #[arg(long)]
    referee: String,
    /// The match folder (arena game-NNNNN.psq records).
    #[arg(long)]
    dir: PathBuf,
    /// Rule of the games.
    #[arg(long)]
    rule: Rule,
    /// The referee's time per position (ms).
    #[arg(long, default_value_t = 1000)]
    time: u64,
    /// A blunder drops the loser's value by more than this (referee units), or lets in a
    /// proven loss.
    #[arg(long, default_value_t = 150)]
    threshold: i32,
    /// A blunder is tactical when the opponent's proven win after it is at most this many
    /// plies.
    #[arg(long, default_value_t = 30)]
    mate_plies: u32,
    /// Only the games lost by the engine of this name (as the records name it).
    #[arg(long)]
    loser: Option<String>,
    /// Judge at most this many moves of the loser a game (from the end of the opening).
    #[arg(long, default_value_t = 1000)]
    max_moves: usize,
    /// Referee processes at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Write the blunder positions here.
    #[arg(long)]
    positions: Option<PathBuf>,
    /// `max_memory` sent to the referee (MB).
    #[arg(long, default_value_t = 350)]
    memory: u64,
    /// Output quiet time before each command to the referee (ms).
    #[arg(long, default_value_t = 30)]
    settle: u64,
}

fn run() -> Result<(), String> {
    let args = arena::parse_args::<Args>()?;
    let mut games: Vec<Game> = Vec::new();
    let mut size = 0;
    for (n, path) in psq_records(&args.dir)? {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let Some(g) = read_game(n, &text, args.rule)? else {
            continue;
        };
        if size != 0 && g.size != size {
            return Err(format!("game {n}: board {}, other games {size}", g.size));
        }
        size = g.size;
        if args.loser.as_ref().is_some_and(|l| *l != g.loser_name) {
            continue;
        }
        games.push(g);
    }
    if games.is_empty() {
        return Err("no decisive game to judge".into());
    }
    let cfg = RefereeConfig {
        rule: args.rule,
        turn_ms: args.time,
        tolerance_ms: 2000,
        max_memory: args.memory * 1024 * 1024,
        settle_ms: args.settle,
    };
    let total = games.len();
    let queue = Arc::new(Mutex::new(
        games.into_iter().enumerate().collect::<Vec<_>>(),
    ));
    let results = Arc::new(Mutex::new(Vec::new()));
    let mut handles = Vec::new();
    for _ in 0..args.concurrency.clamp(1, 64) {
        let queue = queue.clone();
        let results = results.clone();
        let cfg = cfg.clone();
        let cmd = args.referee.clone();
        let max_moves = args.max_moves;
        handles.push(std::thread::spawn(move || -> Result<(), String> {
            let mut e = EngineProc::start(&cmd, Duration::from_secs(5))?;
            loop {
                let Some((i, g)) = queue.lock().map_err(|_| "poisoned")?.pop() else {
                    break;
                };
                let judged = judge_game(&mut e, &g, &cfg, max_moves)
                    .map_err(|err| format!("game {}: {err}", g.number))?;
                eprintln!("referee: game {} judged ({} moves)", g.number, judged.len());
                results.lock().map_err(|_| "poisoned")?.push((i, g, judged));
            }
            e.stop(Duration::from_millis(500));
            Ok(())
        }));
    }
    for h in handles {
        h.join().map_err(|_| "a referee thread panicked")??;
    }
    let mut done = std::mem::take(&mut *results.lock().map_err(|_| "poisoned")?);
    done.sort_by_key(|r| r.0);
    let reviews: Vec<Review> = done
        .into_iter()
        .map(|(_, g, j)| Review::new(g, j, args.threshold))
        .collect();
    let rcfg = ReportConfig {
        size,
        threshold: args.threshold,
        mate_plies: args.mate_plies,
    };
    print!("{}", referee::report(&reviews, &rcfg));
    if let Some(p) = &args.positions {
        let header = format!(
            "referee post-mortem of {} ({} of {total} decisive games), referee '{}' at {} ms a position, threshold {}",
            args.dir.display(),
            reviews.len(),
            args.referee,
            args.time,
            args.threshold
        );
        std::fs::write(p, positions_file(&reviews, &rcfg, &header))
            .map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
