//! Glicko-2: Glickman's worked example, lichess's rules (clamps, floor, inactivity,
//! provisional), bad input, and agreement with `skillratings` on random sequences.

use proptest::prelude::*;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2, glicko2_rating_period};
use swapboard_league::Error;
use swapboard_league::glicko2::{
    Glicko2, Outcome, Params, PlayerRating, aged, rate_game, rate_period,
};

const DAY: i64 = 86_400;

fn rating(rating: f64, rd: f64, volatility: f64) -> Glicko2 {
    Glicko2 {
        rating,
        rd,
        volatility,
    }
}

/// Glickman's example: 1500/200/0.06 against 1400/30, 1550/100, 1700/300 with results 1, 0,
/// 0 and tau 0.5 gives 1464.06 / 151.52 / 0.05999. The paper rounds its intermediate steps;
/// computed without rounding the rating is 1464.0507 and the volatility 0.059996, so they are
/// held to 0.01 and 0.00001.
#[test]
fn glickmans_worked_example() {
    let player = rating(1500.0, 200.0, 0.06);
    let games = [
        (rating(1400.0, 30.0, 0.06), Outcome::Win),
        (rating(1550.0, 100.0, 0.06), Outcome::Loss),
        (rating(1700.0, 300.0, 0.06), Outcome::Loss),
    ];
    // Bare, and with lichess's clamps (none of which bites here).
    for params in [
        Params::unclamped(0.5),
        Params {
            tau: 0.5,
            ..Params::LICHESS
        },
    ] {
        let after = rate_period(player, &games, &params).unwrap();
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.rd - 151.52).abs() < 0.005, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.000_01, "{after:?}");
    }
}

#[test]
fn an_empty_period_widens_rd_by_one_period_of_volatility() {
    let player = rating(1700.0, 60.0, 0.06);
    let after = rate_period(player, &[], &Params::LICHESS).unwrap();
    let phi = 60.0 / 173.7178_f64;
    assert_eq!(after.rating, 1700.0);
    assert!((after.rd - (phi * phi + 0.06 * 0.06).sqrt() * 173.7178).abs() < 1e-9);
}

/// lichess's rate: a typical RD goes from 60 to 110 in a year without games.
#[test]
fn inactivity_takes_rd_from_60_to_110_in_a_year_and_caps_at_500() {
    let params = Params::LICHESS;
    let player = rating(1800.0, 60.0, 0.06);
    let year = aged(player, 365.0, &params).unwrap();
    assert!((year.rd - 110.0).abs() < 1.0, "{year:?}");
    assert_eq!((year.rating, year.volatility), (1800.0, 0.06));
    assert_eq!(aged(player, 0.0, &params).unwrap(), player);
    assert_eq!(aged(player, 365.0 * 200.0, &params).unwrap().rd, 500.0);
    // The same through a stored record and the times of its games.
    let record = PlayerRating {
        glicko: player,
        games: 30,
        last_game_at: Some(1_000 * DAY),
    };
    assert_eq!(record.as_of(1_365 * DAY, &params).unwrap(), year);
    // A clock a little behind the last game counts as no time at all.
    assert_eq!(record.as_of(1_000 * DAY - 5, &params).unwrap(), player);
}

#[test]
fn inactivity_is_applied_before_the_update() {
    let params = Params::LICHESS;
    let me = PlayerRating {
        glicko: rating(1800.0, 60.0, 0.06),
        games: 30,
        last_game_at: Some(0),
    };
    let you = PlayerRating {
        glicko: rating(1800.0, 60.0, 0.06),
        games: 30,
        last_game_at: Some(0),
    };
    let (fresh, _) = rate_game(&me, &you, Outcome::Win, 0, &params).unwrap();
    let (late, _) = rate_game(&me, &you, Outcome::Win, 365 * DAY, &params).unwrap();
    assert!((late.before.rd - 110.0).abs() < 1.0);
    assert_eq!(late.before, aged(me.glicko, 365.0, &params).unwrap());
    // A wider RD on both sides moves the rating further.
    assert!(
        late.delta() > fresh.delta() + 1.0,
        "{} vs {}",
        late.delta(),
        fresh.delta()
    );
}

