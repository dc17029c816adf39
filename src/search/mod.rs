//! Search: iterative-deepening PVS alpha-beta with a shared transposition table, threat-space
//! solvers (VCF/VCT), Lazy SMP threads and search limits.
//!
//! May import: [`crate::types`], [`crate::pattern`], [`crate::board`], [`crate::rules`],
//! [`crate::eval`].
//!
//! Search never prints: progress goes to a [`Reporter`].

mod alphabeta;
pub mod params;
mod picker;
pub mod threats;
pub mod tt;
pub mod vcf;

use crate::board::Board;
use crate::types::Pos;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use alphabeta::{Prepared, Worker};

/// What bounds a search: depth, nodes, time (see [`Limits::from_clock`] for turn time and
/// match time left), and a stop flag the search polls every [`params::CHECK_EVERY`] nodes.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Maximum iterative-deepening depth (plies).
    pub max_depth: i32,
    /// Stop after this many nodes (summed over threads), if set.
    pub max_nodes: Option<u64>,
    /// Hard deadline measured from the start of the search, if set.
    pub hard_time: Option<Duration>,
    /// Optimum time: no new iteration starts after it (scaled by best-move stability), if set.
    pub soft_time: Option<Duration>,
    /// Set from outside to stop the search as soon as possible.
    pub stop: Arc<AtomicBool>,
    /// Root moves the search must not choose (Yixin-Board's `YXBLOCK`, n-best searches).
    pub excluded: Vec<Pos>,
    /// Where the main thread shows its progress through the root moves, if anyone watches
    /// (a GUI's live display); the search's decisions never read it.
    pub watch: Option<Arc<RootWatch>>,
    /// Lines to search (multi-PV): 1 is the game search; more is an analysis that gives each
    /// of the best `multi_pv` root moves its own value and line, every iteration
    /// ([`SearchResult::lines`], [`Reporter::line`]).
    pub multi_pv: usize,
    /// Record every this many nodes' quiescence stand-pat position (0: none), for training an
    /// evaluation on the positions the search evaluates ([`Searcher::take_leaves`]); the
    /// search itself is the same either way.
    pub sample_leaves: u64,
}

/// The main thread's progress through the root moves, for a live display on another thread
/// (Yixin-Board's `MESSAGE REALTIME` lines): which iteration, the root move being searched,
/// the ones searched in this iteration, and the ones proven lost.
#[derive(Debug, Default)]
pub struct RootWatch {
    state: Mutex<RootState>,
}

/// A snapshot of [`RootWatch`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RootState {
    /// Iterations started so far (a new one clears `current` and `done`).
    pub iteration: u32,
    /// The root move being searched now.
    pub current: Option<Pos>,
    /// Root moves whose search started in this iteration, in order.
    pub started: Vec<Pos>,
    /// Root moves searched to the end in this iteration, in order.
    pub done: Vec<Pos>,
    /// Root moves proven lost so far, in order.
    pub lost: Vec<Pos>,
}

impl RootWatch {
    /// The state now.
    #[must_use]
    pub fn snapshot(&self) -> RootState {
        self.state.lock().map(|s| s.clone()).unwrap_or_default()
    }

    fn update(&self, f: impl FnOnce(&mut RootState)) {
        if let Ok(mut s) = self.state.lock() {
            f(&mut s);
        }
    }

    /// A new iteration starts.
    pub fn start_iteration(&self) {
        self.update(|s| {
            s.iteration += 1;
            s.current = None;
            s.started.clear();
            s.done.clear();
        });
    }

    /// Root move `m` is being searched.
    pub fn searching(&self, m: Pos) {
        self.update(|s| {
            s.current = Some(m);
            if !s.started.contains(&m) {
                s.started.push(m);
            }
        });
    }

    /// Root move `m` has been searched (`lost`: proven lost).
    pub fn searched(&self, m: Pos, lost: bool) {
        self.update(|s| {
            s.current = None;
            if !s.done.contains(&m) {
                s.done.push(m);
            }
            if lost && !s.lost.contains(&m) {
                s.lost.push(m);
            }
        });
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: params::MAX_DEPTH,
            max_nodes: None,
            hard_time: None,
            soft_time: None,
            stop: Arc::new(AtomicBool::new(false)),
            excluded: Vec::new(),
            watch: None,
            multi_pv: 1,
            sample_leaves: 0,
        }
    }
}

