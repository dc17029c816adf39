//! Differential tests on many seeded hard positions: the fast renju foul detector against the
//! slow reference at every empty point (size knob `FOUL_POSITIONS`, default 20,000; seed knob
//! `FOUL_SEED`), and the search's open-three defence generator and its stones that stop a five
//! against the try-every-move references (size knob `DEFENCE_POSITIONS`), and the five-point and
//! quiescence-four shortcuts against plain scans (size knob `SHORTCUT_POSITIONS`).

mod common;
use rayon::prelude::*;
use renju_engine::rules::{reference, renju, Foul};
use renju_engine::types::{Color, Rule};

/// Generated position `i` of a mixed set: the four rules in turn, every fifth one on 20x20.
fn mixed_position(gen: &mut common::PositionGen, i: usize) -> (Rule, renju_engine::board::Board) {
    let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro][i % 4];
    let size = if i.is_multiple_of(5) { 20 } else { 15 };
    let (black, white) = gen.next(size);
    (rule, common::board_from(rule, size, &black, &white, 0))
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

#[test]
fn fast_fouls_equal_reference_fouls() {
    let positions = env_usize("FOUL_POSITIONS", 20_000);
    let seed = env_usize("FOUL_SEED", 2026) as u64;
    const BATCH: usize = 500;
    let batches = positions.div_ceil(BATCH);
    let stats: Vec<[usize; 5]> = (0..batches)
        .into_par_iter()
        .map(|bi| {
            let mut gen =
                common::PositionGen::new(seed.wrapping_mul(1_000_003).wrapping_add(bi as u64));
            let mut st = [0usize; 5];
            let count = BATCH.min(positions - bi * BATCH);
            for i in 0..count {
                let size = match i % 10 {
                    0 => 20,
                    1 => 11,
                    _ => 15,
                };
                let (black, white) = gen.next(size);
                let mut b = common::board_from(Rule::Renju, size, &black, &white, 0);
                let mut g = reference::Grid::from_board(&b);
                for p in b.empty_cells().collect::<Vec<_>>() {
                    let slow = reference::foul(&mut g, p.x(size) as i32, p.y(size) as i32);
                    let candidate = b.class(p, Color::Black).needs_three_check();
                    let fast = renju::foul(&mut b, p);
                    if candidate && slow.is_none() {
                        st[4] += 1;
                    }
                    assert_eq!(
                        fast,
                        slow,
                        "batch {bi} position {i}: at {}\n{b}",
                        p.to_renju(size)
                    );
                    match slow {
                        Some(Foul::DoubleThree) => st[0] += 1,
                        Some(Foul::DoubleFour) => st[1] += 1,
                        Some(Foul::Overline) => st[2] += 1,
                        None => {}
                    }
                }
                // all_fouls lists exactly the fouls found point by point.
                let all = renju::all_fouls(&mut b);
                let listed: usize = all.len();
                let point_by_point = b
                    .empty_cells()
                    .collect::<Vec<_>>()
                    .into_iter()
                    .filter(|&p| renju::foul(&mut b, p).is_some())
                    .count();
                assert_eq!(listed, point_by_point);
                st[3] += 1;
            }
            st
        })
        .collect();
    let total = stats.iter().fold([0usize; 5], |mut a, s| {
        for i in 0..5 {
            a[i] += s[i];
        }
        a
    });
    println!(
        "{} positions: {} double-three, {} double-four, {} overline fouls agreed; \
         {} double-three candidates settled as legal by the real-three recursion",
        total[3], total[0], total[1], total[2], total[4]
    );
    assert_eq!(total[3], positions);
    // The generator must produce hard positions: every kind of foul, many times.
    if positions >= 1000 {
        assert!(
            total[0] > positions / 10
                && total[1] > positions / 10
                && total[2] > positions / 20
                && total[4] > positions / 20,
            "{total:?}"
        );
    }
}

