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

/// A move is "far from play" when it is more than [`LMR_FAR`] cells from both sides' last
/// stones (the larger axis distance), and never before both have played.
#[test]
fn far_from_play_takes_both_last_stones() {
    use super::super::tt::Table;
    use crate::types::Rule;
    let shared = Shared::new(Table::new(1), super::super::Limits::default(), 1);
    let mut b = Board::new(15, Rule::Renju).expect("board");
    b.play_unchecked(Pos::new(7, 7, 15));
    let mut w = Worker::new(b.clone(), &shared, 0);
    w.p.lmr_far = 4;
    assert!(!w.far_from_play(Pos::new(0, 0, 15)), "one stone only");
    b.play_unchecked(Pos::new(3, 7, 15));
    let mut w = Worker::new(b, &shared, 0);
    w.p.lmr_far = 4;
    // (12, 7): 5 from (7, 7), 9 from (3, 7).
    assert!(w.far_from_play(Pos::new(12, 7, 15)));
    // (11, 11): 4 from (7, 7) in both axes.
    assert!(!w.far_from_play(Pos::new(11, 11, 15)));
    // (0, 14): 7 from (3, 7), 7 from (7, 7).
    assert!(w.far_from_play(Pos::new(0, 14, 15)));
    // (0, 3): 4 from (3, 7) along y, 3 along x.
    assert!(!w.far_from_play(Pos::new(0, 3, 15)));
    w.p.lmr_far = 8;
    assert!(!w.far_from_play(Pos::new(12, 7, 15)));
}

/// The counter move of the opponent's last stone gets [`COUNTER_BONUS`] in the ordering key
/// (when it is no killer), and nothing while the bonus is 0.
#[test]
fn counter_move_bonus_in_the_key() {
    use super::super::tt::Table;
    use crate::types::Rule;
    let shared = Shared::new(Table::new(1), super::super::Limits::default(), 1);
    let mut b = Board::new(15, Rule::Renju).expect("board");
    b.play_unchecked(Pos::new(7, 7, 15));
    let last = Pos::new(7, 7, 15);
    let mut w = Worker::new(b, &shared, 0);
    let me = w.board.side_to_move();
    let p = Pos::new(11, 3, 15);
    let plain = w.order_key(p, me, 0);
    w.counters[me.index()][last.index()] = p;
    w.p.counter_bonus = 0;
    assert_eq!(w.order_key(p, me, 0), plain);
    w.p.counter_bonus = 4_000;
    assert_eq!(w.order_key(p, me, 0), plain + 4_000);
    let other = Pos::new(11, 4, 15);
    let other_key = w.order_key(other, me, 0);
    w.p.counter_bonus = 0;
    assert_eq!(w.order_key(other, me, 0), other_key, "another cell");
}

/// Every search knob changes the fixed-depth search when it is set away from its default: the
/// ones off by default when set, the ones on by default ([`FOUR_THREE_THREAT`], [`FHR_PCT`],
/// [`TT_EVAL`], [`MAX_QUIET_MOVES`] at 80) when turned off or back, [`SINGULAR_DEPTH`] when
/// set shallower (each is wired to the node function): node totals over the bench positions at
/// depth 7.
#[test]
fn search_knobs_change_the_search() {
    use super::super::tt::Table;
    use super::super::{Limits, Silent};
    let total = |set: &dyn Fn(&mut SearchParams)| -> u64 {
        let mut nodes = 0;
        for &(rule, size, moves) in crate::bench::POSITIONS {
            let board = crate::bench::position(rule, size, moves).expect("bench position");
            let shared = Shared::new(Table::new(16), Limits::depth(7), 1);
            let mut w = Worker::new(board, &shared, 0);
            set(&mut w.p);
            let r = w.iterate(&mut Silent);
            nodes += r.nodes;
        }
        nodes
    };
    let base = total(&|_| {});
    type Knob<'a> = (&'a str, &'a dyn Fn(&mut SearchParams));
    let knobs: [Knob; 11] = [
        ("fhr_pct", &|p| p.fhr_pct = 0),
        ("history_lmr_div", &|p| p.history_lmr_div = 24_000),
        ("counter_bonus", &|p| p.counter_bonus = 4_000),
        ("lmr_far", &|p| p.lmr_far = 4),
        ("pv_alpha_reduction", &|p| p.pv_alpha_reduction = 1),
        ("trivial_depth", &|p| p.trivial_depth = 4),
        ("lmr_attack", &|p| p.lmr_attack = 4),
        ("four_three_threat", &|p| p.four_three_threat = 0),
        ("tt_eval", &|p| p.tt_eval = 0),
        // (At depth 7 the default 8 never acts, so the test sets a shallower start.)
        ("singular_depth", &|p| p.singular_depth = 4),
        ("max_quiet_moves", &|p| p.max_quiet_moves = 24),
    ];
    for (name, set) in knobs {
        assert_ne!(total(set), base, "{name} changes nothing");
    }
}
