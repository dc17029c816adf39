//! Pairings (match, round robin, gauntlet, knockout), the worker pool, and result bookkeeping.

use crate::engine::EngineProc;
use crate::game::{self, GameConfig, GameRecord, TimeControl};
use crate::openings::Opening;
use crate::records;
use crate::stats::{elo_interval, los, Sprt, SprtStatus, Wld};
use renju_engine::types::Color;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Tournament format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every engine against every other (a plain match for two engines).
    RoundRobin,
    /// The first engine against each other one.
    Gauntlet,
    /// Knockout: mini-matches, losers out (after two lost mini-matches when `double`).
    Knockout {
        /// Double elimination.
        double: bool,
    },
}

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Engine command lines.
    pub engines: Vec<String>,
    /// Game settings.
    pub game: GameConfig,
    /// Games per pairing (round robin, gauntlet) or per knockout mini-match.
    pub games: usize,
    /// Openings, in the order they are used (empty = start from an empty board).
    pub openings: Vec<Opening>,
    /// Games played at once.
    pub concurrency: usize,
    /// SPRT for a two-engine match.
    pub sprt: Option<Sprt>,
    /// Output folder.
    pub out: PathBuf,
    /// Format.
    pub format: Format,
    /// How long to wait for `ABOUT`.
    pub about_timeout: Duration,
    /// Per engine (by index), a time control of its own instead of the game's (time odds);
    /// missing entries play the game's.
    pub engine_tc: Vec<Option<TimeControl>>,
    /// Let each engine process play one unscored move when it starts ([`game::warm_up`]).
    pub warmup: bool,
}

impl Config {
    /// The time control engine `i` plays under: its own (time odds) or the game's.
    #[must_use]
    pub fn engine_tc_of(&self, i: usize) -> Option<TimeControl> {
        self.engine_tc.get(i).copied().flatten()
    }
}

/// One game to play.
#[derive(Clone, Debug)]
pub struct Job {
    /// Engine index of player A.
    pub a: usize,
    /// Engine index of player B.
    pub b: usize,
    /// Whether A plays black.
    pub a_black: bool,
    /// Opening index (into the configured openings), if any.
    pub opening: Option<usize>,
}

/// A played game.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The job.
    pub job: Job,
    /// The record.
    pub rec: GameRecord,
    /// Engine names (black, white).
    pub names: [String; 2],
    /// The game's place in the schedule (1-based, counted over the whole run): its records are
    /// `game-<seq>.*`, so with two games at once a record still tells who played black (the
    /// first engine of a pairing is black in its odd-numbered games).
    pub seq: usize,
}

