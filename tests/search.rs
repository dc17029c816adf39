//! Search and threat-solver tests on hand-built positions: wins in one, forced blocks, VCF wins
//! of several lengths (freestyle and renju), VCT wins, renju foul traps, determinism of the
//! single-threaded search, and seeded random positions.
//!
//! Every constructed VCF position is also measured by an independent, naive VCF search written
//! here from the rules (plain stone grid, run counting, the slow reference foul detector), so the
//! claimed minimum lengths (and the absence of a VCF in the traps) are checked, not assumed.

mod common;
use common::point;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use renju_engine::board::Board;
use renju_engine::eval::{WIN, WIN_THRESHOLD};
use renju_engine::rules::reference::{self, Grid};
use renju_engine::rules::{self, renju, Foul};
use renju_engine::search::vcf::{check_proof, Solution, Solver};
use renju_engine::search::{Limits, SearchResult, Searcher, Silent};
use renju_engine::types::{Color, Pos, Rule};

const SIZE: usize = 15;

/// A point in renju notation.
fn p(s: &str) -> Pos {
    point(s, SIZE)
}

/// A line in renju notation, for messages.
fn names(line: &[Pos]) -> String {
    line.iter()
        .map(|q| q.to_renju(SIZE))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A position from black and white stone lists (renju notation) with the given side to move.
fn position(rule: Rule, black: &str, white: &str, to_move: Color) -> Board {
    let mut b = Board::new(SIZE, rule).unwrap();
    for (list, c) in [(black, Color::Black), (white, Color::White)] {
        for s in list.split_whitespace() {
            let q = p(s);
            assert!(b.is_empty(q), "{s} listed twice");
            b.put_unchecked(q, c);
        }
    }
    if b.side_to_move() != to_move {
        b.pass();
    }
    b
}

/// A fixed-depth search with a fresh single-threaded searcher.
fn search(b: &Board, depth: i32) -> SearchResult {
    Searcher::new(16, 1).search(b, Limits::depth(depth), &mut Silent)
}

/// The solver's VCF line for the side to move, if any.
fn vcf(b: &Board) -> Option<Vec<Pos>> {
    match Solver::new(2_000_000).vcf(&mut b.clone()) {
        Solution::Win(line) => Some(line),
        Solution::NoWin => None,
    }
}

/// The solver's VCT line (at most `depth` attacker moves) for the side to move, if any.
fn vct(b: &Board, depth: u32) -> Option<Vec<Pos>> {
    match Solver::new(2_000_000).vct(&mut b.clone(), depth) {
        Solution::Win(line) => Some(line),
        Solution::NoWin => None,
    }
}

/// Whether colour `c` may play empty `q` (renju black: not a foul).
fn legal(b: &Board, q: Pos, c: Color) -> bool {
    b.is_empty(q) && (c == Color::White || renju::foul(&mut b.clone(), q).is_none())
}

/// The empty points where `c` would win, by run counting.
fn five_points(b: &Board, c: Color) -> Vec<Pos> {
    b.empty_cells()
        .filter(|&q| rules::wins_by_placing(b, q, c))
        .collect()
}

/// The attacker moves of a proof line (even indices), the final five included.
fn attacker_moves(line: &[Pos]) -> Vec<Pos> {
    line.iter().step_by(2).copied().collect()
}

/// A valid VCF proof for the side to move, with at least `min_fours` fours before the five.
fn assert_vcf_proof(b: &Board, line: &[Pos], min_fours: usize, what: &str) {
    if let Err(e) = check_proof(b, line, true) {
        panic!("{what}: invalid VCF proof {}: {e}", names(line));
    }
    assert!(
        attacker_moves(line).len() > min_fours,
        "{what}: {} is shorter than the shortest VCF ({min_fours} fours)",
        names(line)
    );
}

/// The search's best move starts a VCF: it is the solver's first move, or it is a legal four
/// after which (and after the forced block) the solver still wins for the same side.
fn assert_starts_vcf(b: &Board, best: Pos, solver_first: Pos, what: &str) {
    let me = b.side_to_move();
    assert!(
        legal(b, best, me),
        "{what}: best {} is not legal",
        best.to_renju(SIZE)
    );
    if best == solver_first {
        return;
    }
    let mut b = b.clone();
    b.play_unchecked(best);
    let fives = five_points(&b, me);
    assert!(
        !fives.is_empty(),
        "{what}: best {} is not a four",
        best.to_renju(SIZE)
    );
    if fives.len() >= 2 || !legal(&b, fives[0], me.opponent()) {
        return; // the defender cannot stop the five
    }
    b.play_unchecked(fives[0]);
    match vcf(&b) {
        Some(line) => assert_vcf_proof(&b, &line, 0, what),
        None => panic!(
            "{what}: no VCF after best {} and the block {}",
            best.to_renju(SIZE),
            fives[0].to_renju(SIZE)
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// The naive VCF oracle.

/// A naive VCF search on a plain grid, written from the rules only (no pattern tables, no
/// incremental board): fives by run counting, renju fouls by the slow reference detector.
struct Naive {
    g: Grid,
    rule: Rule,
}

const LINES: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl Naive {
    fn new(b: &Board) -> Naive {
        assert!(matches!(b.rule(), Rule::Freestyle | Rule::Renju));
        Naive {
            g: Grid::from_board(b),
            rule: b.rule(),
        }
    }

    fn n(&self) -> i32 {
        self.g.size() as i32
    }

    fn run(&self, x: i32, y: i32, d: (i32, i32), c: Color) -> usize {
        let mut len = 1;
        for s in [1, -1] {
            let mut k = 1;
            while self.g.get(x + s * k * d.0, y + s * k * d.1) == Some(c) {
                len += 1;
                k += 1;
            }
        }
        len
    }

    /// Whether `c` on empty `(x, y)` wins (renju black: exactly five; otherwise five or more).
    fn wins_at(&mut self, x: i32, y: i32, c: Color) -> bool {
        self.g.set(x, y, Some(c));
        let exact = self.rule == Rule::Renju && c == Color::Black;
        let w = LINES.iter().any(|&d| {
            let l = self.run(x, y, d, c);
            if exact {
                l == 5
            } else {
                l >= 5
            }
        });
        self.g.set(x, y, None);
        w
    }

    fn legal(&mut self, x: i32, y: i32, c: Color) -> bool {
        self.rule != Rule::Renju
            || c == Color::White
            || reference::foul(&mut self.g, x, y).is_none()
    }

    fn fives(&mut self, c: Color) -> Vec<(i32, i32)> {
        let mut v = Vec::new();
        for y in 0..self.n() {
            for x in 0..self.n() {
                if self.g.is_empty(x, y) && self.wins_at(x, y, c) {
                    v.push((x, y));
                }
            }
        }
        v
    }

    /// Whether `c` on empty `(x, y)` makes a four (a five point on one of its lines).
    fn makes_four(&mut self, x: i32, y: i32, c: Color) -> bool {
        let near = LINES.iter().any(|&d| {
            (-4..=4)
                .filter(|&k| self.g.get(x + k * d.0, y + k * d.1) == Some(c))
                .count()
                >= 3
        });
        if !near {
            return false;
        }
        self.g.set(x, y, Some(c));
        let mut four = false;
        'outer: for d in LINES {
            for k in -4..=4 {
                let (qx, qy) = (x + k * d.0, y + k * d.1);
                if k != 0 && self.g.is_empty(qx, qy) && self.wins_at(qx, qy, c) {
                    four = true;
                    break 'outer;
                }
            }
        }
        self.g.set(x, y, None);
        four
    }

    /// Attacker `me` to move: is there a VCF with at most `depth` fours?
    fn attack(&mut self, me: Color, depth: u32) -> bool {
        if !self.fives(me).is_empty() {
            return true;
        }
        if depth == 0 {
            return false;
        }
        let theirs = self.fives(me.opponent());
        let cands: Vec<(i32, i32)> = match theirs.len() {
            0 => (0..self.n() * self.n())
                .map(|i| (i % self.n(), i / self.n()))
                .filter(|&(x, y)| self.g.is_empty(x, y))
                .collect(),
            // The block is forced, and continues a VCF only if it is a four.
            1 => theirs,
            _ => return false,
        };
        for (x, y) in cands {
            if !self.makes_four(x, y, me) || !self.legal(x, y, me) {
                continue;
            }
            self.g.set(x, y, Some(me));
            let won = self.defend(me, depth - 1);
            self.g.set(x, y, None);
            if won {
                return true;
            }
        }
        false
    }

    /// The attacker `me` has just made a four; the defender (who has no five) must block.
    fn defend(&mut self, me: Color, depth: u32) -> bool {
        let opp = me.opponent();
        let f = self.fives(me);
        if f.len() >= 2 {
            return true;
        }
        let (x, y) = f[0];
        if !self.legal(x, y, opp) {
            return true; // the only block is a foul
        }
        self.g.set(x, y, Some(opp));
        let won = self.attack(me, depth);
        self.g.set(x, y, None);
        won
    }

    /// The fewest fours of a VCF for the side to move of `b`, if at most `max`.
    fn min_vcf(b: &Board, max: u32) -> Option<u32> {
        let me = b.side_to_move();
        let mut n = Naive::new(b);
        (0..=max).find(|&d| n.attack(me, d))
    }
}

// ---------------------------------------------------------------------------------------------
// 1. Win in one.

#[test]
fn win_in_one_is_taken_not_the_block() {
    // (rule, black, white, to move, the only winning point)
    let cases = [
        // Black's five at h8 (c8 is blocked); white has an open four on row 10 that black
        // must ignore.
        (
            Rule::Freestyle,
            "d8 e8 f8 g8",
            "c8 d10 e10 f10 g10",
            Color::Black,
            "h8",
        ),
        // Renju: h8 makes an exact five on row 8 and an overline on column h: five first
        // (rules.md R23). c8 is blocked; white has a four of its own.
        (
            Rule::Renju,
            "d8 e8 f8 g8 h6 h7 h9 h10 h11",
            "c8 k3 k4 k5 k6 j12",
            Color::Black,
            "h8",
        ),
        // Renju: a white overline wins (rules.md W4); c8 is blocked by black.
        (
            Rule::Renju,
            "c8 l12 m12 n12 k12",
            "d8 e8 f8 g8 i8",
            Color::White,
            "h8",
        ),
    ];
    for (rule, black, white, to_move, win) in cases {
        let b = position(rule, black, white, to_move);
        let what = format!("{rule} {black} / {white}");
        let w = p(win);
        assert_eq!(
            five_points(&b, to_move),
            vec![w],
            "{what}: the setup has one five point"
        );
        assert_eq!(vcf(&b), Some(vec![w]), "{what}: solver");
        let r = search(&b, 4);
        assert_eq!(r.best, w, "{what}: search best {}", r.best.to_renju(SIZE));
        assert_eq!(r.score, WIN - 1, "{what}: search score");
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Must block.

#[test]
fn a_four_must_be_blocked() {
    // (rule, black, white, to move, the block). The side to move has an open three whose open
    // four would be one move too slow.
    let cases = [
        (
            Rule::Renju,
            "c8 k12 l12 m12",
            "d8 e8 f8 g8",
            Color::Black,
            "h8",
        ),
        (
            Rule::Freestyle,
            "c8 k12 l12 m12",
            "d8 e8 f8 g8",
            Color::Black,
            "h8",
        ),
        (
            Rule::Renju,
            "d8 e8 f8 g8 a1",
            "c8 k12 l12 m12",
            Color::White,
            "h8",
        ),
        // A split four: the block is in the middle.
        (
            Rule::Renju,
            "e4 l12 m12 n12",
            "f5 g6 i8 j9",
            Color::Black,
            "h7",
        ),
    ];
    for (rule, black, white, to_move, block) in cases {
        let b = position(rule, black, white, to_move);
        let what = format!("{rule} {black} / {white}");
        let blk = p(block);
        assert_eq!(
            five_points(&b, to_move.opponent()),
            vec![blk],
            "{what}: setup"
        );
        assert!(five_points(&b, to_move).is_empty(), "{what}: setup");
        // The open four is no VCF while the opponent has a five point.
        assert_eq!(vcf(&b), None, "{what}: solver");
        let r = search(&b, 4);
        assert_eq!(r.best, blk, "{what}: search best {}", r.best.to_renju(SIZE));
        assert!(r.score.abs() < WIN_THRESHOLD, "{what}: score {}", r.score);
    }
}

// ---------------------------------------------------------------------------------------------
// 3. VCF wins of several lengths.

/// (name, rule, black, white, side to move, fewest fours of a VCF)
type VcfCase = (&'static str, Rule, &'static str, &'static str, Color, u32);

const VCF_CASES: [VcfCase; 7] = [
    // h8 is a four (five point i8) and an open three on column h; then the open four.
    (
        "4-3 freestyle",
        Rule::Freestyle,
        "e8 f8 g8 h9 h10",
        "d8",
        Color::Black,
        2,
    ),
    (
        "4-3 renju",
        Rule::Renju,
        "e8 f8 g8 h9 h10",
        "d8",
        Color::Black,
        2,
    ),
    // h10 is first made by a four on row 10 (the block lands on i10).
    (
        "three fours freestyle",
        Rule::Freestyle,
        "e8 f8 g8 h9 j10 k10 l10",
        "d8 m10 j11",
        Color::Black,
        3,
    ),
    (
        "three fours renju",
        Rule::Renju,
        "e8 f8 g8 h9 j10 k10 l10",
        "d8 m10 j11",
        Color::Black,
        3,
    ),
    // Both h9 and h10 come from fours.
    (
        "four fours freestyle",
        Rule::Freestyle,
        "e8 f8 g8 d10 e10 f10 j9 k9 l9",
        "d8 c10 m9",
        Color::Black,
        4,
    ),
    (
        "four fours renju",
        Rule::Renju,
        "e8 f8 g8 d10 e10 f10 j9 k9 l9",
        "d8 c10 m9",
        Color::Black,
        4,
    ),
    // Renju white: the same four-fours shape with the colours swapped (white has no fouls).
    (
        "four fours renju white",
        Rule::Renju,
        "d8 c10 m9 a1 a15 o1",
        "e8 f8 g8 d10 e10 f10 j9 k9 l9",
        Color::White,
        4,
    ),
];

#[test]
fn vcf_wins_of_several_lengths() {
    for (name, rule, black, white, to_move, fours) in VCF_CASES {
        let b = position(rule, black, white, to_move);
        assert_eq!(
            Naive::min_vcf(&b, fours),
            Some(fours),
            "{name}: setup (naive shortest VCF)"
        );
        let line = vcf(&b).unwrap_or_else(|| panic!("{name}: solver found no VCF"));
        assert_vcf_proof(&b, &line, fours as usize, name);
        let r = search(&b, 4);
        assert!(
            r.score >= WIN_THRESHOLD && r.score <= WIN - (2 * fours as i32 + 1),
            "{name}: search score {} (shortest win: {} plies)",
            r.score,
            2 * fours + 1
        );
        assert_starts_vcf(&b, r.best, line[0], name);
    }
}

// ---------------------------------------------------------------------------------------------
// 4. VCT wins.

#[test]
fn vct_wins_that_need_a_three() {
    // (name, rule, black, white, to move, the first move)
    let cases = [
        // Freestyle double-three at h8: no fours anywhere.
        (
            "3-3 freestyle",
            Rule::Freestyle,
            "f8 g8 h9 h10",
            "",
            Color::Black,
            "h8",
        ),
        // Renju white may make a double-three.
        (
            "3-3 renju white",
            Rule::Renju,
            "b2 n14 b14",
            "f8 g8 h9 h10",
            Color::White,
            "h8",
        ),
        // Renju black: the open three h10 (row 10: h10 . j10 k10) prepares the 4-3 at h8
        // (closed four e8-h8, open three h8-h10). Whatever white does against the three,
        // black gets the 4-3 or the open four.
        (
            "three then 4-3 renju",
            Rule::Renju,
            "e8 f8 g8 h9 j10 k10",
            "d8",
            Color::Black,
            "h10",
        ),
    ];
    for (name, rule, black, white, to_move, first) in cases {
        let b = position(rule, black, white, to_move);
        assert_eq!(Naive::min_vcf(&b, 6), None, "{name}: setup has a VCF");
        assert_eq!(vcf(&b), None, "{name}: the VCF solver claims a win");
        let line = vct(&b, 4).unwrap_or_else(|| panic!("{name}: no VCT found"));
        if let Err(e) = check_proof(&b, &line, false) {
            panic!("{name}: invalid VCT proof {}: {e}", names(&line));
        }
        assert_eq!(line[0], p(first), "{name}: {}", names(&line));
        // Some attacker move of the line is a three, not a four.
        let me = b.side_to_move();
        let mut r = b.clone();
        let mut threes = 0;
        for (i, &m) in line.iter().enumerate() {
            r.play_unchecked(m);
            if i % 2 == 0 && i + 1 < line.len() && five_points(&r, me).is_empty() {
                threes += 1;
            }
        }
        assert!(threes >= 1, "{name}: {} has no three", names(&line));
    }
}

// ---------------------------------------------------------------------------------------------
// 5. Renju traps.

/// (name, black, white, the foul point, its kind)
type Trap = (&'static str, &'static str, &'static str, &'static str, Foul);

#[test]
fn renju_no_vcf_through_a_foul() {
    let traps: [Trap; 4] = [
        // h8 would be the four on row 8 plus the four on column h.
        (
            "4-4 at the winning point",
            "e8 f8 g8 h9 h10 h11",
            "d8 h12",
            "h8",
            Foul::DoubleFour,
        ),
        // d8-f8 . h8 . j8-l8: two fours on one line (and a three on column h): it looks like
        // a 4-3.
        (
            "one-line 4-4 posing as 4-3",
            "d8 e8 f8 j8 k8 l8 h9 h10",
            "c8 m8",
            "h8",
            Foul::DoubleFour,
        ),
        // h8 makes e8-j8 six and the column four h8-h11.
        (
            "overline at the winning point",
            "e8 f8 g8 i8 j8 h9 h10 h11",
            "h12",
            "h8",
            Foul::Overline,
        ),
        // The chain h10 (four) -> h8 (4-3) breaks at once: h10 is also a four on the
        // diagonal e13-g11, so a double-four.
        (
            "4-4 on the continuation four",
            "e8 f8 g8 h9 j10 k10 l10 g11 f12 e13",
            "d8 m10 j11 d14 g7",
            "h10",
            Foul::DoubleFour,
        ),
    ];
    for (name, black, white, foul_point, kind) in traps {
        let fp = p(foul_point);
        let mut b = position(Rule::Renju, black, white, Color::Black);
        assert_eq!(renju::foul(&mut b, fp), Some(kind), "{name}: setup");
        assert_eq!(Naive::min_vcf(&b, 7), None, "{name}: setup (naive)");
        if let Some(line) = vcf(&b) {
            panic!("{name}: solver claims the VCF {}", names(&line));
        }
        let r = search(&b, 4);
        assert!(
            legal(&b, r.best, Color::Black),
            "{name}: search plays {}",
            r.best.to_renju(SIZE)
        );
        // The trap: in freestyle the same stones win through the foul point.
        let f = position(Rule::Freestyle, black, white, Color::Black);
        let line = vcf(&f).unwrap_or_else(|| panic!("{name}: freestyle control has no VCF"));
        assert_vcf_proof(&f, &line, 0, name);
        assert_eq!(line[0], fp, "{name}: freestyle control {}", names(&line));
    }
}

#[test]
fn renju_white_wins_because_the_block_is_a_foul() {
    // (name, black, white, white's key four, black's only block = a foul)
    let cases = [
        // d4 makes d4-g7 with c3 black: the only five point h8 is a black double-three.
        (
            "block is a double-three",
            "g8 i8 h9 h10 i9 c3",
            "e5 f6 g7",
            "d4",
            "h8",
            Foul::DoubleThree,
        ),
        // g9 makes the split four g5-g7 . g9: the block g8 would be a black overline d8-i8.
        (
            "block is an overline",
            "d8 e8 f8 h8 i8 g4",
            "g5 g6 g7",
            "g9",
            "g8",
            Foul::Overline,
        ),
    ];
    for (name, black, white, key, block, kind) in cases {
        let (k, f) = (p(key), p(block));
        let b = position(Rule::Renju, black, white, Color::White);
        assert_eq!(Naive::min_vcf(&b, 3), Some(1), "{name}: setup (naive)");
        let mut after = b.clone();
        after.play_unchecked(k);
        assert_eq!(five_points(&after, Color::White), vec![f], "{name}: setup");
        assert_eq!(renju::foul(&mut after, f), Some(kind), "{name}: setup");

        let line = vcf(&b).unwrap_or_else(|| panic!("{name}: white's VCF not found"));
        assert_vcf_proof(&b, &line, 1, name);
        assert_eq!(line[0], k, "{name}: {}", names(&line));
        assert_eq!(*line.last().unwrap(), f, "{name}: {}", names(&line));
        assert_ne!(
            line[1],
            f,
            "{name}: black blocked on a foul: {}",
            names(&line)
        );

        let r = search(&b, 4);
        assert_eq!(r.best, k, "{name}: search best {}", r.best.to_renju(SIZE));
        assert_eq!(r.score, WIN - 3, "{name}: search score");
        // Black to move after the key four: lost in two plies, and still no foul played.
        let r = search(&after, 4);
        assert_eq!(r.score, -(WIN - 2), "{name}: black's score after the four");
        assert!(
            legal(&after, r.best, Color::Black),
            "{name}: black plays {}",
            r.best.to_renju(SIZE)
        );
    }
    // Control: in freestyle black simply blocks the first position.
    let b = position(
        Rule::Freestyle,
        "g8 i8 h9 h10 i9 c3",
        "e5 f6 g7",
        Color::White,
    );
    assert_eq!(vcf(&b), None, "freestyle control");
    assert_eq!(Naive::min_vcf(&b, 4), None, "freestyle control (naive)");
}

#[test]
fn renju_black_vcf_avoids_the_tempting_foul() {
    // (name, black, white, the foul four point, its kind, fewest fours of the legal VCF)
    let cases = [
        // h10 would be a double-four (an instant win if it were legal); the legal VCF takes
        // five fours elsewhere.
        (
            "4-4 versus a five-four VCF",
            "e8 f8 g8 h9 j10 k10 l10 g11 f12 e13",
            "d8 m10 j11 d14 k11",
            "h10",
            Foul::DoubleFour,
            5,
        ),
        // h8 is a four plus two threes (4-3-3, rules.md R17); the 4-3 at n4 is legal.
        (
            "4-3-3 versus a 4-3",
            "e8 f8 g8 h9 h10 i9 j10 k4 l4 m4 n5 n6",
            "d8 j4",
            "h8",
            Foul::DoubleThree,
            2,
        ),
    ];
    for (name, black, white, foul_point, kind, fours) in cases {
        let fp = p(foul_point);
        let mut b = position(Rule::Renju, black, white, Color::Black);
        assert_eq!(renju::foul(&mut b, fp), Some(kind), "{name}: setup");
        let mut trial = b.clone();
        trial.play_unchecked(fp);
        assert!(
            !five_points(&trial, Color::Black).is_empty(),
            "{name}: setup: the foul point is a four"
        );
        assert_eq!(
            Naive::min_vcf(&b, fours),
            Some(fours),
            "{name}: setup (naive)"
        );

        let line = vcf(&b).unwrap_or_else(|| panic!("{name}: solver found no VCF"));
        assert_vcf_proof(&b, &line, fours as usize, name);
        assert_ne!(line[0], fp, "{name}: {}", names(&line));
        assert!(
            !attacker_moves(&line).contains(&fp),
            "{name}: black plays the foul point in {}",
            names(&line)
        );

        let r = search(&b, 4);
        assert_ne!(r.best, fp, "{name}: search plays the foul");
        assert!(r.score >= WIN_THRESHOLD, "{name}: search score {}", r.score);
        assert_starts_vcf(&b, r.best, line[0], name);
    }
}

// ---------------------------------------------------------------------------------------------
// 6. Determinism.

#[test]
fn single_threaded_search_is_deterministic() {
    let moves = "h8 i9 g9 g7 h10 j8 i7 f10";
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let mut b = Board::new(SIZE, rule).unwrap();
        for s in moves.split_whitespace() {
            rules::try_play(&mut b, p(s)).unwrap();
        }
        let a = search(&b, 6);
        let c = search(&b, 6);
        assert!(a.nodes > 1000, "{rule}: trivial search ({} nodes)", a.nodes);
        assert_eq!(a.depth, 6, "{rule}: depth");
        assert_eq!(
            (a.nodes, a.best, a.score, &a.pv),
            (c.nodes, c.best, c.score, &c.pv),
            "{rule}: two identical searches differ"
        );
        assert!(legal(&b, a.best, b.side_to_move()), "{rule}: best");
    }
}

// ---------------------------------------------------------------------------------------------
// 7. Seeded random positions.

#[test]
fn random_positions_get_legal_sensible_moves() {
    let mut rng = StdRng::seed_from_u64(0x5EA2C4);
    let mut tested = 0;
    for i in 0..40 {
        let rule = if i % 2 == 0 {
            Rule::Renju
        } else {
            Rule::Freestyle
        };
        let mut b = Board::new(SIZE, rule).unwrap();
        let plies = rng.gen_range(10..=40);
        let mut five = false;
        rules::try_play(&mut b, p("h8")).unwrap();
        for _ in 1..plies {
            let cands: Vec<Pos> = b.candidates().collect();
            let mut q = cands[rng.gen_range(0..cands.len())];
            // A renju foul is refused: take another point.
            while rules::try_play(&mut b, q).is_err() {
                q = cands[rng.gen_range(0..cands.len())];
            }
            if rules::is_win(&b, q) {
                five = true;
                break;
            }
        }
        if five || rules::five_on_board(&b).is_some() {
            continue;
        }
        tested += 1;
        let me = b.side_to_move();
        let what = format!("position {i} ({rule}, {plies} plies, {me} to move)\n{b}");
        let r = search(&b, 3);
        assert!(!r.best.is_pass(), "{what}: pass");
        assert!(
            b.is_empty(r.best),
            "{what}: best {} occupied",
            r.best.to_renju(SIZE)
        );
        if rule == Rule::Renju && me == Color::Black {
            assert_eq!(
                renju::foul(&mut b.clone(), r.best),
                None,
                "{what}: best {} is a foul",
                r.best.to_renju(SIZE)
            );
        }
        // A five is taken; otherwise a single blockable five point of the opponent is blocked.
        let own = five_points(&b, me);
        let theirs = five_points(&b, me.opponent());
        if !own.is_empty() {
            assert!(own.contains(&r.best), "{what}: missed the five");
            assert_eq!(r.score, WIN - 1, "{what}: score");
        } else if theirs.len() == 1 && legal(&b, theirs[0], me) {
            assert_eq!(r.best, theirs[0], "{what}: no block");
        }
    }
    assert!(tested >= 30, "only {tested} positions tested");
}

/// Caro: a five blocked at both ends does not win, so a four with two five points that one stone
/// stops (`O . X X X X . O`: either point leaves the other five blocked at both ends) is no open
/// four, and a four whose run is blocked at one end is stopped beyond its other end as well as
/// on its five point. The side facing them holds with a stop; the side making them claims no win.
#[test]
fn caro_fours_one_stone_stops() {
    for rule in [Rule::Caro, Rule::CaroOverline] {
        // White to move must play one of `stops` and not be lost.
        let assert_stops = |white: &str, stops: [&str; 2]| {
            let b = position(rule, "e8 f8 g8 h8", white, Color::White);
            let r = search(&b, 4);
            assert!(
                stops.iter().any(|&s| p(s) == r.best),
                "{rule:?}: {} is no stop",
                r.best.to_renju(SIZE)
            );
            assert!(r.score > -WIN_THRESHOLD, "{rule:?}: lost? {}", r.score);
        };
        // Two five points d8 and i8: either stops both.
        assert_stops("c8 j8 o15", ["d8", "i8"]);
        // Black to move: h8 makes that shape, which is no win.
        let b = position(rule, "e8 f8 g8", "c8 j8", Color::Black);
        let r = search(&b, 5);
        assert!(r.score < WIN_THRESHOLD, "{rule:?}: a false win {}", r.score);
        // One five point i8 of a run blocked at d8: i8 or j8 stops it.
        assert_stops("d8 a1 o15", ["i8", "j8"]);
    }
}
