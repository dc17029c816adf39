//! The evaluation tuner (`renju-engine tune`): logistic regression of game results on the
//! features of [`crate::eval::features`], fitted with (lazy) Adam on minibatches, with every
//! tenth game held back for validation. Each code's weight is its class's weight (one per role,
//! colour and [`Class`](crate::pattern::Class), unpenalised) plus a residual of its own, L2-penalised: a code seen in
//! few positions stays near its class.
//!
//! The model: a position with feature vector `x` is won by the side to move with probability
//! `sigmoid(w · x)`, `w` in logistic units. The target is the game result for the side to move
//! (1 win, 0.5 draw, 0 loss), optionally blended with the search score of the position
//! (`lambda`), read as a win probability at the scale at which the data's search scores predict
//! its results best ([`fit_score_scale`]: the calibration of the engine that played the games,
//! in its own points). The fit starts from the hand weights ([`crate::eval::hand_code_weights`]) at the
//! logistic scale that fits them best, so epoch 0 *is* the hand evaluation (or, with
//! `from_embedded`, from the embedded weights at theirs); the written integer
//! weights are `w × scale`, where `scale` (evaluation points per logistic unit) is that starting
//! fit's, so scores keep their old magnitude and the search's margins their meaning. The
//! `scale` written to the file is the fitted evaluation's own calibration ([`calibrate`]): the
//! points per logistic unit at which its scores predict the training results best.
//!
//! Positions the evaluation never sees are left out: the side to move can make a five or an
//! open four, or must block the opponent's five.

use crate::board::Board;
use crate::datagen::{GameRecord, PlyKind};
use crate::eval::{from_vector, hand_code_weights, weight_vector, FEATURES};
use crate::pattern::code::{code_patterns, CodeWeights, CODES};
use crate::pattern::{combine, CLASS_COUNT};
use crate::rules;
use crate::types::{Color, Rule};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::io::Write;

pub use data::{build, game_positions, usable, Dataset};
use data::{split, Split};
use optim::{batch_gradient, golden_log_min, ordered_parts, Adam};

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn bce(t: f64, z: f64) -> f64 {
    // -t ln p - (1 - t) ln (1 - p), written stably in z.
    let sp = |x: f64| if x > 30.0 { x } else { x.exp().ln_1p() };
    t * sp(-z) + (1.0 - t) * sp(z)
}

/// The training target of position `i`: the result, blended with the search score's win
/// probability at `score_s` (logistic units per point of the engine that searched) by `lambda`.
fn target(d: &Dataset, i: usize, lambda: f64, score_s: f64) -> f64 {
    let r = f64::from(d.result[i]);
    if lambda > 0.0 && d.searched[i] {
        (1.0 - lambda) * r + lambda * sigmoid(f64::from(d.score[i]) * score_s)
    } else {
        r
    }
}

/// Mean loss against the game results of the model `w`.
#[must_use]
pub fn loss(d: &Dataset, w: &[f64]) -> f64 {
    if d.is_empty() {
        return 0.0;
    }
    let parts = ordered_parts(d.len(), |r| {
        r.map(|i| bce(f64::from(d.result[i]), d.dot(i, w)))
            .sum::<f64>()
    });
    parts.iter().sum::<f64>() / d.len() as f64
}

/// Mean loss of the hand evaluation at logistic scale `s` (units per point).
#[must_use]
pub fn hand_loss(d: &Dataset, s: f64) -> f64 {
    if d.is_empty() {
        return 0.0;
    }
    (0..d.len())
        .map(|i| bce(f64::from(d.result[i]), f64::from(d.hand[i]) * s))
        .sum::<f64>()
        / d.len() as f64
}

/// The scale `s` that fits the hand evaluation best on `d` (golden-section search on log s).
#[must_use]
pub fn fit_hand_scale(d: &Dataset) -> f64 {
    golden_log_min(1e-6, 1.0, |s| hand_loss(d, s))
}

/// The scale `s` (logistic units per point) at which the search scores of `d` predict the game
/// results best: the calibration of the engine that made the data, in its own points. `None`
/// without searched positions.
#[must_use]
pub fn fit_score_scale(d: &Dataset) -> Option<f64> {
    let searched: Vec<usize> = (0..d.len()).filter(|&i| d.searched[i]).collect();
    if searched.is_empty() {
        return None;
    }
    Some(golden_log_min(1e-6, 1.0, |s| {
        searched
            .iter()
            .map(|&i| bce(f64::from(d.result[i]), f64::from(d.score[i]) * s))
            .sum::<f64>()
    }))
}

