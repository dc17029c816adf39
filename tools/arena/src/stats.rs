//! Match statistics: win/loss/draw tallies, Elo difference with a confidence interval,
//! likelihood of superiority (LOS) and the sequential probability ratio test (SPRT).
//!
//! Everything is seen from player A's side: a positive Elo difference means A is stronger.
//! The formulas are the usual ones of engine-testing frameworks (cutechess-cli, classic
//! fishtest), written here from their definitions:
//!
//! * score `μ = (W + D/2) / N`, Elo `= -400 log10(1/μ - 1)` ([`elo_from_score`]);
//! * per-game score variance (trinomial) `v = (W (1-μ)² + D (1/2-μ)² + L μ²) / N`, standard
//!   error of the mean `σ = sqrt(v / N)`, 95% interval `μ ± 1.959964 σ` mapped to Elo
//!   ([`elo_interval`]);
//! * `LOS = ½ (1 + erf((W - L) / sqrt(2 (W + L))))` ([`los`]);
//! * SPRT with the logistic Elo model and the normal (GSPRT) approximation of the
//!   log-likelihood ratio ([`Sprt::llr`]).

use std::fmt;

/// Largest Elo magnitude [`elo_from_score`] returns.
///
/// A score of exactly 0 or 1 has an infinite Elo difference; such scores (and scores so close
/// to 0 or 1 that the formula exceeds this, i.e. beyond about 0.99999 or below 0.00001) are
/// clamped to `-MAX_ELO` / `+MAX_ELO` so results stay finite and printable.
pub const MAX_ELO: f64 = 2000.0;

/// Two-sided 95% quantile of the standard normal distribution, used by [`elo_interval`].
pub const Z95: f64 = 1.959964;

/// A win/loss/draw tally from player A's point of view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Wld {
    /// Games won by A.
    pub wins: u32,
    /// Games lost by A.
    pub losses: u32,
    /// Drawn games.
    pub draws: u32,
}

impl Wld {
    /// A tally with the given counts.
    pub const fn new(wins: u32, losses: u32, draws: u32) -> Self {
        Wld {
            wins,
            losses,
            draws,
        }
    }

    /// The same games seen from player B's side (wins and losses exchanged).
    pub const fn swapped(&self) -> Self {
        Wld {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }

    /// Number of games played, `W + L + D` (saturating at `u32::MAX`).
    pub fn games(&self) -> u32 {
        self.wins
            .saturating_add(self.losses)
            .saturating_add(self.draws)
    }

    /// Points fraction `(W + D/2) / N`, in `[0, 1]`; 0.5 when no game has been played.
    pub fn score(&self) -> f64 {
        let n = self.n();
        if n == 0.0 {
            0.5
        } else {
            (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n
        }
    }

    /// Fraction of drawn games `D / N`; 0 when no game has been played.
    pub fn draw_ratio(&self) -> f64 {
        let n = self.n();
        if n == 0.0 {
            0.0
        } else {
            f64::from(self.draws) / n
        }
    }

    /// Game count as `f64`, computed without integer overflow.
    fn n(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.losses) + f64::from(self.draws)
    }
}

impl fmt::Display for Wld {
    /// Formats as `+W -L =D`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "+{} -{} ={}", self.wins, self.losses, self.draws)
    }
}

/// Sample mean and per-game variance of the score (1 win, ½ draw, 0 loss) for the given
/// (possibly fractional) counts: `μ = (W + D/2)/N`, `v = (W (1-μ)² + D (½-μ)² + L μ²)/N`.
/// `n` must be positive.
fn mean_and_variance(w: f64, l: f64, d: f64) -> (f64, f64, f64) {
    let n = w + l + d;
    let mu = (w + 0.5 * d) / n;
    let var = (w * (1.0 - mu).powi(2) + d * (0.5 - mu).powi(2) + l * mu.powi(2)) / n;
    (n, mu, var)
}

