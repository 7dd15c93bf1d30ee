//! Standings: 1 point a win or a bye, 1/2 a draw, 0 a loss; ties broken by Sonneborn-Berger, then games
//! won as the second player, then rating.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Entrant, GameResult, Round, check_field};
use crate::Error;

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standing<P> {
    /// From 1; players equal on every tie-break share a rank.
    pub rank: usize,
    /// The player.
    pub player: P,
    /// Wins plus byes plus half the draws.
    pub points: f64,
    /// Sonneborn-Berger: the final points of every opponent beaten plus half those of every
    /// opponent drawn (a bye adds nothing, having no opponent).
    pub sonneborn_berger: f64,
    /// Games won as the second player.
    pub second_player_wins: u32,
    /// The entrant's rating, the last tie-break.
    pub rating: f64,
}

/// The standings of a tournament from its rounds; games without a result yet count for
/// nothing. `entrants` is everyone who took part, withdrawn players included (their
/// forfeits are results in the rounds). Best first; equal players in key order.
pub fn standings<P: Ord + Clone + std::fmt::Debug>(
    entrants: &[Entrant<P>],
    rounds: &[Round<P>],
) -> Result<Vec<Standing<P>>, Error> {
    check_field(entrants, "standings", 1)?;
    let index: BTreeMap<&P, usize> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (&e.player, i))
        .collect();
    let find = |p: &P, round: u32| {
        index.get(p).copied().ok_or_else(|| {
            Error::Tournament(format!("round {round} names {p:?}, who is not an entrant"))
        })
    };
    // Counted in halves (points) and quarters (Sonneborn-Berger) so that every sum and every
    // comparison is exact.
    let mut halves = vec![0u32; entrants.len()];
    let mut second_wins = vec![0u32; entrants.len()];
    // (player, opponent, halves scored) of every finished game and side, for
    // Sonneborn-Berger once the final points are known.
    let mut scored = Vec::new();
    for round in rounds {
        for game in &round.games {
            let first = find(&game.first, round.number)?;
            let second = find(&game.second, round.number)?;
            let (first_halves, second_halves) = match game.result {
                Some(GameResult::First) => (2, 0),
                Some(GameResult::Second) => {
                    second_wins[second] += 1;
                    (0, 2)
                }
                Some(GameResult::Draw) => (1, 1),
                None => continue,
            };
            scored.push((first, second, first_halves));
            scored.push((second, first, second_halves));
        }
        if let Some(bye) = &round.bye {
            halves[find(bye, round.number)?] += 2;
        }
    }
    for &(player, _, got) in &scored {
        halves[player] += got;
    }
    let mut quarters = vec![0u32; entrants.len()];
    for &(player, opponent, got) in &scored {
        // A win adds the opponent's points (2 halves = 4 quarters a point), a draw half that.
        quarters[player] += got * halves[opponent];
    }
    let mut table: Vec<Standing<P>> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| Standing {
            rank: 0,
            player: e.player.clone(),
            points: f64::from(halves[i]) / 2.0,
            sonneborn_berger: f64::from(quarters[i]) / 4.0,
            second_player_wins: second_wins[i],
            rating: e.rating,
        })
        .collect();
    // Halves and quarters are exact in f64, so comparing the shown numbers is exact too.
    let better = |a: &Standing<P>, b: &Standing<P>| {
        b.points
            .total_cmp(&a.points)
            .then_with(|| b.sonneborn_berger.total_cmp(&a.sonneborn_berger))
            .then_with(|| b.second_player_wins.cmp(&a.second_player_wins))
            .then_with(|| b.rating.total_cmp(&a.rating))
    };
    table.sort_by(|a, b| better(a, b).then_with(|| a.player.cmp(&b.player)));
    for i in 0..table.len() {
        table[i].rank = if i > 0 && better(&table[i - 1], &table[i]).is_eq() {
            table[i - 1].rank
        } else {
            i + 1
        };
    }
    Ok(table)
}
