//! Opening rules: every opening step of the protocol (docs: protocol.md §8–§9, rules.md §6)
//! with valid and invalid requests, whole games under RIF, Soosõrv-8, Taraguchi-10 and swap2
//! between two engine processes (the test is the manager), the search-based decisions of
//! `opening::Decider` (offered fifths never symmetric, swap decisions that follow the
//! colours) and the opening files under `openings/`.
//!
//! Run with `--nocapture` to see the transcripts.

mod common;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use renju_engine::board::Board;
use renju_engine::opening::{
    board_of, equivalent, position_symmetries, rif_opening, symmetry, Decider, RIF26,
};
use renju_engine::rules::{self, renju};
use renju_engine::types::{parse_renju_list, valid_size, Color, Pos, Rule};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Board side of every protocol test.
const SIZE: usize = 15;
/// `INFO timeout_turn` during the opening steps (ms).
const STEP_MS: u64 = 300;
/// `INFO timeout_turn` during the normal play after the opening (ms).
const MOVE_MS: u64 = 100;
/// How much longer than the turn limit a reply may take before the test fails (ms). The
/// managers tolerate 1000 ms; the tests run in parallel on a loaded machine.
const GRACE_MS: u64 = 2000;
/// Games stop after this many stones.
const MAX_STONES: usize = 60;

// ------------------------------------------------------------------------------------------
// Points and positions
// ------------------------------------------------------------------------------------------

/// A cell as Gomocup `(x, y)`.
type Xy = (usize, usize);

fn pt(x: usize, y: usize) -> Pos {
    Pos::new(x, y, SIZE)
}

fn pts(list: &[(usize, usize)]) -> Vec<Pos> {
    list.iter().map(|&(x, y)| pt(x, y)).collect()
}

fn xy(p: Pos) -> String {
    p.to_gomocup(SIZE)
}

fn xys(ps: &[Pos]) -> String {
    ps.iter().map(|&p| xy(p)).collect::<Vec<_>>().join(" ")
}

/// Parse a Gomocup point `x,y`, which must lie on the board.
fn parse_point(t: &str) -> Pos {
    let (x, y) = t
        .split_once(',')
        .unwrap_or_else(|| panic!("'{t}' is not a point x,y"));
    let x: i64 = x
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("bad x in '{t}'"));
    let y: i64 = y
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("bad y in '{t}'"));
    assert!(
        (0..SIZE as i64).contains(&x) && (0..SIZE as i64).contains(&y),
        "point '{t}' is off the board"
    );
    pt(x as usize, y as usize)
}

/// Parse a line of points `x,y x,y ...`.
fn parse_points(line: &str) -> Vec<Pos> {
    line.split_whitespace().map(parse_point).collect()
}

/// Parse a Yixin pair `a b` (two integers separated by a space).
fn parse_pair(a: &str, b: &str) -> Pos {
    parse_point(&format!("{a},{b}"))
}

/// Our own copy of the 8 square symmetries (to cross-check `opening::symmetry`).
fn sym(s: usize, p: Pos, n: usize) -> Pos {
    let (x, y) = (p.x(n), p.y(n));
    let m = n - 1;
    let (nx, ny) = match s {
        0 => (x, y),
        1 => (m - y, x),
        2 => (m - x, m - y),
        3 => (y, m - x),
        4 => (m - x, y),
        5 => (x, m - y),
        6 => (y, x),
        _ => (m - y, m - x),
    };
    Pos::new(nx, ny, n)
}

/// The symmetries keeping every stone of `b` (colours kept), computed independently.
fn group_of(b: &Board) -> Vec<usize> {
    let n = b.size();
    (0..8)
        .filter(|&s| {
            b.cells()
                .all(|p| b.stone(p).is_none() || b.stone(sym(s, p, n)) == b.stone(p))
        })
        .collect()
}

fn renju_board(stones: &[Pos]) -> Board {
    board_of(Rule::Renju, SIZE, stones)
        .unwrap_or_else(|e| panic!("test position {} is illegal: {e}", xys(stones)))
}

/// The index (0..26) of the canonical opening the three stones are, up to symmetry.
fn canonical_index(stones: &[Pos], size: usize) -> Option<usize> {
    if stones.len() != 3 {
        return None;
    }
    (0..26).find(|&i| {
        let o = rif_opening(i, size);
        (0..8).any(|s| (0..3).all(|k| symmetry(s, o[k], size) == stones[k]))
    })
}

