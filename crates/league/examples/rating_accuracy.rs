//! How close Glicko-2 (lichess's parameters) comes to known strengths: synthetic players
//! whose true rating is drawn from N(1500, 350) play once a day, each game
//! against a random opponent, or (second table) against a neighbour by current rating as a
//! Swiss or a rating-matched seek would pair them (each player's rating plus noise of 100,
//! sorted, adjacent pairs). Each game is
//! won with the Elo-logistic probability 1 / (1 + 10^((theirs - mine) / 400)), rated by
//! `swapboard_league::glicko2::rate_game`. After 20 and 50 games each it prints the mean
//! absolute error between rating and true strength, Spearman's rank correlation, the spread
//! of the ratings over that of the strengths, the mean RD
//! and the share still provisional, averaged over seeds (docs/RATINGS.md).
//!
//! Run: `cargo run --release -p swapboard-league --example rating_accuracy`

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_league::glicko2::{Outcome, Params, PlayerRating, rate_game};

const PLAYERS: usize = 200;
const SEEDS: u64 = 20;
const CHECKPOINTS: [u32; 4] = [10, 20, 50, 100];
const DAY: i64 = 86_400;

/// What one checkpoint measured in one run.
#[derive(Clone, Copy, Default)]
struct Measure {
    mean_absolute_error: f64,
    spearman: f64,
    /// Standard deviation of the ratings over that of the true strengths.
    spread: f64,
    mean_rd: f64,
    provisional: f64,
}

/// How opponents are chosen each day.
#[derive(Clone, Copy)]
enum Pairing {
    Random,
    NearRating,
}

fn main() {
    for pairing in [Pairing::Random, Pairing::NearRating] {
        report(pairing);
    }
}

fn report(pairing: Pairing) {
    let params = Params::LICHESS;
    let mut runs: Vec<Vec<Measure>> = vec![Vec::new(); CHECKPOINTS.len()];
    for seed in 0..SEEDS {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let truth: Vec<f64> = (0..PLAYERS)
            .map(|_| 1500.0 + 350.0 * normal(&mut rng))
            .collect();
        let mut ratings = vec![PlayerRating::new(&params); PLAYERS];
        let mut order: Vec<usize> = (0..PLAYERS).collect();
        let last = CHECKPOINTS[CHECKPOINTS.len() - 1];
        for day in 1..=last {
            match pairing {
                Pairing::Random => order.shuffle(&mut rng),
                Pairing::NearRating => {
                    let noisy: Vec<f64> = ratings
                        .iter()
                        .map(|r| r.glicko.rating + 100.0 * normal(&mut rng))
                        .collect();
                    order.sort_by(|&a, &b| noisy[a].total_cmp(&noisy[b]));
                }
            }
            let at = i64::from(day) * DAY;
            for pair in order.chunks_exact(2) {
                let (a, b) = (pair[0], pair[1]);
                let p_a = 1.0 / (1.0 + 10f64.powf((truth[b] - truth[a]) / 400.0));
                let outcome = if rng.random_bool(p_a) {
                    Outcome::Win
                } else {
                    Outcome::Loss
                };
                let (ca, cb) = rate_game(&ratings[a], &ratings[b], outcome, at, &params)
                    .expect("ratings stay in range");
                ratings[a] = ca.after;
                ratings[b] = cb.after;
            }
            if let Some(i) = CHECKPOINTS.iter().position(|&c| c == day) {
                runs[i].push(measure(&truth, &ratings, at, &params));
            }
        }
    }
    let against = match pairing {
        Pairing::Random => "a random opponent",
        Pairing::NearRating => "a neighbour by current rating",
    };
    println!(
        "\n{PLAYERS} players, true strength N(1500, 350), one game a day against {against}, {SEEDS} seeds (mean, and the range over seeds)\n"
    );
    println!(
        "| games each | mean absolute error | Spearman rank correlation | spread ratio | mean RD | provisional |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    for (games, measures) in CHECKPOINTS.iter().zip(&runs) {
        let summary = |f: fn(&Measure) -> f64| {
            let values: Vec<f64> = measures.iter().map(f).collect();
            let mean = values.iter().sum::<f64>() / values.len() as f64;
            let (lo, hi) = values
                .iter()
                .fold((f64::MAX, f64::MIN), |(l, h), &v| (l.min(v), h.max(v)));
            (mean, lo, hi)
        };
        let (mae, mae_lo, mae_hi) = summary(|m| m.mean_absolute_error);
        let (rho, rho_lo, rho_hi) = summary(|m| m.spearman);
        let (spread, _, _) = summary(|m| m.spread);
        let (rd, _, _) = summary(|m| m.mean_rd);
        let (prov, _, _) = summary(|m| m.provisional);
        println!(
            "| {games} | {mae:.0} ({mae_lo:.0}-{mae_hi:.0}) | {rho:.3} ({rho_lo:.3}-{rho_hi:.3}) | {spread:.2} | {rd:.0} | {:.0}% |",
            prov * 100.0
        );
    }
}

fn measure(truth: &[f64], ratings: &[PlayerRating], now: i64, params: &Params) -> Measure {
    let shown: Vec<_> = ratings
        .iter()
        .map(|r| r.shown(now, params).expect("ratings stay in range"))
        .collect();
    let n = truth.len() as f64;
    let rating: Vec<f64> = shown.iter().map(|s| s.rating).collect();
    Measure {
        mean_absolute_error: truth
            .iter()
            .zip(&rating)
            .map(|(t, r)| (t - r).abs())
            .sum::<f64>()
            / n,
        spearman: pearson(&ranks(truth), &ranks(&rating)),
        spread: deviation(&rating) / deviation(truth),
        mean_rd: shown.iter().map(|s| s.rd).sum::<f64>() / n,
        provisional: shown.iter().filter(|s| s.provisional).count() as f64 / n,
    }
}

/// Ranks from 0 (ties cannot happen with continuous strengths and ratings).
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut rank = vec![0.0; values.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r as f64;
    }
    rank
}

fn deviation(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt()
}

fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let cov: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    let vy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
    cov / (vx * vy).sqrt()
}

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut Xoshiro256PlusPlus) -> f64 {
    let u: f64 = 1.0 - rng.random::<f64>();
    let v: f64 = rng.random();
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}
