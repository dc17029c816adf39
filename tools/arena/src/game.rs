//! One refereed game between two engine processes.
//!
//! The referee is the project's own rules module, never the engines: moves are checked against
//! the board, renju fouls with the slow reference detector (`rules::reference`, which shares no
//! code with the engine's fast path), wins by measuring runs for the rule (an exact five wins for
//! black even when it is also a foul).

use crate::engine::{EngineProc, Failure};
use renju_engine::board::Board;
use renju_engine::rules::{self, reference, Foul};
use renju_engine::types::{Color, Pos, Rule};
use std::time::{Duration, Instant};

/// A time control: match time, optional per-move limit, increment (all ms; 0 match = none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Match time per player (ms); 0 = no match clock.
    pub match_ms: u64,
    /// Per-move limit (ms), if any.
    pub turn_ms: Option<u64>,
    /// Increment per move (ms).
    pub inc_ms: u64,
}

impl TimeControl {
    /// Parse `MATCH_S[/TURN_S][+INC_S]` (seconds, decimals allowed; `0` match = no match clock).
    ///
    /// # Errors
    /// A message for malformed text.
    pub fn parse(s: &str) -> Result<TimeControl, String> {
        let ms = |t: &str| -> Result<u64, String> {
            let v: f64 = t
                .trim()
                .parse()
                .map_err(|_| format!("bad time '{t}' in time control '{s}'"))?;
            if !(0.0..=1e7).contains(&v) {
                return Err(format!("time '{t}' out of range"));
            }
            Ok((v * 1000.0).round() as u64)
        };
        let (main, inc) = match s.split_once('+') {
            Some((m, i)) => (m, ms(i)?),
            None => (s, 0),
        };
        let (m, turn) = match main.split_once('/') {
            Some((m, t)) => (ms(m)?, Some(ms(t)?)),
            None => (ms(main)?, None),
        };
        if m == 0 && turn.is_none() {
            return Err("a time control needs match time or a turn limit".into());
        }
        Ok(TimeControl {
            match_ms: m,
            turn_ms: turn,
            inc_ms: inc,
        })
    }
}

impl GameConfig {
    /// The time control of the player of colour index `i` (0 black, 1 white).
    #[must_use]
    pub fn tc_of(&self, i: usize) -> TimeControl {
        self.seat_tc[i].unwrap_or(self.tc)
    }
}

/// What a renju black foul does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoulMode {
    /// The foul loses (Gomocup managers).
    Lose,
    /// The move is refused and asked again; a second foul loses.
    Reject,
}

/// Game settings.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// Rule.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// Time control.
    pub tc: TimeControl,
    /// Per seat (black, white), a time control of that player's own instead of `tc` (time odds).
    pub seat_tc: [Option<TimeControl>; 2],
    /// Extra time allowed past a limit before a forfeit (ms).
    pub tolerance_ms: u64,
    /// Draw when this many stones are on the board.
    pub draw_after: Option<usize>,
    /// Renju foul handling.
    pub foul_mode: FoulMode,
    /// `max_memory` sent to the engines (bytes).
    pub max_memory: u64,
    /// Before each `START` and move request, wait until the engine's output has been quiet
    /// this long (ms; see [`EngineProc::settle`]); 0 = send at once.
    pub settle_ms: u64,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A winning line.
    Five,
    /// Renju black foul.
    Foul(Foul),
    /// A move on an occupied point.
    Occupied,
    /// A move off the board.
    OffBoard,
    /// Something that is not a move.
    Garbage(String),
    /// The engine exited.
    Crash,
    /// No answer in time.
    Timeout,
    /// The board filled up.
    FullBoard,
    /// The stone cap was reached.
    DrawAfter,
    /// Both sides passed.
    BothPassed,
    /// The engine did not start a game (`START` not answered `OK`).
    StartFailed,
}

