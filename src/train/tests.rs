use super::*;
use crate::eval::evaluate;
use crate::nnue::tables_of;
use crate::types::Rule;
use rand::Rng;

/// Random positions of `rule` (15x15): 4 to 30 stones placed at random near the centre, side to
/// move from the count.
fn random_boards(rule: Rule, n: usize, seed: u64) -> Vec<Board> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let mut b = Board::new(15, rule).expect("board");
            let stones = rng.gen_range(4..30);
            while b.stone_count() < stones {
                let p = Pos::new(rng.gen_range(3..12), rng.gen_range(3..12), 15);
                if b.is_empty(p) {
                    b.play_unchecked(p);
                }
            }
            b
        })
        .collect()
}

/// A sample of `board` whose value target is the classical evaluation's win rate and whose
/// best move is the cell with the highest threat score for the side to move.
fn classical_sample(board: &Board) -> Sample {
    let (table, cells) = features(tables_of(board.rule()), board);
    let me = board.side_to_move();
    let best = cells
        .iter()
        .enumerate()
        .max_by_key(|(_, &(c, _))| board.score(cell_pos(c, board.size()), me))
        .map(|(i, _)| i as u16);
    let _ = evaluate;
    Sample {
        table,
        cells,
        target: win_rate(evaluate(board), board.rule()) as f32,
        best,
        base: 0.0,
        children: Vec::new(),
    }
}

/// The value the samples' features give is the reference forward pass's.
#[test]
fn sample_values_are_the_reference_forward() {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let net = Network::random(rule, 8, 4, 3);
        for b in random_boards(rule, 30, 5) {
            let s = classical_sample(&b);
            let (a, r) = (value_of(&net, &s), net.forward(&b).value);
            assert!((a - r).abs() < 1e-4, "{rule}: {a} vs {r}");
        }
    }
}

/// Backpropagation agrees with central finite differences of the loss on every parameter
/// group (random parameters away from the clipped ReLU's kinks agree; a few near a kink may
/// not, so 95% must).
#[test]
fn gradients_match_finite_differences() {
    let mut rng = StdRng::seed_from_u64(17);
    for rule in [Rule::Freestyle, Rule::Renju] {
        let mut net = Network::random(rule, 6, 5, 21);
        // A gain away from 1 and real bases, so the gain's gradient is exercised.
        net.gain = 0.7;
        net.rank_gain = 1.3;
        let samples: Vec<Sample> = random_boards(rule, 6, 9)
            .iter()
            .map(|b| {
                // Three children, so the ranking loss's gradient is checked too.
                let mut b = b.clone();
                let cands: Vec<Pos> = b.candidates().take(3).collect();
                let children = cands
                    .into_iter()
                    .map(|p| Child::of(tables_of(rule), &mut b, p))
                    .collect();
                Sample {
                    base: base_of(&b),
                    children,
                    ..classical_sample(&b)
                }
            })
            .collect();
        let loss = |net: &Network| -> f64 {
            let mut g = vec![0.0f32; net.layout().len];
            samples
                .iter()
                .map(|s| f64::from(loss_and_grad(net, s, 0.5, 0.7, &mut g)))
                .sum()
        };
        let mut g = vec![0.0f32; net.layout().len];
        for s in &samples {
            let _ = loss_and_grad(&net, s, 0.5, 0.7, &mut g);
        }
        let base = net.to_vec();
        let l = net.layout();
        // Parameters to check: every non-feature parameter, and feature entries the samples
        // use (non-zero gradient) plus some they do not (zero gradient, zero difference).
        let mut idx: Vec<usize> = (l.cell_bias..l.len).collect();
        let used: Vec<usize> = (0..l.cell_bias).filter(|&i| g[i] != 0.0).collect();
        assert!(used.len() > 50, "{rule}: few used features");
        for _ in 0..60 {
            idx.push(used[rng.gen_range(0..used.len())]);
            idx.push(rng.gen_range(0..l.cell_bias));
        }
        let (mut agree, mut total) = (0, 0);
        for &i in &idx {
            let h = 1e-3f32;
            let mut p = base.clone();
            p[i] = base[i] + h;
            net.set_from(&p);
            let up = loss(&net);
            p[i] = base[i] - h;
            net.set_from(&p);
            let down = loss(&net);
            let fd = (up - down) / (2.0 * f64::from(h));
            let an = f64::from(g[i]);
            total += 1;
            if (fd - an).abs() <= 2e-2 + 0.05 * fd.abs().max(an.abs()) {
                agree += 1;
            }
        }
        net.set_from(&base);
        assert!(
            agree * 100 >= total * 95,
            "{rule}: {agree} of {total} agree"
        );
    }
}

