//! Looking at one position: `fouls`, `solve`, `analyze`, and the `bench` signature.
//!
//! May import what `cli` may.

use super::{check_threads_hash, line_text, PositionArgs};
use crate::bench;
use crate::eval::is_mate;
use crate::rules::renju;
use crate::search::vcf::{Solution, Solver};
use crate::search::{Iteration, Limits, Reporter, Searcher};
use crate::types::{Pos, Rule};
use clap::{ArgGroup, Args};
use std::io::Write;

// `fouls`: every forbidden point for black in a renju position.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("position").required(true).args(["moves", "black"])))]
pub(super) struct FoulsArgs {
    /// Board side (5..=22).
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// Moves in renju notation, alternating from black ("h8 h9 i8", "h8,h9,i8" or "h8h9i8").
    #[arg(long, conflicts_with_all = ["black", "white"])]
    moves: Option<String>,
    /// Black stones in renju notation (any number).
    #[arg(long)]
    black: Option<String>,
    /// White stones in renju notation (any number; used with --black).
    #[arg(long, requires = "black")]
    white: Option<String>,
    /// Print the board with fouls marked 3 (double-three), 4 (double-four), 6 (overline).
    #[arg(long)]
    diagram: bool,
}

impl FoulsArgs {
    pub(super) fn run(&self, out: &mut dyn Write) -> Result<(), String> {
        let size = self.size;
        let mut board = super::build_position(
            size,
            Rule::Renju,
            self.moves.as_deref(),
            self.black.as_deref(),
            self.white.as_deref(),
        )?;
        let mut fouls = renju::all_fouls(&mut board);
        fouls.sort_by_key(|&(p, _)| (p.x(size), size - p.y(size)));
        let io = |e: std::io::Error| e.to_string();
        if self.diagram {
            let text = board
                .diagram_with(|p| fouls.iter().find(|&&(q, _)| q == p).map(|&(_, k)| k.mark()));
            write!(out, "{text}").map_err(io)?;
        }
        for (p, k) in &fouls {
            writeln!(out, "{} {}", p.to_renju(size), k).map_err(io)?;
        }
        Ok(())
    }
}

// `bench`: the fixed-depth benchmark.
#[derive(Args, Debug)]
pub(super) struct BenchArgs {
    /// Search depth.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
    depth: i32,
    /// Search each position for this many milliseconds instead of to a fixed depth (prints
    /// the depth reached; the node total is then no signature).
    #[arg(long)]
    movetime: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = bench::DEFAULT_HASH_MB)]
    hash: usize,
    /// Play the evaluation network in FILE for its rule (repeatable, one per rule): the
    /// node total is then that network's signature, and the nodes/s its speed.
    #[arg(long)]
    net: Vec<std::path::PathBuf>,
}

impl BenchArgs {
    pub(super) fn run(&self, out: &mut dyn Write) -> Result<(), String> {
        let depth = self.depth;
        if !(1..=64).contains(&depth) {
            return Err(format!("depth {depth} is out of range (1..=64)"));
        }
        check_threads_hash(self.threads, self.hash)?;
        for f in &self.net {
            let at = |e: String| format!("{}: {e}", f.display());
            let bytes = std::fs::read(f).map_err(|e| at(e.to_string()))?;
            let net = crate::nnue::Network::from_bytes(&bytes).map_err(at)?;
            crate::nnue::set_for_process(&net).map_err(at)?;
        }
        let budget = match self.movetime {
            Some(0) => return Err("--movetime must be at least 1 ms".into()),
            Some(ms) => bench::Budget::MoveTime(ms),
            None => bench::Budget::Depth(depth),
        };
        bench::run(budget, self.threads, self.hash, out).map(|_| ())
    }
}

