//! Opening rules: every opening step of the protocol (docs: protocol.md §8–§9, rules.md §6)
//! with valid and invalid requests, whole games under RIF, Soosõrv-8, Taraguchi-10 and swap2
//! between two engine processes (the test is the manager), the search-based decisions of
//! `opening::Decider` (offered fifths never symmetric, swap decisions that follow the
//! colours) and the opening files under `openings/`.
//!
//! Invalid requests are in `openings_invalid.rs`, whole games in `openings_games.rs`, the
//! opening files in `opening_files.rs`. Run with `--nocapture` to see the transcripts.

mod common;

use common::openings::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use renju_engine::board::Board;
use renju_engine::opening::{board_of, position_symmetries, rif_opening, symmetry, Decider, RIF26};
use renju_engine::types::{Color, Pos, Rule};
use std::time::Duration;

/// The helpers the other tests rely on: `opening::symmetry` is the dihedral group of the
/// square board, and the 26 canonical openings (rules.md §6.1) are pairwise distinct and cover
/// every renju start (centre, a neighbour, a stone in the central 5x5) exactly once.
#[test]
fn symmetries_and_the_26_openings() {
    for n in [15, 20] {
        let all: Vec<Pos> = (0..n * n).map(|i| Pos::new(i % n, i / n, n)).collect();
        let mut maps: Vec<Vec<Pos>> = Vec::new();
        for s in 0..8 {
            let m: Vec<Pos> = all.iter().map(|&p| symmetry(s, p, n)).collect();
            assert!(
                all.iter().all(|&p| symmetry(s, p, n) == sym(s, p, n)),
                "symmetry {s} on {n}x{n}"
            );
            let mut sorted = m.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, all, "symmetry {s} is not a bijection on {n}x{n}");
            // Neighbours stay neighbours (lines stay lines).
            for &p in &all {
                for &q in &[(1usize, 0usize), (0, 1), (1, 1)] {
                    let (x, y) = (p.x(n) + q.0, p.y(n) + q.1);
                    if x < n && y < n {
                        let (a, b) = (symmetry(s, p, n), symmetry(s, Pos::new(x, y, n), n));
                        let dx = a.x(n).abs_diff(b.x(n));
                        let dy = a.y(n).abs_diff(b.y(n));
                        assert!(dx <= 1 && dy <= 1 && dx + dy == q.0 + q.1, "symmetry {s}");
                    }
                }
            }
            assert!(!maps.contains(&m), "symmetry {s} repeats another one");
            maps.push(m);
        }
    }
    let c = SIZE / 2;
    let mut hits = [0usize; 26];
    for (i, oi) in RIF26.iter().enumerate() {
        for (j, oj) in RIF26.iter().enumerate().take(i) {
            let (a, b) = (rif_opening(i, SIZE), rif_opening(j, SIZE));
            assert!(
                (0..8).all(|s| (0..3).any(|k| symmetry(s, b[k], SIZE) != a[k])),
                "{} and {} are the same opening",
                oi.0,
                oj.0
            );
        }
    }
    for (dx2, dy2) in [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ] {
        for dx3 in -2i32..=2 {
            for dy3 in -2i32..=2 {
                if (dx3, dy3) == (0, 0) || (dx3, dy3) == (dx2, dy2) {
                    continue;
                }
                let at = |dx: i32, dy: i32| pt((c as i32 + dx) as usize, (c as i32 + dy) as usize);
                let three = [at(0, 0), at(dx2, dy2), at(dx3, dy3)];
                let i = canonical_index(&three, SIZE)
                    .unwrap_or_else(|| panic!("{} is no canonical opening", xys(&three)));
                hits[i] += 1;
                let found = (0..26)
                    .filter(|&j| {
                        let o = rif_opening(j, SIZE);
                        (0..8).any(|s| (0..3).all(|k| sym(s, o[k], SIZE) == three[k]))
                    })
                    .count();
                assert_eq!(found, 1, "{} matches {found} openings", xys(&three));
            }
        }
    }
    assert!(
        hits.iter().all(|&h| h > 0),
        "openings never reached: {hits:?}"
    );
    assert_eq!(hits.iter().sum::<usize>(), 8 * 23);
}

// ------------------------------------------------------------------------------------------
// 1. Every step command with a valid request
// ------------------------------------------------------------------------------------------

