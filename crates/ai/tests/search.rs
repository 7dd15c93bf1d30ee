//! The search on small games whose results are known by brute force.

mod toys;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_ai::{Budget, Config, Level, Mcts, baseline};
use swapboard_core::{Game, Outcome, Player, Stepwise};
use toys::{PairSum, PassMove, PassNim, TicTacToe, TwiceNim, solve};

fn config(seed: u64) -> Config {
    Config {
        seed,
        expand_visits: 1,
        ..Config::default()
    }
}

/// Searches `pos` until the root is proven (or the budget runs out) and returns the proof
/// and the chosen move.
fn proven<G: Stepwise>(pos: &G, iterations: u64) -> (Option<Outcome>, Option<G::Move>) {
    let mut search = Mcts::new(pos.clone(), config(7));
    let analysis = search.think(&Budget::iterations(iterations));
    (analysis.proven, search.best_move())
}

/// Checks that a move is optimal: after it, the brute-force result is the position's.
fn assert_optimal<G: Game>(pos: &G, mv: &G::Move, memo: &mut HashMap<G, Outcome>) {
    let expected = solve(pos, memo);
    let mut next = pos.clone();
    next.play_unchecked(mv);
    assert_eq!(
        solve(&next, memo),
        expected,
        "{mv} from {pos} is not optimal"
    );
}

#[test]
fn solver_matches_brute_force_when_one_player_moves_twice_in_a_row() {
    let mut memo = HashMap::new();
    for pile in 1..=12 {
        for phase in 0..3 {
            let pos = TwiceNim { pile, phase };
            let (proof, mv) = proven(&pos, 20_000);
            assert_eq!(proof, Some(solve(&pos, &mut memo)), "{pos:?}");
            assert_optimal(&pos, &mv.expect("a move"), &mut memo);
        }
    }
}

#[test]
fn solver_matches_brute_force_with_passes() {
    let mut memo = HashMap::new();
    for pile in 1..=14 {
        for to_move in Player::BOTH {
            let pos = PassNim {
                pile,
                to_move,
                winner: None,
            };
            let (proof, mv) = proven(&pos, 20_000);
            assert_eq!(proof, Some(solve(&pos, &mut memo)), "{pos:?}");
            assert_optimal(&pos, &mv.expect("a move"), &mut memo);
        }
    }
}

#[test]
fn a_pass_is_played_when_it_is_the_only_move() {
    let pos = PassNim {
        pile: 1,
        to_move: Player::Second,
        winner: None,
    };
    let mut search = Mcts::new(pos, config(1));
    search.think(&Budget::iterations(50));
    assert_eq!(search.best_move(), Some(PassMove::Pass));
}

#[test]
fn stepwise_turns_are_searched_as_decisions_and_returned_whole() {
    let mut memo = HashMap::new();
    for total in 0..11 {
        for to_move in Player::BOTH {
            let pos = PairSum {
                total,
                target: 11,
                to_move,
                winner: None,
            };
            let (proof, mv) = proven(&pos, 30_000);
            assert_eq!(proof, Some(solve(&pos, &mut memo)), "{pos:?}");
            let mv = mv.expect("a whole move");
            assert!(pos.is_legal(&mv), "{mv} is not legal");
            assert_optimal(&pos, &mv, &mut memo);
        }
    }
}

/// A game searched as decisions picks its turn decision by decision: the first digit of the
/// move is the one whose turns got the most visits together, even when the single most
/// visited whole move starts with another digit, with one thread or two sharing the tree.
#[test]
fn stepwise_moves_follow_the_most_visited_decisions() {
    for threads in [1, 2] {
        for seed in 1..6 {
            let mut search = Mcts::new(
                PairSum::default(),
                Config {
                    threads,
                    ..config(seed)
                },
            );
            let analysis = search.think(&Budget::iterations(2_000));
            let mut by_first = [0u64; 3];
            for line in &analysis.lines {
                by_first[usize::from(line.mv.0)] += line.visits;
            }
            let mv = search.best_move().expect("a move");
            let most = by_first.iter().max().expect("three digits");
            assert_eq!(
                by_first[usize::from(mv.0)],
                *most,
                "{threads} threads, seed {seed}: {by_first:?} {mv}"
            );
        }
    }
}

#[test]
fn stepwise_analysis_lists_whole_moves_with_principal_variations() {
    let mut search = Mcts::new(PairSum::default(), config(3));
    let analysis = search.think(&Budget::iterations(3_000));
    assert!(!analysis.lines.is_empty());
    for line in &analysis.lines {
        assert!(PairSum::default().is_legal(&line.mv));
        assert_eq!(line.pv[0], line.mv);
        // The variation is a legal sequence of whole moves.
        let mut pos = PairSum::default();
        for mv in &line.pv {
            pos = pos.play(mv).expect("a legal variation");
        }
    }
    let visits: u64 = analysis.lines.iter().map(|l| l.visits).sum();
    assert!(visits <= analysis.root_visits);
}

