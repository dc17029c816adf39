//! Threat-space solvers: VCF (victory by continuous fours) and VCT (victory by continuous
//! threats: fours and threes), both renju-exact, with a failure cache and a node limit.
//!
//! * The attacker is the side to move. Renju black never plays a foul, in attack or defence.
//! * VCF: the attacker plays a four; the defender's reply is forced (the five point), unless the
//!   defender can make five first. A defence point that is a foul for black is no defence: that
//!   is how white wins by pushing black into a foul.
//! * VCT: the attacker may also play open threes. Against a three the defender tries *every*
//!   legal move in the candidate area, counter-fours included; a move after which the attacker
//!   still has an open-four point and the defender made no four is refuted at once.
//! * A found win comes with its proof line: attacker and defender moves alternating, ending with
//!   the attacker's five. For VCT the line follows the last defence examined.

use super::threats::{
    find_five, five_answers, five_stops, four_moves, has_five, has_open_four, legal,
    open_four_defences, threat_moves,
};
use crate::board::Board;
use crate::pattern::Class;
use crate::types::{Color, Pos};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The outcome of a solver run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solution {
    /// The side to move wins; the proof line from the current position to the five.
    Win(Vec<Pos>),
    /// No win found within the limits.
    NoWin,
}

/// A solver with its cache, node count and limit.
pub struct Solver {
    /// Nodes (positions) visited so far.
    pub nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    next_clock: u64,
    out: bool,
    fail_cache: HashMap<u64, u32>,
    line: Vec<Pos>,
}

/// Nodes between two clock checks of a solver with a deadline.
const CLOCK_EVERY: u64 = 256;

impl Solver {
    /// A solver that gives up after `node_limit` nodes.
    #[must_use]
    pub fn new(node_limit: u64) -> Solver {
        Solver {
            nodes: 0,
            limit: node_limit,
            deadline: None,
            stop: None,
            next_clock: CLOCK_EVERY,
            out: false,
            fail_cache: HashMap::new(),
            line: Vec::new(),
        }
    }

    /// The same solver, also stopping (as if out of nodes) once `deadline` has passed; the
    /// clock is read every few hundred nodes.
    #[must_use]
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Solver {
        self.deadline = deadline;
        self
    }

    /// The same solver, also stopping (as if out of nodes) once `stop` is set; the flag is read
    /// with the clock.
    #[must_use]
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Solver {
        self.stop = Some(stop);
        self
    }

    /// Whether the last run stopped on its node limit, deadline or stop flag (a `NoWin` then
    /// proves nothing).
    #[must_use]
    pub fn gave_up(&self) -> bool {
        self.out
    }

    /// Forget the cache and start counting again with a new node limit.
    pub fn reset(&mut self, node_limit: u64) {
        self.nodes = 0;
        self.limit = node_limit;
        self.out = false;
        self.next_clock = CLOCK_EVERY;
        self.fail_cache.clear();
        self.line.clear();
    }

    /// Whether the node limit (or the deadline) is reached; once true it stays true.
    fn out_of_nodes(&mut self) -> bool {
        if !self.out {
            self.out = self.nodes >= self.limit;
            if !self.out && self.nodes >= self.next_clock {
                self.next_clock = self.nodes + CLOCK_EVERY;
                self.out = self.deadline.is_some_and(|t| Instant::now() >= t)
                    || self
                        .stop
                        .as_ref()
                        .is_some_and(|f| f.load(Ordering::Relaxed));
            }
        }
        self.out
    }

    /// Look for a VCF for the side to move.
    pub fn vcf(&mut self, board: &mut Board) -> Solution {
        self.line.clear();
        let me = board.side_to_move();
        if self.vcf_attack(board, me) {
            Solution::Win(self.line.iter().rev().copied().collect())
        } else {
            Solution::NoWin
        }
    }

