//! `swapboard swap61 ...`: Swap 61 (by 'pseudonam') for the game master. The stateless
//! `round` command of the text contract, the workflow on one game file (`new`, `submit`,
//! `resolve`, `show`, `undo`, `bot`), and `simulate`, a whole game played by bots.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use clap::{Args, Subcommand};
use swapboard_swap61::{
    Board, EdgeOutcome, LAST_ROUND, RoundSpec, SUBMISSION_BYTES, Seat, Setup, Swap61Game,
    Variation, bot, parse_pairs, play_round, report, standings, svg,
};

use crate::error::{CliError, CliResult};
use crate::files::{Destination, LockedFile, NewFile, quote_path, read_limited};
use crate::limits;
use crate::output::Output;

/// Swap 61 by 'pseudonam': a sealed-bid game for 9-10 players with a game master.
#[derive(Args)]
pub(crate) struct Swap61Args {
    #[command(subcommand)]
    command: Swap61Command,
}

#[derive(Subcommand)]
enum Swap61Command {
    /// Resolve and score one round from files, with no game file (the text contract).
    Round {
        /// The grid: 9 lines `A: N1 P3 W ...` (rows A to I).
        #[arg(long, value_name = "FILE")]
        grid: PathBuf,
        /// The number of seats, 9 or 10.
        #[arg(long, value_name = "N")]
        seats: String,
        /// The round: 0 for the pregame (no scoring), 1 to 5.
        #[arg(long, value_name = "K")]
        round: String,
        /// theme (default), corners, network or seat-exchange (options may be joined by +,
        /// and corners-teleport is the free-teleport reading).
        #[arg(long, value_name = "V")]
        variation: Option<String>,
        /// The three pairs, like N1-N2,N3-N4,N5-N6 (ignored in round 0 and under network).
        #[arg(long, value_name = "P")]
        pairs: Option<String>,
        /// A seat's submission file; repeat for each seat that submitted.
        #[arg(long = "submission", value_name = "SEAT=FILE")]
        submissions: Vec<String>,
    },
    /// Create a game: random seat order, grid and pair schedule. Prints the game file, or
    /// writes it with --out.
    New {
        /// The 9 or 10 player names, separated by commas.
        #[arg(long, value_name = "NAMES")]
        players: String,
        /// The random seed (default: from the clock; it is recorded in the file).
        #[arg(long)]
        seed: Option<u64>,
        /// Write the game file here (refuses to overwrite a file).
        #[arg(long, value_name = "GAME")]
        out: Option<PathBuf>,
        /// The variation of round 5, which the sheet does not describe (default theme).
        #[arg(long, value_name = "V")]
        round5: Option<String>,
    },
    /// Record a player's submission for the open round and tell them what was accepted.
    Submit {
        /// The game file.
        game: PathBuf,
        /// The player's name.
        #[arg(long)]
        player: String,
        /// The submission file (`-` for standard input).
        file: PathBuf,
    },
    /// Resolve the open round, advance, and print the report.
    Resolve {
        /// The game file.
        game: PathBuf,
    },
    /// Show the public view, or one player's private view.
    Show {
        /// The game file.
        game: PathBuf,
        /// Show this player's private view (own walls, borrowed walls, submission).
        #[arg(long = "for", value_name = "NAME")]
        player: Option<String>,
        /// Also draw the hexagon as an SVG picture in this file (a new file).
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// Let --svg overwrite an existing file (never a game file).
        #[arg(long, requires = "svg")]
        force: bool,
    },
    /// Take back the latest submission or resolution (it stays in the history).
    Undo {
        /// The game file.
        game: PathBuf,
    },
    /// Submit the bidding bot's bids for a player (to fill an empty seat).
    Bot {
        /// The game file.
        game: PathBuf,
        /// The seat's player name.
        #[arg(long)]
        player: String,
    },
    /// Play a whole game with bots and print the standings.
    Simulate {
        /// The random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The number of players, 9 or 10.
        #[arg(long, default_value_t = 10, value_parser = limits::seats)]
        players: usize,
        /// Also write the game file here, for auditing (a new file).
        #[arg(long, value_name = "GAME")]
        out: Option<PathBuf>,
        /// Let --out overwrite an existing file (never a game file).
        #[arg(long, requires = "out")]
        force: bool,
    },
}

