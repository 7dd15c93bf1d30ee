//! The server's one wall clock ([`Clock`]): every instant the server stores or compares
//! (deadlines, expiries, vacations, digests, reminders, tournaments' starts, rate-limit
//! windows) is read here, so that a test can hand in a clock it moves instead of waiting.
//!
//! Not the games' clocks (`crate::clocks`, the scheduler that ends games on time): those
//! read this one. A test below fails when the wall clock is read anywhere else in the
//! crate's sources.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::watch;

/// A day in the clock's milliseconds: the unit of vacations, guests' keeping, the daily
/// puzzle and days per move (written once here; tests use it too).
pub const DAY_MS: i64 = 86_400_000;

/// A duration in the clock's milliseconds (saturating: no duration the server uses comes
/// near the bound).
pub(crate) fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// Where the time comes from: the system's clock, or one a test sets.
#[derive(Debug)]
enum Source {
    Real,
    /// Milliseconds since the Unix epoch, moved only by [`Clock::set`] and [`Clock::advance`].
    Manual(AtomicI64),
}

#[derive(Debug)]
struct Shared {
    source: Source,
    /// Bumped at each move of a manual clock, so that background workers asleep until
    /// their next pass wake at once and see the new time (never bumped for a real clock).
    moved: watch::Sender<u64>,
}

/// The wall clock, in milliseconds since the Unix epoch as stored: the system's
/// ([`Clock::real`], the default) or a manual one a test sets and advances
/// ([`Clock::manual`]). Cheap to clone; clones share one time.
#[derive(Clone, Debug)]
pub struct Clock {
    shared: Arc<Shared>,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::real()
    }
}

impl Clock {
    fn with(source: Source) -> Clock {
        Clock {
            shared: Arc::new(Shared {
                source,
                moved: watch::channel(0).0,
            }),
        }
    }

    /// The system's clock.
    pub fn real() -> Clock {
        Clock::with(Source::Real)
    }

    /// A clock standing at `start_ms` (milliseconds since the Unix epoch) until it is set or
    /// advanced.
    pub fn manual(start_ms: i64) -> Clock {
        Clock::with(Source::Manual(AtomicI64::new(start_ms)))
    }

    /// A manual clock standing at the system's time now: a test that moves time starts from
    /// a plausible present (a token's expiry, a day's digest hour).
    pub fn manual_from_now() -> Clock {
        Clock::manual(Clock::real().now_ms())
    }

    /// Milliseconds since the Unix epoch, now.
    pub fn now_ms(&self) -> i64 {
        match &self.shared.source {
            Source::Real => {
                let since = SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .unwrap_or_default();
                i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
            }
            Source::Manual(ms) => ms.load(Ordering::SeqCst),
        }
    }

    /// Moves a manual clock forward by `by` and wakes the background workers.
    ///
    /// # Panics
    /// On the real clock, which nobody moves.
    pub fn advance(&self, by: Duration) {
        self.manual_time().fetch_add(millis(by), Ordering::SeqCst);
        self.wake();
    }

    /// Sets a manual clock to `ms` (milliseconds since the Unix epoch) and wakes the
    /// background workers.
    ///
    /// # Panics
    /// On the real clock, which nobody sets.
    pub fn set(&self, ms: i64) {
        self.manual_time().store(ms, Ordering::SeqCst);
        self.wake();
    }

    fn manual_time(&self) -> &AtomicI64 {
        match &self.shared.source {
            Source::Manual(ms) => ms,
            Source::Real => panic!("the real clock cannot be moved: use Clock::manual"),
        }
    }

    fn wake(&self) {
        self.shared
            .moved
            .send_modify(|moves| *moves = moves.wrapping_add(1));
    }

    /// A ticker for a background worker's passes: one every `every` of real time, and one
    /// as soon as a manual clock is moved.
    pub(crate) fn ticker(&self, every: Duration) -> Ticker {
        let mut interval = tokio::time::interval(every);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Ticker {
            interval,
            moved: self.shared.moved.subscribe(),
        }
    }
}

/// The passes of a background worker ([`Clock::ticker`]).
#[derive(Debug)]
pub(crate) struct Ticker {
    interval: tokio::time::Interval,
    moved: watch::Receiver<u64>,
}

impl Ticker {
    /// Waits for the next pass: the next tick of real time, or a move of the clock made
    /// since the last pass began (a move during a pass is not missed). Whether the clock
    /// was moved: a worker then also does the work it does only every so many passes (a
    /// test that moved a day wants that day's digests).
    pub(crate) async fn tick(&mut self) -> bool {
        tokio::select! {
            _ = self.interval.tick() => false,
            // The sender lives as long as the clock this ticker came from, which the worker
            // holds: `changed` fails only if it did not, and then real time alone ticks.
            Ok(()) = self.moved.changed() => {
                self.moved.borrow_and_update();
                true
            }
        }
    }
}

