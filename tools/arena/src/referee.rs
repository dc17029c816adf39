//! A referee's post-mortem of a match: another pbrain engine (the referee) evaluates, in every
//! decisive game, the position before and after each move of the loser, and the report finds
//! the first move that lost the game in the referee's judgement.
//!
//! The referee is any pbrain engine that prints its evaluation in `MESSAGE` lines while it
//! thinks; two formats are read (the last evaluation printed before the move counts):
//!
//! * this engine's: `MESSAGE depth 12 ev -35 n … pv 7,7 8,8`, a proven result as
//!   `ev 29990 win in 9` / `ev -29990 loss in 9` (plies, the move to play counted);
//! * Rapfi's: `MESSAGE Depth 11-23 | Eval 111 | Time 70ms | K9 L10`, a proven result as
//!   `Eval +M15` / `Eval -M15` (plies), the line in letter-number cells (`K9` = x 10, y 8 in
//!   Gomocup coordinates), `MESSAGE Bestline …` a longer line.
//!
//! Scores are the side to move's, in the referee's own units. A move of the loser is a
//! **blunder** when the referee's value of the loser's position drops by more than a threshold
//! across it, or when the move turns a position the referee did not see lost into a proven loss,
//! unless it is the referee's own choice (then the referee merely saw further after the move).
//! A blunder is **tactical** when after it the referee proves a forced win for the opponent
//! within a given number of plies, else **positional**. Values are clipped to ±[`CLIP`] (a proven
//! result counts as the clip) before losses are taken, so one mate score does not swamp a mean.
//!
//! Games are the arena's `game-NNNNN.psq` records; the opening is the leading run of stones
//! recorded with 0 ms (the arena writes book stones so).

use crate::engine::{EngineProc, Failure};
use crate::game::board_command;
use renju_engine::board::Board;
use renju_engine::postmortem::parse_psq;
use renju_engine::rules;
use renju_engine::types::{Color, Pos, Rule};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// Values are clipped to ±`CLIP` before a loss is taken; a proven result counts as the clip.
pub const CLIP: i32 = 1000;

/// Stones per phase bin of the report (stones on the board before the move).
pub const BIN: usize = 10;

/// A referee's score of a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// A value in the referee's units.
    Value(i32),
    /// A proven win in this many plies.
    Win(u32),
    /// A proven loss in this many plies.
    Loss(u32),
}

impl Score {
    /// The score for the other side.
    #[must_use]
    pub fn negate(self) -> Score {
        match self {
            Score::Value(v) => Score::Value(-v),
            Score::Win(n) => Score::Loss(n),
            Score::Loss(n) => Score::Win(n),
        }
    }

    /// The value clipped to ±[`CLIP`] (a proven result is the clip).
    #[must_use]
    pub fn clipped(self) -> i32 {
        match self {
            Score::Value(v) => v.clamp(-CLIP, CLIP),
            Score::Win(_) => CLIP,
            Score::Loss(_) => -CLIP,
        }
    }

    /// The score as printed: `+35`, `+M9`, `-M9`.
    #[must_use]
    pub fn text(self) -> String {
        match self {
            Score::Value(v) => format!("{v:+}"),
            Score::Win(n) => format!("+M{n}"),
            Score::Loss(n) => format!("-M{n}"),
        }
    }
}

/// What one `MESSAGE` line of a referee says: a score, a line, or both.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Said {
    /// The score, if the line has one.
    pub score: Option<Score>,
    /// The line of play, if the line has one.
    pub line: Option<Vec<Pos>>,
}

/// Read one output line of a referee on a board of side `size` (see the module documentation
/// for the two formats); `None` for a line that is neither.
#[must_use]
pub fn parse_message(line: &str, size: usize) -> Option<Said> {
    let rest = line.trim().strip_prefix("MESSAGE")?.trim();
    let rest = rest.strip_prefix("[Pondering]").map_or(rest, str::trim);
    if let Some(t) = rest.strip_prefix("depth ") {
        return parse_own(t, size);
    }
    if let Some(t) = rest.strip_prefix("Bestline ") {
        let line = parse_letter_line(t, size)?;
        return Some(Said {
            score: None,
            line: Some(line),
        });
    }
    if rest.starts_with("Depth ") || rest.starts_with("Speed ") {
        return parse_rapfi(rest, size);
    }
    None
}

