//! The command line: subcommands other than the protocol engine.
//!
//! May import everything below it. Errors are one line on stderr and exit code 2; nothing
//! panics on bad input. Each subcommand is an argument struct with a `run` method, in a room by
//! what it does: `inspect` (one position: fouls, solve, analyze, bench), `learn` (datagen,
//! import, tune), `play` (selfplay, opengen, tacticsgen, tactics, postmortem). This file parses the
//! arguments, dispatches, and holds what they share (positions, range checks).

mod inspect;
mod learn;
mod play;

use crate::board::Board;
use crate::rules;
use crate::types::{parse_renju_list, valid_size, Color, Pos, Rule, MAX_SIZE, MIN_SIZE};
use clap::{ArgGroup, Args, Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;

/// Exit code for bad input.
pub const EXIT_BAD_INPUT: i32 = 2;

#[derive(Parser, Debug)]
#[command(name = "renju-engine", version, about = "A Gomoku/Renju engine", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print every forbidden point (foul) for black in a renju position.
    Fouls(inspect::FoulsArgs),
    /// Fixed-depth benchmark; the node total is the behaviour signature.
    Bench(inspect::BenchArgs),
    /// Threat-space solver: does the side to move win by VCF (or VCT)?
    Solve(inspect::SolveArgs),
    /// Self-play match between two fixed depths (each opening played twice, colours swapped).
    Selfplay(play::SelfplayArgs),
    /// Self-play games for fitting the evaluation, appended to a binary data file (see the
    /// `datagen` module for the format); rerun the same command to resume.
    Datagen(learn::DatagenArgs),
    /// Positions from inside the search tree for fitting the evaluation: the quiescence
    /// stand-pats of searches of datagen positions, each labelled by a search of its own,
    /// appended to a datagen file (see `src/datagen/leaves.rs`).
    Leaves(learn::LeavesArgs),
    /// Match records as fitting data: every arena game record (`game-NNNNN.psq`) in the
    /// directories, its result read from the board (the last stone's five; none: a draw),
    /// written to a datagen file for `tune`.
    Import(learn::ImportArgs),
    /// Make renju tactical test positions (forced-foul wins, VCT-only wins, defences against a
    /// threat) from datagen games, each verified with the solvers (see `src/tactics.rs`).
    Tacticsgen(play::TacticsgenArgs),
    /// Post-mortem of a match's decisive games by threats: where the winner first had a VCT and
    /// whether the loser's move before it let it in (see `src/postmortem.rs`).
    Postmortem(play::PostmortemArgs),
    /// Measure the engine on a file of tactics: its move in each position, searched as the
    /// protocol engine searches a turn, is checked by the solvers; prints the counts per kind.
    Tactics(play::TacticsArgs),
    /// Fit the evaluation weights of one rule to datagen games (logistic regression on the
    /// pattern-code features) and write them in the embedded weight format.
    Tune(learn::TuneArgs),
    /// Fit the evaluation network of one rule to datagen games (see `src/train/`): value and
    /// policy, Adam on all cores, a network file after every epoch.
    Train(learn::TrainArgs),
    /// Generate balanced openings (offset format, one per line) by the engine's own evaluation.
    Opengen(play::OpengenArgs),
    /// Alpha-beta analysis: one line per depth, then the best move.
    Analyze(inspect::AnalyzeArgs),
}

/// A position on the command line: a move list, or stone lists with the side to move.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("stones").required(true).multiple(true).args(["moves", "black", "white"])))]
struct PositionArgs {
    /// Board side (5..=22).
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// Moves in renju notation, alternating from black.
    #[arg(long, conflicts_with_all = ["black", "white", "to_move"])]
    moves: Option<String>,
    /// Black stones (any number).
    #[arg(long)]
    black: Option<String>,
    /// White stones (any number).
    #[arg(long)]
    white: Option<String>,
    /// Side to move with --black/--white (default: black if the counts are equal, else white).
    #[arg(long)]
    to_move: Option<Color>,
}

impl PositionArgs {
    fn build(&self, rule: Rule) -> Result<Board, String> {
        let mut b = build_position(
            self.size,
            rule,
            self.moves.as_deref(),
            self.black.as_deref().or(Some("")),
            self.white.as_deref(),
        )?;
        if self.moves.is_none() {
            let (mut nb, mut nw) = (0, 0);
            for p in b.cells() {
                match b.stone(p) {
                    Some(Color::Black) => nb += 1,
                    Some(Color::White) => nw += 1,
                    None => {}
                }
            }
            let want = self
                .to_move
                .unwrap_or(if nb == nw { Color::Black } else { Color::White });
            if b.side_to_move() != want {
                b.pass();
            }
        }
        if b.empty_cells().next().is_none() {
            return Err("the board is full".to_string());
        }
        Ok(b)
    }
}

