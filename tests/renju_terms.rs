//! The renju foul terms of the evaluation and the move ordering, each pinned by a position
//! whose verdict changes when the term is removed: black's certain foul points (overline,
//! double four) are no threat for black in the threat level, the ordering score or the
//! ordering rank; the fitted renju weights value black's fouls and candidate fouls below the
//! same shapes for white.

mod common;

use common::point;
use renju_engine::board::Board;
use renju_engine::eval;
use renju_engine::pattern::Class;
use renju_engine::search::threats::static_order_key;
use renju_engine::types::{Color, Pos, Rule};

const SIZE: usize = 15;

fn p(s: &str) -> Pos {
    point(s, SIZE)
}

fn position(rule: Rule, black: &str, white: &str, to_move: Color) -> Board {
    let mut b = Board::new(SIZE, rule).unwrap();
    for (list, c) in [(black, Color::Black), (white, Color::White)] {
        for s in list.split_whitespace() {
            b.put_unchecked(p(s), c);
        }
    }
    if b.side_to_move() != to_move {
        b.pass();
    }
    b
}

/// Black's four h8-k8 and m8: l8 makes six (an overline), g8 is blocked by white.
const OVERLINE_B: &str = "h8 i8 j8 k8 m8 h5 j5";
const OVERLINE_W: &str = "g8 n8 f5 g4 i4 k4 l5";

/// k8 makes two black fours (h8-k8 and k8-k11).
const DOUBLE_FOUR_B: &str = "h8 i8 j8 k9 k10 k11";
const DOUBLE_FOUR_W: &str = "g8 k12 d4 e4 f3 m2";

#[test]
fn a_black_overline_point_is_no_threat_for_black() {
    let b = position(Rule::Renju, OVERLINE_B, OVERLINE_W, Color::Black);
    let l8 = p("l8");
    assert_eq!(b.class(l8, Color::Black), Class::Overline);
    // No five point: the threat level is a four's at most, and the ordering gives the point no
    // threat rank and no score.
    assert!(eval::level(&b, Color::Black) < 7);
    assert_eq!(b.score(l8, Color::Black), 0);
    assert!(static_order_key(&b, l8, Color::Black) < 10_000);
    // The same stones in freestyle: l8 is a five.
    let f = position(Rule::Freestyle, OVERLINE_B, OVERLINE_W, Color::Black);
    assert_eq!(f.class(l8, Color::Black), Class::Five);
    assert_eq!(eval::level(&f, Color::Black), 7);
    assert!(f.score(l8, Color::Black) > 0);
}

#[test]
fn a_black_double_four_point_is_no_threat_for_black() {
    let b = position(Rule::Renju, DOUBLE_FOUR_B, DOUBLE_FOUR_W, Color::Black);
    let k8 = p("k8");
    assert_eq!(b.class(k8, Color::Black), Class::DoubleFour);
    assert!(eval::level(&b, Color::Black) < 6);
    assert_eq!(b.score(k8, Color::Black), 0);
    assert!(static_order_key(&b, k8, Color::Black) < 10_000);
    // White's same shape is an open four or better.
    let w = position(Rule::Renju, DOUBLE_FOUR_W, DOUBLE_FOUR_B, Color::White);
    assert!(eval::level(&w, Color::White) >= 6);
}

/// Black's two open twos crossing at h8: h8 makes two open threes, a double-three foul.
const CROSS: &str = "i8 j8 h9 h10";
const CORNERS: &str = "b2 b14 n2 n14";

#[test]
fn a_double_three_point_is_worth_less_to_black_than_the_same_shape_to_white() {
    // Black to move with the cross, and the same stones with the colours swapped and white
    // to move: the position is the same but for black's foul.
    let b = position(Rule::Renju, CROSS, CORNERS, Color::Black);
    let w = position(Rule::Renju, CORNERS, CROSS, Color::White);
    let h8 = p("h8");
    assert_eq!(b.class(h8, Color::Black), Class::DoubleThree);
    assert!(renju_engine::rules::renju::is_foul(&mut b.clone(), h8));
    assert_eq!(w.class(h8, Color::White), Class::DoubleThree);
    assert!(eval::evaluate(&b) < eval::evaluate(&w));
}
