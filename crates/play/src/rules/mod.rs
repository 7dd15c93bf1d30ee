//! The rules of the five games in swapboard's own words, one source for every front end:
//! the terminal (`swapboard rules GAME`), the server (`GET /api/rules/{game}`) and the web
//! pages read them from here.
//!
//! Every rule is illustrated by [`Diagram`]s: a position in the contract's text (or a Swap
//! 61 grid with a round's bids), the cells to point out, a caption, and the [`Claim`]s the
//! caption makes, which the tests (`tests/rules.rs`) check through the engines. A diagram
//! whose claim the engine contradicts fails the build's tests, so the pictures cannot drift
//! from the rules.
//!
//! The texts are the project's own, written from the rule sheets and docs/RULINGS.md; each
//! game credits its author with the year and the terms the author's sheet states.

mod claim;
pub(crate) mod flipstop;
mod rapid_transit;
mod scware;
mod swap61;
mod swaptimum;

use std::fmt::Write as _;

use swapboard_core::CellMark;
use swapboard_grid::Cell;
use swapboard_swap61::{Board as HexBoard, RoundSpec, Seat, Variation, parse_pairs, play_round};

use crate::{AnyPosition, GameId};

pub use claim::Claim;

/// Mark Steere's terms for his games, which Swaptimum's and Flipstop's credits both state.
const STEERE_TERMS: &str = "Mark Steere's sheet lets anyone publish it and program the game, \
     expecting no licensing fee or royalties, and asks that the name and the rules stay \
     unchanged and that the game is credited to him.";

/// Where Mark Steere publishes his games.
const STEERE_SITE: Link = Link {
    text: "Mark Steere's games",
    href: "https://www.marksteeregames.com",
};

/// The game a page of rules is about: one of the board games, or Swap 61.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// A two-player board game; its name, author and year come from [`GameId`].
    Board(GameId),
    /// Swap 61, played by 9-10 players with a game master.
    Swap61,
}

/// The rules of one game.
#[derive(Debug)]
pub struct Rules {
    /// Which game.
    pub subject: Subject,
    /// One line of what the game is about.
    pub summary: &'static str,
    /// The credit: who designed the game, when, and the terms the author's sheet states.
    pub credit: &'static [&'static str],
    /// Where the author publishes the game, or how the sheet asks to be reached.
    pub links: &'static [Link],
    /// The rules, section by section: the sheet's rules first, then swapboard's readings of
    /// what the sheet leaves open, then its own choices.
    pub sections: &'static [Section],
}

/// A link of a game's credit: the author's own site, or the contact the sheet gives.
#[derive(Debug)]
pub struct Link {
    /// What it is, in words (`Mark Steere's games`).
    pub text: &'static str,
    /// Where it goes (`https://marksteeregames.com`, `mailto:...`).
    pub href: &'static str,
}

/// Where a section's rule comes from. A rules page keeps them apart, so that nobody takes
/// swapboard's reading or choice for the author's rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The rule as the author's sheet states it.
    Sheet,
    /// How swapboard reads a point the sheet leaves open or ambiguous (docs/RULINGS.md).
    Reading,
    /// What swapboard chose where the sheet says nothing: sizes offered, defaults.
    Choice,
}

impl Source {
    /// The id the API gives it (`sheet`, `reading`, `choice`).
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Sheet => "sheet",
            Source::Reading => "reading",
            Source::Choice => "choice",
        }
    }

    /// What a page says of a section of this source, above its heading.
    pub fn label(self) -> &'static str {
        match self {
            Source::Sheet => "The rule sheet",
            Source::Reading => "How swapboard reads the sheet",
            Source::Choice => "swapboard's choice, not the sheet's",
        }
    }
}