/// On a small set the loss falls epoch by epoch, and a run is the same for the same seed.
#[test]
fn training_lowers_the_loss_and_repeats() {
    let samples: Vec<Sample> = random_boards(Rule::Freestyle, 300, 23)
        .iter()
        .map(classical_sample)
        .collect();
    let cfg = TrainConfig {
        epochs: 12,
        batch: 32,
        lr: 0.01,
        policy: 0.5,
        rank: 0.0,
        fixed_gain: false,
        seed: 1,
    };
    let start = Network::random(Rule::Freestyle, 8, 8, 2);
    let before = mean_loss(&start, &samples, cfg.policy, cfg.rank);
    let mut a = start.clone();
    let mut losses = Vec::new();
    train(&mut a, &samples, &cfg, |_, l, _| losses.push(l));
    let after = mean_loss(&a, &samples, cfg.policy, cfg.rank);
    // The set measures agree with the training loss: value + weight x policy.
    let set = set_loss(&a, &samples);
    assert!(
        (set.value + cfg.policy * set.policy - after).abs() < 1e-3,
        "{set:?} vs {after}"
    );
    assert!(set.top1 > 0.0 && set.top1 <= 1.0, "{set:?}");
    // With a zero base the classical loss is a constant one half's.
    assert!(
        (set.classical - std::f32::consts::LN_2).abs() < 0.01,
        "{set:?}"
    );
    assert!(
        after < before * 0.8,
        "loss {before} -> {after} (epochs {losses:?})"
    );
    assert!(losses.last() < losses.first(), "{losses:?}");
    let mut b = start.clone();
    train(&mut b, &samples, &cfg, |_, _, _| {});
    assert_eq!(a, b, "same seed, same network");
}

/// The classical evaluation's best gain is found where the targets' calibration puts it, the
/// losses keep their order (entropy <= fitted <= unfitted), and the trainer's gain moves there.
#[test]
fn the_classical_gain_is_fitted_to_the_targets() {
    let boards = random_boards(Rule::Freestyle, 400, 31);
    let samples: Vec<Sample> = boards
        .iter()
        .map(|b| {
            let base = (base_of(b) * 0.5).clamp(-3.0, 3.0) + 0.3;
            Sample {
                base,
                target: sigmoid(0.6 * base),
                ..classical_sample(b)
            }
        })
        .collect();
    let (gain, fit) = best_classical_gain(&samples);
    assert!((gain - 0.6).abs() <= 0.011, "gain {gain}");
    let zero = Network {
        features: vec![0.0; tables_of(Rule::Freestyle) * crate::nnue::ROWS * 4],
        w1: vec![0.0; 16],
        w2: vec![0.0; 4],
        ..Network::random(Rule::Freestyle, 4, 4, 1)
    };
    let set = set_loss(&zero, &samples);
    assert!(
        set.entropy <= set.classical_fit + 1e-6 && set.classical_fit < set.classical - 1e-3,
        "{set:?}"
    );
    assert!((set.classical_fit - fit).abs() < 1e-6, "{set:?}");
    // Training the value alone (no policy) moves the gain from 1 towards 0.6.
    let mut net = zero.clone();
    let cfg = TrainConfig {
        epochs: 30,
        batch: 32,
        lr: 0.01,
        policy: 0.0,
        rank: 0.0,
        fixed_gain: false,
        seed: 3,
    };
    let mut fixed = net.clone();
    train(&mut net, &samples, &cfg, |_, _, _| {});
    assert!(net.gain < 0.8, "gain {}", net.gain);
    // Unless it is fixed.
    let cfg = TrainConfig {
        fixed_gain: true,
        ..cfg
    };
    train(&mut fixed, &samples, &cfg, |_, _, _| {});
    assert_eq!(fixed.gain, 1.0);
}

/// The ranking loss trains the value to put a chosen child first: with the best child the one
/// whose move has the highest threat score, the ranking loss falls and the share ranked first
/// rises on the training set.
#[test]
fn the_ranking_loss_learns_to_rank_children() {
    let samples: Vec<Sample> = random_boards(Rule::Freestyle, 200, 41)
        .into_iter()
        .map(|mut b| {
            let me = b.side_to_move();
            let mut cands: Vec<Pos> = b.candidates().collect();
            cands.sort_by_key(|&p| std::cmp::Reverse(b.score(p, me)));
            cands.truncate(5);
            let children = cands
                .into_iter()
                .map(|p| Child::of(tables_of(Rule::Freestyle), &mut b, p))
                .collect();
            Sample {
                children,
                ..classical_sample(&b)
            }
        })
        .collect();
    let mut net = Network::random(Rule::Freestyle, 8, 8, 5);
    let before = set_loss(&net, &samples);
    let cfg = TrainConfig {
        epochs: 15,
        batch: 16,
        lr: 0.01,
        policy: 0.0,
        rank: 1.0,
        fixed_gain: false,
        seed: 2,
    };
    train(&mut net, &samples, &cfg, |_, _, _| {});
    let after = set_loss(&net, &samples);
    assert!(
        after.rank < before.rank * 0.9 && after.rank_top1 > before.rank_top1,
        "{before:?} -> {after:?}"
    );
}

