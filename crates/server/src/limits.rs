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

/// How many requests a key may make: a burst, refilled one every `per / burst`. As an option
/// it is written `BURST/PERIOD`, the period a number and a unit: `5/1h`, `600/1m`, `10/30s`.
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

/// The largest burst an option takes: far past any rate a person makes, small enough that
/// a bucket's arithmetic stays exact.
const MOST_BURST: u32 = 1_000_000;

/// The shortest and longest period of a rate an option takes.
const PERIODS: (Duration, Duration) = (Duration::from_secs(1), Duration::from_secs(30 * 86_400));

/// The shortest and longest time limit (`--limit-request-time` and the like) an option takes.
const WAITS: (Duration, Duration) = (Duration::from_secs(1), Duration::from_secs(3600));

/// The largest count of connections or sockets an option takes.
const MOST_OPEN: u32 = 1_000_000;

impl std::fmt::Display for Rate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.burst, span_text(self.per))
    }
}

impl std::str::FromStr for Rate {
    type Err = String;

    /// Reads `BURST/PERIOD` (`5/1h`), each part range-checked.
    fn from_str(text: &str) -> Result<Rate, String> {
        let (burst, per) = text
            .split_once('/')
            .ok_or_else(|| format!("`{text}` is no rate: write BURST/PERIOD, as 5/1h or 600/1m"))?;
        let burst: u32 = burst
            .trim()
            .parse()
            .ok()
            .filter(|burst| (1..=MOST_BURST).contains(burst))
            .ok_or_else(|| {
                format!("the burst `{burst}` is not a whole number from 1 to {MOST_BURST}")
            })?;
        Ok(Rate::new(burst, span_within(per.trim(), PERIODS)?))
    }
}

/// A time as the options write it: whole days, hours, minutes or seconds where it is one
/// (`1h`, `90s`), else milliseconds (`500ms`).
pub(crate) fn span_text(span: Duration) -> String {
    let millis = span.as_millis();
    if !millis.is_multiple_of(1000) {
        return format!("{millis}ms");
    }
    let seconds = span.as_secs();
    match [(86_400, "d"), (3600, "h"), (60, "m")]
        .into_iter()
        .find(|(unit, _)| seconds > 0 && seconds.is_multiple_of(*unit))
    {
        Some((unit, name)) => format!("{}{name}", seconds / unit),
        None => format!("{seconds}s"),
    }
}

/// Reads a time written as [`span_text`] writes it (`30s`, `5m`, `1h`, `2d`, `500ms`), within
/// `(least, most)`.
fn span_within(text: &str, (least, most): (Duration, Duration)) -> Result<Duration, String> {
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let unit_ms: u64 = match unit {
        "ms" if !number.is_empty() => 1,
        "s" if !number.is_empty() => 1000,
        "m" if !number.is_empty() => 60_000,
        "h" if !number.is_empty() => 3_600_000,
        "d" if !number.is_empty() => 86_400_000,
        _ => {
            return Err(format!(
                "`{text}` is no time: write a whole number and a unit (ms, s, m, h, d), as 30s or 1h"
            ));
        }
    };
    let span = number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(unit_ms))
        .map(Duration::from_millis)
        .filter(|span| (least..=most).contains(span))
        .ok_or_else(|| {
            format!(
                "`{text}` is not from {} to {}",
                span_text(least),
                span_text(most)
            )
        })?;
    Ok(span)
}

/// Reads a time limit option (`30s`), from 1 s to an hour.
fn wait_option(text: &str) -> Result<Duration, String> {
    span_within(text, WAITS)
}

