//! The plain line mode: reads one move or command per line, prints the board after every
//! move. Works without a terminal (piped input), so games can be scripted and tested.

use std::io::BufRead;

use super::session::Session;
use crate::error::{CliError, CliResult};
use crate::output::Output;
use swapboard_play::Playable;

const HELP: &str = "commands: a move in the game's notation (c3, c3:d4-e5, c3,d5+h8, a6-d5, pass), \
moves, hint, undo, resign, board, help, quit (blank lines and lines starting with # are skipped)";

/// How many legal moves `moves` prints at most (Scware can have millions).
const MOVES_SHOWN: usize = 200;

fn board<G: Playable>(session: &Session<G>, out: &mut Output) -> CliResult {
    out.text(swapboard_render::text(&session.view()))
}

fn after_move<G: Playable>(session: &Session<G>, out: &mut Output) -> CliResult {
    out.line(session.describe(session.moves().len() - 1))?;
    board(session, out)
}

/// Plays the game from `input` until it ends, the input ends, or `quit`; returns the session
/// for its record.
pub(super) fn run<G: Playable>(
    mut session: Session<G>,
    input: impl BufRead,
    out: &mut Output,
) -> Result<Session<G>, CliError> {
    let mut lines = input.lines();
    out.line(HELP)?;
    board(&session, out)?;
    loop {
        if let Some(ending) = session.ending() {
            out.line(format!("game over: {}", session.ending_text(ending)))?;
            break;
        }
        if let Some(pass) = session.forced_pass() {
            session.play(&pass).map_err(CliError::bad)?;
            after_move(&session, out)?;
            continue;
        }
        if session.ai_to_move() {
            let mv = session
                .ai_move()
                .ok_or_else(|| CliError::bad("the AI found no move in a game still going on"))?;
            session.play(&mv).map_err(CliError::bad)?;
            after_move(&session, out)?;
            continue;
        }
        let mover = session.position().to_move();
        out.line(format!("{} to move", G::colour_name(mover)))?;
        out.flush()?;
        let Some(line) = lines.next() else { break };
        let line = line.map_err(|e| CliError::Failure(e.into()))?;
        let text = line.trim();
        match text {
            "" => {}
            _ if text.starts_with('#') => {}
            "quit" => break,
            "help" => out.line(HELP)?,
            "board" => board(&session, out)?,
            "resign" => session.resign(),
            "undo" => {
                let taken = session.undo();
                out.line(format!("took back {taken} plies"))?;
                board(&session, out)?;
            }
            "hint" => match session.hint() {
                Some(mv) => out.line(format!("hint: {mv}"))?,
                None => out.line("no hint: the game is over")?,
            },
            "moves" => {
                let mut shown = Vec::new();
                let _ = session.position().for_each_move(|m| {
                    shown.push(m.to_string());
                    if shown.len() >= MOVES_SHOWN {
                        std::ops::ControlFlow::Break(())
                    } else {
                        std::ops::ControlFlow::Continue(())
                    }
                });
                let total = session.position().move_count();
                out.line(format!("{total} legal moves: {}", shown.join(" ")))?;
                if total > shown.len() as u64 {
                    out.line(format!("(the first {} shown)", shown.len()))?;
                }
            }
            _ => match session.play_text(text) {
                Ok(()) => after_move(&session, out)?,
                Err(reason) => out.line(format!("refused: {reason}"))?,
            },
        }
    }
    Ok(session)
}
