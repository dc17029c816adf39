//! The transposition table: lock-free, shared by all search threads.
//!
//! The table is an array of 64-byte buckets (one cache line each) of four entries. An entry is
//! two `AtomicU64`s: the data word and `key ^ data`; a torn write (two threads writing one entry
//! at once) makes the check fail, so a reader never trusts a mixed entry.
//!
//! Data word: move (10 bits, 1023 = none), score (16), static evaluation (16), depth (8, offset
//! 64), bound (2), was-PV (1), generation (6).
//!
//! Replacement inside a bucket: the entry of the same position if present (kept when the new
//! one is much shallower and has no move while the old one has), else an empty entry, else the
//! entry with the lowest `depth - 8 * age`, where age counts searches since it was written.

use crate::eval::WIN_THRESHOLD;
use crate::types::Pos;
use std::sync::atomic::{AtomicU64, Ordering};

/// Entries per bucket.
pub const BUCKET: usize = 4;

/// The kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is a lower bound (a beta cutoff).
    Lower = 1,
    /// The score is an upper bound (all moves failed low).
    Upper = 2,
    /// The score is exact.
    Exact = 3,
}

/// One probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Best or refuting move ([`Pos::PASS`] when none).
    pub mv: Pos,
    /// Score, with mate scores relative to the stored node.
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// Bound kind.
    pub bound: Bound,
    /// Whether the position was on a principal variation when stored.
    pub pv: bool,
}

/// What [`Table::store`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Store {
    /// Best or refuting move ([`Pos::PASS`] when none).
    pub mv: Pos,
    /// Score (mate scores relative to the root, as the search has them).
    pub score: i32,
    /// Static evaluation.
    pub eval: i32,
    /// Remaining depth.
    pub depth: i32,
    /// Bound kind.
    pub bound: Bound,
    /// On a principal variation.
    pub pv: bool,
}

#[repr(align(64))]
struct Bucket([AtomicU64; 2 * BUCKET]);

/// The shared table.
pub struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: AtomicU64,
}

const NO_MOVE: u64 = 1023;

fn encode(s: &Store, ply: i32, gen: u64) -> u64 {
    let mv = if s.mv.is_pass() {
        NO_MOVE
    } else {
        u64::from(s.mv.0).min(NO_MOVE - 1)
    };
    let score = u64::from(to_tt(s.score, ply).clamp(-32_767, 32_767) as i16 as u16);
    let eval = u64::from(s.eval.clamp(-32_767, 32_767) as i16 as u16);
    let depth = (s.depth.clamp(-64, 191) + 64) as u64;
    mv | (score << 10)
        | (eval << 26)
        | (depth << 42)
        | ((s.bound as u64) << 50)
        | (u64::from(s.pv) << 52)
        | ((gen & 63) << 53)
}

fn depth_of(data: u64) -> i32 {
    i32::from(((data >> 42) & 0xFF) as u8) - 64
}

fn gen_of(data: u64) -> u64 {
    (data >> 53) & 63
}

