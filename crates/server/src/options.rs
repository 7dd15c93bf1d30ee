//! The options of `swapboard serve`, read by clap at the command line and by whoever starts
//! a [`crate::Server`] in-process (the tests, `swapboard loadtest`).

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::clock::Clock;
use crate::limits::Limits;
use crate::offered::Offered;
use crate::proxy::{ForwardedHeader, TrustedProxy};
use crate::store::{Migrations, POSTGRES_CONNECTIONS};

/// How to serve: the options of `swapboard serve`. Each is read from the command line, else
/// its environment variable (`SWAPBOARD_...`), else the `--config` file (its key is the long
/// option's name), else its default.
#[derive(Clone, Debug, clap::Args)]
pub struct ServeOptions {
    /// A TOML file of options: each key a long option's name without its dashes
    /// (`addr = "127.0.0.1:8080"`, `trusted-proxy = ["127.0.0.1"]`). The command line and the
    /// environment come before it; an unknown key is refused (deploy/swapboard.toml).
    #[arg(long, value_name = "FILE", env = "SWAPBOARD_CONFIG")]
    pub config: Option<PathBuf>,
    /// The address to listen on.
    #[arg(long, env = "SWAPBOARD_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The database: postgres://USER@HOST/NAME or sqlite:FILE (default: the --config file's,
    /// else $DATABASE_URL, else swapboard.db in the working directory, created if missing).
    #[arg(long, value_name = "URL", env = "SWAPBOARD_DATABASE")]
    pub database: Option<String>,
    /// The server is reached through TLS (a proxy in front): mark cookies Secure.
    #[arg(long, env = "SWAPBOARD_BEHIND_TLS", value_parser = clap::builder::BoolishValueParser::new())]
    pub behind_tls: bool,
    /// A reverse proxy's address or range (10.0.0.0/8, ::1/128, 127.0.0.1), repeatable: only
    /// requests whose TCP peer is inside one have their --forwarded-header read, for the
    /// client's address (the rightmost one not itself trusted) that limits and logs use. From
    /// anyone else it is ignored (and a warning logged once). Default: nobody.
    #[arg(
        long = "trusted-proxy",
        value_name = "CIDR",
        env = "SWAPBOARD_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    pub trusted_proxies: Vec<TrustedProxy>,
    /// The one header the trusted proxies name the client in: x-forwarded-for (what the
    /// nginx and Caddy blocks of docs/DEPLOY.md set) or forwarded (RFC 7239). The other is
    /// never read: a proxy passes it on as the client wrote it.
    #[arg(
        long,
        value_name = "HEADER",
        env = "SWAPBOARD_FORWARDED_HEADER",
        value_enum,
        default_value_t
    )]
    pub forwarded_header: ForwardedHeader,
    /// The most AI searches run at once, one core each (default: all cores but one, at
    /// least one), so the AI never takes the cores the HTTP workers need.
    #[arg(long, value_name = "N", env = "SWAPBOARD_AI_SEARCHES",
          value_parser = clap::value_parser!(u16).range(1..=256))]
    pub ai_searches: Option<u16>,
    /// Runs no embedded AI worker: the AI's moves, analyses and reviews are left to
    /// `swapboard ai-worker` processes (on this machine or others) reading the same database.
    #[arg(long, env = "SWAPBOARD_NO_AI_WORKER", value_parser = clap::builder::BoolishValueParser::new())]
    pub no_ai_worker: bool,
    /// PostgreSQL only: the most connections this instance keeps to the database (its
    /// requests wait for one when all are busy). Count them into the server's
    /// max_connections for every instance and AI worker.
    #[arg(long, value_name = "N", env = "SWAPBOARD_DB_CONNECTIONS", default_value_t = POSTGRES_CONNECTIONS,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub db_connections: u32,
    /// SQLite only: the most the database may grow to, in MiB (a quota below the disk's
    /// size); past it writes answer 503 `storage_full` until rows are deleted. Default: no
    /// quota but the disk's.
    #[arg(long, value_name = "MIB", env = "SWAPBOARD_SQLITE_MAX_MIB",
          value_parser = clap::value_parser!(u32).range(1..=16_000_000))]
    pub sqlite_max_mib: Option<u32>,
    /// The most detailed log lines written to standard error: error, warn, info (start,
    /// stop, refusals, failures, one line per request), debug, or trace (also the database's
    /// statements). Default: $SWAPBOARD_LOG, else the --config file's, else the global
    /// level of $RUST_LOG, else info.
    #[arg(
        long,
        value_name = "LEVEL",
        env = "SWAPBOARD_LOG",
        default_value_t = default_log_level()
    )]
    pub log: tracing::Level,
    /// Serve the server's metrics (`GET /metrics`, Prometheus's text format) on this
    /// address, a listener of their own: keep it private (127.0.0.1 or an internal network).
    /// Without it no metrics are served or kept.
    #[arg(long, value_name = "ADDR", env = "SWAPBOARD_METRICS_ADDR")]
    pub metrics_addr: Option<SocketAddr>,
    /// Mail notifications through this SMTP server: `smtp://[USER:PASS@]HOST[:PORT]` (plain;
    /// add ?tls=required for STARTTLS) or `smtps://[USER:PASS@]HOST[:PORT]` (TLS). Needs
    /// --mail-from and --public-url (checked at start, since any of the three may come from
    /// the --config file). Default: no mail (the inbox still works).
    #[arg(long, value_name = "URL", env = "SWAPBOARD_SMTP")]
    pub smtp: Option<String>,
    /// The sender of the mails: an address, or `Name <address>`.
    #[arg(long, value_name = "ADDRESS", env = "SWAPBOARD_MAIL_FROM")]
    pub mail_from: Option<String>,
    /// The site's address as its users reach it (`https://swapboard.example`): the links in
    /// mails start with it.
    #[arg(long, value_name = "URL", env = "SWAPBOARD_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// The days of vacation every account has a year (UTC calendar years): a correspondence
    /// clock that would run out spends one instead, and players may take them on purpose
    /// (0 turns the bank off).
    #[arg(long, value_name = "DAYS", env = "SWAPBOARD_VACATION_DAYS", default_value_t = DEFAULT_VACATION_DAYS,
          value_parser = clap::value_parser!(u16).range(0..=366))]
    pub vacation_days: u16,
    /// How many days a guest (who plays without an account) is kept after its session
    /// expired and its last game moved; then the guest and its games are removed.
    #[arg(long, value_name = "DAYS", env = "SWAPBOARD_GUEST_DAYS", default_value_t = DEFAULT_GUEST_DAYS,
          value_parser = clap::value_parser!(u16).range(1..=3650))]
    pub guest_days: u16,
    /// The games this server offers, comma-separated, from swaptimum, flipstop, scware,
    /// rapid-transit and swap61 (the rooms). Unnamed: all five on a loopback address, and on
    /// any other all but Rapid Transit, whose author asks to be asked before it is programmed
    /// (name it once you have his permission: docs/DEPLOY.md). Games already stored stay
    /// readable.
    #[arg(long, value_name = "LIST", env = "SWAPBOARD_GAMES")]
    pub games: Option<Offered>,
    /// What to do with the migrations this binary has and the database lacks: auto (apply
    /// them, unless an instance expecting an older schema still runs on the database), always
    /// (apply them even then), never (refuse to start; `swapboard migrate` applies them).
    #[arg(
        long,
        value_name = "WHEN",
        env = "SWAPBOARD_MIGRATE",
        value_enum,
        default_value_t
    )]
    pub migrate: Migrations,
    /// Whether web push takes `http://` endpoints on the loopback address (the tests' push
    /// services); a deployment takes only `https://` ones.
    #[arg(skip)]
    pub push_loopback: bool,
    /// The limits: rates, times, and caps on connections and sockets.
    #[command(flatten)]
    pub limits: Limits,
    /// The wall clock: the system's (the default); tests hand in a manual one
    /// ([`crate::Clock::manual`]) and move it instead of waiting.
    #[arg(skip)]
    pub clock: Clock,
}

