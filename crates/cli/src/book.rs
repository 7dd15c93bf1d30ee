//! `swapboard book`: writes the book of a board the solver proves (`swapboard_solver::book`):
//! the positions of one proven winning strategy, which the AI looks up instead of searching.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use swapboard_core::Game;
use swapboard_solver::{Book, Options};

use crate::error::{CliError, CliResult};
use crate::files::quote_path;
use crate::limits;
use crate::output::Output;

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
}

/// `swapboard book GAME --size N --out FILE`, for game `G`.
pub(crate) fn book<G: Game>(args: &BookArgs, out: &mut Output) -> CliResult {
    let start = G::start(args.size).map_err(|e| CliError::bad(format!("--size: {e}")))?;
    let options = Options {
        table_bytes: args.table_mb.saturating_mul(1 << 20),
        max_nodes: Some(args.max_nodes),
        ..Options::default()
    };
    let started = Instant::now();
    let book = Book::generate(&start, options).map_err(|e| anyhow::anyhow!("{e}"))?;
    let bytes = book.to_bytes();
    std::fs::write(&args.out, &bytes)
        .with_context(|| format!("writing the book to {}", quote_path(&args.out)))?;
    out.line(format!(
        "{} {}x{}: {} positions, {} bytes, {:.1} s, written to {}",
        G::ID,
        args.size,
        args.size,
        book.len(),
        bytes.len(),
        started.elapsed().as_secs_f64(),
        quote_path(&args.out)
    ))
}
