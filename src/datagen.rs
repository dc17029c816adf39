//! Self-play data generation for fitting the evaluation (`renju-engine datagen`).
//!
//! Each game starts from a random opening near the centre (renju 15: one of the 26 canonical
//! openings plus up to three random stones; otherwise two to six random stones), kept only when
//! a search of it scores near equality, then every ply plays the best move of a search to a
//! fixed node count (the randomness of the games is all in their openings). A game ends with a
//! five, a proven result of the search (adjudicated at once), a full board or the ply cap (both
//! a draw).
//!
//! Every game is a pure function of the seed and its index, so a run is deterministic whatever
//! the thread count, and a resumed run continues with the next indices.
//!
//! # File format (little-endian)
//! A file is the 8-byte magic [`MAGIC`] followed by game records, each:
//!
//! | bytes | field |
//! |---|---|
//! | 1 | rule ([`Rule::index`]: 0 freestyle, 1 standard, 2 renju, 3 caro, 4 caro-overline) |
//! | 1 | board side |
//! | 1 | result: 0 draw, 1 black won, 2 white won |
//! | 1 | reserved, 0 |
//! | 2 | number of plies `n` |
//! | 2 | reserved, 0 |
//! | 8 × `n` | the plies in order, each: `u16` move played (cell `y * size + x`), `u16` the searched best move, `i16` the search score for the side to move, `u8` kind ([`PlyKind`]: 0 opening, 1 searched, 2 recorded), `u8` reserved 0 |
//!
//! Position `i` of a game is the board after the first `i` plies (black moves first; there are
//! no passes), with black to move when `i` is even. An opening ply has no search: its best move
//! is the move itself and its score 0. A file whose last record was cut off by a killed run
//! reads as the complete records before it; [`open_for_append`] truncates the rest.

use crate::board::Board;
use crate::eval::is_mate;
use crate::opening::rif_opening;
use crate::rules;
use crate::search::{Limits, Searcher, Silent};
use crate::types::{Color, Pos, Rule};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// The first eight bytes of a data file.
pub const MAGIC: &[u8; 8] = b"RENJUDG1";
/// Bytes of a game header.
pub const HEADER_BYTES: usize = 8;
/// Bytes of one ply.
pub const PLY_BYTES: usize = 8;

/// How a ply was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PlyKind {
    /// An opening stone: not searched.
    Opening = 0,
    /// Searched, and the best move was played.
    Searched = 1,
    /// Read from a match record ([`record_of_moves`], `renju-engine import`): played, but no
    /// search of it was recorded (its best move is the move itself and its score 0).
    Recorded = 2,
}

/// One ply of a game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyRecord {
    /// The move played.
    pub mv: Pos,
    /// The searched best move (the move itself for an opening ply).
    pub best: Pos,
    /// The search score for the side to move (0 for an opening ply).
    pub score: i16,
    /// How the move was chosen.
    pub kind: PlyKind,
}

impl PlyRecord {
    /// An opening stone on `p`.
    #[must_use]
    pub fn opening(p: Pos) -> PlyRecord {
        PlyRecord {
            mv: p,
            best: p,
            score: 0,
            kind: PlyKind::Opening,
        }
    }

    /// A searched ply that plays its best move `best`, scored `score` (clipped to `i16`).
    #[must_use]
    pub fn searched(best: Pos, score: i32) -> PlyRecord {
        PlyRecord {
            mv: best,
            best,
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            kind: PlyKind::Searched,
        }
    }
}

/// One game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The rule.
    pub rule: Rule,
    /// The board side.
    pub size: usize,
    /// The winner, or `None` for a draw.
    pub result: Option<Color>,
    /// The plies in order.
    pub plies: Vec<PlyRecord>,
}

