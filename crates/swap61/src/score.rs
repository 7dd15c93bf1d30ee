//! Scoring: each player's own shortest paths between nodes, through the walls that do not
//! block that player, under the round's variation.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::board::{Board, NODES, Node, Seat, TILES, Tile, TileMask, bit, geometry};

/// How the corners connect under Corner Connection.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum CornerHop {
    /// The rulings' reading: the six corners are all neighbours, a hop costs 1 (entering the
    /// corner hopped to), for a player only where both corners are passable to them.
    Step,
    /// The other reading: the six corners act as one space, a hop between two passable
    /// corners is free.
    Teleport,
}

/// The variation a round carries: a set of options on top of the Theme.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Variation {
    /// Corner Connection: the corners connect to each other.
    pub corners: Option<CornerHop>,
    /// Node Network: no pairs; every node scores its distance to the nearest other node.
    pub network: bool,
    /// Ultimate Seat Exchange: minimum 1 token per swap; blocked tiles cost 3 to enter.
    pub seat_exchange: bool,
}

impl Variation {
    /// The Theme: no variation (round 1).
    pub const THEME: Variation = Variation {
        corners: None,
        network: false,
        seat_exchange: false,
    };
    /// Corner Connection (round 2), with the rulings' hop of cost 1.
    pub const CORNERS: Variation = Variation {
        corners: Some(CornerHop::Step),
        ..Variation::THEME
    };
    /// Node Network (round 3).
    pub const NETWORK: Variation = Variation {
        network: true,
        ..Variation::THEME
    };
    /// Ultimate Seat Exchange (round 4).
    pub const SEAT_EXCHANGE: Variation = Variation {
        seat_exchange: true,
        ..Variation::THEME
    };

    /// The fewest tokens a swap needs: 4, or 1 under Ultimate Seat Exchange.
    pub const fn minimum_tokens(self) -> u32 {
        if self.seat_exchange { 1 } else { 4 }
    }

    /// Whether the round scores pairs (every variation but Node Network).
    pub const fn uses_pairs(self) -> bool {
        !self.network
    }

    /// The names of the sheet, for reports: `Theme`, `Corner Connection`, ...
    pub fn title(self) -> String {
        let mut parts = Vec::new();
        match self.corners {
            Some(CornerHop::Step) => parts.push("Corner Connection"),
            Some(CornerHop::Teleport) => parts.push("Corner Connection (free teleport)"),
            None => {}
        }
        if self.network {
            parts.push("Node Network");
        }
        if self.seat_exchange {
            parts.push("Ultimate Seat Exchange");
        }
        if parts.is_empty() {
            "Theme".into()
        } else {
            parts.join(" + ")
        }
    }
}

impl fmt::Display for Variation {
    /// The option names joined by `+`: `theme`, `corners`, `corners-teleport`, `network`,
    /// `seat-exchange`, e.g. `corners+seat-exchange`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        match self.corners {
            Some(CornerHop::Step) => parts.push("corners"),
            Some(CornerHop::Teleport) => parts.push("corners-teleport"),
            None => {}
        }
        if self.network {
            parts.push("network");
        }
        if self.seat_exchange {
            parts.push("seat-exchange");
        }
        if parts.is_empty() {
            parts.push("theme");
        }
        f.write_str(&parts.join("+"))
    }
}

impl FromStr for Variation {
    type Err = String;

    fn from_str(s: &str) -> Result<Variation, String> {
        let mut v = Variation::THEME;
        for part in s.split('+') {
            match part {
                "theme" => {}
                "corners" if v.corners.is_none() => v.corners = Some(CornerHop::Step),
                "corners-teleport" if v.corners.is_none() => v.corners = Some(CornerHop::Teleport),
                "network" if !v.network => v.network = true,
                "seat-exchange" if !v.seat_exchange => v.seat_exchange = true,
                _ => {
                    return Err(format!(
                        "'{s}' is not a variation (theme, corners, corners-teleport, network or seat-exchange, options joined by +)"
                    ));
                }
            }
        }
        Ok(v)
    }
}

swapboard_core::serde_as_text!(Variation);