// `solve`: the threat-space solver.
#[derive(Args, Debug)]
pub(super) struct SolveArgs {
    /// Rule: freestyle, standard, renju, caro, caro-overline (or a Gomocup number).
    #[arg(long)]
    rule: Rule,
    #[command(flatten)]
    position: PositionArgs,
    /// Search victory by continuous threats (fours and threes) instead of fours only.
    #[arg(long)]
    vct: bool,
    /// VCT depth in attacker moves.
    #[arg(long, default_value_t = 12)]
    vct_depth: u32,
    /// Node limit.
    #[arg(long, default_value_t = 2_000_000)]
    nodes: u64,
}

impl SolveArgs {
    pub(super) fn run(&self, out: &mut dyn Write) -> Result<(), String> {
        let mut board = self.position.build(self.rule)?;
        let mut solver = Solver::new(self.nodes);
        let sol = if self.vct {
            solver.vct(&mut board, self.vct_depth.clamp(1, 64))
        } else {
            solver.vcf(&mut board)
        };
        let io = |e: std::io::Error| e.to_string();
        let kind = if self.vct { "vct" } else { "vcf" };
        writeln!(out, "side {} {kind}", board.side_to_move()).map_err(io)?;
        match sol {
            Solution::Win(line) => {
                writeln!(out, "win {}", line_text(&line, board.size())).map_err(io)
            }
            Solution::NoWin => writeln!(out, "no-win").map_err(io),
        }
    }
}

// `analyze`: alpha-beta analysis.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("limit").required(true).args(["depth", "time"])))]
pub(super) struct AnalyzeArgs {
    /// Rule: freestyle, standard, renju, caro, caro-overline (or a Gomocup number).
    #[arg(long)]
    rule: Rule,
    #[command(flatten)]
    position: PositionArgs,
    /// Fixed depth.
    #[arg(long)]
    depth: Option<i32>,
    /// Time limit in milliseconds.
    #[arg(long)]
    time: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

/// Prints each iteration as `depth D score S nodes N time MS pv ...`.
struct PrintReporter<'a> {
    out: &'a mut dyn Write,
    size: usize,
}

impl PrintReporter<'_> {
    fn line(&mut self, depth: i32, score: i32, nodes: u64, ms: u128, pv: &[Pos], note: &str) {
        let _ = writeln!(
            self.out,
            "depth {depth} score {score} nodes {nodes} time {ms} pv {}{note}",
            line_text(pv, self.size)
        );
    }
}

impl Reporter for PrintReporter<'_> {
    fn iteration(&mut self, it: &Iteration) {
        self.line(
            it.depth,
            it.score,
            it.nodes,
            it.elapsed.as_millis(),
            &it.pv,
            "",
        );
    }
}

impl AnalyzeArgs {
    pub(super) fn run(&self, out: &mut dyn Write) -> Result<(), String> {
        let board = self.position.build(self.rule)?;
        check_threads_hash(self.threads, self.hash)?;
        let limits = match (self.depth, self.time) {
            (Some(d), _) if (1..=64).contains(&d) => Limits::depth(d),
            (Some(d), _) => return Err(format!("depth {d} is out of range (1..=64)")),
            (None, Some(ms)) => Limits::time_ms(ms),
            (None, None) => return Err("give --depth or --time".to_string()),
        };
        let mut searcher = Searcher::new(self.hash, self.threads);
        let size = board.size();
        let start = std::time::Instant::now();
        let r = {
            let mut rep = PrintReporter {
                out: &mut *out,
                size,
            };
            let r = searcher.search(&board, limits, &mut rep);
            if r.depth == 0 {
                // No iteration completed: a proven win or loss, a forced move (answered before
                // any node is searched), or a search stopped inside its first iteration.
                let note = if is_mate(r.score) {
                    " (proven)"
                } else if r.nodes == 0 {
                    " (forced)"
                } else {
                    " (stopped)"
                };
                let pv = if r.pv.is_empty() {
                    vec![r.best]
                } else {
                    r.pv.clone()
                };
                let ms = start.elapsed().as_millis();
                rep.line(r.depth, r.score, r.nodes, ms, &pv, note);
            }
            r
        };
        writeln!(out, "bestmove {}", r.best.to_renju(size)).map_err(|e| e.to_string())
    }
}
