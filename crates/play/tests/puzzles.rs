//! The puzzles: what `examine` calls a puzzle is one (checked move by move with a solver of
//! its own), the shipped file's puzzles are proved again, every shipped puzzle's "wins in N
//! moves" is the shortest forced win and its theme the one its proofs give, and attempts are
//! judged right.

use swapboard_core::{Outcome, Player};
use swapboard_play::puzzles::{
    self, Candidates, Puzzle, Theme, examine, judge, puzzle_id, winner_moves,
};
use swapboard_play::{AnyPosition, GameId, Playable, PositionFn};
use swapboard_solver::{Options, Solver};

/// A generous budget for the independent checks: ten times the generator's.
const CHECK_BUDGET: u64 = 10 * puzzles::DEFAULT_BUDGET;

/// The first puzzle found in random games of `game` on `size`.
fn first_puzzle(game: GameId, size: usize) -> Puzzle {
    Candidates::new(game, size, 7, 6)
        .take(3_000)
        .find_map(|p| examine(&p, puzzles::DEFAULT_BUDGET))
        .unwrap_or_else(|| panic!("no {game} {size}x{size} puzzle in 3,000 positions"))
}

/// For each legal move of a position, the proven outcome after it, with a solver of its own,
/// and the class of the position it leads to.
struct Outcomes;

impl PositionFn for Outcomes {
    type Output = Vec<(String, Outcome, u64)>;

    fn call<G: Playable>(self, position: &G) -> Self::Output {
        let mut solver = Solver::<G::Steps>::new(Options {
            max_nodes: Some(CHECK_BUDGET),
            ..Options::default()
        });
        position
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let mut after = position.clone();
                after.play_unchecked(&mv);
                let outcome = after.outcome().unwrap_or_else(|| {
                    solver
                        .solve(&after.to_steps(), &mut |_| {})
                        .outcome
                        .expect("settled within the check's budget")
                });
                (mv.to_string(), outcome, after.canonical_hash())
            })
            .collect()
    }
}

/// The fewest moves of its own with which the player to move wins, forced passes not
/// counted, proved with a solver of its own: the least n for which a win within n moves is
/// proved (and within n - 1 disproved).
struct ShortestWin;

impl PositionFn for ShortestWin {
    type Output = usize;

    fn call<G: Playable>(self, position: &G) -> usize {
        // A table of 8 MiB, as the generator's: the default 64 MiB, cleared for each of
        // the 1,387 puzzles, would cost more than the searches.
        let mut solver = Solver::<G::Steps>::new(Options {
            max_nodes: Some(CHECK_BUDGET),
            table_bytes: 8 << 20,
            ..Options::default()
        });
        let steps = position.to_steps();
        (0..=30)
            .find(|&n| {
                solver
                    .wins_within(&steps, position.to_move(), n, false)
                    .expect("settled within the check's budget")
            })
            .expect("a win within 30 moves") as usize
    }
}

/// The outcome once the passes the rules force from `position` are played, if it is over
/// then.
fn after_forced_passes(mut position: AnyPosition) -> Option<Outcome> {
    position.play_forced_passes(|_, _| {});
    position.outcome()
}

/// Whether `player`, to move, can end the game with a win in one move (forced passes aside).
fn ends_with_a_win(position: &AnyPosition, player: Player) -> bool {
    position.to_move() == player
        && position.legal_moves(100_000).unwrap().iter().any(|mv| {
            let mut after = position.clone();
            after.play_text(mv).unwrap();
            after_forced_passes(after) == Some(Outcome::Win(player))
        })
}

/// Each legal move of a position with the class of the position it leads to (its hash up to
/// the board's symmetries).
struct Classes;

impl PositionFn for Classes {
    type Output = Vec<(String, u64)>;

    fn call<G: Playable>(self, position: &G) -> Self::Output {
        position
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let mut after = position.clone();
                after.play_unchecked(&mv);
                (mv.to_string(), after.canonical_hash())
            })
            .collect()
    }
}

/// The theme `puzzle` must have, its shortest win taking `moves` moves: a finish for a win
/// in one, else a defence when every move outside the solution's class (none of which wins:
/// `check`) loses at once (ends the game in the opponent's win, or leaves the opponent a
/// move that does), else a combination.
fn expected_theme(puzzle: &Puzzle, moves: usize) -> Theme {
    let position: AnyPosition = puzzle.position.parse().unwrap();
    let mover = position.to_move();
    if moves == 1 {
        return Theme::Finish;
    }
    let loses_at_once = |mv: &String| {
        let mut after = position.clone();
        after.play_text(mv).unwrap();
        after_forced_passes(after.clone()) == Some(Outcome::Win(mover.other()))
            || ends_with_a_win(&after, mover.other())
    };
    let classes = position.visit(Classes);
    let solution_class = classes
        .iter()
        .find(|(mv, _)| *mv == puzzle.solution)
        .map(|(_, class)| *class);
    let every_other_loses = classes
        .iter()
        .filter(|(_, class)| Some(*class) != solution_class)
        .all(|(mv, _)| loses_at_once(mv));
    if every_other_loses {
        Theme::Defence
    } else {
        Theme::Combination
    }
}

