//! Line patterns (one direction) and cell classes (all four directions combined).
//!
//! May import: [`crate::types`].
//!
//! * [`Pattern`]: what a stone of one colour on an empty cell makes in *one* line. Defined by the
//!   slow classifier in [`classify`], the single source of truth.
//! * [`Class`]: what the stone makes on the whole board, combined from its four line patterns by
//!   [`combine`]. This is the threat taxonomy the board keeps per empty cell and colour.
//!
//! Both are looked up at run time in tables ([`table`]) generated once per rule from the slow
//! definitions; the tests check every table entry against them.

pub mod classify;
pub mod code;
pub mod table;

use crate::types::{Color, Rule};

/// What a stone of one colour on an empty cell makes in one line (strongest first is the
/// reverse of the declaration order). See [`classify::classify`] for the exact definitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// Nothing useful (also a dead caro five blocked at both ends).
    None = 0,
    /// Two own stones in a five-cell window free of the opponent.
    Two = 1,
    /// Two own stones inside a six-cell window with empty ends.
    OpenTwo = 2,
    /// A three that can become a (closed) four, but not a straight four.
    Three = 3,
    /// A three that can become a straight four at some non-winning empty cell (for renju black:
    /// line-level only; whether it is a *real* three also needs the extension cell to be legal).
    OpenThree = 4,
    /// A four with one five-point.
    Four = 5,
    /// A four no one opponent stone stops: two five-points (a straight four, or for other than
    /// renju black two fours), except in caro where a stone on one may block the other.
    OpenFour = 6,
    /// Renju black only: two distinct fours through the stone on this one line (a foul).
    DoubleFour = 7,
    /// A run of six or more that does not win under the rule.
    Overline = 8,
    /// A winning five.
    Five = 9,
}

impl Pattern {
    /// Every pattern in declaration order.
    pub const ALL: [Pattern; 10] = [
        Pattern::None,
        Pattern::Two,
        Pattern::OpenTwo,
        Pattern::Three,
        Pattern::OpenThree,
        Pattern::Four,
        Pattern::OpenFour,
        Pattern::DoubleFour,
        Pattern::Overline,
        Pattern::Five,
    ];

    /// The pattern with discriminant `v` (values above 9 give `None`).
    #[inline]
    #[must_use]
    pub const fn from_u8(v: u8) -> Pattern {
        match v {
            1 => Pattern::Two,
            2 => Pattern::OpenTwo,
            3 => Pattern::Three,
            4 => Pattern::OpenThree,
            5 => Pattern::Four,
            6 => Pattern::OpenFour,
            7 => Pattern::DoubleFour,
            8 => Pattern::Overline,
            9 => Pattern::Five,
            _ => Pattern::None,
        }
    }

    /// Number of fours this pattern holds (a double four counts two).
    #[inline]
    #[must_use]
    pub const fn four_count(self) -> u32 {
        match self {
            Pattern::Four | Pattern::OpenFour => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        }
    }
}

/// The combined threat class of an empty cell for one colour: what a stone there makes on the
/// whole board. Ordered from weakest to strongest for the side that plays it, with the two renju
/// fouls that are certain from the line patterns alone at the end.
///
/// | class | meaning |
/// |---|---|
/// | `None` | nothing |
/// | `Two` | a two in some line |
/// | `OpenTwo` | an open two |
/// | `DoubleTwo` | open twos in two or more lines |
/// | `Three` | a closed three (makes a four next) |
/// | `OpenThree` | one open three |
/// | `DoubleThree` | open threes in two or more lines (for renju black a *candidate* foul: the exact check decides) |
/// | `Four` | one closed four |
/// | `FourThree` | one four plus one open three in another line |
/// | `FourDoubleThree` | renju black only: one four plus two or more open threes (candidate 4-3-3 foul) |
/// | `OpenFour` | a straight four, or (not renju black) two or more fours |
/// | `Five` | wins at once |
/// | `Overline` | renju black only: a foul by overline |
/// | `DoubleFour` | renju black only: a foul by two fours |
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Class {
    /// Nothing.
    None = 0,
    /// A two.
    Two = 1,
    /// An open two.
    OpenTwo = 2,
    /// Open twos in at least two lines.
    DoubleTwo = 3,
    /// A closed three.
    Three = 4,
    /// One open three.
    OpenThree = 5,
    /// Two or more open threes (renju black: candidate foul).
    DoubleThree = 6,
    /// One closed four.
    Four = 7,
    /// One four plus one open three.
    FourThree = 8,
    /// Renju black: a four plus two or more open threes (candidate foul).
    FourDoubleThree = 9,
    /// A straight four, or two fours where that is legal.
    OpenFour = 10,
    /// A winning five.
    Five = 11,
    /// Renju black: overline foul.
    Overline = 12,
    /// Renju black: double-four foul.
    DoubleFour = 13,
}

