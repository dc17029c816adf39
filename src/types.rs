//! Core value types: colours, rules, board positions and coordinate notation.
//!
//! This module imports nothing from the crate. Everything above it (pattern, board, rules, ...)
//! speaks in these types.
//!
//! Coordinates come in two spellings:
//! * **Gomocup** `x,y`: 0-based, origin at the top-left corner (what the pbrain protocol sends);
//! * **renju notation**: column letter `a..` = `x`, row number `size - y` counted from the bottom,
//!   so on 15x15 `h8` is `(7,7)`, `a1` is `(0,14)` and `a15` is `(0,0)`.

use std::fmt;
use std::str::FromStr;

/// Smallest supported board side.
pub const MIN_SIZE: usize = 5;
/// Largest supported board side.
pub const MAX_SIZE: usize = 22;
/// Number of cells of the largest board.
pub const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;

/// A stone colour (also "the side to move").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player.
    Black = 0,
    /// The second player.
    White = 1,
}

impl Color {
    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case English name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Color {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" | "x" => Ok(Color::Black),
            "white" | "w" | "o" => Ok(Color::White),
            _ => Err(format!("unknown colour '{s}' (expected black or white)")),
        }
    }
}

/// A value per colour, indexed by [`Color`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    /// Black's value.
    pub black: T,
    /// White's value.
    pub white: T,
}

impl<T> ByColor<T> {
    /// The value of colour `c`.
    #[inline]
    pub fn get(&self, c: Color) -> &T {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// The value of colour `c`, mutably.
    #[inline]
    pub fn get_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

/// The game rule: how a line wins and whether black has forbidden moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// Five or more in a row wins, for both colours (Gomocup `rule 0`).
    Freestyle,
    /// Exactly five wins; an overline neither wins nor loses (Gomocup `rule 1`).
    Standard,
    /// RIF renju: black wins only by an exact five and may not play overline, double-four or
    /// double-three ("fouls"); white wins with five or more (Gomocup `rule 4`, Yixin-Board `2`).
    Renju,
    /// Standard caro: an exact five wins unless opponent stones block both of its ends; the board
    /// edge does not block; an overline never wins (Gomocup `rule 9`).
    Caro,
    /// Caro with overlines: an exact five not blocked at both ends, or any run of six or more
    /// (even blocked), wins (Gomocup `rule 8`).
    CaroOverline,
}

impl Rule {
    /// Whether a run of `len` stones of colour `c` wins under this rule; `blocked_both`: the
    /// opponent holds both cells next to its ends (the edge does not count). The one definition
    /// of a win: the line classifier (`pattern`) and the win detection on the board (`rules`)
    /// both ask here.
    #[must_use]
    pub const fn run_wins(self, c: Color, len: usize, blocked_both: bool) -> bool {
        match self {
            Rule::Freestyle => len >= 5,
            Rule::Standard => len == 5,
            Rule::Renju => match c {
                Color::Black => len == 5,
                Color::White => len >= 5,
            },
            Rule::Caro => len == 5 && !blocked_both,
            Rule::CaroOverline => len > 5 || (len == 5 && !blocked_both),
        }
    }

    /// Every rule, in the order of their Gomocup numbers.
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroOverline,
    ];

    /// Decode a Gomocup / Yixin-Board `INFO rule` value.
    ///
    /// Bit 4 (or the whole value 2, as Yixin-Board sends it) means renju, bit 8 caro, bit 1
    /// exactly five; the continuous-game bit 2 is ignored otherwise. Values with unknown bits
    /// (16 and up) or negative values give `None`.
    #[must_use]
    pub fn from_gomocup(v: i64) -> Option<Rule> {
        if !(0..16).contains(&v) {
            return None;
        }
        if v & 4 != 0 || v == 2 {
            return Some(Rule::Renju);
        }
        Some(match (v & 8 != 0, v & 1 != 0) {
            (true, true) => Rule::Caro,
            (true, false) => Rule::CaroOverline,
            (false, true) => Rule::Standard,
            (false, false) => Rule::Freestyle,
        })
    }

