//! Static evaluation: an integer score for the side to move.
//!
//! May import: [`crate::types`], [`crate::pattern`], [`crate::board`].
//!
//! # The pattern-code form: [`evaluate_code`]
//! One weight per pattern code of every empty cell (see [`crate::pattern::code`]), by colour and
//! by role (the side to move or the side that just moved), plus a threat-combination term
//! indexed by the two sides' strongest threats ([`level`]) and the mover's colour. The weights
//! are fitted to games by `renju-engine tune` and embedded per rule; their `scale` maps a score
//! to a win probability. The same sum is written out as a feature vector in [`features`], which
//! the tuner fits.
//!
//! # In play: [`evaluate`]
//! The same score read in O(1). When a rule's embedded weights are per code, the board keeps
//! per colour and role the sum of the code weights of its empty cells, updated in play/undo
//! only for the cells whose key changed ([`crate::pattern::code::KeyWeights`]; the invariant
//! check recomputes it); when they are class-level (every code of a class weighs the same, as
//! the shipped files are: every per-code fit so far lost to them, see the ledger) the board's
//! class counts give the same score and no sums are kept.
//!
//! # The hand weights
//! The baseline a fit must beat and the starting point of a fit ([`hand_code_weights`] writes it
//! in the pattern-code form): a linear sum over the board's class counts (how many empty cells would give each side a five, an open four, a
//! four-three, ...). Counting threat-making cells is a classical measure of threat potential: an open three shows
//! up as two open-four points, a closed three as a four point, a two as open-three points, and so
//! on. The side to move gets a separate, larger weight per class than the side that just moved,
//! because it acts first. In renju, black's candidate fouls are discounted and black's certain
//! fouls count nothing (a black threat whose completion point is forbidden is worthless), while
//! they are a small bonus for white.
//!
//! All weights live here, in [`WEIGHTS`]; see the tuning note on it.

use crate::board::Board;
pub use crate::pattern::code::combo_slot;
use crate::pattern::code::{
    code_of_key, code_patterns, CodeWeights, CODES, LEVELS, MAX_WEIGHT, MOVER, WAITER,
};
use crate::pattern::table::cell_key;
use crate::pattern::{combine, Class, CLASS_COUNT};
use crate::types::{Color, Rule};
use std::sync::OnceLock;

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

/// Evaluate the position for the side to move (positive = good for it) with the rule's
/// embedded weights: [`evaluate_code`], read in O(1). When the board keeps code sums (the
/// weights are per code, see [`crate::pattern::code::KeyWeights`]) the score is the mover's
/// and the waiter's sums plus the combination term; otherwise the weights are class-level and
/// the same score is each colour's class counts times the weight of the class for that colour
/// and role, plus the combination term (tests check both against [`evaluate_code`]).
#[inline]
#[must_use]
pub fn evaluate(board: &Board) -> i32 {
    let me = board.side_to_move();
    let opp = me.opponent();
    if let Some(kw) = board.key_weights() {
        let s = board.code_sums();
        return kw.combo[me.index()][level(board, me)][level(board, opp)]
            + s[me.index()][MOVER]
            + s[opp.index()][WAITER];
    }
    let t = ClassTable::get(board.rule());
    let (sm, so) = (combo_slot(board.rule(), me), combo_slot(board.rule(), opp));
    let mut v = t.combo[sm][level(board, me)][level(board, opp)];
    for class in 1..CLASS_COUNT {
        let k = Class::ALL[class];
        v += i32::from(board.count(me, k)) * t.cell[MOVER][sm][class]
            + i32::from(board.count(opp, k)) * t.cell[WAITER][so][class];
    }
    v
}

/// The embedded weights of a rule in class-level form (see [`evaluate`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassTable {
    /// `cell[role][colour slot][class]`: the weight of every code of that class.
    pub cell: [[[i32; CLASS_COUNT]; 2]; 2],
    /// As [`CodeWeights::combo`].
    pub combo: [[[i32; LEVELS]; LEVELS]; 2],
}

