//! The solver against brute-force minimax: toy games with draws, passes and turns that do
//! not alternate, then Swaptimum and Flipstop positions on small boards, and the symmetry
//! hook: symmetric positions get the same result; the shortest forced wins, against a
//! brute-force count of the winner's moves.

#[path = "../../ai/tests/toys/mod.rs"]
mod toys;

use std::collections::HashMap;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_core::{Game, Outcome, Player, perft};
use swapboard_flipstop::Flipstop;
use swapboard_solver::{MoveResult, Options, Solution, Solver, Stop};
use swapboard_swaptimum::Swaptimum;
use toys::{PairSteps, PassNim, TicTacToe, TwiceNim};

fn small() -> Options {
    Options {
        table_bytes: 4 << 20,
        ..Options::default()
    }
}

/// Checks a solution against the brute-force result, and checks its best move.
fn check<G: Game>(pos: &G, solution: &Solution<G::Move>, memo: &mut HashMap<G, Outcome>) {
    let exact = toys::solve(pos, memo);
    assert_eq!(solution.outcome, Some(exact), "{pos}");
    assert_eq!(solution.stopped, None);
    if pos.is_over() {
        assert_eq!(solution.best_move, None);
        return;
    }
    let mv = solution
        .best_move
        .clone()
        .expect("a move for an unfinished game");
    let next = pos.clone().play(&mv).expect("the best move is legal");
    let after = toys::solve(&next, memo);
    let mover = pos.to_move();
    match exact {
        // A winning or drawing move keeps the result.
        Outcome::Win(p) if p == mover => assert_eq!(after, exact, "{pos}: {mv}"),
        Outcome::Draw => assert_eq!(after, Outcome::Draw, "{pos}: {mv}"),
        Outcome::Win(_) => {}
    }
    // Every settled move is settled rightly.
    for (m, result) in &solution.moves {
        let mut next = pos.clone();
        next.play_unchecked(m);
        let wins = toys::solve(&next, memo) == Outcome::Win(mover);
        match result {
            MoveResult::Wins => assert!(wins, "{pos}: {m}"),
            MoveResult::DoesNotWin => assert!(!wins, "{pos}: {m}"),
            MoveResult::Open => {}
        }
    }
}

/// Every position reachable from `start`, solved and checked.
fn check_all_reachable<G: Game>(start: &G, limit: usize) {
    let mut memo = HashMap::new();
    let mut solver = Solver::new(small());
    let mut todo = vec![start.clone()];
    let mut seen = std::collections::HashSet::new();
    while let Some(pos) = todo.pop() {
        if seen.len() >= limit || !seen.insert(pos.clone()) {
            continue;
        }
        let solution = solver.solve(&pos, &mut |_| {});
        check(&pos, &solution, &mut memo);
        for mv in pos.legal_moves() {
            let mut next = pos.clone();
            next.play_unchecked(&mv);
            todo.push(next);
        }
    }
}

#[test]
fn toy_games_are_solved_exactly() {
    // Tic-tac-toe is a draw; every reachable position is checked.
    let ttt = TicTacToe::default();
    let solution = Solver::new(small()).solve(&ttt, &mut |_| {});
    assert_eq!(solution.outcome, Some(Outcome::Draw));
    check_all_reachable(&ttt, 6_000);
    // The first player moves twice in a row; passes.
    check_all_reachable(&TwiceNim::default(), 1_000);
    check_all_reachable(&PassNim::default(), 1_000);
    let x_wins = TicTacToe::from_cells("xx.oo....");
    let solution = Solver::new(small()).solve(&x_wins, &mut |_| {});
    assert_eq!(solution.outcome, Some(Outcome::Win(Player::First)));
    assert_eq!(solution.best_move, Some(2));
}

#[test]
fn limits_give_an_honest_unknown() {
    let pos = Swaptimum::start(4).unwrap();
    let options = Options {
        max_nodes: Some(50),
        ..small()
    };
    let mut reports = 0;
    let options = Options {
        progress_every: 10,
        ..options
    };
    let solution = Solver::new(options).solve(&pos, &mut |_| reports += 1);
    assert_eq!(solution.outcome, None);
    assert_eq!(solution.stopped, Some(Stop::NodeLimit));
    assert_eq!(solution.best_move, None);
    assert!(solution.nodes <= 60, "{}", solution.nodes);
    assert!(reports >= 4, "{reports}");
}

