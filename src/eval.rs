//! Static evaluation: an integer score for the side to move, from the board's incremental class
//! counts (how many empty cells would give each side a five, an open four, a four-three, ...).
//!
//! May import: [`crate::types`], [`crate::pattern`], [`crate::board`].
//!
//! Counting threat-making cells is a classical measure of threat potential: an open three shows
//! up as two open-four points, a closed three as a four point, a two as open-three points, and so
//! on. The side to move gets a separate, larger weight per class than the side that just moved,
//! because it acts first. In renju, black's candidate fouls are discounted and black's certain
//! fouls count nothing (a black threat whose completion point is forbidden is worthless), while
//! they are a small bonus for white.
//!
//! All weights live here, in [`WEIGHTS`]; see the tuning note on it.

use crate::board::Board;
use crate::pattern::{Class, CLASS_COUNT};
use crate::types::{Color, Rule};

/// Score bound for won/lost positions; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores at or beyond this magnitude are proven wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 1_000;

/// Per-class weights: `[mover, waiter]` for each class, in [`Class`] order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Weight of each class for the side to move.
    pub mover: [i32; CLASS_COUNT],
    /// Weight of each class for the side that just moved.
    pub waiter: [i32; CLASS_COUNT],
    /// Renju black: factor (in percent) applied to candidate-foul classes (double-three,
    /// four-double-three), which may turn out forbidden.
    pub renju_candidate_pct: i32,
    /// Renju: bonus for white per certain black foul point (overline, double-four).
    pub renju_foul_bonus: i32,
}

/// The weights in use.
///
/// Order: None, Two, OpenTwo, DoubleTwo, Three, OpenThree, DoubleThree, Four, FourThree,
/// FourDoubleThree, OpenFour, Five, Overline, DoubleFour. Five and open-four points never reach
/// the evaluation (the search resolves them first); they are kept large for safety.
/// Tuning: hand-set by threat strength, then adjusted by fixed-depth self-play between variants
/// (see the notes of the search issue for the matches that set them).
pub const WEIGHTS: Weights = Weights {
    mover: [0, 2, 6, 14, 8, 40, 120, 30, 400, 300, 800, 3000, 0, 0],
    waiter: [0, 1, 4, 9, 5, 22, 60, 18, 120, 90, 300, 1000, 0, 0],
    renju_candidate_pct: 40,
    renju_foul_bonus: 6,
};

/// Alternative weight sets compared against [`WEIGHTS`] by self-play when tuning
/// (`renju-engine selfplay --variant-b K`).
pub const VARIANTS: [Weights; 3] = [
    // 1: threes and fours of the side to move worth less (closer to the waiter's weights).
    Weights {
        mover: [0, 2, 5, 10, 6, 30, 80, 24, 250, 200, 600, 3000, 0, 0],
        ..WEIGHTS
    },
    // 2: defence-heavy: the waiter's threats count almost as much as the mover's.
    Weights {
        waiter: [0, 2, 5, 12, 7, 35, 100, 28, 300, 200, 600, 2000, 0, 0],
        ..WEIGHTS
    },
    // 3: twos matter more.
    Weights {
        mover: [0, 4, 12, 28, 8, 40, 120, 30, 400, 300, 800, 3000, 0, 0],
        waiter: [0, 2, 8, 18, 5, 22, 60, 18, 120, 90, 300, 1000, 0, 0],
        ..WEIGHTS
    },
];

/// Evaluate the position for the side to move (positive = good for it).
#[must_use]
pub fn evaluate(board: &Board) -> i32 {
    evaluate_with(board, &WEIGHTS)
}

/// [`evaluate`] with explicit weights (for tuning).
#[must_use]
pub fn evaluate_with(board: &Board, w: &Weights) -> i32 {
    let me = board.side_to_move();
    side_value(board, me, &w.mover, w) - side_value(board, me.opponent(), &w.waiter, w)
}

fn side_value(board: &Board, c: Color, table: &[i32; CLASS_COUNT], w: &Weights) -> i32 {
    let renju = board.rule() == Rule::Renju;
    let mut v = 0;
    for class in Class::ALL {
        let n = i32::from(board.count(c, class));
        if n == 0 {
            continue;
        }
        let mut weight = table[class as usize];
        if renju && c == Color::Black && class.needs_three_check() {
            weight = weight * w.renju_candidate_pct / 100;
        }
        v += weight * n;
    }
    if renju && c == Color::White {
        let fouls = i32::from(board.count(Color::Black, Class::Overline))
            + i32::from(board.count(Color::Black, Class::DoubleFour));
        v += fouls * w.renju_foul_bonus;
    }
    v
}

/// Whether a score is a proven win or loss.
#[inline]
#[must_use]
pub const fn is_mate(score: i32) -> bool {
    score >= WIN_THRESHOLD || score <= -WIN_THRESHOLD
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Pos;

    #[test]
    fn evaluation_is_antisymmetric_in_the_side_to_move_for_symmetric_rules() {
        // A position and its colour-swapped twin (one pass apart) evaluate as opposites for the
        // mover weights; here only the sign convention is checked: a bigger own threat count
        // evaluates higher.
        let mut b = Board::new(15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (0, 0), (8, 7), (0, 2)] {
            b.play_unchecked(Pos::new(x, y, 15));
        }
        // Black (to move) has an open two on row 7; white has scattered stones.
        assert!(evaluate(&b) > 0, "{}", evaluate(&b));
        b.pass();
        assert!(evaluate(&b) < 0);
    }
}
