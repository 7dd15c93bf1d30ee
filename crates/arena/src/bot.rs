use std::time::Duration;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_ai::{Budget, Mcts, baseline};
use swapboard_core::{IllegalMove, Stepwise};

use crate::PlayerSpec;

/// A player of one game: a baseline bot, or a search that keeps its tree between moves.
pub struct Bot<G: Stepwise> {
    kind: Kind<G>,
    rng: Xoshiro256PlusPlus,
}

enum Kind<G: Stepwise> {
    Random,
    Greedy,
    Search(Box<Mcts<G>>, Budget),
}

impl<G: Stepwise> Bot<G> {
    /// The bot `spec` for a game starting at `start`, seeded with `seed`.
    pub fn new(spec: PlayerSpec, start: &G, seed: u64) -> Bot<G> {
        let kind = match spec {
            PlayerSpec::Random => Kind::Random,
            PlayerSpec::Greedy => Kind::Greedy,
            PlayerSpec::Search(engine, budget) => {
                let (config, budget) = engine.setup::<G>(budget, seed);
                Kind::Search(Box::new(Mcts::new(start.clone(), config)), budget)
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
        match &mut self.kind {
            Kind::Random => baseline::random_move(position, &mut self.rng),
            Kind::Greedy => baseline::greedy_move(position, &mut self.rng),
            Kind::Search(search, budget) => {
                search.set_position(position.clone());
                let mut budget = budget.clone();
                if let Some(limit) = limit {
                    budget.time = Some(budget.time.map_or(limit, |t| t.min(limit)));
                }
                search.think(&budget);
                search.best_move()
            }
        }
    }

    /// Tells the bot that `mv` was played (by either side), so a search keeps its tree.
    pub fn observe(&mut self, mv: &G::Move) -> Result<(), IllegalMove> {
        match &mut self.kind {
            Kind::Search(search, _) => search.advance(mv),
            _ => Ok(()),
        }
    }
}
