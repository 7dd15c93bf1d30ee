//! The baseline bots the AI is measured against: `random` and `greedy`.

use std::ops::ControlFlow;

use rand::{Rng, RngExt};
use swapboard_core::{Game, Outcome};

/// The most moves the greedy bot looks at in one position; beyond it (Scware's growths), it
/// looks at that many moves drawn by [`Game::random_move`] instead.
pub const GREEDY_MOVES: usize = 256;

/// A legal move drawn by [`Game::random_move`], or `None` when the game is over.
pub fn random_move<G: Game, R: Rng + ?Sized>(position: &G, rng: &mut R) -> Option<G::Move> {
    position.random_move(rng)
}

/// The greedy bot's move: a move that wins at once if there is one; otherwise, if the
/// opponent threatens to win with their next move, a random move after which they cannot;
/// otherwise a random move. `None` when the game is over.
///
/// It looks at every move of a position with at most [`GREEDY_MOVES`] of them, and at that
/// many random moves (duplicates dropped) otherwise.
pub fn greedy_move<G: Game, R: Rng + ?Sized>(position: &G, rng: &mut R) -> Option<G::Move> {
    let me = position.to_move();
    let candidates = candidates(position, rng);
    let mut after = position.clone();
    let mut safe = Vec::new();
    for mv in &candidates {
        after.clone_from(position);
        after.play_unchecked(mv);
        match after.outcome() {
            Some(Outcome::Win(p)) if p == me => return Some(mv.clone()),
            Some(_) => safe.push(mv.clone()),
            None if after.to_move() == me || !can_win_now(&after, rng) => safe.push(mv.clone()),
            None => {}
        }
    }
    let pool = if safe.is_empty() { &candidates } else { &safe };
    if pool.is_empty() {
        return None;
    }
    Some(pool[rng.random_range(0..pool.len())].clone())
}

/// Whether the player to move has a move that wins at once (among the moves looked at).
fn can_win_now<G: Game, R: Rng + ?Sized>(position: &G, rng: &mut R) -> bool {
    let player = position.to_move();
    let mut after = position.clone();
    candidates(position, rng).iter().any(|mv| {
        after.clone_from(position);
        after.play_unchecked(mv);
        after.outcome() == Some(Outcome::Win(player))
    })
}

/// The moves the greedy bot looks at: all of them, or a random sample when there are many.
fn candidates<G: Game, R: Rng + ?Sized>(position: &G, rng: &mut R) -> Vec<G::Move> {
    let mut moves = Vec::new();
    let complete = position
        .for_each_move(|mv| {
            if moves.len() == GREEDY_MOVES {
                return ControlFlow::Break(());
            }
            moves.push(mv);
            ControlFlow::Continue(())
        })
        .is_continue();
    if !complete {
        moves.clear();
        for _ in 0..GREEDY_MOVES {
            if let Some(mv) = position.random_move(rng)
                && !moves.contains(&mv)
            {
                moves.push(mv);
            }
        }
    }
    moves
}