impl GameRecord {
    /// The record's bytes in the file format.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(HEADER_BYTES + PLY_BYTES * self.plies.len());
        v.push(self.rule.index() as u8);
        v.push(self.size as u8);
        v.push(match self.result {
            None => 0,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        });
        v.push(0);
        v.extend_from_slice(&(self.plies.len() as u16).to_le_bytes());
        v.extend_from_slice(&[0, 0]);
        for p in &self.plies {
            v.extend_from_slice(&p.mv.0.to_le_bytes());
            v.extend_from_slice(&p.best.0.to_le_bytes());
            v.extend_from_slice(&p.score.to_le_bytes());
            v.push(p.kind as u8);
            v.push(0);
        }
        v
    }

    /// Decode one record from the start of `bytes`: the record and its length, or `None` when
    /// the bytes are cut short or do not hold a valid record.
    #[must_use]
    pub fn from_bytes(bytes: &[u8]) -> Option<(GameRecord, usize)> {
        if bytes.len() < HEADER_BYTES {
            return None;
        }
        let rule = *Rule::ALL.get(bytes[0] as usize)?;
        let size = bytes[1] as usize;
        if !crate::types::valid_size(size) {
            return None;
        }
        let result = match bytes[2] {
            0 => None,
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => return None,
        };
        let n = u16::from_le_bytes([bytes[4], bytes[5]]) as usize;
        let len = HEADER_BYTES + PLY_BYTES * n;
        if bytes.len() < len || n > size * size {
            return None;
        }
        let cells = (size * size) as u16;
        let mut plies = Vec::with_capacity(n);
        for i in 0..n {
            let b = &bytes[HEADER_BYTES + PLY_BYTES * i..HEADER_BYTES + PLY_BYTES * (i + 1)];
            let mv = u16::from_le_bytes([b[0], b[1]]);
            let best = u16::from_le_bytes([b[2], b[3]]);
            let score = i16::from_le_bytes([b[4], b[5]]);
            let kind = match b[6] {
                0 => PlyKind::Opening,
                1 => PlyKind::Searched,
                2 => PlyKind::Recorded,
                _ => return None,
            };
            if mv >= cells || best >= cells {
                return None;
            }
            plies.push(PlyRecord {
                mv: Pos(mv),
                best: Pos(best),
                score,
                kind,
            });
        }
        Some((
            GameRecord {
                rule,
                size,
                result,
                plies,
            },
            len,
        ))
    }

    /// The board after the first `i` plies, or `None` if a ply is illegal (a corrupt record).
    #[must_use]
    pub fn board_at(&self, i: usize) -> Option<Board> {
        let mut b = Board::new(self.size, self.rule).ok()?;
        for p in &self.plies[..i.min(self.plies.len())] {
            rules::try_play(&mut b, p.mv).ok()?;
        }
        Some(b)
    }
}

/// The record of a game given by its moves (black first), such as a match game of the arena:
/// every ply [`PlyKind::Recorded`], the result read from the board: the colour whose last
/// stone made a winning line under `rule`, or a draw when the game ended without one (the
/// arena ends a game at a five, a full board, its draw cap or a forfeit).
///
/// # Errors
/// A bad board size, a move that is not legal under the rule (renju black's fouls included), a
/// stone after a five, or more moves than the format holds.
pub fn record_of_moves(rule: Rule, size: usize, moves: &[Pos]) -> Result<GameRecord, String> {
    let mut b = Board::new(size, rule).map_err(|e| e.to_string())?;
    if moves.len() > size * size || moves.len() > usize::from(u16::MAX) {
        return Err(format!(
            "{} stones do not fit a {size}x{size} board",
            moves.len()
        ));
    }
    let mut result = None;
    let mut plies = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        if result.is_some() {
            return Err(format!("stone {} comes after a five", i + 1));
        }
        if m.is_pass() {
            return Err(format!("stone {} is a pass", i + 1));
        }
        let c = b.side_to_move();
        rules::try_play(&mut b, m).map_err(|e| format!("stone {}: {e}", i + 1))?;
        if rules::is_win(&b, m) {
            result = Some(c);
        }
        plies.push(PlyRecord {
            mv: m,
            best: m,
            score: 0,
            kind: PlyKind::Recorded,
        });
    }
    Ok(GameRecord {
        rule,
        size,
        result,
        plies,
    })
}

/// Decode every complete record of a file's bytes (after the magic): the records and the byte
/// length they cover. Decoding stops at the first incomplete or invalid record.
#[must_use]
pub fn decode_all(bytes: &[u8]) -> (Vec<GameRecord>, usize) {
    let mut games = Vec::new();
    let mut at = 0;
    while let Some((g, len)) = GameRecord::from_bytes(&bytes[at..]) {
        games.push(g);
        at += len;
    }
    (games, at)
}

/// Read every complete game of a data file.
///
/// # Errors
/// The file cannot be read or does not start with [`MAGIC`].
pub fn read_file(path: &Path) -> Result<Vec<GameRecord>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(format!("{}: not a datagen file", path.display()));
    }
    Ok(decode_all(&bytes[MAGIC.len()..]).0)
}

