//! The transposition table: proof and disproof numbers by position key, in buckets of four
//! with the least-worked entry replaced.

/// A proof or disproof number that stands for "never": the goal is disproven (as a proof
/// number) or proven (as a disproof number).
pub(crate) const INFINITY: u32 = u32::MAX;

/// Entries per bucket (a bucket is read as one block of memory).
const WAYS: usize = 4;

/// What the table knows about one proposition ("the player to move wins here", or "the
/// other player wins here").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Numbers {
    /// The proof number: 0 once proven.
    pub(crate) pn: u32,
    /// The disproof number: 0 once disproven.
    pub(crate) dn: u32,
}

impl Numbers {
    /// The numbers of a position nothing is known about.
    pub(crate) const UNKNOWN: Numbers = Numbers { pn: 1, dn: 1 };
    /// A proven proposition.
    pub(crate) const PROVEN: Numbers = Numbers {
        pn: 0,
        dn: INFINITY,
    };
    /// A disproven proposition.
    pub(crate) const DISPROVEN: Numbers = Numbers {
        pn: INFINITY,
        dn: 0,
    };

    /// Whether the proposition is settled either way.
    pub(crate) fn is_solved(self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    /// The key, or 0 for an empty entry (keys are never 0).
    key: u64,
    pn: u32,
    dn: u32,
    /// The nodes searched below this entry, saturated: what it would cost to forget it.
    work: u32,
}

/// A fixed-size table of proof and disproof numbers.
pub(crate) struct Table {
    entries: Vec<Entry>,
    mask: usize,
    used: usize,
}

impl Table {
    /// A table of at most `bytes` bytes (at least one bucket).
    pub(crate) fn with_bytes(bytes: usize) -> Table {
        let buckets = (bytes / (WAYS * size_of::<Entry>())).max(1);
        // A power of two, so that a key's bucket is a mask away.
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        Table {
            entries: vec![Entry::default(); buckets * WAYS],
            mask: buckets - 1,
            used: 0,
        }
    }

    /// The number of entries.
    pub(crate) fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// The number of entries in use.
    pub(crate) fn used(&self) -> usize {
        self.used
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.used = 0;
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        // The low bits pick the bucket; keys are Zobrist hashes, uniformly spread.
        let first = (key as usize & self.mask) * WAYS;
        first..first + WAYS
    }

    /// What is known about `key`, and the work spent on it.
    pub(crate) fn get(&self, key: u64) -> Option<(Numbers, u32)> {
        self.entries[self.bucket(key)]
            .iter()
            .find(|e| e.key == key)
            .map(|e| (Numbers { pn: e.pn, dn: e.dn }, e.work))
    }

    /// Records `numbers` for `key`, with `work` more nodes spent on it.
    pub(crate) fn put(&mut self, key: u64, numbers: Numbers, work: u64) {
        let work = u32::try_from(work).unwrap_or(u32::MAX);
        let range = self.bucket(key);
        let bucket = &mut self.entries[range];
        let slot = match bucket.iter().position(|e| e.key == key) {
            Some(i) => {
                bucket[i].work = bucket[i].work.saturating_add(work);
                i
            }
            None => {
                // An empty entry, else the one whose loss costs least to recompute.
                let i = bucket.iter().position(|e| e.key == 0).unwrap_or_else(|| {
                    (0..WAYS)
                        .min_by_key(|&i| bucket[i].work)
                        .expect("buckets are not empty")
                });
                if bucket[i].key == 0 {
                    self.used += 1;
                }
                bucket[i].work = work;
                i
            }
        };
        let entry = &mut bucket[slot];
        entry.key = key;
        entry.pn = numbers.pn;
        entry.dn = numbers.dn;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_kept_and_the_cheapest_is_replaced() {
        let mut table = Table::with_bytes(WAYS * size_of::<Entry>());
        assert_eq!(table.capacity(), WAYS);
        for k in 1..=4u64 {
            table.put(
                k,
                Numbers {
                    pn: k as u32,
                    dn: 7,
                },
                10 * k,
            );
        }
        assert_eq!(table.used(), 4);
        assert_eq!(table.get(3).map(|(n, w)| (n.pn, w)), Some((3, 30)));
        // A fifth key evicts key 1, which cost least.
        table.put(5, Numbers::PROVEN, 1);
        assert_eq!(table.get(1), None);
        assert_eq!(table.get(5), Some((Numbers::PROVEN, 1)));
        // Work adds up on the same key.
        table.put(3, Numbers::DISPROVEN, 5);
        assert_eq!(table.get(3), Some((Numbers::DISPROVEN, 35)));
        table.clear();
        assert_eq!((table.used(), table.get(3)), (0, None));
    }
}
