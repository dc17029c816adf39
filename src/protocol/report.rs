//! Output: whole flushed lines to the manager, and the `MESSAGE` lines a search reports.
//!
//! May import `types`, `eval` (mate scores) and `search` (for the [`Reporter`] it implements).

use crate::eval::{is_mate, win_rate, WIN};
use crate::search::{Iteration, LineReport, Reporter, RootLine, RootState, RootWatch};
use crate::types::{Pos, Rule};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Writes whole lines and flushes each. Clones share the writer, a line at a time (the live
/// display writes from its own thread while the search runs).
#[derive(Clone)]
pub struct Out {
    w: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Out {
    /// Output to `w`.
    #[must_use]
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out {
            w: Arc::new(Mutex::new(w)),
        }
    }

    /// Write one line and flush it.
    pub fn line(&mut self, s: &str) {
        // A broken pipe means the manager is gone: nothing useful to do.
        if let Ok(mut w) = self.w.lock() {
            let _ = writeln!(w, "{s}");
            let _ = w.flush();
        }
    }
}

/// How often the live display looks at the search's root progress.
pub const LIVE_EVERY: Duration = Duration::from_millis(40);

/// Yixin-Board's live display of a search (`show_detail` bit 0), on its own thread: every
/// [`LIVE_EVERY`] the root progress of `watch` as `MESSAGE REALTIME` lines — `REFRESH` when a
/// new iteration starts, `POS x,y` for each root move whose search started since, `DONE x,y`
/// for each one searched since, `LOSE x,y` for each one proven lost — until `done` is set
/// (then unpark the thread), then once more for the final state. The GUI marks a `DONE` only
/// on a cell that had a `POS`, so every move searched gets its `POS` first, also one that
/// started and ended between two looks; the period is the rate limit (at most two lines per
/// root move and look).
pub fn live_display(
    mut out: Out,
    watch: Arc<RootWatch>,
    done: Arc<AtomicBool>,
    size: usize,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut shown = RootState::default();
        loop {
            let last = done.load(Ordering::Relaxed);
            let now = watch.snapshot();
            for line in live_lines(&shown, &now, size) {
                out.line(&line);
            }
            shown = now;
            if last {
                return;
            }
            // Woken at once when the search ends (the move must not wait for the display).
            std::thread::park_timeout(LIVE_EVERY);
        }
    })
}

/// The `MESSAGE REALTIME` lines that take a display from state `shown` to `now`.
#[must_use]
pub fn live_lines(shown: &RootState, now: &RootState, size: usize) -> Vec<String> {
    let xy = |p: &Pos| p.to_gomocup(size);
    let mut lines = Vec::new();
    let same_iteration = now.iteration == shown.iteration;
    if !same_iteration {
        lines.push("MESSAGE REALTIME REFRESH".to_string());
    }
    for p in &now.started {
        if !same_iteration || !shown.started.contains(p) {
            lines.push(format!("MESSAGE REALTIME POS {}", xy(p)));
        }
    }
    for p in &now.done {
        if !same_iteration || !shown.done.contains(p) {
            lines.push(format!("MESSAGE REALTIME DONE {}", xy(p)));
        }
    }
    for p in &now.lost {
        if !shown.lost.contains(p) {
            lines.push(format!("MESSAGE REALTIME LOSE {}", xy(p)));
        }
    }
    lines
}

/// Reports each completed iteration as `show_detail` asks: at every level but 0 a detail line
/// for the GUI's log pane (depth, score with the mate distance of a proven result, nodes,
/// speed, time, PV), and with bit 0 also `MESSAGE REALTIME BEST` when the best move changes
/// and `MESSAGE REALTIME VAL` / `MESSAGE REALTIME PV` (the iteration's score and line). A
/// multi-PV search reports each completed line instead (`MESSAGE depth d multipv i ...`).
/// With [`Display::analysis`] every completed line (an iteration of a game search is line 1 of
/// 1) is also sent as the `INFO` analysis block ([`info_block`]).
pub struct MessageReporter<'a> {
    out: &'a mut Out,
    detail: u32,
    last_best: Option<Pos>,
    show: Display,
}

/// How a search's lines are shown: board side, rule (for the win rate), whether the `INFO`
/// analysis block is sent and whether moves are written as board labels.
#[derive(Clone, Copy, Debug)]
pub struct Display {
    /// Board side.
    pub size: usize,
    /// The rule (its calibrated scale gives the win rate).
    pub rule: Rule,
    /// Send the `INFO` analysis block.
    pub analysis: bool,
    /// Write the moves of `MESSAGE` lines as board labels ([`label`]).
    pub labels: bool,
}

