//! The verified positions of the rules document (R1–R28, W1–W9) and the collected foul data,
//! each checked with the fast detector and the reference, under all 8 board symmetries.

mod common;
use common::*;
use renju_engine::board::Board;
use renju_engine::pattern::Class;
use renju_engine::rules::{self, reference, renju, Foul};
use renju_engine::types::{Color, Pos, Rule};

/// Check one "colour plays point" case on a built board. `expect` is `five`, `win`, `no-win`,
/// `allowed` or `forbidden:<kind>`.
fn check_case(b: &mut Board, p: Pos, c: Color, expect: &str, what: &str) {
    assert!(b.is_empty(p), "{what}: tested point occupied");
    let wins = rules::wins_by_placing(b, p, c);
    let fast_five = b.class(p, c) == Class::Five;
    assert_eq!(
        wins,
        fast_five,
        "{what}: run-based win {wins} vs pattern class {:?}",
        b.class(p, c)
    );
    let (fast, slow) = if c == Color::Black && b.rule() == Rule::Renju {
        let mut g = reference::Grid::from_board(b);
        let slow = reference::foul(&mut g, p.x(b.size()) as i32, p.y(b.size()) as i32);
        (renju::foul(b, p), slow)
    } else {
        (None, None)
    };
    assert_eq!(fast, slow, "{what}: fast {fast:?} vs reference {slow:?}");
    match expect {
        "five" | "win" => {
            assert!(wins, "{what}: expected a win");
            assert_eq!(fast, None, "{what}: a five is never a foul");
        }
        "no-win" => assert!(!wins, "{what}: expected no win"),
        "allowed" => {
            assert!(!wins, "{what}: expected no five");
            assert_eq!(fast, None, "{what}: expected allowed");
        }
        f => {
            let kind = foul_of(f.strip_prefix("forbidden:").expect("verdict"));
            assert_eq!(fast, Some(kind), "{what}");
        }
    }
    // A foul is refused by try_play for black to move; everything else is accepted.
    if c == Color::Black && b.side_to_move() == Color::Black {
        let before = b.hash();
        let r = rules::try_play(b, p);
        match fast {
            Some(k) => {
                assert_eq!(r, Err(rules::IllegalMove::Foul(p, k)), "{what}");
                assert_eq!(b.hash(), before);
            }
            None => {
                assert!(r.is_ok(), "{what}");
                b.undo();
            }
        }
    }
}

fn run_file(path: &str) -> usize {
    let mut n = 0;
    for case in read_cases(path) {
        let rule = rule_of(case.get("rule"));
        let size: usize = case.get("size").parse().unwrap();
        let black = stones(case.get("black"), size);
        let white = stones(case.get("white"), size);
        let p = point(case.get("point"), size);
        let c = case
            .fields
            .get("color")
            .map_or(Color::Black, |s| s.parse().unwrap());
        for s in 0..8 {
            let mut b = board_from(rule, size, &black, &white, s);
            let what = format!("{} symmetry {s}: {}", case.id, case.line);
            check_case(&mut b, sym_pos(s, p, size), c, case.get("expect"), &what);
            n += 1;
        }
    }
    n
}

#[test]
fn rules_document_positions() {
    let n = run_file("rules_md.txt");
    assert_eq!(n, 38 * 8);
}

#[test]
fn collected_foul_cases() {
    let n = run_file("fouls.txt");
    assert!(n >= 252 * 8);
}

#[test]
fn full_board_foul_maps() {
    let mut boards = 0;
    for case in read_cases("fouls_fullboard.txt") {
        let size: usize = case.get("size").parse().unwrap();
        let black = stones(case.get("black"), size);
        let white = stones(case.get("white"), size);
        let mut want: Vec<(Pos, Foul)> = Vec::new();
        if case.get("forbidden") != "-" {
            for item in case.get("forbidden").split(',') {
                let (pt, kind) = item.split_once(':').expect("coord:kind");
                want.push((point(pt, size), foul_of(kind)));
            }
        }
        for s in 0..8 {
            let mut b = board_from(Rule::Renju, size, &black, &white, s);
            let mut expect: Vec<(Pos, Foul)> = want
                .iter()
                .map(|&(p, k)| (sym_pos(s, p, size), k))
                .collect();
            expect.sort();
            let got = renju::all_fouls(&mut b);
            assert_eq!(got, expect, "{} symmetry {s}", case.line);
            let mut g = reference::Grid::from_board(&b);
            for p in b.empty_cells().collect::<Vec<_>>() {
                let slow = reference::foul(&mut g, p.x(size) as i32, p.y(size) as i32);
                let fast = expect.iter().find(|&&(q, _)| q == p).map(|&(_, k)| k);
                assert_eq!(
                    slow,
                    fast,
                    "reference at {} in {}",
                    p.to_renju(size),
                    case.line
                );
            }
        }
        boards += 1;
    }
    assert_eq!(boards, 37);
}
