//! The AI at a table: it plays its side, and gives hints to people.

use std::time::{Duration, Instant};

use swapboard_ai::{Budget, Level, Mcts};
use swapboard_arena::{Bot, PlayerSpec};
use swapboard_core::MoveError;
use swapboard_solver::Course;

use crate::clock::Millis;
use crate::game::Playable;
use crate::position::{AnyPosition, PositionFn};
use crate::table::{Seat, Table, TableError};

/// The least time a search is given, however little the clock leaves: it needs one chunk
/// of iterations to have a move.
const MIN_LIMIT: Duration = Duration::from_millis(1);

/// A search at a strength level, kept between moves.
pub struct Opponent<G: Playable> {
    bot: Bot<G>,
    level: Level,
}

impl<G: Playable> Opponent<G> {
    /// The AI at `level` for a game starting at `start`, seeded with `seed`.
    pub fn new(level: Level, start: &G, seed: u64) -> Opponent<G> {
        Opponent {
            bot: Bot::new(PlayerSpec::level(level), start, seed),
            level,
        }
    }

    /// Its strength level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The move it would play for the side to move at `table`, or `None` when the game is
    /// over.
    pub fn hint(&mut self, table: &Table<G>) -> Option<G::Move> {
        if table.ending().is_some() {
            return None;
        }
        self.follow(table);
        self.bot.choose(table.position())
    }

    /// Chooses and plays the move of the side to move at `now`, thinking at its level but
    /// no longer than the table's clock recommends, or allows in a critical position (see
    /// [`crate::Clock::ai_budget`] and [`crate::ThinkBudget::limits`]).
    pub fn play(&mut self, table: &mut Table<G>, now: Millis) -> Result<G::Move, TableError> {
        let over = || TableError::Over(table.ending_text().unwrap_or_default());
        if table.ending().is_some() {
            return Err(over());
        }
        let (limit, extra) = match table.clock().ai_budget(now) {
            Some(budget) => {
                let (limit, extra) = budget.limits();
                (Some(limit), extra)
            }
            None => (None, Duration::ZERO),
        };
        self.follow(table);
        let mv = self
            .bot
            .choose_by_clock(table.position(), limit, extra)
            .ok_or_else(over)?;
        table.play_move(table.ply(), &mv, now)?;
        Ok(mv)
    }

    /// Has the bot follow the table's game so far, takebacks included, so that it knows
    /// where its board's book leads.
    fn follow(&mut self, table: &Table<G>) {
        let course = Course::replay(table.start(), table.moves());
        debug_assert!(course.is_ok(), "a table holds only legal moves");
        if let Ok(course) = course {
            self.bot.follow(course);
        }
    }
}

/// One AI move, thought afresh: what a server asks for, holding no search between moves.
/// A position proven won on a board with a book is played from it
/// ([`AnyPosition::ai_move`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AiRequest {
    /// The strength level.
    pub level: Level,
    /// Think no longer than this, whatever the level's budget (a clock's share).
    pub limit: Option<Duration>,
    /// How much longer it may think when `limit` cut its search short with the best move
    /// still unsettled (a critical position; [`crate::ThinkBudget::limits`]).
    pub extra: Duration,
    /// The seed of the search's random choices.
    pub seed: u64,
    /// The search tree stops growing at this many nodes, which bounds its memory.
    pub max_nodes: usize,
}

impl AiRequest {
    /// The search this request asks for on `position`, and its budget: the level's (one
    /// thread, every core at level 9, which a server never offers), the tree capped at
    /// `max_nodes`, no longer than `limit`.
    pub(crate) fn search<G: Playable>(&self, position: &G) -> (Mcts<G>, Budget) {
        let config = swapboard_ai::Config {
            max_nodes: self.max_nodes,
            ..self.level.config::<G>(self.seed)
        };
        let mut budget = self.level.budget::<G>();
        if let Some(limit) = self.limit {
            budget.time = Some(budget.time.map_or(limit, |t| t.min(limit)));
        }
        (Mcts::new(position.clone(), config), budget)
    }
}

/// An AI move in a game known by its moves ([`AnyPosition::ai_move`]).
struct AiMoveInGame<'a> {
    request: AiRequest,
    moves: &'a [String],
}