#[test]
fn rd_never_goes_below_45_and_rating_never_below_400() {
    let params = Params::LICHESS;
    // Two steady players meeting often: unclamped, their RD would sink below 45.
    let steady = PlayerRating {
        glicko: rating(2000.0, 60.0, 0.02),
        games: 500,
        last_game_at: Some(0),
    };
    for (params, floored) in [
        (params, true),
        (
            Params {
                min_rd: 0.0,
                ..params
            },
            false,
        ),
    ] {
        let (mut me, mut rival) = (steady, steady);
        for game in 0..100 {
            let result = if game % 2 == 0 {
                Outcome::Win
            } else {
                Outcome::Loss
            };
            let (a, b) = rate_game(&me, &rival, result, game, &params).unwrap();
            (me, rival) = (a.after, b.after);
            assert!(!floored || me.glicko.rd >= 45.0);
        }
        if floored {
            assert_eq!(me.glicko.rd, 45.0, "RD settles on its floor");
        } else {
            assert!(me.glicko.rd < 44.0, "the case must need the floor: {me:?}");
        }
    }

    let mut weak = PlayerRating {
        glicko: rating(420.0, 200.0, 0.06),
        games: 5,
        last_game_at: Some(0),
    };
    let strong = PlayerRating {
        glicko: rating(700.0, 50.0, 0.06),
        games: 100,
        last_game_at: Some(0),
    };
    for game in 0..10 {
        weak = rate_game(&weak, &strong, Outcome::Loss, game, &params)
            .unwrap()
            .0
            .after;
    }
    assert_eq!(weak.glicko.rating, 400.0);
}

#[test]
fn volatility_never_exceeds_a_tenth() {
    let params = Params::LICHESS;
    // A settled player beating a far stronger one ten times in a period: surprise raises
    // volatility past 0.1 unless clamped.
    let upsets = [(rating(2600.0, 45.0, 0.06), Outcome::Win); 10];
    let player = rating(1500.0, 50.0, 0.09);
    let clamped = rate_period(player, &upsets, &params).unwrap();
    let bare = rate_period(
        player,
        &upsets,
        &Params {
            max_volatility: f64::INFINITY,
            ..params
        },
    )
    .unwrap();
    assert!(
        bare.volatility > 0.1,
        "the case must need the clamp: {bare:?}"
    );
    assert_eq!(clamped.rating, bare.rating);
    assert_eq!(clamped.volatility, 0.1);
}

#[test]
fn a_new_player_starts_at_1500_500_009_and_is_provisional() {
    let params = Params::LICHESS;
    let new = PlayerRating::new(&params);
    assert_eq!(new.glicko, rating(1500.0, 500.0, 0.09));
    let shown = new.shown(0, &params).unwrap();
    assert!(shown.provisional);
    assert_eq!(shown.to_string(), "1500?");
    assert_eq!(shown.games, 0);
}

#[test]
fn provisional_while_rd_is_at_least_110() {
    let params = Params::LICHESS;
    let at = |rd: f64| PlayerRating {
        glicko: rating(1612.4, rd, 0.06),
        games: 14,
        last_game_at: Some(0),
    };
    assert_eq!(at(110.0).shown(0, &params).unwrap().to_string(), "1612?");
    assert_eq!(at(109.9).shown(0, &params).unwrap().to_string(), "1612");
    // Shown a year later, the same rating has become provisional again.
    let later = at(60.0).shown(365 * DAY, &params).unwrap();
    assert!(later.provisional && later.rd > 109.0, "{later:?}");
}

#[test]
fn the_leaderboard_takes_rd_at_most_75_and_a_game_in_the_last_90_days() {
    let params = Params::LICHESS;
    let settled = PlayerRating {
        glicko: rating(2100.0, 60.0, 0.06),
        games: 80,
        last_game_at: Some(0),
    };
    assert!(settled.on_leaderboard(0, &params).unwrap());
    assert!(settled.on_leaderboard(30 * DAY, &params).unwrap());
    // RD 60 grows past 75 within 90 days at volatility 0.06 (about 78 after 90 days).
    let grown = settled.as_of(90 * DAY, &params).unwrap().rd;
    assert!(grown > 75.0, "{grown}");
    assert!(!settled.on_leaderboard(90 * DAY, &params).unwrap());
    let steady = PlayerRating {
        glicko: rating(2100.0, 45.0, 0.04),
        ..settled
    };
    assert!(steady.on_leaderboard(90 * DAY, &params).unwrap());
    assert!(
        !steady.on_leaderboard(91 * DAY, &params).unwrap(),
        "no game for 91 days"
    );
    let unsure = PlayerRating {
        glicko: rating(2100.0, 80.0, 0.06),
        ..settled
    };
    assert!(!unsure.on_leaderboard(0, &params).unwrap());
    assert!(
        !PlayerRating::new(&params)
            .on_leaderboard(0, &params)
            .unwrap()
    );
}

