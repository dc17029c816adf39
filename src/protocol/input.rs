//! Line reading and the command queue: the reader thread owns stdin, splits it into lines,
//! assembles multi-line commands, applies `INFO` at once, stops the search on `STOP`/`YXSTOP`,
//! `END` and end of input, and queues everything else for the engine.
//!
//! May import `command` (to parse) and `settings` (to apply `INFO`).

use super::command::{is_multi_line, parse, takes_offers_line, takes_path_line, word, Command};
use super::settings::Settings;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// State shared between the reader thread and the engine.
pub struct Shared {
    /// Settings from `INFO`.
    pub settings: Mutex<Settings>,
    /// The stop flag of the search in progress, if any.
    pub current_stop: Mutex<Option<Arc<AtomicBool>>>,
    /// Set once `END` (or end of input) was read.
    pub ending: AtomicBool,
    /// Set while the engine ponders: any command read stops the search at once.
    pub pondering: AtomicBool,
}

impl Shared {
    /// Make `stop` the flag [`Shared::stop_search`] sets (`None`: no search in progress).
    pub fn set_current_stop(&self, stop: Option<Arc<AtomicBool>>) {
        if let Ok(mut g) = self.current_stop.lock() {
            *g = stop;
        }
    }

    /// Raise the stop flag of the search in progress, if any.
    pub fn stop_search(&self) {
        if let Ok(g) = self.current_stop.lock() {
            if let Some(s) = g.as_ref() {
                s.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// A queued command with the time it was read (turn time counts from there).
pub struct Queued {
    /// The command.
    pub cmd: Command,
    /// When its last line was read.
    pub received: Instant,
}

/// The input split into trimmed, non-empty lines.
struct Lines<R> {
    input: R,
    pending: Vec<u8>,
    eof_seen: bool,
}

/// `raw` without surrounding whitespace and NULs, if anything is left.
fn trimmed(raw: &[u8]) -> Option<String> {
    let l = String::from_utf8_lossy(raw);
    let t = l.trim_matches(|c: char| c.is_whitespace() || c == '\0');
    (!t.is_empty()).then(|| t.to_string())
}

impl<R: BufRead> Lines<R> {
    /// The next line. Lines end with LF, CR LF or a lone CR; bytes that are not UTF-8 are
    /// replaced, never fatal.
    fn next_line(&mut self) -> Option<String> {
        loop {
            if let Some(i) = self.pending.iter().position(|&b| b == b'\n' || b == b'\r') {
                let raw: Vec<u8> = self.pending.drain(..=i).collect();
                if let Some(t) = trimmed(&raw[..raw.len() - 1]) {
                    return Some(t);
                }
                continue;
            }
            if self.eof_seen {
                let t = trimmed(&self.pending);
                self.pending.clear();
                return t;
            }
            // Take whatever bytes are available (a lone CR must end a line without waiting for
            // an LF that may never come).
            match self.input.fill_buf() {
                Ok([]) => self.eof_seen = true,
                Ok(buf) => {
                    let n = buf.len();
                    self.pending.extend_from_slice(buf);
                    self.input.consume(n);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => self.eof_seen = true,
            }
        }
    }
}

impl<R: BufRead> Lines<R> {
    /// The next whole command (head line, payload lines up to `DONE`, the path or offers line
    /// some commands take), and whether the input ended inside it.
    fn next_command(&mut self) -> Option<(Command, bool)> {
        let line = self.next_line()?;
        let w = word(&line);
        let mut payload = Vec::new();
        let mut eof = false;
        if is_multi_line(&w) {
            loop {
                match self.next_line() {
                    None => {
                        eof = true;
                        break;
                    }
                    Some(l) if word(&l) == "DONE" => break,
                    Some(l) => payload.push(l),
                }
            }
        } else if takes_path_line(&w, &line) && self.next_line().is_none() {
            eof = true;
        }
        let mut offers = None;
        if takes_offers_line(&w) && !eof {
            // One line of offers after DONE (a lone PLAY line before it is skipped).
            match self.next_line() {
                Some(l) if l.eq_ignore_ascii_case("PLAY") => offers = self.next_line(),
                other => offers = other,
            }
            eof = offers.is_none();
        }
        let mut cmd = parse(&line, payload);
        if let Command::Step { offers: o, .. } = &mut cmd {
            *o = offers;
        }
        Some((cmd, eof))
    }
}

/// Read lines, assemble commands, handle the urgent ones, queue the rest.
pub fn reader(input: impl BufRead, shared: &Shared, tx: &mpsc::Sender<Queued>) {
    let mut lines = Lines {
        input,
        pending: Vec::new(),
        eof_seen: false,
    };
    while let Some((cmd, eof)) = lines.next_command() {
        // Any command but `INFO` stops pondering (a GUI sends `INFO time_left` between moves;
        // `INFO pondering 0` stops it).
        if shared.pondering.load(Ordering::Relaxed) && !matches!(cmd, Command::Info(..)) {
            shared.stop_search();
        }
        match cmd {
            Command::Info(key, value) => {
                if let Ok(mut s) = shared.settings.lock() {
                    s.apply_info(&key, &value);
                }
                if key == "timeout_turn" && value.trim() == "0" {
                    shared.stop_search();
                }
                if key == "pondering"
                    && value.trim() == "0"
                    && shared.pondering.load(Ordering::Relaxed)
                {
                    shared.stop_search();
                }
            }
            Command::Stop => shared.stop_search(),
            Command::End => break,
            other => {
                if tx
                    .send(Queued {
                        cmd: other,
                        received: Instant::now(),
                    })
                    .is_err()
                {
                    return;
                }
            }
        }
        if eof {
            break;
        }
    }
    // END or end of input: stop thinking and let the engine exit.
    shared.ending.store(true, Ordering::Relaxed);
    shared.stop_search();
    let _ = tx.send(Queued {
        cmd: Command::End,
        received: Instant::now(),
    });
}
