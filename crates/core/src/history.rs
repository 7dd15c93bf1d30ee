//! A record of the positions a game has passed through, by hash, that reports repeats.
//!
//! Some games (Rapid Transit) have no repetition rule, and their games can cycle. The rules
//! engines do not judge repetition; tools that play games record every position here and
//! report what they saw (a repeat is information, never a result).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Zobrist hashes are already uniformly spread: use them as their own map hash.
#[derive(Default)]
struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The positions seen so far, by hash, in the order they were reached.
#[derive(Default, Clone)]
pub struct History {
    seen: HashMap<u64, Seen, BuildHasherDefault<IdentityHasher>>,
    plies: usize,
    repeats: usize,
    first_repeat: Option<Repeat>,
}

#[derive(Clone, Copy)]
struct Seen {
    first_ply: usize,
    times: u32,
}

/// A position met again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Repeat {
    /// The ply at which it was first reached (0 = the position recorded first).
    pub first_ply: usize,
    /// The ply at which it came back.
    pub ply: usize,
    /// How many times it has now been reached, this time included (2 or more).
    pub times: u32,
}

impl Repeat {
    /// The length of the cycle: plies between the two visits.
    pub fn cycle_length(&self) -> usize {
        self.ply - self.first_ply
    }
}

impl History {
    /// An empty record.
    pub fn new() -> History {
        History::default()
    }

    /// Records the position with hash `hash` as the next ply (the first call records ply 0,
    /// usually the start). Returns the repeat if the position was seen before.
    pub fn record(&mut self, hash: u64) -> Option<Repeat> {
        let ply = self.plies;
        self.plies += 1;
        let entry = self.seen.entry(hash).or_insert(Seen {
            first_ply: ply,
            times: 0,
        });
        entry.times += 1;
        if entry.times == 1 {
            return None;
        }
        let repeat = Repeat {
            first_ply: entry.first_ply,
            ply,
            times: entry.times,
        };
        self.repeats += 1;
        self.first_repeat.get_or_insert(repeat);
        Some(repeat)
    }

    /// How many times the position with this hash has been recorded.
    pub fn times_seen(&self, hash: u64) -> u32 {
        self.seen.get(&hash).map_or(0, |s| s.times)
    }

    /// Positions recorded, repeats included.
    pub fn len(&self) -> usize {
        self.plies
    }

    /// Whether nothing has been recorded.
    pub fn is_empty(&self) -> bool {
        self.plies == 0
    }

    /// Different positions recorded.
    pub fn distinct(&self) -> usize {
        self.seen.len()
    }

    /// Recorded positions that had been seen before.
    pub fn repeats(&self) -> usize {
        self.repeats
    }

    /// The first position that came back, if any.
    pub fn first_repeat(&self) -> Option<Repeat> {
        self.first_repeat
    }

    /// Forgets everything, keeping the storage.
    pub fn clear(&mut self) {
        self.seen.clear();
        self.plies = 0;
        self.repeats = 0;
        self.first_repeat = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_are_reported_with_their_plies() {
        let mut h = History::new();
        assert_eq!(h.record(10), None);
        assert_eq!(h.record(20), None);
        assert_eq!(h.record(30), None);
        let r = h.record(20).expect("20 came back");
        assert_eq!(
            (r.first_ply, r.ply, r.times, r.cycle_length()),
            (1, 3, 2, 2)
        );
        assert_eq!(h.record(20).map(|r| r.times), Some(3));
        assert_eq!((h.len(), h.distinct(), h.repeats()), (5, 3, 2));
        assert_eq!(h.first_repeat(), Some(r));
        assert_eq!(h.times_seen(20), 3);
        assert_eq!(h.times_seen(99), 0);
        h.clear();
        assert!(h.is_empty() && h.first_repeat().is_none());
        assert_eq!(h.record(20), None);
    }
}
