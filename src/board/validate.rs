//! The from-scratch recomputation behind [`Board::check_invariants`].
//!
//! Everything here reads the stone array through coordinates only (never the line words or any
//! incremental field), rebuilds each field, and names the first one that differs.

use super::{cell_key_of, wall_key, zobrist, Board, CANDIDATE_RADIUS, PAD, SET_WORDS};
use crate::pattern::classify::{self, Line, EMPTY, WALL, WINDOW};
use crate::pattern::table::info_class;
use crate::pattern::{Pattern, CLASS_COUNT};
use crate::types::{Color, Pos, DIRS};

impl Board {
    /// The 11-cell window of `p` along direction `d`, read from the stones by coordinates
    /// (off-board cells are walls).
    #[must_use]
    pub fn window_slow(&self, p: Pos, d: usize) -> Line {
        let (dx, dy) = DIRS[d];
        let (x, y) = (p.x(self.size) as i32, p.y(self.size) as i32);
        let mut l = [WALL; WINDOW];
        for (i, slot) in l.iter_mut().enumerate() {
            let k = i as i32 - PAD as i32;
            let (nx, ny) = (x + dx * k, y + dy * k);
            if self.on_board(nx, ny) {
                *slot = self.cells[ny as usize * self.size + nx as usize];
            }
        }
        l
    }

    /// Recompute every incremental field from the stones and compare. On a mismatch, the error
    /// names the field and the cell.
    ///
    /// # Errors
    /// A description of the first field that differs from its recomputation.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.check_side_and_hash()?;
        self.check_line_keys()?;
        self.check_cells()
    }

    /// The side to move (from the history) and the hash (from the stones and walls).
    fn check_side_and_hash(&self) -> Result<(), String> {
        let n = self.size * self.size;
        let side = self
            .stack
            .last()
            .map_or(Color::Black, |p| p.color.opponent());
        if side != self.side {
            return Err(format!("side to move {:?}, expected {:?}", self.side, side));
        }
        let mut hash = if side == Color::White {
            zobrist::SIDE
        } else {
            0
        };
        for p in 0..n {
            if let Some(c) = self.stone(Pos(p as u16)) {
                hash ^= zobrist::STONE[c.index()][p];
            } else if self.cells[p] == WALL {
                hash ^= wall_key(p);
            }
        }
        if hash != self.hash {
            return Err(format!("hash {:#x}, expected {hash:#x}", self.hash));
        }
        Ok(())
    }

    /// Line keys: every cell's key must decode to the window read from the stones.
    fn check_line_keys(&self) -> Result<(), String> {
        let n = self.size * self.size;
        for p in 0..n {
            for d in 0..4 {
                let slow = self.window_slow(Pos(p as u16), d);
                let key = self.key_at(p, d);
                let mut want = 0usize;
                for i in 0..PAD {
                    want |= (slow[i] as usize) << (2 * i);
                    want |= (slow[PAD + 1 + i] as usize) << (2 * (PAD + i));
                }
                if key != want {
                    return Err(format!(
                        "line key of cell {p} dir {d}: {key:#x}, expected {want:#x}"
                    ));
                }
            }
        }
        Ok(())
    }

    /// Every empty cell's patterns, classes and code weights from its line keys, the class
    /// counts and code sums, the occupied set, the walls and the candidate area.
    fn check_cells(&self) -> Result<(), String> {
        let n = self.size * self.size;
        let mut counts = [[0u16; CLASS_COUNT]; 2];
        let mut sums = [[0i32; 2]; 2];
        let mut cand = [0u64; SET_WORDS];
        let mut occupied = [0u64; SET_WORDS];
        for p in 0..n {
            let pos = Pos(p as u16);
            if self.cells[p] != EMPTY {
                occupied[p / 64] |= 1 << (p % 64);
                continue;
            }
            let mut pats = 0u32;
            for d in 0..4 {
                let key = self.key_at(p, d);
                pats |= u32::from(self.tables.line_entry(key)) << (8 * d);
            }
            if pats != self.pats[p] {
                return Err(format!(
                    "patterns of cell {p}: {:#x}, expected {pats:#x}",
                    self.pats[p]
                ));
            }
            for c in Color::ALL {
                let info = self.tables.cell_info(cell_key_of(pats, c), c);
                if info != self.info[c.index()][p] {
                    return Err(format!("class/score of cell {p} for {c}"));
                }
                counts[c.index()][info_class(info) as usize] += 1;
                if let Some(kw) = self.key_weights {
                    let w = kw.pair(c, cell_key_of(pats, c));
                    sums[c.index()][0] += w[0];
                    sums[c.index()][1] += w[1];
                }
            }
            let (x, y) = (pos.x(self.size) as i32, pos.y(self.size) as i32);
            let r = CANDIDATE_RADIUS as i32;
            let near = (-r..=r).any(|dy| {
                (-r..=r).any(|dx| {
                    self.on_board(x + dx, y + dy)
                        && self
                            .stone(Pos::new((x + dx) as usize, (y + dy) as usize, self.size))
                            .is_some()
                })
            });
            if near {
                cand[p / 64] |= 1 << (p % 64);
            }
        }
        if counts != self.counts {
            return Err(format!(
                "class counts {:?}, expected {counts:?}",
                self.counts
            ));
        }
        if sums != self.sums {
            return Err(format!("code sums {:?}, expected {sums:?}", self.sums));
        }
        if occupied != self.occupied {
            return Err("occupied set differs".to_string());
        }
        let walls = (0..n).filter(|&p| self.cells[p] == WALL).count();
        if walls != self.walls {
            return Err(format!("{} walls, expected {walls}", self.walls));
        }
        let live: Vec<u64> = self
            .cand
            .iter()
            .zip(self.occupied.iter())
            .map(|(c, o)| c & !o)
            .collect();
        if live != cand {
            return Err("candidate area differs".to_string());
        }
        Ok(())
    }

    /// Compare every empty cell's line patterns with the slow classifier run on the window read
    /// from the stones (no table involved). Slow: meant for tests on sampled positions.
    ///
    /// # Errors
    /// The first cell, direction and colour whose pattern differs.
    pub fn check_patterns_slow(&self) -> Result<(), String> {
        for p in self.empty_cells() {
            for d in 0..4 {
                let l = self.window_slow(p, d);
                for c in Color::ALL {
                    let want: Pattern = classify::classify(&l, c, self.rule);
                    let got = self.pattern(p, d, c);
                    if want != got {
                        return Err(format!(
                            "pattern at {} dir {d} for {c}: {got:?}, classifier says {want:?}",
                            p.to_renju(self.size)
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}
