//! Self-play matches between two fixed search depths, for sanity checks ("depth D+2 beats
//! depth D").
//!
//! Every opening (three random stones near the centre, seeded) is played twice with colours
//! swapped. Moves go through [`rules::try_play`], so an illegal move would lose the game.

use crate::board::Board;
use crate::rules;
use crate::search::{Limits, Searcher, Silent};
use crate::types::{Color, Pos, Rule};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// One side of a match.
#[derive(Clone, Copy, Debug)]
pub struct Player {
    /// Fixed search depth.
    pub depth: i32,
}

/// Match score from player A's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Games A won.
    pub wins: u32,
    /// Games A lost.
    pub losses: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games lost by an illegal move (counted in wins/losses too).
    pub illegal: u32,
}

/// Play one game from `opening`; returns the winner, or `None` for a draw, and whether the loss
/// was by an illegal move.
pub fn play_game(
    rule: Rule,
    size: usize,
    opening: &[Pos],
    black: &Player,
    white: &Player,
) -> (Option<Color>, bool) {
    let mut board = Board::new(size, rule).expect("valid size");
    for &p in opening {
        if rules::try_play(&mut board, p).is_err() {
            return (None, false);
        }
    }
    let mut searchers = [Searcher::new(16, 1), Searcher::new(16, 1)];
    let players = [black, white];
    loop {
        if board.empty_cells().count() <= 25 {
            return (None, false);
        }
        let me = board.side_to_move();
        let r = searchers[me.index()].search(
            &board,
            Limits::depth(players[me.index()].depth),
            &mut Silent,
        );
        if rules::try_play(&mut board, r.best).is_err() || r.best.is_pass() {
            return (Some(me.opponent()), true);
        }
        if rules::is_win(&board, r.best) {
            return (Some(me), false);
        }
    }
}

/// Play `pairs` openings twice each (colours swapped) between A and B.
#[must_use]
pub fn run(rule: Rule, size: usize, pairs: usize, seed: u64, a: &Player, b: &Player) -> Score {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut score = Score::default();
    let c = size as i32 / 2;
    for _ in 0..pairs {
        let mut opening: Vec<Pos> = Vec::new();
        while opening.len() < 3 {
            let x = (c + rng.gen_range(-2..=2)) as usize;
            let y = (c + rng.gen_range(-2..=2)) as usize;
            let p = Pos::new(x, y, size);
            if !opening.contains(&p) {
                opening.push(p);
            }
        }
        for a_black in [true, false] {
            let (bp, wp) = if a_black { (a, b) } else { (b, a) };
            let (winner, illegal) = play_game(rule, size, &opening, bp, wp);
            let a_color = if a_black { Color::Black } else { Color::White };
            match winner {
                None => score.draws += 1,
                Some(w) if w == a_color => score.wins += 1,
                Some(_) => score.losses += 1,
            }
            score.illegal += u32::from(illegal);
        }
    }
    score
}
