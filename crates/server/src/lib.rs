//! `swapboard serve`: the HTTP server where Swaptimum and Flipstop (Mark Steere), Scware
//! (Christian Freeling), Rapid Transit (Phil Leduc) and Swap 61 are played.
//!
//! The contract it speaks, with what is served and curl examples, is `docs/API.md`. Layers: the
//! edge (`edge`) reads every body into typed values; handlers (`accounts`, `games`) answer through
//! one error type (`error`); storage ([`store`]) is one `sqlx::AnyPool` on SQLite (the default, a
//! file in the working directory) or PostgreSQL, and holds the move pipeline's transaction (its
//! rules passed in by `games`, from the play layer) and the deadline scheduler's claim. The library
//! is synchronous to its callers: [`serve`] builds its own runtime.

mod accounts;
mod admin;
mod ai;
pub mod ai_worker;
mod analysis;
pub mod api;
mod app;
mod auth;
mod backup;
mod chat;
mod clock;
mod clocks;
mod config;
mod descriptors;
mod edge;
mod error;
mod games;
mod instruments;
mod lessons;
mod limits;
mod listen;
mod lists;
mod live;
mod me;
mod notify;
mod offered;
mod openapi;
mod options;
mod passwords;
mod positions;
mod proxy;
mod puzzles;
mod ratings;
mod resets;
mod review;
mod rooms;
mod rules;
mod secret;
mod signals;
mod state;
pub mod store;
mod tournaments;
mod vacation;
mod version;
mod web;

pub use admin::{AdminAct, DatabaseOption, Verdict, administer, migrate};
pub use api::GameView;
pub use api::NewToken;
pub use app::Server;
pub use backup::{BackupOptions, RestoreOptions, backup, backup_to, restore, restore_from};
pub use clock::{Clock, DAY_MS};
pub use config::with_config_file;
pub use limits::{Limits, Rate};
pub use offered::Offered;
pub use options::ServeOptions;
pub use proxy::{ForwardedHeader, TrustedProxy};
pub use puzzles::finished_games;
pub use ratings::{RerateOptions, rerate};
pub use version::VERSION;

/// Serves until SIGTERM or Ctrl-C, on a tokio runtime of its own, logging to standard error.
pub fn serve(options: ServeOptions) -> anyhow::Result<()> {
    signals::logged_runtime(options.log, async {
        let server = Server::start(&options).await?;
        server.wait().await
    })
}