/// A section of the rules: a heading, paragraphs, and the diagrams that show them.
#[derive(Debug)]
pub struct Section {
    /// Whether it states the sheet's rule, swapboard's reading, or swapboard's choice.
    pub source: Source,
    /// The heading.
    pub heading: &'static str,
    /// The text, paragraph by paragraph.
    pub paragraphs: &'static [&'static str],
    /// The sheet's own words for the rule, quoted beside swapboard's (empty where a
    /// quotation would not help).
    pub sheet: &'static [&'static str],
    /// The pictures, each with its caption.
    pub diagrams: &'static [Diagram],
}

/// A picture of a position with a caption, and what the caption claims about it.
#[derive(Debug)]
pub struct Diagram {
    /// The position shown.
    pub board: Board,
    /// Cells of a square board to point out (`c3`); a Swap 61 picture marks the edges of its
    /// round instead.
    pub marked: &'static [&'static str],
    /// What the picture shows, in words.
    pub caption: &'static str,
    /// What the caption claims, each checked through the engine by the tests.
    pub claims: &'static [Claim],
}

/// The position of a [`Diagram`].
#[derive(Debug)]
pub enum Board {
    /// A square-board position in the contract's text (`swaptimum ...../..... R`).
    Square(&'static str),
    /// A Swap 61 grid, and a round played on it.
    Hex(HexRound),
}

/// A Swap 61 round shown by a diagram: the grid before it and the bids of its players.
#[derive(Debug)]
pub struct HexRound {
    /// The grid at the start of the round, in the contract's nine lines.
    pub grid: &'static str,
    /// How many seats play (9 or 10).
    pub seats: usize,
    /// The round: 0 (the pregame) to 5.
    pub round: usize,
    /// The round's variation.
    pub variation: Variation,
    /// The three pairs the round joins, like `N1-N2,N3-N4,N5-N6` (empty when it joins none).
    pub pairs: &'static str,
    /// Each bidding seat (from 1) with its submission text.
    pub bids: &'static [(usize, &'static str)],
    /// Whether the picture shows the grid after the round, its swaps marked, rather than
    /// before it, the edges bid on marked.
    pub after: bool,
}

/// The rules of every game: the four board games in [`GameId::ALL`]'s order, then Swap 61.
pub static ALL: [&Rules; 5] = [
    &swaptimum::RULES,
    &flipstop::RULES,
    &scware::RULES,
    &rapid_transit::RULES,
    &swap61::RULES,
];

/// The rules of the game with this id (`rapid-transit`, `swap61`), if there is one.
pub fn of(id: &str) -> Option<&'static Rules> {
    ALL.into_iter().find(|r| r.id() == id)
}

/// Swap 61's id in commands and the API.
const SWAP61_ID: &str = "swap61";

