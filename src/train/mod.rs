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
use crate::nnue::accumulator::{Accumulator, Quantised};
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
    /// Positions one move later for the ranking loss, the best move's first (empty: none).
    pub children: Vec<Child>,
}

/// A position one move after a sample's (the opponent to move), as features.
#[derive(Clone, Debug, PartialEq)]
pub struct Child {
    /// The feature table of the side to move there.
    pub table: u8,
    /// Per empty cell: its index and the rows of its four windows.
    pub cells: Vec<(u16, [u16; 4])>,
    /// The classical evaluation there for the side to move, in logistic units.
    pub base: f32,
}

impl Child {
    /// The child of `board` after `p` (played and taken back).
    fn of(tables: usize, board: &mut Board, p: Pos) -> Child {
        board.play_unchecked(p);
        let (table, cells) = features(tables, board);
        let base = base_of(board);
        board.undo();
        Child { table, cells, base }
    }
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
    samples_with(
        game,
        &SampleOptions {
            lambda,
            ..SampleOptions::default()
        },
    )
}

/// Which samples a game gives.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SampleOptions {
    /// The weight of the game result in the value target.
    pub lambda: f32,
    /// Children per sample for the ranking loss (fewer than 2: none).
    pub children: usize,
    /// Seed of the children drawn at random.
    pub seed: u64,
    /// Quiet positions only: no five to make or stop, no open three of the opponent's, a best
    /// move that is no threat ([`crate::search::threats::static_order_key`] below its threat
    /// band) and a search score short of a proven result; their children quiet moves too.
    pub quiet: bool,
}

