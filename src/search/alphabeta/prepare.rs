//! The main thread's preparation of a search: the root moves, and what needs no search (a
//! single move, a five, a forced block, an own open four), then the root guard that drops root
//! moves after which the opponent has a proven VCF.

use super::iterate::Prepared;
use super::Worker;
use crate::eval::WIN;
use crate::pattern::Class;
use crate::search::params::*;
use crate::search::threats::{find_five, five_stops, has_open_four, legal};
use crate::search::vcf::{Solution, Solver};
use crate::search::{Reporter, SearchResult};
use crate::types::Pos;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

impl Worker<'_> {
    /// The root moves: legal moves in ordering order (the whole board if it is empty).
    pub(super) fn root_moves(&mut self) -> Vec<Pos> {
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
            lines: Vec::new(),
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
        if find_five(&self.board, opp).is_some() {
            let stops = five_stops(&mut self.board, opp);
            match stops.len() {
                0 => {
                    return Prepared::Done(self.finish(
                        result,
                        moves[0],
                        -(WIN - 2),
                        vec![moves[0]],
                    ))
                }
                // A single defence: answer at once (searching cannot change the move).
                1 => return Prepared::Done(self.finish(result, stops[0], 0, vec![stops[0]])),
                // Caro: several stones stop the five; search them.
                _ => return Prepared::Search(result, stops.to_vec()),
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
    pub(super) fn root_guard(&mut self, moves: Vec<Pos>, budget: u64) -> Vec<Pos> {
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
            .map(|t| self.shared.start + t * self.p.root_guard_time_pct as u32 / 100);
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

    fn finish(&mut self, mut r: SearchResult, best: Pos, score: i32, pv: Vec<Pos>) -> SearchResult {
        self.flush_nodes();
        r.best = best;
        r.score = score;
        r.pv = pv;
        r.nodes = self.shared.nodes.load(Ordering::Relaxed);
        r
    }
}
