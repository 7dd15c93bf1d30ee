//! The server's slow tier: tests of real processes and real resources that take seconds of
//! waiting or a whole machine's attention (2,000 connections at once, a full disk, a real
//! nginx in front). `cargo test` leaves this binary out (`test = false` in Cargo.toml);
//! `.ci/test` runs it after the rest, and so can a developer:
//! `cargo test -p swapboard-server --test slow`.

mod faults;
mod flood;
mod proxy;
