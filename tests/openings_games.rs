//! Whole games under RIF, Soosõrv-8, Taraguchi-10 and swap2 between two engine processes
//! (the test is the manager). Run with `--nocapture` to see the transcripts.

mod common;

use common::openings::*;
use renju_engine::board::Board;
use renju_engine::opening::RIF26;
use renju_engine::rules::{self};
use renju_engine::types::{Color, Pos, Rule};
use std::rc::Rc;

// ------------------------------------------------------------------------------------------
// 3. Whole games through the protocol
// ------------------------------------------------------------------------------------------

/// A game between engines A (index 0) and B (index 1): the test is the manager.
struct Game {
    rule: Rule,
    board: Board,
    stones: Vec<Pos>,
    /// Which engine plays black (changes with every `SWAP`).
    black: usize,
    engines: [Engine; 2],
    /// Whether the engine has had a `BOARD` in the game phase (then it gets `TURN`).
    seen: [bool; 2],
    log: Rc<Transcript>,
}

impl Game {
    fn new(rule: Rule, info_rule: i64, log: &Rc<Transcript>) -> Game {
        Game {
            rule,
            board: Board::new(SIZE, rule).expect("board"),
            stones: Vec::new(),
            black: 0,
            engines: [
                Engine::spawn("A", info_rule, log),
                Engine::spawn("B", info_rule, log),
            ],
            seen: [false; 2],
            log: log.clone(),
        }
    }

    fn engine_of(&self, c: Color) -> usize {
        if c == Color::Black {
            self.black
        } else {
            1 - self.black
        }
    }

    fn name(&self, e: usize) -> &'static str {
        self.engines[e].name
    }

    /// `engine` answers `SWAP`: it takes the colour that just moved.
    fn swap(&mut self, engine: usize) {
        let just_moved = self.board.side_to_move().opponent();
        self.black = if just_moved == Color::Black {
            engine
        } else {
            1 - engine
        };
        self.log.note(&format!(
            "-- {} swaps: A plays {}, B plays {}",
            self.name(engine),
            if self.black == 0 { "black" } else { "white" },
            if self.black == 1 { "black" } else { "white" }
        ));
    }

    /// Play `p` for the side to move; it must be legal. Returns whether it wins.
    fn place(&mut self, p: Pos, by: &str) -> bool {
        let c = self.board.side_to_move();
        if let Err(e) = rules::try_play(&mut self.board, p) {
            panic!(
                "stone {} ({c}) {} by {by} is illegal: {e}\n{}",
                self.stones.len() + 1,
                xy(p),
                self.board
            );
        }
        self.stones.push(p);
        self.log.note(&format!(
            "-- stone {} {c} {} ({}) by {by}",
            self.stones.len(),
            xy(p),
            p.to_renju(SIZE)
        ));
        rules::is_win(&self.board, p)
    }

    fn place_opening(&mut self, ps: &[Pos], by: usize) {
        for &p in ps {
            let name = self.name(by);
            assert!(!self.place(p, name), "a five during the opening");
        }
    }

    /// Ask the engine playing `c` for an opening step.
    fn step_for(&mut self, c: Color, head: &str, offers: Option<&[Pos]>) -> (usize, String) {
        let e = self.engine_of(c);
        let stones = self.stones.clone();
        let r = self.engines[e].step(head, &stones, offers);
        (e, r)
    }

    /// Normal play with `BOARD` (first time) and `TURN` until a five, a full board or
    /// `MAX_STONES` stones. Returns the winner.
    fn play_out(&mut self) -> Option<Color> {
        for e in &mut self.engines {
            e.set_turn(MOVE_MS);
        }
        self.log.note("-- normal play");
        loop {
            if self.stones.len() >= MAX_STONES || self.board.empty_cells().next().is_none() {
                self.log
                    .note(&format!("-- stopped after {} stones", self.stones.len()));
                return None;
            }
            let c = self.board.side_to_move();
            let e = self.engine_of(c);
            if self.seen[e] {
                let last = *self.stones.last().expect("a last move");
                self.engines[e].send(&format!("TURN {}", xy(last)));
            } else {
                let mut s = String::from("BOARD");
                for (i, &p) in self.stones.iter().enumerate() {
                    let sc = if i % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    s.push_str(&format!("\n{},{}", xy(p), if sc == c { 1 } else { 2 }));
                }
                s.push_str("\nDONE");
                self.engines[e].send(&s);
                self.seen[e] = true;
            }
            let r = self.engines[e].reply();
            let p = parse_point(&r);
            if self.place(p, self.name(e)) {
                self.log.note(&format!(
                    "-- {c} ({}) wins after {} stones",
                    self.name(e),
                    self.stones.len()
                ));
                return Some(c);
            }
        }
    }

    fn finish(&mut self) {
        let winner = self.play_out();
        self.log.note(&format!(
            "-- result: {} ({} stones, rule {})\n{}",
            winner.map_or("no winner".to_string(), |c| format!("{c} wins")),
            self.stones.len(),
            self.rule,
            self.board
        ));
        assert!(
            self.stones.len() >= 6,
            "the opening placed fewer than 6 stones"
        );
    }
}