/// A raised stop flag ends a search that no limit would end soon, with no result.
#[test]
fn a_raised_flag_stops_the_search() {
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let pos = Swaptimum::start(7).unwrap();
    let solution = Solver::new(small())
        .with_stop(flag)
        .solve(&pos, &mut |_| {});
    assert_eq!(solution.outcome, None);
    assert_eq!(solution.stopped, Some(Stop::Requested));
    assert!(solution.nodes <= 2_048, "{}", solution.nodes);
}

/// Random positions of a game on an n x n board with `empty` cells left, by random play
/// from the start (unfinished ones only).
fn random_positions<G: Game>(n: usize, empty: usize, count: usize, seed: u64) -> Vec<G> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 50 {
        tries += 1;
        let mut pos = G::start(n).unwrap();
        let mut plies = 0;
        while plies + empty < n * n {
            let Some(mv) = pos.random_move(&mut rng) else {
                break;
            };
            pos.play_unchecked(&mv);
            plies += 1;
        }
        if !pos.is_over() {
            out.push(pos);
        }
    }
    out
}

fn check_random<G: Game>(n: usize, empty: usize, count: usize) {
    let mut memo = HashMap::new();
    let mut solver = Solver::new(small());
    for pos in random_positions::<G>(n, empty, count, 7) {
        let solution = solver.solve(&pos, &mut |_| {});
        check(&pos, &solution, &mut memo);
    }
}

#[test]
fn swaptimum_and_flipstop_positions_match_minimax() {
    check_random::<Swaptimum>(4, 8, 30);
    check_random::<Flipstop>(4, 9, 30);
    check_random::<Swaptimum>(5, 7, 10);
    check_random::<Flipstop>(5, 8, 10);
    let mut memo = HashMap::new();
    let pos = Swaptimum::start(3).unwrap();
    check(
        &pos,
        &Solver::new(small()).solve(&pos, &mut |_| {}),
        &mut memo,
    );
    let mut memo = HashMap::new();
    let pos = Flipstop::start(3).unwrap();
    check(
        &pos,
        &Solver::new(small()).solve(&pos, &mut |_| {}),
        &mut memo,
    );
}

/// The result for the player to move is the same in every image, the canonical hash is the
/// least hash of the images, and the rules commute with the symmetries (same move counts).
fn check_symmetries<G: Game>(n: usize, empty: usize) {
    let mut memo = HashMap::new();
    for pos in random_positions::<G>(n, empty, 12, 11) {
        let images = pos.symmetries();
        assert_eq!(images.len(), 7, "{pos}");
        let least = images
            .iter()
            .map(Game::zobrist)
            .fold(pos.zobrist(), u64::min);
        assert_eq!(pos.canonical_hash(), least);
        let mine = toys::solve(&pos, &mut memo).score_for(pos.to_move());
        for image in &images {
            assert_eq!(
                image.canonical_hash(),
                pos.canonical_hash(),
                "{pos} {image}"
            );
            assert_eq!(perft(image, 2), perft(&pos, 2), "{pos} {image}");
            let theirs = toys::solve(image, &mut memo).score_for(image.to_move());
            assert_eq!(mine, theirs, "{pos} {image}");
            // The solver with symmetries gives the same answer as without.
            let with = Solver::new(small()).solve(image, &mut |_| {});
            let without = Solver::new(Options {
                symmetries: false,
                ..small()
            })
            .solve(image, &mut |_| {});
            assert_eq!(with.outcome, without.outcome);
            // Re-reading the image's text gives the same position (winner included).
            assert_eq!(image.to_string().parse::<G>().unwrap(), *image);
        }
    }
}

#[test]
fn symmetric_positions_get_the_same_result() {
    check_symmetries::<Swaptimum>(4, 7);
    check_symmetries::<Flipstop>(4, 7);
}

/// Starting positions from the distances to a win changes how much is searched, never the
/// result: random 4x4 positions with 10 empty cells get the same answers with and without,
/// in fewer nodes in all with them (about two thirds).
#[test]
fn distances_steer_the_search_and_change_no_result() {
    fn compare<G: Game>(positions: &[G]) -> (u64, u64) {
        let without = Options {
            distances: false,
            ..small()
        };
        let (mut with_nodes, mut without_nodes) = (0, 0);
        for pos in positions {
            let with = Solver::new(small()).solve(pos, &mut |_| {});
            let plain = Solver::new(without.clone()).solve(pos, &mut |_| {});
            assert_eq!(with.outcome, plain.outcome, "{pos}");
            with_nodes += with.nodes;
            without_nodes += plain.nodes;
        }
        (with_nodes, without_nodes)
    }
    let (with, without) = compare(&random_positions::<Swaptimum>(4, 10, 20, 5));
    assert!(with < without, "Swaptimum: {with} nodes, {without} without");
    let (with, without) = compare(&random_positions::<Flipstop>(4, 10, 20, 5));
    assert!(with < without, "Flipstop: {with} nodes, {without} without");
}

