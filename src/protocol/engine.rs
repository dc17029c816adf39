//! Command execution: the game state, one handler per command, time and memory budgets.

use super::command::{parse_xy, parse_xyf, Command};
use super::Shared;
use crate::board::Board;
use crate::eval::is_mate;
use crate::rules::{self, renju};
use crate::search::{Iteration, Limits, Reporter, SearchResult, Searcher};
use crate::types::{valid_size, Color, Pos, Rule};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `time_left` value meaning "no match clock".
const UNLIMITED: i64 = 2_147_483_647;
/// Memory budget when `max_memory` is 0 or absent (bytes).
const DEFAULT_MEMORY: u64 = 350 * 1024 * 1024;
/// Memory the engine needs besides the transposition table (bytes): tables, boards, stacks.
const BASE_MEMORY: u64 = 24 * 1024 * 1024;

/// Search threads until the manager sends `INFO thread_num` (see [`set_default_threads`]).
static DEFAULT_THREADS: AtomicUsize = AtomicUsize::new(1);

/// Threads the process searches with until the manager sends `INFO thread_num` (1 unless
/// set; clamped to 1..=256 as `thread_num` is). For match runners that cannot send `INFO`
/// lines of their own, through the `pbrain-renju-engine --threads N` argument.
pub fn set_default_threads(n: usize) {
    DEFAULT_THREADS.store(n.clamp(1, 256), Ordering::Relaxed);
}

/// Settings received by `INFO`.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Per-move limit (ms); `None` = not sent.
    pub timeout_turn: Option<u64>,
    /// Match limit (ms); 0 = none.
    pub timeout_match: u64,
    /// Match time left (ms), as last sent.
    pub time_left: Option<i64>,
    /// Memory limit (bytes); 0 = none.
    pub max_memory: u64,
    /// Rule.
    pub rule: Rule,
    /// Search threads.
    pub threads: usize,
    /// Depth limit.
    pub max_depth: i32,
    /// Node limit.
    pub max_nodes: Option<u64>,
    /// Yixin `show_detail`: 0 none; bit 0 `MESSAGE REALTIME` lines; bit 1 detail lines. Without
    /// the key: detail lines.
    pub show_detail: u32,
    /// Yixin `hash_size` cap in KB (0 = none).
    pub hash_kb: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            timeout_turn: None,
            timeout_match: 0,
            time_left: None,
            max_memory: 0,
            rule: Rule::Freestyle,
            threads: DEFAULT_THREADS.load(Ordering::Relaxed),
            max_depth: 64,
            max_nodes: None,
            show_detail: 2,
            hash_kb: 0,
        }
    }
}

impl Settings {
    /// Apply one `INFO key value`; unknown keys and unusable values are ignored.
    pub fn apply_info(&mut self, key: &str, value: &str) {
        let int = value.trim().parse::<i64>().ok();
        match (key, int) {
            ("timeout_turn", Some(v)) => self.timeout_turn = Some(v.max(0) as u64),
            ("timeout_match", Some(v)) => self.timeout_match = v.max(0) as u64,
            ("time_left", Some(v)) => self.time_left = Some(v),
            ("max_memory", Some(v)) => self.max_memory = v.max(0) as u64,
            ("rule", Some(v)) => {
                if let Some(r) = Rule::from_gomocup(v) {
                    self.rule = r;
                }
            }
            ("thread_num", Some(v)) => self.threads = v.clamp(1, 256) as usize,
            ("max_depth", Some(v)) => self.max_depth = v.clamp(1, 64) as i32,
            ("max_node", Some(v)) => self.max_nodes = (v > 0).then_some(v as u64),
            ("show_detail", Some(v)) => self.show_detail = v.clamp(0, 3) as u32,
            ("hash_size", Some(v)) => self.hash_kb = v.max(0) as u64,
            _ => {}
        }
    }

