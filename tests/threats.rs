//! The static quick wins of the search (`quick_win5`) against a brute-force check: on seeded
//! random positions of every rule, a move it names must win against every reply of the
//! opponent (the attacker then has a five, or an open four while the opponent has no five).

mod common;
use common::{board_from, PositionGen};
use renju_engine::board::Board;
use renju_engine::rules;
use renju_engine::search::threats::{has_five, has_open_four, legal, quick_win5};
use renju_engine::types::{Color, Pos, Rule};

/// Whether `c`, having just moved, wins whatever the opponent (to move) replies: the opponent
/// has no five now, and after every legal reply `c` has a five point, or an open-four point
/// while the opponent has no five point.
fn wins_against_every_reply(b: &mut Board, c: Color) -> bool {
    let opp = c.opponent();
    if has_five(b, opp) {
        return false;
    }
    let empty: Vec<Pos> = b.empty_cells().collect();
    for r in empty {
        if !legal(b, r, opp) {
            continue;
        }
        b.play_unchecked(r);
        let ok = rules::five_on_board(b).is_none()
            && (has_five(b, c) || (has_open_four(b, c) && !has_five(b, opp)));
        b.undo();
        if !ok {
            return false;
        }
    }
    true
}

#[test]
fn quick_wins_survive_every_reply() {
    let n: usize = std::env::var("QUICK_WIN_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let mut gen = PositionGen::new(23);
    let rules = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro];
    let mut found = [0usize; 4];
    let mut tried = 0;
    for i in 0..n {
        let ri = i % rules.len();
        let rule = rules[ri];
        let size = if i % 3 == 0 { 20 } else { 15 };
        let (black, white) = gen.next(size);
        let mut b = board_from(rule, size, &black, &white, 0);
        if rules::five_on_board(&b).is_some() {
            continue;
        }
        for _ in 0..2 {
            tried += 1;
            let me = b.side_to_move();
            if let Some(m) = quick_win5(&mut b, me) {
                assert!(b.is_empty(m) && legal(&mut b, m, me), "{rule} {m:?}");
                found[ri] += 1;
                b.play_unchecked(m);
                let ok = rules::five_on_board(&b).is_none() && wins_against_every_reply(&mut b, me);
                b.undo();
                assert!(
                    ok,
                    "{rule} {size}: {me:?} quick win at {} is refuted\nblack {:?}\nwhite {:?}",
                    m.to_renju(size),
                    black.iter().map(|p| p.to_renju(size)).collect::<Vec<_>>(),
                    white.iter().map(|p| p.to_renju(size)).collect::<Vec<_>>()
                );
            }
            b.pass();
        }
    }
    println!("quick wins found per rule {found:?} in {tried} tries");
    // The check must have had something to check, in every rule.
    for (ri, &f) in found.iter().enumerate() {
        assert!(
            f >= n / 200,
            "{}: only {f} quick wins in {tried} tries",
            rules[ri]
        );
    }
}