/// `SWAP2BOARD` case 2 reply: `SWAP`, one move or two moves, legal after `three`.
fn check_swap2_case2(rule: Rule, three: &[Pos], r: &str) {
    if r == "SWAP" {
        return;
    }
    let m = parse_points(r);
    assert!(
        m.len() == 1 || m.len() == 2,
        "SWAP2BOARD case 2: expected SWAP, one or two moves, got '{r}'"
    );
    assert_legal(rule, three, &m, "SWAP2BOARD case 2");
}

#[test]
fn swap2board_cases() {
    let log = Transcript::new("SWAP2BOARD steps");
    let mut e = Engine::spawn("E", 1, &log);
    // Case 1: empty board → three distinct empty points.
    let r = e.step("SWAP2BOARD", &[], None);
    let three = parse_points(&r);
    assert_eq!(three.len(), 3, "SWAP2BOARD case 1: '{r}'");
    assert_legal(Rule::Standard, &[], &three, "SWAP2BOARD case 1");
    // Case 2 on the engine's own proposal and on the spec's example.
    for t in [three.clone(), pts(&[(7, 7), (8, 7), (9, 9)])] {
        let r = e.step("SWAP2BOARD", &t, None);
        check_swap2_case2(Rule::Standard, &t, &r);
    }
    // Case 3: SWAP or one move.
    let five = pts(&[(7, 7), (8, 7), (9, 9), (8, 8), (8, 6)]);
    let r = e.step("SWAP2BOARD", &five, None);
    if r != "SWAP" {
        let m = parse_points(&r);
        assert_eq!(
            m.len(),
            1,
            "SWAP2BOARD case 3: expected SWAP or one move: '{r}'"
        );
        assert_legal(Rule::Standard, &five, &m, "SWAP2BOARD case 3");
    }
}

#[test]
fn yixin_swap2_steps() {
    let log = Transcript::new("yxswap2step1..3");
    let mut e = Engine::spawn("E", 1, &log);
    e.send("yxswap2step1");
    let mut three = Vec::new();
    for k in 1..=3 {
        let w = e.yx("SWAP2");
        assert!(
            w.len() == 3 && w[0] == format!("MOVE{k}"),
            "yxswap2step1: expected 'MESSAGE SWAP2 MOVE{k} a b', got {w:?}"
        );
        three.push(parse_pair(&w[1], &w[2]));
    }
    assert_legal(Rule::Standard, &[], &three, "yxswap2step1");
    for t in [three, pts(&[(7, 7), (8, 7), (9, 9)])] {
        e.yxboard(&t);
        e.send("yxswap2step2");
        let w = e.yx("SWAP2");
        match w[0].as_str() {
            "SWAP1" => assert!(
                w.len() == 2 && (w[1] == "YES" || w[1] == "NO"),
                "yxswap2step2: {w:?}"
            ),
            "MOVE4" => {
                assert_eq!(w.len(), 3, "yxswap2step2: {w:?}");
                let m4 = parse_pair(&w[1], &w[2]);
                let w5 = e.yx("SWAP2");
                assert!(w5.len() == 3 && w5[0] == "MOVE5", "yxswap2step2: {w5:?}");
                let m5 = parse_pair(&w5[1], &w5[2]);
                assert_legal(Rule::Standard, &t, &[m4, m5], "yxswap2step2");
            }
            _ => panic!("yxswap2step2: unexpected reply {w:?}"),
        }
    }
    let five = pts(&[(7, 7), (8, 7), (9, 9), (8, 8), (8, 6)]);
    e.yxboard(&five);
    e.send("yxswap2step3");
    let w = e.yx("SWAP2");
    assert!(
        w.len() == 2 && w[0] == "SWAP2" && (w[1] == "YES" || w[1] == "NO"),
        "yxswap2step3: {w:?}"
    );
}

