//! Positions from inside the search tree for fitting the evaluation (`renju-engine leaves`).
//!
//! A game record's positions are the ones a game passes through; the evaluation is asked about
//! other ones: the quiescence stand-pats at the tree's leaves, most of them after moves no game
//! would play. For every searched position of some games, a search to a node count records
//! a stand-pat position every few nodes ([`crate::search::Limits::sample_leaves`]); a few of
//! them drawn at random are labelled by a search of their own, and each is written as a record
//! of the datagen format ([`super::GameRecord`]) whose moves up to the leaf are opening plies
//! and whose one searched ply is the leaf's label (its best move and score; no game result:
//! every record reads as a draw, so train on them with a result weight of 0).
//!
//! Every source game's leaves are a pure function of the seed and the game's index.

use super::{in_parallel, mix, open_for_append, GameRecord, PlyKind, PlyRecord};
use crate::opening::board_of;
use crate::rules;
use crate::search::{Limits, Searcher, Silent};
use crate::types::Pos;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// Settings of a leaf run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeafConfig {
    /// Nodes of the search of a game position whose stand-pats are recorded.
    pub nodes: u64,
    /// A stand-pat is recorded every this many nodes.
    pub every: u64,
    /// Leaves kept per game position (drawn at random from the distinct ones recorded).
    pub per_position: usize,
    /// Nodes of the search that labels a leaf.
    pub label_nodes: u64,
    /// Base seed.
    pub seed: u64,
    /// Transposition table of each of a thread's two searchers, MB.
    pub hash_mb: usize,
}

/// The labelled leaves of `game` (source game number `index` of the run): for each searched
/// ply, up to [`LeafConfig::per_position`] stand-pat positions of a search of the position
/// before it, each with its own search's best move and score. `sampler` and `labeller` are
/// cleared first.
#[must_use]
pub fn leaves_of(
    game: &GameRecord,
    index: u64,
    cfg: &LeafConfig,
    sampler: &mut Searcher,
    labeller: &mut Searcher,
) -> Vec<GameRecord> {
    let mut rng = StdRng::seed_from_u64(mix(cfg.seed, index));
    let mut out = Vec::new();
    let Ok(mut board) = crate::board::Board::new(game.size, game.rule) else {
        return out;
    };
    sampler.clear();
    labeller.clear();
    for ply in &game.plies {
        if ply.kind == PlyKind::Searched {
            let limits = Limits {
                max_nodes: Some(cfg.nodes),
                sample_leaves: cfg.every,
                ..Limits::default()
            };
            let _ = sampler.search(&board, limits, &mut Silent);
            let mut leaves = sampler.take_leaves();
            leaves.sort_unstable();
            leaves.dedup();
            leaves.shuffle(&mut rng);
            for moves in leaves.into_iter().take(cfg.per_position) {
                if let Some(r) = label(game, &moves, cfg.label_nodes, labeller) {
                    out.push(r);
                }
            }
        }
        if rules::try_play(&mut board, ply.mv).is_err() || rules::is_win(&board, ply.mv) {
            break;
        }
    }
    out
}

/// The record of the leaf reached by `moves` in `game`'s rule, labelled by a search of
/// `nodes` nodes (`None`: the moves do not replay, or the leaf has no move).
fn label(
    game: &GameRecord,
    moves: &[Pos],
    nodes: u64,
    labeller: &mut Searcher,
) -> Option<GameRecord> {
    let board = board_of(game.rule, game.size, moves).ok()?;
    let limits = Limits {
        max_nodes: Some(nodes),
        ..Limits::default()
    };
    let r = labeller.search(&board, limits, &mut Silent);
    if r.best.is_pass() {
        return None;
    }
    let mut plies: Vec<PlyRecord> = moves.iter().map(|&p| PlyRecord::opening(p)).collect();
    plies.push(PlyRecord::searched(r.best, r.score));
    Some(GameRecord {
        rule: game.rule,
        size: game.size,
        result: None,
        plies,
    })
}

/// Totals of a leaf run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LeafTotals {
    /// Source games read.
    pub games: usize,
    /// Leaf records written.
    pub leaves: usize,
    /// Seconds the run took.
    pub seconds: f64,
}

/// Write the labelled leaves of `games` to `path` (appended if it exists), on `threads`
/// threads, printing a progress line to `progress` every few seconds.
///
/// # Errors
/// The file cannot be opened or written.
pub fn run(
    cfg: &LeafConfig,
    games: &[GameRecord],
    path: &Path,
    threads: usize,
    progress: &mut dyn Write,
) -> Result<LeafTotals, String> {
    let (mut file, _) = open_for_append(path)?;
    let start = Instant::now();
    let mut totals = LeafTotals::default();
    let mut last = Instant::now();
    in_parallel(
        (0, games.len()),
        threads,
        (&mut file, path),
        || (Searcher::new(cfg.hash_mb, 1), Searcher::new(cfg.hash_mb, 1)),
        |(sampler, labeller), i| leaves_of(&games[i], i as u64, cfg, sampler, labeller),
        |records| {
            totals.games += 1;
            totals.leaves += records.len();
            if last.elapsed().as_secs_f64() >= 5.0 || totals.games == games.len() {
                last = Instant::now();
                let secs = start.elapsed().as_secs_f64().max(1e-9);
                let _ = writeln!(
                    progress,
                    "leaves: games {}/{}  leaves {}  leaves/s {:.0}",
                    totals.games,
                    games.len(),
                    totals.leaves,
                    totals.leaves as f64 / secs
                );
            }
        },
    )?;
    totals.seconds = start.elapsed().as_secs_f64();
    Ok(totals)
}
