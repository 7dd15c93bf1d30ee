//! `swapboard analyze`: the best moves of a position with their visits, win rates and
//! principal variations, redrawn while the search thinks.

use std::io::{IsTerminal, Write};
use std::time::Duration;
use swapboard_play::words::outcome_text;

use swapboard_ai::{Analysis, Budget, Config, Mcts};
use swapboard_core::{Game, Outcome, Stepwise};

use crate::commands::parse_position;
use crate::error::CliResult;
use crate::limits;
use crate::output::Output;

/// How often the live table is redrawn.
const REDRAW: Duration = Duration::from_millis(500);

/// The arguments of `swapboard analyze`.
#[derive(clap::Args)]
pub(crate) struct AnalyzeArgs {
    /// The position, like 'swaptimum ...../...../...../...../..... R' (the format:
    /// docs/CONTRACT.md; `swapboard new GAME` prints a start position).
    pub(crate) position: String,
    /// How long to think.
    #[arg(long, default_value_t = 5.0, value_parser = limits::seconds)]
    seconds: f64,
    /// Stop after this many iterations instead (reproducible with one thread).
    #[arg(long, value_parser = limits::positive)]
    iterations: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = limits::threads)]
    threads: usize,
    /// The random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The number of moves shown.
    #[arg(long, default_value_t = 8, value_parser = limits::lines)]
    lines: usize,
}

/// Analyses the position of `args`, a position of `G`.
pub(crate) fn analyze<G: Stepwise>(args: &AnalyzeArgs, out: &mut Output) -> CliResult {
    let pos = parse_position::<G>(&args.position)?;
    let budget = match args.iterations {
        Some(n) => Budget::iterations(n),
        None => Budget::time(Duration::from_secs_f64(args.seconds)),
    };
    let config = Config {
        threads: args.threads,
        ..Config::for_game::<G>(args.seed)
    };
    let mut search = Mcts::new(pos.clone(), config);
    let live = std::io::stderr().is_terminal();
    let mut drawn = 0;
    let analysis = search.think_with(&budget, REDRAW, |snapshot| {
        if live {
            let table = table::<G>(&pos, snapshot, args.lines);
            let mut err = std::io::stderr().lock();
            // Back up over the last drawing and clear it, then draw anew.
            if drawn > 0 {
                let _ = write!(err, "\x1b[{drawn}A\x1b[J");
            }
            let _ = write!(err, "{table}");
            drawn = table.lines().count();
        }
    });
    if drawn > 0 {
        let _ = write!(std::io::stderr(), "\x1b[{drawn}A\x1b[J");
    }
    out.text(table::<G>(&pos, &analysis, args.lines))
}

/// The analysis as a table: a header line, then one line per move.
pub(crate) fn table<G: Game>(pos: &G, analysis: &Analysis<G::Move>, lines: usize) -> String {
    let mut text = format!(
        "{} iterations in {:.1} s ({:.0}/s), {} nodes",
        analysis.iterations,
        analysis.elapsed.as_secs_f64(),
        analysis.iterations_per_second(),
        analysis.nodes
    );
    if let Some(outcome) = analysis.proven {
        text += &format!(", proven: {}", outcome_text::<G>(outcome));
    }
    text.push('\n');
    if let Some(outcome) = pos.outcome() {
        text += &format!("the game is over: {}\n", outcome_text::<G>(outcome));
        return text;
    }
    text += &format!("{:<16} {:>9} {:>7}  pv\n", "move", "visits", "win");
    for line in analysis.lines.iter().take(lines) {
        let win = match line.proven {
            Some(Outcome::Win(p)) if p == analysis.player => "won".to_string(),
            Some(Outcome::Win(_)) => "lost".to_string(),
            Some(Outcome::Draw) => "draw".to_string(),
            None => format!("{:.1}%", 100.0 * line.win_rate),
        };
        let pv: Vec<String> = line.pv.iter().map(ToString::to_string).collect();
        text += &format!(
            "{:<16} {:>9} {:>7}  {}\n",
            line.mv.to_string(),
            line.visits,
            win,
            pv.join(" ")
        );
    }
    text
}
