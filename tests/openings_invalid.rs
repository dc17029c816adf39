//! Opening steps with invalid requests: each answers one `ERROR` line and changes nothing.

mod common;

use common::openings::*;
use renju_engine::types::{Pos, Rule};

// ------------------------------------------------------------------------------------------
// 2. Invalid requests
// ------------------------------------------------------------------------------------------

/// One invalid request and the valid request that follows it.
struct Bad {
    head: &'static str,
    stones: Vec<Pos>,
    offers: Option<Vec<Pos>>,
    /// The valid follow-up: head, stones, offers.
    then: (&'static str, Vec<Pos>, Option<Vec<Pos>>),
}

/// A request written as cell coordinates: command line, stones, offers.
type Request<'a> = (&'static str, &'a [Xy], Option<&'a [Xy]>);

fn bad(head: &'static str, stones: &[Xy], offers: Option<&[Xy]>, then: Request) -> Bad {
    Bad {
        head,
        stones: pts(stones),
        offers: offers.map(pts),
        then: (then.0, pts(then.1), then.2.map(pts)),
    }
}

/// Send a request given as raw lines (for stones that `Pos` cannot hold: off the board).
fn raw_request(e: &mut Engine, head: &str, lines: &[&str], offers: Option<&str>) {
    let mut s = String::from(head);
    for l in lines {
        s.push('\n');
        s.push_str(l);
    }
    s.push_str("\nDONE");
    if let Some(o) = offers {
        s.push('\n');
        s.push_str(o);
    }
    e.send(&s);
}

/// Check the reply of a valid request by its command word (the stones and offers it was sent).
fn check_valid_reply(e: &mut Engine, head: &str, stones: &[Pos], offers: Option<&[Pos]>) {
    let word = head
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    let n: Option<usize> = head.split_whitespace().nth(1).and_then(|t| t.parse().ok());
    let what = format!("{head} after an invalid request");
    match word.as_str() {
        "YXSOOSORVSTEP5" => {
            let o = read_soosorv_offers(e);
            assert_offers(stones, &o, n.unwrap_or(1), &what);
        }
        "YXSOOSORVSTEP6" => {
            let w = e.yx("SOOSORV");
            assert!(w.len() == 3 && w[0] == "MOVE5C", "{what}: {w:?}");
            assert!(stones[4..].contains(&parse_pair(&w[1], &w[2])), "{what}");
        }
        "YXSOOSORVSTEP2" => {
            let w = e.yx("SOOSORV");
            assert!(w.len() == 2 && w[0] == "SWAP1", "{what}: {w:?}");
        }
        "YXSWAP2STEP2" => {
            let w = e.yx("SWAP2");
            match w[0].as_str() {
                "SWAP1" => {}
                "MOVE4" => {
                    let m4 = parse_pair(&w[1], &w[2]);
                    let w5 = e.yx("SWAP2");
                    let m5 = parse_pair(&w5[1], &w5[2]);
                    assert_legal(Rule::Renju, stones, &[m4, m5], &what);
                }
                _ => panic!("{what}: {w:?}"),
            }
        }
        _ => {
            let r = e.reply();
            assert!(!r.starts_with("ERROR"), "{what}: '{r}'");
            match word.as_str() {
                "RIFSTEP1" | "SOOSYRVSTEP1" => {
                    assert_canonical(&parse_points(&r), &what);
                }
                "RIFSTEP2" | "RIFSTEP3" | "SWAP2BOARD" if r != "SWAP" => {
                    let m = parse_points(&r);
                    assert_legal(Rule::Renju, stones, &m, &what);
                }
                "SOOSYRVSTEP2" if r != "SWAP" => {
                    let (m4, _) = parse_move_and_count(&r, n.unwrap_or(8), &what);
                    assert_legal(Rule::Renju, stones, &[m4], &what);
                }
                "RIFSTEP4" | "YAMAGUCHISTEP4" | "SOOSYRVSTEP5" | "TARAGUCHISTEP3"
                | "FIFTHOFFER" => {
                    assert_offers(stones, &parse_points(&r), n.unwrap_or(2), &what);
                }
                "RIFSTEP5" | "YAMAGUCHISTEP5" | "SOOSYRVSTEP6" | "TARAGUCHISTEP4"
                | "FIFTHCHOOSE" => {
                    assert_choice(stones, offers.unwrap_or(&[]), &r, &what);
                }
                "TARAGUCHISTEP1" | "TARAGUCHISTEP2" if r != "SWAP" => {
                    check_taraguchi_stone(stones, &r, n.unwrap_or(10), &what);
                }
                _ => {}
            }
        }
    }
}

