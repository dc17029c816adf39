//! The board: stones, incrementally updated line keys, line patterns, cell classes and counts,
//! Zobrist hash and candidate area, with play/undo and pass.
//!
//! May import: [`crate::types`], [`crate::pattern`].
//!
//! # Representation
//! * Every line (row, column, both diagonals) is a `u64` *line word*: two bits per cell
//!   ([`EMPTY`], [`BLACK`], [`WHITE`], [`WALL`]), with five wall cells of padding before the first
//!   cell, so the 11-cell window around any cell is one shift and mask away.
//! * A *wall* on the board (a neutral cell: `BOARD` field 3) is a cell of neither colour that no
//!   one may play: it ends lines like the board's edge for patterns, fouls and wins, is never a
//!   candidate, and is part of the position from the start ([`Board::place_wall`]).
//! * For each empty cell and direction the board keeps the line-table entry of its window (both
//!   colours' [`Pattern`](crate::pattern::Pattern)s), packed as one byte per direction.
//! * For each empty cell and colour it keeps the combined [`Class`](crate::pattern::Class) and move-ordering score, and
//!   per colour the number of empty cells of each class.
//! * When the rule's evaluation weights are per pattern code ([`KeyWeights::get`] is `Some`),
//!   per colour and role the sum of the code weights of every empty cell, updated only for the
//!   cells whose key changed (the evaluation reads it in O(1)); with class-level weights the
//!   class counts say the same and no sums are kept.
//! * Occupied cells keep the values they had when they were filled: moves are undone in LIFO
//!   order, so those values are right again the moment the stone is taken back.
//!
//! # Invariants
//! [`Board::check_invariants`] recomputes everything from the stone array and reports the first
//! field that differs; with the `check-invariants` feature it runs after every play and undo.

mod masks;
use masks::near_masks;
pub use masks::Candidates;
mod read;
mod text;
pub mod validate;
pub mod zobrist;

use crate::pattern::classify::{code, BLACK, EMPTY, WALL, WHITE};
use crate::pattern::code::KeyWeights;
use crate::pattern::table::{info_class, window_to_key, Tables, WINDOW_MASK};
use crate::pattern::CLASS_COUNT;
use crate::types::{valid_size, Color, Pos, Rule, DIRS, MAX_CELLS, MAX_SIZE};
use std::fmt;

/// Padding cells before the first cell of a line word.
const PAD: usize = 5;
/// The low bit of every two-bit cell of a line word.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;
/// Number of lines per direction (the diagonals of the largest board).
const MAX_LINES: usize = 2 * MAX_SIZE - 1;
/// Words of a cell bit set.
pub const SET_WORDS: usize = MAX_CELLS.div_ceil(64);
/// Chebyshev radius of the candidate area around every stone.
pub const CANDIDATE_RADIUS: usize = 2;

/// A set of cells, one bit per cell index.
pub type CellSet = [u64; SET_WORDS];

/// Why a board operation was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The board side is outside 5..=22.
    BadSize(usize),
    /// The point is off the board.
    OffBoard(Pos),
    /// The point already holds a stone or a wall.
    Occupied(Pos),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::BadSize(s) => write!(f, "board size {s} is not supported (5..=22)"),
            BoardError::OffBoard(p) => write!(f, "point {} is off the board", p.0),
            BoardError::Occupied(p) => write!(f, "point {} is already occupied", p.0),
        }
    }
}

impl std::error::Error for BoardError {}

/// One entry of the undo stack.
#[derive(Clone)]
struct Ply {
    pos: Pos,
    color: Color,
    change_start: u32,
    counts: [[u16; CLASS_COUNT]; 2],
    sums: CodeSums,
    cand: CellSet,
}

/// Per colour (index) and role (`[mover, waiter]`), the sum of the code weights of every empty
/// cell (see [`Board::code_sums`]).
pub type CodeSums = [[i32; 2]; 2];

/// The saved state of one cell, restored on undo.
#[derive(Clone, Copy)]
struct Change {
    cell: u16,
    pats: u32,
    info: [u32; 2],
}

