//! The plain line mode: reads one move or command per line, prints the board after every
//! move. Works without a terminal (piped input), so games can be scripted and tested.

use std::io::BufRead;

use swapboard_grid::Cell;
use swapboard_play::{Opponent, Playable, Selection, Table};

use super::{Keeper, Stopwatch};
use crate::error::{CliError, CliResult};
use crate::output::Output;

const HELP: &str = "commands: a move in the game's notation (c3, c3:d4-e5, c3,d5+h8, a6-d5, pass), \
moves, hint, undo, resign, board, position, help, quit (blank lines and lines starting with # are skipped)";

/// How many legal moves `moves` prints at most (Scware can have millions).
const MOVES_SHOWN: usize = 200;

fn board<G: Playable>(table: &Table<G>, out: &mut Output) -> CliResult {
    out.text(swapboard_render::text(&table.view()))?;
    out.line(format!("position: {}", table.position()))
}

fn after_move<G: Playable>(
    table: &Table<G>,
    before: usize,
    keeper: &Keeper,
    out: &mut Output,
) -> CliResult {
    keeper.keep(table)?;
    // A move may bring the passes the rules force after it: each is told.
    for k in before..table.ply() {
        if let Some(did) = table.describe(k) {
            out.line(did)?;
        }
    }
    board(table, out)
}

/// Plays the game from `input` until it ends, the input ends, or `quit`; returns the table
/// for its record. The record is kept after every move.
pub(super) fn run<G: Playable>(
    mut table: Table<G>,
    mut ai: Opponent<G>,
    mut input: impl BufRead,
    keeper: &Keeper,
    out: &mut Output,
) -> Result<Table<G>, CliError> {
    let clock = Stopwatch::start();
    out.line(HELP)?;
    board(&table, out)?;
    let mut bytes = Vec::new();
    // The cells of a move being built over several lines (a lone Swaptimum placement that
    // forms a crosscut waits for its swap).
    let mut building = Selection::default();
    loop {
        if let Some(ending) = table.ending_text() {
            out.line(format!("game over: {ending}"))?;
            break;
        }
        if table.ai_to_move() {
            let before = table.ply();
            ai.play(&mut table, clock.now())
                .map_err(|e| CliError::bad(format!("the AI's move: {e}")))?;
            after_move(&table, before, keeper, out)?;
            continue;
        }
        let mover = table.position().to_move();
        out.line(format!("{} to move", G::colour_name(mover)))?;
        out.flush()?;
        bytes.clear();
        let read = input
            .read_until(b'\n', &mut bytes)
            .map_err(|e| CliError::Failure(e.into()))?;
        if read == 0 {
            break;
        }
        // A line that is not UTF-8 is a bad line like any other: say so and go on.
        let Ok(line) = std::str::from_utf8(&bytes) else {
            out.line("refused: the line is not UTF-8 text")?;
            continue;
        };
        let text = line.trim();
        let before = table.ply();
        if !building.cells.is_empty() {
            match cells_of(text) {
                Some(cells) => {
                    building = build(&mut table, building, &cells, &clock, keeper, out)?;
                    continue;
                }
                None => building = Selection::default(),
            }
        }
        match text {
            "" => {}
            _ if text.starts_with('#') => {}
            "quit" => break,
            "help" => out.line(HELP)?,
            "board" => board(&table, out)?,
            "position" => out.line(table.position())?,
            "resign" => {
                table
                    .resign(mover)
                    .map_err(|e| CliError::bad(e.to_string()))?;
                keeper.keep(&table)?;
            }
            "undo" => match table.undo_turn() {
                Ok(taken) => {
                    keeper.keep(&table)?;
                    out.line(format!("took back {taken} plies"))?;
                    board(&table, out)?;
                }
                Err(e) => out.line(format!("refused: {e}"))?,
            },
            "hint" => match ai.hint(&table) {
                Some(mv) => out.line(format!("hint: {mv}"))?,
                None => out.line("no hint: the game is over")?,
            },
            "moves" => {
                let mut shown = Vec::new();
                let _ = table.position().for_each_move(|m| {
                    shown.push(m.to_string());
                    if shown.len() >= MOVES_SHOWN {
                        std::ops::ControlFlow::Break(())
                    } else {
                        std::ops::ControlFlow::Continue(())
                    }
                });
                let total = table.position().move_count();
                out.line(format!("{total} legal moves: {}", shown.join(" ")))?;
                if total > shown.len() as u64 {
                    out.line(format!("(the first {} shown)", shown.len()))?;
                }
            }
            _ => match table.play(table.ply(), text, clock.now()) {
                Ok(_) => after_move(&table, before, keeper, out)?,
                Err(reason) => match cells_of(text).as_deref() {
                    // A lone cell that starts a longer move opens its next step.
                    Some(&[cell])
                        if table
                            .position()
                            .draft(&Selection::default().with(cell))
                            .more =>
                    {
                        building = build(&mut table, building, &[cell], &clock, keeper, out)?;
                    }
                    _ => out.line(format!("refused: {reason}"))?,
                },
            },
        }
    }
    Ok(table)
}

/// The cells of a line of cell names separated by spaces, commas or dashes (any case), or
/// `None` if it holds anything else.
fn cells_of(text: &str) -> Option<Vec<Cell>> {
    let cells: Option<Vec<Cell>> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == '-')
        .filter(|w| !w.is_empty())
        .map(|w| w.to_ascii_lowercase().parse().ok())
        .collect();
    cells.filter(|c| !c.is_empty())
}

/// Adds `cells` to the move being built: plays it once complete, says what may come next
/// otherwise, and returns what is still being built.
fn build<G: Playable>(
    table: &mut Table<G>,
    mut building: Selection,
    cells: &[Cell],
    clock: &Stopwatch,
    keeper: &Keeper,
    out: &mut Output,
) -> Result<Selection, CliError> {
    let mut draft = table.position().draft(&building);
    for &cell in cells {
        building = building.with(cell);
        draft = table.position().draft(&building);
        if let Some(reason) = draft.refusal() {
            out.line(format!("refused: {cell}: {reason}"))?;
            return Ok(Selection::default());
        }
    }
    match (draft.ready(), draft.more) {
        (Some(mv), false) => {
            let mv = mv.clone();
            let before = table.ply();
            table
                .play_move(before, &mv, clock.now())
                .map_err(|e| CliError::bad(e.to_string()))?;
            after_move(table, before, keeper, out)?;
            Ok(Selection::default())
        }
        _ => {
            let next: Vec<String> = draft.next.iter().map(Cell::to_string).collect();
            out.line(format!("{} (one of: {})", draft.prompt, next.join(" ")))?;
            Ok(building)
        }
    }
}