/// Elo difference corresponding to an expected score: `-400 · log10(1/score - 1)`.
///
/// 0.5 maps to 0, 0.75 to about +190.85, 0.25 to about -190.85. Scores `<= 0` give
/// `-MAX_ELO`, scores `>= 1` give `+MAX_ELO`, and any result is clamped to
/// `[-MAX_ELO, MAX_ELO]` (see [`MAX_ELO`]); NaN gives NaN.
pub fn elo_from_score(score: f64) -> f64 {
    if score.is_nan() {
        return f64::NAN;
    }
    if score <= 0.0 {
        return -MAX_ELO;
    }
    if score >= 1.0 {
        return MAX_ELO;
    }
    (-400.0 * (1.0 / score - 1.0).log10()).clamp(-MAX_ELO, MAX_ELO)
}

/// Elo difference and its 95% confidence interval, as `(elo, lower, upper)`.
///
/// With `μ` the score and `v` the per-game trinomial variance
/// `(W (1-μ)² + D (½-μ)² + L μ²) / N`, the standard error of the mean is `σ = sqrt(v / N)`
/// and the interval is `μ ± 1.959964 σ` (see [`Z95`]), each end mapped through
/// [`elo_from_score`] (so ends beyond a score of 0 or 1 are clamped to `∓MAX_ELO`).
/// Returns `None` when no game has been played.
pub fn elo_interval(w: &Wld) -> Option<(f64, f64, f64)> {
    if w.games() == 0 {
        return None;
    }
    let (n, mu, var) =
        mean_and_variance(f64::from(w.wins), f64::from(w.losses), f64::from(w.draws));
    let sigma = (var / n).sqrt();
    Some((
        elo_from_score(mu),
        elo_from_score(mu - Z95 * sigma),
        elo_from_score(mu + Z95 * sigma),
    ))
}

/// Likelihood of superiority: the probability that A is stronger than B,
/// `½ (1 + erf((W - L) / sqrt(2 (W + L))))`. Draws do not count. 0.5 when `W + L = 0`.
pub fn los(w: &Wld) -> f64 {
    let decisive = f64::from(w.wins) + f64::from(w.losses);
    if decisive == 0.0 {
        return 0.5;
    }
    let x = (f64::from(w.wins) - f64::from(w.losses)) / (2.0 * decisive).sqrt();
    // ½ (1 + erf(x)) = ½ erfc(-x), which keeps relative accuracy when the LOS is tiny.
    0.5 * erfc(-x)
}

/// Below this |x|, [`erf`] and [`erfc`] use the power series; at and above it, the
/// continued fraction (which has converged to full double precision there at the depth
/// below).
const ERF_SWITCH: f64 = 1.0;

/// Number of levels of the erfc continued fraction (ample for `x >= 1`).
const ERFC_CF_DEPTH: u32 = 250;

/// `2 / sqrt(π)`.
const TWO_OVER_SQRT_PI: f64 = std::f64::consts::FRAC_2_SQRT_PI;

/// erf(a) for 0 <= a < [`ERF_SWITCH`], from the everywhere-positive series
/// `erf(x) = 2/√π · e^{-x²} · Σ_{n≥0} 2ⁿ x^{2n+1} / (1·3·5···(2n+1))`
/// (no cancellation between terms, so it is accurate to a few ulps).
fn erf_series(a: f64) -> f64 {
    let a2 = a * a;
    let mut term = a;
    let mut sum = a;
    let mut k = 1.0;
    loop {
        k += 2.0;
        term *= 2.0 * a2 / k;
        sum += term;
        if term <= sum * 1e-17 {
            break;
        }
    }
    TWO_OVER_SQRT_PI * (-a2).exp() * sum
}

/// erfc(x) for x >= [`ERF_SWITCH`], from Laplace's continued fraction
/// `erfc(x) = e^{-x²}/√π · 1/(x + (1/2)/(x + (2/2)/(x + (3/2)/(x + …))))`,
/// evaluated bottom-up with a fixed depth.
fn erfc_continued_fraction(x: f64) -> f64 {
    let mut f = x;
    for k in (1..=ERFC_CF_DEPTH).rev() {
        f = x + 0.5 * f64::from(k) / f;
    }
    (-x * x).exp() / (std::f64::consts::PI.sqrt() * f)
}

/// The error function `erf(x) = 2/√π ∫₀ˣ e^{-t²} dt`, accurate to about 1e-15.
///
/// A positive-term power series for |x| < 1 and a continued fraction for erfc beyond;
/// odd in `x`; NaN gives NaN.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    let r = if a < ERF_SWITCH {
        erf_series(a)
    } else {
        1.0 - erfc_continued_fraction(a)
    };
    r.copysign(x)
}

