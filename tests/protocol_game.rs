//! The protocol engine as a manager sees it: full games between two engine processes and peak
//! memory under several `max_memory` values.

mod common;
use common::engine::{parse_move, Engine};
use renju_engine::board::Board;
use renju_engine::rules;
use renju_engine::types::{Color, Rule};
use std::time::Duration;

/// Play one game between two engine processes; returns the winner (None = draw) and the
/// number of moves. Every move is checked by the rules module (a foul or occupied point fails).
fn play_game(rule: Rule, size: usize, turn_ms: u64) -> (Option<Color>, usize) {
    let mut engines = [Engine::spawn(), Engine::spawn()];
    for e in &mut engines {
        e.send(&format!("START {size}"));
        assert_eq!(e.answer(Duration::from_secs(5)), "OK");
        e.send(&format!("INFO rule {}", rule.gomocup()));
        e.send(&format!("INFO timeout_turn {turn_ms}"));
        e.send("INFO timeout_match 0");
    }
    let mut board = Board::new(size, rule).unwrap();
    let limit = Duration::from_millis(turn_ms + 1000);
    engines[0].send("BEGIN");
    let mut last = engines[0].answer(limit);
    loop {
        let mover = board.side_to_move();
        let p = parse_move(&last, size);
        assert!(
            rules::try_play(&mut board, p).is_ok(),
            "illegal move {last} by {mover}\n{board}"
        );
        if rules::is_win(&board, p) {
            return (Some(mover), board.stone_count());
        }
        if board.empty_cells().count() <= 25 {
            return (None, board.stone_count());
        }
        let next = &mut engines[board.side_to_move().index()];
        next.send(&format!("TURN {last}"));
        last = next.answer(limit);
    }
}

#[test]
fn full_games_between_two_engine_processes() {
    for (rule, size) in [
        (Rule::Freestyle, 15),
        (Rule::Renju, 15),
        (Rule::Standard, 20),
    ] {
        let (winner, moves) = play_game(rule, size, 50);
        println!("{rule} {size}x{size}: winner {winner:?} after {moves} stones");
        assert!(moves >= 9, "a game cannot end before the ninth stone");
    }
}

fn peak_rss_kb(pid: u32) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    s.lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

#[test]
fn max_memory_is_honoured() {
    if !std::path::Path::new("/proc/self/status").exists() {
        return; // not Linux: no /proc to measure with
    }
    for mb in [16u64, 64, 350] {
        let mut e = Engine::spawn();
        e.send(&format!("INFO max_memory {}", mb * 1024 * 1024));
        e.send("INFO timeout_turn 200");
        e.send("INFO rule 4");
        e.send("START 15");
        assert_eq!(e.answer(Duration::from_secs(5)), "OK");
        e.send("BOARD\n7,7,2\n8,8,1\n6,8,2\nDONE");
        let mut last = e.answer(Duration::from_secs(3));
        for mv in ["5,9", "9,9", "4,10", "10,6"] {
            let _ = last;
            e.send(&format!("TURN {mv}"));
            last = e.answer(Duration::from_secs(3));
            if last.starts_with("ERROR") {
                break;
            }
        }
        let kb = peak_rss_kb(e.pid());
        println!("max_memory {mb} MB: peak RSS {:.1} MB", kb as f64 / 1024.0);
        assert!(kb > 0 && kb <= mb * 1024, "peak RSS {kb} kB over {mb} MB");
    }
}
