//! `swapboard rules GAME`: the rules of a game, as `swapboard_play::rules` words and draws
//! them for a terminal.

use crate::error::{CliError, CliResult};
use crate::output::Output;

/// Prints the rules of the game named `game` (`swaptimum`, ..., `swap61`).
pub(crate) fn rules(game: &str, out: &mut Output) -> CliResult {
    let Some(rules) = swapboard_play::rules::of(game) else {
        let known: Vec<&str> = swapboard_play::rules::ALL.iter().map(|r| r.id()).collect();
        return Err(CliError::bad(format!(
            "unknown game '{game}' (known games: {})",
            known.join(", ")
        )));
    };
    out.text(rules.text())
}