/// Expect exactly one `ERROR` line: the next line must be the reply of a valid request.
fn expect_error(e: &mut Engine, what: &str) {
    let r = e.line();
    assert!(
        r.starts_with("ERROR "),
        "{what}: expected one 'ERROR ...' line, got '{r}'"
    );
}

#[test]
fn invalid_requests_answer_one_error_and_change_nothing() {
    let log = Transcript::new("invalid requests");
    let mut e = Engine::spawn("E", 4, &log);
    e.set_turn(150);
    // The engine's own board (for the yxswap2 steps): three stones, white to move.
    let three = pts(&[(7, 7), (7, 6), (7, 5)]);
    e.yxboard(&three);
    e.send("yxswap2step2");
    check_valid_reply(&mut e, "yxswap2step2", &three, None);

    let t3: &[(usize, usize)] = &[(7, 7), (7, 6), (7, 5)];
    let a4: &[(usize, usize)] = &ASYM;
    let m4: &[(usize, usize)] = &MIRROR;
    let f4: &[(usize, usize)] = &FOURFOLD;
    let asym_ok: &[(usize, usize)] = &[(6, 6), (9, 9)];
    let mut a4_with_offers = a4.to_vec();
    a4_with_offers.extend_from_slice(asym_ok);
    let mut m4_with_sym = m4.to_vec();
    m4_with_sym.extend_from_slice(&[(6, 7), (8, 7)]);
    let mut m4_with_ok = m4.to_vec();
    m4_with_ok.extend_from_slice(&[(6, 7), (6, 8)]);
    let cases = vec![
        // Wrong stone counts.
        bad("RIFSTEP2", &t3[..2], None, ("RIFSTEP2", t3, None)),
        bad("RIFSTEP3", a4, None, ("RIFSTEP3", t3, None)),
        bad("RIFSTEP4", t3, None, ("RIFSTEP4", a4, None)),
        bad("RIFSTEP1", t3, None, ("RIFSTEP1", &[], None)),
        bad("SWAP2BOARD", a4, None, ("SWAP2BOARD", t3, None)),
        bad(
            "YXSOOSORVSTEP2",
            &t3[..2],
            None,
            ("YXSOOSORVSTEP2", t3, None),
        ),
        bad(
            "YXSOOSORVSTEP6",
            a4,
            None,
            ("YXSOOSORVSTEP6", &a4_with_offers, None),
        ),
        bad("FIFTHOFFER 2", t3, None, ("FIFTHOFFER 2", a4, None)),
        bad(
            "FIFTHCHOOSE 2",
            t3,
            Some(asym_ok),
            ("FIFTHCHOOSE 2", a4, Some(asym_ok)),
        ),
        // Occupied (duplicate) stones.
        bad(
            "RIFSTEP2",
            &[(7, 7), (7, 6), (7, 7)],
            None,
            ("RIFSTEP2", t3, None),
        ),
        bad(
            "SWAP2BOARD",
            &[(7, 7), (8, 7), (8, 7)],
            None,
            ("SWAP2BOARD", t3, None),
        ),
        bad(
            "RIFSTEP4",
            &[(7, 7), (7, 6), (7, 5), (7, 6)],
            None,
            ("RIFSTEP4", a4, None),
        ),
        // N out of range.
        bad("SOOSYRVSTEP2 9", t3, None, ("SOOSYRVSTEP2 8", t3, None)),
        bad("SOOSYRVSTEP2 0", t3, None, ("SOOSYRVSTEP2 3", t3, None)),
        bad("SOOSYRVSTEP1 9", &[], None, ("SOOSYRVSTEP1 8", &[], None)),
        bad("YXSOOSORVSTEP5 0", a4, None, ("YXSOOSORVSTEP5 2", a4, None)),
        bad("YXSOOSORVSTEP5 9", a4, None, ("YXSOOSORVSTEP5 8", a4, None)),
        bad("YAMAGUCHISTEP4 0", a4, None, ("YAMAGUCHISTEP4 3", a4, None)),
        bad("FIFTHOFFER 0", a4, None, ("FIFTHOFFER 1", a4, None)),
        // Offers: occupied, repeated, symmetric, off-count. (An offer cannot be a foul: in a
        // four-stone position black has two stones, and every renju foul needs at least four
        // black stones besides the new one.)
        bad(
            "RIFSTEP5",
            a4,
            Some(&[(7, 7), (9, 9)]),
            ("RIFSTEP5", a4, Some(asym_ok)),
        ),
        bad(
            "RIFSTEP5",
            a4,
            Some(&[(9, 9), (9, 9)]),
            ("RIFSTEP5", a4, Some(asym_ok)),
        ),
        bad(
            "RIFSTEP5",
            m4,
            Some(&[(6, 7), (8, 7)]),
            ("RIFSTEP5", m4, Some(&[(6, 7), (6, 8)])),
        ),
        bad(
            "FIFTHCHOOSE 3",
            f4,
            Some(&[(6, 6), (9, 9), (8, 8)]),
            ("FIFTHCHOOSE 3", f4, Some(&[(6, 6), (9, 9), (7, 7)])),
        ),
        bad(
            "SOOSYRVSTEP6 2",
            &DIAGONAL,
            Some(&[(5, 5), (9, 9)]),
            ("SOOSYRVSTEP6 2", &DIAGONAL, Some(&[(5, 5), (5, 9)])),
        ),
        bad(
            "YXSOOSORVSTEP6",
            &m4_with_sym,
            None,
            ("YXSOOSORVSTEP6", &m4_with_ok, None),
        ),
        bad(
            "RIFSTEP5",
            a4,
            Some(&[(6, 6), (9, 9), (5, 5)]),
            ("RIFSTEP5", a4, Some(asym_ok)),
        ),
        bad(
            "FIFTHCHOOSE 3",
            a4,
            Some(asym_ok),
            ("FIFTHCHOOSE 2", a4, Some(asym_ok)),
        ),
        bad(
            "YAMAGUCHISTEP5 2",
            a4,
            Some(&[(9, 9)]),
            ("YAMAGUCHISTEP5 2", a4, Some(asym_ok)),
        ),
        bad(
            "TARAGUCHISTEP4 10",
            a4,
            Some(asym_ok),
            ("TARAGUCHISTEP4 2", a4, Some(asym_ok)),
        ),
        // More stones than any Taraguchi step takes (k <= 5).
        bad(
            "TARAGUCHISTEP1 10",
            &[(7, 7), (8, 7), (9, 7), (10, 9), (6, 6), (5, 5)],
            None,
            ("TARAGUCHISTEP1 10", &[(7, 7), (8, 7), (9, 7)], None),
        ),
        // Taraguchi stones outside their zones.
        bad(
            "TARAGUCHISTEP1 10",
            &[(8, 7)],
            None,
            ("TARAGUCHISTEP1 10", &[(7, 7)], None),
        ),
        bad(
            "TARAGUCHISTEP2 10",
            &[(7, 7), (9, 7)],
            None,
            ("TARAGUCHISTEP2 10", &[(7, 7), (8, 7)], None),
        ),
        bad(
            "TARAGUCHISTEP1 10",
            &[(7, 7), (8, 7), (10, 7)],
            None,
            ("TARAGUCHISTEP1 10", &[(7, 7), (8, 7), (9, 7)], None),
        ),
        bad(
            "TARAGUCHISTEP2 10",
            &[(7, 7), (8, 7), (9, 7), (11, 9)],
            None,
            (
                "TARAGUCHISTEP2 10",
                &[(7, 7), (8, 7), (9, 7), (10, 9)],
                None,
            ),
        ),
    ];
    for c in &cases {
        let what = format!(
            "invalid {} with [{}] offers [{}]",
            c.head,
            xys(&c.stones),
            c.offers.as_deref().map(xys).unwrap_or_default()
        );
        e.request(c.head, &c.stones, c.offers.as_deref());
        expect_error(&mut e, &what);
        let (h, s, o) = &c.then;
        e.request(h, s, o.as_deref());
        check_valid_reply(&mut e, h, s, o.as_deref());
    }
    // Off-board stones and offers (raw lines).
    let raw: [(&str, &[&str], Option<&str>, &str); 6] = [
        ("RIFSTEP2", &["7,7", "7,6", "15,7"], None, "RIFSTEP2"),
        ("RIFSTEP2", &["7,7", "-1,6", "7,5"], None, "RIFSTEP2"),
        ("SWAP2BOARD", &["7,7", "7,6", "7,15"], None, "SWAP2BOARD"),
        (
            "RIFSTEP5",
            &["7,7", "7,6", "7,5", "8,8"],
            Some("15,3 9,9"),
            "RIFSTEP5",
        ),
        (
            "FIFTHCHOOSE 2",
            &["7,7", "7,6", "7,5", "8,8"],
            Some("9,9 3,-1"),
            "FIFTHCHOOSE 2",
        ),
        (
            "TARAGUCHISTEP1 10",
            &["7,7", "99,99"],
            None,
            "TARAGUCHISTEP1 10",
        ),
    ];
    for (head, lines, offers, then) in raw {
        raw_request(&mut e, head, lines, offers);
        expect_error(&mut e, &format!("{head} with {lines:?} offers {offers:?}"));
        let (s, o): (Vec<Pos>, Option<Vec<Pos>>) = match then {
            "RIFSTEP5" | "FIFTHCHOOSE 2" => (pts(a4), Some(pts(asym_ok))),
            "TARAGUCHISTEP1 10" => (pts(&[(7, 7)]), None),
            _ => (pts(t3), None),
        };
        e.request(then, &s, o.as_deref());
        check_valid_reply(&mut e, then, &s, o.as_deref());
    }
    // The engine's board is still the three stones of the YXBOARD.
    e.send("yxswap2step2");
    check_valid_reply(&mut e, "yxswap2step2", &three, None);
    // And normal play continues from it: the 4th stone (white) is legal.
    e.send("BOARD\n7,7,2\n7,6,1\n7,5,2\nDONE");
    let r = e.reply();
    assert_legal(
        Rule::Renju,
        &three,
        &[parse_point(&r)],
        "BOARD after the invalid requests",
    );
}

/// The offering and choosing Taraguchi steps get the four stones of a Taraguchi opening too:
/// a stone outside its zone (rules.md §6.7) makes the request invalid, as it does for
/// `TARAGUCHISTEP1/2`.
#[test]

fn taraguchi_offer_steps_check_zones() {
    let log = Transcript::new("TARAGUCHISTEP3/4 with a stone outside its zone");
    let mut e = Engine::spawn("E", 4, &log);
    e.set_turn(150);
    let outside = pts(&[(7, 7), (8, 7), (9, 7), (11, 9)]);
    let offers = pts(&[(6, 6), (9, 9)]);
    e.request("TARAGUCHISTEP3 2", &outside, None);
    expect_error(&mut e, "TARAGUCHISTEP3 with stone 4 outside the 7x7");
    e.request("TARAGUCHISTEP4 2", &outside, Some(&offers));
    expect_error(&mut e, "TARAGUCHISTEP4 with stone 4 outside the 7x7");
    let inside = pts(&ASYM);
    e.request("TARAGUCHISTEP4 2", &inside, Some(&offers));
    check_valid_reply(&mut e, "TARAGUCHISTEP4 2", &inside, Some(&offers));
}
