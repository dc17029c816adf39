//! The engine's inference of a [`Network`]: quantised, and incremental as stones come and go.
//!
//! The feature tables and the cell bias are stored as `i16` at `qa` steps per unit (the
//! finest power of two at which no cell's sum can leave `i16`, [`Quantised::new`]); a cell's
//! pre-activation is their integer sum and its activation the sum clamped to `0..=qa`, so the
//! board's pooled vector — the sum of the activations of its empty cells — is an exact integer
//! sum, the same whatever the order in which cells were updated. The hidden layer, the value
//! and the policy logits are computed from it in `f32` (fixed operation order: deterministic).
//!
//! [`Accumulator`] keeps, for each of the two sides as the side judged for, every empty cell's
//! four window rows and its pre-activation vector, and the pooled sums. A stone put on or taken
//! from a cell changes the rows of the cells within [`HALF`] of it along each line through it
//! (in that line's direction only) and the cell itself: [`Accumulator::update`] recomputes just
//! those. [`Accumulator::new`] computes everything from scratch; a test checks that the two
//! agree exactly under random play and undo, and that the quantised value and policy are the
//! float reference's within a stated tolerance.

use super::{row_of_key, rows_of_key, Network, HALF, ROWS};
use crate::board::Board;
use crate::types::{Color, Pos, DIRS};

/// The finest quantisation tried: steps per unit.
pub const QA_MAX: i32 = 8192;

/// The coarsest: a network whose cell sums need more range is refused.
pub const QA_MIN: i32 = 64;

/// A network with its feature tables quantised for [`Accumulator`].
#[derive(Clone, Debug)]
pub struct Quantised {
    /// The float network (its dense layers are used as they are).
    pub net: Network,
    /// Steps per unit of the feature tables, the cell bias and the activations.
    pub qa: i32,
    /// The feature tables at `qa` per unit, `[table][row][d]`.
    pub features: Vec<i16>,
    /// The cell bias at `qa` per unit.
    pub bias: Vec<i16>,
    /// Evaluation points per logistic unit (the rule's calibrated scale): the search reads the
    /// value times this.
    pub scale: i32,
    /// Whether the incremental updates run the AVX2 kernel ([`has_avx2`]).
    pub avx2: bool,
}

impl Quantised {
    /// Quantise `net` at the finest power-of-two step ([`QA_MAX`] at most) at which every cell's
    /// sum (its bias and the largest entry of each of its four rows, per lane) stays within
    /// `i16` (the shared rows, the empty window above all, are in hundreds of cells' sums: a
    /// coarse step's rounding moves the pooled vector as a whole).
    ///
    /// # Panics
    /// If the network is wider than 256 (network files and the trainer refuse such widths).
    #[must_use]
    pub fn new(net: &Network) -> Quantised {
        assert!(net.d <= MAX_D, "cell vectors of at most {MAX_D}");
        let d = net.d;
        let mut bound = 0.0f32;
        for k in 0..d {
            let widest = net
                .features
                .iter()
                .skip(k)
                .step_by(d)
                .fold(0.0f32, |m, x| m.max(x.abs()));
            bound = bound.max(net.cell_bias[k].abs() + 4.0 * widest);
        }
        let mut qa = QA_MAX;
        while qa > QA_MIN && bound * qa as f32 > 32_000.0 {
            qa /= 2;
        }
        let q = |x: &f32| (x * qa as f32).round().clamp(-32768.0, 32767.0) as i16;
        Quantised {
            net: net.clone(),
            qa,
            features: net.features.iter().map(q).collect(),
            bias: net.cell_bias.iter().map(q).collect(),
            scale: crate::pattern::code::CodeWeights::get(net.rule).scale,
            avx2: has_avx2(),
        }
    }

    /// The value (logistic units) from the pooled activation sums of `empty` cells.
    #[must_use]
    pub fn value_from(&self, pooled: &[i32], empty: usize) -> f32 {
        if empty == 0 {
            return 0.0;
        }
        let net = &self.net;
        let inv = 1.0 / (empty as f32 * self.qa as f32);
        let mut x = [0.0f32; MAX_D];
        for (x, &p) in x.iter_mut().zip(pooled) {
            *x = p as f32 * inv;
        }
        let x = &x[..net.d];
        let mut v = net.b2;
        for j in 0..net.h {
            let row = &net.w1[j * net.d..(j + 1) * net.d];
            v += net.w2[j] * super::crelu(net.b1[j] + dot(row, x));
        }
        v
    }

    /// The policy logit of a cell with pre-activation `acc`.
    #[must_use]
    pub fn logit_from(&self, acc: &[i16]) -> f32 {
        let net = &self.net;
        let mut x = [0.0f32; MAX_D];
        for (x, &a) in x.iter_mut().zip(acc) {
            *x = activation(a, self.qa) as f32;
        }
        net.bp + dot(&net.wp, &x[..net.d]) / self.qa as f32
    }

