//! Renju tactical test positions: made from the engine's own games, verified with the solvers
//! and the slow reference foul detector, and the engine measured on them
//! (`renju-engine tacticsgen` and `renju-engine tactics`).
//!
//! May import every module (it sits beside the command line).
//!
//! Three kinds, each a position (renju 15, the stones in move order) with the side to move:
//! * **foul**: white to move wins by a VCF whose end is a forced foul: after white's last four,
//!   black's only block is forbidden (checked with [`crate::rules::reference`]).
//! * **vct**: the side to move wins by a VCT but has no VCF.
//! * **defend**: the side to move has no VCF or VCT, the opponent would have one if it moved
//!   again, and some moves hold (after them the opponent finds none) while at least half of the
//!   candidate moves do not.
//!
//! A move *wins* when [`Solver::wins_after`] proves it (within [`VCT_DEPTH`] and [`NODES`]); a
//! move *holds* when after it the opponent has neither a VCF nor a VCT within the same limits.
//!
//! The file format is one position per line: `<kind> <moves> ; <line>` where `<moves>` and
//! `<line>` are renju coordinates separated by spaces (`h8 h9 ...`) and `<line>` is the proof
//! line (foul, vct) or the opponent's threat line (defend); `#` starts a comment line.

use crate::board::Board;
use crate::datagen::GameRecord;
use crate::pattern::Class;
use crate::rules::{self, reference};
use crate::search::threats;
use crate::search::vcf::{Solution, Solver};
use crate::types::{parse_renju_list, Color, Pos, Rule};
use rayon::prelude::*;

/// VCT depth (attacker threat moves) of every check.
pub const VCT_DEPTH: u32 = 8;
/// Node limit of every solver run that labels or judges a position.
pub const NODES: u64 = 200_000;
/// Node limit of the solver runs that look for candidate positions in the games (the found
/// ones are then checked at [`NODES`]).
pub const FIND_NODES: u64 = 10_000;
/// VCT depth of those runs.
pub const FIND_DEPTH: u32 = 6;
/// Board side of the set.
pub const SIZE: usize = 15;

/// The kind of a tactical position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// White wins by a VCF ending in a forced foul.
    Foul,
    /// The side to move wins by VCT, not by VCF.
    Vct,
    /// The side to move must defend against the opponent's VCF or VCT.
    Defend,
}

impl Kind {
    /// Every kind, in file order.
    pub const ALL: [Kind; 3] = [Kind::Foul, Kind::Vct, Kind::Defend];

    /// The kind's name in the file format.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::Foul => "foul",
            Kind::Vct => "vct",
            Kind::Defend => "defend",
        }
    }
}

/// One test position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tactic {
    /// Its kind.
    pub kind: Kind,
    /// The stones in move order (black first).
    pub moves: Vec<Pos>,
    /// The proof line (foul, vct) or the opponent's threat line (defend).
    pub line: Vec<Pos>,
}

impl Tactic {
    /// The position.
    ///
    /// # Errors
    /// A move that is not legal in renju.
    pub fn board(&self) -> Result<Board, String> {
        let mut b = Board::new(SIZE, Rule::Renju).map_err(|e| e.to_string())?;
        for &m in &self.moves {
            rules::try_play(&mut b, m).map_err(|e| format!("{} at {}", e, m.to_renju(SIZE)))?;
        }
        Ok(b)
    }

    /// The line in the file format.
    #[must_use]
    pub fn to_line(&self) -> String {
        let text = |v: &[Pos]| {
            v.iter()
                .map(|p| p.to_renju(SIZE))
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "{} {} ; {}",
            self.kind.name(),
            text(&self.moves),
            text(&self.line)
        )
    }

    /// Parse one line of the file format.
    ///
    /// # Errors
    /// A malformed line.
    pub fn parse(line: &str) -> Result<Tactic, String> {
        let bad = || format!("bad tactic line '{line}'");
        let (head, tail) = line.split_once(';').ok_or_else(bad)?;
        let head = head.trim();
        let (kind, moves) = head.split_once(' ').ok_or_else(bad)?;
        let kind = Kind::ALL
            .into_iter()
            .find(|k| k.name() == kind)
            .ok_or_else(bad)?;
        let moves = parse_renju_list(moves.trim(), SIZE).map_err(|_| bad())?;
        let line = parse_renju_list(tail.trim(), SIZE).map_err(|_| bad())?;
        Ok(Tactic { kind, moves, line })
    }
}

/// Parse a file of tactics (comment and blank lines skipped); every position must be legal.
///
/// # Errors
/// The first malformed line, or the first position the rules refuse.
pub fn parse_file(text: &str) -> Result<Vec<Tactic>, String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let t = Tactic::parse(l)?;
            t.board()
                .map_err(|e| format!("illegal position ({e}) in '{l}'"))?;
            Ok(t)
        })
        .collect()
}

/// The limits of one solver run: node limit and VCT depth.
#[derive(Clone, Copy)]
struct Budget {
    nodes: u64,
    depth: u32,
}