/// Both players are rated from the ratings before the game: the second's update uses the
/// first's old rating, not the new one.
#[test]
fn a_game_rates_both_players_from_their_ratings_before_it() {
    let params = Params::LICHESS;
    let a = PlayerRating {
        glicko: rating(1600.0, 120.0, 0.07),
        games: 8,
        last_game_at: Some(0),
    };
    let b = PlayerRating {
        glicko: rating(1450.0, 300.0, 0.09),
        games: 2,
        last_game_at: Some(2 * DAY),
    };
    let at = 10 * DAY;
    let (first, second) = rate_game(&a, &b, Outcome::Loss, at, &params).unwrap();
    let (a_before, b_before) = (a.as_of(at, &params).unwrap(), b.as_of(at, &params).unwrap());
    assert_eq!(first.before, a_before);
    assert_eq!(
        first.after.glicko,
        rate_period(a_before, &[(b_before, Outcome::Loss)], &params).unwrap()
    );
    assert_eq!(
        second.after.glicko,
        rate_period(b_before, &[(a_before, Outcome::Win)], &params).unwrap()
    );
    assert!(first.delta() < 0.0 && second.delta() > 0.0);
    assert_eq!((first.after.games, second.after.games), (9, 3));
    assert_eq!(first.after.last_game_at, Some(at));
}

#[test]
fn bad_numbers_are_refused_with_their_name() {
    let params = Params::LICHESS;
    let good = rating(1500.0, 100.0, 0.06);
    let err = rate_period(
        good,
        &[(rating(f64::NAN, 100.0, 0.06), Outcome::Win)],
        &params,
    )
    .unwrap_err();
    assert!(
        err.to_string().starts_with("opponent 1's rating is NaN"),
        "{err}"
    );
    let err = rate_period(rating(1500.0, -3.0, 0.06), &[], &params).unwrap_err();
    assert!(
        matches!(err, Error::OutOfRange { ref field, .. } if field == "the player's rd"),
        "{err}"
    );
    let err = rate_period(rating(1500.0, 100.0, 0.0), &[], &params).unwrap_err();
    assert!(err.to_string().contains("volatility"), "{err}");
    assert!(aged(good, -1.0, &params).is_err());
    assert!(aged(good, f64::INFINITY, &params).is_err());
}

fn theirs(r: Glicko2) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.rd,
        volatility: r.volatility,
    }
}

fn outcome(win: bool) -> (Outcome, Outcomes) {
    if win {
        (Outcome::Win, Outcomes::WIN)
    } else {
        (Outcome::Loss, Outcomes::LOSS)
    }
}

/// How far our numbers may be from `skillratings`' after a sequence: both iterate to 1e-6
/// on ln(sigma^2), and rounding differs (fused multiply-adds), so they agree to far below
/// what is shown (a tenth of a point).
const RATING_TOLERANCE: f64 = 1e-6;
const VOLATILITY_TOLERANCE: f64 = 1e-8;

fn close(ours: Glicko2, reference: Glicko2Rating) -> bool {
    (ours.rating - reference.rating).abs() < RATING_TOLERANCE
        && (ours.rd - reference.deviation).abs() < RATING_TOLERANCE
        && (ours.volatility - reference.volatility).abs() < VOLATILITY_TOLERANCE
}

fn anything_allowed() -> impl Strategy<Value = Glicko2> {
    (-10_000.0..=10_000.0f64, 1e-6..=10_000.0f64, 1e-6..=1.0f64)
        .prop_map(|(r, rd, v)| rating(r, rd, v))
}