/// Number of [`Class`] values.
pub const CLASS_COUNT: usize = 14;

impl Class {
    /// Every class in declaration order.
    pub const ALL: [Class; CLASS_COUNT] = [
        Class::None,
        Class::Two,
        Class::OpenTwo,
        Class::DoubleTwo,
        Class::Three,
        Class::OpenThree,
        Class::DoubleThree,
        Class::Four,
        Class::FourThree,
        Class::FourDoubleThree,
        Class::OpenFour,
        Class::Five,
        Class::Overline,
        Class::DoubleFour,
    ];

    /// The class with discriminant `v` (out-of-range values give `None`).
    #[inline]
    #[must_use]
    pub const fn from_u8(v: u8) -> Class {
        if (v as usize) < CLASS_COUNT {
            Class::ALL[v as usize]
        } else {
            Class::None
        }
    }

    /// Whether this class is a foul whatever the recursion says (overline, double-four).
    #[inline]
    #[must_use]
    pub const fn is_certain_foul(self) -> bool {
        matches!(self, Class::Overline | Class::DoubleFour)
    }

    /// Whether this class is a double-three candidate that needs the exact renju check
    /// (only produced for renju black).
    #[inline]
    #[must_use]
    pub const fn needs_three_check(self) -> bool {
        matches!(self, Class::DoubleThree | Class::FourDoubleThree)
    }

    /// Whether the stone makes at least one four (five excluded).
    #[inline]
    #[must_use]
    pub const fn is_four(self) -> bool {
        matches!(
            self,
            Class::Four | Class::FourThree | Class::FourDoubleThree | Class::OpenFour
        )
    }
}

/// Move-ordering weight of one line pattern (summed over the four lines). Placeholder weights
/// pending tuning by the search issue; they live here, in one place.
#[must_use]
pub const fn pattern_weight(p: Pattern) -> i32 {
    match p {
        Pattern::None | Pattern::Overline => 0,
        Pattern::Two => 2,
        Pattern::OpenTwo => 6,
        Pattern::Three => 8,
        Pattern::OpenThree => 30,
        Pattern::Four => 36,
        Pattern::OpenFour | Pattern::DoubleFour => 300,
        Pattern::Five => 5000,
    }
}

/// Move-ordering bonus of a combined class, added to the summed pattern weights.
#[must_use]
pub const fn class_bonus(c: Class) -> i32 {
    match c {
        Class::DoubleTwo => 8,
        Class::DoubleThree => 200,
        Class::FourThree => 400,
        Class::OpenFour => 800,
        Class::Five => 10000,
        _ => 0,
    }
}

/// Combine the four line patterns of a cell into its [`Class`] for colour `c` under `rule`.
///
/// Renju black follows the foul order of the rules: a five wins first; then an overline in any
/// line, then two or more fours (a one-line double four counts two) are certain fouls; threes in
/// lines that hold a four are not counted; two or more open threes make a double-three
/// *candidate* (with or without a four) for the exact recursive check.
#[must_use]
pub fn combine(pats: [Pattern; 4], c: Color, rule: Rule) -> Class {
    let count = |p: Pattern| pats.iter().filter(|&&x| x == p).count();
    let fives = count(Pattern::Five);
    let fours: u32 = pats.iter().map(|p| p.four_count()).sum();
    let open_fours = count(Pattern::OpenFour);
    let open_threes = count(Pattern::OpenThree);
    let threes = count(Pattern::Three);
    let open_twos = count(Pattern::OpenTwo);
    let twos = count(Pattern::Two);
    if fives > 0 {
        return Class::Five;
    }
    if classify::is_renju_black(c, rule) {
        if count(Pattern::Overline) > 0 {
            return Class::Overline;
        }
        if fours >= 2 {
            return Class::DoubleFour;
        }
        if open_threes >= 2 {
            return if fours == 1 {
                Class::FourDoubleThree
            } else {
                Class::DoubleThree
            };
        }
    } else if fours >= 2 {
        return Class::OpenFour;
    }
    if open_fours > 0 {
        return Class::OpenFour;
    }
    if fours == 1 {
        return if open_threes > 0 {
            Class::FourThree
        } else {
            Class::Four
        };
    }
    if open_threes >= 2 {
        return Class::DoubleThree;
    }
    if open_threes == 1 {
        return Class::OpenThree;
    }
    if threes > 0 {
        return Class::Three;
    }
    if open_twos >= 2 {
        return Class::DoubleTwo;
    }
    if open_twos == 1 {
        return Class::OpenTwo;
    }
    if twos > 0 {
        return Class::Two;
    }
    Class::None
}

/// The move-ordering score of a cell from its four line patterns and combined class.
#[must_use]
pub fn score(pats: [Pattern; 4], class: Class) -> i32 {
    if class.is_certain_foul() {
        return 0;
    }
    pats.iter().map(|&p| pattern_weight(p)).sum::<i32>() + class_bonus(class)
}
