//! Threat helpers shared by the solvers and the alpha-beta search: legality, five points,
//! four-making and three-making moves.

use crate::board::Board;
use crate::pattern::Class;
use crate::rules::renju;
use crate::types::{Color, Pos, Rule};

/// Whether colour `c` may play empty cell `p` (only renju black has restrictions; a five is
/// always legal).
#[inline]
pub fn legal(board: &mut Board, p: Pos, c: Color) -> bool {
    if c == Color::White || board.rule() != Rule::Renju {
        return true;
    }
    let class = board.class(p, c);
    if class.is_certain_foul() {
        return false;
    }
    if class.needs_three_check() {
        return !renju::is_foul(board, p);
    }
    true
}

/// Whether `c` has a five point (a five point is always legal).
#[inline]
#[must_use]
pub fn has_five(board: &Board, c: Color) -> bool {
    board.has(c, Class::Five)
}

/// The first (lowest index) five point of `c` in the candidate area.
#[must_use]
pub fn find_five(board: &Board, c: Color) -> Option<Pos> {
    if !has_five(board, c) {
        return None;
    }
    board
        .candidates()
        .find(|&p| board.class(p, c) == Class::Five)
}

/// Whether `c` has a legal open-four point (a straight four is never a foul for renju black by
/// construction of the classes, so the class count is exact).
#[inline]
#[must_use]
pub fn has_open_four(board: &Board, c: Color) -> bool {
    board.has(c, Class::OpenFour)
}

/// The legal moves of `c` that make a four (or five), best first (by class, then score, ties by
/// cell).
pub fn four_moves(board: &mut Board, c: Color) -> Vec<Pos> {
    let mut v: Vec<(i32, Pos)> = Vec::new();
    let cands: Vec<Pos> = board.candidates().collect();
    for p in cands {
        let class = board.class(p, c);
        if class == Class::Five || class.is_four() {
            if !legal(board, p, c) {
                continue;
            }
            v.push((rank(class) * 100_000 + board.score(p, c), p));
        }
    }
    sort_moves(&mut v)
}

/// The legal moves of `c` that make a four or an open three, best first.
pub fn threat_moves(board: &mut Board, c: Color) -> Vec<Pos> {
    let mut v: Vec<(i32, Pos)> = Vec::new();
    let cands: Vec<Pos> = board.candidates().collect();
    for p in cands {
        let class = board.class(p, c);
        let threat = class == Class::Five
            || class.is_four()
            || matches!(class, Class::OpenThree | Class::DoubleThree);
        if threat && legal(board, p, c) {
            v.push((rank(class) * 100_000 + board.score(p, c), p));
        }
    }
    sort_moves(&mut v)
}

/// Sort `(key, pos)` by key descending, ties by cell ascending; return the cells.
pub fn sort_moves(v: &mut [(i32, Pos)]) -> Vec<Pos> {
    v.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    v.iter().map(|&(_, p)| p).collect()
}

/// Ordering rank of a class for the attacker.
#[must_use]
pub const fn rank(c: Class) -> i32 {
    match c {
        Class::Five => 9,
        Class::OpenFour => 8,
        Class::FourThree | Class::FourDoubleThree => 7,
        Class::DoubleThree => 6,
        Class::Four => 5,
        Class::OpenThree => 4,
        _ => 0,
    }
}
