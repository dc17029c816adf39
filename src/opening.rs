//! Opening-rule decisions, made by search: proposing openings, swapping, swap2's two extra
//! stones, offering fifth moves and choosing among offered fifths.
//!
//! May import: everything up to [`crate::search`].
//!
//! Every decision evaluates positions with a search ([`Decider::value`]), from the point of view
//! of the side to move, and picks the option whose value is best (or closest to balanced, when
//! proposing). A [`Decider::timed`] decider (the protocol's opening steps) searches each
//! position as deep as its share of the turn's time allows: each decision plans how many
//! evaluations it makes and gives each an equal share of what is left. A fixed-depth decider
//! ([`Decider::new`]: the opening generator, tests) is deterministic; ties are broken by cell
//! index. Thresholds are win rates on the rule's calibrated scale ([`crate::eval::win_rate`]).

use crate::board::Board;
use crate::eval::{is_mate, win_rate, WIN};
use crate::rules;
use crate::search::threats::ordered_candidates;
use crate::search::{Limits, SearchResult, Searcher, Silent};
use crate::types::{Color, Pos, Rule};
use std::time::{Duration, Instant};

/// The 26 canonical renju openings: (code, name, third stone offset in Gomocup (dx, dy));
/// the second stone is `(0, -1)` for direct (D) and `(1, -1)` for indirect (I) openings.
pub const RIF26: [(&str, &str, (i32, i32)); 26] = [
    ("D1", "Kansei", (0, -2)),
    ("D2", "Keigetsu", (1, -2)),
    ("D3", "Sosei", (2, -2)),
    ("D4", "Kagetsu", (1, -1)),
    ("D5", "Zangetsu", (2, -1)),
    ("D6", "Ugetsu", (1, 0)),
    ("D7", "Kinsei", (2, 0)),
    ("D8", "Shogetsu", (0, 1)),
    ("D9", "Kyugetsu", (1, 1)),
    ("D10", "Shingetsu", (2, 1)),
    ("D11", "Zuisei", (0, 2)),
    ("D12", "Sangetsu", (1, 2)),
    ("D13", "Yusei", (2, 2)),
    ("I1", "Chosei", (2, -2)),
    ("I2", "Kyogetsu", (2, -1)),
    ("I3", "Kosei", (2, 0)),
    ("I4", "Suigetsu", (2, 1)),
    ("I5", "Ryusei", (2, 2)),
    ("I6", "Ungetsu", (1, 0)),
    ("I7", "Hogetsu", (1, 1)),
    ("I8", "Rangetsu", (1, 2)),
    ("I9", "Gingetsu", (0, 1)),
    ("I10", "Myojo", (0, 2)),
    ("I11", "Shagetsu", (-1, 1)),
    ("I12", "Meigetsu", (-1, 2)),
    ("I13", "Suisei", (-2, 2)),
];

/// The three stones of canonical opening `i` (0..26) on a board of side `size`.
#[must_use]
pub fn rif_opening(i: usize, size: usize) -> [Pos; 3] {
    let c = (size / 2) as i32;
    let (code, _, (dx, dy)) = RIF26[i % 26];
    let second = if code.starts_with('D') {
        (0, -1)
    } else {
        (1, -1)
    };
    let p = |x: i32, y: i32| Pos::new(x as usize, y as usize, size);
    [p(c, c), p(c + second.0, c + second.1), p(c + dx, c + dy)]
}

/// Apply symmetry `s` (0..8) of the square board to a cell.
#[must_use]
pub fn symmetry(s: usize, p: Pos, size: usize) -> Pos {
    let (x, y) = (p.x(size), p.y(size));
    let m = size - 1;
    let (nx, ny) = match s {
        0 => (x, y),
        1 => (m - y, x),
        2 => (m - x, m - y),
        3 => (y, m - x),
        4 => (m - x, y),
        5 => (x, m - y),
        6 => (y, x),
        _ => (m - y, m - x),
    };
    Pos::new(nx, ny, size)
}

