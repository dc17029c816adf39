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
/// At most this many quiet moves are searched per node at any depth (the old width cap; 24
/// until 2026-12-06, raised to 80 with the bundle of [`FHR_PCT`]).
pub const MAX_QUIET_MOVES: usize = 80;
/// Threat quiescence: at most this many plies of fours and blocks below depth 0.
pub const QS_MAX_PLY: i32 = 16;
/// Node budget of the VCF probe at the root before searching (untested).
pub const ROOT_VCF_NODES: u64 = 20_000;
/// Root guard against the opponent's VCF: share of the optimum time its per-move checks may
/// take, in percent.
pub const ROOT_GUARD_TIME_PCT: u32 = 25;
/// Lazy SMP move choice: a thread's vote is its score above the lowest of the deepest results
/// plus this, so that the lowest-scoring of them still votes (evaluation points).
pub const VOTE_OFFSET: i32 = 14;
/// ABDADA: slots of the table of (node, move) pairs being searched (a power of two).
pub const BUSY_SLOTS: usize = 1 << 15;
/// ABDADA: moves are deferred (and marked busy) only at nodes of at least this depth.
pub const ABDADA_MIN_DEPTH: i32 = 3;
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
/// Time: the hard deadline is at most the match time left divided by this (untested).
pub const TIME_HARD_DIV: u64 = 4;
/// Time: the optimum with a turn limit is at most this percentage of it.
pub const TIME_TURN_PCT: u64 = 90;
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
/// +32 in renju at 1 s + 0.05 s/move. 0: a new iteration starts whenever the time so far is
/// below the optimum, and the hard deadline may cut it; the root VCT guard then checks the
/// best move where this rule (with 1) would have stopped the search.
pub const TIME_NEXT_ITERATION: u32 = 1;
/// The opponent's four-three point counts as a threat against the side to move (no reverse
/// futility, null move or quiet-move futility at such a node): 1, as accepted at 0.05 s a move
/// (ledger); 0 turns it off, for a screen at longer time controls.
pub const FOUR_THREE_THREAT: i32 = 1;
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
/// Fail-high reduction: in an expected cut node (not on the PV, not threatened) whose static
/// evaluation is above beta by this percentage of the reverse-futility margin per ply of
/// remaining depth, every move but a tactical one (own four or better, block of the
/// opponent's double threat) is searched one ply shallower; 0 turns it off. Ledger: 20 gave
/// +11.0 ± 26.6 over 600 renju games at 0.5 s/move and +10.9 ± 16.4 over 1654 at 10 s + 0.5
/// s/move (undecided) alone; with [`MAX_QUIET_MOVES`] 80, [`SINGULAR_DEPTH`] 8 and [`TT_EVAL`]
/// on, the four together: +48.4 ± 26.0 over 658 renju games at 10 s + 0.5 s/move on the even
/// book (SPRT [0, 10] accepted, pairs 39/19/169/16/86).
pub const FHR_PCT: i32 = 20;
/// Late-move reductions with the bounded (renju) history: one ply less per this much of the
/// move's history entry, one more per this much below zero; 0 turns it off (untested; 24,000
/// gives at most 2 plies either way with [`HISTORY_MAX`] 64,000).
pub const HISTORY_LMR_DIV: i32 = 0;
/// Ordering-key bonus of the counter move (per colour, the quiet move that last cut off after
/// the opponent's stone on the same cell as the opponent's last stone); 0 turns the table off
/// (untested; a killer gets 5,000).
pub const COUNTER_BONUS: i32 = 0;
/// Late-move reductions: a reducible move farther than this many cells (in both directions'
/// larger distance) from the opponent's last stone and from the side's own last stone is
/// reduced one ply more; 0 turns it off (untested).
pub const LMR_FAR: i32 = 0;
/// Principal-variation nodes: once a move raised alpha (not to a mate score), the later moves
/// of the node are searched one ply shallower while the remaining depth is within 3..=11;
/// 0 turns it off, 1 on (untested).
pub const PV_ALPHA_REDUCTION: i32 = 0;
/// Trivial-move pruning: below this remaining depth (not at the root, once a non-losing move
/// is known) a quiet candidate on which neither side has even a two is skipped; 0 turns it
/// off (untested).
pub const TRIVIAL_DEPTH: i32 = 0;
/// Continued attack: a reducible move within this many cells (the larger axis distance) of
/// the side's own last stone, when that stone made an open three or better, is reduced one
/// ply less; 0 turns it off (untested).
pub const LMR_ATTACK: i32 = 0;
/// The table's score as the node's evaluation: when the transposition table holds a score for
/// the node whose bound says the true value lies beyond the static evaluation on its side (a
/// lower bound above it, an upper bound below it, or exact), the node-level pruning decisions
/// (reverse futility, null move, quiet-move futility, fail-high reduction) use that score
/// instead of the static evaluation; 0 turns it off, 1 on (on with the bundle of [`FHR_PCT`]).
pub const TT_EVAL: i32 = 1;
/// Singular extension: from this remaining depth on (not at the root), a table move whose
/// entry is a lower bound (or exact) from a search at most 3 plies shallower is tested by a
/// search of the node without it, at half the depth, against the entry's score less
/// [`SINGULAR_MARGIN`] of the reverse-futility unit per ply: if every other move fails low
/// there, the table move is searched one ply deeper; if even the others reach beta, the node
/// fails high at once (multi-cut); the test's depth being at least 1, it starts at 3 at the
/// earliest. 0 turns it off (8 with the bundle of [`FHR_PCT`]).
pub const SINGULAR_DEPTH: i32 = 8;
/// Singular extension margin, in percent of the reverse-futility unit per ply of remaining
/// depth (untested).
pub const SINGULAR_MARGIN: i32 = 10;
/// With an evaluation network played (`--net`): the percent of its value correction added to
/// the classical evaluation (0: the network only orders moves, by [`POLICY_WEIGHT`]).
pub const NET_VALUE_PCT: i32 = 100;
/// With an evaluation network played: a quiet move's ordering key gains its policy logit times
/// this, at nodes of [`POLICY_DEPTH`] plies or more (0: the policy is not used).
pub const POLICY_WEIGHT: i32 = 0;
/// The least remaining depth at which [`POLICY_WEIGHT`] orders quiet moves.
pub const POLICY_DEPTH: i32 = 1;

