//! Fitting the move-ordering weights (`renju-engine tune --policy`): a softmax over each
//! searched position's legal candidates towards the move the search chose, with an attack
//! weight for the mover's code and a defence weight for the opponent's code of each cell.
//!
//! Shares the data split, the minibatch gradient and Adam with the evaluation fit (`tune`).

use super::*;

/// Move-ordering positions: for each searched position, its legal candidates (the cells the
/// search orders) as `(own code, opponent code, hand key)` and which one the search chose.
#[derive(Clone, Debug, Default)]
pub struct PolicySet {
    /// Candidates of every position, concatenated: own feature, opponent feature, hand key.
    pub cand: Vec<(u32, u32, i32)>,
    /// Start of each position's candidates (one more entry than positions).
    pub start: Vec<usize>,
    /// Index (within the position's candidates) of the searched best move.
    pub best: Vec<u32>,
}

/// Length of the policy parameter vector: an attack weight per (colour slot, code) for the
/// side to move's own code of a cell, a defence weight per (colour slot, code) for the
/// opponent's code of the same cell.
pub const POLICY_PARAMS: usize = 4 * CODES;

impl PolicySet {
    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.best.len()
    }

    /// Whether there are no positions.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.best.is_empty()
    }

    fn logits(&self, i: usize, w: &[f64]) -> Vec<f64> {
        self.cand[self.start[i]..self.start[i + 1]]
            .iter()
            .map(|&(a, d, _)| w[a as usize] + w[d as usize])
            .collect()
    }
}

impl Split for PolicySet {
    fn append(&mut self, o: PolicySet) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        let base = self.cand.len();
        self.cand.extend(o.cand);
        self.start.extend(o.start.iter().skip(1).map(|s| s + base));
        self.best.extend(o.best);
    }
}

/// The policy positions of one game: every searched ply whose best move is a legal candidate.
#[must_use]
pub fn game_policy(g: &GameRecord) -> PolicySet {
    use crate::eval::combo_slot;
    use crate::pattern::code::code_of_key;
    use crate::pattern::table::cell_key;
    let mut d = PolicySet {
        start: vec![0],
        ..PolicySet::default()
    };
    let Ok(mut b) = Board::new(g.size, g.rule) else {
        return d;
    };
    for p in &g.plies {
        if p.kind == PlyKind::Searched {
            let me = b.side_to_move();
            let opp = me.opponent();
            let cells: Vec<crate::types::Pos> = b.candidates().collect();
            let mut cands = Vec::with_capacity(cells.len());
            let mut best = None;
            for q in cells {
                if !rules::legal(&mut b, q, me) {
                    continue;
                }
                let code =
                    |c: Color| code_of_key(cell_key([0, 1, 2, 3].map(|dd| b.pattern(q, dd, c))));
                let own = combo_slot(g.rule, me) * CODES + code(me);
                let def = 2 * CODES + combo_slot(g.rule, opp) * CODES + code(opp);
                if q == p.best {
                    best = Some(cands.len() as u32);
                }
                cands.push((
                    own as u32,
                    def as u32,
                    crate::search::threats::static_order_key(&b, q, me),
                ));
            }
            if let Some(bi) = best {
                if cands.len() > 1 {
                    d.cand.extend(cands);
                    d.start.push(d.cand.len());
                    d.best.push(bi);
                }
            }
        }
        if rules::try_play(&mut b, p.mv).is_err() {
            break;
        }
    }
    d
}

/// Policy training and validation sets of `rule` (every tenth game is validation).
#[must_use]
pub fn build_policy(games: &[GameRecord], rule: Rule) -> (PolicySet, PolicySet) {
    split(games, rule, game_policy)
}

/// Cross-entropy of the searched best move and top-1 accuracy of the model `w` on `d`.
#[must_use]
pub fn policy_loss(d: &PolicySet, w: &[f64]) -> (f64, f64) {
    if d.is_empty() {
        return (0.0, 0.0);
    }
    let parts = ordered_parts(d.len(), |r| {
        r.map(|i| {
            let z = d.logits(i, w);
            let m = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let lse = m + z.iter().map(|x| (x - m).exp()).sum::<f64>().ln();
            let b = d.best[i] as usize;
            let top = (0..z.len()).fold(0, |a, j| if z[j] > z[a] { j } else { a });
            (lse - z[b], u32::from(top == b))
        })
        .fold((0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    });
    let (ce, hits) = parts.iter().fold((0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    (ce / d.len() as f64, f64::from(hits) / d.len() as f64)
}

/// Top-1 accuracy of the hand ordering key on `d` (ties broken by the first candidate, i.e.
/// by cell, as the search does).
#[must_use]
pub fn hand_policy_accuracy(d: &PolicySet) -> f64 {
    if d.is_empty() {
        return 0.0;
    }
    let hits: usize = (0..d.len())
        .filter(|&i| {
            let c = &d.cand[d.start[i]..d.start[i + 1]];
            let top = (0..c.len()).fold(0, |a, j| if c[j].2 > c[a].2 { j } else { a });
            top == d.best[i] as usize
        })
        .count();
    hits as f64 / d.len() as f64
}

/// Fit the policy weights (softmax regression over each position's candidates, Adam, L2),
/// reporting each epoch; returns the weights in feature order (see [`POLICY_PARAMS`]).
pub fn fit_policy(
    train: &PolicySet,
    valid: &PolicySet,
    st: &Settings,
    log: &mut dyn Write,
) -> Vec<f64> {
    let _ = writeln!(
        log,
        "policy: {} training and {} validation positions; hand ordering top-1: train {:.4}, valid {:.4}",
        train.len(),
        valid.len(),
        hand_policy_accuracy(train),
        hand_policy_accuracy(valid)
    );
    let mut w = vec![0.0f64; POLICY_PARAMS];
    let mut adam = Adam::new(POLICY_PARAMS);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = StdRng::seed_from_u64(st.seed);
    for epoch in 1..=st.epochs {
        order.shuffle(&mut rng);
        for chunk in order.chunks(st.batch.max(1)) {
            let grad = batch_gradient(chunk, POLICY_PARAMS, |i, g| {
                let z = train.logits(i, &w);
                let mx = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let e: Vec<f64> = z.iter().map(|x| (x - mx).exp()).collect();
                let s: f64 = e.iter().sum();
                let c = &train.cand[train.start[i]..train.start[i + 1]];
                for (j, &(a, d, _)) in c.iter().enumerate() {
                    let mut gj = e[j] / s;
                    if j == train.best[i] as usize {
                        gj -= 1.0;
                    }
                    g[a as usize] += gj;
                    g[d as usize] += gj;
                }
            });
            adam.step(
                &mut w,
                &grad,
                chunk.len() as f64,
                st.lr,
                |_, x| 2.0 * st.l2 * x,
                |_| false,
            );
        }
        let (tl, ta) = policy_loss(train, &w);
        let (vl, va) = policy_loss(valid, &w);
        let _ = writeln!(
            log,
            "policy epoch {epoch}: train loss {tl:.4} top-1 {ta:.4}, valid loss {vl:.4} top-1 {va:.4}"
        );
    }
    w
}
