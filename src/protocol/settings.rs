//! The settings a manager sends with `INFO`, and the memory budget they give.
//!
//! May import `types`; the clock (`clock.rs`) turns these settings into search limits.

use crate::types::Rule;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Memory budget when `max_memory` is 0 or absent (bytes).
const DEFAULT_MEMORY: u64 = 350 * 1024 * 1024;
/// Memory the engine needs besides the transposition table (bytes): tables, boards, stacks.
const BASE_MEMORY: u64 = 24 * 1024 * 1024;

/// Search threads until the manager sends `INFO thread_num` (see [`set_default_threads`]).
static DEFAULT_THREADS: AtomicUsize = AtomicUsize::new(1);
/// Pondering until the manager sends `INFO pondering` (see [`set_default_pondering`]).
static DEFAULT_PONDERING: AtomicBool = AtomicBool::new(false);

/// Ponder until the manager sends `INFO pondering` (off unless set): for match runners that
/// cannot send `INFO` lines of their own, through `pbrain-renju-engine --ponder`.
pub fn set_default_pondering(on: bool) {
    DEFAULT_PONDERING.store(on, Ordering::Relaxed);
}

/// Threads the process searches with until the manager sends `INFO thread_num` (1 unless
/// set; clamped to 1..=256 as `thread_num` is). For match runners that cannot send `INFO`
/// lines of their own, through the `pbrain-renju-engine --threads N` argument.
pub fn set_default_threads(n: usize) {
    DEFAULT_THREADS.store(n.clamp(1, 256), Ordering::Relaxed);
}

/// Settings received by `INFO`.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Per-move limit (ms); `None` = not sent.
    pub timeout_turn: Option<u64>,
    /// Match limit (ms); 0 = none.
    pub timeout_match: u64,
    /// Match time left (ms), as last sent.
    pub time_left: Option<i64>,
    /// Memory limit (bytes); 0 = none.
    pub max_memory: u64,
    /// Rule.
    pub rule: Rule,
    /// Search threads.
    pub threads: usize,
    /// Depth limit.
    pub max_depth: i32,
    /// Node limit.
    pub max_nodes: Option<u64>,
    /// Yixin `show_detail`: 0 nothing while thinking; 1..3 a detail line per iteration, and
    /// with bit 0 also `MESSAGE REALTIME` lines. Without the key: detail lines only (2).
    pub show_detail: u32,
    /// Whether the manager sent `show_detail` (a Yixin-Board-style GUI: only such a GUI gets
    /// the `INFO` analysis block at levels 2 and 3, and board labels in the `MESSAGE` lines).
    pub show_detail_sent: bool,
    /// Yixin `hash_size` cap in KB (0 = none).
    pub hash_kb: u64,
    /// `INFO pondering 1`: think on the opponent's time (off unless the manager asks).
    pub pondering: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            timeout_turn: None,
            timeout_match: 0,
            time_left: None,
            max_memory: 0,
            rule: Rule::Freestyle,
            threads: DEFAULT_THREADS.load(Ordering::Relaxed),
            max_depth: 64,
            max_nodes: None,
            show_detail: 2,
            show_detail_sent: false,
            hash_kb: 0,
            pondering: DEFAULT_PONDERING.load(Ordering::Relaxed),
        }
    }
}

impl Settings {
    /// Apply one `INFO key value`; unknown keys and unusable values are ignored.
    pub fn apply_info(&mut self, key: &str, value: &str) {
        let int = value.trim().parse::<i64>().ok();
        match (key, int) {
            ("timeout_turn", Some(v)) => self.timeout_turn = Some(v.max(0) as u64),
            ("timeout_match", Some(v)) => self.timeout_match = v.max(0) as u64,
            ("time_left", Some(v)) => self.time_left = Some(v),
            ("max_memory", Some(v)) => self.max_memory = v.max(0) as u64,
            ("rule", Some(v)) => {
                if let Some(r) = Rule::from_gomocup(v) {
                    self.rule = r;
                }
            }
            ("thread_num", Some(v)) => self.threads = v.clamp(1, 256) as usize,
            ("max_depth", Some(v)) => self.max_depth = v.clamp(1, 64) as i32,
            ("max_node", Some(v)) => self.max_nodes = (v > 0).then_some(v as u64),
            ("show_detail", Some(v)) => {
                self.show_detail = v.clamp(0, 3) as u32;
                self.show_detail_sent = true;
            }
            ("hash_size", Some(v)) => self.hash_kb = v.max(0) as u64,
            ("pondering", Some(v)) => self.pondering = v != 0,
            _ => {}
        }
    }

    /// Whether searches send the `INFO` analysis block (`PV`, `NUMPV`, `DEPTH`, ..., `PV
    /// DONE`) after each completed line: `show_detail` 2 or 3, sent by the manager.
    #[must_use]
    pub fn analysis_block(&self) -> bool {
        self.show_detail_sent && self.show_detail & 2 != 0
    }

    /// Whether the `MESSAGE` lines write moves as the GUI's board labels (a manager that sent
    /// `show_detail`, see [`super::report::label`]) instead of protocol `x,y`.
    #[must_use]
    pub fn board_labels(&self) -> bool {
        self.show_detail_sent && self.show_detail != 0
    }

    /// Transposition-table size (MB) within the memory budget.
    #[must_use]
    pub fn hash_mb(&self) -> usize {
        let budget = if self.max_memory == 0 {
            DEFAULT_MEMORY
        } else {
            self.max_memory
        };
        let mut avail = budget.saturating_sub(BASE_MEMORY) * 6 / 10;
        if self.hash_kb > 0 {
            avail = avail.min(self.hash_kb * 1024);
        }
        let mut mb = 1usize;
        while ((mb as u64) * 2) << 20 <= avail && mb < 4096 {
            mb *= 2;
        }
        mb
    }
}
