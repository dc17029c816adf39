//! Zobrist keys, generated at compile time from a fixed seed (so hashes are stable across runs
//! and builds).

use crate::types::MAX_CELLS;

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn generate() -> ([[u64; MAX_CELLS]; 2], u64) {
    let mut keys = [[0u64; MAX_CELLS]; 2];
    let mut state = 0x005E_ED0F_4E4A_u64;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < MAX_CELLS {
            let (s, v) = splitmix64(state);
            state = s;
            keys[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    let (_, side) = splitmix64(state);
    (keys, side)
}

const TABLE: ([[u64; MAX_CELLS]; 2], u64) = generate();

/// Key of a stone: `STONE[colour index][cell index]`.
pub static STONE: [[u64; MAX_CELLS]; 2] = TABLE.0;

/// Key toggled whenever the side to move changes.
pub const SIDE: u64 = TABLE.1;
