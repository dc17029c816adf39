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
        let samples: Vec<Sample> = random_boards(rule, 6, 9)
            .iter()
            .map(classical_sample)
            .collect();
        let loss = |net: &Network| -> f64 {
            let mut g = vec![0.0f32; net.layout().len];
            samples
                .iter()
                .map(|s| f64::from(loss_and_grad(net, s, 0.5, &mut g)))
                .sum()
        };
        let mut g = vec![0.0f32; net.layout().len];
        for s in &samples {
            let _ = loss_and_grad(&net, s, 0.5, &mut g);
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
        seed: 1,
    };
    let start = Network::random(Rule::Freestyle, 8, 8, 2);
    let before = mean_loss(&start, &samples, cfg.policy);
    let mut a = start.clone();
    let mut losses = Vec::new();
    train(&mut a, &samples, &cfg, |_, l, _| losses.push(l));
    let after = mean_loss(&a, &samples, cfg.policy);
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
