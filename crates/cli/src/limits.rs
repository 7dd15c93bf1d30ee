//! The ranges of the command's numeric arguments, as clap value parsers: a number out of
//! range is refused with one message naming the range, before any work or allocation, so no
//! argument can make the command panic, abort on an allocation or start thousands of threads.

/// The most games one `arena`, `stats` or `research` run plays.
pub(crate) const MAX_GAMES: u64 = 100_000_000;
/// The most plies a game may be allowed before it is capped.
pub(crate) const MAX_PLIES: u64 = 10_000_000;
/// The deepest perft: beyond this no board's count finishes in a lifetime.
pub(crate) const MAX_PERFT_DEPTH: u32 = 32;
/// The longest time limit: one week.
pub(crate) const MAX_SECONDS: f64 = 7.0 * 24.0 * 3600.0;
/// Threads per core allowed: more only adds switching.
const THREADS_PER_CORE: usize = 4;

/// A whole number from `min` to `max`, with a message naming the range.
fn whole(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let out_of_range = || format!("expected a whole number from {min} to {max}");
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(out_of_range());
    }
    text.parse::<u64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(out_of_range)
}

/// `--games`: 1 to [`MAX_GAMES`].
pub(crate) fn games(text: &str) -> Result<u64, String> {
    whole(text, 1, MAX_GAMES)
}

/// `--max-plies`, `--cap`: 1 to [`MAX_PLIES`].
pub(crate) fn plies(text: &str) -> Result<u64, String> {
    whole(text, 1, MAX_PLIES)
}

/// A perft depth: 0 to [`MAX_PERFT_DEPTH`].
pub(crate) fn perft_depth(text: &str) -> Result<u32, String> {
    whole(text, 0, u64::from(MAX_PERFT_DEPTH)).map(|n| n as u32)
}

/// A positive count with no natural bound but the type (iterations, nodes, lines).
pub(crate) fn positive(text: &str) -> Result<u64, String> {
    whole(text, 1, u64::MAX)
}

/// The number of lines shown: 1 to 1000.
pub(crate) fn lines(text: &str) -> Result<usize, String> {
    whole(text, 1, 1000).map(|n| n as usize)
}

/// The players of a Swap 61 game: 9 or 10.
pub(crate) fn seats(text: &str) -> Result<usize, String> {
    whole(text, 9, 10)
        .map(|n| n as usize)
        .map_err(|_| "expected 9 or 10".to_string())
}

/// The cores of this machine (1 when the system cannot tell).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// `--threads`: 1 to four per core.
pub(crate) fn threads(text: &str) -> Result<usize, String> {
    let max = cores() * THREADS_PER_CORE;
    whole(text, 1, max as u64)
        .map(|n| n as usize)
        .map_err(|e| format!("{e} ({THREADS_PER_CORE} per core on this machine)"))
}

/// The memory of this machine in MiB, from `/proc/meminfo` (a generous 1 TiB when unknown:
/// the table's own allocation then fails cleanly).
fn memory_mb() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|v| v.trim().strip_suffix("kB"))
                .and_then(|kb| kb.trim().parse::<u64>().ok())
        })
        .map_or(1 << 20, |kb| kb / 1024)
}

/// `--table-mb`: 1 MiB to half the machine's memory.
pub(crate) fn table_mb(text: &str) -> Result<usize, String> {
    let max = (memory_mb() / 2).max(1);
    whole(text, 1, max)
        .map(|n| n as usize)
        .map_err(|e| format!("{e} (half of this machine's memory)"))
}

/// `--seconds`: a finite time above 0 and at most a week.
pub(crate) fn seconds(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s <= MAX_SECONDS)
        .ok_or_else(|| format!("expected a number of seconds above 0 and at most {MAX_SECONDS}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_numbers_are_refused() {
        for bad in [
            "0",
            "",
            "-1",
            "+3",
            "1e3",
            "18446744073709551615",
            "100000001",
        ] {
            assert!(games(bad).is_err(), "{bad}");
        }
        assert_eq!(games("100000000"), Ok(MAX_GAMES));
        assert!(threads("0").is_err());
        assert!(threads(&(cores() * THREADS_PER_CORE + 1).to_string()).is_err());
        assert_eq!(threads("1"), Ok(1));
        assert!(table_mb("17592186044415").is_err());
        assert_eq!(table_mb("1"), Ok(1));
        for bad in ["nan", "inf", "-inf", "1e30", "-2", "0", "604801", "x"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(seconds("0.5"), Ok(0.5));
        assert!(perft_depth("33").is_err());
        assert_eq!(perft_depth("0"), Ok(0));
    }
}
