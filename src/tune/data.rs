//! The tuner's data: positions from datagen game records in a compact sparse form, and the
//! split by game into training and validation sets.

use super::result_for;
use crate::board::Board;
use crate::datagen::{GameRecord, PlyKind};
use crate::eval::{evaluate_with, features, WEIGHTS};
use crate::pattern::Class;
use crate::rules;
use crate::types::Rule;
use rayon::prelude::*;

/// Positions in a compact sparse form.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Feature indices of every position, concatenated.
    pub idx: Vec<u32>,
    /// Feature counts, parallel to `idx`.
    pub cnt: Vec<f32>,
    /// Start of each position's features in `idx` (one more entry than positions).
    pub start: Vec<usize>,
    /// Game result for the side to move: 1, 0.5 or 0.
    pub result: Vec<f32>,
    /// Search score for the side to move (hand-evaluation points; 0 if not searched).
    pub score: Vec<f32>,
    /// Whether the position was searched (has a score).
    pub searched: Vec<bool>,
    /// The hand evaluation of the position.
    pub hand: Vec<f32>,
}

impl Dataset {
    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.result.len()
    }

    /// Whether there are no positions.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    pub(super) fn push(&mut self, f: &[(u32, i32)], result: f32, score: Option<f32>, hand: f32) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        for &(i, n) in f {
            self.idx.push(i);
            self.cnt.push(n as f32);
        }
        self.start.push(self.idx.len());
        self.result.push(result);
        self.score.push(score.unwrap_or(0.0));
        self.searched.push(score.is_some());
        self.hand.push(hand);
    }

    /// `w · x` of position `i`.
    #[must_use]
    pub fn dot(&self, i: usize, w: &[f64]) -> f64 {
        (self.start[i]..self.start[i + 1])
            .map(|j| f64::from(self.cnt[j]) * w[self.idx[j] as usize])
            .sum()
    }
}

impl Split for Dataset {
    fn append(&mut self, other: Dataset) {
        if other.is_empty() {
            return;
        }
        if self.start.is_empty() {
            self.start.push(0);
        }
        let base = self.idx.len();
        self.idx.extend(other.idx);
        self.cnt.extend(other.cnt);
        self.start
            .extend(other.start.iter().skip(1).map(|s| s + base));
        self.result.extend(other.result);
        self.score.extend(other.score);
        self.searched.extend(other.searched);
        self.hand.extend(other.hand);
    }
}

/// Whether the evaluation is ever asked about this position (see the module notes).
#[must_use]
pub fn usable(board: &Board) -> bool {
    let me = board.side_to_move();
    !(board.has(me, Class::Five)
        || board.has(me, Class::OpenFour)
        || board.has(me.opponent(), Class::Five))
}

/// The usable positions of one game (the board before each ply) in which both sides' threat
/// levels ([`crate::eval::level`]) are below `max_level` ([`LEVELS`](crate::pattern::code::LEVELS) keeps every usable one).
#[must_use]
pub fn game_positions(g: &GameRecord, max_level: usize) -> Dataset {
    let mut d = Dataset::default();
    let Ok(mut b) = Board::new(g.size, g.rule) else {
        return d;
    };
    for p in &g.plies {
        let me = b.side_to_move();
        if usable(&b)
            && crate::eval::level(&b, me) < max_level
            && crate::eval::level(&b, me.opponent()) < max_level
        {
            let result = result_for(g.result, me);
            let score = (p.kind == PlyKind::Searched && !crate::eval::is_mate(p.score.into()))
                .then_some(f32::from(p.score));
            let hand = evaluate_with(&b, &WEIGHTS) as f32;
            d.push(&features(&b), result, score, hand);
        }
        if rules::try_play(&mut b, p.mv).is_err() {
            break;
        }
    }
    d
}

/// Split the positions of `games` of `rule` (those of [`game_positions`] with `max_level`)
/// into training and validation sets (every tenth game, by its position in the list, is
/// validation).
#[must_use]
pub fn build(games: &[GameRecord], rule: Rule, max_level: usize) -> (Dataset, Dataset) {
    split(games, rule, |g| game_positions(g, max_level))
}

/// Sets of positions that can be concatenated game by game.
pub(super) trait Split: Default + Send {
    fn append(&mut self, other: Self);
}

/// The positions of the games of `rule`, made by `per_game` in parallel, split by game into
/// training and validation sets (every tenth game, by its position in the list, is validation).
pub(super) fn split<T: Split>(
    games: &[GameRecord],
    rule: Rule,
    per_game: impl Fn(&GameRecord) -> T + Sync,
) -> (T, T) {
    let per: Vec<(usize, T)> = games
        .par_iter()
        .enumerate()
        .filter(|(_, g)| g.rule == rule)
        .map(|(i, g)| (i, per_game(g)))
        .collect();
    let (mut train, mut valid) = (T::default(), T::default());
    for (i, d) in per {
        if i % 10 == 9 {
            valid.append(d);
        } else {
            train.append(d);
        }
    }
    (train, valid)
}
