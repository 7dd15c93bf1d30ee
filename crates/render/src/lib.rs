//! Pictures of square-board positions, drawn from a [`BoardView`]: plain text for the
//! terminal ([`text`]) and a standalone SVG document ([`svg`]).
//!
//! Nothing here knows a game's rules; everything comes from the view.

mod svg;
mod text;

pub use svg::svg;
pub use text::text;

use swapboard_core::{BoardView, Outcome};

/// The status line under a picture: whose turn it is, or the result.
pub fn status_line(view: &BoardView) -> String {
    match view.outcome {
        None => format!(
            "{} ({}) to move",
            view.names[view.to_move.index()],
            view.letters[view.to_move.index()]
        ),
        Some(Outcome::Win(p)) => format!(
            "{} ({}) has won",
            view.names[p.index()],
            view.letters[p.index()]
        ),
        Some(Outcome::Draw) => "drawn: neither player can move".to_string(),
    }
}
