//! `swapboard demo`: a short scripted tour of the five games, the AI and a Swap 61 game,
//! the first thing to run on a fresh machine. Every move is played through the rules engine and every board drawn by the
//! renderer, so the tour is also a smoke test of the whole chain.

use swapboard_ai::{Budget, Config, Mcts};
use swapboard_core::Game;
use swapboard_swaptimum::Swaptimum;

use crate::analyze::table as analysis_table;
use crate::commands::{play_all, result_line};
use crate::error::{CliError, CliResult};
use crate::output::Output;
use crate::swap61::simulate as swap61_simulate;

/// One scripted scene: a position from a rule sheet, what happens, and the moves that show it.
struct Scene {
    caption: &'static str,
    position: &'static str,
    moves: &'static [&'static str],
}

const SWAPTIMUM: &[Scene] = &[
    Scene {
        caption: "Swaptimum, the sheet's Figure 4: the only empty cell, c4, would give Blue a crosscut \
                  that no swap can kill without forming a new one, so Blue's turn is skipped.",
        position: "swaptimum BRRRBR/RRBRBB/BB.RRR/BRRBBB/BBRBRR/RBRBRB B",
        moves: &["pass"],
    },
    Scene {
        caption: "Red places on c4, forming a crosscut, and kills it by swapping c5 and c6: \
                  the swap completes Red's path and wins.",
        position: "swaptimum BRRRBR/RRBRBB/BB.RRR/BRRBBB/BBRBRR/RBRBRB R",
        moves: &["c4:c5-c6"],
    },
];

const FLIPSTOP: &[Scene] = &[Scene {
    caption: "Flipstop, the sheet's Figure 3: Red's c3 forms the crosscut c3-d4. Blue c4 is \
              replaced by a red checker; blue d3 is not, since replacing it would form a new crosscut.",
    position: "flipstop ...../..BR./...BB/...BR/..... R",
    moves: &["c3"],
}];

const SCWARE: &[Scene] = &[Scene {
    caption: "Scware, Christian Freeling's game on the Symple move protocol: each player starts \
              groups, one stone each; then White grows both of its groups at once, a stone \
              beside each.",
    position: SCWARE_START,
    moves: &["a1", "e5", "a5", "e1", "a2,a4"],
}];

/// The 5x5 Scware start position.
const SCWARE_START: &str = "scware ...../...../...../...../..... W -";

const RAPID_TRANSIT: &[Scene] = &[Scene {
    caption: "Rapid Transit, Phil Leduc's game: the board starts full, and each move swaps one \
              of the mover's terminal pieces with an enemy piece of an adjacent network.",
    position: "rapid-transit CRCRCRCR/RCRCRCRC/CRCRCRCR/RCRCRCRC/CRCRCRCR/RCRCRCRC/CRCRCRCR/RCRCRCRC R 0 -",
    moves: &[RAPID_TRANSIT_MOVE],
}];

/// A legal first move of Rapid Transit.
const RAPID_TRANSIT_MOVE: &str = "c1-d1";

fn play_scenes<G: Game>(scenes: &[Scene], out: &mut Output) -> CliResult {
    for scene in scenes {
        let before: G = scene
            .position
            .parse()
            .map_err(|e| CliError::bad(format!("demo position: {e}")))?;
        let moves: Vec<String> = scene.moves.iter().map(ToString::to_string).collect();
        let after = play_all(before.clone(), &moves)?;
        out.line(format!("== {}", scene.caption))?;
        out.text(swapboard_render::text(&before.view()))?;
        out.line(format!("-> {}", moves.join(" ")))?;
        out.text(swapboard_render::text(&after.view()))?;
        out.line(format!("{after}\n{}\n", result_line(&after)))?;
    }
    Ok(())
}

/// The position the AI thinks about: a 5x5 Swaptimum game under way.
const AI_POSITION: &str = "swaptimum ...../..B../.RR../..B../..... B";
/// The AI's iterations in the demo: enough to be sure of its choice, a fraction of a
/// second, and fixed so the tour prints the same every time.
const AI_ITERATIONS: u64 = 20_000;

/// The AI thinks about a position and plays its choice.
fn ai_scene(out: &mut Output) -> CliResult {
    let pos: Swaptimum = AI_POSITION
        .parse()
        .map_err(|e| CliError::bad(format!("demo position: {e}")))?;
    out.line(
        "== The AI (Monte Carlo tree search with RAVE and a solver) thinks about a Swaptimum \
         position: its best moves, how often it tried each, its winning chances and the \
         line it expects.",
    )?;
    out.text(swapboard_render::text(&pos.view()))?;
    let config = Config::for_game::<Swaptimum>(1);
    let mut search = Mcts::new(pos.clone(), config);
    let analysis = search.think(&Budget::iterations(AI_ITERATIONS));
    out.text(analysis_table(&pos, &analysis, 4))?;
    let Some(best) = analysis.best() else {
        return Ok(());
    };
    let after = play_all(pos, &[best.mv.to_string()])?;
    out.line(format!("-> the AI plays {}", best.mv))?;
    out.text(swapboard_render::text(&after.view()))?;
    out.line("")
}

/// What to run after the tour.
const NEXT_STEPS: &str = "== What to try next
  swapboard play swaptimum --ai 5              play the AI (levels 1-9) in the terminal
  swapboard play scware --as none --ai 3       watch the AI play itself
  swapboard analyze 'swaptimum ...../...../...../...../..... R' --seconds 3
  swapboard stats flipstop --games 200 --plot flipstop.svg   self-play statistics
  swapboard swap61 new --help                  run a Swap 61 game as its game master
  swapboard serve                              the game server: http://127.0.0.1:8080
  Formats and commands: docs/CONTRACT.md; playing: docs/PLAY.md; the server: docs/API.md";

/// Runs the tour: the five games, the AI thinking, a Swap 61 game, and what to try next.
pub(crate) fn demo(out: &mut Output) -> CliResult {
    play_scenes::<Swaptimum>(SWAPTIMUM, out)?;
    play_scenes::<swapboard_flipstop::Flipstop>(FLIPSTOP, out)?;
    play_scenes::<swapboard_scware::Scware>(SCWARE, out)?;
    play_scenes::<swapboard_rapid_transit::RapidTransit>(RAPID_TRANSIT, out)?;
    ai_scene(out)?;
    out.line(
        "== Swap 61 by 'pseudonam': ten bidding bots play a whole game of six rounds, each \
         round's sealed bids resolved as a game master would.",
    )?;
    swap61_simulate(7, 10, None, false, out)?;
    out.line("")?;
    out.line(NEXT_STEPS)
}
