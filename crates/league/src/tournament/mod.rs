//! Tournaments, pure: who plays whom, with which colour, and the standings.
//!
//! - [`divisions`] and [`double_round_robin`]: divisions of at most 10 seeded by rating, each
//!   a double round robin (each pair twice, once with each colour) scheduled in rounds by the
//!   circle method.
//! - [`swiss_round`]: the next Swiss round from the rounds played (by score then rating, no
//!   rematch, colour difference at most 1, a one-point bye when the field is odd).
//! - [`standings`]: 1 point a win (and a bye), 1/2 a draw, ties broken by Sonneborn-Berger, then by games
//!   won as the second player, then by rating.
//!
//! Players are any ordered key `P` (an account id or name); every type is serde-ready so a
//! server can store rounds as they are and pass them back.

mod matching;
mod round_robin;
mod standings;
mod swiss;

use serde::{Deserialize, Serialize};

pub use round_robin::{MAX_DIVISION, divisions, double_round_robin};
pub use standings::{Standing, standings};
pub use swiss::{MAX_SEARCH_NODES, swiss_round};

use crate::{Error, check};

/// Most players a tournament may have; keeps every computation here small (a Swiss round
/// checks perfect matchings, O(n^3) each).
pub const MAX_PLAYERS: usize = 500;

/// A player and the rating used for seeding, pairing order and the last tie-break.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entrant<P> {
    /// The player.
    pub player: P,
    /// Their rating in the tournament's game at the start.
    pub rating: f64,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// The first player (who moves first) won.
    First,
    /// The second player won.
    Second,
    /// Drawn: half a point each. Rare, but the rulings allow it (neither player has a legal
    /// move; in Rapid Transit, equal networks and nobody ever swapped).
    Draw,
}

/// One game of a round. A forfeit (a withdrawn player's remaining games) is stored as a win
/// for the player present.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Game<P> {
    /// Plays first.
    pub first: P,
    /// Plays second.
    pub second: P,
    /// How it ended, once it has.
    pub result: Option<GameResult>,
}

/// A round: its games and, in a Swiss with an odd field, the player with the one-point bye.
/// (In a round robin with an odd division, who sits out is simply absent: no point.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round<P> {
    /// From 1.
    pub number: u32,
    /// The games.
    pub games: Vec<Game<P>>,
    /// The bye, worth one point.
    pub bye: Option<P>,
}

/// Checks a field: size within `min..=MAX_PLAYERS`, ratings finite, nobody twice.
fn check_field<P: Ord + std::fmt::Debug>(
    entrants: &[Entrant<P>],
    what: &'static str,
    min: usize,
) -> Result<(), Error> {
    if !(min..=MAX_PLAYERS).contains(&entrants.len()) {
        return Err(Error::FieldSize {
            what,
            min,
            max: MAX_PLAYERS,
            got: entrants.len(),
        });
    }
    let mut seen = std::collections::BTreeSet::new();
    for entrant in entrants {
        let (rating, allowed) = (entrant.rating, -1e5..=1e5);
        check(
            || format!("{:?}'s rating", entrant.player),
            rating,
            allowed,
            "from -100000 to 100000",
        )?;
        if !seen.insert(&entrant.player) {
            return Err(Error::Tournament(format!(
                "{:?} is entered twice",
                entrant.player
            )));
        }
    }
    Ok(())
}

/// Orders entrants strongest first: rating, then the player key so equal ratings still give
/// one order.
fn by_rating<P: Ord>(a: &Entrant<P>, b: &Entrant<P>) -> std::cmp::Ordering {
    b.rating
        .total_cmp(&a.rating)
        .then_with(|| a.player.cmp(&b.player))
}
