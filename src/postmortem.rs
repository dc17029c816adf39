//! Post-mortem of a match's decisive games by threats (`renju-engine postmortem`): in each game,
//! the first position where the winner, to move, has a VCT (a VCF included) the solver proves,
//! and what the loser's move just before it was:
//!
//! * **allowed**: some other legal move of the loser leaves the winner no VCT (the solver
//!   exhausts its search without one). The move played let a threat sequence in that another
//!   move kept out, at least to the solver's depth; the other move need not hold the game.
//! * **lost**: after every legal move of the loser the winner has a proven VCT: the game was
//!   decided before the first VCT appeared (by a quiet winning move the threat solvers do
//!   not see).
//! * **unclear**: no move was shown to keep the VCT out, but some ran out of solver nodes.
//!
//! Games are read from the arena's `game-NNNNN.psq` records (one `x,y,ms` line per stone,
//! 1-based); in an arena pairing the first engine plays black in the odd-numbered games.
//!
//! May import every module (it sits beside the command line).

use crate::board::Board;
use crate::opening;
use crate::rules;
use crate::search::threats::legal;
use crate::search::vcf::{Solution, Solver};
use crate::types::{Color, Pos, Rule};
use std::path::{Path, PathBuf};

/// VCT depth (attacker threat moves) of every solver run.
pub const VCT_DEPTH: u32 = 12;

/// How a decisive game was decided (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decided {
    /// The loser's move let in a VCT another move kept out.
    Allowed,
    /// Every move of the loser let one in.
    Lost,
    /// No move was shown to keep it out; some were not settled.
    Unclear,
}

impl Decided {
    /// The name printed.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Decided::Allowed => "allowed",
            Decided::Lost => "lost",
            Decided::Unclear => "unclear",
        }
    }
}

/// The post-mortem of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No five at the end.
    Draw,
    /// A decisive game.
    Decisive {
        /// The winner's colour.
        winner: Color,
        /// Stones on the board at the first position where the winner, to move, has a
        /// proven VCT.
        ply: usize,
        /// What the loser's move before it was.
        decided: Decided,
        /// Solver nodes (a power of two from 1,000) that proved the winner's VCT there.
        proof_nodes: u64,
    },
}

/// The stones of an arena psq record (1-based `x,y,ms` lines after the header line, up to the
/// first line of another form): each stone's cell and the milliseconds taken.
///
/// # Errors
/// A cell off a `size` board or a cell played twice.
pub fn parse_psq(text: &str, size: usize) -> Result<Vec<(Pos, u64)>, String> {
    let mut seen = vec![false; size * size];
    let mut stones = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let nums: Option<Vec<usize>> = (f.len() == 3)
            .then(|| f.iter().map(|s| s.parse().ok()).collect())
            .flatten();
        let Some(v) = nums else { break };
        if !(1..=size).contains(&v[0]) || !(1..=size).contains(&v[1]) {
            return Err(format!(
                "cell {},{} is off a {size}x{size} board",
                v[0], v[1]
            ));
        }
        let p = Pos::new(v[0] - 1, v[1] - 1, size);
        if std::mem::replace(&mut seen[p.index()], true) {
            return Err(format!("cell {},{} played twice", v[0], v[1]));
        }
        stones.push((p, v[2] as u64));
    }
    Ok(stones)
}

/// The arena's game records in `dir` (`game-NNNNN.psq`), as (number, path) in number order.
///
/// # Errors
/// The directory cannot be read or holds no such record.
pub fn psq_records(dir: &Path) -> Result<Vec<(usize, PathBuf)>, String> {
    let mut files: Vec<(usize, PathBuf)> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| {
            let path = e.ok()?.path();
            let name = path.file_name()?.to_str()?;
            let n = name
                .strip_prefix("game-")?
                .strip_suffix(".psq")?
                .parse()
                .ok()?;
            Some((n, path))
        })
        .collect();
    if files.is_empty() {
        return Err(format!("{}: no game-NNNNN.psq records", dir.display()));
    }
    files.sort();
    Ok(files)
}

/// A VCT for the side to move within `nodes`: (found, the search ran out of nodes).
fn vct(board: &mut Board, nodes: u64) -> (bool, bool) {
    let mut s = Solver::new(nodes);
    let won = matches!(s.vct(board, VCT_DEPTH), Solution::Win(_));
    (won, !won && s.gave_up())
}

/// The post-mortem of the game `moves` (from an empty board) under `rule`, each solver run
/// within `nodes` nodes.
///
/// # Errors
/// A board size out of range, an illegal move in the record, or a five before its last stone.
pub fn verdict(moves: &[Pos], rule: Rule, size: usize, nodes: u64) -> Result<Verdict, String> {
    let Some((&last, head)) = moves.split_last() else {
        return Ok(Verdict::Draw);
    };
    // The record checked once: legal stones, no five before the last one.
    let mut end = opening::board_of(rule, size, head)?;
    rules::try_play(&mut end, last).map_err(|e| format!("move {}: {e}", moves.len()))?;
    if !rules::is_win(&end, last) {
        return Ok(Verdict::Draw);
    }
    let winner = if moves.len() % 2 == 1 {
        Color::Black
    } else {
        Color::White
    };
    // The first position (after at least one stone) where the winner to move has a VCT; the
    // winner has a five point before its last stone at the latest.
    let mut at = Board::new(size, rule).map_err(|e| e.to_string())?;
    let mut ply = 0;
    for &m in head {
        at.play_unchecked(m);
        ply += 1;
        if at.side_to_move() == winner && vct(&mut at, nodes).0 {
            break;
        }
    }
    let mut proof_nodes = nodes;
    let mut n = 1_000;
    while n < nodes {
        if vct(&mut at, n).0 {
            proof_nodes = n;
            break;
        }
        n *= 2;
    }
    let mut before = at.clone();
    before.undo();
    let loser = winner.opponent();
    let mut unsettled = false;
    let mut decided = Decided::Lost;
    for m in before.candidates().collect::<Vec<_>>() {
        if !legal(&mut before, m, loser) {
            continue;
        }
        before.play_unchecked(m);
        let five = rules::is_win(&before, m);
        let (won, out) = if five {
            (false, false)
        } else {
            vct(&mut before, nodes)
        };
        before.undo();
        if !won && !out {
            decided = Decided::Allowed;
            break;
        }
        unsettled |= out;
    }
    if decided == Decided::Lost && unsettled {
        decided = Decided::Unclear;
    }
    Ok(Verdict::Decisive {
        winner,
        ply,
        decided,
        proof_nodes,
    })
}
