//! The protocol engine as a child process: the one harness of every test that talks to it
//! (`protocol*.rs`, `openings.rs`, `threads.rs`, `weights_option.rs`).
//!
//! An [`Engine`] keeps a transcript of everything sent and received (printed when a check
//! fails), collects stderr (which must stay empty) and counts stdout lines that are not UTF-8.
#![allow(dead_code)]

use renju_engine::types::Pos;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The protocol engine under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_pbrain-renju-engine");
/// Longest wait for an answer that should come (searches run with short `timeout_turn`).
pub const REPLY: Duration = Duration::from_secs(10);

/// A board point `(x, y)`.
pub type Xy = (i64, i64);

/// A running engine process with its stdout lines arriving on a channel.
pub struct Engine {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
    pub stderr: Arc<Mutex<Vec<u8>>>,
    pub bad_utf8: Arc<AtomicUsize>,
    /// Everything sent (`> `) and received (`< `), for failure reports.
    pub transcript: Vec<String>,
    pub finished: bool,
}

/// Whether `line` is one of the lines a manager skips while waiting for a reply (§3).
pub fn is_chatter(line: &str) -> bool {
    // `INFO` lines: the analysis block a Yixin-Board-style GUI reads at `show_detail` 2 and 3.
    line.starts_with("MESSAGE ") || line.starts_with("DEBUG ") || line.starts_with("INFO ")
}

/// Poll `child` until it exits or `timeout` passes.
pub fn wait_exit(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    loop {
        if let Ok(Some(s)) = child.try_wait() {
            return Some(s);
        }
        if start.elapsed() >= timeout {
            return None;
        }
        thread::sleep(Duration::from_millis(1));
    }
}

/// Spawn the engine with piped stdin/stdout/stderr; returns the child, its stdin, a channel of
/// stdout lines (without the line ending), the collected stderr bytes and a counter of stdout
/// lines that were not UTF-8.
#[allow(clippy::type_complexity)]
pub fn spawn_raw(
    args: &[&str],
) -> (
    Child,
    ChildStdin,
    Receiver<String>,
    Arc<Mutex<Vec<u8>>>,
    Arc<AtomicUsize>,
) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("failed to start pbrain-renju-engine");
    let stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let mut stderr_pipe = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel();
    let bad_utf8 = Arc::new(AtomicUsize::new(0));
    let bad = bad_utf8.clone();
    thread::spawn(move || {
        let mut r = BufReader::new(stdout);
        loop {
            let mut buf = Vec::new();
            match r.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if buf.last() == Some(&b'\n') {
                buf.pop();
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
            }
            let s = match String::from_utf8(buf) {
                Ok(s) => s,
                Err(e) => {
                    bad.fetch_add(1, Ordering::Relaxed);
                    String::from_utf8_lossy(e.as_bytes()).into_owned()
                }
            };
            if tx.send(s).is_err() {
                break;
            }
        }
    });
    let stderr = Arc::new(Mutex::new(Vec::new()));
    let err = stderr.clone();
    thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stderr_pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            err.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    (child, stdin, rx, stderr, bad_utf8)
}

impl Engine {
    /// Start `pbrain-renju-engine`.
    pub fn spawn() -> Engine {
        Engine::spawn_with(&[])
    }

    /// Start `pbrain-renju-engine` with command-line arguments `args`.
    pub fn spawn_with(args: &[&str]) -> Engine {
        let (child, stdin, lines, stderr, bad_utf8) = spawn_raw(args);
        Engine {
            child,
            stdin: Some(stdin),
            lines,
            stderr,
            bad_utf8,
            transcript: Vec::new(),
            finished: false,
        }
    }

    /// Panic with `msg` and the end of the transcript.
    #[track_caller]
    pub fn fail(&self, msg: &str) -> ! {
        let from = self.transcript.len().saturating_sub(100);
        panic!(
            "{msg}\n--- transcript (last {} entries; > sent, < received) ---\n{}\n---",
            self.transcript.len() - from,
            self.transcript[from..].join("\n")
        );
    }

