//! The data a game starts from: players in seat order, the starting grid, and what each
//! round is played with. Loaded from a game file, or generated from a seed.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use crate::board::{
    Board, MAX_SEATS, MIN_SEATS, Node, Seat, TILES, Tile, WALLS_PER_SEAT, WILD_WALLS,
};
use crate::round::{LAST_ROUND, RoundSpec};
use crate::score::{Pair, Variation, check_pairs};

/// Why a setup was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

/// The fixed data of a game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Setup {
    /// The player names in the published seat order: `players[0]` sits in seat P1.
    pub players: Vec<String>,
    /// The grid when the pregame begins.
    pub start: Board,
    /// What rounds 0 (the pregame) to 5 are played with.
    pub rounds: Vec<RoundSpec>,
    /// The seed the setup was generated from, if it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

/// The sheet's variation for each round: none in the pregame, Theme, Corner Connection,
/// Node Network, Ultimate Seat Exchange, and Theme for the undescribed round 5.
pub const DEFAULT_VARIATIONS: [Variation; LAST_ROUND + 1] = [
    Variation::THEME,
    Variation::THEME,
    Variation::CORNERS,
    Variation::NETWORK,
    Variation::SEAT_EXCHANGE,
    Variation::THEME,
];

/// Checks a player name: printable, no spaces or commas (names are listed with commas),
/// at most 32 characters.
pub fn check_name(name: &str) -> Result<(), SetupError> {
    if name.is_empty() || name.chars().count() > 32 {
        return Err(SetupError(format!(
            "player name '{name}' must have 1 to 32 characters"
        )));
    }
    if name
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == ',' || c == '=')
    {
        return Err(SetupError(format!(
            "player name '{name}' may not hold spaces, commas, '=' or control characters"
        )));
    }
    Ok(())
}

impl Setup {
    /// Checks a setup: 9 or 10 distinct names, a grid for that many seats, six rounds with
    /// three pairs wherever pairs score, obeying the pairing rule.
    pub fn check(&self) -> Result<(), SetupError> {
        let n = self.players.len();
        if !(MIN_SEATS..=MAX_SEATS).contains(&n) {
            return Err(SetupError(format!(
                "{n} players: Swap 61 needs {MIN_SEATS} or {MAX_SEATS}"
            )));
        }
        for (i, name) in self.players.iter().enumerate() {
            check_name(name)?;
            if self.players[..i].contains(name) {
                return Err(SetupError(format!("player name '{name}' is given twice")));
            }
        }
        if self.start.seats() != n {
            return Err(SetupError(format!(
                "the grid has walls for {} seats but there are {n} players",
                self.start.seats()
            )));
        }
        if self.rounds.len() != LAST_ROUND + 1 {
            return Err(SetupError(format!(
                "{} rounds given, a game has the pregame and rounds 1-{LAST_ROUND}",
                self.rounds.len()
            )));
        }
        let mut left_out: Option<(usize, Vec<Node>)> = None;
        for (round, spec) in self.rounds.iter().enumerate() {
            let uses_pairs = round > 0 && spec.variation.uses_pairs();
            if !uses_pairs {
                if !spec.pairs.is_empty() {
                    return Err(SetupError(format!(
                        "round {round} scores no pairs but has pairs"
                    )));
                }
                continue;
            }
            if spec.pairs.len() != 3 {
                return Err(SetupError(format!(
                    "round {round} needs 3 pairs, has {}",
                    spec.pairs.len()
                )));
            }
            check_pairs(&spec.pairs).map_err(|e| SetupError(format!("round {round}: {e}")))?;
            let used: Vec<Node> = spec.pairs.iter().flat_map(|p| [p.0, p.1]).collect();
            if let Some((previous, nodes)) = &left_out
                && let Some(missing) = nodes.iter().find(|n| !used.contains(n))
            {
                return Err(SetupError(format!(
                    "round {round} leaves out {missing}, which round {previous} left out: the nodes left out of a round are paired in the next"
                )));
            }
            left_out = Some((round, Node::all().filter(|n| !used.contains(n)).collect()));
        }
        Ok(())
    }

    /// Plays round 5, which the sheet does not describe, under `variation`: its pairs stay
    /// where the variation scores pairs and go under Node Network.
    pub fn set_round5(&mut self, variation: Variation) {
        let last = &mut self.rounds[LAST_ROUND];
        last.variation = variation;
        if !variation.uses_pairs() {
            last.pairs.clear();
        }
    }

    /// The number of seats.
    pub fn seats(&self) -> usize {
        self.players.len()
    }