    /// Transposition-table size (MB) within the memory budget.
    #[must_use]
    pub fn hash_mb(&self) -> usize {
        let budget = if self.max_memory == 0 {
            DEFAULT_MEMORY
        } else {
            self.max_memory
        };
        let mut avail = budget.saturating_sub(BASE_MEMORY) * 6 / 10;
        if self.hash_kb > 0 {
            avail = avail.min(self.hash_kb * 1024);
        }
        let mut mb = 1usize;
        while ((mb as u64) * 2) << 20 <= avail && mb < 4096 {
            mb *= 2;
        }
        mb
    }

    /// Search limits for one move, measured from `received`, with `stones` on the board.
    #[must_use]
    pub fn limits(&self, received: Instant, stones: usize) -> Limits {
        let turn = self.timeout_turn.or(Some(5_000));
        let match_left = match self.time_left {
            Some(t)
                if t != UNLIMITED && (self.timeout_match > 0 || self.timeout_turn.is_none()) =>
            {
                Some(t)
            }
            _ => None,
        };
        let budget = match (turn, match_left) {
            (Some(t), Some(m)) => t.min(m.max(0) as u64),
            (t, _) => t.unwrap_or(5_000),
        };
        let margin = (20 + budget / 50).min(250);
        let spent = received.elapsed().as_millis() as u64;
        let mut l = Limits::from_clock(
            turn.map(|t| t.saturating_sub(spent)),
            match_left.map(|m| m - spent as i64),
            margin,
            stones,
        );
        l.max_depth = self.max_depth;
        l.max_nodes = self.max_nodes;
        l
    }
}

/// Writes whole lines and flushes each.
struct Out {
    w: Box<dyn Write + Send>,
}

impl Out {
    fn line(&mut self, s: &str) {
        // A broken pipe means the manager is gone: nothing useful to do.
        let _ = writeln!(self.w, "{s}");
        let _ = self.w.flush();
    }
}

struct MessageReporter<'a> {
    out: &'a mut Out,
    detail: u32,
    last_best: Option<Pos>,
    size: usize,
}

impl Reporter for MessageReporter<'_> {
    fn iteration(&mut self, it: &Iteration) {
        let xy = |p: &Pos| p.to_gomocup(self.size);
        if self.detail & 2 != 0 {
            let ms = it.elapsed.as_millis().max(1);
            let pv: Vec<String> = it.pv.iter().map(xy).collect();
            self.out.line(&format!(
                "MESSAGE depth {} ev {} n {} n/s {} tm {} pv {}",
                it.depth,
                it.score,
                it.nodes,
                u128::from(it.nodes) * 1000 / ms,
                it.elapsed.as_millis(),
                pv.join(" ")
            ));
        }
        if self.detail & 1 != 0 {
            if let Some(&b) = it.pv.first() {
                if self.last_best != Some(b) {
                    self.out.line(&format!("MESSAGE REALTIME BEST {}", xy(&b)));
                    self.last_best = Some(b);
                }
            }
        }
    }
}

/// The protocol engine's state.
pub struct Engine {
    shared: Arc<Shared>,
    out: Out,
    board: Option<Board>,
    searcher: Searcher,
    blocked: Vec<Pos>,
    /// Cells given as field 3 in the last `BOARD` (stones of neither colour): never played.
    neutral: Vec<Pos>,
}

impl Engine {
    /// A fresh engine writing to `out`.
    #[must_use]
    pub fn new(shared: Arc<Shared>, out: Box<dyn Write + Send>) -> Engine {
        Engine {
            shared,
            out: Out { w: out },
            board: None,
            searcher: Searcher::new(1, 1),
            blocked: Vec::new(),
            neutral: Vec::new(),
        }
    }

    /// Whether `END` was read.
    #[must_use]
    pub fn ending(&self) -> bool {
        self.shared.ending.load(Ordering::Relaxed)
    }

    fn settings(&self) -> super::Settings {
        self.shared
            .settings
            .lock()
            .map(|s| s.clone())
            .unwrap_or_default()
    }