#[test]
fn yixin_soosorv_steps() {
    let log = Transcript::new("yxsoosorvstep1..6");
    let mut e = Engine::spawn("E", 2, &log);
    e.send("yxsoosorvstep1");
    let mut three = Vec::new();
    for k in 1..=3 {
        let w = e.yx("SOOSORV");
        assert!(
            w.len() == 3 && w[0] == format!("MOVE{k}"),
            "yxsoosorvstep1: expected 'MESSAGE SOOSORV MOVE{k} a b', got {w:?}"
        );
        three.push(parse_pair(&w[1], &w[2]));
    }
    assert_canonical(&three, "yxsoosorvstep1");

    e.request("yxsoosorvstep2", &three, None);
    let w = e.yx("SOOSORV");
    assert!(w.len() == 2 && w[0] == "SWAP1", "yxsoosorvstep2: {w:?}");
    yes_no(&w[1], "yxsoosorvstep2");

    e.request("yxsoosorvstep3", &three, None);
    let w = e.yx("SOOSORV");
    assert!(w.len() == 4 && w[0] == "MOVE4", "yxsoosorvstep3: {w:?}");
    let m4 = parse_pair(&w[1], &w[2]);
    let n: usize = w[3].parse().expect("yxsoosorvstep3: N is a number");
    assert!((1..=8).contains(&n), "yxsoosorvstep3: N = {n} out of 1..=8");
    assert_legal(Rule::Renju, &three, &[m4], "yxsoosorvstep3");
    let mut four = three.clone();
    four.push(m4);

    e.request(&format!("yxsoosorvstep4 {n}"), &four, None);
    let w = e.yx("SOOSORV");
    assert!(w.len() == 2 && w[0] == "SWAP2", "yxsoosorvstep4: {w:?}");
    yes_no(&w[1], "yxsoosorvstep4");

    e.request(&format!("yxsoosorvstep5 {n}"), &four, None);
    let offers = read_soosorv_offers(&mut e);
    assert_offers(&four, &offers, n, "yxsoosorvstep5");

    // Several offers on a symmetric position, where equivalence matters.
    let mirror = pts(&MIRROR);
    e.request("yxsoosorvstep5 6", &mirror, None);
    let sym_offers = read_soosorv_offers(&mut e);
    assert_offers(&mirror, &sym_offers, 6, "yxsoosorvstep5 (mirror position)");

    for (pos, offers) in [(&four, &offers), (&mirror, &sym_offers)] {
        let mut payload = pos.clone();
        payload.extend_from_slice(offers);
        e.request("yxsoosorvstep6", &payload, None);
        let w = e.yx("SOOSORV");
        assert!(w.len() == 3 && w[0] == "MOVE5C", "yxsoosorvstep6: {w:?}");
        let f = parse_pair(&w[1], &w[2]);
        assert!(
            offers.contains(&f),
            "yxsoosorvstep6: chose {} which was not offered ({})",
            xy(f),
            xys(offers)
        );
    }
}

#[test]
fn swapboard_and_rif_steps() {
    let log = Transcript::new("SWAPBOARD and RIFSTEP1..5");
    let mut e = Engine::spawn("E", 0, &log);
    let r = e.step("SWAPBOARD", &[], None);
    let three = parse_points(&r);
    assert_eq!(three.len(), 3, "SWAPBOARD (empty): '{r}'");
    assert_legal(Rule::Freestyle, &[], &three, "SWAPBOARD (empty)");
    let r = e.step("SWAPBOARD", &three, None);
    if r != "SWAP" {
        let m = parse_points(&r);
        assert_eq!(
            m.len(),
            1,
            "SWAPBOARD (3 stones): expected SWAP or one move: '{r}'"
        );
        assert_legal(Rule::Freestyle, &three, &m, "SWAPBOARD (3 stones)");
    }

    e.send("INFO rule 4");
    let r = e.step("RIFSTEP1", &[], None);
    let three = parse_points(&r);
    assert_canonical(&three, "RIFSTEP1");
    // The swap decision and the fourth move on the proposal and two more openings (D1, I13).
    for t in [
        three.clone(),
        rif_opening(0, SIZE).to_vec(),
        rif_opening(25, SIZE).to_vec(),
    ] {
        let r = e.step("RIFSTEP2", &t, None);
        if r != "SWAP" {
            let m = parse_points(&r);
            assert_eq!(m.len(), 1, "RIFSTEP2: expected SWAP or the 4th move: '{r}'");
            assert_legal(Rule::Renju, &t, &m, "RIFSTEP2");
        }
    }
    let r = e.step("RIFSTEP3", &three, None);
    let m4 = parse_points(&r);
    assert_eq!(m4.len(), 1, "RIFSTEP3: expected the 4th move: '{r}'");
    assert_legal(Rule::Renju, &three, &m4, "RIFSTEP3");
    let mut four = three.clone();
    four.push(m4[0]);
    for pos in [four, pts(&MIRROR), pts(&FOURFOLD)] {
        let r = e.step("RIFSTEP4", &pos, None);
        let offers = parse_points(&r);
        assert_offers(&pos, &offers, 2, "RIFSTEP4");
        let r = e.step("RIFSTEP5", &pos, Some(&offers));
        assert_choice(&pos, &offers, &r, "RIFSTEP5");
    }
}