    /// Attacker `me` to move. On success the winning line is in `self.line`, reversed.
    fn vcf_attack(&mut self, board: &mut Board, me: Color) -> bool {
        self.nodes += 1;
        if let Some(f) = find_five(board, me) {
            self.line.push(f);
            return true;
        }
        let opp = me.opponent();
        if self.out_of_nodes() || self.fail_cache.contains_key(&board.hash()) {
            return false;
        }
        let moves = if has_five(board, opp) {
            // We must block; it only continues the VCF if the block is itself a four.
            let blocks: Vec<Pos> = five_answers(board, opp)
                .into_iter()
                .filter(|&f| board.class(f, me).is_four() && legal(board, f, me))
                .collect();
            if blocks.is_empty() {
                return false;
            }
            blocks
        } else {
            four_moves(board, me)
        };
        for m in moves {
            if board.class(m, me) == Class::OpenFour && !has_five(board, opp) {
                board.play_unchecked(m);
                let f = find_five(board, me).expect("an open four has a five point");
                board.undo();
                self.line.push(f);
                self.line.push(Pos::PASS); // placeholder for the defender's move
                self.line.push(m);
                self.fix_open_four_line(board, m, me);
                return true;
            }
            board.play_unchecked(m);
            let won = self.vcf_defend(board, me);
            board.undo();
            if won {
                self.line.push(m);
                return true;
            }
            if self.out_of_nodes() {
                return false;
            }
        }
        self.fail_cache.insert(board.hash(), 0);
        false
    }

    /// After an open four, name a concrete defence (block one five point) and the five at the
    /// other, replacing the placeholder.
    fn fix_open_four_line(&mut self, board: &mut Board, m: Pos, me: Color) {
        let n = self.line.len();
        board.play_unchecked(m);
        let opp = me.opponent();
        let fives: Vec<Pos> = board
            .candidates()
            .filter(|&p| board.class(p, me) == Class::Five)
            .collect();
        // The defender blocks the first legal five point; the attacker completes another.
        let block = fives
            .iter()
            .copied()
            .find(|&p| legal(board, p, opp))
            .unwrap_or(fives[0]);
        board.play_unchecked(block);
        let five = find_five(board, me).unwrap_or(fives[fives.len() - 1]);
        board.undo();
        board.undo();
        // line (reversed): [..., five, PASS, m] -> [..., five, block, m]
        self.line[n - 3] = five;
        self.line[n - 2] = block;
    }

    /// Defender to move against a five it cannot stop (two five points, or only a foul point):
    /// record a legal defender move (blocking a five point if it can) and the attacker's five.
    fn finish_unstoppable(&mut self, board: &mut Board, me: Color) -> bool {
        let opp = me.opponent();
        let d = match first_legal_five(board, me, opp) {
            Some(b) => Some(b),
            None => {
                let cands: Vec<Pos> = board.candidates().chain(board.empty_cells()).collect();
                cands.into_iter().find(|&p| legal(board, p, opp))
            }
        };
        match d {
            Some(d) => {
                board.play_unchecked(d);
                let five = find_five(board, me);
                board.undo();
                match five {
                    Some(five) => {
                        self.line.push(five);
                        self.line.push(d);
                        true
                    }
                    None => false,
                }
            }
            None => false, // the defender has no legal move at all: not a win by five
        }
    }

    /// The attacker `me` has just made a four. Defender to move.
    fn vcf_defend(&mut self, board: &mut Board, me: Color) -> bool {
        self.nodes += 1;
        let opp = me.opponent();
        if has_five(board, opp) {
            return false; // the defender wins first
        }
        self.block_five(board, me, |s, b| s.vcf_attack(b, me))
            .unwrap_or(false)
    }

    /// Defender to move, the attacker `me` threatening a five: `None` if it does not. Else the
    /// defender plays each stone that stops it ([`five_stops`]: the five point, outside caro)
    /// and `then` searches on (the attacker wins when it wins after every one; the line shows
    /// the last), or, when no stone stops it (two five points, or only a foul to block with),
    /// the attacker completes a five ([`Self::finish_unstoppable`]). Both solvers' defences
    /// start here.
    fn block_five(
        &mut self,
        board: &mut Board,
        me: Color,
        mut then: impl FnMut(&mut Self, &mut Board) -> bool,
    ) -> Option<bool> {
        if !has_five(board, me) {
            return None;
        }
        if find_five(board, me).is_none() {
            return Some(false);
        }
        let stops = five_stops(board, me);
        if stops.is_empty() {
            return Some(self.finish_unstoppable(board, me));
        }
        // Every stop must lose (one outside caro); the line keeps the last one's refutation.
        let mark = self.line.len();
        for (i, &f) in stops.iter().enumerate() {
            board.play_unchecked(f);
            let won = then(self, board);
            board.undo();
            if !won || i + 1 < stops.len() {
                self.line.truncate(mark);
            }
            if !won {
                return Some(false);
            }
        }
        self.line.push(stops[stops.len() - 1]);
        Some(true)
    }