/// Where the network's value correction is added (with a network): 0 at every static
/// evaluation, 1 only at the quiescence stand-pats (the interior nodes' pruning reads the
/// classical evaluation), 2 only at the interior nodes (the stand-pats read the classical
/// evaluation). A measuring knob: which use of the value helps or hurts.
pub const NET_WHERE: i32 = 0;

/// With an evaluation network played: a reduced move's late-move reduction grows by its
/// policy surprise (`-ln p`, the softmax over the node's candidates) less
/// [`POLICY_LMR_MID`]/100, times this/100 plies, rounded, within ±2 (0: off). A move the
/// policy likes is reduced less, one it does not more.
pub const POLICY_LMR: i32 = 0;
/// The policy surprise, in hundredths of a nat, at which [`POLICY_LMR`] changes nothing.
pub const POLICY_LMR_MID: i32 = 300;
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

/// The search parameters a tuning run may change for the whole process (the protocol engine's
/// `--param NAME=VALUE`, for tuning by play); every worker copies them when it is made. Their
/// defaults are the constants above. A renamed or removed field changes [`SearchParams::TUNABLE`]
/// with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// [`ASPIRATION`].
    pub aspiration: i32,
    /// [`LMR_BASE`].
    pub lmr_base: i32,
    /// [`LMR_DIVISOR`].
    pub lmr_divisor: i32,
    /// [`LMP_BASE`].
    pub lmp_base: i32,
    /// [`MAX_QUIET_MOVES`].
    pub max_quiet_moves: i32,
    /// [`FUTILITY_DEPTH`].
    pub futility_depth: i32,
    /// [`FUTILITY_PCT`].
    pub futility_pct: i32,
    /// [`NMP_MIN_DEPTH`].
    pub nmp_min_depth: i32,
    /// [`NMP_BASE`].
    pub nmp_base: i32,
    /// [`NMP_DIV`].
    pub nmp_div: i32,
    /// [`MOVE_FUTILITY_DEPTH`].
    pub move_futility_depth: i32,
    /// [`MOVE_FUTILITY_PLIES`] in hundredths of a ply.
    pub move_futility_pct: i32,
    /// [`HISTORY_BONUS`].
    pub history_bonus: i32,
    /// [`QS_NEAR_SQUARE`].
    pub qs_near_square: i32,
    /// [`QS_NEAR_LINE`].
    pub qs_near_line: i32,
    /// [`IIR_MIN_DEPTH`].
    pub iir_min_depth: i32,
    /// [`TIME_MTG_BASE`].
    pub time_mtg_base: i32,
    /// [`TIME_MTG_DIV`].
    pub time_mtg_div: i32,
    /// [`TIME_MTG_MIN`].
    pub time_mtg_min: i32,
    /// [`TIME_UNSTABLE_PCT`].
    pub time_unstable_pct: i32,
    /// [`TIME_STABLE_PCT`].
    pub time_stable_pct: i32,
    /// [`TIME_DROP_PCT`].
    pub time_drop_pct: i32,
    /// [`TIME_TURN_PCT`].
    pub time_turn_pct: i32,
    /// [`FHR_PCT`].
    pub fhr_pct: i32,
    /// [`HISTORY_LMR_DIV`].
    pub history_lmr_div: i32,
    /// [`COUNTER_BONUS`].
    pub counter_bonus: i32,
    /// [`LMR_FAR`].
    pub lmr_far: i32,
    /// [`PV_ALPHA_REDUCTION`].
    pub pv_alpha_reduction: i32,
    /// [`TRIVIAL_DEPTH`].
    pub trivial_depth: i32,
    /// [`LMR_ATTACK`].
    pub lmr_attack: i32,
    /// [`ROOT_VCT_TIME_PCT`].
    pub root_vct_time_pct: i32,
    /// [`ROOT_GUARD_TIME_PCT`].
    pub root_guard_time_pct: i32,
    /// [`FOUR_EXTENSION_MAX_PLY`].
    pub four_extension_max_ply: i32,
    /// [`TIME_HARD_DIV`].
    pub time_hard_div: i32,
    /// [`TIME_NEXT_ITERATION`].
    pub time_next_iteration: i32,
    /// [`FOUR_THREE_THREAT`].
    pub four_three_threat: i32,
    /// [`TT_EVAL`].
    pub tt_eval: i32,
    /// [`SINGULAR_DEPTH`].
    pub singular_depth: i32,
    /// [`SINGULAR_MARGIN`].
    pub singular_margin: i32,
    /// [`NET_VALUE_PCT`].
    pub net_value_pct: i32,
    /// [`POLICY_WEIGHT`].
    pub policy_weight: i32,
    /// [`POLICY_DEPTH`].
    pub policy_depth: i32,
    /// [`NET_WHERE`].
    pub net_where: i32,
    /// [`POLICY_LMR`].
    pub policy_lmr: i32,
    /// [`POLICY_LMR_MID`].
    pub policy_lmr_mid: i32,
}

