//! The evaluation network (NNUE-style): its input features, the float reference model the
//! trainer fits, and the engine's quantised, incremental inference ([`accumulator`]), checked
//! against it. Not used by the search yet.
//!
//! May import: [`crate::types`], [`crate::pattern`], [`crate::board`].
//!
//! # Features
//! Only empty cells are evaluated. For an empty cell and each of the four line directions, the
//! *window* is the [`HALF`] cells on each side, each empty, own, opponent's or a wall (off the
//! board or a neutral cell), *own* meaning the side the network judges for (the side to move).
//! Walls can only continue outwards, so a half window is one of [`HALF_STATES`] (121) states:
//! its number of cells before the first wall and their three-valued colours
//! ([`half_index`]). A line read backwards is the same line, so the two halves are unordered:
//! the window's *row* is the unordered pair ([`window_row`]), one of [`ROWS`] (7,381).
//!
//! # Model
//! Each row indexes a learned vector of `D` values in a feature table; renju keeps separate
//! tables for black and for white to move (its rules are not the same for both), the other
//! rules one table. Per empty cell the four directions' vectors and a bias are summed and put
//! through a clipped ReLU (0..1); the board is the mean of these over its empty cells; a hidden
//! layer of `H` clipped-ReLU units and a linear output give the value, in logistic units of the
//! side to move's winning chance; a linear head on each cell's vector gives its policy logit.
//! Directions share the table and windows are unordered, so the value is the same on the eight
//! symmetric images of a board, and a colour-symmetric rule's value is the same with the colours
//! swapped.

pub mod accumulator;

use crate::board::Board;
use crate::types::{Color, Pos, Rule, DIRS};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Cells on each side of a window.
pub const HALF: usize = 4;
/// States of a half window: the cells before the first wall (0..=4) and their colours.
pub const HALF_STATES: usize = 1 + 3 + 9 + 27 + 81;
/// Rows of a feature table: unordered pairs of half windows.
pub const ROWS: usize = HALF_STATES * (HALF_STATES + 1) / 2;

/// A cell of a window as the network sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Empty.
    Empty = 0,
    /// A stone of the side judged for.
    Own = 1,
    /// A stone of the other side.
    Opp = 2,
    /// Off the board or a neutral cell.
    Wall = 3,
}

/// The state index of a half window, its cells listed from the centre outwards: the number `k`
/// of cells before the first wall and their colours in base 3 (empty 0, own 1, opponent 2,
/// nearest cell least significant), offset by the states with fewer cells. Cells past the
/// first wall are ignored (they are walls on a board: a line leaves the board once).
#[must_use]
pub fn half_index(cells: [Cell; HALF]) -> usize {
    let k = cells.iter().position(|&c| c == Cell::Wall).unwrap_or(HALF);
    // States with fewer cells: 3^0 + ... + 3^(k-1).
    let offset = (0..k).map(|j| 3usize.pow(j as u32)).sum::<usize>();
    let mut v = 0;
    for (j, &c) in cells[..k].iter().enumerate() {
        v += c as usize * 3usize.pow(j as u32);
    }
    offset + v
}

/// The row of a window with half windows `a` and `b` (in either order).
#[must_use]
pub fn window_row(a: usize, b: usize) -> usize {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    hi * (hi + 1) / 2 + lo
}

/// How the cell `p` looks to `own`.
fn cell_of(board: &Board, p: Pos, own: Color) -> Cell {
    match board.stone(p) {
        Some(c) if c == own => Cell::Own,
        Some(_) => Cell::Opp,
        None if board.is_wall(p) => Cell::Wall,
        None => Cell::Empty,
    }
}

/// The row of the window of the empty cell `p` in direction `d`, for the side `own`.
#[must_use]
pub fn row_at(board: &Board, p: Pos, d: usize, own: Color) -> usize {
    let size = board.size() as i32;
    let (x, y) = (p.x(board.size()) as i32, p.y(board.size()) as i32);
    let (dx, dy) = DIRS[d];
    let half = |sign: i32| {
        let mut cells = [Cell::Wall; HALF];
        for (k, c) in cells.iter_mut().enumerate() {
            let (qx, qy) = (
                x + sign * dx * (k as i32 + 1),
                y + sign * dy * (k as i32 + 1),
            );
            if qx < 0 || qy < 0 || qx >= size || qy >= size {
                break;
            }
            *c = cell_of(board, board.pos(qx as usize, qy as usize), own);
            if *c == Cell::Wall {
                break;
            }
        }
        half_index(cells)
    };
    window_row(half(-1), half(1))
}

