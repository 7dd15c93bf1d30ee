//! `swapboard book`: writes the book of a board the solver proves (`swapboard_solver::book`):
//! the positions of one proven winning strategy, which the AI looks up instead of searching.

use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use swapboard_core::Game;
use swapboard_solver::book::{BookProgress, Decision, Journal};
use swapboard_solver::{Book, BookError, Options, Reach};

use crate::error::{CliError, CliResult};
use crate::files::quote_path;
use crate::limits;
use crate::output::{Output, Ticker};

/// The arguments of `swapboard book`.
#[derive(clap::Args)]
pub(crate) struct BookArgs {
    /// The game (swaptimum, flipstop).
    pub(crate) game: String,
    /// The board side.
    #[arg(long)]
    size: usize,
    /// The book file to write (the shipped ones: crates/solver/books/GAME-SIZE.book).
    #[arg(long)]
    out: PathBuf,
    /// Give up when one position of the strategy takes more than this many nodes.
    #[arg(long, default_value_t = 50_000_000, value_parser = limits::positive)]
    max_nodes: u64,
    /// The memory of the solver's transposition table, in MiB.
    #[arg(long, default_value_t = 256, value_parser = limits::table_mb)]
    table_mb: usize,
    /// Stop the strategy at the winner's positions the player's live solver proves (600,000
    /// nodes from an empty table), for a board whose whole strategy is too large to write:
    /// the book then holds the first plies and the live solver plays the rest.
    #[arg(long)]
    until_live: bool,
    /// Keep each decision of the strategy in this file as it is made, and replay the ones an
    /// earlier run kept there: a generation of hours can be stopped and resumed.
    #[arg(long)]
    journal: Option<PathBuf>,
}

/// The first line of a journal file: what it is the journal of.
fn journal_header(game: &str, size: usize, reach: Reach) -> String {
    format!("swapboard-book-journal 2 {game} {size} {}", reach.word())
}

/// A journal line's canonical hash, image hash and decision (`HASH IMAGE MOVE`, the hashes
/// in hexadecimal, the decision a move or `live`).
fn journal_entry(line: &str) -> Option<(u64, u64, String)> {
    let mut fields = line.splitn(3, ' ');
    let hash = u64::from_str_radix(fields.next()?, 16).ok()?;
    let image = u64::from_str_radix(fields.next()?, 16).ok()?;
    Some((hash, image, fields.next()?.to_string()))
}

/// The decisions of a generation: those of earlier runs read from the journal file, each
/// new one appended to it (a line `HASH IMAGE MOVE` or `HASH IMAGE live`), with the
/// progress shown.
struct FileJournal {
    /// Earlier runs' decisions, by canonical hash: the Zobrist hash of the image of the
    /// position they were made on, and a move's text or `live`.
    known: HashMap<u64, (u64, String)>,
    /// The journal file, open for appending; none without `--journal`.
    file: Option<(File, PathBuf)>,
    /// The first failure to append, reported when the generation ends.
    failed: Option<anyhow::Error>,
    ticker: Ticker,
}

impl FileJournal {
    /// The journal of `path` for a book of `header`: read if the file exists (a last line
    /// cut short by a killed run is dropped), created with its header otherwise.
    fn open(path: Option<&Path>, header: &str) -> Result<FileJournal, CliError> {
        let mut journal = FileJournal {
            known: HashMap::new(),
            file: None,
            failed: None,
            ticker: Ticker::new(),
        };
        let Some(path) = path else {
            return Ok(journal);
        };
        let shown = quote_path(path);
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8(bytes)
                .map_err(|_| CliError::bad(format!("--journal {shown}: not a text file")))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => {
                return Err(anyhow::Error::new(e)
                    .context(format!("--journal {shown}: reading it"))
                    .into());
            }
        };
        // Only whole lines count: a run killed while writing leaves a part of one.
        let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
        let mut lines = whole.lines();
        match lines.next() {
            None => {}
            Some(first) if first == header => {}
            Some(first) => {
                return Err(CliError::bad(format!(
                    "--journal {shown}: it is the journal of {first:?}, not of {header:?}"
                )));
            }
        }
        for (i, line) in lines.enumerate() {
            let (hash, image, decision) = journal_entry(line).ok_or_else(|| {
                CliError::bad(format!(
                    "--journal {shown}, line {}: {line:?} is not \"HASH IMAGE MOVE\"",
                    i + 2
                ))
            })?;
            journal.known.insert(hash, (image, decision));
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(false)
            .open(path)
            .with_context(|| format!("--journal {shown}: opening it"))?;
        let keep = whole.len();
        file.set_len(keep as u64)
            .and_then(|()| {
                use std::io::Seek;
                file.seek(std::io::SeekFrom::End(0))?;
                if keep == 0 {
                    writeln!(file, "{header}")?;
                }
                Ok(())
            })
            .with_context(|| format!("--journal {shown}: writing it"))?;
        journal.file = Some((file, path.to_path_buf()));
        Ok(journal)
    }
}