/// One tunable parameter: its name, the range a tuner keeps it in, and the tuner's
/// perturbation step.
#[derive(Clone, Copy, Debug)]
pub struct Tunable {
    /// The name `--param` takes (the field's name).
    pub name: &'static str,
    /// Smallest value.
    pub min: i32,
    /// Largest value.
    pub max: i32,
    /// Perturbation of one tuning iteration.
    pub step: f64,
}

const fn tunable(name: &'static str, min: i32, max: i32, step: f64) -> Tunable {
    Tunable {
        name,
        min,
        max,
        step,
    }
}

/// Number of tunable search parameters.
pub const N_TUNABLE: usize = 45;

/// The process's parameters when a tuning run set them.
static PROCESS_PARAMS: std::sync::OnceLock<SearchParams> = std::sync::OnceLock::new();

impl SearchParams {
    /// The constants of this module.
    pub const DEFAULT: SearchParams = SearchParams {
        aspiration: ASPIRATION,
        lmr_base: LMR_BASE,
        lmr_divisor: LMR_DIVISOR,
        lmp_base: LMP_BASE,
        max_quiet_moves: MAX_QUIET_MOVES as i32,
        futility_depth: FUTILITY_DEPTH,
        futility_pct: FUTILITY_PCT,
        nmp_min_depth: NMP_MIN_DEPTH,
        nmp_base: NMP_BASE,
        nmp_div: NMP_DIV,
        move_futility_depth: MOVE_FUTILITY_DEPTH,
        move_futility_pct: MOVE_FUTILITY_PLIES * 100,
        history_bonus: HISTORY_BONUS,
        qs_near_square: QS_NEAR_SQUARE,
        qs_near_line: QS_NEAR_LINE,
        iir_min_depth: IIR_MIN_DEPTH,
        time_mtg_base: TIME_MTG_BASE as i32,
        time_mtg_div: TIME_MTG_DIV as i32,
        time_mtg_min: TIME_MTG_MIN as i32,
        time_unstable_pct: TIME_UNSTABLE_PCT as i32,
        time_stable_pct: TIME_STABLE_PCT as i32,
        time_drop_pct: TIME_DROP_PCT as i32,
        time_turn_pct: TIME_TURN_PCT as i32,
        fhr_pct: FHR_PCT,
        history_lmr_div: HISTORY_LMR_DIV,
        counter_bonus: COUNTER_BONUS,
        lmr_far: LMR_FAR,
        pv_alpha_reduction: PV_ALPHA_REDUCTION,
        trivial_depth: TRIVIAL_DEPTH,
        lmr_attack: LMR_ATTACK,
        root_vct_time_pct: ROOT_VCT_TIME_PCT as i32,
        root_guard_time_pct: ROOT_GUARD_TIME_PCT as i32,
        four_extension_max_ply: FOUR_EXTENSION_MAX_PLY as i32,
        time_hard_div: TIME_HARD_DIV as i32,
        time_next_iteration: TIME_NEXT_ITERATION as i32,
        four_three_threat: FOUR_THREE_THREAT,
        tt_eval: TT_EVAL,
        singular_depth: SINGULAR_DEPTH,
        singular_margin: SINGULAR_MARGIN,
        net_value_pct: NET_VALUE_PCT,
        policy_weight: POLICY_WEIGHT,
        policy_depth: POLICY_DEPTH,
        net_where: NET_WHERE,
        policy_lmr: POLICY_LMR,
        policy_lmr_mid: POLICY_LMR_MID,
    };

