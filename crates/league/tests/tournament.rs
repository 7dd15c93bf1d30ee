//! Tournaments: divisions, double round robin schedules, Swiss pairings and standings, on
//! simulated events with random results, checked against straightforward computations here.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_league::Error;
use swapboard_league::tournament::{
    Entrant, Game, GameResult, MAX_DIVISION, Round, divisions, double_round_robin, standings,
    swiss_round,
};

fn field(size: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<Entrant<u32>> {
    (0..size as u32)
        .map(|player| Entrant {
            player,
            rating: f64::from(rng.random_range(800..2400u32)),
        })
        .collect()
}

/// Random results, one game in ten drawn.
fn play(round: &mut Round<u32>, rng: &mut Xoshiro256PlusPlus) {
    for game in &mut round.games {
        game.result = Some(match rng.random_range(0..20) {
            0 | 1 => GameResult::Draw,
            n if n % 2 == 0 => GameResult::First,
            _ => GameResult::Second,
        });
    }
}

/// Firsts minus seconds of each player over `rounds`.
fn colour_differences(rounds: &[Round<u32>]) -> BTreeMap<u32, i32> {
    let mut difference = BTreeMap::new();
    for game in rounds.iter().flat_map(|r| &r.games) {
        *difference.entry(game.first).or_insert(0) += 1;
        *difference.entry(game.second).or_insert(0) -= 1;
    }
    difference
}

/// A standings row: player, points, Sonneborn-Berger, wins as second.
type Row = (u32, f64, f64, u32);

/// The standings computed the plain way, player by player over every game, best first, ties
/// by rating then key.
fn plain_standings(entrants: &[Entrant<u32>], rounds: &[Round<u32>]) -> Vec<Row> {
    let games: Vec<&Game<u32>> = rounds.iter().flat_map(|r| &r.games).collect();
    // What `p` scored in `g`, if `p` played it.
    let scored = |p: u32, g: &Game<u32>| match (g.result, p == g.first, p == g.second) {
        (Some(GameResult::First), true, _) | (Some(GameResult::Second), _, true) => Some(1.0),
        (Some(GameResult::Draw), true, _) | (Some(GameResult::Draw), _, true) => Some(0.5),
        (Some(_), true, _) | (Some(_), _, true) => Some(0.0),
        _ => None,
    };
    let points = |p: u32| {
        let from_games: f64 = games.iter().filter_map(|g| scored(p, g)).sum();
        from_games + rounds.iter().filter(|r| r.bye == Some(p)).count() as f64
    };
    let mut rows: Vec<(Row, f64)> = entrants
        .iter()
        .map(|e| {
            let p = e.player;
            let sonneborn_berger: f64 = games
                .iter()
                .filter_map(|g| {
                    let opponent = if g.first == p { g.second } else { g.first };
                    scored(p, g).map(|s| s * points(opponent))
                })
                .sum();
            let second_wins = games
                .iter()
                .filter(|g| g.second == p && g.result == Some(GameResult::Second))
                .count();
            (
                (p, points(p), sonneborn_berger, second_wins as u32),
                e.rating,
            )
        })
        .collect();
    rows.sort_by(|(a, ra), (b, rb)| {
        b.1.total_cmp(&a.1)
            .then(b.2.total_cmp(&a.2))
            .then(b.3.cmp(&a.3))
            .then(rb.total_cmp(ra))
            .then(a.0.cmp(&b.0))
    });
    rows.into_iter().map(|(row, _)| row).collect()
}

fn assert_every_player_played(entrants: &[Entrant<u32>], rounds: &[Round<u32>], games: usize) {
    for e in entrants {
        let played = rounds
            .iter()
            .flat_map(|r| &r.games)
            .filter(|g| g.first == e.player || g.second == e.player);
        assert_eq!(played.count(), games, "{}'s games", e.player);
    }
}

fn assert_standings_match(entrants: &[Entrant<u32>], rounds: &[Round<u32>]) {
    let table = standings(entrants, rounds).unwrap();
    let got: Vec<Row> = table
        .iter()
        .map(|s| (s.player, s.points, s.sonneborn_berger, s.second_player_wins))
        .collect();
    assert_eq!(got, plain_standings(entrants, rounds));
    assert_eq!(table[0].rank, 1);
}

#[test]
fn divisions_are_tiered_by_rating_and_balanced() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    for size in 2..=95 {
        let entrants = field(size, &mut rng);
        let split = divisions(&entrants).unwrap();
        assert_eq!(split.len(), size.div_ceil(MAX_DIVISION));
        let sizes: Vec<usize> = split.iter().map(Vec::len).collect();
        assert!(
            sizes.windows(2).all(|w| w[0] >= w[1] && w[0] - w[1] <= 1),
            "{sizes:?}"
        );
        assert!(
            sizes.iter().all(|&s| (2..=MAX_DIVISION).contains(&s)),
            "{sizes:?}"
        );
        let rating: BTreeMap<u32, f64> = entrants.iter().map(|e| (e.player, e.rating)).collect();
        let order: Vec<f64> = split.iter().flatten().map(|p| rating[p]).collect();
        assert!(
            order.windows(2).all(|w| w[0] >= w[1]),
            "strongest first, division by division"
        );
        assert_eq!(order.len(), size);
    }
    assert_eq!(
        divisions(&field(25, &mut rng))
            .unwrap()
            .iter()
            .map(Vec::len)
            .collect::<Vec<_>>(),
        [9, 8, 8]
    );
}

