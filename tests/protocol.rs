//! End-to-end tests of the pbrain protocol engine (`pbrain-renju-engine`), driving the built
//! binary as a child process over pipes.
//!
//! Expectations come from the protocol specification, docs/protocol.md: §1 transport and lexical
//! rules, §3 the lines the engine may print, §4 the Gomocup commands, §7 the Yixin-Board
//! extensions, §8.2 `SWAP2BOARD` and the §10 checklist. Coordinates are `x,y`, 0-based, `y` from
//! the top: on 15x15 renju h8 is `7,7`, g8 `6,7`, i8 `8,7`, h9 `7,6`, h10 `7,5`.
//!
//! Sessions are driven interactively: write a command, read until its reply, then go on. A
//! command that must print nothing is checked with a following `ABOUT`: its `name="…"` line must
//! be the very next line.
//!
//! Interrupting searches is tested in `protocol_stop.rs`, random input in `protocol_fuzz.rs`.

mod common;

use common::engine::{is_chatter, parse_moves, Engine, Stones, Xy, REPLY};
use common::protocol::*;
use std::collections::HashSet;
use std::time::{Duration, Instant};

// ------------------------------------------------------------------------------------------------
// Scripted sessions
// ------------------------------------------------------------------------------------------------

/// §1.5, §1.6: nothing is printed before the first command, and never anything on stderr.
#[test]
fn prints_nothing_before_the_first_command_and_nothing_on_stderr() {
    let mut e = Engine::spawn();
    if let Some(l) = e.next_line(Duration::from_millis(300)) {
        e.fail(&format!("unsolicited line at start-up: {l:?}"));
    }
    // c-gomoku-cli sends ABOUT first and takes the first line as the answer.
    e.send("ABOUT");
    let l = e.next_line(REPLY).unwrap_or_default();
    if !l.starts_with("name=\"") {
        e.fail(&format!("first line after ABOUT: {l:?}"));
    }
    e.assert_stderr_empty();
    // A short game with a few errors; stderr must stay empty throughout.
    e.send("INFO timeout_turn 200");
    e.expect_ok("START 15");
    let mut st = Stones::new(15);
    e.expect_move(&["BEGIN".into()], &mut st);
    e.expect_error("TURN 99,99");
    let r = e.reply("FOOBAR");
    if !r.starts_with("UNKNOWN") {
        e.fail(&format!("FOOBAR: {r:?}"));
    }
    e.turn((3, 3), &mut st);
    e.assert_stderr_empty();
    let rest = e.finish();
    assert!(rest.is_empty(), "output after END: {rest:?}");
}

/// §4.1–§4.3: START accepts square sizes 5..22 (also Yixin's `START W H` with W == H),
/// RECTSTART only square, RESTART empties the board.
#[test]
fn start_rectstart_restart() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 100");
    for n in [5i64, 15, 20, 22] {
        e.expect_ok(&format!("START {n}"));
        let mut st = Stones::new(n);
        // The size is really applied: the far corner exists, the next row/column does not.
        e.turn((n - 1, n - 1), &mut st);
        e.expect_error(&format!("TURN {n},0"));
        e.expect_error(&format!("TURN 0,{n}"));
    }
    for bad in [
        "START 4",
        "START 23",
        "START 0",
        "START -1",
        "START x",
        "START 15 20",
        "START",
        "START 99999999999999999999999",
        "RECTSTART 20,15",
        "RECTSTART 15",
    ] {
        e.expect_error(bad);
    }
    e.expect_ok("START 15 15");
    e.expect_ok("start 20 20");
    e.expect_ok("RECTSTART 15,15");
    let mut st = Stones::new(15);
    let first = e.expect_move(&["BEGIN".into()], &mut st);
    if first != (7, 7) {
        e.fail(&format!(
            "BEGIN on an empty 15x15 board: expected 7,7, got {first:?}"
        ));
    }
    e.turn((8, 8), &mut st);
    e.expect_ok("RESTART");
    // The board is empty again: the centre is free and is chosen again.
    let mut st = Stones::new(15);
    let again = e.expect_move(&["BEGIN".into()], &mut st);
    if again != (7, 7) {
        e.fail(&format!("BEGIN after RESTART: expected 7,7, got {again:?}"));
    }
    e.finish();
}

/// A command that needs a game, sent before any `START`, answers one `ERROR` line that says to
/// send `START` (no default board is made up), and the engine then starts normally.
#[test]
fn commands_before_start_answer_error() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 100");
    let commands: &[&[&str]] = &[
        &["BEGIN"],
        &["TURN 7,7"],
        &["BOARD", "7,7,1", "DONE"],
        &["YXBOARD", "7,7,1", "DONE"],
        &["TAKEBACK 7,7"],
        &["PLAY 7,7"],
        &["RESTART"],
        &["YXNBEST 2"],
        &["YXBALANCEONE 0"],
        &["SWAP2BOARD", "DONE"],
        &["YXBLOCK", "7,7", "DONE"],
        &["YXSWAP2STEP1"],
        &["RIFSTEP1", "DONE"],
    ];
    for cmd in commands {
        let lines: Vec<String> = cmd.iter().map(ToString::to_string).collect();
        e.send_all(&lines);
        let out = e.sync();
        if out.len() != 1 || !out[0].starts_with("ERROR ") || !out[0].contains("START") {
            e.fail(&format!(
                "{cmd:?} before START: expected one ERROR line naming START, got {out:?}"
            ));
        }
    }
    // Commands that need no game still work, and the game starts as usual.
    e.send("YXBLOCKRESET");
    e.assert_silent("YXBLOCKRESET before START");
    e.expect_ok("START 15");
    let mut st = Stones::new(15);
    let first = e.expect_move(&["BEGIN".into()], &mut st);
    if first != (7, 7) {
        e.fail(&format!("BEGIN after START: expected 7,7, got {first:?}"));
    }
    e.finish();
}

