use std::fmt::Write as _;

use swapboard_core::{BoardView, CellMark, SideOwner};
use swapboard_grid::Cell;

use crate::status_line;

/// A plain-text picture of the board: column letters above and below, row numbers left and
/// right, each player's edges marked with their colour letter, then the status and notes.
///
/// A `*` before a checker marks a cell the last move changed; a `^` marks a terminal piece.
///
/// ```text
///       a b c
///       R R R
///   3 B . R . B 3
///   ...
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
    let tb = side_letter(SideOwner::TopBottom);
    let lr = side_letter(SideOwner::LeftRight);
    let letters: String = (0..n)
        .map(|c| format!(" {}", (b'a' + c as u8) as char))
        .collect();
    let edge = |ch: Option<char>| -> String {
        ch.map(|c| (0..n).map(|_| format!(" {c}")).collect())
            .unwrap_or_default()
    };
    let _ = writeln!(out, "     {letters}");
    if tb.is_some() {
        let _ = writeln!(out, "     {}", edge(tb));
    }
    for row in (0..n).rev() {
        let l = lr.map_or(' ', |c| c);
        let _ = write!(out, "{:>3} {l}", row + 1);
        for col in 0..n {
            let cell = Cell::new(col as u8, row as u8);
            let ch = view.owner(cell).map_or('.', |p| view.letters[p.index()]);
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
        let _ = writeln!(out, " {l} {}", row + 1);
    }
    if tb.is_some() {
        let _ = writeln!(out, "     {}", edge(tb));
    }
    let _ = writeln!(out, "     {letters}");
    let _ = writeln!(out, "{}", status_line(view));
    for note in &view.notes {
        let _ = writeln!(out, "{note}");
    }
    out
}
