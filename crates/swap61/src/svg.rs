//! An SVG picture of the hexagon for the forum post: cell names, each player's walls in a
//! colour-blind-safe colour with the seat number, nodes, wild and unowned walls, the last
//! round's swaps, and (in a private view) the viewer's own and borrowed walls outlined.

use std::fmt::Write as _;

use swapboard_core::text::xml_escape;

use crate::board::{Board, Seat, TILES, Tile, cell_of, geometry};
use crate::submission::Edge;

/// Ten colours told apart with every common colour-vision deficiency: Paul Tol's "muted"
/// scheme (nine) and Okabe and Ito's orange, each with a legible text colour.
const SEAT_COLOURS: [(&str, &str); 10] = [
    ("#CC6677", "#000"),
    ("#332288", "#fff"),
    ("#DDCC77", "#000"),
    ("#117733", "#fff"),
    ("#88CCEE", "#000"),
    ("#882255", "#fff"),
    ("#44AA99", "#000"),
    ("#999933", "#000"),
    ("#AA4499", "#fff"),
    ("#E69F00", "#000"),
];

/// The mark of a bid, centred on the origin and lying across an edge along x: a dashed bar,
/// unlike a swap's badge, so that a picture of bids is never read as one of swaps.
const BID_BADGE: &str = r##"<line x1="-14" y1="0" x2="14" y2="0" stroke="#000" stroke-width="3" stroke-dasharray="4 3"/>"##;

/// The mark of a swap, centred on the origin and pointing along x: a double arrow on a
/// white badge.
const SWAP_BADGE: &str = r##"<rect x="-13" y="-8" width="26" height="16" rx="8" fill="#fff" stroke="#000" stroke-width="2"/><path d="M-9,0 H9 M-9,0 l5,-4 M-9,0 l5,4 M9,0 l-5,-4 M9,0 l-5,4" stroke="#000" stroke-width="2.2" fill="none" stroke-linecap="round"/>"##;

/// The tile radius in pixels (centre to corner).
const R: f64 = 30.0;
const MARGIN: f64 = 40.0;

/// What to draw.
#[derive(Clone, Debug)]
pub struct Picture<'a> {
    /// The grid.
    pub board: &'a Board,
    /// The player names in seat order, for the legend.
    pub names: &'a [String],
    /// The title line.
    pub title: String,
    /// The swaps of the last round, highlighted.
    pub swaps: Vec<Edge>,
    /// Edges bid on in a round not yet resolved, with their tokens: drawn apart from swaps
    /// (a dashed bar and the count), since a bid is no swap until the round resolves it.
    pub bids: Vec<(Edge, u32)>,
    /// In a private view: the viewer's seat and the seats they borrow from.
    pub focus: Option<(Seat, Vec<Seat>)>,
}

/// The centre of a tile in pixels.
fn centre(tile: usize) -> (f64, f64) {
    let hex = geometry().hex;
    // The left end of the middle row is the leftmost tile.
    let (left, _) = hex.centre(hex.corners()[5]);
    let (x, y) = hex.centre(cell_of(tile));
    (
        MARGIN + 30.0 + R * 3f64.sqrt() / 2.0 + (x - left) * R,
        MARGIN + 40.0 + R + y * R,
    )
}