/// Two nodes a round joins.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Pair(pub Node, pub Node);

impl fmt::Display for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.0, self.1)
    }
}

impl FromStr for Pair {
    type Err = String;

    fn from_str(s: &str) -> Result<Pair, String> {
        let (a, b) = s
            .split_once('-')
            .ok_or_else(|| format!("'{s}' is not a pair of nodes like N1-N2"))?;
        let (a, b): (Node, Node) = (a.parse()?, b.parse()?);
        if a == b {
            return Err(format!("'{s}' pairs a node with itself"));
        }
        Ok(Pair(a, b))
    }
}

swapboard_core::serde_as_text!(Pair);

/// Reads the contract's three pairs, `N1-N2,N3-N4,N5-N6` (spaces after the commas allowed):
/// six different nodes.
pub fn parse_pairs(text: &str) -> Result<[Pair; 3], String> {
    let parts: Vec<&str> = text.split(',').collect();
    let mut pairs = Vec::with_capacity(3);
    for (i, part) in parts.iter().enumerate() {
        let part = if i == 0 {
            *part
        } else {
            part.trim_start_matches(' ')
        };
        pairs.push(part.parse::<Pair>()?);
    }
    let pairs: [Pair; 3] = pairs
        .try_into()
        .map_err(|p: Vec<Pair>| format!("{} pairs given, a round has 3", p.len()))?;
    check_pairs(&pairs)?;
    Ok(pairs)
}

/// Checks that pairs use each node at most once.
pub fn check_pairs(pairs: &[Pair]) -> Result<(), String> {
    let mut seen = [false; NODES];
    for p in pairs {
        for n in [p.0, p.1] {
            if std::mem::replace(&mut seen[n.index()], true) {
                return Err(format!("{n} is in two pairs"));
            }
        }
    }
    Ok(())
}

/// The largest cost a path can have: every tile entered at cost 3.
const MAX_COST: usize = 3 * TILES + 2;

/// The cost of the cheapest way from `source` into any tile of `targets` (entering a target
/// costs 1). `open` tiles cost 1 to enter; with `penalty` every other tile costs 3 (Ultimate
/// Seat Exchange), otherwise it cannot be entered. `hop` joins the corners: a hop leaves the
/// source or an open corner for another open corner or a target corner.
///
/// A bucket queue over the few possible costs: no allocation, no heap.
pub fn shortest_path(
    source: usize,
    targets: TileMask,
    open: TileMask,
    penalty: bool,
    hop: Option<CornerHop>,
) -> Option<u32> {
    let g = geometry();
    let targets = targets & !bit(source);
    let mut dist = [u16::MAX; TILES];
    let mut buckets = [0 as TileMask; MAX_COST + 1];
    let mut settled: TileMask = 0;
    let mut best = usize::MAX;
    dist[source] = 0;
    buckets[0] = bit(source);
    let mut top = 0;
    let mut d = 0;
    while d <= top && d < best {
        while buckets[d] != 0 {
            let u = buckets[d].trailing_zeros() as usize;
            buckets[d] &= buckets[d] - 1;
            if settled & bit(u) != 0 {
                continue;
            }
            settled |= bit(u);
            let mut relax = |v: usize, cost: usize| {
                if targets & bit(v) != 0 {
                    best = best.min(d + cost);
                } else if settled & bit(v) == 0 && d + cost < usize::from(dist[v]) {
                    dist[v] = (d + cost) as u16;
                    buckets[d + cost] |= bit(v);
                    top = top.max(d + cost);
                }
            };
            for &v in &g.neighbours[u][..usize::from(g.degree[u])] {
                let v = usize::from(v);
                if targets & bit(v) != 0 || open & bit(v) != 0 {
                    relax(v, 1);
                } else if penalty {
                    relax(v, 3);
                }
            }
            if let Some(hop) = hop
                && g.corner_mask & bit(u) != 0
                && (u == source || open & bit(u) != 0)
            {
                let cost = match hop {
                    CornerHop::Step => 1,
                    CornerHop::Teleport => 0,
                };
                for &v in &g.corners {
                    let v = usize::from(v);
                    if v != u && (targets | open) & bit(v) != 0 {
                        relax(v, cost);
                    }
                }
            }
        }
        d += 1;
    }
    (best != usize::MAX).then_some(best as u32)
}