/// §4.4, §4.5: BEGIN plays the centre; TURN answers an empty point; TURN on an occupied or
/// off-board point answers one ERROR line and keeps the board.
#[test]
fn begin_and_turn_with_bad_coordinates() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 200");
    e.expect_ok("START 15");
    let mut st = Stones::new(15);
    let b = e.expect_move(&["BEGIN".into()], &mut st);
    if b != (7, 7) {
        e.fail(&format!("BEGIN: expected the centre 7,7, got {b:?}"));
    }
    let mut opp = vec![(8, 8)];
    e.turn((8, 8), &mut st);
    for bad in [
        "TURN 7,7".to_string(),
        "TURN 8,8".to_string(),
        "TURN 15,3".to_string(),
        "TURN 3,15".to_string(),
        "TURN -1,0".to_string(),
        "TURN 3".to_string(),
        "TURN x,y".to_string(),
        "TURN".to_string(),
    ] {
        e.expect_error(&bad);
    }
    // The board was kept: every stone is still there.
    let occupied: Vec<Xy> = st.occupied.iter().copied().collect();
    for p in occupied {
        e.expect_error(&format!("TURN {},{}", p.0, p.1));
    }
    // And the game goes on; the engine never answers an occupied point.
    for p in [(3, 3), (11, 3), (3, 11), (11, 11), (2, 7)] {
        if st.occupied.contains(&p) {
            continue;
        }
        opp.push(p);
        e.turn(p, &mut st);
    }
    // Spaces after the comma are accepted (§10.1), and so is surrounding whitespace.
    if !st.occupied.contains(&(12, 1)) {
        e.turn_line("  TURN 12, 1  ", (12, 1), &mut st);
    }
    e.finish();
}

/// §4.6: BOARD … DONE: 1 own, 2 opponent, 3 a blocked cell; any order under freestyle; a bad
/// block answers ERROR and keeps the previous board.
#[test]
fn board_command() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 300");
    e.send("INFO rule 0");
    e.expect_ok("START 15");
    // Own open four 5..8 on row 7, lines in a scrambled order: the answer is a five.
    let block: Vec<String> = [
        "BOARD", "14,0,2", "7,7,1", "0,0,2", "5,7,1", "14,14,2", "8,7,1", "0,14,2", "6,7,1", "DONE",
    ]
    .iter()
    .map(|s| (*s).to_string())
    .collect();
    let mut st = Stones::with(
        15,
        &[
            (14, 0),
            (7, 7),
            (0, 0),
            (5, 7),
            (14, 14),
            (8, 7),
            (0, 14),
            (6, 7),
        ],
    );
    let m = e.expect_move(&block, &mut st);
    if m != (4, 7) && m != (9, 7) {
        e.fail(&format!(
            "BOARD: own open four 5..8,7: expected the five 4,7 or 9,7, got {m:?}"
        ));
    }
    // An empty BOARD: black on an empty board.
    let mut empty = Stones::new(15);
    let c = e.expect_move(&["BOARD".into(), "DONE".into()], &mut empty);
    if c != (7, 7) {
        e.fail(&format!("empty BOARD: expected 7,7, got {c:?}"));
    }
    // Position A (a small game), then bad blocks must leave A in place.
    let own = [(7, 7), (8, 8)];
    let opp = [(6, 6), (9, 9)];
    let mut a = Stones::with(15, &[own[0], own[1], opp[0], opp[1]]);
    let answer = e.expect_move(&board_block("BOARD", &own, &opp), &mut a);
    let bad_blocks: [&[&str]; 7] = [
        &["BOARD", "1,1,1", "2,2,2", "7,7", "DONE"],
        &["BOARD", "1,1,1", "2,2,2", "x,y,1", "DONE"],
        &["BOARD", "1,1,1", "2,2,2", "3,3,5", "DONE"],
        &["BOARD", "1,1,1", "2,2,2", "15,0,1", "DONE"],
        &["BOARD", "1,1,1", "2,2,2", "-1,3,2", "DONE"],
        &["BOARD", "1,1,1", "2,2,2", "1,1,2", "DONE"],
        &["board", "1,1,1", "2,2,2", "3,3,1,1", "done"],
    ];
    for bad in bad_blocks {
        let lines: Vec<String> = bad.iter().map(|s| (*s).to_string()).collect();
        e.send_all(&lines);
        let out = e.sync();
        let errors = out.iter().filter(|l| !is_chatter(l)).count();
        if errors != 1 || !out.iter().any(|l| l.starts_with("ERROR ")) {
            e.fail(&format!(
                "bad BOARD {bad:?}: expected one ERROR line, got {out:?}"
            ));
        }
        // Position A is still there (its stones and the engine's answer occupy their points).
        e.expect_error(&format!("TURN {},{}", answer.0, answer.1));
        e.expect_error("TURN 9,9");
    }
    // The stones of the refused blocks were never placed.
    if !a.occupied.contains(&(1, 1)) {
        e.turn((1, 1), &mut a);
    }
    e.finish();
}

/// §4.6: field 3 is a blocked cell of neither colour — never answered, not counted.
#[test]
fn board_field_3_is_a_blocked_cell() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 300");
    e.send("INFO rule 0");
    e.expect_ok("START 15");
    // Own four 5..8 on row 7 with a field-3 stone at 4,7: the only five is 9,7.
    let block: Vec<String> = [
        "BOARD", "14,0,2", "7,7,1", "4,7,3", "0,0,2", "5,7,1", "14,14,2", "8,7,1", "0,14,2",
        "6,7,1", "DONE",
    ]
    .iter()
    .map(|s| (*s).to_string())
    .collect();
    let mut st = Stones::with(
        15,
        &[
            (14, 0),
            (7, 7),
            (4, 7),
            (0, 0),
            (5, 7),
            (14, 14),
            (8, 7),
            (0, 14),
            (6, 7),
        ],
    );
    let m = e.expect_move(&block, &mut st);
    if m != (9, 7) {
        e.fail(&format!(
            "BOARD: own stones 5..8,7 with a field-3 cell at 4,7: expected the five 9,7, got {m:?}"
        ));
    }
    e.finish();
}