impl PositionFn for AiMoveInGame<'_> {
    type Output = Result<Option<String>, MoveError>;

    fn call<G: Playable>(self, start: &G) -> Result<Option<String>, MoveError> {
        let course = Course::replay_texts(start, self.moves)?;
        let position = course.position();
        if position.outcome().is_some() {
            return Ok(None);
        }
        // A position off the book is given to the solver for half the time at most; the
        // search has what is left.
        let started = Instant::now();
        if let Some(mv) = course.proven_move(position, self.request.limit.map(|l| l / 2)) {
            return Ok(Some(mv.to_string()));
        }
        let request = AiRequest {
            limit: self
                .request
                .limit
                .map(|l| l.saturating_sub(started.elapsed()).max(MIN_LIMIT)),
            ..self.request
        };
        let (mut search, budget) = request.search(position);
        search.think_extended(&budget, request.extra);
        Ok(search.best_move().map(|mv| mv.to_string()))
    }
}

impl AnyPosition {
    /// The move the AI chooses for the side to move in the game that began at this
    /// position and went on with `moves` (as the contract writes them), or `None` when the
    /// game is over; an error names a move that cannot be played where it was. Knowing the
    /// game and not only its position, it knows where its board's book leads (a proven
    /// win is played from it). One search thread; memory bounded by `request.max_nodes`.
    pub fn ai_move(
        &self,
        moves: &[String],
        request: AiRequest,
    ) -> Result<Option<String>, MoveError> {
        self.visit(AiMoveInGame { request, moves })
    }
}

/// A seat's name in records and on screen: the person's name, or the AI's player spec
/// (`mcts:level=5`).
pub fn seat_name(seat: &Seat) -> String {
    match seat {
        Seat::Person(name) => name.clone(),
        Seat::Ai(level) => match Level::new(*level) {
            Some(level) => PlayerSpec::level(level).to_string(),
            None => format!("ai level {level}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use swapboard_core::{Game, Outcome, Player};
    use swapboard_swaptimum::Swaptimum;

    use super::*;
    use crate::{Seat, TimeControl, UndoPolicy};

    #[test]
    fn the_ai_plays_legal_moves_to_the_end_and_wins_a_won_game() {
        let pos = Swaptimum::start(5).unwrap();
        let mut table = Table::new(
            pos.clone(),
            [Seat::Ai(1), Seat::Ai(1)],
            TimeControl::None,
            UndoPolicy::Allowed,
            Millis(0),
        );
        let mut ai = Opponent::new(Level::MIN, &pos, 1);
        while table.ending().is_none() {
            assert!(table.ai_to_move());
            ai.play(&mut table, Millis(0)).unwrap();
        }
        // Red, the winner of the 5x5 book's strategy, plays it and the live solver after.
        assert_eq!(
            table.position().outcome(),
            Some(Outcome::Win(Player::First))
        );
        assert!(ai.hint(&table).is_none());
        assert_eq!(seat_name(table.seat(Player::First)), "mcts:level=1");
    }

    #[test]
    fn a_one_shot_ai_move_is_legal_in_every_game() {
        for game in crate::GameId::ALL {
            let start = AnyPosition::start(game, game.default_size()).unwrap();
            let request = AiRequest {
                level: Level::MIN,
                limit: Some(Duration::from_secs(5)),
                extra: Duration::ZERO,
                seed: 3,
                max_nodes: 10_000,
            };
            let text = start
                .ai_move(&[], request)
                .unwrap()
                .expect("the game has just begun");
            let mut after = start.clone();
            after.play_text(&text).unwrap();
            assert_eq!(after.to_string().split(' ').next(), Some(game.as_str()));
        }
    }

    /// On a live clock the AI thinks no longer than the clock recommends, even at a level
    /// that would think for seconds.
    #[test]
    fn the_clock_bounds_the_ai() {
        let pos = Swaptimum::start(9).unwrap();
        let control = TimeControl::live_seconds(2, 0).unwrap();
        let mut table = Table::new(
            pos.clone(),
            [Seat::Ai(8), Seat::Person("ann".into())],
            control,
            UndoPolicy::Forbidden,
            Millis(0),
        );
        let mut ai = Opponent::new(Level::MAX, &pos, 1);
        let started = std::time::Instant::now();
        ai.play(&mut table, Millis(0)).unwrap();
        // 2 s left: 80 ms recommended; a level-8 search alone would take far longer.
        assert!(
            started.elapsed().as_millis() < 1_000,
            "{:?}",
            started.elapsed()
        );
        assert_eq!(table.ply(), 1);
    }
}
