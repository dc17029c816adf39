//! Search and threat-solver tests on hand-built positions: wins in one, forced blocks, VCF wins
//! of several lengths (freestyle and renju), VCT wins, renju foul traps, determinism of the
//! single-threaded search, and seeded random positions.
//!
//! Every constructed VCF position is also measured by an independent, naive VCF search written
//! here from the rules (plain stone grid, run counting, the slow reference foul detector), so the
//! claimed minimum lengths are checked, not assumed.

mod common;
use common::point;
use renju_engine::board::Board;
use renju_engine::rules::reference::{self, Grid};
use renju_engine::types::{Color, Pos, Rule};

/// A position from black and white stone lists (renju notation) with the given side to move.
fn position(rule: Rule, black: &str, white: &str, to_move: Color) -> Board {
    let mut b = Board::new(15, rule).unwrap();
    for (list, c) in [(black, Color::Black), (white, Color::White)] {
        for s in list.split_whitespace() {
            let p = point(s, 15);
            assert!(b.is_empty(p), "{s} listed twice");
            b.put_unchecked(p, c);
        }
    }
    if b.side_to_move() != to_move {
        b.pass();
    }
    b
}

/// A naive VCF search on a plain grid, written from the rules only.
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

    /// Whether `c` on empty `(x, y)` wins.
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

    /// Whether `c` on empty `(x, y)` would make a four (some five point on its lines).
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

    /// Attacker `me` to move: a VCF with at most `depth` fours?
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

    /// The attacker `me` has just made a four; the defender to move.
    fn defend(&mut self, me: Color, depth: u32) -> bool {
        let opp = me.opponent();
        let f = self.fives(me);
        if f.len() >= 2 {
            return true;
        }
        let (x, y) = f[0];
        if !self.legal(x, y, opp) {
            return true;
        }
        self.g.set(x, y, Some(opp));
        let won = self.attack(me, depth);
        self.g.set(x, y, None);
        won
    }

    /// The fewest fours of a VCF for the side to move, up to `max`.
    fn min_vcf(&mut self, me: Color, max: u32) -> Option<u32> {
        (0..=max).find(|&d| self.attack(me, d))
    }
}

#[test]
#[ignore = "exploration helper"]
fn explore() {
    use renju_engine::search::vcf::{check_proof, Solver};
    use renju_engine::search::{Limits, Searcher, Silent};
    let spec = std::env::var("POS").unwrap();
    let parts: Vec<&str> = spec.split(';').collect();
    let rule: Rule = parts[0].parse().unwrap();
    let to_move: Color = parts[3].parse().unwrap();
    let mut b = position(rule, parts[1], parts[2], to_move);
    let me = b.side_to_move();
    let min = Naive::new(&b).min_vcf(me, 6);
    println!("naive min vcf: {min:?}");
    let sol = Solver::new(1_000_000).vcf(&mut b);
    println!("vcf: {:?}", fmt(&sol));
    if let renju_engine::search::vcf::Solution::Win(l) = &sol {
        println!("proof: {:?}", check_proof(&b, l, true));
    }
    let sol = Solver::new(1_000_000).vct(&mut b, 6);
    println!("vct: {:?}", fmt(&sol));
    if let renju_engine::search::vcf::Solution::Win(l) = &sol {
        println!("proof: {:?}", check_proof(&b, l, false));
    }
    let r = Searcher::new(16, 1).search(&b, Limits::depth(6), &mut Silent);
    println!(
        "search: best {} score {} nodes {} pv {:?}",
        r.best.to_renju(15),
        r.score,
        r.nodes,
        r.pv.iter().map(|p| p.to_renju(15)).collect::<Vec<_>>()
    );
}

fn fmt(s: &renju_engine::search::vcf::Solution) -> String {
    match s {
        renju_engine::search::vcf::Solution::Win(l) => l
            .iter()
            .map(|p: &Pos| p.to_renju(15))
            .collect::<Vec<_>>()
            .join(" "),
        renju_engine::search::vcf::Solution::NoWin => "NoWin".into(),
    }
}