/// The samples of `game` by `o`: each with `o.children` children for the ranking loss when
/// that is 2 or more (the best move's, then half the rest the other legal candidates that the
/// static move ordering ranks highest and the others drawn with `o.seed`; none where the side
/// to move can make five or must stop the opponent's, whose choice is no judgement).
#[must_use]
pub fn samples_with(game: &GameRecord, o: &SampleOptions) -> Vec<Sample> {
    use crate::search::threats::{find_five, has_open_four, static_order_key, RANK_UNIT};
    let (lambda, k) = (o.lambda, o.children);
    let tables = crate::nnue::tables_of(game.rule);
    let Ok(mut b) = Board::new(game.size, game.rule) else {
        return Vec::new();
    };
    let mut rng = StdRng::seed_from_u64(o.seed);
    let mut out = Vec::new();
    for ply in &game.plies {
        if ply.kind == PlyKind::Searched {
            'sample: {
                let me = b.side_to_move();
                let quiet_move =
                    |b: &Board, p: Pos| b.is_empty(p) && static_order_key(b, p, me) < RANK_UNIT;
                if o.quiet
                    && (find_five(&b, me).is_some()
                        || find_five(&b, me.opponent()).is_some()
                        || has_open_four(&b, me.opponent())
                        || !b.contains(ply.best)
                        || !quiet_move(&b, ply.best)
                        || i32::from(ply.score).abs() >= crate::eval::WIN_THRESHOLD)
                {
                    break 'sample;
                }
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
                let mut children = Vec::new();
                if k >= 2
                    && best.is_some()
                    && find_five(&b, me).is_none()
                    && find_five(&b, me.opponent()).is_none()
                    && crate::rules::legal(&mut b, ply.best, me)
                {
                    // Half the others are the moves the static ordering ranks highest (the near
                    // misses a search weighs), half drawn at random.
                    let mut others: Vec<Pos> = b
                        .candidates()
                        .filter(|&p| p != ply.best && (!o.quiet || quiet_move(&b, p)))
                        .collect();
                    others.retain(|&p| crate::rules::legal(&mut b, p, me));
                    others.sort_by_key(|&p| {
                        std::cmp::Reverse(crate::search::threats::static_order_key(&b, p, me))
                    });
                    let near = (k - 1) / 2;
                    let cut = near.min(others.len());
                    let (top, rest) = others.split_at_mut(cut);
                    rest.shuffle(&mut rng);
                    let picked: Vec<Pos> = std::iter::once(ply.best)
                        .chain(top.iter().copied())
                        .chain(rest.iter().copied())
                        .take(k)
                        .collect();
                    if picked.len() >= 2 {
                        children = picked
                            .into_iter()
                            .map(|p| Child::of(tables, &mut b, p))
                            .collect();
                    }
                }
                out.push(Sample {
                    table,
                    cells,
                    target: lambda * result + (1.0 - lambda) * search,
                    best,
                    base: base_of(&b),
                    children,
                });
            }
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
    forward(net, s.table, &s.cells).v
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

/// The forward pass of the value through one position's cells, kept for backpropagation.
struct Forward {
    /// Per cell its pre-activation vector, `d` each.
    pre: Vec<f32>,
    /// The mean of the cells' activations.
    pooled: Vec<f32>,
    /// The hidden layer's pre-activations.
    z: Vec<f32>,
    /// The value (the correction).
    v: f32,
}

/// The value's forward pass on a position's features.
fn forward(net: &Network, table: u8, cells: &[(u16, [u16; 4])]) -> Forward {
    let (d, h) = (net.d, net.h);
    let n = cells.len();
    let mut pre = vec![0.0f32; n * d];
    let mut pooled = vec![0.0f32; d];
    for (i, (_, rows)) in cells.iter().enumerate() {
        let a = &mut pre[i * d..(i + 1) * d];
        cell_pre(net, table, rows, a);
        for (p, x) in pooled.iter_mut().zip(a.iter()) {
            *p += crelu(*x);
        }
    }
    let inv_n = 1.0 / n.max(1) as f32;
    for p in &mut pooled {
        *p *= inv_n;
    }
    let z: Vec<f32> = (0..h)
        .map(|j| {
            let row = &net.w1[j * d..(j + 1) * d];
            net.b1[j] + row.iter().zip(&pooled).map(|(w, x)| w * x).sum::<f32>()
        })
        .collect();
    let v = if n == 0 {
        0.0
    } else {
        net.b2 - net.offsets[usize::from(table)]
            + z.iter()
                .zip(&net.w2)
                .map(|(z, w)| w * crelu(*z))
                .sum::<f32>()
    };
    Forward { pre, pooled, z, v }
}

/// Backpropagation of a position's forward pass `f`: `gv` the loss's derivative by the value,
/// `dlogit` by each cell's policy logit (empty: no policy term); adds into `g`.
fn backward(
    net: &Network,
    table: u8,
    cells: &[(u16, [u16; 4])],
    f: &Forward,
    gv: f32,
    dlogit: &[f32],
    g: &mut [f32],
) {
    let (d, h) = (net.d, net.h);
    let l = net.layout();
    let n = cells.len();
    if n == 0 {
        return;
    }
    g[l.b2] += gv;
    let mut dpooled = vec![0.0f32; d];
    for j in 0..h {
        g[l.w2 + j] += gv * crelu(f.z[j]);
        let dz = gv * net.w2[j] * passes(f.z[j]);
        if dz != 0.0 {
            g[l.b1 + j] += dz;
            let row = &net.w1[j * d..(j + 1) * d];
            for k in 0..d {
                g[l.w1 + j * d + k] += dz * f.pooled[k];
                dpooled[k] += dz * row[k];
            }
        }
    }
    let inv_n = 1.0 / n as f32;
    let base = usize::from(table) * ROWS * d;
    let mut da = vec![0.0f32; d];
    for (i, (_, rows)) in cells.iter().enumerate() {
        let a = &f.pre[i * d..(i + 1) * d];
        let dl = dlogit.get(i).copied().unwrap_or(0.0);
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
}

/// The mover's logits of a sample's children (`-rank_gain · (base + value)` each) and their
/// forward passes.
fn child_logits(net: &Network, s: &Sample) -> (Vec<f32>, Vec<Forward>) {
    let fs: Vec<Forward> = s
        .children
        .iter()
        .map(|c| forward(net, c.table, &c.cells))
        .collect();
    let logits = s
        .children
        .iter()
        .zip(&fs)
        .map(|(c, f)| -net.rank_gain * (c.base + f.v))
        .collect();
    (logits, fs)
}

/// The softmax of `logits` and the cross-entropy of its first entry (the loss of a list
/// whose right answer is first).
fn softmax_first(logits: &[f32]) -> (Vec<f32>, f32) {
    let m = logits.iter().copied().fold(f32::MIN, f32::max);
    let sum: f32 = logits.iter().map(|x| (x - m).exp()).sum();
    let p = logits.iter().map(|x| (x - m).exp() / sum).collect();
    (p, sum.ln() + m - logits[0])
}

/// The loss of sample `s` (value cross-entropy, plus `policy` times the policy's, plus `rank`
/// times the ranking loss of its children), adding its gradient into `g` (in the order of
/// [`Network::to_vec`]).
///
/// The ranking loss: the cross-entropy of the best move's child (the first) under the
/// softmax of the children's values for the mover (`-rank_gain · (base + value)` of each,
/// the opponent to move there): the value learns to rank sibling positions as the search
/// did.
pub fn loss_and_grad(net: &Network, s: &Sample, policy: f32, rank: f32, g: &mut [f32]) -> f32 {
    let d = net.d;
    let l = net.layout();
    let n = s.cells.len();
    if n == 0 {
        return 0.0;
    }
    let f = forward(net, s.table, &s.cells);
    // Value loss: cross-entropy of sigmoid(gain · (base + v)) against the target.
    let pv = sigmoid(net.gain * (s.base + f.v));
    let mut loss = cross_entropy(pv, s.target);
    g[l.gain] += (pv - s.target) * (s.base + f.v);
    let gv = (pv - s.target) * net.gain;
    // Policy: softmax over the cells against the best move.
    let mut dlogit = Vec::new();
    if let (Some(best), true) = (s.best, policy > 0.0) {
        let logits: Vec<f32> = (0..n)
            .map(|i| {
                let a = &f.pre[i * d..(i + 1) * d];
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
        dlogit = (0..n)
            .map(|i| {
                let q = (logits[i] - m).exp() / sum;
                policy * (q - if i == best { 1.0 } else { 0.0 })
            })
            .collect();
    }
    backward(net, s.table, &s.cells, &f, gv, &dlogit, g);
    if rank > 0.0 && s.children.len() >= 2 {
        let (logits, fs) = child_logits(net, s);
        let (p, ce) = softmax_first(&logits);
        loss += rank * ce;
        for (i, (c, cf)) in s.children.iter().zip(&fs).enumerate() {
            let e = rank * (p[i] - if i == 0 { 1.0 } else { 0.0 });
            g[l.rank_gain] -= e * (c.base + cf.v);
            backward(net, c.table, &c.cells, cf, -e * net.rank_gain, &[], g);
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
    /// Weight of the children's ranking loss.
    pub rank: f32,
    /// Keep the network's gain as it is (not learned).
    pub fixed_gain: bool,
    /// Shuffling seed.
    pub seed: u64,
}

/// The mean loss of `samples` (value, policy and ranking as in [`loss_and_grad`]), on all
/// cores.
#[must_use]
pub fn mean_loss(net: &Network, samples: &[Sample], policy: f32, rank: f32) -> f32 {
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
                .map(|s| f64::from(loss_and_grad(net, s, policy, rank, &mut g)))
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
    /// The targets' own mean entropy: the lowest value loss there is (a loss less this is the
    /// mean Kullback-Leibler divergence from the targets).
    pub entropy: f32,
    /// The classical evaluation's value loss at its best gain ([`best_classical_gain`]).
    pub classical_fit: f32,
    /// That gain.
    pub classical_gain: f32,
    /// Mean ranking loss of the samples with children.
    pub rank: f32,
    /// Share of those whose best move's child the value ranks first.
    pub rank_top1: f32,
}

/// The value and policy losses of `net` on `samples`, and the classical evaluation's value
/// loss, on all cores.
#[must_use]
pub fn set_loss(net: &Network, samples: &[Sample]) -> SetLoss {
    let sums = samples
        .par_iter()
        .map(|s| {
            let value = f64::from(cross_entropy(
                sigmoid(net.gain * (s.base + value_of(net, s))),
                s.target,
            ));
            let classical = f64::from(cross_entropy(sigmoid(s.base), s.target));
            let entropy = f64::from(cross_entropy(s.target, s.target));
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
            let (rank, rank_top, ranked) = if s.children.len() >= 2 {
                let (logits, _) = child_logits(net, s);
                let (_, ce) = softmax_first(&logits);
                let top = logits.iter().all(|&x| x <= logits[0]);
                (f64::from(ce), f64::from(u8::from(top)), 1.0)
            } else {
                (0.0, 0.0, 0.0)
            };
            [
                value, classical, policy, top, n, entropy, rank, rank_top, ranked,
            ]
        })
        .reduce(|| [0.0; 9], |a, b| std::array::from_fn(|i| a[i] + b[i]));
    let n = samples.len().max(1) as f64;
    let np = sums[4].max(1.0);
    let (classical_gain, classical_fit) = best_classical_gain(samples);
    SetLoss {
        value: (sums[0] / n) as f32,
        classical: (sums[1] / n) as f32,
        policy: (sums[2] / np) as f32,
        top1: (sums[3] / np) as f32,
        entropy: (sums[5] / n) as f32,
        classical_fit,
        classical_gain,
        rank: (sums[6] / sums[8].max(1.0)) as f32,
        rank_top1: (sums[7] / sums[8].max(1.0)) as f32,
    }
}

/// The gain (0.05..2 in steps of 0.01) that gives the classical evaluation alone its lowest
/// mean value cross-entropy on `samples`, and that loss: the classical evaluation at its best
/// calibration, the baseline a correction must beat.
#[must_use]
pub fn best_classical_gain(samples: &[Sample]) -> (f32, f32) {
    best_gain(samples, &vec![0.0; samples.len()])
}

/// The gain (0.05..2 in steps of 0.01) that gives the logit `gain × (base + extra)` its
/// lowest mean value cross-entropy on `samples` (`extra[i]` the correction added to sample
/// `i`'s classical base, as the engine adds it), and that loss: how well an evaluation ranks
/// and separates the positions, whatever its calibration.
#[must_use]
pub fn best_gain(samples: &[Sample], extra: &[f32]) -> (f32, f32) {
    let n = samples.len().max(1) as f64;
    (5..=200)
        .map(|k| {
            let gain = k as f32 / 100.0;
            let loss: f64 = samples
                .par_iter()
                .zip(extra)
                .map(|(s, x)| f64::from(cross_entropy(sigmoid(gain * (s.base + x)), s.target)))
                .sum();
            (gain, (loss / n) as f32)
        })
        .fold((1.0, f32::MAX), |a, b| if b.1 < a.1 { b } else { a })
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
                        loss +=
                            f64::from(loss_and_grad(net, &train[i], cfg.policy, cfg.rank, &mut g));
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
            if cfg.fixed_gain {
                g[net.layout().gain] = 0.0;
            }
            // The offsets are set by centring, never by gradient.
            let o = net.layout().offsets;
            g[o] = 0.0;
            g[o + 1] = 0.0;
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

/// How often a one-ply look-ahead picks the searched best move: over the searched plies of
/// `games` (every `every`-th), the legal candidate whose resulting position the evaluation
/// likes least for the opponent, by the classical evaluation alone and by the classical
/// evaluation plus `net`'s correction (quantised, as the engine adds it). Measures how well an
/// evaluation ranks sibling positions, which the value loss does not.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// Positions judged.
    pub positions: usize,
    /// Share where the classical evaluation's choice is the best move.
    pub classical: f64,
    /// Share where the corrected evaluation's choice is.
    pub network: f64,
    /// Share where the static move ordering's first move
    /// ([`crate::search::threats::static_order_key`]) is.
    pub ordering: f64,
    /// Share where the network's policy's first move is.
    pub policy: f64,
}

/// [`Choice`] of `net` on `games`, on all cores.
#[must_use]
pub fn one_ply_choice(net: &Network, games: &[GameRecord], every: usize) -> Choice {
    let q = Quantised::new(net);
    let scale = q.scale as f32;
    let every = every.max(1);
    let sums = games
        .par_iter()
        .filter(|g| g.rule == net.rule)
        .map(|game| {
            let mut sums = [0usize; 5];
            let Ok(mut b) = Board::new(game.size, game.rule) else {
                return sums;
            };
            for (i, ply) in game.plies.iter().enumerate() {
                if ply.kind == PlyKind::Searched && i % every == 0 {
                    let me = b.side_to_move();
                    let cands: Vec<Pos> = b.candidates().collect();
                    let mut best = [(i64::MIN, Pos::PASS); 2];
                    let mut first = [(i64::MIN, Pos::PASS), (i64::MIN, Pos::PASS)];
                    for p in cands {
                        if !crate::rules::legal(&mut b, p, me) {
                            continue;
                        }
                        let key = i64::from(crate::search::threats::static_order_key(&b, p, me));
                        let logit = q.logit_at(&b, p, me).map_or(i64::MIN, |l| (l * 1e4) as i64);
                        for (slot, v) in first.iter_mut().zip([key, logit]) {
                            if v > slot.0 {
                                *slot = (v, p);
                            }
                        }
                        b.play_unchecked(p);
                        let c = -crate::eval::evaluate(&b);
                        let v = Accumulator::new(&q, &b).value(&q, b.side_to_move());
                        let n = c - (v * scale) as i32;
                        b.undo();
                        for (slot, v) in best.iter_mut().zip([c, n]) {
                            if i64::from(v) > slot.0 {
                                *slot = (i64::from(v), p);
                            }
                        }
                    }
                    sums[0] += 1;
                    sums[1] += usize::from(best[0].1 == ply.best);
                    sums[2] += usize::from(best[1].1 == ply.best);
                    sums[3] += usize::from(first[0].1 == ply.best);
                    sums[4] += usize::from(first[1].1 == ply.best);
                }
                if !b.contains(ply.mv) || !b.is_empty(ply.mv) {
                    break;
                }
                b.play_unchecked(ply.mv);
            }
            sums
        })
        .reduce(|| [0; 5], |a, b| std::array::from_fn(|i| a[i] + b[i]));
    let n = sums[0].max(1) as f64;
    Choice {
        positions: sums[0],
        classical: sums[1] as f64 / n,
        network: sums[2] as f64 / n,
        ordering: sums[3] as f64 / n,
        policy: sums[4] as f64 / n,
    }
}

/// Centre `net`'s value on `samples`: each table's offset grows by the mean value of that
/// table's samples, so the value's mean per colour to move is zero there (the correction
/// keeps the classical evaluation's balance by colour to move, its tempo included).
pub fn centre(net: &mut Network, samples: &[Sample]) {
    let sums = samples
        .par_iter()
        .map(|s| {
            let v = f64::from(value_of(net, s));
            let mut a = [0.0f64; 4];
            a[usize::from(s.table)] = v;
            a[2 + usize::from(s.table)] = 1.0;
            a
        })
        .reduce(|| [0.0; 4], |a, b| std::array::from_fn(|i| a[i] + b[i]));
    for t in 0..2 {
        if sums[2 + t] > 0.0 {
            net.offsets[t] += (sums[t] / sums[2 + t]) as f32;
        }
    }
}

/// A cell index as a position on a board of side `size`.
#[must_use]
pub fn cell_pos(i: u16, size: usize) -> Pos {
    Pos::new(usize::from(i) % size, usize::from(i) / size, size)
}

#[cfg(test)]
mod tests;