impl Reason {
    /// A short name for summaries.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Reason::Five => "five".into(),
            Reason::Foul(f) => format!("foul-{f}"),
            Reason::Occupied => "occupied".into(),
            Reason::OffBoard => "off-board".into(),
            Reason::Garbage(_) => "garbage".into(),
            Reason::Crash => "crash".into(),
            Reason::Timeout => "timeout".into(),
            Reason::FullBoard => "full-board".into(),
            Reason::DrawAfter => "draw-after".into(),
            Reason::BothPassed => "both-passed".into(),
            Reason::StartFailed => "start-failed".into(),
        }
    }
}

/// The record of a finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Winner colour (None = draw).
    pub winner: Option<Color>,
    /// How it ended.
    pub reason: Reason,
    /// The moves (opening included), with the time each engine move took (ms; 0 for opening).
    pub moves: Vec<(Pos, u64)>,
    /// Number of opening stones at the start of `moves`.
    pub opening_len: usize,
    /// Whether the engine of each colour must be restarted (crashed or hung).
    pub restart: [bool; 2],
}

fn gomocup_rule(rule: Rule) -> i64 {
    rule.gomocup()
}

/// Play one game: `engines[0]` is black, `engines[1]` white; `opening` stones are placed first.
pub fn play(
    engines: [&mut EngineProc; 2],
    opening: &[(usize, usize)],
    cfg: &GameConfig,
) -> GameRecord {
    let [black, white] = engines;
    let mut engines = [black, white];
    let size = cfg.size;
    let mut board = Board::new(size, cfg.rule).expect("valid size");
    let mut rec = GameRecord {
        winner: None,
        reason: Reason::FullBoard,
        moves: Vec::new(),
        opening_len: 0,
        restart: [false; 2],
    };
    for &(x, y) in opening {
        let p = Pos::new(x, y, size);
        board.play_unchecked(p);
        rec.moves.push((p, 0));
    }
    rec.opening_len = rec.moves.len();
    for (i, e) in engines.iter_mut().enumerate() {
        if let Err(reason) = start_game(e, cfg, cfg.tc_of(i)) {
            let c = if i == 0 { Color::Black } else { Color::White };
            rec.winner = Some(c.opponent());
            rec.reason = reason;
            rec.restart[i] = true;
            return rec;
        }
    }
    let mut left = [cfg.tc_of(0).match_ms as i64, cfg.tc_of(1).match_ms as i64];
    let mut told = [false; 2]; // whether the engine has seen the position (BOARD) yet
    let mut passes = 0;
    loop {
        if board.empty_cells().next().is_none() {
            rec.reason = Reason::FullBoard;
            return rec;
        }
        if cfg.draw_after.is_some_and(|n| board.stone_count() >= n) {
            rec.reason = Reason::DrawAfter;
            return rec;
        }
        let i = board.side_to_move().index();
        let turn = Turn {
            told: told[i],
            passes,
        };
        told[i] = true;
        match turn.play(engines[i], &mut board, &mut left[i], &mut rec, cfg) {
            Some(p) => passes = p,
            None => return rec,
        }
    }
}

/// One side's turn: its move requested (again after a refused foul), refereed and played.
struct Turn {
    /// Whether the engine has seen the position (`BOARD`) before.
    told: bool,
    /// Passes in a row so far.
    passes: u32,
}

