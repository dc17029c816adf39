//! The tuner's tests: features and datasets match the games, the fits lower their losses and
//! keep their best epoch independently of the thread count, calibration recovers the scale.

use super::*;
use crate::datagen::{play_game, Config, Variant};
use crate::eval::{cell_feature, combo_feature, features};
use crate::pattern::code::LEVELS;
use crate::pattern::code::{code_of_key, WAITER};
use crate::pattern::table::cell_key;
use crate::pattern::Pattern;
use crate::search::Searcher;

#[test]
fn features_of_a_hand_made_position() {
    // Freestyle 15, black h8 i8 (an open two on row 8), white far away at a1; white to
    // move. Cells g8 and j8 make an open three for black: pattern OpenThree in the row,
    // nothing else, so each counts once on black's waiter feature of that code.
    let mut b = Board::new(15, Rule::Freestyle).unwrap();
    b.put_unchecked(b.pos(7, 7), Color::Black);
    b.put_unchecked(b.pos(8, 7), Color::Black);
    b.put_unchecked(b.pos(0, 14), Color::White);
    assert_eq!(b.side_to_move(), Color::Black);
    b.pass();
    let f = features(&b);
    let three = code_of_key(cell_key([
        Pattern::OpenThree,
        Pattern::None,
        Pattern::None,
        Pattern::None,
    ]));
    let count = |i: usize| f.iter().find(|e| e.0 as usize == i).map_or(0, |e| e.1);
    // g8 (6,7) and j8 (9,7): open three only in the row; f8/k8 too (split threes).
    let open_three_cells = [(5, 7), (6, 7), (9, 7), (10, 7)]
        .iter()
        .filter(|&&(x, y)| {
            let p = b.pos(x, y);
            (0..4).all(|d| {
                let want = if d == 0 {
                    Pattern::OpenThree
                } else {
                    Pattern::None
                };
                b.pattern(p, d, Color::Black) == want
            })
        })
        .count();
    assert_eq!(open_three_cells, 4);
    assert_eq!(count(cell_feature(WAITER, 0, three)), 4);
    // White (to move) has a lone stone: its mover features are twos at most.
    let codes = crate::pattern::code::CODES;
    let mover: Vec<usize> = f
        .iter()
        .map(|e| e.0 as usize)
        .filter(|&i| i < cell_feature(WAITER, 0, 0))
        .collect();
    assert!(!mover.is_empty());
    for i in mover {
        let pats = crate::pattern::code::code_patterns(i % codes);
        assert!(pats.iter().all(|&p| p <= Pattern::Two), "{pats:?}");
    }
    // Combination: white has nothing (level 0), black an open three point (level 2).
    assert_eq!(count(combo_feature(0, 0, 2)), 1);
}

fn tiny_games() -> Vec<GameRecord> {
    let cfg = Config {
        variants: vec![Variant {
            rule: Rule::Freestyle,
            size: 9,
        }],
        nodes: 200,
        balance: 400,
        seed: 3,
        hash_mb: 1,
    };
    let mut s = Searcher::new(1, 1);
    (0..20).map(|i| play_game(&cfg, i, &mut s)).collect()
}

#[test]
fn dataset_matches_the_games() {
    let games = tiny_games();
    let (train, valid) = build(&games, Rule::Freestyle, LEVELS);
    // Every usable position of every game is in exactly one set, with its result.
    let mut want = 0;
    for g in &games {
        let mut b = Board::new(g.size, g.rule).unwrap();
        for p in &g.plies {
            want += usize::from(usable(&b));
            rules::try_play(&mut b, p.mv).unwrap();
        }
    }
    assert_eq!(train.len() + valid.len(), want);
    assert!(!valid.is_empty());
    // The hand evaluation column equals the feature sum of the hand weights (no combo).
    let hand = weight_vector(&hand_code_weights(Rule::Freestyle, 1));
    for i in 0..train.len() {
        let z: f64 = (train.start[i]..train.start[i + 1])
            .filter(|&j| (train.idx[j] as usize) < 4 * crate::pattern::code::CODES)
            .map(|j| f64::from(train.cnt[j]) * hand[train.idx[j] as usize] as f64)
            .sum();
        assert_eq!(z, f64::from(train.hand[i]));
    }
    // Results are from the side to move's view.
    let g = &games[0];
    let d = game_positions(g, LEVELS);
    assert!(!d.is_empty());
    for i in 0..d.len() {
        assert!([0.0, 0.5, 1.0].contains(&d.result[i]));
    }
}

