//! The position-based commands of the contract (`new`, `moves`, `apply`, `perft`) and the
//! tools built on them (`show`, `bench`), generic over the game.

use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_ai::{Budget, Config, Mcts};
use swapboard_core::{Game, Outcome, Stepwise, perft};

use crate::error::{CliError, CliResult};
use crate::files::Destination;
use crate::output::Output;
pub(crate) use swapboard_play::words::result_line;

/// Reads a position text, naming it in the error.
pub(crate) fn parse_position<G: Game>(text: &str) -> Result<G, CliError> {
    text.parse::<G>()
        .map_err(|e| CliError::bad(format!("position '{text}': {e}")))
}

/// The start position of a game on a board of `size` (or the game's default).
pub(crate) fn start<G: Game>(size: Option<usize>) -> Result<G, CliError> {
    let size = size.unwrap_or(G::DEFAULT_SIZE);
    G::start(size).map_err(|e| CliError::bad(format!("{} --size {size}: {e}", G::ID)))
}

/// `swapboard new <game> [--size N]`.
pub(crate) fn new<G: Game>(size: Option<usize>, out: &mut Output) -> CliResult {
    let pos = start::<G>(size)?;
    out.line(&pos)
}

/// `swapboard moves '<position>'`: each legal move once, one per line.
pub(crate) fn moves<G: Game>(text: &str, out: &mut Output) -> CliResult {
    let pos = parse_position::<G>(text)?;
    let mut result = Ok(());
    let _ = pos.for_each_move(|m| match out.line(&m) {
        Ok(()) => ControlFlow::Continue(()),
        Err(e) => {
            result = Err(e);
            ControlFlow::Break(())
        }
    });
    result
}

/// Plays moves given as text, in order, from `pos`; the error names the move and its place.
pub(crate) fn play_all<G: Game>(mut pos: G, moves: &[String]) -> Result<G, CliError> {
    for (i, text) in moves.iter().enumerate() {
        pos.play_text(text).map_err(|e| {
            let place = if moves.len() > 1 {
                format!(" (move {} of {})", i + 1, moves.len())
            } else {
                String::new()
            };
            CliError::bad(format!("{e}{place}"))
        })?;
    }
    Ok(pos)
}

/// `swapboard apply '<position>' MOVE...`.
pub(crate) fn apply<G: Game>(text: &str, moves: &[String], out: &mut Output) -> CliResult {
    let pos = play_all(parse_position::<G>(text)?, moves)?;
    out.line(&pos)?;
    out.line(result_line(&pos))
}

/// `swapboard perft '<position>' DEPTH`.
pub(crate) fn perft_cmd<G: Game>(text: &str, depth: u32, out: &mut Output) -> CliResult {
    let pos = parse_position::<G>(text)?;
    out.line(perft(&pos, depth))
}

/// `swapboard count '<position>'`: the number of legal moves, counted without listing them
/// where the game can (`Game::move_count`).
pub(crate) fn count<G: Game>(text: &str, out: &mut Output) -> CliResult {
    let pos = parse_position::<G>(text)?;
    out.line(pos.move_count())
}

/// `swapboard show '<position>' [--svg FILE]`; `--svg -` writes only the SVG, to stdout.
pub(crate) fn show<G: Game>(
    text: &str,
    svg: Option<&Path>,
    force: bool,
    out: &mut Output,
) -> CliResult {
    let pos = parse_position::<G>(text)?;
    let svg = svg
        .map(|path| Destination::open("--svg", path, force))
        .transpose()?;
    let view = pos.view();
    if let Some(svg) = svg
        && out.svg(svg, &swapboard_render::svg(&view))?
    {
        return Ok(());
    }
    out.text(swapboard_render::text(&view))
}

