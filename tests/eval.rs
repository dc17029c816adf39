//! The evaluation's behaviour, pinned by properties that hold for any sound weights: the same
//! value under the eight board symmetries; in the rules that treat both colours alike, the same
//! value after swapping the colours of every stone and of the side to move; and a value that
//! grows as the side to move's shape on an open line grows (one stone, two, three, four). Each
//! test fails when its property breaks: a term that reads cells by index or direction, a
//! colour-specific weight in freestyle, a class weight zeroed or out of order. The renju foul
//! terms are pinned in `tests/renju_terms.rs`.

mod common;

use common::{board_from, PositionGen};
use renju_engine::board::Board;
use renju_engine::eval::evaluate;
use renju_engine::rules::five_on_board;
use renju_engine::types::{Color, Pos, Rule};

const SIZE: usize = 15;

/// `b` with `c` to move (a pass if needed).
fn to_move(mut b: Board, c: Color) -> Board {
    if b.side_to_move() != c {
        b.pass();
    }
    b
}

/// A quiet position of the random set: its rule, stones, side to move and board.
struct Case {
    rule: Rule,
    black: Vec<Pos>,
    white: Vec<Pos>,
    mover: Color,
    board: Board,
}

/// 600 seeded positions cycling through `rules`, black and white to move in turn, those with a
/// five left out (at least 300 must remain).
fn positions(seed: u64, rules: &[Rule]) -> Vec<Case> {
    let mut gen = PositionGen::new(seed);
    let mut out = Vec::new();
    for i in 0..600 {
        let rule = rules[i % rules.len()];
        let (black, white) = gen.next(SIZE);
        let mover = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let board = to_move(board_from(rule, SIZE, &black, &white, 0), mover);
        if five_on_board(&board).is_none() {
            out.push(Case {
                rule,
                black,
                white,
                mover,
                board,
            });
        }
    }
    assert!(
        out.len() >= 300,
        "only {} positions without a five",
        out.len()
    );
    out
}

#[test]
fn evaluation_is_the_same_under_the_eight_board_symmetries() {
    for c in positions(71, &Rule::ALL) {
        let v0 = evaluate(&c.board);
        for s in 1..8 {
            let b = to_move(board_from(c.rule, SIZE, &c.black, &c.white, s), c.mover);
            assert_eq!(
                evaluate(&b),
                v0,
                "{:?}, {:?} to move, symmetry {s}: black {:?}, white {:?}",
                c.rule,
                c.mover,
                c.black,
                c.white
            );
        }
    }
}

#[test]
fn symmetric_rules_value_a_colour_swap_alike() {
    let rules = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Caro,
        Rule::CaroOverline,
    ];
    for c in positions(72, &rules) {
        let swapped = to_move(
            board_from(c.rule, SIZE, &c.white, &c.black, 0),
            c.mover.opponent(),
        );
        assert_eq!(
            evaluate(&c.board),
            evaluate(&swapped),
            "{:?}, {:?} to move: black {:?}, white {:?}",
            c.rule,
            c.mover,
            c.black,
            c.white
        );
    }
}

#[test]
fn a_growing_open_line_of_the_side_to_move_is_worth_more() {
    for rule in Rule::ALL {
        for mover in Color::ALL {
            // The opponent has two stones far away; the mover's line grows on row 7 from h8,
            // open at both ends.
            let far: Vec<Pos> = vec![Pos::new(1, 13, SIZE), Pos::new(2, 13, SIZE)];
            let mut last = None;
            for k in 1..=4 {
                let line: Vec<Pos> = (0..k).map(|i| Pos::new(5 + i, 7, SIZE)).collect();
                let (black, white) = match mover {
                    Color::Black => (line.clone(), far.clone()),
                    Color::White => (far.clone(), line.clone()),
                };
                let b = to_move(board_from(rule, SIZE, &black, &white, 0), mover);
                let v = evaluate(&b);
                if let Some((lk, lv)) = last {
                    assert!(
                        v > lv,
                        "{rule:?}, {mover:?} to move: {k} stones in a row value {v}, \
                         {lk} stones {lv}"
                    );
                }
                last = Some((k, v));
            }
        }
    }
}