    /// Every tunable parameter, in the order of [`SearchParams::values`].
    pub const TUNABLE: [Tunable; N_TUNABLE] = [
        tunable("aspiration", 10, 400, 10.0),
        tunable("lmr_base", 0, 200, 15.0),
        tunable("lmr_divisor", 80, 500, 20.0),
        tunable("lmp_base", 0, 40, 2.0),
        tunable("max_quiet_moves", 4, 80, 3.0),
        tunable("futility_depth", 0, 12, 1.0),
        tunable("futility_pct", 2, 80, 3.0),
        tunable("nmp_min_depth", 1, 10, 1.0),
        tunable("nmp_base", 0, 6, 1.0),
        tunable("nmp_div", 1, 12, 1.0),
        tunable("move_futility_depth", 0, 8, 1.0),
        tunable("move_futility_pct", 10, 400, 20.0),
        tunable("history_bonus", 2, 256, 6.0),
        tunable("qs_near_square", 1, 8, 1.0),
        tunable("qs_near_line", 1, 8, 1.0),
        tunable("iir_min_depth", 2, 64, 1.0),
        tunable("time_mtg_base", 4, 40, 2.0),
        tunable("time_mtg_div", 2, 20, 1.0),
        tunable("time_mtg_min", 2, 20, 1.0),
        tunable("time_unstable_pct", 100, 300, 15.0),
        tunable("time_stable_pct", 20, 100, 8.0),
        tunable("time_drop_pct", 0, 150, 10.0),
        tunable("time_turn_pct", 40, 100, 5.0),
        tunable("fhr_pct", 0, 400, 5.0),
        tunable("history_lmr_div", 0, 100_000, 4_000.0),
        tunable("counter_bonus", 0, 20_000, 500.0),
        tunable("lmr_far", 0, 20, 1.0),
        tunable("pv_alpha_reduction", 0, 1, 1.0),
        tunable("trivial_depth", 0, 12, 1.0),
        tunable("lmr_attack", 0, 20, 1.0),
        tunable("root_vct_time_pct", 0, 100, 2.0),
        tunable("root_guard_time_pct", 0, 100, 5.0),
        tunable("four_extension_max_ply", 0, 64, 2.0),
        tunable("time_hard_div", 2, 20, 1.0),
        tunable("time_next_iteration", 0, 4, 1.0),
        tunable("four_three_threat", 0, 1, 1.0),
        tunable("tt_eval", 0, 1, 1.0),
        tunable("singular_depth", 0, 30, 1.0),
        tunable("singular_margin", 1, 200, 3.0),
        tunable("net_value_pct", 0, 200, 10.0),
        tunable("policy_weight", 0, 5000, 50.0),
        tunable("policy_depth", 1, 30, 1.0),
        tunable("net_where", 0, 2, 1.0),
        tunable("policy_lmr", 0, 200, 10.0),
        tunable("policy_lmr_mid", 0, 1000, 25.0),
    ];