/// The symmetries (indices 0..8) that map the stones of `board` onto themselves, colours kept
/// (rules.md §6.10). Always contains the identity.
#[must_use]
pub fn position_symmetries(board: &Board) -> Vec<usize> {
    let size = board.size();
    (0..8)
        .filter(|&s| {
            board.cells().all(|p| match board.stone(p) {
                None => true,
                Some(c) => board.stone(symmetry(s, p, size)) == Some(c),
            })
        })
        .collect()
}

/// Whether cells `a` and `b` are equivalent under a symmetry that keeps the position.
#[must_use]
pub fn equivalent(board: &Board, a: Pos, b: Pos) -> bool {
    position_symmetries(board)
        .into_iter()
        .any(|s| symmetry(s, a, board.size()) == b)
}

/// A side whose win rate is at least this (or at most one minus this) is clearly better (worse)
/// off: swap2's second player takes a colour instead of offering two more stones.
pub const CLEAR_EDGE: f64 = 0.6;

/// Search-based decisions within a time budget.
pub struct Decider {
    searcher: Searcher,
    /// Fixed depth of each evaluation (a timed decider: unused).
    pub depth: i32,
    /// Each evaluation searches as deep as its share of the budget allows.
    timed: bool,
    deadline: Instant,
    /// Evaluations the current decision still plans (a timed decider's next one gets the time
    /// left divided by this).
    plan: usize,
    /// What the decisions were based on, one line each (the protocol shows them in the log).
    pub notes: Vec<String>,
}

impl Decider {
    /// A decider that evaluates at `depth` and stops starting new evaluations after `budget`.
    #[must_use]
    pub fn new(depth: i32, budget: Duration) -> Decider {
        Decider {
            searcher: Searcher::new(16, 1),
            depth,
            timed: false,
            deadline: Instant::now() + budget,
            plan: 1,
            notes: Vec::new(),
        }
    }

    /// A decider whose evaluations are time-limited searches sharing `budget`: each decision
    /// plans its evaluations ([`Decider::plan`]) and each gets an equal share of the time left.
    #[must_use]
    pub fn timed(budget: Duration) -> Decider {
        Decider {
            searcher: Searcher::new(16, 1),
            depth: 0,
            timed: true,
            deadline: Instant::now() + budget,
            plan: 1,
            notes: Vec::new(),
        }
    }

    /// The next `n` evaluations share the time left equally (timed deciders).
    pub fn plan(&mut self, n: usize) {
        self.plan = n.max(1);
    }

    /// Run `f` as one phase of a decision, within `fraction` of the time left (its own plans
    /// divide that part); the rest is left for what follows.
    pub fn within<T>(&mut self, fraction: f64, f: impl FnOnce(&mut Decider) -> T) -> T {
        let (outer, plan) = (self.deadline, self.plan);
        self.deadline = Instant::now() + self.time_left().mul_f64(fraction.clamp(0.0, 1.0));
        self.plan = 1;
        let r = f(self);
        self.deadline = outer;
        self.plan = plan;
        r
    }

