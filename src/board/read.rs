//! Reading the position: size and rule, stones and walls, history, the per-cell classes, scores
//! and line patterns, the line keys, and the candidate area. Everything here only reads the
//! board's fields (see the representation in the module above).

use super::masks::line_masks;
use super::Candidates;
use super::{cell_key_of, Board, CellSet, CodeSums, BLACK, EMPTY, PAD, SET_WORDS, WHITE};
use crate::pattern::classify::code;
use crate::pattern::code::KeyWeights;
use crate::pattern::table::{info_class, info_score, window_to_key, Tables, WINDOW_MASK};
use crate::pattern::{Class, Pattern};
use crate::types::{Color, Pos, Rule, DIRS};

impl Board {
    /// The board side.
    #[inline]
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rule.
    #[inline]
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The side to move: the opponent of whoever made the last ply (black on an empty board).
    #[inline]
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist hash of the stones and the side to move.
    #[inline]
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The [`Board::hash`] after the side to move plays at empty cell `p`
    /// ([`Board::play_unchecked`]), without playing it (for a table prefetch).
    #[inline]
    #[must_use]
    pub fn hash_after(&self, p: Pos) -> u64 {
        self.hash_with_stone(p, self.side)
    }

    /// Number of plies played (passes included).
    #[inline]
    #[must_use]
    pub fn ply_count(&self) -> usize {
        self.stack.len()
    }

    /// Number of stones on the board (walls are no stones).
    #[must_use]
    pub fn stone_count(&self) -> usize {
        self.occupied
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum::<usize>()
            - self.walls
    }

