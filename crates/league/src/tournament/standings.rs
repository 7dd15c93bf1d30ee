//! Standings: 1 point a win or a bye, 0 a loss; ties broken by Sonneborn-Berger, then games
//! won as the second player, then rating.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Entrant, Round, Side, check_field};
use crate::Error;

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standing<P> {
    /// From 1; players equal on every tie-break share a rank.
    pub rank: usize,
    /// The player.
    pub player: P,
    /// Wins plus byes.
    pub points: u32,
    /// Sonneborn-Berger: the sum of the final points of every opponent beaten (a bye adds
    /// nothing, having no opponent).
    pub sonneborn_berger: u32,
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
    let mut points = vec![0u32; entrants.len()];
    let mut second_wins = vec![0u32; entrants.len()];
    // (winner, loser) of every finished game, for Sonneborn-Berger once points are known.
    let mut wins = Vec::new();
    for round in rounds {
        for game in &round.games {
            let (first, second) = (
                find(&game.first, round.number)?,
                find(&game.second, round.number)?,
            );
            match game.result {
                Some(Side::First) => wins.push((first, second)),
                Some(Side::Second) => {
                    second_wins[second] += 1;
                    wins.push((second, first));
                }
                None => {}
            }
        }
        if let Some(bye) = &round.bye {
            points[find(bye, round.number)?] += 1;
        }
    }
    for &(winner, _) in &wins {
        points[winner] += 1;
    }
    let mut sonneborn_berger = vec![0u32; entrants.len()];
    for &(winner, loser) in &wins {
        sonneborn_berger[winner] += points[loser];
    }
    let mut table: Vec<Standing<P>> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| Standing {
            rank: 0,
            player: e.player.clone(),
            points: points[i],
            sonneborn_berger: sonneborn_berger[i],
            second_player_wins: second_wins[i],
            rating: e.rating,
        })
        .collect();
    let key = |s: &Standing<P>| (s.points, s.sonneborn_berger, s.second_player_wins);
    let better = |a: &Standing<P>, b: &Standing<P>| {
        key(b)
            .cmp(&key(a))
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