const FULL: Budget = Budget {
    nodes: NODES,
    depth: VCT_DEPTH,
};
const FIND: Budget = Budget {
    nodes: FIND_NODES,
    depth: FIND_DEPTH,
};

fn solver() -> Solver {
    Solver::new(NODES)
}

/// Whether `board` (white to move) has a VCF, and its line when it ends in a forced foul.
fn foul_trap(board: &mut Board, b: Budget) -> Option<Vec<Pos>> {
    if board.side_to_move() != Color::White {
        return None;
    }
    let Solution::Win(line) = Solver::new(b.nodes).vcf(board) else {
        return None;
    };
    ends_in_foul(board, &line).then_some(line)
}

/// Whether the VCF `line` from `board` ends with black unable to block white's last four
/// because the block is forbidden: after white's last four (the line ends with white's four,
/// black's move elsewhere and white's five), white has exactly one five point, the line's
/// five, it is a foul for black by the reference detector, and black has no five.
#[must_use]
pub fn ends_in_foul(board: &Board, line: &[Pos]) -> bool {
    if line.len() < 3 {
        return false;
    }
    let mut b = board.clone();
    for &m in &line[..line.len() - 2] {
        if !b.is_empty(m) {
            return false;
        }
        b.play_unchecked(m);
    }
    let f = line[line.len() - 1];
    if b.side_to_move() != Color::Black
        || b.count(Color::White, Class::Five) != 1
        || b.class(f, Color::White) != Class::Five
        || threats::has_five(&b, Color::Black)
    {
        return false;
    }
    let mut grid = reference::Grid::from_board(&b);
    reference::foul(&mut grid, f.x(SIZE) as i32, f.y(SIZE) as i32).is_some()
}

/// Black's moves tried for [`foul_after_black`].
const BLACK_TRIES: usize = 8;

/// Black to move: the first of black's [`BLACK_TRIES`] best moves by the static move order
/// after which white wins by a VCF ending in a forced foul, with that line.
fn foul_after_black(board: &mut Board) -> Option<(Pos, Vec<Pos>)> {
    for m in threats::ordered_candidates(board)
        .into_iter()
        .take(BLACK_TRIES)
    {
        board.play_unchecked(m);
        let found = if rules::is_win(board, m) {
            None
        } else {
            foul_trap(board, FIND).and_then(|_| foul_trap(board, FULL))
        };
        board.undo();
        if let Some(line) = found {
            return Some((m, line));
        }
    }
    None
}

/// The side to move's VCT line, when it has a VCT and no VCF.
fn vct_only(board: &mut Board, b: Budget) -> Option<Vec<Pos>> {
    if Solver::new(b.nodes).vcf(board) != Solution::NoWin {
        return None;
    }
    match Solver::new(b.nodes).vct(board, b.depth) {
        Solution::Win(line) => Some(line),
        Solution::NoWin => None,
    }
}

/// Whether the side to move has a VCF or a VCT.
fn has_threat_win(board: &mut Board, b: Budget) -> bool {
    Solver::new(b.nodes).vcf(board) != Solution::NoWin
        || Solver::new(b.nodes).vct(board, b.depth) != Solution::NoWin
}

/// Whether `m` holds for the side to move: legal, and after it the opponent has no VCF/VCT.
#[must_use]
pub fn holds(board: &Board, m: Pos) -> bool {
    holds_within(board, m, FULL)
}

fn holds_within(board: &Board, m: Pos, budget: Budget) -> bool {
    let mut b = board.clone();
    if m.is_pass() || rules::try_play(&mut b, m).is_err() {
        return false;
    }
    if rules::is_win(&b, m) {
        return true;
    }
    !has_threat_win(&mut b, budget)
}

/// Whether `m` wins for the side to move (see the module notes).
#[must_use]
pub fn wins(board: &Board, m: Pos) -> bool {
    let mut b = board.clone();
    solver().wins_after(&mut b, m, VCT_DEPTH)
}

/// The opponent's threat line if `board` is a defend position (see the module notes).
fn defend_position(board: &mut Board) -> Option<Vec<Pos>> {
    if has_threat_win(board, FIND) {
        return None;
    }
    board.pass();
    let threat = match Solver::new(FIND_NODES).vcf(board) {
        Solution::Win(l) => Some(l),
        Solution::NoWin => match Solver::new(FIND_NODES).vct(board, FIND_DEPTH) {
            Solution::Win(l) => Some(l),
            Solution::NoWin => None,
        },
    };
    board.undo();
    let threat = threat?;
    let me = board.side_to_move();
    // Not a bare three to block: the opponent cannot make an open four or a four-three at
    // once, and its threat takes at least two threat moves before the five.
    if crate::eval::level(board, me.opponent()) >= 5 || threat.len() < 5 {
        return None;
    }
    let mut cands: Vec<Pos> = board.candidates().collect();
    cands.retain(|&p| threats::legal(board, p, me));
    let holding: Vec<Pos> = cands
        .iter()
        .copied()
        .filter(|&p| holds_within(board, p, FIND))
        .collect();
    let ok = !holding.is_empty()
        && 2 * holding.len() <= cands.len()
        && !has_threat_win(board, FULL)
        && holding.iter().any(|&p| holds(board, p));
    ok.then_some(threat)
}