impl Outcome {
    /// Points for player A (1, 0.5, 0).
    #[must_use]
    pub fn a_points(&self) -> f64 {
        let a_color = if self.job.a_black {
            Color::Black
        } else {
            Color::White
        };
        match self.rec.winner {
            None => 0.5,
            Some(c) if c == a_color => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// Jobs for one pairing: `games` games, each opening used for two games with colours swapped.
#[must_use]
pub fn pairing_jobs(a: usize, b: usize, games: usize, openings: usize) -> Vec<Job> {
    (0..games)
        .map(|k| Job {
            a,
            b,
            a_black: k % 2 == 0,
            opening: (openings > 0).then_some((k / 2) % openings.max(1)),
        })
        .collect()
}

/// The jobs of several pairings interleaved two games at a time (one opening, colours swapped),
/// so that each pairing meets the same machine load over the run and a run stopped early has
/// played every pairing about equally: a gauntlet of two revisions against one opponent stays
/// comparable. Game pairs keep their places `2k - 1`, `2k` when every block has an even
/// number of games.
#[must_use]
pub fn interleave(blocks: Vec<Vec<Job>>) -> Vec<Job> {
    let mut queues: Vec<VecDeque<Job>> = blocks.into_iter().map(VecDeque::from).collect();
    let mut out = Vec::new();
    loop {
        let mut any = false;
        for q in &mut queues {
            for _ in 0..2 {
                if let Some(j) = q.pop_front() {
                    out.push(j);
                    any = true;
                }
            }
        }
        if !any {
            return out;
        }
    }
}

/// The bookkeeping of a run: results, records, summary, printing.
pub struct Book {
    cfg: Config,
    names: Vec<String>,
    /// Results per (a, b) pair, from a's side.
    pub pairs: BTreeMap<(usize, usize), Wld>,
    /// Losses by reason.
    pub losses: BTreeMap<String, u32>,
    /// Per (a, b) pair, the decisive games by reason: `[0]` the games a lost, `[1]` those b
    /// lost (a time forfeit of one engine is told from the other's).
    pub pair_reasons: BTreeMap<(usize, usize), [BTreeMap<String, u32>; 2]>,
    /// Games won by black, won by white, drawn: how far the openings favour one colour.
    pub colours: [u32; 3],
    /// Per (a, b) pair, the game pairs (one opening, colours swapped: games `2k - 1` and `2k`)
    /// by a's points in the two games, 0, 0.5, 1, 1.5, 2 (the pentanomial counts). A pair split
    /// 1-1 by colour says nothing about which engine is stronger.
    pub pentanomial: BTreeMap<(usize, usize), [u32; 5]>,
    /// Games whose partner game has not finished yet: pair number -> (job, a's points).
    pending: BTreeMap<usize, (Job, f64)>,
    /// Games finished.
    pub done: usize,
    total: usize,
    start: Instant,
    tty: bool,
    /// The SPRT decision once reached, with the number of games then: it stands even if games
    /// still in flight when it was reached move the LLR back inside the bounds.
    sprt_decision: Option<(SprtStatus, usize)>,
}

impl Book {
    /// A new book for `total` planned games.
    #[must_use]
    pub fn new(cfg: &Config, names: Vec<String>, total: usize) -> Book {
        Book {
            cfg: cfg.clone(),
            names,
            pairs: BTreeMap::new(),
            losses: BTreeMap::new(),
            pair_reasons: BTreeMap::new(),
            colours: [0; 3],
            pentanomial: BTreeMap::new(),
            pending: BTreeMap::new(),
            done: 0,
            total,
            start: Instant::now(),
            tty: std::io::stdout().is_terminal(),
            sprt_decision: None,
        }
    }

    /// Record a finished game: result line, psq and SGF files, summary.
    pub fn record(&mut self, o: &Outcome) {
        self.done += 1;
        let n = self.done;
        let key = (o.job.a, o.job.b);
        let w = self.pairs.entry(key).or_default();
        let pts = o.a_points();
        if pts == 1.0 {
            w.wins += 1;
        } else if pts == 0.0 {
            w.losses += 1;
        } else {
            w.draws += 1;
        }
        self.colours[match o.rec.winner {
            Some(Color::Black) => 0,
            Some(Color::White) => 1,
            None => 2,
        }] += 1;
        self.pair_up(o.seq, o.job.clone(), pts);
        if self.sprt_decision.is_none() {
            if let Some(sp) = self.cfg.sprt {
                let penta = self.pentanomial.get(&key).copied().unwrap_or_default();
                let st = sp.decide(sp.llr_pairs(&penta));
                if st != SprtStatus::Continue {
                    self.sprt_decision = Some((st, n));
                }
            }
        }
        let reason = o.rec.reason.name();
        if o.rec.winner.is_some() {
            *self.losses.entry(reason.clone()).or_insert(0) += 1;
            let loser = usize::from(pts != 0.0);
            *self.pair_reasons.entry(key).or_default()[loser]
                .entry(reason.clone())
                .or_insert(0) += 1;
        }
        let result = match o.rec.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        };
        let detail = match &o.rec.reason {
            game::Reason::Garbage(g) => {
                format!("{reason} ({})", g.chars().take(40).collect::<String>())
            }
            _ => reason.clone(),
        };
        if self.tty {
            print!("\r\x1b[2K");
        }
        let seq = o.seq;
        println!(
            "game {seq}: {} (black) vs {} (white): {result} {detail}",
            o.names[0], o.names[1]
        );
        let size = self.cfg.game.size;
        let names = [o.names[0].as_str(), o.names[1].as_str()];
        let base = self.cfg.out.join(format!("game-{seq:05}"));
        let _ = records::write_atomic(
            &base.with_extension("psq"),
            &records::psq(&o.rec, size, names, &format!("{result} {detail}")),
        );
        let _ = records::write_atomic(
            &base.with_extension("sgf"),
            &records::sgf(&o.rec, size, self.cfg.game.rule, names, &detail),
        );
        self.write_summary();
        if self.tty {
            print!("{}", self.progress());
            let _ = std::io::stdout().flush();
        }
    }

    /// Game `seq` (1-based) of `job` gave a `pts`: with its partner game (the other of
    /// `2k - 1`, `2k`: same engines, same opening, colours swapped) finished, count the pair.
    fn pair_up(&mut self, seq: usize, job: Job, pts: f64) {
        let id = seq.div_ceil(2);
        match self.pending.remove(&id) {
            Some((other, p))
                if (other.a, other.b, other.opening) == (job.a, job.b, job.opening)
                    && other.a_black != job.a_black =>
            {
                let i = ((p + pts) * 2.0).round() as usize;
                self.pentanomial.entry((job.a, job.b)).or_default()[i.min(4)] += 1;
            }
            Some(_) => {}
            None => {
                self.pending.insert(id, (job, pts));
            }
        }
    }

    fn pair_list(&self) -> Vec<(String, String, Wld)> {
        self.pairs
            .iter()
            .map(|(&(a, b), w)| (self.names[a].clone(), self.names[b].clone(), *w))
            .collect()
    }

    /// Per pair, in the order of [`Book::pair_list`], the decisive games by reason (a's losses,
    /// b's losses).
    fn pair_reason_list(&self) -> Vec<[BTreeMap<String, u32>; 2]> {
        self.pairs
            .keys()
            .map(|k| self.pair_reasons.get(k).cloned().unwrap_or_default())
            .collect()
    }

    /// The SPRT state of the first pair, if an SPRT is configured: LLR, bounds, status. The
    /// LLR is the game-pair (pentanomial) form, [`Sprt::llr_pairs`], over the completed pairs
    /// (a game whose partner is still being played waits for it).
    #[must_use]
    pub fn sprt_state(&self) -> Option<(f64, f64, f64, SprtStatus)> {
        let s = self.cfg.sprt?;
        let key = self.pairs.keys().next().copied();
        let penta = key
            .and_then(|k| self.pentanomial.get(&k).copied())
            .unwrap_or_default();
        let llr = s.llr_pairs(&penta);
        let (lo, hi) = s.bounds();
        let status = self
            .sprt_decision
            .map_or_else(|| s.decide(llr), |(st, _)| st);
        Some((llr, lo, hi, status))
    }

    /// The SPRT decision and the number of games at which it was reached, once reached.
    #[must_use]
    pub fn sprt_decision(&self) -> Option<(SprtStatus, usize)> {
        self.sprt_decision
    }

    /// Write `summary.json`.
    pub fn write_summary(&self) {
        let sprt = self.sprt_state();
        let status = sprt.map(|(_, _, _, st)| format!("{st:?}"));
        let text = records::summary_json(
            self.done,
            &self.pair_list(),
            &self.pair_reason_list(),
            self.colours,
            &self.pentanomial.values().copied().collect::<Vec<_>>(),
            &self.losses,
            sprt.map(|(l, lo, hi, _)| (l, lo, hi, status.as_deref().unwrap_or(""))),
        );
        let _ = records::write_atomic(&self.cfg.out.join("summary.json"), &text);
    }

    fn progress(&self) -> String {
        let w: Wld = self.pairs.values().fold(Wld::default(), |mut acc, w| {
            acc.wins += w.wins;
            acc.losses += w.losses;
            acc.draws += w.draws;
            acc
        });
        let elo = elo_interval(&w).map_or(0.0, |e| e.0);
        let per = self.start.elapsed().as_secs_f64() / self.done.max(1) as f64;
        let eta = per * self.total.saturating_sub(self.done) as f64;
        format!(
            "[{}/{}] score {:.1}/{} elo {:+.0} eta {:.0}s",
            self.done,
            self.total,
            w.score() * w.games() as f64,
            w.games(),
            elo,
            eta
        )
    }

    /// Print the final report: per pair W-L-D, score, Elo with 95% interval, LOS, draw ratio;
    /// the SPRT; a cross table for three or more engines.
    pub fn report(&self) {
        if self.tty {
            println!();
        }
        for (a, b, w) in self.pair_list() {
            let (elo, lo, hi) = elo_interval(&w).unwrap_or((0.0, 0.0, 0.0));
            println!(
                "{a} vs {b}: W-L-D {}-{}-{}  score {:.1}/{} ({:.1}%)  Elo {:+.1} [{:+.1}, {:+.1}] (95%)  LOS {:.1}%  draws {:.1}%",
                w.wins,
                w.losses,
                w.draws,
                w.score() * w.games() as f64,
                w.games(),
                100.0 * w.score(),
                elo,
                lo,
                hi,
                100.0 * los(&w),
                100.0 * w.draw_ratio()
            );
        }
        if let Some((llr, lo, hi, st)) = self.sprt_state() {
            let s = self.cfg.sprt.expect("configured");
            println!(
                "SPRT elo0 {} elo1 {} alpha {} beta {} (logistic Elo, game pairs): LLR {llr:.3} bounds [{lo:.3}, {hi:.3}] -> {}",
                s.elo0,
                s.elo1,
                s.alpha,
                s.beta,
                match st {
                    SprtStatus::Continue => "continue (no decision yet)".to_string(),
                    SprtStatus::AcceptH0 | SprtStatus::AcceptH1 => format!(
                        "{} accepted after {} games",
                        if st == SprtStatus::AcceptH0 { "H0" } else { "H1" },
                        self.sprt_decision.map_or(0, |d| d.1)
                    ),
                }
            );
        }
        if self.names.len() >= 3 && self.cfg.format == Format::RoundRobin {
            println!("cross table (points of the row engine):");
            let width = self.names.iter().map(String::len).max().unwrap_or(4).max(4);
            print!("{:width$}", "");
            for j in 0..self.names.len() {
                print!(" {:>6}", j + 1);
            }
            println!("  total");
            for i in 0..self.names.len() {
                print!("{:width$}", format!("{} {}", i + 1, self.names[i]));
                let mut total = 0.0;
                for j in 0..self.names.len() {
                    let pts = self.points(i, j);
                    match pts {
                        Some(p) => {
                            total += p;
                            print!(" {p:>6.1}");
                        }
                        None => print!(" {:>6}", "-"),
                    }
                }
                println!("  {total:.1}");
            }
        }
        let [b, w, d] = self.colours;
        println!("by colour: black won {b}, white won {w}, drawn {d}");
        for (&(i, j), p) in &self.pentanomial {
            println!(
                "game pairs (one opening, colours swapped) of {} vs {} by the first's points 0/0.5/1/1.5/2: {}/{}/{}/{}/{}",
                self.names[i], self.names[j], p[0], p[1], p[2], p[3], p[4]
            );
        }
        if !self.losses.is_empty() {
            let l: Vec<String> = self
                .losses
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            println!("decisive games by reason: {}", l.join(", "));
        }
    }

    /// Points of engine `i` against engine `j`, if they played.
    #[must_use]
    pub fn points(&self, i: usize, j: usize) -> Option<f64> {
        if let Some(w) = self.pairs.get(&(i, j)) {
            return Some(f64::from(w.wins) + 0.5 * f64::from(w.draws));
        }
        self.pairs
            .get(&(j, i))
            .map(|w| f64::from(w.losses) + 0.5 * f64::from(w.draws))
    }
}

/// Run `jobs` on `cfg.concurrency` workers; each outcome goes to `book` as it arrives. Stops
/// taking new jobs once `stop` is set (SPRT decided). Returns the outcomes.
pub fn run_jobs(
    cfg: &Config,
    jobs: Vec<Job>,
    book: &mut Book,
    stop: &Arc<AtomicBool>,
) -> Vec<Outcome> {
    let first = book.done;
    let queue: VecDeque<(usize, Job)> = jobs
        .into_iter()
        .enumerate()
        .map(|(i, j)| (first + i + 1, j))
        .collect();
    let queue = Arc::new(Mutex::new(queue));
    let (tx, rx) = mpsc::channel::<Outcome>();
    let mut handles = Vec::new();
    for _ in 0..cfg.concurrency.max(1) {
        let queue = queue.clone();
        let tx = tx.clone();
        let cfg = cfg.clone();
        let stop = stop.clone();
        handles.push(std::thread::spawn(move || worker(&cfg, &queue, &tx, &stop)));
    }
    drop(tx);
    let mut out = Vec::new();
    for o in rx {
        book.record(&o);
        if let Some((_, _, _, st)) = book.sprt_state() {
            if st != SprtStatus::Continue {
                stop.store(true, Ordering::Relaxed);
            }
        }
        out.push(o);
    }
    for h in handles {
        let _ = h.join();
    }
    out
}

fn worker(
    cfg: &Config,
    queue: &Mutex<VecDeque<(usize, Job)>>,
    tx: &mpsc::Sender<Outcome>,
    stop: &AtomicBool,
) {
    // Engine processes of this worker, by (engine index, seat); reused across games.
    let mut procs: HashMap<(usize, usize), EngineProc> = HashMap::new();
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let Some((seq, job)) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
            break;
        };
        let (black, white) = if job.a_black {
            (job.a, job.b)
        } else {
            (job.b, job.a)
        };
        // Seat 1 only when an engine plays itself (two processes of the same command).
        let keys = [(black, 0), (white, usize::from(black == white))];
        let mut started = true;
        for &k in &keys {
            if let std::collections::hash_map::Entry::Vacant(e) = procs.entry(k) {
                match EngineProc::start(&cfg.engines[k.0], cfg.about_timeout) {
                    Ok(mut p) => {
                        if cfg.warmup {
                            let tc = cfg.engine_tc_of(k.0).unwrap_or(cfg.game.tc);
                            game::warm_up(&mut p, &cfg.game, tc);
                        }
                        e.insert(p);
                    }
                    Err(_) => started = false,
                }
            }
        }
        let opening: Vec<(usize, usize)> = job
            .opening
            .and_then(|i| cfg.openings.get(i))
            .map(|o| o.moves.clone())
            .unwrap_or_default();
        let (rec, names) = if started {
            let mut b = procs.remove(&keys[0]).expect("started");
            let mut w = procs.remove(&keys[1]).expect("started");
            let names = [b.name.clone(), w.name.clone()];
            let mut game_cfg = cfg.game.clone();
            game_cfg.seat_tc = [black, white].map(|e| cfg.engine_tc_of(e));
            let rec = game::play([&mut b, &mut w], &opening, &game_cfg);
            for (i, (k, p)) in [(keys[0], b), (keys[1], w)].into_iter().enumerate() {
                if rec.restart[i] {
                    let mut p = p;
                    p.stop(Duration::from_millis(200));
                } else {
                    procs.insert(k, p);
                }
            }
            (rec, names)
        } else {
            // An engine that cannot even start loses the game by crash.
            let crashed = if procs.contains_key(&keys[0]) {
                Color::White
            } else {
                Color::Black
            };
            let rec = GameRecord {
                winner: Some(crashed.opponent()),
                reason: game::Reason::Crash,
                moves: Vec::new(),
                opening_len: 0,
                restart: [true, true],
            };
            (
                rec,
                [cfg.engines[black].clone(), cfg.engines[white].clone()],
            )
        };
        if tx
            .send(Outcome {
                job,
                rec,
                names,
                seq,
            })
            .is_err()
        {
            break;
        }
    }
    for (_, mut p) in procs {
        p.stop(Duration::from_millis(300));
    }
}