    /// The seat of a player, by name.
    pub fn seat_of(&self, name: &str) -> Option<Seat> {
        self.players
            .iter()
            .position(|p| p == name)
            .and_then(|i| Seat::new(i + 1))
    }

    /// The name of the player in a seat.
    pub fn name(&self, seat: Seat) -> &str {
        &self.players[seat.index()]
    }

    /// A new game from a seed: the players in a random seat order, a random grid, the
    /// sheet's variations and a random pair schedule obeying the pairing rule (the three
    /// nodes left out of a pairs round are all paired in the next pairs round; Node Network
    /// rounds score no pairs and are skipped over).
    pub fn generate(names: &[String], seed: u64) -> Result<Setup, SetupError> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut players = names.to_vec();
        players.shuffle(&mut rng);
        let seats = players.len();
        if !(MIN_SEATS..=MAX_SEATS).contains(&seats) {
            return Err(SetupError(format!(
                "{seats} players: Swap 61 needs {MIN_SEATS} or {MAX_SEATS}"
            )));
        }
        let mut tiles: Vec<Tile> = Node::all().map(Tile::Node).collect();
        tiles.extend(Seat::all(seats).flat_map(|s| [Tile::Wall(s); WALLS_PER_SEAT]));
        tiles.extend([Tile::Wild; WILD_WALLS]);
        tiles.resize(TILES, Tile::Unowned);
        tiles.shuffle(&mut rng);
        let tiles: [Tile; TILES] = tiles.try_into().expect("exactly 61 tiles");
        let start = Board::new(tiles, seats).map_err(|e| SetupError(e.to_string()))?;
        let mut rounds = Vec::with_capacity(LAST_ROUND + 1);
        let mut left_out: Vec<Node> = Vec::new();
        for (round, variation) in DEFAULT_VARIATIONS.into_iter().enumerate() {
            let mut pairs = Vec::new();
            if round > 0 && variation.uses_pairs() {
                let mut others: Vec<Node> = Node::all().filter(|n| !left_out.contains(n)).collect();
                others.shuffle(&mut rng);
                let mut active = left_out.clone();
                active.extend(others.iter().take(6 - active.len()));
                active.shuffle(&mut rng);
                pairs = active.chunks(2).map(|c| Pair(c[0], c[1])).collect();
                left_out = Node::all().filter(|n| !active.contains(n)).collect();
            }
            rounds.push(RoundSpec { variation, pairs });
        }
        let setup = Setup {
            players,
            start,
            rounds,
            seed: Some(seed),
        };
        setup.check()?;
        Ok(setup)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("p{i}")).collect()
    }

    #[test]
    fn generated_games_obey_the_sheet() {
        for seed in 0..200 {
            for n in [9, 10] {
                let setup = Setup::generate(&names(n), seed).unwrap();
                setup.check().unwrap();
                assert_eq!(setup.start.seats(), n);
                let unowned = setup.start.mask(|t| t == Tile::Unowned).count_ones() as usize;
                assert_eq!(unowned, (MAX_SEATS - n) * WALLS_PER_SEAT);
                assert_eq!(setup.rounds[3].pairs.len(), 0);
                assert_eq!(setup.rounds[1].pairs.len(), 3);
            }
        }
        assert_eq!(
            Setup::generate(&names(10), 7),
            Setup::generate(&names(10), 7)
        );
        assert_ne!(
            Setup::generate(&names(10), 7),
            Setup::generate(&names(10), 8)
        );
    }

    #[test]
    fn the_pairing_rule_is_checked() {
        let mut setup = Setup::generate(&names(9), 1).unwrap();
        let used: Vec<Node> = setup.rounds[1]
            .pairs
            .iter()
            .flat_map(|p| [p.0, p.1])
            .collect();
        let out: Vec<Node> = Node::all().filter(|n| !used.contains(n)).collect();
        // Round 2 made to reuse round 1's pairs leaves round 1's left-out nodes unpaired.
        setup.rounds[2].pairs = setup.rounds[1].pairs.clone();
        let err = setup.check().unwrap_err().to_string();
        assert!(err.contains(&format!("leaves out {}", out[0])), "{err}");
    }

    #[test]
    fn bad_player_lists_are_refused() {
        assert!(Setup::generate(&names(8), 1).is_err());
        assert!(Setup::generate(&names(11), 1).is_err());
        let mut dup = names(9);
        dup[1] = "p1".into();
        assert!(
            Setup::generate(&dup, 1)
                .unwrap_err()
                .to_string()
                .contains("twice")
        );
        let mut spaced = names(9);
        spaced[0] = "a b".into();
        assert!(Setup::generate(&spaced, 1).is_err());
    }
}