/// Run the command line with `args` (program name first), writing to `out` and `err`.
/// Returns the process exit code.
pub fn run(
    args: impl IntoIterator<Item = OsString>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = write!(out, "{e}");
                return 0;
            }
            let _ = writeln!(err, "{}", one_line(&e.to_string()));
            return EXIT_BAD_INPUT;
        }
    };
    let result = match cli.command {
        None => {
            Err("the protocol engine is not built yet; use a subcommand (see --help)".to_string())
        }
        Some(Command::Fouls(a)) => a.run(out),
        Some(Command::Bench(a)) => a.run(out),
        Some(Command::Solve(a)) => a.run(out),
        Some(Command::Analyze(a)) => a.run(out),
        Some(Command::Selfplay(a)) => a.run(out),
        Some(Command::Opengen(a)) => a.run(out),
        Some(Command::Datagen(a)) => a.run(out, err),
        Some(Command::Leaves(a)) => a.run(out, err),
        Some(Command::Tune(a)) => a.run(out),
        Some(Command::Train(a)) => a.run(out),
        Some(Command::Import(a)) => a.run(out),
        Some(Command::Tacticsgen(a)) => a.run(out),
        Some(Command::Postmortem(a)) => a.run(out),
        Some(Command::Tactics(a)) => a.run(out),
    };
    match result {
        Ok(()) => 0,
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            EXIT_BAD_INPUT
        }
    }
}

/// Fold a multi-line clap message into one line: everything before its usage section, with
/// whitespace collapsed (so "required arguments were not provided" names them).
fn one_line(text: &str) -> String {
    let head = text.split("\nUsage:").next().unwrap_or(text);
    let head = head
        .split("\n\nFor more information")
        .next()
        .unwrap_or(head);
    let folded = head.split_whitespace().collect::<Vec<_>>().join(" ");
    if folded.is_empty() {
        "error: bad arguments".to_string()
    } else {
        folded
    }
}

/// A supported board side, or the one-line error.
fn check_size(size: usize) -> Result<(), String> {
    if valid_size(size) {
        Ok(())
    } else {
        Err(format!(
            "board size {size} is not supported ({MIN_SIZE}..={MAX_SIZE})"
        ))
    }
}

/// Thread count and table size within range, or the one-line error.
/// The datagen games of the comma-separated file list `files` (empty entries skipped).
fn read_games(files: &str) -> Result<Vec<crate::datagen::GameRecord>, String> {
    let mut games = Vec::new();
    for f in files.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        games.extend(crate::datagen::read_file(std::path::Path::new(f))?);
    }
    Ok(games)
}

/// `--threads`, or every core when it is absent; 1..=256.
fn threads_or_all(threads: Option<usize>) -> Result<usize, String> {
    let n = threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    if (1..=256).contains(&n) {
        Ok(n)
    } else {
        Err("--threads must be in 1..=256".into())
    }
}

fn check_threads_hash(threads: usize, hash: usize) -> Result<(), String> {
    if threads == 0 || threads > 256 {
        return Err(format!("thread count {threads} is out of range (1..=256)"));
    }
    if hash == 0 || hash > 65_536 {
        return Err(format!("hash size {hash} MB is out of range (1..=65536)"));
    }
    Ok(())
}

/// Build a renju-rule position from a move list or stone lists.
///
/// # Errors
/// A one-line message for a bad size, coordinate, occupied point, or a five on the board.
pub fn build_position(
    size: usize,
    rule: Rule,
    moves: Option<&str>,
    black: Option<&str>,
    white: Option<&str>,
) -> Result<Board, String> {
    check_size(size)?;
    let mut board = Board::new(size, rule).map_err(|e| e.to_string())?;
    let mut stones: Vec<(Pos, Color)> = Vec::new();
    if let Some(m) = moves {
        let list = parse_renju_list(m, size).map_err(|e| e.to_string())?;
        for (i, p) in list.into_iter().enumerate() {
            stones.push((
                p,
                if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
            ));
        }
    } else {
        for (list, c) in [(black, Color::Black), (white, Color::White)] {
            if let Some(s) = list {
                for p in parse_renju_list(s, size).map_err(|e| e.to_string())? {
                    stones.push((p, c));
                }
            }
        }
    }
    for (p, c) in stones {
        if !board.is_empty(p) {
            return Err(format!("point {} is already occupied", p.to_renju(size)));
        }
        board.put_unchecked(p, c);
    }
    if let Some((c, p)) = rules::five_on_board(&board) {
        return Err(format!(
            "the position already has a five ({c} at {})",
            p.to_renju(size)
        ));
    }
    Ok(board)
}

/// A line of moves in renju notation, space-separated.
fn line_text(line: &[Pos], size: usize) -> String {
    line.iter()
        .map(|p| p.to_renju(size))
        .collect::<Vec<_>>()
        .join(" ")
}
