//! Resolving a full round of 10 submissions and scoring all players, for each round's
//! variation (1 Theme, 2 Corner Connection, 3 Node Network, 4 Ultimate Seat Exchange,
//! 5 Theme). Submissions are the bidding bot's, so the round really swaps tiles.

use swapboard_swap61::{Seat, Setup, bot, play_round};

fn main() {
    divan::main();
}

/// A 10-player game and every player's bot submission for `round`.
fn fixture(round: usize) -> (Setup, Vec<(Seat, String)>) {
    let names: Vec<String> = (1..=10).map(|i| format!("p{i}")).collect();
    let setup = Setup::generate(&names, 2024).expect("a valid setup");
    let texts = Seat::all(10)
        .map(|seat| {
            let bids = bot::bids(&setup, &setup.start, round, seat);
            (seat, bot::submission_text(&bids))
        })
        .collect();
    (setup, texts)
}

/// Parsing and checking 10 submissions, resolving, and scoring all 10 players.
#[divan::bench(args = [1, 2, 3, 4, 5])]
fn full_round(bencher: divan::Bencher<'_, '_>, round: usize) {
    let (setup, texts) = fixture(round);
    let subs: Vec<(Seat, &str)> = texts.iter().map(|(s, t)| (*s, t.as_str())).collect();
    let swaps = play_round(&setup.start, round, &setup.rounds[round], &subs)
        .resolution
        .edges
        .len();
    assert!(swaps > 0, "the bots bid on nothing");
    bencher.bench(|| {
        play_round(
            divan::black_box(&setup.start),
            round,
            &setup.rounds[round],
            &subs,
        )
    });
}

/// One bot's bids: every candidate swap scored for itself.
#[divan::bench(args = [1, 3])]
fn bot_bids(bencher: divan::Bencher<'_, '_>, round: usize) {
    let (setup, _) = fixture(round);
    let seat = Seat::new(1).expect("seat 1");
    bencher.bench(|| bot::bids(&setup, divan::black_box(&setup.start), round, seat));
}
