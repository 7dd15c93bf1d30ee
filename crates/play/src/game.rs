//! The games a table can hold, by id, and the dispatch from an id to generic code.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use swapboard_core::{Player, Stepwise};
use swapboard_flipstop::Flipstop;
use swapboard_rapid_transit::RapidTransit;
use swapboard_scware::Scware;
use swapboard_swaptimum::Swaptimum;

use crate::builder::Build;
use crate::position::AnyPosition;
use crate::words::Describe;

/// What a game needs for everything this crate offers: the rules, a search that can build
/// its turns ([`Stepwise`]), the cell-by-cell move builder ([`Build`]), its words ([`Describe`]), and a place in
/// [`AnyPosition`]. The four games of [`GameId::ALL`] are the implementations.
pub trait Playable: Stepwise + Build + Describe {
    /// The game's id.
    const GAME: GameId;

    /// The position, erased.
    fn erase(self) -> AnyPosition;

    /// The position, if `any` holds one of this game.
    fn unerase(any: &AnyPosition) -> Option<&Self>;
}

/// Generic code run for the game a [`GameId`] names (see [`GameId::run`]): a visitor, so
/// that each game's call is compiled for that game.
pub trait GameFn {
    /// What the code returns.
    type Output;

    /// Runs the code for game `G`.
    fn call<G: Playable>(self) -> Self::Output;
}

/// One of the board games of swapboard (Swap 61, played by 9-10 players with a game master,
/// is not a board game of two players and has no id here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameId {
    /// Swaptimum by Mark Steere.
    Swaptimum,
    /// Flipstop by Mark Steere.
    Flipstop,
    /// Scware by Christian Freeling.
    Scware,
    /// Rapid Transit by Phil Leduc.
    RapidTransit,
}

/// Why a game id was refused: it names no game; the message lists the known ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game '{given}' (known games: {})", GameId::ALL.map(GameId::as_str).join(", "))]
pub struct UnknownGame {
    /// The id as given.
    pub given: String,
}

impl GameId {
    /// Every game, in the order lists show them.
    pub const ALL: [GameId; 4] = [
        GameId::Swaptimum,
        GameId::Flipstop,
        GameId::Scware,
        GameId::RapidTransit,
    ];

    /// Runs `f` for this game's position type.
    pub fn run<F: GameFn>(self, f: F) -> F::Output {
        match self {
            GameId::Swaptimum => f.call::<Swaptimum>(),
            GameId::Flipstop => f.call::<Flipstop>(),
            GameId::Scware => f.call::<Scware>(),
            GameId::RapidTransit => f.call::<RapidTransit>(),
        }
    }

    /// The id in position texts, commands and the API (`rapid-transit`).
    pub fn as_str(self) -> &'static str {
        self.run(Constants).id
    }

    /// The game's name with its author's credit (`Scware by Christian Freeling (2012)`).
    pub fn title(self) -> &'static str {
        self.run(Constants).title
    }

    /// The board sizes the game can be played on (Rapid Transit: even sizes only).
    pub fn sizes(self) -> RangeInclusive<usize> {
        self.run(Constants).sizes
    }

    /// The board size of a new game when none is asked for.
    pub fn default_size(self) -> usize {
        self.run(Constants).default_size
    }

    /// What a page needs to offer this game: its names and author, the board sizes its
    /// engine accepts, its usual size and its colours, all read from the engine.
    pub fn catalogue_entry(self) -> CatalogueEntry {
        let facts = self.run(Constants);
        let (name, rest) = facts.title.split_once(" by ").unwrap_or((facts.title, ""));
        let (author, year) = match rest.split_once(" (") {
            Some((author, year)) => (author, year.trim_end_matches(')')),
            None => (rest, ""),
        };
        CatalogueEntry {
            id: self,
            name,
            author,
            year,
            title: facts.title,
            sizes: facts
                .sizes
                .filter(|&n| AnyPosition::start(self, n).is_ok())
                .collect(),
            default_size: facts.default_size,
            colours: facts.colours,
        }
    }

    /// The game a position text is of, read from its first word.
    pub fn of_position(text: &str) -> Result<GameId, UnknownGame> {
        text.split_whitespace().next().unwrap_or("").parse()
    }
}

