//! Tiles, seats and the 61-tile grid with its text form.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use swapboard_grid::hex::{HexCell, Hexagon};

/// The side of Swap 61's hexagon.
pub const SIDE: usize = 5;
/// The number of tiles.
pub const TILES: usize = 61;
/// The number of nodes, `N1` to `N9`.
pub const NODES: usize = 9;
/// The walls each player owns.
pub const WALLS_PER_SEAT: usize = 5;
/// The wild walls, owned by every player.
pub const WILD_WALLS: usize = 2;
/// The fewest players.
pub const MIN_SEATS: usize = 9;
/// The most players (then all 61 tiles are nodes, player walls or wild walls).
pub const MAX_SEATS: usize = 10;

/// A set of tiles as a bit mask over tile indices (reading order, `A1` = bit 0).
pub type TileMask = u64;

/// The bit of one tile index.
pub(crate) const fn bit(tile: usize) -> TileMask {
    1 << tile
}

/// The fixed geometry of the hexagon, computed once: cells, neighbours and corners by tile
/// index.
pub(crate) struct Geometry {
    /// The hexagon itself.
    pub(crate) hex: Hexagon,
    /// The cell of each tile index.
    pub(crate) cells: [HexCell; TILES],
    /// Each tile's neighbours (the first `degree` entries).
    pub(crate) neighbours: [[u8; 6]; TILES],
    /// How many neighbours each tile has.
    pub(crate) degree: [u8; TILES],
    /// The six corner tiles.
    pub(crate) corners: [u8; 6],
    /// The corner tiles as a mask.
    pub(crate) corner_mask: TileMask,
}

/// The geometry of Swap 61's hexagon.
pub(crate) fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| {
        let hex = Hexagon::new(SIDE).expect("side 5 is a valid hexagon");
        let mut cells = [HexCell::new(0, 0); TILES];
        let mut neighbours = [[0u8; 6]; TILES];
        let mut degree = [0u8; TILES];
        for (i, cell) in hex.cells().enumerate() {
            cells[i] = cell;
            for n in hex.neighbours(cell) {
                neighbours[i][usize::from(degree[i])] = hex.index(n) as u8;
                degree[i] += 1;
            }
        }
        let corners = hex.corners().map(|c| hex.index(c) as u8);
        let corner_mask = corners.iter().fold(0, |m, &c| m | bit(usize::from(c)));
        Geometry {
            hex,
            cells,
            neighbours,
            degree,
            corners,
            corner_mask,
        }
    })
}

/// The cell name of a tile index.
pub fn cell_of(tile: usize) -> HexCell {
    geometry().cells[tile]
}

/// The tile index of a cell, if the hexagon has it.
pub fn tile_of(cell: HexCell) -> Option<usize> {
    let hex = geometry().hex;
    hex.contains(cell).then(|| hex.index(cell))
}

/// Reads a cell name of the hexagon (either case) as a tile index.
pub fn parse_tile(text: &str) -> Option<usize> {
    geometry()
        .hex
        .parse_cell(text)
        .ok()
        .map(|c| geometry().hex.index(c))
}

/// Whether two tiles share an edge.
pub fn are_neighbours(a: usize, b: usize) -> bool {
    let g = geometry();
    g.neighbours[a][..usize::from(g.degree[a])].contains(&(b as u8))
}

/// A player's place in the published seat order, from 1.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Seat(u8);

impl Seat {
    /// Seat `number` (1 to 10).
    pub fn new(number: usize) -> Option<Seat> {
        (1..=MAX_SEATS)
            .contains(&number)
            .then_some(Seat(number as u8))
    }

    /// The seat number, from 1.
    pub const fn number(self) -> usize {
        self.0 as usize
    }

    /// The index in seat order, from 0.
    pub const fn index(self) -> usize {
        self.0 as usize - 1
    }

    /// The seat `steps` places after this one (before, for negative steps) around a table of
    /// `seats`.
    pub fn around(self, steps: isize, seats: usize) -> Seat {
        let n = seats as isize;
        Seat((((self.index() as isize + steps) % n + n) % n) as u8 + 1)
    }

    /// All seats of a table, in order.
    pub fn all(seats: usize) -> impl Iterator<Item = Seat> {
        (1..=seats).map(|n| Seat(n as u8))
    }
}

impl TryFrom<u8> for Seat {
    type Error = String;

    fn try_from(n: u8) -> Result<Seat, String> {
        Seat::new(usize::from(n)).ok_or_else(|| format!("seat {n} is outside 1..={MAX_SEATS}"))
    }
}

impl From<Seat> for u8 {
    fn from(seat: Seat) -> u8 {
        seat.0
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0)
    }
}

impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A node, `N1` to `N9`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Node(u8);

impl Node {
    /// Node `number` (1 to 9).
    pub fn new(number: usize) -> Option<Node> {
        (1..=NODES).contains(&number).then_some(Node(number as u8))
    }

    /// The node number, from 1.
    pub const fn number(self) -> usize {
        self.0 as usize
    }

    /// The index, from 0.
    pub const fn index(self) -> usize {
        self.0 as usize - 1
    }

    /// All nine nodes.
    pub fn all() -> impl Iterator<Item = Node> {
        (1..=NODES).map(|n| Node(n as u8))
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "N{}", self.0)
    }
}

impl fmt::Debug for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Node {
    type Err = String;

    fn from_str(s: &str) -> Result<Node, String> {
        let bad = || format!("'{s}' is not a node (N1 to N9)");
        let digits = s.strip_prefix(['N', 'n']).ok_or_else(bad)?;
        match digits.as_bytes() {
            [d @ b'1'..=b'9'] => Ok(Node(d - b'0')),
            _ => Err(bad()),
        }
    }
}

swapboard_core::serde_as_text!(Node);

/// What stands on a tile.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Tile {
    /// A node, `N1` to `N9`.
    Node(Node),
    /// A wall owned by the player in a seat, `P1` to `P10`.
    Wall(Seat),
    /// A wild wall (`W`), owned by every player.
    Wild,
    /// An unowned wall (`U`, only with 9 players): it blocks nobody.
    Unowned,
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tile::Node(n) => n.fmt(f),
            Tile::Wall(s) => s.fmt(f),
            Tile::Wild => f.write_str("W"),
            Tile::Unowned => f.write_str("U"),
        }
    }
}

impl FromStr for Tile {
    type Err = String;

    /// Reads `N1`..`N9`, `P1`..`P10`, `W` or `U` (either case).
    fn from_str(s: &str) -> Result<Tile, String> {
        let upper = s.to_ascii_uppercase();
        match upper.as_str() {
            "W" => return Ok(Tile::Wild),
            "U" => return Ok(Tile::Unowned),
            _ => {}
        }
        if let Ok(node) = upper.parse::<Node>() {
            return Ok(Tile::Node(node));
        }
        if let Some(digits) = upper.strip_prefix('P')
            && !digits.starts_with('0')
            && digits.len() <= 2
            && digits.bytes().all(|b| b.is_ascii_digit())
            && let Some(seat) = digits.parse().ok().and_then(Seat::new)
        {
            return Ok(Tile::Wall(seat));
        }
        Err(format!(
            "'{s}' is not a tile (N1-N9 a node, P1-P10 a player's wall, W wild, U unowned)"
        ))
    }
}

/// Why a grid text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The number of seats is not 9 or 10.
    #[error("{0} seats: Swap 61 is played by {MIN_SEATS} or {MAX_SEATS} players")]
    Seats(usize),
    /// A line is not in the `A: N1 P3 W ...` form, or out of place.
    #[error("line {line}: {reason}")]
    Line {
        /// The line number in the text, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The text does not hold the 9 rows.
    #[error("the grid has {0} rows, it needs the 9 rows A to I")]
    RowCount(usize),
    /// The tiles are not 9 nodes, 2 wild walls and 5 walls per seat.
    #[error("{0}")]
    Contents(String),
}

/// The 61 tiles of a Swap 61 grid and the number of seats at the table.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    tiles: [Tile; TILES],
    seats: u8,
}

impl Board {
    /// A grid from its tiles in reading order, checked like a parsed one.
    pub fn new(tiles: [Tile; TILES], seats: usize) -> Result<Board, BoardError> {
        if !(MIN_SEATS..=MAX_SEATS).contains(&seats) {
            return Err(BoardError::Seats(seats));
        }
        let board = Board {
            tiles,
            seats: seats as u8,
        };
        board.check_contents()?;
        Ok(board)
    }

    fn check_contents(&self) -> Result<(), BoardError> {
        let seats = self.seats();
        let mut nodes = [0usize; NODES];
        let mut walls = [0usize; MAX_SEATS];
        let mut wild = 0;
        for (i, tile) in self.tiles.iter().enumerate() {
            match tile {
                Tile::Node(n) => nodes[n.index()] += 1,
                Tile::Wall(s) if s.number() > seats => {
                    return Err(BoardError::Contents(format!(
                        "{} holds {s}, but there are only {seats} seats",
                        cell_of(i)
                    )));
                }
                Tile::Wall(s) => walls[s.index()] += 1,
                Tile::Wild => wild += 1,
                Tile::Unowned => {}
            }
        }
        let mut problems = Vec::new();
        for node in Node::all() {
            if nodes[node.index()] != 1 {
                problems.push(format!("{node} appears {} times", nodes[node.index()]));
            }
        }
        for seat in Seat::all(seats) {
            if walls[seat.index()] != WALLS_PER_SEAT {
                problems.push(format!("{seat} has {} walls", walls[seat.index()]));
            }
        }
        if wild != WILD_WALLS {
            problems.push(format!("there are {wild} wild walls"));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(BoardError::Contents(format!(
                "a grid needs each of N1-N9 once, {WILD_WALLS} wild walls and {WALLS_PER_SEAT} walls per seat: {}",
                problems.join(", ")
            )))
        }
    }

