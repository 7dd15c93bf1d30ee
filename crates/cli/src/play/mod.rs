//! `swapboard play <game>`: two people, a person against the AI, or the AI against itself.
//!
//! On a terminal the game is drawn full screen (`tui`); with piped input or `--lines` it is
//! played in a plain line mode (`line`) that reads moves and prints boards, so it can be
//! scripted. Both drive a [`Table`] of `swapboard-play`; the record is written after every
//! move (`docs/RECORDS.md`), so closing the terminal loses nothing. The user guide is
//! `docs/PLAY.md`.

mod line;
mod tui;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use std::time::Instant;
use swapboard_ai::Level;

use swapboard_core::{Game, Player};
use swapboard_play::record::read_records;
use swapboard_play::{Millis, Opponent, Playable, Seat, Table, TimeControl, UndoPolicy};

use crate::commands::{parse_position, start};
use crate::error::{CliError, CliResult};
use crate::files::{RECORD_FILE_LIMIT, quote_path, read_limited};
use crate::output::Output;

/// The arguments of `swapboard play`.
#[derive(clap::Args)]
pub(crate) struct PlayArgs {
    /// The game (swaptimum, flipstop, scware, rapid-transit).
    pub(crate) game: String,
    /// The board side (default: the game's own).
    #[arg(long, conflicts_with_all = ["position", "resume"])]
    size: Option<usize>,
    /// Start from this position text (of the game named) instead of the start.
    #[arg(long, value_name = "TEXT", conflicts_with = "resume")]
    position: Option<String>,
    /// Continue the unfinished game of this record file (its last record); the record goes
    /// on in the same file unless --out says otherwise.
    #[arg(long, value_name = "RECORD")]
    resume: Option<PathBuf>,
    /// Play against the AI at this level (1 weakest to 9 strongest, on every core); without it two people
    /// play. The AI also gives the hints (level 3 when there is no AI).
    #[arg(long, value_name = "LEVEL")]
    ai: Option<u8>,
    /// The side the person takes against the AI: a colour letter or name (R, red, B, ...),
    /// or `none` to watch the AI play both sides. Default: the player who moves first.
    #[arg(long = "as", value_name = "COLOUR")]
    as_colour: Option<String>,
    /// Write the game's record to this file, after every move. Without it the full-screen
    /// mode writes swapboard-GAME-DATE-TIME.txt; the line mode prints the record at
    /// the end.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The AI's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Use the plain line mode even on a terminal.
    #[arg(long)]
    lines: bool,
}

/// The side named by `text` (a colour letter or name of `G`, any case).
fn side_of<G: Game>(text: &str) -> Option<Player> {
    Player::BOTH.into_iter().find(|&p| {
        text.eq_ignore_ascii_case(G::colour_name(p))
            || text.eq_ignore_ascii_case(&G::colour_letter(p).to_string())
    })
}

/// Who sits where, from `--ai` and `--as`.
fn seats<G: Game>(args: &PlayArgs) -> Result<[Seat; 2], CliError> {
    let person = || Seat::Person("human".to_string());
    let Some(level) = args.ai else {
        return match args.as_colour.as_deref() {
            None => Ok([person(), person()]),
            Some(c) => Err(CliError::bad(format!(
                "--as {c}: choosing a side needs an opponent, --ai LEVEL"
            ))),
        };
    };
    let human = match args.as_colour.as_deref() {
        None => Some(Player::First),
        Some(text) if text.eq_ignore_ascii_case("none") => None,
        Some(text) => Some(side_of::<G>(text).ok_or_else(|| {
            CliError::bad(format!(
                "--as {text}: not a side of {} (expected {}, {} or none)",
                G::ID,
                G::colour_name(Player::First),
                G::colour_name(Player::Second)
            ))
        })?),
    };
    Ok(Player::BOTH.map(|p| {
        if Some(p) == human {
            person()
        } else {
            Seat::Ai(level)
        }
    }))
}

/// Milliseconds since the game was opened here: the time a table is given.
pub(super) struct Stopwatch(Instant);

impl Stopwatch {
    pub(super) fn start() -> Stopwatch {
        Stopwatch(Instant::now())
    }

