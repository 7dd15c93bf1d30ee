//! Pictures of square-board positions, drawn from a [`BoardView`]: plain text for the
//! terminal ([`text`]) and a standalone SVG document ([`svg`]).
//!
//! Nothing here knows a game's rules; everything comes from the view.

mod svg;
mod text;

pub use svg::{svg, svg_with_caption};
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

#[cfg(test)]
mod tests {
    use swapboard_core::{BoardView, Outcome, Player, StoneBoard};

    /// Red has joined top and bottom through column b.
    fn won() -> BoardView {
        let board = StoneBoard::parse_rows(".R./.RB/.R.", ['R', 'B'], 3..=9).unwrap();
        let win = Some(Outcome::Win(Player::First));
        BoardView::connection(
            "Test",
            &board,
            ['R', 'B'],
            ["Red", "Blue"],
            Player::Second,
            win,
        )
    }

    #[test]
    fn text_writes_the_winning_path_in_lower_case() {
        let picture = crate::text(&won());
        assert!(picture.contains("   2 B| . r B |B 2"), "{picture}");
        assert!(picture.contains("lower-case letters: Red's winning path, b1 to b3"));
    }

    #[test]
    fn svg_draws_the_winning_path_through_its_checkers() {
        let picture = crate::svg(&won());
        assert_eq!(picture.matches("<polyline").count(), 1);
        assert!(
            picture.contains(r#"points="104,178 104,138 104,98""#),
            "{picture}"
        );
        let mut going_on = won();
        going_on.outcome = None;
        assert!(!crate::svg(&going_on.with_winning_path()).contains("<polyline"));
    }

    #[test]
    fn a_caption_stands_above_the_status() {
        let picture = crate::svg_with_caption(&won(), Some("after ply 5 of 5: b3 & more"));
        let caption = picture
            .find(">after ply 5 of 5: b3 &amp; more</text>")
            .unwrap();
        let status = picture.find(">Red (R) has won</text>").unwrap();
        assert!(caption < status);
        assert!(!crate::svg(&won()).contains("after ply"));
    }
}