#[test]
fn yamaguchi_steps() {
    let log = Transcript::new("YAMAGUCHISTEP1..5");
    let mut e = Engine::spawn("E", 4, &log);
    let r = e.step("YAMAGUCHISTEP1", &[], None);
    let toks: Vec<&str> = r.split_whitespace().collect();
    assert_eq!(
        toks.len(),
        4,
        "YAMAGUCHISTEP1: expected 'x,y x,y x,y N': '{r}'"
    );
    let three = parse_points(&toks[..3].join(" "));
    assert_canonical(&three, "YAMAGUCHISTEP1");
    let n: usize = toks[3].parse().expect("YAMAGUCHISTEP1: N is a number");
    assert!(
        (1..=12).contains(&n),
        "YAMAGUCHISTEP1: N = {n} out of 1..=12"
    );

    let r = e.step(&format!("YAMAGUCHISTEP2 {n}"), &three, None);
    if r != "SWAP" {
        let m = parse_points(&r);
        assert_eq!(
            m.len(),
            1,
            "YAMAGUCHISTEP2: expected SWAP or the 4th move: '{r}'"
        );
        assert_legal(Rule::Renju, &three, &m, "YAMAGUCHISTEP2");
    }
    let r = e.step(&format!("YAMAGUCHISTEP3 {n}"), &three, None);
    let m4 = parse_points(&r);
    assert_eq!(m4.len(), 1, "YAMAGUCHISTEP3: expected the 4th move: '{r}'");
    assert_legal(Rule::Renju, &three, &m4, "YAMAGUCHISTEP3");
    let mut four = three.clone();
    four.push(m4[0]);
    for (pos, n) in [(four, n), (pts(&FOURFOLD), 5)] {
        let r = e.step(&format!("YAMAGUCHISTEP4 {n}"), &pos, None);
        let offers = parse_points(&r);
        assert_offers(&pos, &offers, n, "YAMAGUCHISTEP4");
        let r = e.step(&format!("YAMAGUCHISTEP5 {n}"), &pos, Some(&offers));
        assert_choice(&pos, &offers, &r, "YAMAGUCHISTEP5");
    }
}

#[test]
fn soosyrv_steps() {
    let log = Transcript::new("SOOSYRVSTEP1..6");
    let mut e = Engine::spawn("E", 4, &log);
    let r = e.step("SOOSYRVSTEP1 8", &[], None);
    let three = parse_points(&r);
    assert_canonical(&three, "SOOSYRVSTEP1");
    for max in [8, 2] {
        let r = e.step(&format!("SOOSYRVSTEP2 {max}"), &three, None);
        if r != "SWAP" {
            let (m4, _) = parse_move_and_count(&r, max, "SOOSYRVSTEP2");
            assert_legal(Rule::Renju, &three, &[m4], "SOOSYRVSTEP2");
        }
    }
    let r = e.step("SOOSYRVSTEP3 1", &three, None);
    let (m4, _) = parse_move_and_count(&r, 1, "SOOSYRVSTEP3 1");
    assert_legal(Rule::Renju, &three, &[m4], "SOOSYRVSTEP3 1");
    let r = e.step("SOOSYRVSTEP3 8", &three, None);
    let (m4, m) = parse_move_and_count(&r, 8, "SOOSYRVSTEP3");
    assert_legal(Rule::Renju, &three, &[m4], "SOOSYRVSTEP3");
    let mut four = three.clone();
    four.push(m4);

    let r = e.step(&format!("SOOSYRVSTEP4 {m}"), &four, None);
    if r != "SWAP" {
        assert_offers(&four, &parse_points(&r), m, "SOOSYRVSTEP4");
    }
    for (pos, m) in [(four, m), (pts(&DIAGONAL), 8)] {
        let r = e.step(&format!("SOOSYRVSTEP5 {m}"), &pos, None);
        let offers = parse_points(&r);
        assert_offers(&pos, &offers, m, "SOOSYRVSTEP5");
        let r = e.step(&format!("SOOSYRVSTEP6 {m}"), &pos, Some(&offers));
        assert_choice(&pos, &offers, &r, "SOOSYRVSTEP6");
    }
}

