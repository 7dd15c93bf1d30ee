//! Every lesson's step says what its task is and what counts as done; this plays each step's
//! stated solution and its example of a wrong move through the engine: the solution must do
//! the task, the wrong move must be refused by the rules or miss the task, and every move a
//! step lists as doing its task must be legal there and written as the contract prints it.

use swapboard_core::MoveError;
use swapboard_play::GameId;
use swapboard_play::lessons::{self, Goal};

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