/// A time in ms since the Unix epoch as RFC 3339, in UTC (`2026-12-07T13:00:00Z`): how the
/// API and the admin commands write one for people.
pub(crate) fn rfc3339(ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|at| {
            at.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_default()
}

/// A time in ms since the Unix epoch in words, in UTC, then as RFC 3339 to the second: `8
/// December 2026 at 19:00 UTC (2026-12-08T19:00:00Z)`. For a person who reads it in a
/// sentence, where the server knows no time zone of theirs (a refusal, an inbox notice).
pub(crate) fn utc_words(ms: i64) -> String {
    let Ok(at) = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000) else {
        return rfc3339(ms);
    };
    format!(
        "{} {} {} at {:02}:{:02} UTC ({})",
        at.day(),
        at.month(),
        at.year(),
        at.hour(),
        at.minute(),
        rfc3339(ms - ms.rem_euclid(1000))
    )
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;

    #[test]
    fn a_time_in_words_names_the_day_the_hour_and_rfc3339() {
        assert_eq!(
            utc_words(1_796_756_400_999),
            "8 December 2026 at 19:00 UTC (2026-12-08T19:00:00Z)"
        );
    }

    /// Reads of the wall clock the server makes only in this module: the system's time, the
    /// date crates' "now", and a free `now_ms()` of a module's own.
    const WALL_CLOCK_READS: [&str; 4] = [
        "SystemTime::now",
        "Utc::now",
        "OffsetDateTime::now",
        "fn now_ms()",
    ];

    /// The lines of `text` (numbered from 1) that read the wall clock.
    fn wall_clock_reads(text: &str) -> Vec<(usize, &str)> {
        text.lines()
            .enumerate()
            .filter(|(_, line)| WALL_CLOCK_READS.iter().any(|read| line.contains(read)))
            .map(|(i, line)| (i + 1, line.trim()))
            .collect()
    }

    /// Every `.rs` file under `dir`.
    fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, found);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                found.push(path);
            }
        }
    }

    /// CI's guard for the one clock: a new `SystemTime::now()` in a handler would make its
    /// instant one that tests cannot move.
    #[test]
    fn no_module_but_this_one_reads_the_wall_clock() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        assert!(
            files.len() > 50,
            "the crate's sources were found: {files:?}"
        );
        let this = src.join("clock.rs");
        let mut reads = Vec::new();
        for file in files.iter().filter(|file| **file != this) {
            let text = std::fs::read_to_string(file).unwrap();
            for (line, code) in wall_clock_reads(&text) {
                reads.push(format!("{}:{line}: {code}", file.display()));
            }
        }
        assert!(
            reads.is_empty(),
            "the wall clock is read outside src/clock.rs (read `Clock::now_ms` instead):\n{}",
            reads.join("\n")
        );
    }

    #[test]
    fn the_guard_finds_each_kind_of_read() {
        let text = "let a = std::time::SystemTime::now();\n\
                    let b = chrono::Utc::now();\n\
                    let c = time::OffsetDateTime::now_utc();\n\
                    pub(crate) fn now_ms() -> i64 {\n\
                    let d = state.clock.now_ms();\n";
        let lines: Vec<usize> = wall_clock_reads(text).iter().map(|(n, _)| *n).collect();
        assert_eq!(lines, [1, 2, 3, 4]);
    }

    #[test]
    fn a_manual_clock_stands_still_until_moved_and_its_clones_share_its_time() {
        let clock = Clock::manual(1_000);
        let clone = clock.clone();
        assert_eq!(clock.now_ms(), 1_000);
        clone.advance(Duration::from_secs(90));
        assert_eq!(clock.now_ms(), 91_000);
        clock.set(5);
        assert_eq!(clone.now_ms(), 5);
    }

    #[test]
    fn the_real_clock_reads_the_system_time() {
        let clock = Clock::default();
        let system = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
        let system = i64::try_from(system.as_millis()).unwrap();
        assert!((clock.now_ms() - system).abs() < 60_000);
    }

    #[test]
    #[should_panic(expected = "cannot be moved")]
    fn the_real_clock_cannot_be_advanced() {
        Clock::real().advance(Duration::from_secs(1));
    }

    #[tokio::test]
    async fn a_move_of_the_clock_wakes_a_ticker_at_once() {
        let clock = Clock::manual(0);
        let mut ticker = clock.ticker(Duration::from_secs(3600));
        assert!(!ticker.tick().await, "the first tick is real time's");
        let waiting = tokio::spawn(async move { ticker.tick().await });
        clock.advance(Duration::from_secs(1));
        let moved = tokio::time::timeout(Duration::from_secs(10), waiting)
            .await
            .expect("the ticker woke on the move")
            .unwrap();
        assert!(moved, "the tick says the clock moved");
    }
}