impl ClassTable {
    /// The class-level form of `w` (for rule `rule`): the weight of the last code of each class.
    /// It says what `w` says exactly when [`CodeWeights::is_class_level`].
    #[must_use]
    pub fn from_codes(w: &CodeWeights, rule: Rule) -> ClassTable {
        let mut t = ClassTable {
            cell: [[[0; CLASS_COUNT]; 2]; 2],
            combo: w.combo,
        };
        for role in [MOVER, WAITER] {
            for c in Color::ALL {
                for code in 0..CODES {
                    let class = combine(code_patterns(code), c, rule) as usize;
                    t.cell[role][c.index()][class] = w.cell[role][c.index()][code];
                }
            }
        }
        t
    }

    /// The class-level form of the embedded weights of `rule`.
    ///
    /// # Panics
    /// If the embedded weights are not class-level; [`evaluate`] asks only when the board keeps
    /// no code sums, which is exactly when they are.
    #[must_use]
    pub fn get(rule: Rule) -> &'static ClassTable {
        static T: [OnceLock<ClassTable>; 5] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        T[rule.index()].get_or_init(|| {
            let w = CodeWeights::get(rule);
            assert!(
                w.is_class_level(),
                "the embedded {rule} weights are not class-level"
            );
            ClassTable::from_codes(w, rule)
        })
    }
}

/// The pattern-code evaluation of `board` with weights `w`, computed from the features (slow:
/// every empty cell is visited). See [`features`].
#[must_use]
pub fn evaluate_code(board: &Board, w: &CodeWeights) -> i32 {
    let me = board.side_to_move();
    let opp = me.opponent();
    let mut sum = w.combo[combo_slot(board.rule(), me)][level(board, me)][level(board, opp)];
    for p in board.empty_cells() {
        for c in Color::ALL {
            let pats = [0, 1, 2, 3].map(|d| board.pattern(p, d, c));
            let role = if c == me { MOVER } else { WAITER };
            sum += w.cell[role][c.index()][code_of_key(cell_key(pats))];
        }
    }
    sum
}

/// The strongest threat colour `c` can make with one stone, as a level `0..LEVELS`: 7 a five,
/// 6 an open four (or a double four outside renju black), 5 a four-three, 4 a four, 3 a
/// double open three, 2 an open three, 1 a closed three, 0 less. Renju black's candidate fouls
/// count as what they would make (the exact check is too slow here); its certain fouls count
/// nothing.
#[inline]
#[must_use]
pub fn level(board: &Board, c: Color) -> usize {
    let has = |k: Class| board.has(c, k);
    if has(Class::Five) {
        7
    } else if has(Class::OpenFour) {
        6
    } else if has(Class::FourThree) || has(Class::FourDoubleThree) {
        5
    } else if has(Class::Four) {
        4
    } else if has(Class::DoubleThree) {
        3
    } else if has(Class::OpenThree) {
        2
    } else if has(Class::Three) {
        1
    } else {
        0
    }
}

/// Length of the feature vector of [`features`].
pub const FEATURES: usize = 4 * CODES + 2 * LEVELS * LEVELS;

/// Feature index of one cell of code `code` for a colour in `slot` with `role`.
#[must_use]
pub const fn cell_feature(role: usize, slot: usize, code: usize) -> usize {
    (role * 2 + slot) * CODES + code
}

/// Feature index of the combination term.
#[must_use]
pub const fn combo_feature(slot: usize, mover_level: usize, waiter_level: usize) -> usize {
    4 * CODES + (slot * LEVELS + mover_level) * LEVELS + waiter_level
}

/// The evaluation as a sparse feature vector, computed slowly from the board's patterns: for
/// every empty cell and colour, one count on its code's feature (code 0 left out), and one on
/// the combination feature. [`evaluate`] is the dot product of this with [`weight_vector`] of
/// the embedded weights. Sorted by index, each index once.
#[must_use]
pub fn features(board: &Board) -> Vec<(u32, i32)> {
    let rule = board.rule();
    let me = board.side_to_move();
    let mut dense: Vec<(u32, i32)> = Vec::new();
    let mut counts = vec![0i32; 4 * CODES];
    for p in board.empty_cells() {
        for c in Color::ALL {
            let pats = [0, 1, 2, 3].map(|d| board.pattern(p, d, c));
            let code = code_of_key(cell_key(pats));
            if code != 0 {
                let role = if c == me { MOVER } else { WAITER };
                counts[cell_feature(role, combo_slot(rule, c), code)] += 1;
            }
        }
    }
    for (i, &n) in counts.iter().enumerate() {
        if n != 0 {
            dense.push((i as u32, n));
        }
    }
    let slot = combo_slot(rule, me);
    let f = combo_feature(slot, level(board, me), level(board, me.opponent()));
    dense.push((f as u32, 1));
    dense
}

