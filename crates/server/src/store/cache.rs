//! What the store keeps in memory so that a move costs no reads beyond its transaction:
//! a full game's seats (they never change once every seat is taken), a game's moves by ply
//! (a move at a ply never changes), and for a few seconds which account a credential acts
//! for and the ratings a game being played shows. Every cache is bounded (when full it starts again empty) and is only a cache: a
//! miss reads the database, and nothing is ever written only here, so any number of
//! instances may serve one database.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use swapboard_league::glicko2::PlayerRating;

use super::rows::{CredentialKey, Holder, SeatRow};

/// The most entries a cache holds before it starts again empty.
const CAPACITY: usize = 20_000;

/// A map of at most [`CAPACITY`] entries, shared by the tasks of one instance.
#[derive(Debug)]
pub(crate) struct Bounded<K, V> {
    entries: Mutex<HashMap<K, V>>,
}

impl<K: Eq + Hash, V: Clone> Bounded<K, V> {
    fn new() -> Bounded<K, V> {
        Bounded {
            entries: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, V>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A copy of the value of `key`, if cached.
    pub(crate) fn get<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.lock().get(key).cloned()
    }

    /// Caches `value` for `key`; a full cache is emptied first.
    pub(crate) fn insert(&self, key: K, value: V) {
        let mut entries = self.lock();
        if entries.len() >= CAPACITY && !entries.contains_key(&key) {
            entries.clear();
        }
        entries.insert(key, value);
    }

    /// Forgets `key`.
    pub(crate) fn remove<Q: Hash + Eq + ?Sized>(&self, key: &Q)
    where
        K: Borrow<Q>,
    {
        self.lock().remove(key);
    }

    /// Forgets every entry.
    pub(crate) fn clear(&self) {
        self.lock().clear();
    }

    /// Changes the cached value of `key` in place, if there is one.
    pub(crate) fn update<Q: Hash + Eq + ?Sized>(&self, key: &Q, change: impl FnOnce(&mut V))
    where
        K: Borrow<Q>,
    {
        if let Some(value) = self.lock().get_mut(key) {
            change(value);
        }
    }
}

/// The store's caches.
#[derive(Debug)]
pub(crate) struct Caches {
    /// A credential's hash and kind: the account it acts for, and until when that is
    /// trusted without asking the database again (milliseconds by the store's clock, so
    /// that a test moving the clock past a token's expiry sees it expire).
    pub(crate) credentials: Bounded<CredentialKey, (Holder, i64)>,
    /// The seats of games whose every seat is taken, and until when they are trusted: a
    /// seat never changes then, but its account's name can (a deleted account's).
    /// Milliseconds by the store's clock.
    pub(crate) seats: Bounded<String, (Arc<[SeatRow]>, i64)>,
    /// The first moves of games, in ply order (a prefix of the game's moves).
    pub(crate) moves: Bounded<String, Arc<Vec<String>>>,
    /// The two players' records in the pool of a rated game waiting or being played, by the
    /// game's id and the accounts (what its view shows), and until when they are trusted:
    /// they change only when another rated game of theirs ends. Milliseconds by the store's
    /// clock.
    pub(crate) records: Bounded<(String, [i64; 2]), ([PlayerRating; 2], i64)>,
}

impl Caches {
    /// Empty caches.
    pub(crate) fn new() -> Caches {
        Caches {
            credentials: Bounded::new(),
            seats: Bounded::new(),
            moves: Bounded::new(),
            records: Bounded::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_cache_starts_again_empty_and_keeps_the_new_entry() {
        let cache: Bounded<u32, u32> = Bounded::new();
        for key in 0..CAPACITY as u32 {
            cache.insert(key, key);
        }
        assert_eq!(cache.get(&7), Some(7));
        // Replacing a present key never empties it.
        cache.insert(7, 70);
        assert_eq!(cache.get(&0), Some(0));
        cache.insert(u32::MAX, 1);
        assert_eq!(cache.get(&0), None);
        assert_eq!(cache.get(&u32::MAX), Some(1));
        assert_eq!(cache.lock().len(), 1);
        cache.update(&u32::MAX, |v| *v += 1);
        assert_eq!(cache.get(&u32::MAX), Some(2));
        cache.remove(&u32::MAX);
        assert_eq!(cache.get(&u32::MAX), None);
        cache.insert(1, 1);
        cache.clear();
        assert_eq!(cache.get(&1), None);
    }
}
