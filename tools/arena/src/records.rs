//! Game records (Piskvork psq and SGF) and the JSON summary, written as each game ends.

use crate::game::GameRecord;
use crate::stats::{elo_interval, los, Wld};
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

/// The summary: games played, per pair W-L-D with Elo, its 95% interval and LOS, games by the
/// winner's colour (`[black, white, drawn]`), per pair its game pairs by the first engine's
/// points (0, 0.5, 1, 1.5, 2), and losses by reason.
#[must_use]
pub fn summary_json(
    games: usize,
    pairs: &[(String, String, Wld)],
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
    s.push_str("\n  \"losses_by_reason\": {");
    for (i, (k, v)) in losses_by_reason.iter().enumerate() {
        let _ = write!(s, "{}{}: {v}", if i == 0 { "" } else { ", " }, json_str(k));
    }
    s.push('}');
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