/// Open (or create) a data file for appending: checks the magic, drops a record cut off by a
/// killed run, and returns the file positioned at its end with the number of complete games.
///
/// # Errors
/// The file cannot be opened, read or written, or is not a datagen file.
pub fn open_for_append(path: &Path) -> Result<(std::fs::File, usize), String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(err)?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).map_err(err)?;
    if bytes.is_empty() {
        f.write_all(MAGIC).map_err(err)?;
        return Ok((f, 0));
    }
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(format!("{}: not a datagen file", path.display()));
    }
    let (games, len) = decode_all(&bytes[MAGIC.len()..]);
    let end = (MAGIC.len() + len) as u64;
    f.set_len(end).map_err(err)?;
    f.seek(SeekFrom::Start(end)).map_err(err)?;
    Ok((f, games.len()))
}

/// One rule and board size to generate games for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The rule.
    pub rule: Rule,
    /// The board side.
    pub size: usize,
}

/// Parse a comma-separated list of variants such as `renju15,freestyle20` (a rule name
/// followed by the board side).
///
/// # Errors
/// An unknown rule name or an unsupported size.
pub fn parse_variants(s: &str) -> Result<Vec<Variant>, String> {
    let mut out = Vec::new();
    for item in s.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let split = item
            .find(|c: char| c.is_ascii_digit())
            .ok_or_else(|| format!("'{item}': expected a rule name and a size, e.g. renju15"))?;
        let rule: Rule = item[..split].parse()?;
        let size: usize = item[split..]
            .parse()
            .map_err(|_| format!("'{item}': bad board size"))?;
        if !crate::types::valid_size(size) {
            return Err(format!(
                "'{item}': board size {size} is not supported (5..=22)"
            ));
        }
        out.push(Variant { rule, size });
    }
    if out.is_empty() {
        return Err("no rule given".into());
    }
    Ok(out)
}

/// Settings of a run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The variants, cycled by game index.
    pub variants: Vec<Variant>,
    /// Nodes per searched ply.
    pub nodes: u64,
    /// An opening is kept when its first search scores within this many points.
    pub balance: i32,
    /// Base seed.
    pub seed: u64,
    /// Transposition table per thread, MB.
    pub hash_mb: usize,
}

fn mix(seed: u64, index: u64) -> u64 {
    // SplitMix64 of the pair: games with neighbouring indices get unrelated streams.
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A random legal opening for `v`: the stones in order (alternating from black), no five.
/// Renju 15: one of the 26 canonical openings plus zero to three random stones; otherwise two
/// to six random stones; all within three cells of the centre.
fn random_opening(v: Variant, rng: &mut StdRng) -> Vec<Pos> {
    let c = (v.size / 2) as i32;
    let radius = 3.min(c);
    loop {
        let mut stones: Vec<Pos> = if v.rule == Rule::Renju && v.size == 15 {
            rif_opening(rng.gen_range(0..26), v.size).to_vec()
        } else {
            Vec::new()
        };
        let extra = if stones.is_empty() {
            rng.gen_range(2..=6)
        } else {
            rng.gen_range(0..=3)
        };
        let target = stones.len() + extra;
        let mut tries = 0;
        while stones.len() < target && tries < 100 {
            tries += 1;
            let p = Pos::new(
                (c + rng.gen_range(-radius..=radius)) as usize,
                (c + rng.gen_range(-radius..=radius)) as usize,
                v.size,
            );
            if !stones.contains(&p) {
                stones.push(p);
            }
        }
        if crate::opening::board_of(v.rule, v.size, &stones).is_ok() {
            return stones;
        }
    }
}

/// Play game number `index` of a run with `searcher` (cleared first).
///
/// Openings are drawn until the search of the first position scores within
/// [`Config::balance`] for the side to move (at most [`OPENING_TRIES`] draws; the last one is
/// kept whatever its score). Every later ply plays the searched best move.
#[must_use]
pub fn play_game(cfg: &Config, index: u64, searcher: &mut Searcher) -> GameRecord {
    let mut rng = StdRng::seed_from_u64(mix(cfg.seed, index));
    let v = cfg.variants[(index % cfg.variants.len() as u64) as usize];
    let limits = || Limits {
        max_nodes: Some(cfg.nodes),
        ..Limits::default()
    };
    let mut tries = 0;
    let (opening, mut board, mut first) = loop {
        tries += 1;
        let opening = random_opening(v, &mut rng);
        let board = crate::opening::board_of(v.rule, v.size, &opening)
            .expect("random_opening checked every stone");
        searcher.clear();
        let r = searcher.search(&board, limits(), &mut Silent);
        if (r.score.abs() <= cfg.balance && !r.best.is_pass()) || tries >= OPENING_TRIES {
            break (opening, board, Some(r));
        }
    };
    let mut plies: Vec<PlyRecord> = opening.iter().map(|&p| PlyRecord::opening(p)).collect();
    let cap = v.size * v.size - 1;
    let result = loop {
        if board.stone_count() >= cap {
            break None;
        }
        let me = board.side_to_move();
        let r = match first.take() {
            Some(r) => r,
            None => searcher.search(&board, limits(), &mut Silent),
        };
        if r.best.is_pass() {
            break None;
        }
        plies.push(PlyRecord::searched(r.best, r.score));
        if is_mate(r.score) {
            break Some(if r.score > 0 { me } else { me.opponent() });
        }
        if rules::try_play(&mut board, r.best).is_err() {
            // The search never returns an illegal move; should it, the mover loses.
            break Some(me.opponent());
        }
        if rules::is_win(&board, r.best) {
            break Some(me);
        }
    };
    GameRecord {
        rule: v.rule,
        size: v.size,
        result,
        plies,
    }
}

/// Opening draws per game before the balance window is given up.
pub const OPENING_TRIES: usize = 20;

/// Totals of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Totals {
    /// Games in the file at the end.
    pub games: usize,
    /// Games generated by this run.
    pub new_games: usize,
    /// Positions (plies) generated by this run.
    pub new_positions: usize,
    /// Seconds this run took.
    pub seconds: f64,
}