    /// The policy logit of the empty cell `p` of `board` for `own` to move, computed from the
    /// board alone (its four rows by [`row_of_key`]): what [`Accumulator::logit`] reads, for a
    /// search that keeps no accumulator. `None` if `p` is not an empty cell.
    #[must_use]
    pub fn logit_at(&self, board: &Board, p: Pos, own: Color) -> Option<f32> {
        if !board.contains(p) || !board.is_empty(p) || board.is_wall(p) {
            return None;
        }
        let (i, d) = (p.index(), self.net.d);
        let base = self.net.table(own) * ROWS * d;
        let mut acc = [0i16; MAX_D];
        let acc = &mut acc[..d];
        acc.copy_from_slice(&self.bias);
        for dir in 0..4 {
            let o = base + row_of_key(board.key_at(i, dir), own) * d;
            for (x, f) in acc.iter_mut().zip(&self.features[o..o + d]) {
                *x = x.wrapping_add(*f);
            }
        }
        Some(self.logit_from(acc))
    }
}

/// A dot product in eight interleaved partial sums (fixed order: deterministic; not one long
/// chain of dependent additions).
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut s = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            s[k] += x[k] * y[k];
        }
    }
    let mut t = ra.iter().zip(rb).map(|(x, y)| x * y).sum::<f32>();
    for v in s {
        t += v;
    }
    t
}

/// A cell's activation: its pre-activation clamped to `0..=qa`.
#[inline]
#[must_use]
pub fn activation(a: i16, qa: i32) -> i32 {
    i32::from(a).clamp(0, qa)
}

/// Widest vector the kernels handle on the stack.
const MAX_D: usize = 256;

/// [`move_cell`] in the widest vectors the processor has: compiled a second time with AVX2
/// enabled, and taken when the processor has it (checked once, [`Quantised::avx2`]). Integer
/// arithmetic: the same result either way.
#[inline]
fn move_cell_fast(
    avx2: bool,
    acc: &mut [i16],
    old: &[i16],
    new: &[i16],
    pool: &mut [i32],
    qa: i32,
) {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `avx2` is true only where the processor reports AVX2 ([`has_avx2`]).
        unsafe { move_cell_avx2(acc, old, new, pool, qa) };
        return;
    }
    let _ = avx2;
    move_cell(acc, old, new, pool, qa);
}

/// [`move_cell`] compiled with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn move_cell_avx2(acc: &mut [i16], old: &[i16], new: &[i16], pool: &mut [i32], qa: i32) {
    move_cell(acc, old, new, pool, qa);
}

/// Whether this processor runs AVX2.
#[must_use]
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A cell's vector `acc` moves from feature `old` to feature `new` (one direction's row
/// changed), and the pool follows its activation. Written as two plain loops over `i16` and
/// `i32` lanes (the clamp in `i16`), which the compiler vectorises (with the baseline SSE2, or
/// AVX2 inlined into [`move_cell_avx2`]).
#[inline(always)]
fn move_cell(acc: &mut [i16], old: &[i16], new: &[i16], pool: &mut [i32], qa: i32) {
    let mut delta = [0i16; MAX_D];
    let q = qa as i16;
    for (((a, o), n), dl) in acc.iter_mut().zip(old).zip(new).zip(delta.iter_mut()) {
        let before = *a;
        let after = before.wrapping_sub(*o).wrapping_add(*n);
        *a = after;
        *dl = after.clamp(0, q) - before.clamp(0, q);
    }
    for (p, dl) in pool.iter_mut().zip(&delta) {
        *p += i32::from(*dl);
    }
}

/// A row no window has: an occupied cell.
const NONE: u16 = u16::MAX;

/// What [`Accumulator::play`] changed, kept so [`Accumulator::take_back`] can put it back by
/// copying instead of computing.
#[derive(Clone, Debug, Default)]
struct Saved {
    /// Per play: where its cells start in `cells`, and the empty count before it.
    frames: Vec<(usize, usize)>,
    /// The changed (side, cell) pairs with their rows before, in the order changed.
    cells: Vec<(usize, usize, [u16; 4])>,
    /// Their vectors before, `d` each.
    vectors: Vec<i16>,
    /// Per play, both sides' pooled sums before (`2 d`).
    pooled: Vec<i32>,
}