#[test]
fn bad_fields_are_refused() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    assert!(matches!(
        divisions(&field(1, &mut rng)),
        Err(Error::FieldSize { got: 1, .. })
    ));
    let mut twice = field(4, &mut rng);
    twice[3].player = 0;
    assert_eq!(
        divisions(&twice).unwrap_err().to_string(),
        "0 is entered twice"
    );
    let mut nan = field(4, &mut rng);
    nan[2].rating = f64::NAN;
    assert!(
        divisions(&nan)
            .unwrap_err()
            .to_string()
            .starts_with("2's rating is NaN")
    );
    assert!(matches!(
        double_round_robin(&[1u32; 1]),
        Err(Error::FieldSize { .. })
    ));
    assert!(matches!(
        double_round_robin(&(0..11u32).collect::<Vec<_>>()),
        Err(Error::FieldSize { .. })
    ));
    assert!(double_round_robin(&[1u32, 2, 1]).is_err());
    let unfinished = double_round_robin(&[0u32, 1, 2, 3]).unwrap();
    let err = swiss_round(&field(4, &mut rng), &unfinished[..1]).unwrap_err();
    assert!(err.to_string().contains("without a result"), "{err}");
    let stranger = [Round {
        number: 1,
        games: vec![Game {
            first: 0u32,
            second: 99,
            result: None,
        }],
        bye: None,
    }];
    let err = standings(&field(4, &mut rng), &stranger).unwrap_err();
    assert_eq!(err.to_string(), "round 1 names 99, who is not an entrant");
}

#[test]
fn a_double_round_robin_meets_each_pair_twice_once_with_each_colour() {
    for size in 2..=MAX_DIVISION {
        let players: Vec<u32> = (0..size as u32).collect();
        let rounds = double_round_robin(&players).unwrap();
        let slots = size + size % 2;
        assert_eq!(rounds.len(), 2 * (slots - 1), "size {size}");
        let mut meetings = BTreeMap::new();
        for (number, round) in rounds.iter().enumerate() {
            assert_eq!(round.number as usize, number + 1);
            assert_eq!(round.bye, None);
            assert_eq!(round.games.len(), size / 2);
            let seated: BTreeSet<u32> = round
                .games
                .iter()
                .flat_map(|g| [g.first, g.second])
                .collect();
            assert_eq!(
                seated.len(),
                2 * round.games.len(),
                "nobody twice in a round"
            );
            for game in &round.games {
                *meetings.entry((game.first, game.second)).or_insert(0) += 1;
            }
        }
        for a in 0..size as u32 {
            for b in 0..size as u32 {
                if a != b {
                    assert_eq!(
                        meetings.get(&(a, b)),
                        Some(&1),
                        "{a} first against {b}, size {size}"
                    );
                }
            }
        }
        // After the first half (a single round robin) colours are within one of even.
        let half = colour_differences(&rounds[..rounds.len() / 2]);
        assert!(half.values().all(|d| d.abs() <= 1), "size {size}: {half:?}");
        assert!(colour_differences(&rounds).values().all(|&d| d == 0));
    }
}

