//! Games and test positions: `selfplay`, `opengen` (balanced openings), `tacticsgen` and
//! `tactics` (the tactical test set and the engine's score on it), `postmortem` (why a match's
//! games were lost).
//!
//! May import what `cli` may.

use super::check_size;
use crate::types::{Color, Pos, Rule};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

// `selfplay`: a match between two fixed depths.
#[derive(Args, Debug)]
pub(super) struct SelfplayArgs {
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
}

impl SelfplayArgs {
    pub(super) fn run(&self, out: &mut dyn Write) -> Result<(), String> {
        use crate::selfplay::{run, Player};
        check_size(self.size)?;
        let (depth_a, depth_b) = (self.depth_a, self.depth_b);
        if !(1..=20).contains(&depth_a) || !(1..=20).contains(&depth_b) {
            return Err("depths must be in 1..=20".to_string());
        }
        let a = Player { depth: depth_a };
        let b = Player { depth: depth_b };
        let s = run(self.rule, self.size, self.openings, self.seed, &a, &b);
        writeln!(
            out,
            "A (depth {depth_a}) vs B (depth {depth_b}): +{} -{} ={} (illegal moves: {})",
            s.wins, s.losses, s.draws, s.illegal
        )
        .map_err(|e| e.to_string())
    }
}

