//! The pbrain (Gomocup) protocol engine with the Yixin-Board extensions.
//!
//! May import every module below it (types … search).
//!
//! Threads: a reader thread owns stdin. It assembles multi-line commands, applies `INFO` at once
//! (even mid-search: `INFO timeout_turn 0` stops the search), stops the search on `STOP`/`YXSTOP`
//! and `END` (and at end of input), and queues everything else. The main thread executes the
//! queued commands in order and runs the searches, so a command that needs the board while the
//! engine thinks waits its turn and is never dropped. Only the main thread writes to stdout, one
//! flushed line at a time; nothing is ever written to stderr.

pub mod command;
mod engine;
pub mod steps;

use crate::pattern::table::Tables;
use crate::types::Rule;
use command::{is_multi_line, parse, takes_offers_line, takes_path_line, word, Command};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Instant;

pub use engine::{set_default_threads, Engine, Settings};

/// State shared between the reader thread and the engine.
pub struct Shared {
    /// Settings from `INFO`.
    pub settings: Mutex<Settings>,
    /// The stop flag of the search in progress, if any.
    pub current_stop: Mutex<Option<Arc<AtomicBool>>>,
    /// Set once `END` (or end of input) was read.
    pub ending: AtomicBool,
}

impl Shared {
    fn stop_search(&self) {
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

/// Read lines, assemble commands, handle the urgent ones, queue the rest.
fn reader(mut input: impl BufRead, shared: &Shared, tx: &mpsc::Sender<Queued>) {
    // Lines end with LF, CR LF or a lone CR; bytes that are not UTF-8 are replaced, never fatal.
    let mut pending: Vec<u8> = Vec::new();
    let mut eof_seen = false;
    let mut next_line = move || -> Option<String> {
        loop {
            if let Some(i) = pending.iter().position(|&b| b == b'\n' || b == b'\r') {
                let raw: Vec<u8> = pending.drain(..=i).collect();
                let l = String::from_utf8_lossy(&raw[..raw.len() - 1]).into_owned();
                let t = l.trim_matches(|c: char| c.is_whitespace() || c == '\0');
                if !t.is_empty() {
                    return Some(t.to_string());
                }
                continue;
            }
            if eof_seen {
                if pending.is_empty() {
                    return None;
                }
                let l = String::from_utf8_lossy(&pending).into_owned();
                pending.clear();
                let t = l.trim_matches(|c: char| c.is_whitespace() || c == '\0');
                if !t.is_empty() {
                    return Some(t.to_string());
                }
                return None;
            }
            // Take whatever bytes are available (a lone CR must end a line without waiting for
            // an LF that may never come).
            match input.fill_buf() {
                Ok([]) => eof_seen = true,
                Ok(buf) => {
                    let n = buf.len();
                    pending.extend_from_slice(buf);
                    input.consume(n);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => eof_seen = true,
            }
        }
    };
    while let Some(line) = next_line() {
        let w = word(&line);
        let mut payload = Vec::new();
        let mut eof = false;
        if is_multi_line(&w) {
            loop {
                match next_line() {
                    None => {
                        eof = true;
                        break;
                    }
                    Some(l) if word(&l) == "DONE" => break,
                    Some(l) => payload.push(l),
                }
            }
        } else if takes_path_line(&w, &line) && next_line().is_none() {
            eof = true;
        }
        let mut offers = None;
        if takes_offers_line(&w) && !eof {
            // One line of offers after DONE (a lone PLAY line before it is skipped).
            match next_line() {
                Some(l) if l.eq_ignore_ascii_case("PLAY") => offers = next_line(),
                other => offers = other,
            }
            eof = offers.is_none();
        }
        let mut cmd = parse(&line, payload);
        if let Command::Step { offers: o, .. } = &mut cmd {
            *o = offers;
        }
        match cmd {
            Command::Info(key, value) => {
                if let Ok(mut s) = shared.settings.lock() {
                    s.apply_info(&key, &value);
                }
                if key == "timeout_turn" && value.trim() == "0" {
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

/// Run the protocol on `input` / `output` until `END` or end of input. Returns the exit code.
pub fn run<R, W>(input: R, output: W) -> i32
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let shared = Arc::new(Shared {
        settings: Mutex::new(Settings::default()),
        current_stop: Mutex::new(None),
        ending: AtomicBool::new(false),
    });
    // Build every rule's pattern tables in the background now, so no move pays for them when
    // `INFO rule` switches rules.
    let _ = std::thread::Builder::new().name("tables".into()).spawn(|| {
        for rule in [
            Rule::Renju,
            Rule::Freestyle,
            Rule::Standard,
            Rule::Caro,
            Rule::CaroOverline,
        ] {
            let _ = Tables::get(rule);
        }
    });
    let (tx, rx) = mpsc::channel();
    let reader_shared = shared.clone();
    // The reader is detached: it may stay blocked on input after END; the process ends anyway.
    let _ = std::thread::Builder::new()
        .name("reader".into())
        .spawn(move || reader(input, &reader_shared, &tx));
    let mut engine = Engine::new(shared, Box::new(output));
    // Commands read before END still run (piped scripts get their answers), but once END or
    // end of input has been read every search returns at once, so the exit is quick.
    for q in rx {
        if matches!(q.cmd, Command::End) {
            break;
        }
        engine.execute(q.cmd, q.received);
    }
    0
}
