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
    /// A search (`mcts:level=K`, `classic:ms=T`, `mcts:ms=T,threads=2`, ...).
    Search {
        /// Which search.
        engine: Engine,
        /// How long it thinks about a move.
        budget: SearchBudget,
        /// The threads it searches on (`threads=N`, 1 to 64); `None` for the level's own
        /// ([`Level::threads`]: every core at level 9), or one.
        threads: Option<u8>,
    },
}

impl PlayerSpec {
    /// The default search at a strength level (`mcts:level=K`), what tables and servers
    /// play.
    pub fn level(level: Level) -> PlayerSpec {
        PlayerSpec::Search {
            engine: Engine::Mcts,
            budget: SearchBudget::Level(level),
            threads: None,
        }
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
    /// `seed`, on `threads` threads (`None`: the level's own, or one).
    pub fn setup<G: Game>(
        self,
        budget: SearchBudget,
        threads: Option<u8>,
        seed: u64,
    ) -> (Config, Budget) {
        let (config, budget) = match (self, budget) {
            (Engine::Mcts, SearchBudget::Level(level)) => {
                let config = level.config::<G>(seed);
                let threads = threads.map_or(config.threads, usize::from);
                (config, level.budget_on::<G>(threads))
            }
            (Engine::Classic, SearchBudget::Level(level)) => (
                classic::level_config(level, seed),
                classic::level_budget::<G>(level),
            ),
            (engine, SearchBudget::Iterations(n)) => {
                (engine.config::<G>(seed), Budget::iterations(n))
            }
            (engine, SearchBudget::Millis(ms)) => (
                engine.config::<G>(seed),
                Budget::time(std::time::Duration::from_millis(ms)),
            ),
        };
        let threads = threads.map_or(config.threads, usize::from);
        (Config { threads, ..config }, budget)
    }

    /// This engine's configuration of game `G` without a level, with `seed`.
    fn config<G: Game>(self, seed: u64) -> Config {
        match self {
            Engine::Mcts => Config::for_game::<G>(seed),
            Engine::Classic => classic::config(seed),
        }
    }
}

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
     level=K (1..9, classic 1..8), iters=N or ms=T, then optionally ,threads=N)"
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
/// The most threads a search may be given.
const MAX_THREADS: u8 = 64;

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
        let (engine, options) = match text.split_once(':') {
            Some(("mcts", options)) => (Engine::Mcts, options),
            Some(("classic", options)) => (Engine::Classic, options),
            _ => return Err(fail("unknown player")),
        };
        let mut budget = None;
        let mut threads = None;
        for option in options.split(',') {
            let Some((key, value)) = option.split_once('=') else {
                return Err(fail("the search needs its options as key=value"));
            };
            let number: u64 = value
                .parse()
                .map_err(|_| fail(&format!("'{value}' is not a whole number")))?;
            let strongest = match engine {
                Engine::Mcts => Level::MAX,
                Engine::Classic => Level::MAX_SERVED,
            };
            let read = match key {
                "threads" => {
                    let n = u8::try_from(number)
                        .ok()
                        .filter(|n| (1..=MAX_THREADS).contains(n))
                        .ok_or_else(|| fail("threads must be 1 to 64"))?;
                    if threads.replace(n).is_some() {
                        return Err(fail("threads is given twice"));
                    }
                    continue;
                }
                "level" => u8::try_from(number)
                    .ok()
                    .and_then(Level::new)
                    .filter(|level| *level <= strongest)
                    .map(SearchBudget::Level)
                    .ok_or_else(|| {
                        fail(&format!(
                            "the level must be 1 to {strongest} for {}:",
                            engine.name()
                        ))
                    })?,
                "iters" if number > 0 => SearchBudget::Iterations(number),
                "ms" if (1..=MAX_MILLIS).contains(&number) => SearchBudget::Millis(number),
                "iters" => return Err(fail("the budget must be positive")),
                "ms" => return Err(fail("the time must be 1 to 86400000 ms (a day)")),
                _ => return Err(fail(&format!("unknown option '{key}'"))),
            };
            if budget.replace(read).is_some() {
                return Err(fail("give one budget: level, iters or ms"));
            }
        }
        let budget = budget.ok_or_else(|| fail("the search needs a budget: level, iters or ms"))?;
        Ok(PlayerSpec::Search {
            engine,
            budget,
            threads,
        })
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Search {
                engine,
                budget,
                threads,
            } => {
                let engine = engine.name();
                match budget {
                    SearchBudget::Level(level) => write!(f, "{engine}:level={level}")?,
                    SearchBudget::Iterations(n) => write!(f, "{engine}:iters={n}")?,
                    SearchBudget::Millis(ms) => write!(f, "{engine}:ms={ms}")?,
                }
                match threads {
                    Some(n) => write!(f, ",threads={n}"),
                    None => Ok(()),
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
            "mcts:level=9",
            "mcts:ms=100,threads=2",
            "classic:iters=7,threads=1",
        ] {
            let spec: PlayerSpec = text.parse().expect(text);
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!(
            "classic:ms=100".parse(),
            Ok(PlayerSpec::Search {
                engine: Engine::Classic,
                budget: SearchBudget::Millis(100),
                threads: None,
            })
        );
        // Options in any order.
        assert_eq!(
            "mcts:threads=2,iters=50"
                .parse::<PlayerSpec>()
                .map(|s| s.to_string()),
            Ok("mcts:iters=50,threads=2".to_string())
        );
    }

    /// The search configuration a search spec gives on game `G`.
    fn config_of<G: Game>(text: &str) -> Config {
        match text.parse::<PlayerSpec>() {
            Ok(PlayerSpec::Search {
                engine,
                budget,
                threads,
            }) => engine.setup::<G>(budget, threads, 1).0,
            other => panic!("{text}: {other:?}"),
        }
    }

    /// `threads=N` reaches the search's configuration; without it a level has its own
    /// threads (every core at level 9 only) and a budget one.
    #[test]
    fn threads_reach_the_search() {
        use swapboard_swaptimum::Swaptimum;
        let threads = |text: &str| config_of::<Swaptimum>(text).threads;
        assert_eq!(threads("mcts:ms=100,threads=2"), 2);
        assert_eq!(threads("mcts:ms=100"), 1);
        assert_eq!(threads("mcts:level=8"), 1);
        assert_eq!(threads("classic:level=8"), 1);
        assert_eq!(threads("mcts:level=9,threads=1"), 1);
        assert_eq!(threads("mcts:level=9"), Level::MAX.threads());
    }

    /// `mcts:`, with a budget or a level, searches as measured for each game (no exploration
    /// term but the priors where a game has them); `classic:` and the beginner's levels keep
    /// theirs.
    #[test]
    fn each_game_gets_its_measured_search() {
        use swapboard_flipstop::Flipstop;
        use swapboard_rapid_transit::RapidTransit;
        use swapboard_scware::Scware;
        use swapboard_swaptimum::Swaptimum;
        fn search<G: Game>(text: &str) -> (f32, f32, bool) {
            let config = config_of::<G>(text);
            (
                config.exploration,
                config.prior_weight,
                config.amaf_by_cells,
            )
        }
        let tuned = (0.0, Config::PRIOR_WEIGHT, true);
        assert_eq!(search::<Swaptimum>("mcts:ms=100"), tuned);
        assert_eq!(search::<Flipstop>("mcts:iters=3000"), tuned);
        assert_eq!(search::<Swaptimum>("mcts:level=8"), tuned);
        assert_eq!(search::<Flipstop>("mcts:level=3"), tuned);
        assert_eq!(search::<Flipstop>("mcts:level=2").0, 1.0);
        assert_eq!(search::<RapidTransit>("mcts:ms=100"), (0.1, 0.0, true));
        assert_eq!(search::<RapidTransit>("mcts:level=8"), (0.1, 0.0, true));
        assert_eq!(search::<Scware>("mcts:level=6"), (0.1, 0.0, true));
        assert_eq!(search::<Scware>("classic:level=6"), (0.2, 0.0, false));
        assert_eq!(search::<Swaptimum>("classic:ms=100"), (0.2, 0.0, false));
        assert_eq!(search::<Swaptimum>("classic:level=8"), (0.2, 0.0, false));
        let draws = |text| config_of::<RapidTransit>(text).playout_draws;
        assert_eq!(draws("mcts:ms=100"), RapidTransit::PLAYOUT_DRAWS);
        assert_eq!(draws("classic:ms=100"), 1);
        assert_eq!(config_of::<Swaptimum>("mcts:ms=100").playout_draws, 1);
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        for (text, reason) in [
            ("alphazero", "unknown player"),
            ("classic", "unknown player"),
            ("classic:ms", "options as key=value"),
            ("classic:level=9", "1 to 8 for classic:"),
            ("mcts:level=10", "1 to 9 for mcts:"),
            ("mcts:threads=2", "needs a budget"),
            ("mcts:ms=5,iters=5", "one budget"),
            ("mcts:ms=5,threads=0", "threads must be 1 to 64"),
            ("mcts:ms=5,threads=65", "threads must be 1 to 64"),
            ("mcts:ms=5,threads=2,threads=2", "twice"),
            ("mcts:ms=5,", "options as key=value"),
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