#[test]
fn rif_game() {
    let log = Transcript::new("RIF game");
    let mut g = Game::new(Rule::Renju, 4, &log);
    // A is the tentative black.
    let (a, r) = g.step_for(Color::Black, "RIFSTEP1", None);
    let three = parse_points(&r);
    let i = assert_canonical(&three, "RIFSTEP1");
    g.log
        .note(&format!("-- opening {} {}", RIF26[i].0, RIF26[i].1));
    g.place_opening(&three, a);
    let (b, r) = g.step_for(Color::White, "RIFSTEP2", None);
    let r = if r == "SWAP" {
        g.swap(b);
        let (_, r) = g.step_for(Color::White, "RIFSTEP3", None);
        r
    } else {
        r
    };
    let m4 = parse_points(&r);
    assert_eq!(m4.len(), 1, "the 4th move: '{r}'");
    let w = g.engine_of(Color::White);
    g.place_opening(&m4, w);
    let (bl, r) = g.step_for(Color::Black, "RIFSTEP4", None);
    let offers = parse_points(&r);
    assert_offers(&g.stones, &offers, 2, "RIFSTEP4");
    g.log
        .note(&format!("-- {} offers {}", g.name(bl), xys(&offers)));
    let (w, r) = g.step_for(Color::White, "RIFSTEP5", Some(&offers));
    let (f, m6) = assert_choice(&g.stones, &offers, &r, "RIFSTEP5");
    g.place_opening(&[f], bl);
    g.place_opening(&[m6], w);
    g.finish();
}

#[test]
fn soosyrv8_game() {
    let log = Transcript::new("Soosõrv-8 game");
    let mut g = Game::new(Rule::Renju, 4, &log);
    let (a, r) = g.step_for(Color::Black, "SOOSYRVSTEP1 8", None);
    let three = parse_points(&r);
    assert_canonical(&three, "SOOSYRVSTEP1");
    g.place_opening(&three, a);
    let (b, r) = g.step_for(Color::White, "SOOSYRVSTEP2 8", None);
    let r = if r == "SWAP" {
        g.swap(b);
        let (_, r) = g.step_for(Color::White, "SOOSYRVSTEP3 8", None);
        r
    } else {
        r
    };
    let (m4, m) = parse_move_and_count(&r, 8, "the 4th move and M");
    let w = g.engine_of(Color::White);
    g.place_opening(&[m4], w);
    let (bl, r) = g.step_for(Color::Black, &format!("SOOSYRVSTEP4 {m}"), None);
    let offers_reply = if r == "SWAP" {
        g.swap(bl);
        let (_, r) = g.step_for(Color::Black, &format!("SOOSYRVSTEP5 {m}"), None);
        r
    } else {
        r
    };
    let offers = parse_points(&offers_reply);
    assert_offers(&g.stones, &offers, m, "Soosõrv offers");
    let bl = g.engine_of(Color::Black);
    let (w, r) = g.step_for(Color::White, &format!("SOOSYRVSTEP6 {m}"), Some(&offers));
    let (f, m6) = assert_choice(&g.stones, &offers, &r, "SOOSYRVSTEP6");
    g.place_opening(&[f], bl);
    g.place_opening(&[m6], w);
    g.finish();
}

