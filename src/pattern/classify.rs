//! The slow, obviously correct line classifier: the single source of truth for line patterns.
//!
//! A *line window* is the 11 cells centred on an empty cell along one direction: five cells on
//! each side, each [`EMPTY`], [`BLACK`], [`WHITE`] or [`WALL`] (off the board). The classifier
//! places a stone of the given colour on the centre and answers what that stone makes *in this
//! line* under the given rule, straight from the definitions: it puts stones on the window and
//! measures runs, nothing more clever.
//!
//! Five cells per side are enough for every rule: any five through the centre lies inside the
//! window with both of its end cells, so exactness (overline) and caro blocking are decidable.

use super::Pattern;
use crate::types::{Color, Rule};

/// Cell code of an empty cell.
pub const EMPTY: u8 = 0;
/// Cell code of a black stone.
pub const BLACK: u8 = 1;
/// Cell code of a white stone.
pub const WHITE: u8 = 2;
/// Cell code of a point off the board.
pub const WALL: u8 = 3;
/// Cells on each side of the centre.
pub const HALF: usize = 5;
/// Cells in a window.
pub const WINDOW: usize = 2 * HALF + 1;
/// Index of the centre cell.
pub const CENTER: usize = HALF;

/// An 11-cell line window.
pub type Line = [u8; WINDOW];