/// Checks what `puzzle` says of its win: its line's count of the winner's moves (forced
/// passes not counted) is the shortest forced win a solver of its own proves, and its theme
/// is the one its proofs give. A solution that ends the game (forced passes aside) is a
/// finish: a swap that ends a Rapid Transit game is no combination.
fn check_count_and_theme(puzzle: &Puzzle) {
    let position: AnyPosition = puzzle.position.parse().unwrap();
    let said = winner_moves(&position, &puzzle.line).unwrap();
    let proved = position.visit(ShortestWin);
    assert_eq!(
        said, proved,
        "{}: wins in {said} moves, proved {proved}",
        puzzle.id
    );
    assert!(proved >= 1, "{}", puzzle.id);
    assert_eq!(
        puzzle.theme,
        expected_theme(puzzle, proved),
        "{}",
        puzzle.id
    );
    let mut solved = position.clone();
    solved.play_text(&puzzle.solution).unwrap();
    if after_forced_passes(solved) == Some(Outcome::Win(position.to_move())) {
        assert_eq!(puzzle.theme, Theme::Finish, "{}", puzzle.id);
    }
}

/// Checks `puzzle` move by move: the solution wins, every move that wins leads where it does
/// (up to the board's symmetries), every other move does not win, and the main line is legal
/// and ends in the mover's win.
fn check(puzzle: &Puzzle) {
    let position: AnyPosition = puzzle.position.parse().expect("the position reads");
    let mover = position.to_move();
    assert_eq!(position.game(), puzzle.game);
    assert_eq!(position.size(), puzzle.size);
    let outcomes = position.visit(Outcomes);
    let (_, _, solution_class) = outcomes
        .iter()
        .find(|(mv, ..)| *mv == puzzle.solution)
        .unwrap_or_else(|| panic!("{}: the solution is not legal", puzzle.id));
    for (mv, outcome, class) in &outcomes {
        let wins = *outcome == Outcome::Win(mover);
        assert_eq!(
            wins,
            class == solution_class,
            "{}: {mv} wins: {wins}, the solution {}",
            puzzle.id,
            puzzle.solution
        );
    }
    assert!(outcomes.len() >= 2, "{}: one move only", puzzle.id);
    let mut line = position.clone();
    for mv in &puzzle.line {
        line.play_text(mv)
            .unwrap_or_else(|e| panic!("{}: line {mv}: {e}", puzzle.id));
    }
    assert_eq!(line.outcome(), Some(Outcome::Win(mover)), "{}", puzzle.id);
    assert_eq!(puzzle.line[0], puzzle.solution);
    assert_eq!(puzzle.id, puzzle_id(&puzzle.position));
}

#[test]
fn a_found_puzzle_has_exactly_one_winning_move_class() {
    for (game, size) in [
        (GameId::Swaptimum, 4),
        (GameId::Flipstop, 5),
        (GameId::RapidTransit, 6),
    ] {
        let puzzle = first_puzzle(game, size);
        check(&puzzle);
        check_count_and_theme(&puzzle);
    }
}

#[test]
fn attempts_are_judged_with_the_line_or_the_refutation() {
    let puzzle = first_puzzle(GameId::Swaptimum, 4);
    let right = judge(&puzzle, &puzzle.solution, 4 * puzzles::DEFAULT_BUDGET).unwrap();
    assert!(right.correct, "{right:?}");
    assert_eq!(right.line, puzzle.line);
    assert!(right.why.starts_with(&format!("{} wins", puzzle.solution)));
    let position: AnyPosition = puzzle.position.parse().unwrap();
    let mover = position.to_move();
    let mut wrong_seen = 0;
    for mv in position.legal_moves(1_000).unwrap() {
        let answer = judge(&puzzle, &mv, 4 * puzzles::DEFAULT_BUDGET).unwrap();
        assert_eq!(answer.solution, puzzle.solution);
        if answer.correct {
            continue;
        }
        wrong_seen += 1;
        assert_eq!(answer.line[0], mv);
        assert!(
            answer.why.starts_with(&format!("{mv} does not win")),
            "{answer:?}"
        );
        // The refutation is legal and ends in the opponent's win.
        let mut after = position.clone();
        for step in &answer.line {
            after.play_text(step).unwrap();
        }
        assert_eq!(
            after.outcome(),
            Some(Outcome::Win(mover.other())),
            "{answer:?}"
        );
    }
    assert!(wrong_seen > 0);
    // A move the rules refuse is no attempt: the rule's refusal comes back.
    let taken = position
        .view()
        .cells
        .iter()
        .position(Option::is_some)
        .expect("a stone on the board");
    let cell = format!(
        "{}{}",
        char::from(b'a' + (taken % puzzle.size) as u8),
        taken / puzzle.size + 1
    );
    assert!(judge(&puzzle, &cell, 1_000).is_err(), "{cell}");
}

