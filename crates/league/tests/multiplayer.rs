//! Weng-Lin ratings of a finished Swap 61 room.

use swapboard_league::Error;
use swapboard_league::multiplayer::{MAX_SEATS, Skill, rate_room};

fn fresh_room(ranks: &[usize]) -> Vec<(Skill, usize)> {
    ranks.iter().map(|&rank| (Skill::default(), rank)).collect()
}

#[test]
fn a_new_player_starts_at_25_and_25_thirds() {
    let fresh = Skill::default();
    assert_eq!(fresh.rating, 25.0);
    assert!((fresh.uncertainty - 25.0 / 3.0).abs() < 1e-12);
    assert!(fresh.ordinal().abs() < 1e-12);
}

#[test]
fn the_winner_gains_the_last_loses_and_order_follows_rank() {
    let ranks = [3, 1, 10, 2, 4, 5, 6, 7, 8, 9];
    let after = rate_room(&fresh_room(&ranks)).unwrap();
    assert_eq!(after.len(), 10);
    let winner = after[1];
    let last = after[2];
    assert!(winner.rating > 25.0, "{winner:?}");
    assert!(last.rating < 25.0, "{last:?}");
    // Equal before, so the new ratings fall in rank order.
    let mut by_rank: Vec<(usize, f64)> = ranks
        .iter()
        .zip(&after)
        .map(|(&r, s)| (r, s.rating))
        .collect();
    by_rank.sort_by_key(|&(rank, _)| rank);
    assert!(by_rank.windows(2).all(|w| w[0].1 > w[1].1), "{by_rank:?}");
    // Everyone is better known after a game.
    assert!(after.iter().all(|s| s.uncertainty < 25.0 / 3.0));
}

#[test]
fn tied_seats_get_equal_ratings() {
    let after = rate_room(&fresh_room(&[1, 2, 2, 2, 5, 6, 7, 8, 9])).unwrap();
    assert_eq!(after[1], after[2]);
    assert_eq!(after[2], after[3]);
    assert!(after[0].rating > after[1].rating && after[1].rating > after[4].rating);
}

#[test]
fn an_upset_moves_ratings_more_than_the_expected_result() {
    let strong = Skill {
        rating: 35.0,
        uncertainty: 3.0,
    };
    let weak = Skill {
        rating: 15.0,
        uncertainty: 3.0,
    };
    let expected = rate_room(&[(strong, 1), (weak, 2)]).unwrap();
    let upset = rate_room(&[(strong, 2), (weak, 1)]).unwrap();
    assert!(upset[1].rating - weak.rating > expected[0].rating - strong.rating);
}

#[test]
fn the_same_room_gives_the_same_numbers() {
    let seats: Vec<(Skill, usize)> = (0..10)
        .map(|i| {
            (
                Skill {
                    rating: 20.0 + i as f64,
                    uncertainty: 2.0 + 0.3 * i as f64,
                },
                10 - i,
            )
        })
        .collect();
    let once = rate_room(&seats).unwrap();
    for _ in 0..5 {
        let again = rate_room(&seats).unwrap();
        assert!(once.iter().zip(&again).all(|(a, b)| {
            a.rating.to_bits() == b.rating.to_bits()
                && a.uncertainty.to_bits() == b.uncertainty.to_bits()
        }));
    }
}

#[test]
fn bad_rooms_are_refused() {
    assert!(matches!(
        rate_room(&fresh_room(&[1])),
        Err(Error::FieldSize { got: 1, .. })
    ));
    let crowded = fresh_room(&vec![1; MAX_SEATS + 1]);
    assert!(matches!(rate_room(&crowded), Err(Error::FieldSize { .. })));
    let err = rate_room(&fresh_room(&[1, 0, 2])).unwrap_err();
    assert_eq!(err.to_string(), "seat 1's rank is 0: ranks run from 1 to 3");
    assert!(matches!(
        rate_room(&fresh_room(&[1, 4, 2])),
        Err(Error::BadRank {
            seat: 1,
            rank: 4,
            ..
        })
    ));
    let mut nan = fresh_room(&[1, 2]);
    nan[0].0.uncertainty = f64::NAN;
    let err = rate_room(&nan).unwrap_err();
    assert!(
        err.to_string().starts_with("seat 0's uncertainty is NaN"),
        "{err}"
    );
}
