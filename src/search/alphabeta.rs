//! The alpha-beta worker: its state and the PVS node function with its quiescence search.
//! Iterative deepening, time and Lazy SMP are in [`iterate`], the
//! main thread's preparation (forced moves, root guard) in [`prepare`], move ordering and
//! history in [`ordering`].

mod iterate;
mod lines;
mod ordering;
mod prepare;
pub use iterate::Prepared;

use super::params::*;
use super::picker::Picker;
use super::threats::{
    find_five, five_stops, four_moves, four_moves_near, has_open_four, is_threat, legal, rank,
};
use super::tt::Bound;
use super::vcf::Solver;
use super::Shared;
use crate::board::Board;
use crate::eval::{evaluate, WIN, WIN_THRESHOLD};
use crate::nnue::accumulator::{Accumulator, Quantised};
use crate::pattern::code::CodeWeights;
use crate::pattern::Class;
use crate::types::{Pos, MAX_CELLS};
use smallvec::SmallVec;
use std::sync::atomic::Ordering;

/// One search thread: its own board copy, ordering tables and principal variation.
pub struct Worker<'a> {
    board: Board,
    /// The evaluation network of the board's rule, when the process plays one
    /// ([`crate::nnue::for_rule`]), and its incremental state when its value is used
    /// ([`SearchParams::net_value_pct`] above 0; the policy alone is computed cell by cell).
    /// `None`: the classical evaluation and ordering.
    nn: Option<(&'static Quantised, Option<Accumulator>)>,
    shared: &'a Shared,
    id: usize,
    nodes: u64,
    flushed: u64,
    stopped: bool,
    /// Lazy SMP: abandon the iteration in progress once another thread has completed
    /// an iteration of at least this depth (it is taken over instead).
    abandon_at: Option<i32>,
    /// The iteration in progress was abandoned for a helper's (the search goes on).
    abandoned: bool,
    /// ABDADA: moves this thread deferred because another thread was searching them.
    deferrals: u64,
    killers: Vec<[Pos; 2]>,
    /// Counter moves: per colour, the quiet move that last cut off after the opponent's stone
    /// on each cell ([`COUNTER_BONUS`] in the ordering key; kept only when that is not 0).
    counters: Vec<[Pos; MAX_CELLS]>,
    /// History per cell: one table per colour, and in renju a second per colour for threat
    /// moves ([`Worker::history_table`]).
    history: Vec<[i32; MAX_CELLS]>,
    pv: Vec<Vec<Pos>>,
    extension_limit: usize,
    next_check: u64,
    root: Vec<Pos>,
    evals: Vec<i32>,
    /// Whether the move played at each ply made an open three or better for its mover (no
    /// for a null move).
    attacks: Vec<bool>,
    /// The move a singular-extension test leaves out at each ply ([`Pos::PASS`]: none).
    excluded: Vec<Pos>,
    reductions: Vec<[i32; 64]>,
    root_best: Option<(Pos, i32, Vec<Pos>)>,
    /// The root VCT probe's solver, kept across the iterations of one search (its failure
    /// cache carries over).
    vct_solver: Option<Solver>,
    /// The root VCT guard's solver (the opponent attacking after our best move), kept across
    /// the iterations of one search.
    guard_solver: Option<Solver>,
    /// Reverse-futility margin per ply, in evaluation points: [`FUTILITY_PCT`] percent of the
    /// rule's calibrated scale (points per logistic unit of win probability).
    futility_unit: i32,
    /// [`super::Limits::sample_leaves`].
    sample_leaves: u64,
    /// History with gravity and a quiet-move malus ([`history_gravity`]); otherwise the
    /// plain additive history.
    gravity: bool,
    /// The search parameters ([`SearchParams::current`] when the worker was made).
    p: SearchParams,
}

/// The late-move reduction table: `[depth][move number]`, in plies.
fn reduction_table(p: &SearchParams) -> Vec<[i32; 64]> {
    let mut t = vec![[0i32; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = f64::from(p.lmr_base) / 100.0
                + (d as f64).ln() * (m as f64).ln() * 100.0 / f64::from(p.lmr_divisor);
            *r = v as i32;
        }
    }
    t
}

