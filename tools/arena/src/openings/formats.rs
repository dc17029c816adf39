//! The line formats of opening files (offsets, Gomocup points, renju notation, GTP, `pos`):
//! detection and parsing into checked openings.

use super::*;

/// Parse the moves of a non-blank, comment-free line.
pub(super) fn parse_moves(text: &str, size: usize, format: Format) -> Result<Opening, String> {
    let format = match format {
        Format::Auto => detect(text)?,
        f => f,
    };
    let raw = match format {
        Format::Auto => unreachable!("detect never returns Auto"),
        Format::Offset => parse_offsets(text, size)?,
        Format::Gomocup => parse_points(text)?,
        Format::Renju => parse_letters(text, size, false)?,
        Format::Pos => parse_letters(text, size, true)?,
        Format::Gtp => parse_gtp(text, size)?,
    };
    finish(&raw, size)
}

/// The format of a line (never `Auto` or `Pos`).
pub(super) fn detect(text: &str) -> Result<Format, String> {
    let numeric = text
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | ',') || c.is_whitespace());
    if numeric {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let point =
            |t: &&str| t.matches(',').count() == 1 && !t.starts_with(',') && !t.ends_with(',');
        return Ok(if tokens.len() >= 2 && tokens.iter().all(point) {
            Format::Gomocup
        } else {
            Format::Offset
        });
    }
    let mut tokens = text.split_whitespace();
    let first = tokens.next().unwrap_or("");
    if first.bytes().all(|b| b.is_ascii_digit())
        && tokens
            .next()
            .is_some_and(|t| t.starts_with(|c: char| c.is_ascii_alphabetic()))
    {
        return Ok(Format::Gtp);
    }
    if text.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Ok(Format::Renju);
    }
    Err(
        "not an opening line (expected offsets `dx,dy, dx,dy`, Gomocup points `x,y x,y`, \
         renju notation `h8 h9` or GTP `15 H8 H9`)"
            .to_string(),
    )
}

pub(super) fn parse_int(t: &str) -> Result<i64, String> {
    if t.is_empty() {
        return Err("empty number (two commas in a row?)".to_string());
    }
    t.parse::<i64>()
        .map_err(|_| format!("'{t}' is not an integer"))
}

/// `dx,dy, dx,dy, ...` relative to `size / 2`.
pub(super) fn parse_offsets(text: &str, size: usize) -> Result<Vec<Raw>, String> {
    let mut fields: Vec<&str> = text.split(',').map(str::trim).collect();
    if fields.len() > 1 && fields.last() == Some(&"") {
        fields.pop();
    }
    if !fields.len().is_multiple_of(2) {
        return Err(format!(
            "{} numbers, expected `dx,dy` pairs (an even count)",
            fields.len()
        ));
    }
    let c = (size / 2) as i64;
    fields
        .chunks(2)
        .map(|pair| {
            let dx = parse_int(pair[0])?;
            let dy = parse_int(pair[1])?;
            Ok(Raw {
                x: c + dx,
                y: c + dy,
                text: format!("offset {dx},{dy} = ({},{})", c + dx, c + dy),
            })
        })
        .collect()
}

/// `x,y x,y ...` absolute Gomocup points.
pub(super) fn parse_points(text: &str) -> Result<Vec<Raw>, String> {
    text.split_whitespace().map(parse_point).collect()
}

pub(super) fn parse_point(t: &str) -> Result<Raw, String> {
    let (a, b) = t
        .split_once(',')
        .ok_or_else(|| format!("'{t}' is not a Gomocup point `x,y`"))?;
    Ok(Raw {
        x: parse_int(a.trim())?,
        y: parse_int(b.trim())?,
        text: format!("({},{})", a.trim(), b.trim()),
    })
}

/// Renju notation (rows from the bottom) or, with `from_top`, c-gomoku-cli `pos` (rows
/// from the top).
pub(super) fn parse_letters(text: &str, size: usize, from_top: bool) -> Result<Vec<Raw>, String> {
    let list = parse_renju_list(text, size).map_err(|e| match e {
        CoordError::Syntax(s) => format!("'{s}' is not a coordinate"),
        CoordError::OffBoard(s) => format!("'{s}' is off the {size}x{size} board"),
    })?;
    Ok(list
        .into_iter()
        .map(|p| {
            let x = p.x(size);
            let y = if from_top {
                size - 1 - p.y(size)
            } else {
                p.y(size)
            };
            let text = if from_top {
                format!("{}{} (pos)", (b'a' + x as u8) as char, y + 1)
            } else {
                p.to_renju(size)
            };
            Raw {
                x: x as i64,
                y: y as i64,
                text,
            }
        })
        .collect())
}

/// `[size] A1 B2 ...` in GTP coordinates.
pub(super) fn parse_gtp(text: &str, size: usize) -> Result<Vec<Raw>, String> {
    let mut tokens = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .peekable();
    if let Some(first) = tokens.peek() {
        if first.bytes().all(|b| b.is_ascii_digit()) {
            let n = parse_int(first)?;
            if n != size as i64 {
                return Err(format!(
                    "the line is for a {n}x{n} board, not {size}x{size}"
                ));
            }
            tokens.next();
        }
    }
    tokens.map(|t| parse_gtp_point(t, size)).collect()
}

pub(super) fn parse_gtp_point(t: &str, size: usize) -> Result<Raw, String> {
    let bad = || format!("'{t}' is not a GTP coordinate");
    let mut chars = t.chars();
    let letter = chars
        .next()
        .filter(char::is_ascii_alphabetic)
        .ok_or_else(bad)?
        .to_ascii_uppercase();
    if letter == 'I' {
        return Err(format!("'{t}': GTP coordinates skip the letter I"));
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let row = parse_int(digits)?;
    let x = GTP_LETTERS
        .iter()
        .position(|&l| l == letter as u8)
        .ok_or_else(bad)? as i64;
    Ok(Raw {
        x,
        y: size as i64 - row,
        text: t.to_string(),
    })
}

/// Check the stones lie on the board and repeat no point.
pub(super) fn finish(raw: &[Raw], size: usize) -> Result<Opening, String> {
    if raw.is_empty() {
        return Err("no moves".to_string());
    }
    let n = size as i64;
    let mut seen = vec![0usize; size * size];
    let mut moves = Vec::with_capacity(raw.len());
    for (i, r) in raw.iter().enumerate() {
        if r.x < 0 || r.y < 0 || r.x >= n || r.y >= n {
            return Err(format!(
                "move {} ({}) is off the {size}x{size} board",
                i + 1,
                r.text
            ));
        }
        let (x, y) = (r.x as usize, r.y as usize);
        let cell = &mut seen[y * size + x];
        if *cell != 0 {
            return Err(format!(
                "move {} ({}) repeats move {}: point {} is already taken",
                i + 1,
                r.text,
                *cell,
                point_name(x, y, size)
            ));
        }
        *cell = i + 1;
        moves.push((x, y));
    }
    Ok(Opening { moves })
}

// ---------------------------------------------------------------------------------------
// CSV tables
// ---------------------------------------------------------------------------------------