/// Runs a `swap61` subcommand.
pub(crate) fn run(args: Swap61Args, out: &mut Output) -> CliResult {
    match args.command {
        Swap61Command::Round {
            grid,
            seats,
            round,
            variation,
            pairs,
            submissions,
        } => out.text(contract_round(
            &grid,
            &seats,
            &round,
            variation.as_deref(),
            pairs.as_deref(),
            &submissions,
        )?),
        Swap61Command::New {
            players,
            seed,
            out: path,
            round5,
        } => new(&players, seed, round5.as_deref(), path.as_deref(), out),
        Swap61Command::Submit { game, player, file } => submit(&game, &player, &file, out),
        Swap61Command::Resolve { game } => resolve(&game, out),
        Swap61Command::Show {
            game,
            player,
            svg,
            force,
        } => show(&game, player.as_deref(), svg.as_deref(), force, out),
        Swap61Command::Undo { game } => undo(&game, out),
        Swap61Command::Bot { game, player } => bot_submit(&game, &player, out),
        Swap61Command::Simulate {
            seed,
            players,
            out: path,
            force,
        } => simulate(seed, players, path.as_deref(), force, out),
    }
}

/// The largest grid file read: 9 lines of at most 9 short cells.
const GRID_LIMIT: u64 = 16 * 1024;
/// The largest game file read: the history of a long game with many resubmissions and undos.
const GAME_LIMIT: u64 = 64 * 1024 * 1024;

/// A decimal integer argument in a range.
fn number(
    flag: &str,
    text: &str,
    range: std::ops::RangeInclusive<usize>,
) -> Result<usize, CliError> {
    let bad = || {
        CliError::bad(format!(
            "{flag} '{text}': expected a whole number from {} to {}",
            range.start(),
            range.end()
        ))
    };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    text.parse::<usize>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(bad)
}

/// `swapboard swap61 round ...`: the contract's stateless round, as the text it prints.
fn contract_round(
    grid: &Path,
    seats: &str,
    round: &str,
    variation: Option<&str>,
    pairs: Option<&str>,
    submissions: &[String],
) -> Result<String, CliError> {
    let seats = number(
        "--seats",
        seats,
        swapboard_swap61::MIN_SEATS..=swapboard_swap61::MAX_SEATS,
    )?;
    let round = number("--round", round, 0..=LAST_ROUND)?;
    let variation: Variation = variation
        .unwrap_or("theme")
        .parse()
        .map_err(|e| CliError::bad(format!("--variation: {e}")))?;
    let pairs = if round > 0 && variation.uses_pairs() {
        let text = pairs.ok_or_else(|| {
            CliError::bad(format!(
                "--pairs is needed: round {round} ({variation}) scores three pairs"
            ))
        })?;
        parse_pairs(text)
            .map_err(|e| CliError::bad(format!("--pairs '{text}': {e}")))?
            .to_vec()
    } else {
        Vec::new()
    };
    let board = Board::parse(&read_limited("grid file", grid, GRID_LIMIT)?, seats)
        .map_err(|e| CliError::bad(format!("grid file '{}': {e}", quote_path(grid))))?;
    let mut texts: Vec<(Seat, String)> = Vec::new();
    for arg in submissions {
        let (seat, file) = arg.split_once('=').ok_or_else(|| {
            CliError::bad(format!(
                "--submission '{arg}': expected SEAT=FILE, like 3=ann.txt"
            ))
        })?;
        let digits = seat.strip_prefix(['P', 'p']).unwrap_or(seat);
        let seat = Seat::new(number(
            &format!("--submission '{arg}': seat"),
            digits,
            1..=seats,
        )?)
        .expect("seat in range");
        if texts.iter().any(|(s, _)| *s == seat) {
            return Err(CliError::bad(format!(
                "--submission '{arg}': {seat} has two submissions"
            )));
        }
        texts.push((
            seat,
            read_limited(
                &format!("submission file of {seat}"),
                Path::new(file),
                SUBMISSION_BYTES as u64,
            )?,
        ));
    }
    texts.sort_by_key(|(s, _)| *s);
    let spec = RoundSpec { variation, pairs };
    let subs: Vec<(Seat, &str)> = texts.iter().map(|(s, t)| (*s, t.as_str())).collect();
    let outcome = play_round(&board, round, &spec, &subs);
    let mut text = String::new();
    for (seat, r) in &outcome.rejections {
        let _ = writeln!(text, "reject {seat} line {}: {}", r.line, r.reason);
    }
    for e in &outcome.resolution.edges {
        let _ = writeln!(text, "{e}");
    }
    text.push_str("grid\n");
    let _ = writeln!(text, "{}", outcome.resolution.board);
    for (seat, score) in Seat::all(seats).zip(outcome.scores.iter().flatten()) {
        let _ = writeln!(text, "score {seat} {score}");
    }
    Ok(text)
}

/// Seconds since 1970, for the history.
fn now() -> Option<u64> {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .ok()
        .map(|d| d.as_secs())
}

/// Opens and locks a game file for a change, and reads it: the lock is held until the
/// returned file is dropped, after the new content has replaced the old.
fn load_locked(path: &Path) -> Result<(LockedFile, Swap61Game), CliError> {
    let mut file = LockedFile::open("game file", path)?;
    let game = parse_game(path, &file.read(GAME_LIMIT)?)?;
    Ok((file, game))
}

