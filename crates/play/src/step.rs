//! How a game in progress goes on and ends outside a chosen move, decided once for every
//! front end ([`crate::Table`] for the terminal, and a server):
//!
//! - a pass the rules force: where a player's only legal move is a pass (Rapid Transit with
//!   no swap, Flipstop or Scware with no legal stone), it is played for them at once, as a
//!   ply like any other ([`play_forced_passes`], [`crate::AnyPosition::play_forced_passes`]);
//! - a move with its clock: too late once the mover's flag has fallen, else played by the
//!   rules and the clock pressed ([`judge`]);
//! - a game called off: before its second move nobody has really begun, so an abort is
//!   allowed then only ([`abortable`]), and where games are called off ([`Early::Abort`]) a
//!   resignation or a fallen flag then aborts the game instead of losing it
//!   ([`resignation`], [`flag_fall`]);
//! - a game decided by an administrator: whoever they name wins, or it is drawn, whatever
//!   the board says ([`adjudication`]).

use std::ops::ControlFlow;

use swapboard_core::{Game, MoveError, Player};

use crate::AnyPosition;
use crate::clock::{Clock, Millis};
use crate::words::{Ending, Termination};

/// The most forced passes in a row: two passes end a game in every game that has them, so
/// a third would mean an engine that never ends one.
const MAX_FORCED: usize = 2;

/// The pass the player to move must play, when it is their only legal move; `None` when they
/// have a choice or the game is over.
pub fn forced_pass<G: Game>(position: &G) -> Option<G::Move> {
    if position.outcome().is_some() {
        return None;
    }
    // Two moves are enough to know: a Scware position can have millions.
    let mut first = None;
    let mut count = 0;
    let _ = position.for_each_move(|m| {
        count += 1;
        if count > 1 {
            return ControlFlow::Break(());
        }
        first = Some(m);
        ControlFlow::Continue(())
    });
    first.filter(|only| count == 1 && G::is_pass(only))
}

/// Plays every pass the rules force from `position` on, calling `passed` with each pass and
/// the player who made it (a front end presses its clock and records the ply there).
pub fn play_forced_passes<G: Game>(position: &mut G, mut passed: impl FnMut(&G::Move, Player)) {
    for _ in 0..MAX_FORCED {
        let Some(pass) = forced_pass(position) else {
            return;
        };
        let mover = position.to_move();
        position.play_unchecked(&pass);
        passed(&pass, mover);
    }
}

/// Whether a game at `ply` may still be called off: before its second move.
pub fn abortable(ply: usize) -> bool {
    ply < 2
}

/// How a game ends off the board while it is still [`abortable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Early {
    /// Called off, nobody wins: a server's games, where two people (or a person and the AI)
    /// agreed to play and nobody has really begun.
    Abort,
    /// Lost like any later game: a table at the terminal, often set up from a position
    /// whose first move already counts.
    Lose,
}

/// How a game at `ply` ends when `player` gives it up: aborted while [`abortable`] where
/// games are so called off (nobody wins), else resigned (the other player wins).
pub fn resignation(ply: usize, player: Player, early: Early) -> Ending {
    off_the_board(ply, player, Termination::Resigned, early)
}

/// How a game at `ply` ends when `player`'s time runs out: aborted while [`abortable`]
/// where games are so called off, else lost on time.
pub fn flag_fall(ply: usize, player: Player, early: Early) -> Ending {
    off_the_board(ply, player, Termination::Timeout, early)
}

/// How a game ends when an administrator decides it: `winner` wins, or nobody (`None`: a
/// draw), at any ply; unlike a resignation it is never turned into an abort.
pub fn adjudication(winner: Option<Player>) -> Ending {
    Ending {
        winner,
        reason: Termination::Adjudicated,
    }
}

fn off_the_board(ply: usize, loser: Player, reason: Termination, early: Early) -> Ending {
    if early == Early::Abort && abortable(ply) {
        Ending {
            winner: None,
            reason: Termination::Aborted,
        }
    } else {
        Ending {
            winner: Some(loser.other()),
            reason,
        }
    }
}

