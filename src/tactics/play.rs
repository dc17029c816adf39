//! The engine measured on a tactical position: its move as the protocol engine would search
//! it, whether that move solves the position, and a play-out against the solver's defence.

use super::{holds, wins, Kind, Tactic};
use crate::protocol::Settings;
use crate::rules;
use crate::search::{Searcher, Silent};
use crate::types::Pos;

/// The protocol engine's settings for turns of `turn_ms` milliseconds (`INFO timeout_turn`).
fn turn_settings(turn_ms: u64) -> Settings {
    let mut settings = Settings::default();
    settings.apply_info("timeout_turn", &turn_ms.to_string());
    settings
}

/// The engine's move in `t`'s position, searched as the protocol engine searches a turn of
/// `turn_ms` milliseconds (its time limits, a fresh table), or to `depth` when given, with
/// `threads` search threads.
#[must_use]
pub fn engine_move(t: &Tactic, turn_ms: u64, depth: Option<i32>, threads: usize) -> Option<Pos> {
    let b = t.board().ok()?;
    let settings = turn_settings(turn_ms);
    let limits = match depth {
        Some(d) => crate::search::Limits::depth(d),
        None => settings.limits(std::time::Instant::now(), b.stone_count()),
    };
    let mut searcher = Searcher::new(settings.hash_mb(), threads);
    Some(searcher.search(&b, limits, &mut Silent).best)
}

/// Whether `m` solves `t`: a proven win (foul, vct) or a holding move (defend).
#[must_use]
pub fn solves(t: &Tactic, m: Pos) -> bool {
    let Ok(b) = t.board() else {
        return false;
    };
    match t.kind {
        Kind::Foul | Kind::Vct => wins(&b, m),
        Kind::Defend => holds(&b, m),
    }
}

/// How a played-out position ended (see [`play_out`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move at the start made five.
    Converted,
    /// The other side made five.
    Lost,
    /// Neither within the ply limit (or the board filled).
    Unfinished,
}

/// Play `t`'s position out with the engine on both sides, each move searched as the protocol
/// engine searches a turn of `turn_ms` milliseconds (one table per side, kept across its
/// moves, as in a game), for at most `max_plies` plies: whether the side to move converts its
/// win. A move the rules refuse (it never happens) loses for its side.
#[must_use]
pub fn play_out(t: &Tactic, turn_ms: u64, max_plies: usize) -> Outcome {
    let Ok(mut b) = t.board() else {
        return Outcome::Unfinished;
    };
    let attacker = b.side_to_move();
    let settings = turn_settings(turn_ms);
    let mut searchers = [
        Searcher::new(settings.hash_mb(), 1),
        Searcher::new(settings.hash_mb(), 1),
    ];
    for _ in 0..max_plies {
        let me = b.side_to_move();
        if b.empty_cells().next().is_none() {
            break;
        }
        let limits = settings.limits(std::time::Instant::now(), b.stone_count());
        let m = searchers[me.index()].search(&b, limits, &mut Silent).best;
        if rules::try_play(&mut b, m).is_err() {
            return if me == attacker {
                Outcome::Lost
            } else {
                Outcome::Converted
            };
        }
        if rules::is_win(&b, m) {
            return if me == attacker {
                Outcome::Converted
            } else {
                Outcome::Lost
            };
        }
    }
    Outcome::Unfinished
}