#[test]
fn a_simulated_ten_player_double_round_robin() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(10);
    let entrants = field(10, &mut rng);
    let division = &divisions(&entrants).unwrap()[0];
    let mut rounds = double_round_robin(division).unwrap();
    for round in &mut rounds {
        play(round, &mut rng);
    }
    assert_eq!(rounds.len(), 18);
    assert_every_player_played(&entrants, &rounds, 18);
    assert_standings_match(&entrants, &rounds);
    let table = standings(&entrants, &rounds).unwrap();
    assert_eq!(table.iter().map(|s| s.points).sum::<f64>(), 90.0);
}

/// Plays a Swiss of `rounds` rounds with random results, checking every round's rules as it
/// is paired; returns the rounds played (fewer when a round cannot be paired).
fn run_swiss(
    entrants: &[Entrant<u32>],
    rounds: u32,
    rng: &mut Xoshiro256PlusPlus,
) -> (Vec<Round<u32>>, Option<Error>) {
    let mut played: Vec<Round<u32>> = Vec::new();
    let mut met = BTreeSet::new();
    for number in 1..=rounds {
        let mut round = match swiss_round(entrants, &played) {
            Ok(round) => round,
            Err(err) => return (played, Some(err)),
        };
        assert_eq!(round.number, number);
        let seated: Vec<u32> = round
            .games
            .iter()
            .flat_map(|g| [g.first, g.second])
            .chain(round.bye)
            .collect();
        assert_eq!(
            seated.iter().collect::<BTreeSet<_>>().len(),
            entrants.len(),
            "everyone once"
        );
        assert_eq!(seated.len(), entrants.len());
        assert_eq!(round.bye.is_some(), entrants.len() % 2 == 1);
        if let Some(bye) = round.bye {
            assert!(
                played.iter().all(|r| r.bye != Some(bye)),
                "{bye} had a bye already"
            );
        }
        for game in &round.games {
            let pair = (game.first.min(game.second), game.first.max(game.second));
            assert!(met.insert(pair), "{pair:?} meet twice");
        }
        play(&mut round, rng);
        played.push(round);
        let colours = colour_differences(&played);
        assert!(
            colours.values().all(|d| d.abs() <= 1),
            "round {number}: {colours:?}"
        );
    }
    (played, None)
}

#[test]
fn a_simulated_forty_player_seven_round_swiss() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(40);
    let entrants = field(40, &mut rng);
    let (rounds, err) = run_swiss(&entrants, 7, &mut rng);
    assert_eq!(err, None);
    assert_every_player_played(&entrants, &rounds, 7);
    assert_standings_match(&entrants, &rounds);
    // Round 1 is paired Dutch-fashion: the top-rated player meets the 21st.
    let mut by_rating = entrants.clone();
    by_rating.sort_by(|a, b| b.rating.total_cmp(&a.rating).then(a.player.cmp(&b.player)));
    let top = by_rating[0].player;
    let opening = rounds[0]
        .games
        .iter()
        .find(|g| g.first == top || g.second == top)
        .unwrap();
    let opponent = if opening.first == top {
        opening.second
    } else {
        opening.first
    };
    assert_eq!(opponent, by_rating[20].player);
    // And colours alternate down the boards: the higher-rated plays first on boards 1, 3, ...
    let rating: BTreeMap<u32, f64> = entrants.iter().map(|e| (e.player, e.rating)).collect();
    for (board, game) in rounds[0].games.iter().enumerate() {
        let higher_first = rating[&game.first] > rating[&game.second];
        assert_eq!(higher_first, board % 2 == 0, "board {}", board + 1);
    }
}

