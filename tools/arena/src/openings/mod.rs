//! Opening files: parse the opening-line formats of the Gomocup tools, order the openings
//! for a match, and set an opening up on a [`Board`].
//!
//! An [`Opening`] is a list of stones in move order (black first, then alternating), in
//! Gomocup coordinates: `(x, y)`, 0-based, `x` = column from the left, `y` = row from the
//! **top**. So on 15x15 the centre H8 is `(7, 7)` and A1 is `(0, 14)`.
//!
//! # Line formats
//!
//! [`parse_line`] detects the format of each line by itself ([`Format::Auto`]):
//!
//! * **Offset** (Piskvork `openings.txt`, Gomocup, c-gomoku-cli `type=offset`):
//!   comma-separated integers `dx,dy, dx,dy, ...` (spaces optional, one trailing comma
//!   tolerated, as Piskvork does), offsets from the centre `c = size / 2` (integer
//!   division): `x = c + dx`, `y = c + dy`, `y` growing downwards. On 15x15 `c = 7`
//!   (H8), on 20x20 `c = 10` — the point right-below the geometric centre; this is the
//!   `floor(size/2)` of c-gomoku-cli (as documented in the data's `SOURCES.md`). The
//!   20x20 data files (Piskvork, GomocupJudge, GomocupOnline) agree: they use `dx`, `dy`
//!   from -10 to +9 (e.g. GomocupJudge `-4,-10` on row 0, 2021's `-10,8` on column 0),
//!   which fits 0..=19 only with `c = 10`. Chosen when the line holds only digits,
//!   signs, commas and blanks and the pairs are separated by commas.
//! * **Gomocup points** `x,y x,y ...`: absolute Gomocup coordinates, pairs separated by
//!   blanks only (no comma between pairs). A single pair `a,b` is read as an offset.
//! * **Renju notation** `h8 h9 i10`, `h8,h9,i10` or `h8h9i10`: letter `a` = column 0
//!   (no letter skipped), number = row counted from the **bottom** (renju.net, RIF), via
//!   [`parse_renju_list`]. Chosen when the line starts with a letter.
//! * **GTP / KataGomo** `15 L7 L8 M8 # comment`: the board size, then GTP coordinates
//!   (columns `A`..`Z` skipping `I`, row 1 at the bottom). Chosen when the first token is
//!   a number and a letter-number token follows; the size must equal the board size.
//!
//! One format cannot be told apart from renju notation and needs [`Format::Pos`]
//! explicitly ([`parse_line_as`], [`parse_file_as`], [`load_as`]): c-gomoku-cli's
//! `type=pos` (`h8h7h6`, Yixin "getpos"), where the number counts rows from the **top**
//! (`a1` = `(0, 0)`). Read as renju notation, a `pos` line comes out mirrored top to
//! bottom; every rule here is symmetric, so the games are equivalent, only the recorded
//! coordinates differ.
//!
//! Blank lines and comment lines (starting with `#`, `//` or `;`) are skipped; a trailing
//! `# ...` or `// ...` comment is cut off. CR line ends and a UTF-8 byte-order mark are
//! accepted.
//!
//! # CSV files
//!
//! [`parse_file`] also reads CSV tables such as `renju/rif26.csv`: when the first
//! non-comment line is a header naming at least one of the columns `offset_line`
//! (offset), `renju_notation` (renju notation), `pos_line` (`pos`, rows from the top),
//! `moves` (auto-detected) or `gomocup_xy*` (one Gomocup `x,y` stone per column, in column
//! order), each row gives one opening. Every filled opening column of a row must give the
//! same stones, so the columns cross-check each other.
//!
//! Every parsed opening is checked to lie on the board and to repeat no point;
//! [`Opening::to_board`] then checks it move by move against the rule.

use csv::{csv_header, parse_csv_row, Column};
use formats::parse_moves;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use renju_engine::board::Board;
use renju_engine::rules::{is_win, try_play, IllegalMove};
use renju_engine::types::{parse_renju_list, valid_size, Color, CoordError, Pos, Rule};
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// GTP column letters: `A`.. without `I`.
const GTP_LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// Longest excerpt of an offending line quoted in an error message.
const QUOTE_LEN: usize = 60;

/// One opening: the stones in move order (black first, colours alternating).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Opening {
    /// The stones as Gomocup `(x, y)`: 0-based, origin at the top-left, `y` down.
    pub moves: Vec<(usize, usize)>,
}