    pub(super) fn now(&self) -> Millis {
        Millis(u64::try_from(self.0.elapsed().as_millis()).unwrap_or(u64::MAX))
    }
}

/// Where the record is kept, written again after every move.
pub(super) struct Keeper {
    path: Option<PathBuf>,
}

impl Keeper {
    /// Writes the record of the game so far, if there is a file to write.
    pub(super) fn keep<G: Playable>(&self, table: &Table<G>) -> CliResult {
        match &self.path {
            Some(path) => save(path, &table.record(&swapboard_arena::today()).to_string()),
            None => Ok(()),
        }
    }
}

/// The table to play: a new game, a position, or a resumed record.
fn table<G: Playable>(args: &PlayArgs, seats: [Seat; 2]) -> Result<Table<G>, CliError> {
    if let Some(path) = &args.resume {
        let name = format!("'{}'", quote_path(path));
        let text = read_limited("--resume", path, RECORD_FILE_LIMIT)?;
        let records =
            read_records(&text).map_err(|e| CliError::bad(format!("--resume {name}: {e}")))?;
        let record = records
            .last()
            .ok_or_else(|| CliError::bad(format!("--resume {name}: no record in it")))?;
        if records.len() > 1 && args.out.is_none() {
            // The record goes on in the file it came from, which must not lose the others.
            return Err(CliError::bad(format!(
                "--resume {name}: the file holds {} records; name a file for this game with --out",
                records.len()
            )));
        }
        if record.tag("Game") != Some(G::ID) {
            return Err(CliError::bad(format!(
                "--resume {name}: the record is not a game of {}",
                G::ID
            )));
        }
        let table = Table::from_record(record, seats, UndoPolicy::Allowed, Millis(0))
            .map_err(|e| CliError::bad(format!("--resume {name}: {e}")))?;
        if let Some(ending) = table.ending_text() {
            return Err(CliError::bad(format!(
                "--resume {name}: the game is over ({ending})"
            )));
        }
        return Ok(table);
    }
    let start = match &args.position {
        Some(text) => parse_position::<G>(text)?,
        None => start::<G>(args.size)?,
    };
    Ok(Table::new(
        start,
        seats,
        TimeControl::None,
        UndoPolicy::Allowed,
        Millis(0),
    ))
}

/// Runs `swapboard play` for game `G`.
pub(crate) fn play<G: Playable>(args: &PlayArgs, out: &mut Output) -> CliResult {
    let seats = seats::<G>(args)?;
    let level_number = args.ai.unwrap_or(3);
    let level = Level::new(level_number)
        .ok_or_else(|| CliError::bad(format!("--ai {level_number}: the level must be 1 to 9")))?;
    let table = table::<G>(args, seats)?;
    let ai = Opponent::new(level, table.start(), args.seed);
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if args.lines || !terminal {
        let keeper = Keeper {
            path: args.out.clone().or_else(|| args.resume.clone()),
        };
        let table = line::run(table, ai, std::io::stdin().lock(), &keeper, out)?;
        keeper.keep(&table)?;
        out.line("")?;
        out.text(table.record(&swapboard_arena::today()))
    } else {
        let path = args
            .out
            .clone()
            .or_else(|| args.resume.clone())
            .unwrap_or_else(|| default_record_path::<G>());
        let keeper = Keeper {
            path: Some(path.clone()),
        };
        let table = tui::run(table, ai, &keeper)?;
        keeper.keep(&table)?;
        out.line(format!("record saved to {}", path.display()))
    }
}

/// Writes the record beside its file, then renames it over the file: a crash or a closed
/// terminal in the middle of a write leaves the last record whole.
fn save(path: &Path, text: &str) -> CliResult {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    std::fs::write(&partial, text)
        .and_then(|()| std::fs::rename(&partial, path))
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// `swapboard-<game>-<YYYYMMDD>-<HHMMSS>.txt` in the current directory (UTC).
fn default_record_path<G: Game>() -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let date = swapboard_arena::today().replace('.', "");
    let t = secs % 86_400;
    PathBuf::from(format!(
        "swapboard-{}-{date}-{:02}{:02}{:02}.txt",
        G::ID,
        t / 3_600,
        t / 60 % 60,
        t % 60
    ))
}
