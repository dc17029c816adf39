//! Search tunables, all in one place. Each note says where the value came from.

use crate::types::Rule;

/// Deepest iteration (plies). Safety bound, not a tuned value.
pub const MAX_DEPTH: i32 = 64;
/// Longest line the search stack supports (plies from the root, extensions included).
pub const MAX_PLY: usize = 128;
/// Nodes between two clock/stop checks (untested; Stockfish-style rationing).
pub const CHECK_EVERY: u64 = 1024;
/// Aspiration window half-width in evaluation units (untested).
pub const ASPIRATION: i32 = 60;
/// Late-move reductions: moves searched before reductions start.
pub const LMR_MIN_MOVES: usize = 2;
/// Late-move reductions: minimum depth.
pub const LMR_MIN_DEPTH: i32 = 2;
/// Late-move reductions: `r = LMR_BASE/100 + ln(depth) * ln(move number) * 100 / LMR_DIVISOR / 100`
/// (Stockfish-style log-log table; starting values, see the ledger).
pub const LMR_BASE: i32 = 50;
/// Late-move reductions: divisor of the log-log term, in hundredths. Ledger: 170 (more
/// reduction) lost 26 Elo and 240 (less) lost 40 in renju at 0.05 s/move.
pub const LMR_DIVISOR: i32 = 200;
/// Move-count pruning: at depth `d` (non-root, once a non-losing move is known) quiet moves past
/// `(LMP_BASE + d * d) / 2` are skipped, or past `LMP_BASE + d * d` when the static evaluation
/// improved over two plies.
pub const LMP_BASE: i32 = 5;
/// At most this many quiet moves are searched per node at any depth (the old width cap).
pub const MAX_QUIET_MOVES: usize = 24;
/// Threat quiescence: at most this many plies of fours and blocks below depth 0.
pub const QS_MAX_PLY: i32 = 16;
/// Node budget of the VCF probe at the root before searching (untested).
pub const ROOT_VCF_NODES: u64 = 20_000;
/// Root guard against the opponent's VCF: share of the optimum time its per-move checks may
/// take, in percent.
pub const ROOT_GUARD_TIME_PCT: u32 = 25;
/// A move that makes a four (the reply is forced) is extended by one ply while the ply is below
/// twice the iteration depth and below this cap (untested).
pub const FOUR_EXTENSION_MAX_PLY: usize = 24;
/// Weight of the opponent's score of a cell in move ordering, in percent (untested).
pub const DEFENCE_PCT: i32 = 70;
/// Time: expected own moves still to play at the start of a game (match time / this = the
/// optimum per move). Games between engines of this strength end after a median of 33-37 stones
/// (10 s + 0.5 s/move); at 20 and 8 the engine left about two thirds of its match time unused.
pub const TIME_MTG_BASE: u64 = 14;
/// Time: the expected moves to go shrink by one per this many stones on the board.
pub const TIME_MTG_DIV: u64 = 6;
/// Time: the expected moves to go never fall below this.
pub const TIME_MTG_MIN: u64 = 6;
/// Time: the optimum is scaled to this percentage after an iteration that changed the best move.
pub const TIME_UNSTABLE_PCT: u32 = 160;
/// Time: the optimum is scaled to this percentage once the best move held for 3 iterations.
pub const TIME_STABLE_PCT: u32 = 60;
/// Time: extra percentage of the optimum after the score dropped by more than
/// [`TIME_SCORE_DROP`] in one iteration.
pub const TIME_DROP_PCT: u32 = 40;
/// Time: a score drop (evaluation units) that earns more time.
pub const TIME_SCORE_DROP: i32 = 40;
/// Time: no new iteration is started when the time so far plus this many times the last
/// iteration's would pass the hard deadline (an interrupted iteration still counts for a root
/// move it searched fully and found better). Ledger: 1 (was 2), with moves to go 14 - stones/6,
/// +32 in renju at 1 s + 0.05 s/move.
pub const TIME_NEXT_ITERATION: u32 = 1;
/// Null-move pruning: minimum depth.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null-move pruning: reduction `NMP_BASE + depth / NMP_DIV` (besides the ply itself).
pub const NMP_BASE: i32 = 2;
/// Null-move pruning: depth divisor of the reduction.
pub const NMP_DIV: i32 = 4;
/// Reverse futility pruning: deepest remaining depth it applies at (untested: at 0.05 s/move
/// deeper nodes are rare).
pub const FUTILITY_DEPTH: i32 = 6;
/// Reverse futility pruning: margin per ply in percent of the rule's calibrated evaluation scale
/// (points per logistic unit of win probability), one ply less when improving. Ledger: 20% +53
/// in renju at 0.05 s/move (+11 in freestyle 20); 15% and 30% each lost to 20%.
pub const FUTILITY_PCT: i32 = 20;
/// Threat quiescence: after the side's first four, a four is searched only within this square
/// radius of its own last stone ... (ledger: +30 in renju at 0.05 s/move, bench nodes 932,631
/// -> 378,702; restricting the first four as well lost 14)
pub const QS_NEAR_SQUARE: i32 = 2;
/// ... or on one of its four lines within this distance.
pub const QS_NEAR_LINE: i32 = 4;
/// Futility pruning of quiet moves: deepest remaining depth it applies at.
pub const MOVE_FUTILITY_DEPTH: i32 = 3;
/// Futility pruning of quiet moves: margin per ply in units of the reverse-futility margin
/// ([`FUTILITY_PCT`] percent of the evaluation scale).
pub const MOVE_FUTILITY_PLIES: i32 = 1;
/// Internal iterative reduction: minimum depth at which a node without a TT move is searched
/// one ply shallower. Ledger: +18.4 over 2945 renju games at 0.05 s/move (accepted; earlier runs
/// on older mains were small positives).
pub const IIR_MIN_DEPTH: i32 = 4;
/// Own VCT at the root: a probe after each completed iteration from this depth on (untested);
/// the root VCT guard (the opponent's VCT after the best move) from the same depth, with the
/// same budget.
pub const ROOT_VCT_MIN_DEPTH: i32 = 5;
/// Root VCT probe: only after an iteration that scores the side to move at least this (a VCT
/// is an attack; ledger: probing everywhere with a tenth of the time cost -29 at 0.05 s/move).
pub const ROOT_VCT_MIN_SCORE: i32 = 0;
/// Root VCT probe with a clock: it may take this share of the time searched so far, in percent
/// (untested).
pub const ROOT_VCT_TIME_PCT: u32 = 5;
/// Root VCT probe without a clock (fixed depth, analysis): solver nodes at the first probe,
/// doubling with each iteration up to 64 times as many (untested).
pub const ROOT_VCT_NODES: u64 = 4_000;
/// Root VCT probe: the most threat moves (threes and fours) of the attacker in a proof
/// (untested).
pub const ROOT_VCT_DEPTH: u32 = 10;