/// The cell code of a colour.
#[inline]
#[must_use]
pub const fn code(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// The maximal run of `v` through index `i` (which must hold `v`), as inclusive bounds.
#[must_use]
pub fn run(line: &Line, i: usize, v: u8) -> (usize, usize) {
    let mut lo = i;
    while lo > 0 && line[lo - 1] == v {
        lo -= 1;
    }
    let mut hi = i;
    while hi + 1 < WINDOW && line[hi + 1] == v {
        hi += 1;
    }
    (lo, hi)
}

/// Whether the run of `c` through index `i` (which holds `c`) wins under `rule`.
#[must_use]
pub fn wins_at(line: &Line, i: usize, c: Color, rule: Rule) -> bool {
    let v = code(c);
    let (lo, hi) = run(line, i, v);
    let len = hi - lo + 1;
    let opp = code(c.opponent());
    let blocked_both = lo > 0 && line[lo - 1] == opp && hi + 1 < WINDOW && line[hi + 1] == opp;
    rule.run_wins(c, len, blocked_both)
}

/// Whether `rule` gives black the renju restrictions for colour `c`.
#[inline]
#[must_use]
pub fn is_renju_black(c: Color, rule: Rule) -> bool {
    rule == Rule::Renju && c == Color::Black
}

/// The fours of `c` in `line` that contain every index in `must`: returns (number of distinct
/// four-stone sets, number of five-points). A five-point is an empty cell where `c` would win
/// with a run containing all of `must`.
#[must_use]
pub fn fours(line: &Line, c: Color, rule: Rule, must: &[usize]) -> (usize, usize) {
    let v = code(c);
    let mut sets: Vec<u32> = Vec::new();
    let mut points = 0;
    for e in 0..WINDOW {
        if line[e] != EMPTY {
            continue;
        }
        let mut l = *line;
        l[e] = v;
        if !wins_at(&l, e, c, rule) {
            continue;
        }
        let (lo, hi) = run(&l, e, v);
        if !must.iter().all(|&m| lo <= m && m <= hi) {
            continue;
        }
        points += 1;
        let mut set = 0u32;
        for j in lo..=hi {
            if j != e {
                set |= 1 << j;
            }
        }
        if !sets.contains(&set) {
            sets.push(set);
        }
    }
    (sets.len(), points)
}

/// Whether two or more five-points of `c` through every index in `must` survive any one
/// opponent stone: no single empty cell the opponent takes leaves `c` without a five-point. Two
/// five-points are enough in every rule but caro, where the stone on one of them can block the
/// other five at its second end (`O . X X X X . O`: white on either point leaves the other
/// five blocked at both ends).
fn unstoppable(line: &Line, c: Color, rule: Rule, must: &[usize]) -> bool {
    let opp = code(c.opponent());
    fours(line, c, rule, must).1 >= 2
        && (0..WINDOW).all(|d| {
            if line[d] != EMPTY {
                return true;
            }
            let mut l = *line;
            l[d] = opp;
            fours(&l, c, rule, must).1 > 0
        })
}

/// The four pattern made by the stones already on `line` through the centre (which holds `c`)
/// plus `extra`, or `None` when there is no four through all of them.
fn four_pattern(line: &Line, c: Color, rule: Rule, must: &[usize]) -> Option<Pattern> {
    let (sets, points) = fours(line, c, rule, must);
    if points == 0 {
        None
    } else if is_renju_black(c, rule) && sets >= 2 {
        Some(Pattern::DoubleFour)
    } else if unstoppable(line, c, rule, must) {
        Some(Pattern::OpenFour)
    } else {
        Some(Pattern::Four)
    }
}

/// Whether, with `c` on the centre and on `q`, the line holds a straight four for `c`: an
/// unbroken run of exactly four containing both, whose two end cells are empty five-points.
/// For renju black this is exactly the RIF "straight four"; for the other rules and colours
/// five-points through both stones that no one opponent stone stops (see [`unstoppable`]).
fn makes_open_four(line: &Line, q: usize, c: Color, rule: Rule) -> bool {
    let v = code(c);
    if is_renju_black(c, rule) {
        let (lo, hi) = run(line, CENTER, v);
        if hi - lo + 1 != 4 || q < lo || q > hi || lo == 0 || hi + 1 >= WINDOW {
            return false;
        }
        [lo - 1, hi + 1].iter().all(|&e| {
            if line[e] != EMPTY {
                return false;
            }
            let mut l = *line;
            l[e] = v;
            wins_at(&l, e, c, rule)
        })
    } else {
        unstoppable(line, c, rule, &[CENTER, q])
    }
}

/// The empty cells `q` that turn the three through the centre into an open (straight) four:
/// `c` is on the centre, `q` is not a winning point, and with `c` on `q` the line holds a
/// straight four through both. Bit `q` of the result is set for each such cell.
#[must_use]
pub fn three_extensions(line: &Line, c: Color, rule: Rule) -> u16 {
    let v = code(c);
    let mut mask = 0u16;
    for q in 0..WINDOW {
        if line[q] != EMPTY {
            continue;
        }
        let mut l = *line;
        l[q] = v;
        if wins_at(&l, q, c, rule) {
            continue;
        }
        if makes_open_four(&l, q, c, rule) {
            mask |= 1 << q;
        }
    }
    mask
}

/// Classify what a stone of colour `c` on the (empty) centre of `line` makes in this line.
///
/// In order: [`Pattern::Five`] (a winning run under `rule`), [`Pattern::Overline`] (a run of six
/// or more that does not win), [`Pattern::None`] for a caro five blocked at both ends, then the
/// fours ([`Pattern::DoubleFour`] only for renju black: two distinct four-stone sets through the
/// centre; [`Pattern::OpenFour`]: five-points no one opponent stone stops; [`Pattern::Four`]: a
/// five-point), then the threes
/// ([`Pattern::OpenThree`]: some non-winning empty cell makes an open four through both stones,
/// see [`three_extensions`]; [`Pattern::Three`]: some non-winning cell makes a four), then the
/// twos by window counting ([`Pattern::OpenTwo`], [`Pattern::Two`]).
///
/// # Panics
/// If the centre of `line` is not empty.
#[must_use]
pub fn classify(line: &Line, c: Color, rule: Rule) -> Pattern {
    assert_eq!(
        line[CENTER], EMPTY,
        "the centre of a classified window must be empty"
    );
    let v = code(c);
    let mut l = *line;
    l[CENTER] = v;
    if wins_at(&l, CENTER, c, rule) {
        return Pattern::Five;
    }
    let (lo, hi) = run(&l, CENTER, v);
    if hi - lo + 1 >= 6 {
        return Pattern::Overline;
    }
    if hi - lo + 1 == 5 {
        // A five that does not win (caro, blocked at both ends): a dead line.
        return Pattern::None;
    }
    if let Some(p) = four_pattern(&l, c, rule, &[CENTER]) {
        return p;
    }
    if three_extensions(&l, c, rule) != 0 {
        return Pattern::OpenThree;
    }
    for q in 0..WINDOW {
        if l[q] != EMPTY {
            continue;
        }
        let mut l2 = l;
        l2[q] = v;
        if !wins_at(&l2, q, c, rule) && fours(&l2, c, rule, &[CENTER, q]).1 > 0 {
            return Pattern::Three;
        }
    }
    twos(&l, v)
}

/// Two-level shapes by counting: an open two is a six-cell window with empty ends whose four
/// inner cells hold the centre stone, one more own stone and nothing of the opponent's; a two is
/// any five-cell window through the centre holding two own stones and no opponent or wall.
fn twos(l: &Line, v: u8) -> Pattern {
    let clean = |a: usize, b: usize| (a..=b).all(|j| l[j] == EMPTY || l[j] == v);
    let own = |a: usize, b: usize| (a..=b).filter(|&j| l[j] == v).count();
    for s in CENTER.saturating_sub(4)..=CENTER - 1 {
        let e = s + 5;
        if e < WINDOW
            && l[s] == EMPTY
            && l[e] == EMPTY
            && clean(s + 1, e - 1)
            && own(s + 1, e - 1) == 2
        {
            return Pattern::OpenTwo;
        }
    }
    for s in CENTER - 4..=CENTER {
        if clean(s, s + 4) && own(s, s + 4) >= 2 {
            return Pattern::Two;
        }
    }
    Pattern::None
}

/// The number of own stones (centre included) in the best five-cell window through the centre
/// that holds no opponent stone or wall. Every four needs 4, every three 3, every two 2: the
/// table generator uses this to skip hopeless windows.
#[must_use]
pub fn best_window(line: &Line, c: Color) -> usize {
    let v = code(c);
    let mut best = 0;
    for s in CENTER - 4..=CENTER {
        let w = &line[s..s + 5];
        if w.iter().all(|&x| x == EMPTY || x == v) {
            let n = w.iter().filter(|&&x| x == v).count() + usize::from(line[CENTER] == EMPTY);
            best = best.max(n);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parse a window written with `?` for the centre (anywhere in the text); cells beyond the
    /// text repeat a wall at that end, otherwise they are empty.
    fn parse(s: &str) -> Line {
        let b = s.as_bytes();
        let q = s.find('?').expect("a centre") as i32;
        let mut l = [EMPTY; WINDOW];
        for (i, slot) in l.iter_mut().enumerate() {
            let j = i as i32 - CENTER as i32 + q;
            let ch = if j < 0 {
                if b[0] == b'#' {
                    b'#'
                } else {
                    b'.'
                }
            } else if j as usize >= b.len() {
                if b[b.len() - 1] == b'#' {
                    b'#'
                } else {
                    b'.'
                }
            } else {
                b[j as usize]
            };
            *slot = match ch {
                b'.' | b'?' => EMPTY,
                b'X' => BLACK,
                b'O' => WHITE,
                b'#' => WALL,
                _ => panic!("bad cell {ch}"),
            };
        }
        l
    }

    fn flip(l: &Line) -> Line {
        l.map(|v| match v {
            BLACK => WHITE,
            WHITE => BLACK,
            x => x,
        })
    }

    fn rev(l: &Line) -> Line {
        let mut r = *l;
        r.reverse();
        r
    }

    /// Check a case forwards, reversed, and colour-swapped (rule permitting).
    fn check(s: &str, rule: Rule, want: Pattern) {
        let l = parse(s);
        assert_eq!(classify(&l, Color::Black, rule), want, "{s} {rule}");
        assert_eq!(
            classify(&rev(&l), Color::Black, rule),
            want,
            "rev {s} {rule}"
        );
        if rule != Rule::Renju {
            assert_eq!(
                classify(&flip(&l), Color::White, rule),
                want,
                "flip {s} {rule}"
            );
        }
    }

    #[test]
    fn fives_and_overlines() {
        check("...XX?XX...", Rule::Renju, Pattern::Five);
        check("..XXX?XX...", Rule::Renju, Pattern::Overline);
        check("..XXX?XX...", Rule::Freestyle, Pattern::Five);
        check("..XXX?XX...", Rule::Standard, Pattern::Overline);
        check("..OXX?XXO..", Rule::Caro, Pattern::None);
        check("..OXX?XX...", Rule::Caro, Pattern::Five);
        check(".OXXX?XXO..", Rule::CaroOverline, Pattern::Five);
        check(".OXXX?XXO..", Rule::Caro, Pattern::Overline);
        check("#XXX?X.....", Rule::Caro, Pattern::Five);
    }

    #[test]
    fn fours() {
        check("....XX?X...", Rule::Renju, Pattern::OpenFour);
        check("...OXX?X...", Rule::Renju, Pattern::Four);
        check("..XXX.?.XXX", Rule::Renju, Pattern::DoubleFour);
        check("...XX.?X.XX", Rule::Renju, Pattern::DoubleFour);
        check("...X.X?X.X.", Rule::Renju, Pattern::DoubleFour);
        check("...X.X?X.X.", Rule::Freestyle, Pattern::OpenFour);
        // The five-point would make six for black: no four in renju, a four in freestyle.
        check("XX.XX?.", Rule::Renju, Pattern::Three);
        check("XX.XX?.", Rule::Freestyle, Pattern::Four);
        check(".X.XX?.....", Rule::Renju, Pattern::Four);
        check("X.XXX?O....", Rule::Renju, Pattern::Two);
        check("X.XXX?O....", Rule::Freestyle, Pattern::Four);
    }

    #[test]
    fn threes() {
        check("....X?X....", Rule::Renju, Pattern::OpenThree);
        check("...X.?X....", Rule::Renju, Pattern::OpenThree);
        check("...OX?X....", Rule::Renju, Pattern::Three);
        check("..O.X?X....", Rule::Renju, Pattern::OpenThree);
        check("..O.X?X.O..", Rule::Renju, Pattern::Three);
        check("#X?X.......", Rule::Renju, Pattern::Three);
        check("#.X?X......", Rule::Renju, Pattern::OpenThree);
        // R6: both straight-four attempts end next to an overline.
        check("X..?XX..X..", Rule::Renju, Pattern::Three);
        check("X..?XX..X..", Rule::Freestyle, Pattern::OpenThree);
    }

    #[test]
    fn twos_and_nothing() {
        check(".....?X....", Rule::Freestyle, Pattern::OpenTwo);
        check("....O?X....", Rule::Freestyle, Pattern::Two);
        check(".....?.....", Rule::Freestyle, Pattern::None);
        check("....O?O....", Rule::Freestyle, Pattern::None);
    }
}