/// This engine's `depth D ev S [win in N | loss in N] n … pv x,y …` (after `depth `).
fn parse_own(t: &str, size: usize) -> Option<Said> {
    let words: Vec<&str> = t.split_whitespace().collect();
    let ev = words.iter().position(|w| *w == "ev")?;
    let v: i32 = words.get(ev + 1)?.parse().ok()?;
    let mut score = Score::Value(v);
    if let (Some(&kind), Some(&"in"), Some(n)) =
        (words.get(ev + 2), words.get(ev + 3), words.get(ev + 4))
    {
        let n: u32 = n.parse().ok()?;
        score = match kind {
            "win" => Score::Win(n),
            "loss" => Score::Loss(n),
            _ => score,
        };
    }
    let line = match words.iter().position(|w| *w == "pv") {
        Some(i) => {
            let mut out = Vec::new();
            for w in &words[i + 1..] {
                let (x, y) = w.split_once(',')?;
                let (x, y): (usize, usize) = (x.parse().ok()?, y.parse().ok()?);
                if x >= size || y >= size {
                    return None;
                }
                out.push(Pos::new(x, y, size));
            }
            Some(out)
        }
        None => None,
    };
    Some(Said {
        score: Some(score),
        line,
    })
}

/// Rapfi's `Depth D-S | Eval V | Time T | LINE` or `Speed … | Eval V | …`.
fn parse_rapfi(t: &str, size: usize) -> Option<Said> {
    let fields: Vec<&str> = t.split('|').map(str::trim).collect();
    let eval = fields.iter().find_map(|f| f.strip_prefix("Eval "))?.trim();
    let score = if let Some(n) = eval.strip_prefix("+M") {
        Score::Win(n.parse().ok()?)
    } else if let Some(n) = eval.strip_prefix("-M") {
        Score::Loss(n.parse().ok()?)
    } else {
        Score::Value(eval.parse().ok()?)
    };
    // The line is the last field of a depth line (none on the closing `Speed` line).
    let line = if t.starts_with("Depth ") && fields.len() >= 4 {
        parse_letter_line(fields[fields.len() - 1], size)
    } else {
        None
    };
    Some(Said {
        score: Some(score),
        line,
    })
}

/// Cells as `K9 L10` (letter = x from `A`, number = y + 1, Gomocup axes).
fn parse_letter_line(t: &str, size: usize) -> Option<Vec<Pos>> {
    let mut out = Vec::new();
    for w in t.split_whitespace() {
        let mut chars = w.chars();
        let letter = chars.next()?.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() {
            return None;
        }
        let x = (letter as u8 - b'A') as usize;
        let y: usize = chars.as_str().parse().ok()?;
        if x >= size || y == 0 || y > size {
            return None;
        }
        out.push(Pos::new(x, y - 1, size));
    }
    Some(out)
}

/// The referee's verdict on one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Eval {
    /// The score for the side to move; `None` when the referee moved without printing one (an
    /// engine may answer a forced move at once).
    pub score: Option<Score>,
    /// The move the referee played.
    pub best: Pos,
    /// Its line (the move first), as far as it printed one.
    pub line: Vec<Pos>,
}

/// How the referee is asked.
#[derive(Clone, Debug)]
pub struct RefereeConfig {
    /// Rule of the games.
    pub rule: Rule,
    /// Time per position (ms), sent as `INFO timeout_turn`.
    pub turn_ms: u64,
    /// Extra time before the referee counts as hung (ms).
    pub tolerance_ms: u64,
    /// `max_memory` sent (bytes).
    pub max_memory: u64,
    /// Output quiet time before each command (ms; see [`EngineProc::settle`]).
    pub settle_ms: u64,
}