#[test]
fn taraguchi_steps() {
    let log = Transcript::new("TARAGUCHISTEP1..4");
    let mut e = Engine::spawn("E", 4, &log);
    let mut stones: Vec<Pos> = Vec::new();
    let r = e.step("TARAGUCHISTEP1 10", &stones, None);
    let m = check_taraguchi_stone(&stones, &r, 10, "TARAGUCHISTEP1 (k = 0)");
    assert_eq!(m[0], pt(7, 7), "the first stone is the centre");
    stones.push(m[0]);
    for k in 1..=4 {
        let r = e.step("TARAGUCHISTEP2 10", &stones, None);
        if r != "SWAP" {
            check_taraguchi_stone(&stones, &r, 10, &format!("TARAGUCHISTEP2 (k = {k})"));
        }
        let r = e.step("TARAGUCHISTEP1 10", &stones, None);
        let m = check_taraguchi_stone(&stones, &r, 10, &format!("TARAGUCHISTEP1 (k = {k})"));
        if k < 4 {
            stones.push(m[0]);
        }
    }
    // Stones placed by hand at the edge of every zone (stone k at distance k - 1).
    let edge = pts(&[(7, 7), (8, 8), (5, 5), (10, 4)]);
    let r = e.step("TARAGUCHISTEP1 3", &edge, None);
    check_taraguchi_stone(&edge, &r, 3, "TARAGUCHISTEP1 (zone edges)");
    for (pos, n) in [(stones, 10), (pts(&MIRROR), 3)] {
        let r = e.step(&format!("TARAGUCHISTEP3 {n}"), &pos, None);
        let offers = parse_points(&r);
        assert_offers(&pos, &offers, n, "TARAGUCHISTEP3");
        let r = e.step(&format!("TARAGUCHISTEP4 {n}"), &pos, Some(&offers));
        assert_choice(&pos, &offers, &r, "TARAGUCHISTEP4");
    }
}

/// protocol.md §9.2: `TARAGUCHISTEP1 N` takes 0 ≤ k ≤ 5 stones and `TARAGUCHISTEP2 N`
/// 1 ≤ k ≤ 5: after a single fifth (choice 1) the other player may swap once more, then white
/// plays move 6 anywhere.
#[test]

fn taraguchi_steps_after_a_single_fifth() {
    let log = Transcript::new("TARAGUCHISTEP1/2 with five stones");
    let mut e = Engine::spawn("E", 4, &log);
    let five = pts(&[(7, 7), (7, 6), (8, 8), (6, 9), (9, 5)]);
    let r = e.step("TARAGUCHISTEP2 10", &five, None);
    if r != "SWAP" {
        let m = parse_points(&r);
        assert_eq!(
            m.len(),
            1,
            "TARAGUCHISTEP2 (k = 5): expected SWAP or move 6: '{r}'"
        );
        assert_legal(Rule::Renju, &five, &m, "TARAGUCHISTEP2 (k = 5)");
    }
    let r = e.step("TARAGUCHISTEP1 10", &five, None);
    let m = parse_points(&r);
    assert_eq!(m.len(), 1, "TARAGUCHISTEP1 (k = 5): expected move 6: '{r}'");
    assert_legal(Rule::Renju, &five, &m, "TARAGUCHISTEP1 (k = 5)");
}

#[test]
fn fifth_offer_and_choose() {
    let log = Transcript::new("FIFTHOFFER and FIFTHCHOOSE");
    let mut e = Engine::spawn("E", 4, &log);
    for (pos, n) in [
        (pts(&ASYM), 1),
        (pts(&ASYM), 4),
        (pts(&MIRROR), 8),
        (pts(&FOURFOLD), 6),
        (pts(&DIAGONAL), 12),
    ] {
        let r = e.step(&format!("FIFTHOFFER {n}"), &pos, None);
        let offers = parse_points(&r);
        assert_offers(&pos, &offers, n, &format!("FIFTHOFFER {n}"));
        let r = e.step(&format!("FIFTHCHOOSE {n}"), &pos, Some(&offers));
        assert_choice(&pos, &offers, &r, &format!("FIFTHCHOOSE {n}"));
    }
    // AlphaGomoku's variant: a lone `PLAY` line between `DONE` and the offers (protocol.md
    // §9.1), for every choosing step.
    let pos = pts(&ASYM);
    let offers = pts(&[(6, 6), (9, 9)]);
    for head in [
        "RIFSTEP5",
        "YAMAGUCHISTEP5 2",
        "SOOSYRVSTEP6 2",
        "TARAGUCHISTEP4 2",
        "FIFTHCHOOSE 2",
    ] {
        let mut s = String::from(head);
        for &p in &pos {
            s.push_str(&format!("\n{}", xy(p)));
        }
        s.push_str(&format!("\nDONE\nPLAY\n{}", xys(&offers)));
        e.send(&s);
        let r = e.reply();
        assert_choice(&pos, &offers, &r, &format!("{head} with a PLAY line"));
    }
}

