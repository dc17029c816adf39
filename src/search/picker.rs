//! Lazy move ordering: the moves of a node are handed out best first on demand, so a node that
//! cuts off after one or two moves never pays for sorting the rest.
//!
//! The order is exactly [`super::threats::sort_moves`]'s: key descending, ties by cell
//! ascending. The first few moves are found by selection; once a node has taken
//! [`SELECT_PICKS`] moves it is likely to take many more, and the remainder is sorted once.

use crate::types::Pos;
use smallvec::SmallVec;

/// A list of `(key, move)` pairs, on the stack up to a typical node's candidate count.
pub type Keyed = SmallVec<[(i32, Pos); 64]>;

/// Moves handed out by selection before the remainder is sorted.
const SELECT_PICKS: usize = 4;

/// Keyed moves handed out best first.
#[derive(Clone, Debug, Default)]
pub struct Picker {
    moves: Keyed,
    next: usize,
    sorted: bool,
}

/// Whether `a` comes before `b` in the move order.
#[inline]
fn before(a: (i32, Pos), b: (i32, Pos)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 < b.1)
}

impl Picker {
    /// A picker over `(key, move)` pairs in any order.
    #[must_use]
    pub fn new(moves: Keyed) -> Picker {
        Picker {
            moves,
            next: 0,
            sorted: false,
        }
    }

    /// A picker handing out `moves` in the given order.
    #[must_use]
    pub fn in_order(moves: impl IntoIterator<Item = Pos>) -> Picker {
        Picker {
            moves: moves.into_iter().map(|p| (0, p)).collect(),
            next: 0,
            sorted: true,
        }
    }

    /// The next move in order, or `None` when all were handed out.
    #[inline]
    pub fn next_move(&mut self) -> Option<Pos> {
        if self.next >= self.moves.len() {
            return None;
        }
        if !self.sorted {
            if self.next >= SELECT_PICKS {
                self.moves[self.next..].sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                self.sorted = true;
            } else {
                let mut best = self.next;
                for j in self.next + 1..self.moves.len() {
                    if before(self.moves[j], self.moves[best]) {
                        best = j;
                    }
                }
                self.moves.swap(self.next, best);
            }
        }
        self.next += 1;
        Some(self.moves[self.next - 1].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::threats::sort_moves;
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    #[test]
    fn picks_in_sort_order() {
        let mut rng = StdRng::seed_from_u64(5);
        for n in 0..80 {
            for _ in 0..20 {
                // Few distinct keys, so ties (broken by cell) are common.
                let mut v: Vec<(i32, Pos)> = (0..n)
                    .map(|i| (rng.gen_range(0..6), Pos(i as u16 * 3 % 200)))
                    .collect();
                v.shuffle(&mut rng);
                let expected = sort_moves(&mut v.clone());
                let mut p = Picker::new(v.into_iter().collect());
                let got: Vec<Pos> = std::iter::from_fn(|| p.next_move()).collect();
                assert_eq!(got, expected);
            }
        }
        let mut p = Picker::in_order(vec![Pos(9), Pos(2), Pos(5)]);
        let got: Vec<Pos> = std::iter::from_fn(|| p.next_move()).collect();
        assert_eq!(got, vec![Pos(9), Pos(2), Pos(5)]);
    }
}
