//! The transposition table: lock-free, shared by all search threads.
//!
//! Each slot is two `AtomicU64`s: the data word and `key ^ data`. A torn write (two threads
//! writing one slot at once) makes the check fail, so a reader never trusts a mixed entry.
//! Replacement: a slot is overwritten by a deeper entry, an entry of a newer search, or an exact
//! bound.

use crate::eval::WIN_THRESHOLD;
use crate::types::Pos;
use std::sync::atomic::{AtomicU64, Ordering};

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

impl Bound {
    /// Whether a `score` with this bound says the true value lies at or beyond `estimate` on
    /// the score's side of it: a lower bound at or above it, an upper bound at or below it, or
    /// an exact score.
    #[must_use]
    pub fn holds_beyond(self, score: i32, estimate: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= estimate,
            Bound::Upper => score <= estimate,
        }
    }
}

/// One probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Best or refuting move ([`Pos::PASS`] when none).
    pub mv: Pos,
    /// Score, with mate scores relative to the stored node.
    pub score: i32,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// Bound kind.
    pub bound: Bound,
}

impl Entry {
    /// Whether the stored bound settles a node searched with the window `(alpha, beta)`.
    #[inline]
    #[must_use]
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// The shared table.
pub struct Table {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
    generation: AtomicU64,
}

impl Table {
    /// A table of at most `mb` megabytes (rounded down to a power of two of 16-byte slots; at
    /// least 1024 slots).
    #[must_use]
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1) * 1024 * 1024;
        let mut n = 1024usize;
        while n * 2 * 16 <= bytes {
            n *= 2;
        }
        let slots = (0..n)
            .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
            .collect();
        Table {
            slots,
            mask: n - 1,
            generation: AtomicU64::new(0),
        }
    }

    /// Bytes used by the slots.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.slots.len() * 16
    }

    /// Empty every slot.
    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Start a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Ask the processor to fetch `key`'s slot into the cache ahead of a [`Table::probe`]
    /// (a hint: no effect on the result; nothing on other architectures).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.slot(key).as_ptr().cast::<i8>();
            // SAFETY: SSE is part of the x86_64 baseline, and a prefetch is a hint that
            // neither reads nor writes memory as far as the program can see (it cannot fault);
            // `p` points into `self.slots` anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[(key as usize) & self.mask]
    }

    /// Look up `key`; mate scores are converted to be relative to `ply`.
    #[must_use]
    pub fn probe(&self, key: u64, ply: i32) -> Option<Entry> {
        let s = self.slot(key);
        let data = s[0].load(Ordering::Relaxed);
        let check = s[1].load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        let mv = Pos((data & 0xFFFF) as u16);
        let score = i32::from(((data >> 16) & 0xFFFF) as u16 as i16);
        let depth = i32::from(((data >> 32) & 0xFF) as u8) - 64;
        let bound = match (data >> 40) & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        };
        Some(Entry {
            mv,
            score: from_tt(score, ply),
            depth,
            bound,
        })
    }

    /// Store an entry for `key` found at `ply`.
    pub fn store(&self, key: u64, ply: i32, mv: Pos, score: i32, depth: i32, bound: Bound) {
        let s = self.slot(key);
        let gen = self.generation.load(Ordering::Relaxed) & 0xFF;
        let old = s[0].load(Ordering::Relaxed);
        if old != 0 {
            let old_key = s[1].load(Ordering::Relaxed) ^ old;
            let old_depth = i32::from(((old >> 32) & 0xFF) as u8) - 64;
            let old_gen = (old >> 48) & 0xFF;
            if old_gen == gen && old_key != key && old_depth > depth && bound != Bound::Exact {
                return;
            }
            // Keep a known move when the new entry has none for the same position.
            if old_key == key && mv.is_pass() && old_depth > depth + 2 {
                return;
            }
        }
        let depth_code = (depth.clamp(-64, 191) + 64) as u64;
        let score16 = u64::from(to_tt(score, ply) as i16 as u16);
        let data = u64::from(mv.0)
            | (score16 << 16)
            | (depth_code << 32)
            | ((bound as u64) << 40)
            | (gen << 48);
        s[0].store(data, Ordering::Relaxed);
        s[1].store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of the first 1000 slots used by the current search.
    #[must_use]
    pub fn hashfull(&self) -> usize {
        let gen = self.generation.load(Ordering::Relaxed) & 0xFF;
        self.slots
            .iter()
            .take(1000)
            .filter(|s| {
                let d = s[0].load(Ordering::Relaxed);
                d != 0 && (d >> 48) & 0xFF == gen
            })
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

    #[test]
    fn a_bound_holds_beyond_an_estimate_on_its_side_only() {
        for (score, est) in [(-50, 10), (10, 10), (70, 10)] {
            assert!(Bound::Exact.holds_beyond(score, est));
            assert_eq!(Bound::Lower.holds_beyond(score, est), score >= est);
            assert_eq!(Bound::Upper.holds_beyond(score, est), score <= est);
        }
    }

    #[test]
    fn store_and_probe_round_trip() {
        let t = Table::new(1);
        let key = 0x1234_5678_9ABC_DEF0;
        t.store(key, 3, Pos(77), WIN - 10, 7, Bound::Exact);
        let e = t.probe(key, 3).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Pos(77), WIN - 10, 7, Bound::Exact)
        );
        // Seen from another ply, the mate distance shifts accordingly.
        assert_eq!(t.probe(key, 5).unwrap().score, WIN - 12);
        assert!(t.probe(key ^ 1, 3).is_none());
        t.store(key, 0, Pos(5), -123, -2, Bound::Upper);
        let e = t.probe(key, 0).unwrap();
        assert_eq!((e.score, e.depth, e.bound), (-123, -2, Bound::Upper));
        t.clear();
        assert!(t.probe(key, 0).is_none());
    }

    /// What the race test stores for `key`: every field derived from the key.
    fn entry_for(key: u64) -> (Pos, i32, i32) {
        let mv = Pos(((key >> 20) % 400) as u16);
        let score = ((key >> 32) % 2000) as i32 - 1000;
        let depth = ((key >> 44) % 60) as i32;
        (mv, score, depth)
    }

    /// Threads storing and probing the same few slots at once (Lazy SMP): every entry a probe
    /// returns is exactly one stored for that key; a torn write (one thread's data word with
    /// another's check word) is never read as an entry.
    #[test]
    fn racing_threads_never_read_torn_entries() {
        let t = Table::new(1);
        let slots = t.mask as u64 + 1;
        // 64 keys on 4 slots: the threads keep overwriting each other.
        let keys: Vec<u64> = (0..64u64)
            .map(|i| {
                let high = (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) & !(slots - 1);
                high | (i % 4)
            })
            .collect();
        let hits = AtomicU64::new(0);
        std::thread::scope(|s| {
            for th in 0..4u64 {
                let (t, keys, hits) = (&t, &keys, &hits);
                s.spawn(move || {
                    let mut x = th.wrapping_mul(0xD1B5_4A32_D192_ED03) | 1;
                    for _ in 0..200_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let key = keys[(x % 64) as usize];
                        let (mv, score, depth) = entry_for(key);
                        t.store(key, 0, mv, score, depth, Bound::Exact);
                        let probe = keys[((x >> 32) % 64) as usize];
                        if let Some(e) = t.probe(probe, 0) {
                            let (mv, score, depth) = entry_for(probe);
                            assert_eq!((e.mv, e.score, e.depth), (mv, score, depth), "{probe:x}");
                            hits.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert!(hits.load(Ordering::Relaxed) > 1000, "the probes never hit");
    }
}
