//! `swapboard serve`: the HTTP server where Swaptimum and Flipstop (Mark Steere), Scware
//! (Christian Freeling), Rapid Transit (Phil Leduc) and Swap 61 are played.
//!
//! The contract it speaks is `spec/API.md`; the project's own description, with what is
//! served so far, is `docs/API.md`. Layers: the edge (`edge`) reads every body into typed
//! values; handlers (`accounts`, `games`) answer through one error type (`error`); storage
//! ([`store`]) is one `sqlx::AnyPool` on SQLite (the default, a file in the working directory)
//! or PostgreSQL, and holds the move pipeline's transaction (its rules passed in by `games`,
//! from the play layer) and the deadline scheduler's claim. The library is synchronous to its callers: [`serve`] builds its own runtime.

mod accounts;
mod ai;
mod analysis;
mod app;
mod auth;
mod backup;
mod clocks;
mod edge;
mod error;
mod games;
mod limits;
mod listen;
mod lists;
mod live;
mod me;
mod openapi;
mod positions;
mod proxy;
mod puzzles;
mod ratings;
mod review;
mod rooms;
mod rules;
mod secret;
mod state;
pub mod store;
mod web;

use std::net::SocketAddr;

pub use accounts::NewToken;
pub use app::Server;
pub use backup::{BackupOptions, RestoreOptions, backup, backup_to, restore, restore_from};
pub use games::GameView;
pub use limits::{Limits, Rate};
pub use proxy::TrustedProxy;
pub use ratings::{RerateOptions, rerate};

/// How to serve: the options of `swapboard serve`.
#[derive(Clone, Debug, clap::Args)]
pub struct ServeOptions {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The database: postgres://USER@HOST/NAME or sqlite:FILE (default: $DATABASE_URL, else
    /// swapboard.db in the working directory, created if missing).
    #[arg(long, value_name = "URL")]
    pub database: Option<String>,
    /// The server is reached through TLS (a proxy in front): mark cookies Secure.
    #[arg(long)]
    pub behind_tls: bool,
    /// A reverse proxy's address or range (10.0.0.0/8, ::1/128, 127.0.0.1), repeatable: only
    /// requests whose TCP peer is inside one have their Forwarded / X-Forwarded-For headers
    /// read, for the client's address (the rightmost one not itself trusted) that limits and
    /// logs use. From anyone else those headers are ignored. Default: nobody.
    #[arg(
        long = "trusted-proxy",
        value_name = "CIDR",
        env = "SWAPBOARD_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    pub trusted_proxies: Vec<TrustedProxy>,
    /// The most AI searches run at once, one core each (default: all cores but one, at
    /// least one), so the AI never takes the cores the HTTP workers need.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub ai_searches: Option<u16>,
    /// SQLite only: the most the database may grow to, in MiB (a quota below the disk's
    /// size); past it writes answer 503 `storage_full` until rows are deleted. Default: no
    /// quota but the disk's.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u32).range(1..=16_000_000))]
    pub sqlite_max_mib: Option<u32>,
    /// The most detailed log lines written to standard error: error, warn, info (the
    /// default: start, stop, refusals, failures) or debug (also one line per request), or
    /// trace.
    #[arg(
        long,
        value_name = "LEVEL",
        env = "SWAPBOARD_LOG",
        default_value = "info"
    )]
    pub log: tracing::Level,
    /// Rate limits (the defaults; tests set their own).
    #[arg(skip)]
    pub limits: Limits,
}

/// Serves until SIGTERM or Ctrl-C, on a tokio runtime of its own, logging to standard error.
pub fn serve(options: ServeOptions) -> anyhow::Result<()> {
    // A caller that set up its own subscriber keeps it.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_max_level(options.log)
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let server = Server::start(&options).await?;
        server.wait().await
    })
}
