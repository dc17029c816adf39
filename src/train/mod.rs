//! Training the evaluation network ([`crate::nnue`]) on self-play data ([`crate::datagen`]):
//! samples, the loss and its gradient by backpropagation, Adam, epochs over all cores.
//!
//! May import everything (a command-line module).
//!
//! # Samples
//! Every searched ply of a game is a sample: the position before it, the side to move's value
//! target `λ · result + (1 − λ) · sigmoid(score / scale)` (result 1 win, ½ draw, 0 loss; the
//! search score on the rule's calibrated scale, [`crate::eval::win_rate`]) and the searched best
//! move as the policy target. A sample keeps its features, not its board: per empty cell its
//! index and the rows of its four windows.
//!
//! # Loss
//! The value's cross-entropy against its target (the classical evaluation in logistic units
//! plus the network's output, read as a logit: the network learns a correction, and a network
//! of zeros is the classical evaluation) plus `policy`
//! times the policy's cross-entropy (softmax over the empty cells) against the best move. The
//! gradient is exact backpropagation through the model (the clipped ReLUs pass gradient only
//! strictly inside 0..1); a test checks it against finite differences.

use crate::board::Board;
use crate::datagen::{GameRecord, PlyKind};
use crate::eval::win_rate;
use crate::nnue::{crelu, row_at, Network, ROWS};
use crate::types::{Color, Pos};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;

/// One training position, as features.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The feature table of the side to move.
    pub table: u8,
    /// Per empty cell: its index and the rows of its four windows.
    pub cells: Vec<(u16, [u16; 4])>,
    /// The value target for the side to move, 0..1.
    pub target: f32,
    /// The index in `cells` of the best move, if it is one of them.
    pub best: Option<u16>,
    /// The classical evaluation for the side to move in logistic units (its score over the
    /// rule's calibrated scale, within ±20): the network's value is a correction added to it.
    pub base: f32,
}

/// The features of `board` for the side to move: the table and the rows per empty cell.
#[must_use]
pub fn features(net_rule_tables: usize, board: &Board) -> (u8, Vec<(u16, [u16; 4])>) {
    let own = board.side_to_move();
    let table = u8::from(net_rule_tables == 2 && own == Color::White);
    let cells = board
        .empty_cells()
        .filter(|&p| !board.is_wall(p))
        .map(|p| {
            let rows: [u16; 4] = std::array::from_fn(|d| row_at(board, p, d, own) as u16);
            (p.index() as u16, rows)
        })
        .collect();
    (table, cells)
}

/// The classical evaluation of `board` for the side to move in logistic units (within ±20),
/// the base the network's value corrects.
#[must_use]
pub fn base_of(board: &Board) -> f32 {
    let scale = crate::pattern::code::CodeWeights::get(board.rule())
        .scale
        .max(1);
    (crate::eval::evaluate(board) as f32 / scale as f32).clamp(-20.0, 20.0)
}

/// The samples of `game` with value blend `lambda` (the weight of the game result).
#[must_use]
pub fn samples_of(game: &GameRecord, lambda: f32) -> Vec<Sample> {
    let tables = crate::nnue::tables_of(game.rule);
    let Ok(mut b) = Board::new(game.size, game.rule) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for ply in &game.plies {
        if ply.kind == PlyKind::Searched {
            let me = b.side_to_move();
            let result = match game.result {
                None => 0.5,
                Some(c) if c == me => 1.0,
                Some(_) => 0.0,
            };
            let search = win_rate(i32::from(ply.score), game.rule) as f32;
            let (table, cells) = features(tables, &b);
            let best = cells
                .iter()
                .position(|&(c, _)| c == ply.best.0)
                .map(|i| i as u16);
            out.push(Sample {
                table,
                cells,
                target: lambda * result + (1.0 - lambda) * search,
                best,
                base: base_of(&b),
            });
        }
        if !b.contains(ply.mv) || !b.is_empty(ply.mv) {
            break;
        }
        b.play_unchecked(ply.mv);
    }
    out
}

