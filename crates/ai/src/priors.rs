//! Learning move priors from games: how often a move of each pattern
//! ([`Game::move_pattern`]) was chosen when it was offered, fitted into a
//! [`PriorTable`] that a game ships and its [`Game::move_prior`] reads (`swapboard train`).

use std::ops::ControlFlow;

use swapboard_core::pattern::{PATTERN_COUNT, PriorTable};
use swapboard_core::{Game, MoveError};

/// How many offers at the average rate every pattern's count starts with: a pattern seen
/// rarely is pulled towards the average (a pattern offered twice and chosen once is no
/// evidence of a great move), and one seen this often weighs its own rate as much as the
/// average.
pub const PSEUDO_OFFERS: f64 = 20.0;

/// The counts of training: for each pattern, how often a move of it was legal (offered) and
/// how often the player chose it, and every decision with the patterns it offered.
#[derive(Debug, Clone)]
pub struct PatternCounts {
    offered: Vec<u64>,
    chosen: Vec<u64>,
    /// For each decision, how many legal moves of each pattern there were.
    decisions: Vec<Vec<(u32, u32)>>,
}

/// The rounds of the Bradley-Terry fit's minorization-maximization: each makes the table's
/// likelihood of the choices no worse, and its weights settle to four digits well before.
const FIT_ROUNDS: usize = 60;

impl Default for PatternCounts {
    fn default() -> PatternCounts {
        PatternCounts::new()
    }
}

impl PatternCounts {
    /// No counts yet.
    pub fn new() -> PatternCounts {
        PatternCounts {
            offered: vec![0; PATTERN_COUNT],
            chosen: vec![0; PATTERN_COUNT],
            decisions: Vec::new(),
        }
    }

    /// Counts one decision: every legal move of `position` offered, `chosen` chosen.
    /// Whether it counted: a position whose chosen move has no pattern (a pass, or a game
    /// without patterns) teaches nothing and is skipped.
    pub fn observe<G: Game>(&mut self, position: &G, chosen: &G::Move) -> bool {
        let Some(pattern) = position.move_pattern(chosen) else {
            return false;
        };
        let mut patterns = Vec::new();
        let _ = position.for_each_move(|mv| {
            patterns.extend(position.move_pattern(&mv));
            ControlFlow::Continue(())
        });
        self.count(patterns, pattern);
        true
    }

    /// Counts one decision between moves of these patterns (one entry a move), a move of
    /// `chosen` chosen.
    fn count(&mut self, mut patterns: Vec<u32>, chosen: u32) {
        patterns.sort_unstable();
        let mut offered: Vec<(u32, u32)> = Vec::new();
        for p in patterns {
            self.offered[p as usize] += 1;
            match offered.last_mut() {
                Some((last, n)) if *last == p => *n += 1,
                _ => offered.push((p, 1)),
            }
        }
        self.chosen[chosen as usize] += 1;
        self.decisions.push(offered);
    }

    /// Counts every decision of a game played from `start` with `moves` (move texts, as a
    /// game record holds them).
    pub fn add_game<G: Game>(&mut self, start: &G, moves: &[String]) -> Result<(), MoveError> {
        let mut position = start.clone();
        for text in moves {
            let mv = position.parse_move(text)?;
            position
                .check_move(&mv)
                .map_err(|reason| MoveError::Illegal {
                    text: text.clone(),
                    reason,
                })?;
            self.observe(&position, &mv);
            position.play_unchecked(&mv);
        }
        Ok(())
    }

    /// The number of decisions counted.
    pub fn positions(&self) -> u64 {
        self.decisions.len() as u64
    }

