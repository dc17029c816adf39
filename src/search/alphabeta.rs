//! The alpha-beta worker: iterative deepening, aspiration windows, and the PVS node function.

use super::params::*;
use super::picker::{Keyed, Picker};
use super::threats::{
    find_five, four_moves, four_moves_near, has_open_four, is_threat, legal, rank, sort_moves,
    static_order_key, DefenceFilter, RANK_UNIT,
};
use super::tt::Bound;
use super::vcf::{Solution, Solver};
use super::{Iteration, Reporter, SearchResult, Shared};
use crate::board::Board;
use crate::eval::{evaluate, is_mate, WIN, WIN_THRESHOLD};
use crate::pattern::code::CodeWeights;
use crate::pattern::Class;
use crate::types::{Color, Pos, MAX_CELLS};
use smallvec::SmallVec;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One search thread: its own board copy, ordering tables and principal variation.
pub struct Worker<'a> {
    board: Board,
    shared: &'a Shared,
    id: usize,
    nodes: u64,
    flushed: u64,
    stopped: bool,
    /// Lazy SMP, main thread: abandon the iteration in progress once a helper has completed
    /// an iteration of at least this depth (it is taken over instead).
    abandon_at: Option<i32>,
    /// The iteration in progress was abandoned for a helper's (the search goes on).
    abandoned: bool,
    killers: Vec<[Pos; 2]>,
    /// History per cell: one table per colour, and in renju a second per colour for threat
    /// moves ([`Worker::history_table`]).
    history: Vec<[i32; MAX_CELLS]>,
    pv: Vec<Vec<Pos>>,
    extension_limit: usize,
    next_check: u64,
    root: Vec<Pos>,
    evals: Vec<i32>,
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
    /// History with gravity and a quiet-move malus ([`history_gravity`]); otherwise the
    /// plain additive history.
    gravity: bool,
    /// The search parameters ([`SearchParams::current`] when the worker was made).
    p: SearchParams,
}

/// What a root VCT probe found.
enum VctProbe {
    /// A proven win: the proof line, starting with a root move.
    Win(Vec<Pos>),
    /// Nothing within the budget: a later probe may find one.
    Open,
    /// The solver proved that no VCT of [`ROOT_VCT_DEPTH`] threats exists.
    Exhausted,
}

