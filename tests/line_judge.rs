//! The line classifier against an independent brute-force judge, on every line of length up to
//! 11 (every window of five cells per side, walls anywhere: a shorter line is a window with
//! walls), for both colours under every rule.
//!
//! The judge shares no code with `pattern::classify`: its own win rule written from the rules
//! document, and the four levels defined as a game on the line rather than by counting points:
//! a *four* is a stone that threatens to win at once; it is *open* when no single defending
//! stone anywhere on the line stops every such win; a three is a stone after which one more own
//! stone (not a winning one) makes a four, *open* when it can make an open four (for renju
//! black: a straight four, the RIF definition). Twos are counted in windows, as the pattern
//! definitions say.

use rayon::prelude::*;
use renju_engine::pattern::classify::{classify, Line, BLACK, CENTER, EMPTY, WALL, WHITE, WINDOW};
use renju_engine::pattern::Pattern;
use renju_engine::types::{Color, Rule};

fn own(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

fn other(c: Color) -> u8 {
    match c {
        Color::Black => WHITE,
        Color::White => BLACK,
    }
}

/// The run of `v` through `i` (which holds `v`): first and last index.
fn run_of(l: &Line, i: usize, v: u8) -> (usize, usize) {
    let (mut a, mut b) = (i, i);
    while a > 0 && l[a - 1] == v {
        a -= 1;
    }
    while b < WINDOW - 1 && l[b + 1] == v {
        b += 1;
    }
    (a, b)
}

/// The rules document's win, by rule: freestyle five or more; standard exactly five; renju
/// black exactly five, white five or more; caro exactly five unless the opponent holds both
/// neighbours (the edge and walls do not block); caro with overlines also six or more.
fn wins(l: &Line, i: usize, c: Color, rule: Rule) -> bool {
    let (a, b) = run_of(l, i, own(c));
    let n = b - a + 1;
    let opp = other(c);
    let blocked = a > 0 && l[a - 1] == opp && b + 1 < WINDOW && l[b + 1] == opp;
    match (rule, c) {
        (Rule::Freestyle, _) | (Rule::Renju, Color::White) => n >= 5,
        (Rule::Standard, _) | (Rule::Renju, Color::Black) => n == 5,
        (Rule::Caro, _) => n == 5 && !blocked,
        (Rule::CaroOverline, _) => n >= 6 || (n == 5 && !blocked),
    }
}

/// The empty cells where `c` wins at once with a run through every cell of `through`.
fn win_points(l: &Line, c: Color, rule: Rule, through: &[usize]) -> Vec<usize> {
    (0..WINDOW)
        .filter(|&e| {
            if l[e] != EMPTY {
                return false;
            }
            let mut m = *l;
            m[e] = own(c);
            let (a, b) = run_of(&m, e, own(c));
            wins(&m, e, c, rule) && through.iter().all(|&t| a <= t && t <= b)
        })
        .collect()
}

/// The four level of `l` (stones of `c` on every cell of `through`): 0 none, 1 a four (one
/// defending stone stops every win through them), 2 an open four (none does).
fn four_level(l: &Line, c: Color, rule: Rule, through: &[usize]) -> u8 {
    if win_points(l, c, rule, through).is_empty() {
        return 0;
    }
    let stoppable = (0..WINDOW).any(|d| {
        if l[d] != EMPTY {
            return false;
        }
        let mut m = *l;
        m[d] = other(c);
        win_points(&m, c, rule, through).is_empty()
    });
    if stoppable {
        1
    } else {
        2
    }
}

/// Renju black's straight four through `through`: an unbroken run of exactly four whose two
/// outside neighbours are empty and each makes an exact five.
fn straight_four(l: &Line, through: &[usize]) -> bool {
    let (a, b) = run_of(l, through[0], BLACK);
    if b - a + 1 != 4 || !through.iter().all(|&t| a <= t && t <= b) || a == 0 || b == WINDOW - 1 {
        return false;
    }
    [a - 1, b + 1].iter().all(|&e| {
        let mut m = *l;
        if m[e] != EMPTY {
            return false;
        }
        m[e] = BLACK;
        wins(&m, e, Color::Black, Rule::Renju)
    })
}

/// Renju black: two different sets of four stones through the centre, each made a five by one
/// more stone (a double four in one line).
fn double_four_in_line(l: &Line) -> bool {
    let mut sets: Vec<Vec<usize>> = Vec::new();
    for e in win_points(l, Color::Black, Rule::Renju, &[CENTER]) {
        let mut m = *l;
        m[e] = BLACK;
        let (a, b) = run_of(&m, e, BLACK);
        let set: Vec<usize> = (a..=b).filter(|&i| i != e).collect();
        if !sets.contains(&set) {
            sets.push(set);
        }
    }
    sets.len() >= 2
}

/// The judge's pattern of a stone of `c` on the empty centre of `line`.
fn judge(line: &Line, c: Color, rule: Rule) -> Pattern {
    let renju_black = rule == Rule::Renju && c == Color::Black;
    let mut l = *line;
    l[CENTER] = own(c);
    if wins(&l, CENTER, c, rule) {
        return Pattern::Five;
    }
    let (a, b) = run_of(&l, CENTER, own(c));
    if b - a + 1 >= 6 {
        return Pattern::Overline;
    }
    if b - a + 1 == 5 {
        return Pattern::None; // a five that does not win: a dead line
    }
    if renju_black && double_four_in_line(&l) {
        return Pattern::DoubleFour;
    }
    match four_level(&l, c, rule, &[CENTER]) {
        2 => return Pattern::OpenFour,
        1 => return Pattern::Four,
        _ => {}
    }
    // Threes: one more own, non-winning stone on q.
    let mut three = false;
    for q in 0..WINDOW {
        if l[q] != EMPTY {
            continue;
        }
        let mut m = l;
        m[q] = own(c);
        if wins(&m, q, c, rule) {
            continue;
        }
        let open = if renju_black {
            straight_four(&m, &[CENTER, q])
        } else {
            four_level(&m, c, rule, &[CENTER, q]) == 2
        };
        if open {
            return Pattern::OpenThree;
        }
        three |= four_level(&m, c, rule, &[CENTER, q]) >= 1;
    }
    if three {
        return Pattern::Three;
    }
    // Twos: a six-cell window with empty ends whose inner four hold the centre, exactly one
    // more own stone and nothing else; else any five-cell window through the centre with two
    // own stones and no opponent stone or wall.
    let free = |i: usize| l[i] == EMPTY || l[i] == own(c);
    let count = |s: usize, e: usize| (s..=e).filter(|&i| l[i] == own(c)).count();
    for s in CENTER - 4..CENTER {
        let e = s + 5;
        if e < WINDOW
            && l[s] == EMPTY
            && l[e] == EMPTY
            && (s + 1..e).all(free)
            && count(s + 1, e - 1) == 2
        {
            return Pattern::OpenTwo;
        }
    }
    if (CENTER - 4..=CENTER).any(|s| (s..s + 5).all(free) && count(s, s + 4) >= 2) {
        return Pattern::Two;
    }
    Pattern::None
}

#[test]
fn classifier_equals_the_brute_force_judge_on_every_line() {
    for rule in Rule::ALL {
        let mismatches: Vec<String> = (0..1usize << 20)
            .into_par_iter()
            .filter_map(|key| {
                let mut l = [EMPTY; WINDOW];
                for (i, cell) in l.iter_mut().enumerate() {
                    if i != CENTER {
                        let bit = if i < CENTER { 2 * i } else { 2 * (i - 1) };
                        *cell = ((key >> bit) & 3) as u8;
                    }
                }
                for c in [Color::Black, Color::White] {
                    let (want, got) = (judge(&l, c, rule), classify(&l, c, rule));
                    if want != got {
                        let s: String = l
                            .iter()
                            .map(|&v| match v {
                                EMPTY => '.',
                                BLACK => 'X',
                                WHITE => 'O',
                                WALL => '#',
                                _ => '?',
                            })
                            .collect();
                        return Some(format!(
                            "{rule} {c} {s}: judge {want:?}, classifier {got:?}"
                        ));
                    }
                }
                None
            })
            .collect();
        assert!(
            mismatches.is_empty(),
            "{} lines differ, e.g.\n{}",
            mismatches.len(),
            mismatches[..mismatches.len().min(12)].join("\n")
        );
    }
}
