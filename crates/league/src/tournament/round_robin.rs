//! Round robin divisions (AbstractPlay's model) and their double round robin schedule.

use super::{Entrant, Game, Round, by_rating, check_field};
use crate::Error;

/// Most players in one round robin division.
pub const MAX_DIVISION: usize = 10;

/// Splits a field into the fewest divisions of at most [`MAX_DIVISION`] players, tiered by
/// rating as AbstractPlay does: the strongest players make division 1, the next division 2,
/// and so on, so everyone meets players near their own strength (snake seeding would instead
/// make divisions of equal strength, which suits a knockout's groups, not a league). Sizes
/// differ by at most one, the larger divisions first, so no division is left with one
/// player. Each division lists its players strongest first.
pub fn divisions<P: Ord + Clone + std::fmt::Debug>(
    entrants: &[Entrant<P>],
) -> Result<Vec<Vec<P>>, Error> {
    check_field(entrants, "a round robin", 2)?;
    let mut seeded: Vec<&Entrant<P>> = entrants.iter().collect();
    seeded.sort_by(|a, b| by_rating(a, b));
    let count = entrants.len().div_ceil(MAX_DIVISION);
    let (base, larger) = (entrants.len() / count, entrants.len() % count);
    let mut players = seeded.into_iter().map(|e| e.player.clone());
    Ok((0..count)
        .map(|division| {
            players
                .by_ref()
                .take(base + usize::from(division < larger))
                .collect()
        })
        .collect())
}

/// The double round robin of a division: 2(n-1) rounds for an even n, 2n for an odd n (one
/// player sits out each round). Rounds 1 to n-1 (or n) are a single round robin by the
/// circle method (Berger tables: one player stays, the others turn one place a round); the
/// second half repeats it with colours swapped, so each pair meets twice, once with each
/// colour. Colours in the first half alternate as Berger's tables give them, so no player's
/// firsts and seconds differ by more than one after it.
pub fn double_round_robin<P: Clone + Ord + std::fmt::Debug>(
    division: &[P],
) -> Result<Vec<Round<P>>, Error> {
    if !(2..=MAX_DIVISION).contains(&division.len()) {
        return Err(Error::FieldSize {
            what: "a round robin division",
            min: 2,
            max: MAX_DIVISION,
            got: division.len(),
        });
    }
    let mut seen = std::collections::BTreeSet::new();
    if let Some(twice) = division.iter().find(|p| !seen.insert(*p)) {
        return Err(Error::Tournament(format!(
            "{twice:?} is in the division twice"
        )));
    }
    // Slots 0..m, m even; a slot at or past the division's size is the "sits out" place.
    let m = division.len() + division.len() % 2;
    let turning = m - 1;
    let mut first_half = Vec::with_capacity(turning);
    for round in 0..turning {
        let mut games = Vec::with_capacity(m / 2);
        // The fixed slot m-1 meets the slot at the top of the circle (slot `round`),
        // alternating colours.
        let fixed_pair = if round % 2 == 0 {
            (round, m - 1)
        } else {
            (m - 1, round)
        };
        let mut pairs = vec![fixed_pair];
        for offset in 1..m / 2 {
            let a = (round + offset) % turning;
            let b = (round + turning - offset) % turning;
            pairs.push(if offset % 2 == 1 { (b, a) } else { (a, b) });
        }
        for (first, second) in pairs {
            if let (Some(first), Some(second)) = (division.get(first), division.get(second)) {
                games.push(Game {
                    first: first.clone(),
                    second: second.clone(),
                    result: None,
                });
            }
        }
        first_half.push(games);
    }
    let second_half: Vec<Vec<Game<P>>> = first_half
        .iter()
        .map(|games| {
            games
                .iter()
                .map(|g| Game {
                    first: g.second.clone(),
                    second: g.first.clone(),
                    result: None,
                })
                .collect()
        })
        .collect();
    Ok(first_half
        .into_iter()
        .chain(second_half)
        .zip(1..)
        .map(|(games, number)| Round {
            number,
            games,
            bye: None,
        })
        .collect())
}
