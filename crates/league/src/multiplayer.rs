//! Weng-Lin (OpenSkill, Bradley-Terry full pairing) ratings for Swap 61 rooms, through the
//! `skillratings` crate: each seat is a team of one, ranked by the room's final standing.
//!
//! Unlike Glicko-2 here, nothing is added to the algorithm, so `skillratings` is used as it
//! is, with its default constants (mu 25, sigma 25/3, beta 25/6).

use serde::{Deserialize, Serialize};
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

use crate::{Error, check, positive_up_to};

/// Most seats a rated room may have (Swap 61 seats 9 or 10; the bound keeps work small).
pub const MAX_SEATS: usize = 64;

/// A Weng-Lin rating: skill estimate and its uncertainty.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Skill {
    /// Estimated skill (mu); a new player has 25.
    pub rating: f64,
    /// Uncertainty (sigma); a new player has 25/3.
    pub uncertainty: f64,
}

impl Default for Skill {
    fn default() -> Self {
        let fresh = WengLinRating::new();
        Skill {
            rating: fresh.rating,
            uncertainty: fresh.uncertainty,
        }
    }
}

impl Skill {
    /// The conservative estimate mu - 3 sigma, the usual number to rank a leaderboard by
    /// (a new player has 0).
    pub fn ordinal(&self) -> f64 {
        self.rating - 3.0 * self.uncertainty
    }
}

/// New ratings of a finished room's seats. `seats` holds each seat's rating and final rank
/// (1 is first; tied seats share a rank); the answer is in the same order.
pub fn rate_room(seats: &[(Skill, usize)]) -> Result<Vec<Skill>, Error> {
    if !(2..=MAX_SEATS).contains(&seats.len()) {
        return Err(Error::FieldSize {
            what: "a rated room",
            min: 2,
            max: MAX_SEATS,
            got: seats.len(),
        });
    }
    let mut teams = Vec::with_capacity(seats.len());
    for (seat, (skill, rank)) in seats.iter().enumerate() {
        let rating = "from -1000 to 1000";
        check(
            || format!("seat {seat}'s rating"),
            skill.rating,
            -1000.0..=1000.0,
            rating,
        )?;
        let uncertainty = "above 0 and at most 1000";
        let allowed = positive_up_to(1000.0);
        check(
            || format!("seat {seat}'s uncertainty"),
            skill.uncertainty,
            allowed,
            uncertainty,
        )?;
        if !(1..=seats.len()).contains(rank) {
            return Err(Error::BadRank {
                seat,
                rank: *rank,
                seats: seats.len(),
            });
        }
        teams.push([WengLinRating {
            rating: skill.rating,
            uncertainty: skill.uncertainty,
        }]);
    }
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(seats)
        .map(|(team, (_, rank))| (&team[..], MultiTeamOutcome::new(*rank)))
        .collect();
    Ok(weng_lin_multi_team(&ranked, &WengLinConfig::new())
        .into_iter()
        .map(|team| Skill {
            rating: team[0].rating,
            uncertainty: team[0].uncertainty,
        })
        .collect())
}