impl Limits {
    /// Limits for a fixed-depth search.
    #[must_use]
    pub fn depth(d: i32) -> Limits {
        Limits {
            max_depth: d,
            ..Limits::default()
        }
    }

    /// Limits for a time-bounded search: `ms` milliseconds in all, of which a soft target
    /// (no new iteration) of about half.
    #[must_use]
    pub fn time_ms(ms: u64) -> Limits {
        Limits::from_clock(Some(ms), None, 0, 0)
    }

    /// Time limits from a game clock: the per-move limit `turn_ms` and the match time left
    /// `match_left_ms` (either may be absent = unlimited), minus `margin_ms` for communication,
    /// with `stones` stones on the board (the game phase).
    ///
    /// * Hard deadline (the search is aborted): the turn limit, and at most the match time left
    ///   divided by [`params::TIME_HARD_DIV`] (4: a quarter).
    /// * Optimum (no new iteration once passed, scaled by the stability of the best move
    ///   between 60% and 200%, never past the hard deadline): 90% of the turn limit
    ///   ([`params::TIME_TURN_PCT`]), and the match time left divided by the expected number of
    ///   own moves still to play, `max(TIME_MTG_MIN, TIME_MTG_BASE - stones / TIME_MTG_DIV)`
    ///   (the process's [`params::SearchParams`]).
    ///
    /// A limit of 0 means "answer at once": the hard deadline is then 1 ms.
    #[must_use]
    pub fn from_clock(
        turn_ms: Option<u64>,
        match_left_ms: Option<i64>,
        margin_ms: u64,
        stones: usize,
    ) -> Limits {
        let p = params::SearchParams::current();
        let turn = turn_ms.map(|t| t.saturating_sub(margin_ms).max(1));
        let from_match = match_left_ms.map(|m| {
            let m = (m.max(0) as u64).saturating_sub(margin_ms).max(1);
            let mtg = (p.time_mtg_base as u64)
                .saturating_sub(stones as u64 / p.time_mtg_div as u64)
                .max(p.time_mtg_min as u64);
            ((m / mtg).max(1), (m / p.time_hard_div as u64).max(1))
        });
        let turn_pct = p.time_turn_pct as u64;
        let (optimum, hard) = match (turn, from_match) {
            (None, None) => return Limits::default(),
            (Some(t), None) => (t * turn_pct / 100, t),
            (None, Some((o, h))) => (o, h),
            (Some(t), Some((o, h))) => ((t * turn_pct / 100).min(o), t.min(h)),
        };
        Limits {
            hard_time: Some(Duration::from_millis(hard)),
            soft_time: Some(Duration::from_millis(optimum.clamp(1, hard))),
            ..Limits::default()
        }
    }
}

/// One completed iteration, as reported.
#[derive(Clone, Debug)]
pub struct Iteration {
    /// Depth reached.
    pub depth: i32,
    /// Score for the side to move.
    pub score: i32,
    /// Nodes so far (all threads).
    pub nodes: u64,
    /// Time since the start.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Pos>,
}

/// One root move's line in a multi-PV search: the depth it was completed at, its value for
/// the side to move, its line (the root move first) and the nodes its search took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLine {
    /// Depth of the iteration that completed it.
    pub depth: i32,
    /// Score for the side to move.
    pub score: i32,
    /// The line, its root move first.
    pub pv: Vec<Pos>,
    /// Nodes its search took (all threads while it ran).
    pub nodes: u64,
}

/// A completed line of a multi-PV search, as reported.
#[derive(Clone, Debug)]
pub struct LineReport {
    /// Its rank in this iteration (0: the best).
    pub index: usize,
    /// Lines searched per iteration.
    pub count: usize,
    /// The line.
    pub line: RootLine,
    /// Nodes so far (all threads).
    pub total_nodes: u64,
    /// Time since the start.
    pub elapsed: Duration,
}

/// Receives search progress.
pub trait Reporter {
    /// Called after every completed iteration of the main thread (of a game search; a
    /// multi-PV search reports its lines instead).
    fn iteration(&mut self, it: &Iteration);

