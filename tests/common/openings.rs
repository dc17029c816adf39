//! Helpers shared by the opening-rule tests (`openings*.rs`, `opening_files.rs`): points,
//! positions and the checks of offered fifths, and two engine processes with one transcript.
#![allow(dead_code)]

use renju_engine::board::Board;
use renju_engine::opening::{board_of, equivalent, position_symmetries, rif_opening, symmetry};
use renju_engine::rules::{self, renju};
use renju_engine::types::{Color, Pos, Rule};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Board side of every protocol test.
pub const SIZE: usize = 15;
/// `INFO timeout_turn` during the opening steps (ms).
pub const STEP_MS: u64 = 300;
/// `INFO timeout_turn` during the normal play after the opening (ms).
pub const MOVE_MS: u64 = 100;
/// How much longer than the turn limit a reply may take before the test fails (ms). The
/// managers tolerate 1000 ms; the tests run in parallel on a loaded machine.
pub const GRACE_MS: u64 = 2000;
/// Games stop after this many stones.
pub const MAX_STONES: usize = 60;

// ------------------------------------------------------------------------------------------
// Points and positions
// ------------------------------------------------------------------------------------------

/// A cell as Gomocup `(x, y)`.
pub type Xy = (usize, usize);

pub fn pt(x: usize, y: usize) -> Pos {
    Pos::new(x, y, SIZE)
}

pub fn pts(list: &[(usize, usize)]) -> Vec<Pos> {
    list.iter().map(|&(x, y)| pt(x, y)).collect()
}

pub fn xy(p: Pos) -> String {
    p.to_gomocup(SIZE)
}

pub fn xys(ps: &[Pos]) -> String {
    ps.iter().map(|&p| xy(p)).collect::<Vec<_>>().join(" ")
}

