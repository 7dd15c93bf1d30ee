//! Pictures of square-board positions, drawn from a [`BoardView`]: plain text for the
//! terminal ([`text`]) and a standalone SVG document ([`svg`]).
//!
//! Nothing here knows a game's rules; everything comes from the view.

mod svg;
mod text;

pub use svg::{board_svg, pair_svg, svg, svg_with_caption};
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

    /// A going-on view with one link (b1-b2, Red) and Red's column b outlined.
    fn networked() -> BoardView {
        let board = StoneBoard::parse_rows(".R./.RB/BR.", ['R', 'B'], 3..=9).unwrap();
        let mut view = BoardView::connection(
            "Test",
            &board,
            ['R', 'B'],
            ["Red", "Blue"],
            Player::Second,
            None,
        );
        let cell = |name: &str| name.parse::<swapboard_grid::Cell>().unwrap();
        view.links = vec![(cell("b1"), cell("b2"))];
        view.outlined = vec![cell("b1"), cell("b2")];
        view
    }

    #[test]
    fn svg_draws_links_and_outlines_with_a_legend() {
        let svg = super::svg(&networked());
        // The legend widens the page to 720, so the 120-wide board starts at x = 300: b1 and
        // b2 have their centres at x = 300 + 40 + 20, y = 78 + 100 and 78 + 60.
        assert!(
            svg.contains(r##"<line x1="360" y1="178" x2="360" y2="138" stroke="#7a1517""##),
            "{svg}"
        );
        assert_eq!(
            svg.matches(r##"stroke="#7a1517" stroke-width="4""##)
                .count(),
            2
        );
        assert!(svg.contains("a line joins like neighbours"));
        assert!(svg.contains("a black dot marks a terminal piece"));
        assert!(svg.contains("a purple square marks a cornered piece"));
        // Without networks, no legend.
        assert!(!super::svg(&won()).contains("legend:"));
    }

    #[test]
    fn text_names_the_largest_networks_with_a_legend() {
        let text = super::text(&networked());
        assert!(text.contains("\nlargest networks: b1 b2\n"), "{text}");
        assert!(text.contains("legend: ^ a terminal piece"), "{text}");
        assert!(!super::text(&won()).contains("legend:"));
    }
}