/// Reads a game file to look at it, with no lock: it is replaced only by rename, so a
/// reader always sees a whole file.
fn load(path: &Path) -> Result<Swap61Game, CliError> {
    parse_game(path, &read_limited("game file", path, GAME_LIMIT)?)
}

fn parse_game(path: &Path, text: &str) -> Result<Swap61Game, CliError> {
    Swap61Game::from_json(text)
        .map_err(|e| CliError::bad(format!("game file '{}': {e}", quote_path(path))))
}

/// Shows the output of a change, then commits it: output that cannot be written (a full
/// disk, `> /dev/full`) leaves the game file as it was, so a retry does the same change.
fn commit(file: &LockedFile, game: &Swap61Game, text: &str, out: &mut Output) -> CliResult {
    out.text(text)?;
    out.flush()?;
    file.replace(&game.to_json())
}

fn game_error(path: &Path, e: swapboard_swap61::GameError) -> CliError {
    CliError::bad(format!("game file '{}': {e}", quote_path(path)))
}

/// `swap61 new --players a,b,... [--seed S] [--out GAME] [--round5 V]`.
fn new(
    players: &str,
    seed: Option<u64>,
    round5: Option<&str>,
    path: Option<&Path>,
    out: &mut Output,
) -> CliResult {
    let names: Vec<String> = players.split(',').map(|n| n.trim().to_string()).collect();
    let seed = seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let mut setup = Setup::generate(&names, seed)
        .map_err(|e| CliError::bad(format!("--players '{players}': {e}")))?;
    if let Some(text) = round5 {
        let variation: Variation = text
            .parse()
            .map_err(|e| CliError::bad(format!("--round5: {e}")))?;
        setup.set_round5(variation);
    }
    let game = Swap61Game::new(setup, now())
        .map_err(|e| CliError::bad(format!("--players '{players}': {e}")))?;
    match path {
        None => out.text(game.to_json()),
        Some(path) => {
            // A new game never overwrites a file, even with --force elsewhere.
            NewFile::create("--out", path, false)?.write(&game.to_json())?;
            out.line(format!("created '{}' (seed {seed})", quote_path(path)))?;
            out.text(report::public_view(&game))
        }
    }
}

/// `swap61 submit GAME --player NAME FILE`.
fn submit(path: &Path, player: &str, file: &Path, out: &mut Output) -> CliResult {
    // The submission is read before the lock is taken: a slow standard input must not hold
    // up the other players.
    let text = read_limited("submission file", file, SUBMISSION_BYTES as u64)?;
    let (locked, mut game) = load_locked(path)?;
    let checked = game
        .submit(player, &text, now())
        .map_err(|e| game_error(path, e))?;
    let seat = game.seat(player).map_err(|e| game_error(path, e))?;
    let mut report = format!(
        "submission of {player} ({seat}) for {} recorded; it replaces any earlier one\n",
        report::round_title(&game, game.round())
    );
    report.push_str(&report::private_view(&game, seat));
    if !checked.rejections.is_empty() {
        let _ = writeln!(
            report,
            "{} line(s) rejected: fix and submit again",
            checked.rejections.len()
        );
    }
    commit(&locked, &game, &report, out)
}

/// `swap61 resolve GAME`.
fn resolve(path: &Path, out: &mut Output) -> CliResult {
    let (locked, mut game) = load_locked(path)?;
    let outcome = game.resolve(now()).map_err(|e| game_error(path, e))?;
    let report = report::round_report(&game, &outcome);
    commit(&locked, &game, &report, out)
}

/// `swap61 show GAME [--for NAME] [--svg FILE]`; `--svg -` writes only the SVG, to stdout.
fn show(
    path: &Path,
    player: Option<&str>,
    svg_path: Option<&Path>,
    force: bool,
    out: &mut Output,
) -> CliResult {
    let svg_to = svg_path
        .map(|p| Destination::open("--svg", p, force))
        .transpose()?;
    let game = load(path)?;
    let focus = match player {
        Some(name) => {
            let seat = game.seat(name).map_err(|e| game_error(path, e))?;
            let borrowed = swapboard_swap61::blocking_seats(
                seat,
                game.setup().seats(),
                game.round().min(LAST_ROUND),
            )
            .into_iter()
            .skip(1)
            .collect();
            Some((seat, borrowed))
        }
        None => None,
    };
    let text = match &focus {
        Some((seat, _)) => report::private_view(&game, *seat),
        None => report::public_view(&game),
    };
    if let Some(svg_to) = svg_to
        && out.svg(svg_to, &picture(&game, focus))?
    {
        return Ok(());
    }
    out.text(text)
}