/// The weights of `w` in feature order (see [`features`]).
#[must_use]
pub fn weight_vector(w: &CodeWeights) -> Vec<i64> {
    let mut v = vec![0i64; FEATURES];
    for role in [MOVER, WAITER] {
        for slot in 0..2 {
            for code in 0..CODES {
                v[cell_feature(role, slot, code)] = i64::from(w.cell[role][slot][code]);
            }
        }
    }
    for slot in 0..2 {
        for a in 0..LEVELS {
            for b in 0..LEVELS {
                v[combo_feature(slot, a, b)] = i64::from(w.combo[slot][a][b]);
            }
        }
    }
    v
}

/// Weights from a vector in feature order (the inverse of [`weight_vector`]); outside renju
/// black's tables are copied to white's.
#[must_use]
pub fn from_vector(v: &[i64], rule: Rule, scale: i32) -> CodeWeights {
    let mut w = CodeWeights::zero(scale, rule);
    let clamp = |x: i64| x.clamp(-i64::from(MAX_WEIGHT), i64::from(MAX_WEIGHT)) as i32;
    for role in [MOVER, WAITER] {
        for slot in 0..2 {
            let from = if rule == Rule::Renju { slot } else { 0 };
            for code in 0..CODES {
                w.cell[role][slot][code] = clamp(v[cell_feature(role, from, code)]);
            }
        }
    }
    for slot in 0..2 {
        let from = if rule == Rule::Renju { slot } else { 0 };
        for a in 0..LEVELS {
            for b in 0..LEVELS {
                w.combo[slot][a][b] = clamp(v[combo_feature(from, a, b)]);
            }
        }
    }
    w.refresh();
    w
}

/// The hand weights [`WEIGHTS`] in the pattern-code form: for every code, the class weight of
/// the class the code makes (mover weight for the side to move, minus the waiter weight for
/// the other side), renju black's candidate fouls discounted and its certain fouls worth the
/// foul bonus to white; no combination term. [`evaluate_with`] with [`WEIGHTS`] equals the
/// feature dot product of these weights.
#[must_use]
pub fn hand_code_weights(rule: Rule, scale: i32) -> CodeWeights {
    let w = &WEIGHTS;
    let mut cw = CodeWeights::zero(scale, rule);
    for c in Color::ALL {
        for code in 1..CODES {
            let class = combine(code_patterns(code), c, rule);
            let adjust = |x: i32| {
                if rule == Rule::Renju && c == Color::Black && class.needs_three_check() {
                    x * w.renju_candidate_pct / 100
                } else {
                    x
                }
            };
            let mut mover = adjust(w.mover[class as usize]);
            let mut waiter = -adjust(w.waiter[class as usize]);
            if rule == Rule::Renju && c == Color::Black && class.is_certain_foul() {
                // White's bonus per black foul point: for white to move it is white's own
                // term, for black to move the opponent's.
                mover -= w.renju_foul_bonus;
                waiter += w.renju_foul_bonus;
            }
            cw.cell[MOVER][c.index()][code] = mover;
            cw.cell[WAITER][c.index()][code] = waiter;
        }
    }
    cw.refresh();
    cw
}

/// The hand evaluation: [`Weights`] over the board's class counts.
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

/// The win probability for the side to move that a search score stands for under `rule`'s
/// calibrated scale (the embedded weights' points per logistic unit,
/// [`CodeWeights::scale`]): `1 / (1 + exp(-score / scale))`; a proven win is 1 and a proven
/// loss 0.
#[must_use]
pub fn win_rate(score: i32, rule: Rule) -> f64 {
    if score >= WIN_THRESHOLD {
        return 1.0;
    }
    if score <= -WIN_THRESHOLD {
        return 0.0;
    }
    let scale = f64::from(CodeWeights::get(rule).scale.max(1));
    1.0 / (1.0 + (-f64::from(score) / scale).exp())
}

#[cfg(test)]
mod tests;
