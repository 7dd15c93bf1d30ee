//! `swapboard engine`: the engine protocol of `swapboard_play::protocol` over standard input
//! and output (`docs/ENGINE-PROTOCOL.md`).

use std::io;

use swapboard_play::protocol::run_protocol;

use crate::error::{CliError, CliResult};

/// Runs the protocol until `quit` or the end of the input.
pub(crate) fn engine() -> CliResult {
    let stdin = io::stdin();
    let stdout = io::stdout();
    run_protocol(io::BufReader::new(stdin), stdout.lock()).map_err(|e| CliError::Failure(e.into()))
}