impl Rules {
    /// The game's id in commands and the API (`rapid-transit`, `swap61`).
    pub fn id(&self) -> &'static str {
        match self.subject {
            Subject::Board(game) => game.as_str(),
            Subject::Swap61 => SWAP61_ID,
        }
    }

    /// The game's name (`Rapid Transit`).
    pub fn name(&self) -> &'static str {
        match self.subject {
            Subject::Board(game) => game.catalogue_entry().name,
            Subject::Swap61 => "Swap 61",
        }
    }

    /// The game's designer (`Phil Leduc`).
    pub fn author(&self) -> &'static str {
        match self.subject {
            Subject::Board(game) => game.catalogue_entry().author,
            Subject::Swap61 => "'pseudonam'",
        }
    }

    /// The year(s) of the rule sheet, or "" when it names none (Swap 61's).
    pub fn year(&self) -> &'static str {
        match self.subject {
            Subject::Board(game) => game.catalogue_entry().year,
            Subject::Swap61 => "",
        }
    }

    /// The game's name with its author's credit and the year when the sheet names one
    /// (`Scware by Christian Freeling (2012)`, `Swap 61 by 'pseudonam'`): the heading of
    /// the rules, and each game's line where the games are listed.
    pub fn title(&self) -> String {
        match self.year() {
            "" => format!("{} by {}", self.name(), self.author()),
            year => format!("{} by {} ({year})", self.name(), self.author()),
        }
    }

    /// The diagrams of every section, in order.
    pub fn diagrams(&self) -> impl Iterator<Item = &'static Diagram> + use<> {
        let sections: &'static [Section] = self.sections;
        sections.iter().flat_map(|s| s.diagrams.iter())
    }

    /// The whole text for a terminal: the title and credit, then each section with its
    /// paragraphs wrapped at 78 columns and its diagrams drawn as text.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let title = self.title();
        let _ = writeln!(out, "{title}\n{}\n", "=".repeat(title.chars().count()));
        let _ = writeln!(out, "{}\n", wrap(self.summary));
        for paragraph in self.credit {
            let _ = writeln!(out, "{}\n", wrap(paragraph));
        }
        for link in self.links {
            let to = link.href.trim_start_matches("mailto:");
            let _ = writeln!(out, "{}: {to}", link.text);
        }
        if !self.links.is_empty() {
            out.push('\n');
        }
        for section in self.sections {
            let heading = section.heading;
            let _ = writeln!(out, "{heading}\n{}", "-".repeat(heading.chars().count()));
            let _ = writeln!(out, "({})\n", section.source.label());
            for paragraph in section.paragraphs {
                let _ = writeln!(out, "{}\n", wrap(paragraph));
            }
            for quote in section.sheet {
                let quoted = wrap(&format!("The sheet: \"{quote}\""));
                let _ = writeln!(out, "  {}\n", quoted.replace('\n', "\n  "));
            }
            for diagram in section.diagrams {
                let _ = writeln!(out, "{}", diagram.text());
            }
        }
        out
    }
}

impl Diagram {
    /// The picture as a standalone SVG document: for a square game the render crate's board
    /// alone, or before and after the move the diagram shows played (marked cells framed in
    /// green, or dashed and crossed for a refused move; the move's changes marked after it);
    /// the game master's hexagon for Swap 61. The caption and the engine's notes stay out of
    /// it (a page sets them under the picture, where they wrap).
    ///
    /// # Panics
    ///
    /// If the diagram's position cannot be read: the tests read every diagram of [`ALL`].
    pub fn svg(&self) -> String {
        match &self.board {
            Board::Square(text) => {
                let before = self.square_view(text);
                match self.after_view(text) {
                    Some((mv, after)) => {
                        let label = format!("after {mv}");
                        swapboard_render::pair_svg([(&before, "before"), (&after, &label)])
                    }
                    None => swapboard_render::board_svg(&before),
                }
            }
            Board::Hex(round) => {
                let (board, edges) = round.shown();
                let names: Vec<String> = (1..=round.seats).map(|s| format!("seat {s}")).collect();
                let title = "Swap 61 by 'pseudonam'".to_string();
                let (swaps, bids) = match edges {
                    Edges::Swapped(swaps) => (swaps, Vec::new()),
                    Edges::Bid(bids) => (Vec::new(), bids),
                };
                swapboard_swap61::svg::svg(&swapboard_swap61::svg::Picture {
                    board: &board,
                    names: &names,
                    title,
                    swaps,
                    bids,
                    focus: None,
                })
            }
        }
    }

    /// The picture as terminal text (a move shown is drawn before and after), followed by
    /// the marked cells and the caption.
    ///
    /// # Panics
    ///
    /// If the diagram's position cannot be read: the tests read every diagram of [`ALL`].
    pub fn text(&self) -> String {
        let mut out = match &self.board {
            Board::Square(text) => {
                let mut out = swapboard_render::text(&self.square_view(text));
                if let Some((mv, after)) = self.after_view(text) {
                    let _ = writeln!(out, "after {mv}:");
                    out.push_str(&swapboard_render::text(&after));
                }
                out
            }
            Board::Hex(round) => {
                let (board, edges) = round.shown();
                let mut out = board.rows().join("\n");
                out.push('\n');
                match edges {
                    Edges::Swapped(swaps) if !swaps.is_empty() => {
                        let list: Vec<String> = swaps.iter().map(ToString::to_string).collect();
                        let _ = writeln!(
                            out,
                            "{}",
                            wrap(&format!("swapped this round: {}", list.join(", ")))
                        );
                    }
                    Edges::Bid(bids) if !bids.is_empty() => {
                        let list: Vec<String> =
                            bids.iter().map(|(e, t)| format!("{e} ({t})")).collect();
                        let line = format!("bid on this round (tokens): {}", list.join(", "));
                        let _ = writeln!(out, "{}", wrap(&line));
                    }
                    _ => {}
                }
                out
            }
        };
        if !self.marked.is_empty() {
            let _ = writeln!(out, "marked: {}", self.marked.join(" "));
        }
        let _ = writeln!(out, "{}", wrap(self.caption));
        out
    }

