//! Pattern codes and the evaluation's weight tables indexed by them.
//!
//! The *pattern code* of an empty cell for one colour is the multiset of its four line
//! patterns, with the directions forgotten: [`CODES`] = C(13, 4) = 715 codes, code 0 being
//! "nothing in any line". Everything the combined [`super::Class`] says is a function of the
//! code, and the code says more (a four with an open two beside it, two closed threes, ...).
//! Renju black's certain fouls (an overline or two fours) are codes of their own.
//!
//! [`CodeWeights`] holds, per rule, one weight per code for each colour and each *role* (the
//! side to move, [`MOVER`], or the side that just moved, [`WAITER`]), plus a table over the
//! combination of the two sides' strongest threats (`crate::eval::evaluate_code` sums them).
//! The weights are fitted
//! offline (`renju-engine tune`) and embedded from `src/pattern/weights/<rule>.txt` (format in
//! [`CodeWeights::parse`]), so a build is deterministic and the bench signature pins them.

use super::table::{cell_key_patterns, CELL_KEYS};
use super::{combine, Pattern, CLASS_COUNT};
use crate::types::{Color, Rule};
use std::sync::OnceLock;

/// Number of pattern codes.
pub const CODES: usize = 715;
/// Role index of the side to move.
pub const MOVER: usize = 0;
/// Role index of the side that just moved.
pub const WAITER: usize = 1;
/// Number of threat levels of one side in the combination table (see `crate::eval`).
pub const LEVELS: usize = 8;

/// The code of a cell key (see [`super::table::cell_key`]): its four patterns sorted.
#[must_use]
pub fn code_of_key(key: usize) -> usize {
    usize::from(maps().0[key])
}

/// The four patterns of a code, weakest first.
#[must_use]
pub fn code_patterns(code: usize) -> [Pattern; 4] {
    cell_key_patterns(maps().1[code].into())
}

/// (code of each cell key, smallest cell key of each code).
fn maps() -> &'static (Vec<u16>, Vec<u16>) {
    static MAPS: OnceLock<(Vec<u16>, Vec<u16>)> = OnceLock::new();
    MAPS.get_or_init(|| {
        // Sorted keys: digits non-increasing from digit 3 (most significant) to digit 0.
        let sorted_key = |k: usize| {
            let mut d = [k % 10, (k / 10) % 10, (k / 100) % 10, k / 1000];
            d.sort_unstable();
            d[0] + 10 * d[1] + 100 * d[2] + 1000 * d[3]
        };
        let mut code_of_sorted = vec![u16::MAX; CELL_KEYS];
        let mut first_key = Vec::with_capacity(CODES);
        for (k, slot) in code_of_sorted.iter_mut().enumerate() {
            if sorted_key(k) == k {
                *slot = first_key.len() as u16;
                first_key.push(k as u16);
            }
        }
        assert_eq!(first_key.len(), CODES);
        let code = (0..CELL_KEYS)
            .map(|k| code_of_sorted[sorted_key(k)])
            .collect();
        (code, first_key)
    })
}

/// The colour slot of the weight tables: renju keeps black and white apart, the other rules
/// use black's tables for both colours.
#[inline]
#[must_use]
pub fn combo_slot(rule: Rule, c: Color) -> usize {
    if rule == Rule::Renju {
        c.index()
    } else {
        0
    }
}

/// The weights in use per rule (see [`CodeWeights::get`]).
static WEIGHTS: [OnceLock<CodeWeights>; 5] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];

/// Largest weight magnitude.
pub const MAX_WEIGHT: i32 = 30_000;

/// The evaluation weights of one rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeWeights {
    /// The rule.
    pub rule: Rule,
    /// Evaluation points per logistic unit: a score `s` for the side to move stands for a win
    /// probability of about `1 / (1 + exp(-s / scale))`.
    pub scale: i32,
    /// `cell[role][colour][code]`: the weight of one empty cell of that code for that colour
    /// when the colour has that role. Code 0 always weighs 0.
    pub cell: [[[i32; CODES]; 2]; 2],
    /// `combo[mover's colour][mover level][waiter level]`, the threat-combination term.
    pub combo: [[[i32; LEVELS]; LEVELS]; 2],
}