/// The logistic function.
#[inline]
#[must_use]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The network's value of a sample (the same as [`Network::forward`] on its board): the
/// correction to the sample's classical base.
#[must_use]
pub fn value_of(net: &Network, s: &Sample) -> f32 {
    let d = net.d;
    let mut pooled = vec![0.0f32; d];
    let mut a = vec![0.0f32; d];
    for (_, rows) in &s.cells {
        cell_pre(net, s.table, rows, &mut a);
        for (p, x) in pooled.iter_mut().zip(&a) {
            *p += crelu(*x);
        }
    }
    if s.cells.is_empty() {
        return 0.0;
    }
    let n = s.cells.len() as f32;
    let mut v = net.b2;
    for j in 0..net.h {
        let row = &net.w1[j * d..(j + 1) * d];
        let z = net.b1[j] + row.iter().zip(&pooled).map(|(w, x)| w * x / n).sum::<f32>();
        v += net.w2[j] * crelu(z);
    }
    v
}

/// A cell's pre-activation vector from its rows.
fn cell_pre(net: &Network, table: u8, rows: &[u16; 4], a: &mut [f32]) {
    let d = net.d;
    a.copy_from_slice(&net.cell_bias);
    let base = usize::from(table) * ROWS * d;
    for &r in rows {
        let o = base + usize::from(r) * d;
        for (x, f) in a.iter_mut().zip(&net.features[o..o + d]) {
            *x += f;
        }
    }
}

/// Whether the clipped ReLU passes gradient at `x`.
#[inline]
fn passes(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 {
        1.0
    } else {
        0.0
    }
}

/// The loss of sample `s` (value cross-entropy plus `policy` times the policy's), adding its
/// gradient into `g` (in the order of [`Network::to_vec`]).
pub fn loss_and_grad(net: &Network, s: &Sample, policy: f32, g: &mut [f32]) -> f32 {
    let (d, h) = (net.d, net.h);
    let l = net.layout();
    let n = s.cells.len();
    if n == 0 {
        return 0.0;
    }
    // Forward, keeping the cells' pre-activations.
    let mut pre = vec![0.0f32; n * d];
    let mut pooled = vec![0.0f32; d];
    for (i, (_, rows)) in s.cells.iter().enumerate() {
        let a = &mut pre[i * d..(i + 1) * d];
        cell_pre(net, s.table, rows, a);
        for (p, x) in pooled.iter_mut().zip(a.iter()) {
            *p += crelu(*x);
        }
    }
    let inv_n = 1.0 / n as f32;
    for p in &mut pooled {
        *p *= inv_n;
    }
    let z: Vec<f32> = (0..h)
        .map(|j| {
            let row = &net.w1[j * d..(j + 1) * d];
            net.b1[j] + row.iter().zip(&pooled).map(|(w, x)| w * x).sum::<f32>()
        })
        .collect();
    let v = net.b2
        + z.iter()
            .zip(&net.w2)
            .map(|(z, w)| w * crelu(*z))
            .sum::<f32>();
    // Value loss: cross-entropy of sigmoid(v) against the target.
    let pv = sigmoid(s.base + v);
    let mut loss = cross_entropy(pv, s.target);
    let gv = pv - s.target;
    g[l.b2] += gv;
    let mut dpooled = vec![0.0f32; d];
    for j in 0..h {
        g[l.w2 + j] += gv * crelu(z[j]);
        let dz = gv * net.w2[j] * passes(z[j]);
        if dz != 0.0 {
            g[l.b1 + j] += dz;
            let row = &net.w1[j * d..(j + 1) * d];
            for k in 0..d {
                g[l.w1 + j * d + k] += dz * pooled[k];
                dpooled[k] += dz * row[k];
            }
        }
    }
    // Policy: softmax over the cells against the best move.
    let mut dlogit = vec![0.0f32; n];
    if let (Some(best), true) = (s.best, policy > 0.0) {
        let logits: Vec<f32> = (0..n)
            .map(|i| {
                let a = &pre[i * d..(i + 1) * d];
                net.bp
                    + a.iter()
                        .zip(&net.wp)
                        .map(|(x, w)| crelu(*x) * w)
                        .sum::<f32>()
            })
            .collect();
        let m = logits.iter().copied().fold(f32::MIN, f32::max);
        let sum: f32 = logits.iter().map(|x| (x - m).exp()).sum();
        let best = usize::from(best);
        loss += policy * (sum.ln() + m - logits[best]);
        for i in 0..n {
            let q = (logits[i] - m).exp() / sum;
            dlogit[i] = policy * (q - if i == best { 1.0 } else { 0.0 });
        }
    }
    // Back into the cells and the feature table.
    let base = usize::from(s.table) * ROWS * d;
    let mut da = vec![0.0f32; d];
    for (i, (_, rows)) in s.cells.iter().enumerate() {
        let a = &pre[i * d..(i + 1) * d];
        let dl = dlogit[i];
        if dl != 0.0 {
            g[l.bp] += dl;
        }
        let mut any = false;
        for k in 0..d {
            let act = crelu(a[k]);
            if dl != 0.0 {
                g[l.wp + k] += dl * act;
            }
            let dh = dpooled[k] * inv_n + dl * net.wp[k];
            da[k] = dh * passes(a[k]);
            any |= da[k] != 0.0;
        }
        if !any {
            continue;
        }
        for k in 0..d {
            g[l.cell_bias + k] += da[k];
        }
        for &r in rows {
            let o = base + usize::from(r) * d;
            for k in 0..d {
                g[o + k] += da[k];
            }
        }
    }
    loss
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Passes over the training samples.
    pub epochs: usize,
    /// Samples per step.
    pub batch: usize,
    /// Adam's learning rate.
    pub lr: f32,
    /// Weight of the policy loss.
    pub policy: f32,
    /// Shuffling seed.
    pub seed: u64,
}