    /// Write raw bytes to the engine and flush.
    #[track_caller]
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.transcript
            .push(format!("> {:?}", String::from_utf8_lossy(bytes)));
        let ok = match self.stdin.as_mut() {
            Some(s) => s.write_all(bytes).and_then(|()| s.flush()).is_ok(),
            None => false,
        };
        if !ok {
            self.fail("could not write to the engine (did it exit?)");
        }
    }

    /// Send one command line (LF-terminated).
    #[track_caller]
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let ok = match self.stdin.as_mut() {
            Some(s) => s
                .write_all(format!("{line}\n").as_bytes())
                .and_then(|()| s.flush())
                .is_ok(),
            None => false,
        };
        if !ok {
            self.fail("could not write to the engine (did it exit?)");
        }
    }

    pub fn send_all(&mut self, lines: &[String]) {
        for l in lines {
            self.send(l);
        }
    }

    /// The next stdout line (any kind), or `None` after `timeout` or at end of output.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(format!("< {l}"));
                Some(l)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The next line that is not `MESSAGE …`/`DEBUG …`; fails after `timeout`.
    #[track_caller]
    pub fn expect_line(&mut self, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) if is_chatter(&l) => {}
                Some(l) => return l,
                None => self.fail(&format!("no reply within {timeout:?}")),
            }
        }
    }

    /// Send `ABOUT` and return every line (chatter included) printed before its answer.
    #[track_caller]
    pub fn sync(&mut self) -> Vec<String> {
        self.send("ABOUT");
        let mut before = Vec::new();
        loop {
            match self.next_line(REPLY) {
                Some(l) if l.starts_with("name=\"") => return before,
                Some(l) => before.push(l),
                None => self.fail("no answer to ABOUT"),
            }
        }
    }

    /// Assert that nothing at all was printed since the last reply.
    #[track_caller]
    pub fn assert_silent(&mut self, what: &str) {
        let extra = self.sync();
        if !extra.is_empty() {
            self.fail(&format!("{what}: expected no output, got {extra:?}"));
        }
    }

    /// Send `cmd` (a command that does not search) and return its only output line.
    #[track_caller]
    pub fn reply(&mut self, cmd: &str) -> String {
        self.send(cmd);
        let lines = self.sync();
        if lines.len() != 1 {
            self.fail(&format!("{cmd}: expected exactly one line, got {lines:?}"));
        }
        lines[0].clone()
    }

    #[track_caller]
    pub fn expect_ok(&mut self, cmd: &str) {
        let r = self.reply(cmd);
        if r != "OK" {
            self.fail(&format!("{cmd}: expected OK, got {r:?}"));
        }
    }

    #[track_caller]
    pub fn expect_error(&mut self, cmd: &str) {
        let r = self.reply(cmd);
        if !r.starts_with("ERROR ") {
            self.fail(&format!("{cmd}: expected one ERROR line, got {r:?}"));
        }
    }

    /// Send `lines` (a move-producing command) and return the move: one `x,y` on the board,
    /// not occupied in `st`, and then recorded in `st`. Only chatter may precede it.
    #[track_caller]
    pub fn expect_move(&mut self, lines: &[String], st: &mut Stones) -> Xy {
        self.send_all(lines);
        let line = self.expect_line(REPLY);
        let p = match parse_moves(&line).as_deref() {
            Some(&[p]) => p,
            _ => self.fail(&format!(
                "{:?}: expected one move x,y, got {line:?}",
                lines[0]
            )),
        };
        if !st.on_board(p) {
            self.fail(&format!("move {line} is off the {0}x{0} board", st.size));
        }
        if st.occupied.contains(&p) {
            self.fail(&format!("move {line} is on an occupied point"));
        }
        st.occupied.insert(p);
        p
    }

    /// `TURN x,y`: record the opponent stone and return the answer.
    #[track_caller]
    pub fn turn(&mut self, p: Xy, st: &mut Stones) -> Xy {
        if st.occupied.contains(&p) {
            self.fail(&format!("test bug: TURN on occupied {p:?}"));
        }
        st.occupied.insert(p);
        self.expect_move(&[format!("TURN {},{}", p.0, p.1)], st)
    }

    /// Like [`Engine::turn`] with a hand-written TURN line for point `p`.
    #[track_caller]
    pub fn turn_line(&mut self, line: &str, p: Xy, st: &mut Stones) -> Xy {
        st.occupied.insert(p);
        self.expect_move(&[line.to_string()], st)
    }

    /// Fail if a line other than chatter arrives within `d` (the engine is still thinking).
    #[track_caller]
    pub fn assert_thinking_for(&mut self, d: Duration) {
        let deadline = Instant::now() + d;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            if let Some(l) = self.next_line(left) {
                if !is_chatter(&l) {
                    self.fail(&format!(
                        "the search was meant to last (timeout_turn 60000) but answered {l:?} \
                         within {d:?}; the test position is too easy"
                    ));
                }
            }
        }
    }

    /// Measure how long after `Instant::now()` the next non-chatter line arrives.
    #[track_caller]
    pub fn time_to_reply(&mut self, start: Instant) -> (String, Duration) {
        let l = self.expect_line(REPLY);
        (l, start.elapsed())
    }

    #[track_caller]
    pub fn assert_stderr_empty(&self) {
        let err = self.stderr.lock().unwrap().clone();
        if !err.is_empty() {
            self.fail(&format!(
                "the engine wrote to stderr: {:?}",
                String::from_utf8_lossy(&err)
            ));
        }
        let bad = self.bad_utf8.load(Ordering::Relaxed);
        if bad > 0 {
            self.fail(&format!("{bad} stdout line(s) were not UTF-8"));
        }
    }

    /// Send `END`, wait for the exit, check stderr; returns the lines printed after `END`.
    #[track_caller]
    pub fn finish(mut self) -> Vec<String> {
        self.send("END");
        self.stdin = None;
        let Some(status) = wait_exit(&mut self.child, Duration::from_secs(5)) else {
            self.fail("the engine did not exit within 5 s of END");
        };
        let mut rest = Vec::new();
        while let Some(l) = self.next_line(Duration::from_secs(2)) {
            rest.push(l);
        }
        self.finished = true;
        if status.code() != Some(0) {
            self.fail(&format!("exit status after END: {status}"));
        }
        self.assert_stderr_empty();
        rest
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        if let Some(mut s) = self.stdin.take() {
            let _ = s.write_all(b"END\n");
            let _ = s.flush();
        }
        if wait_exit(&mut self.child, Duration::from_secs(2)).is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The stones the test knows about, to check that answers are on empty points.
pub struct Stones {
    pub size: i64,
    pub occupied: HashSet<Xy>,
}

impl Stones {
    pub fn new(size: i64) -> Stones {
        Stones {
            size,
            occupied: HashSet::new(),
        }
    }

    pub fn with(size: i64, stones: &[Xy]) -> Stones {
        let mut s = Stones::new(size);
        s.occupied.extend(stones.iter().copied());
        s
    }

    pub fn on_board(&self, p: Xy) -> bool {
        (0..self.size).contains(&p.0) && (0..self.size).contains(&p.1)
    }
}

/// A coordinate written by the engine: 1 or 2 decimal digits.
pub fn coord(s: &str) -> Option<i64> {
    if s.is_empty() || s.len() > 2 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Parse an answer of one or more `x,y` separated by single spaces.
pub fn parse_moves(line: &str) -> Option<Vec<Xy>> {
    line.split(' ')
        .map(|t| {
            let (a, b) = t.split_once(',')?;
            Some((coord(a)?, coord(b)?))
        })
        .collect()
}

impl Engine {
    /// Every line up to and including the next that is not `MESSAGE`/`DEBUG`; fails after
    /// `timeout`.
    #[track_caller]
    pub fn lines_to_reply(&mut self, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) => {
                    let done = !is_chatter(&l);
                    out.push(l);
                    if done {
                        return out;
                    }
                }
                None => self.fail(&format!("no reply within {timeout:?}")),
            }
        }
    }

    /// The next line that is not `MESSAGE`/`DEBUG`; fails after `timeout`.
    #[track_caller]
    pub fn answer(&mut self, timeout: Duration) -> String {
        self.expect_line(timeout)
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

/// Parse an `x,y` answer into a cell, asserting it is on the board.
pub fn parse_move(s: &str, size: usize) -> Pos {
    let (x, y) = s
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {s}"));
    let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
    assert!(x < size && y < size, "off-board move {s}");
    Pos::new(x, y, size)
}
