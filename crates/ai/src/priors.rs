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
/// how often the player chose it.
#[derive(Debug, Clone)]
pub struct PatternCounts {
    offered: Vec<u64>,
    chosen: Vec<u64>,
    positions: u64,
}

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
            positions: 0,
        }
    }

    /// Counts one decision: every legal move of `position` offered, `chosen` chosen.
    /// Whether it counted: a position whose chosen move has no pattern (a pass, or a game
    /// without patterns) teaches nothing and is skipped.
    pub fn observe<G: Game>(&mut self, position: &G, chosen: &G::Move) -> bool {
        let Some(pattern) = position.move_pattern(chosen) else {
            return false;
        };
        let _ = position.for_each_move(|mv| {
            if let Some(p) = position.move_pattern(&mv) {
                self.offered[p as usize] += 1;
            }
            ControlFlow::Continue(())
        });
        self.chosen[pattern as usize] += 1;
        self.positions += 1;
        true
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
        self.positions
    }

    /// The table of weights these counts give, with the `header` fields (`game`,
    /// `seed`, ...).
    ///
    /// A pattern's rate is the share of its offers that were chosen, smoothed towards the
    /// average rate `m` (all choices over all offers): `(chosen + K m) / (offered + K)` with
    /// `K` = [`PSEUDO_OFFERS`]. The rates are then scaled linearly so that the lowest one
    /// gets 0 and the highest 1, as the search's bias expects; a pattern never seen gets
    /// the average rate on that scale (the neutral weight). Only patterns offered at
    /// least once are listed.
    pub fn fit(&self, header: Vec<(String, String)>) -> PriorTable {
        let offered: u64 = self.offered.iter().sum();
        let chosen: u64 = self.chosen.iter().sum();
        let average = if offered == 0 {
            0.0
        } else {
            chosen as f64 / offered as f64
        };
        let rates: Vec<(u32, f64)> = (0..PATTERN_COUNT)
            .filter(|&p| self.offered[p] > 0)
            .map(|p| {
                let rate = (self.chosen[p] as f64 + PSEUDO_OFFERS * average)
                    / (self.offered[p] as f64 + PSEUDO_OFFERS);
                (p as u32, rate)
            })
            .collect();
        let low = rates.iter().map(|&(_, r)| r).fold(f64::INFINITY, f64::min);
        let high = rates.iter().map(|&(_, r)| r).fold(0.0, f64::max);
        let scale = |rate: f64| -> f32 {
            if high > low {
                ((rate - low) / (high - low)).clamp(0.0, 1.0) as f32
            } else {
                0.5
            }
        };
        PriorTable::new(
            header,
            scale(average),
            rates.iter().map(|&(p, r)| (p, scale(r))),
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
            for p in [10, 20, 30] {
                counts.offered[p] += 1;
            }
            counts.chosen[10] += 1;
        }
        // ... and a fourth offered only twice, chosen once: too few to trust.
        counts.offered[40] += 2;
        counts.chosen[40] += 1;
        let table = counts.fit(header());
        assert_eq!(table.weight(10), 1.0);
        assert_eq!(table.weight(20), 0.0);
        assert_eq!(table.weight(30), 0.0);
        let rare = table.weight(40);
        assert!(rare > 0.0 && rare < 0.6, "{rare}");
        assert_eq!(table.len(), 4);
        // Unseen patterns get the average rate on the same scale.
        let neutral = table.neutral();
        assert!(neutral > 0.0 && neutral < 1.0, "{neutral}");
        assert_eq!(table.weight(50), neutral);
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