/// The complementary error function `erfc(x) = 1 - erf(x)`, with good relative accuracy for
/// large positive `x` (where `1 - erf(x)` would lose all digits). NaN gives NaN.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        2.0 - erfc(-x)
    } else if x < ERF_SWITCH {
        1.0 - erf_series(x)
    } else {
        erfc_continued_fraction(x)
    }
}

/// Logistic-model expected score of an Elo difference: `1 / (1 + 10^(-elo/400))`.
fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Outcome of an SPRT check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SprtStatus {
    /// The log-likelihood ratio is strictly between the bounds: keep playing.
    Continue,
    /// LLR at or below the lower bound: H0 (`elo = elo0`) accepted.
    AcceptH0,
    /// LLR at or above the upper bound: H1 (`elo = elo1`) accepted.
    AcceptH1,
}

impl fmt::Display for SprtStatus {
    /// Formats as `continue`, `H0 accepted` or `H1 accepted`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtStatus::Continue => "continue",
            SprtStatus::AcceptH0 => "H0 accepted",
            SprtStatus::AcceptH1 => "H1 accepted",
        })
    }
}

/// A sequential probability ratio test of H0: `elo = elo0` against H1: `elo = elo1`
/// (logistic Elo, from A's side) with false-positive rate `alpha` and false-negative rate
/// `beta`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// Elo difference of the null hypothesis H0.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis H1 (greater than `elo0`).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds (type I error), in `(0, 0.5)`.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds (type II error), in `(0, 0.5)`.
    pub beta: f64,
}

impl Sprt {
    /// Wald's stopping bounds on the LLR, `(ln(β/(1-α)), ln((1-β)/α))`.
    ///
    /// For `α = β = 0.05` they are about `(-2.944439, 2.944439)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 against H0 for the tally `w`.
    ///
    /// This is the trinomial GSPRT normal approximation with the **logistic (classical) Elo
    /// model**, as used by cutechess-cli and classic fishtest:
    ///
    /// * `p0 = 1/(1 + 10^(-elo0/400))`, `p1 = 1/(1 + 10^(-elo1/400))` are the expected
    ///   per-game scores under H0 and H1;
    /// * if any of `W`, `L`, `D` is zero, 0.5 is added to each of the three counts
    ///   (regularisation, so the draw rate and variance are never degenerate); the possibly
    ///   regularised counts are used for `N`, `μ` and `v` below;
    /// * `μ = (W + D/2)/N` and `v = (W (1-μ)² + D (½-μ)² + L μ²)/N` are the sample mean and
    ///   per-game variance of the score;
    /// * `LLR = N · (p1 - p0) · (2μ - p0 - p1) / (2v)`.
    ///
    /// Returns 0 when no game has been played.
    pub fn llr(&self, w: &Wld) -> f64 {
        if w.games() == 0 {
            return 0.0;
        }
        let (mut wins, mut losses, mut draws) =
            (f64::from(w.wins), f64::from(w.losses), f64::from(w.draws));
        if w.wins == 0 || w.losses == 0 || w.draws == 0 {
            wins += 0.5;
            losses += 0.5;
            draws += 0.5;
        }
        let (n, mu, var) = mean_and_variance(wins, losses, draws);
        self.llr_normal(n, mu, var)
    }

    /// The normal-approximation LLR of `n` samples of mean score `mu` and variance `var`:
    /// `n · (p1 - p0) · (2μ - p0 - p1) / (2v)` (shared by [`Sprt::llr`] and
    /// [`Sprt::llr_pairs`]).
    fn llr_normal(&self, n: f64, mu: f64, var: f64) -> f64 {
        let p0 = score_from_elo(self.elo0);
        let p1 = score_from_elo(self.elo1);
        n * (p1 - p0) * (2.0 * mu - p0 - p1) / (2.0 * var)
    }