    /// Execute one command.
    pub fn execute(&mut self, cmd: Command, received: Instant) {
        match cmd {
            Command::Start(v) => self.start(&v),
            Command::RectStart(w, h) => {
                if w == h {
                    self.start(&[w]);
                } else {
                    self.out.line("ERROR rectangular boards are not supported");
                }
            }
            Command::Restart => self.restart(),
            Command::Begin => self.begin(received),
            Command::Turn(x, y) => self.turn(x, y, received),
            Command::Board(lines) => self.board_cmd(&lines, true, received),
            Command::YxBoard(lines) => self.board_cmd(&lines, false, received),
            Command::About => self.out.line(
                "name=\"renju-engine\", version=\"0.1.0\", author=\"renju-engine developers\", country=\"-\", www=\"-\"",
            ),
            Command::Takeback(x, y) => self.takeback(x, y),
            Command::Play(x, y) => self.play(x, y, received),
            Command::Swap2Board(lines) => self.swap2(&lines, received),
            Command::ShowForbid => self.show_forbid(),
            Command::NBest(n) => self.nbest(n, received),
            Command::BalanceOne(b) => self.balance(b, false, received),
            Command::BalanceTwo(b) => self.balance(b, true, received),
            Command::HashClear => self.searcher.clear(),
            Command::ShowInfo => {
                self.out.line("MESSAGE INFO MAX_THREAD_NUM 256");
                self.out.line("MESSAGE INFO MAX_HASH_SIZE 30");
            }
            Command::Block(lines) => {
                if let Some(b) = &self.board {
                    for l in &lines {
                        if let Some(p) = parse_xy(l).and_then(|(x, y)| cell(b, x, y)) {
                            if !self.blocked.contains(&p) {
                                self.blocked.push(p);
                            }
                        }
                    }
                }
            }
            Command::BlockUndo(lines) => {
                if let Some(b) = &self.board {
                    for l in &lines {
                        if let Some(p) = parse_xy(l).and_then(|(x, y)| cell(b, x, y)) {
                            self.blocked.retain(|&q| q != p);
                        }
                    }
                }
            }
            Command::BlockReset => self.blocked.clear(),
            Command::Step {
                name,
                n,
                stones,
                offers,
            } => self.step(&name, n, &stones, offers.as_deref(), received),
            Command::Info(..) | Command::Stop | Command::End => {}
            Command::Unknown(w) => self.out.line(&format!("UNKNOWN command {w}")),
            Command::Malformed(m) => self.out.line(&format!("ERROR {m}")),
        }
    }

    fn start(&mut self, v: &[i64]) {
        let n = v[0];
        if v.len() >= 2 && v[1] != n {
            self.out.line("ERROR rectangular boards are not supported");
            return;
        }
        if n < 0 || !valid_size(n as usize) {
            self.out.line("ERROR unsupported board size (5..22)");
            return;
        }
        let settings = self.settings();
        match Board::new(n as usize, settings.rule) {
            Ok(b) => {
                self.board = Some(b);
                self.blocked.clear();
                self.neutral.clear();
                self.searcher.resize(settings.hash_mb());
                self.searcher.clear();
                self.out.line("OK");
            }
            Err(e) => self.out.line(&format!("ERROR {e}")),
        }
    }

    fn restart(&mut self) {
        match &self.board {
            Some(b) => {
                let size = b.size();
                self.start(&[size as i64]);
            }
            None => self.out.line("ERROR no game started (send START first)"),
        }
    }

    /// The board under the current rule (rebuilt if `INFO rule` changed it), creating a 15x15
    /// board if none exists so that a move can always be given.
    fn board_for_move(&mut self) -> &mut Board {
        let rule = self.settings().rule;
        let rebuild = match &self.board {
            None => true,
            Some(b) => b.rule() != rule,
        };
        if rebuild {
            let old = self.board.take();
            let size = old.as_ref().map_or(15, Board::size);
            let mut nb = Board::new(size, rule)
                .unwrap_or_else(|_| Board::new(15, rule).unwrap_or_else(|_| unreachable_board()));
            if let Some(o) = old {
                for (p, c) in o.history() {
                    if p.is_pass() {
                        nb.pass();
                    } else {
                        nb.put_unchecked(p, c);
                    }
                }
            }
            self.board = Some(nb);
        }
        self.board.get_or_insert_with(unreachable_board)
    }

