//! Shared helpers for the integration tests: data-file parsing, position building, symmetries
//! and a seeded position generator.
#![allow(dead_code)]

pub mod engine;
pub mod openings;
pub mod protocol;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use renju_engine::board::Board;
use renju_engine::rules::Foul;
use renju_engine::types::{parse_renju, parse_renju_list, Color, Pos, Rule};
use std::collections::HashMap;

/// One `key=value` line of a test data file (the first bare word, if any, is its id).
pub struct Case {
    pub id: String,
    pub fields: HashMap<String, String>,
    pub line: String,
}

impl Case {
    pub fn get(&self, k: &str) -> &str {
        self.fields
            .get(k)
            .unwrap_or_else(|| panic!("field {k} missing in: {}", self.line))
    }
}

/// Parse a data file: `#` comments, one case per line.
pub fn read_cases(path: &str) -> Vec<Case> {
    let full = format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut id = String::new();
        let mut fields = HashMap::new();
        for tok in line.split_whitespace() {
            match tok.split_once('=') {
                Some((k, v)) => {
                    fields.insert(k.to_string(), v.to_string());
                }
                None if id.is_empty() => id = tok.to_string(),
                None => {}
            }
        }
        out.push(Case {
            id,
            fields,
            line: line.to_string(),
        });
    }
    assert!(!out.is_empty(), "no cases in {path}");
    out
}

/// Parse a rule name of the data files.
pub fn rule_of(s: &str) -> Rule {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// Parse a foul kind name.
pub fn foul_of(s: &str) -> Foul {
    match s {
        "double-three" => Foul::DoubleThree,
        "double-four" => Foul::DoubleFour,
        "overline" => Foul::Overline,
        _ => panic!("unknown foul kind {s}"),
    }
}

/// Map a point through board symmetry `s` (0..8); the engine's own mapping, which
/// `tests/openings.rs` checks against an independent one.
pub fn sym_pos(s: usize, p: Pos, n: usize) -> Pos {
    renju_engine::opening::symmetry(s, p, n)
}

/// Parse a stone list of a data file (may be empty).
pub fn stones(s: &str, size: usize) -> Vec<Pos> {
    parse_renju_list(s, size).unwrap_or_else(|e| panic!("{e}"))
}

/// Build a board from black and white stone lists, transformed by symmetry `s`.
pub fn board_from(rule: Rule, size: usize, black: &[Pos], white: &[Pos], s: usize) -> Board {
    let mut b = Board::new(size, rule).unwrap();
    for (list, c) in [(black, Color::Black), (white, Color::White)] {
        for &p in list {
            let q = sym_pos(s, p, size);
            assert!(b.is_empty(q), "stone listed twice");
            b.put_unchecked(q, c);
        }
    }
    b
}

/// A parsed point.
pub fn point(s: &str, size: usize) -> Pos {
    parse_renju(s, size).unwrap_or_else(|e| panic!("{e}"))
}

/// A seeded generator of hard renju-like positions: dense black-heavy clusters in the centre,
/// at edges and in corners (many candidate threes and fours), and positions from random play.
pub struct PositionGen {
    rng: StdRng,
}

impl PositionGen {
    pub fn new(seed: u64) -> Self {
        PositionGen {
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// The next position: (size, black stones, white stones).
    pub fn next(&mut self, size: usize) -> (Vec<Pos>, Vec<Pos>) {
        let kind = self.rng.gen_range(0..4);
        let mut occ = vec![None; size * size];
        let (mut black, mut white) = (Vec::new(), Vec::new());
        let mut put = |occ: &mut Vec<Option<Color>>, x: usize, y: usize, c: Color| {
            let p = Pos::new(x, y, size);
            if occ[p.index()].is_none() {
                occ[p.index()] = Some(c);
                match c {
                    Color::Black => black.push(p),
                    Color::White => white.push(p),
                }
            }
        };
        match kind {
            // A dense cluster somewhere (centre, edge or corner biased).
            0..=2 => {
                let w = self.rng.gen_range(5..=9.min(size));
                let (cx, cy) = match kind {
                    0 => ((size - w) / 2, (size - w) / 2),
                    1 => {
                        let edge = self.rng.gen_range(0..4);
                        let t = self.rng.gen_range(0..=size - w);
                        match edge {
                            0 => (0, t),
                            1 => (size - w, t),
                            2 => (t, 0),
                            _ => (t, size - w),
                        }
                    }
                    _ => (
                        self.rng.gen_range(0..=size - w),
                        self.rng.gen_range(0..=size - w),
                    ),
                };
                let pb = self.rng.gen_range(0.25..0.5);
                let pw = self.rng.gen_range(0.05..0.25);
                for y in cy..cy + w {
                    for x in cx..cx + w {
                        let r: f64 = self.rng.gen();
                        if r < pb {
                            put(&mut occ, x, y, Color::Black);
                        } else if r < pb + pw {
                            put(&mut occ, x, y, Color::White);
                        }
                    }
                }
            }
            // Random play near existing stones.
            _ => {
                let n = self.rng.gen_range(6..60.min(size * size / 2));
                let mut c = Color::Black;
                let (mut x, mut y) = (size / 2, size / 2);
                for _ in 0..n {
                    for _ in 0..20 {
                        let nx = (x as i32 + self.rng.gen_range(-2..=2)).clamp(0, size as i32 - 1)
                            as usize;
                        let ny = (y as i32 + self.rng.gen_range(-2..=2)).clamp(0, size as i32 - 1)
                            as usize;
                        if occ[ny * size + nx].is_none() {
                            x = nx;
                            y = ny;
                            break;
                        }
                    }
                    if occ[y * size + x].is_none() {
                        put(&mut occ, x, y, c);
                        c = c.opponent();
                    }
                }
            }
        }
        (black, white)
    }

    pub fn rng(&mut self) -> &mut StdRng {
        &mut self.rng
    }
}

/// The position of a puzzle case (`rule`, `size`, `black`, `white`, `tomove` fields), with the
/// side to move as the case says (a pass when the stone counts give the other side).
pub fn puzzle_board(case: &Case) -> Board {
    let rule = rule_of(case.get("rule"));
    let size: usize = case.get("size").parse().unwrap();
    let black = stones(case.get("black"), size);
    let white = stones(case.get("white"), size);
    let mut b = board_from(rule, size, &black, &white, 0);
    let to_move: Color = case.get("tomove").parse().unwrap();
    if b.side_to_move() != to_move {
        b.pass();
    }
    b
}