/// A Gomoku/Renju position with incremental pattern state.
#[derive(Clone)]
pub struct Board {
    size: usize,
    rule: Rule,
    tables: &'static Tables,
    side: Color,
    hash: u64,
    cells: [u8; MAX_CELLS],
    words: [[u64; MAX_LINES]; 4],
    line_idx: [[u8; MAX_CELLS]; 4],
    line_pos: [[u8; MAX_CELLS]; 4],
    delta: [isize; 4],
    /// How far along each line a stone changes its neighbours' patterns: five cells, but four in
    /// freestyle (cells five away matter only for exactness and caro blocking, so freestyle
    /// patterns never depend on them; the invariant tests check this against recomputation).
    reach: usize,
    pats: [u32; MAX_CELLS],
    info: [[u32; MAX_CELLS]; 2],
    counts: [[u16; CLASS_COUNT]; 2],
    key_weights: Option<&'static KeyWeights>,
    sums: CodeSums,
    occupied: CellSet,
    /// Walls on the board (they are in `occupied` too).
    walls: usize,
    cand: CellSet,
    near: &'static [CellSet],
    stack: Vec<Ply>,
    changes: Vec<Change>,
}

impl Board {
    /// An empty board of side `size` under `rule`.
    ///
    /// # Errors
    /// [`BoardError::BadSize`] unless `5 <= size <= 22`.
    pub fn new(size: usize, rule: Rule) -> Result<Board, BoardError> {
        Board::with_key_weights(size, rule, KeyWeights::get(rule))
    }

    /// An empty board that keeps code sums for `key_weights` (`None`: no sums), whatever the
    /// rule embeds; for tests and tuning experiments. [`Board::new`] uses the embedded weights.
    ///
    /// # Errors
    /// [`BoardError::BadSize`] unless `5 <= size <= 22`.
    pub fn with_key_weights(
        size: usize,
        rule: Rule,
        key_weights: Option<&'static KeyWeights>,
    ) -> Result<Board, BoardError> {
        if !valid_size(size) {
            return Err(BoardError::BadSize(size));
        }
        let tables = Tables::get(rule);
        let mut b = Board {
            size,
            rule,
            tables,
            side: Color::Black,
            hash: 0,
            cells: [EMPTY; MAX_CELLS],
            words: [[u64::MAX; MAX_LINES]; 4],
            line_idx: [[0; MAX_CELLS]; 4],
            line_pos: [[0; MAX_CELLS]; 4],
            delta: [0; 4],
            reach: if rule == Rule::Freestyle {
                PAD - 1
            } else {
                PAD
            },
            pats: [0; MAX_CELLS],
            info: [[0; MAX_CELLS]; 2],
            counts: [[0; CLASS_COUNT]; 2],
            key_weights,
            sums: [[0; 2]; 2],
            occupied: [0; SET_WORDS],
            walls: 0,
            cand: [0; SET_WORDS],
            near: near_masks(size),
            stack: Vec::with_capacity(size * size + 8),
            changes: Vec::with_capacity(64 * size * size),
        };
        for (d, &(dx, dy)) in DIRS.iter().enumerate() {
            b.delta[d] = dy as isize * size as isize + dx as isize;
        }
        for y in 0..size {
            for x in 0..size {
                let p = y * size + x;
                let lines = [(y, x), (x, y), (x + size - 1 - y, x), (x + y, x)];
                for (d, &(li, pos)) in lines.iter().enumerate() {
                    b.line_idx[d][p] = li as u8;
                    b.line_pos[d][p] = pos as u8;
                    b.words[d][li] &= !(3u64 << (2 * (pos + PAD)));
                }
            }
        }
        b.recompute_cells();
        Ok(b)
    }

