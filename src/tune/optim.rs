//! The tuner's numerical tools: deterministic parallel sums, the minibatch gradient, lazy Adam
//! and a golden-section search on a log scale.

use rayon::prelude::*;

/// Positions per unit of parallel work in the tuner's sums. The units are fixed and their
/// partial sums added in order, so a sum (and with it a whole fit) does not depend on how the
/// threads happened to split the work: floating-point addition is not associative.
pub(super) const SUM_CHUNK: usize = 512;

/// `part` of each fixed range of [`SUM_CHUNK`] indices of `0..n`, computed in parallel, in
/// index order: the caller adds them in that order, so its sum does not depend on the threads.
pub(super) fn ordered_parts<T: Send>(
    n: usize,
    part: impl Fn(std::ops::Range<usize>) -> T + Sync,
) -> Vec<T> {
    (0..n.div_ceil(SUM_CHUNK))
        .into_par_iter()
        .map(|c| part(c * SUM_CHUNK..((c + 1) * SUM_CHUNK).min(n)))
        .collect()
}

/// The summed gradient over the positions of `chunk`, in parallel: `add(i, g)` adds position
/// `i`'s gradient to `g` (of length `len`). Deterministic (see [`ordered_parts`]).
pub(super) fn batch_gradient(
    chunk: &[usize],
    len: usize,
    add: impl Fn(usize, &mut [f64]) + Sync,
) -> Vec<f64> {
    let parts = ordered_parts(chunk.len(), |r| {
        let mut g = vec![0.0f64; len];
        for &i in &chunk[r] {
            add(i, &mut g);
        }
        g
    });
    let mut total = vec![0.0f64; len];
    for g in parts {
        for (x, y) in total.iter_mut().zip(g) {
            *x += y;
        }
    }
    total
}

/// Lazy Adam: a parameter absent from the batch (gradient exactly 0) keeps its value and
/// moments; an Adam step from a penalty alone would move a rare weight at the full step size
/// every batch.
pub(super) struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    const B1: f64 = 0.9;
    const B2: f64 = 0.999;
    const EPS: f64 = 1e-8;

    pub(super) fn new(len: usize) -> Adam {
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
            t: 0,
        }
    }

    /// One step on `p` from `grad` summed over `n` positions: parameters where `frozen` holds
    /// are left alone, `penalty(k, p[k])` is added to the mean gradient of the others.
    pub(super) fn step(
        &mut self,
        p: &mut [f64],
        grad: &[f64],
        n: f64,
        lr: f64,
        penalty: impl Fn(usize, f64) -> f64,
        frozen: impl Fn(usize) -> bool,
    ) {
        self.t += 1;
        let (c1, c2) = (1.0 - Self::B1.powi(self.t), 1.0 - Self::B2.powi(self.t));
        for k in 0..p.len() {
            if grad[k] == 0.0 || frozen(k) {
                continue;
            }
            let g = grad[k] / n + penalty(k, p[k]);
            self.m[k] = Self::B1 * self.m[k] + (1.0 - Self::B1) * g;
            self.v[k] = Self::B2 * self.v[k] + (1.0 - Self::B2) * g * g;
            p[k] -= lr * (self.m[k] / c1) / ((self.v[k] / c2).sqrt() + Self::EPS);
        }
    }
}

/// The `x` in `[lo, hi]` (both positive) that minimises the unimodal `f`, by golden-section
/// search on `ln x`.
pub(super) fn golden_log_min(lo: f64, hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (lo.ln(), hi.ln());
    let g = 0.618_033_988_75;
    let f = |x: f64| f(x.exp());
    let (mut a, mut b) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..60 {
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - g * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + g * (hi - lo);
            fb = f(b);
        }
    }
    f64::midpoint(lo, hi).exp()
}