/// Run a knockout: mini-matches of `cfg.games` games; a tie after the mini-match is broken by up
/// to three extra two-game blocks, then by seed (the engine listed first advances). Returns the
/// winner's engine index.
pub fn knockout(cfg: &Config, double: bool, book: &mut Book, stop: &Arc<AtomicBool>) -> usize {
    let n = cfg.engines.len();
    let mut losses = vec![0u32; n];
    let max_losses = if double { 2 } else { 1 };
    let mut round = 0;
    loop {
        let alive: Vec<usize> = (0..n).filter(|&i| losses[i] < max_losses).collect();
        if alive.len() <= 1 {
            return alive.first().copied().unwrap_or(0);
        }
        round += 1;
        // Pair within groups of equal losses (winners' and losers' brackets), by seed.
        let mut pairs = Vec::new();
        let mut leftover: Vec<usize> = Vec::new();
        for l in 0..max_losses {
            let mut group: Vec<usize> = alive.iter().copied().filter(|&i| losses[i] == l).collect();
            group.append(&mut leftover);
            group.sort_unstable();
            while group.len() >= 2 {
                let a = group.remove(0);
                let b = group.pop().expect("two left");
                pairs.push((a, b));
            }
            leftover = group;
        }
        if pairs.is_empty() {
            // Only one engine per bracket: the final between them.
            pairs.push((alive[0], alive[1]));
        }
        println!("knockout round {round}: {} mini-match(es)", pairs.len());
        for (a, b) in pairs {
            let mut pts = 0.0f64;
            let mut played = 0.0f64;
            let mut block = cfg.games.max(1);
            let mut extra = 0;
            loop {
                let jobs = pairing_jobs(a, b, block, cfg.openings.len());
                let outs = run_jobs(cfg, jobs, book, stop);
                for o in &outs {
                    pts += o.a_points();
                    played += 1.0;
                }
                if (2.0 * pts - played).abs() > 1e-9 || extra >= 3 {
                    break;
                }
                extra += 1;
                block = 2;
            }
            let loser = if 2.0 * pts > played || ((2.0 * pts - played).abs() < 1e-9 && a < b) {
                b
            } else {
                a
            };
            losses[loser] += 1;
            let winner = if loser == a { b } else { a };
            println!(
                "  {} beats {} ({pts:.1}-{:.1})",
                cfg.engines[winner],
                cfg.engines[loser],
                played - pts
            );
        }
    }
}
