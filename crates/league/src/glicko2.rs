//! Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013) with lichess's parameters.
//!
//! This is our own implementation, not `skillratings::glicko2`, which the tests use as the
//! independent second implementation. `skillratings` alone does not do the rules:
//! its decay is exactly one period, not days since the last game times 0.21436 capped at
//! 500, and it has no RD clamp to [45, 500], volatility cap of 0.1 or rating floor of 400. A
//! wrapper could add those around it (the property test does exactly that to check us), but
//! then production and its check would be the same arithmetic, and the wrapper would still
//! inherit two things we do not want: its volatility iteration loops without a bound (here a
//! runaway becomes [`Error::NoConvergence`]) and it takes any `f64` (here every input is
//! range-checked and named in the error). The arithmetic is Glickman's, step by step; it
//! agrees with `skillratings` to 1e-6 on rating and RD (tests/glicko2.rs).

use serde::{Deserialize, Serialize};

use crate::{Error, UnixSeconds, check, positive_up_to};

/// Glickman's factor between the Glicko scale (1500-centred points) and the Glicko-2 scale.
const SCALE: f64 = 173.7178;
/// The rating at the centre of the Glicko-2 scale.
const CENTRE: f64 = 1500.0;
/// Steps of the volatility iteration before giving up; the Illinois method converges in a
/// handful for every finite input, so this only turns a runaway into an error.
const MAX_ILLINOIS_STEPS: u32 = 500;
/// Seconds in a day, for the inactivity rate given per day.
const DAY: f64 = 86_400.0;

/// A Glicko-2 rating on the Glicko scale (the numbers players see).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Glicko2 {
    /// Rating, e.g. 1500.
    pub rating: f64,
    /// Rating deviation (RD), e.g. 500 for a new player.
    pub rd: f64,
    /// Volatility, e.g. 0.09.
    pub volatility: f64,
}

impl Glicko2 {
    /// Refuses a rating out of range: the rating within +-10000, RD above 0 and at most
    /// 10000, volatility above 0 and at most 1 (far wider than any pool reaches, narrow enough
    /// that no step overflows); `who` names it in the error.
    fn checked(self, who: &dyn Fn() -> String) -> Result<Self, Error> {
        let limit = "from -10000 to 10000";
        check(
            || format!("{}'s rating", who()),
            self.rating,
            -10_000.0..=10_000.0,
            limit,
        )?;
        let rd = "above 0 and at most 10000";
        check(
            || format!("{}'s rd", who()),
            self.rd,
            positive_up_to(10_000.0),
            rd,
        )?;
        let volatility = "above 0 and at most 1";
        check(
            || format!("{}'s volatility", who()),
            self.volatility,
            positive_up_to(1.0),
            volatility,
        )?;
        Ok(self)
    }
}

/// The result of a game for the player being rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The player won (score 1).
    Win,
    /// Drawn (score 1/2): rare, but the rulings allow it (neither player has a legal move;
    /// in Rapid Transit, equal networks and nobody ever swapped).
    Draw,
    /// The player lost (score 0).
    Loss,
}

