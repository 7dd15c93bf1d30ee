//! The lessons (issue 25): for each two-player game a short course of steps, each a small
//! prepared position and a task, which a learner does by playing one move on the real
//! board. One source per game (`lessons/<game>.rs`) holds the positions, the tasks, what
//! counts as done and the words; every front end reads them from here, and the engine
//! judges each attempt ([`Step::judge`]): a move the rules refuse gets the rule's refusal,
//! a legal move that misses the task gets the step's reason.
//!
//! The tests (`tests/lessons.rs`) play every step's solution and its example of a wrong move
//! through the engine, so a lesson cannot claim what the rules do not do.

mod flipstop;
mod rapid_transit;
mod scware;
mod swaptimum;

use swapboard_core::{MoveError, Outcome, Rule};

use crate::game::Playable;
use crate::position::PositionFn;
use crate::puzzles;
use crate::rules::Claim;
use crate::{AnyPosition, GameId};

/// A game's lesson.
#[derive(Debug)]
pub struct Lesson {
    /// The game taught.
    pub game: GameId,
    /// What the lesson teaches, in a sentence or two.
    pub intro: &'static str,
    /// The steps, in order.
    pub steps: &'static [Step],
}

/// One step of a lesson: a position, a task, and what counts as doing it.
#[derive(Debug)]
pub struct Step {
    /// A short title (`Swap the crosscut away`).
    pub title: &'static str,
    /// The position, in the contract's text; the learner moves for the player to move.
    pub position: &'static str,
    /// What to do, in words.
    pub task: &'static str,
    /// What counts as done.
    pub goal: Goal,
    /// Said when the task is done: why the move does it.
    pub done: &'static str,
    /// Said for a legal move that does not do the task: why not.
    pub miss: &'static str,
    /// A move that does the task (checked by the tests; shown to a learner who asks).
    pub solution: &'static str,
    /// A move that does not, and which the rules refuse or the goal rejects (checked by
    /// the tests).
    pub wrong: &'static str,
    /// What the step's words claim about its position (the task's facts, why the solution
    /// does it), each checked through the engine by the tests, as the rules' diagrams are.
    pub claims: &'static [Claim],
}

/// What counts as doing a step's task.
#[derive(Debug, Clone, Copy)]
pub enum Goal {
    /// Any legal move: the task is to find one the rules allow.
    Legal,
    /// A move that wins at once for the player who makes it.
    Wins,
    /// One of these moves, each written as the contract prints it.
    OneOf(&'static [&'static str]),
}

/// Every game's lesson, in [`GameId::ALL`]'s order.
pub static ALL: [&Lesson; 4] = [
    &swaptimum::LESSON,
    &flipstop::LESSON,
    &scware::LESSON,
    &rapid_transit::LESSON,
];

/// The lesson of a game.
pub fn of(game: GameId) -> &'static Lesson {
    ALL.into_iter()
        .find(|lesson| lesson.game == game)
        .expect("every game of GameId::ALL has a lesson (tests/lessons.rs)")
}

/// The engine's judgement of a move played in a step.
#[derive(Debug, Clone)]
pub struct Attempt {
    /// Whether the move does the task.
    pub done: bool,
    /// Why, in words: the step's explanation, or the rule's refusal.
    pub why: String,
    /// The move as the contract prints it, when the rules allow it.
    pub mv: Option<String>,
    /// The rule a refused move breaks.
    pub rule: Option<Rule>,
    /// The position after the move and the passes the rules then force, when it is legal.
    pub after: Option<AnyPosition>,
    /// For a move that misses a step whose task is to win: the other side's answer as the
    /// solver finds it (within [`ANSWER_NODES`]), and the position after it and the passes
    /// the rules then force, so that a page shows the refutation on the board.
    pub answer: Option<(String, AnyPosition)>,
}

/// The solver's budget, in nodes, for the answer to a missed win: never seconds, so that a
/// lesson answers alike on any machine. The lessons' boards are small; a position the
/// solver does not settle within it gets no answer.
pub const ANSWER_NODES: u64 = 200_000;

/// The solver's best answer from a position, and the position after it (a [`PositionFn`]).
struct Answer;

impl PositionFn for Answer {
    type Output = Option<(String, AnyPosition)>;

    fn call<G: Playable>(self, position: &G) -> Self::Output {
        let mut solver = puzzles::solver::<G>(ANSWER_NODES);
        let mv = puzzles::best_move(&mut solver, position)?;
        let mut after = position.clone();
        after.play_unchecked(&mv);
        let mut after = after.erase();
        after.play_forced_passes(|_, _| {});
        Some((mv.to_string(), after))
    }
}

impl Step {
    /// The step's position.
    ///
    /// # Panics
    ///
    /// If the position does not read: the tests read every step of [`ALL`].
    pub fn start(&self) -> AnyPosition {
        self.position
            .parse()
            .unwrap_or_else(|e| panic!("the lesson's position {:?} is refused: {e}", self.position))
    }

    /// Plays `mv` in the step's position and says whether it does the task, and why.
    pub fn judge(&self, mv: &str) -> Attempt {
        let mut position = self.start();
        let mover = position.to_move();
        let played = match position.play_text(mv) {
            Ok(played) => played,
            Err(refusal) => {
                let rule = match &refusal {
                    MoveError::Illegal { reason, .. } => Some(reason.rule),
                    MoveError::Unreadable { .. } => None,
                };
                return Attempt {
                    done: false,
                    why: refusal.to_string(),
                    mv: None,
                    rule,
                    after: None,
                    answer: None,
                };
            }
        };
        position.play_forced_passes(|_, _| {});
        let done = match self.goal {
            Goal::Legal => true,
            Goal::Wins => position.outcome() == Some(Outcome::Win(mover)),
            Goal::OneOf(moves) => moves.contains(&played.as_str()),
        };
        let answer = match self.goal {
            Goal::Wins if !done && position.outcome().is_none() => position.visit(Answer),
            _ => None,
        };
        let mut why = if done {
            self.done.to_owned()
        } else {
            self.why_not(&played, &position)
        };
        if let Some((reply, after)) = &answer {
            let other = position.colour_name(mover.other());
            match after.outcome_words() {
                Some(words) => why.push_str(&format!(" {other} answers {reply}: {words}.")),
                None => why.push_str(&format!(" {other} answers {reply}.")),
            }
        }
        Attempt {
            done,
            why,
            mv: Some(played),
            rule: None,
            after: Some(position),
            answer,
        }
    }

    /// Why a legal move misses the task, as the engine sees it: what the move did, then
    /// what came of it (a win handed to the opponent, or a win where the task asked for
    /// something else), then the step's reason.
    fn why_not(&self, played: &str, after: &AnyPosition) -> String {
        let start = self.start();
        let mover = start.to_move();
        let did = start
            .describe_move(played)
            .unwrap_or_else(|| played.to_owned());
        match (after.outcome(), after.outcome_words()) {
            (Some(Outcome::Win(winner)), Some(words)) if winner != mover => {
                format!("{did}. That hands the game to the other side: {words}.")
            }
            (Some(_), Some(words)) => {
                format!("{did}. That ends the game ({words}), but not as the task asks.")
            }
            _ => format!("{did}. {}", self.miss),
        }
    }
}