/// The rows of every 16-bit window code (the four cells each side in the board's line-key
/// colours, [`row_of_key`]) for black and for white as the side judged for.
fn key_rows() -> &'static [[u16; 2]] {
    static ROWS_OF: std::sync::OnceLock<Vec<[u16; 2]>> = std::sync::OnceLock::new();
    ROWS_OF.get_or_init(|| {
        use crate::pattern::classify::{BLACK, EMPTY, WALL, WHITE};
        (0..1usize << 16)
            .map(|c| {
                let left = [(c >> 6) & 3, (c >> 4) & 3, (c >> 2) & 3, c & 3];
                let right = [(c >> 8) & 3, (c >> 10) & 3, (c >> 12) & 3, (c >> 14) & 3];
                let as_cells = |h: [usize; 4], own: u8| -> [Cell; HALF] {
                    h.map(|v| match v as u8 {
                        EMPTY => Cell::Empty,
                        WALL => Cell::Wall,
                        x if x == own => Cell::Own,
                        _ => Cell::Opp,
                    })
                };
                let row = |own: u8| {
                    window_row(
                        half_index(as_cells(left, own)),
                        half_index(as_cells(right, own)),
                    ) as u16
                };
                [row(BLACK), row(WHITE)]
            })
            .collect()
    })
}

/// The row of a window from the board's 20-bit line key of the cell ([`Board::key_at`]: five
/// cells each side; the outermost on each side is dropped) for the side `own`: the same as
/// [`row_at`], by one table lookup.
#[inline]
#[must_use]
pub fn row_of_key(key: usize, own: Color) -> usize {
    usize::from(key_rows()[(key >> 2) & 0xFFFF][usize::from(own == Color::White)])
}

/// [`row_of_key`] for both sides at once (black's row, then white's): one lookup.
#[inline]
#[must_use]
pub fn rows_of_key(key: usize) -> [u16; 2] {
    key_rows()[(key >> 2) & 0xFFFF]
}

/// The networks the process plays, per rule (none: the classical evaluation).
static PLAYED: [std::sync::OnceLock<accumulator::Quantised>; 5] = [
    std::sync::OnceLock::new(),
    std::sync::OnceLock::new(),
    std::sync::OnceLock::new(),
    std::sync::OnceLock::new(),
    std::sync::OnceLock::new(),
];

/// Play `net` for its rule for the rest of the process (the protocol engine's `--net`
/// option): every search of that rule evaluates with it instead of the classical evaluation.
///
/// # Errors
/// A network is already set for the rule.
pub fn set_for_process(net: &Network) -> Result<(), String> {
    PLAYED[net.rule.index()]
        .set(accumulator::Quantised::new(net))
        .map_err(|_| format!("a {} network is already set", net.rule))
}

/// The network the process plays for `rule`, if any.
#[must_use]
pub fn for_rule(rule: Rule) -> Option<&'static accumulator::Quantised> {
    PLAYED[rule.index()].get()
}

/// The feature tables a rule's network has: renju two (black to move, white to move), the
/// colour-symmetric rules one.
#[must_use]
pub fn tables_of(rule: Rule) -> usize {
    if rule == Rule::Renju {
        2
    } else {
        1
    }
}

/// The float network: the reference the trainer fits and the quantised engine is checked
/// against.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// The rule it judges.
    pub rule: Rule,
    /// Width of a cell's vector.
    pub d: usize,
    /// Hidden units of the value layer.
    pub h: usize,
    /// Feature tables: `[table][row][d]`, flattened.
    pub features: Vec<f32>,
    /// The bias added to every cell's sum.
    pub cell_bias: Vec<f32>,
    /// Hidden layer weights `[h][d]`, flattened.
    pub w1: Vec<f32>,
    /// Hidden layer biases.
    pub b1: Vec<f32>,
    /// Output weights.
    pub w2: Vec<f32>,
    /// Output bias.
    pub b2: f32,
    /// Policy head weights.
    pub wp: Vec<f32>,
    /// Policy head bias.
    pub bp: f32,
    /// The trainer's gain on the value logit: the trainer reads `gain · (base + value)` as the
    /// logit of the win probability (`base` the classical evaluation in logistic units), so the
    /// network's value stays a correction in the classical evaluation's own units while the
    /// gain fits their calibration. The engine does not use it.
    pub gain: f32,
    /// The trainer's gain on the ranking loss's logits (the children's values for the mover):
    /// the ranking's own temperature, so it does not pull the value's calibration. The engine
    /// does not use it.
    pub rank_gain: f32,
    /// Per feature table, a constant taken from the value: the trainer's centring
    /// (`train --centre`) sets it to the value's mean over the training positions of that
    /// table, so the correction leaves the classical evaluation's balance by colour to move
    /// (its tempo) as it is. Never learned by gradient.
    pub offsets: [f32; 2],
}