#[test]
fn ids_and_difficulties_follow_their_definitions() {
    // FNV-1a of the text, its top 48 bits: fixed forever, as stored ids depend on it.
    assert_eq!(puzzle_id(""), "cbf29ce48422");
    assert_ne!(puzzle_id("swaptimum a"), puzzle_id("swaptimum b"));
    assert_eq!(puzzles::difficulty(0, 1), 600);
    assert_eq!(puzzles::difficulty(1, 1), 700);
    assert_eq!(puzzles::difficulty(1_000, 3), 600 + 1_000 + 160);
    assert!(puzzles::difficulty(10_000, 2) > puzzles::difficulty(100, 2));
    for theme in Theme::ALL {
        assert_eq!(Theme::of_str(theme.as_str()), Some(theme));
    }
    assert!(Theme::Combination.task("Red").starts_with("Red to move"));
}

/// Every `step`th shipped puzzle, with the budget of its proofs: re-examined from scratch it
/// is the same puzzle (same solution, line, difficulty and theme), and a solver of its own
/// confirms each move.
fn reprove(step: usize) {
    let shipped = puzzles::read_lines(puzzles::SHIPPED).expect("the shipped file reads");
    assert!(!shipped.is_empty());
    for puzzle in shipped.iter().step_by(step) {
        let position: AnyPosition = puzzle.position.parse().unwrap();
        let again = examine(&position, puzzles::DEFAULT_BUDGET);
        assert_eq!(again.as_ref(), Some(puzzle), "{}", puzzle.id);
        check(puzzle);
    }
}

#[test]
fn a_sample_of_the_shipped_puzzles_is_proved_again() {
    reprove(97);
}

/// All of them: `cargo test -p swapboard-play --release --test puzzles -- --ignored`.
#[test]
#[ignore = "slow: every shipped puzzle proved again"]
fn every_shipped_puzzle_is_proved_again() {
    reprove(1);
}

/// Every shipped puzzle: the count of moves its words give (its line's) is the shortest
/// forced win, and its theme is right.
#[test]
fn every_shipped_puzzle_says_its_shortest_win_and_its_theme() {
    let shipped = puzzles::read_lines(puzzles::SHIPPED).unwrap();
    for puzzle in &shipped {
        check_count_and_theme(puzzle);
    }
}

/// A pass the rules force is no move. A Rapid Transit swap after which neither side can
/// swap ends the game with the two forced passes: a finish, won "at once". Where the loser
/// must pass between the winner's swaps, and the winner passes last, only the swaps count.
#[test]
fn forced_passes_are_not_counted_as_moves() {
    let shipped = puzzles::read_lines(puzzles::SHIPPED).unwrap();
    let transit = |p: &&Puzzle| p.game == GameId::RapidTransit;
    let finish = shipped
        .iter()
        .filter(transit)
        .find(|p| p.line[1..] == ["pass", "pass"])
        .expect("a swap that ends the game");
    let position: AnyPosition = finish.position.parse().unwrap();
    assert_eq!(finish.theme, Theme::Finish, "{}", finish.id);
    assert_eq!(winner_moves(&position, &finish.line).unwrap(), 1);
    let right = judge(finish, &finish.solution, puzzles::DEFAULT_BUDGET).unwrap();
    assert!(right.why.ends_with("wins at once"), "{right:?}");
    let passing = shipped
        .iter()
        .filter(transit)
        .find(|p| p.line.len() > 3 && p.line[1] == "pass")
        .expect("a win with the loser passing between the winner's swaps");
    let position: AnyPosition = passing.position.parse().unwrap();
    let swaps = passing
        .line
        .iter()
        .step_by(2)
        .filter(|mv| *mv != "pass")
        .count();
    let moves = winner_moves(&position, &passing.line).unwrap();
    assert_eq!(moves, swaps, "{}", passing.id);
    assert!(moves < passing.line.len().div_ceil(2), "{}", passing.id);
    let right = judge(passing, &passing.solution, puzzles::DEFAULT_BUDGET).unwrap();
    assert!(
        right.why.contains(&format!("in {moves} moves")),
        "{right:?}"
    );
}

#[test]
fn the_shipped_file_has_unique_ids_and_known_players() {
    let shipped = puzzles::read_lines(puzzles::SHIPPED).unwrap();
    let mut ids = std::collections::HashSet::new();
    for puzzle in &shipped {
        assert!(ids.insert(&puzzle.id), "{} twice", puzzle.id);
        let position: AnyPosition = puzzle.position.parse().unwrap();
        assert!(Player::BOTH.contains(&position.to_move()));
        assert!(position.outcome().is_none());
    }
}