/// §7.2 YXBOARD (no reply, no move) and YXSHOWFORBID (`FORBID xxyy….`, x then y, zero-padded);
/// colours come from the stone counts (§4.6).
#[test]
fn yxboard_and_yxshowforbid() {
    let mut e = Engine::spawn();
    // No board yet.
    let r = e.reply("YXSHOWFORBID");
    if r != "FORBID ." {
        e.fail(&format!("YXSHOWFORBID before any board: {r:?}"));
    }
    e.send("INFO rule 4");
    e.expect_ok("START 15");
    e.send_all(&board_block("YXBOARD", &DOUBLE_THREE, &FAR_WHITE));
    e.assert_silent("YXBOARD");
    let r = e.reply("YXSHOWFORBID");
    if r != "FORBID 0707." {
        e.fail(&format!(
            "renju, black g8 i8 h9 h10 to move: expected FORBID 0707., got {r:?}"
        ));
    }
    // The same shape moved to (11,4): x first, then y.
    let shifted: Vec<Xy> = DOUBLE_THREE.iter().map(|&(x, y)| (x + 4, y - 3)).collect();
    e.send_all(&board_block("yxboard", &shifted, &FAR_WHITE));
    e.assert_silent("yxboard");
    let r = e.reply("yxshowforbid");
    if r != "FORBID 1104." {
        e.fail(&format!(
            "double three at x=11,y=4: expected FORBID 1104., got {r:?}"
        ));
    }
    // One more opponent stone: we are white, and white has no forbidden points.
    let mut five_white = FAR_WHITE.to_vec();
    five_white.push((14, 0));
    e.send_all(&board_block("YXBOARD", &DOUBLE_THREE, &five_white));
    e.assert_silent("YXBOARD");
    let r = e.reply("YXSHOWFORBID");
    if r != "FORBID ." {
        e.fail(&format!(
            "renju, white to move: expected FORBID ., got {r:?}"
        ));
    }
    // Yixin-Board's renju is rule 2 (§7.1); freestyle has no fouls.
    for (rule, want) in [
        (2, "FORBID 0707."),
        (0, "FORBID ."),
        (1, "FORBID ."),
        (4, "FORBID 0707."),
        (8, "FORBID ."),
        (9, "FORBID ."),
    ] {
        e.send(&format!("INFO rule {rule}"));
        e.send_all(&board_block("YXBOARD", &DOUBLE_THREE, &FAR_WHITE));
        e.assert_silent("YXBOARD");
        let r = e.reply("YXSHOWFORBID");
        if r != want {
            e.fail(&format!("INFO rule {rule}: expected {want}, got {r:?}"));
        }
    }
    e.finish();
}

/// §4.7, §7.3: INFO never answers, whatever the key or value; the values take effect.
#[test]
fn info_is_always_silent() {
    let mut e = Engine::spawn();
    let infos = [
        "INFO timeout_turn 1000",
        "INFO timeout_turn 0",
        "INFO timeout_match 0",
        "INFO timeout_match 300000",
        "INFO time_left 300000",
        "INFO time_left -2000",
        "INFO time_left 2147483647",
        "INFO max_memory 8589934592",
        "INFO max_memory 0",
        "INFO max_memory 367001600",
        "INFO game_type 0",
        "INFO game_type 1",
        "INFO game_type 2",
        "INFO game_type 3",
        "INFO rule 0",
        "INFO rule 1",
        "INFO rule 2",
        "INFO rule 4",
        "INFO rule 8",
        "INFO rule 9",
        "INFO folder C:\\Program Files\\piskvork\\brains",
        "INFO folder /tmp/renju engine",
        "INFO thread_num 1",
        "INFO thread_num 2",
        "INFO max_depth 225",
        "INFO max_depth 10",
        "INFO max_node 1000000000",
        "INFO max_node -1",
        "INFO caution_factor 1",
        "INFO caution_factor 4",
        "INFO show_detail 0",
        "INFO show_detail 3",
        "INFO pondering 0",
        "INFO pondering 1",
        "INFO evaluate 7,7",
        "INFO hash_size 65536",
        "INFO time_increment 0",
        "INFO vcthread 0",
        "INFO nbestsym 1",
        "INFO usedatabase 0",
        "INFO start_depth 2",
        "INFO thread_split_depth 8",
        "INFO swapable 0",
        "INFO analysis_mode 0",
        "INFO unknown_key 42",
        "INFO no_value",
        "INFO rule abc",
        "INFO timeout_turn -5",
        "INFO max_memory 99999999999999999999999",
        "INFO",
        "info timeout_turn 200",
        "Info Rule 0",
    ];
    for l in infos {
        e.send(l);
    }
    e.assert_silent("INFO lines");
    // The last values hold: freestyle, 200 ms per move, show_detail 3.
    e.send("INFO show_detail 0");
    e.send("INFO max_depth 64");
    e.send("INFO max_node -1");
    e.send("INFO thread_num 1");
    e.expect_ok("START 15");
    e.send_all(&board_block("BOARD", &MIDDLE_OWN, &MIDDLE_OPP));
    let start = Instant::now();
    let mut any = e.lines_to_reply(REPLY);
    let mv = any.pop().unwrap_or_default();
    let took = start.elapsed();
    if parse_moves(&mv).map(|v| v.len()) != Some(1) {
        e.fail(&format!("BOARD: expected a move, got {mv:?}"));
    }
    if !any.is_empty() {
        e.fail(&format!(
            "INFO show_detail 0: expected no MESSAGE lines, got {any:?}"
        ));
    }
    // Gomocup managers allow 1000 ms over timeout_turn.
    if took > Duration::from_millis(1200) {
        e.fail(&format!("INFO timeout_turn 200: the move took {took:?}"));
    }
    // The rule keys take effect (rule 4 → renju fouls; rule 0 → none).
    e.send("INFO rule 4");
    e.send_all(&board_block("YXBOARD", &DOUBLE_THREE, &FAR_WHITE));
    let r = e.reply("YXSHOWFORBID");
    if r != "FORBID 0707." {
        e.fail(&format!("INFO rule 4 not applied: {r:?}"));
    }
    e.finish();
}