    /// The values, in the order of [`SearchParams::TUNABLE`].
    #[must_use]
    pub fn values(&self) -> [i32; N_TUNABLE] {
        [
            self.aspiration,
            self.lmr_base,
            self.lmr_divisor,
            self.lmp_base,
            self.max_quiet_moves,
            self.futility_depth,
            self.futility_pct,
            self.nmp_min_depth,
            self.nmp_base,
            self.nmp_div,
            self.move_futility_depth,
            self.move_futility_pct,
            self.history_bonus,
            self.qs_near_square,
            self.qs_near_line,
            self.iir_min_depth,
            self.time_mtg_base,
            self.time_mtg_div,
            self.time_mtg_min,
            self.time_unstable_pct,
            self.time_stable_pct,
            self.time_drop_pct,
            self.time_turn_pct,
            self.fhr_pct,
            self.history_lmr_div,
            self.counter_bonus,
            self.lmr_far,
            self.pv_alpha_reduction,
            self.trivial_depth,
            self.lmr_attack,
            self.root_vct_time_pct,
            self.root_guard_time_pct,
            self.four_extension_max_ply,
            self.time_hard_div,
            self.time_next_iteration,
            self.four_three_threat,
            self.tt_eval,
            self.singular_depth,
            self.singular_margin,
            self.net_value_pct,
            self.policy_weight,
            self.policy_depth,
            self.net_where,
            self.policy_lmr,
            self.policy_lmr_mid,
        ]
    }