#[test]
fn the_bye_goes_to_the_lowest_ranked_player_without_one() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let entrants = field(9, &mut rng);
    let mut by_rating = entrants.clone();
    by_rating.sort_by(|a, b| b.rating.total_cmp(&a.rating));
    let first = swiss_round(&entrants, &[]).unwrap();
    assert_eq!(
        first.bye,
        Some(by_rating[8].player),
        "round 1: the lowest rated"
    );
    let (rounds, err) = run_swiss(&entrants, 5, &mut rng);
    assert_eq!(err, None);
    let byes: BTreeSet<u32> = rounds.iter().filter_map(|r| r.bye).collect();
    assert_eq!(byes.len(), 5);
    let table = standings(&entrants, &rounds).unwrap();
    assert_eq!(
        table.iter().map(|s| s.points).sum::<f64>(),
        4.0 * 5.0 + 5.0,
        "a point per game, a point per bye"
    );
}

/// Whether `players` can be paired at all under the rules, by trying every perfect matching
/// (small fields only).
fn pairable(players: &[u32], met: &BTreeSet<(u32, u32)>, colour: &BTreeMap<u32, i32>) -> bool {
    let Some((&a, rest)) = players.split_first() else {
        return true;
    };
    rest.iter().any(|&b| {
        let (da, db) = (
            colour.get(&a).copied().unwrap_or(0),
            colour.get(&b).copied().unwrap_or(0),
        );
        let colours_ok = (da < 1 && db > -1) || (db < 1 && da > -1);
        let fresh = !met.contains(&(a.min(b), a.max(b)));
        let left: Vec<u32> = rest.iter().copied().filter(|&p| p != b).collect();
        colours_ok && fresh && pairable(&left, met, colour)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Fields of 2 to 60 players over random results: every round the search gives obeys the
    /// rules, the standings match the plain computation, and a round is always found within
    /// the rounds a Swiss needs to single out a winner (ceil(log2 n)), or 9 rounds for fields
    /// over 20. (The strict colour rule makes longer Swisses of small fields run out of
    /// pairings, e.g. 8 players cannot play a 4th round; docs/RATINGS.md has the figures.)
    #[test]
    fn swiss_fields_of_2_to_60(size in 2usize..=60, seed in any::<u64>()) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let entrants = field(size, &mut rng);
        let rounds = if size > 20 { 9 } else { usize::BITS - (size - 1).leading_zeros() };
        let (played, err) = run_swiss(&entrants, rounds, &mut rng);
        prop_assert_eq!(err, None, "size {}, after {} rounds", size, played.len());
        assert_standings_match(&entrants, &played);
    }

    /// Small fields played to exhaustion: the search finds a round exactly when one exists
    /// (checked by trying every pairing), and gives the bye to the lowest-ranked player
    /// without one for whom the rest can be paired.
    #[test]
    fn swiss_search_is_complete_on_small_fields(size in 2usize..=9, seed in any::<u64>()) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let entrants = field(size, &mut rng);
        let mut played: Vec<Round<u32>> = Vec::new();
        loop {
            let colour = colour_differences(&played);
            let met: BTreeSet<(u32, u32)> = played
                .iter()
                .flat_map(|r| &r.games)
                .map(|g| (g.first.min(g.second), g.first.max(g.second)))
                .collect();
            let table = standings(&entrants, &played).unwrap();
            // Pairing rank: points, then rating, then key.
            let mut ranked: Vec<(u32, f64, f64)> =
                table.iter().map(|s| (s.player, s.points, s.rating)).collect();
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.2.total_cmp(&a.2)).then(a.0.cmp(&b.0)));
            let everyone: Vec<u32> = ranked.iter().map(|r| r.0).collect();
            let had_bye: BTreeSet<u32> = played.iter().filter_map(|r| r.bye).collect();
            let expected_bye: Option<Option<u32>> = if size % 2 == 0 {
                pairable(&everyone, &met, &colour).then_some(None)
            } else {
                everyone.iter().rev().filter(|p| !had_bye.contains(p)).find(|&&bye| {
                    let rest: Vec<u32> = everyone.iter().copied().filter(|&p| p != bye).collect();
                    pairable(&rest, &met, &colour)
                }).map(|&bye| Some(bye))
            };
            match (swiss_round(&entrants, &played), expected_bye) {
                (Ok(mut round), Some(bye)) => {
                    prop_assert_eq!(round.bye, bye);
                    play(&mut round, &mut rng);
                    played.push(round);
                }
                (Err(Error::NoPairing { .. }), None) => break,
                (Err(err), None) if size % 2 == 1 && had_bye.len() == size => {
                    prop_assert!(err.to_string().contains("every player has had one"));
                    break;
                }
                (got, expected) => prop_assert!(false, "got {:?}, expected bye {:?}", got, expected),
            }
            prop_assert!(played.len() <= size, "no more rounds than opponents and byes");
        }
    }
}

