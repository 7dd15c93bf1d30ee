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

    /// The size bands of its ratings, smallest first: one Glicko-2 pool each (docs/RATINGS.md
    /// says why these limits). Together they cover [`GameId::sizes`] without overlap.
    pub fn bands(self) -> [(Band, RangeInclusive<usize>); 3] {
        let [small, standard] = match self {
            // 9 is the usual board; up to 7 is a quick game (and 3-5 are proven).
            GameId::Swaptimum | GameId::Flipstop => [7, 11],
            // 11 is the usual board.
            GameId::Scware => [8, 13],
            // Even sides only: 4-6, 8-10 (8 the usual), 12-16.
            GameId::RapidTransit => [6, 10],
        };
        let sizes = self.sizes();
        [
            (Band::Small, *sizes.start()..=small),
            (Band::Standard, small + 1..=standard),
            (Band::Large, standard + 1..=*sizes.end()),
        ]
    }

    /// The band of ratings a game on side `size` counts in (a size past the game's sizes
    /// falls in the nearest band).
    pub fn band_of(self, size: usize) -> Band {
        let [(_, small), (_, standard), _] = self.bands();
        if size <= *small.end() {
            Band::Small
        } else if size <= *standard.end() {
            Band::Standard
        } else {
            Band::Large
        }
    }

    /// The smallest and largest side of `band` that the game is played on (Rapid
    /// Transit's standard band 7-10 is played on 8 and 10).
    pub fn band_sizes(self, band: Band) -> [usize; 2] {
        let [small, standard, large] = self.bands().map(|(_, sizes)| sizes);
        let range = match band {
            Band::Small => small,
            Band::Standard => standard,
            Band::Large => large,
        };
        let mut playable = range.clone().filter(|&n| self.playable(n));
        let min = playable.next().unwrap_or(*range.start());
        [min, playable.next_back().unwrap_or(min)]
    }

    /// Whether the engine starts a game on side `size`.
    fn playable(self, size: usize) -> bool {
        self.sizes().contains(&size) && AnyPosition::start(self, size).is_ok()
    }

    /// Whether the solver has proved who wins from the start on side `size` (the fact is the
    /// solver's: [`swapboard_solver::Book::proves_start`]). Such a game is never rated.
    pub fn proven(self, size: usize) -> bool {
        swapboard_solver::Book::proves_start(self.as_str(), size)
    }

    /// What a page needs to offer this game: its names and author, the board sizes its
    /// engine accepts, its usual size and its colours, all read from the engine; the sizes
    /// proven from the start and the ratings' bands.
    pub fn catalogue_entry(self) -> CatalogueEntry {
        let facts = self.run(Constants);
        let sizes: Vec<usize> = facts.sizes.filter(|&n| self.playable(n)).collect();
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
            proven_sizes: sizes.iter().copied().filter(|&n| self.proven(n)).collect(),
            sizes,
            default_size: facts.default_size,
            colours: facts.colours,
            bands: Band::ALL
                .map(|band| BandEntry {
                    band,
                    sizes: self.band_sizes(band),
                })
                .to_vec(),
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
    /// The sides whose result the solver has proved from the start: never rated.
    pub proven_sizes: Vec<usize>,
    /// The size bands of the ratings, smallest first.
    pub bands: Vec<BandEntry>,
}

/// One size band of a game's ratings, as the catalogue gives it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BandEntry {
    /// The band.
    pub band: Band,
    /// Its smallest and largest side.
    pub sizes: [usize; 2],
}

/// A band of board sizes of one game: its ratings keep one Glicko-2 pool per band
/// ([`GameId::bands`]), since skill on a 5x5 board says little of skill on a 19x19 one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Band {
    /// The quick boards.
    Small,
    /// Around the game's usual board.
    Standard,
    /// The long games.
    Large,
}

impl Band {
    /// Every band, smallest boards first.
    pub const ALL: [Band; 3] = [Band::Small, Band::Standard, Band::Large];

    /// Its word in the API and the database (`small`, `standard`, `large`).
    pub fn as_str(self) -> &'static str {
        match self {
            Band::Small => "small",
            Band::Standard => "standard",
            Band::Large => "large",
        }
    }
}

impl fmt::Display for Band {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Band {
    type Err = String;

    fn from_str(text: &str) -> Result<Band, String> {
        Band::ALL
            .into_iter()
            .find(|b| b.as_str() == text)
            .ok_or_else(|| format!("unknown band '{text}' (known bands: small, standard, large)"))
    }
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
        assert_eq!(catalogue()[0].proven_sizes, [3, 4, 5]);
        assert_eq!(catalogue()[1].proven_sizes, [3, 4]);
        assert!(catalogue()[2].proven_sizes.is_empty());
        assert_eq!(
            rapid.bands.iter().map(|b| b.sizes).collect::<Vec<_>>(),
            [[4, 6], [8, 10], [12, 16]]
        );
    }

    /// The bands cover each game's sizes once, in order; the usual size is standard.
    #[test]
    fn bands_cover_every_size_once() {
        for id in GameId::ALL {
            let bands = id.bands();
            assert_eq!(bands[0].1.start(), id.sizes().start());
            assert_eq!(bands[2].1.end(), id.sizes().end());
            for pair in bands.windows(2) {
                assert_eq!(pair[0].1.end() + 1, *pair[1].1.start(), "{id}");
            }
            for (band, sizes) in bands {
                assert!(!sizes.is_empty(), "{id} {band}");
                for size in sizes.clone() {
                    assert_eq!(id.band_of(size), band, "{id} {size}");
                }
                let [min, max] = id.band_sizes(band);
                assert!(sizes.contains(&min) && sizes.contains(&max) && min <= max);
                assert!(AnyPosition::start(id, min).is_ok() && AnyPosition::start(id, max).is_ok());
                assert_eq!(band.as_str().parse::<Band>(), Ok(band));
            }
            assert_eq!(id.band_of(id.default_size()), Band::Standard, "{id}");
        }
        assert!(
            "huge"
                .parse::<Band>()
                .unwrap_err()
                .contains("small, standard, large")
        );
        assert_eq!(
            GameId::of_position("rapid-transit ... R"),
            Ok(GameId::RapidTransit)
        );
    }
}