/// Start a game of side `size` on the referee (`START`, then the settings).
///
/// # Errors
/// The referee did not answer `OK`.
pub fn start(e: &mut EngineProc, size: usize, cfg: &RefereeConfig) -> Result<(), String> {
    e.settle(Duration::from_millis(cfg.settle_ms));
    e.send(&format!("START {size}"))
        .map_err(|_| "the referee exited".to_string())?;
    let ok = e
        .recv_line(Instant::now() + Duration::from_millis(5_000 + cfg.tolerance_ms))
        .map_err(|f| format!("the referee did not answer START ({f:?})"))?;
    if !ok.eq_ignore_ascii_case("OK") {
        return Err(format!("the referee answered START with '{ok}'"));
    }
    for l in [
        format!("INFO rule {}", cfg.rule.gomocup()),
        "INFO timeout_match 0".to_string(),
        format!("INFO timeout_turn {}", cfg.turn_ms),
        format!("INFO max_memory {}", cfg.max_memory),
        "INFO game_type 1".to_string(),
    ] {
        e.send(&l).map_err(|_| "the referee exited".to_string())?;
    }
    Ok(())
}

/// Ask the referee for its move and evaluation of `board` (side to move), after [`start`].
///
/// # Errors
/// The referee exited, hung, or answered with something that is not a legal move.
pub fn evaluate(e: &mut EngineProc, board: &Board, cfg: &RefereeConfig) -> Result<Eval, String> {
    let size = board.size();
    e.settle(Duration::from_millis(cfg.settle_ms));
    e.send(&board_command(board, board.side_to_move()))
        .map_err(|_| "the referee exited".to_string())?;
    let deadline = Instant::now() + Duration::from_millis(cfg.turn_ms + cfg.tolerance_ms);
    let mut score = None;
    let mut line = Vec::new();
    loop {
        let l = e.recv_raw(deadline).map_err(|f| match f {
            Failure::Timeout => "the referee did not answer in time".to_string(),
            Failure::Crash => "the referee exited".to_string(),
        })?;
        if l.to_ascii_uppercase().starts_with("MESSAGE") {
            if let Some(said) = parse_message(&l, size) {
                if said.score.is_some() {
                    score = said.score;
                }
                if let Some(v) = said.line.filter(|v| !v.is_empty()) {
                    line = v;
                }
            }
            continue;
        }
        if l.to_ascii_uppercase().starts_with("DEBUG") {
            continue;
        }
        let best = crate::game::parse_move(&l)
            .filter(|&(x, y)| x >= 0 && y >= 0 && (x as usize) < size && (y as usize) < size)
            .map(|(x, y)| Pos::new(x as usize, y as usize, size))
            .filter(|&p| board.is_empty(p))
            .ok_or_else(|| format!("the referee answered '{l}', not a move"))?;
        if line.first() != Some(&best) {
            line = vec![best];
        }
        return Ok(Eval { score, best, line });
    }
}

/// One move of the loser, judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    /// Stones on the board before the move.
    pub ply: usize,
    /// The move played.
    pub played: Pos,
    /// The referee's score of the position before it (the loser to move).
    pub before: Score,
    /// The referee's score after it, for the loser.
    pub after: Score,
    /// The referee's move and line before it.
    pub best: Vec<Pos>,
    /// The referee's line after it (the winner's reply first).
    pub reply: Vec<Pos>,
}

impl Judged {
    /// The drop in the loser's clipped value across the move (0 when it rose).
    #[must_use]
    pub fn loss(&self) -> i32 {
        (self.before.clipped() - self.after.clipped()).max(0)
    }

    /// Whether the move equals the referee's choice.
    #[must_use]
    pub fn agrees(&self) -> bool {
        self.best.first() == Some(&self.played)
    }

    /// Whether the move is a blunder: the value dropped by more than `threshold`, or a position
    /// not proven lost became proven lost. The referee's own choice never is: a drop across it
    /// is the referee seeing further after the move than before it (the position was lost
    /// earlier, or the referee's search is too short to tell).
    #[must_use]
    pub fn is_blunder(&self, threshold: i32) -> bool {
        !self.agrees()
            && (self.loss() > threshold
                || (!matches!(self.before, Score::Loss(_)) && matches!(self.after, Score::Loss(_))))
    }

    /// Tactical (the referee proves the opponent's win within `mate_plies` after the move) or
    /// positional.
    #[must_use]
    pub fn kind(&self, mate_plies: u32) -> &'static str {
        match self.after {
            Score::Loss(n) if n <= mate_plies => "tactical",
            _ => "positional",
        }
    }
}

