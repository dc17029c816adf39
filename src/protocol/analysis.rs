//! Answers beyond a game move: forbidden points (`YXSHOWFORBID`), the n best moves
//! (`YXNBEST`), balanced moves (`YXBALANCEONE`/`TWO`), and the engine side of the opening steps
//! (`SWAP2BOARD` and the step commands, decided in `steps.rs`).
//!
//! May import what `engine.rs` may; every handler here answers `ERROR` without a game.

use super::engine::Engine;
use super::report::mate_note;

use super::steps::{self, StepRequest};
use crate::board::Board;
use crate::eval::is_mate;
use crate::opening::{board_of, Decider};
use crate::rules::renju;
use crate::search::{Limits, RootLine, Searcher, Silent};
use crate::types::{Color, Pos, Rule};
use std::time::Instant;

impl Engine {
    /// `YXSHOWFORBID`: black's forbidden points when black is to move in renju (none before
    /// `START`: a GUI may ask before its first game).
    pub(super) fn show_forbid(&mut self) {
        let mut s = String::from("FORBID ");
        if let Some(g) = self.started_game() {
            let b = g.board_mut();
            if b.rule() == Rule::Renju && b.side_to_move() == Color::Black {
                for (p, _) in renju::all_fouls(b) {
                    s.push_str(&format!("{:02}{:02}", p.x(b.size()), p.y(b.size())));
                }
            }
        }
        s.push('.');
        self.out.line(&s);
    }

    /// `YXNBEST n`: a multi-PV search of the `n` best moves within the turn's time, each line
    /// reported as it completes (and as the `INFO` analysis block at `show_detail` 2 and 3),
    /// then a summary `MESSAGE (k) move ev score depth d pv ...` of each move's last completed
    /// line, best first; the first is played.
    pub(super) fn nbest(&mut self, n: i64, received: Instant) {
        self.analyse(n.clamp(1, 32) as usize, received);
    }

    /// `YXSEARCHDEFEND`: Yixin-Board's Defend, a multi-PV search of every root move (each gets
    /// its value on the board), answered as `YXNBEST` is.
    pub(super) fn search_defend(&mut self, received: Instant) {
        self.analyse(usize::MAX, received);
    }

    /// A multi-PV search of `lines` lines, its summary, and the best move played and answered.
    fn analyse(&mut self, lines: usize, received: Instant) {
        let Some(g) = self.game() else {
            return;
        };
        let excluded = g.excluded();
        let r = self.search(received, excluded.clone(), lines);
        let Some(g) = self.game.as_mut() else {
            return;
        };
        let size = g.size();
        let mut best = Pos::PASS;
        if let Some(r) = &r {
            let show = super::report::Display {
                size,
                rule: g.board().rule(),
                analysis: false,
                labels: self.settings().board_labels(),
            };
            // A one-line search is a game search: its result is the one line.
            let one = [RootLine {
                depth: r.depth,
                score: r.score,
                pv: if r.pv.is_empty() {
                    vec![r.best]
                } else {
                    r.pv.clone()
                },
                nodes: r.nodes,
            }];
            let lines = if r.lines.is_empty() && !r.best.is_pass() {
                &one[..]
            } else {
                &r.lines[..]
            };
            let summary: Vec<String> = lines
                .iter()
                .enumerate()
                .map(|(k, l)| {
                    format!(
                        "MESSAGE ({}) {} ev {}{} depth {} pv {}",
                        k + 1,
                        show.mv(l.pv[0]),
                        l.score,
                        mate_note(l.score),
                        l.depth,
                        show.moves(&l.pv)
                    )
                })
                .collect();
            if self.settings().show_detail != 0 {
                for line in summary {
                    self.out.line(&line);
                }
            }
            best = r.best;
        }
        let Some(g) = self.game.as_mut() else {
            return;
        };
        match g.legal_or_fallback(best, &excluded) {
            Some(p) => {
                g.play(p);
                self.out.line(&p.to_gomocup(g.size()));
            }
            None => self.out.line("ERROR the board is full"),
        }
    }

