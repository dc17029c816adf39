//! Test data and helpers shared by the protocol tests (`protocol.rs`, `protocol_stop.rs`,
//! `protocol_fuzz.rs`): board blocks, fixed positions, latency bounds.
#![allow(dead_code)]

use super::engine::Xy;
use std::time::Duration;

/// Bound on the reaction to `YXSTOP`/`STOP`/`END`/`INFO timeout_turn 0`/end of input during a
/// search. The issue asks for 100 ms; 300 ms leaves room for loaded shared CI machines.
pub const LATENCY: Duration = Duration::from_millis(300);
/// How long a long search must visibly keep thinking before it is interrupted.
pub const THINK: Duration = Duration::from_millis(300);

/// A `BOARD`-style block: `head`, then the stones in move order (black first: `own` first when
/// the counts are equal, else `opp` first), then `DONE`.
pub fn board_block(head: &str, own: &[Xy], opp: &[Xy]) -> Vec<String> {
    let own_first = own.len() >= opp.len();
    let (a, fa, b, fb) = if own_first {
        (own, 1, opp, 2)
    } else {
        (opp, 2, own, 1)
    };
    let mut v = vec![head.to_string()];
    for i in 0..a.len().max(b.len()) {
        if let Some(p) = a.get(i) {
            v.push(format!("{},{},{fa}", p.0, p.1));
        }
        if let Some(p) = b.get(i) {
            v.push(format!("{},{},{fb}", p.0, p.1));
        }
    }
    v.push("DONE".into());
    v
}

/// Black g8, i8, h9, h10 (15x15): h8 = 7,7 is a double three, a foul for black under renju.
pub const DOUBLE_THREE: [Xy; 4] = [(6, 7), (8, 7), (7, 6), (7, 5)];
/// Four white stones far from everything (bottom edge).
pub const FAR_WHITE: [Xy; 4] = [(0, 14), (1, 14), (13, 14), (14, 14)];

/// A quiet 15x15 middle-game position (six stones each; the side to move is black).
pub const MIDDLE_OWN: [Xy; 6] = [(7, 7), (8, 6), (6, 9), (9, 9), (5, 6), (10, 7)];
pub const MIDDLE_OPP: [Xy; 6] = [(8, 7), (7, 8), (6, 6), (9, 8), (8, 10), (5, 8)];