/// The mean loss of `samples` (value and policy as in [`loss_and_grad`]), on all cores.
#[must_use]
pub fn mean_loss(net: &Network, samples: &[Sample], policy: f32) -> f32 {
    if samples.is_empty() {
        return 0.0;
    }
    let len = net.layout().len;
    let total: f64 = samples
        .par_chunks(256)
        .map(|chunk| {
            let mut g = vec![0.0f32; len];
            chunk
                .iter()
                .map(|s| f64::from(loss_and_grad(net, s, policy, &mut g)))
                .sum::<f64>()
        })
        .sum();
    (total / samples.len() as f64) as f32
}

/// The cross-entropy of a predicted probability `p` against a target `t`.
fn cross_entropy(p: f32, t: f32) -> f32 {
    let eps = 1e-7;
    -(t * (p + eps).ln() + (1.0 - t) * (1.0 - p + eps).ln())
}

/// How a network does on a set of samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SetLoss {
    /// Mean value cross-entropy against the targets.
    pub value: f32,
    /// Mean policy cross-entropy against the best moves (samples with one).
    pub policy: f32,
    /// Share of those samples whose best move has the highest policy logit.
    pub top1: f32,
    /// Mean value cross-entropy of the classical evaluation against the same targets.
    pub classical: f32,
}

