//! Books from the solver: the shipped books' strategies win against every first move and
//! random replies to the end, each of their answers is a win by an independent solve, a
//! book is what `swapboard book` generates, its file is checked when read, and off the
//! book the solver still finds the win.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;
use swapboard_core::{Game, Outcome, Player};
use swapboard_flipstop::Flipstop;

use swapboard_solver::book::{Book, BookProgress, Course, Decision, Journal, NoJournal};
use swapboard_solver::{BookError, Options, Reach, Solver};
use swapboard_swaptimum::Swaptimum;

fn fresh_solver<G: Game>() -> Solver<G> {
    Solver::new(Options {
        table_bytes: 16 << 20,
        ..Options::default()
    })
}

/// The outcome of `position` by a solve from an empty table.
fn solved<G: Game>(position: &G) -> Option<Outcome> {
    fresh_solver().solve(position, &mut |_| {}).outcome
}

/// The book of `G` on `size`: every first move of Red (the start is a second-player win on
/// 3x3 and 4x4) is answered with a move the solver proves wins for Blue, and Blue playing
/// from the book wins `games` games against random replies, every position of Blue's
/// found in the book.
fn check_shipped<G: Game>(size: usize, games: usize) {
    let start = G::start(size).unwrap();
    let book = Book::shipped::<G>(size).expect("a shipped book");
    assert_eq!(solved(&start), Some(Outcome::Win(Player::Second)));
    assert!(book.is_lost(&start), "the start is lost for Red");
    assert_eq!(book.winning_move(&start), None, "no win for the loser");
    let mut solver = fresh_solver::<G>();
    for first in start.legal_moves() {
        let after = start.clone().play(&first).unwrap();
        let reply = book
            .winning_move(&after)
            .unwrap_or_else(|| panic!("{after}: no book move"));
        let next = after.clone().play(&reply).unwrap();
        let proof = solver.solve(&next, &mut |_| {});
        assert_eq!(
            proof.outcome,
            Some(Outcome::Win(Player::Second)),
            "{after}: {reply}"
        );
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(28);
    for _ in 0..games {
        let mut position = start.clone();
        while !position.is_over() {
            let mv = match position.to_move() {
                Player::First => position.random_move(&mut rng),
                Player::Second => book.winning_move(&position),
            };
            let mv = mv.unwrap_or_else(|| panic!("{position}: no move"));
            position.play_unchecked(&mv);
        }
        assert_eq!(position.outcome(), Some(Outcome::Win(Player::Second)));
    }
}

#[test]
fn the_shipped_books_win_every_first_move_and_every_random_game() {
    check_shipped::<Swaptimum>(3, 50);
    check_shipped::<Flipstop>(3, 50);
    check_shipped::<Swaptimum>(4, 100);
    check_shipped::<Flipstop>(4, 100);
}

#[test]
fn a_book_is_what_the_generator_makes_and_round_trips_through_its_file() {
    for (made, shipped) in [
        (
            Book::generate(
                &Swaptimum::start(3).unwrap(),
                Options::default(),
                Reach::Whole,
                &mut NoJournal,
            )
            .unwrap()
            .0,
            Book::shipped::<Swaptimum>(3).unwrap(),
        ),
        (
            Book::generate(
                &Flipstop::start(3).unwrap(),
                Options::default(),
                Reach::Whole,
                &mut NoJournal,
            )
            .unwrap()
            .0,
            Book::shipped::<Flipstop>(3).unwrap(),
        ),
    ] {
        assert_eq!(&made, shipped);
        assert_eq!(Book::from_bytes(&made.to_bytes()).unwrap(), made);
    }
    assert!(Book::shipped::<Swaptimum>(9).is_none());
    // The boards with a book are the boards proved from the start, and only those.
    for (game, size) in [("swaptimum", 3), ("swaptimum", 5), ("flipstop", 4)] {
        assert!(Book::proves_start(game, size), "{game} {size}");
    }
    for (game, size) in [("swaptimum", 6), ("flipstop", 5), ("scware", 3)] {
        assert!(!Book::proves_start(game, size), "{game} {size}");
    }
    assert!(Book::shipped::<Flipstop>(5).is_none());
    for (book, reach) in [
        (Book::shipped::<Swaptimum>(4), Reach::Whole),
        (Book::shipped::<Swaptimum>(5), Reach::UntilLive),
    ] {
        assert_eq!(book.map(Book::reach), Some(reach));
    }
}

#[test]
fn a_damaged_book_file_is_refused_with_its_reason() {
    let bytes = Book::shipped::<Flipstop>(3).unwrap().to_bytes();
    let refused = |bytes: &[u8], why: &str| match Book::from_bytes(bytes) {
        Err(BookError::Format(message)) => assert!(message.contains(why), "{message}"),
        other => panic!("{other:?}"),
    };
    refused(&bytes[..bytes.len() - 3], "bytes of hashes");
    refused(b"no newline", "no header line");
    refused(b"swapboard-book 1 flipstop 3 0\n", "not version 2");
    refused(b"swapboard-book 3 flipstop 3 0 whole\n", "not version 2");
    refused(b"swapboard-book 2 flipstop 3 0\n", "expected");
    refused(b"swapboard-book 2 flipstop 3 999999999 whole\n", "count");
    refused(
        b"swapboard-book 2 flipstop 3 0 halfway\n",
        "reach \"halfway\"",
    );
    refused(b"chessboard-book 2 flipstop 3 0 whole\n", "does not start");
    let mut unsorted = b"swapboard-book 2 flipstop 3 2 whole\n".to_vec();
    unsorted.extend_from_slice(&5u64.to_le_bytes());
    unsorted.extend_from_slice(&4u64.to_le_bytes());
    refused(&unsorted, "increasing order");
}

#[test]
fn a_book_answers_only_its_own_game_and_board() {
    let book = Book::shipped::<Flipstop>(4).unwrap();
    let mut swaptimum = Swaptimum::start(4).unwrap();
    swaptimum.play_text("a1").unwrap();
    assert_eq!(book.winning_move(&swaptimum), None);
    assert!(!book.is_lost(&Swaptimum::start(4).unwrap()));
    let mut five = Flipstop::start(5).unwrap();
    five.play_text("a1").unwrap();
    assert_eq!(book.winning_move(&five), None);
}

/// A position of 4x4 `G` won for the player to move but off the book's strategy: Red, the
/// book's loser, to move after Blue strayed. On a board whose book is whole the live
/// solver is asked off the strategy too, and its move there wins.
fn off_book_win<G: Game>() {
    let book = Book::shipped::<G>(4).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut found = 0;
    for _ in 0..400 {
        let mut position = G::start(4).unwrap();
        for _ in 0..4 {
            if let Some(mv) = position.random_move(&mut rng) {
                position.play_unchecked(&mv);
            }
        }
        if position.is_over()
            || book.is_lost(&position)
            || book.winning_move(&position).is_some()
            || solved(&position) != Some(Outcome::Win(position.to_move()))
        {
            continue;
        }
        let mv = Course::new(&position)
            .proven_move(&position, None)
            .expect("the solver finds the win");
        let next = position.clone().play(&mv).unwrap();
        assert_eq!(solved(&next), Some(Outcome::Win(position.to_move())));
        found += 1;
        if found == 3 {
            return;
        }
    }
    panic!("fewer than 3 won positions off the book in 400 random openings");
}

#[test]
fn off_the_book_a_won_position_is_played_by_the_solver() {
    off_book_win::<Swaptimum>();
    off_book_win::<Flipstop>();
}

/// A book that stops where the live solver takes over: on 4x4 (a second-player win the live
/// solver proves after any first move) it holds the start alone and leaves Blue's four
/// classes of answers to the live solver, and Blue playing from it wins against random
/// replies, every move of Blue's a proven one.
#[test]
fn a_book_until_live_leaves_what_the_live_solver_proves_to_it() {
    let start = Swaptimum::start(4).unwrap();
    let mut journal = Remembering::default();
    let (book, last) =
        Book::generate(&start, Options::default(), Reach::UntilLive, &mut journal).unwrap();
    assert_eq!(journal.decisions.len(), 4);
    assert!(journal.decisions.values().all(|d| *d == Decision::Live));
    assert_eq!((book.len(), last.lost), (1, 1));
    assert_eq!((last.won, last.left_to_live), (4, 4));
    assert!(last.nodes > 0);
    assert!(book.is_lost(&start));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    for _ in 0..6 {
        let mut position = start.clone();
        let mut solved_live = 0;
        while !position.is_over() {
            let mv = match position.to_move() {
                Player::First => position.random_move(&mut rng),
                Player::Second => {
                    // Past the start the book knows only moves that end the game.
                    solved_live += usize::from(book.winning_move(&position).is_none());
                    book.proven_move(&position, None)
                }
            };
            position.play_unchecked(&mv.unwrap_or_else(|| panic!("{position}: no move")));
        }
        assert_eq!(position.outcome(), Some(Outcome::Win(Player::Second)));
        assert!(solved_live > 0, "{position}: the live solver never played");
    }
    // The whole strategy of the same board is the shipped book.
    let (whole, _) =
        Book::generate(&start, Options::default(), Reach::Whole, &mut NoJournal).unwrap();
    assert_eq!(&whole, Book::shipped::<Swaptimum>(4).unwrap());
}

/// A journal in memory: recalls what `known` holds, keeps what a run decides.
struct Remembering<M: Clone> {
    known: HashMap<u64, Decision<M>>,
    decisions: HashMap<u64, Decision<M>>,
}

impl<M: Clone> Default for Remembering<M> {
    fn default() -> Remembering<M> {
        Remembering {
            known: HashMap::new(),
            decisions: HashMap::new(),
        }
    }
}

impl<G: Game> Journal<G> for Remembering<G::Move> {
    fn recall(&self, _: &G, hash: u64) -> Result<Option<Decision<G::Move>>, String> {
        Ok(self.known.get(&hash).cloned())
    }

    fn record(&mut self, _: &G, hash: u64, decision: &Decision<G::Move>, _: &BookProgress) {
        self.decisions.insert(hash, decision.clone());
    }
}

/// A generation stopped part way resumes from its journal: a run that recalls every
/// decision makes the same book without a search, one that recalls some decides only the
/// rest, and a recalled move that is not legal is refused.
#[test]
fn a_generation_resumes_from_its_journal() {
    let start = Flipstop::start(4).unwrap();
    let generate = |journal: &mut Remembering<_>| {
        Book::generate(&start, Options::default(), Reach::Whole, journal).map(|(book, _)| book)
    };
    let mut first = Remembering::default();
    let book = generate(&mut first).unwrap();
    assert_eq!(&book, Book::shipped::<Flipstop>(4).unwrap());
    let all = first.decisions;
    assert!(all.len() > 100, "{}", all.len());

    let mut again = Remembering {
        known: all.clone(),
        ..Remembering::default()
    };
    assert_eq!(generate(&mut again).unwrap(), book);
    assert!(again.decisions.is_empty(), "nothing left to decide");

    let mut hashes: Vec<u64> = all.keys().copied().collect();
    hashes.sort_unstable();
    let half: HashMap<_, _> = hashes[..hashes.len() / 2]
        .iter()
        .map(|h| (*h, all[h].clone()))
        .collect();
    let mut resumed = Remembering {
        known: half,
        ..Remembering::default()
    };
    assert_eq!(generate(&mut resumed).unwrap(), book);
    assert!(!resumed.decisions.is_empty() && resumed.decisions.len() < all.len());

    // Blue's first decision, a move into an occupied cell once recalled at the start.
    let after = start.clone().play(&start.legal_moves()[0]).unwrap();
    let taken = after.parse_move("a1").unwrap();
    let mut wrong = Remembering {
        known: HashMap::from([(after.canonical_hash(), Decision::Play(taken))]),
        ..Remembering::default()
    };
    match generate(&mut wrong) {
        Err(BookError::Journal(why)) => assert!(why.contains("not legal"), "{why}"),
        other => panic!("{other:?}"),
    }
}

/// The 5x5 Swaptimum book, which stops where the live solver takes over: Red's opening and
/// the answer to every reply of Blue's come from the book, and Red, following the game's
/// course (the book, then the live solver), wins every game against random replies, each
/// of its moves a proven one (none left to the search).
#[test]
fn the_5x5_swaptimum_book_and_the_live_solver_win_every_random_game() {
    let start = Swaptimum::start(5).unwrap();
    let book = Book::shipped::<Swaptimum>(5).unwrap();
    let opening = book.winning_move(&start).expect("Red's opening");
    let after = start.clone().play(&opening).unwrap();
    assert!(book.is_lost(&after), "{after}");
    for reply in after.legal_moves() {
        let position = after.clone().play(&reply).unwrap();
        assert!(
            book.winning_move(&position).is_some(),
            "{position}: no book answer"
        );
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut live = 0;
    for _ in 0..10 {
        let mut course = Course::new(&start);
        while !course.position().is_over() {
            let position = course.position().clone();
            let mv = match position.to_move() {
                Player::First => {
                    live += usize::from(book.winning_move(&position).is_none());
                    course.proven_move(&position, None)
                }
                Player::Second => position.random_move(&mut rng),
            };
            course
                .advance(&mv.unwrap_or_else(|| panic!("{position}: no move")))
                .unwrap();
        }
        assert_eq!(
            course.position().outcome(),
            Some(Outcome::Win(Player::First))
        );
    }
    assert!(live > 0, "the live solver never played");
}

/// Past the 5x5 Swaptimum book the live solver is asked only where the strategy leads:
/// Red having strayed from the book's opening, Blue has a win the live solver proves at
/// at once, but a course off the strategy does not ask it (the lookup alone answers, and
/// has nothing). Red keeping to the book, a position past it is played by the live solver,
/// which a course that has not reached that position does not ask.
#[test]
fn past_an_until_live_book_the_live_solver_is_asked_only_on_the_strategy() {
    let start = Swaptimum::start(5).unwrap();
    let book = Book::shipped::<Swaptimum>(5).unwrap();
    let opening = book.winning_move(&start).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let mut checked = 0;
    for _ in 0..200 {
        // Red opens off the book, then both play at random until few cells are left.
        let mut moves = vec![];
        let mut position = start.clone();
        while !position.is_over() && moves.len() < 15 {
            let mv = loop {
                let mv = position.random_move(&mut rng).unwrap();
                if !moves.is_empty() || mv != opening {
                    break mv;
                }
            };
            position.play_unchecked(&mv);
            moves.push(mv);
        }
        if position.is_over()
            || position.to_move() != Player::Second
            || book.winning_move(&position).is_some()
            || book.proven_move(&position, None).is_none()
        {
            continue;
        }
        let course = Course::replay(&start, &moves).unwrap();
        assert_eq!(course.proven_move(&position, None), None, "{position}");
        checked += 1;
        if checked == 3 {
            break;
        }
    }
    assert_eq!(checked, 3, "fewer than 3 late wins for Blue in 200 games");

    // Red on the book's strategy, in the live solver's part of it.
    let mut course = Course::new(&start);
    loop {
        let position = course.position().clone();
        let mv = match position.to_move() {
            Player::First if book.winning_move(&position).is_none() => break,
            Player::First => book.winning_move(&position),
            Player::Second => position.random_move(&mut rng),
        };
        course.advance(&mv.unwrap()).unwrap();
    }
    let position = course.position().clone();
    let mv = course.proven_move(&position, None).expect("a live win");
    let after = position.clone().play(&mv).unwrap();
    assert_eq!(solved(&after), Some(Outcome::Win(Player::First)));
    assert_eq!(Course::new(&start).proven_move(&position, None), None);
}
