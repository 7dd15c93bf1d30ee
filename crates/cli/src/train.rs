//! `swapboard train`: learns move priors from self-play. A bot plays itself with the
//! arena's machinery, every decision is counted by the pattern of each legal move
//! (`swapboard_ai::priors`), and the fitted table is written for the game to ship
//! (`crates/GAME/data/priors.txt`, `docs/AI.md`, "Learned priors").

use std::path::PathBuf;

use swapboard_ai::priors::PatternCounts;
use swapboard_arena::{MatchSettings, PlayerSpec, run_match};
use swapboard_core::Stepwise;

use crate::commands::start;
use crate::error::{CliError, CliResult};
use crate::files::{NewFile, quote_path};
use crate::limits;
use crate::output::{Output, progress_bar};

/// The arguments of `swapboard train`.
#[derive(clap::Args)]
pub(crate) struct TrainArgs {
    /// The game (swaptimum, flipstop: the games with move patterns).
    pub(crate) game: String,
    /// The board side of the self-play games (default: the game's own).
    #[arg(long)]
    size: Option<usize>,
    /// The number of self-play games.
    #[arg(long, value_parser = limits::games)]
    games: u64,
    /// The player that plays itself, like classic:level=4 (the frozen search uses no
    /// priors, so the table does not feed on itself).
    #[arg(long = "player", value_name = "SPEC")]
    player: String,
    /// The seed of the games: with a level or an iteration budget, the same seed writes the
    /// same file byte for byte.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (the file does not depend on it).
    #[arg(long, default_value_t = 1, value_parser = limits::threads)]
    threads: usize,
    /// The table to write (the shipped ones: crates/GAME/data/priors.txt; a new file).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Let --out overwrite an existing file (never a Swap 61 game file).
    #[arg(long)]
    force: bool,
}

/// `swapboard train GAME ...`, for game `G`.
pub(crate) fn train<G: Stepwise>(args: &TrainArgs, out: &mut Output) -> CliResult {
    let start_pos = start::<G>(args.size)?;
    let has_patterns = start_pos
        .legal_moves()
        .first()
        .is_some_and(|mv| start_pos.move_pattern(mv).is_some());
    if !has_patterns {
        return Err(CliError::bad(format!(
            "{} has no move patterns to learn priors for (swaptimum and flipstop have)",
            G::ID
        )));
    }
    let player: PlayerSpec = args
        .player
        .parse()
        .map_err(|e| CliError::bad(format!("{e}")))?;
    // Opened before the games, so that an unwritable path fails before they are played.
    let file = NewFile::create("--out", &args.out, args.force)?;
    let settings = MatchSettings {
        size: start_pos.size(),
        games: args.games,
        players: [player, player],
        seed: args.seed,
        threads: args.threads,
        max_plies: limits::MAX_PLIES,
    };
    let bar = progress_bar(Some(args.games), "{bar:30} {pos}/{len} games  [{elapsed}]");
    let mut counts = PatternCounts::new();
    run_match(
        &settings,
        &start_pos,
        |_| bar.inc(1),
        |game| {
            counts
                .add_game(&start_pos, &game.record.moves)
                .map_err(|e| {
                    CliError::Failure(anyhow::anyhow!(
                        "game {} of the self-play does not replay: {e}",
                        game.index + 1
                    ))
                })
        },
    )?;
    bar.finish_and_clear();
    let size = start_pos.size();
    let header = [
        ("format", "1".to_string()),
        ("game", G::ID.to_string()),
        ("size", size.to_string()),
        ("games", args.games.to_string()),
        ("player", player.to_string()),
        ("seed", args.seed.to_string()),
        ("positions", counts.positions().to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let table = counts.fit(header);
    file.write(&table.to_text())?;
    out.line(format!(
        "{} {size}x{size}: {} games, {} positions, {} patterns, written to {}",
        G::ID,
        args.games,
        counts.positions(),
        table.len(),
        quote_path(&args.out)
    ))
}