/// A decisive game read from a record.
#[derive(Clone, Debug)]
pub struct Game {
    /// The record's number.
    pub number: usize,
    /// Board side (from the record's header).
    pub size: usize,
    /// The stones in order.
    pub moves: Vec<Pos>,
    /// Opening stones at the start of `moves`.
    pub opening: usize,
    /// The loser's colour.
    pub loser: Color,
    /// The loser's name (from the record).
    pub loser_name: String,
    /// The result comment of the record (`1-0 five`).
    pub result: String,
}

/// Read an arena psq record of a game on a `rule` board: `None` for a draw.
///
/// # Errors
/// A malformed record or an illegal stone.
pub fn read_game(number: usize, text: &str, rule: Rule) -> Result<Option<Game>, String> {
    let header = text.lines().next().unwrap_or("");
    let size: usize = header
        .strip_prefix("Piskvorky ")
        .and_then(|h| h.split('x').next())
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| format!("game {number}: not a psq record"))?;
    let stones = parse_psq(text, size).map_err(|e| format!("game {number}: {e}"))?;
    let tail: Vec<&str> = text
        .lines()
        .skip_while(|l| l.trim() != "-1")
        .skip(1)
        .collect();
    let (black, white, result) = match tail.as_slice() {
        [b, w, r, ..] => (b.trim(), w.trim(), r.trim()),
        _ => return Err(format!("game {number}: no names and result")),
    };
    let loser = if result.starts_with("1-0") {
        Color::White
    } else if result.starts_with("0-1") {
        Color::Black
    } else {
        return Ok(None);
    };
    let mut board = Board::new(size, rule).map_err(|e| e.to_string())?;
    let mut moves = Vec::new();
    for (i, &(p, _)) in stones.iter().enumerate() {
        // The last stone of a game lost by a foul is the foul itself: kept, never replayed.
        if rules::try_play(&mut board, p).is_err() && i + 1 != stones.len() {
            return Err(format!(
                "game {number}: illegal stone {}",
                p.to_gomocup(size)
            ));
        }
        moves.push(p);
    }
    let opening = stones.iter().take_while(|s| s.1 == 0).count();
    Ok(Some(Game {
        number,
        size,
        moves,
        opening,
        loser,
        loser_name: if loser == Color::Black { black } else { white }.to_string(),
        result: result.to_string(),
    }))
}

/// The loser's moves of `game` judged by the referee `e` (every move after the opening, up to
/// `max_moves` of them; a move the referee did not score before and after is left out); the
/// game is started on the referee first, under the rule of `cfg`.
///
/// # Errors
/// The referee failed (see [`evaluate`]).
pub fn judge_game(
    e: &mut EngineProc,
    game: &Game,
    cfg: &RefereeConfig,
    max_moves: usize,
) -> Result<Vec<Judged>, String> {
    start(e, game.size, cfg)?;
    let mut board = Board::new(game.size, cfg.rule).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for (i, &p) in game.moves.iter().enumerate() {
        let mine = board.side_to_move() == game.loser;
        // The loser's last stone (a foul, say) has no position after it worth asking.
        if mine && i >= game.opening && i + 1 < game.moves.len() && out.len() < max_moves {
            let before = evaluate(e, &board, cfg)?;
            let mut after_board = board.clone();
            after_board.play_unchecked(p);
            if rules::is_win(&after_board, p) {
                break;
            }
            let after = evaluate(e, &after_board, cfg)?;
            // A move the referee scored on one side only is left out.
            if let (Some(b), Some(a)) = (before.score, after.score) {
                out.push(Judged {
                    ply: i,
                    played: p,
                    before: b,
                    after: a.negate(),
                    best: before.line,
                    reply: after.line,
                });
            }
        }
        board.play_unchecked(p);
    }
    Ok(out)
}

/// A game's post-mortem: its moves judged and the first blunder among them.
#[derive(Clone, Debug)]
pub struct Review {
    /// The game.
    pub game: Game,
    /// The loser's moves judged.
    pub judged: Vec<Judged>,
    /// Index into `judged` of the first blunder.
    pub blunder: Option<usize>,
}