#[test]
fn tic_tac_toe_takes_a_win_and_blocks_a_loss() {
    // x to move wins at 2 (top row).
    let win = TicTacToe::from_cells("xx.oo....");
    let mut search = Mcts::new(win.clone(), config(5));
    let analysis = search.think(&Budget::iterations(500));
    assert_eq!(analysis.best().map(|l| l.mv), Some(2));
    assert_eq!(
        analysis.best().and_then(|l| l.proven),
        Some(Outcome::Win(Player::First))
    );
    assert_eq!(analysis.proven, Some(Outcome::Win(Player::First)));
    // o to move must block at 2.
    let block = TicTacToe::from_cells("xx..o....");
    let mut search = Mcts::new(block, config(5));
    search.think(&Budget::iterations(2_000));
    assert_eq!(search.best_move(), Some(2));
}

#[test]
fn tic_tac_toe_is_proven_drawn() {
    let mut search = Mcts::new(TicTacToe::default(), config(11));
    let analysis = search.think(&Budget::iterations(400_000));
    assert_eq!(analysis.proven, Some(Outcome::Draw));
    assert!(
        analysis.iterations < 400_000,
        "a proven root stops the search"
    );
}

#[test]
fn the_search_never_loses_tic_tac_toe_against_random() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    for game in 0..20u64 {
        let ai = Player::from_index(game as usize % 2);
        let mut pos = TicTacToe::default();
        let mut search = Mcts::new(pos.clone(), config(game));
        while !pos.is_over() {
            let mv = if pos.to_move() == ai {
                search.think(&Budget::iterations(3_000));
                search.best_move().expect("a move")
            } else {
                baseline::random_move(&pos, &mut rng).expect("a move")
            };
            search.advance(&mv).expect("legal");
            pos.play_unchecked(&mv);
        }
        assert_ne!(
            pos.outcome(),
            Some(Outcome::Win(ai.other())),
            "lost game {game}"
        );
    }
}

#[test]
fn a_single_thread_search_is_reproducible_from_its_seed() {
    let run = |seed| {
        let mut search = Mcts::new(TicTacToe::default(), config(seed));
        search.think(&Budget::iterations(2_000)).lines
    };
    assert_eq!(run(4), run(4));
    let visits =
        |lines: Vec<swapboard_ai::Line<u8>>| lines.iter().map(|l| l.visits).collect::<Vec<_>>();
    assert_ne!(visits(run(4)), visits(run(5)));
}

#[test]
fn two_threads_grow_one_tree() {
    let mut search = Mcts::new(
        TicTacToe::default(),
        Config {
            threads: 2,
            ..config(2)
        },
    );
    let analysis = search.think(&Budget::iterations(4_000));
    assert_eq!(analysis.iterations, 4_000);
    assert_eq!(analysis.root_visits, 4_000);
    let visits: u64 = analysis.lines.iter().map(|l| l.visits).sum();
    assert_eq!(
        visits, 4_000,
        "every iteration goes through one move of the root"
    );
    let block = TicTacToe::from_cells("xx..o....");
    let mut search = Mcts::new(
        block,
        Config {
            threads: 2,
            ..config(2)
        },
    );
    search.think(&Budget::iterations(4_000));
    assert_eq!(search.best_move(), Some(2));
}

#[test]
fn the_tree_below_a_played_move_is_kept() {
    let mut search = Mcts::new(TicTacToe::default(), config(8));
    search.think(&Budget::iterations(5_000));
    let best = search.best_move().expect("a move");
    let kept = search
        .analysis()
        .lines
        .iter()
        .find(|l| l.mv == best)
        .map(|l| l.visits);
    search.advance(&best).expect("legal");
    assert_eq!(search.analysis().root_visits, kept.expect("a line"));
    // Through a stepwise game too: the node at the end of the two decisions becomes the root.
    let mut search = Mcts::new(PairSum::default(), config(8));
    search.think(&Budget::iterations(5_000));
    let best = search.analysis().lines[0].clone();
    search.advance(&best.mv).expect("legal");
    assert_eq!(search.analysis().root_visits, best.visits);
    // An unrelated move throws it away.
    assert!(search.advance(&toys::Pair(0, 0)).is_err());
    search.set_position(PairSum {
        total: 3,
        ..PairSum::default()
    });
    assert_eq!(search.analysis().root_visits, 0);
}