    /// Called after every completed line of a multi-PV search, best first within an
    /// iteration.
    fn line(&mut self, _l: &LineReport) {}
}

/// A reporter that ignores everything.
pub struct Silent;

impl Reporter for Silent {
    fn iteration(&mut self, _it: &Iteration) {}
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Best move ([`Pos::PASS`] if the board is full).
    pub best: Pos,
    /// Score for the side to move.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: i32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Pos>,
    /// A multi-PV search's lines, best first: each root move's last completed line (empty for
    /// a game search).
    pub lines: Vec<RootLine>,
}

/// A completed iteration of one thread, published for the final choice of move.
#[derive(Clone, Debug)]
pub struct Completed {
    /// Depth of the iteration.
    pub depth: i32,
    /// Its score for the side to move.
    pub score: i32,
    /// Its principal variation (never empty: the first move is a root move).
    pub pv: Vec<Pos>,
}

/// Shared state of one search: the table, node counter, stop flag and clock, and what the
/// threads of a Lazy SMP search tell each other.
pub struct Shared {
    /// The transposition table.
    pub tt: tt::Table,
    /// Nodes over all threads.
    pub nodes: AtomicU64,
    /// Stop flag (external or internal).
    pub stop: Arc<AtomicBool>,
    /// Start time.
    pub start: Instant,
    /// The limits.
    pub limits: Limits,
    /// Number of threads searching.
    pub threads: usize,
    /// Per helper thread (index = thread id), its last completed iteration.
    completed: Mutex<Vec<Option<Completed>>>,
    /// The deepest iteration any helper has completed.
    completed_depth: AtomicI32,
    /// The deepest iteration the main thread has completed.
    main_completed: AtomicI32,
    /// Root moves the main thread dropped (the opponent wins by VCT after them): helpers drop
    /// them too at their next iteration.
    dropped: Mutex<Vec<Pos>>,
    /// ABDADA: hashes of the (node, move) pairs some thread is searching now (empty with one
    /// thread). A thread defers a move another thread is busy with to the end of its move
    /// list, so threads at one depth divide the work instead of repeating it.
    busy: Vec<AtomicU64>,
    /// The stand-pat positions recorded by [`Limits::sample_leaves`], as move lists from the
    /// empty board.
    leaves: Mutex<Vec<Vec<Pos>>>,
}

