use std::fmt;
use std::str::FromStr;

use swapboard_ai::{Budget, Config, Level, classic};
use swapboard_core::Game;

/// Who plays: a baseline bot, or a search with a level or a budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlayerSpec {
    /// Uniformly random legal moves (`random`).
    Random,
    /// Wins at once if it can, blocks an immediate loss, else random (`greedy`).
    Greedy,
    /// A search (`mcts:level=K`, `classic:ms=T`, ...).
    Search(Engine, SearchBudget),
}

impl PlayerSpec {
    /// The default search at a strength level (`mcts:level=K`), what tables and servers
    /// play.
    pub fn level(level: Level) -> PlayerSpec {
        PlayerSpec::Search(Engine::Mcts, SearchBudget::Level(level))
    }
}

/// Which search plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The default search, the one the levels and the servers use (`mcts:`).
    Mcts,
    /// The search as it stood before issue 28, frozen as the reference every new search
    /// is measured against (`classic:`, [`swapboard_ai::classic`]).
    Classic,
}

impl Engine {
    /// The spelling of the engine in a spec, before the colon.
    fn name(self) -> &'static str {
        match self {
            Engine::Mcts => "mcts",
            Engine::Classic => "classic",
        }
    }

    /// This engine's configuration and budget of one move of game `G` for `budget`, with
    /// `seed`.
    pub fn setup<G: Game>(self, budget: SearchBudget, seed: u64) -> (Config, Budget) {
        match (self, budget) {
            (Engine::Mcts, SearchBudget::Level(level)) => (level.config(seed), level.budget::<G>()),
            (Engine::Classic, SearchBudget::Level(level)) => (
                classic::level_config(level, seed),
                classic::level_budget::<G>(level),
            ),
            (engine, SearchBudget::Iterations(n)) => (engine.config(seed), Budget::iterations(n)),
            (engine, SearchBudget::Millis(ms)) => (
                engine.config(seed),
                Budget::time(std::time::Duration::from_millis(ms)),
            ),
        }
    }

    /// This engine's configuration without a level, with `seed`.
    fn config(self, seed: u64) -> Config {
        match self {
            Engine::Mcts => Config {
                seed,
                exploration: MCTS_EXPLORATION,
                prior_weight: MCTS_PRIOR_WEIGHT,
                ..Config::default()
            },
            Engine::Classic => classic::config(seed),
        }
    }
}

/// The exploration constant of `mcts:` with a time or iteration budget: the candidate
/// measured against `classic` (c = 0.2) in `docs/AI.md`; the levels keep the default.
const MCTS_EXPLORATION: f32 = 0.1;

/// The weight of the games' learned move priors for `mcts:` with a time or iteration
/// budget, as measured against `classic` in `docs/AI.md` ("Learned priors"); the levels
/// keep them off.
const MCTS_PRIOR_WEIGHT: f32 = 0.5;

/// How long a search thinks about a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SearchBudget {
    /// A strength level's budget (`level=K`).
    Level(Level),
    /// A number of iterations a move (`iters=N`).
    Iterations(u64),
    /// A time a move, in milliseconds (`ms=T`).
    Millis(u64),
}

/// Why a player spec was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "player '{spec}': {reason} (expected random, greedy, or mcts: or classic: followed by \
     level=1..8, iters=N or ms=T)"
)]
pub struct SpecError {
    /// The spec as given.
    pub spec: String,
    /// What is wrong with it.
    pub reason: String,
}

/// The most milliseconds a move may be given (a day), so that a typo cannot start a match
/// that never ends.
const MAX_MILLIS: u64 = 86_400_000;

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
        let (engine, option) = match text.split_once(':') {
            Some(("mcts", option)) => (Engine::Mcts, option),
            Some(("classic", option)) => (Engine::Classic, option),
            _ => return Err(fail("unknown player")),
        };
        let Some((key, value)) = option.split_once('=') else {
            return Err(fail("the search needs one option key=value"));
        };
        let number: u64 = value
            .parse()
            .map_err(|_| fail(&format!("'{value}' is not a whole number")))?;
        let budget = match key {
            "level" => u8::try_from(number)
                .ok()
                .and_then(Level::new)
                .map(SearchBudget::Level)
                .ok_or_else(|| fail("the level must be 1 to 8"))?,
            "iters" if number > 0 => SearchBudget::Iterations(number),
            "ms" if (1..=MAX_MILLIS).contains(&number) => SearchBudget::Millis(number),
            "iters" => return Err(fail("the budget must be positive")),
            "ms" => return Err(fail("the time must be 1 to 86400000 ms (a day)")),
            _ => return Err(fail(&format!("unknown option '{key}'"))),
        };
        Ok(PlayerSpec::Search(engine, budget))
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Search(engine, budget) => {
                let engine = engine.name();
                match budget {
                    SearchBudget::Level(level) => write!(f, "{engine}:level={level}"),
                    SearchBudget::Iterations(n) => write!(f, "{engine}:iters={n}"),
                    SearchBudget::Millis(ms) => write!(f, "{engine}:ms={ms}"),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_round_trip_through_their_text() {
        for text in [
            "random",
            "greedy",
            "mcts:level=8",
            "mcts:iters=500",
            "mcts:ms=100",
            "classic:level=1",
            "classic:iters=7",
            "classic:ms=250",
        ] {
            let spec: PlayerSpec = text.parse().expect(text);
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!(
            "classic:ms=100".parse(),
            Ok(PlayerSpec::Search(
                Engine::Classic,
                SearchBudget::Millis(100)
            ))
        );
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        for (text, reason) in [
            ("alphazero", "unknown player"),
            ("classic", "unknown player"),
            ("classic:ms", "one option key=value"),
            ("classic:level=9", "1 to 8"),
            ("mcts:iters=0", "positive"),
            ("classic:ms=0", "a day"),
            ("classic:ms=86400001", "a day"),
            ("mcts:ms=-1", "not a whole number"),
            ("classic:depth=3", "unknown option 'depth'"),
        ] {
            let error = text.parse::<PlayerSpec>().expect_err(text);
            assert!(error.reason.contains(reason), "{text}: {error}");
        }
    }
}
