//! Learning the evaluation: `datagen` (self-play data) and `tune` (fitting weights to it).
//!
//! May import what `cli` may.

use crate::types::Rule;
use clap::Args;
use std::io::Write;

// `datagen`: self-play games for fitting the evaluation.
#[derive(Args, Debug)]
pub(super) struct DatagenArgs {
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
}

impl DatagenArgs {
    pub(super) fn run(&self, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), String> {
        use crate::datagen::{parse_variants, run, Config};
        let variants = parse_variants(&self.rules)?;
        if self.nodes == 0 {
            return Err("--nodes must be at least 1".into());
        }
        if !(1..=4096).contains(&self.hash) {
            return Err("--hash must be in 1..=4096".into());
        }
        let threads = super::threads_or_all(self.threads)?;
        let cfg = Config {
            variants,
            nodes: self.nodes,
            balance: self.balance,
            seed: self.seed,
            hash_mb: self.hash,
        };
        let path = &self.out;
        let t = run(&cfg, path, self.games, threads, err)?;
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
}

// `leaves`: labelled positions from inside the search tree.
#[derive(Args, Debug)]
pub(super) struct LeavesArgs {
    /// Datagen file whose searched positions are searched for leaves.
    #[arg(long)]
    data: std::path::PathBuf,
    /// Source games used (default: all after the skipped ones).
    #[arg(long)]
    games: Option<usize>,
    /// Source games skipped at the file's start (to hold other games out for validation).
    #[arg(long, default_value_t = 0)]
    skip: usize,
    /// Nodes of the search of each source position.
    #[arg(long, default_value_t = 5_000)]
    nodes: u64,
    /// Record a stand-pat every this many nodes of that search.
    #[arg(long, default_value_t = 61)]
    every: u64,
    /// Leaves kept per source position (at random among the recorded ones).
    #[arg(long, default_value_t = 2)]
    per_position: usize,
    /// Nodes of the search that labels each leaf.
    #[arg(long, default_value_t = 5_000)]
    label_nodes: u64,
    /// Threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Random seed of the choice of leaves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Transposition table of each searcher in MB (two per thread).
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// The data file written (created if missing, appended to otherwise).
    #[arg(long)]
    out: std::path::PathBuf,
}

impl LeavesArgs {
    pub(super) fn run(&self, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), String> {
        use crate::datagen::leaves::{run, LeafConfig};
        if self.nodes == 0 || self.label_nodes == 0 || self.every == 0 {
            return Err("--nodes, --label-nodes and --every must be at least 1".into());
        }
        if !(1..=4096).contains(&self.hash) {
            return Err("--hash must be in 1..=4096".into());
        }
        let threads = super::threads_or_all(self.threads)?;
        let mut games = crate::datagen::read_file(&self.data)?;
        games.drain(..self.skip.min(games.len()));
        games.truncate(self.games.unwrap_or(usize::MAX));
        let cfg = LeafConfig {
            nodes: self.nodes,
            every: self.every,
            per_position: self.per_position,
            label_nodes: self.label_nodes,
            seed: self.seed,
            hash_mb: self.hash,
        };
        let t = run(&cfg, &games, &self.out, threads, err)?;
        writeln!(
            out,
            "leaves: {} leaves from {} games -> {} ({:.1} s, {:.0} leaves/s, {} threads)",
            t.leaves,
            t.games,
            self.out.display(),
            t.seconds,
            t.leaves as f64 / t.seconds.max(1e-9),
            threads
        )
        .map_err(|e| e.to_string())
    }
}

// `import`: match records as fitting data.
#[derive(Args, Debug)]
pub(super) struct ImportArgs {
    /// Directories of arena match records (`game-NNNNN.psq`).
    #[arg(required = true)]
    dirs: Vec<std::path::PathBuf>,
    /// Rule of the games.
    #[arg(long, default_value = "renju")]
    rule: Rule,
    /// Board side.
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// The data file written (replaced if it exists).
    #[arg(long)]
    out: std::path::PathBuf,
}

impl ImportArgs {
    pub(super) fn run(&self, out: &mut dyn Write) -> Result<(), String> {
        use crate::datagen::{record_of_moves, MAGIC};
        use crate::postmortem::{parse_psq, psq_records};
        super::check_size(self.size)?;
        let mut bytes = MAGIC.to_vec();
        let (mut games, mut plies, mut wins) = (0usize, 0usize, [0usize; 3]);
        for dir in &self.dirs {
            for (_, path) in psq_records(dir)? {
                let at = |e: String| format!("{}: {e}", path.display());
                let text = std::fs::read_to_string(&path).map_err(|e| at(e.to_string()))?;
                let moves: Vec<_> = parse_psq(&text, self.size)
                    .map_err(at)?
                    .iter()
                    .map(|s| s.0)
                    .collect();
                let g = record_of_moves(self.rule, self.size, &moves).map_err(at)?;
                games += 1;
                plies += g.plies.len();
                wins[g.result.map_or(2, crate::types::Color::index)] += 1;
                bytes.extend_from_slice(&g.to_bytes());
            }
        }
        std::fs::write(&self.out, &bytes).map_err(|e| format!("{}: {e}", self.out.display()))?;
        writeln!(
            out,
            "import: {games} games ({} won by black, {} by white, {} drawn), {plies} plies from {} directories -> {}",
            wins[0],
            wins[1],
            wins[2],
            self.dirs.len(),
            self.out.display()
        )
        .map_err(|e| e.to_string())
    }
}

// `tune`: fit the evaluation (or move-ordering) weights of one rule.
#[derive(Args, Debug)]
pub(super) struct TuneArgs {
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
}

impl TuneArgs {
    /// The fitting settings, checked.
    fn settings(&self) -> Result<crate::tune::Settings, String> {
        let st = crate::tune::Settings {
            epochs: self.epochs,
            lr: self.lr,
            l2: self.l2,
            lambda: self.lambda,
            batch: self.batch,
            seed: self.seed,
            class_only: self.class_only,
            from_embedded: self.from_embedded,
            score_scale: self.score_scale,
        };
        if !(1..=100_000).contains(&self.scale) {
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
        Ok(st)
    }

    pub(super) fn run(&self, out: &mut dyn Write) -> Result<(), String> {
        use crate::eval::{from_vector, hand_code_weights};
        use crate::tune::{build, fit, fit_hand_scale, hand_loss, integer_vector};
        let io = |e: std::io::Error| e.to_string();
        let st = self.settings()?;
        let (rule, path) = (self.rule, &self.out);
        let args: Vec<String> = std::env::args().skip(1).collect();
        let mut comment = vec![format!("renju-engine {}", args.join(" "))];
        let symmetric = rule != Rule::Renju;
        let games = match &self.data {
            Some(files) => super::read_games(files)?,
            None => Vec::new(),
        };
        if self.policy {
            return self.run_policy(&games, &st, comment, out);
        }
        if !(1..=crate::pattern::code::LEVELS).contains(&self.max_level) {
            return Err(format!(
                "--max-level must be in 1..={}",
                crate::pattern::code::LEVELS
            ));
        }
        let (train, valid) = build(&games, rule, self.max_level);
        if self.hand {
            let scale = if train.is_empty() {
                self.scale
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
        let f = fit(&train, &valid, rule, &st, out);
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

    /// `--policy`: fit the move-ordering weights and write them as
    /// `attack|defence <colour> <code> <weight x 100>` lines.
    fn run_policy(
        &self,
        games: &[crate::datagen::GameRecord],
        st: &crate::tune::Settings,
        mut comment: Vec<String>,
        out: &mut dyn Write,
    ) -> Result<(), String> {
        use crate::pattern::code::CODES;
        let io = |e: std::io::Error| e.to_string();
        let (rule, path) = (self.rule, &self.out);
        let (train, valid) = crate::tune::build_policy(games, rule);
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
        let slots: &[(usize, &str)] = if rule != Rule::Renju {
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
        writeln!(out, "tune: wrote {}", path.display()).map_err(io)
    }
}

// `train`: fit the evaluation network of one rule.
#[derive(Args, Debug)]
pub(super) struct TrainArgs {
    /// Rule whose games are used and whose network is fitted.
    #[arg(long)]
    rule: Rule,
    /// Datagen files, comma-separated.
    #[arg(long)]
    data: String,
    /// Width of a cell's vector.
    #[arg(long, default_value_t = 32)]
    d: usize,
    /// Hidden units of the value layer.
    #[arg(long, default_value_t = 32)]
    h: usize,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// Adam step size.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Weight of the game result in the value target (the rest is the search score).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Weight of the policy loss.
    #[arg(long, default_value_t = 0.5)]
    policy: f32,
    /// Weight of the ranking loss (the value ranks the best move's child first among
    /// `--children` children of each position).
    #[arg(long, default_value_t = 0.0)]
    rank: f32,
    /// Children per position for the ranking loss: the best move's and others drawn at
    /// random (0: none).
    #[arg(long, default_value_t = 0)]
    children: usize,
    /// Fix the trainer's gain at the classical evaluation's best gain on the training
    /// positions instead of learning it (a learned gain lets the correction grow to any scale
    /// against the classical evaluation: the engine adds it unscaled).
    #[arg(long)]
    fixed_gain: bool,
    /// After training, centre the value per colour to move on the training positions (each
    /// table's offset takes its mean value), so the correction keeps the classical
    /// evaluation's balance by colour to move; with `--epochs 0 --init NET`, centre NET.
    #[arg(long)]
    centre: bool,
    /// Quiet positions only (no five or open three to answer, a best move that is no threat,
    /// no proven result), with quiet children.
    #[arg(long)]
    quiet: bool,
    /// Percent of the games held out for validation.
    #[arg(long, default_value_t = 5)]
    valid_pct: u64,
    /// Validation data files, comma-separated: every position of them is a validation
    /// position and every game of `--data` a training game (`--valid-pct` is not used).
    #[arg(long)]
    valid: Option<String>,
    /// Seed of the starting weights and the shuffling.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from this network file instead of random weights.
    #[arg(long)]
    init: Option<std::path::PathBuf>,
    /// Threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Output network file (written after every epoch).
    #[arg(long)]
    out: std::path::PathBuf,
}

impl TrainArgs {
    pub(super) fn run(&self, out: &mut dyn Write) -> Result<(), String> {
        use crate::nnue::Network;
        use crate::train::{samples_with, set_loss, train, SampleOptions, TrainConfig};
        let io = |e: std::io::Error| e.to_string();
        if !(1..=256).contains(&self.d) || !(1..=256).contains(&self.h) {
            return Err("--d and --h must be in 1..=256".into());
        }
        if !(0.0..=1.0).contains(&self.lambda)
            || self.policy.is_nan()
            || self.policy < 0.0
            || self.rank.is_nan()
            || self.rank < 0.0
            || self.lr.is_nan()
            || self.lr <= 0.0
            || self.batch == 0
            || self.valid_pct >= 100
        {
            return Err(
                "--lambda must be in 0..=1, --policy >= 0, --rank >= 0, --lr > 0, --batch >= 1, --valid-pct < 100"
                    .into(),
            );
        }
        let threads = super::threads_or_all(self.threads)?;
        let mut games = super::read_games(&self.data)?;
        games.retain(|g| g.rule == self.rule);
        if games.is_empty() {
            return Err(format!("no {} games in {}", self.rule, self.data));
        }
        // Whole games are held out (their positions are alike): game i by a hash of i.
        let held = |i: usize| (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32 & 0xFFFF;
        let (mut tr, mut va, mut va_games) = (Vec::new(), Vec::new(), Vec::new());
        let mut held_out = Vec::new();
        if let Some(v) = &self.valid {
            held_out = super::read_games(v)?;
            held_out.retain(|g| g.rule == self.rule);
        }
        let n_data = games.len();
        games.extend(held_out);
        let valid_pct = if self.valid.is_some() {
            0
        } else {
            self.valid_pct
        };
        for (i, g) in games.iter().enumerate() {
            let s = samples_with(
                g,
                &SampleOptions {
                    lambda: self.lambda,
                    children: self.children,
                    seed: self.seed ^ i as u64,
                    quiet: self.quiet,
                },
            );
            if i >= n_data || held(i) * 100 < valid_pct * 0x1_0000 {
                va.extend(s);
                va_games.push(g.clone());
            } else {
                tr.extend(s);
            }
        }
        let mut net = match &self.init {
            Some(p) => Network::from_bytes(&std::fs::read(p).map_err(io)?)?,
            None => Network::random(self.rule, self.d, self.h, self.seed),
        };
        if net.rule != self.rule {
            return Err(format!("--init is a {} network", net.rule));
        }
        // The process's one pool (a second call, as in tests, keeps the first).
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global();
        let cfg = TrainConfig {
            epochs: self.epochs,
            batch: self.batch,
            lr: self.lr,
            policy: self.policy,
            rank: self.rank,
            fixed_gain: self.fixed_gain,
            seed: self.seed,
        };
        writeln!(
            out,
            "train: {} games, {} training and {} validation positions, d {} h {}, {} threads",
            games.len(),
            tr.len(),
            va.len(),
            net.d,
            net.h,
            threads
        )
        .map_err(io)?;
        if self.fixed_gain {
            net.gain = crate::train::best_classical_gain(&tr).0;
            writeln!(out, "train: the gain fixed at {:.2}", net.gain).map_err(io)?;
        }
        let start = std::time::Instant::now();
        let v0 = set_loss(&net, &va);
        writeln!(
            out,
            "validation targets' entropy {:.5}; the classical evaluation's value loss {:.5} (above the entropy {:.5}), at its best gain {:.2}: {:.5} (above {:.5})",
            v0.entropy,
            v0.classical,
            v0.classical - v0.entropy,
            v0.classical_gain,
            v0.classical_fit,
            v0.classical_fit - v0.entropy,
        )
        .map_err(io)?;
        writeln!(
            out,
            "epoch 0: validation value loss {:.5} (above the entropy {:.5}), policy loss {:.4}, top-1 {:.1}%, ranking loss {:.4}, best child first {:.1}%",
            v0.value,
            v0.value - v0.entropy,
            v0.policy,
            100.0 * v0.top1,
            v0.rank,
            100.0 * v0.rank_top1
        )
        .map_err(io)?;
        let mut failed = None;
        train(&mut net, &tr, &cfg, |epoch, loss, net| {
            let v = set_loss(net, &va);
            let written = std::fs::write(&self.out, net.to_bytes()).map_err(io);
            let line = writeln!(
                out,
                "epoch {}: training loss {loss:.5}; validation value loss {:.5} (above the entropy {:.5}; gain {:.3}), policy loss {:.4}, top-1 {:.1}%, ranking loss {:.4}, best child first {:.1}%; {:.0} s",
                epoch + 1,
                v.value,
                v.value - v.entropy,
                net.gain,
                v.policy,
                100.0 * v.top1,
                v.rank,
                100.0 * v.rank_top1,
                start.elapsed().as_secs_f64()
            )
            .map_err(io);
            if let Err(e) = written.and(line) {
                failed.get_or_insert(e);
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        if self.centre {
            crate::train::centre(&mut net, &tr);
            let v = set_loss(&net, &va);
            writeln!(
                out,
                "centred: offsets {:.3} {:.3}; validation value loss {:.5} (above the entropy {:.5})",
                net.offsets[0],
                net.offsets[1],
                v.value,
                v.value - v.entropy
            )
            .map_err(io)?;
        }
        if self.epochs == 0 || self.centre {
            std::fs::write(&self.out, net.to_bytes()).map_err(io)?;
        }
        {
            use rayon::prelude::*;
            let extra: Vec<f32> = va
                .par_iter()
                .map(|s| crate::train::value_of(&net, s))
                .collect();
            let (g0, l0) = crate::train::best_classical_gain(&va);
            let (g1, l1) = crate::train::best_gain(&va, &extra);
            let entropy = set_loss(&net, &va).entropy;
            let mean_abs = extra.iter().map(|x| x.abs()).sum::<f32>() / extra.len().max(1) as f32;
            writeln!(
                out,
                "as the engine adds it (classical + correction, each at its best gain on the validation positions): classical {:.5} (above the entropy {:.5}; gain {g0:.2}), with the network {:.5} (above {:.5}; gain {g1:.2}); mean correction {mean_abs:.3} logistic units",
                l0,
                l0 - entropy,
                l1,
                l1 - entropy
            )
            .map_err(io)?;
        }
        let c = crate::train::one_ply_choice(&net, &va_games, 4);
        writeln!(
            out,
            "the searched best move, {} validation positions: one-ply choice by the classical evaluation {:.1}%, with the network {:.1}%; first move of the static ordering {:.1}%, of the policy {:.1}%",
            c.positions,
            100.0 * c.classical,
            100.0 * c.network,
            100.0 * c.ordering,
            100.0 * c.policy
        )
        .map_err(io)?;
        writeln!(out, "train: wrote {}", self.out.display()).map_err(io)
    }
}
