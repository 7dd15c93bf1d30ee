use std::fmt;
use std::str::FromStr;

use swapboard_ai::Level;

/// Who plays: a baseline bot or the search with a level or a budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlayerSpec {
    /// Uniformly random legal moves (`random`).
    Random,
    /// Wins at once if it can, blocks an immediate loss, else random (`greedy`).
    Greedy,
    /// The search at a strength level (`mcts:level=K`).
    Level(Level),
    /// The search with a number of iterations a move (`mcts:iters=N`).
    Iterations(u64),
    /// The search with a time a move, in milliseconds (`mcts:ms=T`).
    Millis(u64),
}

/// Why a player spec was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "player '{spec}': {reason} (expected random, greedy, mcts:level=1..8, mcts:iters=N or mcts:ms=T)"
)]
pub struct SpecError {
    /// The spec as given.
    pub spec: String,
    /// What is wrong with it.
    pub reason: String,
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<PlayerSpec, SpecError> {
        let fail = |reason: &str| SpecError {
            spec: text.to_string(),
            reason: reason.to_string(),
        };
        match text {
            "random" => return Ok(PlayerSpec::Random),
            "greedy" => return Ok(PlayerSpec::Greedy),
            _ => {}
        }
        let Some(option) = text.strip_prefix("mcts:") else {
            return Err(fail("unknown player"));
        };
        let Some((key, value)) = option.split_once('=') else {
            return Err(fail("the search needs one option key=value"));
        };
        let number: u64 = value
            .parse()
            .map_err(|_| fail(&format!("'{value}' is not a whole number")))?;
        match key {
            "level" => u8::try_from(number)
                .ok()
                .and_then(Level::new)
                .map(PlayerSpec::Level)
                .ok_or_else(|| fail("the level must be 1 to 8")),
            "iters" if number > 0 => Ok(PlayerSpec::Iterations(number)),
            "ms" if number > 0 => Ok(PlayerSpec::Millis(number)),
            "iters" | "ms" => Err(fail("the budget must be positive")),
            _ => Err(fail(&format!("unknown option '{key}'"))),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Level(level) => write!(f, "mcts:level={level}"),
            PlayerSpec::Iterations(n) => write!(f, "mcts:iters={n}"),
            PlayerSpec::Millis(ms) => write!(f, "mcts:ms={ms}"),
        }
    }
}
