//! The stable codes of the rules a refused move breaks.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Declares [`Rule`] with its codes and the games using each, from one list so that the
/// code, [`Rule::ALL`] and [`Rule::games`] cannot drift apart.
macro_rules! rules {
    ($($(#[doc = $doc:literal])* $variant:ident = $code:literal for [$($game:literal),+],)+) => {
        /// The rule a refused move breaks, as a stable code shared by every game: programs (the
        /// server, the web client) branch on it, players read the message beside it.
        ///
        /// The codes are listed, with the games using them and example messages, in
        /// `docs/RULES-CODES.md`. They serialise as their snake_case [`Rule::as_str`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Rule {
            $($(#[doc = $doc])* $variant,)+
        }

        impl Rule {
            /// Every rule code, in documentation order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)+];

            /// The code as sent to programs (`diagonal_restriction`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Rule::$variant => $code,)+
                }
            }

            /// The ids of the games (`Game::ID`) whose moves can be refused under this rule.
            pub fn games(self) -> &'static [&'static str] {
                match self {
                    $(Rule::$variant => &[$($game),+],)+
                }
            }
        }
    };
}

rules! {
    /// Every game: the game has ended, so no move (not even `pass`) can be played.
    GameOver = "game_over" for ["swaptimum", "flipstop", "scware", "rapid-transit"],
    /// Every game: `pass` while the player to move has another legal move.
    PassNotAllowed = "pass_not_allowed" for ["swaptimum", "flipstop", "scware", "rapid-transit"],
    /// Every game: a cell of the move lies off the board (a move built by a program; a
    /// move text naming such a cell is unreadable).
    OffBoard = "off_board" for ["swaptimum", "flipstop", "scware", "rapid-transit"],
    /// Swaptimum, Flipstop, Scware: a stone is put on a cell that is not empty.
    Occupied = "occupied" for ["swaptimum", "flipstop", "scware"],
    /// Swaptimum, Flipstop: the placement forms a crosscut that the game's remedy (a swap in
    /// Swaptimum, a replacement in Flipstop) cannot undo without forming another.
    PlacementRestriction = "placement_restriction" for ["swaptimum", "flipstop"],
    /// Swaptimum: the placement forms a crosscut but no swap follows it.
    SwapRequired = "swap_required" for ["swaptimum"],
    /// Swaptimum: a swap follows a placement that forms no crosscut.
    SwapNotAllowed = "swap_not_allowed" for ["swaptimum"],
    /// Swaptimum: the two swapped checkers are not 8-adjacent.
    SwapNotAdjacent = "swap_not_adjacent" for ["swaptimum"],
    /// Swaptimum, Rapid Transit: the two cells of a swap do not hold the pieces the swap
    /// exchanges (an empty cell, twice the same cell or colour, the wrong player's piece).
    SwapPieces = "swap_pieces" for ["swaptimum", "rapid-transit"],
    /// Swaptimum: neither swapped checker belongs to the crosscut the placement formed.
    SwapOutsideCrosscut = "swap_outside_crosscut" for ["swaptimum"],
    /// Swaptimum: after the swap a crosscut stands (a new one, or one left alive).
    SwapFormsCrosscut = "swap_forms_crosscut" for ["swaptimum"],
    /// Scware: a move that puts no stone.
    EmptyMove = "empty_move" for ["scware"],
    /// Scware: a new group after a growth, by White (only Red may balance), or once a player
    /// has grown.
    BalancingMove = "balancing_move" for ["scware"],
    /// Scware: a stone of a growth touches no group of the mover that stood at the start of
    /// the turn.
    NotAGrowth = "not_a_growth" for ["scware"],
    /// Scware: one group would be grown by two stones in the same turn.
    GroupGrownTwice = "group_grown_twice" for ["scware"],
    /// Scware: the balancing move's stone touches a stone of its own colour.
    NewGroupTouches = "new_group_touches" for ["scware"],
    /// Scware: two diagonally adjacent stones of the mover would lie in different groups. The
    /// only refusal that further stones of a growth being built can cure.
    DiagonalRestriction = "diagonal_restriction" for ["scware"],
    /// Scware, step by step: the decision does not fit the point the turn has reached (a
    /// placement after growing began, a cell that is no free liberty of the group decided).
    StepOutOfOrder = "step_out_of_order" for ["scware"],
    /// Scware, step by step: no legal growth completes the turn after this decision.
    NoLegalCompletion = "no_legal_completion" for ["scware"],
    /// Rapid Transit: the swapped piece of the mover is not a terminal piece (it has more
    /// than one friendly neighbour).
    NotTerminal = "not_terminal" for ["rapid-transit"],
    /// Rapid Transit: the partner is not in an enemy network adjacent to the terminal's.
    NetworksNotAdjacent = "networks_not_adjacent" for ["rapid-transit"],
    /// Rapid Transit: the swap fills a 2x2 block with one colour.
    BlockFormed = "block_formed" for ["rapid-transit"],
    /// Rapid Transit: after the swap a moved piece has fewer than two friendly neighbours.
    TooFewNeighbours = "too_few_neighbours" for ["rapid-transit"],
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use serde::de::value::{Error, StrDeserializer};

    use super::*;

    #[test]
    fn codes_are_distinct_and_read_back_through_serde() {
        let mut seen = std::collections::HashSet::new();
        for &rule in Rule::ALL {
            assert!(seen.insert(rule.as_str()), "{rule:?} repeats a code");
            let read = Rule::deserialize(StrDeserializer::<Error>::new(rule.as_str()));
            assert_eq!(read, Ok(rule));
        }
        assert!(Rule::deserialize(StrDeserializer::<Error>::new("GameOver")).is_err());
    }

    /// The documentation's table lists every code once, in order, with its games.
    #[test]
    fn the_documentation_lists_exactly_the_codes() {
        let doc = include_str!("../../../docs/RULES-CODES.md");
        let rows: Vec<(&str, &str)> = doc
            .lines()
            .filter_map(|line| line.strip_prefix("| `"))
            .map(|row| {
                let (code, rest) = row.split_once('`').expect("a code cell");
                let games = rest.split('|').nth(1).expect("a games cell").trim();
                (code, games)
            })
            .collect();
        let codes: Vec<&str> = rows.iter().map(|&(code, _)| code).collect();
        let expected: Vec<&str> = Rule::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(codes, expected);
        for (&rule, &(_, games)) in Rule::ALL.iter().zip(&rows) {
            let listed = if games == "all four" {
                vec!["swaptimum", "flipstop", "scware", "rapid-transit"]
            } else {
                games.split(", ").collect()
            };
            assert_eq!(listed, rule.games(), "the games of {rule}");
        }
    }
}