impl CodeWeights {
    /// All-zero weights of `rule` with `scale`.
    #[must_use]
    pub fn zero(scale: i32, rule: Rule) -> CodeWeights {
        let mut w = CodeWeights {
            rule,
            scale,
            cell: [[[0; CODES]; 2]; 2],
            combo: [[[0; LEVELS]; LEVELS]; 2],
        };
        w.refresh();
        w
    }

    /// Normalise after `cell` changed: code 0 weighs 0 and every weight is clamped to
    /// [`MAX_WEIGHT`].
    pub fn refresh(&mut self) {
        for role in 0..2 {
            for c in 0..2 {
                self.cell[role][c][0] = 0;
                for v in &mut self.cell[role][c] {
                    *v = (*v).clamp(-MAX_WEIGHT, MAX_WEIGHT);
                }
            }
        }
    }

    /// The embedded weights of `rule` (parsed once).
    ///
    /// # Panics
    /// If an embedded file does not parse (a test parses every one).
    #[must_use]
    pub fn get(rule: Rule) -> &'static CodeWeights {
        WEIGHTS[rule.index()].get_or_init(|| {
            CodeWeights::parse(embedded(rule), rule)
                .unwrap_or_else(|e| panic!("embedded weights of {rule}: {e}"))
        })
    }

    /// Play `rule` with the weights in `text` (the format of [`CodeWeights::parse`]) instead
    /// of the embedded ones, for the rest of the process: the protocol engine's `--weights`
    /// option, for tuning by play. Must come before anything evaluates a position of `rule`.
    ///
    /// # Errors
    /// The text does not parse, or `rule`'s weights are already in use.
    pub fn set_for_process(rule: Rule, text: &str) -> Result<(), String> {
        let w = CodeWeights::parse(text, rule)?;
        WEIGHTS[rule.index()]
            .set(w)
            .map_err(|_| format!("the {rule} weights are already in use"))
    }

    /// Parse the text format:
    ///
    /// ```text
    /// # comment lines (the command that made the file, the fit's losses, ...)
    /// scale 250
    /// cell <role> <colour> <code> <weight>   role: mover | waiter; colour: black | white | both
    /// combo <colour> <mover level> <waiter level> <weight>   colour: the mover's
    /// ```
    ///
    /// Weights are at most [`MAX_WEIGHT`] in magnitude. Entries not listed weigh 0; `both` sets black and white alike (the rules other than
    /// renju treat the colours the same).
    ///
    /// # Errors
    /// The first malformed line, with its number.
    pub fn parse(text: &str, rule: Rule) -> Result<CodeWeights, String> {
        let mut w = CodeWeights::zero(1, rule);
        let mut have_scale = false;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || format!("line {}: '{line}'", n + 1);
            let f: Vec<&str> = line.split_whitespace().collect();
            let num = |s: &str| s.parse::<i64>().map_err(|_| bad());
            match f.as_slice() {
                ["scale", s] => {
                    let s = num(s)?;
                    if !(1..=100_000).contains(&s) {
                        return Err(bad());
                    }
                    w.scale = s as i32;
                    have_scale = true;
                }
                ["cell", role, colour, code, weight] => {
                    let role = match *role {
                        "mover" => MOVER,
                        "waiter" => WAITER,
                        _ => return Err(bad()),
                    };
                    let colours = colour_slots(colour).ok_or_else(bad)?;
                    let code = num(code)?;
                    let weight = num(weight)?;
                    if !(0..CODES as i64).contains(&code) || weight.abs() > i64::from(MAX_WEIGHT) {
                        return Err(bad());
                    }
                    for &c in colours {
                        w.cell[role][c][code as usize] = weight as i32;
                    }
                }
                ["combo", colour, a, b, weight] => {
                    let colours = colour_slots(colour).ok_or_else(bad)?;
                    let (a, b, weight) = (num(a)?, num(b)?, num(weight)?);
                    let lv = 0..LEVELS as i64;
                    if !lv.contains(&a) || !lv.contains(&b) || weight.abs() > i64::from(MAX_WEIGHT)
                    {
                        return Err(bad());
                    }
                    for &c in colours {
                        w.combo[c][a as usize][b as usize] = weight as i32;
                    }
                }
                _ => return Err(bad()),
            }
        }
        if !have_scale {
            return Err("no scale line".into());
        }
        w.refresh();
        Ok(w)
    }

    /// The text format of these weights (see [`CodeWeights::parse`]), headed by `comment`
    /// lines; `symmetric` writes one `both` entry per code (black's weights) instead of one per
    /// colour. Zero weights are left out.
    #[must_use]
    pub fn to_text(&self, comment: &[String], symmetric: bool) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        for c in comment {
            let _ = writeln!(s, "# {c}");
        }
        let _ = writeln!(s, "scale {}", self.scale);
        let colours: &[(usize, &str)] = if symmetric {
            &[(0, "both")]
        } else {
            &[(0, "black"), (1, "white")]
        };
        for (role, rname) in [(MOVER, "mover"), (WAITER, "waiter")] {
            for &(c, cname) in colours {
                for code in 1..CODES {
                    let v = self.cell[role][c][code];
                    if v != 0 {
                        let _ = writeln!(s, "cell {rname} {cname} {code} {v}");
                    }
                }
            }
        }
        for &(c, cname) in colours {
            for a in 0..LEVELS {
                for b in 0..LEVELS {
                    let v = self.combo[c][a][b];
                    if v != 0 {
                        let _ = writeln!(s, "combo {cname} {a} {b} {v}");
                    }
                }
            }
        }
        s
    }
}

