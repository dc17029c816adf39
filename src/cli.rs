//! The command line: subcommands other than the protocol engine.
//!
//! May import everything below it. Errors are one line on stderr and exit code 2; nothing
//! panics on bad input.

use crate::bench;
use crate::board::Board;
use crate::rules::{self, renju};
use crate::search::vcf::{Solution, Solver};
use crate::search::{Iteration, Limits, Reporter, Searcher};
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
    /// Fixed-depth benchmark; the node total is the behaviour signature.
    Bench {
        /// Search depth.
        #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
        depth: i32,
        /// Search each position for this many milliseconds instead of to a fixed depth (prints
        /// the depth reached; the node total is then no signature).
        #[arg(long)]
        movetime: Option<u64>,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = bench::DEFAULT_HASH_MB)]
        hash: usize,
    },
    /// Threat-space solver: does the side to move win by VCF (or VCT)?
    Solve {
        /// Rule: freestyle, standard, renju, caro, caro-overline (or a Gomocup number).
        #[arg(long)]
        rule: Rule,
        #[command(flatten)]
        position: PositionArgs,
        /// Search victory by continuous threats (fours and threes) instead of fours only.
        #[arg(long)]
        vct: bool,
        /// VCT depth in attacker moves.
        #[arg(long, default_value_t = 12)]
        vct_depth: u32,
        /// Node limit.
        #[arg(long, default_value_t = 2_000_000)]
        nodes: u64,
    },
    /// Self-play match between two fixed depths (each opening played twice, colours swapped).
    Selfplay {
        /// Rule.
        #[arg(long)]
        rule: Rule,
        /// Board side.
        #[arg(long, default_value_t = 15)]
        size: usize,
        /// Number of openings (two games each).
        #[arg(long, default_value_t = 10)]
        openings: usize,
        /// Depth of player A.
        #[arg(long)]
        depth_a: i32,
        /// Depth of player B.
        #[arg(long)]
        depth_b: i32,
        /// Evaluation weights of player B: index into the tuning variants (0 = the weights in
        /// use).
        #[arg(long, default_value_t = 0)]
        variant_b: usize,
        /// Opening seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Generate balanced openings (offset format, one per line) by the engine's own evaluation.
    Opengen {
        /// Rule.
        #[arg(long)]
        rule: Rule,
        /// Board side.
        #[arg(long, default_value_t = 15)]
        size: usize,
        /// Number of openings.
        #[arg(long, default_value_t = 40)]
        count: usize,
        /// Search depth of the balance check.
        #[arg(long, default_value_t = 6)]
        depth: i32,
        /// Keep openings whose value for the side to move lies within ±WINDOW.
        #[arg(long, default_value_t = 60)]
        window: i32,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Alpha-beta analysis: one line per depth, then the best move.
    #[command(group(ArgGroup::new("limit").required(true).args(["depth", "time"])))]
    Analyze {
        /// Rule: freestyle, standard, renju, caro, caro-overline (or a Gomocup number).
        #[arg(long)]
        rule: Rule,
        #[command(flatten)]
        position: PositionArgs,
        /// Fixed depth.
        #[arg(long)]
        depth: Option<i32>,
        /// Time limit in milliseconds.
        #[arg(long)]
        time: Option<u64>,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
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
        Some(Command::Bench {
            depth,
            movetime,
            threads,
            hash,
        }) => bench_command(depth, movetime, threads, hash, out),
        Some(Command::Solve {
            rule,
            position,
            vct,
            vct_depth,
            nodes,
        }) => solve_command(rule, &position, vct, vct_depth, nodes, out),
        Some(Command::Analyze {
            rule,
            position,
            depth,
            time,
            threads,
            hash,
        }) => analyze_command(rule, &position, depth, time, threads, hash, out),
        Some(Command::Opengen {
            rule,
            size,
            count,
            depth,
            window,
            seed,
        }) => opengen_command(rule, size, count, depth, window, seed, out),
        Some(Command::Selfplay {
            rule,
            size,
            openings,
            depth_a,
            depth_b,
            variant_b,
            seed,
        }) => selfplay_command(
            rule,
            size,
            openings,
            (depth_a, depth_b),
            variant_b,
            seed,
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

fn bench_command(
    depth: i32,
    movetime: Option<u64>,
    threads: usize,
    hash: usize,
    out: &mut dyn Write,
) -> Result<(), String> {
    if !(1..=64).contains(&depth) {
        return Err(format!("depth {depth} is out of range (1..=64)"));
    }
    check_threads_hash(threads, hash)?;
    let budget = match movetime {
        Some(0) => return Err("--movetime must be at least 1 ms".into()),
        Some(ms) => bench::Budget::MoveTime(ms),
        None => bench::Budget::Depth(depth),
    };
    bench::run(budget, threads, hash, out).map(|_| ())
}

fn line_text(line: &[Pos], size: usize) -> String {
    line.iter()
        .map(|p| p.to_renju(size))
        .collect::<Vec<_>>()
        .join(" ")
}

fn solve_command(
    rule: Rule,
    position: &PositionArgs,
    vct: bool,
    vct_depth: u32,
    nodes: u64,
    out: &mut dyn Write,
) -> Result<(), String> {
    let mut board = position.build(rule)?;
    let mut solver = Solver::new(nodes);
    let sol = if vct {
        solver.vct(&mut board, vct_depth.clamp(1, 64))
    } else {
        solver.vcf(&mut board)
    };
    let io = |e: std::io::Error| e.to_string();
    match sol {
        Solution::Win(line) => writeln!(out, "win {}", line_text(&line, board.size())).map_err(io),
        Solution::NoWin => writeln!(out, "no-win").map_err(io),
    }
}

struct PrintReporter<'a> {
    out: &'a mut dyn Write,
    size: usize,
}

impl Reporter for PrintReporter<'_> {
    fn iteration(&mut self, it: &Iteration) {
        let _ = writeln!(
            self.out,
            "depth {} score {} nodes {} time {} pv {}",
            it.depth,
            it.score,
            it.nodes,
            it.elapsed.as_millis(),
            line_text(&it.pv, self.size)
        );
    }
}

fn analyze_command(
    rule: Rule,
    position: &PositionArgs,
    depth: Option<i32>,
    time: Option<u64>,
    threads: usize,
    hash: usize,
    out: &mut dyn Write,
) -> Result<(), String> {
    let board = position.build(rule)?;
    check_threads_hash(threads, hash)?;
    let limits = match (depth, time) {
        (Some(d), _) if (1..=64).contains(&d) => Limits::depth(d),
        (Some(d), _) => return Err(format!("depth {d} is out of range (1..=64)")),
        (None, Some(ms)) => Limits::time_ms(ms),
        (None, None) => return Err("give --depth or --time".to_string()),
    };
    let mut searcher = Searcher::new(hash, threads);
    let size = board.size();
    let r = {
        let mut rep = PrintReporter {
            out: &mut *out,
            size,
        };
        searcher.search(&board, limits, &mut rep)
    };
    writeln!(out, "bestmove {}", r.best.to_renju(size)).map_err(|e| e.to_string())
}

fn selfplay_command(
    rule: Rule,
    size: usize,
    openings: usize,
    (depth_a, depth_b): (i32, i32),
    variant_b: usize,
    seed: u64,
    out: &mut dyn Write,
) -> Result<(), String> {
    use crate::eval::{VARIANTS, WEIGHTS};
    use crate::selfplay::{run, Player};
    check_size(size)?;
    if !(1..=20).contains(&depth_a) || !(1..=20).contains(&depth_b) {
        return Err("depths must be in 1..=20".to_string());
    }
    let wb = match variant_b {
        0 => WEIGHTS,
        k => *VARIANTS
            .get(k - 1)
            .ok_or_else(|| format!("unknown variant {k} (1..={})", VARIANTS.len()))?,
    };
    let a = Player {
        depth: depth_a,
        weights: WEIGHTS,
    };
    let b = Player {
        depth: depth_b,
        weights: wb,
    };
    let s = run(rule, size, openings, seed, &a, &b);
    writeln!(
        out,
        "A (depth {depth_a}) vs B (depth {depth_b}, variant {variant_b}): +{} -{} ={} (illegal moves: {})",
        s.wins, s.losses, s.draws, s.illegal
    )
    .map_err(|e| e.to_string())
}

fn opengen_command(
    rule: Rule,
    size: usize,
    count: usize,
    depth: i32,
    window: i32,
    seed: u64,
    out: &mut dyn Write,
) -> Result<(), String> {
    check_size(size)?;
    if !(1..=12).contains(&depth) || count == 0 || count > 10_000 || window < 0 {
        return Err("need 1 <= depth <= 12, 1 <= count <= 10000, window >= 0".to_string());
    }
    let list = crate::opening::generate(rule, size, count, depth, window, seed);
    let io = |e: std::io::Error| e.to_string();
    writeln!(
        out,
        "# {} balanced {rule} {size}x{size} openings: renju-engine opengen --rule {rule} --size {size} --count {count} --depth {depth} --window {window} --seed {seed}",
        list.len()
    )
    .map_err(io)?;
    writeln!(
        out,
        "# offset format: dx,dy from the centre (size/2, size/2), Gomocup axes (y down), black first; each kept opening scored within +-{window} for the side to move at depth {depth}"
    )
    .map_err(io)?;
    let c = (size / 2) as i64;
    for o in list {
        let line: Vec<String> = o
            .iter()
            .map(|p| format!("{},{}", p.x(size) as i64 - c, p.y(size) as i64 - c))
            .collect();
        writeln!(out, "{}", line.join(", ")).map_err(io)?;
    }
    Ok(())
}