impl Display {
    /// A line of moves as the `MESSAGE` lines write it.
    #[must_use]
    pub fn moves(&self, line: &[Pos]) -> String {
        if self.labels {
            line.iter()
                .map(|&p| label(p, self.size))
                .collect::<Vec<_>>()
                .join(" ")
        } else {
            line_text(line, self.size)
        }
    }

    /// One move as the `MESSAGE` lines write it.
    #[must_use]
    pub fn mv(&self, p: Pos) -> String {
        self.moves(&[p])
    }
}

impl<'a> MessageReporter<'a> {
    /// A reporter at `show_detail` level `detail`, shown as `show` says.
    pub fn new(out: &'a mut Out, detail: u32, show: Display) -> MessageReporter<'a> {
        MessageReporter {
            out,
            detail,
            last_best: None,
            show,
        }
    }
}

impl Reporter for MessageReporter<'_> {
    fn iteration(&mut self, it: &Iteration) {
        if self.detail == 0 {
            return;
        }
        let ms = it.elapsed.as_millis().max(1);
        self.out.line(&format!(
            "MESSAGE depth {} ev {}{} n {} n/s {} tm {} pv {}",
            it.depth,
            it.score,
            mate_note(it.score),
            it.nodes,
            u128::from(it.nodes) * 1000 / ms,
            it.elapsed.as_millis(),
            self.show.moves(&it.pv),
        ));
        if self.show.analysis {
            let line = RootLine {
                depth: it.depth,
                score: it.score,
                pv: it.pv.clone(),
                nodes: it.nodes,
            };
            for l in info_block(0, 1, &line, it.nodes, it.elapsed, self.show) {
                self.out.line(&l);
            }
        }
        if self.detail & 1 != 0 {
            if let Some(&b) = it.pv.first() {
                if self.last_best != Some(b) {
                    self.out.line(&format!(
                        "MESSAGE REALTIME BEST {}",
                        b.to_gomocup(self.show.size)
                    ));
                    self.last_best = Some(b);
                }
                // The value and line of the iteration, for the GUI's live display.
                self.out.line(&format!("MESSAGE REALTIME VAL {}", it.score));
                self.out.line(&format!(
                    "MESSAGE REALTIME PV {}",
                    line_text(&it.pv, self.show.size)
                ));
            }
        }
    }

    fn line(&mut self, r: &LineReport) {
        if self.detail == 0 {
            return;
        }
        let ms = r.elapsed.as_millis().max(1);
        self.out.line(&format!(
            "MESSAGE depth {} multipv {} ev {}{} n {} n/s {} tm {} pv {}",
            r.line.depth,
            r.index + 1,
            r.line.score,
            mate_note(r.line.score),
            r.total_nodes,
            u128::from(r.total_nodes) * 1000 / ms,
            r.elapsed.as_millis(),
            self.show.moves(&r.line.pv),
        ));
        if self.show.analysis {
            for l in info_block(
                r.index,
                r.count,
                &r.line,
                r.total_nodes,
                r.elapsed,
                self.show,
            ) {
                self.out.line(&l);
            }
        }
        if self.detail & 1 != 0 && r.index == 0 {
            if let Some(&b) = r.line.pv.first() {
                if self.last_best != Some(b) {
                    self.out.line(&format!(
                        "MESSAGE REALTIME BEST {}",
                        b.to_gomocup(self.show.size)
                    ));
                    self.last_best = Some(b);
                }
            }
        }
    }
}

