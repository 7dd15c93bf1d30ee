//! `swapboard puzzles generate`: finds puzzles proven by the solver (`swapboard_play::puzzles`)
//! in random games and adds them to a puzzle file, one JSON object a line
//! (`docs/PUZZLES.md`).

use std::collections::HashSet;
use std::path::PathBuf;

use swapboard_play::GameId;
use swapboard_play::puzzles::{self, Candidates, DEFAULT_BUDGET};

use crate::error::{CliError, CliResult};
use crate::files::{LockedFile, quote};
use crate::limits;
use crate::output::Output;

/// The largest puzzle file read: 64 MiB, some hundred thousand puzzles.
const FILE_LIMIT: u64 = 64 << 20;

/// The commands about puzzles.
#[derive(clap::Subcommand)]
pub(crate) enum PuzzlesCommand {
    /// Find puzzles (exactly one winning move, proven by the solver) in random games and add
    /// them to a puzzle file.
    Generate(GenerateArgs),
}

/// The arguments of `swapboard puzzles generate`.
#[derive(clap::Args)]
pub(crate) struct GenerateArgs {
    /// The game (swaptimum, flipstop, scware, rapid-transit).
    #[arg(long)]
    game: String,
    /// The board side.
    #[arg(long)]
    size: usize,
    /// How many new puzzles to find.
    #[arg(long, default_value_t = 10, value_parser = limits::games)]
    count: u64,
    /// Give up after examining this many positions.
    #[arg(long, default_value_t = 100_000, value_parser = limits::games)]
    candidates: u64,
    /// The solver's node budget for each proof (the win and every refutation).
    #[arg(long, default_value_t = DEFAULT_BUDGET, value_parser = limits::positive)]
    budget: u64,
    /// How many positions before each random game's end are examined.
    #[arg(long, default_value_t = 8, value_parser = depth)]
    depth: usize,
    /// The seed of the random games (a run is reproducible from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The puzzle file the new puzzles are added to (created if missing); puzzles already
    /// in it are not added twice.
    #[arg(long)]
    file: PathBuf,
}

/// `--depth`: 1 to 200 positions.
fn depth(text: &str) -> Result<usize, String> {
    limits::positive(text).and_then(|n| {
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= 200)
            .ok_or_else(|| "expected 1 to 200".to_string())
    })
}

/// Runs a puzzles command.
pub(crate) fn run(command: PuzzlesCommand, out: &mut Output) -> CliResult {
    match command {
        PuzzlesCommand::Generate(args) => generate(&args, out),
    }
}

fn generate(args: &GenerateArgs, out: &mut Output) -> CliResult {
    let game: GameId = args
        .game
        .parse()
        .map_err(|e: swapboard_play::UnknownGame| CliError::bad(format!("--game: {e}")))?;
    if !game.sizes().contains(&args.size)
        || swapboard_play::AnyPosition::start(game, args.size).is_err()
    {
        let sizes = game.catalogue_entry().sizes;
        return Err(CliError::bad(format!(
            "--size {}: {game} is played on sizes {sizes:?}",
            args.size
        )));
    }
    if !args.file.exists() {
        std::fs::write(&args.file, "").map_err(|e| {
            CliError::bad(format!(
                "--file {}: {e}",
                quote(&args.file.display().to_string())
            ))
        })?;
    }
    let mut file = LockedFile::open("puzzle file", &args.file)?;
    let mut text = file.read(FILE_LIMIT)?;
    let known = puzzles::read_lines(&text).map_err(CliError::bad)?;
    let mut ids: HashSet<String> = known.into_iter().map(|p| p.id).collect();
    let mut found = 0;
    let mut examined = 0;
    for position in Candidates::new(game, args.size, args.seed, args.depth) {
        if found == args.count || examined == args.candidates {
            break;
        }
        examined += 1;
        let Some(puzzle) = puzzles::examine(&position, args.budget) else {
            continue;
        };
        if !ids.insert(puzzle.id.clone()) {
            continue;
        }
        found += 1;
        out.line(format_args!(
            "{found}/{} {} {} difficulty {} theme {} line {} ({examined} positions examined)",
            args.count,
            puzzle.id,
            puzzle.position,
            puzzle.difficulty,
            puzzle.theme.as_str(),
            puzzle.line.join(" "),
        ))?;
        out.flush()?;
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&puzzle.to_line());
        text.push('\n');
        // Written as found: a long run stopped early keeps what it proved.
        file.replace(&text)?;
    }
    out.line(format_args!(
        "{found} new {game} {}x{} puzzles from {examined} positions examined",
        args.size, args.size
    ))
}