/// The search's defence generator against an open three (moves tried on the board only when
/// they can matter) equals the reference that tries every legal move, on seeded positions of
/// every rule where the side to move faces an open-four point. Size knob: `DEFENCE_POSITIONS`
/// (default 20,000 generated positions).
#[test]
fn open_four_defences_equal_reference() {
    use renju_engine::search::threats::{legal, open_four_defences, open_four_defences_slow};
    let positions = env_usize("DEFENCE_POSITIONS", 20_000);
    let mut gen = common::PositionGen::new(77);
    let mut checked = 0usize;
    let mut defences = 0usize;
    for i in 0..positions {
        let (rule, board) = mixed_position(&mut gen, i);
        for to_move in [Color::Black, Color::White] {
            let mut b = board.clone();
            if b.side_to_move() != to_move {
                b.pass();
            }
            let opp = to_move.opponent();
            if b.has(Color::Black, renju_engine::pattern::Class::Five)
                || b.has(Color::White, renju_engine::pattern::Class::Five)
                || !b.has(opp, renju_engine::pattern::Class::OpenFour)
            {
                continue;
            }
            let cands: Vec<_> = b.candidates().collect();
            let moves: Vec<_> = cands
                .into_iter()
                .filter(|&p| legal(&mut b, p, to_move))
                .collect();
            let fast = open_four_defences(&b, to_move, moves.clone());
            let slow = open_four_defences_slow(&mut b, to_move, moves);
            assert_eq!(
                fast, slow,
                "position {i}, {rule:?}, {to_move:?} to move\n{b}"
            );
            checked += 1;
            defences += slow.len();
        }
    }
    // The generator must actually produce the case under test.
    assert!(
        checked > positions / 50,
        "only {checked} positions had an open three"
    );
    assert!(
        defences > checked,
        "{defences} defences over {checked} positions"
    );
}

/// `Board::class_with` (the class a cell would have with one more stone, read from the tables)
/// equals putting the stone and reading the class, for every rule, both colours of stone and of
/// reader, at every other cell of the candidate area. Size knob: `CLASS_WITH_POSITIONS`
/// (default 4,000 generated positions).
#[test]
fn class_with_equals_playing_the_stone() {
    use rand::Rng;
    let positions = env_usize("CLASS_WITH_POSITIONS", 4_000);
    let mut gen = common::PositionGen::new(91);
    let mut changed = 0usize;
    let mut compared = 0usize;
    for i in 0..positions {
        let (rule, mut b) = mixed_position(&mut gen, i);
        let empty: Vec<_> = b.candidates().collect();
        if empty.len() < 2 {
            continue;
        }
        for _ in 0..4 {
            let p = empty[gen.rng().gen_range(0..empty.len())];
            let c = if gen.rng().gen_bool(0.5) {
                Color::Black
            } else {
                Color::White
            };
            let before: Vec<_> = empty
                .iter()
                .map(|&q| [b.class(q, Color::Black), b.class(q, Color::White)])
                .collect();
            let with: Vec<_> = empty
                .iter()
                .zip(&before)
                .map(|(&q, &was)| {
                    if q == p {
                        return was; // not compared
                    }
                    [
                        b.class_with(q, p, c, Color::Black),
                        b.class_with(q, p, c, Color::White),
                    ]
                })
                .collect();
            b.put_unchecked(p, c);
            for (k, &q) in empty.iter().enumerate() {
                if q == p {
                    continue;
                }
                let after = [b.class(q, Color::Black), b.class(q, Color::White)];
                assert_eq!(
                    with[k], after,
                    "position {i}, {rule:?}: {c:?} stone at {p:?}, cell {q:?}\n{b}"
                );
                compared += 1;
                changed += usize::from(after != before[k]);
            }
            b.undo();
        }
    }
    // The stone must actually change classes for the comparison to mean something.
    assert!(
        changed > compared / 50,
        "only {changed} of {compared} classes changed"
    );
}