/// The incremental state of a network on one board: per side judged for, every cell's rows
/// and pre-activation vector and the pooled sums over the empty cells.
///
/// Two accumulators are equal when their boards' states are (what [`Accumulator::play`] saved
/// for taking back does not count).
#[derive(Clone, Debug)]
pub struct Accumulator {
    size: usize,
    d: usize,
    /// `[side]`: per cell its four rows (`NONE` when occupied).
    rows: [Vec<[u16; 4]>; 2],
    /// `[side]`: per cell its pre-activation vector, `d` each.
    acc: [Vec<i16>; 2],
    /// `[side]`: the sum of the empty cells' activations.
    pooled: [Vec<i32>; 2],
    /// Empty cells (walls excluded).
    empty: usize,
    /// What the plays not yet taken back changed.
    saved: Saved,
}

impl PartialEq for Accumulator {
    fn eq(&self, other: &Accumulator) -> bool {
        self.size == other.size
            && self.d == other.d
            && self.rows == other.rows
            && self.acc == other.acc
            && self.pooled == other.pooled
            && self.empty == other.empty
    }
}

impl Eq for Accumulator {}

/// The index of the side judged for.
fn side(c: Color) -> usize {
    usize::from(c == Color::White)
}

impl Accumulator {
    /// Everything computed from scratch for `board`.
    #[must_use]
    pub fn new(q: &Quantised, board: &Board) -> Accumulator {
        let (n, d) = (board.size() * board.size(), q.net.d);
        let mut a = Accumulator {
            size: board.size(),
            d,
            rows: [vec![[NONE; 4]; n], vec![[NONE; 4]; n]],
            acc: [vec![0; n * d], vec![0; n * d]],
            pooled: [vec![0; d], vec![0; d]],
            empty: 0,
            saved: Saved::default(),
        };
        for p in board.cells() {
            if board.is_empty(p) && !board.is_wall(p) {
                a.add_cell(q, board, p);
            }
        }
        a
    }

    /// The feature table offset of `side` judged for.
    fn table(q: &Quantised, s: usize) -> usize {
        let c = if s == 0 { Color::Black } else { Color::White };
        q.net.table(c) * ROWS * q.net.d
    }

    /// Cell `p` became empty: its rows and vector, added to the pool.
    fn add_cell(&mut self, q: &Quantised, board: &Board, p: Pos) {
        let (i, d) = (p.index(), self.d);
        for s in 0..2 {
            let own = if s == 0 { Color::Black } else { Color::White };
            let base = Self::table(q, s);
            let rows: [u16; 4] =
                std::array::from_fn(|dir| row_of_key(board.key_at(i, dir), own) as u16);
            let acc = &mut self.acc[s][i * d..(i + 1) * d];
            acc.copy_from_slice(&q.bias);
            for &r in &rows {
                let o = base + usize::from(r) * d;
                for (x, f) in acc.iter_mut().zip(&q.features[o..o + d]) {
                    *x = x.wrapping_add(*f);
                }
            }
            for (pool, &x) in self.pooled[s].iter_mut().zip(acc.iter()) {
                *pool += activation(x, q.qa);
            }
            self.rows[s][i] = rows;
        }
        self.empty += 1;
    }

    /// Cell `p` became occupied: its vector leaves the pool.
    fn remove_cell(&mut self, p: Pos, qa: i32) {
        let (i, d) = (p.index(), self.d);
        for s in 0..2 {
            if self.rows[s][i][0] == NONE {
                return;
            }
            let acc = &mut self.acc[s][i * d..(i + 1) * d];
            for (pool, x) in self.pooled[s].iter_mut().zip(acc.iter_mut()) {
                *pool -= activation(*x, qa);
                // An occupied cell's vector is zero, as a fresh accumulator leaves it.
                *x = 0;
            }
            self.rows[s][i] = [NONE; 4];
        }
        self.empty -= 1;
    }

    /// A stone was put on or taken from `p` (the board is as it is now): the cell itself and
    /// the cells within [`HALF`] of it along its four lines are brought up to date.
    pub fn update(&mut self, q: &Quantised, board: &Board, p: Pos) {
        if board.is_empty(p) {
            if self.rows[0][p.index()][0] == NONE {
                self.add_cell(q, board, p);
            }
        } else {
            self.remove_cell(p, q.qa);
        }
        self.refresh_lines(q, board, p, false);
    }