/// §7.3/§7.4 `show_detail`: every level but 0 puts one detail line per iteration (depth,
/// score, nodes, speed, time, PV) into the GUI's log pane; bit 0 adds `MESSAGE REALTIME BEST`
/// (Yixin-Board sends 1, which before showed no depth or score at all).
#[test]
fn show_detail_levels() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 300");
    e.send("INFO rule 0");
    e.expect_ok("START 15");
    for level in [1, 2, 3] {
        e.send(&format!("INFO show_detail {level}"));
        e.send_all(&board_block("BOARD", &MIDDLE_OWN, &MIDDLE_OPP));
        let mut chatter = e.lines_to_reply(REPLY);
        let mv = chatter.pop().unwrap_or_default();
        if parse_moves(&mv).map(|v| v.len()) != Some(1) {
            e.fail(&format!("show_detail {level}: expected a move, got {mv:?}"));
        }
        let details: Vec<&String> = chatter
            .iter()
            .filter(|l| l.starts_with("MESSAGE depth "))
            .collect();
        let realtime = chatter
            .iter()
            .filter(|l| l.starts_with("MESSAGE REALTIME BEST "))
            .count();
        let well_formed = details.iter().all(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            t.len() >= 13
                && t[1] == "depth"
                && t[2].parse::<i32>().is_ok()
                && t[3] == "ev"
                && t[4].parse::<i32>().is_ok()
                && t.contains(&"n/s")
                && t.contains(&"pv")
        });
        if details.is_empty() || !well_formed {
            e.fail(&format!("show_detail {level}: detail lines {chatter:?}"));
        }
        if (realtime > 0) != (level & 1 == 1) {
            e.fail(&format!(
                "show_detail {level}: REALTIME BEST lines {chatter:?}"
            ));
        }
    }
    e.finish();
}

/// §7.4 Yixin-Board's live display (`show_detail` bit 0): while thinking, `MESSAGE REALTIME
/// REFRESH` at each new iteration, `POS`/`DONE`/`LOSE x,y` for root moves (empty cells, in the
/// coordinates the GUI sent), all before the move; none without bit 0.
#[test]
fn realtime_root_lines() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 400");
    e.send("INFO rule 0");
    e.expect_ok("START 15");
    let st = Stones::with(15, &[&MIDDLE_OWN[..], &MIDDLE_OPP[..]].concat());
    for level in [1, 2, 3] {
        e.send(&format!("INFO show_detail {level}"));
        e.send_all(&board_block("BOARD", &MIDDLE_OWN, &MIDDLE_OPP));
        let mut lines = e.lines_to_reply(REPLY);
        let mv = lines.pop().unwrap_or_default();
        let realtime: Vec<String> = lines
            .into_iter()
            .filter(|l| l.starts_with("MESSAGE REALTIME "))
            .collect();
        if parse_moves(&mv).map(|v| v.len()) != Some(1) {
            e.fail(&format!("show_detail {level}: expected a move, got {mv:?}"));
        }
        // VAL and PV per iteration: a number, and a line of empty points.
        for l in &realtime {
            let ok = if let Some(v) = l.strip_prefix("MESSAGE REALTIME VAL ") {
                v.parse::<i32>().is_ok()
            } else if let Some(pv) = l.strip_prefix("MESSAGE REALTIME PV ") {
                parse_moves(pv).is_some_and(|v| {
                    v.iter()
                        .all(|p| st.on_board(*p) && !st.occupied.contains(p))
                })
            } else {
                true
            };
            if !ok {
                e.fail(&format!("show_detail {level}: bad line {l:?}"));
            }
        }
        let vals = realtime
            .iter()
            .filter(|l| l.starts_with("MESSAGE REALTIME VAL "))
            .count();
        if (vals > 0) != (level & 1 == 1) {
            e.fail(&format!("show_detail {level}: VAL lines {realtime:?}"));
        }
        let root: Vec<&String> = realtime
            .iter()
            .filter(|l| {
                !["BEST", "VAL", "PV"]
                    .iter()
                    .any(|k| l.starts_with(&format!("MESSAGE REALTIME {k} ")))
            })
            .collect();
        if level & 1 == 0 {
            if !root.is_empty() {
                e.fail(&format!("show_detail {level}: live lines {root:?}"));
            }
            continue;
        }
        // Root moves shown (a look may always fall inside an iteration's first, longest move:
        // then there are POS lines and no DONE yet).
        let shown = root
            .iter()
            .filter(|l| {
                l.starts_with("MESSAGE REALTIME DONE ") || l.starts_with("MESSAGE REALTIME POS ")
            })
            .count();
        if root.first().map(|l| l.as_str()) != Some("MESSAGE REALTIME REFRESH") || shown == 0 {
            e.fail(&format!("show_detail {level}: live lines {root:?}"));
        }
        for l in &root {
            let t: Vec<&str> = l.split_whitespace().collect();
            let ok = match t[2] {
                "REFRESH" => t.len() == 3,
                "POS" | "DONE" | "LOSE" => {
                    t.len() == 4
                        && parse_moves(t[3]).is_some_and(|v| {
                            v.len() == 1 && st.on_board(v[0]) && !st.occupied.contains(&v[0])
                        })
                }
                _ => false,
            };
            if !ok {
                e.fail(&format!("show_detail {level}: bad live line {l:?}"));
            }
        }
        // The GUI marks a DONE only on a cell with a POS since the last REFRESH: every root
        // move searched has its POS first.
        let mut marked: Vec<&str> = Vec::new();
        for l in &root {
            if l.as_str() == "MESSAGE REALTIME REFRESH" {
                marked.clear();
            } else if let Some(m) = l.strip_prefix("MESSAGE REALTIME POS ") {
                marked.push(m);
            } else if let Some(m) = l.strip_prefix("MESSAGE REALTIME DONE ") {
                if !marked.contains(&m) {
                    e.fail(&format!(
                        "show_detail {level}: DONE {m} without POS: {root:?}"
                    ));
                }
            }
        }
    }
    e.finish();
}