/// `swapboard bench <game>`: random games from the start on one core for `seconds`.
///
/// A random ply is [`Game::random_move`] then [`Game::play_unchecked`]; the figures are
/// what the engine sustains in playouts.
/// With `branching`, the legal moves of every position met are counted too
/// ([`Game::move_count`]) and their average is reported.
pub(crate) fn bench<G: Game>(
    size: Option<usize>,
    seconds: f64,
    seed: u64,
    max_plies: u64,
    branching: bool,
    out: &mut Output,
) -> CliResult {
    let start_pos = start::<G>(size)?;
    let budget = Duration::from_secs_f64(seconds.max(0.01));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut games, mut plies, mut first_wins, mut draws) = (0u64, 0u64, 0u64, 0u64);
    let mut legal_moves = 0f64;
    let mut capped = 0u64;
    let began = Instant::now();
    while began.elapsed() < budget {
        // Check the clock once per batch of games: a call to Instant::now per ply would be
        // a measurable part of the ply.
        for _ in 0..16 {
            let mut pos = start_pos.clone();
            let mut game_plies = 0;
            while game_plies < max_plies {
                let Some(mv) = pos.random_move(&mut rng) else {
                    break;
                };
                if branching {
                    legal_moves += pos.move_count() as f64;
                }
                pos.play_unchecked(&mv);
                game_plies += 1;
            }
            plies += game_plies;
            games += 1;
            if !pos.is_over() {
                capped += 1;
            }
            match pos.outcome() {
                Some(Outcome::Win(p)) if p.index() == 0 => first_wins += 1,
                Some(Outcome::Draw) => draws += 1,
                _ => {}
            }
        }
    }
    let secs = began.elapsed().as_secs_f64();
    out.line(game_line(&start_pos))?;
    out.line(format!(
        "games: {games} in {secs:.2} s ({:.0} games/s)",
        games as f64 / secs
    ))?;
    out.line(format!(
        "plies: {plies} ({:.0} plies/s, {:.1} per game)",
        plies as f64 / secs,
        plies as f64 / games as f64
    ))?;
    if capped > 0 {
        out.line(format!(
            "capped at {max_plies} plies (no result): {capped} games"
        ))?;
    }
    if branching {
        out.line(format!(
            "legal moves per position: {:.1} on average",
            legal_moves / plies as f64
        ))?;
    }
    out.line(format!(
        "first player wins: {:.1}%, draws: {:.1}%",
        100.0 * first_wins as f64 / games as f64,
        100.0 * draws as f64 / games as f64
    ))
}

/// The first line of a bench report: the game and its board.
fn game_line<G: Game>(position: &G) -> String {
    let n = position.size();
    format!("game: {} {n}x{n}", G::ID)
}

/// `swapboard bench <game> --search`: the AI's search from the start position for
/// `seconds` (default configuration, one thread, seeded), as iterations per second: the
/// figure `docs/PERFORMANCE.md` sets targets for.
pub(crate) fn bench_search<G: Stepwise>(
    size: Option<usize>,
    seconds: f64,
    seed: u64,
    out: &mut Output,
) -> CliResult {
    let start_pos = start::<G>(size)?;
    let budget = Budget::time(Duration::from_secs_f64(seconds.max(0.01)));
    let mut search = Mcts::new(
        start_pos.clone(),
        Config {
            seed,
            ..Config::default()
        },
    );
    let analysis = search.think(&budget);
    let secs = analysis.elapsed.as_secs_f64();
    out.line(game_line(&start_pos))?;
    out.line(format!(
        "iterations: {} in {secs:.2} s ({:.0} iterations/s, one thread)",
        analysis.iterations,
        analysis.iterations_per_second()
    ))?;
    out.line(format!("tree: {} nodes", analysis.nodes))?;
    match analysis.best() {
        Some(line) => out.line(format!(
            "best move: {} ({} visits, {:.1}% for {})",
            line.mv,
            line.visits,
            100.0 * line.win_rate,
            analysis.player
        )),
        None => out.line("best move: none (the game is over)"),
    }
}