/// The corners of a pointy-top hexagon of radius `r` around a point.
fn hexagon_points(cx: f64, cy: f64, r: f64) -> String {
    (0..6)
        .map(|k| {
            let a = std::f64::consts::PI / 180.0 * (60.0 * f64::from(k) - 90.0);
            format!("{:.1},{:.1}", cx + r * a.cos(), cy + r * a.sin())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The standalone SVG document.
pub fn svg(p: &Picture<'_>) -> String {
    let hex = geometry().hex;
    let (right, _) = centre(hex.index(hex.corners()[2]));
    let (_, bottom) = centre(hex.index(hex.corners()[3]));
    let width = right + R + MARGIN + 190.0;
    let height = (bottom + R + MARGIN).max(120.0 + 22.0 * p.names.len() as f64);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="Helvetica, Arial, sans-serif">"##
    );
    let _ = writeln!(s, "<title>{}</title>", xml_escape(&p.title));
    let _ = writeln!(
        s,
        r##"<defs><pattern id="wild" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" fill="#999"/><rect width="4" height="8" fill="#ddd"/></pattern></defs>"##
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#fff"/>"##);
    let _ = writeln!(
        s,
        r##"<text x="{MARGIN}" y="{:.0}" font-size="18" fill="#222">{}</text>"##,
        MARGIN,
        xml_escape(&p.title)
    );
    // Row letters at the left end of each row.
    for row in 0..hex.row_count() {
        let (x, y) = centre(hex.index(swapboard_grid::hex::HexCell::new(row as u8, 0)));
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="15" font-weight="bold" text-anchor="end" fill="#444">{}</text>"##,
            x - R - 8.0,
            y + 5.0,
            (b'A' + row as u8) as char
        );
    }
    let (own, borrowed) = match &p.focus {
        Some((seat, b)) => (Some(*seat), b.clone()),
        None => (None, Vec::new()),
    };
    for tile in 0..TILES {
        let (cx, cy) = centre(tile);
        let (fill, ink, label) = match p.board.tile(tile) {
            Tile::Node(n) => ("#ffffff", "#000", n.to_string()),
            Tile::Wall(seat) => {
                let (fill, ink) = SEAT_COLOURS[seat.index()];
                (fill, ink, seat.number().to_string())
            }
            Tile::Wild => ("url(#wild)", "#000", "W".to_string()),
            Tile::Unowned => ("#e8e8e8", "#777", "U".to_string()),
        };
        let _ = writeln!(
            s,
            r##"<polygon points="{}" fill="{fill}" stroke="#333" stroke-width="1"/>"##,
            hexagon_points(cx, cy, R - 0.5)
        );
        if let Tile::Node(_) = p.board.tile(tile) {
            let _ = writeln!(
                s,
                r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="#fff" stroke="#000" stroke-width="3"/>"##,
                R * 0.5
            );
        }
        if let Tile::Wall(seat) = p.board.tile(tile) {
            let dash = if Some(seat) == own {
                Some("")
            } else if borrowed.contains(&seat) {
                Some(r#" stroke-dasharray="5 3""#)
            } else {
                None
            };
            if let Some(dash) = dash {
                let _ = writeln!(
                    s,
                    r##"<polygon points="{}" fill="none" stroke="#000" stroke-width="3.5"{dash}/>"##,
                    hexagon_points(cx, cy, R - 4.0)
                );
            }
        }
        let halo = if matches!(p.board.tile(tile), Tile::Wild) {
            r##" stroke="#fff" stroke-width="3" paint-order="stroke""##
        } else {
            ""
        };
        let _ = writeln!(
            s,
            r##"<text x="{cx:.1}" y="{:.1}" font-size="16" font-weight="bold" text-anchor="middle" fill="{ink}"{halo}>{label}</text>"##,
            cy + 6.0
        );
        let _ = writeln!(
            s,
            r##"<text x="{cx:.1}" y="{:.1}" font-size="8" text-anchor="middle" fill="{ink}"{halo}>{}</text>"##,
            cy - R * 0.62,
            cell_of(tile)
        );
    }
    // Each swap: a badge on the shared edge with a double arrow across it.
    for edge in &p.swaps {
        let (a, b) = edge.tiles();
        let ((x1, y1), (x2, y2)) = (centre(a), centre(b));
        let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
        let angle = (y2 - y1).atan2(x2 - x1).to_degrees();
        let _ = writeln!(
            s,
            r##"<g transform="translate({mx:.1},{my:.1}) rotate({angle:.0})">{SWAP_BADGE}</g>"##
        );
    }
    // Each bid: a dashed bar across the shared edge and the tokens on it.
    for &(edge, tokens) in &p.bids {
        let (a, b) = edge.tiles();
        let ((x1, y1), (x2, y2)) = (centre(a), centre(b));
        let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
        let angle = (y2 - y1).atan2(x2 - x1).to_degrees();
        let _ = writeln!(
            s,
            r##"<g transform="translate({mx:.1},{my:.1}) rotate({angle:.0})">{BID_BADGE}</g><text x="{mx:.1}" y="{:.1}" font-size="12" font-weight="bold" text-anchor="middle" fill="#000" stroke="#fff" stroke-width="3" paint-order="stroke">{tokens}</text>"##,
            my + 4.0
        );
    }
    // Legend: each seat's colour and name, then the other tiles.
    let lx = right + R + 30.0;
    let mut ly = MARGIN + 50.0;
    for (i, name) in p.names.iter().enumerate() {
        let (fill, ink) = SEAT_COLOURS[i];
        let marker = match own {
            Some(seat) if seat.index() == i => " (you)",
            _ if borrowed.iter().any(|b| b.index() == i) => " (borrowed)",
            _ => "",
        };
        let _ = writeln!(
            s,
            r##"<rect x="{lx:.1}" y="{:.1}" width="22" height="18" fill="{fill}" stroke="#333"/><text x="{:.1}" y="{:.1}" font-size="12" text-anchor="middle" font-weight="bold" fill="{ink}">{}</text><text x="{:.1}" y="{:.1}" font-size="14" fill="#222">P{} {}{marker}</text>"##,
            ly - 14.0,
            lx + 11.0,
            ly,
            i + 1,
            lx + 30.0,
            ly,
            i + 1,
            xml_escape(name)
        );
        ly += 22.0;
    }
    ly += 10.0;
    for (text, fill) in [
        ("node", "#fff"),
        ("wild wall", "url(#wild)"),
        ("unowned wall", "#e8e8e8"),
    ] {
        let _ = writeln!(
            s,
            r##"<rect x="{lx:.1}" y="{:.1}" width="22" height="18" fill="{fill}" stroke="#333"/><text x="{:.1}" y="{ly:.1}" font-size="14" fill="#222">{text}</text>"##,
            ly - 14.0,
            lx + 30.0
        );
        ly += 22.0;
    }
    if !p.bids.is_empty() {
        let _ = writeln!(
            s,
            r##"<g transform="translate({:.1},{:.1}) rotate(90)">{BID_BADGE}</g><text x="{:.1}" y="{ly:.1}" font-size="14" fill="#222">bid on this round (tokens)</text>"##,
            lx + 11.0,
            ly - 5.0,
            lx + 30.0
        );
        ly += 22.0;
    }
    if !p.swaps.is_empty() {
        let _ = writeln!(
            s,
            r##"<g transform="translate({:.1},{:.1})">{SWAP_BADGE}</g><text x="{:.1}" y="{ly:.1}" font-size="14" fill="#222">swapped last round</text>"##,
            lx + 11.0,
            ly - 5.0,
            lx + 30.0
        );
    }
    s.push_str("</svg>\n");
    s
}
