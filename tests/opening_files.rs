//! The opening files under `openings/`: every opening in them parses and is a legal position
//! of the rule and board size its file name gives.

mod common;

use common::openings::*;
use renju_engine::opening::board_of;
use renju_engine::types::{parse_renju_list, valid_size, Pos, Rule};
use std::path::{Path, PathBuf};

// ------------------------------------------------------------------------------------------
// 6. The opening files
// ------------------------------------------------------------------------------------------

/// The rule and board side an opening file is for, from its name.
fn rule_and_size(name: &str) -> (Rule, usize) {
    let l = name.to_ascii_lowercase();
    if l.contains("renju") {
        return (Rule::Renju, 15);
    }
    let rule = if l.contains("standard") || l.contains("exact") {
        Rule::Standard
    } else if l.contains("caro-overline") {
        Rule::CaroOverline
    } else if l.contains("caro") {
        Rule::Caro
    } else {
        Rule::Freestyle
    };
    let size = l
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|t| t.parse::<usize>().ok())
        .find(|&n| valid_size(n) && n >= 10)
        .unwrap_or(15);
    (rule, size)
}

/// The stones of one opening line: offsets `dx,dy, dx,dy` from the centre, Gomocup points
/// `x,y x,y`, or renju notation `h8 h9 i10`.
fn parse_opening(line: &str, size: usize) -> Result<Vec<Pos>, String> {
    if line.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return parse_renju_list(line, size).map_err(|e| e.to_string());
    }
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let gomocup = tokens.len() >= 2
        && tokens
            .iter()
            .all(|t| t.matches(',').count() == 1 && !t.starts_with(',') && !t.ends_with(','));
    let c = (size / 2) as i64;
    let (base, fields): (i64, Vec<&str>) = if gomocup {
        (0, tokens.iter().flat_map(|t| t.split(',')).collect())
    } else {
        let mut f: Vec<&str> = line.split(',').map(str::trim).collect();
        if f.len() > 1 && f.last() == Some(&"") {
            f.pop();
        }
        (c, f)
    };
    if !fields.len().is_multiple_of(2) {
        return Err(format!("odd number of coordinates in '{line}'"));
    }
    fields
        .chunks(2)
        .map(|pair| {
            let dx: i64 = pair[0]
                .trim()
                .parse()
                .map_err(|_| format!("bad number '{}'", pair[0]))?;
            let dy: i64 = pair[1]
                .trim()
                .parse()
                .map_err(|_| format!("bad number '{}'", pair[1]))?;
            let (x, y) = (base + dx, base + dy);
            if x < 0 || y < 0 || x >= size as i64 || y >= size as i64 {
                return Err(format!("({x},{y}) is off the {size}x{size} board"));
            }
            Ok(Pos::new(x as usize, y as usize, size))
        })
        .collect()
}

fn moves_text(stones: &[Pos], size: usize) -> String {
    stones
        .iter()
        .map(|p| p.to_renju(size))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The position of `stones` (colour by move parity) in a form that is the same for all its
/// symmetric copies: the smallest sorted (colour, point) list over the 8 symmetries.
fn position_key(stones: &[Pos], size: usize) -> Vec<(usize, Pos)> {
    (0..8)
        .map(|s| {
            let mut k: Vec<(usize, Pos)> = stones
                .iter()
                .enumerate()
                .map(|(i, &p)| (i % 2, sym(s, p, size)))
                .collect();
            k.sort_unstable();
            k
        })
        .min()
        .unwrap_or_default()
}

fn opening_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            opening_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "txt")
            && !p.file_name().is_some_and(|n| {
                n.to_string_lossy()
                    .to_ascii_lowercase()
                    .starts_with("readme")
            })
        {
            out.push(p);
        }
    }
}

#[test]
fn opening_files_are_legal() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings");
    let mut files = Vec::new();
    opening_files(&dir, &mut files);
    for f in &files {
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let (rule, size) = rule_and_size(&name);
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let mut openings = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim().trim_start_matches('\u{feff}').trim();
            if t.is_empty() || t.starts_with('#') || t.starts_with("//") || t.starts_with(';') {
                continue;
            }
            let t = t.split('#').next().unwrap_or("").trim();
            let t = t.split("//").next().unwrap_or("").trim();
            let at = format!("{}:{}", f.display(), i + 1);
            let stones = parse_opening(t, size).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert!(!stones.is_empty(), "{at}: an empty opening");
            if let Err(e) = board_of(rule, size, &stones) {
                panic!("{at}: '{t}' is not a legal {rule} {size}x{size} opening: {e}");
            }
            openings.push(stones);
        }
        assert!(!openings.is_empty(), "{}: no openings", f.display());
        // No opening repeats another one, up to the symmetries of the board.
        let mut seen: Vec<(Vec<(usize, Pos)>, usize)> = Vec::new();
        for (i, o) in openings.iter().enumerate() {
            let key = position_key(o, size);
            if let Some((_, j)) = seen.iter().find(|(k, _)| *k == key) {
                panic!(
                    "{name}: opening {} ({}) repeats opening {} up to symmetry",
                    i + 1,
                    moves_text(o, size),
                    j + 1
                );
            }
            seen.push((key, i));
        }
        // Renju openings start with one of the 26 canonical openings (rules.md §6.1).
        if rule == Rule::Renju {
            for o in &openings {
                assert!(
                    o.len() >= 3 && canonical_index(&o[..3], size).is_some(),
                    "{name}: {} does not start with a canonical opening",
                    moves_text(o, size)
                );
            }
        }
        println!(
            "{name}: {} openings, {rule} {size}x{size}, all legal and distinct",
            openings.len()
        );
        if name.to_ascii_lowercase().contains("rif26") {
            let mut idx: Vec<usize> = openings
                .iter()
                .map(|o| {
                    canonical_index(o, size)
                        .unwrap_or_else(|| panic!("{name}: {o:?} is not a canonical opening"))
                })
                .collect();
            idx.sort_unstable();
            assert_eq!(
                idx,
                (0..26).collect::<Vec<_>>(),
                "{name}: not the 26 openings"
            );
        }
    }
    println!("{} opening file(s) checked", files.len());
}