    /// The plies played so far, oldest first, as (point, colour); a pass has [`Pos::PASS`].
    pub fn history(&self) -> impl Iterator<Item = (Pos, Color)> + '_ {
        self.stack.iter().map(|p| (p.pos, p.color))
    }

    /// The last ply, if any.
    #[must_use]
    pub fn last_move(&self) -> Option<(Pos, Color)> {
        self.stack.last().map(|p| (p.pos, p.color))
    }

    /// The ply `k` plies before the last one (`0` is the last ply), if the history is that long.
    #[must_use]
    pub fn ply_back(&self, k: usize) -> Option<(Pos, Color)> {
        let n = self.stack.len();
        (k < n).then(|| {
            let p = &self.stack[n - 1 - k];
            (p.pos, p.color)
        })
    }

    /// Whether `(x, y)` lies on the board.
    #[inline]
    #[must_use]
    pub fn on_board(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.size && (y as usize) < self.size
    }

    /// Whether `p` is a cell of this board (not the pass move).
    #[inline]
    #[must_use]
    pub fn contains(&self, p: Pos) -> bool {
        p.index() < self.size * self.size
    }

    /// The cell `(x, y)`.
    #[inline]
    #[must_use]
    pub fn pos(&self, x: usize, y: usize) -> Pos {
        Pos::new(x, y, self.size)
    }

    /// The stone on `p`, if any.
    #[inline]
    #[must_use]
    pub fn stone(&self, p: Pos) -> Option<Color> {
        match self.cells[p.index()] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// Whether `p` is an empty cell of this board.
    #[inline]
    #[must_use]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.contains(p) && self.cells[p.index()] == EMPTY
    }

    /// Every cell of the board, in index order.
    pub fn cells(&self) -> impl Iterator<Item = Pos> {
        (0..(self.size * self.size) as u16).map(Pos)
    }

    /// Every empty cell, in index order.
    pub fn empty_cells(&self) -> impl Iterator<Item = Pos> + '_ {
        self.cells().filter(|&p| self.cells[p.index()] == EMPTY)
    }

    /// The combined threat class of empty cell `p` for colour `c`.
    #[inline]
    #[must_use]
    pub fn class(&self, p: Pos, c: Color) -> Class {
        debug_assert!(self.is_empty(p));
        info_class(self.info[c.index()][p.index()])
    }

    /// The move-ordering score of empty cell `p` for colour `c`.
    #[inline]
    #[must_use]
    pub fn score(&self, p: Pos, c: Color) -> i32 {
        debug_assert!(self.is_empty(p));
        info_score(self.info[c.index()][p.index()])
    }

    /// The line pattern of empty cell `p` for colour `c` in direction `d` (index into
    /// [`DIRS`]).
    #[inline]
    #[must_use]
    pub fn pattern(&self, p: Pos, d: usize, c: Color) -> Pattern {
        Pattern::from_u8(((self.pats[p.index()] >> (8 * d + 4 * c.index())) & 0xF) as u8)
    }

    /// How many empty cells have class `class` for colour `c`.
    #[inline]
    #[must_use]
    pub fn count(&self, c: Color, class: Class) -> u16 {
        self.counts[c.index()][class as usize]
    }

    /// Whether colour `c` has at least one empty cell of class `class` (O(1)).
    #[inline]
    #[must_use]
    pub fn has(&self, c: Color, class: Class) -> bool {
        self.count(c, class) > 0
    }

    /// The 20-bit line key of cell `p` in direction `d` (the ten neighbours along the line).
    #[inline]
    #[must_use]
    pub fn key_at(&self, p: usize, d: usize) -> usize {
        let w = self.words[d][self.line_idx[d][p] as usize];
        window_to_key((w >> (2 * self.line_pos[d][p] as usize)) & WINDOW_MASK)
    }

    /// The cell `k` steps from `p` along direction `d` (negative `k` goes backwards), if on the
    /// board.
    #[inline]
    #[must_use]
    pub fn step(&self, p: Pos, d: usize, k: i32) -> Option<Pos> {
        let (dx, dy) = DIRS[d];
        let x = p.x(self.size) as i32 + dx * k;
        let y = p.y(self.size) as i32 + dy * k;
        self.on_board(x, y)
            .then(|| Pos::new(x as usize, y as usize, self.size))
    }

    /// The class colour `of` would have at empty cell `q` if a stone of colour `c` stood on the
    /// empty cell `p` (`p != q`), read from the tables without playing: the same as putting the
    /// stone and reading [`Board::class`] (a stone changes only the pattern of the one line it
    /// shares with `q`, and only within the board's update reach).
    #[inline]
    #[must_use]
    pub fn class_with(&self, q: Pos, p: Pos, c: Color, of: Color) -> Class {
        let (qi, pi) = (q.index(), p.index());
        debug_assert!(qi != pi && self.cells[qi] == EMPTY && self.cells[pi] == EMPTY);
        for d in 0..4 {
            let li = self.line_idx[d][qi];
            if li != self.line_idx[d][pi] {
                continue;
            }
            let (qp, pp) = (self.line_pos[d][qi] as usize, self.line_pos[d][pi] as usize);
            if qp.abs_diff(pp) > self.reach {
                break;
            }
            let w = self.words[d][li as usize] | (u64::from(code(c)) << (2 * (pp + PAD)));
            let key = window_to_key((w >> (2 * qp)) & WINDOW_MASK);
            let pats = (self.pats[qi] & !(0xFF << (8 * d)))
                | (u32::from(self.tables.line_entry(key)) << (8 * d));
            return info_class(self.tables.cell_info(cell_key_of(pats, of), of));
        }
        self.class(q, of)
    }

    /// The line tables of this board's rule.
    #[inline]
    #[must_use]
    pub fn tables(&self) -> &'static Tables {
        self.tables
    }

    /// Whether `p` is in the candidate area (within [`CANDIDATE_RADIUS`](super::CANDIDATE_RADIUS) of a stone) and empty.
    #[inline]
    #[must_use]
    pub fn is_candidate(&self, p: Pos) -> bool {
        let i = p.index();
        (self.cand[i / 64] & !self.occupied[i / 64]) >> (i % 64) & 1 != 0
    }

    /// The empty cells of the candidate area, in index order.
    #[inline]
    pub fn candidates(&self) -> Candidates {
        self.candidates_in(&[u64::MAX; SET_WORDS])
    }

    /// The empty cells of the candidate area within `mask`, in index order.
    #[inline]
    pub fn candidates_in(&self, mask: &CellSet) -> Candidates {
        let mut set = self.cand;
        for ((w, o), m) in set.iter_mut().zip(self.occupied.iter()).zip(mask.iter()) {
            *w &= !o & m;
        }
        Candidates {
            set,
            word: 0,
            bits: set[0],
        }
    }

    /// The cells on the four lines through `p` within four cells of it (`p` excluded): where
    /// a five point made by a stone at `p` lies.
    #[inline]
    #[must_use]
    pub fn line_mask(&self, p: Pos) -> &'static CellSet {
        &line_masks(self.size)[p.index()]
    }

    /// How far along a line a stone changes the patterns of the empty cells it shares that line
    /// with (see [`Board::class_with`]).
    #[inline]
    #[must_use]
    pub fn update_reach(&self) -> usize {
        self.reach
    }

    /// The code weights this board sums, if any (see [`Board::with_key_weights`]).
    #[inline]
    #[must_use]
    pub fn key_weights(&self) -> Option<&'static KeyWeights> {
        self.key_weights
    }

    /// Per colour and role, the sum of the code weights of the empty cells (all zero when the
    /// board keeps no sums).
    #[inline]
    #[must_use]
    pub fn code_sums(&self) -> CodeSums {
        self.sums
    }

    /// The cell-bit-set of stones.
    #[must_use]
    pub fn occupied(&self) -> &CellSet {
        &self.occupied
    }
}