    /// Recompute every empty cell's patterns, classes and the counts from the line words.
    fn recompute_cells(&mut self) {
        self.counts = [[0; CLASS_COUNT]; 2];
        self.sums = [[0; 2]; 2];
        for p in 0..self.size * self.size {
            if self.cells[p] != EMPTY {
                continue;
            }
            let mut pats = 0u32;
            for d in 0..4 {
                pats |= u32::from(self.tables.line_entry(self.key_at(p, d))) << (8 * d);
            }
            self.pats[p] = pats;
            for c in Color::ALL {
                let key = cell_key_of(pats, c);
                let info = self.tables.cell_info(key, c);
                self.info[c.index()][p] = info;
                self.counts[c.index()][info_class(info) as usize] += 1;
                if let Some(kw) = self.key_weights {
                    let w = kw.pair(c, key);
                    self.sums[c.index()][0] += w[0];
                    self.sums[c.index()][1] += w[1];
                }
            }
        }
    }

    /// Turn the empty cell `p` into a wall: a cell of neither colour that no one may play and
    /// that ends every line through it. A wall belongs to the starting position: the plies
    /// played so far are taken back, the wall placed, and the plies played again (undo never
    /// removes a wall).
    ///
    /// # Errors
    /// [`BoardError::OffBoard`] or [`BoardError::Occupied`]; the board is then unchanged.
    pub fn place_wall(&mut self, p: Pos) -> Result<(), BoardError> {
        if !self.contains(p) {
            return Err(BoardError::OffBoard(p));
        }
        if !self.is_empty(p) {
            return Err(BoardError::Occupied(p));
        }
        let mut plies = Vec::with_capacity(self.stack.len());
        while let Some(ply) = self.undo() {
            plies.push(ply);
        }
        let pi = p.index();
        self.cells[pi] = WALL;
        self.occupied[pi / 64] |= 1 << (pi % 64);
        self.walls += 1;
        self.hash ^= wall_key(pi);
        for d in 0..4 {
            let li = self.line_idx[d][pi] as usize;
            let pos = self.line_pos[d][pi] as usize;
            self.words[d][li] |= u64::from(WALL) << (2 * (pos + PAD));
        }
        self.recompute_cells();
        for &(q, c) in plies.iter().rev() {
            if q.is_pass() {
                self.pass();
            } else {
                self.put_unchecked(q, c);
            }
        }
        #[cfg(feature = "check-invariants")]
        self.debug_check();
        Ok(())
    }

    /// Whether `p` is a wall.
    #[inline]
    #[must_use]
    pub fn is_wall(&self, p: Pos) -> bool {
        self.contains(p) && self.cells[p.index()] == WALL
    }