    /// The canonical Gomocup `INFO rule` value of this rule.
    #[must_use]
    pub const fn gomocup(self) -> i64 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 9,
            Rule::CaroOverline => 8,
        }
    }

    /// Lower-case name as used on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroOverline => "caro-overline",
        }
    }

    /// Dense index 0..5, for per-rule tables.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let l = s.to_ascii_lowercase();
        if let Ok(v) = l.parse::<i64>() {
            return Rule::from_gomocup(v).ok_or_else(|| format!("unknown rule number {v}"));
        }
        Rule::ALL
            .iter()
            .copied()
            .find(|r| r.name() == l)
            .ok_or_else(|| {
                format!("unknown rule '{s}' (expected freestyle, standard, renju, caro or caro-overline)")
            })
    }
}

/// A board cell index `y * size + x`, or [`Pos::PASS`].
///
/// A `Pos` does not know the board size; conversions take it as an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos(pub u16);

impl Pos {
    /// The pass move (no stone).
    pub const PASS: Pos = Pos(u16::MAX);

    /// The cell `(x, y)` of a board of side `size` (no range check).
    #[inline]
    #[must_use]
    pub const fn new(x: usize, y: usize, size: usize) -> Pos {
        Pos((y * size + x) as u16)
    }

    /// Whether this is the pass move.
    #[inline]
    #[must_use]
    pub const fn is_pass(self) -> bool {
        self.0 == u16::MAX
    }

    /// The cell index.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Gomocup `x` on a board of side `size`.
    #[inline]
    #[must_use]
    pub const fn x(self, size: usize) -> usize {
        self.0 as usize % size
    }

    /// Gomocup `y` on a board of side `size`.
    #[inline]
    #[must_use]
    pub const fn y(self, size: usize) -> usize {
        self.0 as usize / size
    }

    /// Renju notation (`h8`) on a board of side `size`; `pass` for the pass move.
    #[must_use]
    pub fn to_renju(self, size: usize) -> String {
        if self.is_pass() {
            return "pass".to_string();
        }
        let x = self.x(size);
        let y = self.y(size);
        format!("{}{}", (b'a' + x as u8) as char, size - y)
    }

    /// Gomocup `x,y` text.
    #[must_use]
    pub fn to_gomocup(self, size: usize) -> String {
        if self.is_pass() {
            return "-1,-1".to_string();
        }
        format!("{},{}", self.x(size), self.y(size))
    }
}

/// Errors of coordinate parsing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoordError {
    /// The text is not a coordinate at all.
    Syntax(String),
    /// The coordinate is well formed but lies outside the board.
    OffBoard(String),
}

impl fmt::Display for CoordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoordError::Syntax(s) => write!(f, "unknown coordinate '{s}'"),
            CoordError::OffBoard(s) => write!(f, "coordinate '{s}' is off the board"),
        }
    }
}

impl std::error::Error for CoordError {}

/// Whether `size` is a supported board side.
#[must_use]
pub const fn valid_size(size: usize) -> bool {
    size >= MIN_SIZE && size <= MAX_SIZE
}

/// Parse one renju-notation coordinate (`h8`, `H8`) on a board of side `size`.
///
/// # Errors
/// [`CoordError::Syntax`] for text that is not a letter followed by a number,
/// [`CoordError::OffBoard`] when the point lies outside the board.
pub fn parse_renju(s: &str, size: usize) -> Result<Pos, CoordError> {
    let t = s.trim();
    let mut chars = t.chars();
    let letter = chars
        .next()
        .filter(char::is_ascii_alphabetic)
        .ok_or_else(|| CoordError::Syntax(s.to_string()))?;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CoordError::Syntax(s.to_string()));
    }
    let row: usize = digits
        .parse()
        .map_err(|_| CoordError::Syntax(s.to_string()))?;
    let x = (letter.to_ascii_lowercase() as u8 - b'a') as usize;
    if x >= size || row == 0 || row > size {
        return Err(CoordError::OffBoard(s.to_string()));
    }
    Ok(Pos::new(x, size - row, size))
}

/// Parse a move list in renju notation: coordinates separated by spaces or commas, or
/// concatenated (`h8h9i8`).
///
/// # Errors
/// The first coordinate that does not parse, see [`parse_renju`].
pub fn parse_renju_list(s: &str, size: usize) -> Result<Vec<Pos>, CoordError> {
    let mut out = Vec::new();
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() || b == b',' || b == b';' {
            i += 1;
            continue;
        }
        if !b.is_ascii_alphabetic() {
            let end = token_end(bytes, i);
            return Err(CoordError::Syntax(s[i..end].to_string()));
        }
        let start = i;
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i == start + 1 {
            let end = token_end(bytes, start);
            return Err(CoordError::Syntax(s[start..end].to_string()));
        }
        out.push(parse_renju(&s[start..i], size)?);
    }
    Ok(out)
}

