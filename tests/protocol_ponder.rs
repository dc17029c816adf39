//! Pondering (`INFO pondering 1`): after its move the engine thinks on the expected reply until
//! the next command, prints nothing meanwhile, stops at once on any command, and the next
//! search starts from the work: on a correct guess it needs far fewer nodes for the same depth
//! than an engine that did not ponder. Without the key nothing changes.

mod common;
use common::engine::{parse_moves, Engine, REPLY};
use std::time::{Duration, Instant};

/// The tests of this file one at a time: a pondering engine's saving depends on the CPU it
/// gets while it waits, so two of them must not share the machine's two cores with another.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The engine's answer to `cmd` lines: the move and the `(depth, nodes)` of its detail lines.
fn answer(e: &mut Engine, cmd: &[&str]) -> (String, Vec<(i32, u64)>) {
    for l in cmd {
        e.send(l);
    }
    let mut lines = e.lines_to_reply(REPLY);
    let mv = lines.pop().unwrap_or_default();
    let detail = lines
        .iter()
        .filter(|l| l.starts_with("MESSAGE depth "))
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            let n = t
                .iter()
                .position(|&w| w == "n")
                .and_then(|i| t.get(i + 1))?;
            Some((t[2].parse().ok()?, n.parse().ok()?))
        })
        .collect();
    (mv, detail)
}

/// A freestyle position (own 7,7 8,6; the opponent's 8,7 6,8), searched to depth 12
/// with a long turn so that depth, not time, ends every search; then the opponent plays the
/// reply the engine expected. Returns the nodes the answer took to depth 12. With `gui`, the
/// commands Yixin-Board sends right after each move come first (`YXSHOWFORBID`, then
/// `INFO time_left` before the reply).
fn answer_nodes_after_expected_reply(pondering: bool, gui: bool) -> u64 {
    let mut e = Engine::spawn();
    for l in [
        "INFO timeout_turn 5000",
        "INFO max_depth 12",
        "INFO rule 0",
        if pondering {
            "INFO pondering 1"
        } else {
            "INFO pondering 0"
        },
    ] {
        e.send(l);
    }
    e.expect_ok("START 15");
    let (mv, detail) = answer(
        &mut e,
        &["BOARD", "7,7,1", "8,6,1", "8,7,2", "6,8,2", "DONE"],
    );
    if parse_moves(&mv).is_none() || detail.is_empty() {
        e.fail(&format!("the first move: {mv:?}"));
    }
    // The expected reply: the second move of the line the engine reported last.
    let line = e
        .transcript
        .iter()
        .rev()
        .find(|l| l.starts_with("< MESSAGE depth "))
        .cloned()
        .unwrap_or_default();
    let reply = line
        .split(" pv ")
        .nth(1)
        .and_then(|pv| pv.split_whitespace().nth(1));
    let Some(reply) = reply.map(str::to_string) else {
        e.fail(&format!("no expected reply in {line:?}"));
    };
    if gui {
        e.send("YXSHOWFORBID");
        let l = e.expect_line(REPLY);
        if !l.starts_with("FORBID") {
            e.fail(&format!("YXSHOWFORBID: {l:?}"));
        }
    }
    // The opponent thinks for a second (the pondering engine prints nothing meanwhile).
    if let Some(l) = e.next_line(Duration::from_millis(1000)) {
        e.fail(&format!("output while the opponent thinks: {l:?}"));
    }
    if gui {
        e.send("INFO time_left 290000");
    }
    let (mv2, detail) = answer(&mut e, &[&format!("TURN {reply}")]);
    if parse_moves(&mv2).is_none() {
        e.fail(&format!("the answer to {reply}: {mv2:?}"));
    }
    let nodes = detail
        .iter()
        .rev()
        .find(|(d, _)| *d == 12)
        .map(|&(_, n)| n)
        .unwrap_or_else(|| e.fail(&format!("no depth 12 in {detail:?}")));
    e.assert_stderr_empty();
    e.finish();
    nodes
}

#[test]
fn pondering_on_the_expected_reply_is_reused() {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let cold = answer_nodes_after_expected_reply(false, false);
    let warm = answer_nodes_after_expected_reply(true, false);
    println!("nodes to depth 12 after the expected reply: {cold} without pondering, {warm} with");
    // A third saved at least: with singular extension on (since 2026-12-06) the answer takes
    // about half the nodes (its tests at PV nodes are not stored in the table and are searched
    // again); without it about a tenth (README, "Pondering").
    assert!(
        warm * 3 < cold * 2,
        "pondering saved too little: {warm} nodes with it, {cold} without"
    );
}

/// Yixin-Board asks for the forbidden points right after each move and sends `INFO time_left`
/// before the reply: pondering goes on (before, the first of them ended it for the turn).
#[test]
fn pondering_survives_the_guis_commands_between_moves() {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let cold = answer_nodes_after_expected_reply(false, true);
    let warm = answer_nodes_after_expected_reply(true, true);
    println!("with the GUI's commands: {cold} nodes without pondering, {warm} with");
    assert!(
        warm * 3 < cold * 2,
        "pondering saved too little: {warm} nodes with it, {cold} without"
    );
}

#[test]
fn pondering_stops_at_once_on_any_command() {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 300");
    e.send("INFO rule 0");
    e.send("INFO pondering 1");
    e.expect_ok("START 15");
    let (mv, _) = answer(&mut e, &["BEGIN"]);
    if parse_moves(&mv).is_none() {
        e.fail(&format!("BEGIN: {mv:?}"));
    }
    // Pondering now (no time limit): each command is answered as if the engine were idle.
    for cmd in ["ABOUT", "YXSHOWFORBID"] {
        std::thread::sleep(Duration::from_millis(300));
        let t = Instant::now();
        e.send(cmd);
        let l = e.expect_line(REPLY);
        if t.elapsed() > Duration::from_millis(250) || l.starts_with("ERROR") {
            e.fail(&format!(
                "{cmd} while pondering: {l:?} after {:?}",
                t.elapsed()
            ));
        }
    }
    // A move in time (300 ms turn), then END ends the process at once.
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    let (mv, _) = answer(&mut e, &["TURN 0,0"]);
    if parse_moves(&mv).is_none() || t.elapsed() > Duration::from_millis(1300) {
        e.fail(&format!(
            "TURN while pondering: {mv:?} after {:?}",
            t.elapsed()
        ));
    }
    std::thread::sleep(Duration::from_millis(300));
    e.assert_stderr_empty();
    e.finish();
}
