//! Game records (Piskvork psq and SGF) and the JSON summary, written as each game ends.

use crate::game::GameRecord;
use crate::json::{self, Value};
use crate::stats::{elo_interval, los, Sprt, Wld};
use renju_engine::types::{Color, Rule};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// A Piskvork `.psq` record: header `Piskvorky NxN, 11:11, 0`, one `x,y,ms` line per stone
/// (1-based coordinates, as Piskvork writes them), `-1`, then the black and white engine names
/// and a final result comment line.
#[must_use]
pub fn psq(rec: &GameRecord, size: usize, names: [&str; 2], result: &str) -> String {
    let mut s = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    for &(p, ms) in &rec.moves {
        if p.is_pass() {
            continue;
        }
        let _ = writeln!(s, "{},{},{ms}", p.x(size) + 1, p.y(size) + 1);
    }
    let _ = writeln!(s, "-1\n{}\n{}\n{result}", names[0], names[1]);
    s
}

/// An SGF record (`GM[4]`, coordinates `a..` from the top-left corner).
#[must_use]
pub fn sgf(rec: &GameRecord, size: usize, rule: Rule, names: [&str; 2], reason: &str) -> String {
    let re = match rec.winner {
        Some(Color::Black) => "B+",
        Some(Color::White) => "W+",
        None => "0",
    };
    let esc = |t: &str| t.replace('\\', "\\\\").replace(']', "\\]");
    let mut s = format!(
        "(;GM[4]FF[4]CA[UTF-8]SZ[{size}]RU[{rule}]PB[{}]PW[{}]RE[{re}]C[{}]",
        esc(names[0]),
        esc(names[1]),
        esc(reason)
    );
    let letter = |v: usize| (b'a' + v as u8) as char;
    for (i, &(p, _)) in rec.moves.iter().enumerate() {
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        if p.is_pass() {
            let _ = write!(s, ";{c}[]");
        } else {
            let _ = write!(s, ";{c}[{}{}]", letter(p.x(size)), letter(p.y(size)));
        }
    }
    s.push(')');
    s.push('\n');
    s
}

/// Write `text` to `path` atomically (a temporary file renamed over it), so a run killed half
/// way never leaves a torn file.
///
/// # Errors
/// I/O errors.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

/// Escape a string for JSON.
#[must_use]
pub fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn json_num(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.2}")
    } else {
        "null".to_string()
    }
}

/// The summary: games played, per pair W-L-D with Elo, its 95% interval and LOS (and, where
/// `pair_reasons` has the pair's entry, its decisive games by reason: `a_lost_by`, `b_lost_by`),
/// games by the winner's colour (`[black, white, drawn]`), per pair its game pairs by the first engine's
/// points (0, 0.5, 1, 1.5, 2), and losses by reason.
#[must_use]
pub fn summary_json(
    games: usize,
    pairs: &[(String, String, Wld)],
    pair_reasons: &[[BTreeMap<String, u32>; 2]],
    colours: [u32; 3],
    pentanomial: &[[u32; 5]],
    losses_by_reason: &BTreeMap<String, u32>,
    sprt: Option<(f64, f64, f64, &str)>,
) -> String {
    let mut s = format!("{{\n  \"games\": {games},\n  \"pairs\": [");
    for (i, (a, b, w)) in pairs.iter().enumerate() {
        let (elo, lo, hi) = elo_interval(w).unwrap_or((0.0, f64::NAN, f64::NAN));
        let _ = write!(
            s,
            "{}\n    {{\"a\": {}, \"b\": {}, \"wins\": {}, \"losses\": {}, \"draws\": {}, \"elo\": {}, \"elo_ci95\": [{}, {}], \"los\": {}}}",
            if i == 0 { "" } else { "," },
            json_str(a),
            json_str(b),
            w.wins,
            w.losses,
            w.draws,
            json_num(elo),
            json_num(lo),
            json_num(hi),
            json_num(los(w))
        );
        if let Some([a_lost, b_lost]) = pair_reasons.get(i) {
            s.pop();
            let _ = write!(
                s,
                ", \"a_lost_by\": {}, \"b_lost_by\": {}}}",
                reasons_json(a_lost),
                reasons_json(b_lost)
            );
        }
    }
    let _ = write!(
        s,
        "\n  ],\n  \"colours\": {{\"black\": {}, \"white\": {}, \"drawn\": {}}},\n  \"pentanomial\": [{}],",
        colours[0],
        colours[1],
        colours[2],
        pentanomial
            .iter()
            .map(|p| format!("[{}, {}, {}, {}, {}]", p[0], p[1], p[2], p[3], p[4]))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = write!(
        s,
        "\n  \"losses_by_reason\": {}",
        reasons_json(losses_by_reason)
    );
    if let Some((llr, lo, hi, status)) = sprt {
        let _ = write!(
            s,
            ",\n  \"sprt\": {{\"llr\": {}, \"lower\": {}, \"upper\": {}, \"status\": {}}}",
            json_num(llr),
            json_num(lo),
            json_num(hi),
            json_str(status)
        );
    }
    s.push_str("\n}\n");
    s
}

/// Counts by reason as a JSON object.
fn reasons_json(m: &BTreeMap<String, u32>) -> String {
    let items: Vec<String> = m
        .iter()
        .map(|(k, v)| format!("{}: {v}", json_str(k)))
        .collect();
    format!("{{{}}}", items.join(", "))
}

/// A match summary read back from `summary.json` (what [`summary_json`] writes), for adding
/// matches of the same pairing together (`combine`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Per pair of engines: the first engine's name, the second's, the first's W-L-D.
    pub pairs: Vec<(String, String, Wld)>,
    /// Per pair, the decisive games by reason (the first engine's losses, the second's); empty
    /// for a summary written before the arena counted them per pair.
    pub pair_reasons: Vec<[BTreeMap<String, u32>; 2]>,
    /// Games won by black, by white, drawn.
    pub colours: [u32; 3],
    /// Per pair of engines with a completed game pair: game pairs by the first engine's points.
    pub pentanomial: Vec<[u32; 5]>,
    /// Decisive games by reason.
    pub losses_by_reason: BTreeMap<String, u32>,
}