/// The first bytes of a network file.
pub const MAGIC: &[u8; 8] = b"RENJUNN1";

/// Where the parameter groups start in [`Network::to_vec`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The cell bias (the features come first, at 0).
    pub cell_bias: usize,
    /// Hidden layer weights.
    pub w1: usize,
    /// Hidden layer biases.
    pub b1: usize,
    /// Output weights.
    pub w2: usize,
    /// Output bias.
    pub b2: usize,
    /// Policy head weights.
    pub wp: usize,
    /// Policy head bias.
    pub bp: usize,
    /// The trainer's gain.
    pub gain: usize,
    /// The trainer's ranking gain.
    pub rank_gain: usize,
    /// The two value offsets.
    pub offsets: usize,
    /// Parameters in all.
    pub len: usize,
}

/// The clipped ReLU of the cells and the hidden layer.
#[inline]
#[must_use]
pub fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// What the network says about a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Output {
    /// The value for the side to move, in logistic units.
    pub value: f32,
    /// Each empty cell's policy logit, in board order.
    pub policy: Vec<(Pos, f32)>,
}

impl Network {
    /// A network for `rule` of widths `d` and `h` with small random weights from `seed` (the
    /// trainer's starting point).
    #[must_use]
    pub fn random(rule: Rule, d: usize, h: usize, seed: u64) -> Network {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut v = |n: usize, scale: f32| -> Vec<f32> {
            (0..n).map(|_| rng.gen_range(-scale..scale)).collect()
        };
        let features = v(tables_of(rule) * ROWS * d, 0.25);
        let cell_bias = v(d, 0.1);
        let w1 = v(h * d, 1.0 / (d as f32).sqrt());
        let b1 = v(h, 0.1);
        let w2 = v(h, 1.0 / (h as f32).sqrt());
        let wp = v(d, 1.0 / (d as f32).sqrt());
        Network {
            rule,
            d,
            h,
            features,
            cell_bias,
            w1,
            b1,
            w2,
            b2: 0.0,
            wp,
            bp: 0.0,
            gain: 1.0,
            rank_gain: 1.0,
            offsets: [0.0; 2],
        }
    }

    /// Where each parameter group starts in [`Network::to_vec`].
    #[must_use]
    pub fn layout(&self) -> Layout {
        let cell_bias = self.features.len();
        let w1 = cell_bias + self.d;
        let b1 = w1 + self.h * self.d;
        let w2 = b1 + self.h;
        let b2 = w2 + self.h;
        let wp = b2 + 1;
        let bp = wp + self.d;
        Layout {
            cell_bias,
            w1,
            b1,
            w2,
            b2,
            wp,
            bp,
            gain: bp + 1,
            rank_gain: bp + 2,
            offsets: bp + 3,
            len: bp + 5,
        }
    }

    /// Every parameter in one vector: features, cell bias, w1, b1, w2, b2, wp, bp, gain,
    /// rank gain, offsets.
    #[must_use]
    pub fn to_vec(&self) -> Vec<f32> {
        let mut v = self.features.clone();
        v.extend_from_slice(&self.cell_bias);
        v.extend_from_slice(&self.w1);
        v.extend_from_slice(&self.b1);
        v.extend_from_slice(&self.w2);
        v.push(self.b2);
        v.extend_from_slice(&self.wp);
        v.push(self.bp);
        v.push(self.gain);
        v.push(self.rank_gain);
        v.extend_from_slice(&self.offsets);
        v
    }

    /// Set every parameter from a vector in the order of [`Network::to_vec`].
    ///
    /// # Panics
    /// If `v` is shorter than the network's parameters.
    pub fn set_from(&mut self, v: &[f32]) {
        let l = self.layout();
        self.features.copy_from_slice(&v[..l.cell_bias]);
        self.cell_bias.copy_from_slice(&v[l.cell_bias..l.w1]);
        self.w1.copy_from_slice(&v[l.w1..l.b1]);
        self.b1.copy_from_slice(&v[l.b1..l.w2]);
        self.w2.copy_from_slice(&v[l.w2..l.b2]);
        self.b2 = v[l.b2];
        self.wp.copy_from_slice(&v[l.wp..l.bp]);
        self.bp = v[l.bp];
        self.gain = v[l.gain];
        self.rank_gain = v[l.rank_gain];
        self.offsets = [v[l.offsets], v[l.offsets + 1]];
    }

