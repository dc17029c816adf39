//! Board diagrams for people.

use super::Board;
use crate::types::{Color, Pos};
use std::fmt;

impl Board {
    /// A diagram of the board, rows numbered from the bottom as in renju notation, columns
    /// lettered; `X` black, `O` white, `#` a wall, `.` empty, and on empty cells the character
    /// `mark(p)` returns, if any.
    #[must_use]
    pub fn diagram_with(&self, mark: impl Fn(Pos) -> Option<char>) -> String {
        let n = self.size;
        let mut s = String::new();
        let letters: String = (0..n)
            .map(|x| format!(" {}", (b'a' + x as u8) as char))
            .collect();
        s.push_str(&format!("   {letters}\n"));
        for y in 0..n {
            s.push_str(&format!("{:>2} ", n - y));
            for x in 0..n {
                let p = Pos::new(x, y, n);
                let ch = match self.stone(p) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None if self.is_wall(p) => '#',
                    None => mark(p).unwrap_or('.'),
                };
                s.push(' ');
                s.push(ch);
            }
            s.push_str(&format!("  {}\n", n - y));
        }
        s.push_str(&format!("   {letters}\n"));
        s
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagram_with(|_| None))
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board({} {}x{}, {} to move)\n{}",
            self.rule, self.size, self.size, self.side, self
        )
    }
}
