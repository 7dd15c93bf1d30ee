//! The command's slow tier: `swapboard serve` and `swapboard ai-worker` as processes killed
//! with `kill -9` mid-write or mid-search, stopped by SIGTERM, and put under load. `cargo
//! test` leaves this binary out (`test = false` in Cargo.toml); `.ci/test` runs it after the
//! rest, and so can a developer: `cargo test -p swapboard --test slow`.

// The fast tier's helpers to run the binary, shared by path: this binary uses some of them.
#[path = "../cli/common.rs"]
#[allow(dead_code)]
mod common;

mod ai_worker;
mod serve;
