use super::*;
use renju_engine::pattern::code::LEVELS;

#[test]
fn the_start_values_give_back_the_base_weights() {
    // The embedded files are class-level: reading the class weights and writing them back
    // must change nothing; a changed value must reach every code of its class.
    for rule in Rule::ALL {
        let base = CodeWeights::parse(embedded(rule), rule).unwrap();
        let start = keys_and_values(&base, rule);
        let keys: Vec<Key> = start.iter().map(|(k, _)| *k).collect();
        let mut theta: Vec<f64> = start.iter().map(|(_, v)| *v).collect();
        assert_eq!(weights_with(&base, rule, &keys, &theta), base, "{rule}");
        let i = keys.iter().position(|k| k.class == 5).expect("open three");
        theta[i] += 7.0;
        let w = weights_with(&base, rule, &keys, &theta);
        let k = keys[i];
        for c in Color::ALL {
            if combo_slot(rule, c) != k.slot {
                continue;
            }
            for code in 0..CODES {
                let class = combine(code_patterns(code), c, rule) as usize;
                let want = base.cell[k.role][c.index()][code] + if class == 5 { 7 } else { 0 };
                assert_eq!(w.cell[k.role][c.index()][code], want, "{rule} {c} {code}");
            }
        }
    }
}

#[test]
fn a_combination_only_space_reads_back_the_base() {
    // `--combos-only`: no class keys; the values are the combination table alone.
    for rule in Rule::ALL {
        let base = CodeWeights::parse(embedded(rule), rule).unwrap();
        let combos = combo_keys(rule);
        let space = Space::Weights {
            base: Box::new(base.clone()),
            keys: Vec::new(),
            combos: combos.clone(),
        };
        let theta = space.start();
        assert_eq!(theta.len(), combos.len(), "{rule}");
        assert_eq!(
            full_weights(&base, rule, &[], &combos, &theta),
            base,
            "{rule}"
        );
    }
}

#[test]
fn the_combination_weights_read_back_and_reach_their_slot() {
    for rule in Rule::ALL {
        let base = CodeWeights::parse(embedded(rule), rule).unwrap();
        let keys: Vec<Key> = keys_and_values(&base, rule)
            .iter()
            .map(|(k, _)| *k)
            .collect();
        let combos = combo_keys(rule);
        let slots = if rule == Rule::Renju { 2 } else { 1 };
        assert_eq!(combos.len(), slots * 49, "{rule}");
        let space = Space::Weights {
            base: Box::new(base.clone()),
            keys: keys.clone(),
            combos: combos.clone(),
        };
        let mut theta = space.start();
        assert_eq!(theta.len(), keys.len() + combos.len());
        assert_eq!(
            full_weights(&base, rule, &keys, &combos, &theta),
            base,
            "{rule}"
        );
        // The last combination weight (the second slot's in renju) moves alone.
        let (slot, a, b) = *combos.last().unwrap();
        *theta.last_mut().unwrap() += 11.0;
        let w = full_weights(&base, rule, &keys, &combos, &theta);
        for c in Color::ALL {
            for x in 0..LEVELS {
                for y in 0..LEVELS {
                    let hit = combo_slot(rule, c) == slot && (x, y) == (a, b);
                    let want = base.combo[c.index()][x][y] + if hit { 11 } else { 0 };
                    assert_eq!(w.combo[c.index()][x][y], want, "{rule} {c} {x} {y}");
                }
            }
        }
        assert_eq!(w.cell, base.cell, "{rule}");
    }
}