impl Turn {
    /// Play the turn of the side to move with engine `e` (`left`: its match time): the passes
    /// in a row after it, or `None` when the game is over (`rec` then says how).
    fn play(
        self,
        e: &mut EngineProc,
        board: &mut Board,
        left: &mut i64,
        rec: &mut GameRecord,
        cfg: &GameConfig,
    ) -> Option<u32> {
        let me = board.side_to_move();
        let size = board.size();
        let mut fouls = 0;
        loop {
            let cmd = match board.last_move() {
                Some((p, _)) if self.told && fouls == 0 && !p.is_pass() => {
                    format!("TURN {},{}", p.x(size), p.y(size))
                }
                _ => board_command(board, me),
            };
            let (reply, took) = match request(e, &cmd, left, cfg, cfg.tc_of(me.index())) {
                Ok(a) => a,
                Err((reason, restart)) => {
                    rec.winner = Some(me.opponent());
                    rec.reason = reason;
                    rec.restart[me.index()] = restart;
                    return None;
                }
            };
            match read_move(board, &reply, cfg) {
                Move::Pass => {
                    board.pass();
                    rec.moves.push((Pos::PASS, took));
                    if self.passes + 1 >= 2 {
                        rec.reason = Reason::BothPassed;
                        return None;
                    }
                    return Some(self.passes + 1);
                }
                Move::Foul(p, f) => {
                    fouls += 1;
                    if cfg.foul_mode == FoulMode::Lose || fouls >= 2 {
                        rec.moves.push((p, took));
                        rec.winner = Some(Color::White);
                        rec.reason = Reason::Foul(f);
                        return None;
                    }
                    // Refused: ask again with the same position.
                }
                Move::Lost(reason) => {
                    rec.winner = Some(me.opponent());
                    rec.reason = reason;
                    return None;
                }
                Move::Stone(p) => {
                    board.play_unchecked(p);
                    rec.moves.push((p, took));
                    if rules::is_win(board, p) {
                        rec.winner = Some(me);
                        rec.reason = Reason::Five;
                        return None;
                    }
                    return Some(0);
                }
            }
        }
    }
}

/// Start a game on engine `e` playing under time control `tc` (`START`, then the `INFO`
/// settings).
///
/// # Errors
/// Why the engine loses: it exited, or it did not answer `OK` in time.
fn start_game(e: &mut EngineProc, cfg: &GameConfig, tc: TimeControl) -> Result<(), Reason> {
    let size = cfg.size;
    e.settle(Duration::from_millis(cfg.settle_ms));
    let ok = e.send(&format!("START {size}")).is_ok()
        && e.recv_line(Instant::now() + Duration::from_millis(5_000 + cfg.tolerance_ms))
            .map(|l| l.eq_ignore_ascii_case("OK"))
            .unwrap_or(false);
    // Without a per-move limit `timeout_turn` is not sent at all: 0 would mean "play as
    // fast as possible".
    let mut info = vec![
        format!("INFO rule {}", gomocup_rule(cfg.rule)),
        format!("INFO timeout_match {}", tc.match_ms),
    ];
    if let Some(t) = tc.turn_ms {
        info.push(format!("INFO timeout_turn {t}"));
    }
    info.push(format!("INFO max_memory {}", cfg.max_memory));
    info.push("INFO game_type 1".to_string());
    let sent = info.iter().all(|l| e.send(l).is_ok());
    if ok && sent {
        Ok(())
    } else if e.exited() {
        Err(Reason::Crash)
    } else {
        Err(Reason::StartFailed)
    }
}

/// Let a freshly started engine play one move, unscored, before its first game: `START`, the
/// game's settings under time control `tc`, `BEGIN`, and its answer awaited for up to 30 s.
/// Some engines (Rapfi among them) allocate and clear their hash table of `max_memory` inside
/// the first move they are asked for, which at a short turn limit, with other engines starting
/// at the same time, runs past the limit and forfeits a game that has nothing to do with
/// playing strength. Failures here are ignored: the first game shows them.
pub fn warm_up(e: &mut EngineProc, cfg: &GameConfig, tc: TimeControl) {
    if start_game(e, cfg, tc).is_err() {
        return;
    }
    if tc.match_ms > 0 {
        let _ = e.send(&format!("INFO time_left {}", tc.match_ms));
    }
    if e.send("BEGIN").is_ok() {
        let _ = e.recv_line(Instant::now() + Duration::from_secs(30));
    }
}

