//! `swapboard`: rules engines, AI and tools for five swap and crosscut games, listed with
//! their authors by `swapboard --help` from the rules' catalogue (`swapboard_play::rules`).
//!
//! The commands and their text are the contract in `docs/CONTRACT.md`.

mod analyze;
mod arena;
mod book;
mod bot;
mod commands;
mod demo;
mod engine;
mod error;
mod files;
mod limits;
mod output;
mod play;
mod puzzles;
mod replay;
mod research;
mod rules;
mod solve;
mod stats;
mod swap61;
mod train;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _, Parser, Subcommand};
use swapboard_play::{GameFn, GameId, Playable};

use crate::error::{CliError, CliResult};
use crate::output::Output;

/// What `swapboard --help` says first: the games, one line each, as the rules list them
/// (a new game or a corrected credit shows here without being written again).
fn about() -> String {
    let mut text = "Rules engines, AI and tools for swap and crosscut games:".to_owned();
    for rules in swapboard_play::rules::ALL {
        let players = match rules.subject {
            swapboard_play::rules::Subject::Board(_) => String::new(),
            swapboard_play::rules::Subject::Swap61 => format!(
                " ({}-{} players, with a game master)",
                swapboard_swap61::MIN_SEATS,
                swapboard_swap61::MAX_SEATS
            ),
        };
        text.push_str(&format!(
            "\n  {:<14} {}{players}",
            rules.id(),
            rules.title()
        ));
    }
    text
}

/// The version `--version` prints: the package's and the commit built (build.rs).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("SWAPBOARD_COMMIT"),
    ")"
);

#[derive(Parser)]
#[command(name = "swapboard", version = VERSION, about = about(), long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// A short scripted tour of the five games, the AI thinking and a Swap 61 game.
    Demo,
    /// The rules of a game (swaptimum, flipstop, scware, rapid-transit, swap61), with diagrams.
    Rules {
        /// The game.
        game: String,
    },
    #[command(flatten)]
    Game(GameCommand),
    /// Speak the engine protocol on standard input and output (docs/ENGINE-PROTOCOL.md).
    Engine,
    /// Swap 61 by 'pseudonam': rounds, game files, bots (`swap61 --help`).
    Swap61(swap61::Swap61Args),
    /// Check a game record move by move and show it, up to any ply (docs/RECORDS.md).
    Replay(replay::ReplayArgs),
    /// Serve the games over HTTP (docs/API.md): SQLite file by default, or PostgreSQL.
    Serve(Box<swapboard_server::ServeOptions>),
    /// Play the AI's moves and do its analyses and reviews of a swapboard database, apart from
    /// the web servers (docs/DEPLOY.md).
    AiWorker(swapboard_server::ai_worker::WorkerOptions),
    /// Play an account of a swapboard server with the AI or an engine program (docs/API.md).
    Bot(bot::BotArgs),
    /// Measure a server under load on loopback: moves per second, latency, live fan-out.
    Loadtest(swapboard_loadtest::LoadtestOptions),
    /// Copy a server's database consistently while it runs (docs/DEPLOY.md, "Backups").
    Backup(swapboard_server::BackupOptions),
    /// Put a backup into an empty database (docs/DEPLOY.md, "Backups").
    Restore(swapboard_server::RestoreOptions),
    /// Bring a server's database (created if missing) to this version's schema, whatever
    /// instances run on it (docs/DEPLOY.md, "Upgrades").
    Migrate(swapboard_server::DatabaseOption),
    /// Administer a server's database (`admin --help`).
    #[command(subcommand)]
    Admin(AdminCommand),
    /// Puzzles proven by the solver (`puzzles --help`, docs/PUZZLES.md).
    #[command(subcommand)]
    Puzzles(puzzles::PuzzlesCommand),
}

/// The commands that administer a server's database.
#[derive(Subcommand)]
enum AdminCommand {
    /// Recompute every rating from scratch: replay every rated game in the order the games
    /// ended (docs/RATINGS.md).
    Rerate(swapboard_server::RerateOptions),
    /// Roles, bans and the admin log (docs/DEPLOY.md, "Administration").
    #[command(flatten)]
    Accounts(swapboard_server::AdminAct),
}

