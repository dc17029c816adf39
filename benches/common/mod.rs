//! Positions shared by the benchmarks, generated deterministically.
#![allow(dead_code)]

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use renju_engine::board::Board;
use renju_engine::pattern::Class;
use renju_engine::rules::renju;
use renju_engine::types::{Color, Pos, Rule};

/// A realistic mid-game position: `plies` moves of seeded greedy play (the move-ordering score
/// of both sides plus noise), never a five, never a renju foul for black.
pub fn midgame(rule: Rule, size: usize, plies: usize, seed: u64) -> Board {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut b = Board::new(size, rule).unwrap();
    b.play_unchecked(Pos::new(size / 2, size / 2, size));
    while b.ply_count() < plies {
        let me = b.side_to_move();
        let cands: Vec<Pos> = b.candidates().collect();
        let mut best = None;
        let mut best_score = i32::MIN;
        for p in cands {
            let c = b.class(p, me);
            if c == Class::Five || b.class(p, me.opponent()) == Class::Five {
                continue;
            }
            if me == Color::Black && rule == Rule::Renju && renju::is_foul(&mut b, p) {
                continue;
            }
            let s = b.score(p, me) + b.score(p, me.opponent()) / 2 + rng.gen_range(0..40);
            if s > best_score {
                best_score = s;
                best = Some(p);
            }
        }
        match best {
            Some(p) => b.play_unchecked(p),
            None => break,
        }
    }
    b
}

/// Every empty candidate cell of the position.
pub fn moves(b: &Board) -> Vec<Pos> {
    b.candidates().collect()
}

/// A dense renju position: a 9x9 centre block filled at random (about 40% black, 15% white),
/// the seed among `tries` with the most double-three candidates, so the recursive check works.
pub fn dense_renju(tries: u64) -> Board {
    let mut best: Option<(usize, Board)> = None;
    for seed in 0..tries {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut b = Board::new(15, Rule::Renju).unwrap();
        for y in 3..12 {
            for x in 3..12 {
                let r: f64 = rng.gen();
                let p = Pos::new(x, y, 15);
                if r < 0.40 {
                    b.put_unchecked(p, Color::Black);
                } else if r < 0.55 {
                    b.put_unchecked(p, Color::White);
                }
            }
        }
        if renju_engine::rules::five_on_board(&b).is_some() {
            continue;
        }
        let candidates = b
            .empty_cells()
            .filter(|&p| b.class(p, Color::Black).needs_three_check())
            .count();
        if best.as_ref().is_none_or(|(n, _)| candidates > *n) {
            best = Some((candidates, b));
        }
    }
    best.expect("a dense position").1
}
