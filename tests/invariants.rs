//! Incremental state == recomputation from scratch, after every play and undo of seeded random
//! games on 15x15 and 20x20 (and the extreme sizes), under every rule. Also: the fast five
//! detection (cell class) agrees with run-based win detection, and sampled positions' patterns
//! agree with the slow classifier with no table involved.

mod common;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use renju_engine::board::Board;
use renju_engine::pattern::Class;
use renju_engine::rules;
use renju_engine::types::{Color, Pos, Rule};

fn games() -> usize {
    std::env::var("INVARIANT_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12)
}

fn check(b: &Board, what: &str) {
    if let Err(e) = b.check_invariants() {
        panic!("{what}: {e}\n{b}");
    }
}

/// Play a random game near the centre, checking after every ply; undo it all, checking after
/// every undo; and make sure the board is back to empty.
fn random_game(size: usize, rule: Rule, rng: &mut StdRng) {
    let mut b = Board::new(size, rule).unwrap();
    check(&b, "new board");
    let start_hash = b.hash();
    let mut hashes = vec![b.hash()];
    let max = rng.gen_range(size * 2..=size * size);
    for ply in 0..max {
        let empties: Vec<Pos> = if rng.gen_bool(0.8) && b.stone_count() > 0 {
            b.candidates().collect()
        } else {
            b.empty_cells().collect()
        };
        if empties.is_empty() {
            break;
        }
        if rng.gen_bool(0.02) {
            b.pass();
        } else {
            let p = empties[rng.gen_range(0..empties.len())];
            let c = b.side_to_move();
            // The pattern class says "five" exactly when run counting does.
            let five = b.class(p, c) == Class::Five;
            assert_eq!(
                five,
                rules::wins_by_placing(&b, p, c),
                "five at {}\n{b}",
                p.to_renju(size)
            );
            if rng.gen_bool(0.05) {
                // An out-of-turn stone, as setup positions have.
                b.put_unchecked(p, c.opponent());
            } else {
                b.play_unchecked(p);
            }
        }
        check(&b, &format!("{rule} {size}x{size} after ply {ply}"));
        hashes.push(b.hash());
        // Sometimes take back a few plies and replay differently.
        if rng.gen_bool(0.1) {
            for _ in 0..rng.gen_range(1..=3) {
                if b.undo().is_none() {
                    break;
                }
                hashes.pop();
                check(&b, "after a take-back");
                assert_eq!(Some(&b.hash()), hashes.last());
            }
        }
    }
    while b.undo().is_some() {
        hashes.pop();
        check(&b, &format!("{rule} {size}x{size} undo"));
        assert_eq!(Some(&b.hash()), hashes.last(), "hash after undo");
    }
    assert_eq!(b.hash(), start_hash);
    assert_eq!(b.stone_count(), 0);
    assert_eq!(b.side_to_move(), Color::Black);
}

#[test]
fn incremental_state_equals_recomputation() {
    let mut rng = StdRng::seed_from_u64(0x1A7E_57A7E);
    for rule in Rule::ALL {
        for size in [15, 20] {
            for _ in 0..games() {
                random_game(size, rule, &mut rng);
            }
        }
        for size in [5, 6, 22] {
            random_game(size, rule, &mut rng);
        }
    }
}

#[test]
fn patterns_match_the_slow_classifier_on_sampled_positions() {
    let mut gen = common::PositionGen::new(77);
    for rule in Rule::ALL {
        for i in 0..40 {
            let size = if i % 2 == 0 { 15 } else { 20 };
            let (black, white) = gen.next(size);
            let b = common::board_from(rule, size, &black, &white, 0);
            if let Err(e) = b.check_patterns_slow() {
                panic!("{rule}: {e}\n{b}");
            }
        }
    }
}

#[test]
fn hash_depends_on_stones_and_side_only() {
    // The same stones reached in different orders hash alike; the side to move matters.
    let size = 15;
    let mut a = Board::new(size, Rule::Freestyle).unwrap();
    let mut b = Board::new(size, Rule::Freestyle).unwrap();
    let p = |x, y| Pos::new(x, y, size);
    for q in [p(7, 7), p(8, 8), p(6, 6), p(9, 9)] {
        a.play_unchecked(q);
    }
    for q in [p(6, 6), p(9, 9), p(7, 7), p(8, 8)] {
        b.play_unchecked(q);
    }
    assert_eq!(a.hash(), b.hash());
    b.pass();
    assert_ne!(a.hash(), b.hash());
    b.undo();
    assert_eq!(a.hash(), b.hash());
}
