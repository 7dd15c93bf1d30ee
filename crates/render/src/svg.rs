use std::fmt::Write as _;

use swapboard_core::text::xml_escape;
use swapboard_core::{BoardView, CellMark, SideOwner};
use swapboard_grid::Cell;

use crate::status_line;

const CELL: usize = 40;
const MARGIN: usize = 44;
const EDGE: usize = 8;
/// Room above the board for the title line.
const TITLE: usize = 34;

/// Fill colours of the first and second player's checkers, by colour name.
fn fill(name: &str) -> &'static str {
    match name {
        "Red" => "#d62728",
        "Blue" => "#1f5fbf",
        "White" => "#f4f4f0",
        "Cyan" => "#17becf",
        _ => "#7f7f7f",
    }
}

/// A darker shade of [`fill`] for the outline of a player's largest network, so that it
/// stands out from the discs yet stays in their colour family.
fn dark(name: &str) -> &'static str {
    match name {
        "Red" => "#7a1517",
        "Blue" => "#0f2f60",
        "Cyan" => "#0a6670",
        _ => "#333333",
    }
}

/// What the marks of a picture with networks mean (Rapid Transit's), one line each.
const NETWORK_LEGEND: [&str; 3] = [
    "legend: a line joins like neighbours; a thick dark border outlines each largest network",
    "legend: a black dot marks a terminal piece (at most one like neighbour)",
    "legend: a purple square marks a cornered piece (the other three of its block opposing)",
];

/// A standalone SVG picture of the board, as a player would post it: a grid with column
/// letters and row numbers on all edges, each player's edges painted in their colour,
/// checkers as discs, the last move's cells ringed, the winning path (once a connection game
/// is won) drawn as a line through its checkers, and the status under the board.
pub fn svg(view: &BoardView) -> String {
    svg_with_caption(view, None)
}

/// [`svg`] with a caption above the status, such as the move number and the move shown
/// (`after ply 12 of 40: c3:c4-d3`), when the caller knows them.
pub fn svg_with_caption(view: &BoardView, caption: Option<&str>) -> String {
    draw(view, Some(caption))
}

/// The board alone, with its coordinates and marks but no title, status, notes or legend,
/// for a page that sets its words under the picture (the rules pages): the picture is as
/// wide as the board, whatever the length of the notes.
pub fn board_svg(view: &BoardView) -> String {
    draw(view, None)
}