// ------------------------------------------------------------------------------------------
// 4. Offered fifths are never equivalent
// ------------------------------------------------------------------------------------------

fn random_position(rng: &mut StdRng) -> Vec<Pos> {
    loop {
        let mut stones: Vec<Pos> = Vec::new();
        while stones.len() < 4 {
            let p = pt(rng.gen_range(4..=10), rng.gen_range(4..=10));
            if !stones.contains(&p) {
                stones.push(p);
            }
        }
        if board_of(Rule::Renju, SIZE, &stones).is_ok() {
            return stones;
        }
    }
}

#[test]
fn offered_fifths_are_never_equivalent() {
    let mut rng = StdRng::seed_from_u64(20240611);
    let mut positions: Vec<Vec<Pos>> = (0..30).map(|_| random_position(&mut rng)).collect();
    // Symmetric positions and their expected groups.
    let symmetric: [(&[Xy], &[usize]); 3] = [
        (&MIRROR, &[0, 4]),
        (&FOURFOLD, &[0, 2, 4, 5]),
        (&DIAGONAL, &[0, 2, 6, 7]),
    ];
    for (s, group) in symmetric {
        let b = renju_board(&pts(s));
        assert_eq!(position_symmetries(&b), group.to_vec(), "{}", xys(&pts(s)));
        assert_eq!(group_of(&b), group.to_vec());
        positions.push(pts(s));
    }
    for (i, stones) in positions.iter().enumerate() {
        let board = renju_board(stones);
        for n in [2, 5, 10] {
            let mut d = Decider::new(2, Duration::from_millis(300));
            let offers = d.offer_fifths(&board, n);
            let what = format!("position {i} ({}) n = {n}", xys(stones));
            assert_offers(stones, &offers, n, &what);
            // Every symmetry of the position maps no offer onto another one.
            for s in group_of(&board).into_iter().skip(1) {
                for &p in &offers {
                    let q = sym(s, p, SIZE);
                    assert!(
                        q == p || !offers.contains(&q),
                        "{what}: {} and its image {} under symmetry {s} are both offered",
                        xy(p),
                        xy(q)
                    );
                }
            }
        }
    }
    // The mirror position: a cell and its mirror image are never both offered, for any n.
    let mirror = pts(&MIRROR);
    let board = renju_board(&mirror);
    for n in [2, 4, 8, 16, 24] {
        let mut d = Decider::new(2, Duration::from_millis(300));
        let offers = d.offer_fifths(&board, n);
        assert_eq!(offers.len(), n, "mirror position, n = {n}");
        for &p in &offers {
            let q = pt(SIZE - 1 - p.x(SIZE), p.y(SIZE));
            assert!(
                q == p || !offers.contains(&q),
                "mirror images {} and {} both offered",
                xy(p),
                xy(q)
            );
        }
    }
}

// ------------------------------------------------------------------------------------------
// 5. The swap decision follows the colours
// ------------------------------------------------------------------------------------------

/// A freestyle board: `strong` stones for colour `s`, `weak` for the other, then the side to
/// move set to `to_move`.
fn setup(strong: &[Pos], weak: &[Pos], s: Color, to_move: Color) -> Board {
    let mut b = Board::new(SIZE, Rule::Freestyle).expect("board");
    for &p in weak {
        b.put_unchecked(p, s.opponent());
    }
    for &p in strong {
        b.put_unchecked(p, s);
    }
    if b.side_to_move() != to_move {
        b.pass();
    }
    b
}

