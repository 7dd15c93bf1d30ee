//! The playouts of the tuned search: the best of several drawn swaps.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_core::{Game, play_out_best_of};
use swapboard_rapid_transit::{RapidTransit, RapidTransitMove};

/// The size of the network the swap's moved piece is in once it is played (0 for a pass),
/// read from the position after it.
fn network_formed(position: &RapidTransit, mv: &RapidTransitMove) -> usize {
    let mut after = position.clone();
    after.play_unchecked(mv);
    match *mv {
        RapidTransitMove::Swap { partner, .. } => after.network_size_at(partner),
        RapidTransitMove::Pass => 0,
    }
}

/// Replayed from the same seed, each ply of a playout drew `PLAYOUT_DRAWS` swaps and
/// played the first of those forming the largest network.
#[test]
fn a_playout_plays_the_drawn_swap_forming_the_largest_network() {
    let draws = RapidTransit::PLAYOUT_DRAWS;
    assert!(draws > 1, "Rapid Transit's playouts choose");
    let mut chose_later_draws = 0;
    for seed in 0..20 {
        let start = RapidTransit::start(8).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut twin = rng.clone();
        let mut played = Vec::new();
        play_out_best_of(&mut start.clone(), &mut rng, 1_000, draws, |mv, _| {
            played.push(*mv)
        });
        assert!(!played.is_empty());
        let mut position = start;
        for mv in played {
            let drawn: Vec<RapidTransitMove> = (0..draws)
                .map(|_| position.playout_move(&mut twin).expect("the game goes on"))
                .collect();
            let sizes: Vec<usize> = drawn.iter().map(|d| network_formed(&position, d)).collect();
            let largest = *sizes.iter().max().unwrap();
            let first_largest = sizes.iter().position(|&s| s == largest).unwrap();
            assert_eq!(
                mv, drawn[first_largest],
                "{position}: drawn {drawn:?}, sizes {sizes:?}"
            );
            chose_later_draws += usize::from(first_largest > 0);
            position.play_unchecked(&mv);
        }
        assert!(position.outcome().is_some(), "played to the end");
    }
    assert!(
        chose_later_draws > 0,
        "a later draw was sometimes the better"
    );
}
