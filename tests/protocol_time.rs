//! Answer times of the protocol engine at several turn limits, in a test binary of its own so
//! that no other test of this suite competes for the CPU meanwhile.
//! Knob: `TIME_MOVES` (moves at the 100 ms limit, default 24; fewer at 500 and 1000 ms).

use renju_engine::board::Board;
use renju_engine::rules;
use renju_engine::types::{Pos, Rule};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn spawn() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-renju-engine"))
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

    fn send(&mut self, s: &str) {
        writeln!(self.stdin, "{s}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line that is not a MESSAGE/DEBUG line.
    fn reply(&mut self, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = self.lines.recv_timeout(left).expect("a reply in time");
            if !l.starts_with("MESSAGE ") && !l.starts_with("DEBUG ") {
                return l;
            }
        }
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

fn parse_move(s: &str, size: usize) -> Pos {
    let (x, y) = s
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {s}"));
    let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
    assert!(x < size && y < size, "off-board move {s}");
    Pos::new(x, y, size)
}

fn time_moves() -> usize {
    std::env::var("TIME_MOVES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(24)
}

/// Answer times (ms) of `moves` moves at `turn_ms`: the engine plays both sides of a game
/// (re-sent as BOARD when a game ends) from a fresh position each time one finishes.
fn answer_times(turn_ms: u64, moves: usize) -> Vec<f64> {
    let mut e = Engine::spawn();
    e.send("START 15");
    assert_eq!(e.reply(Duration::from_secs(5)), "OK");
    e.send("INFO rule 4");
    e.send(&format!("INFO timeout_turn {turn_ms}"));
    e.send("INFO timeout_match 0");
    let mut times = Vec::new();
    let mut board = Board::new(15, Rule::Renju).unwrap();
    while times.len() < moves {
        // Send the position as BOARD (own = side to move), measure the answer.
        let me = board.side_to_move();
        let mut cmd = String::from("BOARD\n");
        for (p, c) in board.history() {
            let f = if c == me { 1 } else { 2 };
            cmd.push_str(&format!("{},{},{f}\n", p.x(15), p.y(15)));
        }
        cmd.push_str("DONE");
        let t = Instant::now();
        e.send(&cmd);
        let reply = e.reply(Duration::from_millis(turn_ms + 2000));
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        let p = parse_move(&reply, 15);
        assert!(
            rules::try_play(&mut board, p).is_ok(),
            "illegal {reply}\n{board}"
        );
        if rules::is_win(&board, p) || board.empty_cells().count() <= 25 {
            board = Board::new(15, Rule::Renju).unwrap();
        }
    }
    times
}

#[test]
fn answers_come_inside_the_turn_limit() {
    let n = time_moves();
    for (turn_ms, moves) in [(100u64, n), (500, n / 2 + 1), (1000, n / 4 + 1)] {
        let mut t = answer_times(turn_ms, moves);
        t.sort_by(f64::total_cmp);
        let max = t[t.len() - 1];
        let p99 = t[((t.len() as f64 * 0.99).ceil() as usize).clamp(1, t.len()) - 1];
        let median = t[t.len() / 2];
        println!(
            "timeout_turn {turn_ms}: {} moves, median {median:.1} ms, p99 {p99:.1} ms, max {max:.1} ms",
            t.len()
        );
        // Managers allow 1000 ms of tolerance; we require the answer inside the limit itself
        // (a small allowance for process scheduling on a loaded machine).
        assert!(
            max < turn_ms as f64 + 30.0,
            "turn {turn_ms}: max {max:.1} ms"
        );
    }
}