/// Read a `summary.json` (the SPRT member, if any, is ignored: it is recomputed from the game
/// pairs when matches are combined).
///
/// # Errors
/// Malformed JSON or a missing or malformed member.
pub fn parse_summary(text: &str) -> Result<Summary, String> {
    let v = json::parse(text)?;
    let count = |v: &Value, what: &str| v.count().ok_or_else(|| format!("summary: bad {what}"));
    let member = |v: &'_ Value, k: &str| -> Result<Value, String> {
        v.get(k)
            .cloned()
            .ok_or_else(|| format!("summary: no \"{k}\""))
    };
    let games = count(&member(&v, "games")?, "games")? as usize;
    let mut pairs = Vec::new();
    let mut pair_reasons = Vec::new();
    for p in member(&v, "pairs")?.array().ok_or("summary: bad pairs")? {
        let name = |k: &str| -> Result<String, String> {
            Ok(member(p, k)?
                .str()
                .ok_or_else(|| format!("summary: bad pair member {k}"))?
                .to_string())
        };
        let w = Wld {
            wins: count(&member(p, "wins")?, "wins")?,
            losses: count(&member(p, "losses")?, "losses")?,
            draws: count(&member(p, "draws")?, "draws")?,
        };
        pairs.push((name("a")?, name("b")?, w));
        if let (Some(a), Some(b)) = (p.get("a_lost_by"), p.get("b_lost_by")) {
            pair_reasons.push([reasons_of(a)?, reasons_of(b)?]);
        }
    }
    if !pair_reasons.is_empty() && pair_reasons.len() != pairs.len() {
        return Err("summary: losses by reason for some pairs only".into());
    }
    let c = member(&v, "colours")?;
    let colours = [
        count(&member(&c, "black")?, "colours")?,
        count(&member(&c, "white")?, "colours")?,
        count(&member(&c, "drawn")?, "colours")?,
    ];
    let mut pentanomial = Vec::new();
    for row in member(&v, "pentanomial")?
        .array()
        .ok_or("summary: bad pentanomial")?
    {
        let row = row.array().ok_or("summary: bad pentanomial row")?;
        if row.len() != 5 {
            return Err("summary: a pentanomial row is not five counts".into());
        }
        let mut r = [0u32; 5];
        for (slot, x) in r.iter_mut().zip(row) {
            *slot = count(x, "pentanomial count")?;
        }
        pentanomial.push(r);
    }
    let losses_by_reason = reasons_of(&member(&v, "losses_by_reason")?)?;
    Ok(Summary {
        games,
        pairs,
        pair_reasons,
        colours,
        pentanomial,
        losses_by_reason,
    })
}

/// A JSON object of counts by reason.
fn reasons_of(v: &Value) -> Result<BTreeMap<String, u32>, String> {
    let Value::Object(m) = v else {
        return Err("summary: bad losses by reason".into());
    };
    let mut out = BTreeMap::new();
    for (k, x) in m {
        let n = x.count().ok_or("summary: bad reason count")?;
        out.insert(k.clone(), n);
    }
    Ok(out)
}