/// Yixin-Board's analysis block for line `index` (0-based) of `count`: `INFO PV index`,
/// `NUMPV`, `DEPTH`, `SELDEPTH` (the longer of the depth and the line), `NODES` (the line's
/// own), `TOTALNODES` (`total` so far), `TOTALTIME` (ms), `SPEED` (nodes per second), `EVAL`
/// (the score for the side to move; a proven result as `+Mn`/`-Mn`, `n` plies), `WINRATE` (the
/// score's win probability on the rule's calibrated scale, [`crate::eval::win_rate`]),
/// `BESTLINE` (protocol coordinates) and `INFO PV DONE`, which puts the value on the line's
/// first move on the board. Nothing for a line without a move (an iteration in which every
/// root move failed low): the GUI would put the value on the cell of the block before.
#[must_use]
pub fn info_block(
    index: usize,
    count: usize,
    line: &RootLine,
    total: u64,
    elapsed: Duration,
    show: Display,
) -> Vec<String> {
    if line.pv.is_empty() {
        return Vec::new();
    }
    let ms = elapsed.as_millis();
    let speed = u128::from(total) * 1000 / ms.max(1);
    vec![
        format!("INFO PV {index}"),
        format!("INFO NUMPV {count}"),
        format!("INFO DEPTH {}", line.depth),
        format!(
            "INFO SELDEPTH {}",
            (line.depth.max(0) as usize).max(line.pv.len())
        ),
        format!("INFO NODES {}", line.nodes),
        format!("INFO TOTALNODES {total}"),
        format!("INFO TOTALTIME {ms}"),
        format!("INFO SPEED {speed}"),
        format!("INFO EVAL {}", eval_text(line.score)),
        format!("INFO WINRATE {:.4}", win_rate(line.score, show.rule)),
        format!("INFO BESTLINE {}", line_text(&line.pv, show.size)),
        "INFO PV DONE".to_string(),
    ]
}

/// A score as the analysis block's `EVAL`: the number, or `+Mn`/`-Mn` for a win or loss proven
/// in `n` plies.
#[must_use]
pub fn eval_text(score: i32) -> String {
    if !is_mate(score) {
        score.to_string()
    } else if score > 0 {
        format!("+M{}", WIN - score)
    } else {
        format!("-M{}", WIN + score)
    }
}

/// The board label of `p` as Yixin-Board draws it on a board of side `size`: the GUI puts the
/// protocol point `x,y` on row `x` from the top and column `y`, lettering the columns `A`,
/// `B`, ... from the left and numbering the rows from `size` at the top to 1 at the bottom, so
/// `x,y` is the letter of `y` and the number `size - x` (the centre `7,7` of 15 is `H8`, the
/// corner `0,0` is `A15`).
#[must_use]
pub fn label(p: Pos, size: usize) -> String {
    if p.is_pass() {
        return "pass".to_string();
    }
    let letter = char::from(b'A' + p.y(size) as u8);
    format!("{letter}{}", size - p.x(size))
}

/// A line of moves as `x,y x,y ...` on a board of side `size`.
#[must_use]
pub fn line_text(line: &[Pos], size: usize) -> String {
    line.iter()
        .map(|p| p.to_gomocup(size))
        .collect::<Vec<_>>()
        .join(" ")
}