/// §4.9 ABOUT: one line of key="value" pairs with at least name and version.
#[test]
fn about_is_one_line_with_name_and_version() {
    let mut e = Engine::spawn();
    // ABOUT is the usual synchronisation probe, so check it against another one-line reply.
    e.send("ABOUT");
    e.send("about");
    e.send("YXSHOWFORBID");
    let mut out = Vec::new();
    while out.last().is_none_or(|l: &String| !l.starts_with("FORBID")) {
        match e.next_line(REPLY) {
            Some(l) => out.push(l),
            None => e.fail(&format!("ABOUT, about, YXSHOWFORBID: only {out:?}")),
        }
    }
    let ok = out.len() == 3
        && out[0].starts_with("name=\"")
        && out[0].contains("version=\"")
        && out[1] == out[0]
        && out[2] == "FORBID .";
    if !ok {
        e.fail(&format!("ABOUT, about, YXSHOWFORBID: expected two identical name=\"…\", version=\"…\" lines and FORBID ., got {out:?}"));
    }
    e.finish();
}

/// §4.10 TAKEBACK and §4.11 PLAY.
#[test]
fn takeback_and_play() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 200");
    e.expect_ok("START 15");
    let mut st = Stones::new(15);
    e.expect_move(&["BEGIN".into()], &mut st);
    let m = e.turn((8, 8), &mut st);
    e.expect_ok(&format!("TAKEBACK {},{}", m.0, m.1));
    st.occupied.remove(&m);
    e.expect_ok("TAKEBACK 8,8");
    st.occupied.remove(&(8, 8));
    e.expect_error("TAKEBACK 8,8");
    e.expect_error("TAKEBACK 0,0");
    e.expect_error("TAKEBACK 15,15");
    e.expect_error("TAKEBACK x");
    // 8,8 is empty again, 7,7 is still ours.
    e.expect_error("TURN 7,7");
    e.turn((8, 8), &mut st);
    // PLAY x,y (the manager confirming a SUGGEST): the engine plays it and echoes it.
    let p = (2, 12);
    let r = e.reply("PLAY 2,12");
    if r != "2,12" {
        e.fail(&format!("PLAY 2,12: expected the echo 2,12, got {r:?}"));
    }
    st.occupied.insert(p);
    e.expect_error("TURN 2,12");
    e.turn((12, 2), &mut st);
    e.finish();
}

/// §7.2 YXNBEST, YXBALANCEONE/TWO, YXHASHCLEAR, YXSHOWINFO, YXSTOP/STOP when idle.
#[test]
fn yixin_analysis_commands() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 300");
    e.expect_ok("START 15");
    let own = [(7, 7), (8, 6)];
    let opp = [(8, 7), (6, 8)];
    e.send_all(&board_block("YXBOARD", &own, &opp));
    e.assert_silent("YXBOARD");
    let st = Stones::with(15, &[own[0], own[1], opp[0], opp[1]]);

    e.send("YXNBEST 3");
    let mut messages = 0;
    let mut candidates = Vec::new();
    let line = loop {
        match e.next_line(REPLY) {
            Some(l) if l.starts_with("MESSAGE (") => {
                messages += 1;
                candidates.push(l);
            }
            Some(l) if is_chatter(&l) => messages += 1,
            Some(l) => break l,
            None => e.fail("YXNBEST 3: no move"),
        }
    };
    // One line per candidate: `MESSAGE (k) x,y ev S [win in N | loss in N] depth D pv ...`,
    // distinct empty points, the first the move played.
    let mut points = Vec::new();
    for (k, l) in candidates.iter().enumerate() {
        let t: Vec<&str> = l.split_whitespace().collect();
        let d = t.iter().position(|&w| w == "depth");
        let ok = t.len() >= 8
            && t[1] == format!("({})", k + 1)
            && t[3] == "ev"
            && t[4].parse::<i32>().is_ok()
            && d.is_some_and(|d| t.get(d + 1).is_some_and(|v| v.parse::<i32>().is_ok()))
            && t.contains(&"pv");
        match parse_moves(t[2]).as_deref() {
            Some(&[p]) if ok && !st.occupied.contains(&p) && !points.contains(&p) => points.push(p),
            _ => e.fail(&format!("YXNBEST 3: bad candidate line {l:?}")),
        }
    }
    if points.len() != 3 || parse_moves(&line).as_deref() != Some(&points[..1]) {
        e.fail(&format!(
            "YXNBEST 3: candidates {candidates:?}, move {line:?}"
        ));
    }
    match parse_moves(&line).as_deref() {
        Some(&[p]) if st.on_board(p) && !st.occupied.contains(&p) => {}
        _ => e.fail(&format!(
            "YXNBEST 3: expected one move on an empty point, got {line:?}"
        )),
    }
    if messages == 0 {
        e.fail("YXNBEST 3: expected MESSAGE lines before the move");
    }
    e.assert_silent("after YXNBEST");

    // The balance commands do not change the board; send the position again anyway.
    e.send_all(&board_block("YXBOARD", &own, &opp));
    let r = e.reply_move_list("YXBALANCEONE 0");
    if r.len() != 1
        || !r
            .iter()
            .all(|p| st.on_board(*p) && !st.occupied.contains(p))
    {
        e.fail(&format!(
            "YXBALANCEONE 0: expected one empty point, got {r:?}"
        ));
    }
    e.send_all(&board_block("YXBOARD", &own, &opp));
    let r = e.reply_move_list("YXBALANCETWO 0");
    if r.len() != 2
        || r[0] == r[1]
        || !r
            .iter()
            .all(|p| st.on_board(*p) && !st.occupied.contains(p))
    {
        e.fail(&format!(
            "YXBALANCETWO 0: expected two distinct empty points, got {r:?}"
        ));
    }

    e.send("YXHASHCLEAR");
    e.assert_silent("YXHASHCLEAR");
    e.send("YXSHOWINFO");
    let out = e.sync();
    if out.is_empty() || !out.iter().all(|l| l.starts_with("MESSAGE INFO ")) {
        e.fail(&format!(
            "YXSHOWINFO: expected MESSAGE INFO lines, got {out:?}"
        ));
    }
    for idle in ["YXSTOP", "STOP", "yxstop"] {
        e.send(idle);
        e.assert_silent(idle);
    }
    e.finish();
}