/// The tactics found in one game: at most one of each kind not in `skip`, the first position
/// of that kind from ply `min_ply` on.
#[must_use]
pub fn from_game(g: &GameRecord, min_ply: usize, skip: &[Kind]) -> Vec<Tactic> {
    let mut out: Vec<Tactic> = Vec::new();
    if g.rule != Rule::Renju || g.size != SIZE {
        return out;
    }
    let Ok(mut b) = Board::new(SIZE, Rule::Renju) else {
        return out;
    };
    let mut moves = Vec::new();
    for p in &g.plies {
        if moves.len() >= min_ply && rules::five_on_board(&b).is_none() {
            let have = |k: Kind| skip.contains(&k) || out.iter().any(|t| t.kind == k);
            let me = b.side_to_move();
            let immediate = threats::has_five(&b, me) || threats::has_five(&b, me.opponent());
            if !immediate {
                let mut found = None;
                if !have(Kind::Foul) {
                    found = foul_trap(&mut b, FIND)
                        .and_then(|_| foul_trap(&mut b, FULL))
                        .map(|l| (Kind::Foul, l));
                }
                if found.is_none() && !have(Kind::Vct) {
                    // The full budget from the start: the first VCT of a game is often one the
                    // cheap run misses, and those are the ones worth testing.
                    found = vct_only(&mut b, FULL).map(|l| (Kind::Vct, l));
                }
                if found.is_none() && !have(Kind::Defend) {
                    found = defend_position(&mut b).map(|l| (Kind::Defend, l));
                }
                if let Some((kind, line)) = found {
                    out.push(Tactic {
                        kind,
                        moves: moves.clone(),
                        line,
                    });
                } else if !have(Kind::Foul) && me == Color::Black {
                    // Forced fouls are rare on the games' own path: also try black's most
                    // plausible moves here (the best few by the static move order).
                    if let Some((m, line)) = foul_after_black(&mut b) {
                        let mut mv = moves.clone();
                        mv.push(m);
                        out.push(Tactic {
                            kind: Kind::Foul,
                            moves: mv,
                            line,
                        });
                    }
                }
            }
        }
        if rules::try_play(&mut b, p.mv).is_err() {
            break;
        }
        moves.push(p.mv);
    }
    out
}

/// Up to `per_kind` tactics of each kind from `games`, in game order, no position twice (up to
/// symmetry). Games are examined in parallel chunks, stopping after the chunk in which every
/// kind is complete, so the set does not depend on the thread count.
#[must_use]
pub fn generate(games: &[GameRecord], per_kind: usize, min_ply: usize) -> Vec<Tactic> {
    const CHUNK: usize = 64;
    let mut found: Vec<Vec<Tactic>> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut complete: Vec<Kind> = Vec::new();
    for chunk in games.chunks(CHUNK) {
        let new: Vec<Vec<Tactic>> = chunk
            .par_iter()
            .map(|g| from_game(g, min_ply, &complete))
            .collect();
        for mut v in new {
            v.retain(|t| seen.insert(crate::opening::canonical_position(&t.moves, SIZE)));
            found.push(v);
        }
        complete = Kind::ALL
            .into_iter()
            .filter(|&k| found.iter().flatten().filter(|t| t.kind == k).count() >= per_kind)
            .collect();
        if complete.len() == Kind::ALL.len() {
            break;
        }
    }
    let mut out = Vec::new();
    for kind in Kind::ALL {
        out.extend(
            found
                .iter()
                .flatten()
                .filter(|t| t.kind == kind)
                .take(per_kind)
                .cloned(),
        );
    }
    out
}

/// Check a tactic's label again from scratch: the position is legal, and it is of its kind.
///
/// # Errors
/// What does not hold.
pub fn verify(t: &Tactic) -> Result<(), String> {
    let mut b = t.board()?;
    match t.kind {
        Kind::Foul => {
            if b.side_to_move() != Color::White {
                return Err("foul: black to move".into());
            }
            crate::search::vcf::check_proof(&b, &t.line, true)?;
            if !ends_in_foul(&b, &t.line) {
                return Err("foul: the line does not end in a forced foul".into());
            }
            if !wins(&b, t.line[0]) {
                return Err("foul: the line's first move is not proven".into());
            }
        }
        Kind::Vct => {
            if solver().vcf(&mut b) != Solution::NoWin {
                return Err("vct: the side to move has a VCF".into());
            }
            crate::search::vcf::check_proof(&b, &t.line, false)?;
            if !wins(&b, t.line[0]) {
                return Err("vct: the line's first move is not proven".into());
            }
        }
        Kind::Defend => {
            if has_threat_win(&mut b, FULL) {
                return Err("defend: the side to move wins".into());
            }
            b.pass();
            crate::search::vcf::check_proof(&b, &t.line, false)?;
            b.undo();
            if !b.candidates().any(|p| holds(&b, p)) {
                return Err("defend: no move holds".into());
            }
        }
    }
    Ok(())
}

mod play;
pub use play::{engine_move, play_out, solves, Outcome};