/// Evaluation points per logistic unit at which the shipped weights `w` (logistic units at
/// `scale` points each) predict the game results of `d` best: the scale a score of the fitted
/// evaluation maps to a win probability with, `1 / (1 + exp(-score / calibrated))`.
#[must_use]
pub fn calibrate(d: &Dataset, w: &[f64], scale: i32) -> i32 {
    let k = best_factor(d, w, 1e-3, 1e3);
    (f64::from(scale) / k).round().clamp(1.0, 100_000.0) as i32
}

/// `w` with every weight multiplied by `k`.
fn scaled(w: &[f64], k: f64) -> Vec<f64> {
    w.iter().map(|&x| x * k).collect()
}

/// The factor `k` in `[lo, hi]` by which the weights `w` predict the results of `d` best.
fn best_factor(d: &Dataset, w: &[f64], lo: f64, hi: f64) -> f64 {
    golden_log_min(lo, hi, |k| loss(d, &scaled(w, k)))
}

/// Settings of a fit.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Passes over the training set.
    pub epochs: usize,
    /// Adam step size.
    pub lr: f64,
    /// L2 penalty on each code's distance from its class weight and on each combination
    /// weight (on the loss per position).
    pub l2: f64,
    /// Weight of the search score in the target (0 = results only).
    pub lambda: f64,
    /// Positions per minibatch.
    pub batch: usize,
    /// Shuffle seed.
    pub seed: u64,
    /// Fit class weights and the combination table only (every code of a class keeps one
    /// weight; class `None` stays 0), so the fast class-count evaluation can play them.
    pub class_only: bool,
    /// Start from the embedded weights of the rule (the incumbent, at the points per logistic
    /// unit that fit the training set best, which the written weights keep) instead of the
    /// hand weights.
    pub from_embedded: bool,
    /// Points per logistic unit of the data's search scores in the target; 0: fitted to the
    /// training results ([`fit_score_scale`]).
    pub score_scale: f64,
}

/// The result of a fit.
#[derive(Clone, Debug)]
pub struct Fit {
    /// Evaluation points per logistic unit of `weights` (the hand evaluation's calibration on
    /// the training set; the integer weights are `weights × scale`).
    pub scale: i32,
    /// Evaluation points per logistic unit at which the shipped fitted weights predict the
    /// training set's results best (see [`calibrate`]); the `scale` written to the file.
    pub calibrated: i32,
    /// The fitted weights in feature order, logistic units.
    pub weights: Vec<f64>,
    /// Hand evaluation at its best scale: training and validation loss.
    pub hand_loss: (f64, f64),
    /// Fitted weights as rounded for shipping: training and validation loss.
    pub fitted_loss: (f64, f64),
    /// The weights the engine embeds now for the rule (the incumbent a refit must beat), at the
    /// scale that fits the training set best: validation loss.
    pub embedded_loss: f64,
    /// Validation loss after each epoch (index 0: the starting point).
    pub valid_losses: Vec<f64>,
    /// The epoch whose weights are kept: of epochs 1 and later, the one with the lowest
    /// validation loss (a step size that overshoots late in the fit does not ship its last
    /// epoch). With no epochs, 0: the starting point.
    pub kept_epoch: usize,
}

/// The validation loss of integer weights `points` (feature order, evaluation points) at the
/// points-per-logistic-unit that fits `train` best, and that scale.
#[must_use]
pub fn best_scaled_loss(train: &Dataset, valid: &Dataset, points: &[i64]) -> (f64, f64) {
    let w: Vec<f64> = points.iter().map(|&x| x as f64).collect();
    let k = best_factor(train, &w, 1e-6, 1.0);
    (loss(valid, &scaled(&w, k)), 1.0 / k)
}

