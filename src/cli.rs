//! The command line: subcommands other than the protocol engine.
//!
//! May import everything below it. Errors are one line on stderr and exit code 2; nothing
//! panics on bad input.

use crate::board::Board;
use crate::rules::{self, renju};
use crate::types::{parse_renju_list, valid_size, Color, Pos, Rule, MAX_SIZE, MIN_SIZE};
use clap::{ArgGroup, Parser, Subcommand};
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
    #[command(group(ArgGroup::new("position").required(true).args(["moves", "black"])))]
    Fouls {
        /// Board side (5..=22).
        #[arg(long, default_value_t = 15)]
        size: usize,
        /// Moves in renju notation, alternating from black ("h8 h9 i8", "h8,h9,i8" or "h8h9i8").
        #[arg(long, conflicts_with_all = ["black", "white"])]
        moves: Option<String>,
        /// Black stones in renju notation (any number).
        #[arg(long)]
        black: Option<String>,
        /// White stones in renju notation (any number; used with --black).
        #[arg(long, requires = "black")]
        white: Option<String>,
        /// Print the board with fouls marked 3 (double-three), 4 (double-four), 6 (overline).
        #[arg(long)]
        diagram: bool,
    },
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
        Some(Command::Fouls {
            size,
            moves,
            black,
            white,
            diagram,
        }) => fouls_command(
            size,
            moves.as_deref(),
            black.as_deref(),
            white.as_deref(),
            diagram,
            out,
        ),
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
    if !valid_size(size) {
        return Err(format!(
            "board size {size} is not supported ({MIN_SIZE}..={MAX_SIZE})"
        ));
    }
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

fn fouls_command(
    size: usize,
    moves: Option<&str>,
    black: Option<&str>,
    white: Option<&str>,
    diagram: bool,
    out: &mut dyn Write,
) -> Result<(), String> {
    let mut board = build_position(size, Rule::Renju, moves, black, white)?;
    let mut fouls = renju::all_fouls(&mut board);
    fouls.sort_by_key(|&(p, _)| (p.x(size), size - p.y(size)));
    let io = |e: std::io::Error| e.to_string();
    if diagram {
        let text =
            board.diagram_with(|p| fouls.iter().find(|&&(q, _)| q == p).map(|&(_, k)| k.mark()));
        write!(out, "{text}").map_err(io)?;
    }
    for (p, k) in &fouls {
        writeln!(out, "{} {}", p.to_renju(size), k).map_err(io)?;
    }
    Ok(())
}