/// Quiet samples are the samples of the quiet positions: as many as the positions where
/// neither side has a five to make or stop, the opponent no open three, and the best move is
/// no threat; each one of the full set's; and a game with threats has fewer of them.
#[test]
fn quiet_samples_are_the_quiet_positions() {
    use crate::datagen::PlyRecord;
    use crate::search::threats::{find_five, has_open_four, static_order_key, RANK_UNIT};
    let mut rng = StdRng::seed_from_u64(8);
    let mut b = Board::new(15, Rule::Freestyle).expect("board");
    let centre = Pos::new(7, 7, 15);
    let mut plies = vec![PlyRecord {
        mv: centre,
        best: centre,
        score: 0,
        kind: PlyKind::Opening,
    }];
    b.play_unchecked(centre);
    let mut expected = 0;
    for i in 0..60 {
        let me = b.side_to_move();
        let mut cands: Vec<Pos> = b.candidates().collect();
        // The game ends before a five can be made (no five is ever on the board).
        if cands.is_empty() || find_five(&b, me).is_some() {
            break;
        }
        // Every third move the static ordering's first (threats), else a random candidate.
        let mv = if i % 3 == 0 {
            cands.sort_by_key(|&p| std::cmp::Reverse(static_order_key(&b, p, me)));
            cands[0]
        } else {
            cands[rng.gen_range(0..cands.len())]
        };
        let quiet = find_five(&b, me).is_none()
            && find_five(&b, me.opponent()).is_none()
            && !has_open_four(&b, me.opponent())
            && static_order_key(&b, mv, me) < RANK_UNIT;
        expected += usize::from(quiet);
        plies.push(PlyRecord {
            mv,
            best: mv,
            score: 10,
            kind: PlyKind::Searched,
        });
        b.play_unchecked(mv);
    }
    let game = GameRecord {
        rule: Rule::Freestyle,
        size: 15,
        result: None,
        plies,
    };
    let opts = |quiet| SampleOptions {
        lambda: 0.0,
        children: 3,
        seed: 1,
        quiet,
    };
    let all = samples_with(&game, &opts(false));
    let quiet = samples_with(&game, &opts(true));
    assert_eq!(quiet.len(), expected);
    assert!(
        !quiet.is_empty() && quiet.len() < all.len(),
        "{} of {}",
        quiet.len(),
        all.len()
    );
    for q in &quiet {
        assert!(
            all.iter().any(|a| a.cells == q.cells && a.table == q.table),
            "a quiet sample outside the full set"
        );
    }
}

/// Centring makes the value's mean zero per feature table on the samples, leaves each
/// sample's value otherwise as it was (shifted by its table's offset), and the reference
/// forward pass agrees with the samples' values after it.
#[test]
fn centring_zeroes_the_mean_value_per_table() {
    let boards = random_boards(Rule::Renju, 120, 51);
    let samples: Vec<Sample> = boards.iter().map(classical_sample).collect();
    let tables: std::collections::HashSet<u8> = samples.iter().map(|s| s.table).collect();
    assert_eq!(tables.len(), 2, "both colours to move");
    let mut net = Network::random(Rule::Renju, 8, 4, 9);
    net.b2 = 0.7;
    let before: Vec<f32> = samples.iter().map(|s| value_of(&net, s)).collect();
    centre(&mut net, &samples);
    for t in 0..2u8 {
        let vs: Vec<f32> = samples
            .iter()
            .filter(|s| s.table == t)
            .map(|s| value_of(&net, s))
            .collect();
        let mean = vs.iter().sum::<f32>() / vs.len() as f32;
        assert!(mean.abs() < 1e-4, "table {t}: mean {mean}");
    }
    assert!(net.offsets[0] != net.offsets[1], "{:?}", net.offsets);
    for ((s, b), board) in samples.iter().zip(&before).zip(&boards) {
        let a = value_of(&net, s);
        assert!((b - net.offsets[usize::from(s.table)] - a).abs() < 1e-4);
        assert!((net.forward(board).value - a).abs() < 1e-4);
    }
}