fn assert_canonical(stones: &[Pos], what: &str) -> usize {
    let i = canonical_index(stones, SIZE).unwrap_or_else(|| {
        panic!(
            "{what}: {} is not one of the 26 canonical openings",
            xys(stones)
        )
    });
    renju_board(stones);
    i
}

/// `next` played after `stones` under `rule`: every stone on an empty cell, legal for its
/// colour, no five. Returns the board.
fn assert_legal(rule: Rule, stones: &[Pos], next: &[Pos], what: &str) -> Board {
    let mut b = board_of(rule, SIZE, stones)
        .unwrap_or_else(|e| panic!("{what}: position {} is illegal: {e}", xys(stones)));
    for &p in next {
        if let Err(e) = rules::try_play(&mut b, p) {
            panic!(
                "{what}: {} after {} is illegal: {e}\n{b}",
                xy(p),
                xys(stones)
            );
        }
        assert!(
            !rules::is_win(&b, p),
            "{what}: {} makes a five in the opening",
            xy(p)
        );
    }
    b
}

/// Validate offered fifths for the 4-stone position `stones` (renju): exactly `n`, distinct,
/// empty, no foul for black, pairwise not symmetric (rules.md §6.10).
fn check_offers(stones: &[Pos], offers: &[Pos], n: usize) -> Result<(), String> {
    let mut b = board_of(Rule::Renju, SIZE, stones).map_err(|e| e.to_string())?;
    if offers.len() != n {
        return Err(format!("{} offers instead of {n}", offers.len()));
    }
    let group = group_of(&b);
    if position_symmetries(&b) != group {
        return Err(format!(
            "position_symmetries {:?} differs from the independent {group:?}",
            position_symmetries(&b)
        ));
    }
    for (i, &p) in offers.iter().enumerate() {
        if !b.is_empty(p) {
            return Err(format!("offer {} is occupied", xy(p)));
        }
        if offers[..i].contains(&p) {
            return Err(format!("offer {} is repeated", xy(p)));
        }
        if let Some(f) = renju::foul(&mut b, p) {
            return Err(format!("offer {} is a foul ({f:?})", xy(p)));
        }
        for &q in &offers[..i] {
            let mine = group.iter().any(|&s| sym(s, q, SIZE) == p);
            if mine != equivalent(&b, p, q) {
                return Err(format!(
                    "equivalent({}, {}) disagrees with the symmetry group {group:?}",
                    xy(p),
                    xy(q)
                ));
            }
            if mine {
                return Err(format!("offers {} and {} are symmetric", xy(q), xy(p)));
            }
        }
    }
    Ok(())
}

fn assert_offers(stones: &[Pos], offers: &[Pos], n: usize, what: &str) {
    if let Err(e) = check_offers(stones, offers, n) {
        panic!(
            "{what}: bad offers {} for position {}: {e}",
            xys(offers),
            xys(stones)
        );
    }
}

/// A choose-step reply `x5,y5 x6,y6`: the fifth is one of the offers, the sixth is empty, not
/// the fifth and legal. Returns both.
fn assert_choice(stones: &[Pos], offers: &[Pos], reply: &str, what: &str) -> (Pos, Pos) {
    let r = parse_points(reply);
    assert_eq!(r.len(), 2, "{what}: expected 'x5,y5 x6,y6', got '{reply}'");
    assert!(
        offers.contains(&r[0]),
        "{what}: the chosen fifth {} is not among the offers {}",
        xy(r[0]),
        xys(offers)
    );
    assert_ne!(r[1], r[0], "{what}: the sixth move repeats the fifth");
    assert_legal(Rule::Renju, stones, &r, what);
    (r[0], r[1])
}

/// Chebyshev distance from the centre.
fn ring(p: Pos) -> usize {
    let c = SIZE / 2;
    p.x(SIZE).abs_diff(c).max(p.y(SIZE).abs_diff(c))
}

/// Taraguchi zone of stone number `k` (1-based): Chebyshev distance from the centre ≤ k − 1.
fn assert_in_zone(p: Pos, k: usize, what: &str) {
    assert!(
        ring(p) < k,
        "{what}: stone {k} at {} lies outside its {}x{} zone",
        xy(p),
        2 * k - 1,
        2 * k - 1
    );
}

// ------------------------------------------------------------------------------------------
// The engine process and the transcript
// ------------------------------------------------------------------------------------------

/// The lines exchanged in one test, printed when the test ends (also when it fails).
struct Transcript {
    title: String,
    lines: RefCell<Vec<String>>,
}

