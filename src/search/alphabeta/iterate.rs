//! Iterative deepening on one worker: the main thread's preparation (forced moves, the root
//! guard), its iterations with aspiration windows, time decisions and the root VCT probe and
//! guard; a helper thread's iterations; and Lazy SMP's sharing between them (iterations abandoned or
//! taken over, the final vote). The node function is in the parent module.

use super::Worker;
use crate::board::Board;
use crate::eval::{is_mate, WIN, WIN_THRESHOLD};
use crate::search::params::*;
use crate::search::vcf::{Solution, Solver};
use crate::search::{Iteration, Reporter, SearchResult};
use crate::types::Pos;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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

impl Worker<'_> {
    /// A helper thread of a Lazy SMP search: the main thread's iterative deepening over the
    /// same root moves, with aspiration windows and its own ordering tables, filling the shared
    /// table. Every thread searches every depth; the threads divide the work of a depth by
    /// deferring the moves another thread is searching (ABDADA, in the node function), and a
    /// thread abandons an iteration another thread has completed. Each completed iteration is
    /// published, for the main thread to take over and for the final choice of move; root
    /// moves the main thread drops are dropped at the next iteration. Runs until the search
    /// stops or it has completed the search's maximum depth.
    pub fn helper_iterate(&mut self, root: Vec<Pos>) {
        self.root = root;
        let max = self.shared.limits.max_depth;
        let mut prev_score = 0;
        let mut depth = 0;
        while !self.stopped && !self.shared.should_stop() {
            depth += 1;
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
            self.abandon_at = Some(depth);
            let score = self.aspiration_search(depth, prev_score);
            self.abandon_at = None;
            if self.abandoned {
                // Another thread completed this depth first: on to the next.
                self.abandoned = false;
                self.stopped = false;
                continue;
            }
            if self.stopped {
                break;
            }
            let pv = self.pv[0].clone();
            if pv.first().is_some_and(|m| self.root.contains(m)) {
                self.shared
                    .publish(self.id, crate::search::Completed { depth, score, pv });
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
        let mut previous_iterations = [self.shared.start.elapsed(); 2];
        let mut depth = 0;
        while depth < self.shared.limits.max_depth {
            depth += 1;
            // With helpers, an iteration is timed from the main thread's last but one (an
            // iteration taken over from a helper that got ahead may have taken the main thread
            // no time of its own).
            let iteration_start = if self.shared.threads > 1 {
                previous_iterations[0]
            } else {
                self.shared.start.elapsed()
            };
            let (score, pv) = self.main_iteration(&mut depth, prev_score);
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
            self.shared.main_completed(depth);
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
            let last = self.iteration_is_last(depth, stable, dropped, now, iteration_start);
            previous_iterations = [previous_iterations[1], now];
            if !last {
                // Without the next-iteration rule ([`TIME_NEXT_ITERATION`] 0) the hard
                // deadline may cut the next iteration: the guard checks the best move here,
                // where the rule would have stopped the search.
                if self.p.time_next_iteration == 0
                    && self.next_may_overrun(now, iteration_start, 1)
                    && self.guard_drops_best(&mut result, depth, score, &mut safe)
                {
                    prev_best = Pos::PASS;
                    stable = 0;
                    depth -= 1;
                    if self.stopped || self.shared.should_stop() {
                        break;
                    }
                }
                continue;
            }
            self.vote(&mut result);
            if self.guard_drops_best(&mut result, depth, score, &mut safe) {
                // The last iteration is searched again without it.
                prev_best = Pos::PASS;
                stable = 0;
                depth -= 1;
                if self.stopped || self.shared.should_stop() {
                    break;
                }
                continue;
            }
            break;
        }
        self.flush_nodes();
        result.nodes = self.shared.nodes.load(Ordering::Relaxed);
        result
    }

    /// The main thread's iteration at `depth`: its score and line (no line when stopped). An
    /// iteration a helper has completed already is taken over, not searched again (it counts
    /// as the main thread's for the decisions that follow; `depth` becomes the helper's), also
    /// when a helper completes it while the main thread is searching it.
    fn main_iteration(&mut self, depth: &mut i32, prev_score: i32) -> (i32, Vec<Pos>) {
        let mut abandon = self.shared.threads > 1;
        loop {
            if let Some(c) = self.completed_elsewhere(*depth) {
                *depth = c.depth;
                return (c.score, c.pv);
            }
            self.abandon_at = abandon.then_some(*depth);
            self.watch(|w| w.start_iteration());
            let score = self.aspiration_search(*depth, prev_score);
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
                return (score, Vec::new());
            }
            return (score, self.pv[0].clone());
        }
    }

    /// Whether the iteration at `depth`, ended at `now` and begun (for timing) at
    /// `iteration_start`, is the last: the maximum depth, or time. The optimum is scaled by the
    /// stability of the best move (a new best move or a dropping score earn more time, a best
    /// move unchanged for several iterations less); and no iteration is started that would
    /// pass the hard deadline even if it took only as long as this one.
    fn iteration_is_last(
        &self,
        depth: i32,
        stable: u32,
        dropped: bool,
        now: Duration,
        iteration_start: Duration,
    ) -> bool {
        let mut last = depth >= self.shared.limits.max_depth;
        let hard = self.shared.limits.hard_time;
        if let Some(opt) = self.shared.limits.soft_time {
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
        last || self.next_may_overrun(now, iteration_start, self.p.time_next_iteration as u32)
    }

    /// Whether an iteration `factor` times as long as the one begun at `iteration_start` and
    /// ended at `now` would pass the hard deadline if started now.
    pub(super) fn next_may_overrun(
        &self,
        now: Duration,
        iteration_start: Duration,
        factor: u32,
    ) -> bool {
        self.shared
            .limits
            .hard_time
            .is_some_and(|h| now + (now - iteration_start) * factor > h)
    }

    /// The root VCT guard on the move about to be played: when the opponent has a proven VCT
    /// after it, it is dropped from the root (for every thread), the next root move stands in,
    /// and `true` says so (the caller searches the last iteration again). Moves found safe
    /// are remembered in `safe`.
    fn guard_drops_best(
        &mut self,
        result: &mut SearchResult,
        depth: i32,
        score: i32,
        safe: &mut Vec<Pos>,
    ) -> bool {
        if depth < ROOT_VCT_MIN_DEPTH
            || score >= WIN_THRESHOLD
            || self.root.len() <= 1
            || safe.contains(&result.best)
        {
            return false;
        }
        let m = result.best;
        match self.root_vct_guard(m, depth) {
            VctProbe::Win(_) => {
                self.root.retain(|&p| p != m);
                self.shared.drop_root_move(m);
                result.best = self.root[0];
                result.pv = vec![result.best];
                true
            }
            VctProbe::Open => false,
            VctProbe::Exhausted => {
                safe.push(m);
                false
            }
        }
    }

    /// One iteration at `depth`: a search of the root with an aspiration window around
    /// `prev_score` (from depth 4, unless it is a mate score), widened on each fail.
    pub(super) fn aspiration_search(&mut self, depth: i32, prev_score: i32) -> i32 {
        let (mut alpha, mut beta) = (-WIN, WIN);
        let mut window = self.p.aspiration;
        if depth >= 4 && !is_mate(prev_score) {
            alpha = prev_score - window;
            beta = prev_score + window;
        }
        self.extension_limit = (2 * depth as usize).min(self.p.four_extension_max_ply as usize);
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

    /// Lazy SMP: the deepest iteration of at least `depth` a helper has completed, if its move
    /// is still a root move (none with one thread).
    fn completed_elsewhere(&self, depth: i32) -> Option<crate::search::Completed> {
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
    /// main thread's on a tie), its best-scoring result giving the score and line. A win
    /// claimed by any result, at any depth, is taken before the vote. Only moves
    /// still in the main thread's root list count; a main thread stopped before its first
    /// iteration has no vote. One thread: nothing changes.
    fn vote(&self, result: &mut SearchResult) {
        if self.shared.threads <= 1 {
            return;
        }
        let mut all: Vec<crate::search::Completed> = Vec::new();
        if result.depth > 0 {
            all.push(crate::search::Completed {
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
        // A win found by any thread at any depth is kept (the shortest; the main thread's on
        // a tie): a deeper helper that has not seen it must not outvote it.
        let mut won: Option<&crate::search::Completed> = None;
        for c in all.iter().filter(|c| c.score >= WIN_THRESHOLD) {
            if won.is_none_or(|w| c.score > w.score) {
                won = Some(c);
            }
        }
        if let Some(c) = won {
            adopt(result, c);
            return;
        }
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
            adopt(result, c);
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
            let mut end = elapsed + elapsed * self.p.root_vct_time_pct as u32 / 100;
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
}

/// `result` becomes the completed iteration `c` (move, score, depth, line), unless it is that
/// iteration already (same depth and move: its own line stays).
fn adopt(result: &mut SearchResult, c: &crate::search::Completed) {
    if c.depth == result.depth && c.pv[0] == result.best {
        return;
    }
    result.best = c.pv[0];
    result.score = c.score;
    result.depth = c.depth;
    result.pv = c.pv.clone();
}