/// What a step needs of a position: whose turn it is, how the rules ended it, and a move
/// checked and played. One game's positions ([`Game`]) and any game's ([`AnyPosition`],
/// whose moves are texts) both are.
pub trait Turns: Clone {
    /// A move of this position.
    type Move: ?Sized;

    /// The player whose turn it is.
    fn mover(&self) -> Player;

    /// How the rules ended the game here, if they have.
    fn rules_ending(&self) -> Option<Ending>;

    /// Checks `mv` by the rules and plays it.
    fn play_checked(&mut self, mv: &Self::Move) -> Result<(), MoveError>;
}

impl<G: Game> Turns for G {
    type Move = G::Move;

    fn mover(&self) -> Player {
        self.to_move()
    }

    fn rules_ending(&self) -> Option<Ending> {
        self.outcome().map(Ending::of_outcome)
    }

    fn play_checked(&mut self, mv: &G::Move) -> Result<(), MoveError> {
        self.check_move(mv).map_err(|reason| MoveError::Illegal {
            text: mv.to_string(),
            reason,
        })?;
        self.play_unchecked(mv);
        Ok(())
    }
}

impl Turns for AnyPosition {
    type Move = str;

    fn mover(&self) -> Player {
        self.to_move()
    }

    fn rules_ending(&self) -> Option<Ending> {
        self.outcome().map(Ending::of_outcome)
    }

    fn play_checked(&mut self, text: &str) -> Result<(), MoveError> {
        self.play_text(text).map(drop)
    }
}

/// A move [`judge`] let through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved<P> {
    /// The position after the move.
    pub position: P,
    /// The clock pressed for the next player and the time the move took, in a game with a
    /// clock.
    pub clock: Option<(Clock, Millis)>,
    /// How the rules ended the game with this move, if they did.
    pub ending: Option<Ending>,
}

/// Why [`judge`] did not play a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// The mover's time ran out before the move came: the game ends so instead, whatever
    /// the move was.
    OutOfTime(Ending),
    /// The rules forbid the move, or the text is no move of this game.
    Rules(MoveError),
}