impl CodeWeights {
    /// Whether every code of each class (for each role and colour) weighs the same and class
    /// `None` weighs 0: then the evaluation is a function of the class counts alone and needs no
    /// per-code sums (see [`KeyWeights::get`]).
    #[must_use]
    pub fn is_class_level(&self) -> bool {
        let mut first = [[[None; CLASS_COUNT]; 2]; 2];
        for role in [MOVER, WAITER] {
            for c in Color::ALL {
                for code in 0..CODES {
                    let class = combine(code_patterns(code), c, self.rule) as usize;
                    let x = self.cell[role][c.index()][code];
                    match first[role][c.index()][class] {
                        None => first[role][c.index()][class] = Some(x),
                        Some(y) if y != x => return false,
                        Some(_) => {}
                    }
                }
                if first[role][c.index()][0].unwrap_or(0) != 0 {
                    return false;
                }
            }
        }
        true
    }
}

/// Code weights re-indexed by cell key, the form the board sums incrementally: for each colour
/// and each of the [`CELL_KEYS`] keys, the weight of the key's code for that colour as the side
/// to move and as the side that just moved, plus the combination table by the mover's colour.
#[derive(Clone, Debug)]
pub struct KeyWeights {
    keys: [Box<[[i32; 2]; CELL_KEYS]>; 2],
    /// `combo[mover's colour index][mover level][waiter level]` (the colour slot already
    /// resolved: outside renju both colours read black's table).
    pub combo: [[[i32; LEVELS]; LEVELS]; 2],
}

impl KeyWeights {
    /// The key-indexed form of `w`.
    #[must_use]
    pub fn new(w: &CodeWeights) -> KeyWeights {
        let keys = Color::ALL.map(|c| {
            let v: Vec<[i32; 2]> = (0..CELL_KEYS)
                .map(|k| {
                    let code = code_of_key(k);
                    [
                        w.cell[MOVER][c.index()][code],
                        w.cell[WAITER][c.index()][code],
                    ]
                })
                .collect();
            v.into_boxed_slice().try_into().expect("CELL_KEYS entries")
        });
        KeyWeights {
            keys,
            combo: Color::ALL.map(|c| w.combo[combo_slot(w.rule, c)]),
        }
    }

