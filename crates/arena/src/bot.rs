use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_ai::{Budget, Mcts, baseline};
use swapboard_core::{IllegalMove, Stepwise};
use swapboard_solver::Course;

use crate::{Engine, PlayerSpec};

/// A player of one game: a baseline bot, or a search that keeps its tree between moves.
///
/// The `mcts:` search plays from the solver's books first: on a board with a shipped book,
/// a position proven won is played by a proven winning move, the bot following the game's
/// [`Course`] to know where a live proof is to be expected; `classic:` never looks.
pub struct Bot<G: Stepwise> {
    kind: Kind<G>,
    rng: Xoshiro256PlusPlus,
}

enum Kind<G: Stepwise> {
    Random,
    Greedy,
    Search {
        search: Box<Mcts<G>>,
        budget: Budget,
        /// The frozen `classic:` search, which neither plays from the books nor extends
        /// its time when critical.
        classic: bool,
        /// The game's course along its board's book.
        course: Box<Course<G>>,
    },
}

impl<G: Stepwise> Bot<G> {
    /// The bot `spec` for a game starting at `start`, seeded with `seed`.
    pub fn new(spec: PlayerSpec, start: &G, seed: u64) -> Bot<G> {
        let kind = match spec {
            PlayerSpec::Random => Kind::Random,
            PlayerSpec::Greedy => Kind::Greedy,
            PlayerSpec::Search {
                engine,
                budget,
                threads,
            } => {
                let (config, budget) = engine.setup::<G>(budget, threads, seed);
                Kind::Search {
                    search: Box::new(Mcts::new(start.clone(), config)),
                    budget,
                    classic: engine == Engine::Classic,
                    course: Box::new(Course::new(start)),
                }
            }
        };
        Bot {
            kind,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }

    /// The bot's move in `position` (the position of the game so far), or `None` when the
    /// game is over.
    pub fn choose(&mut self, position: &G) -> Option<G::Move> {
        self.choose_within(position, None)
    }

    /// [`Bot::choose`], a search thinking no longer than `limit` whatever its budget (the
    /// time a clock allows).
    pub fn choose_within(&mut self, position: &G, limit: Option<Duration>) -> Option<G::Move> {
        self.choose_by_clock(position, limit, Duration::ZERO)
    }

    /// [`Bot::choose_within`], the `mcts:` search going on for up to `extra` more when
    /// `limit` cut it short with its best move still unsettled (a critical position:
    /// [`swapboard_ai::Analysis::is_unsettled`]); `classic:` never does.
    pub fn choose_by_clock(
        &mut self,
        position: &G,
        limit: Option<Duration>,
        extra: Duration,
    ) -> Option<G::Move> {
        match &mut self.kind {
            Kind::Random => baseline::random_move(position, &mut self.rng),
            Kind::Greedy => baseline::greedy_move(position, &mut self.rng),
            Kind::Search {
                search,
                budget,
                classic,
                course,
            } => {
                // A position off the book is given to the solver for half the time at most;
                // the search has what is left.
                let started = Instant::now();
                if !*classic && let Some(mv) = course.proven_move(position, limit.map(|l| l / 2)) {
                    return Some(mv);
                }
                search.set_position(position.clone());
                let mut budget = budget.clone();
                if let Some(limit) = limit {
                    let limit = limit
                        .saturating_sub(started.elapsed())
                        .max(Duration::from_millis(1));
                    budget.time = Some(budget.time.map_or(limit, |t| t.min(limit)));
                }
                if *classic {
                    search.think(&budget);
                } else {
                    search.think_extended(&budget, extra);
                }
                search.best_move()
            }
        }
    }

    /// Tells the bot that `mv` was played (by either side), so a search keeps its tree.
    pub fn observe(&mut self, mv: &G::Move) -> Result<(), IllegalMove> {
        match &mut self.kind {
            Kind::Search { search, course, .. } => {
                search.advance(mv)?;
                course.advance(mv)
            }
            _ => Ok(()),
        }
    }

    /// Tells the bot the whole game so far, as its `course`: for a player at a table whose
    /// moves it did not observe one by one (takebacks included). The search's tree is left
    /// to [`Bot::choose`], which starts from the position it is given.
    pub fn follow(&mut self, course: Course<G>) {
        if let Kind::Search {
            course: followed, ..
        } = &mut self.kind
        {
            **followed = course;
        }
    }
}
