//! `arena-fixture <mode>`: small pbrain engines with known behaviour, for testing the arena.
//!
//! Modes: `pro` (the real renju-engine protocol loop), `greedy` (takes a five, blocks a five,
//! else the best-scored cell), `random` (a random legal cell near the stones, seeded by the
//! optional second argument), `crash` (exits when asked for a move), `hang` (never answers a
//! move), `garbage` (answers a move request with text), `occupied` (answers with an occupied
//! point), `foul` (as black plays a forbidden point when there is one), `noabout` (never
//! answers ABOUT, otherwise greedy), `noturnzero` (exits when told `INFO timeout_turn 0`,
//! otherwise greedy), `slow` (greedy after thinking 150 ms a move), `slowfirst` (greedy,
//! the first move of the process after 1,500 ms, as an engine that allocates its hash table
//! inside its first move), `referee` and
//! `referee-rapfi` (greedy, and before each move an evaluation in a `MESSAGE` line, in this
//! engine's format or Rapfi's: the side to move wins in 5 plies when the opponent's last stone
//! lies in column 0, scores +400 when it lies in row 0, else 0).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use renju_engine::board::Board;
use renju_engine::pattern::Class;
use renju_engine::rules::renju;
use renju_engine::types::{Color, Pos, Rule};
use std::io::{BufRead, Write};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).cloned().unwrap_or_else(|| "greedy".into());
    if mode == "pro" {
        let code = renju_engine::protocol::run(
            std::io::BufReader::new(std::io::stdin()),
            std::io::stdout(),
        );
        std::process::exit(code);
    }
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = StdRng::seed_from_u64(seed);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut rule = Rule::Freestyle;
    let mut size = 15;
    let mut board = Board::new(size, rule).expect("valid");
    let mut lines = stdin.lock().lines();
    let mut say = |s: &str| {
        let _ = writeln!(out, "{s}");
        let _ = out.flush();
    };
    while let Some(Ok(line)) = lines.next() {
        let line = line.trim().to_string();
        let w = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        let arg = line.split_whitespace().nth(1).unwrap_or("").to_string();
        match w.as_str() {
            "ABOUT" => {
                if mode != "noabout" {
                    say(&format!("name=\"fixture-{mode}\", version=\"1\""));
                }
            }
            "START" => {
                size = arg.parse().unwrap_or(15);
                board = Board::new(size, rule).expect("valid");
                say("OK");
            }
            "INFO" => {
                let mut it = line.split_whitespace().skip(1);
                let key = it.next().map(str::to_ascii_lowercase);
                if mode == "noturnzero"
                    && key.as_deref() == Some("timeout_turn")
                    && it.clone().next() == Some("0")
                {
                    // "Play as fast as possible" where the match has a clock: a manager bug.
                    std::process::exit(3);
                }
                if key.as_deref() == Some("rule") {
                    rule = it
                        .next()
                        .and_then(|v| v.parse().ok())
                        .and_then(Rule::from_gomocup)
                        .unwrap_or(Rule::Freestyle);
                    board = Board::new(size, rule).expect("valid");
                }
            }
            "END" => return,
            "BEGIN" | "TURN" | "BOARD" => {
                if w == "TURN" {
                    if let Some((x, y)) = arg.split_once(',') {
                        let (x, y): (usize, usize) =
                            (x.parse().unwrap_or(0), y.parse().unwrap_or(0));
                        board.play_unchecked(Pos::new(x, y, size));
                    }
                }
                if w == "BOARD" {
                    let Some(b) = read_board(&mut lines, size, rule) else {
                        return;
                    };
                    board = b;
                }
                if mode.starts_with("referee") {
                    for l in referee_messages(&mode, &board, &mut rng) {
                        say(&l);
                    }
                }
                let reply = answer(&mode, &mut board, &mut rng);
                say(&reply);
            }
            _ => say("UNKNOWN"),
        }
    }
}

/// The position of a `BOARD` block read from `lines` (through `DONE`); `None` at the end of
/// input.
fn read_board(
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
    size: usize,
    rule: Rule,
) -> Option<Board> {
    let mut board = Board::new(size, rule).expect("valid");
    let mut stones = Vec::new();
    for l in lines.by_ref() {
        let l = l.ok()?;
        let l = l.trim().to_string();
        if l.eq_ignore_ascii_case("DONE") {
            break;
        }
        let v: Vec<usize> = l.split(',').filter_map(|t| t.trim().parse().ok()).collect();
        if v.len() == 3 {
            stones.push((Pos::new(v[0], v[1], size), v[2]));
        }
    }
    let own = stones.iter().filter(|s| s.1 == 1).count();
    let opp = stones.len() - own;
    let me = if opp > own {
        Color::White
    } else {
        Color::Black
    };
    for (p, f) in stones {
        board.put_unchecked(p, if f == 1 { me } else { me.opponent() });
    }
    if board.side_to_move() != me {
        board.pass();
    }
    Some(board)
}

