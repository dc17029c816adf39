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
//!
//! The rooms, each with the imports its module doc allows:
//! - `input`: line reading, the command queue, the state the reader shares with the engine;
//! - `command`: parsing a line (and its payload) into a [`command::Command`];
//! - `settings`: what `INFO` set, and the memory budget; `clock`: the time limits of an answer;
//! - `session`: the game (board with its walls, rule, `YXBLOCK` cells), which exists only after
//!   `START`;
//! - `report`: output lines and the search's `MESSAGE` reports;
//! - `engine`: executing commands, the game's moves and the search behind them;
//! - `analysis`: n-best, balanced moves, forbidden points and the opening steps' glue;
//! - `steps`: the opening-rule steps as pure functions of their requests.

mod analysis;
mod clock;
pub mod command;
mod engine;
mod input;
mod report;
mod session;
mod settings;
pub mod steps;

use crate::pattern::table::Tables;
use crate::types::Rule;
use command::Command;
use input::reader;
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

pub use engine::Engine;
pub use input::{Queued, Shared};
pub use settings::{set_default_pondering, set_default_threads, Settings};

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
        pondering: AtomicBool::new(false),
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
    let mut pending: Option<Queued> = None;
    loop {
        let q = match pending.take() {
            Some(q) => q,
            None => match rx.recv() {
                Ok(q) => q,
                Err(_) => break,
            },
        };
        if matches!(q.cmd, Command::End) {
            break;
        }
        engine.execute(q.cmd, q.received);
        // Think on the opponent's time until the next command, when the manager asked.
        pending = engine.ponder(&rx);
    }
    0
}
