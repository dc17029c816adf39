//! The fast, exact renju foul detector.
//!
//! A cell's combined class for black ([`Class`]) already settles most cases: a five is never a
//! foul, an overline or two fours always are, and fewer than two open-three lines cannot be a
//! double-three. Only double-three candidates need work: black is put on the cell, and each
//! open-three line counts as a *real* three if one of its straight-four extension cells (from
//! the three-extension table) makes no five and is itself not a foul — checked recursively on the
//! board with the stone in place, which is exactly the RIF definition.

use super::Foul;
use crate::board::Board;
use crate::pattern::classify::CENTER;
use crate::pattern::{Class, Pattern};
use crate::types::{Color, Pos, Rule};

/// The foul black would commit by playing empty cell `p`, or `None` if the move is legal (or the
/// rule is not renju). The board is used for trial stones and is restored before returning.
pub fn foul(board: &mut Board, p: Pos) -> Option<Foul> {
    if board.rule() != Rule::Renju || !board.is_empty(p) {
        return None;
    }
    foul_at(board, p)
}

/// Whether black playing empty cell `p` is a foul.
pub fn is_foul(board: &mut Board, p: Pos) -> bool {
    foul(board, p).is_some()
}

fn foul_at(board: &mut Board, p: Pos) -> Option<Foul> {
    match board.class(p, Color::Black) {
        Class::Overline => Some(Foul::Overline),
        Class::DoubleFour => Some(Foul::DoubleFour),
        Class::DoubleThree | Class::FourDoubleThree => {
            (real_threes(board, p) >= 2).then_some(Foul::DoubleThree)
        }
        _ => None,
    }
}

/// The number of real threes black makes at `p` (stopping at two).
fn real_threes(board: &mut Board, p: Pos) -> usize {
    let mut lines = [(0usize, 0u16); 4];
    let mut n = 0;
    for d in 0..4 {
        if board.pattern(p, d, Color::Black) == Pattern::OpenThree {
            let mask = board.tables().three_extensions(board.key_at(p.index(), d));
            lines[n] = (d, mask);
            n += 1;
        }
    }
    board.put_unchecked(p, Color::Black);
    let mut real = 0;
    for (i, &(d, mask)) in lines[..n].iter().enumerate() {
        // Not enough lines left to reach two.
        if real + (n - i) < 2 {
            break;
        }
        let mut bits = mask;
        while bits != 0 {
            let cell = bits.trailing_zeros() as i32;
            bits &= bits - 1;
            let Some(q) = board.step(p, d, cell - CENTER as i32) else {
                continue;
            };
            if board.class(q, Color::Black) != Class::Five && foul_at(board, q).is_none() {
                real += 1;
                break;
            }
        }
        if real >= 2 {
            break;
        }
    }
    board.undo();
    real
}

/// Every foul of black in the position, sorted by cell index. O(1) when black has no candidate
/// foul at all (the class counts say so).
pub fn all_fouls(board: &mut Board) -> Vec<(Pos, Foul)> {
    if board.rule() != Rule::Renju {
        return Vec::new();
    }
    let candidates = [
        Class::Overline,
        Class::DoubleFour,
        Class::DoubleThree,
        Class::FourDoubleThree,
    ];
    let mut remaining: u32 = candidates
        .iter()
        .map(|&c| u32::from(board.count(Color::Black, c)))
        .sum();
    let mut out = Vec::new();
    if remaining == 0 {
        return out;
    }
    let n = board.size() * board.size();
    for i in 0..n {
        let p = Pos(i as u16);
        if !board.is_empty(p) {
            continue;
        }
        let class = board.class(p, Color::Black);
        if !candidates.contains(&class) {
            continue;
        }
        if let Some(f) = foul_at(board, p) {
            out.push((p, f));
        }
        remaining -= 1;
        if remaining == 0 {
            break;
        }
    }
    out
}
