//! What the tests of swapboard's server and command share: a database of each backend
//! ([`TestDb`]; a PostgreSQL one is a copy of a template migrated once per test process), a
//! server on a free port of 127.0.0.1 ([`start`], on a manual clock with
//! [`start_on_manual_clock`]), a JSON client ([`Client`]), what users do over HTTP
//! ([`bearer`], [`game_between`], ...), live sockets ([`Socket`]), a mail sink
//! ([`smtp_sink`]), the metrics' text ([`sample`]) and files written for the code under test
//! to read ([`TempFile`]).
//!
//! A scenario written once runs as one test per database with [`each_database!`]: the
//! tests' names end in `::sqlite` and `::postgres`, so a failure says which database failed
//! and `cargo test -- sqlite` runs one half.

mod db;
mod files;
mod http;
mod mail;
mod metrics;
mod server;
mod sockets;
mod users;

pub use db::{PG_VARIABLE, TestDb, count, execute, run_scenario};
pub use files::TempFile;
pub use http::{Answer, Client};
pub use mail::{
    Received, Trouble, confirmed_address, next_mail, smtp_sink, smtp_sink_with, unfolded,
};
pub use metrics::sample;
pub use server::{generous, on_manual_clock, options, start, start_on_manual_clock};
pub use sockets::{Socket, connect, drain, next_message, refused_upgrade, socket, until};
pub use users::{
    any_move, auth, bearer, delivered, game_between, game_made, inbox, reviewed, sign_up_and_token,
    staff, started,
};

/// One test per database for a scenario: `each_database!(name, scenario)` makes a module
/// `name` with the tests `sqlite` and `postgres`, each running `scenario` (an
/// `FnOnce(TestDb) -> impl Future<Output = TestDb>`, such as an `async fn` or a
/// `|db| async move { ... db }` closure) on a fresh database of its kind and removing the
/// database after. Without a PostgreSQL server (and without [`PG_VARIABLE`] set), the
/// `postgres` test says so once and passes without running.
///
/// The scenario is written in the module that calls the macro: the tests' module sees
/// everything that module does.
#[macro_export]
macro_rules! each_database {
    ($name:ident, $scenario:expr $(,)?) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                $crate::run_scenario($crate::TestDb::sqlite(), $scenario).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(db) = $crate::TestDb::postgres().await {
                    $crate::run_scenario(db, $scenario).await;
                }
            }
        }
    };
}