    /// `YXBALANCEONE`/`YXBALANCETWO`: moves after which the evaluation for the side that made
    /// the first of them is closest to `bias`. The game is left unchanged.
    pub(super) fn balance(&mut self, bias: i64, two: bool, received: Instant) {
        let deadline = self.settings().answer_budget(received);
        let Some(g) = self.game() else {
            return;
        };
        let mut b = g.board().clone();
        let me = b.side_to_move();
        let first: Vec<Pos> = top_moves(&mut b, 10);
        let mut best: Option<(i64, Vec<Pos>)> = None;
        let mut searcher = Searcher::new(16, 1);
        for &m in &first {
            if received.elapsed() >= deadline / 2 && best.is_some() {
                break;
            }
            b.play_unchecked(m);
            let seconds: Vec<Pos> = if two {
                top_moves(&mut b, 6)
            } else {
                vec![Pos::PASS]
            };
            for &m2 in &seconds {
                if !m2.is_pass() {
                    b.play_unchecked(m2);
                }
                let mut lim = Limits::depth(4);
                lim.hard_time = Some(deadline / (first.len() as u32 * seconds.len() as u32).max(1));
                let r = searcher.search(&b, lim, &mut Silent);
                // Score for `me`.
                let v = if b.side_to_move() == me {
                    r.score
                } else {
                    -r.score
                };
                let v = if is_mate(v) { v.signum() * 20_000 } else { v };
                let d = (i64::from(v) - bias).abs();
                let line = if m2.is_pass() { vec![m] } else { vec![m, m2] };
                if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                    best = Some((d, line));
                }
                if !m2.is_pass() {
                    b.undo();
                }
            }
            b.undo();
        }
        let size = b.size();
        match best {
            Some((_, line)) => {
                let s: Vec<String> = line.iter().map(|p| p.to_gomocup(size)).collect();
                self.out.line(&s.join(" "));
            }
            None => self.out.line("ERROR no move available"),
        }
    }

    /// An opening-rule step (see `steps`): reply lines, or `ERROR` with the game unchanged.
    pub(super) fn step(
        &mut self,
        name: &str,
        n: Option<i64>,
        lines: &[String],
        offers: Option<&str>,
        received: Instant,
    ) {
        let settings = self.settings();
        let Some(g) = self.game() else {
            return;
        };
        let size = g.size();
        // The Yixin swap2 steps 2 and 3 act on the position of the last `yxboard`.
        let stones = if matches!(name, "YXSWAP2STEP2" | "YXSWAP2STEP3") {
            Ok(g.stones())
        } else {
            steps::parse_stones(lines, size)
        };
        let offers = offers.map_or(Ok(Vec::new()), |l| steps::parse_offers(l, size));
        let result = stones.and_then(|stones| {
            steps::execute_noted(&StepRequest {
                name,
                n,
                stones,
                offers: offers?,
                rule: settings.rule,
                size,
                budget: settings.answer_budget(received),
            })
        });
        match result {
            Ok((notes, lines)) => {
                if settings.show_detail != 0 {
                    for n in notes {
                        self.out.line(&format!("MESSAGE {n}"));
                    }
                }
                for l in lines {
                    self.out.line(&l);
                }
            }
            Err(e) => self.out.line(&format!("ERROR {e}")),
        }
    }

    /// `SWAP2BOARD`: empty board → three opening stones; three stones → swap, the fourth, or the
    /// fourth and fifth; five stones → swap or the sixth. Decisions by search.
    pub(super) fn swap2(&mut self, lines: &[String], received: Instant) {
        let settings = self.settings();
        let Some(g) = self.game() else {
            return;
        };
        let size = g.size();
        let rule = settings.rule;
        // The stones as the opening steps read theirs: the first bad line, an occupied or
        // off-board point, a foul or a finished game is an error that says so.
        let b = match steps::parse_stones(lines, size).and_then(|v| board_of(rule, size, &v)) {
            Ok(b) => b,
            Err(e) => {
                self.out.line(&format!("ERROR SWAP2BOARD: {e}"));
                return;
            }
        };
        let budget = settings.answer_budget(received);
        let mut d = Decider::timed(budget.mul_f64(0.8));
        let xy = |p: Pos| p.to_gomocup(size);
        let answer = match lines.len() {
            0 => {
                let s = d.propose_three(rule, size);
                format!("{} {} {}", xy(s[0]), xy(s[1]), xy(s[2]))
            }
            3 => match d.swap2_after_three(&b) {
                None => "SWAP".to_string(),
                Some(v) => v.iter().map(|&p| xy(p)).collect::<Vec<_>>().join(" "),
            },
            5 => {
                // One search decides both: swap when worse off, else its move.
                let (v, m) = d.value_and_move(&b);
                let swap = v < 0;
                d.note("swap2", &b, v, if swap { "swap" } else { "stay and play" });
                if swap {
                    "SWAP".to_string()
                } else {
                    xy(m)
                }
            }
            n => format!("ERROR SWAP2BOARD expects 0, 3 or 5 stones, got {n}"),
        };
        if settings.show_detail != 0 {
            for n in &d.notes {
                self.out.line(&format!("MESSAGE {n}"));
            }
        }
        self.out.line(&answer);
    }
}

/// The `n` best legal moves by ordering score, or the centre on a board without candidates.
fn top_moves(b: &mut Board, n: usize) -> Vec<Pos> {
    let mut out = Decider::candidates(b, n);
    if out.is_empty() {
        let sz = b.size();
        let centre = Pos::new(sz / 2, sz / 2, sz);
        if b.is_empty(centre) {
            out.push(centre);
        }
    }
    out
}