impl Summary {
    /// Add the games of `other`, a match of the same pairings (the same number of engine pairs
    /// in the same order; the names are taken from `self` — a match of one revision against
    /// another and of a later revision with the same engine may be added on purpose).
    ///
    /// # Errors
    /// The pairings differ in number.
    pub fn add(&mut self, other: &Summary) -> Result<(), String> {
        if other.games == 0 {
            return Ok(());
        }
        if self.games == 0 {
            *self = other.clone();
            return Ok(());
        }
        if self.pairs.len() != other.pairs.len()
            || self.pentanomial.len() != other.pentanomial.len()
        {
            return Err("the matches have different pairings".into());
        }
        self.games += other.games;
        for (a, b) in self.pairs.iter_mut().zip(&other.pairs) {
            a.2.wins += b.2.wins;
            a.2.losses += b.2.losses;
            a.2.draws += b.2.draws;
        }
        for (a, b) in self.colours.iter_mut().zip(other.colours) {
            *a += b;
        }
        for (a, b) in self.pentanomial.iter_mut().zip(&other.pentanomial) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        for (k, n) in &other.losses_by_reason {
            *self.losses_by_reason.entry(k.clone()).or_insert(0) += n;
        }
        if self.pair_reasons.len() == other.pair_reasons.len() {
            for (a, b) in self.pair_reasons.iter_mut().zip(&other.pair_reasons) {
                for (side, other_side) in a.iter_mut().zip(b) {
                    for (k, n) in other_side {
                        *side.entry(k.clone()).or_insert(0) += n;
                    }
                }
            }
        } else {
            // One of them was written before the arena counted reasons per pair: the sum
            // cannot have them.
            self.pair_reasons.clear();
        }
        Ok(())
    }

    /// The summary as `summary.json`, with the SPRT of the first pair's game pairs when `sprt`
    /// is given (the decision is the LLR's against the bounds now).
    #[must_use]
    pub fn to_json(&self, sprt: Option<Sprt>) -> String {
        let state = sprt.map(|s| {
            let penta = self.pentanomial.first().copied().unwrap_or_default();
            let llr = s.llr_pairs(&penta);
            let (lo, hi) = s.bounds();
            (llr, lo, hi, format!("{:?}", s.decide(llr)))
        });
        summary_json(
            self.games,
            &self.pairs,
            &self.pair_reasons,
            self.colours,
            &self.pentanomial,
            &self.losses_by_reason,
            state
                .as_ref()
                .map(|(l, lo, hi, st)| (*l, *lo, *hi, st.as_str())),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::parse_sprt;

    fn sample(k: u32) -> Summary {
        Summary {
            games: 10 * k as usize,
            pairs: vec![(
                "/bin/a \"x\" \\y".to_string(),
                "b --param q=1".to_string(),
                Wld {
                    wins: 5 * k,
                    losses: 3 * k,
                    draws: 2 * k,
                },
            )],
            pair_reasons: vec![[
                [("five".to_string(), 3 * k)].into_iter().collect(),
                [("five".to_string(), 4 * k), ("time".to_string(), k)]
                    .into_iter()
                    .collect(),
            ]],
            colours: [4 * k, 4 * k, 2 * k],
            pentanomial: vec![[k, 0, 2 * k, k, k]],
            losses_by_reason: [("five".to_string(), 7 * k), ("time".to_string(), k)]
                .into_iter()
                .collect(),
        }
    }

    #[test]
    fn a_summary_reads_back_as_written() {
        let sp = parse_sprt("0,10").unwrap();
        for s in [sample(1), sample(3), Summary::default()] {
            assert_eq!(parse_summary(&s.to_json(None)).unwrap(), s);
            assert_eq!(parse_summary(&s.to_json(Some(sp))).unwrap(), s);
        }
        assert!(parse_summary("{\"games\": 1}").is_err());
        assert!(parse_summary(
            &sample(1)
                .to_json(None)
                .replace("\"wins\": 5", "\"wins\": -5")
        )
        .is_err());
        assert!(parse_summary(
            &sample(1)
                .to_json(None)
                .replace("[1, 0, 2, 1, 1]", "[1, 0, 2]")
        )
        .is_err());
    }

    #[test]
    fn adding_matches_sums_every_count_and_recomputes_the_sprt() {
        let mut s = sample(1);
        s.add(&sample(2)).unwrap();
        s.add(&Summary::default()).unwrap();
        assert_eq!(s.games, 30);
        assert_eq!(s.pairs[0].2, sample(3).pairs[0].2);
        assert_eq!(s.colours, sample(3).colours);
        assert_eq!(s.pentanomial, sample(3).pentanomial);
        assert_eq!(s.losses_by_reason, sample(3).losses_by_reason);
        assert_eq!(s.pair_reasons, sample(3).pair_reasons);
        // A summary without per-pair reasons (an older arena's) makes a sum without them.
        let mut old = sample(1);
        old.pair_reasons.clear();
        let mut t = sample(1);
        t.add(&old).unwrap();
        assert!(t.pair_reasons.is_empty());
        assert!(parse_summary(&t.to_json(None))
            .unwrap()
            .pair_reasons
            .is_empty());
        let mut e = Summary::default();
        e.add(&sample(1)).unwrap();
        assert_eq!(e, sample(1));
        // The combined SPRT is the game-pair LLR of the summed pairs.
        let sp = parse_sprt("0,10").unwrap();
        let llr = sp.llr_pairs(&[3, 0, 6, 3, 3]);
        assert!(s.to_json(Some(sp)).contains(&format!("\"llr\": {llr:.2}")));
        // A match of other pairings is refused.
        let mut other = sample(1);
        other.pairs.push(other.pairs[0].clone());
        assert!(s.add(&other).is_err());
    }
}