#[test]
fn swap_decision_follows_the_colours() {
    // An open three (g8 h8 i8) plus a stone below it against three corner stones, and a
    // three-stone cluster (h8 i8 h7) against two corner stones: lopsided for the cluster.
    let shapes = [
        (
            pts(&[(6, 7), (7, 7), (8, 7), (7, 8)]),
            pts(&[(0, 0), (14, 14), (0, 14)]),
        ),
        (pts(&[(7, 7), (8, 7), (7, 8)]), pts(&[(0, 0), (14, 0)])),
    ];
    for (strong, weak) in &shapes {
        for (s, to_move, swap) in [
            (Color::Black, Color::White, true),
            (Color::White, Color::Black, true),
            (Color::Black, Color::Black, false),
            (Color::White, Color::White, false),
        ] {
            let b = setup(strong, weak, s, to_move);
            let v = Decider::new(4, Duration::from_millis(1500)).value(&b);
            let got = Decider::new(4, Duration::from_millis(1500)).should_swap(&b);
            println!(
                "cluster {} for {s}, {to_move} to move: value {v}, should_swap {got}",
                xys(strong)
            );
            assert_eq!(
                got, swap,
                "advantage to {s}, {to_move} to move: should_swap = {got} (value {v})\n{b}"
            );
        }
    }
}

// ------------------------------------------------------------------------------------------
// 6. Lopsided offers are swapped through the protocol (the timed decider)
// ------------------------------------------------------------------------------------------

/// The opening steps decide by the engine's search within the turn's time: a clearly lopsided
/// position is swapped by the side that is worse off, and kept by the side that is better off,
/// in the extension's `SWAPBOARD`, Yixin-Board's `yxswap2step2`/`yxswap2step3` and Gomocup's
/// `SWAP2BOARD`.
#[test]
fn lopsided_offers_are_swapped_through_the_protocol() {
    let log = Transcript::new("lopsided offers");
    let mut e = Engine::spawn("E", 0, &log);
    // Three stones, white to move. Black h8 i8 with white in a corner: black is well ahead
    // (swap, take black). Black in two corners with white on h8: white is (keep white).
    let black_ahead = pts(&[(7, 7), (0, 0), (8, 7)]);
    let white_ahead = pts(&[(0, 0), (7, 7), (14, 14)]);
    assert_eq!(e.step("SWAPBOARD", &black_ahead, None), "SWAP");
    let r = e.step("SWAPBOARD", &white_ahead, None);
    assert_eq!(parse_points(&r).len(), 1, "kept white and moved: '{r}'");
    e.yxboard(&black_ahead);
    e.send("yxswap2step2");
    assert_eq!(e.yx("SWAP2"), ["SWAP1", "YES"], "yxswap2step2, black ahead");
    e.yxboard(&white_ahead);
    e.send("yxswap2step2");
    assert_eq!(e.yx("SWAP2"), ["SWAP1", "NO"], "yxswap2step2, white ahead");
    // Five stones, white to move. Black's open three g8 h8 i8 against two corner stones:
    // swap (take black). Black scattered on the edges against white h8 i9: keep white.
    let black_ahead = pts(&[(6, 7), (0, 0), (7, 7), (0, 14), (8, 7)]);
    let white_ahead = pts(&[(0, 0), (7, 7), (14, 14), (8, 8), (0, 14)]);
    e.yxboard(&black_ahead);
    e.send("yxswap2step3");
    assert_eq!(e.yx("SWAP2"), ["SWAP2", "YES"], "yxswap2step3, black ahead");
    e.yxboard(&white_ahead);
    e.send("yxswap2step3");
    assert_eq!(e.yx("SWAP2"), ["SWAP2", "NO"], "yxswap2step3, white ahead");
    assert_eq!(e.step("SWAP2BOARD", &black_ahead, None), "SWAP");
    let r = e.step("SWAP2BOARD", &white_ahead, None);
    assert_eq!(parse_points(&r).len(), 1, "kept white and moved: '{r}'");
    // With the log on, the decision's value comes first, on the calibrated scale.
    e.send("INFO show_detail 2");
    e.request("SWAP2BOARD", &black_ahead, None);
    let note = e.line();
    let words: Vec<&str> = note.split_whitespace().collect();
    let score: i32 = words
        .get(6)
        .and_then(|w| w.trim_end_matches(',').parse().ok())
        .unwrap_or(0);
    let rate: u32 = words
        .get(9)
        .and_then(|w| w.trim_end_matches("%:").parse().ok())
        .unwrap_or(99);
    assert!(
        note.starts_with("MESSAGE swap2: white to move, score ") && score < 0 && rate < 50,
        "{note}"
    );
    assert!(note.ends_with(": swap"), "{note}");
    assert_eq!(e.reply(), "SWAP");
}