/// A game as a page offers it ([`GameId::catalogue_entry`]): `GET /api/games/catalogue`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CatalogueEntry {
    /// The id of positions, commands and the API (`rapid-transit`).
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub id: GameId,
    /// The game's name (`Rapid Transit`).
    pub name: &'static str,
    /// Its author, credited wherever the game is offered (`Phil Leduc`).
    pub author: &'static str,
    /// The year(s) of its rule sheet (`2022/2024`).
    pub year: &'static str,
    /// The name with the credit (`Rapid Transit by Phil Leduc (2022/2024)`).
    pub title: &'static str,
    /// Every board side the engine accepts, smallest first.
    pub sizes: Vec<usize>,
    /// The side of a new game when none is asked for.
    pub default_size: usize,
    /// The colour names, the first player's first.
    pub colours: [&'static str; 2],
}

/// Every game of [`GameId::ALL`], as a page offers it.
pub fn catalogue() -> Vec<CatalogueEntry> {
    GameId::ALL.map(GameId::catalogue_entry).to_vec()
}

/// A game's constants, gathered by one dispatch.
struct Constants;

/// What [`Constants`] gathers.
struct Facts {
    id: &'static str,
    title: &'static str,
    sizes: RangeInclusive<usize>,
    default_size: usize,
    colours: [&'static str; 2],
}

impl GameFn for Constants {
    type Output = Facts;

    fn call<G: Playable>(self) -> Facts {
        Facts {
            id: G::ID,
            title: G::TITLE,
            sizes: G::sizes(),
            default_size: G::DEFAULT_SIZE,
            colours: Player::BOTH.map(G::colour_name),
        }
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameId {
    type Err = UnknownGame;

    fn from_str(text: &str) -> Result<GameId, UnknownGame> {
        GameId::ALL
            .into_iter()
            .find(|g| g.as_str() == text)
            .ok_or_else(|| UnknownGame {
                given: text.to_string(),
            })
    }
}

impl serde::Serialize for GameId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for GameId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<GameId, D::Error> {
        let text = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule code names only games a table can hold (a new game adds its id to both).
    #[test]
    fn every_rule_code_names_only_known_games() {
        for &rule in swapboard_core::Rule::ALL {
            for game in rule.games() {
                assert!(game.parse::<GameId>().is_ok(), "{rule} names {game}");
            }
        }
    }

    #[test]
    fn ids_round_trip_and_unknown_ones_list_the_games() {
        for id in GameId::ALL {
            assert_eq!(id.as_str().parse::<GameId>(), Ok(id));
            assert_eq!(id.to_string(), id.as_str());
            assert!(id.sizes().contains(&id.default_size()));
            let json = serde_json::to_string(&id).unwrap();
            assert_eq!(json, format!("\"{id}\""));
            assert_eq!(serde_json::from_str::<GameId>(&json).unwrap(), id);
        }
        assert_eq!(
            GameId::Scware.title(),
            "Scware by Christian Freeling (2012)"
        );
        let err = "chess".parse::<GameId>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown game 'chess' (known games: swaptimum, flipstop, scware, rapid-transit)"
        );
        assert!(serde_json::from_str::<GameId>("\"swap61\"").is_err());
        let rapid = GameId::RapidTransit.catalogue_entry();
        assert_eq!(
            (rapid.name, rapid.author, rapid.year),
            ("Rapid Transit", "Phil Leduc", "2022/2024")
        );
        assert_eq!(rapid.sizes, [4, 6, 8, 10, 12, 14, 16]);
        assert_eq!(rapid.colours, ["Red", "Cyan"]);
        for entry in catalogue() {
            assert!(
                !entry.author.is_empty() && !entry.year.is_empty(),
                "{entry:?}"
            );
            assert!(entry.sizes.contains(&entry.default_size), "{entry:?}");
            assert_eq!(entry.title, entry.id.title());
        }
        assert_eq!(catalogue()[2].colours, ["White", "Red"]);
        assert_eq!(
            GameId::of_position("rapid-transit ... R"),
            Ok(GameId::RapidTransit)
        );
    }
}
