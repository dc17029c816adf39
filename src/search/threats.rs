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

/// Whether `c` has a point that makes a four or a five (renju black's certain fouls excluded).
#[inline]
#[must_use]
pub fn has_four_point(board: &Board, c: Color) -> bool {
    [
        Class::Four,
        Class::FourThree,
        Class::FourDoubleThree,
        Class::OpenFour,
        Class::Five,
    ]
    .iter()
    .any(|&k| board.has(c, k))
}

/// A win in five plies for `c` (to move) that needs no search: when the opponent has no five
/// point and no four point at all, a legal four-three (the block of the four is forced and
/// makes nothing, then the three becomes an open four), or a double open three (one block
/// cannot stop both lines, and the opponent has no four to counter). Renju-exact: renju black's
/// four-three is checked by playing it out (its three must really become a legal open four),
/// and a legal renju black double three is never a double *open* three, so it does not count.
/// Returns the move.
pub fn quick_win5(board: &mut Board, c: Color) -> Option<Pos> {
    let opp = c.opponent();
    if has_four_point(board, opp) {
        return None;
    }
    let renju_black = board.rule() == Rule::Renju && c == Color::Black;
    let four_three = board.has(c, Class::FourThree);
    let double_three = !renju_black && board.has(c, Class::DoubleThree);
    if !four_three && !double_three {
        return None;
    }
    let cands: Vec<Pos> = board.candidates().collect();
    for p in cands {
        let class = board.class(p, c);
        if class == Class::DoubleThree && double_three {
            return Some(p);
        }
        if class != Class::FourThree || !legal(board, p, c) {
            continue;
        }
        if !renju_black {
            return Some(p);
        }
        board.play_unchecked(p);
        let won = match find_five(board, c) {
            Some(f) => {
                board.play_unchecked(f);
                let open = has_open_four(board, c);
                board.undo();
                open
            }
            None => false,
        };
        board.undo();
        if won {
            return Some(p);
        }
    }
    None
}
