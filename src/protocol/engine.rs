//! The engine: executes queued commands in order — the game's lifecycle (`START` … `TAKEBACK`),
//! its moves, and the search behind every answer that needs one.
//!
//! May import everything below `protocol` and the protocol's own rooms: `command` (parsed
//! commands), `settings` and `clock` (what `INFO` set, and the limits it gives), `session` (the
//! game), `report` (output). The analysis answers and opening steps are in `analysis.rs`.

use super::command::Command;
use super::input::Queued;
use super::report::{live_display, Display, MessageReporter, Out};
use super::session::Game;
use super::settings::Settings;
use super::Shared;
use crate::rules;
use crate::search::{Limits, RootWatch, SearchResult, Searcher, Silent};
use crate::types::Pos;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::time::Instant;

/// The answer to a command that needs a game when none was started.
pub(super) const NO_GAME: &str = "ERROR no game started (send START first)";

/// The protocol engine's state.
pub struct Engine {
    pub(super) shared: Arc<Shared>,
    pub(super) out: Out,
    pub(super) game: Option<Game>,
    pub(super) searcher: Searcher,
    /// The line of the move just played, for pondering on its expected reply.
    ponder_line: Option<Vec<Pos>>,
    /// The thread count last told the manager (`MESSAGE threads N`; 0: none yet).
    told_threads: usize,
}

impl Engine {
    /// A fresh engine writing to `out`.
    #[must_use]
    pub fn new(shared: Arc<Shared>, out: Box<dyn Write + Send>) -> Engine {
        Engine {
            shared,
            out: Out::new(out),
            game: None,
            searcher: Searcher::new(1, 1),
            ponder_line: None,
            told_threads: 0,
        }
    }

    /// Whether `END` was read.
    #[must_use]
    pub fn ending(&self) -> bool {
        self.shared.ending.load(Ordering::Relaxed)
    }

    /// The settings as `INFO` left them.
    pub(super) fn settings(&self) -> Settings {
        self.shared
            .settings
            .lock()
            .map(|s| s.clone())
            .unwrap_or_default()
    }

    /// The game under the current rule, or `None` after answering [`NO_GAME`].
    pub(super) fn game(&mut self) -> Option<&mut Game> {
        if self.game.is_none() {
            self.out.line(NO_GAME);
        }
        self.started_game()
    }

    /// The game under the current rule (rebuilt if an `INFO rule` changed it), if one was
    /// started; nothing is answered.
    pub(super) fn started_game(&mut self) -> Option<&mut Game> {
        let rule = self.settings().rule;
        let g = self.game.as_mut()?;
        g.follow_rule(rule);
        Some(g)
    }

    /// Execute one command.
    pub fn execute(&mut self, cmd: Command, received: Instant) {
        // Pondering resumes after a command that leaves the game and the search alone (a GUI
        // asks for the forbidden points and the database right after each move); any other
        // command ends it.
        if !matches!(
            cmd,
            Command::ShowForbid
                | Command::ShowInfo
                | Command::About
                | Command::Database(_)
                | Command::Unknown(_)
        ) {
            self.ponder_line = None;
        }
        match cmd {
            Command::Start(v) => self.start(&v),
            Command::RectStart(w, h) => self.start(&[w, h]),
            Command::Restart => self.restart(),
            Command::Begin => {
                if self.game().is_some() {
                    self.think_and_play(received);
                }
            }
            Command::Turn(x, y) => self.turn(x, y, received),
            Command::Board(lines) => self.set_position(&lines, true, received),
            Command::YxBoard(lines) => self.set_position(&lines, false, received),
            Command::About => self.out.line(
                "name=\"renju-engine\", version=\"0.1.0\", author=\"renju-engine developers\", country=\"-\", www=\"-\"",
            ),
            Command::Takeback(x, y) => self.take_back(x, y),
            Command::Play(x, y) => self.play(x, y, received),
            Command::Swap2Board(lines) => self.swap2(&lines, received),
            Command::ShowForbid => self.show_forbid(),
            Command::NBest(n) => self.nbest(n, received),
            Command::SearchDefend => self.search_defend(received),
            Command::BalanceOne(b) => self.balance(b, false, received),
            Command::BalanceTwo(b) => self.balance(b, true, received),
            Command::HashClear => self.searcher.clear(),
            Command::ShowInfo => {
                self.out.line("MESSAGE INFO MAX_THREAD_NUM 256");
                self.out.line("MESSAGE INFO MAX_HASH_SIZE 30");
            }
            Command::Block(lines) => {
                if let Some(g) = self.game() {
                    g.block(&lines);
                }
            }
            Command::BlockUndo(lines) => {
                if let Some(g) = self.game() {
                    g.unblock(&lines);
                }
            }
            // Nothing to reset without a game: no answer either way.
            Command::BlockReset => {
                if let Some(g) = self.game.as_mut() {
                    g.reset_blocks();
                }
            }
            Command::Step {
                name,
                n,
                stones,
                offers,
            } => self.step(&name, n, &stones, offers.as_deref(), received),
            Command::Info(..) | Command::Stop | Command::End => {}
            Command::Database(w) => {
                for line in database_reply(&w) {
                    self.out.line(line);
                }
            }
            Command::Unknown(w) => self.out.line(&format!("UNKNOWN command {w}")),
            Command::Malformed(m) => self.out.line(&format!("ERROR {m}")),
        }
    }

