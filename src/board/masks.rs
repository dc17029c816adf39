//! Cell sets: the iterator over a set's cells, and the per-cell masks shared by every board of
//! a size (the candidate area around a stone, the line cells around a point), built once.

use super::{CellSet, CANDIDATE_RADIUS, SET_WORDS};
use crate::types::{Pos, DIRS, MAX_SIZE};

/// The iterator of [`Board::candidates`](super::Board::candidates): the cells of a cell set in index order.
#[derive(Clone)]
pub struct Candidates {
    pub(super) set: CellSet,
    pub(super) word: usize,
    pub(super) bits: u64,
}

impl Iterator for Candidates {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        while self.bits == 0 {
            self.word += 1;
            if self.word >= SET_WORDS {
                return None;
            }
            self.bits = self.set[self.word];
        }
        let b = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(Pos((self.word * 64 + b) as u16))
    }
}

/// Per-cell masks of a board of side `size`: `cells(x, y)` lists the cells of cell `(x, y)`'s
/// mask; built once per size into `cache`.
fn cell_masks<I: Iterator<Item = (i32, i32)>>(
    cache: &'static [std::sync::OnceLock<Vec<CellSet>>; MAX_SIZE + 1],
    size: usize,
    cells: impl Fn(i32, i32) -> I,
) -> &'static [CellSet] {
    cache[size].get_or_init(|| {
        let n = size as i32;
        (0..size * size)
            .map(|p| {
                let mut m = [0u64; SET_WORDS];
                let (x, y) = ((p % size) as i32, (p / size) as i32);
                for (qx, qy) in cells(x, y) {
                    if (0..n).contains(&qx) && (0..n).contains(&qy) {
                        let q = (qy * n + qx) as usize;
                        m[q / 64] |= 1 << (q % 64);
                    }
                }
                m
            })
            .collect()
    })
}

/// The [`Board::line_mask`] of every cell of a board of side `size` (shared, built once).
pub(super) fn line_masks(size: usize) -> &'static [CellSet] {
    static MASKS: [std::sync::OnceLock<Vec<CellSet>>; MAX_SIZE + 1] =
        [const { std::sync::OnceLock::new() }; MAX_SIZE + 1];
    cell_masks(&MASKS, size, |x, y| {
        DIRS.into_iter().flat_map(move |(dx, dy)| {
            (-4..=4)
                .filter(|&k| k != 0)
                .map(move |k| (x + dx * k, y + dy * k))
        })
    })
}

/// The candidate-area masks of every cell of a board of side `size` (shared, built once).
pub(super) fn near_masks(size: usize) -> &'static [CellSet] {
    static MASKS: [std::sync::OnceLock<Vec<CellSet>>; MAX_SIZE + 1] =
        [const { std::sync::OnceLock::new() }; MAX_SIZE + 1];
    let r = CANDIDATE_RADIUS as i32;
    cell_masks(&MASKS, size, move |x, y| {
        (y - r..=y + r).flat_map(move |ny| (x - r..=x + r).map(move |nx| (nx, ny)))
    })
}