impl Review {
    /// The review of `game` from its judged moves, with the blunder threshold.
    #[must_use]
    pub fn new(game: Game, judged: Vec<Judged>, threshold: i32) -> Review {
        let blunder = judged.iter().position(|j| j.is_blunder(threshold));
        Review {
            game,
            judged,
            blunder,
        }
    }
}

/// The report's settings.
#[derive(Clone, Copy, Debug)]
pub struct ReportConfig {
    /// Board side.
    pub size: usize,
    /// Blunder threshold (referee units).
    pub threshold: i32,
    /// A blunder is tactical when the opponent's proven win after it is at most this long.
    pub mate_plies: u32,
}

fn line_text(v: &[Pos], size: usize) -> String {
    v.iter()
        .map(|p| p.to_renju(size))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The report: a line per game, then the first blunders by phase (stones on the board in bins
/// of [`BIN`]) and kind, how often the loser's move equals the referee's, and the mean loss per
/// move by phase.
#[must_use]
pub fn report(reviews: &[Review], cfg: &ReportConfig) -> String {
    let size = cfg.size;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "referee post-mortem: {} decisive games; blunder = a drop of more than {} (values clipped to ±{CLIP}) or a proven loss let in; tactical = the opponent's win proven within {} plies",
        reviews.len(),
        cfg.threshold,
        cfg.mate_plies
    );
    let bins = reviews
        .iter()
        .flat_map(|r| r.judged.iter().map(|j| j.ply / BIN + 1))
        .max()
        .unwrap_or(0);
    let mut first = vec![[0u32; 2]; bins];
    let mut loss = vec![(0i64, 0u32, 0u32); bins];
    let (mut agree, mut moves) = (0u32, 0u32);
    let mut none = 0;
    for r in reviews {
        let g = &r.game;
        for j in &r.judged {
            let b = j.ply / BIN;
            loss[b].0 += i64::from(j.loss());
            loss[b].1 += 1;
            loss[b].2 += u32::from(j.agrees());
            agree += u32::from(j.agrees());
            moves += 1;
        }
        match r.blunder.map(|i| &r.judged[i]) {
            Some(j) => {
                let kind = j.kind(cfg.mate_plies);
                first[j.ply / BIN][usize::from(kind == "positional")] += 1;
                let _ = writeln!(
                    s,
                    "game {}: {} lost ({}): stone {} {} {} -> {} ({}), referee {} ({}); reply {}",
                    g.number,
                    g.loser_name,
                    g.result,
                    j.ply + 1,
                    j.played.to_renju(size),
                    j.before.text(),
                    j.after.text(),
                    kind,
                    j.best.first().map_or("-".into(), |p| p.to_renju(size)),
                    line_text(&j.best, size),
                    line_text(&j.reply, size),
                );
            }
            None => {
                none += 1;
                let _ = writeln!(
                    s,
                    "game {}: {} lost ({}): no blunder found in {} moves",
                    g.number,
                    g.loser_name,
                    g.result,
                    r.judged.len()
                );
            }
        }
    }
    let _ = writeln!(
        s,
        "first blunders by stones on the board (tactical/positional):"
    );
    for (b, [t, p]) in first.iter().enumerate() {
        if t + p > 0 {
            let _ = writeln!(s, "  {:>3}-{:<3} {t}/{p}", b * BIN, b * BIN + BIN - 1);
        }
    }
    let (t, p): (u32, u32) = first.iter().fold((0, 0), |a, x| (a.0 + x[0], a.1 + x[1]));
    let _ = writeln!(
        s,
        "  total {t} tactical, {p} positional, {none} games without a blunder"
    );
    s.push_str(&slide_lines(reviews, cfg));
    let pct = |a: u32, n: u32| 100.0 * f64::from(a) / f64::from(n.max(1));
    let _ = writeln!(
        s,
        "the loser's move equals the referee's: {agree} of {moves} ({:.0}%)",
        pct(agree, moves)
    );
    let _ = writeln!(
        s,
        "mean loss per move of the loser by stones on the board (moves, agreement):"
    );
    for (b, &(sum, n, a)) in loss.iter().enumerate() {
        if n > 0 {
            let _ = writeln!(
                s,
                "  {:>3}-{:<3} {:>6.1} ({n}, {:.0}%)",
                b * BIN,
                b * BIN + BIN - 1,
                sum as f64 / f64::from(n),
                pct(a, n)
            );
        }
    }
    s
}

/// The median of `v` (the upper one of an even count), or `-` when empty.
fn median_text(v: &mut [i64]) -> String {
    v.sort_unstable();
    v.get(v.len() / 2)
        .map_or_else(|| "-".into(), ToString::to_string)
}

/// The report's lines on how the games slid: the first blunders that let in a proven loss and
/// its length, the loser's value before its first blunder, and the stone at which the loser's
/// value (before its move) first reached `-2 * threshold` or below.
fn slide_lines(reviews: &[Review], cfg: &ReportConfig) -> String {
    let blunders: Vec<&Judged> = reviews
        .iter()
        .filter_map(|r| r.blunder.map(|i| &r.judged[i]))
        .collect();
    let mut mates: Vec<i64> = blunders
        .iter()
        .filter_map(|j| match j.after {
            Score::Loss(n) => Some(i64::from(n)),
            _ => None,
        })
        .collect();
    let mut before: Vec<i64> = blunders
        .iter()
        .map(|j| i64::from(j.before.clipped()))
        .collect();
    let behind = before
        .iter()
        .filter(|&&v| v <= -i64::from(cfg.threshold))
        .count();
    let low = -2 * cfg.threshold;
    let mut slid: Vec<i64> = reviews
        .iter()
        .filter_map(|r| {
            r.judged
                .iter()
                .find(|j| j.before.clipped() <= low)
                .map(|j| j.ply as i64 + 1)
        })
        .collect();
    let (n_mates, n_slid) = (mates.len(), slid.len());
    let range = match (mates.iter().min(), mates.iter().max()) {
        (Some(a), Some(b)) => format!(", {a}-{b}"),
        _ => String::new(),
    };
    format!(
        "  first blunders that let in a proven loss: {n_mates} of {} (plies: median {}{range}); the loser's value before its first blunder: median {}, at or below -{} in {behind}\n  the loser's value first at or below {low} before its move: median stone {} in {n_slid} of {} games\n",
        blunders.len(),
        median_text(&mut mates),
        median_text(&mut before),
        cfg.threshold,
        median_text(&mut slid),
        reviews.len()
    )
}

/// A blunder position: the position before the move, the move played and the referee's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlunderPosition {
    /// The stones in order; the loser is to move.
    pub moves: Vec<Pos>,
    /// The move played.
    pub played: Pos,
    /// The referee's line, its best move first.
    pub best: Vec<Pos>,
}

