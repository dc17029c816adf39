//! The slow reference foul detector, written straight from the RIF definitions.
//!
//! It shares nothing with the fast path ([`super::renju`]) except the stones it is given: its own
//! grid, its own run counting, no pattern tables, no incremental state. Every step of
//! [`foul`] mirrors the reference algorithm of the rules document:
//!
//! 1. put black on the point; an exact five in any line wins (no foul);
//! 2. a run of six or more in any line is an overline;
//! 3. per line, the distinct four-stone sets through the point that one more black stone turns
//!    into an exact five are its fours; two or more in total is a double-four;
//! 4. in lines without a four, a three is real if some empty point one to three cells away makes
//!    a straight four through both stones, makes no exact five anywhere, and is itself not a
//!    foul (recursively, with the first stone still on the board); two or more real threes are a
//!    double-three.

use super::Foul;
use crate::types::Color;

/// A plain stone grid: `cells[y * size + x]`, and the walls (cells of neither colour that no
/// one may play, like the cells beyond the edge).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    size: usize,
    cells: Vec<Option<Color>>,
    walls: Vec<bool>,
}

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl Grid {
    /// An empty grid of side `size`.
    #[must_use]
    pub fn new(size: usize) -> Grid {
        Grid {
            size,
            cells: vec![None; size * size],
            walls: vec![false; size * size],
        }
    }

    /// The side of the grid.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The stone at `(x, y)`; `None` when empty, a wall or off the grid.
    #[must_use]
    pub fn get(&self, x: i32, y: i32) -> Option<Color> {
        if x < 0 || y < 0 || x >= self.size as i32 || y >= self.size as i32 {
            return None;
        }
        self.cells[y as usize * self.size + x as usize]
    }

    /// Whether `(x, y)` is on the grid, holds no stone and is no wall.
    #[must_use]
    pub fn is_empty(&self, x: i32, y: i32) -> bool {
        x >= 0
            && y >= 0
            && x < self.size as i32
            && y < self.size as i32
            && self.get(x, y).is_none()
            && !self.walls[y as usize * self.size + x as usize]
    }

    /// Make `(x, y)` (on the grid, no stone) a wall.
    pub fn set_wall(&mut self, x: i32, y: i32) {
        let s = self.size;
        self.walls[y as usize * s + x as usize] = true;
    }

    /// Set `(x, y)` (which must be on the grid).
    pub fn set(&mut self, x: i32, y: i32, v: Option<Color>) {
        let s = self.size;
        self.cells[y as usize * s + x as usize] = v;
    }

    /// The black run through `(x, y)` along `(dx, dy)`: its cells from one end to the other.
    fn black_run(&self, x: i32, y: i32, (dx, dy): (i32, i32)) -> Vec<(i32, i32)> {
        let mut lo = 0;
        while self.get(x + dx * (lo - 1), y + dy * (lo - 1)) == Some(Color::Black) {
            lo -= 1;
        }
        let mut hi = 0;
        while self.get(x + dx * (hi + 1), y + dy * (hi + 1)) == Some(Color::Black) {
            hi += 1;
        }
        (lo..=hi).map(|k| (x + dx * k, y + dy * k)).collect()
    }

    /// Whether black at `(x, y)` (already placed) makes an exact five in some line.
    fn has_exact_five(&self, x: i32, y: i32) -> bool {
        DIRS.iter().any(|&d| self.black_run(x, y, d).len() == 5)
    }

    /// Whether the run is a straight four along `d`: four stones whose two outside neighbours
    /// are both empty and each gives an exact five.
    fn straight_four(&mut self, run: &[(i32, i32)], d: (i32, i32)) -> bool {
        if run.len() != 4 {
            return false;
        }
        let (fx, fy) = run[0];
        let (lx, ly) = run[3];
        let ends = [(fx - d.0, fy - d.1), (lx + d.0, ly + d.1)];
        ends.iter().all(|&(ex, ey)| {
            if !self.is_empty(ex, ey) {
                return false;
            }
            self.set(ex, ey, Some(Color::Black));
            let five = self.black_run(ex, ey, d).len() == 5;
            self.set(ex, ey, None);
            five
        })
    }
}

/// The foul black commits by playing the empty point `(x, y)` of `grid`, or `None`.
/// The grid is restored before returning.
///
/// # Panics
/// If `(x, y)` is not an empty point of the grid.
pub fn foul(grid: &mut Grid, x: i32, y: i32) -> Option<Foul> {
    assert!(
        grid.is_empty(x, y),
        "reference foul check on a non-empty point"
    );
    grid.set(x, y, Some(Color::Black));
    let verdict = verdict_with_stone(grid, x, y);
    grid.set(x, y, None);
    verdict
}

fn verdict_with_stone(grid: &mut Grid, x: i32, y: i32) -> Option<Foul> {
    // 1. Five first.
    if grid.has_exact_five(x, y) {
        return None;
    }
    // 2. Overline.
    if DIRS.iter().any(|&d| grid.black_run(x, y, d).len() >= 6) {
        return Some(Foul::Overline);
    }
    // 3. Fours: distinct four-stone sets per line.
    let mut fours = 0;
    let mut has_four = [false; 4];
    for (i, &d) in DIRS.iter().enumerate() {
        let mut sets: Vec<Vec<(i32, i32)>> = Vec::new();
        for k in -4..=4 {
            let (qx, qy) = (x + d.0 * k, y + d.1 * k);
            if k == 0 || !grid.is_empty(qx, qy) {
                continue;
            }
            grid.set(qx, qy, Some(Color::Black));
            let run = grid.black_run(qx, qy, d);
            if run.len() == 5 && run.contains(&(x, y)) {
                let set: Vec<(i32, i32)> = run.into_iter().filter(|&c| c != (qx, qy)).collect();
                if !sets.contains(&set) {
                    sets.push(set);
                }
            }
            grid.set(qx, qy, None);
        }
        fours += sets.len();
        has_four[i] = !sets.is_empty();
    }
    if fours >= 2 {
        return Some(Foul::DoubleFour);
    }
    // 4. Real threes.
    let mut threes = 0;
    for (i, &d) in DIRS.iter().enumerate() {
        if has_four[i] {
            continue;
        }
        for k in -3..=3 {
            let (qx, qy) = (x + d.0 * k, y + d.1 * k);
            if k == 0 || !grid.is_empty(qx, qy) {
                continue;
            }
            grid.set(qx, qy, Some(Color::Black));
            let run = grid.black_run(x, y, d);
            let ok = run.contains(&(qx, qy))
                && grid.straight_four(&run, d)
                && !grid.has_exact_five(qx, qy);
            grid.set(qx, qy, None);
            if ok && foul(grid, qx, qy).is_none() {
                threes += 1;
                break;
            }
        }
    }
    (threes >= 2).then_some(Foul::DoubleThree)
}

impl Grid {
    /// The stones and walls of a board, copied into a plain grid.
    #[must_use]
    pub fn from_board(board: &crate::board::Board) -> Grid {
        let size = board.size();
        let mut g = Grid::new(size);
        for p in board.cells() {
            g.cells[p.index()] = board.stone(p);
            g.walls[p.index()] = board.is_wall(p);
        }
        g
    }
}
