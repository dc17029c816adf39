//! The protocol engine stops a long search promptly on `YXSTOP`/`STOP`, `END`, the end of its
//! input and `INFO timeout_turn 0` (docs/protocol.md), answering a legal move.

mod common;

use common::engine::{parse_moves, wait_exit, Engine, Stones};
use common::protocol::*;
use std::time::{Duration, Instant};

// ------------------------------------------------------------------------------------------------
// Interrupting searches
// ------------------------------------------------------------------------------------------------

/// Start a 60-second search from the middle-game position; check it is still thinking after
/// `THINK`.
#[track_caller]
fn start_long_search(e: &mut Engine) -> Stones {
    e.send("INFO timeout_turn 60000");
    e.expect_ok("START 15");
    let mut st = Stones::new(15);
    st.occupied
        .extend(MIDDLE_OWN.iter().chain(MIDDLE_OPP.iter()).copied());
    e.send_all(&board_block("BOARD", &MIDDLE_OWN, &MIDDLE_OPP));
    e.assert_thinking_for(THINK);
    st
}

#[track_caller]
fn check_move(e: &Engine, line: &str, st: &Stones, what: &str) {
    match parse_moves(line).as_deref() {
        Some(&[p]) if st.on_board(p) && !st.occupied.contains(&p) => {}
        _ => e.fail(&format!(
            "{what}: expected a move on an empty point, got {line:?}"
        )),
    }
}

/// §7.2 YXSTOP/STOP answer at once; §4.8 END exits at once.
#[test]
fn stop_and_end_interrupt_a_long_search() {
    let mut e = Engine::spawn();
    for stop in ["YXSTOP", "STOP"] {
        let st = start_long_search(&mut e);
        let t = Instant::now();
        e.send(stop);
        let (line, took) = e.time_to_reply(t);
        println!("{stop} during a search: move {line} after {took:?}");
        check_move(&e, &line, &st, stop);
        if took > LATENCY {
            e.fail(&format!(
                "{stop}: the move came after {took:?} (limit {LATENCY:?})"
            ));
        }
        e.assert_silent(stop);
    }
    start_long_search(&mut e);
    let t = Instant::now();
    e.send("END");
    let status = wait_exit(&mut e.child, Duration::from_secs(5));
    let took = t.elapsed();
    println!("END during a search: exit after {took:?}");
    e.finished = true;
    let Some(status) = status else {
        e.fail("END during a search: no exit within 5 s");
    };
    if took > LATENCY {
        e.fail(&format!(
            "END during a search: exit after {took:?} (limit {LATENCY:?})"
        ));
    }
    if status.code() != Some(0) {
        e.fail(&format!("END during a search: exit status {status}"));
    }
    e.assert_stderr_empty();
}

/// §4.8: end of input during a search ends the process at once.
#[test]
fn closing_stdin_during_a_search_exits() {
    let mut e = Engine::spawn();
    start_long_search(&mut e);
    let t = Instant::now();
    e.stdin = None;
    let status = wait_exit(&mut e.child, Duration::from_secs(5));
    let took = t.elapsed();
    println!("stdin closed during a search: exit after {took:?}");
    e.finished = true;
    let Some(status) = status else {
        e.fail("stdin closed during a search: no exit within 5 s");
    };
    if took > LATENCY {
        e.fail(&format!(
            "stdin closed: exit after {took:?} (limit {LATENCY:?})"
        ));
    }
    if status.code() != Some(0) {
        e.fail(&format!("stdin closed: exit status {status}"));
    }
    e.assert_stderr_empty();
}

/// §4.7: `INFO timeout_turn 0` during a search (Piskvork's "stop thinking") answers at once.
#[test]
fn info_timeout_turn_zero_stops_a_search() {
    let mut e = Engine::spawn();
    let st = start_long_search(&mut e);
    let t = Instant::now();
    e.send("INFO timeout_turn 0");
    let (line, took) = e.time_to_reply(t);
    println!("INFO timeout_turn 0 during a search: move {line} after {took:?}");
    check_move(&e, &line, &st, "INFO timeout_turn 0");
    if took > LATENCY {
        e.fail(&format!(
            "INFO timeout_turn 0: the move came after {took:?} (limit {LATENCY:?})"
        ));
    }
    e.assert_silent("after INFO timeout_turn 0");
    e.finish();
}
