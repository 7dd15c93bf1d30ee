use std::fmt;

use serde::Serialize;

/// A 95% confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// The lower bound.
    pub low: f64,
    /// The upper bound.
    pub high: f64,
}

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_985;

/// The sum-up of a match, from the first-listed player's side where a side is needed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The game id.
    pub game: String,
    /// The board side.
    pub size: usize,
    /// The two players' specs, in the order given.
    pub players: [String; 2],
    /// Games played.
    pub games: u64,
    /// Each player's wins, in player order.
    pub wins: [u64; 2],
    /// Each player's win rate with its 95% (Wilson) interval.
    pub win_rates: [f64; 2],
    /// The 95% intervals of the win rates.
    pub win_intervals: [Interval; 2],
    /// Games the rules drew.
    pub draws: u64,
    /// Games stopped at the ply cap (no result of the rules; they count half a point each
    /// in the score and the Elo difference).
    pub capped: u64,
    /// Games the player moving first won.
    pub first_player_wins: u64,
    /// The mean length of a game in plies (passes included).
    pub avg_plies: f64,
    /// The first-listed player's score (wins, plus half the draws and capped games).
    pub score: f64,
    /// The Elo difference, first-listed player minus second (a score of 0 or 1 is taken as
    /// half a game from it, so that the figure stays finite).
    pub elo_diff: f64,
    /// The 95% interval of the Elo difference.
    pub elo_interval: Interval,
}

impl Summary {
    /// The summary of a match's games, from their tally.
    pub(crate) fn new(game: &str, size: usize, players: [String; 2], tally: &Tally) -> Summary {
        let &Tally {
            games: n,
            wins,
            draws,
            capped,
            first_wins,
            plies,
        } = tally;
        let nf = n.max(1) as f64;
        let score = (wins[0] as f64 + 0.5 * (draws + capped) as f64) / nf;
        let points = wilson(score * nf, n);
        Summary {
            game: game.to_string(),
            size,
            players,
            games: n,
            wins,
            win_rates: wins.map(|w| w as f64 / nf),
            win_intervals: wins.map(|w| wilson(w as f64, n)),
            draws,
            capped,
            first_player_wins: first_wins,
            avg_plies: plies as f64 / nf,
            score,
            elo_diff: elo(score, n),
            elo_interval: Interval {
                low: elo(points.low, n),
                high: elo(points.high, n),
            },
        }
    }
}

/// What the summary needs of a match's games, summed as they end (constant memory).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Tally {
    /// Games counted.
    games: u64,
    /// Each player's wins, in player order.
    wins: [u64; 2],
    /// Games the rules drew.
    draws: u64,
    /// Games stopped at the ply cap.
    capped: u64,
    /// Games won by the player who moved first.
    first_wins: u64,
    /// The plies of all games.
    plies: u64,
}

impl Tally {
    /// Counts one game: its winner (index in player order), whether the winner moved first,
    /// whether it was capped, and its length.
    pub(crate) fn add(
        &mut self,
        winner: Option<usize>,
        winner_moved_first: bool,
        capped: bool,
        plies: u64,
    ) {
        self.games += 1;
        match winner {
            Some(w) => {
                self.wins[w] += 1;
                if winner_moved_first {
                    self.first_wins += 1;
                }
            }
            None if capped => self.capped += 1,
            None => self.draws += 1,
        }
        self.plies += plies;
    }
}

/// The Wilson score interval of `k` successes in `n` trials (`k` may hold halves: the Elo
/// interval uses it on points, draws counting half; that is a slight overestimate of the
/// spread of a score with draws, which is the safe side).
pub fn wilson(k: f64, n: u64) -> Interval {
    if n == 0 {
        return Interval {
            low: 0.0,
            high: 1.0,
        };
    }
    let n = n as f64;
    let p = k / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    Interval {
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// The Elo difference of a score over `n` games, the score kept half a game inside (0, 1).
fn elo(score: f64, n: u64) -> f64 {
    let margin = 0.5 / n.max(1) as f64;
    let s = score.clamp(margin, 1.0 - margin);
    -400.0 * (1.0 / s - 1.0).log10()
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} {}x{}: {} games",
            self.game, self.size, self.size, self.games
        )?;
        for i in 0..2 {
            let iv = self.win_intervals[i];
            writeln!(
                f,
                "  {:<20} wins {:>5}  {:>6}  (95%: {} - {})",
                self.players[i],
                self.wins[i],
                pct(self.win_rates[i]),
                pct(iv.low),
                pct(iv.high)
            )?;
        }
        writeln!(f, "  draws {}, capped {}", self.draws, self.capped)?;
        let decided = self.wins[0] + self.wins[1];
        writeln!(
            f,
            "  first player won {} of {} decided games",
            self.first_player_wins, decided
        )?;
        writeln!(f, "  average length {:.1} plies", self.avg_plies)?;
        write!(
            f,
            "  Elo difference {:+.0} (95%: {:+.0} to {:+.0})",
            self.elo_diff, self.elo_interval.low, self.elo_interval.high
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tally of games given as (winner, capped), each 10 plies long.
    fn tally(games: impl IntoIterator<Item = (Option<usize>, bool)>) -> Tally {
        let mut tally = Tally::default();
        for (winner, capped) in games {
            tally.add(winner, winner == Some(0), capped, 10);
        }
        tally
    }

    #[test]
    fn an_even_match_is_zero_elo_and_a_lopsided_one_is_finite() {
        let even = tally((0..10).map(|i| (Some(i % 2), false)));
        let s = Summary::new("g", 9, ["a".into(), "b".into()], &even);
        assert_eq!(s.wins, [5, 5]);
        assert!(s.elo_diff.abs() < 1e-9);
        assert!(s.elo_interval.low < 0.0 && s.elo_interval.high > 0.0);
        let sweep = tally((0..10).map(|_| (Some(0), false)));
        let s = Summary::new("g", 9, ["a".into(), "b".into()], &sweep);
        assert!(s.elo_diff.is_finite() && s.elo_diff > 300.0);
        assert!(s.elo_interval.low > 100.0 && s.elo_interval.high >= s.elo_diff);
        assert!(s.win_intervals[0].low > 0.6 && s.win_intervals[0].high == 1.0);
    }

    #[test]
    fn draws_and_capped_games_are_counted_apart() {
        let games = tally([(None, false), (None, true), (Some(1), false)]);
        let s = Summary::new("g", 9, ["a".into(), "b".into()], &games);
        assert_eq!((s.draws, s.capped, s.wins), (1, 1, [0, 1]));
        assert!((s.score - 1.0 / 3.0).abs() < 1e-12);
        assert!((s.avg_plies - 10.0).abs() < 1e-12);
    }

    #[test]
    fn wilson_intervals_hold_the_rate() {
        for (k, n) in [(0, 10), (3, 10), (10, 10), (50, 100)] {
            let iv = wilson(k as f64, n);
            let p = k as f64 / n as f64;
            assert!(iv.low <= p && p <= iv.high, "{k}/{n}: {iv:?}");
        }
        let iv = wilson(50.0, 100);
        assert!((iv.low - 0.4038).abs() < 1e-3 && (iv.high - 0.5962).abs() < 1e-3);
    }
}
