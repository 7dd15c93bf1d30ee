//! `swapboard research <game>`: many self-play games with a ply cap, to see whether a
//! game's games end, how long they last and whether positions repeat.
//!
//! Every position of every game is recorded in a [`History`]; a game stopped by the cap is
//! reported as *capped*, never as a result of the rules.

use swapboard_arena::{Bot, PlayerSpec};
use swapboard_core::{History, Outcome, Player, Stepwise};

use crate::commands::start;
use crate::error::{CliError, CliResult};
use crate::files::quote;
use crate::limits;
use crate::output::Output;

/// The arguments of `swapboard research`.
#[derive(clap::Args)]
pub(crate) struct ResearchArgs {
    /// The game (rapid-transit, ...).
    pub(crate) game: String,
    /// The board side (default: the game's own).
    #[arg(long)]
    size: Option<usize>,
    /// The number of games.
    #[arg(long, default_value_t = 1_000, value_parser = limits::games)]
    games: u64,
    /// Stop a game after this many plies and count it as capped.
    #[arg(long, default_value_t = 1_000, value_parser = limits::plies)]
    cap: u64,
    /// The seed (games are reproducible from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Who plays both sides: a player spec of `arena` (`random`, `greedy`, `mcts:iters=N`,
    /// `mcts:level=K`, `classic:ms=T`, ...; `mcts:N` is read as `mcts:iters=N`).
    #[arg(long, visible_alias = "player", default_value = "random")]
    players: String,
}

/// Who plays both sides: any player spec of `arena` (`random`, `mcts:iters=N`,
/// `classic:ms=T`, ...); `mcts:N` is read as `mcts:iters=N`, for old scripts.
fn players(spec: &str) -> Result<PlayerSpec, CliError> {
    let spelled = match spec.strip_prefix("mcts:") {
        Some(n) if n.parse::<u64>().is_ok() => format!("mcts:iters={n}"),
        _ => spec.to_string(),
    };
    spelled
        .parse()
        .map_err(|e| CliError::bad(format!("--players {}: {e}", quote(spec))))
}

/// What one game did.
struct GameReport {
    plies: u64,
    outcome: Option<Outcome>,
    repeats: usize,
    first_repeat: Option<(usize, usize)>,
}

fn play<G: Stepwise>(
    start_pos: &G,
    players: &PlayerSpec,
    cap: u64,
    seed: u64,
    history: &mut History,
) -> GameReport {
    history.clear();
    let mut pos = start_pos.clone();
    history.record(pos.zobrist());
    // One bot plays both sides, so a search keeps its tree across both players' moves.
    let mut bot = Bot::new(*players, start_pos, seed);
    let mut plies = 0;
    while plies < cap && !pos.is_over() {
        let Some(mv) = bot.choose(&pos) else { break };
        // The bot's own move is legal; a refusal would be a bug worth seeing.
        bot.observe(&mv).expect("the bot plays legal moves");
        pos.play_unchecked(&mv);
        plies += 1;
        history.record(pos.zobrist());
    }
    GameReport {
        plies,
        outcome: pos.outcome(),
        repeats: history.repeats(),
        first_repeat: history.first_repeat().map(|r| (r.ply, r.cycle_length())),
    }
}

fn summary(values: &mut [u64]) -> String {
    if values.is_empty() {
        return "-".to_string();
    }
    values.sort_unstable();
    let mean = values.iter().sum::<u64>() as f64 / values.len() as f64;
    format!(
        "min {}, median {}, mean {mean:.1}, max {}",
        values[0],
        values[values.len() / 2],
        values[values.len() - 1]
    )
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// Runs the games described by `args` on game `G` and prints what they did.
pub(crate) fn research<G: Stepwise>(args: &ResearchArgs, out: &mut Output) -> CliResult {
    let start_pos = start::<G>(args.size)?;
    let players = players(&args.players)?;
    let mut history = History::new();
    let (mut ended_lengths, mut capped, mut with_repeats, mut repeats) =
        (Vec::new(), 0u64, 0u64, 0u64);
    let (mut first_repeat_plies, mut cycle_lengths) = (Vec::new(), Vec::new());
    let mut wins = [0u64; 2];
    let mut draws = 0u64;
    for game in 0..args.games {
        let report = play(
            &start_pos,
            &players,
            args.cap,
            args.seed.wrapping_add(game),
            &mut history,
        );
        match report.outcome {
            Some(outcome) => {
                ended_lengths.push(report.plies);
                match outcome {
                    Outcome::Win(p) => wins[p.index()] += 1,
                    Outcome::Draw => draws += 1,
                }
            }
            None => capped += 1,
        }
        if let Some((ply, cycle)) = report.first_repeat {
            with_repeats += 1;
            first_repeat_plies.push(ply as u64);
            cycle_lengths.push(cycle as u64);
        }
        repeats += report.repeats as u64;
    }
    let games = args.games;
    let ended = ended_lengths.len() as u64;
    let n = start_pos.size();
    out.line(format!(
        "game: {} {n}x{n}; {games} games; players: {}; ply cap {}; seed {}",
        G::ID,
        args.players,
        args.cap,
        args.seed
    ))?;
    out.line(format!(
        "ended by the rules: {ended} ({:.1}%); capped (no result): {capped} ({:.1}%)",
        percent(ended, games),
        percent(capped, games)
    ))?;
    out.line(format!(
        "plies of ended games: {}",
        summary(&mut ended_lengths)
    ))?;
    out.line(format!(
        "games with a repeated position: {with_repeats} ({:.1}%); repeated positions in all: {repeats}",
        percent(with_repeats, games)
    ))?;
    out.line(format!(
        "ply of the first repeat: {}",
        summary(&mut first_repeat_plies)
    ))?;
    out.line(format!(
        "length of the first cycle (plies): {}",
        summary(&mut cycle_lengths)
    ))?;
    out.line(format!(
        "results of ended games: {} {:.1}%, {} {:.1}%, draws {:.1}%",
        G::colour_name(Player::First),
        percent(wins[0], ended),
        G::colour_name(Player::Second),
        percent(wins[1], ended),
        percent(draws, ended)
    ))
}