/// The vacation bank's days a year when `--vacation-days` is not given.
const DEFAULT_VACATION_DAYS: u16 = 20;

/// How long a guest is kept when `--guest-days` is not given.
const DEFAULT_GUEST_DAYS: u16 = 30;

impl ServeOptions {
    /// A server on a free port of 127.0.0.1 on `database` with these limits and every other
    /// option at the command's default (no mail, no metrics, one AI search, the system's
    /// clock): what a program that starts a server of its own, such as the load test or a
    /// test, begins from.
    pub fn local(database: &str, limits: Limits) -> ServeOptions {
        ServeOptions {
            config: None,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            database: Some(database.to_owned()),
            behind_tls: false,
            trusted_proxies: Vec::new(),
            forwarded_header: ForwardedHeader::default(),
            migrate: Migrations::default(),
            sqlite_max_mib: None,
            db_connections: POSTGRES_CONNECTIONS,
            log: tracing::Level::INFO,
            ai_searches: Some(1),
            no_ai_worker: false,
            metrics_addr: None,
            smtp: None,
            mail_from: None,
            public_url: None,
            vacation_days: DEFAULT_VACATION_DAYS,
            guest_days: DEFAULT_GUEST_DAYS,
            games: None,
            push_loopback: false,
            limits,
            clock: Clock::real(),
        }
    }
}

