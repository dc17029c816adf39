//! Yixin-Board 3.0's analysis output, as the GUI reads it: the `INFO` analysis block after every
//! completed line at `show_detail` 2 and 3 (none at 0 and 1 or without the key), the multi-PV
//! `YXNBEST` (one completed iteration per candidate: the summary agrees with the candidate's own
//! last block), `YXSEARCHDEFEND` (every root move searched and valued, stop works), proven
//! results as `+Mn`, and board labels in the `MESSAGE` lines once the GUI sent `show_detail`.

mod common;
use common::engine::{parse_moves, Engine, Stones, Xy, REPLY};
use common::protocol::{board_block, LATENCY, MIDDLE_OPP, MIDDLE_OWN, THINK};
use std::time::{Duration, Instant};

/// The keys of one analysis block, in the order the GUI expects them (`PV k` first, `PV DONE`
/// last: the GUI puts the value on the board at `PV DONE`).
const KEYS: [&str; 12] = [
    "PV",
    "NUMPV",
    "DEPTH",
    "SELDEPTH",
    "NODES",
    "TOTALNODES",
    "TOTALTIME",
    "SPEED",
    "EVAL",
    "WINRATE",
    "BESTLINE",
    "PV",
];

/// One analysis block.
#[derive(Debug, Clone)]
struct Block {
    pv: usize,
    numpv: usize,
    depth: i32,
    eval: String,
    winrate: f64,
    line: Vec<Xy>,
}

/// The analysis blocks in `lines`, each checked for its keys, their order and their values'
/// forms; fails on an `INFO` line outside a block.
#[track_caller]
fn blocks(e: &Engine, lines: &[String]) -> Vec<Block> {
    let info: Vec<&String> = lines.iter().filter(|l| l.starts_with("INFO ")).collect();
    if !info.len().is_multiple_of(KEYS.len()) {
        e.fail(&format!("INFO lines not in whole blocks: {info:?}"));
    }
    let mut out = Vec::new();
    for chunk in info.chunks(KEYS.len()) {
        let mut values = Vec::new();
        for (l, k) in chunk.iter().zip(KEYS) {
            let rest = l.strip_prefix("INFO ").unwrap_or_default();
            let Some(v) = rest.strip_prefix(k).and_then(|v| v.strip_prefix(' ')) else {
                e.fail(&format!("expected INFO {k} in {chunk:?}"));
            };
            values.push(v.to_string());
        }
        if values[11] != "DONE" {
            e.fail(&format!("block not closed by INFO PV DONE: {chunk:?}"));
        }
        for (i, k) in KEYS.iter().enumerate().take(8) {
            if values[i].parse::<u64>().is_err() {
                e.fail(&format!("INFO {k} not a count: {chunk:?}"));
            }
        }
        let eval = values[8].clone();
        let mate = eval
            .strip_prefix("+M")
            .or_else(|| eval.strip_prefix("-M"))
            .is_some_and(|n| n.parse::<u32>().is_ok());
        if !mate && eval.parse::<i32>().is_err() {
            e.fail(&format!("INFO EVAL {eval:?}"));
        }
        let winrate: f64 = values[9].parse().unwrap_or(-1.0);
        if !(0.0..=1.0).contains(&winrate) {
            e.fail(&format!("INFO WINRATE {:?}", values[9]));
        }
        let Some(line) = parse_moves(&values[10]) else {
            e.fail(&format!("INFO BESTLINE {:?}", values[10]));
        };
        out.push(Block {
            pv: values[0].parse().unwrap_or(0),
            numpv: values[1].parse().unwrap_or(0),
            depth: values[2].parse().unwrap_or(0),
            eval,
            winrate,
            line,
        });
    }
    out
}

/// The board label Yixin-Board draws for the protocol point `x,y`: it puts the point on row
/// `x` from the top, column `y`; columns are lettered from A on the left, rows numbered from
/// `size` at the top.
fn label(p: Xy, size: i64) -> String {
    format!("{}{}", char::from(b'A' + p.1 as u8), size - p.0)
}

