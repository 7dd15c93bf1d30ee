use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use swapboard_grid::Cell;

use crate::{Outcome, Player, StoneBoard};

/// Which pair of opposite board edges a player must join (in JSON `top_bottom`,
/// `left_right`, `none`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SideOwner {
    /// The top and bottom rows.
    TopBottom,
    /// The left and right columns.
    LeftRight,
    /// No edges (games not won by connection).
    None,
}

/// Something a picture of the board should point out on a cell (in JSON `placed`,
/// `swapped`, `replaced`, `terminal`, `cornered`, `target`, `refused`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum CellMark {
    /// The cell of the last placement.
    Placed,
    /// A cell changed by the last move's swap.
    Swapped,
    /// A cell whose checker the last move replaced.
    Replaced,
    /// A terminal piece (Rapid Transit).
    Terminal,
    /// A cornered piece (Rapid Transit).
    Cornered,
    /// A cell a move may go to (interactive play).
    Target,
    /// A cell of a move the rules refuse (a rules picture), drawn unlike an allowed one.
    Refused,
}

/// What a picture of a square-board position shows, independent of how it is drawn.
///
/// Rules crates build it; the renderers turn it into terminal text or SVG.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BoardView {
    /// The game's title with credit.
    pub title: String,
    /// The board side.
    pub size: usize,
    /// Each cell's owner, bottom row first, left to right.
    pub cells: Vec<Option<Player>>,
    /// Colour letters of the first and second player.
    pub letters: [char; 2],
    /// Colour names of the first and second player (the engines' own words, borrowed; a
    /// view read back from JSON owns them).
    pub names: [Cow<'static, str>; 2],
    /// The edges each player joins.
    pub sides: [SideOwner; 2],
    /// Marks to draw, in any order.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<(String, CellMark)>))]
    pub marks: Vec<(Cell, CellMark)>,
    /// The player to move.
    pub to_move: Player,
    /// The result, once the game is over.
    pub outcome: Option<Outcome>,
    /// Extra lines of information (counts, network sizes, the reason for a result).
    pub notes: Vec<String>,
    /// The winner's stones joining their two sides, in order from one side to the other,
    /// once a connection game is won (see [`BoardView::winning_path`]); empty otherwise.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
    pub winning: Vec<Cell>,
    /// Pairs of orthogonally adjacent like pieces that a picture joins with a line
    /// (Rapid Transit's networks); empty for the other games, and then left out of JSON so
    /// that their views read as before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<(String, String)>))]
    pub links: Vec<(Cell, Cell)>,
    /// Cells whose border a picture thickens: each player's largest network (Rapid
    /// Transit); empty for the other games (and then left out of JSON).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
    pub outlined: Vec<Cell>,
}