    /// The key weights of the embedded weights of `rule`, or `None` when they are class-level
    /// ([`CodeWeights::is_class_level`]): then the board keeps no code sums and the evaluation
    /// reads its class counts, which give the same score faster.
    #[must_use]
    pub fn get(rule: Rule) -> Option<&'static KeyWeights> {
        static K: [OnceLock<Option<KeyWeights>>; 5] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        K[rule.index()]
            .get_or_init(|| {
                let w = CodeWeights::get(rule);
                (!w.is_class_level()).then(|| KeyWeights::new(w))
            })
            .as_ref()
    }

    /// `[mover weight, waiter weight]` of colour `c`'s cell key `key`.
    #[inline]
    #[must_use]
    pub fn pair(&self, c: Color, key: usize) -> [i32; 2] {
        self.keys[c.index()][key]
    }
}

/// The colour slots a weight line names: `black`, `white` or `both`.
fn colour_slots(name: &str) -> Option<&'static [usize]> {
    match name {
        "black" => Some(&[0]),
        "white" => Some(&[1]),
        "both" => Some(&[0, 1]),
        _ => None,
    }
}

/// The embedded weight file of `rule`.
#[must_use]
pub fn embedded(rule: Rule) -> &'static str {
    match rule {
        Rule::Freestyle => include_str!("weights/freestyle.txt"),
        Rule::Standard => include_str!("weights/standard.txt"),
        Rule::Renju => include_str!("weights/renju.txt"),
        Rule::Caro => include_str!("weights/caro.txt"),
        Rule::CaroOverline => include_str!("weights/caro-overline.txt"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::table::cell_key;

    #[test]
    fn codes_are_the_pattern_multisets() {
        // Every cell key maps to the code of its sorted patterns; codes are dense and distinct.
        let mut seen = vec![false; CODES];
        for k in 0..CELL_KEYS {
            let code = code_of_key(k);
            assert!(code < CODES);
            seen[code] = true;
            let mut a = cell_key_patterns(k);
            let mut b = code_patterns(code);
            a.sort();
            b.sort();
            assert_eq!(a, b, "key {k}");
            // Any permutation of the directions gives the same code.
            let p = cell_key_patterns(k);
            assert_eq!(code_of_key(cell_key([p[2], p[0], p[3], p[1]])), code);
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(code_of_key(0), 0);
    }

    #[test]
    fn every_embedded_file_parses_and_round_trips() {
        for rule in Rule::ALL {
            let w = CodeWeights::parse(embedded(rule), rule).unwrap();
            assert!(w.scale > 0);
            let sym = rule != Rule::Renju;
            if sym {
                assert_eq!(
                    w.cell,
                    [[w.cell[MOVER][0]; 2], [w.cell[WAITER][0]; 2]],
                    "{rule}"
                );
                assert_eq!(w.combo[0], w.combo[1], "{rule}");
            }
            let back = CodeWeights::parse(&w.to_text(&["x".into()], sym), rule).unwrap();
            assert_eq!(back, w);
        }
    }

    #[test]
    fn parse_rejects_bad_lines() {
        for bad in [
            "cell mover black 1 5",
            "scale 10\ncell mover red 1 5",
            "scale 10\ncell mover black 715 5",
            "scale 10\ncombo both 8 0 1",
            "scale 10\ncombo 1 0 1",
            "scale 10\nfoo",
            "scale 0",
        ] {
            assert!(CodeWeights::parse(bad, Rule::Renju).is_err(), "{bad}");
        }
        let w = CodeWeights::parse(
            "scale 10\ncell waiter both 3 -7\ncombo white 1 2 9",
            Rule::Renju,
        )
        .unwrap();
        assert_eq!(w.cell[WAITER][0][3], -7);
        assert_eq!(w.cell[WAITER][1][3], -7);
        assert_eq!(w.combo[1][1][2], 9);
        assert_eq!(w.combo[0][1][2], 0);
        assert!(CodeWeights::parse("scale 10\ncell mover black 3 30001", Rule::Renju).is_err());
    }
}
