//! The multi-PV analysis on the main thread (Yixin-Board's n-best and Defend searches): every
//! iteration searches the root once per line, each time without the root moves the lines
//! before it took, so that each of the best `k` root moves gets a value and line of its own at
//! that depth. No root VCT probe or guard: every move keeps its own value, lost or not.

use super::iterate::Prepared;
use super::Worker;
use crate::eval::is_mate;
use crate::search::{LineReport, Reporter, RootLine, SearchResult};
use crate::types::Pos;
use std::sync::atomic::Ordering;

impl Worker<'_> {
    /// The preparation of a multi-PV search: the root moves (the board's first empty cell
    /// when there is none to search).
    pub fn prepare_lines(&mut self) -> Prepared {
        let moves = self.root_moves();
        let mut result = SearchResult {
            best: moves.first().copied().unwrap_or(Pos::PASS),
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            lines: Vec::new(),
        };
        if moves.is_empty() {
            result.best = self.board.empty_cells().next().unwrap_or(Pos::PASS);
            return Prepared::Done(result);
        }
        Prepared::Search(result, moves)
    }

    /// Nodes so far over all threads.
    fn total_nodes(&mut self) -> u64 {
        self.flush_nodes();
        self.shared.nodes.load(Ordering::Relaxed)
    }

    /// Iterative deepening with `k` lines over the root moves `root`: at each depth, line `i`
    /// is a search (aspiration window around the value line `i` had one depth before) of the
    /// root moves the lines before it did not take, reported as soon as it completes. The
    /// moves of the previous ranking are searched first. The result's lines are the last
    /// completed line of each move, best first (a stopped iteration's completed lines, then
    /// the rest of the previous ranking); its move, score and line are the first line's.
    /// Stops at the maximum depth, at a stop or hard limit, when the optimum time has passed
    /// after an iteration (or the next one would pass the hard deadline), or once every line
    /// is a proven result.
    pub fn iterate_lines(
        &mut self,
        mut result: SearchResult,
        root: Vec<Pos>,
        k: usize,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        let k = k.clamp(1, root.len().max(1));
        let mut lines: Vec<RootLine> = Vec::new();
        let mut depth = 0;
        while depth < self.shared.limits.max_depth {
            depth += 1;
            let iteration_start = self.shared.start.elapsed();
            self.watch(|w| w.start_iteration());
            let ranked: Vec<Pos> = lines.iter().map(|l| l.pv[0]).collect();
            let mut order = ranked.clone();
            order.extend(root.iter().filter(|m| !ranked.contains(m)));
            let mut fresh: Vec<RootLine> = Vec::with_capacity(k);
            for index in 0..k {
                self.root = order
                    .iter()
                    .copied()
                    .filter(|m| !fresh.iter().any(|l| l.pv[0] == *m))
                    .collect();
                if self.root.is_empty() {
                    break;
                }
                let before = self.total_nodes();
                let prev = lines.get(index).map_or(0, |l| l.score);
                let score = self.aspiration_search(depth, prev);
                if self.stopped {
                    break;
                }
                let mut pv = self.pv[0].clone();
                if pv.first().is_none_or(|m| !self.root.contains(m)) {
                    // Every move failed low at the lowest bound: all lose as fast as this.
                    pv = vec![self.root[0]];
                }
                let total = self.total_nodes();
                let line = RootLine {
                    depth,
                    score,
                    pv,
                    nodes: total - before,
                };
                reporter.line(&LineReport {
                    index,
                    count: k,
                    line: line.clone(),
                    total_nodes: total,
                    elapsed: self.shared.start.elapsed(),
                });
                fresh.push(line);
            }
            if self.stopped {
                // The lines this iteration completed, then the rest of the last ranking.
                let rest: Vec<RootLine> = lines
                    .iter()
                    .filter(|l| !fresh.iter().any(|f| f.pv[0] == l.pv[0]))
                    .cloned()
                    .collect();
                fresh.extend(rest);
                fresh.truncate(k);
                lines = fresh;
                break;
            }
            // Best first (a later line can come out above an earlier one when the search is
            // unstable); a stable sort keeps the search's order on ties.
            fresh.sort_by_key(|l| std::cmp::Reverse(l.score));
            lines = fresh;
            if lines.iter().all(|l| is_mate(l.score)) {
                break;
            }
            let now = self.shared.start.elapsed();
            let soft_passed = self.shared.limits.soft_time.is_some_and(|t| now >= t);
            if soft_passed || self.next_may_overrun(now, iteration_start, 1) {
                break;
            }
        }
        if let Some(best) = lines.first() {
            result.best = best.pv[0];
            result.score = best.score;
            result.depth = best.depth;
            result.pv = best.pv.clone();
        }
        result.lines = lines;
        result.nodes = self.total_nodes();
        result
    }
}
