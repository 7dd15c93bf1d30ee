//! Zobrist keys: fixed pseudo-random 64-bit numbers, one per (slot, stone) and per game field.
//!
//! The keys are computed at compile time from a fixed seed, so hashes are the same on every
//! run and machine (transposition tables and repetition records can be stored).

use swapboard_grid::MAILBOX_CAPACITY;

use crate::Player;

const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const STONE_KINDS: usize = 2;
const FIELD_KEYS: usize = 16;

static STONE_KEYS: [u64; MAILBOX_CAPACITY * STONE_KINDS] = {
    let mut keys = [0; MAILBOX_CAPACITY * STONE_KINDS];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = splitmix64(0x5A4B_0A2D_0000_0000 ^ i as u64);
        i += 1;
    }
    keys
};

static FIELD: [u64; FIELD_KEYS] = {
    let mut keys = [0; FIELD_KEYS];
    let mut i = 0;
    while i < FIELD_KEYS {
        keys[i] = splitmix64(0x0F1E_1D5E_ED00_0000 ^ i as u64);
        i += 1;
    }
    keys
};

/// The key of a stone of `player` on mailbox slot `slot`.
#[inline]
pub fn stone(slot: usize, player: Player) -> u64 {
    STONE_KEYS[slot * STONE_KINDS + player.index()]
}

/// The key xored in when the second player is to move.
#[inline]
pub fn second_to_move() -> u64 {
    FIELD[0]
}

/// A key for game-specific field number `i` (0..15), e.g. a flag or a counter value.
#[inline]
pub fn field(i: usize) -> u64 {
    FIELD[1 + i % (FIELD_KEYS - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = STONE_KEYS.iter().chain(FIELD.iter()).copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), STONE_KEYS.len() + FIELD.len());
        assert!(all.iter().all(|&k| k != 0));
    }
}