    /// Look for a VCT for the side to move. `depth` bounds the attacker's threat moves (threes
    /// and fours) searched with full defences; past it only fours continue (a VCF), and a
    /// final open four that no defence can stop costs nothing.
    pub fn vct(&mut self, board: &mut Board, depth: u32) -> Solution {
        self.fail_cache.clear();
        self.vct_from_cache(board, depth)
    }

    /// [`Solver::vct`] with the failure cache as it is.
    fn vct_from_cache(&mut self, board: &mut Board, depth: u32) -> Solution {
        self.line.clear();
        let me = board.side_to_move();
        if self.deepen(1..=depth, |s, d| s.vct_attack(board, me, d)) {
            Solution::Win(self.line.iter().rev().copied().collect())
        } else {
            Solution::NoWin
        }
    }

    /// [`Solver::vct`] again on the same position with `more` nodes (and a new `deadline`),
    /// keeping the failure cache of the earlier runs: a probe repeated as a search deepens
    /// starts where the last one stopped.
    pub fn vct_resume(
        &mut self,
        board: &mut Board,
        depth: u32,
        more: u64,
        deadline: Option<Instant>,
    ) -> Solution {
        self.limit = self.nodes.saturating_add(more);
        self.deadline = deadline;
        self.out = false;
        self.next_clock = self.nodes + CLOCK_EVERY;
        self.vct_from_cache(board, depth)
    }

    /// Iterative deepening over `depths` (short proofs first, the failure cache filled
    /// cheaply): whether `prove` succeeds at some depth before the limits stop it.
    fn deepen(
        &mut self,
        depths: std::ops::RangeInclusive<u32>,
        mut prove: impl FnMut(&mut Self, u32) -> bool,
    ) -> bool {
        for d in depths {
            if prove(self, d) {
                return true;
            }
            if self.out_of_nodes() {
                break;
            }
        }
        false
    }

    /// Whether the side to move wins by playing `m` now: `m` makes five, or after it every
    /// defence loses to a VCT of at most `depth` further threat moves (as in [`Solver::vct`]).
    /// `false` for an illegal `m` (renju fouls included), a move that threatens nothing, or
    /// when the limits stop the proof. The board is left as it was.
    pub fn wins_after(&mut self, board: &mut Board, m: Pos, depth: u32) -> bool {
        self.line.clear();
        self.fail_cache.clear();
        let me = board.side_to_move();
        if m.is_pass() || crate::rules::try_play(board, m).is_err() {
            return false;
        }
        let won = crate::rules::is_win(board, m)
            || self.deepen(0..=depth, |s, d| s.vct_defend(board, me, d));
        board.undo();
        won
    }

    fn vct_attack(&mut self, board: &mut Board, me: Color, depth: u32) -> bool {
        self.nodes += 1;
        if let Some(f) = find_five(board, me) {
            self.line.push(f);
            return true;
        }
        let opp = me.opponent();
        if self.out_of_nodes() {
            return false;
        }
        if depth == 0 {
            // Out of threes: fours alone may still win.
            return self.vcf_attack(board, me);
        }
        if let Some(&d) = self.fail_cache.get(&board.hash()) {
            if d >= depth {
                return false;
            }
        }
        let moves = if has_five(board, opp) {
            let blocks: Vec<Pos> = five_answers(board, opp)
                .into_iter()
                .filter(|&f| legal(board, f, me))
                .collect();
            if blocks.is_empty() {
                return false;
            }
            blocks
        } else {
            threat_moves(board, me)
        };
        for m in moves {
            board.play_unchecked(m);
            let won = self.vct_defend(board, me, depth - 1);
            board.undo();
            if won {
                self.line.push(m);
                return true;
            }
            if self.out_of_nodes() {
                return false;
            }
        }
        let e = self.fail_cache.entry(board.hash()).or_insert(0);
        *e = (*e).max(depth);
        false
    }

