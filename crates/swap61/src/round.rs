//! One round from submissions to scores: the heart of both the stateless contract command
//! and the game master's workflow.

use serde::{Deserialize, Serialize};

use crate::board::{Board, Seat};
use crate::resolve::{Resolution, resolve};
use crate::score::{Pair, Scoring, Variation};
use crate::submission::{Rejection, Submission, check_submission};

/// The last round; rounds are 0 (the pregame) to 5.
pub const LAST_ROUND: usize = 5;

/// The tokens a player receives in a round: 4 in the pregame (round 0), 9 in rounds 1-5.
pub const fn allowance(round: usize) -> u32 {
    if round == 0 { 4 } else { 9 }
}

/// What a round is played with: its variation and, where it scores pairs, its three pairs.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RoundSpec {
    /// The variation.
    pub variation: Variation,
    /// The pairs of nodes to join (empty in the pregame and under Node Network).
    pub pairs: Vec<Pair>,
}

impl RoundSpec {
    /// The scoring rules of this spec in round `round`, or `None` for the pregame.
    pub fn scoring(&self, round: usize) -> Option<Scoring<'_>> {
        (round > 0).then_some(Scoring {
            round,
            variation: self.variation,
            pairs: &self.pairs,
        })
    }
}

/// Everything a resolved round produced.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RoundOutcome {
    /// The round (0 = pregame).
    pub round: usize,
    /// Every seat's rejected lines, in seat order, then line order.
    pub rejections: Vec<(Seat, Rejection)>,
    /// The resolution of the accepted bids.
    pub resolution: Resolution,
    /// Each seat's score, in seat order (none in the pregame).
    pub scores: Option<Vec<u32>>,
}

/// Checks every submission and plays round `round` on `board`: resolution with the
/// variation's minimum tokens, then (rounds 1-5) every player's score.
///
/// `submissions` are the raw texts by seat; a seat may be missing (no bids).
pub fn play_round(
    board: &Board,
    round: usize,
    spec: &RoundSpec,
    submissions: &[(Seat, &str)],
) -> RoundOutcome {
    let checked: Vec<(Seat, Submission)> = submissions
        .iter()
        .map(|&(seat, text)| (seat, check_submission(text, board, seat, allowance(round))))
        .collect();
    let mut rejections: Vec<(Seat, Rejection)> = checked
        .iter()
        .flat_map(|(seat, s)| s.rejections.iter().map(|r| (*seat, r.clone())))
        .collect();
    rejections.sort_by_key(|(seat, r)| (*seat, r.line));
    let bids = checked
        .iter()
        .flat_map(|(_, s)| s.bids.iter().map(|b| (b.edge, b.tokens)));
    let resolution = resolve(board, bids, spec.variation.minimum_tokens());
    let scores = spec
        .scoring(round)
        .map(|s| s.scores(&resolution.board, resolution.swapped));
    RoundOutcome {
        round,
        rejections,
        resolution,
        scores,
    }
}