/// Fit the weights of `rule` on `train`, reporting each epoch to `log`.
pub fn fit(
    train: &Dataset,
    valid: &Dataset,
    rule: Rule,
    st: &Settings,
    log: &mut dyn Write,
) -> Fit {
    let start = starting_point(train, valid, rule, st, log);
    let scale = start.scale;
    let params = Params::new(rule);
    let (w, valid_losses, kept_epoch) = descend(train, valid, st, &start, &params, log);
    let _ = writeln!(
        log,
        "tune: kept epoch {kept_epoch} (lowest valid loss {:.5})",
        valid_losses[kept_epoch]
    );
    let _ = writeln!(
        log,
        "tune: the embedded {rule} weights (the incumbent) at {:.0} points per logistic unit: valid loss {:.5}",
        start.embedded.1, start.embedded.0
    );
    let shipped = shipped_vector(&w, rule, scale);
    let fitted = (loss(train, &shipped), loss(valid, &shipped));
    let calibrated = calibrate(train, &shipped, scale);
    let _ = writeln!(
        log,
        "tune: the fitted evaluation predicts the training results best at {calibrated} points per logistic unit (valid loss there {:.5})",
        loss(valid, &scaled(&shipped, f64::from(scale) / f64::from(calibrated)))
    );
    Fit {
        scale,
        calibrated,
        weights: w,
        hand_loss: start.hand,
        fitted_loss: fitted,
        embedded_loss: start.embedded.0,
        valid_losses,
        kept_epoch,
    }
}

/// Where a fit starts: the scale, the first weights and the reference losses.
struct Start {
    /// Hand evaluation at its best scale: training and validation loss.
    hand: (f64, f64),
    /// The embedded weights: validation loss at their best scale, and that scale.
    embedded: (f64, f64),
    /// Evaluation points per logistic unit of the fitted weights.
    scale: i32,
    /// Logistic units per point of the search scores (for `lambda`).
    score_s: f64,
    /// The starting weights, feature order, in logistic units.
    w0: Vec<f64>,
}

/// The starting point of a fit (the hand weights in code form, or the embedded weights with
/// `from_embedded`), with its losses reported to `log`.
fn starting_point(
    train: &Dataset,
    valid: &Dataset,
    rule: Rule,
    st: &Settings,
    log: &mut dyn Write,
) -> Start {
    let s_hand = fit_hand_scale(train);
    let hand = (hand_loss(train, s_hand), hand_loss(valid, s_hand));
    let embedded = best_scaled_loss(train, valid, &weight_vector(CodeWeights::get(rule)));
    let start_scale = if st.from_embedded {
        embedded.1
    } else {
        1.0 / s_hand
    };
    let scale = start_scale.round().clamp(1.0, 100_000.0) as i32;
    let _ = writeln!(
        log,
        "tune: {} training and {} validation positions; hand evaluation at {:.0} points per logistic unit: train loss {:.5}, valid loss {:.5}",
        train.len(),
        valid.len(),
        1.0 / s_hand,
        hand.0,
        hand.1
    );
    let score_s = if st.score_scale > 0.0 {
        1.0 / st.score_scale
    } else {
        fit_score_scale(train).unwrap_or(s_hand)
    };
    if st.lambda > 0.0 {
        let _ = writeln!(
            log,
            "tune: search scores read at {:.0} points per logistic unit",
            1.0 / score_s
        );
    }
    let (w0, from) = if st.from_embedded {
        let w: Vec<f64> = weight_vector(CodeWeights::get(rule))
            .iter()
            .map(|&x| x as f64 / f64::from(scale))
            .collect();
        (w, "the embedded weights")
    } else {
        (hand_vector(rule, scale), "the hand weights in code form")
    };
    let _ = writeln!(
        log,
        "epoch 0: train loss {:.5}, valid loss {:.5} ({from} at {scale} points per logistic unit)",
        loss(train, &w0),
        loss(valid, &w0)
    );
    Start {
        hand,
        embedded,
        scale,
        score_s,
        w0,
    }
}

/// The fit's parameters: per-code residuals (and the combination weights) `r`, then one weight
/// per role, colour slot and class `u`. A code's weight is `u[its class] + r[code]`; only `r`
/// is penalised, so rare codes stay near their class. The hand weights are a function of the
/// class, so they start as `u` with `r = 0`.
struct Params {
    /// Per code cell (`4 * CODES` of them), the index of its class parameter.
    class_of: Vec<usize>,
}

impl Params {
    fn new(rule: Rule) -> Params {
        let class_param = |k: usize| {
            let (group, code) = (k / CODES, k % CODES);
            let colour = if group % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            FEATURES + group * CLASS_COUNT + combine(code_patterns(code), colour, rule) as usize
        };
        Params {
            class_of: (0..4 * CODES).map(class_param).collect(),
        }
    }

    /// Number of parameters.
    fn len(&self) -> usize {
        FEATURES + 4 * CLASS_COUNT
    }

    /// The parameters of weights `w0` (feature order).
    fn of_weights(&self, w0: &[f64]) -> Vec<f64> {
        let cells = self.class_of.len();
        let mut p = vec![0.0f64; self.len()];
        for k in 0..cells {
            p[self.class_of[k]] = w0[k];
        }
        for k in 0..cells {
            p[k] = w0[k] - p[self.class_of[k]];
        }
        p[cells..FEATURES].copy_from_slice(&w0[cells..FEATURES]);
        p
    }