impl Outcome {
    /// The score Glicko-2 uses: 1, 1/2 or 0.
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// The same game seen by the opponent.
    pub fn reversed(self) -> Self {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// The constants of a rating pool.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Params {
    /// A new player's rating.
    pub initial: Glicko2,
    /// System constant tau: how fast volatility may change.
    pub tau: f64,
    /// Convergence tolerance of the volatility iteration (on ln(sigma^2)).
    pub tolerance: f64,
    /// Least RD after an update.
    pub min_rd: f64,
    /// Most RD, after an update and after inactivity.
    pub max_rd: f64,
    /// Most volatility after an update.
    pub max_volatility: f64,
    /// Least rating after an update.
    pub rating_floor: f64,
    /// Rating periods per day of inactivity, for RD growth.
    pub periods_per_day: f64,
    /// A rating is provisional while its RD is at least this.
    pub provisional_rd: f64,
    /// A leaderboard lists players whose RD (as of now) is at most this ...
    pub leaderboard_rd: f64,
    /// ... and whose last rated game is at most this many days old.
    pub leaderboard_days: f64,
    /// A pool with fewer active players than this (a rated game within `leaderboard_days`)
    /// is a small one, a club's: its leaderboard admits RD up to `small_pool_rd` instead of
    /// `leaderboard_rd`, so that a few players who played a few games each are listed.
    pub small_pool_players: usize,
    /// The widest RD a small pool's leaderboard admits (see [`Params::leaderboard_rd_for`]).
    pub small_pool_rd: f64,
    /// A player's first game in a pool of a family (the size bands of one game) starts from
    /// their most-played pool of the family with RD raised to at least this ([`prior`]):
    /// what they showed on other boards is a better guess than a new player's rating, but a
    /// less certain one than in the pool it came from.
    pub prior_rd: f64,
}

impl Params {
    /// lichess's parameters, which issue 26 adopts so players meet numbers they know.
    pub const LICHESS: Params = Params {
        initial: Glicko2 {
            rating: 1500.0,
            rd: 500.0,
            volatility: 0.09,
        },
        tau: 0.75,
        tolerance: 1e-6,
        min_rd: 45.0,
        max_rd: 500.0,
        max_volatility: 0.1,
        rating_floor: 400.0,
        periods_per_day: 0.21436,
        provisional_rd: 110.0,
        leaderboard_rd: 75.0,
        leaderboard_days: 90.0,
        small_pool_players: 30,
        small_pool_rd: 300.0,
        prior_rd: 250.0,
    };

    /// The widest RD (as of now) a pool's leaderboard admits when `active` players have a
    /// rated game within `leaderboard_days`: `leaderboard_rd` (lichess's 75) in a pool of at
    /// least `small_pool_players`, `small_pool_rd` below that. lichess's 75 needs dozens of
    /// games against settled opponents; a club of six new players who played six games each
    /// among themselves has RDs of 214 to 263 (measured in `tests/glicko2.rs`) and would see
    /// an empty leaderboard. 300 admits a club's player after about three games (two leave
    /// RD near 330).
    pub fn leaderboard_rd_for(&self, active: usize) -> f64 {
        if active < self.small_pool_players {
            self.small_pool_rd
        } else {
            self.leaderboard_rd
        }
    }

    /// No clamps, floor or inactivity: Glickman's bare algorithm with the given tau, as in
    /// his worked example (tau 0.5) and in `skillratings`.
    pub fn unclamped(tau: f64) -> Params {
        Params {
            tau,
            min_rd: 0.0,
            max_rd: f64::INFINITY,
            max_volatility: f64::INFINITY,
            rating_floor: f64::NEG_INFINITY,
            periods_per_day: 0.0,
            ..Params::LICHESS
        }
    }
}

/// The record a player starts a pool with at `at`, given their records in its sibling pools
/// (the other size bands of the same game): a new player's if they have played in none;
/// otherwise the rating and volatility of their most-played sibling (on a tie the one played
/// last, then the first given), with its RD as of `at` raised to at least `prior_rd`, no
/// games and no last game (so that its RD does not grow again before the first one).
pub fn prior<'a>(
    siblings: impl IntoIterator<Item = &'a PlayerRating>,
    at: UnixSeconds,
    params: &Params,
) -> Result<PlayerRating, Error> {
    let mut best: Option<&PlayerRating> = None;
    for sibling in siblings {
        if sibling.games == 0 {
            continue;
        }
        let better =
            best.is_none_or(|b| (sibling.games, sibling.last_game_at) > (b.games, b.last_game_at));
        if better {
            best = Some(sibling);
        }
    }
    let Some(best) = best else {
        return Ok(PlayerRating::new(params));
    };
    let now = best.as_of(at, params)?;
    Ok(PlayerRating {
        glicko: Glicko2 {
            rd: now.rd.max(params.prior_rd).min(params.max_rd),
            ..now
        },
        games: 0,
        last_game_at: None,
    })
}

