//! A server of the tests: on a free port of 127.0.0.1, on a test's database, on the real
//! clock or on a manual one the test moves.

use swapboard_server::{Clock, Limits, ServeOptions, Server};

use crate::TestDb;

/// The options of a server on a free port of 127.0.0.1 on `db`, for a test that sets more.
pub fn options(db: &TestDb, limits: Limits) -> ServeOptions {
    ServeOptions {
        // The tests' push services listen on the loopback address over plain HTTP.
        push_loopback: true,
        ..ServeOptions::local(&db.url, limits)
    }
}

/// Starts a server on a free port of 127.0.0.1 on `db`.
pub async fn start(db: &TestDb, limits: Limits) -> Server {
    Server::start(&options(db, limits)).await.unwrap()
}

/// Puts the server of `options` on a manual clock standing at the system's time now, and
/// gives the clock back: the test moves it ([`Clock::advance`]) instead of waiting, and the
/// server's background workers (the clocks' scheduler, the notifications' worker) make a
/// pass at each move. Servers given clones of one clock share its time.
pub fn on_manual_clock(options: &mut ServeOptions) -> Clock {
    let clock = Clock::manual_from_now();
    options.clock = clock.clone();
    clock
}

/// [`start`] on a manual clock ([`on_manual_clock`]): the server and its clock.
pub async fn start_on_manual_clock(db: &TestDb, limits: Limits) -> (Server, Clock) {
    let mut options = options(db, limits);
    let clock = on_manual_clock(&mut options);
    (Server::start(&options).await.unwrap(), clock)
}

/// Limits no test of the contract reaches.
pub fn generous() -> Limits {
    Limits::generous(100_000)
}