impl Table {
    /// A table of at most `mb` megabytes (rounded down to a power of two of 64-byte buckets; at
    /// least 256 buckets).
    #[must_use]
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1) * 1024 * 1024;
        let mut n = 256usize;
        while n * 2 * 64 <= bytes {
            n *= 2;
        }
        let buckets = (0..n)
            .map(|_| Bucket(std::array::from_fn(|_| AtomicU64::new(0))))
            .collect();
        Table {
            buckets,
            mask: n - 1,
            generation: AtomicU64::new(0),
        }
    }

    /// Bytes used by the buckets.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.buckets.len() * 64
    }

    /// Empty every entry.
    pub fn clear(&self) {
        for b in &self.buckets {
            for w in &b.0 {
                w.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Start a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(key as usize) & self.mask]
    }

    /// Look up `key`; mate scores are converted to be relative to `ply`.
    #[must_use]
    pub fn probe(&self, key: u64, ply: i32) -> Option<Entry> {
        let b = self.bucket(key);
        for i in 0..BUCKET {
            let data = b.0[2 * i].load(Ordering::Relaxed);
            let check = b.0[2 * i + 1].load(Ordering::Relaxed);
            if data == 0 || check ^ data != key {
                continue;
            }
            let mv = match data & NO_MOVE {
                NO_MOVE => Pos::PASS,
                m => Pos(m as u16),
            };
            let score = i32::from(((data >> 10) & 0xFFFF) as u16 as i16);
            let eval = i32::from(((data >> 26) & 0xFFFF) as u16 as i16);
            let bound = match (data >> 50) & 3 {
                1 => Bound::Lower,
                2 => Bound::Upper,
                _ => Bound::Exact,
            };
            return Some(Entry {
                mv,
                score: from_tt(score, ply),
                eval,
                depth: depth_of(data),
                bound,
                pv: (data >> 52) & 1 == 1,
            });
        }
        None
    }

    /// Store an entry for `key` found at `ply`.
    pub fn store(&self, key: u64, ply: i32, s: Store) {
        let b = self.bucket(key);
        let gen = self.generation.load(Ordering::Relaxed) & 63;
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for i in 0..BUCKET {
            let data = b.0[2 * i].load(Ordering::Relaxed);
            if data == 0 {
                if victim_value > i32::MIN {
                    victim = i;
                    victim_value = i32::MIN;
                }
                continue;
            }
            let old_key = b.0[2 * i + 1].load(Ordering::Relaxed) ^ data;
            if old_key == key {
                // Keep a known move when the new entry has none and is much shallower.
                let old_move = data & NO_MOVE != NO_MOVE;
                if s.mv.is_pass() && old_move && depth_of(data) > s.depth + 2 {
                    return;
                }
                victim = i;
                break;
            }
            let age = ((gen + 64 - gen_of(data)) & 63) as i32;
            let value = depth_of(data) - 8 * age;
            if value < victim_value {
                victim = i;
                victim_value = value;
            }
        }
        let data = encode(&s, ply, gen);
        b.0[2 * victim].store(data, Ordering::Relaxed);
        b.0[2 * victim + 1].store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of the entries of the first 250 buckets written by the current search.
    #[must_use]
    pub fn hashfull(&self) -> usize {
        let gen = self.generation.load(Ordering::Relaxed) & 63;
        self.buckets
            .iter()
            .take(250)
            .flat_map(|b| (0..BUCKET).map(move |i| b.0[2 * i].load(Ordering::Relaxed)))
            .filter(|&d| d != 0 && gen_of(d) == gen)
            .count()
    }
}

/// Mate scores are stored relative to the node, not the root.
fn to_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_THRESHOLD {
        score + ply
    } else if score <= -WIN_THRESHOLD {
        score - ply
    } else {
        score
    }
}

fn from_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_THRESHOLD {
        score - ply
    } else if score <= -WIN_THRESHOLD {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::WIN;

    fn st(mv: Pos, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool) -> Store {
        Store {
            mv,
            score,
            eval,
            depth,
            bound,
            pv,
        }
    }

    #[test]
    fn store_and_probe_round_trip() {
        let t = Table::new(1);
        let key = 0x1234_5678_9ABC_DEF0;
        t.store(key, 3, st(Pos(77), WIN - 10, -345, 7, Bound::Exact, true));
        let e = t.probe(key, 3).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound, e.pv),
            (Pos(77), WIN - 10, -345, 7, Bound::Exact, true)
        );
        // Seen from another ply, the mate distance shifts accordingly.
        assert_eq!(t.probe(key, 5).unwrap().score, WIN - 12);
        assert!(t.probe(key ^ 1, 3).is_none());
        t.store(key, 0, st(Pos(5), -123, 17, -2, Bound::Upper, false));
        let e = t.probe(key, 0).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound, e.pv),
            (Pos(5), -123, 17, -2, Bound::Upper, false)
        );
        t.store(key, 0, st(Pos::PASS, 9, 9, 1, Bound::Lower, false));
        assert_eq!(t.probe(key, 0).unwrap().mv, Pos::PASS);
        t.clear();
        assert!(t.probe(key, 0).is_none());
    }

    #[test]
    fn a_bucket_holds_four_positions_and_replaces_the_shallowest_oldest() {
        let t = Table::new(1);
        let n = t.buckets.len() as u64;
        // Five keys in one bucket (same low bits).
        let keys: Vec<u64> = (1..=5).map(|k| 7 + k * n * 1_000_003).collect();
        for (i, &k) in keys.iter().take(4).enumerate() {
            t.store(
                k,
                0,
                st(
                    Pos(i as u16),
                    i as i32,
                    0,
                    10 + i as i32,
                    Bound::Exact,
                    false,
                ),
            );
        }
        for (i, &k) in keys.iter().take(4).enumerate() {
            assert_eq!(t.probe(k, 0).map(|e| e.score), Some(i as i32));
        }
        // A fifth position evicts the shallowest (depth 10).
        t.store(keys[4], 0, st(Pos(9), 99, 0, 3, Bound::Exact, false));
        assert!(t.probe(keys[0], 0).is_none());
        assert_eq!(t.probe(keys[4], 0).map(|e| e.score), Some(99));
        // Entries of older searches go first, whatever their depth.
        t.new_search();
        t.new_search();
        t.store(keys[1], 0, st(Pos(1), 1, 0, 11, Bound::Exact, false));
        t.store(keys[0], 0, st(Pos(0), 0, 0, 1, Bound::Exact, false));
        assert!(t.probe(keys[1], 0).is_some());
        assert_eq!(t.probe(keys[0], 0).map(|e| e.score), Some(0));
        assert_eq!(t.hashfull(), 2);
    }
}