impl Opening {
    /// The colour to play after the opening: black after an even number of stones.
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        if self.moves.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Play the opening on an empty `size` x `size` board under `rule`.
    ///
    /// # Errors
    /// An unsupported board size, or a stone that is off the board, on an occupied point,
    /// a foul for black (renju), or that completes a winning line for its side (the opening
    /// would already be decided). The message names the move number and the point.
    pub fn to_board(&self, size: usize, rule: Rule) -> Result<Board, String> {
        let mut board = Board::new(size, rule).map_err(|e| e.to_string())?;
        for (i, &(x, y)) in self.moves.iter().enumerate() {
            let n = i + 1;
            let name = point_name(x, y, size);
            if x >= size || y >= size {
                return Err(format!("move {n} {name} is off the {size}x{size} board"));
            }
            let p = Pos::new(x, y, size);
            let color = board.side_to_move();
            try_play(&mut board, p).map_err(|e| match e {
                IllegalMove::OffBoard(_) => {
                    format!("move {n} {name} is off the {size}x{size} board")
                }
                IllegalMove::Occupied(_) => format!("move {n} {name} is on an occupied point"),
                IllegalMove::Foul(_, k) => {
                    format!("move {n} {name} is a {k} foul for black under the {rule} rule")
                }
            })?;
            if is_win(&board, p) {
                return Err(format!(
                    "move {n} {name} completes a winning line for {color} under the {rule} \
                     rule: the opening is already decided"
                ));
            }
        }
        Ok(board)
    }

    /// The opening as an offset line (`0,0, 1,0, 1,3`) for a `size` board, the format of
    /// Piskvork and c-gomoku-cli.
    #[must_use]
    pub fn to_offset_line(&self, size: usize) -> String {
        let c = (size / 2) as i64;
        self.moves
            .iter()
            .map(|&(x, y)| format!("{},{}", x as i64 - c, y as i64 - c))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The opening in renju notation (`h8 h9 h10`) for a `size` board.
    #[must_use]
    pub fn to_renju(&self, size: usize) -> String {
        self.moves
            .iter()
            .map(|&(x, y)| renju_name(x, y, size))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The notation of an opening line, for [`parse_line_as`] and friends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// Detect the format of each line (see the module documentation); `pos` is never
    /// detected (it reads as renju notation).
    #[default]
    Auto,
    /// Offsets from the centre `size / 2`: `dx,dy, dx,dy, ...`, `y` down.
    Offset,
    /// Absolute Gomocup points `x,y x,y ...` (or one per CSV column).
    Gomocup,
    /// Renju notation, rows counted from the bottom: `h8 h9 i10` or `h8h9i10`.
    Renju,
    /// c-gomoku-cli `type=pos`: like renju notation but rows counted from the top
    /// (`a1` = `(0, 0)`).
    Pos,
    /// GTP coordinates (no letter `I`, row 1 at the bottom), optionally preceded by the
    /// board size, as in KataGomo opening files: `15 L7 L8 M8`.
    Gtp,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 6] = [
        Format::Auto,
        Format::Offset,
        Format::Gomocup,
        Format::Renju,
        Format::Pos,
        Format::Gtp,
    ];

    /// Lower-case name as used on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Format::Auto => "auto",
            Format::Offset => "offset",
            Format::Gomocup => "gomocup",
            Format::Renju => "renju",
            Format::Pos => "pos",
            Format::Gtp => "gtp",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let l = s.trim().to_ascii_lowercase();
        Format::ALL
            .iter()
            .copied()
            .find(|f| f.name() == l)
            .ok_or_else(|| {
                format!(
                    "unknown opening format '{s}' (expected auto, offset, gomocup, renju, pos \
                     or gtp)"
                )
            })
    }
}

/// Parse one opening line with the format detected automatically.
///
/// Returns `Ok(None)` for blank and comment lines.
///
/// # Errors
/// A line in no known format, or whose stones are off the `size` board or repeat a point;
/// the message quotes the line.
pub fn parse_line(line: &str, size: usize) -> Result<Option<Opening>, String> {
    parse_line_as(line, size, Format::Auto)
}

/// Parse one opening line in the given format ([`Format::Auto`] detects it).
///
/// # Errors
/// As [`parse_line`]; also an unsupported board size.
pub fn parse_line_as(line: &str, size: usize, format: Format) -> Result<Option<Opening>, String> {
    if !valid_size(size) {
        return Err(format!("board size {size} is not supported"));
    }
    match content(line) {
        None => Ok(None),
        Some(text) => parse_moves(text, size, format)
            .map(Some)
            .map_err(|e| fail(line, &e)),
    }
}