fn labels(line: &[Xy], size: i64) -> String {
    line.iter()
        .map(|&p| label(p, size))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The words after `pv` in a `MESSAGE` line.
fn pv_words(l: &str) -> String {
    l.split_once(" pv ")
        .map(|(_, pv)| pv.trim().to_string())
        .unwrap_or_default()
}

/// The score word after `ev` in a `MESSAGE` line, as the block writes it.
fn ev_as_eval(l: &str) -> String {
    let w: Vec<&str> = l.split_whitespace().collect();
    let Some(i) = w.iter().position(|t| *t == "ev") else {
        return String::new();
    };
    let s: i32 = w[i + 1].parse().unwrap_or(0);
    match (w.get(i + 2), w.get(i + 4)) {
        (Some(&"win"), Some(n)) => format!("+M{n}"),
        (Some(&"loss"), Some(n)) => format!("-M{n}"),
        _ => s.to_string(),
    }
}

/// An engine at `show_detail` `level` (none: the key not sent) with the middle-game position
/// (15x15, freestyle) and `timeout_turn` `ms`.
fn middle_game(level: Option<u32>, ms: u64) -> (Engine, Stones) {
    let mut e = Engine::spawn();
    if let Some(level) = level {
        e.send(&format!("INFO show_detail {level}"));
    }
    e.send("INFO rule 0");
    e.send(&format!("INFO timeout_turn {ms}"));
    e.expect_ok("START 15");
    e.send_all(&board_block("YXBOARD", &MIDDLE_OWN, &MIDDLE_OPP));
    let st = Stones::with(15, &[&MIDDLE_OWN[..], &MIDDLE_OPP[..]].concat());
    (e, st)
}

#[test]
fn the_analysis_block_follows_every_iteration_at_levels_2_and_3() {
    for level in [None, Some(0), Some(1), Some(2), Some(3)] {
        let (mut e, st) = middle_game(level, 400);
        e.send("YXNBEST 1");
        let lines = e.lines_to_reply(REPLY);
        let found = blocks(&e, &lines);
        let depth_lines: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("MESSAGE depth "))
            .collect();
        if !matches!(level, Some(2) | Some(3)) {
            if !found.is_empty() {
                e.fail(&format!("show_detail {level:?}: INFO lines {lines:?}"));
            }
            if level.is_none() {
                // Without the key (a match runner), the log keeps protocol coordinates.
                for l in &depth_lines {
                    if parse_moves(&pv_words(l)).is_none() {
                        e.fail(&format!("raw pv expected: {l}"));
                    }
                }
            }
            e.finish();
            continue;
        }
        // One block per detail line, right after it, telling the same iteration.
        if found.is_empty() || found.len() != depth_lines.len() {
            e.fail(&format!("show_detail {level:?}: {lines:?}"));
        }
        for (b, l) in found.iter().zip(&depth_lines) {
            let w: Vec<&str> = l.split_whitespace().collect();
            let multipv = w[3] == "multipv";
            let depth: i32 = w[2].parse().unwrap_or(-1);
            let ok = b.depth == depth
                && b.pv
                    == if multipv {
                        w[4].parse::<usize>().unwrap_or(0) - 1
                    } else {
                        0
                    }
                && b.eval == ev_as_eval(l)
                && pv_words(l) == labels(&b.line, 15)
                && !b.line.is_empty()
                && b.line
                    .iter()
                    .all(|p| st.on_board(*p) && !st.occupied.contains(p));
            if !ok {
                e.fail(&format!("block {b:?} against {l}"));
            }
            // The win rate is the score's: above one half exactly when the score is positive.
            if let Ok(s) = b.eval.parse::<i32>() {
                if (s > 0) != (b.winrate > 0.5) && s != 0 {
                    e.fail(&format!("WINRATE {} for EVAL {s}", b.winrate));
                }
            }
        }
        e.finish();
    }
}

#[test]
fn a_game_search_sends_one_block_per_iteration() {
    let (mut e, _) = middle_game(Some(3), 300);
    e.send("BEGIN");
    let lines = e.lines_to_reply(REPLY);
    let found = blocks(&e, &lines);
    let iterations = lines
        .iter()
        .filter(|l| l.starts_with("MESSAGE depth "))
        .count();
    if found.len() != iterations || found.iter().any(|b| b.pv != 0 || b.numpv != 1) {
        e.fail(&format!("{lines:?}"));
    }
    let depths: Vec<i32> = found.iter().map(|b| b.depth).collect();
    if depths.windows(2).any(|w| w[1] <= w[0]) {
        e.fail(&format!("depths {depths:?}"));
    }
    e.finish();
}

#[test]
fn nbest_reports_one_completed_line_per_candidate() {
    let (mut e, st) = middle_game(Some(2), 1200);
    e.send("YXNBEST 3");
    let lines = e.lines_to_reply(REPLY);
    let found = blocks(&e, &lines);
    if found.iter().any(|b| b.numpv != 3) || found.len() < 6 {
        e.fail(&format!("{lines:?}"));
    }
    // Each iteration's lines come in order, with three different first moves.
    let mut d = 0;
    let mut firsts: Vec<Xy> = Vec::new();
    for b in &found {
        if b.depth != d {
            d = b.depth;
            firsts.clear();
        }
        if b.pv != firsts.len() || firsts.contains(&b.line[0]) {
            e.fail(&format!("line {b:?} after {firsts:?}: {lines:?}"));
        }
        firsts.push(b.line[0]);
    }
    // The summary: each candidate's last completed line (its depth, score and line), best
    // first; the first is played.
    let summary: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("MESSAGE ("))
        .collect();
    if summary.len() != 3 {
        e.fail(&format!("summary {summary:?}"));
    }
    let mut scores = Vec::new();
    for s in &summary {
        let w: Vec<&str> = s.split_whitespace().collect();
        let Some(last) = found.iter().rev().find(|b| label(b.line[0], 15) == w[2]) else {
            e.fail(&format!("no block for {s}"));
        };
        let depth = w
            .iter()
            .position(|t| *t == "depth")
            .and_then(|i| w[i + 1].parse::<i32>().ok());
        if depth != Some(last.depth)
            || ev_as_eval(s) != last.eval
            || pv_words(s) != labels(&last.line, 15)
        {
            e.fail(&format!("summary {s} against its line {last:?}"));
        }
        scores.push(w[4].parse::<i32>().unwrap_or(0));
    }
    if scores.windows(2).any(|w| w[1] > w[0]) {
        e.fail(&format!("summary not best first: {summary:?}"));
    }
    let answer = parse_moves(lines.last().map_or("", |s| s.as_str()));
    let first = summary[0].split_whitespace().nth(2).unwrap_or_default();
    match answer.as_deref() {
        Some(&[p]) if label(p, 15) == first && !st.occupied.contains(&p) => {}
        _ => e.fail(&format!("answer {:?}, summary {summary:?}", lines.last())),
    }
    e.finish();
}