/// ` win in N` / ` loss in N` (plies, this move counted) for a proven score, else nothing.
#[must_use]
pub fn mate_note(score: i32) -> String {
    if !is_mate(score) {
        String::new()
    } else if score > 0 {
        format!(" win in {}", WIN - score)
    } else {
        format!(" loss in {}", WIN + score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_lines_show_what_changed() {
        let p = |x: usize, y: usize| Pos::new(x, y, 15);
        let start = RootState::default();
        // 1,1 and 2,2 started and ended between two looks, 3,3 is being searched.
        let a = RootState {
            iteration: 1,
            current: Some(p(3, 3)),
            started: vec![p(1, 1), p(2, 2), p(3, 3)],
            done: vec![p(1, 1), p(2, 2)],
            lost: vec![p(2, 2)],
        };
        assert_eq!(
            live_lines(&start, &a, 15),
            [
                "MESSAGE REALTIME REFRESH",
                "MESSAGE REALTIME POS 1,1",
                "MESSAGE REALTIME POS 2,2",
                "MESSAGE REALTIME POS 3,3",
                "MESSAGE REALTIME DONE 1,1",
                "MESSAGE REALTIME DONE 2,2",
                "MESSAGE REALTIME LOSE 2,2",
            ]
        );
        assert!(
            live_lines(&a, &a, 15).is_empty(),
            "nothing new, nothing printed"
        );
        let b = RootState {
            current: Some(p(4, 4)),
            started: vec![p(1, 1), p(2, 2), p(3, 3), p(4, 4)],
            done: vec![p(1, 1), p(2, 2), p(3, 3)],
            ..a.clone()
        };
        assert_eq!(
            live_lines(&a, &b, 15),
            ["MESSAGE REALTIME POS 4,4", "MESSAGE REALTIME DONE 3,3"]
        );
        let c = RootState {
            iteration: 2,
            current: Some(p(1, 1)),
            started: vec![p(1, 1)],
            done: Vec::new(),
            lost: vec![p(2, 2)],
        };
        assert_eq!(
            live_lines(&b, &c, 15),
            ["MESSAGE REALTIME REFRESH", "MESSAGE REALTIME POS 1,1"]
        );
    }

    /// Every `DONE` of a sequence of looks follows a `POS` of the same move since the last
    /// `REFRESH`: the GUI draws a `DONE` mark only on a cell with a `POS` mark.
    #[test]
    fn every_done_follows_its_pos() {
        let w = RootWatch::default();
        let mut shown = RootState::default();
        let mut all = Vec::new();
        let moves: Vec<Pos> = (0..30).map(|i| Pos::new(i % 15, i / 15, 15)).collect();
        for it in 0..3 {
            w.start_iteration();
            for (k, &m) in moves.iter().enumerate() {
                w.searching(m);
                w.searched(m, k % 7 == 3);
                // A look every few moves, as a slow display thread sees them.
                if (k + it) % 4 == 0 {
                    let now = w.snapshot();
                    all.extend(live_lines(&shown, &now, 15));
                    shown = now;
                }
            }
        }
        all.extend(live_lines(&shown, &w.snapshot(), 15));
        let mut marked: Vec<&str> = Vec::new();
        let mut done = 0;
        for l in &all {
            if l == "MESSAGE REALTIME REFRESH" {
                marked.clear();
                done = 0;
            } else if let Some(m) = l.strip_prefix("MESSAGE REALTIME POS ") {
                marked.push(m);
            } else if let Some(m) = l.strip_prefix("MESSAGE REALTIME DONE ") {
                assert!(marked.contains(&m), "DONE {m} without its POS in {all:?}");
                done += 1;
            }
        }
        // The last iteration (the earlier ones are cleared by the next `REFRESH`) shows every
        // move it searched.
        assert_eq!(done, moves.len(), "{all:?}");
    }

    #[test]
    fn the_block_tells_one_line_in_the_guis_order() {
        let p = |x: usize, y: usize| Pos::new(x, y, 15);
        let show = Display {
            size: 15,
            rule: Rule::Renju,
            analysis: true,
            labels: true,
        };
        let line = RootLine {
            depth: 7,
            score: WIN - 5,
            pv: vec![p(7, 7), p(8, 8)],
            nodes: 40,
        };
        let b = info_block(2, 3, &line, 1000, Duration::from_millis(500), show);
        assert_eq!(
            b,
            [
                "INFO PV 2",
                "INFO NUMPV 3",
                "INFO DEPTH 7",
                "INFO SELDEPTH 7",
                "INFO NODES 40",
                "INFO TOTALNODES 1000",
                "INFO TOTALTIME 500",
                "INFO SPEED 2000",
                "INFO EVAL +M5",
                "INFO WINRATE 1.0000",
                "INFO BESTLINE 7,7 8,8",
                "INFO PV DONE",
            ]
        );
        let lost = RootLine {
            score: -(WIN - 4),
            ..line.clone()
        };
        let b = info_block(0, 1, &lost, 1, Duration::ZERO, show);
        assert_eq!(
            (b[8].as_str(), b[9].as_str()),
            ("INFO EVAL -M4", "INFO WINRATE 0.0000")
        );
        let even = RootLine {
            score: 0,
            ..line.clone()
        };
        assert_eq!(
            info_block(0, 1, &even, 1, Duration::ZERO, show)[9],
            "INFO WINRATE 0.5000"
        );
        let none = RootLine {
            pv: Vec::new(),
            ..line
        };
        assert!(info_block(0, 1, &none, 1, Duration::ZERO, show).is_empty());
    }

    #[test]
    fn labels_are_the_guis() {
        let p = |x: usize, y: usize| Pos::new(x, y, 15);
        assert_eq!(label(p(7, 7), 15), "H8");
        assert_eq!(label(p(0, 0), 15), "A15");
        assert_eq!(label(p(14, 0), 15), "A1");
        assert_eq!(label(p(0, 14), 15), "O15");
        assert_eq!(label(Pos::new(19, 19, 20), 20), "T1");
    }

    #[test]
    fn mate_notes_count_plies_from_the_score() {
        assert_eq!(mate_note(0), "");
        assert_eq!(mate_note(500), "");
        assert_eq!(mate_note(WIN - 5), " win in 5");
        assert_eq!(mate_note(-(WIN - 4)), " loss in 4");
    }
}
