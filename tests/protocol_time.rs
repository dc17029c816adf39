//! Answer times of the protocol engine at several turn limits, in a test binary of its own so
//! that no other test of this suite competes for the CPU meanwhile.
//! Knob: `TIME_MOVES` (moves at the 100 ms limit, default 24; fewer at 500 and 1000 ms).

mod common;
use common::engine::{parse_move, Engine};
use renju_engine::board::Board;
use renju_engine::rules;
use renju_engine::types::Rule;
use std::time::{Duration, Instant};

fn time_moves() -> usize {
    std::env::var("TIME_MOVES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(24)
}

/// Answer times (ms) of `moves` moves at `turn_ms`: the engine plays both sides of a game
/// (re-sent as BOARD when a game ends) from a fresh position each time one finishes.
fn answer_times(turn_ms: u64, moves: usize) -> Vec<f64> {
    let mut e = Engine::spawn();
    e.send("START 15");
    assert_eq!(e.answer(Duration::from_secs(5)), "OK");
    e.send("INFO rule 4");
    e.send(&format!("INFO timeout_turn {turn_ms}"));
    e.send("INFO timeout_match 0");
    let mut times = Vec::new();
    let mut board = Board::new(15, Rule::Renju).unwrap();
    while times.len() < moves {
        // Send the position as BOARD (own = side to move), measure the answer.
        let me = board.side_to_move();
        let mut cmd = String::from("BOARD\n");
        for (p, c) in board.history() {
            let f = if c == me { 1 } else { 2 };
            cmd.push_str(&format!("{},{},{f}\n", p.x(15), p.y(15)));
        }
        cmd.push_str("DONE");
        let t = Instant::now();
        e.send(&cmd);
        let reply = e.answer(Duration::from_millis(turn_ms + 2000));
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        let p = parse_move(&reply, 15);
        assert!(
            rules::try_play(&mut board, p).is_ok(),
            "illegal {reply}\n{board}"
        );
        if rules::is_win(&board, p) || board.empty_cells().count() <= 25 {
            board = Board::new(15, Rule::Renju).unwrap();
        }
    }
    times
}

#[test]
fn answers_come_inside_the_turn_limit() {
    let n = time_moves();
    for (turn_ms, moves) in [(100u64, n), (500, n / 2 + 1), (1000, n / 4 + 1)] {
        let mut t = answer_times(turn_ms, moves);
        t.sort_by(f64::total_cmp);
        let max = t[t.len() - 1];
        let p99 = t[((t.len() as f64 * 0.99).ceil() as usize).clamp(1, t.len()) - 1];
        let median = t[t.len() / 2];
        println!(
            "timeout_turn {turn_ms}: {} moves, median {median:.1} ms, p99 {p99:.1} ms, max {max:.1} ms",
            t.len()
        );
        // Managers allow 1000 ms of tolerance; we require the answer inside the limit itself
        // (a small allowance for process scheduling on a loaded machine).
        assert!(
            max < turn_ms as f64 + 30.0,
            "turn {turn_ms}: max {max:.1} ms"
        );
    }
}
