//! A Yixin-Board session replayed as the GUI sends it (protocol.md §6 and §7.5, recorded from the
//! GUI playing renju): the set-up burst without waiting for replies, positions as `board` with
//! row-first `r,c,who` lines, `turn r,c` moves, a `yxquerydatabaseall` block after each, the
//! live display on (`show_detail 1`), `yxnbest`, `yxstop` while thinking and `yxshowforbid`.
//! Every line the engine prints must be one the GUI reads (it treats any line that does not
//! start with OK, MESSAGE, DETAIL, DEBUG, ERROR, UNKNOWN or FORBID as a move), no `ERROR` or
//! `UNKNOWN` may appear, and every move must be a legal empty point.

mod common;
use common::engine::{parse_moves, Engine, REPLY};
use std::time::{Duration, Instant};

/// Lines up to and including the next move line (one `r,c`), and the move.
#[track_caller]
fn until_move(e: &mut Engine, what: &str) -> (Vec<String>, (i64, i64)) {
    let mut lines = Vec::new();
    loop {
        match e.next_line(REPLY) {
            Some(l) => {
                let is_move = ![
                    "OK", "MESSAGE", "DETAIL", "DEBUG", "ERROR", "UNKNOWN", "FORBID",
                ]
                .iter()
                .any(|k| l.to_ascii_uppercase().starts_with(k));
                lines.push(l.clone());
                if is_move {
                    match parse_moves(&l).as_deref() {
                        Some(&[p]) => return (lines, p),
                        _ => e.fail(&format!("{what}: a line the GUI takes as a move: {l:?}")),
                    }
                }
            }
            None => e.fail(&format!("{what}: no move; so far {lines:?}")),
        }
    }
}

/// No line of `lines` is an error or an unknown-command answer.
#[track_caller]
fn no_errors(e: &mut Engine, what: &str, lines: &[String]) {
    if let Some(l) = lines
        .iter()
        .find(|l| l.starts_with("ERROR") || l.starts_with("UNKNOWN"))
    {
        e.fail(&format!("{what}: {l:?} in {lines:?}"));
    }
}

#[test]
fn a_yixin_board_session() {
    let mut e = Engine::spawn();
    // The set-up burst, all at once.
    for l in [
        "info show_detail 1",
        "yxshowinfo",
        "START 15 15",
        "INFO timeout_turn 400",
        "INFO timeout_match 300000",
        "INFO time_left 300000",
        "INFO max_node 1000000000",
        "INFO max_depth 225",
        "INFO time_increment 0",
        "INFO caution_factor 1",
        "INFO thread_num 1",
        "INFO hash_size 65536",
        "INFO pondering 0",
        "INFO vcthread 0",
        "INFO rule 2",
        "start 15 15",
        "yxboard",
        "done",
        "yxshowforbid",
        "yxquerydatabaseall",
        "done",
    ] {
        e.send(l);
    }
    let setup = e.sync();
    let want = [
        "MESSAGE INFO MAX_THREAD_NUM 256",
        "MESSAGE INFO MAX_HASH_SIZE 30",
        "OK",
        "OK",
        "FORBID .",
        "MESSAGE DATABASE REFRESH",
        "MESSAGE DATABASE DONE",
    ];
    if setup != want {
        e.fail(&format!("set-up burst: got {setup:?}, want {want:?}"));
    }
    // A position (row-first r,c,who; who 1 = the engine), then the database query while the
    // engine thinks. The engine is white after black's two stones and its own one.
    let mut stones: Vec<(i64, i64)> = vec![(7, 7), (6, 7), (8, 8)];
    for l in [
        "INFO time_left 299000",
        "start 15 15",
        "board",
        "7,7,2",
        "6,7,1",
        "8,8,2",
        "done",
        "yxquerydatabaseall",
        "7,7",
        "6,7",
        "8,8",
        "done",
    ] {
        e.send(l);
    }
    let (lines, mv) = until_move(&mut e, "board");
    no_errors(&mut e, "board", &lines);
    // Database answers so far (each query gets one REFRESH ... DONE, after the move when the
    // query came while the engine thought).
    let refreshes = |l: &[String]| {
        l.iter()
            .filter(|l| *l == "MESSAGE DATABASE REFRESH")
            .count()
    };
    let mut answered = refreshes(&lines);
    if !lines.iter().any(|l| l.starts_with("MESSAGE REALTIME ")) {
        e.fail(&format!(
            "board: no live display with show_detail 1: {lines:?}"
        ));
    }
    if stones.contains(&mv) || !(0..15).contains(&mv.0) || !(0..15).contains(&mv.1) {
        e.fail(&format!("board: move {mv:?} on {stones:?}"));
    }
    stones.push(mv);
    // Turns: the GUI's move, then its database query.
    for turn in 0..3 {
        let theirs = (0..15)
            .flat_map(|r| (0..15).map(move |c| (r, c)))
            .find(|p| !stones.contains(p) && (p.0 - 7i64).abs() <= 3 && (p.1 - 7i64).abs() <= 3)
            .unwrap();
        stones.push(theirs);
        let turn_line = format!("turn {},{}", theirs.0, theirs.1);
        for l in [
            "INFO time_left 298000",
            turn_line.as_str(),
            "yxquerydatabaseall",
        ] {
            e.send(l);
        }
        for p in &stones {
            e.send(&format!("{},{}", p.0, p.1));
        }
        e.send("done");
        let what = format!("turn {turn}");
        let (mut lines, mv) = until_move(&mut e, &what);
        lines.extend(e.sync());
        no_errors(&mut e, &what, &lines);
        answered += refreshes(&lines);
        if answered != turn + 2 || stones.contains(&mv) {
            e.fail(&format!(
                "{what}: move {mv:?}, {answered} database answers, lines {lines:?}"
            ));
        }
        stones.push(mv);
    }
    // yxnbest, then a long search stopped by yxstop: answered at once.
    e.send("yxnbest 2");
    let (lines, _) = until_move(&mut e, "yxnbest");
    no_errors(&mut e, "yxnbest", &lines);
    if lines.iter().filter(|l| l.starts_with("MESSAGE (")).count() != 2 {
        e.fail(&format!("yxnbest 2: candidate lines {lines:?}"));
    }
    e.send("INFO timeout_turn 30000");
    let own: Vec<String> = stones
        .iter()
        .map(|p| format!("{},{},2", p.0, p.1))
        .collect();
    e.send("board");
    for l in &own[..own.len() - 1] {
        e.send(l);
    }
    e.send("done");
    std::thread::sleep(Duration::from_millis(300));
    let stop = Instant::now();
    e.send("yxstop");
    let (lines, _) = until_move(&mut e, "yxstop");
    no_errors(&mut e, "yxstop", &lines);
    if stop.elapsed() > Duration::from_millis(500) {
        e.fail(&format!(
            "yxstop: the move came {:?} after it",
            stop.elapsed()
        ));
    }
    let r = e.sync();
    no_errors(&mut e, "after yxstop", &r);
    e.send("yxshowforbid");
    let r = e.sync();
    if r.len() != 1 || !r[0].starts_with("FORBID ") || !r[0].ends_with('.') {
        e.fail(&format!("yxshowforbid: {r:?}"));
    }
    e.finish();
}