/// The search's shortcuts for five points and quiescence fours equal the plain scans: the
/// five point found first on the last stones' lines is the lowest-index one of the candidate
/// area, and the fours near a stone are the fours of the whole area within that reach, in the
/// same order. On seeded positions of every rule, each followed by random stones (so the last
/// stones make fives and fours). Size knob: `SHORTCUT_POSITIONS` (default 4,000).
#[test]
fn five_and_near_four_shortcuts_equal_scans() {
    use rand::{Rng, SeedableRng};
    use renju_engine::pattern::Class;
    use renju_engine::search::threats::{find_five, four_moves, four_moves_near, within_reach};
    let positions = env_usize("SHORTCUT_POSITIONS", 4_000);
    let mut gen = common::PositionGen::new(91);
    let mut rng = rand::rngs::StdRng::seed_from_u64(91);
    let (mut fives, mut near) = (0usize, 0usize);
    for i in 0..positions {
        let (rule, mut b) = mixed_position(&mut gen, i);
        let n = b.size();
        for _ in 0..8 {
            for c in [Color::Black, Color::White] {
                let scan = b.candidates().find(|&p| b.class(p, c) == Class::Five);
                assert_eq!(find_five(&b, c), scan, "position {i}, {rule:?}, {c:?}\n{b}");
                fives += usize::from(scan.is_some());
                let centres: Vec<_> = (0..2)
                    .filter_map(|k| b.ply_back(k))
                    .filter(|(p, _)| !p.is_pass())
                    .map(|(p, _)| p)
                    .collect();
                for centre in centres {
                    let (cx, cy) = (centre.x(n) as i32, centre.y(n) as i32);
                    let want: Vec<_> = four_moves(&mut b, c)
                        .into_iter()
                        .filter(|p| within_reach(p.x(n) as i32 - cx, p.y(n) as i32 - cy, 2, 4))
                        .collect();
                    let got = four_moves_near(&mut b, c, centre, 2, 4);
                    assert_eq!(
                        got, want,
                        "position {i}, {rule:?}, {c:?} near {centre:?}\n{b}"
                    );
                    near += got.len();
                }
            }
            let cands: Vec<_> = b.candidates().collect();
            if cands.is_empty() {
                break;
            }
            let p = cands[rng.gen_range(0..cands.len())];
            b.play_unchecked(p);
        }
    }
    assert!(
        fives > positions && near > positions,
        "{fives} fives, {near} near fours"
    );
}

/// The stones that stop a five ([`five_stops`](renju_engine::search::threats::five_stops): the
/// five points and the cells just beyond the runs through them, tested from the tables) equal
/// the reference that plays every empty cell, for both colours on seeded positions of every
/// rule. In caro the sets are not just "the one five point": a stone beyond a run blocked at its
/// other end stops it, and one stone may stop two five points; the test requires both kinds to
/// occur. Size knob: `DEFENCE_POSITIONS` (default 20,000 generated positions).
#[test]
fn five_stops_equal_reference() {
    use renju_engine::pattern::Class;
    use renju_engine::search::threats::{five_stops, five_stops_slow};
    let positions = env_usize("DEFENCE_POSITIONS", 20_000);
    let mut gen = common::PositionGen::new(91);
    let (mut checked, mut beyond, mut two_by_one) = (0usize, 0usize, 0usize);
    for i in 0..positions {
        let rule = Rule::ALL[i % 5];
        let size = if i.is_multiple_of(7) { 20 } else { 15 };
        let (black, white) = gen.next(size);
        let mut b = common::board_from(rule, size, &black, &white, 0);
        for c in [Color::Black, Color::White] {
            if !b.has(c, Class::Five) {
                continue;
            }
            let fast = five_stops(&mut b, c).to_vec();
            let slow = five_stops_slow(&mut b, c);
            assert_eq!(fast, slow, "position {i}, {rule:?}, stops of {c:?}\n{b}");
            checked += 1;
            if fast.iter().any(|&p| b.class(p, c) != Class::Five) {
                beyond += 1;
            }
            if !fast.is_empty() && b.count(c, Class::Five) >= 2 {
                two_by_one += 1;
            }
        }
    }
    println!(
        "{checked} fives: {beyond} stopped beyond a run, {two_by_one} two points by one stone"
    );
    assert!(
        checked > positions / 10,
        "only {checked} positions had a five point"
    );
    assert!(
        beyond > 0 && two_by_one > 0,
        "caro cases: {beyond} beyond, {two_by_one} two by one"
    );
}