    fn time_left(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// A search of `board` for the side to move: a timed decider's with its share of the time
    /// left, a fixed-depth decider's at its depth plus `extra`.
    fn search(&mut self, board: &Board, extra: i32) -> SearchResult {
        let l = if self.timed {
            let share = (self.time_left() / self.plan as u32).max(Duration::from_millis(5));
            self.plan = (self.plan - 1).max(1);
            Limits {
                hard_time: Some(share),
                soft_time: Some(share * 6 / 10),
                ..Limits::default()
            }
        } else {
            let mut l = Limits::depth(self.depth + extra);
            l.hard_time = Some(self.time_left().max(Duration::from_millis(5)));
            l
        };
        self.searcher.search(board, l, &mut Silent)
    }

    /// The value of the position for the side to move (mate scores clipped to ±20000).
    pub fn value(&mut self, board: &Board) -> i32 {
        clip(self.search(board, 0).score)
    }

    /// The value of the position for the side to move and its best move, from one search.
    pub fn value_and_move(&mut self, board: &Board) -> (i32, Pos) {
        let r = self.search(board, 0);
        (clip(r.score), r.best)
    }

    /// A note of the value `v` of `board` for the side to move, and what was decided on it.
    pub fn note(&mut self, what: &str, board: &Board, v: i32, decided: &str) {
        let side = if board.side_to_move() == Color::Black {
            "black"
        } else {
            "white"
        };
        self.notes.push(format!(
            "{what}: {side} to move, score {v}, win rate {:.0}%: {decided}",
            win_rate(v, board.rule()) * 100.0
        ));
    }

    /// The best move of the side to move.
    pub fn best_move(&mut self, board: &Board) -> Pos {
        self.search(board, 2).best
    }

    /// Whether the side to move should swap (take the colour that just moved): when it is
    /// worse off, i.e. its value is below zero.
    pub fn should_swap(&mut self, board: &Board) -> bool {
        let v = self.value(board);
        let swap = v < 0;
        self.note("swap", board, v, if swap { "swap" } else { "keep" });
        swap
    }

    /// The first `limit` legal moves of the side to move in the search's static move order
    /// ([`ordered_candidates`]).
    #[must_use]
    pub fn candidates(board: &mut Board, limit: usize) -> Vec<Pos> {
        let mut v = ordered_candidates(board);
        v.truncate(limit);
        v
    }

    /// Propose a three-stone opening (black, white, black) for a swap rule, balanced for the
    /// side to move after it (white): for renju one of the 26 canonical openings, otherwise
    /// the most balanced of a fixed set of central shapes.
    pub fn propose_three(&mut self, rule: Rule, size: usize) -> [Pos; 3] {
        self.propose_three_valued(rule, size).0
    }

    /// [`Decider::propose_three`] with the value of the proposal for white (to move after it).
    pub fn propose_three_valued(&mut self, rule: Rule, size: usize) -> ([Pos; 3], i32) {
        let options: Vec<[Pos; 3]> = if rule == Rule::Renju {
            (0..26).map(|i| rif_opening(i, size)).collect()
        } else {
            let c = (size / 2) as i32;
            let p = |x: i32, y: i32| Pos::new((c + x) as usize, (c + y) as usize, size);
            [
                [(0, 0), (1, 0), (0, 2)],
                [(0, 0), (1, 1), (2, 0)],
                [(0, 0), (1, 0), (-1, 1)],
                [(0, 0), (0, 1), (2, 2)],
                [(0, 0), (2, 1), (-1, 2)],
                [(0, 0), (1, -1), (-2, 2)],
                [(0, 0), (2, 0), (1, 2)],
                [(0, 0), (1, 2), (3, 0)],
            ]
            .iter()
            .map(|s| [p(s[0].0, s[0].1), p(s[1].0, s[1].1), p(s[2].0, s[2].1)])
            .collect()
        };
        let mut best = (i32::MAX, options[0], 0);
        self.plan(options.len());
        for o in options {
            let Ok(b) = board_of(rule, size, &o) else {
                continue;
            };
            let v = self.value(&b);
            if v.abs() < best.0 {
                best = (v.abs(), o, v);
            }
            if self.time_left().is_zero() {
                break;
            }
        }
        (best.1, best.2)
    }

    /// Swap2 after three stones (we are white to move): `None` = swap (take black), or the
    /// stones to add: one (stay white and play the fourth) or two (fourth and fifth, so that the
    /// opponent chooses the colour of a balanced position).
    pub fn swap2_after_three(&mut self, board: &Board) -> Option<Vec<Pos>> {
        // A third of the time for the position as it is; the rest for the pairs, if needed.
        self.plan(3);
        let (v, best_move) = self.value_and_move(board);
        let rate = win_rate(v, board.rule());
        if rate <= 1.0 - CLEAR_EDGE {
            self.note("swap2", board, v, "swap");
            return None; // white is clearly worse: take black
        }
        if rate >= CLEAR_EDGE {
            self.note("swap2", board, v, "stay and play the fourth");
            return Some(vec![best_move]);
        }
        self.note("swap2", board, v, "balanced: offer two stones");
        // Balanced: offer two more stones that keep it balanced.
        let mut b = board.clone();
        let mut best: (i32, Vec<Pos>) = (i32::MAX, vec![best_move]);
        let fourths = Self::candidates(&mut b, 6);
        self.plan(fourths.len() * 4);
        for m4 in fourths {
            b.play_unchecked(m4);
            for m5 in Self::candidates(&mut b, 4) {
                b.play_unchecked(m5);
                if rules::five_on_board(&b).is_none() {
                    let v = self.value(&b).abs();
                    if v < best.0 {
                        best = (v, vec![m4, m5]);
                    }
                }
                b.undo();
            }
            b.undo();
            if self.time_left().is_zero() {
                break;
            }
        }
        self.notes.push(format!(
            "swap2: the two stones leave the side to move a score of ±{} (win rate {:.0}%)",
            best.0,
            win_rate(best.0, board.rule()) * 100.0
        ));
        Some(best.1)
    }

    /// Offer `n` fifth moves as black: distinct legal cells, pairwise not equivalent under the
    /// symmetries of the position, chosen so that white's best pick (the offer worst for black)
    /// is as good as possible for black: the `n` candidates with the highest value for black.
    pub fn offer_fifths(&mut self, board: &Board, n: usize) -> Vec<Pos> {
        let mut b = board.clone();
        let size = b.size();
        let mut scored: Vec<(i32, Pos)> = Vec::new();
        let mut pool = Self::candidates(&mut b, (3 * n).max(12));
        // Enough cells even when the candidate area is small.
        let extra: Vec<Pos> = b.empty_cells().collect();
        for p in extra {
            if pool.len() >= 3 * n + 12 {
                break;
            }
            if !pool.contains(&p) && rules::legal(&mut b, p, Color::Black) {
                pool.push(p);
            }
        }
        self.plan(pool.len());
        for p in pool {
            if scored.iter().any(|&(_, q)| equivalent(board, p, q)) {
                continue;
            }
            b.play_unchecked(p);
            // After the fifth, white moves: black's value is minus white's.
            let v = if self.time_left().is_zero() {
                0
            } else {
                -self.value(&b)
            };
            b.undo();
            scored.push((v, p));
        }
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let _ = size;
        scored.into_iter().take(n).map(|x| x.1).collect()
    }

    /// Choose among offered fifths as white: the offer worst for black (best for white).
    pub fn choose_fifth(&mut self, board: &Board, offers: &[Pos]) -> Pos {
        let mut b = board.clone();
        let mut best = (i32::MIN, offers[0]);
        // One share more for the move that follows the choice.
        self.plan(offers.len() + 1);
        for &p in offers {
            b.play_unchecked(p);
            let v = self.value(&b); // white to move
            b.undo();
            if v > best.0 || (v == best.0 && p < best.1) {
                best = (v, p);
            }
        }
        best.1
    }
}

/// A search score with proven results clipped to ±20000 (a decision compares them with the
/// others).
fn clip(score: i32) -> i32 {
    if is_mate(score) {
        score.signum() * 20_000
    } else {
        score
    }
}

/// A board of `rule`/`size` with `stones` played in order (alternating from black).
///
/// # Errors
/// An occupied or off-board cell, a foul, or a finished game.
pub fn board_of(rule: Rule, size: usize, stones: &[Pos]) -> Result<Board, String> {
    let mut b = Board::new(size, rule).map_err(|e| e.to_string())?;
    for &p in stones {
        rules::try_play(&mut b, p).map_err(|e| {
            let at = format!("{},{}", p.x(size), p.y(size));
            match e {
                rules::IllegalMove::Occupied(_) => format!("point {at} is given twice"),
                rules::IllegalMove::OffBoard(_) => format!("point {at} is off the board"),
                rules::IllegalMove::Foul(_, k) => format!("point {at} is a {k} foul for black"),
            }
        })?;
        if rules::is_win(&b, p) {
            return Err("the stones already make a five".into());
        }
    }
    Ok(b)
}

/// Value bound used when a side is lost: keeps comparisons finite.
pub const LOST: i32 = -WIN;

/// The position of a stone sequence (black first, colours alternating) up to the 8 board
/// symmetries and the move order: its stones with their colours (0 black, 1 white), in the
/// least of the 8 sorted forms. Two sequences give the same position exactly when their
/// canonical forms are equal.
#[must_use]
pub fn canonical_position(moves: &[Pos], size: usize) -> Vec<(Pos, usize)> {
    (0..8)
        .map(|s| {
            let mut c: Vec<(Pos, usize)> = moves
                .iter()
                .enumerate()
                .map(|(i, &p)| (symmetry(s, p, size), i % 2))
                .collect();
            c.sort();
            c
        })
        .min()
        .unwrap_or_default()
}

/// Whether two stone sequences (black first, colours alternating) give the same position
/// under one of the 8 board symmetries, whatever the move order.
#[must_use]
pub fn same_position(a: &[Pos], b: &[Pos], size: usize) -> bool {
    canonical_position(a, size) == canonical_position(b, size)
}

/// What [`generate`] makes: how many openings of which rule and size, and how their balance is
/// checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenSpec {
    /// The rule.
    pub rule: Rule,
    /// The board side.
    pub size: usize,
    /// How many openings.
    pub count: usize,
    /// Depth of the first balance check.
    pub depth: i32,
    /// Depth of a second, deeper check a kept opening must also pass (none: one check). One
    /// fixed-depth value swings with the depth's parity and the horizon; two depths agreeing
    /// keep out openings that only look even at one of them.
    pub confirm_depth: Option<i32>,
    /// Keep openings whose value for the side to move lies within `center ± window` at each
    /// check.
    pub window: i32,
    /// Centre of the kept values for the side to move (0: balanced by the evaluation). The
    /// evaluation's zero need not be an even game in play: a book balanced in play may need
    /// openings the evaluation scores for one side.
    pub center: i32,
    /// Stones in an opening (none: 3, or 5 for renju: a canonical opening plus two).
    pub stones: Option<usize>,
    /// The random stones lie within this many cells of the centre in each axis (none: 2, or 3
    /// for renju).
    pub radius: Option<i32>,
    /// Random seed: the same spec gives the same openings.
    pub seed: u64,
}