impl Engine {
    /// Send a command answered by a list of moves (chatter may precede it).
    #[track_caller]
    fn reply_move_list(&mut self, cmd: &str) -> Vec<Xy> {
        self.send(cmd);
        let l = self.expect_line(REPLY);
        match parse_moves(&l) {
            Some(v) => v,
            None => self.fail(&format!("{cmd}: expected moves, got {l:?}")),
        }
    }
}

/// §7.2 YXBLOCK / YXBLOCKUNDO / YXBLOCKRESET: blocked points are never chosen.
#[test]
fn yxblock_commands() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 200");
    e.expect_ok("START 15");
    let mut blocked = Vec::new();
    let mut block = vec!["YXBLOCK".to_string()];
    for x in 6..=8 {
        for y in 6..=8 {
            blocked.push((x, y));
            block.push(format!("{x},{y}"));
        }
    }
    block.push("DONE".into());
    e.send_all(&block);
    e.assert_silent("YXBLOCK");
    let mut st = Stones::new(15);
    let m = e.expect_move(&["BEGIN".into()], &mut st);
    if blocked.contains(&m) {
        e.fail(&format!("BEGIN answered the blocked point {m:?}"));
    }
    for p in [(3, 3), (11, 11)] {
        let m = e.turn(p, &mut st);
        if blocked.contains(&m) {
            e.fail(&format!("TURN answered the blocked point {m:?}"));
        }
    }
    // YXBLOCKUNDO frees the centre again.
    e.expect_ok("RESTART");
    e.send_all(&["yxblock".into(), "7,7".into(), "6,6".into(), "done".into()]);
    e.assert_silent("yxblock");
    let mut st = Stones::new(15);
    let m = e.expect_move(&["BEGIN".into()], &mut st);
    if m == (7, 7) || m == (6, 6) {
        e.fail(&format!("BEGIN answered a blocked point {m:?}"));
    }
    e.expect_ok("RESTART");
    e.send_all(&["YXBLOCK".into(), "7,7".into(), "DONE".into()]);
    e.send_all(&["YXBLOCKUNDO".into(), "7,7".into(), "DONE".into()]);
    e.assert_silent("YXBLOCKUNDO");
    let mut st = Stones::new(15);
    let m = e.expect_move(&["BEGIN".into()], &mut st);
    if m != (7, 7) {
        e.fail(&format!(
            "after YXBLOCKUNDO 7,7 BEGIN should take the centre, got {m:?}"
        ));
    }
    e.expect_ok("RESTART");
    e.send_all(&["YXBLOCK".into(), "7,7".into(), "DONE".into()]);
    e.send("YXBLOCKRESET");
    e.assert_silent("YXBLOCKRESET");
    let mut st = Stones::new(15);
    let m = e.expect_move(&["BEGIN".into()], &mut st);
    if m != (7, 7) {
        e.fail(&format!(
            "after YXBLOCKRESET BEGIN should take the centre, got {m:?}"
        ));
    }
    e.finish();
}

/// §8.2 SWAP2BOARD with 0, 3 and 5 stones.
#[test]
fn swap2board() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 300");
    e.send("INFO rule 1");
    e.expect_ok("START 15");
    let st = Stones::new(15);
    let r = e.reply_move_list_block(&["SWAP2BOARD", "DONE"]);
    let distinct: HashSet<Xy> = r.iter().copied().collect();
    if r.len() != 3 || distinct.len() != 3 || !r.iter().all(|&p| st.on_board(p)) {
        e.fail(&format!(
            "SWAP2BOARD, empty: expected 3 distinct points, got {r:?}"
        ));
    }
    // Case 2: SWAP, one move or two moves, on empty points.
    let three = [(7, 7), (8, 7), (9, 9)];
    let line = e.swap2_line(&three);
    let ok = line == "SWAP"
        || parse_moves(&line).is_some_and(|v| {
            let d: HashSet<Xy> = v.iter().copied().collect();
            (1..=2).contains(&v.len())
                && d.len() == v.len()
                && v.iter().all(|p| st.on_board(*p) && !three.contains(p))
        });
    if !ok {
        e.fail(&format!("SWAP2BOARD with 3 stones: got {line:?}"));
    }
    // Case 3: SWAP or one move.
    let five = [(7, 7), (8, 7), (9, 9), (8, 8), (8, 6)];
    let line = e.swap2_line(&five);
    let ok = line == "SWAP"
        || parse_moves(&line)
            .is_some_and(|v| v.len() == 1 && st.on_board(v[0]) && !five.contains(&v[0]));
    if !ok {
        e.fail(&format!("SWAP2BOARD with 5 stones: got {line:?}"));
    }
    // Bad stones: the error names what was wrong, and the engine goes on.
    for (stones, why) in [
        (&[(7, 7), (8, 7), (8, 7)][..], "point 8,7 is given twice"),
        (
            &[(7, 7), (8, 7), (7, 15)][..],
            "stone 7,15 is off the board",
        ),
    ] {
        let line = e.swap2_line(stones);
        if line != format!("ERROR SWAP2BOARD: {why}") {
            e.fail(&format!("SWAP2BOARD with {stones:?}: got {line:?}"));
        }
    }
    let line = e.swap2_line(&three);
    if line != "SWAP" && parse_moves(&line).is_none() {
        e.fail(&format!("SWAP2BOARD after errors: got {line:?}"));
    }
    e.finish();
}

impl Engine {
    #[track_caller]
    fn reply_move_list_block(&mut self, block: &[&str]) -> Vec<Xy> {
        for l in block {
            self.send(l);
        }
        let l = self.expect_line(REPLY);
        match parse_moves(&l) {
            Some(v) => v,
            None => self.fail(&format!("{}: expected moves, got {l:?}", block[0])),
        }
    }

    #[track_caller]
    fn swap2_line(&mut self, stones: &[Xy]) -> String {
        self.send("SWAP2BOARD");
        for p in stones {
            self.send(&format!("{},{}", p.0, p.1));
        }
        self.send("DONE");
        self.expect_line(REPLY)
    }
}