    /// The network file: [`MAGIC`], the rule's index, `d` and `h` (u16 each, little-endian),
    /// then every parameter as a little-endian f32 in the order of [`Network::to_vec`].
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        b.push(self.rule.index() as u8);
        b.extend_from_slice(&(self.d as u16).to_le_bytes());
        b.extend_from_slice(&(self.h as u16).to_le_bytes());
        for x in self.to_vec() {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b
    }

    /// Read a network file ([`Network::to_bytes`]).
    ///
    /// # Errors
    /// A wrong magic, rule or size, or a file of the wrong length.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let head = MAGIC.len() + 5;
        if bytes.len() < head || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not a network file".into());
        }
        let rule = *Rule::ALL
            .get(bytes[MAGIC.len()] as usize)
            .ok_or("unknown rule")?;
        let d = u16::from_le_bytes([bytes[MAGIC.len() + 1], bytes[MAGIC.len() + 2]]) as usize;
        let h = u16::from_le_bytes([bytes[MAGIC.len() + 3], bytes[MAGIC.len() + 4]]) as usize;
        if d == 0 || h == 0 || d > 256 || h > 1024 {
            return Err(format!("bad sizes d {d}, h {h}"));
        }
        let mut net = Network::random(rule, d, h, 0);
        let n = net.layout().len;
        // Files written before the offsets end at the rank gain (their offsets are 0), and
        // before the trainer's gains at the policy bias (their gains are 1).
        if ![0, 2, 4].iter().any(|k| bytes.len() == head + 4 * (n - k)) {
            return Err(format!(
                "{} bytes, expected {} for d {d}, h {h}",
                bytes.len(),
                head + 4 * n
            ));
        }
        let mut v: Vec<f32> = bytes[head..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let l = net.layout();
        if v.len() <= l.gain {
            v.resize(l.offsets, 1.0);
        }
        v.resize(n, 0.0);
        net.set_from(&v);
        Ok(net)
    }

    /// The table the side to move `c` reads.
    #[must_use]
    pub fn table(&self, c: Color) -> usize {
        if tables_of(self.rule) == 2 && c == Color::White {
            1
        } else {
            0
        }
    }

    /// The pre-activation vector of the empty cell `p` for the side to move (its four
    /// directions' feature vectors and the bias), from scratch.
    #[must_use]
    pub fn cell_sum(&self, board: &Board, p: Pos) -> Vec<f32> {
        let own = board.side_to_move();
        let base = self.table(own) * ROWS * self.d;
        let mut acc = self.cell_bias.clone();
        for d in 0..4 {
            let r = base + row_at(board, p, d, own) * self.d;
            for (a, f) in acc.iter_mut().zip(&self.features[r..r + self.d]) {
                *a += f;
            }
        }
        acc
    }

    /// The value and policy of `board` for the side to move, computed from scratch (a board
    /// without empty cells has value 0 and no policy).
    #[must_use]
    pub fn forward(&self, board: &Board) -> Output {
        let mut pooled = vec![0.0f32; self.d];
        let mut policy = Vec::new();
        let mut n = 0usize;
        for p in board.empty_cells() {
            if board.is_wall(p) {
                continue;
            }
            let act: Vec<f32> = self.cell_sum(board, p).into_iter().map(crelu).collect();
            let logit = self.bp + act.iter().zip(&self.wp).map(|(a, w)| a * w).sum::<f32>();
            policy.push((p, logit));
            for (s, a) in pooled.iter_mut().zip(&act) {
                *s += a;
            }
            n += 1;
        }
        if n == 0 {
            return Output { value: 0.0, policy };
        }
        for s in &mut pooled {
            *s /= n as f32;
        }
        let mut value = self.b2 - self.offsets[self.table(board.side_to_move())];
        for j in 0..self.h {
            let row = &self.w1[j * self.d..(j + 1) * self.d];
            let z = self.b1[j] + row.iter().zip(&pooled).map(|(w, x)| w * x).sum::<f32>();
            value += self.w2[j] * crelu(z);
        }
        Output { value, policy }
    }
}

#[cfg(test)]
mod tests;
