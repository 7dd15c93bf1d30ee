//! Limits: the rates an operator sets, enforced by token buckets per key (a name, an
//! address), in memory, bounded in size; and the fixed limits by area (`areas`, the table of
//! docs/LIMITS.md).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use crate::instruments;
use areas::accounts::{FIRST_LOGIN_DELAY, MAX_LOGIN_DELAY};

mod areas;

pub(crate) use areas::*;

/// How many requests a key may make: a burst, refilled one every `per / burst`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Requests allowed at once.
    pub burst: u32,
    /// The time in which a whole burst is refilled.
    pub per: Duration,
}

impl Rate {
    /// `burst` requests per `per`.
    pub const fn new(burst: u32, per: Duration) -> Rate {
        Rate { burst, per }
    }
}

/// The rate and time limits of a server.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Wrong passwords for one account name from one client address: past it, that address
    /// may not try that name until the bucket refills.
    pub login_failures_per_client: Rate,
    /// Wrong passwords for one account name from anywhere: past it, every login of that
    /// name is slowed (a delay doubling with each further failure, at most
    /// 4 s) but never refused, so nobody can lock an owner out.
    pub login_failures_per_name: Rate,
    /// Login attempts per client address.
    pub login_per_address: Rate,
    /// Sign-ups per client address.
    pub signup_per_address: Rate,
    /// Guest sessions started per client address (each makes a guest's account).
    pub guests_per_address: Rate,
    /// Requests that change something (POST, PUT, PATCH, DELETE) per client address.
    pub writes_per_address: Rate,
    /// Moves sent per account (the AI's moves are not counted).
    pub moves_per_account: Rate,
    /// Challenges per account: games created, joined, rematches offered or taken.
    pub challenges_per_account: Rate,
    /// Analyses and reviews started per client address: each takes a core for a while.
    pub analyses_per_address: Rate,
    /// Chat messages written per account, in every chat together.
    pub chat_per_account: Rate,
    /// Reports filed per account for the moderators.
    pub reports_per_account: Rate,
    /// The longest a request may take, its body included.
    pub request_time: Duration,
    /// The longest a client may take to send a request's headers, counted from the moment
    /// a connection waits for one: also how long an idle keep-alive connection stays open.
    pub header_time: Duration,
    /// Open HTTP connections per client address (the TCP peer; a trusted proxy's
    /// connections are counted in the total only). Past it a new one is closed. A
    /// connection that becomes a WebSocket leaves this count for the sockets'.
    pub connections_per_address: u32,
    /// Open HTTP connections in all (WebSockets not counted). Past it a new one is closed.
    pub connections: u32,
    /// Live WebSockets in all: past it a new one is answered 429 before the upgrade.
    pub sockets: u32,
    /// Live WebSockets per client address (the one the limits see, behind a proxy too).
    pub sockets_per_address: u32,
    /// Live WebSockets per account (of those opened with credentials).
    pub sockets_per_account: u32,
    /// The longest a live WebSocket outlives the credentials it was opened with when they
    /// end in another process (`swapboard admin ban`, another instance's log-out): it checks
    /// them again this often. Ended in this process, they close it at once.
    pub socket_credential_time: Duration,
}