// `opengen`: balanced openings by the engine's own evaluation.
#[derive(Args, Debug)]
pub(super) struct OpengenArgs {
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
    /// Stones in an opening, the first on the centre [3; renju 5: a canonical opening plus
    /// two].
    #[arg(long)]
    stones: Option<usize>,
    /// The random stones lie within this many cells of the centre in each axis [2; renju 3].
    #[arg(long)]
    radius: Option<i32>,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

impl OpengenArgs {
    pub(super) fn run(&self, out: &mut dyn Write) -> Result<(), String> {
        let spec = crate::opening::GenSpec {
            rule: self.rule,
            size: self.size,
            count: self.count,
            depth: self.depth,
            confirm_depth: self.confirm_depth,
            window: self.window,
            center: self.center,
            stones: self.stones,
            radius: self.radius,
            seed: self.seed,
        };
        let (rule, size, depth, count, window, center, seed, confirm_depth) = (
            self.rule,
            self.size,
            self.depth,
            self.count,
            self.window,
            self.center,
            self.seed,
            self.confirm_depth,
        );
        check_size(size)?;
        let deep_ok = confirm_depth.is_none_or(|cd| (depth..=20).contains(&cd));
        if !(1..=12).contains(&depth) || !deep_ok || count == 0 || count > 10_000 || window < 0 {
            return Err(
                "need 1 <= depth <= 12, depth <= confirm-depth <= 20, 1 <= count <= 10000, window >= 0"
                    .to_string(),
            );
        }
        let min_stones = if rule == Rule::Renju { 3 } else { 1 };
        if self.stones.is_some_and(|n| n < min_stones || n > 12)
            || self.radius.is_some_and(|r| r < 1 || r > (size / 2) as i32)
        {
            return Err(format!(
                "need {min_stones} <= stones <= 12 and 1 <= radius <= {}",
                size / 2
            ));
        }
        let shape_arg = format!(
            "{}{}",
            self.stones
                .map(|n| format!(" --stones {n}"))
                .unwrap_or_default(),
            self.radius
                .map(|r| format!(" --radius {r}"))
                .unwrap_or_default()
        );
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
            "# {} {balanced} {rule} {size}x{size} openings: renju-engine opengen --rule {rule} --size {size} --count {count} --depth {depth}{confirm_arg} --window {window}{center_arg}{shape_arg} --seed {seed}",
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
}

// `tacticsgen`: renju tactical test positions from datagen games.
#[derive(Args, Debug)]
pub(super) struct TacticsgenArgs {
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
}

impl TacticsgenArgs {
    pub(super) fn run(&self, out: &mut dyn Write) -> Result<(), String> {
        use crate::tactics::{generate, verify, Kind};
        let io = |e: std::io::Error| e.to_string();
        let path = &self.out;
        let mut games = super::read_games(&self.data)?;
        games.retain(|g| g.rule == Rule::Renju && g.size == crate::tactics::SIZE);
        games.truncate(self.games.unwrap_or(usize::MAX));
        let start = std::time::Instant::now();
        let set = generate(&games, self.per_kind, self.min_ply);
        for t in &set {
            verify(t).map_err(|e| {
                format!("a generated tactic fails its check ({e}): {}", t.to_line())
            })?;
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
}

// `postmortem`: the decisive games of a match, by threats.
#[derive(Args, Debug)]
pub(super) struct PostmortemArgs {
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
}

/// One judged record: its number, its stones with their times, the verdict.
type Record = (usize, Vec<(Pos, u64)>, crate::postmortem::Verdict);

impl PostmortemArgs {
    /// The match's `game-NNNNN.psq` records in number order (at most `--games`).
    fn records(&self) -> Result<Vec<(usize, PathBuf)>, String> {
        let mut files = crate::postmortem::psq_records(&self.dir)?;
        files.truncate(self.games.unwrap_or(usize::MAX));
        Ok(files)
    }

    /// Read and judge every record (in parallel).
    fn judge(&self, files: &[(usize, PathBuf)]) -> Vec<Result<Record, String>> {
        use crate::postmortem::{parse_psq, verdict};
        use rayon::prelude::*;
        let (rule, size, nodes) = (self.rule, self.size, self.nodes);
        files
            .par_iter()
            .map(|(n, path)| {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                let stones =
                    parse_psq(&text, size).map_err(|e| format!("{}: {e}", path.display()))?;
                let moves: Vec<Pos> = stones.iter().map(|s| s.0).collect();
                let v = verdict(&moves, rule, size, nodes)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                Ok((*n, stones, v))
            })
            .collect()
    }

    pub(super) fn run(&self, out: &mut dyn Write) -> Result<(), String> {
        use crate::postmortem::{Decided, Verdict};
        let io = |e: std::io::Error| e.to_string();
        let size = self.size;
        if !(5..=22).contains(&size) || !(1_000..=100_000_000).contains(&self.nodes) {
            return Err("--size must be in 5..=22, --nodes in 1000..=100000000".into());
        }
        let results = self.judge(&self.records()?);
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
            counts[engine][decided as usize] += 1;
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
}

// `tactics`: the engine's score on a tactics file.
#[derive(Args, Debug)]
pub(super) struct TacticsArgs {
    /// The tactics file.
    #[arg(long)]
    file: std::path::PathBuf,
    /// Turn time in milliseconds (the protocol's `timeout_turn`).
    #[arg(long, default_value_t = 500)]
    turn_ms: u64,
    /// Search to this depth instead of for a turn's time.
    #[arg(long)]
    depth: Option<i32>,
    /// Search threads for the judged move (not with --play).
    #[arg(long, default_value_t = 1, conflicts_with = "play")]
    threads: usize,
    /// Print every position's result.
    #[arg(long)]
    verbose: bool,
    /// Instead of judging one move, play every foul and vct position out with the engine on
    /// both sides (turn time as above, at most 80 plies, two positions at a time) and count
    /// the wins converted.
    #[arg(long, conflicts_with = "depth")]
    play: bool,
}

impl TacticsArgs {
    pub(super) fn run(&self, out: &mut dyn Write) -> Result<(), String> {
        use crate::tactics::{engine_move, parse_file, solves, Kind};
        let io = |e: std::io::Error| e.to_string();
        let (turn_ms, depth) = (self.turn_ms, self.depth);
        if !(1..=600_000).contains(&turn_ms)
            || depth.is_some_and(|d| !(1..=64).contains(&d))
            || !(1..=256).contains(&self.threads)
        {
            return Err(
                "--turn-ms must be in 1..=600000, --depth in 1..=64, --threads in 1..=256".into(),
            );
        }
        let file = &self.file;
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let set = parse_file(&text)?;
        if self.play {
            return Self::play_out(&set, turn_ms, out);
        }
        let mut solved = [0usize; 3];
        let mut total = [0usize; 3];
        for (i, t) in set.iter().enumerate() {
            let k = Kind::ALL.iter().position(|&x| x == t.kind).unwrap_or(0);
            let m = engine_move(t, turn_ms, depth, self.threads);
            let ok = m.is_some_and(|m| solves(t, m));
            total[k] += 1;
            solved[k] += usize::from(ok);
            if self.verbose {
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

    /// `--play`: play every foul and vct position out, two at a time, and count the
    /// conversions.
    fn play_out(
        set: &[crate::tactics::Tactic],
        turn_ms: u64,
        out: &mut dyn Write,
    ) -> Result<(), String> {
        use crate::tactics::{play_out, Kind, Outcome};
        use rayon::prelude::*;
        let io = |e: std::io::Error| e.to_string();
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
        Ok(())
    }
}