impl BoardView {
    /// The view of a connection game on a stone board: the first player joins top and
    /// bottom, the second left and right; no marks or notes yet.
    pub fn connection(
        title: &str,
        board: &StoneBoard,
        letters: [char; 2],
        names: [&'static str; 2],
        to_move: Player,
        outcome: Option<Outcome>,
    ) -> BoardView {
        BoardView {
            title: title.to_string(),
            size: board.size(),
            cells: board.owners(),
            letters,
            names: names.map(Cow::Borrowed),
            sides: [SideOwner::TopBottom, SideOwner::LeftRight],
            marks: Vec::new(),
            to_move,
            outcome,
            notes: Vec::new(),
            winning: Vec::new(),
            links: Vec::new(),
            outlined: Vec::new(),
        }
        .with_winning_path()
    }

    /// This view with [`BoardView::winning`] filled from the cells and the outcome.
    pub fn with_winning_path(mut self) -> BoardView {
        self.winning = self.winning_path();
        self
    }

    /// A shortest chain of the winner's stones, orthogonally adjacent, from one of their
    /// sides to the other, when the outcome is a win by connection; empty otherwise (a draw,
    /// a game going on, a game not won by connection).
    pub fn winning_path(&self) -> Vec<Cell> {
        let Some(Outcome::Win(winner)) = self.outcome else {
            return Vec::new();
        };
        let n = self.size;
        let side = self.sides[winner.index()];
        // The coordinate that runs from the winner's first side (0) to their second (n - 1).
        let across = |i: usize| match side {
            SideOwner::TopBottom => Some(i / n),
            SideOwner::LeftRight => Some(i % n),
            SideOwner::None => None,
        };
        let own = |i: usize| self.cells[i] == Some(winner);
        // Breadth-first search from every own stone on the first side; `came_from` doubles
        // as the visited set.
        let mut came_from = vec![None; n * n];
        let mut queue = std::collections::VecDeque::new();
        for i in (0..n * n).filter(|&i| own(i) && across(i) == Some(0)) {
            came_from[i] = Some(i);
            queue.push_back(i);
        }
        while let Some(i) = queue.pop_front() {
            if across(i) == Some(n - 1) {
                let mut path = vec![i];
                let mut at = i;
                while let Some(prev) = came_from[at].filter(|&p| p != at) {
                    path.push(prev);
                    at = prev;
                }
                path.reverse();
                return path
                    .into_iter()
                    .map(|i| Cell::new((i % n) as u8, (i / n) as u8))
                    .collect();
            }
            let (row, col) = (i / n, i % n);
            let neighbours = [
                (row > 0).then(|| i - n),
                (row + 1 < n).then(|| i + n),
                (col > 0).then(|| i - 1),
                (col + 1 < n).then(|| i + 1),
            ];
            for j in neighbours.into_iter().flatten() {
                if own(j) && came_from[j].is_none() {
                    came_from[j] = Some(i);
                    queue.push_back(j);
                }
            }
        }
        Vec::new()
    }

    /// The owner of a cell.
    pub fn owner(&self, cell: Cell) -> Option<Player> {
        self.cells[cell.row() as usize * self.size + cell.col() as usize]
    }

    /// Marks what a move changed, found by comparing this view (after the move) with
    /// `before`, where `before.to_move` made it: a cell empty before is
    /// [`CellMark::Placed`]; a cell whose checker changed colour is [`CellMark::Swapped`]
    /// when the move exchanged checkers (some cell lost the mover's colour, or a placed
    /// checker shows the opponent's) and [`CellMark::Replaced`] otherwise (only enemy
    /// checkers became the mover's). Returns how many cells changed.
    pub fn mark_changes_from(&mut self, before: &BoardView) -> usize {
        let mover = before.to_move;
        let cell_at = |i: usize| Cell::new((i % self.size) as u8, (i / self.size) as u8);
        let changed: Vec<(usize, Option<Player>, Option<Player>)> = before
            .cells
            .iter()
            .zip(&self.cells)
            .enumerate()
            .filter(|(_, (b, a))| b != a)
            .map(|(i, (&b, &a))| (i, b, a))
            .collect();
        let exchanged = changed
            .iter()
            .any(|&(_, b, a)| b == Some(mover) || (b.is_none() && a.is_some_and(|p| p != mover)));
        for &(i, was, now) in &changed {
            let cell = cell_at(i);
            if was.is_none() {
                self.marks.push((cell, CellMark::Placed));
            }
            if now.is_some() && (was.is_some() || now != Some(mover)) {
                let mark = if exchanged {
                    CellMark::Swapped
                } else {
                    CellMark::Replaced
                };
                self.marks.push((cell, mark));
            }
        }
        changed.len()
    }

    /// The marks on a cell.
    pub fn marks_on(&self, cell: Cell) -> impl Iterator<Item = CellMark> + '_ {
        self.marks
            .iter()
            .filter(move |(c, _)| *c == cell)
            .map(|&(_, m)| m)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The board view speaks the API's words: every enum in snake_case.
    #[test]
    fn the_view_is_written_in_snake_case() {
        let board = StoneBoard::parse_rows(".R./.RB/.R.", ['R', 'B'], 3..=9).unwrap();
        let mut view = BoardView::connection(
            "Test",
            &board,
            ['R', 'B'],
            ["Red", "Blue"],
            Player::Second,
            Some(Outcome::Win(Player::First)),
        );
        view.marks = vec![
            (Cell::new(1, 1), CellMark::Placed),
            (Cell::new(2, 1), CellMark::Terminal),
        ];
        let json = serde_json::to_value(&view).unwrap();
        assert_eq!(json["to_move"], "second");
        assert_eq!(json["outcome"], json!({"win": "first"}));
        assert_eq!(json["sides"], json!(["top_bottom", "left_right"]));
        assert_eq!(json["marks"], json!([["b2", "placed"], ["c2", "terminal"]]));
        assert_eq!(json["cells"][1], "first");
        assert_eq!(json["cells"][5], "second");
        assert_eq!(json["cells"][0], serde_json::Value::Null);
        view.outcome = Some(Outcome::Draw);
        view.sides = [SideOwner::None; 2];
        let json = serde_json::to_value(&view).unwrap();
        assert_eq!(json["outcome"], "draw");
        assert_eq!(json["sides"], json!(["none", "none"]));
        let every_mark = [
            CellMark::Placed,
            CellMark::Swapped,
            CellMark::Replaced,
            CellMark::Terminal,
            CellMark::Cornered,
            CellMark::Target,
            CellMark::Refused,
        ];
        assert_eq!(
            serde_json::to_value(every_mark).unwrap(),
            json!([
                "placed", "swapped", "replaced", "terminal", "cornered", "target", "refused"
            ])
        );
    }
}
