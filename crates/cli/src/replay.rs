//! `swapboard replay FILE [--ply K] [--svg FILE]`: reads game records (`docs/RECORDS.md`),
//! checks every move of every record by the rules, and shows one game: its tags, each move
//! with what it did, and the board after ply K (the end by default).

use std::path::PathBuf;
use std::str::FromStr;

use swapboard_arena::record::{GameRecord, RecordLines, read_records_with_lines};
use swapboard_play::words::{describe, marked_view};
use swapboard_play::{GameFn, GameId, Playable};

use crate::commands::result_line;
use crate::error::{CliError, CliResult};
use crate::files::{Destination, RECORD_FILE_LIMIT, quote_path, read_limited};
use crate::output::Output;

/// The arguments of `swapboard replay`.
#[derive(clap::Args)]
pub(crate) struct ReplayArgs {
    /// The record file (any number of records, as `play` and `arena --out` write them).
    file: PathBuf,
    /// Show the position after this many plies (0 = the start; default: the end).
    #[arg(long, value_name = "K")]
    ply: Option<usize>,
    /// Which record of the file to show, from 1.
    #[arg(long, value_name = "N", default_value_t = 1)]
    game: usize,
    /// Also draw the position shown as an SVG picture in this file, a new one (`-`: only
    /// the picture, to standard output).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Let --svg overwrite an existing file (never a game file).
    #[arg(long, requires = "svg")]
    force: bool,
}

/// Runs `swapboard replay`.
pub(crate) fn replay(args: &ReplayArgs, out: &mut Output) -> CliResult {
    let name = format!("'{}'", quote_path(&args.file));
    let text = read_limited("record file", &args.file, RECORD_FILE_LIMIT)?;
    let records = read_records_with_lines(&text)
        .map_err(|e| CliError::bad(format!("record file {name}: {e}")))?;
    if records.is_empty() {
        return Err(CliError::bad(format!(
            "record file {name}: no record in it"
        )));
    }
    // Every record is checked, so a corrupt file is reported wherever the fault lies.
    for (record, lines) in &records {
        record_game(record)
            .and_then(|game| {
                game.run(Check { record, lines })
                    .map_err(|e| CliError::bad(format!("record file {name}: {e}")))
            })
            .map_err(|e| match e {
                CliError::BadInput(m) if !m.starts_with("record file") => {
                    CliError::bad(format!("record file {name}: line {}: {m}", lines.start))
                }
                other => other,
            })?;
    }
    let (record, lines) = records.get(args.game.wrapping_sub(1)).ok_or_else(|| {
        CliError::bad(format!(
            "--game {}: the file holds {} records (numbered from 1)",
            args.game,
            records.len()
        ))
    })?;
    let game = record_game(record)?;
    let svg = args
        .svg
        .as_deref()
        .map(|path| Destination::open("--svg", path, args.force))
        .transpose()?;
    game.run(Show {
        args,
        record,
        lines,
        svg,
        out,
    })
}

/// The game named by a record's `Game` tag.
fn record_game(record: &GameRecord) -> Result<GameId, CliError> {
    GameId::from_str(record.tag("Game").unwrap_or("")).map_err(|e| CliError::bad(e.to_string()))
}

/// Replays a record by the rules of its game.
struct Check<'a> {
    record: &'a GameRecord,
    lines: &'a RecordLines,
}

impl GameFn for Check<'_> {
    type Output = Result<(), String>;

    fn call<G: Playable>(self) -> Result<(), String> {
        self.record
            .replay_at::<G>(self.lines)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

/// Shows a record of its game.
struct Show<'a, 'o> {
    args: &'a ReplayArgs,
    record: &'a GameRecord,
    lines: &'a RecordLines,
    svg: Option<Destination>,
    out: &'o mut Output,
}

impl GameFn for Show<'_, '_> {
    type Output = CliResult;

    fn call<G: Playable>(self) -> CliResult {
        show::<G>(self.args, self.record, self.lines, self.svg, self.out)
    }
}

fn show<G: Playable>(
    args: &ReplayArgs,
    record: &GameRecord,
    lines: &RecordLines,
    svg: Option<Destination>,
    out: &mut Output,
) -> CliResult {
    let positions = record
        .replay_at::<G>(lines)
        .map_err(|e| CliError::bad(format!("record file {}: {e}", args.file.display())))?;
    let last = positions.len() - 1;
    let ply = args.ply.unwrap_or(last);
    if ply > last {
        return Err(CliError::bad(format!(
            "--ply {ply}: the game has {last} plies"
        )));
    }
    let moves: Vec<G::Move> = record
        .moves
        .iter()
        .zip(&positions)
        .map(|(text, pos)| pos.parse_move(text))
        .collect::<Result<_, _>>()
        .map_err(|e| CliError::bad(e.to_string()))?;
    let view = if ply == 0 {
        positions[0].view()
    } else {
        marked_view(&positions[ply - 1], &positions[ply])
    };
    if let Some(svg) = svg {
        let mv = ply.checked_sub(1).map(|k| moves[k].to_string());
        let caption = swapboard_play::words::ply_caption(ply, last, mv.as_deref());
        let picture = swapboard_render::svg_with_caption(&view, Some(&caption));
        if out.svg(svg, &picture)? {
            return Ok(());
        }
    }
    for (name, value) in &record.tags {
        out.line(format!("[{name} \"{value}\"]"))?;
    }
    for (k, mv) in moves.iter().enumerate().take(ply) {
        out.line(format!(
            "{}. {}",
            k + 1,
            describe(&positions[k], &positions[k + 1], mv)
        ))?;
    }
    out.line(format!("after ply {ply} of {last}:"))?;
    out.text(swapboard_render::text(&view))?;
    out.line(&positions[ply])?;
    out.line(result_line(&positions[ply]))?;
    if ply == last {
        out.line(format!("record result: {}", record.result))?;
    }
    Ok(())
}
