//! Lookup tables generated once per rule from the slow definitions.
//!
//! * **Line table**: indexed by a 20-bit *line key*, the two-bit codes of the ten neighbours of a
//!   cell along one direction (five on each side, nearest to the centre in the middle; the centre
//!   itself is left out because it is empty whenever the table is consulted). Each entry holds
//!   the [`Pattern`] for black (low nibble) and white (high nibble). A wall (off the board, or
//!   a neutral cell on it) ends every line through the centre, so the cells beyond the wall
//!   nearest to the centre never matter: each half key is read as its *canonical* form, every
//!   cell from that wall outward a wall. Only 364 of the 1024 values of a half key are
//!   canonical, so the table is indexed by [`compact`], two small lookups that map every key
//!   onto its canonical key's entry among 133,225 (130 KB instead of 1 MB: it stays in the L2
//!   cache).
//! * **Three-extension table** (renju only): for black, the bit mask of window cells that turn
//!   the line's open three into a straight four ([`classify::three_extensions`]).
//! * **Cell table**: indexed by the four line patterns of one colour (base-10 digits), holding the
//!   combined [`Class`] and move-ordering score ([`super::combine`], [`super::score`]).

use std::sync::OnceLock;

use rayon::prelude::*;

use super::classify::{self, Line, CENTER, EMPTY, HALF, WALL, WINDOW};
use super::{combine, score, Class, Pattern};
use crate::types::{Color, Rule};

/// Number of distinct line keys (20 bits).
pub const LINE_KEYS: usize = 1 << 20;
/// Number of distinct cell keys: four patterns as base-10 digits (direction `d` is digit `d`).
pub const CELL_KEYS: usize = 10_000;

/// Canonical states of one half key (five cells, walls only as a run from the outer end):
/// 3^5 + 3^4 + ... + 1.
pub const SIDE_STATES: usize = 364;
/// Number of compact line indices (one state per side more than [`SIDE_STATES`]: the index
/// layout of the table; no key maps there).
pub const COMPACT_KEYS: usize = (SIDE_STATES + 1) * (SIDE_STATES + 1);

/// The canonical form of a 10-bit half key: every cell from the wall nearest to the centre
/// outward turned into a wall. `right` selects the right half (cell 0, the low bits, nearest
/// to the centre); in the left half cell 4 (the high bits) is nearest.
#[must_use]
pub const fn canonical_half(bits: usize, right: bool) -> usize {
    let mut out = bits;
    let mut wall = false;
    let mut k = 0;
    while k < HALF {
        // The k-th cell counted from the centre.
        let j = if right { k } else { HALF - 1 - k };
        if (bits >> (2 * j)) & 3 == WALL as usize {
            wall = true;
        }
        if wall {
            out |= 3 << (2 * j);
        }
        k += 1;
    }
    out
}

/// Build the map from a 10-bit half key to the compact state of its canonical form, and back
/// from the states to the canonical halves. `right` selects the right half.
const fn side_maps(right: bool) -> ([u16; 1024], [u16; SIDE_STATES]) {
    let mut to = [0u16; 1024];
    let mut from = [0u16; SIDE_STATES];
    let mut next = 0;
    let mut bits = 0;
    while bits < 1024 {
        if canonical_half(bits, right) == bits {
            to[bits] = next as u16;
            from[next] = bits as u16;
            next += 1;
        }
        bits += 1;
    }
    assert!(next == SIDE_STATES);
    let mut bits = 0;
    while bits < 1024 {
        to[bits] = to[canonical_half(bits, right)];
        bits += 1;
    }
    (to, from)
}

const LEFT: ([u16; 1024], [u16; SIDE_STATES]) = side_maps(false);
const RIGHT: ([u16; 1024], [u16; SIDE_STATES]) = side_maps(true);
static LEFT_TO: [u16; 1024] = LEFT.0;
static RIGHT_TO: [u16; 1024] = RIGHT.0;

/// The compact table index of a 20-bit line key: canonical keys map one-to-one onto the
/// indices whose halves are both below [`SIDE_STATES`], every other key onto its canonical
/// key's index.
#[inline]
#[must_use]
pub fn compact(key: usize) -> usize {
    LEFT_TO[key & 0x3FF] as usize * (SIDE_STATES + 1) + RIGHT_TO[(key >> 10) & 0x3FF] as usize
}