/// The seats whose walls block a player in a round: their own, and in round `n` (1-5) the
/// seats `n` before and `n` after (the pregame, round 0, borrows nothing).
pub fn blocking_seats(seat: Seat, seats: usize, round: usize) -> Vec<Seat> {
    let mut v = vec![seat];
    if round > 0 {
        for s in [
            seat.around(-(round as isize), seats),
            seat.around(round as isize, seats),
        ] {
            if !v.contains(&s) {
                v.push(s);
            }
        }
    }
    v
}

/// The rules of one scored round, fixed for all players.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Scoring<'a> {
    /// The round (1-5): the borrowing distance.
    pub round: usize,
    /// The variation.
    pub variation: Variation,
    /// The pairs (ignored under Node Network).
    pub pairs: &'a [Pair],
}

impl Scoring<'_> {
    /// The tiles a player may enter at cost 1 on `board` after the round's swaps (`swapped`
    /// marks the tiles that took part in a successful swap): everything but nodes, their own
    /// and borrowed walls, and wild walls not swapped this round.
    pub fn open_tiles(&self, board: &Board, swapped: TileMask, seat: Seat) -> TileMask {
        let blockers = blocking_seats(seat, board.seats(), self.round);
        let blocked = board.mask(|t| match t {
            Tile::Node(_) | Tile::Wild => true,
            Tile::Wall(s) => blockers.contains(&s),
            Tile::Unowned => false,
        });
        let wild_swapped = board.mask(|t| t == Tile::Wild) & swapped;
        ((1 << TILES) - 1) & !blocked | wild_swapped
    }

    /// The distance a player scores between two node tiles, 0 if there is no path.
    fn pair_distance(&self, open: TileMask, a: usize, b: usize) -> u32 {
        shortest_path(
            a,
            bit(b),
            open,
            self.variation.seat_exchange,
            self.variation.corners,
        )
        .unwrap_or(0)
    }

    /// One player's score for the round.
    pub fn score(&self, board: &Board, swapped: TileMask, seat: Seat) -> u32 {
        let open = self.open_tiles(board, swapped, seat);
        let nodes = board.node_tiles();
        if self.variation.network {
            let all = nodes.iter().fold(0, |m, &t| m | bit(t));
            nodes
                .iter()
                .map(|&n| {
                    shortest_path(
                        n,
                        all,
                        open,
                        self.variation.seat_exchange,
                        self.variation.corners,
                    )
                    .unwrap_or(0)
                })
                .sum()
        } else {
            self.pairs
                .iter()
                .map(|p| self.pair_distance(open, nodes[p.0.index()], nodes[p.1.index()]))
                .sum()
        }
    }

    /// Every player's score, in seat order.
    pub fn scores(&self, board: &Board, swapped: TileMask) -> Vec<u32> {
        Seat::all(board.seats())
            .map(|s| self.score(board, swapped, s))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_tile;
    use proptest::prelude::*;

    fn t(name: &str) -> usize {
        parse_tile(name).unwrap()
    }

    fn mask(names: &str) -> TileMask {
        names.split_whitespace().fold(0, |m, n| m | bit(t(n)))
    }

    const ALL: TileMask = (1 << TILES) - 1;

    #[test]
    fn distance_counts_tiles_entered_destination_included() {
        // Touching nodes are 1 apart; along the top row A1 to A5 is 4.
        assert_eq!(
            shortest_path(t("A1"), bit(t("A2")), 0, false, None),
            Some(1)
        );
        assert_eq!(
            shortest_path(t("A1"), bit(t("A5")), ALL, false, None),
            Some(4)
        );
        assert_eq!(
            shortest_path(t("E1"), bit(t("E9")), ALL, false, None),
            Some(8)
        );
    }

    #[test]
    fn no_path_is_none() {
        let open = ALL & !mask("A2 B1 B2");
        assert_eq!(
            shortest_path(t("A1"), bit(t("E5")), open, false, None),
            None
        );
        // Under Seat Exchange the blocked tiles cost 3 instead.
        assert_eq!(
            shortest_path(t("A1"), bit(t("B3")), open, true, None),
            Some(4)
        );
    }

    #[test]
    fn corner_hops_cost_one_and_need_both_corners_passable() {
        // A1 to I5 is 8 on the board; through the corners it is one hop.
        let open = ALL & !mask("A1 I5");
        assert_eq!(
            shortest_path(t("A1"), bit(t("I5")), open, false, Some(CornerHop::Step)),
            Some(1)
        );
        // A1 to H5 (next to I5): hop into the open corner I5, then one step.
        let open = ALL & !mask("A1 H5");
        assert_eq!(
            shortest_path(t("A1"), bit(t("H5")), open, false, Some(CornerHop::Step)),
            Some(2)
        );
        // A closed corner cannot be hopped to.
        let closed = open & !mask("I5 I1 E9");
        assert_eq!(
            shortest_path(t("A1"), bit(t("H5")), closed, false, Some(CornerHop::Step)),
            shortest_path(t("A1"), bit(t("H5")), closed, false, None)
        );
        // A free teleport makes the corners one space.
        assert_eq!(
            shortest_path(t("A2"), bit(t("H5")), ALL, false, Some(CornerHop::Teleport)),
            Some(2)
        );
    }

    #[test]
    fn variations_read_and_print() {
        for name in [
            "theme",
            "corners",
            "corners-teleport",
            "network",
            "seat-exchange",
            "corners+seat-exchange",
        ] {
            assert_eq!(name.parse::<Variation>().unwrap().to_string(), name);
        }
        assert!("corners+corners".parse::<Variation>().is_err());
        assert!("Theme".parse::<Variation>().is_err());
        assert_eq!(Variation::SEAT_EXCHANGE.minimum_tokens(), 1);
        assert_eq!(Variation::CORNERS.minimum_tokens(), 4);
    }

    #[test]
    fn pairs_read_like_the_contract() {
        let p = parse_pairs("N1-N2, N3-N4,N5-N6").unwrap();
        assert_eq!(p[1].to_string(), "N3-N4");
        for bad in [
            "N1-N2,N3-N4",
            "N1-N2,N3-N4,N5-N6,N7-N8",
            "N1-N1,N3-N4,N5-N6",
            "N1-N2,N2-N4,N5-N6",
            "N1-N2 ,N3-N4,N5-N6",
            "N1-N2,N3-N4,N5-X6",
            " N1-N2,N3-N4,N5-N6",
        ] {
            assert!(parse_pairs(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn borrowing_at_each_round_distance() {
        let s = |n| Seat::new(n).unwrap();
        assert_eq!(blocking_seats(s(1), 10, 0), [s(1)]);
        assert_eq!(blocking_seats(s(1), 10, 1), [s(1), s(10), s(2)]);
        assert_eq!(blocking_seats(s(1), 10, 2), [s(1), s(9), s(3)]);
        assert_eq!(blocking_seats(s(3), 10, 3), [s(3), s(10), s(6)]);
        assert_eq!(blocking_seats(s(4), 10, 4), [s(4), s(10), s(8)]);
        // Ten players, round 5: both sides are the same player.
        assert_eq!(blocking_seats(s(2), 10, 5), [s(2), s(7)]);
        // Nine players, round 5: two different players.
        assert_eq!(blocking_seats(s(2), 9, 5), [s(2), s(6), s(7)]);
    }

    proptest! {
        #[test]
        fn distances_are_symmetric(a in 0usize..61, b in 0usize..61, open in any::<u64>(),
                                   penalty: bool, hop in 0u8..3) {
            let hop = [None, Some(CornerHop::Step), Some(CornerHop::Teleport)][usize::from(hop)];
            let open = open & ALL & !bit(a) & !bit(b);
            prop_assert_eq!(shortest_path(a, bit(b), open, penalty, hop), shortest_path(b, bit(a), open, penalty, hop));
        }
    }
}