    /// The attacker `me` has just moved. Defender to move; true if every defence loses.
    fn vct_defend(&mut self, board: &mut Board, me: Color, depth: u32) -> bool {
        self.nodes += 1;
        let opp = me.opponent();
        if has_five(board, opp) {
            return false;
        }
        if let Some(won) = self.block_five(board, me, |s, b| s.vct_attack(b, me, depth)) {
            return won;
        }
        if !has_open_four(board, me) {
            return false; // no threat: the defender is free
        }
        // Every legal defence in the candidate area that is not refuted at once (after it the
        // defender has a five point or the attacker no open-four point left); the others lose
        // to the open four. `open_four_defences` finds them without playing a stone.
        let cands: Vec<Pos> = board.candidates().collect();
        let defences = open_four_defences(board, opp, cands);
        let mut last_line: Option<Vec<Pos>> = None;
        for m in defences {
            if !legal(board, m, opp) {
                continue;
            }
            board.play_unchecked(m);
            let mark = self.line.len();
            let won = self.vct_attack(board, me, depth);
            if won {
                let mut seg: Vec<Pos> = self.line.drain(mark..).collect();
                seg.push(m);
                last_line = Some(seg);
            }
            board.undo();
            if !won {
                return false;
            }
        }
        match last_line {
            Some(seg) => self.line.extend(seg),
            None => {
                // Every defence was refuted at once: show one of them and the open four.
                let cands: Vec<Pos> = board.candidates().collect();
                let m = cands
                    .into_iter()
                    .find(|&p| legal(board, p, opp))
                    .unwrap_or(Pos::PASS);
                if m.is_pass() {
                    return false;
                }
                board.play_unchecked(m);
                let mark = self.line.len();
                let ok = self.vcf_after_open_four_point(board, me);
                board.undo();
                if !ok {
                    self.line.truncate(mark);
                    return false;
                }
                self.line.push(m);
            }
        }
        true
    }

    /// Attacker to move with a legal open-four point: record open four, a block and the five.
    fn vcf_after_open_four_point(&mut self, board: &mut Board, me: Color) -> bool {
        let Some(m) = board
            .candidates()
            .find(|&p| board.class(p, me) == Class::OpenFour)
        else {
            return false;
        };
        self.line.push(Pos::PASS);
        self.line.push(Pos::PASS);
        self.line.push(m);
        self.fix_open_four_line(board, m, me);
        true
    }
}

/// The first five point of `me` that `opp` may legally play (to block it).
fn first_legal_five(board: &mut Board, me: Color, opp: Color) -> Option<Pos> {
    let fives: Vec<Pos> = board
        .candidates()
        .filter(|&p| board.class(p, me) == Class::Five)
        .collect();
    fives.into_iter().find(|&p| legal(board, p, opp))
}

/// Replay a proof line from the position: the attacker (side to move) must make a four or an
/// open three (or block a five) with each of its moves, every move must be legal, and the last
/// move must win. Returns a description of the first violation.
///
/// # Errors
/// The first move of the line that is not a valid step of a threat sequence.
pub fn check_proof(board: &Board, line: &[Pos], fours_only: bool) -> Result<(), String> {
    let mut b = board.clone();
    let me = b.side_to_move();
    if line.is_empty() {
        return Err("empty line".into());
    }
    for (i, &m) in line.iter().enumerate() {
        if !b.is_empty(m) {
            return Err(format!("move {i} on an occupied or invalid point"));
        }
        let mover = b.side_to_move();
        if !legal(&mut b, m, mover) {
            return Err(format!("move {i} is a foul"));
        }
        let class = b.class(m, mover);
        if mover == me {
            let last = i + 1 == line.len();
            if last {
                if class != Class::Five {
                    return Err(format!("last move {i} does not make five"));
                }
            } else {
                let blocks = has_five(&b, mover.opponent())
                    && (b.class(m, mover.opponent()) == Class::Five
                        || five_stops(&mut b, mover.opponent()).contains(&m));
                let ok = class.is_four()
                    || (!fours_only && matches!(class, Class::OpenThree | Class::DoubleThree))
                    || blocks;
                if !ok {
                    return Err(format!("attacker move {i} makes no threat ({class:?})"));
                }
            }
        } else if has_five(&b, me) {
            // Not stopping the five is only right when no stone stops it: two five points, or
            // the only one is a foul for the defender ([`five_stops`]).
            let stops = five_stops(&mut b, me);
            if !stops.is_empty() && !stops.contains(&m) {
                return Err(format!("defender move {i} does not block the five"));
            }
        }
        b.play_unchecked(m);
    }
    Ok(())
}
