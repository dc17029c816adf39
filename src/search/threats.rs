//! Threat helpers shared by the solvers and the alpha-beta search: five points, four-making and
//! three-making moves (legality is [`crate::rules::legal`], re-exported here).

use crate::board::{Board, CellSet, SET_WORDS};
use crate::pattern::{Class, Pattern};
use crate::types::{Color, Pos, Rule};
use smallvec::SmallVec;

pub use crate::rules::legal;

/// Whether `c` has a five point (a five point is always legal).
#[inline]
#[must_use]
pub fn has_five(board: &Board, c: Color) -> bool {
    board.has(c, Class::Five)
}

/// The first (lowest index) five point of `c` in the candidate area.
///
/// A single five point is looked for first on the lines of `c`'s last two stones (where a five
/// point made by the last move lies), then, if it is elsewhere or there are several, in index
/// order over the candidate area.
#[must_use]
pub fn find_five(board: &Board, c: Color) -> Option<Pos> {
    let count = board.count(c, Class::Five);
    if count == 0 {
        return None;
    }
    if count == 1 {
        for k in 0..2 {
            let Some((p, col)) = board.ply_back(k) else {
                break;
            };
            if col != c || p.is_pass() {
                continue;
            }
            if let Some(f) = board
                .candidates_in(board.line_mask(p))
                .find(|&q| board.class(q, c) == Class::Five)
            {
                return Some(f);
            }
        }
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

/// The stones that stop every five of `c`: the cells where `c`'s opponent may legally play and
/// after which `c` has no five point, in cell order; empty when `c` has no five point (found by
/// [`find_five`]) or no one stone stops them all (the five wins).
///
/// Outside caro a five is stopped only by taking its point, so this is the one five point when
/// there is exactly one and the opponent may play it. In caro a five blocked at both ends does
/// not win: a stone just beyond the run the five point completes stops it when the run's other
/// end is blocked, and a stone on one five point can block another five at its second end
/// (`O . X X X X . O`: either point stops both). Each such cell (the five points, and the empty
/// cells next to the runs through them) is tested with [`Board::class_with`]: no five point of
/// `c` may remain. Same set as [`five_stops_slow`], which plays every empty cell.
pub fn five_stops(board: &mut Board, c: Color) -> SmallVec<[Pos; 4]> {
    let mut out = SmallVec::new();
    let Some(first) = find_five(board, c) else {
        return out;
    };
    let opp = c.opponent();
    if !matches!(board.rule(), Rule::Caro | Rule::CaroOverline) {
        if board.count(c, Class::Five) == 1 && legal(board, first, opp) {
            out.push(first);
        }
        return out;
    }
    let fives: SmallVec<[Pos; 8]> = board
        .candidates()
        .filter(|&p| board.class(p, c) == Class::Five)
        .collect();
    let mut cands: SmallVec<[Pos; 16]> = fives.iter().copied().collect();
    for &f in &fives {
        for d in 0..4 {
            for dir in [-1, 1] {
                let mut k = 1;
                while let Some(q) = board.step(f, d, dir * k) {
                    if board.stone(q) == Some(c) {
                        k += 1;
                        continue;
                    }
                    if board.is_empty(q) && !cands.contains(&q) {
                        cands.push(q);
                    }
                    break;
                }
            }
        }
    }
    cands.sort_unstable();
    for p in cands {
        let stops_all = fives
            .iter()
            .all(|&q| q == p || board.class_with(q, p, opp, c) != Class::Five);
        if stops_all && legal(board, p, opp) {
            out.push(p);
        }
    }
    out
}

/// The moves that answer `c`'s five: its [`five_stops`], or, when no one stone stops it, the
/// first five point (a block that loses to the other five, kept so that a line shows one).
/// Empty when `c` has no five point.
pub fn five_answers(board: &mut Board, c: Color) -> SmallVec<[Pos; 4]> {
    let stops = five_stops(board, c);
    if stops.is_empty() {
        find_five(board, c).into_iter().collect()
    } else {
        stops
    }
}

/// [`five_stops`] by playing: every empty cell where `c`'s opponent may play and after which `c`
/// has no five point, in cell order (empty when `c` has none to stop). The reference the fast
/// version is tested against.
pub fn five_stops_slow(board: &mut Board, c: Color) -> Vec<Pos> {
    if !has_five(board, c) {
        return Vec::new();
    }
    let opp = c.opponent();
    let cells: Vec<Pos> = board.empty_cells().collect();
    cells
        .into_iter()
        .filter(|&p| {
            if !legal(board, p, opp) {
                return false;
            }
            board.put_unchecked(p, opp);
            let stopped = !has_five(board, c);
            board.undo();
            stopped
        })
        .collect()
}

/// The legal moves of `c` that make a four (or five), best first (by class, then score, ties by
/// cell).
pub fn four_moves(board: &mut Board, c: Color) -> Vec<Pos> {
    let mut v: SmallVec<[(i32, Pos); 16]> = board
        .candidates()
        .filter_map(|p| four_key(board, p, c).map(|k| (k, p)))
        .collect();
    v.retain(|&mut (_, p)| legal(board, p, c));
    sort_moves(&mut v)
}

/// The ordering key of [`four_moves`] for cell `p` of `c`, if `p` makes a four or five.
#[inline]
fn four_key(board: &Board, p: Pos, c: Color) -> Option<i32> {
    let class = board.class(p, c);
    (class == Class::Five || class.is_four()).then(|| rank(class) * 100_000 + board.score(p, c))
}

/// The moves of [`four_moves`] within `square` (Chebyshev distance) of `centre` or on one of its
/// four lines within `line` cells ([`within_reach`]), in the same order. Only those cells are
/// looked at (a four point is always in the candidate area: three stones share its five-cell
/// window, one of them within two cells).
pub fn four_moves_near(
    board: &mut Board,
    c: Color,
    centre: Pos,
    square: i32,
    line: i32,
) -> Vec<Pos> {
    let n = board.size() as i32;
    let (cx, cy) = (centre.x(n as usize) as i32, centre.y(n as usize) as i32);
    let r = square.max(line);
    let mut v: SmallVec<[(i32, Pos); 16]> = SmallVec::new();
    for y in (cy - r).max(0)..=(cy + r).min(n - 1) {
        for x in (cx - r).max(0)..=(cx + r).min(n - 1) {
            if !within_reach(x - cx, y - cy, square, line) {
                continue;
            }
            let p = Pos::new(x as usize, y as usize, n as usize);
            if !board.is_empty(p) {
                continue;
            }
            if let Some(k) = four_key(board, p, c) {
                v.push((k, p));
            }
        }
    }
    v.retain(|&mut (_, p)| legal(board, p, c));
    sort_moves(&mut v)
}

/// The legal moves of `c` that make a four or an open three, best first.
pub fn threat_moves(board: &mut Board, c: Color) -> Vec<Pos> {
    let mut v: SmallVec<[(i32, Pos); 32]> = board
        .candidates()
        .filter_map(|p| {
            let class = board.class(p, c);
            let threat = class == Class::Five
                || class.is_four()
                || matches!(class, Class::OpenThree | Class::DoubleThree);
            threat.then(|| (rank(class) * 100_000 + board.score(p, c), p))
        })
        .collect();
    v.retain(|&mut (_, p)| legal(board, p, c));
    sort_moves(&mut v)
}

/// The moves of `moves` (cells of `c`, in any order) that answer the opponent's open-four
/// threat (an open three): after the move `c` has a five point or the opponent has no open-four
/// point left. Same set and order as [`open_four_defences_slow`], which plays every move; this
/// one plays none.
///
/// * A move that makes a four leaves `c` a five point: a defence.
/// * Any other move leaves `c` no five point, and changes the classes of the cells on its four
///   lines only (within the board's update reach), each by one line pattern, which
///   [`Board::class_with`] reads from the tables. It is a defence when every open-four point of
///   the opponent is taken or changed away, and no other cell turns into one. The stone can
///   only weaken the opponent's line patterns, so the only cells that can turn into open-four
///   points are those that hold an open-four pattern or two fours and are no open-four point
///   now (a renju black double four or four-three-three candidate a white stone breaks up, a
///   caro five a stone blocks); they are checked too.
pub fn open_four_defences(
    board: &Board,
    c: Color,
    moves: impl IntoIterator<Item = Pos>,
) -> Vec<Pos> {
    let filter = DefenceFilter::new(board, c);
    moves
        .into_iter()
        .filter(|&p| filter.defends(board, p))
        .collect()
}

/// The test behind [`open_four_defences`] for one position: the cells whose class for the
/// opponent must not be an open-four point after the defence (its open-four points now, and the
/// latent cells that could become one), gathered once.
pub struct DefenceFilter {
    c: Color,
    watched: SmallVec<[Pos; 16]>,
    /// The cells that can change the class of every current open-four point of the opponent:
    /// the point itself and the cells within the update reach on its four lines. A move
    /// outside it that makes no four defends nothing.
    zone: CellSet,
}

impl DefenceFilter {
    /// The filter for `c` defending on `board`.
    #[must_use]
    pub fn new(board: &Board, c: Color) -> DefenceFilter {
        let opp = c.opponent();
        // Only a cell whose class is a four or stronger (or a renju foul) can hold an
        // open-four pattern or two fours (checked over every cell key by a unit test).
        let watched: SmallVec<[Pos; 16]> = board
            .candidates()
            .filter(|&q| {
                let class = board.class(q, opp);
                class as u8 >= Class::Four as u8
                    && (class == Class::OpenFour || {
                        let pats = (0..4).map(|d| board.pattern(q, d, opp));
                        pats.clone().any(|pat| pat == Pattern::OpenFour)
                            || pats.map(Pattern::four_count).sum::<u32>() >= 2
                    })
            })
            .collect();
        let mut zone = [u64::MAX; SET_WORDS];
        let reach = board.update_reach() as i32;
        for &q in watched
            .iter()
            .filter(|&&q| board.class(q, opp) == Class::OpenFour)
        {
            let mut z = [0u64; SET_WORDS];
            let mut add = |p: Pos| z[p.index() / 64] |= 1 << (p.index() % 64);
            add(q);
            for d in 0..4 {
                for sign in [-1, 1] {
                    for i in 1..=reach {
                        let Some(p) = board.step(q, d, sign * i) else {
                            break;
                        };
                        add(p);
                    }
                }
            }
            for (a, b) in zone.iter_mut().zip(z.iter()) {
                *a &= b;
            }
        }
        DefenceFilter { c, watched, zone }
    }

    /// Whether `c` playing the empty cell `p` on the same `board` defends.
    #[must_use]
    pub fn defends(&self, board: &Board, p: Pos) -> bool {
        let (c, opp) = (self.c, self.c.opponent());
        // A cell below the four classes holds no four or five pattern (unit test below).
        let makes_four = board.class(p, c) as u8 >= Class::Four as u8
            && (0..4).any(|d| {
                let pat = board.pattern(p, d, c);
                pat.four_count() > 0 || pat == Pattern::Five
            });
        makes_four
            || (self.zone[p.index() / 64] >> (p.index() % 64) & 1 != 0
                && self
                    .watched
                    .iter()
                    .all(|&q| q == p || board.class_with(q, p, c, opp) != Class::OpenFour))
    }
}

/// Whether a cell at offset `(dx, dy)` lies within the square radius `square` (Chebyshev
/// distance) or on one of the four lines within `line` cells.
#[inline]
#[must_use]
pub fn within_reach(dx: i32, dy: i32, square: i32, line: i32) -> bool {
    let (ax, ay) = (dx.abs(), dy.abs());
    let d = ax.max(ay);
    d <= square || ((ax == 0 || ay == 0 || ax == ay) && d <= line)
}

/// The reference for [`open_four_defences`]: every move tried on the board.
pub fn open_four_defences_slow(board: &mut Board, c: Color, moves: Vec<Pos>) -> Vec<Pos> {
    moves
        .into_iter()
        .filter(|&p| defends_open_four(board, c, p))
        .collect()
}

/// Whether `c` playing `p` leaves it a five point or the opponent no open-four point.
fn defends_open_four(board: &mut Board, c: Color, p: Pos) -> bool {
    board.put_unchecked(p, c);
    let ok = has_five(board, c) || !has_open_four(board, c.opponent());
    board.undo();
    ok
}

/// The legal moves of the side to move among the candidate cells, best first by
/// [`static_order_key`] (ties by cell): the one ordered-candidates list. Openings, the
/// protocol's analysis commands and the tactics tools call it; the search orders its moves by
/// the same key plus its killers and history ([`sort_moves`] either way).
pub fn ordered_candidates(board: &mut Board) -> Vec<Pos> {
    let me = board.side_to_move();
    let cells: Vec<Pos> = board.candidates().collect();
    let mut v: Vec<(i32, Pos)> = Vec::with_capacity(cells.len());
    for p in cells {
        if legal(board, p, me) {
            v.push((static_order_key(board, p, me), p));
        }
    }
    sort_moves(&mut v)
}

/// Sort `(key, pos)` by key descending, ties by cell ascending; return the cells.
pub fn sort_moves(v: &mut [(i32, Pos)]) -> Vec<Pos> {
    v.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    v.iter().map(|&(_, p)| p).collect()
}

/// One rank step in [`static_order_key`]: a key of at least this is a threat move
/// ([`is_threat`]); cell scores stay below it.
pub const RANK_UNIT: i32 = 10_000;

/// The static part of the move-ordering key of cell `p` for `me` (the search adds killers
/// and history): the threat rank (own, or the opponent's one step lower), then own score plus
/// [`super::params::DEFENCE_PCT`] percent of the opponent's.
#[inline]
#[must_use]
pub fn static_order_key(board: &Board, p: Pos, me: Color) -> i32 {
    let opp = me.opponent();
    let r = order_rank(rank(board.class(p, me)), rank(board.class(p, opp)));
    r * RANK_UNIT + board.score(p, me) + board.score(p, opp) * super::params::DEFENCE_PCT / 100
}

/// The rank step of [`static_order_key`] from a cell's ranks ([`rank`]) for the side to move
/// (`own`) and for the opponent (`theirs`): the own rank, or the opponent's one step lower.
#[inline]
#[must_use]
pub const fn order_rank(own: i32, theirs: i32) -> i32 {
    if own >= theirs - 1 {
        own
    } else {
        theirs - 1
    }
}

/// Whether a move is a threat move, from its ranks ([`rank`]) for the side to move (`own`) and
/// for the opponent (`theirs`): it makes an own open three or more, or takes the opponent's
/// open-three-or-stronger point. The search's move loop and history tables use this; the
/// ordering key's threat band ([`static_order_key`] at or above [`RANK_UNIT`]) is the same set
/// (a test checks every pair of classes).
#[inline]
#[must_use]
pub const fn is_threat(own: i32, theirs: i32) -> bool {
    own > 0 || theirs >= rank(Class::OpenThree)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::table::{cell_key_patterns, info_class, Tables, CELL_KEYS};
    use crate::types::Rule;

    /// The ordering key's threat band (rank step at least one) holds exactly the moves
    /// [`is_threat`] calls threats, for every pair of the mover's and the opponent's classes.
    #[test]
    fn threat_band_of_the_ordering_key_is_is_threat() {
        for own in Class::ALL {
            for theirs in Class::ALL {
                let band = order_rank(rank(own), rank(theirs)) >= 1;
                assert_eq!(
                    band,
                    is_threat(rank(own), rank(theirs)),
                    "{own:?} / {theirs:?}"
                );
            }
        }
    }

    /// [`DefenceFilter`] looks at patterns only where the class is a four or stronger: every
    /// cell key holding a four, an open four or a five pattern must have such a class, for
    /// every rule and colour.
    #[test]
    fn open_four_patterns_only_in_four_classes() {
        let mut seen = 0;
        for rule in Rule::ALL {
            let t = Tables::get(rule);
            for c in Color::ALL {
                for key in 0..CELL_KEYS {
                    let pats = cell_key_patterns(key);
                    let latent = pats.contains(&Pattern::OpenFour)
                        || pats.contains(&Pattern::Five)
                        || pats.iter().map(|p| p.four_count()).sum::<u32>() >= 1;
                    if latent {
                        seen += 1;
                        let class = info_class(t.cell_info(key, c));
                        assert!(
                            class as u8 >= Class::Four as u8,
                            "{rule:?} {c:?} key {key}: {pats:?} is {class:?}"
                        );
                    }
                }
            }
        }
        assert!(seen > 1000, "{seen}");
    }
}
