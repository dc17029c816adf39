//! The command line: subcommands other than the protocol engine.
//!
//! May import everything below it. Errors are one line on stderr and exit code 2; nothing
//! panics on bad input.

use crate::bench;
use crate::board::Board;
use crate::eval::is_mate;
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
        /// Opening seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Self-play games for fitting the evaluation, appended to a binary data file (see the
    /// `datagen` module for the format); rerun the same command to resume.
    Datagen {
        /// Rules and board sides, comma-separated, cycled game by game (e.g.
        /// `renju15,freestyle20,standard15`).
        #[arg(long, default_value = "renju15")]
        rules: String,
        /// Games the file should hold at the end (games already in it count).
        #[arg(long)]
        games: usize,
        /// Nodes searched per ply.
        #[arg(long, default_value_t = 20_000)]
        nodes: u64,
        /// Keep a random opening only when its first search scores within this many points.
        #[arg(long, default_value_t = 150)]
        balance: i32,
        /// Threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Random seed (game `i` of a seed is always the same game).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Transposition table per thread in MB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// The data file (created if missing, appended to otherwise).
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Make renju tactical test positions (forced-foul wins, VCT-only wins, defences against a
    /// threat) from datagen games, each verified with the solvers (see `src/tactics.rs`).
    Tacticsgen {
        /// Datagen files, comma-separated (their renju 15 games are used).
        #[arg(long)]
        data: String,
        /// Positions of each kind at most.
        #[arg(long, default_value_t = 100)]
        per_kind: usize,
        /// First ply examined in each game.
        #[arg(long, default_value_t = 8)]
        min_ply: usize,
        /// Use only the first N games.
        #[arg(long)]
        games: Option<usize>,
        /// Output file (the tactics format).
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Post-mortem of a match's decisive games by threats: where the winner first had a VCT and
    /// whether the loser's move before it let it in (see `src/postmortem.rs`).
    Postmortem {
        /// Directory of the match's arena records (`game-NNNNN.psq`).
        #[arg(long)]
        dir: std::path::PathBuf,
        /// Rule of the games.
        #[arg(long, default_value = "renju")]
        rule: Rule,
        /// Board side.
        #[arg(long, default_value_t = 15)]
        size: usize,
        /// Node limit of each solver run.
        #[arg(long, default_value_t = 100_000)]
        nodes: u64,
        /// Use only the first N records.
        #[arg(long)]
        games: Option<usize>,
    },
    /// Measure the engine on a file of tactics: its move in each position, searched as the
    /// protocol engine searches a turn, is checked by the solvers; prints the counts per kind.
    Tactics {
        /// The tactics file.
        #[arg(long)]
        file: std::path::PathBuf,
        /// Turn time in milliseconds (the protocol's `timeout_turn`).
        #[arg(long, default_value_t = 500)]
        turn_ms: u64,
        /// Search to this depth instead of for a turn's time.
        #[arg(long)]
        depth: Option<i32>,
        /// Print every position's result.
        #[arg(long)]
        verbose: bool,
        /// Instead of judging one move, play every foul and vct position out with the engine on
        /// both sides (turn time as above, at most 80 plies, two positions at a time) and count
        /// the wins converted.
        #[arg(long, conflicts_with = "depth")]
        play: bool,
    },
    /// Fit the evaluation weights of one rule to datagen games (logistic regression on the
    /// pattern-code features) and write them in the embedded weight format.
    Tune {
        /// Rule whose games are used and whose weights are fitted.
        #[arg(long)]
        rule: Rule,
        /// Datagen files, comma-separated.
        #[arg(long, required_unless_present = "hand")]
        data: Option<String>,
        /// Passes over the training positions.
        #[arg(long, default_value_t = 20)]
        epochs: usize,
        /// Adam step size (logistic units).
        #[arg(long, default_value_t = 0.002)]
        lr: f64,
        /// L2 penalty on each code's distance from its class weight.
        #[arg(long, default_value_t = 1e-5)]
        l2: f64,
        /// Weight of the search score in the target (0 = game results only).
        #[arg(long, default_value_t = 0.0)]
        lambda: f64,
        /// Positions per minibatch.
        #[arg(long, default_value_t = 1024)]
        batch: usize,
        /// Shuffle seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write the hand weights in pattern-code form instead of fitting (at the scale that
        /// fits the data best, or --scale without data).
        #[arg(long)]
        hand: bool,
        /// Fit only one weight per class (and the combination table): the form the engine
        /// plays without incremental code sums (see `eval::evaluate`).
        #[arg(long)]
        class_only: bool,
        /// Start from the embedded weights (the incumbent) instead of the hand weights.
        #[arg(long)]
        from_embedded: bool,
        /// Points per logistic unit of the data's search scores (the target with --lambda);
        /// 0 fits it to the training results.
        #[arg(long, default_value_t = 0.0)]
        score_scale: f64,
        /// Fit only positions where both sides' threat levels (`eval::level`: 1 closed three
        /// makeable ... 4 a four, 5 a four-three, 6 an open four, 7 a five) are below this
        /// (8 keeps every position).
        #[arg(long, default_value_t = 8)]
        max_level: usize,
        /// Fit the move-ordering weights instead (softmax towards the searched best move; an
        /// attack weight for the mover's code and a defence weight for the opponent's code of
        /// each cell); writes them as `attack|defence <colour> <code> <weight x 100>` lines.
        #[arg(long, conflicts_with = "hand")]
        policy: bool,
        /// Scale (points per logistic unit) for --hand without data.
        #[arg(long, default_value_t = 100)]
        scale: i32,
        /// Output weight file.
        #[arg(long)]
        out: std::path::PathBuf,
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
        /// Depth of a second, deeper balance check a kept opening must also pass.
        #[arg(long)]
        confirm_depth: Option<i32>,
        /// Keep openings whose value for the side to move lies within CENTER ± WINDOW.
        #[arg(long, default_value_t = 60)]
        window: i32,
        /// Centre of the kept values for the side to move (negative: the side that moved last
        /// is ahead by the evaluation).
        #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
        center: i32,
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
            confirm_depth,
            window,
            center,
            seed,
        }) => opengen_command(
            crate::opening::GenSpec {
                rule,
                size,
                count,
                depth,
                confirm_depth,
                window,
                center,
                seed,
            },
            out,
        ),
        Some(Command::Datagen {
            rules,
            games,
            nodes,
            balance,
            threads,
            seed,
            hash,
            out: path,
        }) => datagen_command(
            &rules,
            games,
            nodes,
            balance,
            threads,
            (seed, hash),
            &path,
            (&mut *out, &mut *err),
        ),
        Some(Command::Tune {
            rule,
            data,
            epochs,
            lr,
            l2,
            lambda,
            batch,
            seed,
            hand,
            policy,
            class_only,
            from_embedded,
            score_scale,
            max_level,
            scale,
            out: path,
        }) => tune_command(
            rule,
            data.as_deref(),
            &crate::tune::Settings {
                epochs,
                lr,
                l2,
                lambda,
                batch,
                seed,
                class_only,
                from_embedded,
                score_scale,
            },
            (hand, policy, scale, max_level),
            &path,
            out,
        ),
        Some(Command::Tacticsgen {
            data,
            per_kind,
            min_ply,
            games,
            out: path,
        }) => tacticsgen_command(&data, per_kind, (min_ply, games), &path, out),
        Some(Command::Postmortem {
            dir,
            rule,
            size,
            nodes,
            games,
        }) => postmortem_command(&dir, rule, size, nodes, games, out),
        Some(Command::Tactics {
            file,
            turn_ms,
            depth,
            verbose,
            play,
        }) => tactics_command(&file, turn_ms, depth, (verbose, play), out),
        Some(Command::Selfplay {
            rule,
            size,
            openings,
            depth_a,
            depth_b,
            seed,
        }) => selfplay_command(rule, size, openings, (depth_a, depth_b), seed, out),
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
    let kind = if vct { "vct" } else { "vcf" };
    writeln!(out, "side {} {kind}", board.side_to_move()).map_err(io)?;
    match sol {
        Solution::Win(line) => writeln!(out, "win {}", line_text(&line, board.size())).map_err(io),
        Solution::NoWin => writeln!(out, "no-win").map_err(io),
    }
}

struct PrintReporter<'a> {
    out: &'a mut dyn Write,
    size: usize,
}

