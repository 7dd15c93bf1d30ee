//! The games a deployment offers (`serve --games`): every game by default. An operator
//! leaves out a game it has no permission to run in public (Phil Leduc's sheet reserves the
//! rights to program Rapid Transit, for one: docs/DEPLOY.md). A game left out is not in the
//! catalogue, and nothing new of it can be made or read (games, tournaments, rules pages,
//! lessons, puzzles; rooms for Swap 61); games already stored stay readable.

use std::str::FromStr;

use swapboard_play::GameId;

use crate::error::{ApiError, ApiResult};

/// The name of Swap 61 (rooms) in `--games`.
const SWAP61: &str = "swap61";

/// The games a server offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offered {
    /// The two-player games, in the catalogue's order.
    games: Vec<GameId>,
    /// Whether Swap 61 rooms are offered.
    rooms: bool,
}

impl Default for Offered {
    fn default() -> Self {
        Offered {
            games: GameId::ALL.to_vec(),
            rooms: true,
        }
    }
}

impl FromStr for Offered {
    type Err = String;

    /// A comma-separated list of games (`swaptimum,flipstop,scware,rapid-transit,swap61`).
    fn from_str(text: &str) -> Result<Offered, String> {
        let mut offered = Offered {
            games: Vec::new(),
            rooms: false,
        };
        for name in text.split(',').map(str::trim) {
            if name == SWAP61 {
                offered.rooms = true;
                continue;
            }
            let game: GameId = name.parse().map_err(|_| {
                let known: Vec<&str> = GameId::ALL.iter().map(|g| g.as_str()).collect();
                format!(
                    "{name:?} is no game: expected some of {}, {SWAP61}",
                    known.join(", ")
                )
            })?;
            if !offered.games.contains(&game) {
                offered.games.push(game);
            }
        }
        // Kept in the catalogue's order, whatever the list's.
        offered
            .games
            .sort_by_key(|g| GameId::ALL.iter().position(|all| all == g));
        if offered.games.is_empty() && !offered.rooms {
            return Err("no game left: name at least one".to_owned());
        }
        Ok(offered)
    }
}

impl Offered {
    /// Whether `game` is offered.
    pub(crate) fn has(&self, game: GameId) -> bool {
        self.games.contains(&game)
    }

    /// Whether the game of this id (a two-player game's, or `swap61`) is offered.
    pub(crate) fn has_id(&self, id: &str) -> bool {
        if id == SWAP61 {
            self.rooms
        } else {
            id.parse().is_ok_and(|game| self.has(game))
        }
    }

    /// The offered two-player games, in the catalogue's order.
    pub(crate) fn games(&self) -> &[GameId] {
        &self.games
    }

    /// `game` if it is offered, else 404 naming it.
    pub(crate) fn check(&self, game: GameId) -> ApiResult<GameId> {
        if self.has(game) {
            Ok(game)
        } else {
            Err(ApiError::NotFound(format!(
                "this server does not offer {}",
                game.as_str()
            )))
        }
    }

    /// Ok when Swap 61 rooms are offered, else 404.
    pub(crate) fn check_rooms(&self) -> ApiResult<()> {
        if self.rooms {
            Ok(())
        } else {
            Err(ApiError::NotFound(
                "this server does not offer Swap 61 rooms".to_owned(),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_keeps_the_catalogue_order_and_refuses_unknown_or_empty_lists() {
        let offered: Offered = "scware, swaptimum,swap61,scware".parse().unwrap();
        assert_eq!(offered.games(), [GameId::Swaptimum, GameId::Scware]);
        assert!(offered.check_rooms().is_ok());
        assert!(offered.check(GameId::RapidTransit).is_err());
        let no_rooms: Offered = "flipstop".parse().unwrap();
        assert!(no_rooms.check_rooms().is_err());
        let err = "flipstop,chess".parse::<Offered>().unwrap_err();
        assert!(err.contains("\"chess\" is no game"), "{err}");
        assert!("".parse::<Offered>().is_err());
        assert_eq!(Offered::default().games(), GameId::ALL);
    }
}