#[test]
fn the_level_filter_keeps_only_quiet_positions() {
    let games = tiny_games();
    let n = |m: usize| {
        let (t, v) = build(&games, Rule::Freestyle, m);
        t.len() + v.len()
    };
    let counts: Vec<usize> = (1..=LEVELS).map(n).collect();
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    assert!(counts[0] < counts[LEVELS - 1], "{counts:?}");
    // Position by position: a kept position has both levels below the bound.
    for g in &games {
        let mut b = Board::new(g.size, g.rule).unwrap();
        let mut quiet = 0;
        for p in &g.plies {
            let me = b.side_to_move();
            if usable(&b)
                && crate::eval::level(&b, me).max(crate::eval::level(&b, me.opponent())) < 3
            {
                quiet += 1;
            }
            rules::try_play(&mut b, p.mv).unwrap();
        }
        assert_eq!(game_positions(g, 3).len(), quiet);
    }
}

/// The training and validation sets of [`tiny_games`].
fn tiny_sets() -> (Dataset, Dataset) {
    build(&tiny_games(), Rule::Freestyle, LEVELS)
}

/// A freestyle fit with `st`, its log discarded.
fn quiet_fit(train: &Dataset, valid: &Dataset, st: &Settings) -> Fit {
    fit(train, valid, Rule::Freestyle, st, &mut std::io::sink())
}

/// Settings of a fit to the game results alone (no penalty, seed 1).
fn result_fit(epochs: usize, lr: f64, batch: usize, class_only: bool) -> Settings {
    Settings {
        epochs,
        lr,
        l2: 0.0,
        lambda: 0.0,
        batch,
        seed: 1,
        class_only,
        from_embedded: false,
        score_scale: 0.0,
    }
}

#[test]
fn one_epoch_lowers_the_training_loss() {
    let (train, _) = tiny_sets();
    // One full-batch step, small enough to be a descent step (a 0.001 step was not, on the
    // games the search with the four-three threat plays).
    let st = result_fit(1, 0.000_01, train.len(), false);
    let f = quiet_fit(&train, &train, &st);
    let start = hand_vector(Rule::Freestyle, f.scale);
    assert_eq!(f.kept_epoch, 1);
    let (a, b) = (loss(&train, &f.weights), loss(&train, &start));
    assert!(a < b, "{a} {b} {}", train.len());
    // The hand loss is the loss of the starting point at the fitted scale.
    assert!((f.hand_loss.0 - hand_loss(&train, 1.0 / f64::from(f.scale))).abs() < 0.01);
}

#[test]
fn the_fit_keeps_its_best_validation_epoch() {
    let (train, valid) = tiny_sets();
    // A step size far too large: the validation loss jumps about between epochs.
    let st = result_fit(6, 2.0, 16, false);
    let f = quiet_fit(&train, &valid, &st);
    assert_eq!(f.valid_losses.len(), 7);
    let min = f.valid_losses[1..]
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min);
    assert!((f.valid_losses[f.kept_epoch] - min).abs() < 1e-12);
    assert!((loss(&valid, &f.weights) - min).abs() < 1e-9);
    // The incumbent's loss is that of the embedded weights at their best scale.
    let (l, s) = best_scaled_loss(
        &train,
        &valid,
        &weight_vector(CodeWeights::get(Rule::Freestyle)),
    );
    assert!((l - f.embedded_loss).abs() < 1e-12 && s > 1.0);
}