impl Shared {
    /// The shared state of a search with table `tt`, `limits` and `threads` threads.
    #[must_use]
    pub fn new(tt: tt::Table, limits: Limits, threads: usize) -> Shared {
        Shared {
            tt,
            nodes: AtomicU64::new(0),
            stop: limits.stop.clone(),
            start: Instant::now(),
            limits,
            threads: threads.max(1),
            completed: Mutex::new(vec![None; threads.max(1)]),
            completed_depth: AtomicI32::new(0),
            main_completed: AtomicI32::new(0),
            dropped: Mutex::new(Vec::new()),
            leaves: Mutex::new(Vec::new()),
            busy: if threads > 1 {
                (0..params::BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// ABDADA: the hash of move `m` at the node of hash `key`.
    #[inline]
    pub(crate) fn busy_hash(key: u64, m: Pos) -> u64 {
        key ^ (u64::from(m.0) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// ABDADA: whether any thread is searching the (node, move) pair hashed as `h`.
    #[inline]
    pub(crate) fn is_busy(&self, h: u64) -> bool {
        self.busy
            .get(h as usize & (params::BUSY_SLOTS - 1))
            .is_some_and(|b| b.load(Ordering::Relaxed) == h)
    }

    /// ABDADA: a thread starts (`true`) or ends (`false`) searching the pair hashed as `h`.
    /// Races only lose or keep a mark a little too long: the mark is a hint.
    #[inline]
    pub(crate) fn set_busy(&self, h: u64, on: bool) {
        if let Some(b) = self.busy.get(h as usize & (params::BUSY_SLOTS - 1)) {
            if on {
                b.store(h, Ordering::Relaxed);
            } else if b.load(Ordering::Relaxed) == h {
                b.store(0, Ordering::Relaxed);
            }
        }
    }

    /// Thread `id` completed an iteration.
    fn publish(&self, id: usize, c: Completed) {
        let depth = c.depth;
        if let Ok(mut v) = self.completed.lock() {
            if let Some(slot) = v.get_mut(id) {
                *slot = Some(c);
            }
        }
        self.completed_depth.fetch_max(depth, Ordering::Relaxed);
    }

    /// The deepest iteration a helper has completed (0: none yet).
    fn completed_depth(&self) -> i32 {
        self.completed_depth.load(Ordering::Relaxed)
    }

    /// The main thread completed an iteration of `depth`.
    fn main_completed(&self, depth: i32) {
        self.main_completed.fetch_max(depth, Ordering::Relaxed);
    }

    /// The deepest iteration a thread other than thread `id` may have completed: for the main
    /// thread the helpers' deepest, for a helper also the main thread's (0: none yet).
    fn completed_by_others(&self, id: usize) -> i32 {
        let helpers = self.completed_depth();
        if id == 0 {
            helpers
        } else {
            helpers.max(self.main_completed.load(Ordering::Relaxed))
        }
    }

    /// The helpers' last completed iterations.
    fn helper_results(&self) -> Vec<Completed> {
        self.completed
            .lock()
            .map(|v| v.iter().skip(1).flatten().cloned().collect())
            .unwrap_or_default()
    }

    /// The main thread drops root move `m`.
    fn drop_root_move(&self, m: Pos) {
        if let Ok(mut v) = self.dropped.lock() {
            v.push(m);
        }
    }

    /// The root moves the main thread has dropped so far.
    fn dropped_root_moves(&self) -> Vec<Pos> {
        self.dropped.lock().map(|v| v.clone()).unwrap_or_default()
    }

    /// Whether a hard limit has been reached (nodes or time) or a stop was requested.
    #[must_use]
    pub fn should_stop(&self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if let Some(n) = self.limits.max_nodes {
            if self.nodes.load(Ordering::Relaxed) >= n {
                return true;
            }
        }
        if let Some(t) = self.limits.hard_time {
            if self.start.elapsed() >= t {
                return true;
            }
        }
        false
    }
}

/// The engine-side search object: owns the transposition table between searches.
pub struct Searcher {
    tt: Option<tt::Table>,
    hash_mb: usize,
    /// Number of threads (Lazy SMP); 1 is deterministic.
    pub threads: usize,
    /// The positions recorded by the last search with [`Limits::sample_leaves`].
    leaves: Vec<Vec<Pos>>,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` megabytes and `threads` threads.
    #[must_use]
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher {
            tt: Some(tt::Table::new(hash_mb)),
            hash_mb,
            threads: threads.max(1),
            leaves: Vec::new(),
        }
    }

    /// Empty the table.
    pub fn clear(&mut self) {
        if let Some(t) = &self.tt {
            t.clear();
        }
    }

    /// The table size in MB.
    #[must_use]
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Resize the table to `mb` megabytes (emptying it). Returns whether a new table was made
    /// (it is empty then, so a [`Searcher::clear`] right after would only repeat the work).
    pub fn resize(&mut self, mb: usize) -> bool {
        if mb == self.hash_mb {
            return false;
        }
        self.tt = None;
        self.tt = Some(tt::Table::new(mb));
        self.hash_mb = mb;
        true
    }

    /// Search `board` (side to move) within `limits`, reporting each iteration.
    pub fn search(
        &mut self,
        board: &Board,
        limits: Limits,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        let table = self
            .tt
            .take()
            .unwrap_or_else(|| tt::Table::new(self.hash_mb));
        table.new_search();
        let threads = self.threads;
        let shared = Shared::new(table, limits, threads);
        let mut w = Worker::new(board.clone(), &shared, 0);
        let lines = shared.limits.multi_pv.max(1);
        let result = if threads <= 1 && lines == 1 {
            w.iterate(reporter)
        } else {
            let prepared = if lines > 1 {
                w.prepare_lines()
            } else {
                w.prepare()
            };
            match prepared {
                Prepared::Done(r) => r,
                Prepared::Search(r, moves) if threads <= 1 => {
                    w.iterate_lines(r, moves, lines, reporter)
                }
                Prepared::Search(r, moves) => std::thread::scope(|s| {
                    let mut handles = Vec::new();
                    for id in 1..threads {
                        let shared = &shared;
                        let b = board.clone();
                        let root = moves.clone();
                        handles.push(s.spawn(move || {
                            let mut h = Worker::new(b, shared, id);
                            h.helper_iterate(root);
                        }));
                    }
                    let r = if lines > 1 {
                        w.iterate_lines(r, moves, lines, reporter)
                    } else {
                        w.iterate_moves(r, moves, reporter)
                    };
                    shared.stop.store(true, Ordering::Relaxed);
                    for h in handles {
                        let _ = h.join();
                    }
                    let mut r = r;
                    r.nodes = shared.nodes.load(Ordering::Relaxed);
                    r
                }),
            }
        };
        // A stop set internally for helper threads must not stick to the caller's flag.
        if self.threads > 1 {
            shared.stop.store(false, Ordering::Relaxed);
        }
        self.leaves = shared.leaves.into_inner().unwrap_or_default();
        self.tt = Some(shared.tt);
        result
    }

    /// The stand-pat positions the last search recorded ([`Limits::sample_leaves`]), each as
    /// its moves from the empty board (positions reached through a null move are left out),
    /// in the order they were met.
    pub fn take_leaves(&mut self) -> Vec<Vec<Pos>> {
        std::mem::take(&mut self.leaves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new table from `resize` is as empty as a cleared one (START relies on it to skip the
    /// clear), and `resize` to the same size keeps the table.
    #[test]
    fn a_resized_table_is_empty_and_a_kept_one_is_not() {
        let (rule, size, moves) = crate::bench::POSITIONS[0];
        let board = crate::bench::position(rule, size, moves).expect("bench position");
        let nodes = |s: &mut Searcher| s.search(&board, Limits::depth(6), &mut Silent).nodes;
        let fresh = nodes(&mut Searcher::new(2, 1));
        let mut s = Searcher::new(1, 1);
        nodes(&mut s);
        assert!(s.resize(2));
        assert_eq!(nodes(&mut s), fresh);
        assert!(!s.resize(2));
        assert_ne!(nodes(&mut s), fresh, "a kept table still helps");
        s.clear();
        assert_eq!(nodes(&mut s), fresh);
    }

    #[test]
    fn clock_limits() {
        let ms = |d: Option<Duration>| d.map(|d| d.as_millis() as u64);
        // Turn limit only: the hard deadline is the limit less the margin, the optimum 90%.
        let l = Limits::from_clock(Some(1000), None, 50, 10);
        assert_eq!(ms(l.hard_time), Some(950));
        assert_eq!(ms(l.soft_time), Some(855));
        // Match time: the optimum is the time left over the moves to go (TIME_MTG_BASE at the start,
        // fewer later, never below the minimum); the hard deadline at most a quarter of it.
        let l = Limits::from_clock(Some(5000), Some(20_000), 0, 0);
        assert_eq!(ms(l.soft_time), Some(20_000 / params::TIME_MTG_BASE));
        assert_eq!(ms(l.hard_time), Some(5000));
        let late = Limits::from_clock(Some(5000), Some(20_000), 0, 400);
        assert_eq!(ms(late.soft_time), Some(20_000 / params::TIME_MTG_MIN));
        assert!(late.soft_time > l.soft_time);
        let l = Limits::from_clock(None, Some(8_000), 0, 0);
        assert_eq!(ms(l.hard_time), Some(2_000));
        // Almost no time left: never more than a quarter of it.
        let l = Limits::from_clock(Some(5000), Some(90), 0, 0);
        assert_eq!(ms(l.hard_time), Some(22));
        assert!(l.soft_time <= l.hard_time);
        // Negative time left (the manager may send it): answer at once.
        let l = Limits::from_clock(None, Some(-5), 10, 0);
        assert_eq!(ms(l.hard_time), Some(1));
        assert_eq!(Limits::from_clock(None, None, 10, 0).hard_time, None);
        assert_eq!(
            ms(Limits::from_clock(Some(0), None, 30, 0).hard_time),
            Some(1)
        );
    }
}