impl Transcript {
    fn new(title: &str) -> Rc<Transcript> {
        Rc::new(Transcript {
            title: title.to_string(),
            lines: RefCell::new(Vec::new()),
        })
    }

    fn note(&self, s: &str) {
        self.lines.borrow_mut().push(s.to_string());
    }
}

impl Drop for Transcript {
    fn drop(&mut self) {
        println!(
            "==== {} ====\n{}\n==== end of {} ====\n",
            self.title,
            self.lines.borrow().join("\n"),
            self.title
        );
    }
}

/// One engine of a test: the shared harness's process, named in this test's transcript.
struct Engine {
    name: &'static str,
    e: common::engine::Engine,
    log: Rc<Transcript>,
    turn_ms: u64,
    sent: Instant,
}

impl Engine {
    /// Start an engine process: `START 15`, `INFO rule`, short turns, no detail messages.
    fn spawn(name: &'static str, rule: i64, log: &Rc<Transcript>) -> Engine {
        let mut e = Engine {
            name,
            e: common::engine::Engine::spawn(),
            log: log.clone(),
            turn_ms: STEP_MS,
            sent: Instant::now(),
        };
        e.send(&format!("INFO rule {rule}"));
        e.send(&format!("INFO timeout_turn {STEP_MS}"));
        e.send("INFO timeout_match 0");
        e.send("INFO show_detail 0");
        e.send(&format!("START {SIZE}"));
        let ok = e.line();
        assert_eq!(ok, "OK", "{name}: START");
        e
    }

    fn send(&mut self, s: &str) {
        for l in s.lines() {
            self.log.note(&format!("{} > {l}", self.name));
        }
        self.e.send(s);
        self.sent = Instant::now();
    }

    fn set_turn(&mut self, ms: u64) {
        self.turn_ms = ms;
        self.send(&format!("INFO timeout_turn {ms}"));
    }

    /// The next output line, within the turn limit plus grace after the last command.
    fn line(&mut self) -> String {
        let deadline = self.sent + Duration::from_millis(self.turn_ms + GRACE_MS);
        let left = deadline.saturating_duration_since(Instant::now());
        match self.e.next_line(left) {
            Some(l) => {
                self.log.note(&format!("{} < {l}", self.name));
                l
            }
            None => panic!(
                "{}: no reply within {} ms",
                self.name,
                self.turn_ms + GRACE_MS
            ),
        }
    }

    /// The next line that is not `MESSAGE`/`DEBUG`.
    fn reply(&mut self) -> String {
        loop {
            let l = self.line();
            if !l.starts_with("MESSAGE") && !l.starts_with("DEBUG") {
                return l;
            }
        }
    }

    /// The next `MESSAGE <tag> ...` line, as its words after the tag; any line that is not a
    /// `MESSAGE`/`DEBUG` line (an `ERROR`, a move) fails.
    fn yx(&mut self, tag: &str) -> Vec<String> {
        loop {
            let l = self.line();
            let words: Vec<String> = l.split_whitespace().map(str::to_string).collect();
            if words.len() >= 2 && words[0] == "MESSAGE" && words[1] == tag {
                return words[2..].to_vec();
            }
            assert!(
                l.starts_with("MESSAGE") || l.starts_with("DEBUG"),
                "{}: expected 'MESSAGE {tag} ...', got '{l}'",
                self.name
            );
        }
    }

    /// Send a step: the head line, the stones, `DONE` and, if given, the offers line.
    fn request(&mut self, head: &str, stones: &[Pos], offers: Option<&[Pos]>) {
        let mut s = String::from(head);
        for &p in stones {
            s.push('\n');
            s.push_str(&xy(p));
        }
        // Yixin-Board writes its commands and `done` in lower case.
        s.push_str(if head.starts_with("yx") {
            "\ndone"
        } else {
            "\nDONE"
        });
        if let Some(o) = offers {
            s.push('\n');
            s.push_str(&xys(o));
        }
        self.send(&s);
    }

    /// A step whose reply is one line.
    fn step(&mut self, head: &str, stones: &[Pos], offers: Option<&[Pos]>) -> String {
        self.request(head, stones, offers);
        let r = self.reply();
        assert!(
            !r.starts_with("ERROR") && !r.starts_with("UNKNOWN"),
            "{}: valid request '{head}' with {} answered '{r}'",
            self.name,
            xys(stones)
        );
        r
    }