#[test]
fn fits_do_not_depend_on_the_thread_count() {
    let (train, valid) = tiny_sets();
    let st = result_fit(2, 0.01, 64, false);
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let f = quiet_fit(&train, &valid, &st);
            (f.weights, f.valid_losses, f.embedded_loss, f.calibrated)
        })
    };
    // Bit for bit: the sums are split into fixed parts added in order.
    let one = run(1);
    assert!(one.1.iter().all(|l| l.is_finite()));
    for threads in [3, 7] {
        assert!(
            one == run(threads),
            "the fit on {threads} threads differs from one thread's"
        );
    }
}

#[test]
fn a_fit_from_the_embedded_weights_starts_at_them() {
    let (train, valid) = tiny_sets();
    let mut st = result_fit(0, 0.01, 64, false);
    st.from_embedded = true;
    let f = quiet_fit(&train, &valid, &st);
    // No epochs: the kept weights are the starting point, which written back at the fit's
    // scale are the embedded weights themselves (the scale is theirs, so the points are).
    assert_eq!(f.kept_epoch, 0);
    let w = from_vector(
        &integer_vector(&f.weights, f.scale),
        Rule::Freestyle,
        f.scale,
    );
    let emb = CodeWeights::get(Rule::Freestyle);
    assert_eq!(w.cell, emb.cell);
    assert_eq!(w.combo, emb.combo);
    // From the hand weights the start differs (the embedded file is a fit).
    st.from_embedded = false;
    let h = quiet_fit(&train, &valid, &st);
    assert_ne!(h.weights, f.weights);
}

#[test]
fn the_score_scale_is_the_calibration_of_the_search_scores() {
    // Scores that are the hand evaluation times 3 are calibrated at 3 times its scale.
    let (mut train, _) = tiny_sets();
    for i in 0..train.len() {
        train.score[i] = 3.0 * train.hand[i];
        train.searched[i] = true;
    }
    let h = 1.0 / fit_hand_scale(&train);
    let s = 1.0 / fit_score_scale(&train).unwrap();
    assert!((s - 3.0 * h).abs() <= 0.02 * s, "{s} vs 3 × {h}");
    for i in 0..train.len() {
        train.searched[i] = false;
    }
    assert!(fit_score_scale(&train).is_none());
}

#[test]
fn calibration_recovers_the_scale() {
    let (train, _) = tiny_sets();
    let s = fit_hand_scale(&train);
    let scale = (1.0 / s).round() as i32;
    let w = hand_vector(Rule::Freestyle, scale);
    // The hand weights at their own best scale are calibrated at that scale...
    let c = calibrate(&train, &w, scale);
    assert!((c - scale).abs() * 50 <= scale, "{c} vs {scale}");
    // ... and the same scores doubled need twice the points per logistic unit.
    let w2: Vec<f64> = w.iter().map(|&x| 2.0 * x).collect();
    let c2 = calibrate(&train, &w2, scale);
    assert!((c2 - 2 * c).abs() * 50 <= c2, "{c2} vs 2 × {c}");
}

#[test]
fn a_class_only_fit_is_class_level() {
    let (train, valid) = tiny_sets();
    let st = result_fit(2, 0.05, 16, true);
    let f = quiet_fit(&train, &valid, &st);
    let w = from_vector(
        &integer_vector(&f.weights, f.scale),
        Rule::Freestyle,
        f.scale,
    );
    assert!(w.is_class_level());
    // And it moved away from the hand weights.
    assert_ne!(w.cell, hand_code_weights(Rule::Freestyle, f.scale).cell);
}

#[test]
fn policy_fit_lowers_the_cross_entropy() {
    let games = tiny_games();
    let (train, valid) = build_policy(&games, Rule::Freestyle);
    assert!(!train.is_empty() && !valid.is_empty());
    // Every position's best move is one of its candidates.
    for i in 0..train.len() {
        assert!((train.best[i] as usize) < train.start[i + 1] - train.start[i]);
    }
    let acc = hand_policy_accuracy(&valid);
    assert!((0.0..=1.0).contains(&acc));
    let st = result_fit(2, 0.05, 16, false);
    let w = fit_policy(&train, &valid, &st, &mut std::io::sink());
    let zero = vec![0.0; POLICY_PARAMS];
    assert!(policy_loss(&train, &w).0 < policy_loss(&train, &zero).0);
}