    /// The table of weights these counts give, with the `header` fields (`game`,
    /// `seed`, ...).
    ///
    /// Each pattern gets a strength `g` such that a decision chose a move of pattern `p`
    /// with probability `g(p)` over the sum of `g` over the moves offered (a Bradley-Terry
    /// model, as MoHex fits its patterns): the strengths that make the decisions seen most
    /// likely, found by minorization-maximization. A pattern chosen often only because it
    /// was offered beside poor ones is not taken for a good move, as a plain rate of choice
    /// would. Each pattern's counts are pulled towards strength 1 by `K` =
    /// [`PSEUDO_OFFERS`] offers chosen at the average rate `m`, so that a pattern seen
    /// rarely keeps about the strength of an unseen one (1, the neutral weight).
    ///
    /// The search's bias expects weights in [0, 1], graded: the logarithms of the
    /// strengths are scaled linearly so that the weakest pattern gets 0 and the strongest
    /// 1. Only patterns offered at least once are listed.
    pub fn fit(&self, header: Vec<(String, String)>) -> PriorTable {
        let listed: Vec<u32> = (0..PATTERN_COUNT as u32)
            .filter(|&p| self.offered[p as usize] > 0)
            .collect();
        let mut index = vec![usize::MAX; PATTERN_COUNT];
        for (i, &p) in listed.iter().enumerate() {
            index[p as usize] = i;
        }
        let offers: u64 = self.offered.iter().sum();
        let average = if offers == 0 {
            0.0
        } else {
            self.decisions.len() as f64 / offers as f64
        };
        let pseudo = PSEUDO_OFFERS * average;
        let mut strength = vec![1.0f64; listed.len()];
        let mut exposure = vec![0.0f64; listed.len()];
        for _ in 0..FIT_ROUNDS {
            exposure.fill(0.0);
            for decision in &self.decisions {
                let total: f64 = decision
                    .iter()
                    .map(|&(p, n)| f64::from(n) * strength[index[p as usize]])
                    .sum();
                for &(p, n) in decision {
                    exposure[index[p as usize]] += f64::from(n) / total;
                }
            }
            for (i, &p) in listed.iter().enumerate() {
                strength[i] = (self.chosen[p as usize] as f64 + pseudo) / (exposure[i] + pseudo);
            }
        }
        let logs: Vec<f64> = strength.iter().map(|g| g.ln()).collect();
        let low = logs.iter().copied().fold(f64::INFINITY, f64::min).min(0.0);
        let high = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max).max(0.0);
        let scale = |log: f64| -> f32 {
            if high > low {
                ((log - low) / (high - low)).clamp(0.0, 1.0) as f32
            } else {
                0.5
            }
        };
        PriorTable::new(
            header,
            scale(0.0),
            listed.iter().zip(&logs).map(|(&p, &log)| (p, scale(log))),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use swapboard_swaptimum::Swaptimum;

    fn header() -> Vec<(String, String)> {
        vec![
            ("format".to_string(), "1".to_string()),
            ("game".to_string(), "swaptimum".to_string()),
        ]
    }

    #[test]
    fn a_pattern_always_chosen_tops_the_table_and_one_never_chosen_ends_it() {
        let mut counts = PatternCounts::new();
        // Three patterns offered together 100 times: the first chosen every time, ...
        for _ in 0..100 {
            counts.count(vec![10, 20, 30], 10);
        }
        // ... and a fourth offered only twice, chosen once: too few to trust.
        counts.count(vec![40, 20], 40);
        counts.count(vec![40, 20], 20);
        let table = counts.fit(header());
        assert_eq!(table.weight(10), 1.0);
        assert_eq!(table.weight(30), 0.0);
        assert!(table.weight(20) < 0.1, "{}", table.weight(20));
        assert_eq!(table.len(), 4);
        // Unseen patterns get the strength of one barely seen, between the two ends.
        let neutral = table.neutral();
        assert!(neutral > 0.2 && neutral < 0.9, "{neutral}");
        assert_eq!(table.weight(50), neutral);
        let rare = table.weight(40);
        assert!((rare - neutral).abs() < 0.15, "{rare} {neutral}");
    }

    #[test]
    fn a_pattern_chosen_only_beside_poor_ones_ranks_below_one_chosen_against_good_ones() {
        let mut counts = PatternCounts::new();
        // 1 is chosen over 2 19 times in 20; 3 is chosen half the time against 1; 4 is
        // chosen 3 times in 5, but only ever against 2. By rate of choice 4 (60%) tops 3
        // (50%); by strength 3, an equal of 1, is far above 4, which barely beats 2.
        for i in 0..200 {
            counts.count(vec![1, 2], if i % 20 == 0 { 2 } else { 1 });
            counts.count(vec![4, 2], if i % 5 < 3 { 4 } else { 2 });
            counts.count(vec![1, 3], if i % 2 == 0 { 1 } else { 3 });
        }
        let table = counts.fit(header());
        let weight = |p| table.weight(p);
        assert!(weight(3) > weight(4), "{} {}", weight(3), weight(4));
        assert!((weight(3) - weight(1)).abs() < 0.1, "{} {}", weight(3), weight(1));
        assert!(weight(4) > weight(2), "{} {}", weight(4), weight(2));
    }

    #[test]
    fn a_position_counts_every_legal_move_as_offered_and_the_choice_once() {
        let mut counts = PatternCounts::new();
        let start = Swaptimum::start(5).unwrap();
        let moves: Vec<String> = ["c3", "b2", "a1"].map(String::from).to_vec();
        counts.add_game(&start, &moves).unwrap();
        assert_eq!(counts.positions(), 3);
        // 25 + 24 + 23 placements, none forming a crosscut.
        assert_eq!(counts.offered.iter().sum::<u64>(), 25 + 24 + 23);
        assert_eq!(counts.chosen.iter().sum::<u64>(), 3);
        // The first move: an empty neighbourhood.
        assert_eq!(counts.chosen[0], 1);
        // Nine of the start's 25 cells have an empty neighbourhood (the inner 3 x 3); c3
        // then touches every other inner cell, so no later one does.
        assert_eq!(counts.offered[0], 9);
        let error = counts
            .add_game(&start, &["c3".to_string(), "c3".to_string()])
            .unwrap_err();
        assert!(error.to_string().contains("c3"), "{error}");
    }

    #[test]
    fn the_same_counts_give_the_same_text() {
        let start = Swaptimum::start(5).unwrap();
        let moves: Vec<String> = ["c3", "b2", "d4", "a1"].map(String::from).to_vec();
        let text = || {
            let mut counts = PatternCounts::new();
            counts.add_game(&start, &moves).unwrap();
            counts.fit(header()).to_text()
        };
        assert_eq!(text(), text());
        let table = PriorTable::parse(&text(), "swaptimum").unwrap();
        assert!(!table.is_empty());
    }
}