/// Rounds and standings go to storage and back unchanged, and results read as the API's
/// `"first" | "second" | null`.
#[test]
fn rounds_and_standings_store_as_json() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let entrants = field(5, &mut rng);
    let (rounds, _) = run_swiss(&entrants, 2, &mut rng);
    let mut pending = swiss_round(&entrants, &rounds).unwrap();
    pending.games[0].result = Some(GameResult::Draw);
    let text = serde_json::to_string(&pending).unwrap();
    assert!(
        text.contains(r#""result":"draw""#) && text.contains(r#""result":null"#),
        "{text}"
    );
    let back: Round<u32> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, pending);
    let table = standings(&entrants, &rounds).unwrap();
    let back: Vec<swapboard_league::tournament::Standing<u32>> =
        serde_json::from_str(&serde_json::to_string(&table).unwrap()).unwrap();
    assert_eq!(back, table);
}

/// Three players beat each other in a circle: equal points and Sonneborn-Berger, so the win
/// as the second player puts A first, then rating puts C above B; two idle players equal on
/// everything share a rank.
#[test]
fn tie_breaks_in_order() {
    let (a, b, c, d, e) = (1u32, 2, 3, 4, 5);
    let entrants: Vec<Entrant<u32>> = [
        (a, 1500.0),
        (b, 1600.0),
        (c, 1700.0),
        (d, 1650.0),
        (e, 1650.0),
    ]
    .into_iter()
    .map(|(player, rating)| Entrant { player, rating })
    .collect();
    let game = |first, second, result| Game {
        first,
        second,
        result: Some(result),
    };
    let rounds = [Round {
        number: 1,
        games: vec![
            game(b, a, GameResult::Second),
            game(b, c, GameResult::First),
            game(c, a, GameResult::First),
        ],
        bye: None,
    }];
    let table = standings(&entrants, &rounds).unwrap();
    let order: Vec<(usize, u32, f64, f64, u32)> = table
        .iter()
        .map(|s| {
            (
                s.rank,
                s.player,
                s.points,
                s.sonneborn_berger,
                s.second_player_wins,
            )
        })
        .collect();
    assert_eq!(
        order,
        [
            (1, a, 1.0, 1.0, 1),
            (2, c, 1.0, 1.0, 0),
            (3, b, 1.0, 1.0, 0),
            (4, d, 0.0, 0.0, 0),
            (4, e, 0.0, 0.0, 0)
        ]
    );
}

/// A player who withdraws after round 2 is paired no more; the field turns odd, so byes
/// begin; the withdrawn player's games stay in the standings.
#[test]
fn a_withdrawn_player_is_paired_no_more() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    let everyone = field(12, &mut rng);
    let (mut rounds, err) = run_swiss(&everyone, 2, &mut rng);
    assert_eq!(err, None);
    let gone = everyone[4].player;
    let staying: Vec<Entrant<u32>> = everyone
        .iter()
        .filter(|e| e.player != gone)
        .cloned()
        .collect();
    for number in 3..=5 {
        let mut round = swiss_round(&staying, &rounds).unwrap();
        assert_eq!(round.number, number);
        assert!(round.bye.is_some(), "eleven players: a bye");
        assert!(
            round
                .games
                .iter()
                .all(|g| g.first != gone && g.second != gone)
        );
        play(&mut round, &mut rng);
        rounds.push(round);
    }
    let table = standings(&everyone, &rounds).unwrap();
    assert_eq!(table.len(), 12);
    assert_standings_match(&everyone, &rounds);
}
