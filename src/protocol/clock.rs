//! The clock: search limits for one answer from the `INFO` time settings.
//!
//! May import `types` and `search` (for [`Limits`]). The defaults, all documented in the README:
//! without `timeout_turn` a move may take [`DEFAULT_TURN_MS`]; a `time_left` counts only when
//! `timeout_match` is set (or when no `timeout_turn` was sent), and `2147483647` means no match
//! clock; every budget keeps a safety margin of 20 ms + 2% (at most 250 ms) for the answer to
//! reach the manager.

use super::settings::Settings;
use crate::search::Limits;
use std::time::{Duration, Instant};

/// `time_left` value meaning "no match clock".
const UNLIMITED: i64 = 2_147_483_647;
/// Turn time (ms) when the manager sent no `timeout_turn` (Piskvork's default turn is longer;
/// 5 s keeps a manager that forgot the setting from waiting long).
pub(super) const DEFAULT_TURN_MS: u64 = 5_000;

impl Settings {
    /// Search limits for one move, measured from `received`, with `stones` on the board.
    #[must_use]
    pub fn limits(&self, received: Instant, stones: usize) -> Limits {
        let turn = self.timeout_turn.unwrap_or(DEFAULT_TURN_MS);
        let match_left = match self.time_left {
            Some(t)
                if t != UNLIMITED && (self.timeout_match > 0 || self.timeout_turn.is_none()) =>
            {
                Some(t)
            }
            _ => None,
        };
        let budget = match match_left {
            Some(m) => turn.min(m.max(0) as u64),
            None => turn,
        };
        let margin = (20 + budget / 50).min(250);
        let spent = received.elapsed().as_millis() as u64;
        let mut l = Limits::from_clock(
            Some(turn.saturating_sub(spent)),
            match_left.map(|m| m - spent as i64),
            margin,
            stones,
        );
        l.max_depth = self.max_depth;
        l.max_nodes = self.max_nodes;
        l
    }

    /// The whole time an answer that is not a game move may take (opening steps, balanced
    /// moves): the hard limit of a move, measured from `received`.
    #[must_use]
    pub fn answer_budget(&self, received: Instant) -> Duration {
        self.limits(received, 0)
            .hard_time
            .unwrap_or(Duration::from_millis(DEFAULT_TURN_MS))
    }
}