/// History bonus of a move that cut off at remaining `depth` (the malus of the quiet moves
/// searched before it), `unit` per squared ply ([`HISTORY_BONUS`]).
#[inline]
fn history_bonus(unit: i32, depth: i32) -> i32 {
    (unit * depth * depth).min(HISTORY_BONUS_MAX)
}

/// History entry `h` after a bonus (or, negative, a malus) of `bonus`, with gravity: it moves
/// towards the bound of the bonus's sign by the share `|bonus| / HISTORY_MAX` of the distance
/// left, so for `|bonus| <= HISTORY_MAX` it stays within `[-HISTORY_MAX, HISTORY_MAX]`.
#[inline]
fn with_gravity(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / HISTORY_MAX
}

/// Move-count pruning limit at `depth`, `lmp_base` ([`LMP_BASE`]) plus the squared depth.
#[inline]
fn move_count_limit(lmp_base: i32, depth: i32, improving: bool) -> usize {
    let d = depth.clamp(0, 30);
    let base = lmp_base + d * d;
    (if improving { base } else { base / 2 }) as usize
}

impl<'a> Worker<'a> {
    /// A worker searching `board` with shared state `shared`; thread `id` (0 = main).
    #[must_use]
    pub fn new(board: Board, shared: &'a Shared, id: usize) -> Worker<'a> {
        let p = SearchParams::current();
        let futility_unit = CodeWeights::get(board.rule()).scale * p.futility_pct / 100;
        let gravity = history_gravity(board.rule());
        let nn = crate::nnue::for_rule(board.rule()).map(|q| {
            let acc = (p.net_value_pct > 0).then(|| Accumulator::new(q, &board));
            (q, acc)
        });
        Worker {
            nn,
            board,
            shared,
            id,
            nodes: 0,
            flushed: 0,
            stopped: false,
            abandon_at: None,
            abandoned: false,
            deferrals: 0,
            killers: vec![[Pos::PASS; 2]; MAX_PLY + 1],
            counters: vec![[Pos::PASS; MAX_CELLS]; 2],
            history: vec![[0; MAX_CELLS]; 4],
            pv: vec![Vec::new(); MAX_PLY + 2],
            extension_limit: 0,
            next_check: CHECK_EVERY,
            root: Vec::new(),
            evals: vec![0; MAX_PLY + 2],
            attacks: vec![false; MAX_PLY + 2],
            excluded: vec![Pos::PASS; MAX_PLY + 2],
            reductions: reduction_table(&p),
            p,
            root_best: None,
            vct_solver: None,
            guard_solver: None,
            futility_unit,
            gravity,
            sample_leaves: shared.limits.sample_leaves,
        }
    }

    /// Play `m` on the search's board (and the network's accumulator).
    #[inline]
    fn make(&mut self, m: Pos) {
        self.board.play_unchecked(m);
        self.follow(Some(m));
    }

    /// Take back the last stone played with [`Worker::make`].
    #[inline]
    fn unmake(&mut self) {
        if self.board.undo().is_some() {
            self.follow(None);
        }
    }

    /// The network's accumulator, if one is kept, follows the stone put on `m` (`None`: the
    /// last one taken back) (`check-invariants`: and is the one computed from scratch).
    #[inline]
    fn follow(&mut self, m: Option<Pos>) {
        if let Some((q, Some(acc))) = &mut self.nn {
            match m {
                Some(m) => acc.play(q, &self.board, m),
                None => acc.take_back(),
            }
            #[cfg(feature = "check-invariants")]
            assert_eq!(
                *acc,
                Accumulator::new(q, &self.board),
                "accumulator after a stone on or off {m:?}"
            );
        }
    }

    /// Record the board for [`super::Limits::sample_leaves`] (not if a null move led to it).
    #[cold]
    fn record_leaf(&self) {
        if self.board.history().any(|(p, _)| p.is_pass()) {
            return;
        }
        if let Ok(mut v) = self.shared.leaves.lock() {
            v.push(self.board.history().map(|(p, _)| p).collect());
        }
    }

    /// The static evaluation of the search's board for the side to move: the classical
    /// evaluation, plus the network's correction on the rule's calibrated scale when the
    /// process plays one.
    #[inline]
    fn eval(&self) -> i32 {
        self.eval_at(false)
    }

    /// [`Worker::eval`] at a quiescence stand-pat (`stand_pat`) or elsewhere: the network's
    /// correction only where [`SearchParams::net_where`] puts it.
    #[inline]
    fn eval_at(&self, stand_pat: bool) -> i32 {
        let classical = evaluate(&self.board);
        let used = |w: i32| match w {
            1 => stand_pat,
            2 => !stand_pat,
            _ => true,
        };
        match &self.nn {
            Some((q, Some(acc))) if used(self.p.net_where) => {
                let v = acc.value(q, self.board.side_to_move())
                    * (q.scale * self.p.net_value_pct) as f32
                    / 100.0;
                (classical + v as i32).clamp(-(WIN_THRESHOLD - 1), WIN_THRESHOLD - 1)
            }
            _ => classical,
        }
    }

    /// Show the main thread's root progress to the watcher, if any (helpers show nothing).
    fn watch(&self, f: impl FnOnce(&super::RootWatch)) {
        if self.id == 0 {
            if let Some(w) = &self.shared.limits.watch {
                f(w);
            }
        }
    }

    fn flush_nodes(&mut self) {
        let n = self.nodes - self.flushed;
        self.shared.nodes.fetch_add(n, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Count a node and poll the limits every [`CHECK_EVERY`] nodes; true once the search must
    /// stop. With several threads the stop flag is also read at every node (one relaxed load),
    /// and a thread that finds a limit reached raises it for the others: with more threads than
    /// cores a thread runs a fraction of the time, and the stop must not wait for each of them
    /// to search [`CHECK_EVERY`] more nodes.
    #[inline]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.shared.threads > 1 && self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        } else if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            self.flush_nodes();
            if self.shared.should_stop() {
                self.stopped = true;
                if self.shared.threads > 1 {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            } else if self
                .abandon_at
                .is_some_and(|d| self.shared.completed_by_others(self.id) >= d)
            {
                self.stopped = true;
                self.abandoned = true;
            }
        }
        self.stopped
    }

    /// The distance (the larger of the two axis distances) from `m` to the stone played `k`
    /// plies back (`0` = the last); `None` when there is none or it was a pass.
    fn distance_back(&self, k: usize, m: Pos) -> Option<i32> {
        let n = self.board.size();
        let (p, _) = self.board.ply_back(k).filter(|(p, _)| !p.is_pass())?;
        Some(
            (p.x(n) as i32 - m.x(n) as i32)
                .abs()
                .max((p.y(n) as i32 - m.y(n) as i32).abs()),
        )
    }

    /// Whether `m` lies within [`LMR_ATTACK`] cells of the side's own last stone, the move at
    /// `ply - 2`, and that move made an open three or better.
    fn continues_attack(&self, m: Pos, ply: usize) -> bool {
        ply >= 2
            && self.attacks[ply - 2]
            && self
                .distance_back(1, m)
                .is_some_and(|d| d <= self.p.lmr_attack)
    }

    /// The policy logit of `me`'s move `p`: from the accumulator when one is kept, else
    /// computed cell by cell from the board (`None`: not an empty cell).
    #[inline]
    fn policy_logit(
        q: &Quantised,
        acc: Option<&Accumulator>,
        board: &Board,
        p: Pos,
        me: crate::types::Color,
    ) -> Option<f32> {
        match acc {
            Some(a) => a.logit(q, me, p),
            None => q.logit_at(board, p, me),
        }
    }

    /// [`SearchParams::policy_lmr`]'s change to the reduction of `me`'s move `m` (0 without a
    /// network): its policy surprise `-ln p` over the node's candidates (`norm` caches their
    /// log-sum-exp for the node) against [`SearchParams::policy_lmr_mid`].
    fn policy_reduction(&self, m: Pos, me: crate::types::Color, norm: &mut Option<f32>) -> i32 {
        let Some((q, acc)) = &self.nn else {
            return 0;
        };
        let logit = |p: Pos| Self::policy_logit(q, acc.as_ref(), &self.board, p, me);
        let Some(l) = logit(m) else {
            return 0;
        };
        let lse = *norm.get_or_insert_with(|| {
            let ls: SmallVec<[f32; 128]> = self.board.candidates().filter_map(logit).collect();
            let top = ls.iter().copied().fold(f32::MIN, f32::max);
            top + ls.iter().map(|x| (x - top).exp()).sum::<f32>().ln()
        });
        let surprise = (lse - l) * 100.0 - self.p.policy_lmr_mid as f32;
        (surprise * self.p.policy_lmr as f32 / 10_000.0)
            .round()
            .clamp(-2.0, 2.0) as i32
    }

    /// Whether `m` lies farther than [`LMR_FAR`] cells from both the opponent's last stone and
    /// the side's own last stone; false when either is missing or a pass.
    fn far_from_play(&self, m: Pos) -> bool {
        let far = |k| self.distance_back(k, m).is_some_and(|d| d > self.p.lmr_far);
        far(0) && far(1)
    }

    /// The principal variation at `ply` becomes `m` followed by the child's.
    #[inline]
    fn set_pv(&mut self, ply: usize, m: Pos) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Threat quiescence at depth 0 and below: stand pat on the static evaluation, then the side
    /// to move's fours (each answered by the forced block); the reply to a five is forced and is
    /// searched without standing pat. A renju black block on a forbidden point is no block (the
    /// five wins). Results go to the transposition table at depth 0.
    fn qsearch(&mut self, alpha: i32, beta: i32, ply: usize, qply: i32) -> i32 {
        self.pv[ply].clear();
        if self.count_node() {
            return 0;
        }
        let me = self.board.side_to_move();
        let opp = me.opponent();
        let ply_i = ply as i32;
        if let Some(f) = find_five(&self.board, me) {
            self.pv[ply].push(f);
            return WIN - (ply_i + 1);
        }
        if find_five(&self.board, opp).is_some() {
            let stops = five_stops(&mut self.board, opp);
            if stops.is_empty() {
                return -(WIN - (ply_i + 2));
            }
            if ply >= MAX_PLY - 2 {
                return self.eval();
            }
            // The block is forced (one stone outside caro): no stand pat.
            return self
                .qsearch_moves(stops, -WIN, alpha, beta, ply, qply)
                .map_or(0, |(best, _)| best);
        }
        if has_open_four(&self.board, me) {
            return WIN - (ply_i + 3);
        }
        let stand = self.eval_at(true);
        if self.sample_leaves != 0 && self.nodes.is_multiple_of(self.sample_leaves) {
            self.record_leaf();
        }
        let fours = self.board.count(me, Class::Four)
            + self.board.count(me, Class::FourThree)
            + self.board.count(me, Class::FourDoubleThree);
        if stand >= beta || fours == 0 || qply >= QS_MAX_PLY || ply >= MAX_PLY - 2 {
            return stand;
        }
        let key = self.board.hash();
        let mut tt_move = Pos::PASS;
        if let Some(e) = self.shared.tt.probe(key, ply_i) {
            tt_move = e.mv;
            if e.depth >= 0 && e.cuts(alpha, beta) {
                return e.score;
            }
        }
        let orig_alpha = alpha;
        // After its first four, only fours near the side's own last stone: a four sequence
        // that wins builds on the stones it has just played.
        let last = self
            .board
            .ply_back(1)
            .filter(|(p, _)| qply >= 2 && !p.is_pass())
            .map(|(p, _)| p);
        let mut moves = match last {
            Some(l) => four_moves_near(
                &mut self.board,
                me,
                l,
                self.p.qs_near_square,
                self.p.qs_near_line,
            ),
            None => four_moves(&mut self.board, me),
        };
        if let Some(i) = moves.iter().position(|&p| p == tt_move) {
            let m = moves.remove(i);
            moves.insert(0, m);
        }
        let Some((best, best_move)) =
            self.qsearch_moves(moves, stand, alpha.max(stand), beta, ply, qply)
        else {
            return 0;
        };
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha && best_move != Pos::PASS {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(key, ply_i, best_move, best, 0, bound);
        best
    }

    /// The quiescence move loop: search `moves` in order from `best` (the stand-pat value, or
    /// `-WIN` for forced blocks) within `(alpha, beta)`, the principal variation at `ply` set by
    /// each improvement, stopping at a cut-off. The best score and move (`Pos::PASS` if none
    /// beat `best`), or `None` once the search is stopped.
    fn qsearch_moves(
        &mut self,
        moves: impl IntoIterator<Item = Pos>,
        mut best: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: i32,
    ) -> Option<(i32, Pos)> {
        let mut best_move = Pos::PASS;
        for m in moves {
            self.shared.tt.prefetch(self.board.hash_after(m));
            self.make(m);
            let score = -self.qsearch(-beta, -alpha, ply + 1, qply + 1);
            self.unmake();
            if self.stopped {
                return None;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        Some((best, best_move))
    }

    /// The PVS node function. Returns the score for the side to move. `cut_node`: the node is
    /// expected to fail high (the null-window child of a reduced search, or the first child
    /// of an expected fail-low node); late moves there are reduced one ply more.
    #[allow(
        clippy::too_many_lines,
        reason = "one node function laid out in numbered steps"
    )]
    fn search(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: usize, cut_node: bool) -> i32 {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0);
        }
        let pv_node = beta - alpha > 1;
        // A singular-extension test of this node ([`SINGULAR_DEPTH`]): the table move is left
        // out, and nothing is cut by the table, pruned at node level or stored.
        let excluded = self.excluded[ply];
        let singular_test = excluded != Pos::PASS;
        self.pv[ply].clear();
        // Step 1. Count the node; check the limits every few thousand nodes.
        if self.count_node() {
            return 0;
        }
        let me = self.board.side_to_move();
        let opp = me.opponent();
        let ply_i = ply as i32;
        // Step 2. Immediate win (the root searches its move list instead, which may exclude
        // moves; the five is first in it anyway).
        let root = ply == 0 && !self.root.is_empty();
        if !root {
            if let Some(f) = find_five(&self.board, me) {
                self.pv[ply].push(f);
                return WIN - (ply_i + 1);
            }
        }
        // Step 3. Opponent's five: block it or lose.
        let mut forced = None;
        if find_five(&self.board, opp).is_some() {
            let stops = five_stops(&mut self.board, opp);
            if stops.is_empty() {
                return -(WIN - (ply_i + 2));
            }
            forced = Some(stops);
        } else if !root && has_open_four(&self.board, me) {
            // Step 4. Own open four: a win in three plies.
            return WIN - (ply_i + 3);
        }
        if ply >= MAX_PLY - 1 {
            return self.eval();
        }
        // Step 5. Transposition table.
        let key = self.board.hash();
        let mut tt_move = Pos::PASS;
        let tt_entry = self.shared.tt.probe(key, ply_i);
        if let Some(e) = tt_entry {
            tt_move = e.mv;
            if !pv_node && !singular_test && e.depth >= depth && e.cuts(alpha, beta) {
                return e.score;
            }
        }
        if tt_move != Pos::PASS && !self.board.is_empty(tt_move) {
            tt_move = Pos::PASS;
        }
        // Internal iterative reduction: without a TT move the ordering is a guess; search one
        // ply shallower.
        let mut depth = if tt_move == Pos::PASS && depth >= self.p.iir_min_depth && !root {
            depth - 1
        } else {
            depth
        };
        // Step 6. Threats against the side to move, and the static evaluation.
        let opp_open_three = forced.is_none() && has_open_four(&self.board, opp);
        // The opponent's four-three point: a win in five plies unless the side to move answers
        // it (or counters with fours), so no node-level pruning trusts the static evaluation.
        // ([`FOUR_THREE_THREAT`] 0 turns this off.)
        let opp_four_three = self.p.four_three_threat > 0 && self.board.has(opp, Class::FourThree);
        let threatened = forced.is_some() || opp_open_three || opp_four_three;
        let static_eval = self.eval();
        self.evals[ply] = static_eval;
        let improving = ply >= 2 && static_eval > self.evals[ply - 2];
        // [`TT_EVAL`]: the table's score where its bound says the value lies beyond the static
        // evaluation on that side; the node-level pruning below reads `eval`.
        let eval = match tt_entry {
            Some(e)
                if self.p.tt_eval > 0
                    && e.score.abs() < WIN_THRESHOLD
                    && e.bound.holds_beyond(e.score, static_eval) =>
            {
                e.score
            }
            _ => static_eval,
        };
        // Reverse futility: a node not threatened whose static evaluation is above beta by a
        // margin that grows with the depth fails high without a search.
        if !root
            && !pv_node
            && !threatened
            && !singular_test
            && depth <= self.p.futility_depth
            && beta.abs() < WIN_THRESHOLD
            && eval < WIN_THRESHOLD
            && eval - self.futility_unit * (depth - i32::from(improving)) >= beta
        {
            return eval;
        }
        // Null move: when the side to move is not threatened and already above beta, let the
        // opponent move twice; if that still fails high at a reduced depth, so does this node.
        if !root
            && !pv_node
            && !threatened
            && !singular_test
            && depth >= self.p.nmp_min_depth
            && eval >= beta
            && beta.abs() < WIN_THRESHOLD
            && self.board.last_move().is_some_and(|(p, _)| !p.is_pass())
        {
            let r = self.p.nmp_base + depth / self.p.nmp_div;
            self.attacks[ply] = false;
            self.board.pass();
            let v = -self.search(depth - 1 - r, -beta, -beta + 1, ply + 1, !cut_node);
            self.board.undo();
            if self.stopped {
                return 0;
            }
            if v >= beta {
                return if v >= WIN_THRESHOLD { beta } else { v };
            }
        }
        // Step 7. Move generation: the root list, a forced block, defences against an open
        // three, or (`lazy`) all candidates, picked best first on demand with legality checked
        // on picking and quiet moves past [`MAX_QUIET_MOVES`] dropped.
        let (mut picker, lazy) = if root {
            let mut r = self.root.clone();
            if let Some(i) = r.iter().position(|&p| p == tt_move) {
                let m = r.remove(i);
                r.insert(0, m);
            }
            (Picker::in_order(r), false)
        } else if let Some(stops) = &forced {
            (Picker::in_order(stops.iter().copied()), false)
        } else if opp_open_three {
            let d = self.defence_moves(ply, tt_move, me);
            if d.is_empty() {
                return -(WIN - (ply_i + 4));
            }
            (Picker::new(d), false)
        } else {
            (
                Picker::new(self.keyed_candidates(ply, tt_move, me, depth)),
                true,
            )
        };
        // Step 8. The move loop: PVS, move-count pruning, four extensions, late-move
        // reductions.
        let mut best = -WIN;
        let mut best_move = Pos::PASS;
        let orig_alpha = alpha;
        let mut quiets = 0usize;
        // The policy's log-sum-exp over this node's candidates, once [`POLICY_LMR`] needs it.
        let mut policy_norm: Option<f32> = None;
        let mut capped = 0usize;
        let count_limit = move_count_limit(self.p.lmp_base, depth, improving);
        let futile = lazy
            && !threatened
            && !root
            && !pv_node
            && depth <= self.p.move_futility_depth
            && alpha.abs() < WIN_THRESHOLD
            && eval + self.futility_unit * self.p.move_futility_pct * depth / 100 <= alpha;
        // Fail-high reduction ([`FHR_PCT`]): an expected cut node already well above beta
        // searches its non-tactical moves one ply shallower.
        let likely_fail_high = self.p.fhr_pct > 0
            && cut_node
            && !threatened
            && !root
            && !pv_node
            && beta.abs() < WIN_THRESHOLD
            && eval < WIN_THRESHOLD
            && eval >= beta + self.futility_unit * self.p.fhr_pct * depth / 100;
        let mut next = 0usize;
        let mut tried_quiets: SmallVec<[Pos; 32]> = SmallVec::new();
        // ABDADA (several threads only): a later move another thread is searching is deferred
        // to the end of the list (with its move number), and searched after the others.
        let abdada = self.shared.threads > 1 && depth >= ABDADA_MIN_DEPTH;
        let mut deferred: SmallVec<[(Pos, usize); 8]> = SmallVec::new();
        let mut next_deferred = 0usize;
        loop {
            let (m, was_deferred) = match picker.next_move() {
                Some(m) => (m, None),
                None => match deferred.get(next_deferred) {
                    Some(&(m, i)) => {
                        next_deferred += 1;
                        (m, Some(i))
                    }
                    None => break,
                },
            };
            if m == excluded {
                continue;
            }
            let class = self.board.class(m, me);
            let own = rank(class);
            let theirs = rank(self.board.class(m, opp));
            let i = if let Some(i) = was_deferred {
                i
            } else {
                if lazy {
                    if !legal(&mut self.board, m, me) {
                        continue;
                    }
                    if own == 0 && theirs == 0 && m != tt_move {
                        capped += 1;
                        if capped > self.p.max_quiet_moves as usize {
                            continue;
                        }
                    }
                }
                next += 1;
                next - 1
            };
            if i == 0 {
                best_move = m;
            }
            // Tactical moves (fours, double threes, blocks of the opponent's double-three and
            // four-three points) are neither pruned nor reduced; open threes and blocks of the
            // opponent's open-three points are not pruned, but reduced one ply less than quiet
            // moves.
            let tactical = own >= rank(Class::Four) || theirs >= rank(Class::DoubleThree);
            let threat = is_threat(own, theirs);
            let quiet = !threat && m != tt_move && forced.is_none();
            let reducible = !tactical && m != tt_move && forced.is_none();
            if quiet && was_deferred.is_none() {
                quiets += 1;
                if !root && best > -WIN_THRESHOLD && quiets > count_limit {
                    continue;
                }
                // Futility: near the leaves, a quiet move cannot lift a static evaluation this
                // far below alpha.
                if futile && best > -WIN_THRESHOLD {
                    continue;
                }
                // Trivial moves ([`TRIVIAL_DEPTH`]): nothing for either side on the cell.
                if lazy
                    && !root
                    && best > -WIN_THRESHOLD
                    && depth < self.p.trivial_depth
                    && class == Class::None
                    && self.board.class(m, opp) == Class::None
                {
                    continue;
                }
            }
            let busy = abdada.then(|| Shared::busy_hash(key, m));
            if busy.is_some_and(|h| i > 0 && was_deferred.is_none() && self.shared.is_busy(h)) {
                deferred.push((m, i));
                self.deferrals += 1;
                continue;
            }
            let mut new_depth = depth - 1;
            if class.is_four() && ply < self.extension_limit {
                new_depth += 1;
            }
            if likely_fail_high && !tactical {
                new_depth -= 1;
            }
            // Singular extension ([`SINGULAR_DEPTH`]): the table move, when every other move
            // fails low against its stored score less a margin at half the depth, is searched
            // one ply deeper; when the others reach beta too, the node fails high (multi-cut).
            if i == 0
                && m == tt_move
                && self.p.singular_depth > 0
                && depth >= self.p.singular_depth.max(3)
                && !root
                && !singular_test
                && forced.is_none()
            {
                if let Some(e) = tt_entry.filter(|e| {
                    e.mv == m
                        && e.bound != Bound::Upper
                        && e.depth >= depth - 3
                        && e.score.abs() < WIN_THRESHOLD
                }) {
                    let margin = self.futility_unit * self.p.singular_margin * depth / 100;
                    let s_beta = e.score - margin;
                    self.excluded[ply] = m;
                    let v = self.search((depth - 1) / 2, s_beta - 1, s_beta, ply, cut_node);
                    self.excluded[ply] = Pos::PASS;
                    self.pv[ply].clear();
                    if self.stopped {
                        return 0;
                    }
                    if v < s_beta {
                        if ply < self.extension_limit {
                            new_depth += 1;
                        }
                    } else if s_beta >= beta {
                        return s_beta;
                    }
                }
            }
            if root {
                self.watch(|w| w.searching(m));
            }
            if let Some(h) = busy {
                self.shared.set_busy(h, true);
            }
            // A move away from both sides' last stones ([`LMR_FAR`]) is reduced one ply more.
            let far =
                self.p.lmr_far > 0 && reducible && i >= LMR_MIN_MOVES && self.far_from_play(m);
            // A move near the side's own last stone that attacked ([`LMR_ATTACK`]) is reduced
            // one ply less.
            let attack_on = self.p.lmr_attack > 0
                && reducible
                && i >= LMR_MIN_MOVES
                && self.continues_attack(m, ply);
            // [`POLICY_LMR`]: the policy's say in the reduction (read before the move is made).
            let policy_r = if self.p.policy_lmr > 0
                && reducible
                && i >= LMR_MIN_MOVES
                && depth >= LMR_MIN_DEPTH
            {
                self.policy_reduction(m, me, &mut policy_norm)
            } else {
                0
            };
            self.attacks[ply] = own > 0;
            self.shared.tt.prefetch(self.board.hash_after(m));
            self.make(m);
            let mut score;
            if i == 0 {
                score = -self.search(new_depth, -beta, -alpha, ply + 1, !pv_node && !cut_node);
            } else {
                let mut r = 0;
                if i >= LMR_MIN_MOVES && depth >= LMR_MIN_DEPTH && reducible {
                    r = self.reductions[depth.min(63) as usize][i.min(63)];
                    if pv_node {
                        r -= 1;
                    }
                    if threat {
                        r -= 1;
                    }
                    if self.killers[ply][0] == m || self.killers[ply][1] == m {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if cut_node {
                        r += 1;
                    }
                    // Renju's bounded history ([`HISTORY_LMR_DIV`]): a move that often cut off
                    // is reduced less, one that often failed more.
                    if self.gravity && self.p.history_lmr_div > 0 {
                        r -= self.history[self.history_table(me, threat)][m.index()]
                            / self.p.history_lmr_div;
                    }
                    if far {
                        r += 1;
                    }
                    if attack_on {
                        r -= 1;
                    }
                    r += policy_r;
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                score = -self.search(
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    r > 0 || !cut_node,
                );
                if score > alpha && r > 0 {
                    score = -self.search(new_depth, -alpha - 1, -alpha, ply + 1, !cut_node);
                }
                if score > alpha && score < beta {
                    score = -self.search(new_depth, -beta, -alpha, ply + 1, false);
                }
            }
            self.unmake();
            if let Some(h) = busy {
                self.shared.set_busy(h, false);
            }
            if self.stopped {
                return 0;
            }
            if root {
                self.watch(|w| w.searched(m, score <= -WIN_THRESHOLD));
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if root {
                        self.root_best = Some((m, score, self.pv[0].clone()));
                    }
                    // [`PV_ALPHA_REDUCTION`]: with a move that raised alpha, the later moves
                    // of a PV node are searched one ply shallower.
                    if self.p.pv_alpha_reduction > 0
                        && pv_node
                        && score < beta
                        && depth > 2
                        && depth < 12
                        && beta < WIN_THRESHOLD
                        && score > -WIN_THRESHOLD
                    {
                        depth -= 1;
                    }
                    if score >= beta {
                        if !threat {
                            let k = &mut self.killers[ply];
                            if k[0] != m {
                                k[1] = k[0];
                                k[0] = m;
                            }
                            if self.p.counter_bonus > 0 {
                                if let Some((l, _)) = self.board.last_move() {
                                    if !l.is_pass() {
                                        self.counters[me.index()][l.index()] = m;
                                    }
                                }
                            }
                        }
                        self.history_cutoff(me, m, threat, depth, &tried_quiets);
                        break;
                    }
                }
            }
            // Only the gravity history uses them (the malus).
            if self.gravity && !threat && tried_quiets.len() < tried_quiets.inline_size() {
                tried_quiets.push(m);
            }
        }
        if next == 0 {
            // No legal move: a draw; in a singular-extension test, no other move: a fail low.
            return if singular_test { alpha } else { 0 };
        }
        // Step 9. Store.
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !singular_test {
            self.shared
                .tt
                .store(key, ply_i, best_move, best, depth, bound);
        }
        best
    }
}

#[cfg(test)]
mod tests;
