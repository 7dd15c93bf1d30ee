//! `swapboard demo`: a short scripted tour of the engines, the first thing to run on a fresh
//! machine. Every move is played through the rules engine and every board drawn by the
//! renderer, so the tour is also a smoke test of the whole chain.

use swapboard_core::Game;

use crate::commands::{play_all, result_line};
use crate::error::{CliError, CliResult};
use crate::output::Output;

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

/// Runs the tour.
pub(crate) fn demo(out: &mut Output) -> CliResult {
    play_scenes::<swapboard_swaptimum::Swaptimum>(SWAPTIMUM, out)?;
    play_scenes::<swapboard_flipstop::Flipstop>(FLIPSTOP, out)
}
