//! Rerating from scratch: the same numbers every run, and the same as rating games one by
//! one as they end.

use std::collections::BTreeMap;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_league::Error;
use swapboard_league::glicko2::{Outcome, Params, PlayerRating, rate_game};
use swapboard_league::rerate::{RatedGame, rerate};

fn random_games(seed: u64, players: u32, count: usize) -> Vec<RatedGame<u32>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut at = 1_700_000_000;
    (0..count)
        .map(|_| {
            at += rng.random_range(0..3 * 86_400);
            let first = rng.random_range(0..players);
            let second = (first + rng.random_range(1..players)) % players;
            let first_outcome = if rng.random_bool(0.5) {
                Outcome::Win
            } else {
                Outcome::Loss
            };
            RatedGame {
                band: (),
                at,
                first,
                second,
                first_outcome,
            }
        })
        .collect()
}

#[test]
fn a_replay_gives_the_same_numbers_every_run() {
    let games = random_games(26, 12, 500);
    let once = rerate(&games, &Params::LICHESS).unwrap();
    let again = rerate(&games, &Params::LICHESS).unwrap();
    // Bit for bit: Debug writes each float's shortest exact form.
    assert_eq!(format!("{once:?}"), format!("{again:?}"));
    assert_eq!(once.games.len(), 500);
    assert_eq!(
        once.players.values().map(|p| p[&()].games).sum::<u32>(),
        1000
    );
}

#[test]
fn a_replay_equals_rating_each_game_as_it_ends() {
    let params = Params::LICHESS;
    let games = random_games(61, 8, 300);
    let replayed = rerate(&games, &params).unwrap();
    let mut live: BTreeMap<u32, PlayerRating> = BTreeMap::new();
    for (game, changes) in games.iter().zip(&replayed.games) {
        let get = |p| {
            live.get(&p)
                .copied()
                .unwrap_or_else(|| PlayerRating::new(&params))
        };
        let (first, second) = rate_game(
            &get(game.first),
            &get(game.second),
            game.first_outcome,
            game.at,
            &params,
        )
        .unwrap();
        assert_eq!((first, second), *changes);
        live.insert(game.first, first.after);
        live.insert(game.second, second.after);
    }
    let replayed_players: BTreeMap<u32, PlayerRating> = replayed
        .players
        .iter()
        .map(|(player, pools)| (*player, pools[&()]))
        .collect();
    assert_eq!(live, replayed_players);
}

#[test]
fn games_out_of_order_or_against_oneself_are_refused() {
    let mut games = random_games(1, 4, 10);
    games.swap(3, 4);
    if games[4].at == games[3].at {
        games[4].at -= 1;
    }
    let err = rerate(&games, &Params::LICHESS).unwrap_err();
    assert!(
        matches!(
            err,
            Error::OutOfOrder {
                index: 4,
                previous: 3,
                ..
            }
        ),
        "{err}"
    );
    let lonely = [RatedGame {
        band: (),
        at: 0,
        first: 7u32,
        second: 7,
        first_outcome: Outcome::Win,
    }];
    assert_eq!(
        rerate(&lonely, &Params::LICHESS).unwrap_err().to_string(),
        "game 0 (7): a player cannot meet themself"
    );
}

#[test]
fn rooms_replay_the_same_and_as_rated_one_by_one() {
    use swapboard_league::multiplayer::{Skill, rate_room};
    use swapboard_league::rerate::rerate_rooms;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(610);
    let rooms: Vec<Vec<(u32, usize)>> = (0..40)
        .map(|_| {
            let mut seats: Vec<u32> = (0..25).collect();
            // Ten of 25 players, ranked with an occasional tie.
            for i in 0..10 {
                seats.swap(i, rng.random_range(i..25));
            }
            (0..10)
                .map(|i| {
                    (
                        seats[i],
                        if i == 9 && rng.random_bool(0.3) {
                            9
                        } else {
                            i + 1
                        },
                    )
                })
                .collect()
        })
        .collect();
    let replayed = rerate_rooms(&rooms).unwrap();
    let again = rerate_rooms(&rooms).unwrap();
    assert_eq!(
        serde_json::to_string(&replayed).unwrap(),
        serde_json::to_string(&again).unwrap()
    );
    let mut live: BTreeMap<u32, Skill> = BTreeMap::new();
    for (room, after) in rooms.iter().zip(&replayed.rooms) {
        let seats: Vec<(Skill, usize)> = room
            .iter()
            .map(|(p, rank)| (live.get(p).copied().unwrap_or_default(), *rank))
            .collect();
        let rated = rate_room(&seats).unwrap();
        assert_eq!(&rated, after);
        for ((p, _), s) in room.iter().zip(rated) {
            live.insert(*p, s);
        }
    }
    assert_eq!(live, replayed.players);
    let twice = vec![vec![(1u32, 1), (2, 2), (1, 3)]];
    assert_eq!(
        rerate_rooms(&twice).unwrap_err().to_string(),
        "room 0 seats 1 twice: a player cannot meet themself"
    );
}

/// Bands of one game: a game in one band leaves the player's other bands as they were, and a
/// player's first game in a band starts from `prior` of their other bands then.
#[test]
fn bands_are_pools_apart_and_a_new_band_starts_from_the_others() {
    use swapboard_league::glicko2::prior;
    let params = Params::LICHESS;
    let day = 86_400;
    let game = |band: &'static str, at, first, second| RatedGame {
        band,
        at,
        first,
        second,
        first_outcome: Outcome::Win,
    };
    // Ann beats Bob three times at the standard size, then meets Cy on a small board.
    let games = [
        game("standard", day, 1u32, 2),
        game("standard", 2 * day, 1, 2),
        game("standard", 3 * day, 1, 2),
        game("small", 10 * day, 3, 1),
    ];
    let replayed = rerate(&games, &params).unwrap();
    let ann_standard = replayed.games[2].0.after;
    // The small game left her standard record as the third game made it.
    assert_eq!(replayed.players[&1]["standard"], ann_standard);
    // She went into it from her standard record, RD grown by a week (and at least 250).
    let (_, ann_small) = replayed.games[3];
    let from = prior([&ann_standard], 10 * day, &params).unwrap();
    let grown = ann_standard.as_of(10 * day, &params).unwrap();
    assert_eq!(from.glicko.rating, ann_standard.glicko.rating);
    assert_eq!(from.glicko.rd, grown.rd.max(params.prior_rd));
    assert_eq!(from.games, 0);
    assert_eq!(ann_small.before, from.glicko);
    assert_eq!(replayed.players[&1]["small"].games, 1);
    // Cy had no band at all: a new player's 1500 / 500.
    assert_eq!(replayed.games[3].0.before, params.initial);
    assert_eq!(replayed.players[&3].len(), 1);
}