/// Judges `mv`, made at `now` in a game at `ply` whose clock is `clock` (`None`: the game
/// has none): the clock first (a move after the mover's flag fell is too late, and the
/// game ends as [`flag_fall`] says), then the rules, then the clock pressed for the next
/// player. Every front end plays a chosen move through here.
pub fn judge<P: Turns>(
    position: &P,
    mv: &P::Move,
    clock: Option<Clock>,
    ply: usize,
    now: Millis,
    early: Early,
) -> Result<Moved<P>, Refused> {
    let mover = position.mover();
    if clock.is_some_and(|c| c.flagged(now).is_some()) {
        return Err(Refused::OutOfTime(flag_fall(ply, mover, early)));
    }
    let mut next = position.clone();
    next.play_checked(mv).map_err(Refused::Rules)?;
    let clock = match clock {
        Some(mut clock) => {
            let took = clock
                .press(next.mover(), now)
                .map_err(|_| Refused::OutOfTime(flag_fall(ply, mover, early)))?;
            Some((clock, took))
        }
        None => None,
    };
    Ok(Moved {
        ending: next.rules_ending(),
        position: next,
        clock,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnyPosition;
    use swapboard_flipstop::Flipstop;

    /// Before the second move a resignation or a fallen flag calls the game off; after it,
    /// the other player wins.
    #[test]
    fn early_endings_abort_and_later_ones_lose() {
        let aborted = Ending {
            winner: None,
            reason: Termination::Aborted,
        };
        for ply in [0, 1] {
            assert!(abortable(ply));
            assert_eq!(resignation(ply, Player::First, Early::Abort), aborted);
            assert_eq!(flag_fall(ply, Player::Second, Early::Abort), aborted);
            assert_eq!(
                resignation(ply, Player::First, Early::Lose).reason,
                Termination::Resigned
            );
        }
        assert!(!abortable(2));
        assert_eq!(
            resignation(2, Player::First, Early::Abort),
            Ending {
                winner: Some(Player::Second),
                reason: Termination::Resigned
            }
        );
        assert_eq!(
            flag_fall(7, Player::Second, Early::Abort),
            Ending {
                winner: Some(Player::First),
                reason: Termination::Timeout
            }
        );
    }

    /// An administrator's decision stands at any ply, a draw included: it is never an abort.
    #[test]
    fn an_adjudication_names_the_winner_or_a_draw() {
        let won = adjudication(Some(Player::Second));
        assert_eq!(won.winner, Some(Player::Second));
        assert_eq!(won.reason, Termination::Adjudicated);
        assert_eq!(adjudication(None).winner, None);
        assert_eq!(adjudication(None).reason.as_str(), "adjudicated");
    }

    /// A move after the mover's flag fell is too late whatever it is, and the game ends as
    /// `flag_fall` says; one in time is checked by the rules, played, and the clock pressed.
    #[test]
    fn judge_checks_the_clock_then_the_rules_then_presses_the_clock() {
        use crate::clock::TimeControl;
        let start = AnyPosition::start(crate::GameId::Swaptimum, 5).unwrap();
        let control = TimeControl::live_seconds(10, 0).unwrap();
        let clock = Clock::new(control, Player::First, Millis(0));
        let moved = judge(&start, "c3", Some(clock), 0, Millis(4_000), Early::Abort).unwrap();
        let (pressed, took) = moved.clock.unwrap();
        assert_eq!(took, Millis(4_000));
        assert_eq!(pressed.running(), Player::Second);
        assert_eq!(moved.ending, None);
        assert_eq!(moved.position.to_move(), Player::Second);
        let refused = judge(&start, "z9", Some(clock), 0, Millis(1), Early::Abort);
        assert!(matches!(refused, Err(Refused::Rules(_))), "{refused:?}");
        assert_eq!(
            judge(&start, "z9", Some(clock), 0, Millis(10_000), Early::Abort),
            Err(Refused::OutOfTime(Ending {
                winner: None,
                reason: Termination::Aborted
            }))
        );
        assert_eq!(
            judge(&start, "c3", Some(clock), 0, Millis(10_000), Early::Lose),
            Err(Refused::OutOfTime(Ending {
                winner: Some(Player::Second),
                reason: Termination::Timeout
            }))
        );
        let untimed = judge(&start, "c3", None, 0, Millis(u64::MAX), Early::Abort).unwrap();
        assert_eq!(untimed.clock, None);
    }

    /// The ruling's Flipstop case: Blue's only move is a pass; Red has a choice.
    #[test]
    fn a_pass_is_forced_only_when_it_is_the_only_move() {
        let blue: Flipstop = "flipstop RRRB/BBRR/RR.R/BRRB B".parse().unwrap();
        let pass = forced_pass(&blue).expect("Blue must pass");
        assert!(Flipstop::is_pass(&pass));
        let red: Flipstop = "flipstop RRRB/BBRR/RR.R/BRRB R".parse().unwrap();
        assert_eq!(forced_pass(&red), None);
        assert_eq!(forced_pass(&Flipstop::start(5).unwrap()), None);
    }

    /// Random Rapid Transit games on 4x4: passes are forced along the way, each one the
    /// only legal move when played, and none is left unplayed after the call.
    #[test]
    fn forced_passes_are_played_until_a_choice_or_the_end() {
        use rand::SeedableRng;
        let mut forced = 0;
        for seed in 0..40 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut pos = AnyPosition::start(crate::GameId::RapidTransit, 4).unwrap();
            for _ in 0..300 {
                let before = pos.clone();
                let mut passes = Vec::new();
                pos.play_forced_passes(|text, who| passes.push((text.to_owned(), who)));
                assert!(passes.len() <= MAX_FORCED);
                if let Some((text, who)) = passes.first() {
                    assert_eq!(text, "pass");
                    assert_eq!(*who, before.to_move());
                    assert_eq!(before.legal_moves(2), Some(vec!["pass".to_owned()]));
                    forced += passes.len();
                }
                if pos.outcome().is_some() {
                    break;
                }
                let moves = pos.legal_moves(usize::MAX).unwrap();
                assert!(
                    moves.iter().any(|m| m != "pass"),
                    "{pos}: a pass left unplayed"
                );
                let k = rand::RngExt::random_range(&mut rng, 0..moves.len());
                pos.play_text(&moves[k]).unwrap();
            }
        }
        assert!(forced > 0, "no forced pass in 40 random games");
    }
}
