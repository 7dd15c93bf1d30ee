//! The games a deployment offers (`serve --games`): by default every game on a loopback
//! address, and on a public one every game but those whose authors reserve the right to
//! program them (Phil Leduc's Rapid Transit: docs/DEPLOY.md), which the operator names to
//! offer. A game left out is not in the
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

/// The games whose authors reserve the right to program them: a server offers them in
/// public only when its operator names them (Phil Leduc's sheet asks whoever programs Rapid
/// Transit to contact him for permission).
pub(crate) const RESERVED: &[GameId] = &[GameId::RapidTransit];

impl Offered {
    /// The games a server offers: the operator's list when one is named; otherwise every
    /// game on a loopback address (a developer's or the tests' server), and every game but
    /// the reserved ones (`RESERVED`) on an address others can reach.
    pub fn resolve(named: Option<&Offered>, loopback: bool) -> Offered {
        match named {
            Some(named) => named.clone(),
            None if loopback => Offered::default(),
            None => {
                let mut offered = Offered::default();
                offered.games.retain(|g| !RESERVED.contains(g));
                offered
            }
        }
    }

    /// What a starting server says of the reserved games: left out, or offered because the
    /// operator named them on a public address (a reminder to hold the author's
    /// permission). `None` where there is nothing to say.
    pub fn reserved_notice(&self, named: bool, loopback: bool) -> Option<String> {
        let names = |games: Vec<GameId>| -> String {
            games
                .iter()
                .map(|g| g.catalogue_entry().title)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let reserved: Vec<GameId> = RESERVED.to_vec();
        let (offered, left): (Vec<GameId>, Vec<GameId>) =
            reserved.into_iter().partition(|g| self.has(*g));
        if !left.is_empty() && !named {
            Some(format!(
                "not offering {}: its author reserves the right to program it; name it in \
                 --games once you have his permission (docs/DEPLOY.md)",
                names(left)
            ))
        } else if !offered.is_empty() && named && !loopback {
            Some(format!(
                "offering {} as --games names it: its author asks to be asked first; make sure \
                 you have his permission (docs/DEPLOY.md)",
                names(offered)
            ))
        } else {
            None
        }
    }

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
    fn rapid_transit_is_offered_in_public_only_when_named() {
        let public = Offered::resolve(None, false);
        assert!(!public.has(GameId::RapidTransit));
        assert!(public.has(GameId::Swaptimum) && public.has_id("swap61"));
        let notice = public.reserved_notice(false, false).unwrap();
        assert!(
            notice.contains("not offering Rapid Transit by Phil Leduc"),
            "{notice}"
        );
        // A developer's server on loopback offers every game, and says nothing.
        let local = Offered::resolve(None, true);
        assert_eq!(local, Offered::default());
        assert_eq!(local.reserved_notice(false, true), None);
        // Named on a public address: offered, with a reminder of the author's terms.
        let named: Offered = "rapid-transit,swaptimum".parse().unwrap();
        let offered = Offered::resolve(Some(&named), false);
        assert!(offered.has(GameId::RapidTransit));
        let notice = offered.reserved_notice(true, false).unwrap();
        assert!(notice.contains("offering Rapid Transit"), "{notice}");
        // A list that leaves it out says nothing more: the operator chose.
        let without: Offered = "swaptimum".parse().unwrap();
        assert_eq!(without.reserved_notice(true, false), None);
    }

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