    fn begin(&mut self, received: Instant) {
        self.board_for_move();
        self.think_and_play(received);
    }

    fn turn(&mut self, x: i64, y: i64, received: Instant) {
        if self.board.is_none() {
            self.out.line("ERROR no game started (send START first)");
            return;
        }
        let b = self.board_for_move();
        let Some(p) = cell(b, x, y) else {
            self.out.line(&format!("ERROR bad coordinates {x},{y}"));
            return;
        };
        if !b.is_empty(p) || self.neutral.contains(&p) {
            self.out.line(&format!("ERROR point {x},{y} is occupied"));
            return;
        }
        let b = self.board_for_move();
        b.play_unchecked(p);
        self.think_and_play(received);
    }

    /// Parse a `BOARD` payload into a fresh board and its neutral (field 3) cells; `Err` names
    /// the first bad line.
    fn parse_board(&mut self, lines: &[String]) -> Result<(Board, Vec<Pos>), String> {
        let rule = self.settings().rule;
        let size = self.board.as_ref().map_or(15, Board::size);
        let mut b = Board::new(size, rule).map_err(|e| e.to_string())?;
        let mut stones = Vec::new();
        let mut neutral = Vec::new();
        for l in lines {
            let Some((x, y, f)) = parse_xyf(l) else {
                return Err(format!("bad board line '{l}'"));
            };
            let Some(p) = cell(&b, x, y) else {
                return Err(format!("bad coordinates in board line '{l}'"));
            };
            match f {
                1 | 2 => stones.push((p, f)),
                3 => neutral.push(p),
                _ => return Err(format!("bad stone kind in board line '{l}'")),
            }
        }
        let own = stones.iter().filter(|s| s.1 == 1).count();
        let opp = stones.len() - own;
        // Equal counts: we are black; one more opponent stone: we are white.
        let own_color = if opp > own {
            Color::White
        } else {
            Color::Black
        };
        for &(p, f) in &stones {
            if !b.is_empty(p) {
                return Err(format!("point {},{} given twice", p.x(size), p.y(size)));
            }
            let c = if f == 1 {
                own_color
            } else {
                own_color.opponent()
            };
            b.put_unchecked(p, c);
        }
        if b.side_to_move() != own_color {
            b.pass();
        }
        if let Some(p) = neutral
            .iter()
            .find(|p| !b.is_empty(**p) || stones.iter().any(|s| s.0 == **p))
        {
            return Err(format!("point {},{} given twice", p.x(size), p.y(size)));
        }
        Ok((b, neutral))
    }

    fn board_cmd(&mut self, lines: &[String], want_move: bool, received: Instant) {
        match self.parse_board(lines) {
            Ok((b, neutral)) => {
                self.board = Some(b);
                self.neutral = neutral;
                if want_move {
                    self.think_and_play(received);
                }
            }
            Err(e) => self.out.line(&format!("ERROR {e}; previous board kept")),
        }
    }

    fn takeback(&mut self, x: i64, y: i64) {
        let Some(b) = self.board.as_mut() else {
            self.out.line("ERROR no game started");
            return;
        };
        let Some(p) = cell(b, x, y) else {
            self.out.line(&format!("ERROR bad coordinates {x},{y}"));
            return;
        };
        if b.stone(p).is_none() {
            self.out.line(&format!("ERROR no stone at {x},{y}"));
            return;
        }
        // Take back plies down to that stone and replay the later ones.
        let mut later = Vec::new();
        while let Some((q, c)) = b.undo() {
            if q == p {
                break;
            }
            later.push((q, c));
        }
        for &(q, c) in later.iter().rev() {
            if q.is_pass() {
                b.pass();
            } else {
                b.put_unchecked(q, c);
            }
        }
        self.out.line("OK");
    }