    /// The pictures one by one, each with its label, for a page that lays them out itself
    /// (side by side on a wide screen, one above the other on a phone): a move shown played
    /// is `before` and `after MOVE`; any other diagram is one unlabelled picture, [`Self::svg`].
    ///
    /// # Panics
    ///
    /// If the diagram's position cannot be read: the tests read every diagram of [`ALL`].
    pub fn pictures(&self) -> Vec<(String, String)> {
        match &self.board {
            Board::Square(text) => match self.after_view(text) {
                Some((mv, after)) => vec![
                    (
                        "before".to_string(),
                        swapboard_render::board_svg(&self.square_view(text)),
                    ),
                    (format!("after {mv}"), swapboard_render::board_svg(&after)),
                ],
                None => vec![(String::new(), self.svg())],
            },
            Board::Hex(_) => vec![(String::new(), self.svg())],
        }
    }

    /// The engine's notes about a square position (Rapid Transit's network sizes), which a
    /// page sets under the picture; none for a Swap 61 grid.
    ///
    /// # Panics
    ///
    /// If the diagram's position cannot be read: the tests read every diagram of [`ALL`].
    pub fn notes(&self) -> Vec<String> {
        match &self.board {
            Board::Square(text) => self.start(text).view().notes,
            Board::Hex(_) => Vec::new(),
        }
    }

    /// The rule codes of the refusals the diagram shows (`placement_restriction`).
    pub fn rule_codes(&self) -> Vec<&'static str> {
        self.claims
            .iter()
            .filter_map(Claim::rule)
            .map(|rule| rule.as_str())
            .collect()
    }

    /// The square position shown.
    fn start(&self, text: &str) -> AnyPosition {
        text.parse()
            .unwrap_or_else(|e| panic!("the rules' diagram {text:?} is refused: {e}"))
    }

    /// The move the diagram shows played (its first `Plays` or `Ends` claim) and the
    /// picture of the position after it, what the move changed marked: drawn beside the
    /// position before.
    fn after_view(&self, text: &str) -> Option<(&'static str, swapboard_core::BoardView)> {
        let mv = self.claims.iter().find_map(|claim| match *claim {
            Claim::Plays { mv, .. } | Claim::Ends { mv, .. } if mv != "pass" => Some(mv),
            _ => None,
        })?;
        let before = self.start(text);
        let mut after = before.clone();
        after.play_text(mv).ok()?;
        let mut view = after.view();
        view.mark_changes_from(&before.view());
        Some((mv, view))
    }

    /// The square position's view with the marked cells pointed out: as the cells of a
    /// refused move when the diagram shows a refusal, else as the cells of an allowed one.
    fn square_view(&self, text: &str) -> swapboard_core::BoardView {
        let mut view = self.start(text).view();
        let refused = self
            .claims
            .iter()
            .any(|c| matches!(c, Claim::Refused { .. } | Claim::Says { .. }));
        let mark = if refused {
            CellMark::Refused
        } else {
            CellMark::Target
        };
        view.marks.extend(
            self.marked
                .iter()
                .filter_map(|name| name.parse::<Cell>().ok())
                .map(|cell| (cell, mark)),
        );
        view
    }
}