    /// A Yixin `YXBOARD` with `stones` in move order; the side to move is the engine (own = 1).
    fn yxboard(&mut self, stones: &[Pos]) {
        let me = if stones.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        let mut s = String::from("yxboard");
        for (i, &p) in stones.iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            s.push_str(&format!("\n{},{}", xy(p), if c == me { 1 } else { 2 }));
        }
        s.push_str("\ndone");
        self.send(&s);
    }
}

// Fixed 4-stone positions (black, white, black, white).
/// h8 h9 h10 i7: no symmetry.
const ASYM: [(usize, usize); 4] = [(7, 7), (7, 6), (7, 5), (8, 8)];
/// h8 h9 h10 h7: mirror symmetric in column h.
const MIRROR: [(usize, usize); 4] = [(7, 7), (7, 6), (7, 5), (7, 8)];
/// g8 h9 i8 h7: four symmetries (both mirrors and the half turn) about the empty centre.
const FOURFOLD: [(usize, usize); 4] = [(6, 7), (7, 6), (8, 7), (7, 8)];
/// g9 g7 i7 i9: the diagonal mirrors and the half turn.
const DIAGONAL: [(usize, usize); 4] = [(6, 6), (6, 8), (8, 8), (8, 6)];

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

/// A Yixin `Y`/`N` answer (only the first letter counts, so `YES`/`NO` pass too).
fn yes_no(w: &str, what: &str) -> bool {
    match w.chars().next() {
        Some('Y') => true,
        Some('N') => false,
        _ => panic!("{what}: expected Y or N, got '{w}'"),
    }
}

