//! Swiss pairing: a depth-first search over pairings, so a round is found whenever one exists
//! (within a bound), where a greedy pass can paint itself into a corner.
//!
//! Order: players ranked by points, then rating (then key). The highest-ranked unpaired
//! player is paired first, trying opponents in the Dutch system's order: within its score
//! group the top half meets the bottom half (1 against g/2+1, then outward from there), then
//! lower groups in rank order. Every pairing tried must be a first meeting and leave both
//! players' colour difference (firsts minus seconds) within one; before going deeper the
//! search asks whether the players left can still all be paired (a perfect matching,
//! `matching.rs`), so it never explores a dead end: each round costs at most n^2 matching
//! checks, and the backtracking and its bound are a safety net. With an odd field the bye
//! goes to the lowest-ranked player without one for whom the rest can be paired.

use std::collections::BTreeMap;

use super::matching::has_perfect_matching;
use super::{Entrant, Game, GameResult, Round, check_field};
use crate::Error;

/// The most pairings the search tries for one round before giving up with
/// [`Error::SearchBound`]; each try costs one perfect-matching check, O(players^3).
pub const MAX_SEARCH_NODES: u64 = 200_000;

/// Which colour a player had.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    First,
    Second,
}

/// What the search knows of an active player, indexed by rank.
struct Player {
    /// Points counted in halves (a draw is one).
    halves: u32,
    /// Firsts minus seconds so far.
    colour_difference: i32,
    last_colour: Option<Side>,
    had_bye: bool,
}

struct Search {
    players: Vec<Player>,
    /// `met[a * n + b]`: a and b have met already.
    met: Vec<bool>,
    round: u32,
    nodes: u64,
}

impl Search {
    fn met(&self, a: usize, b: usize) -> bool {
        self.met[a * self.players.len() + b]
    }

    /// Whether `a` may be first against `b`: neither's colour difference may pass one.
    fn may_be_first(&self, a: usize, b: usize) -> bool {
        self.players[a].colour_difference < 1 && self.players[b].colour_difference > -1
    }

    /// Who plays first when `a` (ranked above `b`) meets `b` on board `board` (from 0): the
    /// only one who may, else (both even on colours) the one who played second last, else
    /// the higher-ranked on boards 1, 3, 5... of odd rounds and 2, 4, 6... of even rounds, so
    /// colours alternate down the boards as in the Dutch system.
    fn first_of(&self, a: usize, b: usize, board: usize) -> usize {
        match (self.may_be_first(a, b), self.may_be_first(b, a)) {
            (true, false) => a,
            (false, true) => b,
            _ => match (self.players[a].last_colour, self.players[b].last_colour) {
                (Some(Side::Second), Some(Side::First)) => a,
                (Some(Side::First), Some(Side::Second)) => b,
                _ if (self.round as usize + board) % 2 == 1 => a,
                _ => b,
            },
        }
    }

    fn may_meet(&self, a: usize, b: usize) -> bool {
        !self.met(a, b) && (self.may_be_first(a, b) || self.may_be_first(b, a))
    }

    /// Pairs `unpaired` (in rank order) completely, appending (first, second) to `pairs`;
    /// false when no pairing exists.
    fn solve(
        &mut self,
        unpaired: &[usize],
        pairs: &mut Vec<(usize, usize)>,
    ) -> Result<bool, Error> {
        let Some((&top, rest)) = unpaired.split_first() else {
            return Ok(true);
        };
        let group: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|&p| self.players[p].halves == self.players[top].halves)
            .collect();
        // The top player's Dutch opponent: half a group further down (group counts the top too).
        let mirror = group.len().div_ceil(2).saturating_sub(1);
        let candidates = group[mirror..]
            .iter()
            .chain(group[..mirror].iter().rev())
            .chain(
                rest.iter()
                    .filter(|&&p| self.players[p].halves != self.players[top].halves),
            )
            .copied()
            .collect::<Vec<usize>>();
        for candidate in candidates {
            if !self.may_meet(top, candidate) {
                continue;
            }
            self.nodes += 1;
            if self.nodes > MAX_SEARCH_NODES {
                return Err(Error::SearchBound {
                    round: self.round,
                    nodes: self.nodes,
                });
            }
            let left: Vec<usize> = rest.iter().copied().filter(|&p| p != candidate).collect();
            if !has_perfect_matching(left.len(), |i, j| self.may_meet(left[i], left[j])) {
                continue;
            }
            let first = self.first_of(top, candidate, pairs.len());
            pairs.push(if first == top {
                (top, candidate)
            } else {
                (candidate, top)
            });
            if self.solve(&left, pairs)? {
                return Ok(true);
            }
            pairs.pop();
        }
        Ok(false)
    }
}