#[test]
fn defend_values_every_root_move() {
    let (mut e, st) = middle_game(Some(3), 1500);
    e.send("YXSEARCHDEFEND");
    let lines = e.lines_to_reply(REPLY);
    if lines
        .iter()
        .any(|l| l.starts_with("UNKNOWN") || l.starts_with("ERROR"))
    {
        e.fail(&format!("{lines:?}"));
    }
    let found = blocks(&e, &lines);
    let n = found.first().map_or(0, |b| b.numpv);
    if n < 20 || found.iter().any(|b| b.numpv != n) {
        e.fail(&format!("NUMPV {n}: {lines:?}"));
    }
    // The first iteration values every root move once: n different empty points.
    let first: Vec<&Block> = found.iter().filter(|b| b.depth == 1).collect();
    let mut moves: Vec<Xy> = first.iter().map(|b| b.line[0]).collect();
    moves.sort_unstable();
    moves.dedup();
    if first.len() != n
        || moves.len() != n
        || moves
            .iter()
            .any(|p| !st.on_board(*p) || st.occupied.contains(p))
    {
        e.fail(&format!("depth 1: {first:?}"));
    }
    if found.iter().map(|b| b.depth).max().unwrap_or(0) < 2 {
        e.fail("one iteration only");
    }
    // The summary values every move; the best is played.
    let summary = lines.iter().filter(|l| l.starts_with("MESSAGE (")).count();
    let answer = parse_moves(lines.last().map_or("", |s| s.as_str()));
    let best = lines
        .iter()
        .find(|l| l.starts_with("MESSAGE (1) "))
        .and_then(|l| l.split_whitespace().nth(2).map(str::to_string));
    match answer.as_deref() {
        Some(&[p]) if summary == n && best == Some(label(p, 15)) => {}
        _ => e.fail(&format!(
            "answer {:?}, {summary} summary lines",
            lines.last()
        )),
    }
    e.finish();
}

#[test]
fn defend_runs_until_stopped_with_unlimited_time() {
    // Yixin-Board's "Unlimited Time" level: timeout_turn 2000000, max_depth = cells.
    let (mut e, st) = middle_game(Some(3), 2_000_000);
    e.send("INFO max_depth 225");
    e.send("YXSEARCHDEFEND");
    e.assert_thinking_for(THINK);
    let start = Instant::now();
    e.send("YXSTOP");
    let lines = e.lines_to_reply(REPLY);
    let took = start.elapsed();
    if took > LATENCY {
        e.fail(&format!("stopped after {took:?}"));
    }
    let answer = parse_moves(lines.last().map_or("", |s| s.as_str()));
    match answer.as_deref() {
        Some(&[p]) if st.on_board(p) && !st.occupied.contains(&p) => {}
        _ => e.fail(&format!("answer {:?}", lines.last())),
    }
    e.finish();
}

#[test]
fn a_proven_win_is_shown_as_mate_plies() {
    // Black's open three on the diagonal (h8, g9, f10; freestyle, black to move): extending it
    // to an open four wins in 3 plies.
    let mut e = Engine::spawn();
    e.send("INFO show_detail 2");
    e.send("INFO rule 0");
    e.send("INFO timeout_turn 500");
    e.expect_ok("START 15");
    e.send_all(&[
        "YXBOARD".to_string(),
        "7,7,1".into(),
        "8,8,2".into(),
        "6,8,1".into(),
        "9,9,2".into(),
        "5,9,1".into(),
        "DONE".into(),
    ]);
    e.send("YXSEARCHDEFEND");
    let lines = e.lines_to_reply(Duration::from_secs(10));
    let found = blocks(&e, &lines);
    let last_depth = found.iter().map(|b| b.depth).max().unwrap_or(0);
    let best = found
        .iter()
        .find(|b| b.depth == last_depth && b.pv == 0)
        .cloned();
    match best {
        Some(b) if b.eval == "+M3" && b.winrate == 1.0 => {}
        _ => e.fail(&format!("best line {best:?}: {lines:?}")),
    }
    e.finish();
}