impl BlunderPosition {
    /// One line of a position file: `<moves> ; <referee line> ; <played>` in renju cells
    /// (`h8`, on any board side up to 26).
    #[must_use]
    pub fn to_line(&self, size: usize) -> String {
        format!(
            "{} ; {} ; {}",
            line_text(&self.moves, size),
            line_text(&self.best, size),
            self.played.to_renju(size)
        )
    }

    /// Parse a line of [`BlunderPosition::to_line`].
    ///
    /// # Errors
    /// A malformed line.
    pub fn parse(line: &str, size: usize) -> Result<BlunderPosition, String> {
        let bad = || format!("bad blunder line '{line}'");
        let parts: Vec<&str> = line.split(';').map(str::trim).collect();
        let [moves, best, played] = parts.as_slice() else {
            return Err(bad());
        };
        let list = |t: &str| renju_engine::types::parse_renju_list(t, size).map_err(|_| bad());
        let best = list(best)?;
        let played = list(played)?;
        if best.is_empty() || played.len() != 1 {
            return Err(bad());
        }
        Ok(BlunderPosition {
            moves: list(moves)?,
            played: played[0],
            best,
        })
    }
}

/// The blunder positions of `reviews` as a position file (a comment header, then one
/// [`BlunderPosition::to_line`] per game with a blunder, the game, stone and scores in a
/// trailing comment line above it).
#[must_use]
pub fn positions_file(reviews: &[Review], cfg: &ReportConfig, header: &str) -> String {
    let mut s = String::new();
    for l in header.lines() {
        let _ = writeln!(s, "# {l}");
    }
    let _ = writeln!(
        s,
        "# one blunder a line: <stones in order> ; <the referee's line, its move first> ; <the move played>"
    );
    for r in reviews {
        let Some(j) = r.blunder.map(|i| &r.judged[i]) else {
            continue;
        };
        let p = BlunderPosition {
            moves: r.game.moves[..j.ply].to_vec(),
            played: j.played,
            best: j.best.clone(),
        };
        let _ = writeln!(
            s,
            "# game {} stone {} {} -> {} {}",
            r.game.number,
            j.ply + 1,
            j.before.text(),
            j.after.text(),
            j.kind(cfg.mate_plies)
        );
        let _ = writeln!(s, "{}", p.to_line(cfg.size));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_message_formats_are_read() {
        let p = |x, y| Pos::new(x, y, 15);
        assert_eq!(
            parse_message("MESSAGE depth 12 ev -35 n 100 n/s 5 tm 20 pv 7,7 8,6", 15),
            Some(Said {
                score: Some(Score::Value(-35)),
                line: Some(vec![p(7, 7), p(8, 6)])
            })
        );
        assert_eq!(
            parse_message(
                "MESSAGE depth 9 ev 29991 win in 9 n 1 n/s 1 tm 1 pv 1,2",
                15
            )
            .unwrap()
            .score,
            Some(Score::Win(9))
        );
        assert_eq!(
            parse_message("MESSAGE depth 9 ev -29991 loss in 8 n 1 n/s 1 tm 1 pv", 15)
                .unwrap()
                .score,
            Some(Score::Loss(8))
        );
        assert_eq!(
            parse_message("MESSAGE Depth 11-23 | Eval 111 | Time 70ms | K9 L10", 15),
            Some(Said {
                score: Some(Score::Value(111)),
                line: Some(vec![p(10, 8), p(11, 9)])
            })
        );
        assert_eq!(
            parse_message("MESSAGE Depth 26-3 | Eval -M4 | Time 1ms | F11 H12", 15)
                .unwrap()
                .score,
            Some(Score::Loss(4))
        );
        let speed = parse_message(
            "MESSAGE Speed 696K | Depth 11-23 | Eval +M15 | Node 48K | Time 70ms",
            15,
        )
        .unwrap();
        assert_eq!(speed.score, Some(Score::Win(15)));
        assert_eq!(speed.line, None);
        assert_eq!(
            parse_message("MESSAGE Bestline A1 O15", 15).unwrap().line,
            Some(vec![p(0, 0), p(14, 14)])
        );
        // Not evaluations: other messages, cells off the board, bad numbers.
        assert_eq!(parse_message("MESSAGE REALTIME BEST 7,7", 15), None);
        assert_eq!(
            parse_message("MESSAGE OptiTime 63ms | MaxTime 70ms", 15),
            None
        );
        assert_eq!(parse_message("7,7", 15), None);
        assert_eq!(parse_message("MESSAGE Bestline P1", 15), None);
        assert_eq!(parse_message("MESSAGE depth 3 ev x pv 1,1", 15), None);
        assert_eq!(parse_message("MESSAGE depth 3 ev 5 pv 15,1", 15), None);
    }

    fn judged(ply: usize, before: Score, after: Score) -> Judged {
        Judged {
            ply,
            played: Pos::new(1, 1, 15),
            before,
            after,
            best: vec![Pos::new(2, 2, 15)],
            reply: vec![],
        }
    }

    #[test]
    fn blunders_are_drops_past_the_threshold_or_a_loss_let_in() {
        let v = Score::Value;
        assert_eq!(judged(6, v(100), v(-50)).loss(), 150);
        assert!(!judged(6, v(100), v(-50)).is_blunder(150));
        assert!(judged(6, v(100), v(-51)).is_blunder(150));
        assert_eq!(judged(6, v(-50), v(100)).loss(), 0);
        // Clipped: a mate score counts as the clip, not as its raw value.
        assert_eq!(judged(6, Score::Win(3), v(5000)).loss(), 0);
        assert_eq!(judged(6, v(0), Score::Loss(9)).loss(), CLIP);
        // A proven loss let in is a blunder whatever the drop; one already there is not.
        assert!(judged(6, v(-990), Score::Loss(40)).is_blunder(150));
        assert!(!judged(6, Score::Loss(9), Score::Loss(7)).is_blunder(150));
        // The referee's own move is no blunder, whatever it sees after it.
        let mut own = judged(6, v(100), Score::Loss(9));
        assert!(own.is_blunder(150));
        own.best = vec![own.played];
        assert!(own.agrees());
        assert!(!own.is_blunder(150));
        assert_eq!(judged(6, v(0), Score::Loss(9)).kind(20), "tactical");
        assert_eq!(judged(6, v(0), Score::Loss(29)).kind(20), "positional");
        assert_eq!(judged(6, v(400), v(0)).kind(20), "positional");
        assert_eq!(Score::Win(4).negate(), Score::Loss(4));
        assert_eq!(Score::Value(-7).text(), "-7");
    }

    #[test]
    fn the_report_counts_blunders_slides_and_losses() {
        let v = Score::Value;
        let game = |n| Game {
            number: n,
            size: 15,
            moves: vec![],
            opening: 0,
            loser: Color::White,
            loser_name: "w".into(),
            result: "1-0 five".into(),
        };
        let reviews = vec![
            // A slide: -350 at stone 8, then a proven loss in 25 let in at stone 12.
            Review::new(
                game(1),
                vec![
                    judged(5, v(0), v(-100)),
                    judged(7, v(-350), v(-400)),
                    judged(11, v(-400), Score::Loss(25)),
                ],
                150,
            ),
            // A drop of 300 at stone 3 from level ground, never below -300 before a move.
            Review::new(game(2), vec![judged(2, v(0), v(-300))], 150),
            // No blunder at all.
            Review::new(game(3), vec![judged(2, v(0), v(10))], 150),
        ];
        let r = report(
            &reviews,
            &ReportConfig {
                size: 15,
                threshold: 150,
                mate_plies: 20,
            },
        );
        assert!(r.contains("3 decisive games"), "{r}");
        assert!(
            r.contains("game 1: w lost (1-0 five): stone 12 b14 -400 -> -M25 (positional)"),
            "{r}"
        );
        assert!(
            r.contains("game 2: w lost (1-0 five): stone 3 b14 +0 -> -300 (positional)"),
            "{r}"
        );
        assert!(
            r.contains("game 3: w lost (1-0 five): no blunder found in 1 moves"),
            "{r}"
        );
        assert!(r.contains("  0-9   0/1\n   10-19  0/1\n"), "{r}");
        assert!(
            r.contains("total 0 tactical, 2 positional, 1 games without a blunder"),
            "{r}"
        );
        assert!(
            r.contains("let in a proven loss: 1 of 2 (plies: median 25, 25-25)"),
            "{r}"
        );
        assert!(
            r.contains("before its first blunder: median 0, at or below -150 in 1"),
            "{r}"
        );
        assert!(
            r.contains("first at or below -300 before its move: median stone 8 in 1 of 3 games"),
            "{r}"
        );
        assert!(r.contains("equals the referee's: 0 of 5 (0%)"), "{r}");
        // Stones 0-9: losses 100, 50, 300, 0 over four moves; 10-19: 600 over one.
        assert!(r.contains("    0-9    112.5 (4, 0%)"), "{r}");
        assert!(r.contains("   10-19   600.0 (1, 0%)"), "{r}");
    }

    #[test]
    fn blunder_positions_read_back() {
        let p = BlunderPosition {
            moves: vec![Pos::new(7, 7, 15), Pos::new(8, 8, 15)],
            played: Pos::new(0, 14, 15),
            best: vec![Pos::new(6, 6, 15), Pos::new(5, 5, 15)],
        };
        let l = p.to_line(15);
        assert_eq!(l, "h8 i7 ; g9 f10 ; a1");
        assert_eq!(BlunderPosition::parse(&l, 15).unwrap(), p);
        assert!(BlunderPosition::parse("h8 ; ; a1", 15).is_err());
        assert!(BlunderPosition::parse("h8 ; g9", 15).is_err());
        assert!(BlunderPosition::parse("h8 ; g9 ; a1 a2", 15).is_err());
    }
}