/// The rate and time limits of a server, and its caps on connections and sockets: every one
/// an option of `swapboard serve` (`--limit-...`, `SWAPBOARD_LIMIT_...`), each counted by
/// each instance on its own.
#[derive(Clone, Copy, Debug, PartialEq, clap::Args)]
#[command(next_help_heading = "Limits (each counted by each instance on its own)")]
pub struct Limits {
    /// Wrong passwords for one account name from one client address: past it, that address
    /// may not try that name until the bucket refills.
    #[arg(long = "limit-login-failures-per-client", env = "SWAPBOARD_LIMIT_LOGIN_FAILURES_PER_CLIENT",
          value_name = "BURST/PERIOD", default_value_t = Limits::DEFAULT.login_failures_per_client)]
    pub login_failures_per_client: Rate,
    /// Wrong passwords for one account name from anywhere: past it, every login of that
    /// name is slowed (a delay doubling with each further failure, at most
    /// 4 s) but never refused, so nobody can lock an owner out.
    #[arg(long = "limit-login-failures-per-name", env = "SWAPBOARD_LIMIT_LOGIN_FAILURES_PER_NAME",
          value_name = "BURST/PERIOD", default_value_t = Limits::DEFAULT.login_failures_per_name)]
    pub login_failures_per_name: Rate,
    /// Login attempts per client address.
    #[arg(long = "limit-login-per-address", env = "SWAPBOARD_LIMIT_LOGIN_PER_ADDRESS",
          value_name = "BURST/PERIOD", default_value_t = Limits::DEFAULT.login_per_address)]
    pub login_per_address: Rate,
    /// Sign-ups per client address.
    #[arg(long = "limit-signup-per-address", env = "SWAPBOARD_LIMIT_SIGNUP_PER_ADDRESS",
          value_name = "BURST/PERIOD", default_value_t = Limits::DEFAULT.signup_per_address)]
    pub signup_per_address: Rate,
    /// Guest sessions started per client address (each makes a guest's account).
    #[arg(long = "limit-guests-per-address", env = "SWAPBOARD_LIMIT_GUESTS_PER_ADDRESS",
          value_name = "BURST/PERIOD", default_value_t = Limits::DEFAULT.guests_per_address)]
    pub guests_per_address: Rate,
    /// Requests that change something (POST, PUT, PATCH, DELETE) per client address.
    #[arg(long = "limit-writes-per-address", env = "SWAPBOARD_LIMIT_WRITES_PER_ADDRESS",
          value_name = "BURST/PERIOD", default_value_t = Limits::DEFAULT.writes_per_address)]
    pub writes_per_address: Rate,
    /// Moves sent per account (the AI's moves are not counted).
    #[arg(long = "limit-moves-per-account", env = "SWAPBOARD_LIMIT_MOVES_PER_ACCOUNT",
          value_name = "BURST/PERIOD", default_value_t = Limits::DEFAULT.moves_per_account)]
    pub moves_per_account: Rate,
    /// Challenges per account: games created, joined, rematches offered or taken.
    #[arg(long = "limit-challenges-per-account", env = "SWAPBOARD_LIMIT_CHALLENGES_PER_ACCOUNT",
          value_name = "BURST/PERIOD", default_value_t = Limits::DEFAULT.challenges_per_account)]
    pub challenges_per_account: Rate,
    /// Analyses and reviews started per client address: each takes a core for a while.
    #[arg(long = "limit-analyses-per-address", env = "SWAPBOARD_LIMIT_ANALYSES_PER_ADDRESS",
          value_name = "BURST/PERIOD", default_value_t = Limits::DEFAULT.analyses_per_address)]
    pub analyses_per_address: Rate,
    /// Chat messages written per account, in every chat together.
    #[arg(long = "limit-chat-per-account", env = "SWAPBOARD_LIMIT_CHAT_PER_ACCOUNT",
          value_name = "BURST/PERIOD", default_value_t = Limits::DEFAULT.chat_per_account)]
    pub chat_per_account: Rate,
    /// Reports filed per account for the moderators.
    #[arg(long = "limit-reports-per-account", env = "SWAPBOARD_LIMIT_REPORTS_PER_ACCOUNT",
          value_name = "BURST/PERIOD", default_value_t = Limits::DEFAULT.reports_per_account)]
    pub reports_per_account: Rate,
    /// The longest a request may take, its body included.
    #[arg(long = "limit-request-time", env = "SWAPBOARD_LIMIT_REQUEST_TIME", value_name = "TIME",
          value_parser = wait_option, default_value = span_text(Limits::DEFAULT.request_time))]
    pub request_time: Duration,
    /// The longest a client may take to send a request's headers, counted from the moment
    /// a connection waits for one: also how long an idle keep-alive connection stays open.
    #[arg(long = "limit-header-time", env = "SWAPBOARD_LIMIT_HEADER_TIME", value_name = "TIME",
          value_parser = wait_option, default_value = span_text(Limits::DEFAULT.header_time))]
    pub header_time: Duration,
    /// Open HTTP connections per client address (the TCP peer; a trusted proxy's
    /// connections are counted in the total only). Past it a new one is closed. A
    /// connection that becomes a WebSocket leaves this count for the sockets'.
    #[arg(long = "limit-connections-per-address", env = "SWAPBOARD_LIMIT_CONNECTIONS_PER_ADDRESS",
          value_name = "N", default_value_t = Limits::DEFAULT.connections_per_address,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MOST_OPEN)))]
    pub connections_per_address: u32,
    /// Open HTTP connections in all (WebSockets not counted). Past it a new one is closed.
    #[arg(long = "limit-connections", env = "SWAPBOARD_LIMIT_CONNECTIONS", value_name = "N",
          default_value_t = Limits::DEFAULT.connections,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MOST_OPEN)))]
    pub connections: u32,
    /// Live WebSockets in all: past it a new one is answered 429 before the upgrade.
    #[arg(long = "limit-sockets", env = "SWAPBOARD_LIMIT_SOCKETS", value_name = "N",
          default_value_t = Limits::DEFAULT.sockets,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MOST_OPEN)))]
    pub sockets: u32,
    /// Live WebSockets per client address (the one the limits see, behind a proxy too).
    #[arg(long = "limit-sockets-per-address", env = "SWAPBOARD_LIMIT_SOCKETS_PER_ADDRESS",
          value_name = "N", default_value_t = Limits::DEFAULT.sockets_per_address,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MOST_OPEN)))]
    pub sockets_per_address: u32,
    /// Live WebSockets per account (of those opened with credentials).
    #[arg(long = "limit-sockets-per-account", env = "SWAPBOARD_LIMIT_SOCKETS_PER_ACCOUNT",
          value_name = "N", default_value_t = Limits::DEFAULT.sockets_per_account,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MOST_OPEN)))]
    pub sockets_per_account: u32,
    /// The longest a live WebSocket outlives the credentials it was opened with when they
    /// end in another process (`swapboard admin ban`, another instance's log-out): it checks
    /// them again this often. Ended in this process, they close it at once.
    #[arg(long = "limit-socket-credential-time", env = "SWAPBOARD_LIMIT_SOCKET_CREDENTIAL_TIME",
          value_name = "TIME", value_parser = wait_option,
          default_value = span_text(Limits::DEFAULT.socket_credential_time))]
    pub socket_credential_time: Duration,
}

