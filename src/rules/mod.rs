//! Game rules on top of the board: win detection, legality, and renju fouls.
//!
//! May import: [`crate::types`], [`crate::pattern`], [`crate::board`].
//!
//! * [`is_win`] / [`wins_by_placing`]: win detection from the stone just played, by measuring runs
//!   on the stones (independent of the pattern tables).
//! * [`renju`]: the fast exact foul detector (pattern tables plus the recursive "real three"
//!   check). Renju forbidden points are called *fouls* here (other engines say "forbidden
//!   points").
//! * [`reference`]: a slow foul detector written straight from the rule text, sharing nothing
//!   with the fast one but the stones it is given. Tests check the fast one against it.

pub mod reference;
pub mod renju;

use crate::board::Board;
use crate::types::{Color, Pos, Rule, DIRS};
use std::fmt;

/// The kind of a renju foul (a forbidden point for black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Foul {
    /// Two or more real threes (including four-three-three).
    DoubleThree,
    /// Two or more fours (also on one line).
    DoubleFour,
    /// A run of six or more.
    Overline,
}

impl Foul {
    /// The name used on the command line (`double-three`, `double-four`, `overline`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Foul::DoubleThree => "double-three",
            Foul::DoubleFour => "double-four",
            Foul::Overline => "overline",
        }
    }

    /// The diagram mark: `3`, `4` or `6`.
    #[must_use]
    pub const fn mark(self) -> char {
        match self {
            Foul::DoubleThree => '3',
            Foul::DoubleFour => '4',
            Foul::Overline => '6',
        }
    }
}

impl fmt::Display for Foul {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a move was refused by [`try_play`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The point is not on the board.
    OffBoard(Pos),
    /// The point already holds a stone.
    Occupied(Pos),
    /// Black may not play this point under renju.
    Foul(Pos, Foul),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::OffBoard(p) => write!(f, "point {} is off the board", p.0),
            IllegalMove::Occupied(p) => write!(f, "point {} is occupied", p.0),
            IllegalMove::Foul(p, k) => write!(f, "point {} is a {k} foul for black", p.0),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// The run of `c` through `p` along direction `d`, as (length, opponent stones at its ends),
/// read from the stones. `p` is counted as `c` whatever it holds.
fn run_through(board: &Board, p: Pos, d: usize, c: Color) -> (usize, usize) {
    let mut len = 1;
    let mut blocked = 0;
    for sign in [1, -1] {
        let mut k = 1;
        loop {
            match board.step(p, d, sign * k) {
                Some(q) if board.stone(q) == Some(c) => {
                    len += 1;
                    k += 1;
                }
                Some(q) => {
                    if board.stone(q) == Some(c.opponent()) {
                        blocked += 1;
                    }
                    break;
                }
                None => break,
            }
        }
    }
    (len, blocked)
}

/// Whether the stone on `p` wins for its owner (call it right after it was played).
#[must_use]
pub fn is_win(board: &Board, p: Pos) -> bool {
    match board.stone(p) {
        Some(c) => wins_by_placing(board, p, c),
        None => false,
    }
}

/// Whether colour `c` on `p` (empty, or already holding `c`) makes a winning line.
#[must_use]
pub fn wins_by_placing(board: &Board, p: Pos, c: Color) -> bool {
    (0..DIRS.len()).any(|d| {
        let (len, blocked) = run_through(board, p, d, c);
        board.rule().run_wins(c, len, blocked >= 2)
    })
}

/// A winning line already on the board: the colour and one of its stones.
#[must_use]
pub fn five_on_board(board: &Board) -> Option<(Color, Pos)> {
    board
        .cells()
        .find_map(|p| board.stone(p).filter(|_| is_win(board, p)).map(|c| (c, p)))
}

/// Whether colour `c` may play the empty cell `p`: the engine's one legality verdict (search,
/// solvers, openings and protocol all ask here). Only renju black has forbidden points
/// ([`renju::foul`]: overline, double four, double three by the recursive definition); a five
/// is never forbidden. Cheap for almost every cell: the cell's class settles it, and only
/// double-three candidates run the recursive check.
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

/// Play `p` for the side to move if it is legal: on the board, empty, and for black under renju
/// not a foul (a five is never a foul). [`Pos::PASS`] passes.
///
/// # Errors
/// [`IllegalMove`] saying why; the board is unchanged then.
pub fn try_play(board: &mut Board, p: Pos) -> Result<(), IllegalMove> {
    if p.is_pass() {
        board.pass();
        return Ok(());
    }
    if !board.contains(p) {
        return Err(IllegalMove::OffBoard(p));
    }
    if !board.is_empty(p) {
        return Err(IllegalMove::Occupied(p));
    }
    if board.side_to_move() == Color::Black {
        if let Some(k) = renju::foul(board, p) {
            return Err(IllegalMove::Foul(p, k));
        }
    }
    board.play_unchecked(p);
    Ok(())
}