impl HexRound {
    /// The grid at the start of the round.
    ///
    /// # Panics
    ///
    /// If the grid cannot be read: the tests read every diagram of [`ALL`].
    pub fn board(&self) -> HexBoard {
        HexBoard::parse(self.grid, self.seats)
            .unwrap_or_else(|e| panic!("the rules' Swap 61 grid is refused: {e}"))
    }

    /// The round played: every seat's bids checked and resolved, and the scores.
    ///
    /// # Panics
    ///
    /// If the grid, the pairs or a seat cannot be read: the tests play every round of [`ALL`].
    pub fn play(&self) -> swapboard_swap61::RoundOutcome {
        let pairs = if self.pairs.is_empty() {
            Vec::new()
        } else {
            parse_pairs(self.pairs)
                .unwrap_or_else(|e| panic!("the rules' pairs are refused: {e}"))
                .to_vec()
        };
        let spec = RoundSpec {
            variation: self.variation,
            pairs,
        };
        let bids: Vec<(Seat, &str)> = self
            .bids
            .iter()
            .map(|&(seat, text)| (Seat::new(seat).expect("a seat from 1 to 10"), text))
            .collect();
        play_round(&self.board(), self.round, &spec, &bids)
    }

    /// The grid the picture shows, with the edges to mark: after the round its swaps,
    /// before it the edges bid on with their tokens.
    fn shown(&self) -> (HexBoard, Edges) {
        if self.after {
            let outcome = self.play();
            let swaps = outcome
                .resolution
                .edges
                .iter()
                .filter(|e| e.outcome == swapboard_swap61::EdgeOutcome::Swapped)
                .map(|e| e.edge)
                .collect();
            (outcome.resolution.board, Edges::Swapped(swaps))
        } else if self.bids.is_empty() {
            (self.board(), Edges::Bid(Vec::new()))
        } else {
            let outcome = self.play();
            let bids = outcome
                .resolution
                .edges
                .iter()
                .map(|e| (e.edge, e.tokens))
                .collect();
            (self.board(), Edges::Bid(bids))
        }
    }
}

/// The edges a Swap 61 picture marks: a round's swaps, or the bids of a round not yet
/// resolved (which must never read as swaps).
enum Edges {
    /// Swapped in the round shown.
    Swapped(Vec<swapboard_swap61::Edge>),
    /// Bid on, with the tokens of every player on each.
    Bid(Vec<(swapboard_swap61::Edge, u32)>),
}

/// A paragraph broken into lines of at most 78 columns at spaces.
fn wrap(paragraph: &str) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in paragraph.split_whitespace() {
        let width = word.chars().count();
        if line > 0 && line + 1 + width > 78 {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += width;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_wrap_at_78_columns_between_words() {
        let long = "word ".repeat(40);
        let wrapped = wrap(&long);
        assert!(wrapped.lines().all(|l| l.len() <= 78), "{wrapped}");
        assert_eq!(wrapped.split_whitespace().count(), 40);
        assert_eq!(wrap("a  b\nc"), "a b c");
    }

    #[test]
    fn every_game_has_rules_found_by_its_id() {
        let ids: Vec<&str> = ALL.iter().map(|r| r.id()).collect();
        let mut expected: Vec<&str> = GameId::ALL.iter().map(|g| g.as_str()).collect();
        expected.push("swap61");
        assert_eq!(ids, expected);
        for rules in ALL {
            assert!(std::ptr::eq(of(rules.id()).unwrap(), rules));
            assert!(rules.diagrams().next().is_some(), "{}", rules.id());
        }
        assert!(of("chess").is_none());
        assert_eq!(of("swap61").unwrap().author(), "'pseudonam'");
        assert_eq!(of("swap61").unwrap().title(), "Swap 61 by 'pseudonam'");
        for game in GameId::ALL {
            assert_eq!(of(game.as_str()).unwrap().title(), game.title());
        }
    }
}