/// What the main thread's preparation decided ([`Worker::prepare`]).
pub enum Prepared {
    /// The move is decided without a search.
    Done(SearchResult),
    /// Search these root moves (the result so far holds a fallback move).
    Search(SearchResult, Vec<Pos>),
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

/// A VCT probe for the side to move on `board` with the solver in `slot` (made on first use,
/// its failure cache kept across probes): what it found, and the solver nodes it took.
fn vct_probe(
    slot: &mut Option<Solver>,
    board: &mut Board,
    stop: Arc<AtomicBool>,
    nodes: u64,
    deadline: Option<Instant>,
) -> (VctProbe, u64) {
    let solver = slot.get_or_insert_with(|| Solver::new(0).with_stop(stop));
    let before = solver.nodes;
    let probe = match solver.vct_resume(board, ROOT_VCT_DEPTH, nodes, deadline) {
        Solution::Win(line) => VctProbe::Win(line),
        Solution::NoWin if !solver.gave_up() => VctProbe::Exhausted,
        Solution::NoWin => VctProbe::Open,
    };
    (probe, solver.nodes - before)
}

impl<'a> Worker<'a> {
    /// A worker searching `board` with shared state `shared`; thread `id` (0 = main).
    #[must_use]
    pub fn new(board: Board, shared: &'a Shared, id: usize) -> Worker<'a> {
        let p = SearchParams::current();
        let futility_unit = CodeWeights::get(board.rule()).scale * p.futility_pct / 100;
        let gravity = history_gravity(board.rule());
        Worker {
            board,
            shared,
            id,
            nodes: 0,
            flushed: 0,
            stopped: false,
            abandon_at: None,
            abandoned: false,
            killers: vec![[Pos::PASS; 2]; MAX_PLY + 1],
            history: vec![[0; MAX_CELLS]; 4],
            pv: vec![Vec::new(); MAX_PLY + 2],
            extension_limit: 0,
            next_check: CHECK_EVERY,
            root: Vec::new(),
            evals: vec![0; MAX_PLY + 2],
            reductions: reduction_table(&p),
            p,
            root_best: None,
            vct_solver: None,
            guard_solver: None,
            futility_unit,
            gravity,
        }
    }

    fn flush_nodes(&mut self) {
        let n = self.nodes - self.flushed;
        self.shared.nodes.fetch_add(n, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// A helper thread of a Lazy SMP search: the main thread's iterative deepening over the
    /// same root moves, with aspiration windows and its own ordering tables, filling the shared
    /// table. A depth that at least half of the threads are searching already is skipped (by
    /// the main thread too), so the threads spread over the next depths instead of repeating
    /// one another's. Each completed iteration is published, for the main thread to take over
    /// and for the final choice of move; root moves the main thread drops are dropped at the
    /// next iteration. Runs until the search stops or it has completed the search's maximum
    /// depth.
    pub fn helper_iterate(&mut self, root: Vec<Pos>) {
        self.root = root;
        let max = self.shared.limits.max_depth;
        let crowd = self.crowd();
        let mut prev_score = 0;
        let mut depth = 0;
        while !self.stopped && !self.shared.should_stop() {
            depth += 1;
            while depth < max && self.shared.searching_at(depth) >= crowd {
                depth += 1;
            }
            if depth > max {
                break;
            }
            let dropped = self.shared.dropped_root_moves();
            if !dropped.is_empty() {
                self.root.retain(|m| !dropped.contains(m));
                if self.root.is_empty() {
                    break;
                }
            }
            self.shared.count_searching(depth, true);
            let score = self.aspiration_search(depth, prev_score);
            self.shared.count_searching(depth, false);
            if self.stopped {
                break;
            }
            let pv = self.pv[0].clone();
            if pv.first().is_some_and(|m| self.root.contains(m)) {
                self.shared
                    .publish(self.id, super::Completed { depth, score, pv });
                if depth >= max {
                    // A fixed-depth search is done once any thread has completed the depth:
                    // the main thread takes this iteration over.
                    break;
                }
            }
            prev_score = score;
        }
        self.flush_nodes();
    }

    /// The root moves: legal moves in ordering order (the whole board if it is empty).
    fn root_moves(&mut self) -> Vec<Pos> {
        let me = self.board.side_to_move();
        let excluded = &self.shared.limits.excluded;
        if self.board.stone_count() == 0 {
            let n = self.board.size();
            let centre = Pos::new(n / 2, n / 2, n);
            if !excluded.contains(&centre) && self.board.is_empty(centre) {
                return vec![centre];
            }
        }
        let mut moves = self.ordered_moves_unpruned(0, Pos::PASS, me);
        if moves.is_empty() {
            // Far from every stone (or an empty board with the centre excluded).
            let all: Vec<Pos> = self.board.empty_cells().collect();
            moves = all
                .into_iter()
                .filter(|&p| legal(&mut self.board, p, me))
                .collect();
        }
        moves.retain(|p| !self.shared.limits.excluded.contains(p));
        moves
    }

    /// Iterative deepening on the main thread: [`Worker::prepare`], then
    /// [`Worker::iterate_moves`] unless the move is decided already.
    pub fn iterate(&mut self, reporter: &mut dyn Reporter) -> SearchResult {
        match self.prepare() {
            Prepared::Done(r) => r,
            Prepared::Search(r, moves) => self.iterate_moves(r, moves, reporter),
        }
    }

    /// The main thread's work before the iterative deepening: the root moves, and the moves
    /// decided without a search (a single move, an own five, a forced block, an own open four,
    /// a VCF), or else the root moves the guard against the opponent's VCF keeps.
    pub fn prepare(&mut self) -> Prepared {
        let me = self.board.side_to_move();
        let opp = me.opponent();
        let mut result = SearchResult {
            best: Pos::PASS,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        let mut moves = self.root_moves();
        if moves.is_empty() {
            result.best = self.board.empty_cells().next().unwrap_or(Pos::PASS);
            return Prepared::Done(result);
        }
        result.best = moves[0];
        if moves.len() == 1 || !self.shared.limits.excluded.is_empty() {
            // A single move, or root exclusions: search the allowed moves only.
            if moves.len() == 1 {
                let m = moves[0];
                return Prepared::Done(self.finish(result, m, 0, vec![m]));
            }
            return Prepared::Search(result, moves);
        }
        // Step 0. Immediate answers: own five, forced block, own open four, VCF.
        if let Some(f) = find_five(&self.board, me) {
            return Prepared::Done(self.finish(result, f, WIN - 1, vec![f]));
        }
        if let Some(f) = find_five(&self.board, opp) {
            let lost = self.board.count(opp, Class::Five) >= 2 || !legal(&mut self.board, f, me);
            if !lost {
                // A single defence: answer at once (searching cannot change the move).
                return Prepared::Done(self.finish(result, f, 0, vec![f]));
            } else {
                return Prepared::Done(self.finish(result, moves[0], -(WIN - 2), vec![moves[0]]));
            }
        } else if has_open_four(&self.board, me) {
            let m = moves
                .iter()
                .copied()
                .find(|&p| self.board.class(p, me) == Class::OpenFour)
                .unwrap_or(moves[0]);
            return Prepared::Done(self.finish(result, m, WIN - 3, vec![m]));
        } else {
            let mut budget = ROOT_VCF_NODES;
            if let Some(n) = self.shared.limits.max_nodes {
                budget = budget.min(n / 2);
            }
            if let Some(t) = self.shared.limits.hard_time {
                if t < Duration::from_millis(100) {
                    budget = budget.min(2_000);
                }
            }
            let mut solver = Solver::new(budget);
            let sol = solver.vcf(&mut self.board);
            self.nodes += solver.nodes;
            if let Solution::Win(line) = sol {
                let score = WIN - line.len() as i32;
                return Prepared::Done(self.finish(result, line[0], score, line));
            }
            moves = self.root_guard(moves, budget);
            result.best = moves[0];
        }
        Prepared::Search(result, moves)
    }

    /// Root defence against the opponent's VCF: when the opponent, given a free move, wins by
    /// VCF (the solver within `budget` nodes), the root moves after which it still wins (proved
    /// within a quarter of `budget` each) are dropped, unless that would drop them all. The
    /// checks stop at [`ROOT_GUARD_TIME_PCT`] percent of the optimum time, or once half of a
    /// node limit is spent (the moves not yet checked are kept).
    fn root_guard(&mut self, moves: Vec<Pos>, budget: u64) -> Vec<Pos> {
        // Under a node limit (no clock) the guard takes a quarter of the budget for the threat
        // and stops its checks once half the limit is spent, so that the search proper still
        // gets its share.
        let limited = self.shared.limits.max_nodes;
        self.board.pass();
        let mut solver = Solver::new(if limited.is_some() {
            budget / 4
        } else {
            budget
        });
        let threat = solver.vcf(&mut self.board);
        self.nodes += solver.nodes;
        self.board.undo();
        if threat == Solution::NoWin {
            return moves;
        }
        let deadline = self
            .shared
            .limits
            .soft_time
            .map(|t| self.shared.start + t * ROOT_GUARD_TIME_PCT / 100);
        let node_cap = limited.map(|n| n / 2);
        let mut kept = Vec::with_capacity(moves.len());
        for (i, &m) in moves.iter().enumerate() {
            if deadline.is_some_and(|t| Instant::now() >= t)
                || node_cap.is_some_and(|cap| self.nodes >= cap)
            {
                kept.extend_from_slice(&moves[i..]);
                break;
            }
            self.board.play_unchecked(m);
            let mut s = Solver::new(budget / 4).with_deadline(deadline);
            let loses = matches!(s.vcf(&mut self.board), Solution::Win(_));
            self.nodes += s.nodes;
            self.board.undo();
            if !loses {
                kept.push(m);
            }
        }
        if kept.is_empty() {
            moves
        } else {
            kept
        }
    }

    /// The iterative-deepening loop proper, over the given root moves.
    pub fn iterate_moves(
        &mut self,
        mut result: SearchResult,
        root: Vec<Pos>,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        self.root = root;
        let mut prev_score = 0;
        let mut prev_best = Pos::PASS;
        let mut stable = 0u32;
        let mut vct_open = true;
        // Root moves the guard found safe: the opponent has no VCT after them.
        let mut safe: Vec<Pos> = Vec::new();
        let optimum = self.shared.limits.soft_time;
        let hard = self.shared.limits.hard_time;
        let mut previous_iterations = [self.shared.start.elapsed(); 2];
        let mut depth = 0;
        while depth < self.shared.limits.max_depth {
            depth += 1;
            // Lazy SMP: like the helpers, skip a depth that enough threads are searching
            // already (unless a helper has completed it: then it is taken over below).
            while depth < self.shared.limits.max_depth
                && self.shared.searching_at(depth) >= self.crowd()
                && self.completed_elsewhere(depth).is_none()
            {
                depth += 1;
            }
            // With helpers, an iteration is timed from the main thread's last but one (an
            // iteration taken over from a helper took the main thread no time of its own, and
            // the threads take turns at the depths).
            let iteration_start = if self.shared.threads > 1 {
                previous_iterations[0]
            } else {
                self.shared.start.elapsed()
            };
            // Lazy SMP: an iteration a helper has completed already is taken over, not
            // searched again (it counts as the main thread's for the decisions below), also
            // when a helper completes it while the main thread is searching it.
            let mut abandon = self.shared.threads > 1;
            let (score, pv) = loop {
                if let Some(c) = self.completed_elsewhere(depth) {
                    depth = c.depth;
                    break (c.score, c.pv);
                }
                self.abandon_at = abandon.then_some(depth);
                self.shared.count_searching(depth, true);
                let score = self.aspiration_search(depth, prev_score);
                self.shared.count_searching(depth, false);
                self.abandon_at = None;
                if self.abandoned {
                    // Taken over above; if that helper's move has been dropped from the root
                    // meanwhile, searched again to the end.
                    self.abandoned = false;
                    self.stopped = false;
                    abandon = false;
                    continue;
                }
                if self.stopped {
                    break (score, Vec::new());
                }
                break (score, self.pv[0].clone());
            };
            if self.stopped {
                // An interrupted iteration still counts for a root move it searched fully and
                // found better than everything before it.
                if let Some((m, s, pv)) = self.root_best.take() {
                    result.best = m;
                    result.score = s;
                    result.pv = pv;
                }
                self.vote(&mut result);
                break;
            }
            self.record(&mut result, reporter, depth, score, pv);
            if result.best == prev_best {
                stable += 1;
            } else {
                stable = 0;
            }
            let dropped = depth > 4 && score < prev_score - TIME_SCORE_DROP;
            prev_best = result.best;
            prev_score = score;
            if is_mate(score) && WIN - score.abs() <= depth {
                break;
            }
            // Own VCT, alongside the alpha-beta: a proven win is played at once (also when
            // the alpha-beta claims one: its pruned tree proves nothing).
            if depth >= ROOT_VCT_MIN_DEPTH && vct_open && score >= ROOT_VCT_MIN_SCORE {
                match self.root_vct(depth) {
                    VctProbe::Win(line) => {
                        let score = WIN - line.len() as i32;
                        self.record(&mut result, reporter, depth, score, line);
                        break;
                    }
                    VctProbe::Open => {}
                    VctProbe::Exhausted => vct_open = false,
                }
                if self.stopped || self.shared.should_stop() {
                    break;
                }
            }
            let now = self.shared.start.elapsed();
            // Time: the optimum scaled by the stability of the best move (a new best move or a
            // dropping score earn more time, a best move unchanged for several iterations less).
            let mut last = depth >= self.shared.limits.max_depth;
            if let Some(opt) = optimum {
                let mut pct: u32 = if depth <= 4 {
                    100
                } else if stable == 0 {
                    self.p.time_unstable_pct as u32
                } else if stable >= 3 {
                    self.p.time_stable_pct as u32
                } else {
                    100
                };
                if dropped {
                    pct += self.p.time_drop_pct as u32;
                }
                let mut target = opt * pct / 100;
                if let Some(h) = hard {
                    target = target.min(h);
                }
                last |= now >= target;
            }
            // The next iteration takes a few times longer than this one: do not start one
            // when even an iteration as long as this one would pass the hard deadline.
            if let Some(h) = hard {
                last |= now + (now - iteration_start) * TIME_NEXT_ITERATION > h;
            }
            previous_iterations = [previous_iterations[1], now];
            if !last {
                continue;
            }
            self.vote(&mut result);
            // The move about to be played: when the opponent has a proven VCT after it, it is
            // dropped from the root and the last iteration is searched again without it.
            if depth >= ROOT_VCT_MIN_DEPTH
                && score < WIN_THRESHOLD
                && self.root.len() > 1
                && !safe.contains(&result.best)
            {
                let m = result.best;
                match self.root_vct_guard(m, depth) {
                    VctProbe::Win(_) => {
                        self.root.retain(|&p| p != m);
                        self.shared.drop_root_move(m);
                        result.best = self.root[0];
                        result.pv = vec![result.best];
                        prev_best = Pos::PASS;
                        stable = 0;
                        depth -= 1;
                        if self.stopped || self.shared.should_stop() {
                            break;
                        }
                        continue;
                    }
                    VctProbe::Open => {}
                    VctProbe::Exhausted => safe.push(m),
                }
            }
            break;
        }
        self.flush_nodes();
        result.nodes = self.shared.nodes.load(Ordering::Relaxed);
        result
    }

    /// One iteration at `depth`: a search of the root with an aspiration window around
    /// `prev_score` (from depth 4, unless it is a mate score), widened on each fail.
    fn aspiration_search(&mut self, depth: i32, prev_score: i32) -> i32 {
        let (mut alpha, mut beta) = (-WIN, WIN);
        let mut window = self.p.aspiration;
        if depth >= 4 && !is_mate(prev_score) {
            alpha = prev_score - window;
            beta = prev_score + window;
        }
        self.extension_limit = (2 * depth as usize).min(FOUR_EXTENSION_MAX_PLY);
        self.root_best = None;
        loop {
            let s = self.search(depth, alpha, beta, 0, false);
            if self.stopped {
                return s;
            }
            if s <= alpha && alpha > -WIN {
                alpha = (alpha - window).max(-WIN);
            } else if s >= beta && beta < WIN {
                beta = (beta + window).min(WIN);
            } else {
                return s;
            }
            window *= 2;
        }
    }

    /// Lazy SMP: a depth that this many threads are searching already is skipped (half of
    /// the threads, rounded up; `u32::MAX` with one thread: nothing is skipped).
    fn crowd(&self) -> u32 {
        if self.shared.threads <= 1 {
            return u32::MAX;
        }
        self.shared.threads.div_ceil(2) as u32
    }

    /// Lazy SMP: the deepest iteration of at least `depth` a helper has completed, if its move
    /// is still a root move (none with one thread).
    fn completed_elsewhere(&self, depth: i32) -> Option<super::Completed> {
        if self.shared.threads <= 1 {
            return None;
        }
        self.shared
            .helper_results()
            .into_iter()
            .filter(|c| c.depth >= depth && self.root.contains(&c.pv[0]))
            .max_by_key(|c| (c.depth, c.score))
    }

    /// Lazy SMP: the move to play chosen from every thread's last completed iteration, not
    /// only the main thread's. The deepest results count (scores of different depths do not
    /// compare: they swing with the depth's parity); each votes for its first move with
    /// weight `score - lowest score + VOTE_OFFSET`, and the move with the most votes wins (the
    /// main thread's on a tie), its best-scoring result giving the score and line. Only moves
    /// still in the main thread's root list count; a main thread stopped before its first
    /// iteration has no vote. One thread: nothing changes.
    fn vote(&self, result: &mut SearchResult) {
        if self.shared.threads <= 1 {
            return;
        }
        let mut all: Vec<super::Completed> = Vec::new();
        if result.depth > 0 {
            all.push(super::Completed {
                depth: result.depth,
                score: result.score,
                pv: if result.pv.is_empty() {
                    vec![result.best]
                } else {
                    result.pv.clone()
                },
            });
        }
        all.extend(
            self.shared
                .helper_results()
                .into_iter()
                .filter(|c| c.pv.first().is_some_and(|m| self.root.contains(m))),
        );
        let top = all.iter().map(|c| c.depth).max().unwrap_or(0);
        all.retain(|c| c.depth == top);
        let low = all.iter().map(|c| c.score).min().unwrap_or(0);
        let mut votes: Vec<(Pos, i64)> = Vec::new();
        for c in &all {
            let w = i64::from(c.score) - i64::from(low) + i64::from(VOTE_OFFSET);
            match votes.iter_mut().find(|(p, _)| *p == c.pv[0]) {
                Some(v) => v.1 += w,
                None => votes.push((c.pv[0], w)),
            }
        }
        let Some(mut winner) = votes.first().copied() else {
            return;
        };
        for &v in &votes[1..] {
            if v.1 > winner.1 {
                winner = v;
            }
        }
        let chosen = all
            .iter()
            .filter(|c| c.pv[0] == winner.0)
            .max_by_key(|c| c.score);
        if let Some(c) = chosen {
            if c.depth == result.depth && c.pv[0] == result.best {
                return;
            }
            result.best = c.pv[0];
            result.score = c.score;
            result.depth = c.depth;
            result.pv = c.pv.clone();
        }
    }

    /// The result of a completed iteration (or a proven VCT) at `depth`: best move (the first
    /// of `pv`), score and line, reported.
    fn record(
        &mut self,
        result: &mut SearchResult,
        reporter: &mut dyn Reporter,
        depth: i32,
        score: i32,
        pv: Vec<Pos>,
    ) {
        if let Some(&b) = pv.first() {
            result.best = b;
        }
        result.score = score;
        result.depth = depth;
        result.pv = pv.clone();
        self.flush_nodes();
        reporter.iteration(&Iteration {
            depth,
            score,
            nodes: self.shared.nodes.load(Ordering::Relaxed),
            elapsed: self.shared.start.elapsed(),
            pv,
        });
    }

    /// Own VCT probe at the root after the iteration at `depth`: the proof line of a win
    /// whose first move is one of the root moves, if the solver finds one within its budget.
    /// With a clock the probe may take [`ROOT_VCT_TIME_PCT`] percent of the time searched so
    /// far (never past the hard deadline); without one, [`ROOT_VCT_NODES`] doubled with each
    /// iteration (a quarter of a node limit at most).
    fn root_vct(&mut self, depth: i32) -> VctProbe {
        let (nodes, deadline) = self.probe_budget(depth);
        let stop = self.shared.limits.stop.clone();
        let (probe, n) = vct_probe(&mut self.vct_solver, &mut self.board, stop, nodes, deadline);
        self.nodes += n;
        match probe {
            VctProbe::Win(line) if !self.root.contains(&line[0]) => VctProbe::Open,
            p => p,
        }
    }

    /// The root VCT guard on the move about to be played: whether the opponent wins by VCT
    /// after root move `m` (its proof line), with the budget of a root VCT probe at `depth`.
    fn root_vct_guard(&mut self, m: Pos, depth: i32) -> VctProbe {
        let (nodes, deadline) = self.probe_budget(depth);
        let stop = self.shared.limits.stop.clone();
        self.board.play_unchecked(m);
        let (probe, n) = vct_probe(
            &mut self.guard_solver,
            &mut self.board,
            stop,
            nodes,
            deadline,
        );
        self.board.undo();
        self.nodes += n;
        probe
    }

    /// Node and time budget of a root VCT probe after the iteration at `depth` (see
    /// [`Worker::root_vct`]).
    fn probe_budget(&self, depth: i32) -> (u64, Option<Instant>) {
        let limits = &self.shared.limits;
        let mut nodes = ROOT_VCT_NODES << (depth - ROOT_VCT_MIN_DEPTH).clamp(0, 6);
        let mut deadline = None;
        if limits.soft_time.is_some() {
            let elapsed = self.shared.start.elapsed();
            let mut end = elapsed + elapsed * ROOT_VCT_TIME_PCT / 100;
            if let Some(h) = limits.hard_time {
                end = end.min(h);
            }
            deadline = Some(self.shared.start + end);
            nodes = u64::MAX;
        }
        if let Some(n) = limits.max_nodes {
            nodes = nodes.min(n / 4);
        }
        (nodes, deadline)
    }

    fn finish(&mut self, mut r: SearchResult, best: Pos, score: i32, pv: Vec<Pos>) -> SearchResult {
        self.flush_nodes();
        r.best = best;
        r.score = score;
        r.pv = pv;
        r.nodes = self.shared.nodes.load(Ordering::Relaxed);
        r
    }

    /// Ordering key of a move for `me`.
    fn order_key(&self, p: Pos, me: Color, ply: usize) -> i32 {
        let mut k = static_order_key(&self.board, p, me);
        // The key's threat band: exactly the moves `is_threat` calls threats (tested).
        let threat = k >= RANK_UNIT;
        if self.killers[ply][0] == p || self.killers[ply][1] == p {
            k += 5_000;
        }
        let h = self.history[self.history_table(me, threat)][p.index()] >> 4;
        k + if self.gravity {
            h
        } else {
            h.min(PLAIN_HISTORY_CAP)
        }
    }

    /// The history table of `me`'s threat moves or quiet moves: in renju two per colour (a
    /// threat's key is dominated by its rank, so what its cut-offs say about a cell would
    /// otherwise reorder the quiet moves there), in the other rules one per colour.
    #[inline]
    fn history_table(&self, me: Color, threat: bool) -> usize {
        if self.gravity && threat {
            2 + me.index()
        } else {
            me.index()
        }
    }

    /// Move `m` of `me` gets history `bonus` (negative: a malus), by [`with_gravity`].
    #[inline]
    fn update_history(&mut self, me: Color, m: Pos, bonus: i32, threat: bool) {
        let t = self.history_table(me, threat);
        let h = &mut self.history[t][m.index()];
        *h = with_gravity(*h, bonus);
    }

    /// The history updates of a cut-off by move `m` of `me` at remaining `depth`, after the
    /// quiet moves `tried_quiets`: with gravity, a bonus to `m` and the same malus to each of
    /// them; plain, `depth²` added to `m` only.
    fn history_cutoff(
        &mut self,
        me: Color,
        m: Pos,
        threat: bool,
        depth: i32,
        tried_quiets: &[Pos],
    ) {
        if self.gravity {
            let bonus = history_bonus(self.p.history_bonus, depth);
            self.update_history(me, m, bonus, threat);
            for &q in tried_quiets {
                self.update_history(me, q, -bonus, false);
            }
        } else {
            self.history[me.index()][m.index()] += depth * depth;
        }
    }

    /// The candidate cells of `me` (legal or not) with their ordering keys: TT move, threats,
    /// killers, history.
    fn keyed_candidates(&self, ply: usize, tt_move: Pos, me: Color) -> Keyed {
        self.board
            .candidates()
            .map(|p| (self.key_of(p, tt_move, me, ply), p))
            .collect()
    }

    /// Ordering key of `p`: the TT move first, then [`Self::order_key`].
    #[inline]
    fn key_of(&self, p: Pos, tt_move: Pos, me: Color, ply: usize) -> i32 {
        if p == tt_move {
            i32::MAX
        } else {
            self.order_key(p, me, ply)
        }
    }

    /// Legal moves of `me` that stop the opponent's open-four threat (or make a four), with
    /// their ordering keys. The defences are found first (no stone played), then legality
    /// (renju black's exact foul test plays stones) and keys for those only.
    fn defence_moves(&mut self, ply: usize, tt_move: Pos, me: Color) -> Keyed {
        let filter = DefenceFilter::new(&self.board, me);
        let defences: SmallVec<[Pos; 32]> = self
            .board
            .candidates()
            .filter(|&p| filter.defends(&self.board, p))
            .collect();
        let mut v = Keyed::new();
        for p in defences {
            if legal(&mut self.board, p, me) {
                v.push((self.key_of(p, tt_move, me, ply), p));
            }
        }
        v
    }

    fn ordered_moves_unpruned(&mut self, ply: usize, tt_move: Pos, me: Color) -> Vec<Pos> {
        let cands: SmallVec<[Pos; 128]> = self.board.candidates().collect();
        let mut v: Keyed = Keyed::new();
        for p in cands {
            if legal(&mut self.board, p, me) {
                v.push((self.key_of(p, tt_move, me, ply), p));
            }
        }
        sort_moves(&mut v)
    }

    /// Count a node and poll the limits every [`CHECK_EVERY`] nodes; true once the search must
    /// stop.
    #[inline]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            self.flush_nodes();
            if self.shared.should_stop() {
                self.stopped = true;
            } else if self
                .abandon_at
                .is_some_and(|d| self.shared.completed_depth() >= d)
            {
                self.stopped = true;
                self.abandoned = true;
            }
        }
        self.stopped
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
    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: i32) -> i32 {
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
        if let Some(f) = find_five(&self.board, opp) {
            if self.board.count(opp, Class::Five) >= 2 || !legal(&mut self.board, f, me) {
                return -(WIN - (ply_i + 2));
            }
            if ply >= MAX_PLY - 2 {
                return evaluate(&self.board);
            }
            // The block is forced: no stand pat.
            self.board.play_unchecked(f);
            let score = -self.qsearch(-beta, -alpha, ply + 1, qply + 1);
            self.board.undo();
            if !self.stopped && score > alpha {
                self.set_pv(ply, f);
            }
            return score;
        }
        if has_open_four(&self.board, me) {
            return WIN - (ply_i + 3);
        }
        let stand = evaluate(&self.board);
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
        let mut best = stand;
        let mut best_move = Pos::PASS;
        alpha = alpha.max(stand);
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
        for m in moves {
            self.board.play_unchecked(m);
            let score = -self.qsearch(-beta, -alpha, ply + 1, qply + 1);
            self.board.undo();
            if self.stopped {
                return 0;
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
        if let Some(f) = find_five(&self.board, opp) {
            if self.board.count(opp, Class::Five) >= 2 || !legal(&mut self.board, f, me) {
                return -(WIN - (ply_i + 2));
            }
            forced = Some(f);
        } else if !root && has_open_four(&self.board, me) {
            // Step 4. Own open four: a win in three plies.
            return WIN - (ply_i + 3);
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(&self.board);
        }
        // Step 5. Transposition table.
        let key = self.board.hash();
        let mut tt_move = Pos::PASS;
        if let Some(e) = self.shared.tt.probe(key, ply_i) {
            tt_move = e.mv;
            if !pv_node && e.depth >= depth && e.cuts(alpha, beta) {
                return e.score;
            }
        }
        if tt_move != Pos::PASS && !self.board.is_empty(tt_move) {
            tt_move = Pos::PASS;
        }
        // Internal iterative reduction: without a TT move the ordering is a guess; search one
        // ply shallower.
        let depth = if tt_move == Pos::PASS && depth >= self.p.iir_min_depth && !root {
            depth - 1
        } else {
            depth
        };
        // Step 6. Threats against the side to move, and the static evaluation.
        let opp_open_three = forced.is_none() && has_open_four(&self.board, opp);
        // The opponent's four-three point: a win in five plies unless the side to move answers
        // it (or counters with fours), so no node-level pruning trusts the static evaluation.
        let opp_four_three = self.board.has(opp, Class::FourThree);
        let threatened = forced.is_some() || opp_open_three || opp_four_three;
        let static_eval = evaluate(&self.board);
        self.evals[ply] = static_eval;
        let improving = ply >= 2 && static_eval > self.evals[ply - 2];
        // Reverse futility: a node not threatened whose static evaluation is above beta by a
        // margin that grows with the depth fails high without a search.
        if !root
            && !pv_node
            && !threatened
            && depth <= self.p.futility_depth
            && beta.abs() < WIN_THRESHOLD
            && static_eval < WIN_THRESHOLD
            && static_eval - self.futility_unit * (depth - i32::from(improving)) >= beta
        {
            return static_eval;
        }
        // Null move: when the side to move is not threatened and already above beta, let the
        // opponent move twice; if that still fails high at a reduced depth, so does this node.
        if !root
            && !pv_node
            && !threatened
            && depth >= self.p.nmp_min_depth
            && static_eval >= beta
            && beta.abs() < WIN_THRESHOLD
            && self.board.last_move().is_some_and(|(p, _)| !p.is_pass())
        {
            let r = self.p.nmp_base + depth / self.p.nmp_div;
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
        } else if let Some(f) = forced {
            (Picker::in_order([f]), false)
        } else if opp_open_three {
            let d = self.defence_moves(ply, tt_move, me);
            if d.is_empty() {
                return -(WIN - (ply_i + 4));
            }
            (Picker::new(d), false)
        } else {
            (Picker::new(self.keyed_candidates(ply, tt_move, me)), true)
        };
        // Step 8. The move loop: PVS, move-count pruning, four extensions, late-move
        // reductions.
        let mut best = -WIN;
        let mut best_move = Pos::PASS;
        let orig_alpha = alpha;
        let mut quiets = 0usize;
        let mut capped = 0usize;
        let count_limit = move_count_limit(self.p.lmp_base, depth, improving);
        let futile = lazy
            && !threatened
            && !root
            && !pv_node
            && depth <= self.p.move_futility_depth
            && alpha.abs() < WIN_THRESHOLD
            && static_eval + self.futility_unit * self.p.move_futility_pct * depth / 100 <= alpha;
        let mut next = 0usize;
        let mut tried_quiets: SmallVec<[Pos; 32]> = SmallVec::new();
        while let Some(m) = picker.next_move() {
            let class = self.board.class(m, me);
            let own = rank(class);
            let theirs = rank(self.board.class(m, opp));
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
            let i = next;
            next += 1;
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
            if quiet {
                quiets += 1;
                if !root && best > -WIN_THRESHOLD && quiets > count_limit {
                    continue;
                }
                // Futility: near the leaves, a quiet move cannot lift a static evaluation this
                // far below alpha.
                if futile && best > -WIN_THRESHOLD {
                    continue;
                }
            }
            let mut new_depth = depth - 1;
            if class.is_four() && ply < self.extension_limit {
                new_depth += 1;
            }
            self.board.play_unchecked(m);
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
            self.board.undo();
            if self.stopped {
                return 0;
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
                    if score >= beta {
                        if !threat {
                            let k = &mut self.killers[ply];
                            if k[0] != m {
                                k[1] = k[0];
                                k[0] = m;
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
            return 0; // no legal move: a draw
        }
        // Step 9. Store.
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, ply_i, best_move, best, depth, bound);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Gravity keeps history entries within the bound whatever the sequence of bonuses and
    /// maluses the search can give, a bonus never lowers an entry nor a malus raises it, and a
    /// run of bonuses at one depth settles close to the bound (recent results dominate).
    #[test]
    fn history_gravity_stays_bounded_and_monotone() {
        let mut rng = StdRng::seed_from_u64(11);
        for _ in 0..200 {
            let mut h = 0;
            for _ in 0..500 {
                let b = history_bonus(HISTORY_BONUS, rng.gen_range(1..40));
                let b = if rng.gen_bool(0.5) { b } else { -b };
                let next = with_gravity(h, b);
                assert!(
                    (-HISTORY_MAX..=HISTORY_MAX).contains(&next),
                    "{h} {b} -> {next}"
                );
                assert!(
                    if b > 0 { next >= h } else { next <= h },
                    "{h} {b} -> {next}"
                );
                h = next;
            }
        }
        let mut h = -HISTORY_MAX;
        for _ in 0..200 {
            h = with_gravity(h, history_bonus(HISTORY_BONUS, 12));
        }
        assert!(h > HISTORY_MAX * 9 / 10, "{h}");
        let b = |d| history_bonus(HISTORY_BONUS, d);
        assert!(b(1) > 0 && b(1) < b(5));
        assert_eq!(b(60), HISTORY_BONUS_MAX);
    }

    /// In renju a threat move's cut-off leaves the quiet-move ordering of its cell alone (the
    /// two have tables of their own) and a quiet cut-off raises it; in freestyle the one
    /// table takes both.
    #[test]
    fn renju_threat_and_quiet_histories_are_apart() {
        use super::super::tt::Table;
        use crate::types::Rule;
        let shared = Shared::new(Table::new(1), super::super::Limits::default(), 1);
        for rule in [Rule::Renju, Rule::Freestyle] {
            let mut b = Board::new(15, rule).expect("board");
            b.play_unchecked(Pos::new(7, 7, 15));
            let mut w = Worker::new(b, &shared, 0);
            let me = w.board.side_to_move();
            let p = Pos::new(9, 8, 15);
            assert!(w.order_key(p, me, 0) < RANK_UNIT, "a quiet cell");
            let before = w.order_key(p, me, 0);
            w.history_cutoff(me, p, true, 6, &[]);
            let after_threat = w.order_key(p, me, 0);
            w.history_cutoff(me, p, false, 6, &[]);
            let after_quiet = w.order_key(p, me, 0);
            if rule == Rule::Renju {
                assert_eq!(before, after_threat, "{rule:?}");
            } else {
                assert!(after_threat > before, "{rule:?}");
            }
            assert!(after_quiet > after_threat, "{rule:?}");
        }
    }
}
