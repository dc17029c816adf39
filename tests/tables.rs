//! Exhaustive table checks: every line key (walls anywhere) and every cell key of every rule
//! against the slow definitions.

use rayon::prelude::*;
use renju_engine::pattern::classify::{self, CENTER, EMPTY, HALF, WALL, WINDOW};
use renju_engine::pattern::table::{
    self, compact, compact_to_key, info_class, info_score, Tables, CELL_KEYS, COMPACT_KEYS,
    LINE_KEYS,
};
use renju_engine::pattern::{combine, score, Pattern};
use renju_engine::types::{Color, Rule};

/// Decode a key bit by bit, independently of the table module: cell `i` of the left half sits
/// in bits `2i`, cell `HALF + 1 + i` in bits `2(HALF + i)`.
fn decode(key: usize) -> [u8; WINDOW] {
    let mut l = [EMPTY; WINDOW];
    for (i, slot) in l.iter_mut().enumerate() {
        if i == CENTER {
            continue;
        }
        let bit = if i < CENTER { 2 * i } else { 2 * (i - 1) };
        *slot = ((key >> bit) & 3) as u8;
    }
    l
}

/// The canonical form of a window, written plainly: walking out from the centre on each side,
/// every cell from the first wall on is a wall (nothing beyond a wall is on a line through the
/// centre).
fn canonical(l: &[u8; WINDOW]) -> [u8; WINDOW] {
    let mut c = *l;
    for side in [-1i32, 1] {
        let mut wall = false;
        for k in 1..=HALF as i32 {
            let i = (CENTER as i32 + side * k) as usize;
            wall |= l[i] == WALL;
            if wall {
                c[i] = WALL;
            }
        }
    }
    c
}

/// Every line key (walls anywhere: the board's edge and the neutral cells on it) reads the
/// classifier's verdict on the window exactly as it is, so reading the canonical key's entry
/// loses nothing.
#[test]
fn every_line_key_matches_the_classifier() {
    for rule in Rule::ALL {
        let t = Tables::get(rule);
        let ok: Vec<bool> = (0..LINE_KEYS)
            .into_par_iter()
            .map(|key| {
                let l = decode(key);
                for c in Color::ALL {
                    let want = classify::classify(&l, c, rule);
                    assert_eq!(
                        t.pattern(key, c),
                        want,
                        "{rule} {c} key {key:#x} window {l:?}"
                    );
                }
                if rule == Rule::Renju {
                    let mut placed = l;
                    placed[CENTER] = classify::BLACK;
                    let want = if classify::classify(&l, Color::Black, rule) == Pattern::OpenThree {
                        classify::three_extensions(&placed, Color::Black, rule)
                    } else {
                        0
                    };
                    assert_eq!(
                        t.three_extensions(key),
                        want,
                        "renju extensions of key {key:#x}"
                    );
                    // An open three always has at least one extension, and only then.
                    assert_eq!(
                        want != 0,
                        t.pattern(key, Color::Black) == Pattern::OpenThree
                    );
                }
                canonical(&l) == l
            })
            .collect();
        // Walls: 0..=5 on each side, the rest free: (3^5 + 3^4 + ... + 1)^2 canonical windows.
        let per_side: usize = (0..=HALF).map(|w| 3usize.pow((HALF - w) as u32)).sum();
        assert_eq!(
            ok.iter().filter(|&&c| c).count(),
            per_side * per_side,
            "{rule}"
        );
    }
}

#[test]
fn compact_index_is_one_to_one_on_canonical_keys_and_canonicalises_the_rest() {
    let encode = |l: &[u8; WINDOW]| {
        (0..WINDOW).filter(|&i| i != CENTER).fold(0usize, |k, i| {
            let bit = if i < CENTER { 2 * i } else { 2 * (i - 1) };
            k | (l[i] as usize) << bit
        })
    };
    let mut seen = vec![false; COMPACT_KEYS];
    for key in 0..LINE_KEYS {
        let l = decode(key);
        let idx = compact(key);
        assert!(idx < COMPACT_KEYS);
        if canonical(&l) == l {
            assert!(!seen[idx], "two canonical keys share index {idx}");
            seen[idx] = true;
            assert_eq!(compact_to_key(idx), Some(key));
        } else {
            let canon = encode(&canonical(&l));
            assert_eq!(idx, compact(canon), "key {key:#x} not read as {canon:#x}");
        }
    }
}

#[test]
fn every_cell_key_matches_combine() {
    for rule in Rule::ALL {
        let t = Tables::get(rule);
        for key in 0..CELL_KEYS {
            let pats = table::cell_key_patterns(key);
            if pats
                .iter()
                .enumerate()
                .any(|(d, &p)| (key >> (4 * d)) & 0xF != p as usize)
            {
                continue; // a nibble above the last pattern: never produced by a board
            }
            assert_eq!(table::cell_key(pats), key);
            for c in Color::ALL {
                let info = t.cell_info(key, c);
                let class = combine(pats, c, rule);
                assert_eq!(info_class(info), class, "{rule} {c} {pats:?}");
                assert_eq!(info_score(info), score(pats, class), "{rule} {c} {pats:?}");
            }
        }
    }
}

#[test]
fn symmetric_rules_treat_colours_alike() {
    // Outside renju the rules do not depend on colour: swapping the stones swaps the patterns.
    for rule in [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Caro,
        Rule::CaroOverline,
    ] {
        let t = Tables::get(rule);
        for key in 0..LINE_KEYS {
            let mut swapped = 0usize;
            for i in 0..2 * HALF {
                let v = (key >> (2 * i)) & 3;
                let s = match v {
                    1 => 2,
                    2 => 1,
                    x => x,
                };
                swapped |= s << (2 * i);
            }
            assert_eq!(
                t.pattern(key, Color::Black),
                t.pattern(swapped, Color::White)
            );
        }
    }
}