/// §4, §7.1: unknown commands answer one UNKNOWN line; the payload of an unknown multi-line
/// command, and the path line of a path command, are consumed.
#[test]
fn unknown_commands_and_payload_consumption() {
    let mut e = Engine::spawn();
    for cmd in ["FOOBAR", "hello world", "SUGGEST", "YXDRAW", "7,7"] {
        let r = e.reply(cmd);
        if !r.starts_with("UNKNOWN") {
            e.fail(&format!("{cmd}: expected UNKNOWN, got {r:?}"));
        }
    }
    e.send("INFO timeout_turn 200");
    e.expect_ok("START 15");
    // An unknown multi-line command: at most one UNKNOWN for the head (Rapfi stays silent,
    // §7.1), and the payload lines are not commands.
    for block in [
        &["YXBLOCKPATH", "7,7", "7,8", "DONE"][..],
        &["YXBLOCKPATHUNDO", "7,7", "BEGIN", "DONE"][..],
        &["yxhashdump", "BEGIN"][..],
        &["YXHASHLOAD", "C:\\yixin\\YIXIN.DB"][..],
    ] {
        for l in block {
            e.send(l);
        }
        let out = e.sync();
        let ok = out.is_empty()
            || (out.len() == 1
                && out[0].starts_with("UNKNOWN")
                && !out[0].contains("7,7")
                && !out[0].contains("YIXIN.DB")
                && !out[0].contains("BEGIN"));
        if !ok {
            e.fail(&format!("{block:?}: the payload was answered: {out:?}"));
        }
    }
    // The game state is untouched: the board is still empty, so BEGIN takes the centre.
    let mut st = Stones::new(15);
    let m = e.expect_move(&["BEGIN".into()], &mut st);
    if m != (7, 7) {
        e.fail(&format!("BEGIN after the unknown commands: {m:?}"));
    }
    e.finish();
}

/// §7.2: Yixin-Board's database commands are answered as an empty database in the GUI's own
/// `MESSAGE DATABASE` form, never `UNKNOWN`; their move lists and paths are consumed, also
/// before `START` and while the engine thinks (the GUI sends `yxquerydatabaseall` right after
/// each `board`/`turn`).
#[test]
fn database_commands_answer_as_an_empty_database() {
    let mut e = Engine::spawn();
    let refresh = ["MESSAGE DATABASE REFRESH", "MESSAGE DATABASE DONE"];
    let cases: [(&[&str], &[&str]); 10] = [
        (&["yxquerydatabaseall", "done"], &refresh),
        (&["YXQUERYDATABASEALL", "7,7", "8,8", "DONE"], &refresh),
        (
            &["yxquerydatabaseallt", "7,7", "done"],
            &[refresh[0], refresh[1], "MESSAGE DATABASE TEXT \"\""],
        ),
        (
            &["YXQUERYDATABASEONE", "DONE"],
            &["MESSAGE DATABASE ONE 0 0 0 0"],
        ),
        (
            &["yxquerydatabasetext", "7,7", "done"],
            &["MESSAGE DATABASE TEXT \"\""],
        ),
        (
            &["YXEDITTVDDATABASE 1 0 0 0", "7,7", "DONE"],
            &["MESSAGE DATABASE ONE 0 0 0 0"],
        ),
        (
            &["YXEDITLABELDATABASE 7,7 hello", "7,7", "BEGIN", "DONE"],
            &[],
        ),
        (&["yxdeletedatabaseall NONWL", "done"], &[]),
        (&["YXSETDATABASE", "C:\\yixin\\YIXIN.DB"], &[]),
        (&["yxdbtotxt", "BEGIN"], &[]),
    ];
    for started in [false, true] {
        if started {
            e.send("INFO timeout_turn 200");
            e.expect_ok("START 15");
        }
        for (block, want) in cases {
            for l in block {
                e.send(l);
            }
            let out = e.sync();
            if out != want {
                e.fail(&format!(
                    "{block:?} (started {started}): got {out:?}, want {want:?}"
                ));
            }
        }
    }
    // While thinking: the move first, then the database answer; the payload is no move.
    e.send("BOARD");
    e.send("7,7,2");
    e.send("DONE");
    for l in ["yxquerydatabaseall", "7,7", "done"] {
        e.send(l);
    }
    let mv = e.expect_line(REPLY);
    if parse_moves(&mv).is_none_or(|v| v.len() != 1 || v[0] == (7, 7)) {
        e.fail(&format!("the move after BOARD: {mv:?}"));
    }
    let out = e.sync();
    let answers: Vec<&str> = out
        .iter()
        .map(String::as_str)
        .filter(|l| l.starts_with("MESSAGE DATABASE"))
        .collect();
    if answers != refresh {
        e.fail(&format!("database answer while thinking: {out:?}"));
    }
    e.finish();
}

/// §1.2, §1.4: lower-case commands, CR LF and LF line endings, blank lines ignored.
#[test]
fn lower_case_commands_and_line_endings() {
    let mut e = Engine::spawn();
    e.send("info timeout_turn 200");
    e.expect_ok("start 15");
    let mut st = Stones::new(15);
    e.expect_move(&["begin".into()], &mut st);
    e.turn_line("tUrN 3,3", (3, 3), &mut st);
    // CR LF.
    e.send_raw(b"RESTART\r\n");
    let r = e.expect_line(REPLY);
    if r != "OK" {
        e.fail(&format!("RESTART with CR LF: {r:?}"));
    }
    e.send_raw(b"BOARD\r\n7,7,2\r\n8,8,1\r\n9,9,2\r\nDONE\r\n");
    let mut st = Stones::with(15, &[(7, 7), (8, 8), (9, 9)]);
    let line = e.expect_line(REPLY);
    match parse_moves(&line).as_deref() {
        Some(&[p]) if st.on_board(p) && !st.occupied.contains(&p) => {
            st.occupied.insert(p);
        }
        _ => e.fail(&format!("BOARD with CR LF: {line:?}")),
    }
    // Blank and white-space-only lines are ignored.
    e.send_raw(b"\n\r\n   \n\t\r\n");
    e.assert_silent("blank lines");
    // LF again, lower-case board/done.
    e.send_all(&[
        "board".into(),
        "7,7,1".into(),
        "8,8,2".into(),
        "done".into(),
    ]);
    let mut st = Stones::with(15, &[(7, 7), (8, 8)]);
    let line = e.expect_line(REPLY);
    match parse_moves(&line).as_deref() {
        Some(&[p]) if st.on_board(p) && !st.occupied.contains(&p) => {
            st.occupied.insert(p);
        }
        _ => e.fail(&format!("lower-case board: {line:?}")),
    }
    e.finish();
}