fn start() -> impl Strategy<Value = Glicko2> {
    (800.0..2400.0f64, 45.0..500.0f64, 0.03..0.1f64).prop_map(|(r, rd, v)| rating(r, rd, v))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any input the range checks let through gives finite numbers within the pool's clamps,
    /// or says the iteration did not converge: never a panic, NaN or infinity.
    #[test]
    fn every_allowed_input_gives_finite_numbers(
        tau in 0.3..1.2f64,
        player in anything_allowed(),
        games in proptest::collection::vec((anything_allowed(), any::<bool>()), 0..6),
        days in 0.0..100_000.0f64,
    ) {
        let params = Params { tau, ..Params::LICHESS };
        let games: Vec<(Glicko2, Outcome)> = games.iter().map(|&(o, w)| (o, outcome(w).0)).collect();
        let grown = aged(player, days, &params).unwrap();
        prop_assert!(grown.rd.is_finite() && grown.rd >= player.rd.min(500.0) && grown.rd <= player.rd.max(500.0));
        match rate_period(player, &games, &params) {
            Ok(after) => {
                prop_assert!(after.rating.is_finite() && after.rating >= 400.0, "{:?}", after);
                prop_assert!((45.0..=500.0).contains(&after.rd), "{:?}", after);
                prop_assert!(after.volatility > 0.0 && after.volatility <= 0.1, "{:?}", after);
            }
            Err(err) => prop_assert!(matches!(err, Error::NoConvergence(_)), "{}", err),
        }
    }

    /// The bare algorithm against `skillratings::glicko2`, game after game among four players.
    #[test]
    fn agrees_with_skillratings_on_random_sequences(
        tau in 0.3..1.2f64,
        starts in proptest::collection::vec(start(), 4),
        games in proptest::collection::vec((0..4usize, 1..4usize, any::<bool>()), 1..40),
    ) {
        let params = Params::unclamped(tau);
        let config = Glicko2Config { tau, convergence_tolerance: 1e-6 };
        let mut ours = starts.clone();
        let mut reference: Vec<Glicko2Rating> = starts.iter().copied().map(theirs).collect();
        for (a, step, first_wins) in games {
            let b = (a + step) % 4;
            let (mine, skill) = outcome(first_wins);
            let (na, nb) = (
                rate_period(ours[a], &[(ours[b], mine)], &params).unwrap(),
                rate_period(ours[b], &[(ours[a], mine.reversed())], &params).unwrap(),
            );
            (ours[a], ours[b]) = (na, nb);
            (reference[a], reference[b]) = glicko2(&reference[a], &reference[b], &skill, &config);
            prop_assert!(close(ours[a], reference[a]), "{:?} vs {:?}", ours[a], reference[a]);
            prop_assert!(close(ours[b], reference[b]), "{:?} vs {:?}", ours[b], reference[b]);
        }
    }

    /// A rating period of several games against `skillratings::glicko2_rating_period`.
    #[test]
    fn a_period_of_several_games_agrees_with_skillratings(
        tau in 0.3..1.2f64,
        player in start(),
        games in proptest::collection::vec((start(), any::<bool>()), 1..12),
    ) {
        let ours: Vec<(Glicko2, Outcome)> = games.iter().map(|&(o, w)| (o, outcome(w).0)).collect();
        let reference: Vec<(Glicko2Rating, Outcomes)> =
            games.iter().map(|&(o, w)| (theirs(o), outcome(w).1)).collect();
        let mine = rate_period(player, &ours, &Params::unclamped(tau)).unwrap();
        let config = Glicko2Config { tau, convergence_tolerance: 1e-6 };
        let expected = glicko2_rating_period(&theirs(player), &reference, &config);
        prop_assert!(close(mine, expected), "{mine:?} vs {expected:?}");
    }

    /// lichess's whole rule set against `skillratings` plus the rules written out here:
    /// RD grown by the days between games (capped at 500), then the update, then the clamps.
    #[test]
    fn lichess_rules_agree_with_skillratings_plus_clamps(
        games in proptest::collection::vec((0..4usize, 1..4usize, any::<bool>(), 0..400i64), 1..40),
    ) {
        let params = Params::LICHESS;
        let config = Glicko2Config { tau: 0.75, convergence_tolerance: 1e-6 };
        let mut ours = [PlayerRating::new(&params); 4];
        let mut reference = [(Glicko2Rating { rating: 1500.0, deviation: 500.0, volatility: 0.09 }, None::<i64>); 4];
        let mut now = 0;
        for (a, step, first_wins, gap_hours) in games {
            let b = (a + step) % 4;
            now += gap_hours * 3600;
            let grown = |(r, last): (Glicko2Rating, Option<i64>)| {
                let days = last.map_or(0.0, |l| (now - l) as f64 / 86_400.0);
                let phi = r.deviation / 173.7178;
                let rd = (phi * phi + days * 0.21436 * r.volatility * r.volatility).sqrt() * 173.7178;
                Glicko2Rating { deviation: rd.min(500.0), ..r }
            };
            let clamp = |r: Glicko2Rating| Glicko2Rating {
                rating: r.rating.max(400.0),
                deviation: r.deviation.clamp(45.0, 500.0),
                volatility: r.volatility.min(0.1),
            };
            let (ra, rb) = glicko2(&grown(reference[a]), &grown(reference[b]), &outcome(first_wins).1, &config);
            reference[a] = (clamp(ra), Some(now));
            reference[b] = (clamp(rb), Some(now));
            let (ca, cb) = rate_game(&ours[a], &ours[b], outcome(first_wins).0, now, &params).unwrap();
            (ours[a], ours[b]) = (ca.after, cb.after);
            prop_assert!(close(ours[a].glicko, reference[a].0), "{:?} vs {:?}", ours[a], reference[a]);
            prop_assert!(close(ours[b].glicko, reference[b].0), "{:?} vs {:?}", ours[b], reference[b]);
        }
    }
}

