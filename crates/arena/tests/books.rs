//! The AI on a solved board: from positions the solver proves won for the side to move,
//! the `mcts:` search at level 1 (twelve iterations a move) wins every game against level
//! 4, playing from the books where their strategy reaches and from the solver elsewhere
//! (on 5x5 Swaptimum past the book, only where the strategy leads).

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_ai::Level;
use swapboard_arena::{Bot, PlayerSpec};
use swapboard_core::{Game, Outcome, Player, Stepwise};
use swapboard_flipstop::Flipstop;
use swapboard_solver::{Options, Solver};
use swapboard_swaptimum::Swaptimum;

/// Plays `games` positions of 4x4 `G`, each a random opening of 1 to 6 plies that the
/// solver proves won for the side to move, with level 1 on that side.
fn never_loses_a_won_position<G: Stepwise>(games: usize) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(28);
    let mut solver = Solver::<G>::new(Options {
        table_bytes: 16 << 20,
        ..Options::default()
    });
    let (mut played, mut tries) = (0, 0);
    while played < games {
        tries += 1;
        assert!(tries < 50 * games, "too few won openings");
        let mut position = G::start(4).unwrap();
        for _ in 0..1 + tries % 6 {
            if let Some(mv) = position.random_move(&mut rng) {
                position.play_unchecked(&mv);
            }
        }
        let winner = position.to_move();
        if position.is_over()
            || solver.solve(&position, &mut |_| {}).outcome != Some(Outcome::Win(winner))
        {
            continue;
        }
        let weak = PlayerSpec::level(Level::MIN);
        let strong = PlayerSpec::level(Level::new(4).unwrap());
        let seed = tries as u64;
        let mut bots = [
            Bot::new(weak, &position, seed),
            Bot::new(strong, &position, seed),
        ];
        let start = position.to_string();
        while !position.is_over() {
            let bot = &mut bots[usize::from(position.to_move() != winner)];
            let mv = bot.choose(&position).expect("a move");
            position.play_unchecked(&mv);
        }
        assert_eq!(
            position.outcome(),
            Some(Outcome::Win(winner)),
            "from {start}"
        );
        played += 1;
    }
}

#[test]
fn the_ai_never_loses_a_won_position_of_a_solved_board() {
    never_loses_a_won_position::<Swaptimum>(12);
    never_loses_a_won_position::<Flipstop>(12);
}

/// On 5x5 Swaptimum, whose book stops where the live solver takes over, level 1 as Red (the
/// strategy's winner) wins against level 4: it plays the book, then, following the game
/// move by move, the live solver.
#[test]
fn the_ai_wins_5x5_swaptimum_as_red_past_the_book() {
    let start = Swaptimum::start(5).unwrap();
    for seed in 0..2 {
        let mut bots = [
            Bot::new(PlayerSpec::level(Level::MIN), &start, seed),
            Bot::new(PlayerSpec::level(Level::new(4).unwrap()), &start, seed),
        ];
        let mut position = start.clone();
        while !position.is_over() {
            let mv = bots[position.to_move().index()]
                .choose(&position)
                .expect("a move");
            for bot in &mut bots {
                bot.observe(&mv).unwrap();
            }
            position.play_unchecked(&mv);
        }
        assert_eq!(
            position.outcome(),
            Some(Outcome::Win(Player::First)),
            "seed {seed}"
        );
    }
}