    /// The weights (feature order) of parameters `p`.
    fn weights(&self, p: &[f64]) -> Vec<f64> {
        let cells = self.class_of.len();
        (0..FEATURES)
            .map(|k| {
                if k < cells {
                    p[k] + p[self.class_of[k]]
                } else {
                    p[k]
                }
            })
            .collect()
    }
}

/// Adam over `st.epochs` shuffled epochs of mini-batches from `start`: the weights of the
/// epoch with the lowest validation loss (of epochs 1 and later), the validation loss after
/// each epoch (index 0: the start), and the kept epoch.
fn descend(
    train: &Dataset,
    valid: &Dataset,
    st: &Settings,
    start: &Start,
    params: &Params,
    log: &mut dyn Write,
) -> (Vec<f64>, Vec<f64>, usize) {
    let cells = params.class_of.len();
    let mut p = params.of_weights(&start.w0);
    let mut w = params.weights(&p);
    let mut valid_losses = vec![loss(valid, &w)];
    let mut kept = (f64::INFINITY, w.clone(), 0usize);
    let mut adam = Adam::new(params.len());
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = StdRng::seed_from_u64(st.seed);
    let batch = st.batch.max(1);
    for epoch in 1..=st.epochs {
        order.shuffle(&mut rng);
        for chunk in order.chunks(batch) {
            let gw = batch_gradient(chunk, FEATURES, |i, g| {
                let e = sigmoid(train.dot(i, &w)) - target(train, i, st.lambda, start.score_s);
                for j in train.start[i]..train.start[i + 1] {
                    g[train.idx[j] as usize] += e * f64::from(train.cnt[j]);
                }
            });
            let mut grad = vec![0.0f64; params.len()];
            grad[..FEATURES].copy_from_slice(&gw);
            for k in 0..cells {
                grad[params.class_of[k]] += gw[k];
            }
            adam.step(
                &mut p,
                &grad,
                chunk.len() as f64,
                st.lr,
                |k, x| if k < FEATURES { 2.0 * st.l2 * x } else { 0.0 },
                |k| {
                    let none_class = k >= FEATURES && (k - FEATURES).is_multiple_of(CLASS_COUNT);
                    st.class_only && (k < cells || none_class)
                },
            );
            w = params.weights(&p);
        }
        let vl = loss(valid, &w);
        let _ = writeln!(
            log,
            "epoch {epoch}: train loss {:.5}, valid loss {vl:.5}",
            loss(train, &w)
        );
        valid_losses.push(vl);
        if vl < kept.0 || epoch == 1 {
            kept = (vl, w.clone(), epoch);
        }
    }
    (kept.1, valid_losses, kept.2)
}

/// The hand weights of `rule` in feature order, in logistic units at `scale` points each: the
/// fit's starting point.
#[must_use]
pub fn hand_vector(rule: Rule, scale: i32) -> Vec<f64> {
    weight_vector(&hand_code_weights(rule, scale))
        .iter()
        .map(|&x| x as f64 / f64::from(scale))
        .collect()
}

/// The weights as the build will use them (integers at `scale`, code 0 zero, colours tied
/// outside renju), back in logistic units.
fn shipped_vector(w: &[f64], rule: Rule, scale: i32) -> Vec<f64> {
    let cw = from_vector(&integer_vector(w, scale), rule, scale);
    weight_vector(&cw)
        .iter()
        .map(|&x| x as f64 / f64::from(scale))
        .collect()
}

/// Round logistic-unit weights to evaluation points.
#[must_use]
pub fn integer_vector(w: &[f64], scale: i32) -> Vec<i64> {
    w.iter()
        .map(|&x| (x * f64::from(scale)).round() as i64)
        .collect()
}

/// The result of a game won by `winner` (`None`: a draw) for `me`: 1, 0.5 or 0.
#[must_use]
pub fn result_for(winner: Option<Color>, me: Color) -> f32 {
    match winner {
        None => 0.5,
        Some(c) if c == me => 1.0,
        Some(_) => 0.0,
    }
}

mod data;
mod optim;
mod policy;
#[cfg(test)]
mod tests;

pub use policy::{
    build_policy, fit_policy, game_policy, hand_policy_accuracy, policy_loss, PolicySet,
    POLICY_PARAMS,
};