    fn play(&mut self, x: i64, y: i64, received: Instant) {
        let b = self.board_for_move();
        if let Some(p) = cell(b, x, y) {
            let me = b.side_to_move();
            if b.is_empty(p) && (me == Color::White || !renju::is_foul(b, p)) {
                b.play_unchecked(p);
                let s = format!("{x},{y}");
                self.out.line(&s);
                return;
            }
        }
        self.think_and_play(received);
    }

    /// Search the current board and return the result (the board is unchanged).
    fn search(&mut self, received: Instant, excluded: Vec<Pos>, share: u64) -> SearchResult {
        let settings = self.settings();
        // Shrink at once to honour a lower memory limit; grow only at START (allocating a large
        // table would eat into the move's time).
        if settings.hash_mb() < self.searcher.hash_mb() {
            self.searcher.resize(settings.hash_mb());
        }
        self.searcher.threads = settings.threads;
        let stones = self.board.as_ref().map_or(0, Board::stone_count);
        let mut limits = settings.limits(received, stones);
        if share > 1 {
            limits.hard_time = limits.hard_time.map(|t| t / share as u32);
            limits.soft_time = limits.soft_time.map(|t| t / share as u32);
        }
        limits.excluded = excluded;
        let stop = Arc::new(AtomicBool::new(false));
        limits.stop = stop.clone();
        if let Ok(mut g) = self.shared.current_stop.lock() {
            *g = Some(stop.clone());
        }
        if self.ending() {
            stop.store(true, Ordering::Relaxed);
        }
        let board = self.board.clone().unwrap_or_else(unreachable_board);
        let mut rep = MessageReporter {
            out: &mut self.out,
            detail: settings.show_detail,
            last_best: None,
            size: board.size(),
        };
        let r = self.searcher.search(&board, limits, &mut rep);
        if let Ok(mut g) = self.shared.current_stop.lock() {
            *g = None;
        }
        r
    }

    /// A legal move for the side to move: `best` if it is legal, else the first legal cell.
    fn legal_or_fallback(b: &mut Board, best: Pos, excluded: &[Pos]) -> Option<Pos> {
        let me = b.side_to_move();
        let ok = |b: &mut Board, p: Pos| {
            b.is_empty(p)
                && !excluded.contains(&p)
                && (me == Color::White || renju::foul(b, p).is_none())
        };
        if !best.is_pass() && ok(b, best) {
            return Some(best);
        }
        let cells: Vec<Pos> = b.candidates().chain(b.empty_cells()).collect();
        cells
            .iter()
            .copied()
            .find(|&p| ok(b, p))
            .or_else(|| cells.into_iter().find(|&p| b.is_empty(p)))
    }

    /// Root moves the engine must not play: `YXBLOCK`ed and neutral cells.
    fn excluded(&self) -> Vec<Pos> {
        let mut v = self.blocked.clone();
        v.extend_from_slice(&self.neutral);
        v
    }

    fn think_and_play(&mut self, received: Instant) {
        let excluded = self.excluded();
        let r = self.search(received, excluded.clone(), 1);
        let b = self.board.get_or_insert_with(unreachable_board);
        match Self::legal_or_fallback(b, r.best, &excluded) {
            Some(p) => {
                b.play_unchecked(p);
                let s = p.to_gomocup(b.size());
                self.out.line(&s);
            }
            None => self.out.line("ERROR the board is full"),
        }
    }

    fn show_forbid(&mut self) {
        let mut s = String::from("FORBID ");
        if let Some(b) = self.board.as_mut() {
            if b.rule() == Rule::Renju && b.side_to_move() == Color::Black {
                for (p, _) in renju::all_fouls(b) {
                    s.push_str(&format!("{:02}{:02}", p.x(b.size()), p.y(b.size())));
                }
            }
        }
        s.push('.');
        self.out.line(&s);
    }

