//! `swapboard`: rules engines, AI and tools for five swap and crosscut games.
//!
//! - Swaptimum and Flipstop by Mark Steere (2023)
//! - Scware by Christian Freeling (2012)
//! - Rapid Transit by Phil Leduc (2022/2024)
//! - Swap 61 by 'pseudonam'
//!
//! The commands and their text are the contract in `spec/CONTRACT.md`.

mod analyze;
mod arena;
mod commands;
mod demo;
mod engine;
mod error;
mod games;
mod output;
mod play;
mod replay;
mod research;
mod solve;
mod stats;
mod swap61;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::error::CliResult;
use crate::games::with_game;
use crate::output::Output;

const ABOUT: &str = "Rules engines, AI and tools for swap and crosscut games:
  swaptimum      Swaptimum by Mark Steere (2023)
  flipstop       Flipstop by Mark Steere (2023)
  scware         Scware by Christian Freeling (2012)
  rapid-transit  Rapid Transit by Phil Leduc (2022/2024)
  swap61         Swap 61 by 'pseudonam' (9-10 players, with a game master)";

#[derive(Parser)]
#[command(name = "swapboard", version, about = ABOUT, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// A short scripted tour: positions from the rule sheets played through the engines.
    Demo,
    /// Print the start position of a game.
    New {
        /// The game (swaptimum, flipstop, ...).
        game: String,
        /// The board side (default: the game's own).
        #[arg(long)]
        size: Option<usize>,
    },
    /// List every legal move of a position, one per line.
    Moves {
        /// The position text.
        position: String,
    },
    /// Play moves from a position; print the final position and the result.
    Apply {
        /// The position text.
        position: String,
        /// Moves to play, in order.
        moves: Vec<String>,
    },
    /// Count the legal move sequences of a given length.
    Perft {
        /// The position text.
        position: String,
        /// The number of plies.
        depth: u32,
    },
    /// Print the exact number of legal moves of a position, without listing them.
    Count {
        /// The position text.
        position: String,
    },
    /// Draw a position in the terminal, and optionally as an SVG picture.
    Show {
        /// The position text.
        position: String,
        /// Also write an SVG picture to this file.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// Play a match between two bots and sum it up (wins, draws, Elo difference).
    Arena(arena::ArenaArgs),
    /// Search a position and print the best moves with visits, win rates and variations.
    Analyze(analyze::AnalyzeArgs),
    /// Play random games from the start on one core and report games/s and plies/s.
    Bench {
        /// The game.
        game: String,
        /// The board side (default: the game's own).
        #[arg(long)]
        size: Option<usize>,
        /// How long to run.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// The random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stop a game after this many plies and count it as capped (games that can
        /// cycle); capped games are reported apart and have no result.
        #[arg(long, default_value_t = 100_000)]
        max_plies: u64,
        /// Also count the legal moves of every position met and report their average
        /// (slower: the plies/s figure then includes the counting).
        #[arg(long)]
        branching: bool,
        /// Measure the AI instead: search the start position (MCTS, default settings, one
        /// thread) for the time given and report iterations/s.
        #[arg(long, conflicts_with = "branching")]
        search: bool,
    },
    /// Prove who wins a position with perfect play (proof-number search), with a winning move.
    Solve(solve::SolveArgs),
    /// Speak the engine protocol on standard input and output (docs/ENGINE-PROTOCOL.md).
    Engine,
    /// Self-play games with a ply cap: do games end, how long are they, do positions repeat.
    Research(research::ResearchArgs),
    /// Swap 61 by 'pseudonam': rounds, game files, bots (`swap61 --help`).
    Swap61(swap61::Swap61Args),
    /// Play a game in the terminal: two people, against the AI, or watch the AI (docs/PLAY.md).
    Play(play::PlayArgs),
    /// Check a game record move by move and show it, up to any ply (docs/RECORDS.md).
    Replay(replay::ReplayArgs),
    /// Self-play games in parallel and a designer's report: win rates, lengths, rules fired.
    Stats(stats::StatsArgs),
    /// Serve the games over HTTP (docs/API.md): SQLite file by default, or PostgreSQL.
    Serve(swapboard_server::ServeOptions),
}

fn game_of(position: &str) -> &str {
    swapboard_core::text::game_of(position).unwrap_or("")
}

fn run(command: Command, out: &mut Output) -> CliResult {
    match command {
        Command::Demo => demo::demo(out),
        Command::New { game, size } => {
            with_game!(game.as_str(), G => commands::new::<G>(size, out))
        }
        Command::Moves { position } => {
            with_game!(game_of(&position), G => commands::moves::<G>(&position, out))
        }
        Command::Apply { position, moves } => {
            with_game!(game_of(&position), G => commands::apply::<G>(&position, &moves, out))
        }
        Command::Perft { position, depth } => {
            with_game!(game_of(&position), G => commands::perft_cmd::<G>(&position, depth, out))
        }
        Command::Count { position } => {
            with_game!(game_of(&position), G => commands::count::<G>(&position, out))
        }
        Command::Show { position, svg } => {
            with_game!(game_of(&position), G => commands::show::<G>(&position, svg.as_deref(), out))
        }
        Command::Arena(args) => with_game!(args.game.as_str(), G => arena::arena::<G>(&args, out)),
        Command::Analyze(args) => {
            with_game!(game_of(&args.position), G => analyze::analyze::<G>(&args, out))
        }
        Command::Bench {
            game,
            size,
            seconds,
            seed,
            max_plies,
            branching,
            search: false,
        } => {
            with_game!(game.as_str(), G => commands::bench::<G>(size, seconds, seed, max_plies, branching, out))
        }
        Command::Bench {
            game,
            size,
            seconds,
            seed,
            search: true,
            ..
        } => with_game!(game.as_str(), G => commands::bench_search::<G>(size, seconds, seed, out)),
        Command::Solve(args) => {
            with_game!(game_of(&args.position), G => solve::solve::<G>(&args, out))
        }
        Command::Engine => engine::engine(),
        Command::Research(args) => {
            with_game!(args.game.as_str(), G => research::research::<G>(&args, out))
        }
        Command::Swap61(args) => swap61::run(args, out),
        Command::Play(args) => with_game!(args.game.as_str(), G => play::play::<G>(&args, out)),
        Command::Replay(args) => replay::replay(&args, out),
        Command::Stats(args) => with_game!(args.game.as_str(), G => stats::stats::<G>(&args, out)),
        Command::Serve(options) => {
            swapboard_server::serve(options).map_err(error::CliError::Failure)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = Output::stdout();
    match run(cli.command, &mut out).and_then(|()| out.finish()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("swapboard: {e}");
            e.exit_code()
        }
    }
}