/// The prior of a new band: new without other bands; else the most-played band (the latest
/// on a tie), RD grown to the moment and raised to `prior_rd`, kept when already wider.
#[test]
fn a_new_band_starts_from_the_most_played_other_band() {
    use swapboard_league::glicko2::{Glicko2, prior};
    let params = Params::LICHESS;
    let record = |rating, rd, games, last| PlayerRating {
        glicko: Glicko2 {
            rating,
            rd,
            volatility: 0.06,
        },
        games,
        last_game_at: Some(last),
    };
    assert_eq!(prior([], 0, &params).unwrap(), PlayerRating::new(&params));
    let many = record(1800.0, 60.0, 30, 0);
    let few = record(1300.0, 60.0, 3, 100);
    let started = prior([&few, &many], 100, &params).unwrap();
    assert_eq!(started.glicko.rating, 1800.0);
    assert_eq!(started.glicko.rd, params.prior_rd);
    assert_eq!((started.games, started.last_game_at), (0, None));
    // A tie on games: the band played last.
    let later = record(1400.0, 60.0, 30, 50);
    assert_eq!(
        prior([&many, &later], 100, &params).unwrap().glicko.rating,
        1400.0
    );
    // Wider than prior_rd already (years away): kept as grown.
    let old = record(1700.0, 300.0, 5, 0);
    let grown = old.as_of(400 * 86_400, &params).unwrap();
    assert_eq!(prior([&old], 400 * 86_400, &params).unwrap().glicko, grown);
}

/// The leaderboard's RD limit by pool size, and what a club's games give: six players who
/// each played six games among themselves (a round robin and one round more) are all under
/// the small pool's limit (their RDs are 214 to 263), none under lichess's 75.
#[test]
fn a_small_pools_leaderboard_admits_a_clubs_players() {
    let params = Params::LICHESS;
    assert_eq!(params.leaderboard_rd_for(6), params.small_pool_rd);
    assert_eq!(
        params.leaderboard_rd_for(params.small_pool_players),
        params.leaderboard_rd
    );
    let mut players = [PlayerRating::new(&params); 6];
    let mut at = 0;
    // Rounds of the circle method: three games a round, each player once.
    for round in 0..6 {
        for board in 0..3 {
            let (a, b) = if board == 0 {
                (0, 1 + round % 5)
            } else {
                (1 + (round + board) % 5, 1 + (round + 5 - board) % 5)
            };
            at += 3_600;
            let outcome = if (a + b + round) % 2 == 0 {
                Outcome::Win
            } else {
                Outcome::Loss
            };
            let (first, second) =
                rate_game(&players[a], &players[b], outcome, at, &params).unwrap();
            players[a] = first.after;
            players[b] = second.after;
        }
    }
    for player in &players {
        assert_eq!(player.games, 6);
        let rd = player.as_of(at, &params).unwrap().rd;
        assert!(
            rd <= params.small_pool_rd && rd > params.leaderboard_rd,
            "{rd}"
        );
        assert!(
            player
                .on_leaderboard(
                    at,
                    &Params {
                        leaderboard_rd: params.leaderboard_rd_for(6),
                        ..params
                    }
                )
                .unwrap()
        );
        assert!(!player.on_leaderboard(at, &params).unwrap());
    }
}