    /// `START N` (`START W H` and `RECTSTART W,H` with `W == H`): a new game; the table is
    /// sized to the memory budget and cleared.
    fn start(&mut self, v: &[i64]) {
        let n = v[0];
        if v.len() >= 2 && v[1] != n {
            self.out.line("ERROR rectangular boards are not supported");
            return;
        }
        let settings = self.settings();
        match Game::new(n, settings.rule) {
            Ok(g) => {
                self.game = Some(g);
                // A new table is empty already: clearing it again would double the time
                // START takes on a fresh process (the first game's), when managers start
                // several engines at once.
                if !self.searcher.resize(settings.hash_mb()) {
                    self.searcher.clear();
                }
                self.out.line("OK");
            }
            Err(e) => self.out.line(&format!("ERROR {e}")),
        }
    }

    fn restart(&mut self) {
        if let Some(size) = self.game().map(|g| g.size()) {
            self.start(&[size as i64]);
        }
    }

    fn turn(&mut self, x: i64, y: i64, received: Instant) {
        let Some(g) = self.game() else {
            return;
        };
        match g.opponent_move(x, y) {
            Ok(()) => self.think_and_play(received),
            Err(e) => self.out.line(&format!("ERROR {e}")),
        }
    }

    /// `BOARD` (answer with a move) and `YXBOARD` (no answer).
    fn set_position(&mut self, lines: &[String], want_move: bool, received: Instant) {
        let rule = self.settings().rule;
        let Some(g) = self.game() else {
            return;
        };
        match g.set_position(lines, rule) {
            Ok(()) if want_move => self.think_and_play(received),
            Ok(()) => {}
            Err(e) => self.out.line(&format!("ERROR {e}; previous board kept")),
        }
    }

    fn take_back(&mut self, x: i64, y: i64) {
        let Some(g) = self.game() else {
            return;
        };
        match g.take_back(x, y) {
            Ok(()) => self.out.line("OK"),
            Err(e) => self.out.line(&format!("ERROR {e}")),
        }
    }

    /// `PLAY x,y`: play the suggested move if it is legal, else think.
    fn play(&mut self, x: i64, y: i64, received: Instant) {
        let Some(g) = self.game() else {
            return;
        };
        match g.legal_cell(x, y) {
            Some(p) => {
                g.play(p);
                self.out.line(&format!("{x},{y}"));
            }
            None => self.think_and_play(received),
        }
    }

    /// Search the game's position with `excluded` root moves left out, for `lines` lines (1: a
    /// game search; more: a multi-PV analysis, see [`crate::search::Limits::multi_pv`]), within
    /// the turn's time; the game is unchanged. Iterations and lines are reported as
    /// `show_detail` asks.
    pub(super) fn search(
        &mut self,
        received: Instant,
        excluded: Vec<Pos>,
        lines: usize,
    ) -> Option<SearchResult> {
        let board = self.game.as_ref()?.board().clone();
        let settings = self.settings();
        // Shrink at once to honour a lower memory limit; grow only at START (allocating a large
        // table would eat into the move's time).
        if settings.hash_mb() < self.searcher.hash_mb() {
            self.searcher.resize(settings.hash_mb());
        }
        self.searcher.threads = settings.threads;
        // The log says how many threads search: at the first search and after each change.
        if settings.show_detail != 0 && self.told_threads != settings.threads {
            self.out
                .line(&format!("MESSAGE threads {}", settings.threads));
            self.told_threads = settings.threads;
        }
        let mut limits = settings.limits(received, board.stone_count());
        limits.multi_pv = lines.max(1);
        limits.excluded = excluded;
        let stop = Arc::new(AtomicBool::new(false));
        limits.stop = stop.clone();
        self.shared.set_current_stop(Some(stop.clone()));
        if self.ending() {
            stop.store(true, Ordering::Relaxed);
        }
        // Yixin-Board's live display of the root moves, on its own thread.
        let live = (settings.show_detail & 1 != 0).then(|| {
            let watch = Arc::new(RootWatch::default());
            limits.watch = Some(watch.clone());
            let done = Arc::new(AtomicBool::new(false));
            let handle = live_display(self.out.clone(), watch, done.clone(), board.size());
            (done, handle)
        });
        let show = Display {
            size: board.size(),
            rule: board.rule(),
            analysis: settings.analysis_block(),
            labels: settings.board_labels(),
        };
        let mut rep = MessageReporter::new(&mut self.out, settings.show_detail, show);
        let r = self.searcher.search(&board, limits, &mut rep);
        if let Some((done, handle)) = live {
            done.store(true, Ordering::Relaxed);
            handle.thread().unpark();
            let _ = handle.join();
        }
        self.shared.set_current_stop(None);
        Some(r)
    }