    /// The parameters with `values` in the order of [`SearchParams::TUNABLE`].
    #[must_use]
    pub fn from_values(v: [i32; N_TUNABLE]) -> SearchParams {
        SearchParams {
            aspiration: v[0],
            lmr_base: v[1],
            lmr_divisor: v[2],
            lmp_base: v[3],
            max_quiet_moves: v[4],
            futility_depth: v[5],
            futility_pct: v[6],
            nmp_min_depth: v[7],
            nmp_base: v[8],
            nmp_div: v[9],
            move_futility_depth: v[10],
            move_futility_pct: v[11],
            history_bonus: v[12],
            qs_near_square: v[13],
            qs_near_line: v[14],
            iir_min_depth: v[15],
            time_mtg_base: v[16],
            time_mtg_div: v[17],
            time_mtg_min: v[18],
            time_unstable_pct: v[19],
            time_stable_pct: v[20],
            time_drop_pct: v[21],
            time_turn_pct: v[22],
            fhr_pct: v[23],
            history_lmr_div: v[24],
            counter_bonus: v[25],
            lmr_far: v[26],
            pv_alpha_reduction: v[27],
            trivial_depth: v[28],
            lmr_attack: v[29],
            root_vct_time_pct: v[30],
            root_guard_time_pct: v[31],
            four_extension_max_ply: v[32],
            time_hard_div: v[33],
            time_next_iteration: v[34],
            four_three_threat: v[35],
            tt_eval: v[36],
            singular_depth: v[37],
            singular_margin: v[38],
            net_value_pct: v[39],
            policy_weight: v[40],
            policy_depth: v[41],
            net_where: v[42],
            policy_lmr: v[43],
            policy_lmr_mid: v[44],
        }
    }

    /// These parameters with `NAME=VALUE` applied.
    ///
    /// # Errors
    /// An unknown name, a value that is no integer, or one outside the parameter's range.
    pub fn with(self, spec: &str) -> Result<SearchParams, String> {
        let (name, value) = spec
            .split_once('=')
            .ok_or_else(|| format!("'{spec}': want NAME=VALUE"))?;
        let i = Self::TUNABLE
            .iter()
            .position(|t| t.name == name)
            .ok_or_else(|| format!("unknown search parameter '{name}'"))?;
        let v: i32 = value
            .parse()
            .map_err(|_| format!("'{value}': not an integer"))?;
        let t = Self::TUNABLE[i];
        if !(t.min..=t.max).contains(&v) {
            return Err(format!("{name} {v}: outside {}..={}", t.min, t.max));
        }
        let mut values = self.values();
        values[i] = v;
        Ok(Self::from_values(values))
    }

    /// The parameters every search of this process uses: the ones set by
    /// [`SearchParams::set_for_process`], or [`SearchParams::DEFAULT`].
    #[must_use]
    pub fn current() -> SearchParams {
        PROCESS_PARAMS.get().copied().unwrap_or(Self::DEFAULT)
    }

    /// Make `self` the parameters of every later search in this process (once, before any).
    ///
    /// # Errors
    /// When they were already set.
    pub fn set_for_process(self) -> Result<(), String> {
        PROCESS_PARAMS
            .set(self)
            .map_err(|_| "the search parameters are already set".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_defaults_are_in_range() {
        let d = SearchParams::DEFAULT;
        assert_eq!(SearchParams::from_values(d.values()), d);
        for (t, v) in SearchParams::TUNABLE.iter().zip(d.values()) {
            assert!((t.min..=t.max).contains(&v), "{} {v}", t.name);
            assert!(t.step >= 1.0, "{}", t.name);
        }
        // Every slot reaches its own field and no other.
        for (i, t) in SearchParams::TUNABLE.iter().enumerate() {
            let v = if d.values()[i] == t.max { t.min } else { t.max };
            let p = d.with(&format!("{}={v}", t.name)).unwrap();
            for (j, (a, b)) in p.values().iter().zip(d.values()).enumerate() {
                assert_eq!(*a == b, i != j, "{} slot {j}", t.name);
            }
        }
    }

    #[test]
    fn bad_specs_are_errors() {
        let d = SearchParams::DEFAULT;
        for bad in [
            "aspiration",
            "nope=3",
            "aspiration=x",
            "aspiration=5",
            "aspiration=401",
        ] {
            assert!(d.with(bad).is_err(), "{bad}");
        }
        assert_eq!(d.with("aspiration=400").unwrap().aspiration, 400);
    }
}