/// `rating` after `days` of inactivity: phi grows to sqrt(phi^2 + t * sigma^2) on the
/// Glicko-2 scale, with t = `days * periods_per_day`, capped at `max_rd`.
pub fn aged(rating: Glicko2, days: f64, params: &Params) -> Result<Glicko2, Error> {
    let rating = rating.checked(&|| "the player".to_owned())?;
    if !(days.is_finite() && days >= 0.0) {
        return Err(Error::OutOfRange {
            field: "days since the last rated game".to_owned(),
            value: days,
            expected: "a finite number of days, 0 or more",
        });
    }
    let periods = days * params.periods_per_day;
    if periods == 0.0 {
        // No time, no change, to the last bit (sqrt(phi^2) may round).
        return Ok(rating);
    }
    let phi = rating.rd / SCALE;
    let grown = periods.mul_add(rating.volatility.powi(2), phi * phi).sqrt() * SCALE;
    Ok(Glicko2 {
        rd: grown.min(params.max_rd),
        ..rating
    })
}

/// Glickman's update of `player` for one rating period with `games` (each opponent's rating
/// and the player's result), then the pool's clamps. An empty period only widens RD by one
/// period's volatility, as Glickman says.
pub fn rate_period(
    player: Glicko2,
    games: &[(Glicko2, Outcome)],
    params: &Params,
) -> Result<Glicko2, Error> {
    let player = player.checked(&|| "the player".to_owned())?;
    let mu = (player.rating - CENTRE) / SCALE;
    let phi = player.rd / SCALE;
    let sigma = player.volatility;

    // Step 3 and 4: the estimated variance v and the improvement sum sum(g * (s - E)).
    let mut inverse_v = 0.0;
    let mut improvement = 0.0;
    for (index, (opponent, outcome)) in games.iter().enumerate() {
        let opponent = opponent.checked(&|| format!("opponent {}", index + 1))?;
        let mu_j = (opponent.rating - CENTRE) / SCALE;
        let g = g(opponent.rd / SCALE);
        let expected = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
        inverse_v += g * g * expected * (1.0 - expected);
        improvement += g * (outcome.score() - expected);
    }
    let (new_phi, new_mu, new_sigma) = if games.is_empty() {
        (phi.hypot(sigma), mu, sigma)
    } else {
        let v = 1.0 / inverse_v;
        let delta = v * improvement;
        let new_sigma = volatility(sigma, phi, v, delta, params)?;
        // Step 6 and 7.
        let phi_star = phi.hypot(new_sigma);
        let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        (
            new_phi,
            new_phi.mul_add(new_phi * improvement, mu),
            new_sigma,
        )
    };
    Ok(Glicko2 {
        rating: new_mu.mul_add(SCALE, CENTRE).max(params.rating_floor),
        rd: (new_phi * SCALE).clamp(params.min_rd, params.max_rd),
        volatility: new_sigma.min(params.max_volatility),
    })
}

/// Glickman's g(phi): how much an opponent's uncertainty damps what a game against them says.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// Step 5: the new volatility, the root of Glickman's f(x) found by the Illinois variant of
/// regula falsi to within `params.tolerance`.
fn volatility(sigma: f64, phi: f64, v: f64, delta: f64, params: &Params) -> Result<f64, Error> {
    let tau = params.tau;
    let a0 = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let denominator = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * denominator * denominator)
            - (x - a0) / (tau * tau)
    };
    let mut a = a0;
    let mut b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        let mut steps = 0;
        while f(a0 - k * tau) < 0.0 {
            k += 1.0;
            steps += 1;
            if steps > MAX_ILLINOIS_STEPS {
                return Err(Error::NoConvergence(MAX_ILLINOIS_STEPS));
            }
        }
        a0 - k * tau
    };
    let mut fa = f(a);
    let mut fb = f(b);
    let mut steps = 0;
    while (b - a).abs() > params.tolerance {
        steps += 1;
        if steps > MAX_ILLINOIS_STEPS {
            return Err(Error::NoConvergence(MAX_ILLINOIS_STEPS));
        }
        let c = a + (a - b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            a = b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        b = c;
        fb = fc;
    }
    Ok((a / 2.0).exp())
}