/// Taraguchi-10 (rules.md §6.7, AbstractPlay reading) through the protocol. After a single
/// fifth (choice 1) white may swap once more: `TARAGUCHISTEP2 10` with five stones
/// (protocol.md §9.2). With `last_swap` false the manager skips that swap and white simply
/// gets `BOARD` for the 6th move.
fn taraguchi_game(title: &str, last_swap: bool) {
    let log = Transcript::new(title);
    let mut g = Game::new(Rule::Renju, 4, &log);
    let (a, r) = g.step_for(Color::Black, "TARAGUCHISTEP1 10", None);
    let m = check_taraguchi_stone(&[], &r, 10, "stone 1");
    g.place_opening(&m, a);
    for k in 1..=4 {
        let c = g.board.side_to_move();
        let (e, r) = g.step_for(c, "TARAGUCHISTEP2 10", None);
        let r = if r == "SWAP" {
            g.swap(e);
            let (_, r) = g.step_for(c, "TARAGUCHISTEP1 10", None);
            r
        } else {
            r
        };
        let stones = g.stones.clone();
        let m = check_taraguchi_stone(&stones, &r, 10, &format!("stone {}", k + 1));
        let e = g.engine_of(c);
        if m.len() == 1 {
            g.place_opening(&m, e);
            continue;
        }
        // Choice 2: ten offers; white chooses and plays the 6th.
        g.log.note(&format!("-- {} offers {}", g.name(e), xys(&m)));
        let (w, r) = g.step_for(Color::White, "TARAGUCHISTEP4 10", Some(&m));
        let (f, m6) = assert_choice(&stones, &m, &r, "TARAGUCHISTEP4");
        g.place_opening(&[f], e);
        g.place_opening(&[m6], w);
        g.finish();
        return;
    }
    // Choice 1: a single fifth; white may swap once more, then white plays the 6th.
    if !last_swap {
        g.log
            .note("-- choice 1: no swap offered after the fifth (engine limitation)");
        g.finish();
        return;
    }
    let (w, r) = g.step_for(Color::White, "TARAGUCHISTEP2 10", None);
    let r = if r == "SWAP" {
        g.swap(w);
        let (_, r) = g.step_for(Color::White, "TARAGUCHISTEP1 10", None);
        r
    } else {
        r
    };
    let m6 = parse_points(&r);
    assert_eq!(m6.len(), 1, "the 6th move: '{r}'");
    let w = g.engine_of(Color::White);
    g.place_opening(&m6, w);
    g.finish();
}

/// The full rule, with the swap after a single fifth.
#[test]

fn taraguchi10_game() {
    taraguchi_game("Taraguchi-10 game", true);
}

/// The same game without the swap after a single fifth, so that the rest of the rule stays
/// covered while the engine rejects `TARAGUCHISTEP2` with five stones.
#[test]
fn taraguchi10_game_without_the_last_swap() {
    taraguchi_game("Taraguchi-10 game (no swap after a single fifth)", false);
}

#[test]
fn swap2_game() {
    let log = Transcript::new("swap2 game");
    let mut g = Game::new(Rule::Standard, 1, &log);
    // Case 1: A places three stones.
    let (a, r) = g.step_for(Color::Black, "SWAP2BOARD", None);
    let three = parse_points(&r);
    assert_eq!(three.len(), 3, "SWAP2BOARD case 1: '{r}'");
    g.place_opening(&three, a);
    // Case 2: B chooses.
    let b = 1 - a;
    let r = g.engines[b].step("SWAP2BOARD", &three, None);
    if r == "SWAP" {
        g.swap(b); // B takes black; A (white) plays the 4th in normal play
    } else {
        let m = parse_points(&r);
        g.black = a; // B is white and places the 4th (and the 5th)
        match m.len() {
            1 => g.place_opening(&m, b),
            2 => {
                g.place_opening(&m[..1], b);
                g.place_opening(&m[1..], b);
                // Case 3: A chooses the colour.
                let five = g.stones.clone();
                let r = g.engines[a].step("SWAP2BOARD", &five, None);
                if r == "SWAP" {
                    g.swap(a); // A takes black; B (white) plays the 6th
                } else {
                    g.black = b; // A takes white and plays the 6th
                    g.log.note("-- A takes white");
                    let m6 = parse_points(&r);
                    assert_eq!(m6.len(), 1, "SWAP2BOARD case 3: '{r}'");
                    g.place_opening(&m6, a);
                }
            }
            _ => panic!("SWAP2BOARD case 2: '{r}'"),
        }
    }
    g.finish_swap2();
}

impl Game {
    fn finish_swap2(&mut self) {
        let winner = self.play_out();
        self.log.note(&format!(
            "-- result: {} ({} stones)\n{}",
            winner.map_or("no winner".to_string(), |c| format!("{c} wins")),
            self.stones.len(),
            self.board
        ));
        assert!(self.stones.len() >= 4, "the game ended in the opening");
    }
}