/// The next round of a Swiss: `entrants` are the players still in (withdrawn players left
/// out), `played` every round so far, all finished. The round's number is one more than the
/// rounds played.
pub fn swiss_round<P: Ord + Clone + std::fmt::Debug>(
    entrants: &[Entrant<P>],
    played: &[Round<P>],
) -> Result<Round<P>, Error> {
    check_field(entrants, "a Swiss round", 2)?;
    let round = u32::try_from(played.len() + 1)
        .map_err(|_| Error::Tournament("too many rounds".to_owned()))?;
    // Points in halves, so a draw's half point is exact.
    let mut halves: BTreeMap<&P, u32> = entrants.iter().map(|e| (&e.player, 0)).collect();
    let mut add = |player: &P, got: u32| {
        if let Some(h) = halves.get_mut(player) {
            *h += got;
        }
    };
    for r in played {
        for game in &r.games {
            let (first, second) = match game.result {
                Some(GameResult::First) => (2, 0),
                Some(GameResult::Second) => (0, 2),
                Some(GameResult::Draw) => (1, 1),
                None => {
                    return Err(Error::Tournament(format!(
                        "round {} has a game without a result ({:?} against {:?}): it must end before round {round} is paired",
                        r.number, game.first, game.second
                    )));
                }
            };
            add(&game.first, first);
            add(&game.second, second);
        }
        if let Some(bye) = &r.bye {
            add(bye, 2);
        }
    }
    let mut ranked: Vec<&Entrant<P>> = entrants.iter().collect();
    ranked.sort_by(|a, b| {
        halves[&b.player]
            .cmp(&halves[&a.player])
            .then_with(|| super::by_rating(a, b))
    });
    let rank: BTreeMap<&P, usize> = ranked
        .iter()
        .enumerate()
        .map(|(i, e)| (&e.player, i))
        .collect();
    let n = ranked.len();
    let mut search = Search {
        players: ranked
            .iter()
            .map(|e| Player {
                halves: halves[&e.player],
                colour_difference: 0,
                last_colour: None,
                had_bye: false,
            })
            .collect(),
        met: vec![false; n * n],
        round,
        nodes: 0,
    };
    for r in played {
        for game in &r.games {
            let (first, second) = (rank.get(&game.first), rank.get(&game.second));
            if let Some(&f) = first {
                search.players[f].colour_difference += 1;
                search.players[f].last_colour = Some(Side::First);
            }
            if let Some(&s) = second {
                search.players[s].colour_difference -= 1;
                search.players[s].last_colour = Some(Side::Second);
            }
            if let (Some(&f), Some(&s)) = (first, second) {
                search.met[f * n + s] = true;
                search.met[s * n + f] = true;
            }
        }
        if let Some(&b) = r.bye.as_ref().and_then(|bye| rank.get(bye)) {
            search.players[b].had_bye = true;
        }
    }
    let everyone: Vec<usize> = (0..n).collect();
    let byes: Vec<Option<usize>> = if n.is_multiple_of(2) {
        vec![None]
    } else {
        (0..n)
            .rev()
            .filter(|&p| !search.players[p].had_bye)
            .map(Some)
            .collect()
    };
    if byes.is_empty() {
        return Err(Error::Tournament(format!(
            "round {round} needs a bye and every player has had one"
        )));
    }
    for bye in byes {
        let field: Vec<usize> = everyone
            .iter()
            .copied()
            .filter(|&p| Some(p) != bye)
            .collect();
        let mut pairs = Vec::with_capacity(n / 2);
        if search.solve(&field, &mut pairs)? {
            return Ok(Round {
                number: round,
                games: pairs
                    .into_iter()
                    .map(|(first, second)| Game {
                        first: ranked[first].player.clone(),
                        second: ranked[second].player.clone(),
                        result: None,
                    })
                    .collect(),
                bye: bye.map(|b| ranked[b].player.clone()),
            });
        }
    }
    Err(Error::NoPairing { round })
}
