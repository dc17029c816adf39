use super::*;
use crate::types::Pos;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn dot(f: &[(u32, i32)], w: &[i64]) -> i64 {
    f.iter().map(|&(i, n)| i64::from(n) * w[i as usize]).sum()
}

/// Random positions of every rule: random legal stones near the centre, no five.
fn random_boards(seed: u64, n: usize) -> Vec<Board> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let rule = Rule::ALL[rng.gen_range(0..Rule::ALL.len())];
        let size = [15, 20, 9][rng.gen_range(0..3)];
        let mut b = Board::new(size, rule).unwrap();
        let stones = rng.gen_range(0..40);
        for _ in 0..stones {
            let c = size as i32 / 2;
            let r = c.min(5);
            let p = b.pos(
                (c + rng.gen_range(-r..=r)) as usize,
                (c + rng.gen_range(-r..=r)) as usize,
            );
            if crate::rules::try_play(&mut b, p).is_err() {
                continue;
            }
            if crate::rules::is_win(&b, p) {
                b.undo();
                break;
            }
        }
        out.push(b);
    }
    out
}

#[test]
fn code_evaluation_is_the_feature_dot_product() {
    for b in random_boards(11, 300) {
        for w in [
            CodeWeights::get(b.rule()),
            &hand_code_weights(b.rule(), 100),
        ] {
            assert_eq!(
                i64::from(evaluate_code(&b, w)),
                dot(&features(&b), &weight_vector(w)),
                "{:?}\n{b}",
                b.rule()
            );
        }
    }
}

#[test]
fn class_level_files_are_told_apart() {
    for rule in Rule::ALL {
        let w = CodeWeights::get(rule);
        // The board keeps code sums exactly when the embedded weights are per code.
        assert_eq!(
            crate::pattern::code::KeyWeights::get(rule).is_none(),
            w.is_class_level(),
            "{rule}"
        );
    }
    let mut w = hand_code_weights(Rule::Renju, 100);
    assert!(w.is_class_level());
    w.cell[MOVER][0][5] += 1;
    assert!(!w.is_class_level());
}

/// Code-level weights of `rule` with every weight random (seeded): no two codes of a class
/// alike, both colours and roles apart, a random combination table.
fn random_code_weights(rule: Rule, seed: u64) -> CodeWeights {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut w = CodeWeights::zero(100, rule);
    for role in 0..2 {
        for c in 0..2 {
            for code in 1..CODES {
                w.cell[role][c][code] = rng.gen_range(-500..=500);
            }
        }
    }
    for slot in 0..2 {
        for a in 0..LEVELS {
            for b in 0..LEVELS {
                w.combo[slot][a][b] = rng.gen_range(-2000..=2000);
            }
        }
    }
    w.refresh();
    w
}

#[test]
fn incremental_code_sums_equal_the_recomputed_evaluation() {
    // Per-code weights: the board sums them in play/undo; the O(1) evaluation must equal
    // the slow per-cell sum after every play and every undo, and the board's own check
    // must agree with its recomputation.
    let mut rng = StdRng::seed_from_u64(21);
    for (i, rule) in Rule::ALL.into_iter().enumerate() {
        let cw = random_code_weights(rule, 100 + i as u64);
        assert!(!cw.is_class_level());
        let kw: &'static crate::pattern::code::KeyWeights =
            Box::leak(Box::new(crate::pattern::code::KeyWeights::new(&cw)));
        for size in [15, 20, 7] {
            let mut b = Board::with_key_weights(size, rule, Some(kw)).unwrap();
            assert_eq!(evaluate(&b), evaluate_code(&b, &cw));
            for _ in 0..300 {
                let undo = b.stone_count() > 0 && rng.gen_range(0..4) == 0;
                if undo {
                    b.undo();
                } else {
                    let empty: Vec<Pos> = b.empty_cells().collect();
                    if empty.is_empty() {
                        break;
                    }
                    if rng.gen_range(0..10) == 0 {
                        b.pass();
                    } else {
                        b.play_unchecked(empty[rng.gen_range(0..empty.len())]);
                    }
                }
                b.check_invariants().unwrap();
                assert_eq!(evaluate(&b), evaluate_code(&b, &cw), "{rule}\n{b}");
            }
        }
    }
}

#[test]
fn embedded_weights_give_one_evaluation_either_way() {
    // A board made to keep sums of the embedded weights evaluates as the default board.
    let kws = Rule::ALL.map(|rule| crate::pattern::code::KeyWeights::new(CodeWeights::get(rule)));
    let kws: &'static [crate::pattern::code::KeyWeights] = Box::leak(Box::new(kws));
    for b in random_boards(14, 200) {
        let rule = b.rule();
        let kw = &kws[rule.index()];
        let mut s = Board::with_key_weights(b.size(), rule, Some(kw)).unwrap();
        for (p, c) in b.history() {
            if p.is_pass() {
                s.pass();
            } else {
                s.put_unchecked(p, c);
            }
        }
        assert_eq!(evaluate(&s), evaluate(&b), "{rule}\n{b}");
    }
}

#[test]
fn embedded_weights_evaluate_as_the_engine_does() {
    // While play uses the class counts, the embedded code weights must say the same.
    for b in random_boards(13, 300) {
        assert_eq!(
            evaluate_code(&b, CodeWeights::get(b.rule())),
            evaluate(&b),
            "{:?}\n{b}",
            b.rule()
        );
    }
}

#[test]
fn hand_weights_in_code_form_equal_the_class_count_evaluation() {
    for b in random_boards(12, 300) {
        let w = weight_vector(&hand_code_weights(b.rule(), 100));
        // The code form has no combination term: leave the combination feature out.
        let f: Vec<(u32, i32)> = features(&b)
            .into_iter()
            .filter(|&(i, _)| (i as usize) < 4 * CODES)
            .collect();
        assert_eq!(
            i64::from(evaluate_with(&b, &WEIGHTS)),
            dot(&f, &w),
            "{:?}\n{b}",
            b.rule()
        );
    }
}

#[test]
fn weight_vectors_round_trip() {
    for rule in Rule::ALL {
        let w = CodeWeights::get(rule);
        let v = weight_vector(w);
        assert_eq!(&from_vector(&v, rule, w.scale), w, "{rule}");
    }
}

#[test]
fn evaluation_is_antisymmetric_in_the_side_to_move_for_symmetric_rules() {
    // A position and its colour-swapped twin (one pass apart) evaluate as opposites for the
    // mover weights; here only the sign convention is checked: a bigger own threat count
    // evaluates higher.
    let mut b = Board::new(15, Rule::Freestyle).unwrap();
    for (x, y) in [(7, 7), (0, 0), (8, 7), (0, 2)] {
        b.play_unchecked(Pos::new(x, y, 15));
    }
    // Black (to move) has an open two on row 7; white has scattered stones.
    assert!(evaluate_with(&b, &WEIGHTS) > 0);
    b.pass();
    assert!(evaluate_with(&b, &WEIGHTS) < 0);
}