/// The commands about one board game, named by an argument or by a position text.
#[derive(Subcommand)]
enum GameCommand {
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
        /// The position, like 'swaptimum ...../...../...../...../..... R' (the format:
        /// docs/CONTRACT.md; `swapboard new GAME` prints a start position).
        position: String,
    },
    /// Play moves from a position; print the final position and the result.
    Apply {
        /// The position, like 'swaptimum ...../...../...../...../..... R' (the format:
        /// docs/CONTRACT.md; `swapboard new GAME` prints a start position).
        position: String,
        /// Moves to play, in order.
        moves: Vec<String>,
    },
    /// Count the legal move sequences of a given length.
    Perft {
        /// The position, like 'swaptimum ...../...../...../...../..... R' (the format:
        /// docs/CONTRACT.md; `swapboard new GAME` prints a start position).
        position: String,
        /// The number of plies.
        #[arg(value_parser = limits::perft_depth)]
        depth: u32,
    },
    /// Print the exact number of legal moves of a position, without listing them.
    Count {
        /// The position, like 'swaptimum ...../...../...../...../..... R' (the format:
        /// docs/CONTRACT.md; `swapboard new GAME` prints a start position).
        position: String,
    },
    /// Draw a position in the terminal, and optionally as an SVG picture.
    Show {
        /// The position, like 'swaptimum ...../...../...../...../..... R' (the format:
        /// docs/CONTRACT.md; `swapboard new GAME` prints a start position).
        position: String,
        /// Also write an SVG picture to this file, a new one (`-`: only the picture, to
        /// standard output).
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// Let --svg overwrite an existing file (never a Swap 61 game file).
        #[arg(long, requires = "svg")]
        force: bool,
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
        #[arg(long, default_value_t = 3.0, value_parser = limits::seconds)]
        seconds: f64,
        /// The random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stop a game after this many plies and count it as capped (games that can
        /// cycle); capped games are reported apart and have no result.
        #[arg(long, default_value_t = 100_000, value_parser = limits::plies)]
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
    /// Write the book of a board the solver proves: one proven winning strategy, which the
    /// AI plays from instead of searching (docs/AI.md, Books).
    Book(book::BookArgs),
    /// Learn move priors from self-play: a table of pattern weights for the AI (docs/AI.md,
    /// Learned priors).
    Train(train::TrainArgs),
    /// Self-play games with a ply cap: do games end, how long are they, do positions repeat.
    Research(research::ResearchArgs),
    /// Play a game in the terminal: two people, against the AI, or watch the AI (docs/PLAY.md).
    Play(play::PlayArgs),
    /// Self-play games in parallel and a designer's report: win rates, lengths, rules fired.
    Stats(stats::StatsArgs),
}

impl GameCommand {
    /// The game the command is about: its game argument, or its position's first word.
    fn game(&self) -> Result<GameId, CliError> {
        let found = match self {
            GameCommand::New { game, .. } | GameCommand::Bench { game, .. } => game.parse(),
            GameCommand::Arena(args) => args.game.parse(),
            GameCommand::Research(args) => args.game.parse(),
            GameCommand::Book(args) => args.game.parse(),
            GameCommand::Train(args) => args.game.parse(),
            GameCommand::Play(args) => args.game.parse(),
            GameCommand::Stats(args) => args.game.parse(),
            GameCommand::Moves { position }
            | GameCommand::Apply { position, .. }
            | GameCommand::Perft { position, .. }
            | GameCommand::Count { position }
            | GameCommand::Show { position, .. } => GameId::of_position(position),
            GameCommand::Analyze(args) => GameId::of_position(&args.position),
            GameCommand::Solve(args) => GameId::of_position(&args.position),
        };
        found.map_err(|e| CliError::bad(e.to_string()))
    }
}

/// A game command run for its game.
struct RunGame<'a> {
    command: GameCommand,
    out: &'a mut Output,
}