/// Generate `spec.count` balanced openings for `spec.rule` on a `spec.size` board: candidates
/// are random legal stones near the centre (three stones, the first on the centre; for renju
/// one of the 26 canonical openings plus a fourth and a fifth stone; `spec.stones` and
/// `spec.radius` change the count and the spread), kept when a depth-`spec.depth` search of the side
/// to move after them (and a depth-`spec.confirm_depth` search, if given) scores within
/// `spec.center ± spec.window`, and not equivalent under a board symmetry to one already kept.
/// Deterministic for a given spec. Returns the openings as move lists.
#[must_use]
pub fn generate(spec: GenSpec) -> Vec<Vec<Pos>> {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let GenSpec {
        rule, size, count, ..
    } = spec;
    let mut rng = StdRng::seed_from_u64(spec.seed);
    let mut kept: Vec<Vec<Pos>> = Vec::new();
    // Each check gets a fresh decider (an empty table), so an opening's values do not depend
    // on the candidates tried before it.
    let value = |d: i32, b: &Board| Decider::new(d, Duration::from_secs(360_000)).value(b);
    let c = (size / 2) as i32;
    let mut tries = 0;
    while kept.len() < count && tries < count * 200 {
        tries += 1;
        let mut stones: Vec<Pos> = if rule == Rule::Renju {
            rif_opening(rng.gen_range(0..26), size).to_vec()
        } else {
            vec![Pos::new(c as usize, c as usize, size)]
        };
        let target = spec
            .stones
            .unwrap_or(if rule == Rule::Renju { 5 } else { 3 })
            .max(stones.len());
        let radius = spec
            .radius
            .unwrap_or(if rule == Rule::Renju { 3 } else { 2 })
            .clamp(1, c);
        // Never more stones than the square around the centre holds.
        let target = target.min(((2 * radius + 1) * (2 * radius + 1)) as usize);
        while stones.len() < target {
            let p = Pos::new(
                (c + rng.gen_range(-radius..=radius)) as usize,
                (c + rng.gen_range(-radius..=radius)) as usize,
                size,
            );
            if !stones.contains(&p) {
                stones.push(p);
            }
        }
        let Ok(b) = board_of(rule, size, &stones) else {
            continue;
        };
        let dup = kept.iter().any(|k| same_position(k, &stones, size));
        if dup {
            continue;
        }
        let near = |v: i32| (v - spec.center).abs() <= spec.window;
        if near(value(spec.depth, &b)) && spec.confirm_depth.is_none_or(|cd| near(value(cd, &b))) {
            kept.push(stones);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(confirm_depth: Option<i32>) -> GenSpec {
        GenSpec {
            rule: Rule::Renju,
            size: 15,
            count: 4,
            depth: 3,
            confirm_depth,
            window: 40,
            center: 0,
            stones: None,
            radius: None,
            seed: 5,
        }
    }

    /// Every generated opening passes both balance checks when they are recomputed, no two are
    /// equivalent under a board symmetry, the output is reproducible, and the second check
    /// really filters (without it a different set comes out).
    #[test]
    fn generated_openings_pass_both_checks() {
        let s = spec(Some(5));
        let list = generate(s);
        assert_eq!(list.len(), s.count);
        assert_eq!(generate(s), list, "not reproducible");
        for o in &list {
            assert_eq!(o.len(), 5);
            let b = board_of(s.rule, s.size, o).expect("legal opening");
            for d in [s.depth, 5] {
                let v = Decider::new(d, Duration::from_secs(3600)).value(&b);
                assert!(v.abs() <= s.window, "{o:?}: {v} at depth {d}");
            }
        }
        for (i, a) in list.iter().enumerate() {
            for b in &list[..i] {
                assert!(!same_position(a, b, s.size), "{a:?} repeats {b:?}");
            }
        }
        assert_ne!(
            generate(spec(None)),
            list,
            "the confirming check kept the same set"
        );
    }

    /// With a centre, every kept opening scores within the window around it (a window that
    /// excludes 0 here), and the set differs from the balanced one.
    #[test]
    fn generated_openings_lie_around_the_centre() {
        let s = GenSpec {
            center: -60,
            window: 40,
            count: 2,
            ..spec(None)
        };
        let list = generate(s);
        assert_eq!(list.len(), s.count);
        for o in &list {
            let b = board_of(s.rule, s.size, o).expect("legal opening");
            let v = Decider::new(s.depth, Duration::from_secs(3600)).value(&b);
            assert!((v + 60).abs() <= 40, "{o:?}: {v}");
        }
        assert_ne!(generate(GenSpec { center: 0, ..s }), list);
    }

    /// `stones` and `radius` set the opening's size and spread: four freestyle stones, the first
    /// on the centre, all within the radius, and some beyond the default radius of 2.
    #[test]
    fn generated_openings_take_stones_and_radius() {
        let s = GenSpec {
            rule: Rule::Freestyle,
            size: 20,
            count: 6,
            depth: 2,
            window: 400,
            stones: Some(4),
            radius: Some(5),
            ..spec(None)
        };
        let list = generate(s);
        assert_eq!(list.len(), s.count);
        let c = 10i64;
        let mut wide = false;
        for o in &list {
            assert_eq!(o.len(), 4, "{o:?}");
            assert_eq!(o[0], Pos::new(10, 10, 20));
            for p in o {
                let (dx, dy) = ((p.x(20) as i64 - c).abs(), (p.y(20) as i64 - c).abs());
                assert!(dx <= 5 && dy <= 5, "{o:?}");
                wide |= dx > 2 || dy > 2;
            }
        }
        assert!(wide, "no stone beyond radius 2: {list:?}");
    }
}