/// Which rules use history with gravity and a quiet-move malus: renju only. It was accepted
/// in renju (+10.8 ± 8.7 over 6000 games at 0.05 s/move) and lost in freestyle 20 (-26.8 ±
/// 15.3 over 2000 games; without the malus -37 over 647); standard was not measured and keeps
/// the plain history with freestyle. The other rules add `depth²` per cut-off, unbounded, and
/// the ordering key takes the entry divided by 16 up to [`PLAIN_HISTORY_CAP`]. With gravity
/// the history also keeps threat moves and quiet moves apart (two tables per colour).
#[must_use]
pub const fn history_gravity(rule: Rule) -> bool {
    matches!(rule, Rule::Renju)
}

/// The plain history's largest contribution to a move's ordering key.
pub const PLAIN_HISTORY_CAP: i32 = 4_000;

/// History entries stay within `[-HISTORY_MAX, HISTORY_MAX]` (gravity); the ordering key adds
/// the entry divided by 16, so at most the 4,000 the unbounded history was capped at before.
/// The three history constants were set once, not tuned (ledger: gravity and malus together
/// +10.8 over 6000 renju games at 0.05 s/move).
pub const HISTORY_MAX: i32 = 64_000;
/// History bonus per squared ply of remaining depth for a move that cuts off (the quiet moves
/// searched before it get the same as a malus).
pub const HISTORY_BONUS: i32 = 32;
/// Largest history bonus.
pub const HISTORY_BONUS_MAX: i32 = 8_000;