impl GameFn for RunGame<'_> {
    type Output = CliResult;

    fn call<G: Playable>(self) -> CliResult {
        let out = self.out;
        match self.command {
            GameCommand::New { size, .. } => commands::new::<G>(size, out),
            GameCommand::Moves { position } => commands::moves::<G>(&position, out),
            GameCommand::Apply { position, moves } => commands::apply::<G>(&position, &moves, out),
            GameCommand::Perft { position, depth } => {
                commands::perft_cmd::<G>(&position, depth, out)
            }
            GameCommand::Count { position } => commands::count::<G>(&position, out),
            GameCommand::Show {
                position,
                svg,
                force,
            } => commands::show::<G>(&position, svg.as_deref(), force, out),
            GameCommand::Arena(args) => arena::arena::<G>(&args, out),
            GameCommand::Analyze(args) => analyze::analyze::<G>(&args, out),
            GameCommand::Bench {
                size,
                seconds,
                seed,
                max_plies,
                branching,
                search: false,
                ..
            } => commands::bench::<G>(size, seconds, seed, max_plies, branching, out),
            GameCommand::Bench {
                size,
                seconds,
                seed,
                search: true,
                ..
            } => commands::bench_search::<G>(size, seconds, seed, out),
            GameCommand::Solve(args) => solve::solve::<G>(&args, out),
            GameCommand::Research(args) => research::research::<G>(&args, out),
            GameCommand::Book(args) => book::book::<G>(&args, out),
            GameCommand::Train(args) => train::train::<G>(&args, out),
            GameCommand::Play(args) => play::play::<G>(&args, out),
            GameCommand::Stats(args) => stats::stats::<G>(&args, out),
        }
    }
}

fn run(command: Command, out: &mut Output) -> CliResult {
    match command {
        Command::Demo => demo::demo(out),
        Command::Rules { game } => rules::rules(&game, out),
        Command::Game(command) => command.game()?.run(RunGame { command, out }),
        Command::Engine => engine::engine(),
        Command::Swap61(args) => swap61::run(args, out),
        Command::Replay(args) => replay::replay(&args, out),
        Command::Serve(options) => {
            swapboard_server::serve(*options).map_err(error::CliError::Failure)
        }
        Command::AiWorker(options) => {
            swapboard_server::ai_worker::run(&options).map_err(error::CliError::Failure)
        }
        Command::Bot(args) => bot::bot(&args, out),
        Command::Loadtest(options) => {
            swapboard_loadtest::loadtest(options).map_err(error::CliError::Failure)
        }
        Command::Backup(options) => {
            swapboard_server::backup(options).map_err(error::CliError::Failure)
        }
        Command::Restore(options) => {
            swapboard_server::restore(options).map_err(error::CliError::Failure)
        }
        Command::Migrate(database) => {
            let done = swapboard_server::migrate(database).map_err(error::CliError::Failure)?;
            out.line(done)?;
            out.flush()
        }
        Command::Admin(AdminCommand::Accounts(act)) => {
            let done = swapboard_server::administer(act).map_err(error::CliError::Failure)?;
            out.line(done)?;
            out.flush()
        }
        Command::Admin(AdminCommand::Rerate(options)) => {
            swapboard_server::rerate(options).map_err(error::CliError::Failure)
        }
        Command::Puzzles(command) => puzzles::run(command, out),
    }
}

/// A command line clap refuses: help and version print as clap writes them; a usage error
/// becomes the contract's one message on stderr (clap's first line, its hints dropped) and
/// exit 2.
fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(if e.use_stderr() { 2 } else { 0 })
        }
        _ => {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or_default();
            let first = first.strip_prefix("error: ").unwrap_or(first);
            eprintln!("swapboard: {}", files::printable_message(first));
            ExitCode::from(2)
        }
    }
}

/// Why a command line was refused: clap's reason, or the `--config` file's.
enum Refusal {
    Usage(clap::Error),
    Config(anyhow::Error),
}