/// Parse a whole opening file with auto-detected line formats (see the module
/// documentation, also for CSV tables).
///
/// # Errors
/// The first bad line, as `line N: ...` (1-based).
pub fn parse_file(text: &str, size: usize) -> Result<Vec<Opening>, String> {
    parse_file_as(text, size, Format::Auto)
}

/// Parse a whole opening file whose lines are in `format` (CSV tables are still recognised
/// by their header).
///
/// # Errors
/// As [`parse_file`].
pub fn parse_file_as(text: &str, size: usize, format: Format) -> Result<Vec<Opening>, String> {
    if !valid_size(size) {
        return Err(format!("board size {size} is not supported"));
    }
    let mut out = Vec::new();
    let mut csv: Option<Vec<Column>> = None;
    let mut first = true;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if content(line).is_none() {
            continue;
        }
        if first {
            first = false;
            if let Some(columns) = csv_header(line) {
                csv = Some(columns);
                continue;
            }
        }
        let parsed = match &csv {
            Some(columns) => parse_csv_row(line, columns, size).map(Some),
            None => parse_line_as(line, size, format),
        };
        match parsed {
            Ok(Some(o)) => out.push(o),
            Ok(None) => {}
            Err(e) => return Err(format!("line {n}: {e}")),
        }
    }
    Ok(out)
}

/// Read and parse an opening file with auto-detected line formats.
///
/// # Errors
/// The file cannot be read, a line is bad (see [`parse_file`]), or the file holds no
/// opening at all; the message starts with the path.
pub fn load(path: &Path, size: usize) -> Result<Vec<Opening>, String> {
    load_as(path, size, Format::Auto)
}

/// Read and parse an opening file whose lines are in `format`.
///
/// # Errors
/// As [`load`].
pub fn load_as(path: &Path, size: usize, format: Format) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read opening file {}: {e}", path.display()))?;
    let openings =
        parse_file_as(&text, size, format).map_err(|e| format!("{}: {e}", path.display()))?;
    if openings.is_empty() {
        return Err(format!("{}: no openings in the file", path.display()));
    }
    Ok(openings)
}

/// The openings in file order (`random == false`) or shuffled by a generator seeded with
/// `seed` (the same seed always gives the same order).
#[must_use]
pub fn order(mut openings: Vec<Opening>, random: bool, seed: u64) -> Vec<Opening> {
    if random {
        let mut rng = StdRng::seed_from_u64(seed);
        openings.shuffle(&mut rng);
    }
    openings
}

// ---------------------------------------------------------------------------------------
// Parsing internals
// ---------------------------------------------------------------------------------------

/// A stone before validation: coordinates that may be off the board, and how the input
/// wrote it (for messages).
struct Raw {
    x: i64,
    y: i64,
    text: String,
}

/// The text of a line without blanks at the ends, a byte-order mark and trailing comments;
/// `None` for a blank or comment line.
fn content(line: &str) -> Option<&str> {
    let t = line.trim().trim_start_matches('\u{feff}').trim();
    if t.is_empty() || t.starts_with('#') || t.starts_with("//") || t.starts_with(';') {
        return None;
    }
    let t = t.find('#').map_or(t, |i| &t[..i]);
    let t = t.find("//").map_or(t, |i| &t[..i]);
    let t = t.trim();
    (!t.is_empty()).then_some(t)
}

/// An error message quoting the (possibly shortened) line.
fn fail(line: &str, reason: &str) -> String {
    let t = line.trim();
    let quoted = if t.chars().count() > QUOTE_LEN {
        let cut: String = t.chars().take(QUOTE_LEN).collect();
        format!("{cut}...")
    } else {
        t.to_string()
    };
    format!("opening `{quoted}`: {reason}")
}

/// Renju name of a point, or `?` when it is off the board.
fn renju_name(x: usize, y: usize, size: usize) -> String {
    if x < size && y < size {
        Pos::new(x, y, size).to_renju(size)
    } else {
        "?".to_string()
    }
}

/// `h8 (7,7)`: renju name and Gomocup coordinates.
fn point_name(x: usize, y: usize, size: usize) -> String {
    format!("{} ({x},{y})", renju_name(x, y, size))
}

mod csv;
mod formats;

#[cfg(test)]
mod tests;
