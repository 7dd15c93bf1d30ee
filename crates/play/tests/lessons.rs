//! Every lesson's step says what its task is and what counts as done; this plays each step's
//! stated solution and its example of a wrong move through the engine: the solution must do
//! the task, the wrong move must be refused by the rules or miss the task, and every move a
//! step lists as doing its task must be legal there and written as the contract prints it.

use swapboard_core::{MoveError, Outcome};
use swapboard_play::GameId;
use swapboard_play::lessons::{self, Goal};
use swapboard_play::rules::Board;

#[test]
fn every_two_player_game_has_a_lesson_of_six_steps_or_more() {
    assert_eq!(lessons::ALL.len(), GameId::ALL.len());
    for (lesson, game) in lessons::ALL.iter().zip(GameId::ALL) {
        assert_eq!(lesson.game, game);
        assert!(std::ptr::eq(lessons::of(game), *lesson));
        assert!(
            lesson.steps.len() >= 6,
            "{game}: {} steps",
            lesson.steps.len()
        );
        assert!(!lesson.intro.is_empty());
    }
}

#[test]
fn every_step_is_solvable_and_its_wrong_move_is_refused_or_misses() {
    let mut failures = Vec::new();
    for lesson in lessons::ALL {
        for (k, step) in lesson.steps.iter().enumerate() {
            let name = format!("{} step {}", lesson.game, k + 1);
            let start = step.start();
            assert_eq!(start.game(), lesson.game, "{name}");
            assert_eq!(start.outcome(), None, "{name}: the game is over there");
            for text in [step.title, step.task, step.done, step.miss] {
                assert!(!text.trim().is_empty(), "{name}: a text is empty");
            }
            let legal = start.legal_moves(100_000).expect("few moves");
            let right = step.judge(step.solution);
            if !right.done {
                failures.push(format!(
                    "{name}: the solution {} does not do the task: {} (legal: {legal:?})",
                    step.solution, right.why
                ));
            }
            let wrong = step.judge(step.wrong);
            if wrong.done {
                failures.push(format!(
                    "{name}: the wrong move {} does the task",
                    step.wrong
                ));
            }
            if matches!(step.goal, Goal::Legal) && wrong.mv.is_some() {
                failures.push(format!(
                    "{name}: any legal move does this task, but {} is legal",
                    step.wrong
                ));
            }
            if let Goal::OneOf(moves) = step.goal {
                if moves.is_empty() {
                    failures.push(format!("{name}: no move listed (legal: {legal:?})"));
                }
                for mv in moves {
                    match start.clone().play_text(mv) {
                        Ok(printed) if printed == *mv => {}
                        Ok(printed) => failures.push(format!("{name}: {mv} is printed {printed}")),
                        Err(e) => failures.push(format!("{name}: {mv} is refused: {e}")),
                    }
                }
            }
            // A refusal names the rule, as the lesson's page shows it.
            if wrong.mv.is_none() {
                let refusal = start.clone().play_text(step.wrong).unwrap_err();
                if let MoveError::Illegal { reason, .. } = refusal {
                    assert_eq!(wrong.rule, Some(reason.rule), "{name}");
                }
                assert!(wrong.after.is_none(), "{name}");
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every fact a step's words state is a claim the engine checks, as the rules' diagrams are.
#[test]
fn every_step_claims_what_the_engine_says() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for lesson in lessons::ALL {
        for (k, step) in lesson.steps.iter().enumerate() {
            assert!(!step.claims.is_empty(), "{} step {}", lesson.game, k + 1);
            for claim in step.claims {
                checked += 1;
                if let Err(e) = claim.check(&Board::Square(step.position)) {
                    failures.push(format!("{} step {}: {claim:?}: {e}", lesson.game, k + 1));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 40, "{checked} claims");
}

/// A legal move that misses is told what it did, in the engine's words, and what came of
/// it: a win handed to the other side says so; a Scware placement is not told it grew a
/// group.
#[test]
fn a_miss_is_explained_by_what_the_move_did() {
    for lesson in lessons::ALL {
        for step in lesson.steps {
            let start = step.start();
            for mv in start.legal_moves(2_000).unwrap_or_default() {
                let attempt = step.judge(&mv);
                if attempt.done {
                    continue;
                }
                let did = start.describe_move(&mv).unwrap();
                assert!(attempt.why.starts_with(&did), "{mv}: {}", attempt.why);
                let after = attempt.after.as_ref().unwrap();
                if let Some(Outcome::Win(winner)) = after.outcome()
                    && winner != start.to_move()
                {
                    assert!(attempt.why.contains("hands the game"), "{}", attempt.why);
                }
            }
        }
    }
    let grow_both = &lessons::of(GameId::Scware).steps[1];
    let placement = grow_both.judge("a4");
    assert!(!placement.done);
    assert!(
        !placement.why.contains("grows only one"),
        "{}",
        placement.why
    );
    assert!(placement.why.contains("a4"), "{}", placement.why);
}

/// A move that misses a win is answered by the solver's refutation, a legal move of the other
/// side from the position the miss left, told in words and given for the board.
#[test]
fn a_missed_win_is_answered_on_the_board() {
    let mut answered = 0;
    for lesson in lessons::ALL {
        for step in lesson.steps {
            let attempt = step.judge(step.wrong);
            let Some(after) = attempt.after.as_ref() else {
                continue;
            };
            match (step.goal, &attempt.answer) {
                (Goal::Wins, Some((reply, answered_position))) => {
                    answered += 1;
                    let mut replayed = after.clone();
                    replayed
                        .play_text(reply)
                        .expect("the answer is a legal move");
                    replayed.play_forced_passes(|_, _| {});
                    assert_eq!(&replayed, answered_position, "{}", step.title);
                    assert!(
                        attempt.why.contains(&format!("answers {reply}")),
                        "{}",
                        attempt.why
                    );
                }
                (Goal::Wins, None) => {
                    panic!("{}: the miss {} has no answer", step.title, step.wrong)
                }
                (_, answer) => assert!(answer.is_none(), "{}", step.title),
            }
        }
    }
    assert!(answered >= 4, "{answered} misses answered");
}
