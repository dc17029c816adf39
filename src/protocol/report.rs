//! Output: whole flushed lines to the manager, and the `MESSAGE` lines a search reports.
//!
//! May import `types`, `eval` (mate scores) and `search` (for the [`Reporter`] it implements).

use crate::eval::{is_mate, WIN};
use crate::search::{Iteration, Reporter, RootState, RootWatch};
use crate::types::Pos;
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
/// new iteration starts, `DONE x,y` for each root move searched since, `LOSE x,y` for each
/// one proven lost, `POS x,y` for the one being searched — until `done` is set (then unpark
/// the thread), then once more for the final state.
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
    if let Some(p) = now.current {
        if !same_iteration || shown.current != Some(p) {
            lines.push(format!("MESSAGE REALTIME POS {}", xy(&p)));
        }
    }
    lines
}

/// Reports each completed iteration as `show_detail` asks: at every level but 0 a detail line
/// for the GUI's log pane (depth, score with the mate distance of a proven result, nodes,
/// speed, time, PV), and with bit 0 also `MESSAGE REALTIME BEST` when the best move changes
/// and `MESSAGE REALTIME VAL` / `MESSAGE REALTIME PV` (the iteration's score and line).
pub struct MessageReporter<'a> {
    out: &'a mut Out,
    detail: u32,
    last_best: Option<Pos>,
    size: usize,
}

impl<'a> MessageReporter<'a> {
    /// A reporter for a search on a board of side `size`.
    pub fn new(out: &'a mut Out, detail: u32, size: usize) -> MessageReporter<'a> {
        MessageReporter {
            out,
            detail,
            last_best: None,
            size,
        }
    }
}

impl Reporter for MessageReporter<'_> {
    fn iteration(&mut self, it: &Iteration) {
        if self.detail == 0 {
            return;
        }
        let pv = line_text(&it.pv, self.size);
        let ms = it.elapsed.as_millis().max(1);
        self.out.line(&format!(
            "MESSAGE depth {} ev {}{} n {} n/s {} tm {} pv {pv}",
            it.depth,
            it.score,
            mate_note(it.score),
            it.nodes,
            u128::from(it.nodes) * 1000 / ms,
            it.elapsed.as_millis(),
        ));
        if self.detail & 1 != 0 {
            if let Some(&b) = it.pv.first() {
                if self.last_best != Some(b) {
                    self.out.line(&format!(
                        "MESSAGE REALTIME BEST {}",
                        b.to_gomocup(self.size)
                    ));
                    self.last_best = Some(b);
                }
                // The value and line of the iteration, for the GUI's live display.
                self.out.line(&format!("MESSAGE REALTIME VAL {}", it.score));
                self.out.line(&format!("MESSAGE REALTIME PV {pv}"));
            }
        }
    }
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
        let a = RootState {
            iteration: 1,
            current: Some(p(3, 3)),
            done: vec![p(1, 1), p(2, 2)],
            lost: vec![p(2, 2)],
        };
        assert_eq!(
            live_lines(&start, &a, 15),
            [
                "MESSAGE REALTIME REFRESH",
                "MESSAGE REALTIME DONE 1,1",
                "MESSAGE REALTIME DONE 2,2",
                "MESSAGE REALTIME LOSE 2,2",
                "MESSAGE REALTIME POS 3,3",
            ]
        );
        assert!(
            live_lines(&a, &a, 15).is_empty(),
            "nothing new, nothing printed"
        );
        let b = RootState {
            current: None,
            done: vec![p(1, 1), p(2, 2), p(3, 3)],
            ..a.clone()
        };
        assert_eq!(live_lines(&a, &b, 15), ["MESSAGE REALTIME DONE 3,3"]);
        let c = RootState {
            iteration: 2,
            current: Some(p(1, 1)),
            done: Vec::new(),
            lost: vec![p(2, 2)],
        };
        assert_eq!(
            live_lines(&b, &c, 15),
            ["MESSAGE REALTIME REFRESH", "MESSAGE REALTIME POS 1,1"]
        );
    }

    #[test]
    fn mate_notes_count_plies_from_the_score() {
        assert_eq!(mate_note(0), "");
        assert_eq!(mate_note(500), "");
        assert_eq!(mate_note(WIN - 5), " win in 5");
        assert_eq!(mate_note(-(WIN - 4)), " loss in 4");
    }
}