/// The evaluation lines of the `referee` modes for `board` (side to move), the line being
/// the greedy move the fixture then plays.
fn referee_messages(mode: &str, board: &Board, rng: &mut StdRng) -> Vec<String> {
    let size = board.size();
    let last = board.last_move().map(|(p, _)| p).filter(|p| !p.is_pass());
    let (value, win) = match last {
        Some(p) if p.x(size) == 0 => (0, Some(5)),
        Some(p) if p.y(size) == 0 => (400, None),
        _ => (0, None),
    };
    let best = greedy(&mut board.clone(), &mut rng.clone(), false);
    if mode == "referee-rapfi" {
        let eval = win.map_or_else(|| value.to_string(), |n| format!("+M{n}"));
        let cell = format!(
            "{}{}",
            (b'A' + best.x(size) as u8) as char,
            best.y(size) + 1
        );
        vec![
            "MESSAGE OptiTime 10ms | MaxTime 20ms".to_string(),
            format!("MESSAGE Depth 1-1 | Eval {eval} | Time 0ms | {cell}"),
            format!("MESSAGE Speed 1K | Depth 1-1 | Eval {eval} | Node 1 | Time 0ms"),
        ]
    } else {
        let ev = win.map_or_else(
            || value.to_string(),
            |n| format!("{} win in {n}", 30_000 - n),
        );
        vec![format!(
            "MESSAGE depth 1 ev {ev} n 1 n/s 1 tm 0 pv {}",
            best.to_gomocup(size)
        )]
    }
}

/// The fixture's answer to a move request in `mode` (the stone is played on `board`).
fn answer(mode: &str, board: &mut Board, rng: &mut StdRng) -> String {
    let size = board.size();
    match mode {
        "crash" => std::process::exit(3),
        "hang" => loop {
            std::thread::sleep(std::time::Duration::from_secs(60));
        },
        "garbage" => "I resign, good game".to_string(),
        "slowfirst" => {
            static FIRST: std::sync::Once = std::sync::Once::new();
            FIRST.call_once(|| std::thread::sleep(std::time::Duration::from_millis(1500)));
            let p = greedy(board, rng, false);
            board.play_unchecked(p);
            p.to_gomocup(size)
        }
        "slow" => {
            std::thread::sleep(std::time::Duration::from_millis(150));
            let p = greedy(board, rng, false);
            board.play_unchecked(p);
            p.to_gomocup(size)
        }
        "occupied" => {
            let first = board.history().find(|(p, _)| !p.is_pass()).map(|h| h.0);
            match first {
                Some(p) => p.to_gomocup(size),
                None => {
                    let p = greedy(board, rng, false);
                    board.play_unchecked(p);
                    p.to_gomocup(size)
                }
            }
        }
        _ => {
            let p = if mode == "foul" && board.side_to_move() == Color::Black {
                renju::all_fouls(board)
                    .first()
                    .map(|f| f.0)
                    .unwrap_or_else(|| greedy(board, rng, false))
            } else {
                greedy(board, rng, mode == "random")
            };
            board.play_unchecked(p);
            p.to_gomocup(size)
        }
    }
}

/// Take a five, block a five, else the best-scored (or a random) legal candidate.
fn greedy(b: &mut Board, rng: &mut StdRng, random: bool) -> Pos {
    let me = b.side_to_move();
    let n = b.size();
    if b.stone_count() == 0 {
        return Pos::new(n / 2, n / 2, n);
    }
    let cands: Vec<Pos> = b.candidates().chain(b.empty_cells()).collect();
    let legal: Vec<Pos> = cands
        .into_iter()
        .filter(|&p| me == Color::White || b.rule() != Rule::Renju || !renju::is_foul(b, p))
        .collect();
    for want in [me, me.opponent()] {
        if let Some(&p) = legal.iter().find(|&&p| b.class(p, want) == Class::Five) {
            return p;
        }
    }
    if random {
        let near: Vec<Pos> = legal
            .iter()
            .copied()
            .filter(|&p| b.is_candidate(p))
            .collect();
        let pool = if near.is_empty() { &legal } else { &near };
        return pool[rng.gen_range(0..pool.len())];
    }
    *legal
        .iter()
        .max_by_key(|&&p| {
            (
                b.score(p, me) + b.score(p, me.opponent()),
                std::cmp::Reverse(p),
            )
        })
        .expect("a legal move")
}