    /// The cells within [`HALF`] of `p` along its four lines take their rows from the board
    /// (`save`: each changed cell saved first, for [`Accumulator::take_back`]).
    #[inline]
    fn refresh_lines(&mut self, q: &Quantised, board: &Board, p: Pos, save: bool) {
        let d = self.d;
        let size = self.size as i32;
        let (x, y) = (p.x(self.size) as i32, p.y(self.size) as i32);
        for (dir, &(dx, dy)) in DIRS.iter().enumerate() {
            for k in -(HALF as i32)..=HALF as i32 {
                let (qx, qy) = (x + dx * k, y + dy * k);
                if k == 0 || qx < 0 || qy < 0 || qx >= size || qy >= size {
                    continue;
                }
                let i = board.pos(qx as usize, qy as usize).index();
                if self.rows[0][i][0] == NONE {
                    continue;
                }
                let both = rows_of_key(board.key_at(i, dir));
                for (s, &new) in both.iter().enumerate() {
                    let old = self.rows[s][i][dir];
                    if new == old {
                        continue;
                    }
                    // A cell lies on one line through `p`: it is saved once.
                    if save {
                        self.save(s, i);
                    }
                    let base = Self::table(q, s);
                    let (fo, fnew) = (base + usize::from(old) * d, base + usize::from(new) * d);
                    move_cell_fast(
                        q.avx2,
                        &mut self.acc[s][i * d..(i + 1) * d],
                        &q.features[fo..fo + d],
                        &q.features[fnew..fnew + d],
                        &mut self.pooled[s],
                        q.qa,
                    );
                    self.rows[s][i][dir] = new;
                }
            }
        }
    }

    /// A stone was put on `p` (the board is as it is now): as [`Accumulator::update`], and
    /// what changed is saved for [`Accumulator::take_back`].
    pub fn play(&mut self, q: &Quantised, board: &Board, p: Pos) {
        self.saved.frames.push((self.saved.cells.len(), self.empty));
        for s in 0..2 {
            self.saved.pooled.extend_from_slice(&self.pooled[s]);
        }
        let i = p.index();
        if self.rows[0][i][0] != NONE {
            for s in 0..2 {
                self.save(s, i);
            }
            self.remove_cell(p, q.qa);
        }
        self.refresh_lines(q, board, p, true);
    }

    /// Save side `s`'s cell `i` (its rows and vector) before a change.
    #[inline]
    fn save(&mut self, s: usize, i: usize) {
        let d = self.d;
        self.saved.cells.push((s, i, self.rows[s][i]));
        self.saved
            .vectors
            .extend_from_slice(&self.acc[s][i * d..(i + 1) * d]);
    }

    /// Undo the last [`Accumulator::play`] not yet taken back (after the board's undo), by
    /// copying back what it saved. Nothing happens when there is none.
    pub fn take_back(&mut self) {
        let Some((start, empty)) = self.saved.frames.pop() else {
            return;
        };
        let d = self.d;
        for j in (start..self.saved.cells.len()).rev() {
            let (s, i, rows) = self.saved.cells[j];
            self.acc[s][i * d..(i + 1) * d]
                .copy_from_slice(&self.saved.vectors[j * d..(j + 1) * d]);
            self.rows[s][i] = rows;
        }
        self.saved.cells.truncate(start);
        self.saved.vectors.truncate(start * d);
        let at = self.saved.pooled.len() - 2 * d;
        for s in 0..2 {
            self.pooled[s].copy_from_slice(&self.saved.pooled[at + s * d..at + (s + 1) * d]);
        }
        self.saved.pooled.truncate(at);
        self.empty = empty;
    }

    /// The first cell (side, index) where `self` and `other` differ, for test reports.
    #[must_use]
    pub fn first_difference(&self, other: &Accumulator) -> Option<(usize, usize, String)> {
        let d = self.d;
        for s in 0..2 {
            for i in 0..self.rows[s].len().min(other.rows[s].len()) {
                let (a, b) = (
                    &self.acc[s][i * d..(i + 1) * d],
                    &other.acc[s][i * d..(i + 1) * d],
                );
                if self.rows[s][i] != other.rows[s][i] || a != b {
                    return Some((
                        s,
                        i,
                        format!("rows {:?} vs {:?}", self.rows[s][i], other.rows[s][i]),
                    ));
                }
            }
        }
        (self.pooled != other.pooled || self.empty != other.empty).then(|| {
            (
                2,
                0,
                format!("pooled or empty ({} vs {})", self.empty, other.empty),
            )
        })
    }

    /// The value for `to_move` (logistic units).
    #[must_use]
    pub fn value(&self, q: &Quantised, to_move: Color) -> f32 {
        if self.empty == 0 {
            return 0.0;
        }
        q.value_from(&self.pooled[side(to_move)], self.empty) - q.net.offsets[q.net.table(to_move)]
    }

    /// The policy logit of the empty cell `p` for `to_move` (`None` if it is not empty).
    #[must_use]
    pub fn logit(&self, q: &Quantised, to_move: Color, p: Pos) -> Option<f32> {
        let (s, i, d) = (side(to_move), p.index(), self.d);
        (self.rows[s][i][0] != NONE).then(|| q.logit_from(&self.acc[s][i * d..(i + 1) * d]))
    }
}