/// Read the `MESSAGE SOOSORV MOVE5 a b` lines up to `MOVE5 DONE`.
fn read_soosorv_offers(e: &mut Engine) -> Vec<Pos> {
    let mut offers = Vec::new();
    loop {
        let w = e.yx("SOOSORV");
        assert_eq!(w[0], "MOVE5", "yxsoosorvstep5: {w:?}");
        match w.get(1).map(String::as_str) {
            Some("DONE") => return offers,
            Some("REFRESH") => {}
            _ => {
                assert_eq!(w.len(), 3, "yxsoosorvstep5: {w:?}");
                offers.push(parse_pair(&w[1], &w[2]));
            }
        }
    }
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

/// A Soosõrv `x,y M` reply (4th move and the declared count); checks 1 ≤ M ≤ max.
fn parse_move_and_count(r: &str, max: usize, what: &str) -> (Pos, usize) {
    let toks: Vec<&str> = r.split_whitespace().collect();
    assert_eq!(toks.len(), 2, "{what}: expected 'x,y M', got '{r}'");
    let m: usize = toks[1]
        .parse()
        .unwrap_or_else(|_| panic!("{what}: M is not a number in '{r}'"));
    assert!((1..=max).contains(&m), "{what}: M = {m} out of 1..={max}");
    (parse_point(toks[0]), m)
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

/// A Taraguchi reply after `stones` (k = stones.len() ≤ 4): the next stone inside its zone, or
/// (k = 4 only) N offered fifths. Returns the stones of the reply.
fn check_taraguchi_stone(stones: &[Pos], r: &str, n: usize, what: &str) -> Vec<Pos> {
    let m = parse_points(r);
    let k = stones.len();
    if k == 4 && m.len() == n && n > 1 {
        assert_offers(stones, &m, n, what);
        return m;
    }
    assert_eq!(
        m.len(),
        1,
        "{what}: expected one stone after {k}, got '{r}'"
    );
    assert_in_zone(m[0], k + 1, what);
    assert_legal(Rule::Renju, stones, &m, what);
    m
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

// ------------------------------------------------------------------------------------------
// 3. Whole games through the protocol
// ------------------------------------------------------------------------------------------

/// A game between engines A (index 0) and B (index 1): the test is the manager.
struct Game {
    rule: Rule,
    board: Board,
    stones: Vec<Pos>,
    /// Which engine plays black (changes with every `SWAP`).
    black: usize,
    engines: [Engine; 2],
    /// Whether the engine has had a `BOARD` in the game phase (then it gets `TURN`).
    seen: [bool; 2],
    log: Rc<Transcript>,
}

impl Game {
    fn new(rule: Rule, info_rule: i64, log: &Rc<Transcript>) -> Game {
        Game {
            rule,
            board: Board::new(SIZE, rule).expect("board"),
            stones: Vec::new(),
            black: 0,
            engines: [
                Engine::spawn("A", info_rule, log),
                Engine::spawn("B", info_rule, log),
            ],
            seen: [false; 2],
            log: log.clone(),
        }
    }

    fn engine_of(&self, c: Color) -> usize {
        if c == Color::Black {
            self.black
        } else {
            1 - self.black
        }
    }

    fn name(&self, e: usize) -> &'static str {
        self.engines[e].name
    }

    /// `engine` answers `SWAP`: it takes the colour that just moved.
    fn swap(&mut self, engine: usize) {
        let just_moved = self.board.side_to_move().opponent();
        self.black = if just_moved == Color::Black {
            engine
        } else {
            1 - engine
        };
        self.log.note(&format!(
            "-- {} swaps: A plays {}, B plays {}",
            self.name(engine),
            if self.black == 0 { "black" } else { "white" },
            if self.black == 1 { "black" } else { "white" }
        ));
    }

    /// Play `p` for the side to move; it must be legal. Returns whether it wins.
    fn place(&mut self, p: Pos, by: &str) -> bool {
        let c = self.board.side_to_move();
        if let Err(e) = rules::try_play(&mut self.board, p) {
            panic!(
                "stone {} ({c}) {} by {by} is illegal: {e}\n{}",
                self.stones.len() + 1,
                xy(p),
                self.board
            );
        }
        self.stones.push(p);
        self.log.note(&format!(
            "-- stone {} {c} {} ({}) by {by}",
            self.stones.len(),
            xy(p),
            p.to_renju(SIZE)
        ));
        rules::is_win(&self.board, p)
    }

    fn place_opening(&mut self, ps: &[Pos], by: usize) {
        for &p in ps {
            let name = self.name(by);
            assert!(!self.place(p, name), "a five during the opening");
        }
    }

    /// Ask the engine playing `c` for an opening step.
    fn step_for(&mut self, c: Color, head: &str, offers: Option<&[Pos]>) -> (usize, String) {
        let e = self.engine_of(c);
        let stones = self.stones.clone();
        let r = self.engines[e].step(head, &stones, offers);
        (e, r)
    }

    /// Normal play with `BOARD` (first time) and `TURN` until a five, a full board or
    /// `MAX_STONES` stones. Returns the winner.
    fn play_out(&mut self) -> Option<Color> {
        for e in &mut self.engines {
            e.set_turn(MOVE_MS);
        }
        self.log.note("-- normal play");
        loop {
            if self.stones.len() >= MAX_STONES || self.board.empty_cells().next().is_none() {
                self.log
                    .note(&format!("-- stopped after {} stones", self.stones.len()));
                return None;
            }
            let c = self.board.side_to_move();
            let e = self.engine_of(c);
            if self.seen[e] {
                let last = *self.stones.last().expect("a last move");
                self.engines[e].send(&format!("TURN {}", xy(last)));
            } else {
                let mut s = String::from("BOARD");
                for (i, &p) in self.stones.iter().enumerate() {
                    let sc = if i % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    s.push_str(&format!("\n{},{}", xy(p), if sc == c { 1 } else { 2 }));
                }
                s.push_str("\nDONE");
                self.engines[e].send(&s);
                self.seen[e] = true;
            }
            let r = self.engines[e].reply();
            let p = parse_point(&r);
            if self.place(p, self.name(e)) {
                self.log.note(&format!(
                    "-- {c} ({}) wins after {} stones",
                    self.name(e),
                    self.stones.len()
                ));
                return Some(c);
            }
        }
    }

    fn finish(&mut self) {
        let winner = self.play_out();
        self.log.note(&format!(
            "-- result: {} ({} stones, rule {})\n{}",
            winner.map_or("no winner".to_string(), |c| format!("{c} wins")),
            self.stones.len(),
            self.rule,
            self.board
        ));
        assert!(
            self.stones.len() >= 6,
            "the opening placed fewer than 6 stones"
        );
    }
}

#[test]
fn rif_game() {
    let log = Transcript::new("RIF game");
    let mut g = Game::new(Rule::Renju, 4, &log);
    // A is the tentative black.
    let (a, r) = g.step_for(Color::Black, "RIFSTEP1", None);
    let three = parse_points(&r);
    let i = assert_canonical(&three, "RIFSTEP1");
    g.log
        .note(&format!("-- opening {} {}", RIF26[i].0, RIF26[i].1));
    g.place_opening(&three, a);
    let (b, r) = g.step_for(Color::White, "RIFSTEP2", None);
    let r = if r == "SWAP" {
        g.swap(b);
        let (_, r) = g.step_for(Color::White, "RIFSTEP3", None);
        r
    } else {
        r
    };
    let m4 = parse_points(&r);
    assert_eq!(m4.len(), 1, "the 4th move: '{r}'");
    let w = g.engine_of(Color::White);
    g.place_opening(&m4, w);
    let (bl, r) = g.step_for(Color::Black, "RIFSTEP4", None);
    let offers = parse_points(&r);
    assert_offers(&g.stones, &offers, 2, "RIFSTEP4");
    g.log
        .note(&format!("-- {} offers {}", g.name(bl), xys(&offers)));
    let (w, r) = g.step_for(Color::White, "RIFSTEP5", Some(&offers));
    let (f, m6) = assert_choice(&g.stones, &offers, &r, "RIFSTEP5");
    g.place_opening(&[f], bl);
    g.place_opening(&[m6], w);
    g.finish();
}

#[test]
fn soosyrv8_game() {
    let log = Transcript::new("Soosõrv-8 game");
    let mut g = Game::new(Rule::Renju, 4, &log);
    let (a, r) = g.step_for(Color::Black, "SOOSYRVSTEP1 8", None);
    let three = parse_points(&r);
    assert_canonical(&three, "SOOSYRVSTEP1");
    g.place_opening(&three, a);
    let (b, r) = g.step_for(Color::White, "SOOSYRVSTEP2 8", None);
    let r = if r == "SWAP" {
        g.swap(b);
        let (_, r) = g.step_for(Color::White, "SOOSYRVSTEP3 8", None);
        r
    } else {
        r
    };
    let (m4, m) = parse_move_and_count(&r, 8, "the 4th move and M");
    let w = g.engine_of(Color::White);
    g.place_opening(&[m4], w);
    let (bl, r) = g.step_for(Color::Black, &format!("SOOSYRVSTEP4 {m}"), None);
    let offers_reply = if r == "SWAP" {
        g.swap(bl);
        let (_, r) = g.step_for(Color::Black, &format!("SOOSYRVSTEP5 {m}"), None);
        r
    } else {
        r
    };
    let offers = parse_points(&offers_reply);
    assert_offers(&g.stones, &offers, m, "Soosõrv offers");
    let bl = g.engine_of(Color::Black);
    let (w, r) = g.step_for(Color::White, &format!("SOOSYRVSTEP6 {m}"), Some(&offers));
    let (f, m6) = assert_choice(&g.stones, &offers, &r, "SOOSYRVSTEP6");
    g.place_opening(&[f], bl);
    g.place_opening(&[m6], w);
    g.finish();
}

/// Taraguchi-10 (rules.md §6.7, AbstractPlay reading) through the protocol. After a single
/// fifth (choice 1) white may swap once more: `TARAGUCHISTEP2 10` with five stones
/// (protocol.md §9.2). With `last_swap` false the manager skips that swap and white simply
/// gets `BOARD` for the 6th move.
fn taraguchi_game(title: &str, last_swap: bool) {
    let log = Transcript::new(title);
    let mut g = Game::new(Rule::Renju, 4, &log);
    let (a, r) = g.step_for(Color::Black, "TARAGUCHISTEP1 10", None);
    let m = check_taraguchi_stone(&[], &r, 10, "stone 1");
    g.place_opening(&m, a);
    for k in 1..=4 {
        let c = g.board.side_to_move();
        let (e, r) = g.step_for(c, "TARAGUCHISTEP2 10", None);
        let r = if r == "SWAP" {
            g.swap(e);
            let (_, r) = g.step_for(c, "TARAGUCHISTEP1 10", None);
            r
        } else {
            r
        };
        let stones = g.stones.clone();
        let m = check_taraguchi_stone(&stones, &r, 10, &format!("stone {}", k + 1));
        let e = g.engine_of(c);
        if m.len() == 1 {
            g.place_opening(&m, e);
            continue;
        }
        // Choice 2: ten offers; white chooses and plays the 6th.
        g.log.note(&format!("-- {} offers {}", g.name(e), xys(&m)));
        let (w, r) = g.step_for(Color::White, "TARAGUCHISTEP4 10", Some(&m));
        let (f, m6) = assert_choice(&stones, &m, &r, "TARAGUCHISTEP4");
        g.place_opening(&[f], e);
        g.place_opening(&[m6], w);
        g.finish();
        return;
    }
    // Choice 1: a single fifth; white may swap once more, then white plays the 6th.
    if !last_swap {
        g.log
            .note("-- choice 1: no swap offered after the fifth (engine limitation)");
        g.finish();
        return;
    }
    let (w, r) = g.step_for(Color::White, "TARAGUCHISTEP2 10", None);
    let r = if r == "SWAP" {
        g.swap(w);
        let (_, r) = g.step_for(Color::White, "TARAGUCHISTEP1 10", None);
        r
    } else {
        r
    };
    let m6 = parse_points(&r);
    assert_eq!(m6.len(), 1, "the 6th move: '{r}'");
    let w = g.engine_of(Color::White);
    g.place_opening(&m6, w);
    g.finish();
}

/// The full rule, with the swap after a single fifth.
#[test]

fn taraguchi10_game() {
    taraguchi_game("Taraguchi-10 game", true);
}

/// The same game without the swap after a single fifth, so that the rest of the rule stays
/// covered while the engine rejects `TARAGUCHISTEP2` with five stones.
#[test]
fn taraguchi10_game_without_the_last_swap() {
    taraguchi_game("Taraguchi-10 game (no swap after a single fifth)", false);
}

#[test]
fn swap2_game() {
    let log = Transcript::new("swap2 game");
    let mut g = Game::new(Rule::Standard, 1, &log);
    // Case 1: A places three stones.
    let (a, r) = g.step_for(Color::Black, "SWAP2BOARD", None);
    let three = parse_points(&r);
    assert_eq!(three.len(), 3, "SWAP2BOARD case 1: '{r}'");
    g.place_opening(&three, a);
    // Case 2: B chooses.
    let b = 1 - a;
    let r = g.engines[b].step("SWAP2BOARD", &three, None);
    if r == "SWAP" {
        g.swap(b); // B takes black; A (white) plays the 4th in normal play
    } else {
        let m = parse_points(&r);
        g.black = a; // B is white and places the 4th (and the 5th)
        match m.len() {
            1 => g.place_opening(&m, b),
            2 => {
                g.place_opening(&m[..1], b);
                g.place_opening(&m[1..], b);
                // Case 3: A chooses the colour.
                let five = g.stones.clone();
                let r = g.engines[a].step("SWAP2BOARD", &five, None);
                if r == "SWAP" {
                    g.swap(a); // A takes black; B (white) plays the 6th
                } else {
                    g.black = b; // A takes white and plays the 6th
                    g.log.note("-- A takes white");
                    let m6 = parse_points(&r);
                    assert_eq!(m6.len(), 1, "SWAP2BOARD case 3: '{r}'");
                    g.place_opening(&m6, a);
                }
            }
            _ => panic!("SWAP2BOARD case 2: '{r}'"),
        }
    }
    g.finish_swap2();
}

impl Game {
    fn finish_swap2(&mut self) {
        let winner = self.play_out();
        self.log.note(&format!(
            "-- result: {} ({} stones)\n{}",
            winner.map_or("no winner".to_string(), |c| format!("{c} wins")),
            self.stones.len(),
            self.board
        ));
        assert!(self.stones.len() >= 4, "the game ended in the opening");
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
// 6. The opening files
// ------------------------------------------------------------------------------------------

/// The rule and board side an opening file is for, from its name.
fn rule_and_size(name: &str) -> (Rule, usize) {
    let l = name.to_ascii_lowercase();
    if l.contains("renju") {
        return (Rule::Renju, 15);
    }
    let rule = if l.contains("standard") || l.contains("exact") {
        Rule::Standard
    } else if l.contains("caro") {
        Rule::Caro
    } else {
        Rule::Freestyle
    };
    let size = l
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|t| t.parse::<usize>().ok())
        .find(|&n| valid_size(n) && n >= 10)
        .unwrap_or(15);
    (rule, size)
}

/// The stones of one opening line: offsets `dx,dy, dx,dy` from the centre, Gomocup points
/// `x,y x,y`, or renju notation `h8 h9 i10`.
fn parse_opening(line: &str, size: usize) -> Result<Vec<Pos>, String> {
    if line.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return parse_renju_list(line, size).map_err(|e| e.to_string());
    }
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let gomocup = tokens.len() >= 2
        && tokens
            .iter()
            .all(|t| t.matches(',').count() == 1 && !t.starts_with(',') && !t.ends_with(','));
    let c = (size / 2) as i64;
    let (base, fields): (i64, Vec<&str>) = if gomocup {
        (0, tokens.iter().flat_map(|t| t.split(',')).collect())
    } else {
        let mut f: Vec<&str> = line.split(',').map(str::trim).collect();
        if f.len() > 1 && f.last() == Some(&"") {
            f.pop();
        }
        (c, f)
    };
    if !fields.len().is_multiple_of(2) {
        return Err(format!("odd number of coordinates in '{line}'"));
    }
    fields
        .chunks(2)
        .map(|pair| {
            let dx: i64 = pair[0]
                .trim()
                .parse()
                .map_err(|_| format!("bad number '{}'", pair[0]))?;
            let dy: i64 = pair[1]
                .trim()
                .parse()
                .map_err(|_| format!("bad number '{}'", pair[1]))?;
            let (x, y) = (base + dx, base + dy);
            if x < 0 || y < 0 || x >= size as i64 || y >= size as i64 {
                return Err(format!("({x},{y}) is off the {size}x{size} board"));
            }
            Ok(Pos::new(x as usize, y as usize, size))
        })
        .collect()
}

fn moves_text(stones: &[Pos], size: usize) -> String {
    stones
        .iter()
        .map(|p| p.to_renju(size))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The position of `stones` (colour by move parity) in a form that is the same for all its
/// symmetric copies: the smallest sorted (colour, point) list over the 8 symmetries.
fn position_key(stones: &[Pos], size: usize) -> Vec<(usize, Pos)> {
    (0..8)
        .map(|s| {
            let mut k: Vec<(usize, Pos)> = stones
                .iter()
                .enumerate()
                .map(|(i, &p)| (i % 2, sym(s, p, size)))
                .collect();
            k.sort_unstable();
            k
        })
        .min()
        .unwrap_or_default()
}

fn opening_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            opening_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "txt")
            && !p.file_name().is_some_and(|n| {
                n.to_string_lossy()
                    .to_ascii_lowercase()
                    .starts_with("readme")
            })
        {
            out.push(p);
        }
    }
}

