//! The fixed limits of the server, by area: how long, how many, how large, how often. Each is
//! declared here once, read by the module that enforces it, and listed in `docs/LIMITS.md`,
//! a table made from these declarations (a test fails when the file says otherwise). The
//! rates and connection limits a server is started with are [`super::Limits`]; what is
//! private to one algorithm (a buffer, a batch) stays beside it.

use std::ops::RangeInclusive;
use std::time::Duration;

use crate::clock::DAY_MS;

/// Declares each area's module of constants and `every`, the list the table is made from,
/// at once, so that no limit can be enforced without being listed or listed with another
/// value. `in UNIT` says what a number counts: `ms`, `s`, `hours`, `days`, `bytes`, `chars`.
macro_rules! limits {
    ($(
        $(#[doc = $area_doc:literal])+
        $area:ident {
            $(
                $(#[doc = $doc:literal])+
                $name:ident: $ty:ty = $value:expr $(, in $unit:ident)?;
            )+
        }
    )+) => {
        $(
            $(#[doc = $area_doc])+
            pub(crate) mod $area {
                #[allow(unused_imports)]
                use super::*;
                $(
                    $(#[doc = $doc])+
                    pub(crate) const $name: $ty = $value;
                )+
            }
        )+

        /// Every limit, area by area, in the order of their declarations.
        #[cfg(test)]
        fn every() -> Vec<tests::Limit> {
            vec![$($(tests::Limit {
                area: stringify!($area),
                name: stringify!($name),
                value: tests::Shown::shown(
                    &$area::$name,
                    tests::Unit::of(stringify!($($unit)?)),
                ),
                doc: concat!($($doc),+).trim(),
            },)+)+]
        }
    };
}

limits! {
    /// Accounts, their credentials and their mail.
    accounts {
        /// The fewest and most characters of an account's name.
        NAME_CHARS: RangeInclusive<usize> = 2..=24, in chars;
        /// The fewest and most characters of a password (the most keeps one hash cheap to
        /// refuse).
        PASSWORD_CHARS: RangeInclusive<usize> = 8..=128, in chars;
        /// How long a browser session lasts without logging in again.
        SESSION_DAYS: i64 = 30, in days;
        /// The longest a token may be asked to last: ten years.
        MAX_TOKEN_DAYS: i64 = 3650, in days;
        /// The first delay of a login past its name's failure rate; each further failure
        /// doubles it.
        FIRST_LOGIN_DELAY: Duration = Duration::from_millis(250);
        /// The longest a login is slowed for the failures of its name (from anywhere).
        MAX_LOGIN_DELAY: Duration = Duration::from_secs(4);
        /// The longest name or mail address read: the most a mail address may have.
        MOST_ADDRESS_CHARS: usize = 254, in chars;
        /// How long a confirmation link works.
        CONFIRM_MS: i64 = DAY_MS, in ms;
        /// The least time between two confirmation mails of one account.
        CONFIRM_EVERY_MS: i64 = 60_000, in ms;
        /// How long a password reset's link works.
        RESET_MS: i64 = 3_600_000, in ms;
        /// The least time between two reset mails of one account.
        RESET_EVERY_MS: i64 = 60_000, in ms;
        /// The most credentials of one account a listing shows.
        MAX_LISTED_CREDENTIALS: i64 = 500;
        /// The most games and rooms an export holds (the most recently changed): a bound on
        /// one answer's memory, far past what anyone plays.
        EXPORT_LIMIT: u32 = 10_000;
    }

    /// Two-player games, their lists and lessons.
    games {
        /// The most games against the AI one account may have in progress at once.
        MAX_AI_GAMES: u32 = 10;
        /// The most open or invited challenges one account may have waiting at once.
        MAX_WAITING_GAMES: u32 = 20;
        /// The most games one list shows.
        GAMES_LISTED: u32 = 50;
        /// How long a challenge with a live clock waits for its opponent: its challenger is
        /// at the board now, not tomorrow.
        LIVE_CHALLENGE_TTL: Duration = Duration::from_secs(3600);
        /// How long any other challenge (a correspondence clock or none) waits.
        CHALLENGE_TTL: Duration = Duration::from_secs(14 * 24 * 3600);
        /// The longest reason a challenged player may give for declining.
        MAX_DECLINE_CHARS: usize = 200, in chars;
        /// The longest move text a lesson's attempt may send: the longest move of any game
        /// (a Scware growth on the largest board) is far shorter.
        MAX_MOVE_CHARS: usize = 400, in chars;
        /// The most lines a plan of conditional moves holds (its replies are bounded by the
        /// play layer: 64, each line 2 to 20 moves).
        MAX_CONDITIONAL_LINES: usize = 32;
    }

    /// Vacation: the days a correspondence player's clocks stop.
    vacation {
        /// The most days taken at once: a year's.
        MOST_DAYS: u32 = 366, in days;
        /// The most entries of the log an account is shown.
        LOG_SHOWN: i64 = 100;
    }

    /// The AI's moves and analyses.
    ai {
        /// The search tree's node cap: a few hundred megabytes at most whatever the level.
        MAX_NODES: usize = 1_000_000;
        /// The longest the AI thinks without a clock (level 8 is capped at 10 s by its own
        /// budget).
        NO_CLOCK_LIMIT: Duration = Duration::from_secs(10);
        /// The most candidate moves an analysis shows.
        ANALYSIS_LINES: usize = 5;
        /// How long a request for an analysis waits for a worker's answer before it is told
        /// to ask again (the job stays, and its answer is kept for that request).
        ANALYSIS_WAIT: Duration = Duration::from_secs(60);
    }

    /// Ratings, leaderboards and puzzles.
    ratings {
        /// The most players a leaderboard lists.
        LEADERBOARD_SIZE: usize = 100;
        /// The most players the list of players holds (the most recently active first).
        PLAYERS_LISTED: i64 = 200;
        /// The most history points one answer holds (the latest ones): a game a day for 27
        /// years.
        HISTORY_LIMIT: u32 = 10_000;
        /// The most puzzles one list holds.
        MAX_PUZZLES_LISTED: i64 = 200;
    }

    /// Chat, reports and their moderation.
    chat {
        /// The longest message.
        MAX_MESSAGE: usize = 500, in chars;
        /// The longest reason of a report.
        MAX_REPORT_REASON: usize = 500, in chars;
        /// The most hours a mute lasts.
        MAX_MUTE_HOURS: u32 = 720, in hours;
        /// The most messages one read of a chat answers.
        MAX_CHAT_READ: i64 = 200;
        /// The most reports one page of the moderators' queue holds (`limit`).
        MAX_REPORTS_READ: i64 = 500;
        /// The reports a page of the moderators' queue holds when `limit` is not given.
        REPORTS_PAGE: i64 = 50;
    }

    /// What administrators do.
    admin {
        /// The longest reason an administrator gives (a ban, an adjudication, a mute).
        MAX_REASON: usize = 500, in chars;
        /// The most lines of the admin log one read answers.
        MAX_LOG_LINES: u32 = 1_000;
        /// The longest ban with an end (longer: a ban for good).
        MAX_BAN_DAYS: u32 = 3_650, in days;
        /// The longest note a moderator keeps on an account.
        MAX_NOTE: usize = 2_000, in chars;
        /// The messages shown on each side of a reported one.
        REPORT_CONTEXT: i64 = 5;
        /// The most notes, reports, messages and log lines an account's file lists of each.
        FILE_LISTED: i64 = 20;
        /// The most accounts a list of the banned or the muted holds.
        MAX_STANDING_LISTED: i64 = 500;
    }

    /// Swap 61 rooms and their game masters.
    rooms {
        /// The largest game file an import takes.
        IMPORT_LIMIT: usize = 256 * 1024, in bytes;
        /// The most rooms not yet over one account may run as game master.
        MAX_OPEN_ROOMS: u32 = 20;
        /// The shortest and longest round: a second (for tests and trials) to 30 days.
        ROUND_MS: RangeInclusive<i64> = 1_000..=30 * DAY_MS, in ms;
        /// The most a deadline may be extended at once.
        MAX_EXTEND_S: u32 = 14 * 24 * 3_600, in s;
        /// The seats of a room: the players of a Swap 61 game (the engine's rule).
        SEATS: RangeInclusive<usize> =
            swapboard_swap61::MIN_SEATS..=swapboard_swap61::MAX_SEATS;
        /// The most rooms an account's list of its rooms shows.
        MY_ROOMS: u32 = 50;
        /// The longest submission a seat may send (the engine's limit, which the command
        /// line reads too).
        SUBMISSION_BYTES: usize = swapboard_swap61::SUBMISSION_BYTES, in bytes;
    }

    /// Tournaments.
    tournaments {
        /// The most rounds a Swiss may have.
        MAX_ROUNDS: u32 = 20;
        /// The most players of one tournament (the pairing engine's bound).
        MAX_PLAYERS: usize = swapboard_league::tournament::MAX_PLAYERS;
        /// The most open tournaments one account may have made.
        MAX_OPEN_PER_ACCOUNT: u32 = 5;
        /// How far ahead a tournament may be set to start: a year.
        MAX_LEAD_MS: i64 = 366 * DAY_MS, in ms;
        /// How many of each stage the list shows.
        TOURNAMENTS_LISTED: u32 = 100;
    }

    /// Notifications: the inbox, mail and pushes.
    notifications {
        /// The most notifications one inbox page or digest holds.
        PAGE_LIMIT: u32 = 100;
        /// How many notifications the socket's message carries: the newest.
        LATEST: u32 = 5;
        /// Tries at mailing one notification before it is given up.
        MAX_ATTEMPTS: u32 = 6;
        /// The least time between two your-turn mails of one game to one account.
        YOUR_TURN_THROTTLE_MS: i64 = 10 * 60_000, in ms;
        /// The longest one SMTP conversation may take: a delivery worker's lease is longer.
        SMTP_TIMEOUT: Duration = Duration::from_secs(20);
        /// The longest one push may take: a delivery worker's lease is longer.
        PUSH_TIMEOUT: Duration = Duration::from_secs(20);
        /// How long a push service keeps a push for a browser that is offline (the `TTL`
        /// header).
        PUSH_TTL_SECONDS: u32 = 24 * 3600, in s;
        /// The most subscriptions (browsers, devices) one account keeps.
        MOST_SUBSCRIPTIONS: u32 = 10;
        /// The longest endpoint URL of a subscription taken.
        ENDPOINT_MAX: usize = 2048, in bytes;
    }

    /// Requests, connections and live sockets.
    http {
        /// The largest body a request may carry: every body of the API is a few fields.
        BODY_LIMIT: usize = 16 * 1024, in bytes;
        /// The most forwarding entries read from the right: a chain of proxies is a few hops
        /// long, and a longer list (the client's own entries, once past the trusted ones) is
        /// not read anyway.
        MAX_HOPS: usize = 32;
        /// How long a client is asked to wait when the storage is full: an operator must act.
        STORAGE_FULL_RETRY: Duration = Duration::from_secs(30);
        /// How often the server pings a live socket.
        PING_EVERY: Duration = Duration::from_secs(20);
        /// A live socket silent this long (no pong, no message) is taken for dead and closed.
        SILENT_LIMIT: Duration = Duration::from_secs(60);
        /// A live socket that cannot take a message in this time is closed.
        SEND_LIMIT: Duration = Duration::from_secs(10);
    }

    /// What one instance trusts of what it read, when several share a database.
    instances {
        /// How long an instance trusts what it read of a credential. A revocation is seen at
        /// once by the instance that made it and within this time by the others.
        CREDENTIAL_TTL: Duration = Duration::from_secs(5);
        /// How long an instance trusts a full game's seats: a deleted account's name is gone
        /// from every instance's views this long after its deletion.
        SEATS_TTL: Duration = Duration::from_secs(30);
        /// How long an instance trusts the two players' ratings a rated game being played
        /// shows: a rating another game's end changed shows there this long after at most.
        RECORDS_TTL: Duration = Duration::from_secs(30);
        /// How often a running instance records in the database that it still runs.
        HEARTBEAT: Duration = Duration::from_secs(10);
        /// An instance not heard from for this long is taken for stopped (a kill -9, a lost
        /// machine): it no longer holds back a newer instance's migration.
        ALIVE_FOR: Duration = Duration::from_secs(30);
        /// How long a stopped instance's record is kept (it names the version that migrated
        /// the database last).
        KEPT_FOR: Duration = Duration::from_secs(30 * 24 * 3600);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One row of the table of limits.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub(super) struct Limit {
        /// Its area, the module it is declared in (`chat`).
        pub(super) area: &'static str,
        /// Its name (`MAX_MESSAGE`).
        pub(super) name: &'static str,
        /// Its value in words (`500 characters`, `20 seconds`).
        pub(super) value: String,
        /// What it limits, its doc comment on one line.
        pub(super) doc: &'static str,
    }

    /// What the number of a declaration counts.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(super) enum Unit {
        Count,
        Millis,
        Seconds,
        Hours,
        Days,
        Bytes,
        Chars,
    }

    impl Unit {
        /// The unit a declaration names after `in`, or none for a count.
        pub(super) fn of(word: &str) -> Unit {
            match word {
                "" => Unit::Count,
                "ms" => Unit::Millis,
                "s" => Unit::Seconds,
                "hours" => Unit::Hours,
                "days" => Unit::Days,
                "bytes" => Unit::Bytes,
                "chars" => Unit::Chars,
                _ => panic!("a limit is declared in an unknown unit: {word}"),
            }
        }
    }

    /// A limit's value in words, for the table.
    pub(super) trait Shown {
        /// The value counted in `unit`, in words.
        fn shown(&self, unit: Unit) -> String;
    }

    /// A number counted in `unit`, in words: a time in the largest unit it is a whole number
    /// of (`24 * 3_600_000` ms reads `1 day`), a size in KiB when it is a whole number of them.
    fn in_words(number: u128, unit: Unit) -> String {
        const SECOND: u128 = 1_000;
        let ms = match unit {
            Unit::Count => return number.to_string(),
            Unit::Chars => return format!("{number} characters"),
            Unit::Bytes if number.is_multiple_of(1024) => return format!("{} KiB", number / 1024),
            Unit::Bytes => return format!("{number} bytes"),
            Unit::Millis => number,
            Unit::Seconds => number * SECOND,
            Unit::Hours => number * 3_600 * SECOND,
            Unit::Days => number * 86_400 * SECOND,
        };
        let sizes = [
            (86_400 * SECOND, "day"),
            (3_600 * SECOND, "hour"),
            (60 * SECOND, "minute"),
            (SECOND, "second"),
        ];
        match sizes
            .iter()
            .find(|&&(size, _)| ms >= size && ms.is_multiple_of(size))
        {
            Some(&(size, word)) if ms == size => format!("1 {word}"),
            Some(&(size, word)) => format!("{} {word}s", ms / size),
            None => format!("{ms} ms"),
        }
    }

    /// The integer types limits are declared in.
    macro_rules! shown_as_number {
        ($($ty:ty),+) => {$(
            impl Shown for $ty {
                fn shown(&self, unit: Unit) -> String {
                    in_words(u128::try_from(*self).expect("a limit is not negative"), unit)
                }
            }
        )+};
    }

    shown_as_number!(u32, u64, usize, i64);

    impl Shown for Duration {
        fn shown(&self, _: Unit) -> String {
            in_words(self.as_millis(), Unit::Millis)
        }
    }

    impl<T: Shown> Shown for RangeInclusive<T> {
        /// `8 to 128 characters`: a count's unit is said once, after the end.
        fn shown(&self, unit: Unit) -> String {
            let end = self.end().shown(unit);
            let start = match unit {
                Unit::Chars | Unit::Bytes | Unit::Count => self.start().shown(Unit::Count),
                _ => self.start().shown(unit),
            };
            format!("{start} to {end}")
        }
    }

    /// The table of `docs/LIMITS.md`, as [`every`] makes it.
    fn table() -> String {
        let mut text = String::from(
            "# Limits\n\n\
             The server's fixed limits, by area. This file is made from the declarations in \
             `crates/server/src/limits/areas.rs`, and a test fails when the two differ: change a \
             limit there, then write this file again with \
             `SWAPBOARD_WRITE_LIMITS=1 cargo test -p swapboard-server --lib limits`. The rates (per \
             account, per address) and the limits of time, connections and sockets a server is \
             started with follow it, made from the options that set them \
             (`swapboard_server::Limits`).\n\n\
             | Area | Name | Value | Meaning |\n\
             |---|---|---|---|\n",
        );
        for limit in every() {
            text.push_str(&format!(
                "| {} | `{}` | {} | {} |\n",
                limit.area,
                limit.name,
                limit.value,
                limit.doc.replace('|', "\\|")
            ));
        }
        text.push_str(OPTIONS_INTRO);
        let options =
            <crate::limits::Limits as clap::Args>::augment_args(clap::Command::new("serve"));
        for arg in options.get_arguments() {
            let shown = |text: Option<String>| text.unwrap_or_default().replace('|', "\\|");
            let defaults: Vec<String> = arg
                .get_default_values()
                .iter()
                .map(|value| value.to_string_lossy().into_owned())
                .collect();
            text.push_str(&format!(
                "| `--{}` | `{}` | `{}` | {} |\n",
                shown(arg.get_long().map(str::to_owned)),
                shown(arg.get_env().map(|env| env.to_string_lossy().into_owned())),
                defaults.join(","),
                shown(
                    arg.get_long_help()
                        .or(arg.get_help())
                        .map(|help| help.to_string())
                )
                .replace('\n', " ")
            ));
        }
        text.push_str(SEVERAL_INSTANCES);
        text
    }

    /// What `docs/LIMITS.md` says before the options' table.
    const OPTIONS_INTRO: &str = "\n## The options\n\n\
        Each of these is an option of `swapboard serve`, an environment variable, and a key of \
        the `--config` file (the option's name without its dashes): the command line comes \
        first, then the environment, then the file, then the default shown here. A rate is \
        `BURST/PERIOD`: so many at once, the whole burst refilled over the period (`5/1h`, \
        `600/1m`, `10/30s`), a burst from 1 to 1,000,000 and a period from 1 s to 30 days. A \
        time is a whole number and a unit, `ms`, `s`, `m`, `h` or `d` (`30s`), from 1 s to an \
        hour. A count is from 1 to 1,000,000. Anything else is refused at start, naming the \
        option.\n\n\
        | Option | Variable | Default | Meaning |\n\
        |---|---|---|---|\n";

    /// What `docs/LIMITS.md` says after the options' table.
    const SEVERAL_INSTANCES: &str = "\n## With several instances\n\n\
        Every option above is counted by each instance in its own memory, none in the database. \
        With N instances behind one proxy:\n\n\
        - the rates per client address (logins, failures per client, sign-ups, guests, writes, \
        analyses) and per account (moves, challenges, chat, reports) and the failures per name \
        allow up to N times their burst and rate in all, when the proxy spreads one client's \
        requests over every instance (round robin); a proxy that keeps a client on one \
        instance (nginx's `ip_hash`) keeps them at once;\n\
        - the caps on connections and sockets hold per instance: the site takes N times \
        `--limit-connections` HTTP connections and N times `--limit-sockets` sockets, and a \
        client up to N times its caps per address and per account;\n\
        - the times (`--limit-request-time`, `--limit-header-time`, \
        `--limit-socket-credential-time`) are per request, connection or socket, and do not \
        add up.\n\n\
        A live socket is counted with the sockets only: its connection leaves the HTTP \
        connections' counts when it is upgraded, so open sockets never keep a request out. \
        Each connection and each socket holds a file descriptor: the server raises its soft \
        limit of open files to the hard one at start, and warns when that is below \
        `--limit-connections` plus `--limit-sockets` plus the database's connections and a \
        reserve of 64.\n";

    /// `docs/LIMITS.md` is what the code says; `SWAPBOARD_WRITE_LIMITS=1` writes it again.
    #[test]
    fn the_table_in_the_docs_is_the_code_s() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/LIMITS.md");
        let made = table();
        if std::env::var_os("SWAPBOARD_WRITE_LIMITS").is_some() {
            std::fs::write(&path, &made).unwrap();
        }
        let written = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            written == made,
            "docs/LIMITS.md differs from the limits the code declares: write it again with \
             SWAPBOARD_WRITE_LIMITS=1 cargo test -p swapboard-server --lib limits"
        );
    }

    #[test]
    fn values_read_in_their_units() {
        assert_eq!(in_words(24 * 3_600_000, Unit::Millis), "1 day");
        assert_eq!(in_words(10 * 60_000, Unit::Millis), "10 minutes");
        assert_eq!(in_words(250, Unit::Millis), "250 ms");
        assert_eq!(in_words(14 * 24 * 3_600, Unit::Seconds), "14 days");
        assert_eq!(in_words(16 * 1024, Unit::Bytes), "16 KiB");
        assert_eq!(in_words(2048 + 1, Unit::Bytes), "2049 bytes");
        assert_eq!((8..=128usize).shown(Unit::Chars), "8 to 128 characters");
        assert_eq!(
            (1_000..=30 * 24 * 3_600_000i64).shown(Unit::Millis),
            "1 second to 30 days"
        );
        assert_eq!(Duration::from_secs(4).shown(Unit::Count), "4 seconds");
    }

    /// Every limit is listed once, with a meaning.
    #[test]
    fn every_limit_is_listed_once() {
        let every = every();
        let mut names: Vec<&str> = every.iter().map(|l| l.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), every.len(), "a name is declared in two areas");
        assert!(
            every
                .iter()
                .all(|l| !l.doc.is_empty() && !l.value.is_empty())
        );
    }
}
