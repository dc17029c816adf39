use super::*;
use crate::search::threats::RANK_UNIT;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Gravity keeps history entries within the bound whatever the sequence of bonuses and
/// maluses the search can give, a bonus never lowers an entry nor a malus raises it, and a
/// run of bonuses at one depth settles close to the bound (recent results dominate).
#[test]
fn history_gravity_stays_bounded_and_monotone() {
    let mut rng = StdRng::seed_from_u64(11);
    for _ in 0..200 {
        let mut h = 0;
        for _ in 0..500 {
            let b = history_bonus(HISTORY_BONUS, rng.gen_range(1..40));
            let b = if rng.gen_bool(0.5) { b } else { -b };
            let next = with_gravity(h, b);
            assert!(
                (-HISTORY_MAX..=HISTORY_MAX).contains(&next),
                "{h} {b} -> {next}"
            );
            assert!(
                if b > 0 { next >= h } else { next <= h },
                "{h} {b} -> {next}"
            );
            h = next;
        }
    }
    let mut h = -HISTORY_MAX;
    for _ in 0..200 {
        h = with_gravity(h, history_bonus(HISTORY_BONUS, 12));
    }
    assert!(h > HISTORY_MAX * 9 / 10, "{h}");
    let b = |d| history_bonus(HISTORY_BONUS, d);
    assert!(b(1) > 0 && b(1) < b(5));
    assert_eq!(b(60), HISTORY_BONUS_MAX);
}

/// In renju a threat move's cut-off leaves the quiet-move ordering of its cell alone (the
/// two have tables of their own) and a quiet cut-off raises it; in freestyle the one
/// table takes both.
#[test]
fn renju_threat_and_quiet_histories_are_apart() {
    use super::super::tt::Table;
    use crate::types::Rule;
    let shared = Shared::new(Table::new(1), super::super::Limits::default(), 1);
    for rule in [Rule::Renju, Rule::Freestyle] {
        let mut b = Board::new(15, rule).expect("board");
        b.play_unchecked(Pos::new(7, 7, 15));
        let mut w = Worker::new(b, &shared, 0);
        let me = w.board.side_to_move();
        let p = Pos::new(9, 8, 15);
        assert!(w.order_key(p, me, 0) < RANK_UNIT, "a quiet cell");
        let before = w.order_key(p, me, 0);
        w.history_cutoff(me, p, true, 6, &[]);
        let after_threat = w.order_key(p, me, 0);
        w.history_cutoff(me, p, false, 6, &[]);
        let after_quiet = w.order_key(p, me, 0);
        if rule == Rule::Renju {
            assert_eq!(before, after_threat, "{rule:?}");
        } else {
            assert!(after_threat > before, "{rule:?}");
        }
        assert!(after_quiet > after_threat, "{rule:?}");
    }
}

/// ABDADA: a move deferred because another thread is searching it is still searched, in the
/// same order among the deferred and with its own move number. A main thread of a two-thread
/// search (no helper running) with every root move marked busy defers every root move but
/// the first at the first iteration deep enough, and still ends with one thread's move and
/// score on every bench position; the marks are taken off as the moves are searched.
#[test]
fn deferred_moves_are_still_searched() {
    use super::super::tt::Table;
    use super::super::{Limits, Searcher, Silent};
    let depth = ABDADA_MIN_DEPTH;
    let mut deferred_somewhere = false;
    for &(rule, size, moves) in crate::bench::POSITIONS {
        let board = crate::bench::position(rule, size, moves).expect("bench position");
        let one = Searcher::new(1, 1).search(&board, Limits::depth(depth), &mut Silent);
        let shared = Shared::new(Table::new(1), Limits::depth(depth), 2);
        let root = board.hash();
        let cells: Vec<Pos> = (0..size * size)
            .map(|i| Pos(i as u16))
            .filter(|&p| board.is_empty(p))
            .collect();
        for &p in &cells {
            shared.set_busy(Shared::busy_hash(root, p), true);
        }
        let mut w = Worker::new(board.clone(), &shared, 0);
        let two = w.iterate(&mut Silent);
        assert_eq!(
            (one.best, one.score, one.depth),
            (two.best, two.score, two.depth),
            "{moves}"
        );
        if w.deferrals > 0 {
            deferred_somewhere = true;
            assert!(
                w.root
                    .iter()
                    .all(|&m| !shared.is_busy(Shared::busy_hash(root, m))),
                "{moves}: a searched root move left marked busy"
            );
        }
    }
    assert!(deferred_somewhere, "no root move was ever deferred");
}