    /// Reads the 9-line grid text of the contract for a table of `seats`. Blank lines and
    /// lines starting with `#` are ignored; a CR before each LF is dropped.
    pub fn parse(text: &str, seats: usize) -> Result<Board, BoardError> {
        if !(MIN_SEATS..=MAX_SEATS).contains(&seats) {
            return Err(BoardError::Seats(seats));
        }
        let hex = geometry().hex;
        let mut tiles = [Tile::Unowned; TILES];
        let mut rows = 0;
        for (n, raw) in text.split('\n').enumerate() {
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            let trimmed = line.trim_matches([' ', '\t']);
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let err = |reason: String| BoardError::Line {
                line: n + 1,
                reason,
            };
            if rows == hex.row_count() {
                return Err(err("more than the 9 rows A to I".into()));
            }
            let letter = (b'A' + rows as u8) as char;
            let body = trimmed
                .strip_prefix([letter, letter.to_ascii_lowercase()])
                .and_then(|rest| rest.strip_prefix(':'))
                .ok_or_else(|| {
                    err(format!(
                        "expected row {letter}, like '{letter}: N1 P3 W ...'"
                    ))
                })?;
            let fields: Vec<&str> = body.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
            let len = hex.row_len(rows);
            if fields.len() != len {
                return Err(err(format!(
                    "row {letter} has {} tiles, it needs {len}",
                    fields.len()
                )));
            }
            let start = hex.index(HexCell::new(rows as u8, 0));
            for (place, field) in fields.iter().enumerate() {
                tiles[start + place] = field
                    .parse()
                    .map_err(|e| err(format!("{letter}{}: {e}", place + 1)))?;
            }
            rows += 1;
        }
        if rows != hex.row_count() {
            return Err(BoardError::RowCount(rows));
        }
        Board::new(tiles, seats)
    }

    /// Reads a grid text, taking the number of seats from the highest seat that owns walls.
    pub fn parse_any_seats(text: &str) -> Result<Board, BoardError> {
        let seats = (MIN_SEATS..=MAX_SEATS)
            .rev()
            .find(|s| text.to_ascii_uppercase().contains(&format!("P{s}")))
            .unwrap_or(MIN_SEATS);
        Board::parse(text, seats)
    }

    /// The number of seats at the table.
    pub const fn seats(&self) -> usize {
        self.seats as usize
    }

    /// The tile at an index.
    pub fn tile(&self, tile: usize) -> Tile {
        self.tiles[tile]
    }

    /// The tiles in reading order.
    pub fn tiles(&self) -> &[Tile; TILES] {
        &self.tiles
    }

    /// Swaps the contents of two tiles.
    pub fn swap(&mut self, a: usize, b: usize) {
        self.tiles.swap(a, b);
    }

    /// The tile index of each node, `N1` first.
    pub fn node_tiles(&self) -> [usize; NODES] {
        let mut at = [0; NODES];
        for (i, tile) in self.tiles.iter().enumerate() {
            if let Tile::Node(n) = tile {
                at[n.index()] = i;
            }
        }
        at
    }

    /// The tiles matching a test, as a mask.
    pub fn mask(&self, mut test: impl FnMut(Tile) -> bool) -> TileMask {
        self.tiles
            .iter()
            .enumerate()
            .filter(|&(_, &t)| test(t))
            .fold(0, |m, (i, _)| m | bit(i))
    }

    /// The text of one row, like `A: N1 P3 W P1 P7`.
    pub fn row_text(&self, row: usize) -> String {
        let hex = geometry().hex;
        let start = hex.index(HexCell::new(row as u8, 0));
        let tiles: Vec<String> = self.tiles[start..start + hex.row_len(row)]
            .iter()
            .map(Tile::to_string)
            .collect();
        format!("{}: {}", (b'A' + row as u8) as char, tiles.join(" "))
    }

    /// The 9 row lines.
    pub fn rows(&self) -> Vec<String> {
        (0..geometry().hex.row_count())
            .map(|r| self.row_text(r))
            .collect()
    }
}