/// The log level when neither `--log` nor `SWAPBOARD_LOG` names one: `RUST_LOG`'s, else
/// info.
pub(crate) fn default_log_level() -> tracing::Level {
    level_of_rust_log(std::env::var("RUST_LOG").ok().as_deref())
}

/// The global level a `RUST_LOG` value names (its last directive without a target, as
/// `info` in `sqlx=warn,info`), else info. Per-target directives are not followed: the
/// server's log has one level.
fn level_of_rust_log(rust_log: Option<&str>) -> tracing::Level {
    rust_log
        .into_iter()
        .flat_map(|value| value.split(','))
        .filter(|directive| !directive.contains('='))
        .filter_map(|directive| directive.trim().parse().ok())
        .next_back()
        .unwrap_or(tracing::Level::INFO)
}

#[cfg(test)]
mod tests {
    use clap::Parser;
    use tracing::Level;

    use super::{ServeOptions, level_of_rust_log};

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        serve: ServeOptions,
    }

    #[test]
    fn rust_log_names_the_level_only_by_its_global_directive() {
        assert_eq!(level_of_rust_log(None), Level::INFO);
        assert_eq!(level_of_rust_log(Some("debug")), Level::DEBUG);
        assert_eq!(level_of_rust_log(Some("WARN")), Level::WARN);
        assert_eq!(level_of_rust_log(Some("sqlx=warn,trace")), Level::TRACE);
        assert_eq!(level_of_rust_log(Some("sqlx=warn")), Level::INFO);
        assert_eq!(level_of_rust_log(Some("loud")), Level::INFO);
        assert_eq!(level_of_rust_log(Some("")), Level::INFO);
    }

    #[test]
    fn the_log_option_comes_before_the_environment() {
        // Whatever SWAPBOARD_LOG or RUST_LOG say where this runs, --log wins.
        let parsed = Command::try_parse_from(["serve", "--log", "error"]).unwrap();
        assert_eq!(parsed.serve.log, Level::ERROR);
        let refused = Command::try_parse_from(["serve", "--log", "loud"])
            .err()
            .unwrap();
        assert!(refused.to_string().contains("--log"), "{refused}");
    }
}
