//! Walls on the board (the neutral cells of `BOARD` field 3): the incremental state stays equal
//! to its recomputation and to the slow classifier with walls among the stones, the fast renju
//! foul detector agrees with the reference grid (which has walls of its own), and walls decide
//! fouls, solver wins and search scores inside the tree, not only at the root: positions where
//! the wall cell would matter if it were empty. Size knob: `WALL_POSITIONS` (default 400).

mod common;
use rand::Rng;
use renju_engine::board::{Board, BoardError};
use renju_engine::eval::WIN_THRESHOLD;
use renju_engine::rules::{self, reference, renju};
use renju_engine::search::vcf::{Solution, Solver};
use renju_engine::search::{Limits, Searcher, Silent};
use renju_engine::types::{Color, Pos, Rule};

const SIZE: usize = 15;

fn p(s: &str) -> Pos {
    common::point(s, SIZE)
}

/// A 15x15 position: black and white stones (renju notation), then the walls, with `to_move`.
fn position(rule: Rule, black: &str, white: &str, walls: &str, to_move: Color) -> Board {
    let mut b = common::board_from(
        rule,
        SIZE,
        &common::stones(black, SIZE),
        &common::stones(white, SIZE),
        0,
    );
    if b.side_to_move() != to_move {
        b.pass();
    }
    for w in walls.split_whitespace() {
        b.place_wall(p(w)).unwrap();
    }
    b
}

fn check(b: &Board, what: &str) {
    if let Err(e) = b.check_invariants() {
        panic!("{what}: {e}\n{b}");
    }
    if let Err(e) = b.check_patterns_slow() {
        panic!("{what}: {e}\n{b}");
    }
}

/// Seeded positions of every rule with walls among the stones; `f` gets each one.
fn positions_with_walls(count: usize, mut f: impl FnMut(usize, Board)) {
    let mut gen = common::PositionGen::new(77);
    for i in 0..count {
        let rule = Rule::ALL[i % Rule::ALL.len()];
        let size = if i % 5 == 0 { 20 } else { SIZE };
        let (black, white) = gen.next(size);
        let mut b = common::board_from(rule, size, &black, &white, 0);
        // Walls on a tenth of the candidate cells (the cells whose patterns they change).
        let cand: Vec<Pos> = b.candidates().collect();
        for q in cand {
            if gen.rng().gen_range(0..10) == 0 {
                b.place_wall(q).unwrap();
            }
        }
        f(i, b);
    }
}

fn count() -> usize {
    std::env::var("WALL_POSITIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400)
}

#[test]
fn walls_keep_the_incremental_state_exact() {
    let mut rng = common::PositionGen::new(5);
    let mut walls_seen = 0;
    positions_with_walls(count(), |i, mut b| {
        let walls: Vec<Pos> = b.walls().collect();
        walls_seen += walls.len();
        check(&b, &format!("position {i} after the walls"));
        let stones = b.stone_count();
        let hash = b.hash();
        // Play a few moves on top and take them back: the walls stay, the state stays exact.
        let mut played = 0;
        for _ in 0..6 {
            let moves: Vec<Pos> = b.candidates().collect();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.rng().gen_range(0..moves.len())];
            assert!(!b.is_wall(m), "a wall among the candidates");
            b.play_unchecked(m);
            played += 1;
            check(&b, &format!("position {i} after a move"));
        }
        for _ in 0..played {
            b.undo();
            check(&b, &format!("position {i} after an undo"));
        }
        assert_eq!(b.walls().collect::<Vec<_>>(), walls);
        assert_eq!(b.stone_count(), stones);
        assert_eq!(b.hash(), hash);
        // The same stones without walls hash differently.
        if !walls.is_empty() {
            let mut bare = Board::new(b.size(), b.rule()).unwrap();
            for (q, c) in b.history() {
                if q.is_pass() {
                    bare.pass();
                } else {
                    bare.put_unchecked(q, c);
                }
            }
            assert_ne!(
                bare.hash(),
                b.hash(),
                "position {i}: walls left out of the hash"
            );
        }
    });
    assert!(walls_seen > count(), "too few walls: {walls_seen}");
}

