use std::fmt::Write as _;

use swapboard_core::{BoardView, CellMark, Outcome, SideOwner};
use swapboard_grid::Cell;

use crate::status_line;

/// A plain-text picture of the board: column letters above and below, row numbers left and
/// right, the board framed, each player's edges marked with their colour letter outside the
/// frame, then the status and notes.
///
/// A `*` before a checker marks a cell the last move changed; a `^` marks a terminal piece.
/// Once a connection game is won, the winning path's checkers are written in lower case.
///
/// ```text
///         a b c
///         R R R
///       +-------+
///     3 B| . R . |B 3
///     2 B| . R B |B 2
///     1 B| . R . |B 1
///       +-------+
///         R R R
///         a b c
/// ```
pub fn text(view: &BoardView) -> String {
    let n = view.size;
    let mut out = String::new();
    let _ = writeln!(out, "{}", view.title);
    let side_letter = |side: SideOwner| {
        view.sides
            .iter()
            .position(|&s| s == side)
            .map(|i| view.letters[i])
    };
    let top_bottom = side_letter(SideOwner::TopBottom);
    let left_right = side_letter(SideOwner::LeftRight).unwrap_or(' ');
    let columns: String = (0..n)
        .map(|c| format!(" {}", (b'a' + c as u8) as char))
        .collect();
    let frame = format!("      +{}+", "-".repeat(2 * n + 1));
    let edge = top_bottom.map(|c| format!("       {}", format!(" {c}").repeat(n)));
    let _ = writeln!(out, "       {columns}");
    if let Some(edge) = &edge {
        let _ = writeln!(out, "{edge}");
    }
    let _ = writeln!(out, "{frame}");
    for row in (0..n).rev() {
        let _ = write!(out, "{:>4} {left_right}|", row + 1);
        for col in 0..n {
            let cell = Cell::new(col as u8, row as u8);
            let letter = view.owner(cell).map_or('.', |p| view.letters[p.index()]);
            let ch = if view.winning.contains(&cell) {
                letter.to_ascii_lowercase()
            } else {
                letter
            };
            let marked = view
                .marks_on(cell)
                .any(|m| matches!(m, CellMark::Placed | CellMark::Swapped | CellMark::Replaced));
            let terminal = view.marks_on(cell).any(|m| m == CellMark::Terminal);
            let open = if marked {
                '*'
            } else if terminal {
                '^'
            } else {
                ' '
            };
            let _ = write!(out, "{open}{ch}");
        }
        let _ = writeln!(out, " |{left_right} {}", row + 1);
    }
    let _ = writeln!(out, "{frame}");
    if let Some(edge) = &edge {
        let _ = writeln!(out, "{edge}");
    }
    let _ = writeln!(out, "       {columns}");
    let _ = writeln!(out, "{}", status_line(view));
    if let (Some(first), Some(Outcome::Win(p))) = (view.winning.first(), view.outcome) {
        let last = view.winning.last().unwrap_or(first);
        let _ = writeln!(
            out,
            "lower-case letters: {}'s winning path, {first} to {last}",
            view.names[p.index()]
        );
    }
    for note in &view.notes {
        let _ = writeln!(out, "{note}");
    }
    // The spaced grid holds the `*` and `^` marks between cells, so links cannot be drawn
    // there: the largest networks are named instead.
    if !view.outlined.is_empty() {
        let cells: Vec<String> = view.outlined.iter().map(Cell::to_string).collect();
        let _ = writeln!(out, "largest networks: {}", cells.join(" "));
        let _ = writeln!(
            out,
            "legend: ^ a terminal piece (at most one like neighbour); cornered pieces are listed above"
        );
    }
    out
}
