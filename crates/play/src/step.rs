//! How a game in progress goes on and ends outside a chosen move, decided once for every
//! front end ([`crate::Table`] for the terminal, and a server):
//!
//! - a pass the rules force: where a player's only legal move is a pass (Rapid Transit with
//!   no swap, Flipstop or Scware with no legal stone), it is played for them at once, as a
//!   ply like any other ([`play_forced_passes`], [`crate::AnyPosition::play_forced_passes`]);
//! - a game called off: before its second move nobody has really begun, so an abort is
//!   allowed then only ([`abortable`]), and a resignation or a fallen flag then aborts the
//!   game instead of losing it ([`resignation`], [`flag_fall`]).

use std::ops::ControlFlow;

use swapboard_core::{Game, Player};

use crate::words::{Ending, Termination};

/// The most forced passes in a row: two passes end a game in every game that has them, so
/// a third would mean an engine that never ends one.
const MAX_FORCED: usize = 2;

/// The pass the player to move must play, when it is their only legal move; `None` when they
/// have a choice or the game is over.
pub fn forced_pass<G: Game>(position: &G) -> Option<G::Move> {
    if position.outcome().is_some() {
        return None;
    }
    // Two moves are enough to know: a Scware position can have millions.
    let mut first = None;
    let mut count = 0;
    let _ = position.for_each_move(|m| {
        count += 1;
        if count > 1 {
            return ControlFlow::Break(());
        }
        first = Some(m);
        ControlFlow::Continue(())
    });
    first.filter(|only| count == 1 && G::is_pass(only))
}

/// Plays every pass the rules force from `position` on, calling `passed` with each pass and
/// the player who made it (a front end presses its clock and records the ply there).
pub fn play_forced_passes<G: Game>(position: &mut G, mut passed: impl FnMut(&G::Move, Player)) {
    for _ in 0..MAX_FORCED {
        let Some(pass) = forced_pass(position) else {
            return;
        };
        let mover = position.to_move();
        position.play_unchecked(&pass);
        passed(&pass, mover);
    }
}

/// Whether a game at `ply` may still be called off: before its second move.
pub fn abortable(ply: usize) -> bool {
    ply < 2
}

/// How a game at `ply` ends when `player` gives it up: aborted while [`abortable`] (nobody
/// wins), else resigned (the other player wins).
pub fn resignation(ply: usize, player: Player) -> Ending {
    off_the_board(ply, player, Termination::Resigned)
}

/// How a game at `ply` ends when `player`'s time runs out: aborted while [`abortable`], else
/// lost on time.
pub fn flag_fall(ply: usize, player: Player) -> Ending {
    off_the_board(ply, player, Termination::Timeout)
}

fn off_the_board(ply: usize, loser: Player, reason: Termination) -> Ending {
    if abortable(ply) {
        Ending {
            winner: None,
            reason: Termination::Aborted,
        }
    } else {
        Ending {
            winner: Some(loser.other()),
            reason,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnyPosition;
    use swapboard_flipstop::Flipstop;

    /// Before the second move a resignation or a fallen flag calls the game off; after it,
    /// the other player wins.
    #[test]
    fn early_endings_abort_and_later_ones_lose() {
        let aborted = Ending {
            winner: None,
            reason: Termination::Aborted,
        };
        for ply in [0, 1] {
            assert!(abortable(ply));
            assert_eq!(resignation(ply, Player::First), aborted);
            assert_eq!(flag_fall(ply, Player::Second), aborted);
        }
        assert!(!abortable(2));
        assert_eq!(
            resignation(2, Player::First),
            Ending {
                winner: Some(Player::Second),
                reason: Termination::Resigned
            }
        );
        assert_eq!(
            flag_fall(7, Player::Second),
            Ending {
                winner: Some(Player::First),
                reason: Termination::Timeout
            }
        );
    }

    /// The ruling's Flipstop case: Blue's only move is a pass; Red has a choice.
    #[test]
    fn a_pass_is_forced_only_when_it_is_the_only_move() {
        let blue: Flipstop = "flipstop RRRB/BBRR/RR.R/BRRB B".parse().unwrap();
        let pass = forced_pass(&blue).expect("Blue must pass");
        assert!(Flipstop::is_pass(&pass));
        let red: Flipstop = "flipstop RRRB/BBRR/RR.R/BRRB R".parse().unwrap();
        assert_eq!(forced_pass(&red), None);
        assert_eq!(forced_pass(&Flipstop::start(5).unwrap()), None);
    }

    /// Random Rapid Transit games on 4x4: passes are forced along the way, each one the
    /// only legal move when played, and none is left unplayed after the call.
    #[test]
    fn forced_passes_are_played_until_a_choice_or_the_end() {
        use rand::SeedableRng;
        let mut forced = 0;
        for seed in 0..40 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut pos = AnyPosition::start(crate::GameId::RapidTransit, 4).unwrap();
            for _ in 0..300 {
                let before = pos.clone();
                let mut passes = Vec::new();
                pos.play_forced_passes(|text, who| passes.push((text.to_owned(), who)));
                assert!(passes.len() <= MAX_FORCED);
                if let Some((text, who)) = passes.first() {
                    assert_eq!(text, "pass");
                    assert_eq!(*who, before.to_move());
                    assert_eq!(before.legal_moves(2), Some(vec!["pass".to_owned()]));
                    forced += passes.len();
                }
                if pos.outcome().is_some() {
                    break;
                }
                let moves = pos.legal_moves(usize::MAX).unwrap();
                assert!(
                    moves.iter().any(|m| m != "pass"),
                    "{pos}: a pass left unplayed"
                );
                let k = rand::RngExt::random_range(&mut rng, 0..moves.len());
                pos.play_text(&moves[k]).unwrap();
            }
        }
        assert!(forced > 0, "no forced pass in 40 random games");
    }
}
