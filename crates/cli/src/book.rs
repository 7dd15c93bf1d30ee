//! `swapboard book`: writes the book of a board the solver proves (`swapboard_solver::book`):
//! the positions of one proven winning strategy, which the AI looks up instead of searching.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use swapboard_core::Game;
use swapboard_solver::book::BookProgress;
use swapboard_solver::{Book, Options, Reach};

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
    let started = Instant::now();
    let mut ticker = Ticker::new();
    let mut left_to_live = 0;
    let book = Book::generate(&start, options, reach, &mut |p: &BookProgress| {
        left_to_live = p.left_to_live;
        ticker.tell(|| {
            format!(
                "{} positions of the winner ({} left to the live solver), {} of the loser, {} nodes",
                p.won, p.left_to_live, p.lost, p.nodes
            )
        })
    })
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    drop(ticker);
    let bytes = book.to_bytes();
    std::fs::write(&args.out, &bytes)
        .with_context(|| format!("writing the book to {}", quote_path(&args.out)))?;
    let live = if args.until_live {
        format!(" ({left_to_live} positions of the winner left to the live solver)")
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