/// Two boards side by side, each as [`board_svg`] draws it, each with a label above it: a
/// move's position before and after (`before` / `after c3`).
pub fn pair_svg(boards: [(&BoardView, &str); 2]) -> String {
    const GAP: usize = 16;
    const LABEL: usize = 24;
    let side = |view: &BoardView| view.size * CELL + 2 * MARGIN;
    let widths = boards.map(|(view, _)| side(view));
    let width = widths[0] + GAP + widths[1];
    let height = LABEL + widths[0].max(widths[1]);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">"##
    );
    let _ = writeln!(
        s,
        r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    let mut x = 0;
    for ((view, label), w) in boards.into_iter().zip(widths) {
        let _ = writeln!(
            s,
            r##"<text x="{}" y="18" font-size="16" font-weight="bold" text-anchor="middle" fill="#222">{}</text>"##,
            x + w / 2,
            xml_escape(label)
        );
        let _ = writeln!(s, r##"<g transform="translate({x},{LABEL})">"##);
        s.push_str(&board_svg(view));
        s.push_str("</g>\n");
        x += w + GAP;
    }
    s.push_str("</svg>\n");
    s
}

/// Draws the board; `words` is `None` for the board alone, or the caption (if any) of a
/// picture that carries its title, status, notes and legend.
fn draw(view: &BoardView, words: Option<Option<&str>>) -> String {
    let n = view.size;
    let board = n * CELL;
    let bare = words.is_none();
    let caption = words.flatten();
    // Wide enough for the board and for the longest line of text (about 8 px a character).
    let legend: &[&str] = if view.links.is_empty() && view.outlined.is_empty() {
        &[]
    } else {
        &NETWORK_LEGEND
    };
    let longest = std::iter::once(view.title.len())
        .chain(legend.iter().map(|l| l.len()))
        .chain(view.notes.iter().map(String::len))
        .chain(caption.map(str::len))
        .max()
        .unwrap_or(0);
    let (title, width, height) = if bare {
        (0, board + 2 * MARGIN, board + 2 * MARGIN)
    } else {
        let text_lines = 1 + view.notes.len() + usize::from(caption.is_some()) + legend.len();
        (
            TITLE,
            (board + 2 * MARGIN).max(longest * 8 + 24),
            TITLE + board + 2 * MARGIN + 22 * text_lines + 10,
        )
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">"##
    );
    let _ = writeln!(s, r##"<title>{}</title>"##, xml_escape(&view.title));
    let _ = writeln!(
        s,
        r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    if !bare {
        let _ = writeln!(
            s,
            r##"<text x="{}" y="22" font-size="16" text-anchor="middle" fill="#222">{}</text>"##,
            width / 2,
            xml_escape(&view.title)
        );
    }
    let (x0, y0) = ((width - board) / 2, title + MARGIN);
    // Each player's edges.
    for (i, side) in view.sides.iter().enumerate() {
        // A white edge would vanish on a white page: it gets a light grey band.
        let colour = match fill(&view.names[i]) {
            "#f4f4f0" => "#cfcfc8",
            other => other,
        };
        let rects: Vec<(usize, usize, usize, usize)> = match side {
            SideOwner::TopBottom => {
                vec![(x0, y0 - EDGE, board, EDGE), (x0, y0 + board, board, EDGE)]
            }
            SideOwner::LeftRight => {
                vec![(x0 - EDGE, y0, EDGE, board), (x0 + board, y0, EDGE, board)]
            }
            SideOwner::None => vec![],
        };
        for (x, y, w, h) in rects {
            let _ = writeln!(
                s,
                r##"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{colour}" stroke="#333" stroke-width="0.5"/>"##
            );
        }
    }
    let _ = writeln!(
        s,
        r##"<rect x="{x0}" y="{y0}" width="{board}" height="{board}" fill="#e9d8a6" stroke="#333" stroke-width="1.5"/>"##
    );
    for i in 1..n {
        let p = i * CELL;
        let _ = writeln!(
            s,
            r##"<line x1="{}" y1="{y0}" x2="{}" y2="{}" stroke="#6b5b3e" stroke-width="1"/>"##,
            x0 + p,
            x0 + p,
            y0 + board
        );
        let _ = writeln!(
            s,
            r##"<line x1="{x0}" y1="{}" x2="{}" y2="{}" stroke="#6b5b3e" stroke-width="1"/>"##,
            y0 + p,
            x0 + board,
            y0 + p
        );
    }
    // Coordinates on all four edges.
    for i in 0..n {
        let c = x0 + i * CELL + CELL / 2;
        let letter = (b'a' + i as u8) as char;
        for y in [y0 - EDGE - 6, y0 + board + EDGE + 16] {
            let _ = writeln!(
                s,
                r##"<text x="{c}" y="{y}" font-size="13" text-anchor="middle" fill="#333">{letter}</text>"##
            );
        }
        let r = y0 + (n - 1 - i) * CELL + CELL / 2 + 5;
        for (x, anchor) in [(x0 - EDGE - 4, "end"), (x0 + board + EDGE + 4, "start")] {
            let _ = writeln!(
                s,
                r##"<text x="{x}" y="{r}" font-size="13" text-anchor="{anchor}" fill="#333">{}</text>"##,
                i + 1
            );
        }
    }
    let centre = |cell: Cell| {
        (
            x0 + cell.col() as usize * CELL + CELL / 2,
            y0 + (n - 1 - cell.row() as usize) * CELL + CELL / 2,
        )
    };
    // Links under the checkers, so that they show in the gaps between like discs.
    for &(a, b) in &view.links {
        let Some(p) = view.owner(a) else { continue };
        let ((x1, y1), (x2, y2)) = (centre(a), centre(b));
        let _ = writeln!(
            s,
            r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{}" stroke-width="8" stroke-linecap="round"/>"##,
            dark(&view.names[p.index()])
        );
    }
    // The largest networks' cells get a thick border in their owner's dark shade.
    for &cell in &view.outlined {
        let Some(p) = view.owner(cell) else { continue };
        let (cx, cy) = centre(cell);
        let _ = writeln!(
            s,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="4"/>"##,
            cx - CELL / 2 + 2,
            cy - CELL / 2 + 2,
            CELL - 4,
            CELL - 4,
            dark(&view.names[p.index()])
        );
    }
    // Checkers and marks.
    for row in 0..n {
        for col in 0..n {
            let cell = Cell::new(col as u8, row as u8);
            let cx = x0 + col * CELL + CELL / 2;
            let cy = y0 + (n - 1 - row) * CELL + CELL / 2;
            if let Some(p) = view.owner(cell) {
                let _ = writeln!(
                    s,
                    r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="{}" stroke="#222" stroke-width="1"/>"##,
                    CELL / 2 - 4,
                    fill(&view.names[p.index()])
                );
            }
            for mark in view.marks_on(cell) {
                let (colour, dot) = match mark {
                    CellMark::Placed => ("#ffd700", true),
                    CellMark::Swapped => ("#ff8c00", false),
                    CellMark::Replaced => ("#2ca02c", true),
                    CellMark::Terminal => ("#222222", true),
                    CellMark::Cornered => ("#9467bd", false),
                    CellMark::Target => ("#2ca02c", false),
                    CellMark::Refused => {
                        // A dashed red-purple frame with a cross: never read as the green
                        // frame of an allowed move.
                        let (l, t, r, b) = (
                            cx - CELL / 2 + 3,
                            cy - CELL / 2 + 3,
                            cx + CELL / 2 - 3,
                            cy + CELL / 2 - 3,
                        );
                        let _ = writeln!(
                            s,
                            r##"<rect x="{l}" y="{t}" width="{}" height="{}" fill="none" stroke="#b0126e" stroke-width="3" stroke-dasharray="6 3"/><path d="M{l},{t} L{r},{b} M{r},{t} L{l},{b}" stroke="#b0126e" stroke-width="2" opacity="0.8"/>"##,
                            CELL - 6,
                            CELL - 6
                        );
                        continue;
                    }
                };
                if dot {
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx}" cy="{cy}" r="5" fill="{colour}" stroke="#222" stroke-width="0.5"/>"##
                    );
                } else {
                    let _ = writeln!(
                        s,
                        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{colour}" stroke-width="3"/>"##,
                        cx - CELL / 2 + 2,
                        cy - CELL / 2 + 2,
                        CELL - 4,
                        CELL - 4
                    );
                }
            }
        }
    }
    // The winning path over the checkers and marks, from one side to the other.
    if !view.winning.is_empty() {
        let points: Vec<String> = view
            .winning
            .iter()
            .map(|&cell| {
                let (x, y) = centre(cell);
                format!("{x},{y}")
            })
            .collect();
        let _ = writeln!(
            s,
            r##"<polyline points="{}" fill="none" stroke="#111" stroke-width="6" stroke-opacity="0.55" stroke-linecap="round" stroke-linejoin="round"/>"##,
            points.join(" ")
        );
    }
    if bare {
        s.push_str("</svg>\n");
        return s;
    }
    let mut y = y0 + board + EDGE + 44;
    let lines = caption
        .map(str::to_string)
        .into_iter()
        .chain(std::iter::once(status_line(view)))
        .chain(view.notes.iter().cloned())
        .chain(legend.iter().map(|l| l.to_string()));
    for line in lines {
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{y}" font-size="14" text-anchor="middle" fill="#222">{}</text>"##,
            width / 2,
            xml_escape(&line)
        );
        y += 22;
    }
    s.push_str("</svg>\n");
    s
}