impl PrintReporter<'_> {
    fn line(&mut self, depth: i32, score: i32, nodes: u64, ms: u128, pv: &[Pos], note: &str) {
        let _ = writeln!(
            self.out,
            "depth {depth} score {score} nodes {nodes} time {ms} pv {}{note}",
            line_text(pv, self.size)
        );
    }
}

impl Reporter for PrintReporter<'_> {
    fn iteration(&mut self, it: &Iteration) {
        self.line(
            it.depth,
            it.score,
            it.nodes,
            it.elapsed.as_millis(),
            &it.pv,
            "",
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
    let start = std::time::Instant::now();
    let r = {
        let mut rep = PrintReporter {
            out: &mut *out,
            size,
        };
        let r = searcher.search(&board, limits, &mut rep);
        if r.depth == 0 {
            // No iteration completed: a proven win or loss, a forced move (answered before any
            // node is searched), or a search stopped inside its first iteration.
            let note = if is_mate(r.score) {
                " (proven)"
            } else if r.nodes == 0 {
                " (forced)"
            } else {
                " (stopped)"
            };
            let pv = if r.pv.is_empty() {
                vec![r.best]
            } else {
                r.pv.clone()
            };
            let ms = start.elapsed().as_millis();
            rep.line(r.depth, r.score, r.nodes, ms, &pv, note);
        }
        r
    };
    writeln!(out, "bestmove {}", r.best.to_renju(size)).map_err(|e| e.to_string())
}

#[allow(clippy::too_many_arguments)]
fn datagen_command(
    rules: &str,
    games: usize,
    nodes: u64,
    balance: i32,
    threads: Option<usize>,
    (seed, hash): (u64, usize),
    path: &std::path::Path,
    (out, err): (&mut dyn Write, &mut dyn Write),
) -> Result<(), String> {
    use crate::datagen::{parse_variants, run, Config};
    let variants = parse_variants(rules)?;
    if nodes == 0 {
        return Err("--nodes must be at least 1".into());
    }
    if !(1..=4096).contains(&hash) {
        return Err("--hash must be in 1..=4096".into());
    }
    let threads = threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    if !(1..=256).contains(&threads) {
        return Err("--threads must be in 1..=256".into());
    }
    let cfg = Config {
        variants,
        nodes,
        balance,
        seed,
        hash_mb: hash,
    };
    let t = run(&cfg, path, games, threads, err)?;
    writeln!(
        out,
        "datagen: {} games in {} ({} new: {} positions in {:.1} s, {:.0} positions/s, {} threads)",
        t.games,
        path.display(),
        t.new_games,
        t.new_positions,
        t.seconds,
        t.new_positions as f64 / t.seconds.max(1e-9),
        threads
    )
    .map_err(|e| e.to_string())
}

fn tune_command(
    rule: Rule,
    data: Option<&str>,
    st: &crate::tune::Settings,
    (hand, policy, scale, max_level): (bool, bool, i32, usize),
    path: &std::path::Path,
    out: &mut dyn Write,
) -> Result<(), String> {
    use crate::eval::{from_vector, hand_code_weights};
    use crate::tune::{build, fit, fit_hand_scale, hand_loss, integer_vector};
    let io = |e: std::io::Error| e.to_string();
    if !(1..=100_000).contains(&scale) {
        return Err("--scale must be in 1..=100000".into());
    }
    if !(0.0..=1.0).contains(&st.lambda)
        || st.lr.is_nan()
        || st.lr <= 0.0
        || st.l2.is_nan()
        || st.l2 < 0.0
        || st.batch == 0
        || st.score_scale.is_nan()
        || st.score_scale < 0.0
    {
        return Err(
            "--lambda must be in 0..=1, --lr > 0, --l2 >= 0, --batch >= 1, --score-scale >= 0"
                .into(),
        );
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut comment = vec![format!("renju-engine {}", args.join(" "))];
    let symmetric = rule != Rule::Renju;
    let mut games = Vec::new();
    if let Some(files) = data {
        for f in files.split(',').map(str::trim).filter(|f| !f.is_empty()) {
            games.extend(crate::datagen::read_file(std::path::Path::new(f))?);
        }
    }
    if policy {
        use crate::pattern::code::CODES;
        let (train, valid) = crate::tune::build_policy(&games, rule);
        if train.is_empty() || valid.is_empty() {
            return Err(format!("no {rule} positions to fit in the data"));
        }
        let w = crate::tune::fit_policy(&train, &valid, st, out);
        let (vl, va) = crate::tune::policy_loss(&valid, &w);
        let line = format!(
            "move ordering, valid top-1: hand {:.4}, fitted {va:.4} (fitted loss {vl:.4}); {} + {} positions",
            crate::tune::hand_policy_accuracy(&valid),
            train.len(),
            valid.len()
        );
        writeln!(out, "tune: {line}").map_err(io)?;
        comment.push(line);
        let mut text = String::new();
        for c in &comment {
            text.push_str(&format!("# {c}\n"));
        }
        let slots: &[(usize, &str)] = if symmetric {
            &[(0, "both")]
        } else {
            &[(0, "black"), (1, "white")]
        };
        for (part, name) in [(0, "attack"), (1, "defence")] {
            for &(slot, cname) in slots {
                for code in 1..CODES {
                    let v = (w[(part * 2 + slot) * CODES + code] * 100.0).round() as i64;
                    if v != 0 {
                        text.push_str(&format!("{name} {cname} {code} {v}\n"));
                    }
                }
            }
        }
        std::fs::write(path, text).map_err(io)?;
        return writeln!(out, "tune: wrote {}", path.display()).map_err(io);
    }
    if !(1..=crate::pattern::code::LEVELS).contains(&max_level) {
        return Err(format!(
            "--max-level must be in 1..={}",
            crate::pattern::code::LEVELS
        ));
    }
    let (train, valid) = build(&games, rule, max_level);
    if hand {
        let scale = if train.is_empty() {
            scale
        } else {
            let s = fit_hand_scale(&train);
            let line = format!(
                "hand weights at the best-fitting scale; train loss {:.5}, valid loss {:.5} ({} + {} positions)",
                hand_loss(&train, s),
                hand_loss(&valid, s),
                train.len(),
                valid.len()
            );
            writeln!(out, "tune: {line}").map_err(io)?;
            comment.push(line);
            (1.0 / s).round().clamp(1.0, 100_000.0) as i32
        };
        let w = hand_code_weights(rule, scale);
        std::fs::write(path, w.to_text(&comment, symmetric)).map_err(io)?;
        return writeln!(out, "tune: wrote {}", path.display()).map_err(io);
    }
    if train.is_empty() || valid.is_empty() {
        return Err(format!("no {rule} positions to fit in the data"));
    }
    let f = fit(&train, &valid, rule, st, out);
    let line = format!(
        "{} games, {} training + {} validation positions; valid loss: hand {:.5}, embedded {:.5}, fitted {:.5} (epoch {}; train: hand {:.5}, fitted {:.5})",
        games.iter().filter(|g| g.rule == rule).count(),
        train.len(),
        valid.len(),
        f.hand_loss.1,
        f.embedded_loss,
        f.fitted_loss.1,
        f.kept_epoch,
        f.hand_loss.0,
        f.fitted_loss.0
    );
    writeln!(out, "tune: {line}").map_err(io)?;
    comment.push(line);
    let mut w = from_vector(&integer_vector(&f.weights, f.scale), rule, f.scale);
    w.scale = f.calibrated;
    std::fs::write(path, w.to_text(&comment, symmetric)).map_err(io)?;
    writeln!(out, "tune: wrote {}", path.display()).map_err(io)
}

fn tacticsgen_command(
    data: &str,
    per_kind: usize,
    (min_ply, max_games): (usize, Option<usize>),
    path: &std::path::Path,
    out: &mut dyn Write,
) -> Result<(), String> {
    use crate::tactics::{generate, verify, Kind};
    let io = |e: std::io::Error| e.to_string();
    let mut games = Vec::new();
    for f in data.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        games.extend(crate::datagen::read_file(std::path::Path::new(f))?);
    }
    games.retain(|g| g.rule == crate::types::Rule::Renju && g.size == crate::tactics::SIZE);
    games.truncate(max_games.unwrap_or(usize::MAX));
    let start = std::time::Instant::now();
    let set = generate(&games, per_kind, min_ply);
    for t in &set {
        verify(t)
            .map_err(|e| format!("a generated tactic fails its check ({e}): {}", t.to_line()))?;
    }
    let count = |k: Kind| set.iter().filter(|t| t.kind == k).count();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut text = format!(
        "# renju-engine {}\n# {} games; foul {}, vct {}, defend {}; {:.0} s\n",
        args.join(" "),
        games.len(),
        count(Kind::Foul),
        count(Kind::Vct),
        count(Kind::Defend),
        start.elapsed().as_secs_f64()
    );
    for t in &set {
        text.push_str(&t.to_line());
        text.push('\n');
    }
    std::fs::write(path, text).map_err(io)?;
    writeln!(
        out,
        "tacticsgen: foul {}, vct {}, defend {} from {} games in {:.0} s -> {}",
        count(Kind::Foul),
        count(Kind::Vct),
        count(Kind::Defend),
        games.len(),
        start.elapsed().as_secs_f64(),
        path.display()
    )
    .map_err(io)
}

fn postmortem_command(
    dir: &std::path::Path,
    rule: Rule,
    size: usize,
    nodes: u64,
    games: Option<usize>,
    out: &mut dyn Write,
) -> Result<(), String> {
    use crate::postmortem::{parse_psq, verdict, Decided, Verdict};
    use rayon::prelude::*;
    let io = |e: std::io::Error| e.to_string();
    if !(5..=22).contains(&size) || !(1_000..=100_000_000).contains(&nodes) {
        return Err("--size must be in 5..=22, --nodes in 1000..=100000000".into());
    }
    let mut files: Vec<(usize, std::path::PathBuf)> = std::fs::read_dir(dir)
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
    files.truncate(games.unwrap_or(usize::MAX));
    // Per record: its number, its stones with their times, the verdict.
    type Record = (usize, Vec<(Pos, u64)>, Verdict);
    let results: Vec<Result<Record, String>> = files
        .par_iter()
        .map(|(n, path)| {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let stones = parse_psq(&text, size).map_err(|e| format!("{}: {e}", path.display()))?;
            let moves: Vec<Pos> = stones.iter().map(|s| s.0).collect();
            let v = verdict(&moves, rule, size, nodes)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            Ok((*n, stones, v))
        })
        .collect();
    // counts[engine][decided], engine 0 = the pairing's first (black in odd games).
    let mut counts = [[0usize; 3]; 2];
    let mut draws = 0;
    for r in results {
        let (n, stones, v) = r?;
        let Verdict::Decisive {
            winner,
            ply,
            decided,
            proof_nodes,
        } = v
        else {
            draws += 1;
            continue;
        };
        let loser_black = winner == Color::White;
        let engine = usize::from(loser_black != (n % 2 == 1));
        let k = decided as usize;
        counts[engine][k] += 1;
        let (m, ms) = stones[ply - 1];
        writeln!(
            out,
            "game {n}: {} wins; first VCT at stone {} (proved in {proof_nodes} nodes); {}'s move {} ({}, {ms} ms, {} engine): {}",
            winner.name(),
            ply + 1,
            winner.opponent().name(),
            ply,
            m.to_renju(size),
            if engine == 0 { "first" } else { "second" },
            decided.name()
        )
        .map_err(io)?;
    }
    for (e, c) in counts.iter().enumerate() {
        writeln!(
            out,
            "{} engine lost {}: {} {}, {} {}, {} {}",
            if e == 0 { "first" } else { "second" },
            c.iter().sum::<usize>(),
            c[Decided::Allowed as usize],
            Decided::Allowed.name(),
            c[Decided::Lost as usize],
            Decided::Lost.name(),
            c[Decided::Unclear as usize],
            Decided::Unclear.name()
        )
        .map_err(io)?;
    }
    writeln!(out, "draws {draws}").map_err(io)?;
    Ok(())
}

fn tactics_command(
    file: &std::path::Path,
    turn_ms: u64,
    depth: Option<i32>,
    (verbose, play): (bool, bool),
    out: &mut dyn Write,
) -> Result<(), String> {
    use crate::tactics::{engine_move, parse_file, play_out, solves, Kind, Outcome};
    let io = |e: std::io::Error| e.to_string();
    if !(1..=600_000).contains(&turn_ms) || depth.is_some_and(|d| !(1..=64).contains(&d)) {
        return Err("--turn-ms must be in 1..=600000, --depth in 1..=64".into());
    }
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let set = parse_file(&text)?;
    if play {
        use rayon::prelude::*;
        let wins: Vec<&crate::tactics::Tactic> =
            set.iter().filter(|t| t.kind != Kind::Defend).collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .map_err(|e| e.to_string())?;
        let outcomes: Vec<Outcome> =
            pool.install(|| wins.par_iter().map(|t| play_out(t, turn_ms, 80)).collect());
        for kind in [Kind::Foul, Kind::Vct] {
            let of: Vec<Outcome> = wins
                .iter()
                .zip(&outcomes)
                .filter(|(t, _)| t.kind == kind)
                .map(|(_, &o)| o)
                .collect();
            let n = |o: Outcome| of.iter().filter(|&&x| x == o).count();
            writeln!(
                out,
                "{}: converted {}/{} (lost {}, unfinished {})",
                kind.name(),
                n(Outcome::Converted),
                of.len(),
                n(Outcome::Lost),
                n(Outcome::Unfinished)
            )
            .map_err(io)?;
        }
        return Ok(());
    }
    let mut solved = [0usize; 3];
    let mut total = [0usize; 3];
    for (i, t) in set.iter().enumerate() {
        let k = Kind::ALL.iter().position(|&x| x == t.kind).unwrap_or(0);
        let m = engine_move(t, turn_ms, depth);
        let ok = m.is_some_and(|m| solves(t, m));
        total[k] += 1;
        solved[k] += usize::from(ok);
        if verbose {
            let mv = m.map_or("-".to_string(), |m| m.to_renju(crate::tactics::SIZE));
            writeln!(
                out,
                "{} {} {mv} {}",
                i + 1,
                t.kind.name(),
                if ok { "ok" } else { "FAIL" }
            )
            .map_err(io)?;
        }
    }
    for (k, kind) in Kind::ALL.iter().enumerate() {
        writeln!(out, "{}: {}/{}", kind.name(), solved[k], total[k]).map_err(io)?;
    }
    writeln!(
        out,
        "total: {}/{}",
        solved.iter().sum::<usize>(),
        total.iter().sum::<usize>()
    )
    .map_err(io)
}

fn selfplay_command(
    rule: Rule,
    size: usize,
    openings: usize,
    (depth_a, depth_b): (i32, i32),
    seed: u64,
    out: &mut dyn Write,
) -> Result<(), String> {
    use crate::selfplay::{run, Player};
    check_size(size)?;
    if !(1..=20).contains(&depth_a) || !(1..=20).contains(&depth_b) {
        return Err("depths must be in 1..=20".to_string());
    }
    let a = Player { depth: depth_a };
    let b = Player { depth: depth_b };
    let s = run(rule, size, openings, seed, &a, &b);
    writeln!(
        out,
        "A (depth {depth_a}) vs B (depth {depth_b}): +{} -{} ={} (illegal moves: {})",
        s.wins, s.losses, s.draws, s.illegal
    )
    .map_err(|e| e.to_string())
}

fn opengen_command(spec: crate::opening::GenSpec, out: &mut dyn Write) -> Result<(), String> {
    let crate::opening::GenSpec {
        rule, size, depth, ..
    } = spec;
    let (count, window, center, seed, confirm_depth) = (
        spec.count,
        spec.window,
        spec.center,
        spec.seed,
        spec.confirm_depth,
    );
    check_size(size)?;
    let deep_ok = confirm_depth.is_none_or(|cd| (depth..=20).contains(&cd));
    if !(1..=12).contains(&depth) || !deep_ok || count == 0 || count > 10_000 || window < 0 {
        return Err(
            "need 1 <= depth <= 12, depth <= confirm-depth <= 20, 1 <= count <= 10000, window >= 0"
                .to_string(),
        );
    }
    let list = crate::opening::generate(spec);
    let io = |e: std::io::Error| e.to_string();
    let (confirm_arg, confirm_text) = match confirm_depth {
        Some(cd) => (
            format!(" --confirm-depth {cd}"),
            format!(" and at depth {cd}"),
        ),
        None => (String::new(), String::new()),
    };
    let center_arg = if center == 0 {
        String::new()
    } else {
        format!(" --center {center}")
    };
    let balanced = if center == 0 { "balanced" } else { "offset" };
    writeln!(
        out,
        "# {} {balanced} {rule} {size}x{size} openings: renju-engine opengen --rule {rule} --size {size} --count {count} --depth {depth}{confirm_arg} --window {window}{center_arg} --seed {seed}",
        list.len()
    )
    .map_err(io)?;
    writeln!(
        out,
        "# offset format: dx,dy from the centre (size/2, size/2), Gomocup axes (y down), black first; each kept opening scored within {center}+-{window} for the side to move at depth {depth}{confirm_text}"
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