/// Parses the command line; for `serve --config FILE` (or `SWAPBOARD_CONFIG`) the file's keys
/// become the defaults of the options they name, so that the command line and the
/// environment come before the file.
fn parse(args: &[OsString]) -> Result<Cli, Refusal> {
    let mut command = Cli::command();
    // A first reading, lenient, finds the file: the file may hold what the command line
    // lacks (an option that another one requires).
    let config = command
        .clone()
        .ignore_errors(true)
        .try_get_matches_from(args)
        .ok()
        .and_then(|matches| {
            let serve = matches.subcommand_matches("serve")?;
            serve
                .try_get_one::<PathBuf>("config")
                .ok()
                .flatten()
                .cloned()
        });
    if let (Some(path), Some(serve)) = (config, command.find_subcommand("serve")) {
        let serve =
            swapboard_server::with_config_file(serve.clone(), &path).map_err(Refusal::Config)?;
        command = command.mut_subcommand("serve", |_| serve);
    }
    let mut matches = command.try_get_matches_from(args).map_err(Refusal::Usage)?;
    Cli::from_arg_matches_mut(&mut matches).map_err(Refusal::Usage)
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    let cli = match parse(&args) {
        Ok(cli) => cli,
        Err(Refusal::Usage(e)) => return usage_error(&e),
        Err(Refusal::Config(e)) => {
            eprintln!("swapboard: {}", files::printable_message(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    let mut out = Output::stdout();
    match run(cli.command, &mut out).and_then(|()| out.finish()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("swapboard: {}", files::printable_message(&e.to_string()));
            e.exit_code()
        }
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use clap::{CommandFactory as _, Parser as _};

    use super::{Cli, Command, Refusal, parse};

    /// deploy/'s unit starts a command line this binary takes, and its environment file sets
    /// only variables that an option of `swapboard serve` reads (a misspelt one would be
    /// ignored without a word).
    #[test]
    fn the_deploy_files_speak_this_commands_options() {
        let unit = include_str!("../../../deploy/swapboard@.service");
        let exec = unit
            .lines()
            .find_map(|line| line.strip_prefix("ExecStart="))
            .expect("an ExecStart line");
        let mut argv: Vec<String> = exec
            .replace("%i", "8081")
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        argv[0] = "swapboard".to_owned();
        if let Err(e) = Cli::try_parse_from(&argv) {
            panic!("{exec}: {e}");
        }
        let command = Cli::command();
        let serve = command.find_subcommand("serve").expect("serve");
        let known: Vec<String> = serve
            .get_arguments()
            .filter_map(|arg| arg.get_env())
            .map(|name| name.to_string_lossy().into_owned())
            .collect();
        let settings = include_str!("../../../deploy/swapboard.env");
        let mut set = 0;
        for line in settings.lines() {
            let Some((name, _)) = line.trim_start_matches('#').split_once('=') else {
                continue;
            };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                continue;
            }
            set += 1;
            // DATABASE_URL is read where --database is not given (the convention of sqlx).
            assert!(
                name == "DATABASE_URL" || known.iter().any(|known| known == name),
                "{name} is no variable of `swapboard serve`"
            );
        }
        assert!(set >= 2, "{set} variables in swapboard.env");
        // Every option has its variable.
        for arg in serve.get_arguments() {
            assert!(
                arg.get_env().is_some(),
                "--{:?} has no variable",
                arg.get_long()
            );
        }
    }

    /// deploy/swapboard.toml, read as `swapboard serve --config` reads it: every key it sets
    /// or shows commented out is an option, with a value the option takes; the command line
    /// comes before it.
    #[test]
    fn the_example_config_file_is_read_by_the_real_options() {
        let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/swapboard.toml");
        let serve = |config: &str, more: &[&str]| {
            let mut args: Vec<OsString> = ["swapboard", "serve", "--config", config]
                .map(OsString::from)
                .to_vec();
            args.extend(more.iter().map(OsString::from));
            match parse(&args) {
                Ok(Cli {
                    command: Command::Serve(options),
                }) => *options,
                Ok(_) => panic!("not serve"),
                Err(Refusal::Usage(e)) => panic!("{config}: {e}"),
                Err(Refusal::Config(e)) => panic!("{e}"),
            }
        };
        let options = serve(example, &["--log", "debug"]);
        assert!(options.behind_tls);
        assert_eq!(options.db_connections, 16);
        assert_eq!(options.log.to_string(), "DEBUG");
        assert_eq!(options.limits, swapboard_server::Limits::default());
        // The commented keys too, uncommented.
        let text = std::fs::read_to_string(example).unwrap();
        let mut uncommented = String::new();
        for line in text.lines() {
            let key = line.strip_prefix('#').filter(|rest| {
                rest.split_once(" = ")
                    .is_some_and(|(key, _)| key.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
            });
            uncommented.push_str(key.unwrap_or(line));
            uncommented.push('\n');
        }
        assert!(uncommented.lines().count() > 40);
        let all = swapboard_testkit::TempFile::new("example", "toml", &uncommented);
        let options = serve(all.text_path(), &[]);
        assert_eq!(options.addr.port(), 8080);
        assert_eq!(options.sqlite_max_mib, Some(4096));
        assert!(options.public_url.is_some());
    }
}