    fn nbest(&mut self, n: i64, received: Instant) {
        let n = n.clamp(1, 32) as u64;
        self.board_for_move();
        let mut excluded = self.excluded();
        let mut first = None;
        for k in 0..n {
            let r = self.search(received, excluded.clone(), n - k);
            let b = self.board.get_or_insert_with(unreachable_board);
            let Some(p) = Self::legal_or_fallback(b, r.best, &excluded) else {
                break;
            };
            let size = b.size();
            let pv: Vec<String> = r.pv.iter().map(|q| q.to_gomocup(size)).collect();
            self.out.line(&format!(
                "MESSAGE ({}) {} {} pv {}",
                k + 1,
                p.to_gomocup(size),
                r.score,
                pv.join(" ")
            ));
            first.get_or_insert(p);
            excluded.push(p);
            if b.empty_cells().all(|q| excluded.contains(&q)) {
                break;
            }
        }
        let b = self.board.get_or_insert_with(unreachable_board);
        match first.or_else(|| Self::legal_or_fallback(b, Pos::PASS, &[])) {
            Some(p) => {
                b.play_unchecked(p);
                let s = p.to_gomocup(b.size());
                self.out.line(&s);
            }
            None => self.out.line("ERROR the board is full"),
        }
    }

    /// `YXBALANCEONE`/`YXBALANCETWO`: moves after which the evaluation for the side that made
    /// the first of them is closest to `bias`. The board is left unchanged.
    fn balance(&mut self, bias: i64, two: bool, received: Instant) {
        self.board_for_move();
        let settings = self.settings();
        let deadline = settings
            .limits(received, 0)
            .hard_time
            .unwrap_or(Duration::from_secs(5));
        let mut b = self.board.clone().unwrap_or_else(unreachable_board);
        let me = b.side_to_move();
        let first: Vec<Pos> = top_moves(&mut b, 10);
        let mut best: Option<(i64, Vec<Pos>)> = None;
        let mut searcher = Searcher::new(16, 1);
        for &m in &first {
            if received.elapsed() >= deadline / 2 && best.is_some() {
                break;
            }
            b.play_unchecked(m);
            let seconds: Vec<Pos> = if two {
                top_moves(&mut b, 6)
            } else {
                vec![Pos::PASS]
            };
            for &m2 in &seconds {
                if !m2.is_pass() {
                    b.play_unchecked(m2);
                }
                let mut lim = Limits::depth(4);
                lim.hard_time = Some(deadline / (first.len() as u32 * seconds.len() as u32).max(1));
                let r = searcher.search(&b, lim, &mut crate::search::Silent);
                // Score for `me`.
                let v = if b.side_to_move() == me {
                    r.score
                } else {
                    -r.score
                };
                let v = if is_mate(v) { v.signum() * 20_000 } else { v };
                let d = (i64::from(v) - bias).abs();
                let line = if m2.is_pass() { vec![m] } else { vec![m, m2] };
                if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                    best = Some((d, line));
                }
                if !m2.is_pass() {
                    b.undo();
                }
            }
            b.undo();
        }
        let size = b.size();
        match best {
            Some((_, line)) => {
                let s: Vec<String> = line.iter().map(|p| p.to_gomocup(size)).collect();
                self.out.line(&s.join(" "));
            }
            None => self.out.line("ERROR no move available"),
        }
    }

    /// An opening-rule step (see `steps`): reply lines, or `ERROR` with the state unchanged.
    fn step(
        &mut self,
        name: &str,
        n: Option<i64>,
        lines: &[String],
        offers: Option<&str>,
        received: Instant,
    ) {
        let settings = self.settings();
        let size = self.board.as_ref().map_or(15, Board::size);
        let from_board = matches!(name, "YXSWAP2STEP2" | "YXSWAP2STEP3");
        let stones = if from_board {
            Ok(self
                .board
                .as_ref()
                .map(|b| {
                    b.history()
                        .filter(|h| !h.0.is_pass())
                        .map(|h| h.0)
                        .collect()
                })
                .unwrap_or_default())
        } else {
            super::steps::parse_stones(lines, size)
        };
        let offers = match offers {
            Some(l) => super::steps::parse_offers(l, size),
            None => Ok(Vec::new()),
        };
        let budget = settings
            .limits(received, 0)
            .hard_time
            .unwrap_or(Duration::from_secs(5));
        let result = stones.and_then(|stones| {
            let offers = offers?;
            super::steps::execute(&super::steps::StepRequest {
                name,
                n,
                stones,
                offers,
                rule: settings.rule,
                size,
                budget,
            })
        });
        match result {
            Ok(lines) => {
                for l in lines {
                    self.out.line(&l);
                }
            }
            Err(e) => self.out.line(&format!("ERROR {e}")),
        }
    }

    /// `SWAP2BOARD`: empty board → three opening stones; three stones → swap, the fourth, or the
    /// fourth and fifth; five stones → swap or the sixth. Decisions by search.
    fn swap2(&mut self, lines: &[String], received: Instant) {
        let size = self.board.as_ref().map_or(15, Board::size);
        let rule = self.settings().rule;
        let Ok(mut b) = Board::new(size, rule) else {
            self.out.line("ERROR no board");
            return;
        };
        for l in lines {
            match parse_xy(l).and_then(|(x, y)| cell(&b, x, y)) {
                Some(p) if b.is_empty(p) => b.play_unchecked(p),
                _ => {
                    self.out.line(&format!("ERROR bad SWAP2BOARD line '{l}'"));
                    return;
                }
            }
        }
        let budget = self
            .settings()
            .limits(received, 0)
            .hard_time
            .unwrap_or(Duration::from_secs(5));
        let mut d = crate::opening::Decider::new(4, budget.mul_f64(0.8));
        let xy = |p: Pos| p.to_gomocup(size);
        match lines.len() {
            0 => {
                let s = d.propose_three(rule, size);
                self.out
                    .line(&format!("{} {} {}", xy(s[0]), xy(s[1]), xy(s[2])));
            }
            3 => match d.swap2_after_three(&b) {
                None => self.out.line("SWAP"),
                Some(v) => {
                    let s: Vec<String> = v.iter().map(|&p| xy(p)).collect();
                    self.out.line(&s.join(" "));
                }
            },
            5 => {
                if d.should_swap(&b) {
                    self.out.line("SWAP");
                } else {
                    self.out.line(&xy(d.best_move(&b)));
                }
            }
            n => self.out.line(&format!(
                "ERROR SWAP2BOARD expects 0, 3 or 5 stones, got {n}"
            )),
        }
    }
}