    /// Search, play the move found (a legal fallback if the search gave none) and answer it.
    fn think_and_play(&mut self, received: Instant) {
        let Some(excluded) = self.game.as_ref().map(Game::excluded) else {
            self.out.line(NO_GAME);
            return;
        };
        let (best, pv) = self
            .search(received, excluded.clone(), 1)
            .map_or((Pos::PASS, Vec::new()), |r| (r.best, r.pv));
        let Some(g) = self.game.as_mut() else {
            return;
        };
        match g.legal_or_fallback(best, &excluded) {
            Some(p) => {
                g.play(p);
                self.out.line(&p.to_gomocup(g.size()));
                self.ponder_line = Some(if pv.first() == Some(&p) { pv } else { vec![p] });
            }
            None => self.out.line("ERROR the board is full"),
        }
    }

    /// With `INFO pondering 1`, after a move of its own: search on until the next command (any
    /// command but `INFO` stops it at once; after one that leaves the game alone, such as
    /// `YXSHOWFORBID`, it starts again), on the position after the expected reply (the second
    /// move of the line just played, when legal) or else on the position as it is, silently,
    /// to fill the table the next search starts from. Returns a command that arrived before
    /// the pondering began (it must be executed next). Nothing without the manager's
    /// `pondering`.
    pub fn ponder(&mut self, rx: &Receiver<Queued>) -> Option<Queued> {
        let line = self.ponder_line.clone()?;
        let settings = self.settings();
        if !settings.pondering || self.ending() {
            return None;
        }
        let mut board = self.game.as_ref()?.board().clone();
        if rules::five_on_board(&board).is_some() || board.empty_cells().next().is_none() {
            return None;
        }
        if let Some(&reply) = line.get(1) {
            let me = board.side_to_move();
            if board.is_empty(reply) && rules::legal(&mut board, reply, me) {
                board.play_unchecked(reply);
                if rules::is_win(&board, reply) || board.empty_cells().next().is_none() {
                    return None;
                }
            }
        }
        // The stop flag is in place before the flag the reader checks, and a command read
        // before that flag was set is still in the queue: none is missed.
        let stop = Arc::new(AtomicBool::new(false));
        self.shared.set_current_stop(Some(stop.clone()));
        self.shared.pondering.store(true, Ordering::Relaxed);
        let early = rx.try_recv().ok();
        if early.is_none() {
            let limits = Limits {
                max_depth: settings.max_depth,
                stop,
                ..Limits::default()
            };
            self.searcher.threads = settings.threads;
            let _ = self.searcher.search(&board, limits, &mut Silent);
        }
        self.shared.pondering.store(false, Ordering::Relaxed);
        self.shared.set_current_stop(None);
        early
    }
}

/// The answer of an empty database to Yixin-Board's database command `w`, in the GUI's own
/// `MESSAGE DATABASE` form: a query of all points is a refresh with no point, a query of one
/// position finds nothing (`ONE 0 0 0 0`, as for an edit, which stores nothing), a text query
/// an empty text; the other commands (edits, deletes, files) expect no answer.
#[must_use]
pub fn database_reply(w: &str) -> &'static [&'static str] {
    match w {
        "YXQUERYDATABASEALL" => &["MESSAGE DATABASE REFRESH", "MESSAGE DATABASE DONE"],
        "YXQUERYDATABASEALLT" => &[
            "MESSAGE DATABASE REFRESH",
            "MESSAGE DATABASE DONE",
            "MESSAGE DATABASE TEXT \"\"",
        ],
        "YXQUERYDATABASEONE" | "YXEDITTVDDATABASE" => &["MESSAGE DATABASE ONE 0 0 0 0"],
        "YXQUERYDATABASETEXT" => &["MESSAGE DATABASE TEXT \"\""],
        _ => &[],
    }
}