#[test]
fn the_empty_3x3_boards_are_second_player_wins() {
    // A published result (docs/RESEARCH.md), checked by brute force in
    // `swaptimum_and_flipstop_positions_match_minimax`.
    for solution in [
        swapboard_solver::solve(&Swaptimum::start(3).unwrap()).outcome,
        swapboard_solver::solve(&Flipstop::start(3).unwrap()).outcome,
    ] {
        assert_eq!(solution, Some(Outcome::Win(Player::Second)));
    }
}

/// The fewest moves of its own with which `goal` wins `pos` against any defence, by brute
/// force; `None` if it does not win. A move is a turn, the decisions a player makes in a row
/// (`turn_start`: the player to move makes its turn's first decision there), and a pass that
/// is the only legal move is not counted.
fn shortest_win<G: Game>(
    pos: &G,
    goal: Player,
    turn_start: bool,
    memo: &mut HashMap<(G, Player, bool), Option<u32>>,
) -> Option<u32> {
    if let Some(outcome) = pos.outcome() {
        return (outcome == Outcome::Win(goal)).then_some(0);
    }
    if let Some(&known) = memo.get(&(pos.clone(), goal, turn_start)) {
        return known;
    }
    let mover = pos.to_move();
    let moves = pos.legal_moves();
    let forced_pass = moves.len() == 1 && G::is_pass(&moves[0]);
    let cost = u32::from(mover == goal && turn_start && !forced_pass);
    let mut after = Vec::new();
    for mv in &moves {
        let mut next = pos.clone();
        next.play_unchecked(mv);
        let starts = next.to_move() != mover;
        after.push(shortest_win(&next, goal, starts, memo));
    }
    let best = if mover == goal {
        after.into_iter().flatten().min()
    } else {
        after.into_iter().try_fold(0, |most, d| Some(most.max(d?)))
    };
    let result = best.map(|d| d + cost);
    memo.insert((pos.clone(), goal, turn_start), result);
    result
}

/// `wins_within` answers "at most n moves" exactly as the brute-force count, for both
/// players, n from 0 to one past the shortest win (or `most` when there is none), both at a
/// turn's start and in its middle.
fn check_shortest_wins<G: Game>(positions: &[G], most: u32) {
    let mut memo = HashMap::new();
    let mut solver = Solver::new(small());
    let mut wins = 0;
    for pos in positions {
        for goal in Player::BOTH {
            for turn_started in [false, true] {
                let exact = shortest_win(pos, goal, !turn_started, &mut memo);
                wins += usize::from(exact.is_some_and(|d| d > 1));
                for n in 0..=exact.map_or(most, |d| d + 1) {
                    assert_eq!(
                        solver.wins_within(pos, goal, n, turn_started),
                        Some(exact.is_some_and(|d| d <= n)),
                        "{pos}: {goal:?} within {n}, turn started: {turn_started}, exact {exact:?}"
                    );
                }
            }
        }
    }
    // Not only wins in one: the count is tested where it takes several moves.
    assert!(wins > 0);
}

/// Every position reachable from `start`, at most `limit` of them.
fn reachable<G: Game>(start: &G, limit: usize) -> Vec<G> {
    let mut todo = vec![start.clone()];
    let mut seen = std::collections::HashSet::new();
    while let Some(pos) = todo.pop() {
        if seen.len() >= limit || !seen.insert(pos.clone()) {
            continue;
        }
        for mv in pos.legal_moves() {
            todo.push(pos.clone().play(&mv).unwrap());
        }
    }
    seen.into_iter().collect()
}

#[test]
fn the_shortest_wins_match_a_brute_force_count() {
    // Passes, a player moving twice in a row, turns of two decisions.
    check_shortest_wins(&reachable(&PassNim::default(), 1_000), 8);
    check_shortest_wins(&reachable(&TwiceNim::default(), 1_000), 8);
    check_shortest_wins(&reachable(&PairSteps::default(), 1_000), 8);
    check_shortest_wins(&random_positions::<Swaptimum>(4, 7, 12, 5), 5);
    check_shortest_wins(&random_positions::<Flipstop>(4, 7, 12, 5), 5);
}
