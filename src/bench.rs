//! `renju-engine bench`: a fixed set of positions searched to a fixed depth with one thread and
//! a 16 MB table cleared per position. The total node count is the behaviour signature: any
//! change to search behaviour changes it, and commits carry it as `Bench: <nodes>`.
//!
//! May import everything below it except the command line.

use crate::board::Board;
use crate::rules;
use crate::search::{Iteration, Limits, Reporter, Searcher};
use crate::types::{parse_renju_list, Rule};
use std::io::Write;
use std::time::{Duration, Instant};

/// Default bench depth.
pub const DEFAULT_DEPTH: i32 = 8;
/// Default table size of the bench (MB).
pub const DEFAULT_HASH_MB: usize = 16;

/// The bench positions: (rule, size, moves alternating from black).
pub const POSITIONS: &[(Rule, usize, &str)] = &[
    (Rule::Freestyle, 15, "h8 g7 f6 g8 g9"),
    (Rule::Freestyle, 15, "h2 h5 h4 f6"),
    (
        Rule::Freestyle,
        15,
        "h8 i9 j8 g7 i7 h6 i8 g8 g6 j9 h9 g10 h11",
    ),
    (Rule::Freestyle, 20, "e2 f2 h3 g3 g6 h5 f9"),
    (
        Rule::Freestyle,
        20,
        "f5 e3 b7 h5 g3 g4 i6 e4 h4 d4 f2 i5 f4 f6 e5 d6 d7 e7 f8",
    ),
    (Rule::Standard, 15, "h8 h7 j6 i7 f7"),
    (Rule::Standard, 15, "f6 i9 h8"),
    (Rule::Standard, 15, "b3 k10 g2 f6"),
    (Rule::Renju, 15, "h8 i9 j10 i8 i7 g9"),
    (
        Rule::Renju,
        15,
        "h8 h9 j9 j8 f8 i7 g7 i9 h6 e9 f6 k7 l6 i10 i6 f9 g9 g11 h10 i11 i8",
    ),
    (Rule::Renju, 15, "h8 h9 h6 i10 i6 i9 g9 g8 j11 i7"),
    // Renju middle games from self-play with black fouls next to the fight.
    (Rule::Renju, 15, "h8 h9 j7 g8 g9 f10 j10 f7 i10 f9 f8 e10"),
    (
        Rule::Renju,
        15,
        "h8 h9 h7 g8 f7 i7 f6 i8 f5 f4 f9 f8 h6 g10 j7 g9 h5 h4",
    ),
    (
        Rule::Renju,
        15,
        "h8 h9 h7 g8 f7 i7 f6 i8 f5 f4 f9 f8 h6 g10 j7 g9 h5 h4 g7",
    ),
    (
        Rule::Renju,
        15,
        "h8 i9 g7 g9 f8 h9 f9 j9 k9 i8 f7 f10 i5 h6 f5 f6 h5 g5 g6 e8 i4 j3 e7 h7 d7 c7 g4 k10",
    ),
];

/// Build a bench position.
///
/// # Errors
/// A message if the move string is bad (a programming error in [`POSITIONS`]).
pub fn position(rule: Rule, size: usize, moves: &str) -> Result<Board, String> {
    let mut b = Board::new(size, rule).map_err(|e| e.to_string())?;
    for p in parse_renju_list(moves, size).map_err(|e| e.to_string())? {
        rules::try_play(&mut b, p).map_err(|e| format!("{moves}: {e}"))?;
    }
    Ok(b)
}

/// Records the depth and time of the last iteration reported: when the search reached the
/// depth it ends with (the root VCT probe and guard may still run after it).
struct Reached(Option<(i32, Duration)>);

impl Reporter for Reached {
    fn iteration(&mut self, it: &Iteration) {
        self.0 = Some((it.depth, it.elapsed));
    }
}

/// What the bench searches: a fixed depth (the signature) or a fixed time per position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Every position to this depth.
    Depth(i32),
    /// Every position for this many milliseconds (depth reached and speed; no signature).
    MoveTime(u64),
}

/// Tree-shape signals of a set of searches: average depth reached and effective branching
/// factor `(mean nodes per position)^(1 / mean depth)`, over the searches that completed at
/// least one iteration.
#[must_use]
pub fn tree_signals(results: &[(u64, i32)]) -> (f64, f64) {
    let searched: Vec<&(u64, i32)> = results.iter().filter(|r| r.1 >= 1).collect();
    if searched.is_empty() {
        return (0.0, 0.0);
    }
    let n = searched.len() as f64;
    let depth = searched.iter().map(|r| f64::from(r.1)).sum::<f64>() / n;
    let nodes = searched.iter().map(|r| r.0 as f64).sum::<f64>() / n;
    let ebf = if nodes >= 1.0 {
        nodes.powf(1.0 / depth)
    } else {
        0.0
    };
    (depth, ebf)
}

/// Run the bench, printing one line per position (best move, score, depth, nodes, the search's
/// wall time and when it reached its last depth, in milliseconds) and the totals: average depth, effective
/// branching factor, the node total (the signature at a fixed depth) and nodes per second.
/// Returns the node total.
///
/// # Errors
/// I/O errors of `out`, or a bad built-in position.
pub fn run(
    budget: Budget,
    threads: usize,
    hash_mb: usize,
    out: &mut dyn Write,
) -> Result<u64, String> {
    let io = |e: std::io::Error| e.to_string();
    let mut searcher = Searcher::new(hash_mb, threads);
    let mut total = 0u64;
    let mut shapes = Vec::new();
    let start = Instant::now();
    for &(rule, size, moves) in POSITIONS {
        let board = position(rule, size, moves)?;
        searcher.clear();
        let limits = match budget {
            Budget::Depth(d) => Limits::depth(d),
            Budget::MoveTime(ms) => Limits::time_ms(ms),
        };
        let t0 = Instant::now();
        let mut reached = Reached(None);
        let r = searcher.search(&board, limits, &mut reached);
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        // A move decided before any iteration reaches its depth 0 at the end.
        let reached_ms = reached.0.map_or(ms, |(_, t)| t.as_secs_f64() * 1000.0);
        total += r.nodes;
        shapes.push((r.nodes, r.depth));
        writeln!(
            out,
            "{rule} {size} {moves:<60} best {} score {} depth {} nodes {} time {ms:.1} reached {reached_ms:.1}",
            r.best.to_renju(size),
            r.score,
            r.depth,
            r.nodes
        )
        .map_err(io)?;
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let (depth, ebf) = tree_signals(&shapes);
    writeln!(out, "Average depth: {depth:.2}").map_err(io)?;
    writeln!(out, "Branching factor: {ebf:.2}").map_err(io)?;
    writeln!(out, "Nodes searched: {total}").map_err(io)?;
    writeln!(out, "Nodes/second: {}", (total as f64 / secs) as u64).map_err(io)?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::tree_signals;

    #[test]
    fn branching_factor_is_the_depth_th_root_of_the_mean_tree() {
        // 2 positions of 1,000,000 nodes at depth 6 (and an instant answer that is ignored).
        let (d, b) = tree_signals(&[(1_000_000, 6), (1_000_000, 6), (0, 0)]);
        assert!((d - 6.0).abs() < 1e-9);
        assert!((b - 10.0).abs() < 1e-9, "{b}");
        let (d, b) = tree_signals(&[(256, 4), (256, 12)]);
        assert!((d - 8.0).abs() < 1e-9);
        assert!((b - 2.0).abs() < 1e-9, "{b}");
        assert_eq!(tree_signals(&[]), (0.0, 0.0));
    }
}