    /// Log-likelihood ratio of H1 against H0 for game pairs (one opening, colours swapped):
    /// `pairs[i]` counts the pairs in which A scored `i / 2` points of 2.
    ///
    /// The pentanomial form of [`Sprt::llr`]: the sample is the pair's mean score `x` in
    /// {0, ¼, ½, ¾, 1}, so the variance is measured per pair and counts how the two games of
    /// an opening go together. With a book that favours one colour most pairs split 1-1 (each
    /// engine wins its game with the stronger colour); their variance is small, and the
    /// trinomial form, which treats the games as independent, overstates the noise and needs
    /// more games for the same decision.
    ///
    /// * `μ = Σ nᵢ xᵢ / N`, `v = Σ nᵢ (xᵢ - μ)² / N` over the `N` pairs;
    /// * `LLR = N · (p1 - p0) · (2μ - p0 - p1) / (2v)` with `p0`, `p1` as in [`Sprt::llr`];
    /// * while fewer than two kinds of pair result have occurred (`v = 0`), 0.5 is added to
    ///   the counts of 0, 1 and 2 points (regularisation, as the trinomial form does).
    ///
    /// A pair tally with no 0.5 or 1.5 results (`[l, 0, d, 0, w]`) is a trinomial tally of
    /// `w` wins, `l` losses and `d` draws: the two forms agree on it. Returns 0 without pairs.
    pub fn llr_pairs(&self, pairs: &[u32; 5]) -> f64 {
        let mut c = pairs.map(f64::from);
        if c.iter().sum::<f64>() == 0.0 {
            return 0.0;
        }
        if c.iter().filter(|&&k| k > 0.0).count() < 2 {
            for i in [0, 2, 4] {
                c[i] += 0.5;
            }
        }
        let n: f64 = c.iter().sum();
        let x = |i: usize| i as f64 / 4.0;
        let mu = c.iter().enumerate().map(|(i, k)| k * x(i)).sum::<f64>() / n;
        let var = c
            .iter()
            .enumerate()
            .map(|(i, k)| k * (x(i) - mu).powi(2))
            .sum::<f64>()
            / n;
        self.llr_normal(n, mu, var)
    }

    /// Decision for an LLR: [`SprtStatus::AcceptH1`] at or above the upper bound,
    /// [`SprtStatus::AcceptH0`] at or below the lower bound, otherwise
    /// [`SprtStatus::Continue`].
    pub fn decide(&self, llr: f64) -> SprtStatus {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtStatus::AcceptH1
        } else if llr <= lower {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }

    /// Decision for the tally `w`: [`SprtStatus::AcceptH1`] when the LLR is at or above the
    /// upper bound, [`SprtStatus::AcceptH0`] when at or below the lower bound, otherwise
    /// [`SprtStatus::Continue`].
    pub fn status(&self, w: &Wld) -> SprtStatus {
        self.decide(self.llr(w))
    }
}

/// Parses an SPRT specification `"elo0,elo1"` or `"elo0,elo1,alpha,beta"` (whitespace
/// around the numbers is allowed; alpha and beta default to 0.05).
///
/// Errors unless all numbers are finite, `elo0 < elo1`, `0 < alpha < 0.5` and
/// `0 < beta < 0.5`.
pub fn parse_sprt(s: &str) -> Result<Sprt, String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.len() != 2 && parts.len() != 4 {
        return Err(format!(
            "SPRT spec '{s}': expected 'elo0,elo1' or 'elo0,elo1,alpha,beta'"
        ));
    }
    let mut values = Vec::with_capacity(4);
    for p in &parts {
        let v: f64 = p
            .parse()
            .map_err(|_| format!("SPRT spec '{s}': '{p}' is not a number"))?;
        if !v.is_finite() {
            return Err(format!("SPRT spec '{s}': '{p}' is not finite"));
        }
        values.push(v);
    }
    let (alpha, beta) = if values.len() == 4 {
        (values[2], values[3])
    } else {
        (0.05, 0.05)
    };
    let sprt = Sprt {
        elo0: values[0],
        elo1: values[1],
        alpha,
        beta,
    };
    if sprt.elo0 >= sprt.elo1 {
        return Err(format!("SPRT spec '{s}': elo0 must be less than elo1"));
    }
    if !(alpha > 0.0 && alpha < 0.5) {
        return Err(format!("SPRT spec '{s}': alpha must be in (0, 0.5)"));
    }
    if !(beta > 0.0 && beta < 0.5) {
        return Err(format!("SPRT spec '{s}': beta must be in (0, 0.5)"));
    }
    Ok(sprt)
}

#[cfg(test)]
mod tests;
