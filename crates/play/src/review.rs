//! A game replayed from its stored moves, to show it: the board after any ply, what each move
//! did, the record. A server keeps a game as its start, its moves and its ending; this turns
//! them back into what a viewer asks for, without knowing the game at compile time.

use swapboard_core::BoardView;

use crate::clock::{Millis, TimeControl};
use crate::game::Playable;
use crate::position::{AnyPosition, PositionFn};
use crate::record::GameRecord;
use crate::table::{Seat, Table, TableError, UndoPolicy};
use crate::words::{Ending, ending_text};

/// A game replayed to its last stored move (see [`AnyPosition::replay`]).
pub trait Review: Send + Sync {
    /// The number of moves.
    fn ply(&self) -> usize;

    /// The board after `ply` moves with what the move before it changed marked; `None`
    /// past the last move.
    fn view_at(&self, ply: usize) -> Option<BoardView>;

    /// What move `k` (from 0) did, in words.
    fn describe(&self, k: usize) -> Option<String>;

    /// The colour letter of the player who made move `k` (from 0).
    fn mover_letter(&self, k: usize) -> Option<char>;

    /// The move `k` (from 0) as the contract writes it.
    fn move_text(&self, k: usize) -> Option<String>;

    /// How the game ended, in words, once it has.
    fn ending_text(&self) -> Option<String>;

    /// The game's record (`docs/RECORDS.md`), dated `date` (`2026.11.23`).
    fn record(&self, date: &str) -> GameRecord;
}

impl<G: Playable> Review for Table<G> {
    fn ply(&self) -> usize {
        Table::ply(self)
    }

    fn view_at(&self, ply: usize) -> Option<BoardView> {
        Table::view_at(self, ply)
    }

    fn describe(&self, k: usize) -> Option<String> {
        Table::describe(self, k)
    }

    fn mover_letter(&self, k: usize) -> Option<char> {
        self.moves().get(k)?;
        let mover = self.position_at(k)?.to_move();
        Some(G::colour_letter(mover))
    }

    fn move_text(&self, k: usize) -> Option<String> {
        self.moves().get(k).map(ToString::to_string)
    }

    fn ending_text(&self) -> Option<String> {
        self.ending().map(ending_text::<G>)
    }

    fn record(&self, date: &str) -> GameRecord {
        Table::record(self, date)
    }
}

/// The replay of a start position (a [`PositionFn`]).
struct Replay<'a> {
    moves: &'a [String],
    seats: [Seat; 2],
    ending: Option<Ending>,
}

impl PositionFn for Replay<'_> {
    type Output = Result<Box<dyn Review>, TableError>;

    fn call<G: Playable>(self, start: &G) -> Self::Output {
        let mut table = Table::replaying(
            start.clone(),
            self.seats,
            TimeControl::None,
            UndoPolicy::Forbidden,
            Millis(0),
        );
        for (k, text) in self.moves.iter().enumerate() {
            table
                .play(k, text, Millis(0))
                .map_err(|e| TableError::Stored(format!("move {}: {e}", k + 1)))?;
        }
        if let Some(ending) = self.ending {
            table.end_off_the_board(ending);
        }
        Ok(Box::new(table))
    }
}

impl AnyPosition {
    /// The game that started here and went on with `moves`, between `seats`; `ending` is
    /// how it ended when the rules did not end it (a resignation, a timeout, an abort).
    pub fn replay(
        &self,
        moves: &[String],
        seats: [Seat; 2],
        ending: Option<Ending>,
    ) -> Result<Box<dyn Review>, TableError> {
        self.visit(Replay {
            moves,
            seats,
            ending,
        })
    }
}

#[cfg(test)]
mod tests {
    use swapboard_core::Player;

    use super::*;
    use crate::{GameId, Termination};

    fn seats() -> [Seat; 2] {
        [Seat::Person("ann".into()), Seat::Ai(3)]
    }

    #[test]
    fn a_replay_shows_every_ply_and_words_every_move() {
        let start = AnyPosition::start(GameId::Swaptimum, 5).unwrap();
        let moves = ["c3".to_owned(), "d4".to_owned()];
        let review = start.replay(&moves, seats(), None).unwrap();
        assert_eq!(review.ply(), 2);
        assert!(review.view_at(2).is_some());
        assert!(review.view_at(3).is_none());
        assert_eq!(review.mover_letter(0), Some('R'));
        assert_eq!(review.mover_letter(1), Some('B'));
        assert_eq!(review.mover_letter(2), None);
        assert_eq!(review.move_text(1).as_deref(), Some("d4"));
        assert!(review.describe(0).unwrap().contains("c3"));
        assert_eq!(review.ending_text(), None);
        let record = review.record("2026.11.24");
        assert_eq!(record.moves, moves);
        assert_eq!(record.tag("Players"), Some("ann vs mcts:level=3"));
    }

    #[test]
    fn an_ending_off_the_board_is_kept_and_a_bad_move_named() {
        let start = AnyPosition::start(GameId::Flipstop, 5).unwrap();
        let resigned = Ending {
            winner: Some(Player::Second),
            reason: Termination::Resigned,
        };
        let moves = ["c3".to_owned(), "d4".to_owned()];
        let review = start.replay(&moves, seats(), Some(resigned)).unwrap();
        assert!(review.ending_text().unwrap().contains("resign"));
        assert_eq!(
            review.record("2026.11.24").tag("Termination"),
            Some("resigned")
        );
        let bad = ["c3".to_owned(), "c3".to_owned()];
        let err = start.replay(&bad, seats(), None).err().unwrap();
        assert!(err.to_string().contains("move 2"), "{err}");
    }
}