/// The `n` best legal moves by ordering score (own threat plus defence).
fn top_moves(b: &mut Board, n: usize) -> Vec<Pos> {
    let me = b.side_to_move();
    let cands: Vec<Pos> = b.candidates().collect();
    let mut v: Vec<(i32, Pos)> = Vec::new();
    for p in cands {
        if me == Color::White || b.rule() != Rule::Renju || !renju::is_foul(b, p) {
            v.push((b.score(p, me) + b.score(p, me.opponent()), p));
        }
    }
    v.sort_by(|a, c| c.0.cmp(&a.0).then(a.1.cmp(&c.1)));
    let mut out: Vec<Pos> = v.into_iter().take(n).map(|x| x.1).collect();
    if out.is_empty() {
        let sz = b.size();
        let centre = Pos::new(sz / 2, sz / 2, sz);
        if b.is_empty(centre) {
            out.push(centre);
        }
    }
    out
}

/// The cell `(x, y)` of `b`, if on the board.
fn cell(b: &Board, x: i64, y: i64) -> Option<Pos> {
    let n = b.size() as i64;
    (x >= 0 && y >= 0 && x < n && y < n).then(|| Pos::new(x as usize, y as usize, b.size()))
}

/// A 15x15 freestyle board; creating it cannot fail (15 is a valid size).
fn unreachable_board() -> Board {
    match Board::new(15, Rule::Freestyle) {
        Ok(b) => b,
        Err(_) => unreachable!("15 is a valid board size"),
    }
}

#[allow(dead_code)]
fn _uses(_: &dyn Fn(&mut Board, Pos) -> Result<(), rules::IllegalMove>) {}
