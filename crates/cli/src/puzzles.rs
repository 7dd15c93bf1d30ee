//! `swapboard puzzles generate`: finds puzzles proven by the solver (`swapboard_play::puzzles`)
//! in random games, in game records (the AI's self-play: `swapboard arena --out`) or in a
//! server's finished games, and adds them to a puzzle file, one JSON object a line
//! (`docs/PUZZLES.md`).

use std::collections::HashSet;
use std::path::PathBuf;

use swapboard_arena::record::read_records_with_lines;
use swapboard_play::puzzles::{self, Candidates, DEFAULT_BUDGET, positions_of_game};
use swapboard_play::{AnyPosition, GameId};

use crate::error::{CliError, CliResult};
use crate::files::{LockedFile, quote, quote_path, read_limited};
use crate::limits;
use crate::output::Output;

/// The largest puzzle file read: 64 MiB, some hundred thousand puzzles.
const FILE_LIMIT: u64 = 64 << 20;

/// The commands about puzzles.
#[derive(clap::Subcommand)]
pub(crate) enum PuzzlesCommand {
    /// Find puzzles (exactly one winning move, proven by the solver) in random games, game
    /// records or a server's finished games, and add them to a puzzle file.
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
    /// How many positions before each game's end are examined.
    #[arg(long, default_value_t = 8, value_parser = depth)]
    depth: usize,
    /// The seed of the random games (a run is reproducible from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Examine the games of this record file (docs/RECORDS.md, e.g. the AI's self-play from
    /// `swapboard arena --out`) instead of random games; may be given several times. Only
    /// the records of --game and --size are read.
    #[arg(long, value_name = "FILE", conflicts_with = "database")]
    records: Vec<PathBuf>,
    /// Examine a server's finished games of --game and --size instead of random games, the
    /// latest --games of them (`sqlite:PATH` or `postgres://...`).
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// With --database: how many of the latest finished games are read.
    #[arg(long, default_value_t = 1_000, value_parser = server_games)]
    games: u32,
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

/// `--games`: 1 to 100,000 games.
fn server_games(text: &str) -> Result<u32, String> {
    limits::positive(text).and_then(|n| {
        u32::try_from(n)
            .ok()
            .filter(|&n| n <= 100_000)
            .ok_or_else(|| "expected 1 to 100000".to_string())
    })
}

/// The largest record file read: 64 MiB.
const RECORDS_LIMIT: u64 = 64 << 20;

/// The positions to examine when they come from games played for real: each record of the
/// files (or each finished game of the server) of `game` and `size`, its last `depth`
/// positions before the end.
fn played_positions(args: &GenerateArgs, game: GameId) -> Result<Vec<AnyPosition>, CliError> {
    let mut positions = Vec::new();
    if let Some(database) = &args.database {
        let games = swapboard_server::finished_games(Some(database), game, args.size, args.games)
            .map_err(|e| CliError::bad(format!("--database: {e:#}")))?;
        for (n, moves) in games.iter().enumerate() {
            let start = AnyPosition::start(game, args.size)
                .map_err(|e| CliError::bad(format!("--size: {e}")))?;
            let found = positions_of_game(start, moves, args.depth)
                .map_err(|e| CliError::bad(format!("--database: game {}: {e}", n + 1)))?;
            positions.extend(found);
        }
    }
    for path in &args.records {
        let text = read_limited("record file", path, RECORDS_LIMIT)?;
        let place =
            |line: usize, reason: &str| format!("--records {}:{line}: {reason}", quote_path(path));
        let records =
            read_records_with_lines(&text).map_err(|e| CliError::bad(place(e.line, &e.reason)))?;
        for (record, lines) in records {
            let size = record.tag("Size").and_then(|s| s.parse::<usize>().ok());
            if record.tag("Game") != Some(game.as_str()) || size != Some(args.size) {
                continue;
            }
            let start = match record.tag("Start") {
                Some(text) => text
                    .parse::<AnyPosition>()
                    .map_err(|e| CliError::bad(place(lines.start, &format!("Start tag: {e}"))))?,
                None => AnyPosition::start(game, args.size)
                    .map_err(|e| CliError::bad(format!("--size: {e}")))?,
            };
            let found = positions_of_game(start, &record.moves, args.depth)
                .map_err(|e| CliError::bad(place(lines.start, &e)))?;
            positions.extend(found);
        }
    }
    Ok(positions)
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
    let candidates: Box<dyn Iterator<Item = AnyPosition>> =
        if args.records.is_empty() && args.database.is_none() {
            Box::new(Candidates::new(game, args.size, args.seed, args.depth))
        } else {
            // The latest positions of each game first, as in random games.
            Box::new(played_positions(args, game)?.into_iter().rev())
        };
    for position in candidates {
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
