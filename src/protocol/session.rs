//! The game session: the board under its rule (with the neutral cells of the last `BOARD`,
//! field 3, as walls on it) and the cells a GUI blocked with `YXBLOCK`. It exists only after `START`: the engine holds an
//! `Option<Game>` and answers `ERROR` to a command that needs a game when there is none.
//!
//! May import `types`, `board` and `rules`; reports errors as text for the engine to print.

use super::command::{parse_xy, parse_xyf};
use crate::board::Board;
use crate::rules;
use crate::types::{valid_size, Color, Pos, Rule};

/// One game: its board (neutral cells are walls on it) and the cells no move of the engine may
/// take.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    /// Cells blocked by `YXBLOCK` (kept until `YXBLOCKRESET` or a new game): the engine does
    /// not choose them, but they stay empty cells of the position.
    blocked: Vec<Pos>,
}

/// The cell `(x, y)` of a board of side `size`, if on the board.
#[must_use]
pub fn cell(size: usize, x: i64, y: i64) -> Option<Pos> {
    let n = size as i64;
    (x >= 0 && y >= 0 && x < n && y < n).then(|| Pos::new(x as usize, y as usize, size))
}

impl Game {
    /// An empty board of side `size` under `rule`.
    ///
    /// # Errors
    /// The size is outside 5..=22.
    pub fn new(size: i64, rule: Rule) -> Result<Game, String> {
        if size < 0 || !valid_size(size as usize) {
            return Err("unsupported board size (5..22)".into());
        }
        let board = Board::new(size as usize, rule).map_err(|e| e.to_string())?;
        Ok(Game {
            board,
            blocked: Vec::new(),
        })
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board, for analysis that plays and takes back moves.
    pub fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    /// Board side.
    #[must_use]
    pub fn size(&self) -> usize {
        self.board.size()
    }

    /// The cell `(x, y)`, if on the board.
    #[must_use]
    pub fn cell(&self, x: i64, y: i64) -> Option<Pos> {
        cell(self.size(), x, y)
    }

    /// Replay the game under `rule` when an `INFO rule` changed it since the board was made.
    pub fn follow_rule(&mut self, rule: Rule) {
        if self.board.rule() == rule {
            return;
        }
        let Ok(mut nb) = Board::new(self.size(), rule) else {
            return;
        };
        for p in self.board.walls() {
            // An empty cell of a board of the same size: cannot fail.
            let _ = nb.place_wall(p);
        }
        for (p, c) in self.board.history() {
            if p.is_pass() {
                nb.pass();
            } else {
                nb.put_unchecked(p, c);
            }
        }
        self.board = nb;
    }

    /// The opponent's move at `(x, y)` (`TURN`).
    ///
    /// # Errors
    /// Off the board, or not an empty cell.
    pub fn opponent_move(&mut self, x: i64, y: i64) -> Result<(), String> {
        let p = self
            .cell(x, y)
            .ok_or_else(|| format!("bad coordinates {x},{y}"))?;
        if !self.board.is_empty(p) {
            return Err(format!("point {x},{y} is occupied"));
        }
        self.board.play_unchecked(p);
        Ok(())
    }

    /// Play `p` for the side to move (a move the engine chose as legal).
    pub fn play(&mut self, p: Pos) {
        if p.is_pass() {
            self.board.pass();
            return;
        }
        self.board.play_unchecked(p);
    }

    /// The move `(x, y)` if it is legal for the side to move (`PLAY` after `SUGGEST`).
    #[must_use]
    pub fn legal_cell(&mut self, x: i64, y: i64) -> Option<Pos> {
        let p = self.cell(x, y)?;
        let me = self.board.side_to_move();
        let legal = self.board.is_empty(p) && rules::legal(&mut self.board, p, me);
        legal.then_some(p)
    }

    /// Replace the position by a `BOARD` payload (`x,y,f` lines: 1 own stone, 2 the opponent's,
    /// 3 a neutral cell, which becomes a wall) under `rule`; the game is unchanged on an error.
    ///
    /// # Errors
    /// The first bad line, or a point given twice.
    pub fn set_position(&mut self, lines: &[String], rule: Rule) -> Result<(), String> {
        let size = self.size();
        let mut b = Board::new(size, rule).map_err(|e| e.to_string())?;
        let mut stones = Vec::new();
        let mut neutral = Vec::new();
        for l in lines {
            let Some((x, y, f)) = parse_xyf(l) else {
                return Err(format!("bad board line '{l}'"));
            };
            let Some(p) = cell(size, x, y) else {
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
        for &p in &neutral {
            if b.place_wall(p).is_err() {
                return Err(format!("point {},{} given twice", p.x(size), p.y(size)));
            }
        }
        self.board = b;
        Ok(())
    }

    /// Take back the stone at `(x, y)` and every later ply.
    ///
    /// Plies after it are replayed (a `TAKEBACK` of an earlier stone keeps the later ones).
    ///
    /// # Errors
    /// Off the board, or no stone there.
    pub fn take_back(&mut self, x: i64, y: i64) -> Result<(), String> {
        let p = self
            .cell(x, y)
            .ok_or_else(|| format!("bad coordinates {x},{y}"))?;
        if self.board.stone(p).is_none() {
            return Err(format!("no stone at {x},{y}"));
        }
        let mut later = Vec::new();
        while let Some((q, c)) = self.board.undo() {
            if q == p {
                break;
            }
            later.push((q, c));
        }
        for &(q, c) in later.iter().rev() {
            if q.is_pass() {
                self.board.pass();
            } else {
                self.board.put_unchecked(q, c);
            }
        }
        Ok(())
    }

    /// `YXBLOCK`: block the cells of the `x,y` lines (bad lines are skipped).
    pub fn block(&mut self, lines: &[String]) {
        for p in self.cells_of(lines) {
            if !self.blocked.contains(&p) {
                self.blocked.push(p);
            }
        }
    }

    /// `YXBLOCKUNDO`: unblock the cells of the `x,y` lines (bad lines are skipped).
    pub fn unblock(&mut self, lines: &[String]) {
        for p in self.cells_of(lines) {
            self.blocked.retain(|&q| q != p);
        }
    }

    /// `YXBLOCKRESET`: no cell blocked.
    pub fn reset_blocks(&mut self) {
        self.blocked.clear();
    }

    fn cells_of(&self, lines: &[String]) -> Vec<Pos> {
        lines
            .iter()
            .filter_map(|l| parse_xy(l).and_then(|(x, y)| self.cell(x, y)))
            .collect()
    }

    /// Root moves the engine must not play: the `YXBLOCK` cells (walls are no moves anyway).
    #[must_use]
    pub fn excluded(&self) -> Vec<Pos> {
        self.blocked.clone()
    }

    /// The stones in move order (passes left out).
    #[must_use]
    pub fn stones(&self) -> Vec<Pos> {
        self.board
            .history()
            .filter(|h| !h.0.is_pass())
            .map(|h| h.0)
            .collect()
    }

    /// A legal move for the side to move: `best` if it is legal and not in `excluded`, else the
    /// first such cell (candidates first), else a legal cell of `excluded`; the pass
    /// ([`Pos::PASS`], answered `-1,-1`) when every empty cell is forbidden (renju black near a
    /// full board: a foul loses, a pass at worst too); `None` on a full board.
    pub fn legal_or_fallback(&mut self, best: Pos, excluded: &[Pos]) -> Option<Pos> {
        let b = &mut self.board;
        let me = b.side_to_move();
        let legal = |b: &mut Board, p: Pos| b.is_empty(p) && rules::legal(b, p, me);
        if !best.is_pass() && !excluded.contains(&best) && legal(b, best) {
            return Some(best);
        }
        let cells: Vec<Pos> = b.candidates().chain(b.empty_cells()).collect();
        cells
            .iter()
            .copied()
            .find(|&p| !excluded.contains(&p) && legal(b, p))
            .or_else(|| cells.iter().copied().find(|&p| legal(b, p)))
            .or_else(|| b.empty_cells().next().map(|_| Pos::PASS))
    }
}