#[test]
fn fouls_with_walls_equal_the_reference() {
    let mut fouls = 0;
    let mut checked = 0;
    positions_with_walls(count(), |i, mut b| {
        if b.rule() != Rule::Renju {
            return;
        }
        let size = b.size();
        let mut g = reference::Grid::from_board(&b);
        for q in b.empty_cells().collect::<Vec<_>>() {
            let slow = reference::foul(&mut g, q.x(size) as i32, q.y(size) as i32);
            let fast = renju::foul(&mut b, q);
            assert_eq!(fast, slow, "position {i} at {}\n{b}", q.to_renju(size));
            fouls += usize::from(slow.is_some());
            checked += 1;
        }
    });
    assert!(
        checked > 0 && fouls > count() / 10,
        "{fouls} fouls in {checked} cells"
    );
}

#[test]
fn a_wall_is_placed_under_the_moves_already_played() {
    let mut b = position(Rule::Freestyle, "h8 i9", "h9", "", Color::White);
    let history: Vec<_> = b.history().collect();
    b.place_wall(p("j10")).unwrap();
    assert_eq!(b.history().collect::<Vec<_>>(), history);
    assert_eq!(b.side_to_move(), Color::White);
    assert_eq!(b.stone_count(), 3);
    assert!(b.is_wall(p("j10")) && !b.is_empty(p("j10")) && b.stone(p("j10")).is_none());
    assert_eq!(b.place_wall(p("h8")), Err(BoardError::Occupied(p("h8"))));
    assert_eq!(b.place_wall(p("j10")), Err(BoardError::Occupied(p("j10"))));
    while b.undo().is_some() {}
    assert!(b.is_wall(p("j10")), "undo took a wall away");
    assert_eq!(b.stone_count(), 0);
    check(&b, "after undoing everything");
}

/// Renju: h8 makes two open threes (f8 g8 h8 and h6 h7 h8), a double-three foul. A wall on i8
/// leaves the row's three no straight four, so h8 is legal: the wall decides the foul.
#[test]
fn a_wall_decides_a_double_three() {
    let bare = position(Rule::Renju, "f8 g8 h6 h7", "a1 a3 a5 o1", "", Color::Black);
    let walled = position(
        Rule::Renju,
        "f8 g8 h6 h7",
        "a1 a3 a5 o1",
        "i8",
        Color::Black,
    );
    for (mut b, forbidden) in [(bare, true), (walled, false)] {
        let mut g = reference::Grid::from_board(&b);
        let slow = reference::foul(&mut g, 7, 7).is_some();
        assert_eq!(slow, forbidden, "reference\n{b}");
        assert_eq!(
            !rules::legal(&mut b, p("h8"), Color::Black),
            forbidden,
            "\n{b}"
        );
    }
}

/// Black to move with h8 i8 j8: g8 or k8 makes an open four, a win at depth 3. With a wall on
/// f8 and white on l8 every four of the row has one five point left, and black has no win: the
/// wall cell is the five point three plies down, where a root-only exclusion never looks.
#[test]
fn a_wall_inside_the_tree_takes_a_win_away() {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let bare = position(rule, "h8 i8 j8", "h9 i9 l8", "", Color::Black);
        let walled = position(rule, "h8 i8 j8", "h9 i9 l8", "f8", Color::Black);
        let won = |b: &Board| {
            let vcf = matches!(Solver::new(200_000).vcf(&mut b.clone()), Solution::Win(_));
            let r = Searcher::new(16, 1).search(b, Limits::depth(5), &mut Silent);
            (vcf, r.score >= WIN_THRESHOLD)
        };
        assert_eq!(won(&bare), (true, true), "{rule}\n{bare}");
        assert_eq!(won(&walled), (false, false), "{rule}\n{walled}");
    }
}