impl fmt::Display for Board {
    /// The 9 lines of the contract's grid text, joined by newlines (no final newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rows().join("\n"))
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({} seats)\n{self}", self.seats)
    }
}

impl Serialize for Board {
    /// A grid serialises as its 9 row lines.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.rows().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Board, D::Error> {
        let rows = Vec::<String>::deserialize(deserializer)?;
        Board::parse_any_seats(&rows.join("\n")).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A 10-player grid: nodes on A1.., walls of seats in reading order, wild walls last.
    pub(crate) const TEN: &str = "\
A: N1 N2 N3 N4 N5
B: N6 N7 N8 N9 P1 P1
C: P1 P1 P1 P2 P2 P2 P2
D: P2 P3 P3 P3 P3 P3 P4 P4
E: P4 P4 P4 P5 P5 P5 P5 P5 P6
F: P6 P6 P6 P6 P7 P7 P7 P7
G: P7 P8 P8 P8 P8 P8 P9
H: P9 P9 P9 P9 P10 P10
I: P10 P10 P10 W W";

    #[test]
    fn grid_text_round_trips() {
        let board = Board::parse(TEN, 10).unwrap();
        assert_eq!(board.to_string(), TEN);
        assert_eq!(board.tile(parse_tile("e9").unwrap()), Tile::Wall(Seat(6)));
        let json = serde_json::to_string(&board).unwrap();
        assert_eq!(serde_json::from_str::<Board>(&json).unwrap(), board);
    }

    #[test]
    fn grid_text_tolerates_comments_tabs_and_crlf() {
        let text = format!("# a comment\r\n\r\n{}\r\n", TEN.replace("A: ", "a:\t"));
        let text = text.replace('\n', "\r\n").replace("\r\r", "\r");
        assert_eq!(
            Board::parse(&text, 10).unwrap(),
            Board::parse(TEN, 10).unwrap()
        );
    }

    #[test]
    fn bad_grids_are_refused_with_reasons() {
        let cases = [
            (TEN.replace("I: P10 P10 P10 W W", ""), "9 rows"),
            (TEN.replace("B: N6", "C: N6"), "expected row B"),
            (TEN.replace("A: N1 N2", "A: N1 N1"), "N2 appears 0 times"),
            (
                TEN.replace("I: P10 P10 P10 W W", "I: P10 P10 P10 W P10"),
                "1 wild walls",
            ),
            (
                TEN.replace("A: N1 N2 N3 N4 N5", "A: N1 N2 N3 N4"),
                "needs 5",
            ),
            (TEN.replace("N5", "X5"), "'X5' is not a tile"),
            (TEN.replace("N5", "P11"), "not a tile"),
        ];
        for (text, expected) in cases {
            let err = Board::parse(&text, 10).unwrap_err().to_string();
            assert!(err.contains(expected), "{err:?} lacks {expected:?}");
        }
        assert!(
            Board::parse(TEN, 9)
                .unwrap_err()
                .to_string()
                .contains("only 9 seats")
        );
        assert!(matches!(Board::parse(TEN, 8), Err(BoardError::Seats(8))));
    }

    #[test]
    fn nine_players_leave_five_unowned_walls() {
        let text = TEN.replace("P10", "U");
        let board = Board::parse(&text, 9).unwrap();
        assert_eq!(board.mask(|t| t == Tile::Unowned).count_ones(), 5);
        assert_eq!(Board::parse_any_seats(&text).unwrap().seats(), 9);
    }

    proptest::proptest! {
        #[test]
        fn grid_parsing_never_panics(text in "[A-Ia-i:NPWU0-9 \t#\r\n]{0,300}") {
            if let Ok(board) = Board::parse(&text, 10) {
                proptest::prop_assert_eq!(Board::parse(&board.to_string(), 10), Ok(board));
            }
        }

        #[test]
        fn mutated_grids_are_refused_or_round_trip(pos in 0usize..200, byte in 0u8..128) {
            let mut bytes = TEN.as_bytes().to_vec();
            let pos = pos % bytes.len();
            bytes[pos] = byte;
            if let Ok(text) = String::from_utf8(bytes)
                && let Ok(board) = Board::parse(&text, 10)
            {
                proptest::prop_assert_eq!(Board::parse(&board.to_string(), 10), Ok(board));
            }
        }
    }

    #[test]
    fn seats_go_round_the_table() {
        let s1 = Seat::new(1).unwrap();
        assert_eq!(s1.around(-1, 10), Seat(10));
        assert_eq!(s1.around(5, 10), s1.around(-5, 10));
        assert_eq!(s1.around(5, 9), Seat(6));
        assert_eq!(s1.around(-5, 9), Seat(5));
    }
}