    /// The walls, in index order.
    pub fn walls(&self) -> impl Iterator<Item = Pos> + '_ {
        self.cells().filter(|&p| self.cells[p.index()] == WALL)
    }

    /// Play a stone for the side to move at empty cell `p`, without any check but debug asserts.
    #[inline]
    pub fn play_unchecked(&mut self, p: Pos) {
        self.put_unchecked(p, self.side);
    }

    /// Put a stone of colour `c` at empty cell `p`; the side to move becomes `c`'s opponent.
    /// This is the one primitive every stone goes through (setup positions with arbitrary stone
    /// counts use it directly).
    pub fn put_unchecked(&mut self, p: Pos, c: Color) {
        debug_assert!(self.is_empty(p), "put on a non-empty cell {p:?}");
        let pi = p.index();
        self.stack.push(Ply {
            pos: p,
            color: c,
            change_start: self.changes.len() as u32,
            counts: self.counts,
            sums: self.sums,
            cand: self.cand,
        });
        for col in 0..2 {
            self.counts[col][(self.info[col][pi] & 0xFF) as usize] -= 1;
        }
        if let Some(kw) = self.key_weights {
            for col in Color::ALL {
                let w = kw.pair(col, cell_key_of(self.pats[pi], col));
                self.sums[col.index()][0] -= w[0];
                self.sums[col.index()][1] -= w[1];
            }
        }
        let v = code(c);
        self.cells[pi] = v;
        self.occupied[pi / 64] |= 1 << (pi % 64);
        let near = &self.near[pi];
        for (w, n) in self.cand.iter_mut().zip(near.iter()) {
            *w |= n;
        }
        self.hash = self.hash_with_stone(p, c);
        self.side = c.opponent();
        for d in 0..4 {
            let li = self.line_idx[d][pi] as usize;
            let pos = self.line_pos[d][pi] as usize;
            self.words[d][li] |= u64::from(v) << (2 * (pos + PAD));
            let word = self.words[d][li];
            let delta = self.delta[d];
            // The empty cells among the `reach` neighbours on each side, one bit (the low bit
            // of its two) per cell of the span from padded index `pos + PAD - reach` (padding
            // and walls are never empty, and the new stone's own cell is occupied now).
            let reach = self.reach;
            let span = word >> (2 * (pos + PAD - reach));
            let mut empties =
                !(span | (span >> 1)) & LOW_BITS & ((1u64 << (2 * (2 * reach + 1))) - 1);
            while empties != 0 {
                let j = empties.trailing_zeros() as usize / 2;
                empties &= empties - 1;
                // Cell `q` is `j - reach` steps from the stone; its window starts at padded
                // index `pos + j - reach` (its own padded index less PAD).
                let k = j as isize - reach as isize;
                let q = (pi as isize + k * delta) as usize;
                let key = window_to_key((word >> (2 * (pos + j - reach))) & WINDOW_MASK);
                self.update_dir(q, d, key);
            }
        }
        #[cfg(feature = "check-invariants")]
        self.debug_check();
    }

    /// The hash key once a stone of `c` is put at `p` and `c`'s opponent is to move (the one
    /// place the key's stone and side terms are combined; [`Board::hash_after`] asks it too).
    #[inline]
    fn hash_with_stone(&self, p: Pos, c: Color) -> u64 {
        let side = if self.side == c.opponent() {
            0
        } else {
            zobrist::SIDE
        };
        self.hash ^ zobrist::STONE[c.index()][p.index()] ^ side
    }

    /// Refresh the pattern byte of cell `q` in direction `d` from line key `key`.
    #[inline(always)]
    fn update_dir(&mut self, q: usize, d: usize, key: usize) {
        let old = self.pats[q];
        let new = (old & !(0xFF << (8 * d))) | (u32::from(self.tables.line_entry(key)) << (8 * d));
        if new == old {
            return;
        }
        self.changes.push(Change {
            cell: q as u16,
            pats: old,
            info: [self.info[0][q], self.info[1][q]],
        });
        self.pats[q] = new;
        let diff = old ^ new;
        for c in Color::ALL {
            let ci = c.index();
            if (diff >> (4 * ci)) & 0x0F0F_0F0F == 0 {
                continue;
            }
            let key = cell_key_of(new, c);
            if let Some(kw) = self.key_weights {
                let (a, b) = (kw.pair(c, key), kw.pair(c, cell_key_of(old, c)));
                self.sums[ci][0] += a[0] - b[0];
                self.sums[ci][1] += a[1] - b[1];
            }
            let info = self.tables.cell_info(key, c);
            let old_info = self.info[ci][q];
            if info != old_info {
                self.counts[ci][(old_info & 0xFF) as usize] -= 1;
                self.counts[ci][(info & 0xFF) as usize] += 1;
                self.info[ci][q] = info;
            }
        }
    }

    /// Pass: the side to move changes, nothing else.
    pub fn pass(&mut self) {
        self.stack.push(Ply {
            pos: Pos::PASS,
            color: self.side,
            change_start: self.changes.len() as u32,
            counts: self.counts,
            sums: self.sums,
            cand: self.cand,
        });
        self.side = self.side.opponent();
        self.hash ^= zobrist::SIDE;
    }

    /// Take back the last ply (stone or pass). Returns it, or `None` on an empty history.
    pub fn undo(&mut self) -> Option<(Pos, Color)> {
        let ply = self.stack.pop()?;
        let prev_side = self
            .stack
            .last()
            .map_or(Color::Black, |p| p.color.opponent());
        if ply.pos.is_pass() {
            self.side = ply.color;
            self.hash ^= zobrist::SIDE;
            return Some((ply.pos, ply.color));
        }
        let start = ply.change_start as usize;
        for ch in self.changes[start..].iter().rev() {
            let q = ch.cell as usize;
            self.pats[q] = ch.pats;
            self.info[0][q] = ch.info[0];
            self.info[1][q] = ch.info[1];
        }
        self.changes.truncate(start);
        self.counts = ply.counts;
        self.sums = ply.sums;
        self.cand = ply.cand;
        let pi = ply.pos.index();
        self.cells[pi] = EMPTY;
        self.occupied[pi / 64] &= !(1 << (pi % 64));
        for d in 0..4 {
            let li = self.line_idx[d][pi] as usize;
            let pos = self.line_pos[d][pi] as usize;
            self.words[d][li] &= !(3u64 << (2 * (pos + PAD)));
        }
        self.hash ^= zobrist::STONE[ply.color.index()][pi];
        if prev_side != ply.color.opponent() {
            self.hash ^= zobrist::SIDE;
        }
        self.side = prev_side;
        #[cfg(feature = "check-invariants")]
        self.debug_check();
        Some((ply.pos, ply.color))
    }

    #[cfg(feature = "check-invariants")]
    fn debug_check(&self) {
        if let Err(e) = self.check_invariants() {
            panic!("board invariant broken: {e}\n{self}");
        }
    }
}

