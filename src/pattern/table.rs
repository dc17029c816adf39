//! Lookup tables generated once per rule from the slow definitions.
//!
//! * **Line table**: indexed by a 20-bit *line key*, the two-bit codes of the ten neighbours of a
//!   cell along one direction (five on each side, nearest to the centre in the middle; the centre
//!   itself is left out because it is empty whenever the table is consulted). Each entry holds
//!   the [`Pattern`] for black (low nibble) and white (high nibble). Keys that no board can
//!   produce (a wall between stones) hold 0.
//! * **Three-extension table** (renju only): for black, the bit mask of window cells that turn
//!   the line's open three into a straight four ([`classify::three_extensions`]).
//! * **Cell table**: indexed by the four line patterns of one colour (a nibble each), holding the
//!   combined [`Class`] and move-ordering score ([`super::combine`], [`super::score`]).

use std::sync::OnceLock;

use rayon::prelude::*;

use super::classify::{self, Line, CENTER, EMPTY, HALF, WALL, WINDOW};
use super::{combine, score, Class, Pattern};
use crate::types::{Color, Rule};

/// Number of distinct line keys (20 bits).
pub const LINE_KEYS: usize = 1 << 20;
/// Number of distinct cell keys (four 4-bit patterns).
pub const CELL_KEYS: usize = 1 << 16;

/// Mask of the 22-bit window (11 cells of two bits) as it sits in a line word.
pub const WINDOW_MASK: u64 = (1 << (2 * WINDOW)) - 1;

/// Compress a 22-bit window (centre in bits 10..12) into the 20-bit line key.
#[inline]
#[must_use]
pub const fn window_to_key(w: u64) -> usize {
    ((w & 0x3FF) | ((w >> 2) & 0xF_FC00)) as usize
}

/// Decode a 20-bit line key into a window (centre empty). Returns `None` for keys no board can
/// produce: walls must form an unbroken run from each outer end.
#[must_use]
pub fn key_to_line(key: usize) -> Option<Line> {
    let mut l = [EMPTY; WINDOW];
    for i in 0..HALF {
        l[i] = ((key >> (2 * i)) & 3) as u8;
        l[CENTER + 1 + i] = ((key >> (2 * (HALF + i))) & 3) as u8;
    }
    // Left half: cells 0..5, walls only as a prefix; right half: cells 6..11, walls a suffix.
    let left_ok = (1..HALF).all(|i| !(l[i - 1] != WALL && l[i] == WALL));
    let right_ok = (CENTER + 1..WINDOW - 1).all(|i| !(l[i + 1] != WALL && l[i] == WALL));
    (left_ok && right_ok).then_some(l)
}

/// The tables of one rule.
pub struct Tables {
    /// The rule these tables were generated for.
    pub rule: Rule,
    line: Vec<u8>,
    ext: Vec<u16>,
    cell: [Vec<u32>; 2],
}

impl Tables {
    /// The (lazily generated, shared) tables of `rule`.
    #[must_use]
    pub fn get(rule: Rule) -> &'static Tables {
        static TABLES: [OnceLock<Tables>; 5] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        TABLES[rule.index()].get_or_init(|| Tables::generate(rule))
    }

    fn generate(rule: Rule) -> Tables {
        let mut line = vec![0u8; LINE_KEYS];
        let mut ext = if rule == Rule::Renju {
            vec![0u16; LINE_KEYS]
        } else {
            Vec::new()
        };
        const CHUNK: usize = 1 << 14;
        line.par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(ci, chunk)| {
                for (j, slot) in chunk.iter_mut().enumerate() {
                    if let Some(l) = key_to_line(ci * CHUNK + j) {
                        let b = classify_pruned(&l, Color::Black, rule) as u8;
                        let w = classify_pruned(&l, Color::White, rule) as u8;
                        *slot = b | (w << 4);
                    }
                }
            });
        if rule == Rule::Renju {
            ext.par_chunks_mut(CHUNK)
                .enumerate()
                .for_each(|(ci, chunk)| {
                    for (j, slot) in chunk.iter_mut().enumerate() {
                        let key = ci * CHUNK + j;
                        if line[key] & 0xF == Pattern::OpenThree as u8 {
                            if let Some(mut l) = key_to_line(key) {
                                l[CENTER] = classify::BLACK;
                                *slot = classify::three_extensions(&l, Color::Black, rule);
                            }
                        }
                    }
                });
        }
        let cell = [Color::Black, Color::White].map(|c| {
            (0..CELL_KEYS)
                .map(|k| {
                    let pats = cell_key_patterns(k);
                    let class = combine(pats, c, rule);
                    let s = score(pats, class);
                    pack_info(class, s)
                })
                .collect()
        });
        Tables {
            rule,
            line,
            ext,
            cell,
        }
    }

    /// The line-table entry of a 20-bit key: black pattern in the low nibble, white in the high.
    #[inline]
    #[must_use]
    pub fn line_entry(&self, key: usize) -> u8 {
        self.line[key]
    }

    /// The pattern of colour `c` for a line key.
    #[inline]
    #[must_use]
    pub fn pattern(&self, key: usize, c: Color) -> Pattern {
        Pattern::from_u8((self.line[key] >> (4 * c.index() as u8)) & 0xF)
    }

    /// Renju black's three-extension mask of a line key (bit `i` = window cell `i`); 0 for the
    /// other rules.
    #[inline]
    #[must_use]
    pub fn three_extensions(&self, key: usize) -> u16 {
        if self.ext.is_empty() {
            0
        } else {
            self.ext[key]
        }
    }

    /// The packed class and score of colour `c` for a cell key (see [`cell_key`]).
    #[inline]
    #[must_use]
    pub fn cell_info(&self, key: usize, c: Color) -> u32 {
        self.cell[c.index()][key]
    }
}

/// The classifier behind the table: [`classify::classify`] with a sound shortcut for windows
/// that cannot hold a two (no five-cell window through the centre with two own stones and no
/// opponent stone or wall), which are `None` by definition.
#[must_use]
pub fn classify_pruned(l: &Line, c: Color, rule: Rule) -> Pattern {
    if classify::best_window(l, c) < 2 {
        return Pattern::None;
    }
    classify::classify(l, c, rule)
}

/// The four patterns encoded in a cell key (nibble `d` = direction `d`).
#[must_use]
pub fn cell_key_patterns(k: usize) -> [Pattern; 4] {
    [0, 1, 2, 3].map(|d| Pattern::from_u8(((k >> (4 * d)) & 0xF) as u8))
}

/// The cell key of four patterns.
#[must_use]
pub fn cell_key(pats: [Pattern; 4]) -> usize {
    pats.iter()
        .enumerate()
        .fold(0, |k, (d, &p)| k | ((p as usize) << (4 * d)))
}

/// Pack a class and a score into one cell-info word (class in the low byte).
#[inline]
#[must_use]
pub const fn pack_info(class: Class, score: i32) -> u32 {
    (class as u32) | ((score as u32) << 8)
}

/// The class of a packed cell-info word.
#[inline]
#[must_use]
pub const fn info_class(info: u32) -> Class {
    Class::from_u8((info & 0xFF) as u8)
}

/// The score of a packed cell-info word.
#[inline]
#[must_use]
pub const fn info_score(info: u32) -> i32 {
    (info as i32) >> 8
}