fn token_end(bytes: &[u8], from: usize) -> usize {
    let mut e = from;
    while e < bytes.len() && !bytes[e].is_ascii_whitespace() && bytes[e] != b',' {
        e += 1;
    }
    e.max(from + 1).min(bytes.len())
}

/// Parse a Gomocup `x,y` coordinate on a board of side `size`.
///
/// # Errors
/// [`CoordError::Syntax`] for malformed text, [`CoordError::OffBoard`] outside the board.
pub fn parse_gomocup(s: &str, size: usize) -> Result<Pos, CoordError> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| CoordError::Syntax(s.to_string()))?;
    let x: i64 = a
        .trim()
        .parse()
        .map_err(|_| CoordError::Syntax(s.to_string()))?;
    let y: i64 = b
        .trim()
        .parse()
        .map_err(|_| CoordError::Syntax(s.to_string()))?;
    if x < 0 || y < 0 || x >= size as i64 || y >= size as i64 {
        return Err(CoordError::OffBoard(s.to_string()));
    }
    Ok(Pos::new(x as usize, y as usize, size))
}

/// The four line directions as `(dx, dy)` in Gomocup coordinates: horizontal, vertical,
/// diagonal `\` (down-right on screen) and anti-diagonal `/` (up-right on screen).
pub const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renju_notation_round_trip() {
        for size in [5usize, 15, 20, 22] {
            for y in 0..size {
                for x in 0..size {
                    let p = Pos::new(x, y, size);
                    assert_eq!(parse_renju(&p.to_renju(size), size), Ok(p));
                    assert_eq!(parse_gomocup(&p.to_gomocup(size), size), Ok(p));
                }
            }
        }
        assert_eq!(parse_renju("h8", 15), Ok(Pos::new(7, 7, 15)));
        assert_eq!(parse_renju("a1", 15), Ok(Pos::new(0, 14, 15)));
        assert_eq!(parse_renju("a15", 15), Ok(Pos::new(0, 0, 15)));
        assert_eq!(parse_renju("t20", 20), Ok(Pos::new(19, 0, 20)));
        assert!(matches!(
            parse_renju("p1", 15),
            Err(CoordError::OffBoard(_))
        ));
        assert!(matches!(
            parse_renju("a16", 15),
            Err(CoordError::OffBoard(_))
        ));
        assert!(matches!(
            parse_renju("a0", 15),
            Err(CoordError::OffBoard(_))
        ));
        assert!(matches!(parse_renju("8h", 15), Err(CoordError::Syntax(_))));
    }

    #[test]
    fn move_lists() {
        let s = 15;
        let a = parse_renju_list("h8 h9,i8", s).unwrap();
        let b = parse_renju_list("h8h9i8", s).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 3);
        assert!(parse_renju_list("h8 9", s).is_err());
        assert!(parse_renju_list("h8 hh", s).is_err());
        assert!(parse_renju_list("", s).unwrap().is_empty());
    }

    #[test]
    fn rule_numbers() {
        assert_eq!(Rule::from_gomocup(0), Some(Rule::Freestyle));
        assert_eq!(Rule::from_gomocup(1), Some(Rule::Standard));
        assert_eq!(Rule::from_gomocup(2), Some(Rule::Renju));
        assert_eq!(Rule::from_gomocup(3), Some(Rule::Standard));
        assert_eq!(Rule::from_gomocup(4), Some(Rule::Renju));
        assert_eq!(Rule::from_gomocup(8), Some(Rule::CaroOverline));
        assert_eq!(Rule::from_gomocup(9), Some(Rule::Caro));
        assert_eq!(Rule::from_gomocup(16), None);
        assert_eq!(Rule::from_gomocup(-1), None);
        for r in Rule::ALL {
            assert_eq!(Rule::from_gomocup(r.gomocup()), Some(r));
            assert_eq!(r.name().parse::<Rule>(), Ok(r));
        }
    }
}
