//! The protocol engine as a child process, for the tests that play through it.
#![allow(dead_code)]

use renju_engine::types::Pos;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The protocol engine as a child process.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    /// Start `pbrain-renju-engine`.
    pub fn spawn() -> Engine {
        Engine::spawn_with(&[])
    }

    /// Start `pbrain-renju-engine` with command-line arguments `args`.
    pub fn spawn_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-renju-engine"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    /// Send one line (or several joined by newlines).
    pub fn send(&mut self, s: &str) {
        writeln!(self.stdin, "{s}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line that is not a MESSAGE/DEBUG line.
    pub fn reply(&mut self, timeout: Duration) -> String {
        self.lines_to_reply(timeout)
            .pop()
            .expect("at least the reply itself")
    }

    /// Every line up to and including the next that is not a MESSAGE/DEBUG line.
    pub fn lines_to_reply(&mut self, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = self.lines.recv_timeout(left).expect("a reply in time");
            let done = !l.starts_with("MESSAGE ") && !l.starts_with("DEBUG ");
            out.push(l);
            if done {
                return out;
            }
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "END");
        let _ = self.stdin.flush();
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(2) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
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