/// §1.2: a lone CR also ends a line — the answer must not wait for a later LF.
#[test]
fn lone_cr_ends_a_line() {
    let mut e = Engine::spawn();
    e.send_raw(b"START 15\r");
    let r = e.next_line(Duration::from_secs(2));
    if r.as_deref() != Some("OK") {
        e.fail(&format!(
            "START 15 + lone CR: expected OK within 2 s, got {r:?}"
        ));
    }
    e.send_raw(b"ABOUT\rABOUT\r");
    for _ in 0..2 {
        let r = e.next_line(Duration::from_secs(2)).unwrap_or_default();
        if !r.starts_with("name=\"") {
            e.fail(&format!(
                "ABOUT + lone CR: expected the ABOUT line within 2 s, got {r:?}"
            ));
        }
    }
    e.finish();
}

/// Renju (rules.md §2): black never answers a forbidden point, even when it looks best; white
/// may make an overline (a white win).
#[test]
fn renju_black_never_plays_a_foul() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 500");
    e.send("INFO rule 4");
    e.expect_ok("START 15");
    // Each case: black stones (ours), white stones, and the foul that must be reported and
    // avoided.
    let cases: [(&[Xy], &[Xy], Xy); 3] = [
        // Double three at h8.
        (&DOUBLE_THREE, &FAR_WHITE, (7, 7)),
        // Overline at 7,7: black 3..6 and 8 on row 7, white at 2,7 stops the exact five.
        (
            &[(3, 7), (4, 7), (5, 7), (6, 7), (8, 7)],
            &[(2, 7), (0, 14), (1, 14), (13, 14), (14, 14)],
            (7, 7),
        ),
        // Double four at 7,7: black 4..6 on row 7 and column 7, white closes one end of each.
        (
            &[(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)],
            &[(3, 7), (7, 3), (0, 14), (1, 14), (13, 14), (14, 14)],
            (7, 7),
        ),
    ];
    for (own, opp, foul) in cases {
        e.send_all(&board_block("YXBOARD", own, opp));
        let r = e.reply("YXSHOWFORBID");
        let want = format!("{:02}{:02}", foul.0, foul.1);
        let Some(list) = r.strip_prefix("FORBID ").and_then(|s| s.strip_suffix('.')) else {
            e.fail(&format!("YXSHOWFORBID: {r:?}"));
        };
        let fouls: Vec<Xy> = (0..list.len() / 4)
            .map(|i| {
                let s = &list[i * 4..i * 4 + 4];
                (s[..2].parse().unwrap_or(-1), s[2..].parse().unwrap_or(-1))
            })
            .collect();
        if !fouls.contains(&foul) {
            e.fail(&format!(
                "the test position's foul {want} is not reported: {r:?}"
            ));
        }
        let mut st = Stones::new(15);
        st.occupied.extend(own.iter().chain(opp.iter()).copied());
        let m = e.expect_move(&board_block("BOARD", own, opp), &mut st);
        if fouls.contains(&m) {
            e.fail(&format!("renju black answered the forbidden point {m:?}"));
        }
    }
    // White with the overline shape: 7,7 makes six, which wins for white.
    let own = [(3, 7), (4, 7), (5, 7), (6, 7), (8, 7)];
    let opp = [(2, 7), (0, 14), (1, 14), (13, 14), (14, 14), (14, 0)];
    let mut st = Stones::new(15);
    st.occupied.extend(own.iter().chain(opp.iter()).copied());
    let m = e.expect_move(&board_block("BOARD", &own, &opp), &mut st);
    if m != (7, 7) {
        e.fail(&format!("renju white: 7,7 makes a winning six, got {m:?}"));
    }
    e.finish();
}

/// Renju black with no legal move (a position from a self-play game run to a full board, which a
/// manager's 200-stone draw would have stopped): the one empty cell, 5,7, is an overline. Black
/// passes (`-1,-1`) rather than play the forbidden point.
#[test]
fn renju_black_without_a_legal_move_passes() {
    // X black, O white, '.' the empty cell; row y from the top, column x from the left.
    const GRID: [&str; 15] = [
        "XOOXOXOXOOXOOOO",
        "XXXOXXXOOOXXOXO",
        "OOXOXOXOXXXOXOX",
        "OOOXXXOXOXOOOXX",
        "XXXOOXXOXXOOOXO",
        "OOOXOOOOXOXXXOX",
        "OXOOOXOXOOXOOXX",
        "XXXXO.OXOOOOXOX",
        "XXOOXXXXOXXOOXO",
        "XOOXOXXOXOOXOXX",
        "OOOXXXOOOOXOOXX",
        "XOOOOXXXOOXOXXX",
        "OXXXXOOXOXXXXOO",
        "OXXXOXOXXOOOXXX",
        "OXOXXOXXOOXXOOO",
    ];
    let stones = |c: u8| -> Vec<Xy> {
        let mut v = Vec::new();
        for (y, row) in GRID.iter().enumerate() {
            for (x, &b) in row.as_bytes().iter().enumerate() {
                if b == c {
                    v.push((x as i64, y as i64));
                }
            }
        }
        v
    };
    let (black, white) = (stones(b'X'), stones(b'O'));
    assert_eq!((black.len(), white.len()), (112, 112));
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 300");
    e.send("INFO rule 4");
    e.expect_ok("START 15");
    e.send_all(&board_block("YXBOARD", &black, &white));
    let r = e.reply("YXSHOWFORBID");
    if r != "FORBID 0507." {
        e.fail(&format!(
            "the only empty cell 5,7 is an overline for black: {r:?}"
        ));
    }
    e.send_all(&board_block("BOARD", &black, &white));
    let m = e.answer(Duration::from_secs(5));
    if m != "-1,-1" {
        e.fail(&format!("black has no legal move and must pass, got {m:?}"));
    }
    e.finish();
}