impl Limits {
    /// The limits a server has unless told otherwise: the options' defaults.
    pub const DEFAULT: Limits = Limits {
        login_failures_per_client: Rate::new(10, MINUTE),
        login_failures_per_name: Rate::new(10, MINUTE),
        login_per_address: Rate::new(30, MINUTE),
        signup_per_address: Rate::new(5, HOUR),
        guests_per_address: Rate::new(10, HOUR),
        writes_per_address: Rate::new(600, MINUTE),
        moves_per_account: Rate::new(120, MINUTE),
        challenges_per_account: Rate::new(30, MINUTE),
        analyses_per_address: Rate::new(30, MINUTE),
        chat_per_account: Rate::new(10, Duration::from_secs(30)),
        reports_per_account: Rate::new(10, HOUR),
        request_time: Duration::from_secs(30),
        header_time: Duration::from_secs(5),
        connections_per_address: 64,
        // Plain HTTP connections only: the sockets have their own cap. 900 stays under the
        // soft file descriptor limit a service often has (1024).
        connections: 900,
        // Sized for the watchers of a busy instance: an idle socket costs a file descriptor
        // and some tens of KiB (docs/PERFORMANCE.md), and the server raises its soft limit
        // of descriptors to the hard one at start.
        sockets: 10_000,
        sockets_per_address: 32,
        sockets_per_account: 16,
        socket_credential_time: SOCKET_CREDENTIAL_TIME,
    };

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
        Limits::DEFAULT
    }
}

const MINUTE: Duration = Duration::from_secs(60);
const HOUR: Duration = Duration::from_secs(3600);

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
    fn rates_and_times_read_back_as_written_and_out_of_range_is_refused() {
        for text in ["5/1h", "600/1m", "10/30s", "1/30d", "3/90s", "2/1500ms"] {
            let rate: Rate = text.parse().unwrap();
            assert_eq!(rate.to_string(), text);
        }
        assert_eq!("5/3600s".parse::<Rate>().unwrap(), Rate::new(5, HOUR));
        for bad in [
            "",
            "5",
            "/1h",
            "0/1h",
            "1000001/1h",
            "5/0s",
            "5/31d",
            "5/1w",
            "x/1h",
            "5/h",
            "5/-1s",
        ] {
            let refused = bad.parse::<Rate>().unwrap_err();
            assert!(!refused.is_empty(), "{bad}");
        }
        assert_eq!(wait_option("30s"), Ok(Duration::from_secs(30)));
        assert!(wait_option("2h").is_err());
        assert!(wait_option("999ms").is_err());
        assert_eq!(span_text(Duration::from_millis(500)), "500ms");
        assert_eq!(span_text(Duration::from_secs(86_400)), "1d");
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