impl<G: Game> Journal<G> for FileJournal {
    fn recall(&self, position: &G, hash: u64) -> Result<Option<Decision<G::Move>>, String> {
        // A move is written for the image of the position it was chosen on: met as another
        // image (a run that walked otherwise, with other limits), it is decided afresh.
        let Some((_, text)) = self
            .known
            .get(&hash)
            .filter(|(image, _)| *image == position.zobrist())
        else {
            return Ok(None);
        };
        if text == "live" {
            return Ok(Some(Decision::Live));
        }
        match position.parse_move(text) {
            Ok(mv) => Ok(Some(Decision::Play(mv))),
            Err(e) => Err(format!(
                "position {position}: the recalled move {text:?}: {e}"
            )),
        }
    }

    fn record(
        &mut self,
        position: &G,
        hash: u64,
        decision: &Decision<G::Move>,
        progress: &BookProgress,
    ) {
        if let (Some((file, path)), None) = (&mut self.file, &self.failed) {
            let decision = match decision {
                Decision::Play(mv) => mv.to_string(),
                Decision::Live => "live".to_string(),
            };
            let image = position.zobrist();
            if let Err(e) = writeln!(file, "{hash:016x} {image:016x} {decision}") {
                self.failed = Some(
                    anyhow::Error::new(e)
                        .context(format!("--journal {}: writing it", quote_path(path))),
                );
            }
        }
        self.ticker.tell(|| {
            format!(
                "{} positions of the winner ({} left to the live solver), {} of the loser, {} nodes",
                progress.won, progress.left_to_live, progress.lost, progress.nodes
            )
        });
    }
}

/// `swapboard book GAME --size N --out FILE`, for game `G`.
pub(crate) fn book<G: Game>(args: &BookArgs, out: &mut Output) -> CliResult {
    let start = G::start(args.size).map_err(|e| CliError::bad(format!("--size: {e}")))?;
    let options = Options {
        table_bytes: args.table_mb.saturating_mul(1 << 20),
        max_nodes: Some(args.max_nodes),
        ..Options::default()
    };
    let reach = if args.until_live {
        Reach::UntilLive
    } else {
        Reach::Whole
    };
    let header = journal_header(G::ID, args.size, reach);
    let mut journal = FileJournal::open(args.journal.as_deref(), &header)?;
    let started = Instant::now();
    let book = Book::generate(&start, options, reach, &mut journal);
    if let Some(failed) = journal.failed.take() {
        return Err(failed.into());
    }
    let (book, reached) = book.map_err(|e| match e {
        BookError::Journal(_) => CliError::bad(format!("--{e}")),
        e => anyhow::anyhow!("{e}").into(),
    })?;
    drop(journal);
    let bytes = book.to_bytes();
    std::fs::write(&args.out, &bytes)
        .with_context(|| format!("writing the book to {}", quote_path(&args.out)))?;
    let live = if args.until_live {
        format!(
            " ({} positions of the winner left to the live solver)",
            reached.left_to_live
        )
    } else {
        String::new()
    };
    out.line(format!(
        "{} {}x{}: {} position{}{live}, {} bytes, {:.1} s, written to {}",
        G::ID,
        args.size,
        args.size,
        book.len(),
        if book.len() == 1 { "" } else { "s" },
        bytes.len(),
        started.elapsed().as_secs_f64(),
        quote_path(&args.out)
    ))
}