#[test]
fn a_stop_flag_ends_an_unbounded_search() {
    let flag = Arc::new(AtomicBool::new(false));
    let stopper = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            flag.store(true, Ordering::Relaxed);
        })
    };
    let mut search = Mcts::new(
        PairSum {
            target: 200,
            ..PairSum::default()
        },
        config(1),
    );
    let analysis = search.think(&Budget::until_stopped(flag));
    stopper.join().expect("stopper");
    assert!(analysis.iterations > 0);
}

#[test]
fn snapshots_stream_while_the_search_thinks() {
    let mut search = Mcts::new(
        PairSum {
            target: 200,
            ..PairSum::default()
        },
        config(1),
    );
    let mut snapshots = Vec::new();
    let last = search.think_with(
        &Budget::time(Duration::from_millis(120)),
        Duration::from_millis(20),
        |a| snapshots.push(a.iterations),
    );
    assert!(!snapshots.is_empty());
    assert!(snapshots.windows(2).all(|w| w[0] <= w[1]));
    assert!(snapshots.iter().all(|&n| n <= last.iterations));
}

#[test]
fn a_finished_game_has_no_move() {
    let over = TicTacToe::from_cells("xxxoo....");
    let mut search = Mcts::new(over, config(1));
    let analysis = search.think(&Budget::iterations(100));
    assert!(analysis.lines.is_empty());
    assert_eq!(search.best_move(), None);
}

/// From level 3 up a level searches as the game's tuned search does, with its own budget;
/// the beginner's two levels explore wildly with neither all-moves-as-first nor priors.
#[test]
fn levels_start_from_the_game_s_tuned_search() {
    let tuned = Config::for_game::<TicTacToe>(7);
    for k in 3..=8 {
        let level = Level::new(k).unwrap();
        assert_eq!(level.config::<TicTacToe>(7), tuned, "level {k}");
    }
    let beginner = Level::new(2).unwrap().config::<TicTacToe>(7);
    assert_eq!(
        (
            beginner.exploration,
            beginner.rave_equivalence,
            beginner.prior_weight
        ),
        (1.0, None, 0.0)
    );
}

#[test]
fn higher_levels_search_more() {
    let levels: Vec<Level> = (1..=9).filter_map(Level::new).collect();
    assert_eq!(levels.len(), 9);
    assert!(Level::new(0).is_none() && Level::new(10).is_none());
    assert!(
        levels
            .windows(2)
            .all(|w| w[0].iterations::<TicTacToe>() * 2 < w[1].iterations::<TicTacToe>())
    );
    assert_eq!(Level::MAX_SERVED.iterations::<TicTacToe>(), 150_000);
    assert_eq!(Level::MAX.iterations::<TicTacToe>(), 450_000);
    // The two strongest levels are capped by time, level 9 three times longer.
    let cap = |level: Level| level.budget::<TicTacToe>().time;
    assert_eq!(cap(Level::MAX), cap(Level::MAX_SERVED).map(|t| t * 3));
    assert!(levels[..7].iter().all(|&level| cap(level).is_none()));
    // Only level 9 searches on several threads (every core, so at least one).
    assert!(levels[..8].iter().all(|level| level.threads() == 1));
    assert_eq!(
        Level::MAX.config::<TicTacToe>(1).threads,
        std::thread::available_parallelism().map_or(1, |n| n.get().min(64))
    );
    // A game whose iterations cost four times more gets a quarter of each budget, still
    // rising from level to level.
    assert_eq!(
        levels
            .iter()
            .map(|l| l.iterations::<PairSum>())
            .collect::<Vec<_>>(),
        [3, 15, 62, 250, 1_000, 3_750, 12_500, 37_500, 112_500]
    );
    // Level 9's iterations are each thread's; a lower level's the whole search's.
    assert_eq!(
        Level::MAX.budget::<PairSum>().iterations,
        Some(112_500 * Level::MAX.threads() as u64)
    );
    assert_eq!(
        Level::MAX.budget_on::<TicTacToe>(2).iterations,
        Some(900_000)
    );
    assert_eq!(
        Level::MAX_SERVED.budget_on::<TicTacToe>(2).iterations,
        Some(150_000)
    );
}

#[test]
fn greedy_takes_a_win_and_blocks_a_loss() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    for _ in 0..20 {
        let win = TicTacToe::from_cells("xx.oo....");
        assert_eq!(baseline::greedy_move(&win, &mut rng), Some(2));
        let must_block = TicTacToe::from_cells("xx..o....");
        assert_eq!(baseline::greedy_move(&must_block, &mut rng), Some(2));
    }
}