/// Generate games into `path` until it holds `games` games, on `threads` threads, printing a
/// progress line to `progress` every few seconds. Games already in the file count; the next
/// game indices continue from there.
///
/// # Errors
/// The file cannot be opened or written.
pub fn run(
    cfg: &Config,
    path: &Path,
    games: usize,
    threads: usize,
    progress: &mut dyn Write,
) -> Result<Totals, String> {
    let (mut file, have) = open_for_append(path)?;
    let start = Instant::now();
    let mut totals = Totals {
        games: have,
        ..Totals::default()
    };
    if have >= games {
        return Ok(totals);
    }
    let mut last = Instant::now();
    in_parallel(
        (have, games),
        threads,
        (&mut file, path),
        || Searcher::new(cfg.hash_mb, 1),
        |searcher, i| vec![play_game(cfg, i as u64, searcher)],
        |records| {
            totals.games += 1;
            totals.new_games += 1;
            totals.new_positions += records.iter().map(|g| g.plies.len()).sum::<usize>();
            if last.elapsed().as_secs_f64() >= 5.0 || totals.games == games {
                last = Instant::now();
                let secs = start.elapsed().as_secs_f64().max(1e-9);
                let _ = writeln!(
                    progress,
                    "datagen: games {}/{games}  positions {}  positions/s {:.0}",
                    totals.games,
                    totals.new_positions,
                    totals.new_positions as f64 / secs
                );
            }
        },
    )?;
    totals.seconds = start.elapsed().as_secs_f64();
    Ok(totals)
}

/// Work items `first..end` on `threads` threads, each thread with its own state from `init`:
/// `work(state, i)` gives item `i`'s records, appended to `file` (at `path`, for messages) in
/// the order they arrive; `seen` is called with each item's records after they are written.
/// A write error stops the threads at their next item.
///
/// # Errors
/// The file cannot be written.
fn in_parallel<S>(
    (first, end): (usize, usize),
    threads: usize,
    (file, path): (&mut std::fs::File, &Path),
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> Vec<GameRecord> + Sync,
    mut seen: impl FnMut(&[GameRecord]),
) -> Result<(), String> {
    let next = AtomicUsize::new(first);
    let (tx, rx) = mpsc::channel::<Vec<GameRecord>>();
    let mut write_err = None;
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let (next, init, work) = (&next, &init, &work);
            s.spawn(move || {
                let mut state = init();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= end {
                        break;
                    }
                    if tx.send(work(&mut state, i)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for records in rx {
            if write_err.is_none() {
                let bytes: Vec<u8> = records.iter().flat_map(GameRecord::to_bytes).collect();
                if let Err(e) = file.write_all(&bytes).and_then(|()| file.flush()) {
                    write_err = Some(format!("{}: {e}", path.display()));
                    next.store(end, Ordering::Relaxed);
                }
            }
            seen(&records);
        }
    });
    write_err.map_or(Ok(()), Err)
}

pub mod leaves;

#[cfg(test)]
mod tests;