/// The hash key of a wall on cell `pi`: both colours' stone keys (no stone hashes so).
#[inline]
fn wall_key(pi: usize) -> u64 {
    zobrist::STONE[0][pi] ^ zobrist::STONE[1][pi]
}

/// Colour `c`'s cell key (see [`crate::pattern::table::cell_key`]) from a packed pattern word
/// (byte `d` = direction `d`, black in the low nibble).
#[inline]
#[must_use]
pub fn cell_key_of(pats: u32, c: Color) -> usize {
    let v = (pats >> (4 * c.index() as u32)) & 0x0F0F_0F0F;
    let digit = |d: u32| ((v >> (8 * d)) & 0xF) as usize;
    digit(0) + 10 * digit(1) + 100 * digit(2) + 1000 * digit(3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::table::{cell_key, cell_key_patterns, CELL_KEYS};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn hash_after_is_the_hash_after_playing() {
        // Seeded random games (passes included) on several sizes and rules: the predicted key
        // of every empty cell equals the key once the stone is played.
        let mut rng = StdRng::seed_from_u64(0x9E37_79B9);
        for (size, rule) in [
            (15, Rule::Renju),
            (20, Rule::Freestyle),
            (7, Rule::Standard),
        ] {
            let mut b = Board::new(size, rule).unwrap();
            for _ in 0..size * size / 2 {
                if rng.gen_range(0..9) == 0 {
                    b.pass();
                }
                let empty: Vec<Pos> = b.empty_cells().collect();
                for &p in &empty {
                    let predicted = b.hash_after(p);
                    b.play_unchecked(p);
                    assert_eq!(predicted, b.hash(), "cell {p:?} of size {size}");
                    b.undo();
                }
                let p = empty[rng.gen_range(0..empty.len())];
                b.play_unchecked(p);
            }
        }
    }

    #[test]
    fn cell_key_of_packed_patterns_matches_cell_key() {
        // Every black/white pattern combination: pack as the board does, extract per colour.
        for kb in (0..CELL_KEYS).step_by(7) {
            let black = cell_key_patterns(kb);
            let white = cell_key_patterns(CELL_KEYS - 1 - kb);
            let mut word = 0u32;
            for d in 0..4 {
                word |= ((black[d] as u32) | ((white[d] as u32) << 4)) << (8 * d);
            }
            assert_eq!(cell_key_of(word, Color::Black), cell_key(black));
            assert_eq!(cell_key_of(word, Color::White), cell_key(white));
        }
    }
}
