//! `swapboard play <game>`: two people, a person against the AI, or the AI against itself.
//!
//! On a terminal the game is drawn full screen (`tui`); with piped input or `--lines` it is
//! played in a plain line mode (`line`) that reads moves and prints boards, so it can be
//! scripted. Both drive a [`session::Session`]; the record is written at the end
//! (`docs/RECORDS.md`). The user guide is `docs/PLAY.md`.

mod line;
pub(crate) mod session;
mod tui;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use swapboard_ai::Level;
use swapboard_core::{Game, Player};
use swapboard_play::Playable;

use crate::commands::start;
use crate::error::{CliError, CliResult};
use crate::output::Output;
use session::{Seat, Session};

/// The arguments of `swapboard play`.
#[derive(clap::Args)]
pub(crate) struct PlayArgs {
    /// The game (swaptimum, flipstop, scware, rapid-transit).
    pub(crate) game: String,
    /// The board side (default: the game's own).
    #[arg(long)]
    size: Option<usize>,
    /// Play against the AI at this level (1 weakest to 8 strongest); without it two people
    /// play. The AI also gives the hints (level 3 when there is no AI).
    #[arg(long, value_name = "LEVEL")]
    ai: Option<u8>,
    /// The side the person takes against the AI: a colour letter or name (R, red, B, ...),
    /// or `none` to watch the AI play both sides. Default: the player who moves first.
    #[arg(long = "as", value_name = "COLOUR")]
    as_colour: Option<String>,
    /// Write the game's record to this file at the end. Without it the full-screen mode
    /// writes swapboard-<game>-<date>-<time>.txt; the line mode prints the record.
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
    let Some(_) = args.ai else {
        return match args.as_colour.as_deref() {
            None => Ok([Seat::Human, Seat::Human]),
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
            Seat::Human
        } else {
            Seat::Ai
        }
    }))
}

/// Runs `swapboard play` for game `G`.
pub(crate) fn play<G: Playable>(args: &PlayArgs, out: &mut Output) -> CliResult {
    let start_pos = start::<G>(args.size)?;
    let seats = seats::<G>(args)?;
    let level_number = args.ai.unwrap_or(3);
    let level = Level::new(level_number)
        .ok_or_else(|| CliError::bad(format!("--ai {level_number}: the level must be 1 to 8")))?;
    let session = Session::new(start_pos, seats, level, args.seed);
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if args.lines || !terminal {
        let session = line::run(session, std::io::stdin().lock(), out)?;
        let record = session.record();
        if let Some(path) = &args.out {
            save(path, &record.to_string())?;
        }
        out.line("")?;
        out.text(record)
    } else {
        let session = tui::run(session)?;
        let record = session.record();
        let path = args
            .out
            .clone()
            .unwrap_or_else(|| default_record_path::<G>());
        save(&path, &record.to_string())?;
        out.line(format!("record saved to {}", path.display()))
    }
}

fn save(path: &Path, text: &str) -> CliResult {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
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