/// What the server stores per account and game: the rating after the last rated game, how
/// many rated games it counts, and when the last one ended.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PlayerRating {
    /// The rating right after the last rated game (RD not yet grown by inactivity).
    pub glicko: Glicko2,
    /// Rated games played in this pool.
    pub games: u32,
    /// When the last rated game ended; `None` before the first.
    pub last_game_at: Option<UnixSeconds>,
}

impl PlayerRating {
    /// A new player of the pool.
    pub fn new(params: &Params) -> Self {
        PlayerRating {
            glicko: params.initial,
            games: 0,
            last_game_at: None,
        }
    }

    /// The rating as of `now`, RD grown by the days since the last rated game. A `now` before
    /// that game (instances' clocks differ by a little) counts as no time at all.
    pub fn as_of(&self, now: UnixSeconds, params: &Params) -> Result<Glicko2, Error> {
        let days = match self.last_game_at {
            Some(last) => now.saturating_sub(last).max(0) as f64 / DAY,
            None => 0.0,
        };
        aged(self.glicko, days, params)
    }

    /// The rating to show at `now`: RD grown by inactivity, provisional while RD >= 110.
    pub fn shown(&self, now: UnixSeconds, params: &Params) -> Result<Shown, Error> {
        let glicko = self.as_of(now, params)?;
        Ok(Shown {
            rating: glicko.rating,
            rd: glicko.rd,
            volatility: glicko.volatility,
            games: self.games,
            provisional: glicko.rd >= params.provisional_rd,
        })
    }

    /// Whether the player belongs on the leaderboard at `now` (issue 26: RD at most 75 as of
    /// now, a rated game in the last 90 days). The server keeps its top 100 by rating.
    pub fn on_leaderboard(&self, now: UnixSeconds, params: &Params) -> Result<bool, Error> {
        let Some(last) = self.last_game_at else {
            return Ok(false);
        };
        let recent = (now.saturating_sub(last) as f64) / DAY <= params.leaderboard_days;
        Ok(recent && self.as_of(now, params)?.rd <= params.leaderboard_rd)
    }
}

/// A rating as shown to people (`GET /api/accounts/{name}`'s `ratings`); `Display` writes the
/// rounded rating with a `?` when provisional, e.g. "1612?".
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Shown {
    /// Rating.
    pub rating: f64,
    /// RD as of the moment shown.
    pub rd: f64,
    /// Volatility.
    pub volatility: f64,
    /// Rated games played in this pool.
    pub games: u32,
    /// Whether RD is at least 110.
    pub provisional: bool,
}

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mark = if self.provisional { "?" } else { "" };
        write!(f, "{:.0}{mark}", self.rating)
    }
}

/// One player's side of a rated game: the rating going in (RD grown to the game's end) and
/// the record after it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// The rating before the game, as of the game's end.
    pub before: Glicko2,
    /// What to store after the game.
    pub after: PlayerRating,
}

impl Change {
    /// The rating points won or lost (the game view's "+12" / "-12").
    pub fn delta(&self) -> f64 {
        self.after.glicko.rating - self.before.rating
    }
}

/// Rates a game that ended at `at`: one rating period for each player, both computed from
/// the two ratings before the game (RD grown by each one's inactivity). `first_outcome` is
/// the first player's result. Returns the first player's change, then the second's.
pub fn rate_game(
    first: &PlayerRating,
    second: &PlayerRating,
    first_outcome: Outcome,
    at: UnixSeconds,
    params: &Params,
) -> Result<(Change, Change), Error> {
    let first_before = first.as_of(at, params)?;
    let second_before = second.as_of(at, params)?;
    let after = |me: &PlayerRating, mine: Glicko2, theirs: Glicko2, outcome: Outcome| {
        rate_period(mine, &[(theirs, outcome)], params).map(|glicko| Change {
            before: mine,
            after: PlayerRating {
                glicko,
                games: me.games.saturating_add(1),
                last_game_at: Some(at),
            },
        })
    };
    Ok((
        after(first, first_before, second_before, first_outcome)?,
        after(
            second,
            second_before,
            first_before,
            first_outcome.reversed(),
        )?,
    ))
}