/// The canonical line key of a compact index, or `None` for the indices no key maps to.
#[must_use]
pub fn compact_to_key(idx: usize) -> Option<usize> {
    let (l, r) = (idx / (SIDE_STATES + 1), idx % (SIDE_STATES + 1));
    (l < SIDE_STATES && r < SIDE_STATES).then(|| LEFT.1[l] as usize | ((RIGHT.1[r] as usize) << 10))
}

/// Mask of the 22-bit window (11 cells of two bits) as it sits in a line word.
pub const WINDOW_MASK: u64 = (1 << (2 * WINDOW)) - 1;

/// Compress a 22-bit window (centre in bits 10..12) into the 20-bit line key.
#[inline]
#[must_use]
pub const fn window_to_key(w: u64) -> usize {
    ((w & 0x3FF) | ((w >> 2) & 0xF_FC00)) as usize
}

/// Decode a canonical 20-bit line key into a window (centre empty). Returns `None` for the
/// other keys: walls must form an unbroken run from each outer end.
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
    line: Box<[u8; COMPACT_KEYS]>,
    ext: Vec<u16>,
    cell: [Box<[u32; CELL_KEYS]>; 2],
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
        let entries: Vec<(u8, u16)> = (0..COMPACT_KEYS)
            .into_par_iter()
            .map(|idx| {
                let Some(key) = compact_to_key(idx) else {
                    return (0, 0);
                };
                let Some(l) = key_to_line(key) else {
                    return (0, 0);
                };
                let b = classify_pruned(&l, Color::Black, rule);
                let w = classify_pruned(&l, Color::White, rule);
                let ext = if rule == Rule::Renju && b == Pattern::OpenThree {
                    let mut placed = l;
                    placed[CENTER] = classify::BLACK;
                    classify::three_extensions(&placed, Color::Black, rule)
                } else {
                    0
                };
                ((b as u8) | ((w as u8) << 4), ext)
            })
            .collect();
        let line: Vec<u8> = entries.iter().map(|e| e.0).collect();
        let ext: Vec<u16> = if rule == Rule::Renju {
            entries.iter().map(|e| e.1).collect()
        } else {
            Vec::new()
        };
        let cell = [Color::Black, Color::White].map(|c| {
            let v: Vec<u32> = (0..CELL_KEYS)
                .map(|k| {
                    let pats = cell_key_patterns(k);
                    let class = combine(pats, c, rule);
                    let s = score(pats, class);
                    pack_info(class, s)
                })
                .collect();
            v.into_boxed_slice().try_into().expect("CELL_KEYS entries")
        });
        Tables {
            rule,
            line: line
                .into_boxed_slice()
                .try_into()
                .expect("COMPACT_KEYS entries"),
            ext,
            cell,
        }
    }

    /// The line-table entry of a 20-bit key: black pattern in the low nibble, white in the high.
    #[inline]
    #[must_use]
    pub fn line_entry(&self, key: usize) -> u8 {
        self.line[compact(key)]
    }

    /// The pattern of colour `c` for a line key.
    #[inline]
    #[must_use]
    pub fn pattern(&self, key: usize, c: Color) -> Pattern {
        Pattern::from_u8((self.line_entry(key) >> (4 * c.index() as u8)) & 0xF)
    }

    /// Renju black's three-extension mask of a line key (bit `i` = window cell `i`); 0 for the
    /// other rules.
    #[inline]
    #[must_use]
    pub fn three_extensions(&self, key: usize) -> u16 {
        if self.ext.is_empty() {
            0
        } else {
            self.ext[compact(key)]
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

/// The four patterns encoded in a cell key (decimal digit `d` = direction `d`).
#[must_use]
pub fn cell_key_patterns(k: usize) -> [Pattern; 4] {
    [1, 10, 100, 1000].map(|m| Pattern::from_u8(((k / m) % 10) as u8))
}

/// The cell key of four patterns.
#[must_use]
pub fn cell_key(pats: [Pattern; 4]) -> usize {
    pats.iter().rev().fold(0, |k, &p| k * 10 + p as usize)
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
