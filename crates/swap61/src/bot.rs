//! A bidding bot: it tries every swap it may bid on, scores the grid after each one for
//! itself, and spends its tokens on the swaps that raise its own score most.

use crate::board::{Board, Seat, TILES, Tile, bit, geometry};
use crate::round::{LAST_ROUND, allowance};
use crate::setup::Setup;
use crate::submission::Edge;

/// A candidate swap and the change it makes to the bot's own score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Candidate {
    /// The edge.
    pub edge: Edge,
    /// The bot's score after this swap alone, minus its score without it.
    pub gain: i64,
}

/// Every edge the player in `seat` may bid on in round `round`, with the change it would
/// make to that player's score, best first.
///
/// The score is the one the bot expects to earn: in rounds 1-5 that round's, in the pregame
/// round 1's (the grid carries over, but a wild wall swapped in the pregame is not swapped
/// in round 1). Other players' bids are unknown, so each swap is judged alone.
pub fn candidates(setup: &Setup, board: &Board, round: usize, seat: Seat) -> Vec<Candidate> {
    let scored_round = round.clamp(1, LAST_ROUND);
    let Some(scoring) = setup.rounds[scored_round].scoring(scored_round) else {
        return Vec::new();
    };
    let same_round = round == scored_round;
    let base = i64::from(scoring.score(board, 0, seat));
    let g = geometry();
    let mut found = Vec::new();
    for a in 0..TILES {
        let tile = board.tile(a);
        if tile != Tile::Wall(seat) && tile != Tile::Wild {
            continue;
        }
        for &b in &g.neighbours[a][..usize::from(g.degree[a])] {
            let b = usize::from(b);
            let edge = Edge::new(a, b).expect("neighbours form an edge");
            if found.iter().any(|c: &Candidate| c.edge == edge) {
                continue;
            }
            let mut after = *board;
            after.swap(a, b);
            let swapped = if same_round { bit(a) | bit(b) } else { 0 };
            let gain = i64::from(scoring.score(&after, swapped, seat)) - base;
            found.push(Candidate { edge, gain });
        }
    }
    found.sort_by(|x, y| y.gain.cmp(&x.gain).then(x.edge.cmp(&y.edge)));
    found
}

/// The bot's bids for round `round`: the best swaps with a positive gain that share no
/// tile, as many as the allowance pays the round's minimum for, each given the minimum and
/// the tokens left over going to the best.
pub fn bids(setup: &Setup, board: &Board, round: usize, seat: Seat) -> Vec<(Edge, u32)> {
    let minimum = setup.rounds[round].variation.minimum_tokens();
    let budget = allowance(round);
    let most = (budget / minimum) as usize;
    let mut used = 0u64;
    let mut chosen: Vec<Edge> = Vec::new();
    for c in candidates(setup, board, round, seat) {
        if chosen.len() == most || c.gain <= 0 {
            break;
        }
        let (a, b) = c.edge.tiles();
        if used & (bit(a) | bit(b)) == 0 {
            used |= bit(a) | bit(b);
            chosen.push(c.edge);
        }
    }
    let Some(count) = u32::try_from(chosen.len()).ok().filter(|&n| n > 0) else {
        return Vec::new();
    };
    let spare = budget - count * minimum;
    chosen
        .into_iter()
        .enumerate()
        .map(|(i, e)| (e, minimum + if i == 0 { spare } else { 0 }))
        .collect()
}

/// The bot's submission text: one `CELL CELL TOKENS` line per bid.
pub fn submission_text(bids: &[(Edge, u32)]) -> String {
    bids.iter().map(|(e, t)| format!("{e} {t}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::round::RoundSpec;
    use crate::score::Scoring;
    use crate::submission::check_submission;

    #[test]
    fn bots_bid_validly_and_their_best_swap_helps_them() {
        let names: Vec<String> = (1..=9).map(|i| format!("b{i}")).collect();
        for seed in 0..20 {
            let setup = Setup::generate(&names, seed).unwrap();
            for round in 0..=LAST_ROUND {
                for seat in Seat::all(9) {
                    let bids = bids(&setup, &setup.start, round, seat);
                    let text = submission_text(&bids);
                    let checked = check_submission(&text, &setup.start, seat, allowance(round));
                    assert!(
                        checked.rejections.is_empty(),
                        "{text}: {:?}",
                        checked.rejections
                    );
                    if let Some(&(edge, _)) = bids.first()
                        && round > 0
                    {
                        let spec: &RoundSpec = &setup.rounds[round];
                        let s: Scoring<'_> = spec.scoring(round).unwrap();
                        let (a, b) = edge.tiles();
                        let mut after = setup.start;
                        after.swap(a, b);
                        assert!(
                            s.score(&after, bit(a) | bit(b), seat) > s.score(&setup.start, 0, seat)
                        );
                    }
                }
            }
        }
    }
}
