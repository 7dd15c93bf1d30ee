//! `swapboard solve`: proves who wins a position with perfect play (df-pn with a
//! transposition table and the board's symmetries, from `swapboard-solver`).

use std::time::{Duration, Instant};
use swapboard_play::words::outcome_text;

use swapboard_core::{Game, Outcome, Player};
use swapboard_solver::{MoveResult, Options, Progress, Solution, Solver};

use crate::commands::parse_position;
use crate::error::CliResult;
use crate::limits;
use crate::output::{Output, Ticker};

/// The arguments of `swapboard solve`.
#[derive(clap::Args)]
pub(crate) struct SolveArgs {
    /// The position, like 'swaptimum ...../...../...../...../..... R' (the format:
    /// docs/CONTRACT.md; `swapboard new GAME` prints a start position).
    pub(crate) position: String,
    /// Give up after this many nodes (positions expanded) and say the result is unknown.
    #[arg(long, value_parser = limits::positive)]
    max_nodes: Option<u64>,
    /// Give up after this many seconds and say the result is unknown.
    #[arg(long, value_parser = limits::seconds)]
    seconds: Option<f64>,
    /// The memory of the transposition table, in MiB.
    #[arg(long, default_value_t = 256, value_parser = limits::table_mb)]
    table_mb: usize,
    /// Do not merge a position with its images under the board's symmetries.
    #[arg(long)]
    no_symmetries: bool,
    /// Start every new position from 1 and 1 rather than from the players' distances to a
    /// win (to measure what that knowledge saves).
    #[arg(long)]
    no_distances: bool,
    /// Also print what is known of every legal move.
    #[arg(long)]
    moves: bool,
    /// Solve the position after each legal move instead, one line per move (moves that
    /// lead to symmetric positions are solved once); the limits apply to each.
    #[arg(long)]
    each: bool,
}

/// A player as its colour letter and name: `R (Red)`.
fn named<G: Game>(p: Player) -> String {
    format!("{} ({})", G::colour_letter(p), G::colour_name(p))
}

/// The result in words.
fn winner_line<G: Game>(solution: &Solution<G::Move>) -> String {
    match (solution.outcome, solution.stopped) {
        (Some(Outcome::Win(p)), _) => format!("winner: {}", named::<G>(p)),
        (Some(Outcome::Draw), _) => "winner: none, a draw".to_string(),
        (None, Some(stop)) => format!("winner: unknown within the limit ({stop})"),
        (None, None) => "winner: unknown".to_string(),
    }
}

/// What the best move does.
fn move_line<G: Game>(pos: &G, solution: &Solution<G::Move>) -> Option<String> {
    let mv = solution.best_move.as_ref()?;
    let why = match solution.outcome? {
        Outcome::Win(p) if p == solution.player => "wins",
        Outcome::Win(_) => "every move loses; this one took the most search to refute",
        Outcome::Draw => "draws",
    };
    let _ = pos;
    Some(format!("move: {mv} ({why})"))
}

/// Runs a solver on `pos`, telling its progress on stderr.
fn run_solver<G: Game>(solver: &mut Solver<G>, pos: &G) -> Solution<G::Move> {
    let mut ticker = Ticker::new();
    solver.solve(pos, &mut |p: &Progress| {
        ticker.tell(|| {
            let infinite = |n: u32| {
                if n == u32::MAX {
                    "inf".to_string()
                } else {
                    n.to_string()
                }
            };
            format!(
                "{} nodes ({:.0}/s), proving {} wins: proof {} disproof {}, table {:.0}% full",
                p.nodes,
                p.nodes as f64 / p.elapsed.as_secs_f64().max(1e-9),
                G::colour_letter(p.goal),
                infinite(p.proof),
                infinite(p.disproof),
                100.0 * p.table_used as f64 / p.table_capacity as f64
            )
        })
    })
}

/// `swapboard solve '<position>'`, for a position of `G`.
pub(crate) fn solve<G: Game>(args: &SolveArgs, out: &mut Output) -> CliResult {
    let pos = parse_position::<G>(&args.position)?;
    // The parsers bounded the time (finite, at most a week), so the duration cannot overflow.
    let time = args.seconds.map(Duration::from_secs_f64);
    let options = Options {
        table_bytes: args.table_mb.saturating_mul(1 << 20),
        symmetries: !args.no_symmetries,
        distances: !args.no_distances,
        max_nodes: args.max_nodes,
        time,
        ..Options::default()
    };
    let mut solver = Solver::new(options);
    if args.each {
        return solve_each(&mut solver, &pos, out);
    }
    let solution = run_solver(&mut solver, &pos);
    if let Some(outcome) = pos.outcome() {
        out.line(format!("the game is over: {}", outcome_text::<G>(outcome)))?;
    }
    out.line(winner_line::<G>(&solution))?;
    if let Some(line) = move_line(&pos, &solution) {
        out.line(line)?;
    }
    out.line(format!("nodes: {}", solution.nodes))?;
    out.line(format!("time: {:.2} s", solution.elapsed.as_secs_f64()))?;
    if args.moves {
        for (mv, result) in &solution.moves {
            let what = match result {
                MoveResult::Wins => "wins",
                MoveResult::DoesNotWin => "does not win",
                MoveResult::Open => "unknown",
            };
            out.line(format!("move {mv}: {what}"))?;
        }
    }
    Ok(())
}

/// `--each`: one line per legal move, with the result of the position it leads to.
fn solve_each<G: Game>(solver: &mut Solver<G>, pos: &G, out: &mut Output) -> CliResult {
    let mut solved: Vec<(u64, String)> = Vec::new();
    let (mut nodes, started) = (0u64, Instant::now());
    for mv in pos.legal_moves() {
        let mut next = pos.clone();
        next.play_unchecked(&mv);
        let class = next.canonical_hash();
        if let Some((_, first)) = solved.iter().find(|(c, _)| *c == class) {
            out.line(format!("{mv}: as {first} (a symmetric position)"))?;
            continue;
        }
        let solution = run_solver(solver, &next);
        nodes += solution.nodes;
        let result = winner_line::<G>(&solution);
        out.line(format!(
            "{mv}: {}, {} nodes, {:.2} s",
            result.trim_start_matches("winner: "),
            solution.nodes,
            solution.elapsed.as_secs_f64()
        ))?;
        solved.push((class, mv.to_string()));
    }
    out.line(format!("nodes: {nodes}"))?;
    out.line(format!("time: {:.2} s", started.elapsed().as_secs_f64()))
}
