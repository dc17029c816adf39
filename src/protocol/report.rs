//! Output: whole flushed lines to the manager, and the `MESSAGE` lines a search reports.
//!
//! May import `types`, `eval` (mate scores) and `search` (for the [`Reporter`] it implements).

use crate::eval::{is_mate, WIN};
use crate::search::{Iteration, Reporter};
use crate::types::Pos;
use std::io::Write;

/// Writes whole lines and flushes each.
pub struct Out {
    w: Box<dyn Write + Send>,
}

impl Out {
    /// Output to `w`.
    #[must_use]
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out { w }
    }

    /// Write one line and flush it.
    pub fn line(&mut self, s: &str) {
        // A broken pipe means the manager is gone: nothing useful to do.
        let _ = writeln!(self.w, "{s}");
        let _ = self.w.flush();
    }
}

/// Reports each completed iteration as `show_detail` asks: at every level but 0 a detail line
/// for the GUI's log pane (depth, score with the mate distance of a proven result, nodes,
/// speed, time, PV), and with bit 0 also `MESSAGE REALTIME BEST` when the best move changes.
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
        let xy = |p: &Pos| p.to_gomocup(self.size);
        if self.detail != 0 {
            let ms = it.elapsed.as_millis().max(1);
            let pv: Vec<String> = it.pv.iter().map(xy).collect();
            self.out.line(&format!(
                "MESSAGE depth {} ev {}{} n {} n/s {} tm {} pv {}",
                it.depth,
                it.score,
                mate_note(it.score),
                it.nodes,
                u128::from(it.nodes) * 1000 / ms,
                it.elapsed.as_millis(),
                pv.join(" ")
            ));
        }
        if self.detail & 1 != 0 {
            if let Some(&b) = it.pv.first() {
                if self.last_best != Some(b) {
                    self.out.line(&format!("MESSAGE REALTIME BEST {}", xy(&b)));
                    self.last_best = Some(b);
                }
            }
        }
    }
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
    fn mate_notes_count_plies_from_the_score() {
        assert_eq!(mate_note(0), "");
        assert_eq!(mate_note(500), "");
        assert_eq!(mate_note(WIN - 5), " win in 5");
        assert_eq!(mate_note(-(WIN - 4)), " loss in 4");
    }
}