/// The value and policy losses of `net` on `samples`, and the classical evaluation's value
/// loss, on all cores.
#[must_use]
pub fn set_loss(net: &Network, samples: &[Sample]) -> SetLoss {
    let sums = samples
        .par_iter()
        .map(|s| {
            let value = f64::from(cross_entropy(sigmoid(s.base + value_of(net, s)), s.target));
            let classical = f64::from(cross_entropy(sigmoid(s.base), s.target));
            let (policy, top, n) = match s.best {
                Some(b) => {
                    let logits = policy_of(net, s);
                    let m = logits.iter().copied().fold(f32::MIN, f32::max);
                    let sum: f32 = logits.iter().map(|x| (x - m).exp()).sum();
                    let b = usize::from(b);
                    let top = logits.iter().all(|&x| x <= logits[b]);
                    (
                        f64::from(sum.ln() + m - logits[b]),
                        f64::from(u8::from(top)),
                        1.0,
                    )
                }
                None => (0.0, 0.0, 0.0),
            };
            [value, classical, policy, top, n]
        })
        .reduce(|| [0.0; 5], |a, b| std::array::from_fn(|i| a[i] + b[i]));
    let n = samples.len().max(1) as f64;
    let np = sums[4].max(1.0);
    SetLoss {
        value: (sums[0] / n) as f32,
        classical: (sums[1] / n) as f32,
        policy: (sums[2] / np) as f32,
        top1: (sums[3] / np) as f32,
    }
}

/// The policy logits of a sample's cells.
#[must_use]
pub fn policy_of(net: &Network, s: &Sample) -> Vec<f32> {
    let mut a = vec![0.0f32; net.d];
    s.cells
        .iter()
        .map(|(_, rows)| {
            cell_pre(net, s.table, rows, &mut a);
            net.bp
                + a.iter()
                    .zip(&net.wp)
                    .map(|(x, w)| crelu(*x) * w)
                    .sum::<f32>()
        })
        .collect()
}

/// Adam over mini-batches for `cfg.epochs` passes over `train` (shuffled with `cfg.seed`),
/// the gradient of a batch summed over all cores. Calls `report(epoch, train loss)` after each
/// epoch (the mean loss of the epoch's batches, before each step). Deterministic for a seed
/// and a thread count.
pub fn train(
    net: &mut Network,
    train: &[Sample],
    cfg: &TrainConfig,
    mut report: impl FnMut(usize, f32, &Network),
) {
    let len = net.layout().len;
    let mut params = net.to_vec();
    let (mut m, mut v) = (vec![0.0f32; len], vec![0.0f32; len]);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let threads = rayon::current_num_threads().max(1);
    for epoch in 0..cfg.epochs {
        order.shuffle(&mut rng);
        let mut epoch_loss = 0.0f64;
        for batch in order.chunks(cfg.batch.max(1)) {
            let per = batch.len().div_ceil(threads);
            let parts: Vec<(Vec<f32>, f64)> = batch
                .par_chunks(per.max(1))
                .map(|part| {
                    let mut g = vec![0.0f32; len];
                    let mut loss = 0.0f64;
                    for &i in part {
                        loss += f64::from(loss_and_grad(net, &train[i], cfg.policy, &mut g));
                    }
                    (g, loss)
                })
                .collect();
            let mut g = vec![0.0f32; len];
            for (pg, loss) in &parts {
                epoch_loss += loss;
                for (a, b) in g.iter_mut().zip(pg) {
                    *a += b;
                }
            }
            let scale = 1.0 / batch.len() as f32;
            step += 1;
            let c1 = 1.0 - b1.powi(step);
            let c2 = 1.0 - b2.powi(step);
            for i in 0..len {
                let gi = g[i] * scale;
                if gi == 0.0 && m[i] == 0.0 {
                    continue;
                }
                m[i] = b1 * m[i] + (1.0 - b1) * gi;
                v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
                params[i] -= cfg.lr * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
            }
            net.set_from(&params);
        }
        report(epoch, (epoch_loss / train.len().max(1) as f64) as f32, net);
    }
}

/// A cell index as a position on a board of side `size`.
#[must_use]
pub fn cell_pos(i: u16, size: usize) -> Pos {
    Pos::new(usize::from(i) % size, usize::from(i) / size, size)
}

#[cfg(test)]
mod tests;