#[test]
fn opening_files_are_legal() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings");
    let mut files = Vec::new();
    opening_files(&dir, &mut files);
    for f in &files {
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let (rule, size) = rule_and_size(&name);
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let mut openings = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim().trim_start_matches('\u{feff}').trim();
            if t.is_empty() || t.starts_with('#') || t.starts_with("//") || t.starts_with(';') {
                continue;
            }
            let t = t.split('#').next().unwrap_or("").trim();
            let t = t.split("//").next().unwrap_or("").trim();
            let at = format!("{}:{}", f.display(), i + 1);
            let stones = parse_opening(t, size).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert!(!stones.is_empty(), "{at}: an empty opening");
            if let Err(e) = board_of(rule, size, &stones) {
                panic!("{at}: '{t}' is not a legal {rule} {size}x{size} opening: {e}");
            }
            openings.push(stones);
        }
        assert!(!openings.is_empty(), "{}: no openings", f.display());
        // No opening repeats another one, up to the symmetries of the board.
        let mut seen: Vec<(Vec<(usize, Pos)>, usize)> = Vec::new();
        for (i, o) in openings.iter().enumerate() {
            let key = position_key(o, size);
            if let Some((_, j)) = seen.iter().find(|(k, _)| *k == key) {
                panic!(
                    "{name}: opening {} ({}) repeats opening {} up to symmetry",
                    i + 1,
                    moves_text(o, size),
                    j + 1
                );
            }
            seen.push((key, i));
        }
        // Renju openings start with one of the 26 canonical openings (rules.md §6.1).
        if rule == Rule::Renju {
            for o in &openings {
                assert!(
                    o.len() >= 3 && canonical_index(&o[..3], size).is_some(),
                    "{name}: {} does not start with a canonical opening",
                    moves_text(o, size)
                );
            }
        }
        println!(
            "{name}: {} openings, {rule} {size}x{size}, all legal and distinct",
            openings.len()
        );
        if name.to_ascii_lowercase().contains("rif26") {
            let mut idx: Vec<usize> = openings
                .iter()
                .map(|o| {
                    canonical_index(o, size)
                        .unwrap_or_else(|| panic!("{name}: {o:?} is not a canonical opening"))
                })
                .collect();
            idx.sort_unstable();
            assert_eq!(
                idx,
                (0..26).collect::<Vec<_>>(),
                "{name}: not the 26 openings"
            );
        }
    }
    println!("{} opening file(s) checked", files.len());
}