impl Limits {
    /// Every rate at `per_second` requests a second, far beyond any the defaults allow, and
    /// a minute for a request: for load tests and the contract's tests, which must not meet
    /// a limit unless they aim at one.
    pub fn generous(per_second: u32) -> Limits {
        let plenty = Rate::new(per_second, Duration::from_secs(1));
        Limits {
            login_failures_per_client: plenty,
            login_failures_per_name: plenty,
            login_per_address: plenty,
            signup_per_address: plenty,
            guests_per_address: plenty,
            writes_per_address: plenty,
            moves_per_account: plenty,
            challenges_per_account: plenty,
            analyses_per_address: plenty,
            chat_per_account: plenty,
            reports_per_account: plenty,
            request_time: Duration::from_secs(60),
            header_time: Duration::from_secs(60),
            connections_per_address: per_second,
            connections: per_second,
            sockets: per_second,
            sockets_per_address: per_second,
            sockets_per_account: per_second,
            socket_credential_time: SOCKET_CREDENTIAL_TIME,
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        let minute = Duration::from_secs(60);
        Limits {
            login_failures_per_client: Rate::new(10, minute),
            login_failures_per_name: Rate::new(10, minute),
            login_per_address: Rate::new(30, minute),
            signup_per_address: Rate::new(5, Duration::from_secs(3600)),
            guests_per_address: Rate::new(10, Duration::from_secs(3600)),
            writes_per_address: Rate::new(600, minute),
            moves_per_account: Rate::new(120, minute),
            challenges_per_account: Rate::new(30, minute),
            analyses_per_address: Rate::new(30, minute),
            chat_per_account: Rate::new(10, Duration::from_secs(30)),
            reports_per_account: Rate::new(10, Duration::from_secs(3600)),
            request_time: Duration::from_secs(30),
            header_time: Duration::from_secs(5),
            connections_per_address: 64,
            // Plain HTTP connections only: the sockets have their own cap. 900 stays under the
            // soft file descriptor limit a service often has (1024).
            connections: 900,
            // Sized for the watchers of a busy instance: an idle socket costs a file
            // descriptor and some tens of KiB (docs/PERFORMANCE.md), and the server raises its
            // soft limit of descriptors to the hard one at start.
            sockets: 10_000,
            sockets_per_address: 32,
            sockets_per_account: 16,
            socket_credential_time: SOCKET_CREDENTIAL_TIME,
        }
    }
}

/// How often a live socket checks its credentials by default: one read of the database per
/// socket opened with credentials every 20 s at most (none when a request has just read the
/// same credential).
const SOCKET_CREDENTIAL_TIME: Duration = Duration::from_secs(20);

/// The most failures past its rate a name's bucket remembers (enough to reach the longest
/// delay).
const MAX_DEBT: f64 = 8.0;

/// The most keys a limiter tracks: past it, full buckets are forgotten, and if none is
/// full the request is refused rather than memory grown.
const MAX_KEYS: usize = 100_000;

/// Token buckets per key.
#[derive(Debug)]
pub(crate) struct Limiter {
    /// The limit's name in the metrics (`writes_per_address`, ...).
    name: &'static str,
    rate: Rate,
    buckets: Mutex<HashMap<String, Bucket>>,
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    /// When the tokens were counted, in milliseconds by the server's clock
    /// ([`crate::clock::Clock`]), so that a test moving the clock refills the bucket.
    at_ms: i64,
}

impl Limiter {
    /// A limiter of `rate` per key, counted in the metrics as `name`.
    pub(crate) fn new(name: &'static str, rate: Rate) -> Limiter {
        Limiter {
            name,
            rate,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token from `key`'s bucket at `now_ms`, or says how long until one is there.
    pub(crate) fn check(&self, key: &str, now_ms: i64) -> Result<(), Duration> {
        self.with_bucket(key, now_ms, |tokens| {
            if tokens >= 1.0 {
                (tokens - 1.0, Ok(()))
            } else {
                (tokens, Err(1.0 - tokens))
            }
        })
        .inspect_err(|_| instruments::rate_limited(self.name))
    }

    /// Whether `key` has a token at `now_ms` (none is taken), or how long until it has.
    pub(crate) fn peek(&self, key: &str, now_ms: i64) -> Result<(), Duration> {
        self.with_bucket(key, now_ms, |tokens| {
            (
                tokens,
                if tokens >= 1.0 {
                    Ok(())
                } else {
                    Err(1.0 - tokens)
                },
            )
        })
        .inspect_err(|_| instruments::rate_limited(self.name))
    }

    /// Counts a failure of `key` at `now_ms` (its bucket may run into debt, up to a bound) and
    /// answers how long the next attempt of `key` should wait: nothing while the failures
    /// are within the rate, then a delay that doubles with each one past it.
    pub(crate) fn fail(&self, key: &str, now_ms: i64) -> Duration {
        self.with_bucket(key, now_ms, |tokens| {
            let left = (tokens - 1.0).max(-MAX_DEBT);
            (left, Ok(()))
        })
        .ok();
        self.delay(key, now_ms)
    }

    /// How long an attempt of `key` at `now_ms` waits for its past failures ([`Limiter::fail`]).
    pub(crate) fn delay(&self, key: &str, now_ms: i64) -> Duration {
        let debt = self
            .with_bucket(key, now_ms, |tokens| (tokens, Err(-tokens)))
            .err()
            .unwrap_or_default();
        let per_token = self.rate.per / self.rate.burst.max(1);
        // The debt is measured in refill time; in failures past the rate it is this many.
        let failures = (debt.as_secs_f64() / per_token.as_secs_f64().max(1e-9)).ceil();
        if failures < 1.0 {
            return Duration::ZERO;
        }
        let doubled = FIRST_LOGIN_DELAY.as_secs_f64() * (failures - 1.0).exp2();
        Duration::from_secs_f64(doubled.min(MAX_LOGIN_DELAY.as_secs_f64()))
    }

    /// Refills `key`'s bucket to `now` and lets `act` set its tokens; `act`'s error is a
    /// number of tokens, answered as the time they take to refill.
    fn with_bucket(
        &self,
        key: &str,
        now_ms: i64,
        act: impl FnOnce(f64) -> (f64, Result<(), f64>),
    ) -> Result<(), Duration> {
        let burst = f64::from(self.rate.burst.max(1));
        let refill_per_second = burst / self.rate.per.as_secs_f64().max(1e-9);
        let refilled = |bucket: &Bucket| {
            // A clock set back refills nothing.
            let elapsed = Duration::from_millis(
                u64::try_from(now_ms.saturating_sub(bucket.at_ms)).unwrap_or(0),
            )
            .as_secs_f64();
            (bucket.tokens + elapsed * refill_per_second).min(burst)
        };
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if !buckets.contains_key(key) && buckets.len() >= MAX_KEYS {
            buckets.retain(|_, bucket| refilled(bucket) < burst);
            if buckets.len() >= MAX_KEYS {
                return Err(self.rate.per / self.rate.burst.max(1));
            }
        }
        let bucket = buckets.entry(key.to_owned()).or_insert(Bucket {
            tokens: burst,
            at_ms: now_ms,
        });
        let (tokens, answer) = act(refilled(bucket));
        *bucket = Bucket {
            tokens,
            at_ms: now_ms,
        };
        answer.map_err(|missing| Duration::from_secs_f64(missing.max(0.0) / refill_per_second))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_waits_for_the_refill() {
        let limiter = Limiter::new("test", Rate::new(3, Duration::from_secs(3)));
        let start = 1_000_000;
        for _ in 0..3 {
            assert_eq!(limiter.check("ann", start), Ok(()));
        }
        let wait = limiter.check("ann", start).unwrap_err();
        assert!((wait.as_secs_f64() - 1.0).abs() < 1e-6, "{wait:?}");
        // Another key has its own bucket.
        assert_eq!(limiter.check("bob", start), Ok(()));
        // One token comes back after a second, not two.
        let later = start + 1_000;
        assert_eq!(limiter.check("ann", later), Ok(()));
        assert!(limiter.check("ann", later).is_err());
    }

    #[test]
    fn failures_past_the_rate_slow_a_key_down_doubling_but_never_refuse_it() {
        let limiter = Limiter::new("test", Rate::new(2, Duration::from_secs(60)));
        let now = 1_000_000;
        assert_eq!(limiter.peek("ann", now), Ok(()));
        assert_eq!(limiter.fail("ann", now), Duration::ZERO);
        assert_eq!(limiter.fail("ann", now), Duration::ZERO);
        assert!(limiter.peek("ann", now).is_err());
        let delays: Vec<Duration> = (0..6).map(|_| limiter.fail("ann", now)).collect();
        let millis: Vec<u128> = delays.iter().map(Duration::as_millis).collect();
        assert_eq!(millis, [250, 500, 1000, 2000, 4000, 4000]);
        assert_eq!(limiter.delay("ann", now), MAX_LOGIN_DELAY);
        // Peeking takes nothing; another key is untouched; time pays the debt back.
        assert_eq!(limiter.delay("bob", now), Duration::ZERO);
        let later = now + 10 * 30 * 1_000;
        assert_eq!(limiter.delay("ann", later), Duration::ZERO);
        assert_eq!(limiter.peek("ann", later), Ok(()));
    }

    #[test]
    fn memory_stays_bounded() {
        let limiter = Limiter::new("test", Rate::new(1, Duration::from_secs(3600)));
        let now = 1_000_000;
        for i in 0..MAX_KEYS {
            assert_eq!(limiter.check(&i.to_string(), now), Ok(()));
        }
        // Every bucket is empty: a new key is refused instead of growing the map.
        assert!(limiter.check("one more", now).is_err());
        // Once the buckets are full again they are forgotten and new keys pass.
        let later = now + 3_600_000;
        assert_eq!(limiter.check("one more", later), Ok(()));
        assert_eq!(limiter.buckets.lock().unwrap().len(), 1);
    }
}