/// Parse a Gomocup point `x,y`, which must lie on the board.
pub fn parse_point(t: &str) -> Pos {
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
pub fn parse_points(line: &str) -> Vec<Pos> {
    line.split_whitespace().map(parse_point).collect()
}

/// Parse a Yixin pair `a b` (two integers separated by a space).
pub fn parse_pair(a: &str, b: &str) -> Pos {
    parse_point(&format!("{a},{b}"))
}

/// Our own copy of the 8 square symmetries (to cross-check `opening::symmetry`).
pub fn sym(s: usize, p: Pos, n: usize) -> Pos {
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
pub fn group_of(b: &Board) -> Vec<usize> {
    let n = b.size();
    (0..8)
        .filter(|&s| {
            b.cells()
                .all(|p| b.stone(p).is_none() || b.stone(sym(s, p, n)) == b.stone(p))
        })
        .collect()
}

pub fn renju_board(stones: &[Pos]) -> Board {
    board_of(Rule::Renju, SIZE, stones)
        .unwrap_or_else(|e| panic!("test position {} is illegal: {e}", xys(stones)))
}

/// The index (0..26) of the canonical opening the three stones are, up to symmetry.
pub fn canonical_index(stones: &[Pos], size: usize) -> Option<usize> {
    if stones.len() != 3 {
        return None;
    }
    (0..26).find(|&i| {
        let o = rif_opening(i, size);
        (0..8).any(|s| (0..3).all(|k| symmetry(s, o[k], size) == stones[k]))
    })
}

pub fn assert_canonical(stones: &[Pos], what: &str) -> usize {
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
pub fn assert_legal(rule: Rule, stones: &[Pos], next: &[Pos], what: &str) -> Board {
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
pub fn check_offers(stones: &[Pos], offers: &[Pos], n: usize) -> Result<(), String> {
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

pub fn assert_offers(stones: &[Pos], offers: &[Pos], n: usize, what: &str) {
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
pub fn assert_choice(stones: &[Pos], offers: &[Pos], reply: &str, what: &str) -> (Pos, Pos) {
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
pub fn ring(p: Pos) -> usize {
    let c = SIZE / 2;
    p.x(SIZE).abs_diff(c).max(p.y(SIZE).abs_diff(c))
}

/// Taraguchi zone of stone number `k` (1-based): Chebyshev distance from the centre ≤ k − 1.
pub fn assert_in_zone(p: Pos, k: usize, what: &str) {
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
pub struct Transcript {
    pub title: String,
    pub lines: RefCell<Vec<String>>,
}

impl Transcript {
    pub fn new(title: &str) -> Rc<Transcript> {
        Rc::new(Transcript {
            title: title.to_string(),
            lines: RefCell::new(Vec::new()),
        })
    }

    pub fn note(&self, s: &str) {
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
pub struct Engine {
    pub name: &'static str,
    pub e: super::engine::Engine,
    pub log: Rc<Transcript>,
    pub turn_ms: u64,
    pub sent: Instant,
}

impl Engine {
    /// Start an engine process: `START 15`, `INFO rule`, short turns, no detail messages.
    pub fn spawn(name: &'static str, rule: i64, log: &Rc<Transcript>) -> Engine {
        let mut e = Engine {
            name,
            e: super::engine::Engine::spawn(),
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

    pub fn send(&mut self, s: &str) {
        for l in s.lines() {
            self.log.note(&format!("{} > {l}", self.name));
        }
        self.e.send(s);
        self.sent = Instant::now();
    }

    pub fn set_turn(&mut self, ms: u64) {
        self.turn_ms = ms;
        self.send(&format!("INFO timeout_turn {ms}"));
    }

    /// The next output line, within the turn limit plus grace after the last command.
    pub fn line(&mut self) -> String {
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
    pub fn reply(&mut self) -> String {
        loop {
            let l = self.line();
            if !l.starts_with("MESSAGE") && !l.starts_with("DEBUG") {
                return l;
            }
        }
    }

    /// The next `MESSAGE <tag> ...` line, as its words after the tag; any line that is not a
    /// `MESSAGE`/`DEBUG` line (an `ERROR`, a move) fails.
    pub fn yx(&mut self, tag: &str) -> Vec<String> {
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
    pub fn request(&mut self, head: &str, stones: &[Pos], offers: Option<&[Pos]>) {
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
    pub fn step(&mut self, head: &str, stones: &[Pos], offers: Option<&[Pos]>) -> String {
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
    pub fn yxboard(&mut self, stones: &[Pos]) {
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
pub const ASYM: [(usize, usize); 4] = [(7, 7), (7, 6), (7, 5), (8, 8)];
/// h8 h9 h10 h7: mirror symmetric in column h.
pub const MIRROR: [(usize, usize); 4] = [(7, 7), (7, 6), (7, 5), (7, 8)];
/// g8 h9 i8 h7: four symmetries (both mirrors and the half turn) about the empty centre.
pub const FOURFOLD: [(usize, usize); 4] = [(6, 7), (7, 6), (8, 7), (7, 8)];
/// g9 g7 i7 i9: the diagonal mirrors and the half turn.
pub const DIAGONAL: [(usize, usize); 4] = [(6, 6), (6, 8), (8, 8), (8, 6)];

/// Read the `MESSAGE SOOSORV MOVE5 a b` lines up to `MOVE5 DONE`.
pub fn read_soosorv_offers(e: &mut Engine) -> Vec<Pos> {
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

/// A Soosõrv `x,y M` reply (4th move and the declared count); checks 1 ≤ M ≤ max.
pub fn parse_move_and_count(r: &str, max: usize, what: &str) -> (Pos, usize) {
    let toks: Vec<&str> = r.split_whitespace().collect();
    assert_eq!(toks.len(), 2, "{what}: expected 'x,y M', got '{r}'");
    let m: usize = toks[1]
        .parse()
        .unwrap_or_else(|_| panic!("{what}: M is not a number in '{r}'"));
    assert!((1..=max).contains(&m), "{what}: M = {m} out of 1..={max}");
    (parse_point(toks[0]), m)
}

/// A Taraguchi reply after `stones` (k = stones.len() ≤ 4): the next stone inside its zone, or
/// (k = 4 only) N offered fifths. Returns the stones of the reply.
pub fn check_taraguchi_stone(stones: &[Pos], r: &str, n: usize, what: &str) -> Vec<Pos> {
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

/// A Yixin `Y`/`N` answer (only the first letter counts, so `YES`/`NO` pass too).
pub fn yes_no(w: &str, what: &str) -> bool {
    match w.chars().next() {
        Some('Y') => true,
        Some('N') => false,
        _ => panic!("{what}: expected Y or N, got '{w}'"),
    }
}