/// The SVG of the grid after the last resolved round, from the view of `focus` (a seat and
/// the seats it borrowed) when given.
fn picture(game: &Swap61Game, focus: Option<(Seat, Vec<Seat>)>) -> String {
    let swaps = game
        .outcomes()
        .last()
        .map(|o| {
            o.resolution
                .edges
                .iter()
                .filter(|e| e.outcome == EdgeOutcome::Swapped)
                .map(|e| e.edge)
                .collect()
        })
        .unwrap_or_default();
    let title = match (&focus, game.round()) {
        (Some((seat, _)), _) => format!(
            "Swap 61 by 'pseudonam': {} {} (private)",
            seat,
            game.setup().name(*seat)
        ),
        (None, 0) => "Swap 61 by 'pseudonam': the starting grid".to_string(),
        (None, r) => format!(
            "Swap 61 by 'pseudonam': the grid after {}",
            report::round_title(game, r - 1)
        ),
    };
    svg::svg(&svg::Picture {
        board: game.board(),
        names: &game.setup().players,
        title,
        swaps,
        bids: Vec::new(),
        focus,
    })
}

/// `swap61 undo GAME`.
fn undo(path: &Path, out: &mut Output) -> CliResult {
    let (locked, mut game) = load_locked(path)?;
    let entry = game.undo(now()).map_err(|e| game_error(path, e))?;
    let what = match &entry.change {
        swapboard_swap61::Change::Submit { player, .. } => format!("the submission of {player}"),
        swapboard_swap61::Change::Resolve { round, .. } => {
            format!("the resolution of {}", report::round_title(&game, *round))
        }
        _ => "an entry".to_string(),
    };
    let report = format!(
        "undid history entry {}: {what}\n{}",
        entry.seq,
        report::public_view(&game)
    );
    commit(&locked, &game, &report, out)
}

/// `swap61 bot GAME --player NAME`.
fn bot_submit(path: &Path, player: &str, out: &mut Output) -> CliResult {
    let (locked, mut game) = load_locked(path)?;
    let seat = game.seat(player).map_err(|e| game_error(path, e))?;
    if game.is_over() {
        return Err(game_error(path, swapboard_swap61::GameError::Over));
    }
    let bids = bot::bids(game.setup(), game.board(), game.round(), seat);
    let text = bot::submission_text(&bids);
    game.submit(player, &text, now())
        .map_err(|e| game_error(path, e))?;
    let report = format!(
        "the bot bids for {player} ({seat}):\n{}",
        if text.is_empty() {
            "(nothing: no swap would help)\n"
        } else {
            &text
        }
    );
    commit(&locked, &game, &report, out)
}

/// `swap61 simulate --seed S [--players N] [--out GAME]`.
pub(crate) fn simulate(
    seed: u64,
    players: usize,
    path: Option<&Path>,
    force: bool,
    out: &mut Output,
) -> CliResult {
    let out_file = path
        .map(|p| NewFile::create("--out", p, force))
        .transpose()?;
    let names: Vec<String> = (1..=players).map(|i| format!("bot{i}")).collect();
    let setup = Setup::generate(&names, seed)
        .map_err(|e| CliError::bad(format!("--players {players}: {e}")))?;
    let mut game = Swap61Game::new(setup, None).map_err(|e| CliError::bad(e.to_string()))?;
    out.line(format!(
        "Swap 61 by 'pseudonam': a game of {players} bots, seed {seed}"
    ))?;
    while !game.is_over() {
        let round = game.round();
        for seat in Seat::all(players) {
            let bids = bot::bids(game.setup(), game.board(), round, seat);
            let name = game.setup().name(seat).to_string();
            game.submit(&name, &bot::submission_text(&bids), None)
                .map_err(|e| {
                    CliError::Failure(anyhow::anyhow!("a bot's submission failed: {e}"))
                })?;
        }
        let outcome = game
            .resolve(None)
            .map_err(|e| CliError::Failure(anyhow::anyhow!("resolution failed: {e}")))?;
        let made = outcome
            .resolution
            .edges
            .iter()
            .filter(|e| e.outcome == EdgeOutcome::Swapped)
            .count();
        let mut line = format!(
            "{}: {made} swaps, {} failed",
            report::round_title(&game, round),
            outcome.resolution.edges.len() - made
        );
        if let Some(scores) = &outcome.scores {
            let list: Vec<String> = scores.iter().map(ToString::to_string).collect();
            let _ = write!(line, "; scores {}", list.join(" "));
        }
        out.line(line)?;
    }
    out.line("standings")?;
    for (rank, seat, total) in standings(&game.totals()) {
        out.line(format!(
            "{rank:>2}. {seat} {} {total}",
            game.setup().name(seat)
        ))?;
    }
    if let Some(file) = out_file {
        file.write(&game.to_json())?;
    }
    Ok(())
}
