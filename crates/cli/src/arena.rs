//! `swapboard arena`: a match between two bots, with a progress bar, a summary (or JSON) and
//! optionally every game's record.

use std::path::PathBuf;
use std::sync::Mutex;

use anyhow::Context as _;
use swapboard_arena::{GameResult, MatchSettings, PlayerSpec, run_match};
use swapboard_core::Stepwise;

use crate::commands::{parse_position, start};
use crate::error::{CliError, CliResult};
use crate::files::NewFile;
use crate::limits;
use crate::output::{Output, progress_bar};

/// The arguments of `swapboard arena`.
#[derive(clap::Args)]
pub(crate) struct ArenaArgs {
    /// The game (swaptimum, flipstop, ...).
    pub(crate) game: String,
    /// The board side (default: the game's own).
    #[arg(long, conflicts_with = "start")]
    size: Option<usize>,
    /// Play every game from this position text instead of the start.
    #[arg(long, value_name = "TEXT")]
    start: Option<String>,
    /// The number of games; the players take the first move in turn.
    #[arg(long, value_parser = limits::games)]
    games: u64,
    /// A player, given twice: random, greedy, mcts:level=1..9, mcts:iters=N or mcts:ms=T,
    /// each optionally followed by ,threads=N; `classic:` with the same budgets (levels 1..8)
    /// is the frozen reference search.
    #[arg(long = "player", value_name = "SPEC", required = true)]
    players: Vec<String>,
    /// The seed of the match (games bounded by iterations are reproducible from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = limits::threads)]
    threads: usize,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
    /// Write every game's record to this file (format: docs/RECORDS.md; a new file).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Let --out overwrite an existing file (never a Swap 61 game file).
    #[arg(long, requires = "out")]
    force: bool,
    /// Stop a game after this many plies and report it as capped.
    #[arg(long, default_value_t = 1_000, value_parser = limits::plies)]
    max_plies: u64,
}

/// Runs the match described by `args` on game `G`.
pub(crate) fn arena<G: Stepwise>(args: &ArenaArgs, out: &mut Output) -> CliResult {
    let start_pos = match &args.start {
        Some(text) => parse_position::<G>(text)?,
        None => start::<G>(args.size)?,
    };
    let players: Vec<PlayerSpec> = args
        .players
        .iter()
        .map(|s| s.parse().map_err(|e| CliError::bad(format!("{e}"))))
        .collect::<Result<_, _>>()?;
    let [a, b] = players[..] else {
        return Err(CliError::bad(format!(
            "arena needs exactly two --player options, got {}",
            players.len()
        )));
    };
    // Opened before the match, so that an unwritable path fails before hours of games.
    let mut out_file = args
        .out
        .as_deref()
        .map(|p| NewFile::create("--out", p, args.force))
        .transpose()?;
    let settings = MatchSettings {
        size: start_pos.size(),
        games: args.games,
        players: [a, b],
        seed: args.seed,
        threads: args.threads,
        max_plies: args.max_plies,
    };
    let bar = progress_bar(
        Some(args.games),
        "{bar:30} {pos}/{len} games  {msg}  [{elapsed}]",
    );
    // Wins of each player, then draws and capped games.
    let score = Mutex::new([0u64; 3]);
    let on_game = |game: &GameResult| {
        let mut s = score.lock().unwrap_or_else(|e| e.into_inner());
        match game.winner {
            Some(w) => s[w] += 1,
            None => s[2] += 1,
        }
        bar.set_message(format!(
            "{a} {} - {} {b}, {} drawn or capped",
            s[0], s[1], s[2]
        ));
        bar.inc(1);
    };
    // Each record is written as its game is handed over, a blank line between two, so the
    // records of a long match are never all held at once.
    let keep = |game: GameResult| match out_file.as_mut() {
        Some(file) => {
            let separator = if game.index == 0 { "" } else { "\n" };
            file.append(&format!("{separator}{}", game.record))
        }
        None => Ok(()),
    };
    let summary = run_match(&settings, &start_pos, on_game, keep)?;
    bar.finish_and_clear();
    if let Some(file) = out_file {
        file.finish()?;
    }
    if args.json {
        let json = serde_json::to_string(&summary).context("cannot encode the summary")?;
        out.line(json)
    } else {
        out.line(summary)
    }
}
