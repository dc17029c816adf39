//! The field table of the ledger: matches of this engine against other engines (gauntlets),
//! one row per revision and match, as `tools/gauntlet` writes them into `docs/strength.md`.
//!
//! A gauntlet summary has the opponent as the first engine of every pair (the arena's
//! `--format gauntlet` with the opponent given first); a row turns each pair round to the side
//! of the revision under test.

use crate::records::Summary;
use crate::stats::{elo_interval, Wld};
use std::collections::BTreeMap;

/// The line of `docs/strength.md` above which new field rows go.
pub const MARKER: &str = "<!-- field table: tools/gauntlet inserts its rows above this line -->";

/// What a row says besides the results.
#[derive(Clone, Debug)]
pub struct RowMeta {
    /// Date (`YYYY-MM-DD`).
    pub date: String,
    /// The opponent and its version.
    pub opponent: String,
    /// Rule and board side (`renju 15`).
    pub rule: String,
    /// Time control in arena syntax (`10/0.5`).
    pub tc: String,
    /// The opening book's file name.
    pub book: String,
}

fn reasons_text(m: &BTreeMap<String, u32>) -> String {
    if m.is_empty() {
        return "none".to_string();
    }
    m.iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The field rows of a gauntlet `summary`, one per pair, `labels[i]` naming the revision of
/// pair `i` (the second engine of the pair; the first is the opponent).
///
/// # Errors
/// The number of labels differs from the number of pairs, or the pairs do not share their first
/// engine (not a gauntlet with the opponent first).
pub fn rows(summary: &Summary, labels: &[String], meta: &RowMeta) -> Result<Vec<String>, String> {
    if labels.len() != summary.pairs.len() {
        return Err(format!(
            "{} revision labels for {} pairs in the summary",
            labels.len(),
            summary.pairs.len()
        ));
    }
    if summary.pairs.windows(2).any(|w| w[0].0 != w[1].0) {
        return Err(
            "the pairs do not share their first engine: not a gauntlet with the opponent first"
                .into(),
        );
    }
    let penta_aligned = summary.pentanomial.len() == summary.pairs.len();
    let mut out = Vec::new();
    for (i, ((_, _, w), label)) in summary.pairs.iter().zip(labels).enumerate() {
        let ours: Wld = w.swapped();
        let n = ours.games();
        let (elo, lo, hi) = elo_interval(&ours).unwrap_or((0.0, f64::NAN, f64::NAN));
        // Whole Elo, and no "-0".
        let elo = elo.round() + 0.0;
        let half = if lo.is_finite() && hi.is_finite() {
            (hi - lo) / 2.0
        } else {
            f64::NAN
        };
        let elo_text = if half.is_finite() {
            format!("{elo:+.0} ± {half:.0}")
        } else {
            format!("{elo:+.0}")
        };
        let points = f64::from(ours.wins) + 0.5 * f64::from(ours.draws);
        let pairs = if penta_aligned {
            // The opponent's points 0..2 per game pair, turned to ours.
            let p = summary.pentanomial[i];
            format!("{}/{}/{}/{}/{}", p[4], p[3], p[2], p[1], p[0])
        } else {
            "-".to_string()
        };
        let reasons = match summary.pair_reasons.get(i) {
            Some([opp_lost, ours_lost]) => format!(
                "ours lost: {}; opponent lost: {}",
                reasons_text(ours_lost),
                reasons_text(opp_lost)
            ),
            None => format!("all games: {}", reasons_text(&summary.losses_by_reason)),
        };
        out.push(format!(
            "| {} | {label} | {} | {} | {} | {} | {n} | {}-{}-{} | {points:.1} ({:.1}%) | {elo_text} | {pairs} | {reasons} |",
            meta.date,
            meta.opponent,
            meta.rule,
            meta.tc,
            meta.book,
            ours.wins,
            ours.losses,
            ours.draws,
            100.0 * points / f64::from(n.max(1)),
        ));
    }
    Ok(out)
}

/// `ledger` with `new_rows` inserted above the [`MARKER`] line.
///
/// # Errors
/// The ledger has no marker line.
pub fn insert(ledger: &str, new_rows: &[String]) -> Result<String, String> {
    let mut out = String::new();
    let mut found = false;
    for line in ledger.lines() {
        if !found && line.trim() == MARKER {
            for r in new_rows {
                out.push_str(r);
                out.push('\n');
            }
            found = true;
        }
        out.push_str(line);
        out.push('\n');
    }
    if found {
        Ok(out)
    } else {
        Err(format!("the ledger has no line '{MARKER}'"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary() -> Summary {
        let reasons = |v: &[(&str, u32)]| {
            v.iter()
                .map(|(k, n)| ((*k).to_string(), *n))
                .collect::<BTreeMap<_, _>>()
        };
        Summary {
            games: 20,
            pairs: vec![
                ("opp".into(), "revA".into(), Wld::new(8, 1, 1)),
                ("opp".into(), "revB".into(), Wld::new(5, 5, 0)),
            ],
            pair_reasons: vec![
                [
                    reasons(&[("five", 1)]),
                    reasons(&[("five", 7), ("timeout", 1)]),
                ],
                [reasons(&[("five", 5)]), reasons(&[("five", 5)])],
            ],
            colours: [9, 10, 1],
            pentanomial: vec![[3, 1, 1, 0, 0], [1, 0, 3, 0, 1]],
            losses_by_reason: reasons(&[("five", 18), ("timeout", 1)]),
        }
    }

    fn meta() -> RowMeta {
        RowMeta {
            date: "2026-12-07".into(),
            opponent: "Rapfi 0.43 (classical)".into(),
            rule: "renju 15".into(),
            tc: "10/0.5".into(),
            book: "renju_15_even.txt".into(),
        }
    }

    #[test]
    fn rows_are_turned_to_the_revision_under_test() {
        let r = rows(&summary(), &["aaa".into(), "bbb".into()], &meta()).unwrap();
        assert_eq!(r.len(), 2);
        let elo = elo_interval(&Wld::new(1, 8, 1)).unwrap();
        assert_eq!(
            r[0],
            format!(
                "| 2026-12-07 | aaa | Rapfi 0.43 (classical) | renju 15 | 10/0.5 | renju_15_even.txt | 10 | 1-8-1 | 1.5 (15.0%) | {:+.0} ± {:.0} | 0/0/1/1/3 | ours lost: five 7, timeout 1; opponent lost: five 1 |",
                elo.0.round(),
                (elo.2 - elo.1) / 2.0
            )
        );
        assert!(r[1].contains("| bbb |"));
        assert!(r[1].contains("| 5-5-0 | 5.0 (50.0%) | +0 ± "));
        assert!(r[1].contains("| 1/0/3/0/1 | ours lost: five 5; opponent lost: five 5 |"));
        // Wrong label count, or not a gauntlet.
        assert!(rows(&summary(), &["aaa".into()], &meta()).is_err());
        let mut s = summary();
        s.pairs[1].0 = "other".into();
        assert!(rows(&s, &["aaa".into(), "bbb".into()], &meta()).is_err());
        // Without per-pair reasons (an older summary) the row says so.
        let mut s = summary();
        s.pair_reasons.clear();
        let r = rows(&s, &["aaa".into(), "bbb".into()], &meta()).unwrap();
        assert!(r[0].ends_with("| all games: five 18, timeout 1 |"));
    }

    #[test]
    fn rows_go_above_the_marker() {
        let ledger = format!("# L\n| h |\n| r1 |\n{MARKER}\n\nrest\n");
        let out = insert(&ledger, &["| r2 |".into(), "| r3 |".into()]).unwrap();
        assert_eq!(
            out,
            format!("# L\n| h |\n| r1 |\n| r2 |\n| r3 |\n{MARKER}\n\nrest\n")
        );
        assert!(insert("# L\n", &["| r |".into()]).is_err());
    }
}