/// Ask engine `e` for a move with `cmd` under its time control `tc` (`left`: its match time,
/// updated): the reply line and the time it took (ms).
///
/// # Errors
/// Why the engine loses (crash or timeout) and whether it must be restarted.
fn request(
    e: &mut EngineProc,
    cmd: &str,
    left: &mut i64,
    cfg: &GameConfig,
    tc: TimeControl,
) -> Result<(String, u64), (Reason, bool)> {
    e.settle(Duration::from_millis(cfg.settle_ms));
    if tc.match_ms > 0 {
        let _ = e.send(&format!("INFO time_left {left}"));
    }
    let start = Instant::now();
    let mut limit_ms = u64::MAX / 4;
    if let Some(t) = tc.turn_ms {
        limit_ms = limit_ms.min(t);
    }
    if tc.match_ms > 0 {
        limit_ms = limit_ms.min((*left).max(0) as u64);
    }
    let deadline = start + Duration::from_millis(limit_ms.saturating_add(cfg.tolerance_ms));
    let reply = e.send(cmd).and_then(|()| e.recv_line(deadline));
    let took = start.elapsed().as_millis() as u64;
    let reply = match reply {
        Ok(r) => r,
        Err(f) => {
            let reason = if f == Failure::Timeout && !e.exited() {
                Reason::Timeout
            } else {
                Reason::Crash
            };
            return Err((reason, true));
        }
    };
    if took > limit_ms.saturating_add(cfg.tolerance_ms) {
        return Err((Reason::Timeout, false));
    }
    if tc.match_ms > 0 {
        *left = *left - took as i64 + tc.inc_ms as i64;
    }
    Ok((reply, took))
}

/// What a reply to a move request comes to on `board`.
enum Move {
    /// `-1,-1`: a pass.
    Pass,
    /// A legal stone.
    Stone(Pos),
    /// A renju black foul on `Pos` (refused, or lost by, as the foul mode says).
    Foul(Pos, Foul),
    /// A reply that loses the game.
    Lost(Reason),
}

/// Referee one reply of the side to move on `board`.
fn read_move(board: &Board, reply: &str, cfg: &GameConfig) -> Move {
    let size = board.size();
    let Some((x, y)) = parse_move(reply) else {
        return Move::Lost(Reason::Garbage(reply.to_string()));
    };
    if x == -1 && y == -1 {
        return Move::Pass;
    }
    if x < 0 || y < 0 || x >= size as i64 || y >= size as i64 {
        return Move::Lost(Reason::OffBoard);
    }
    let p = Pos::new(x as usize, y as usize, size);
    if !board.is_empty(p) {
        return Move::Lost(Reason::Occupied);
    }
    if cfg.rule == Rule::Renju && board.side_to_move() == Color::Black {
        let mut g = reference::Grid::from_board(board);
        if let Some(f) = reference::foul(&mut g, x as i32, y as i32) {
            return Move::Foul(p, f);
        }
    }
    Move::Stone(p)
}

/// The `BOARD … DONE` command for the side `me` (own stones 1, opponent 2, in move order).
#[must_use]
pub fn board_command(board: &Board, me: Color) -> String {
    let size = board.size();
    let mut s = String::from("BOARD");
    for (p, c) in board.history() {
        if p.is_pass() {
            continue;
        }
        let f = if c == me { 1 } else { 2 };
        s.push_str(&format!("\n{},{},{f}", p.x(size), p.y(size)));
    }
    s.push_str("\nDONE");
    s
}

/// Parse an engine's move answer `x,y` (spaces tolerated).
#[must_use]
pub fn parse_move(s: &str) -> Option<(i64, i64)> {
    let (a, b) = s.trim().split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            TimeControl::parse("10/1+0.1").unwrap(),
            TimeControl {
                match_ms: 10_000,
                turn_ms: Some(1_000),
                inc_ms: 100
            }
        );
        assert_eq!(TimeControl::parse("0/0.5").unwrap().turn_ms, Some(500));
        assert_eq!(TimeControl::parse("60").unwrap().turn_ms, None);
        assert!(TimeControl::parse("x").is_err());
        assert!(TimeControl::parse("0").is_err());
        assert!(TimeControl::parse("-1/1").is_err());
        assert_eq!(parse_move(" 3, 4"), Some((3, 4)));
        assert_eq!(parse_move("3 4"), None);
    }
}
