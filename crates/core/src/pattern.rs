//! Move patterns of the placement games and the tables of learned priors they index.
//!
//! The pattern of a placement is what lies around the placed cell, seen from the mover: each
//! of its 8 neighbours is empty, the mover's, the opponent's or off the board (2 bits each),
//! plus one bit a game sets for what its move does beyond placing (see
//! [`crate::Game::move_pattern`]). The board is read in the mover's frame: the first player
//! joins the top and bottom rows, so the second player's neighbourhood is transposed, and
//! then both join the rows above and below them. Of the images of that neighbourhood under
//! the reflections that keep the mover's axis (left-right, top-bottom, both), the smallest
//! code is the pattern, so that a move and its mirror images share their statistics.
//!
//! A [`PriorTable`] maps patterns to weights in [0, 1], as trained by `swapboard train` from
//! self-play and shipped as a small text file per game (the format: [`PriorTable::parse`]).

use std::fmt;

use crate::{Player, StoneBoard};

/// The number of patterns: every pattern is below it.
pub const PATTERN_COUNT: usize = 1 << 17;

/// The bit of a pattern a game sets for what its move does beyond placing.
pub const EFFECT_BIT: u32 = 1 << 16;

/// The neighbours in pattern order, as (column step, row step) in the mover's frame (rows
/// grow upwards): the row above from left to right, left, right, the row below.
const NEIGHBOURS: [(isize, isize); 8] = [
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The reflections that keep the mover's axis, as permutations of the neighbour positions:
/// left-right, top-bottom, and both (the half turn).
const REFLECTIONS: [[usize; 8]; 3] = [
    [2, 1, 0, 4, 3, 7, 6, 5],
    [5, 6, 7, 3, 4, 0, 1, 2],
    [7, 6, 5, 4, 3, 2, 1, 0],
];

/// The code of a stone seen by the second player: own and opponent exchange.
const SECOND_SEES: [u32; 4] = [0, 2, 1, 3];

/// The pattern of placing on the empty `slot` of `board` by `mover`, with `effect` (the
/// game's extra bit). Reads 8 cells and allocates nothing.
pub fn placement_pattern(board: &StoneBoard, slot: usize, mover: Player, effect: bool) -> u32 {
    let stride = board.square().stride() as isize;
    let mut seen = [0u32; 8];
    for (code, &(dc, dr)) in seen.iter_mut().zip(&NEIGHBOURS) {
        // The second player's frame is the board transposed: its columns are the rows.
        let offset = match mover {
            Player::First => dr * stride + dc,
            Player::Second => dc * stride + dr,
        };
        let stone = board.get(slot.wrapping_add_signed(offset)) as u32;
        *code = match mover {
            Player::First => stone,
            Player::Second => SECOND_SEES[stone as usize],
        };
    }
    let code_of = |order: &[usize; 8]| -> u32 {
        order
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &from)| acc | (seen[from] << (2 * i)))
    };
    let plain = code_of(&[0, 1, 2, 3, 4, 5, 6, 7]);
    let canonical = REFLECTIONS.iter().map(code_of).fold(plain, u32::min);
    canonical | if effect { EFFECT_BIT } else { 0 }
}

/// Why a prior table's text was refused: the line (from 1) and the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriorError {
    /// The line the problem is on (1 is the header).
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for PriorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "prior table, line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for PriorError {}

/// Learned move priors: a weight in [0, 1] for each pattern seen in training, a neutral
/// weight for the others. Looked up by index, no hashing.
#[derive(Debug, Clone, PartialEq)]
pub struct PriorTable {
    /// The header's `key=value` fields after the format name, in file order.
    header: Vec<(String, String)>,
    /// The weight of every pattern (the neutral one where none was trained).
    weights: Box<[f32]>,
    /// The weight of patterns no training saw.
    neutral: f32,
    /// The patterns written in the file, in increasing order.
    listed: Vec<u32>,
}

/// The first word of a prior table's header.
const FORMAT: &str = "swapboard-priors";

impl PriorTable {
    /// A table with `header` fields (`game`, `seed`, ... as `key=value`, no spaces), the
    /// `neutral` weight for unseen patterns and `weights` for the listed patterns.
    pub fn new(
        header: Vec<(String, String)>,
        neutral: f32,
        weights: impl IntoIterator<Item = (u32, f32)>,
    ) -> PriorTable {
        let mut table = PriorTable {
            header,
            weights: vec![neutral; PATTERN_COUNT].into_boxed_slice(),
            neutral,
            listed: Vec::new(),
        };
        table.header.retain(|(k, _)| k != "neutral");
        table
            .header
            .push(("neutral".to_string(), format_weight(neutral)));
        for (pattern, weight) in weights {
            table.weights[pattern as usize] = weight;
            table.listed.push(pattern);
        }
        table.listed.sort_unstable();
        table.listed.dedup();
        table
    }

    /// Reads a table written by [`PriorTable::to_text`] for game `game`:
    ///
    /// ```text
    /// swapboard-priors format=1 game=swaptimum size=9 games=600 player=mcts:level=4 seed=28 neutral=0.0812
    /// 4369 0.4512
    /// ...
    /// ```
    ///
    /// The header names the format (1), the game and the weight of unseen patterns
    /// (`neutral`), and whatever else the training recorded; then one `pattern weight` line
    /// per trained pattern, patterns increasing, weights from 0 to 1. Blank lines are
    /// allowed at the end only.
    pub fn parse(text: &str, game: &str) -> Result<PriorTable, PriorError> {
        let fail = |line: usize, reason: String| PriorError { line, reason };
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let Some((_, first)) = lines.next() else {
            return Err(fail(1, "the file is empty (expected the header)".into()));
        };
        let mut words = first.split(' ');
        if words.next() != Some(FORMAT) {
            return Err(fail(1, format!("the header must start with '{FORMAT}'")));
        }
        let mut header = Vec::new();
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                return Err(fail(1, format!("'{word}' is not key=value")));
            };
            header.push((key.to_string(), value.to_string()));
        }
        let field = |key: &str| header.iter().find(|(k, _)| k == key).map(|(_, v)| v);
        match field("format").map(String::as_str) {
            Some("1") => {}
            Some(other) => return Err(fail(1, format!("format {other} is not known (1 is)"))),
            None => return Err(fail(1, "the header names no format".into())),
        }
        match field("game") {
            Some(g) if g == game => {}
            Some(g) => return Err(fail(1, format!("the table is for {g}, not {game}"))),
            None => return Err(fail(1, "the header names no game".into())),
        }
        let neutral = field("neutral")
            .ok_or_else(|| fail(1, "the header gives no neutral weight".into()))
            .and_then(|v| read_weight(v).map_err(|r| fail(1, format!("neutral: {r}"))))?;
        let mut weights = Vec::new();
        let mut blank_from = None;
        for (number, line) in lines {
            if line.trim().is_empty() {
                blank_from.get_or_insert(number);
                continue;
            }
            if let Some(blank) = blank_from {
                return Err(fail(blank, "a blank line before the end".into()));
            }
            let Some((pattern, weight)) = line.split_once(' ') else {
                return Err(fail(number, format!("'{line}' is not 'pattern weight'")));
            };
            let pattern = pattern
                .parse::<u32>()
                .ok()
                .filter(|&p| (p as usize) < PATTERN_COUNT)
                .ok_or_else(|| {
                    fail(
                        number,
                        format!("pattern '{pattern}' is not a number below {PATTERN_COUNT}"),
                    )
                })?;
            if let Some(&(last, _)) = weights.last()
                && pattern <= last
            {
                return Err(fail(
                    number,
                    format!("pattern {pattern} comes after {last} (patterns must increase)"),
                ));
            }
            let weight = read_weight(weight).map_err(|r| fail(number, r))?;
            weights.push((pattern, weight));
        }
        Ok(PriorTable::new(header, neutral, weights))
    }

    /// The table a game ships compiled in (`include_str!`), read once at first use.
    ///
    /// # Panics
    ///
    /// If the text is damaged: a build of the program, never its input, and each game's
    /// tests load its table.
    pub fn shipped(text: &str, game: &str) -> PriorTable {
        PriorTable::parse(text, game)
            .unwrap_or_else(|e| panic!("the shipped {game} priors are damaged: {e}"))
    }

    /// The weight of `pattern` (a value from [`placement_pattern`]), from 0 to 1.
    #[inline]
    pub fn weight(&self, pattern: u32) -> f32 {
        self.weights[pattern as usize & (PATTERN_COUNT - 1)]
    }

    /// The weight of patterns no training saw.
    pub fn neutral(&self) -> f32 {
        self.neutral
    }

    /// The number of trained patterns.
    pub fn len(&self) -> usize {
        self.listed.len()
    }

    /// Whether no pattern was trained.
    pub fn is_empty(&self) -> bool {
        self.listed.is_empty()
    }

    /// The table as the text [`PriorTable::parse`] reads.
    pub fn to_text(&self) -> String {
        let mut text = String::from(FORMAT);
        for (key, value) in &self.header {
            text.push_str(&format!(" {key}={value}"));
        }
        text.push('\n');
        for &pattern in &self.listed {
            let weight = format_weight(self.weights[pattern as usize]);
            text.push_str(&format!("{pattern} {weight}\n"));
        }
        text
    }
}

/// A weight as written in a table: four decimals.
fn format_weight(weight: f32) -> String {
    format!("{weight:.4}")
}

/// A weight read from a table: a number from 0 to 1.
fn read_weight(text: &str) -> Result<f32, String> {
    text.parse::<f32>()
        .ok()
        .filter(|w| (0.0..=1.0).contains(w))
        .ok_or_else(|| format!("weight '{text}' is not a number from 0 to 1"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Stone;
    use swapboard_grid::{Cell, Square};

    fn board(rows: &[&str]) -> StoneBoard {
        let mut board = StoneBoard::empty(Square::new(rows.len()).unwrap());
        let n = rows.len();
        for (i, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let stone = match ch {
                    'R' => Stone::First,
                    'B' => Stone::Second,
                    _ => continue,
                };
                let slot = board.square().slot(Cell::new(c as u8, (n - 1 - i) as u8));
                board.set(slot, stone);
            }
        }
        board
    }

    fn pattern(rows: &[&str], col: u8, row: u8, mover: Player) -> u32 {
        let b = board(rows);
        let slot = b.square().slot(Cell::new(col, row));
        placement_pattern(&b, slot, mover, false)
    }

    #[test]
    fn mirror_images_share_a_pattern_and_other_shapes_do_not() {
        // Red stone above-left of b2, and its three mirror images.
        let images = [
            ["R..", "...", "..."],
            ["..R", "...", "..."],
            ["...", "...", "R.."],
            ["...", "...", "..R"],
        ];
        let p = pattern(&images[0], 1, 1, Player::First);
        for rows in &images {
            assert_eq!(pattern(rows, 1, 1, Player::First), p);
        }
        // A stone directly above is another shape; so is an opponent's stone.
        assert_ne!(pattern(&[".R.", "...", "..."], 1, 1, Player::First), p);
        assert_ne!(pattern(&["B..", "...", "..."], 1, 1, Player::First), p);
    }

    #[test]
    fn each_player_sees_the_board_from_its_own_sides() {
        // Red with its own stone above (towards its top side) is Blue with its own stone
        // to the right (towards its right side): the same pattern.
        let red = pattern(&[".R.", "...", "..."], 1, 1, Player::First);
        let blue = pattern(&["...", "..B", "..."], 1, 1, Player::Second);
        assert_eq!(red, blue);
        // A stone beside Red is not a stone beside Blue.
        let beside_blue = pattern(&["...", "..B", "..."], 1, 1, Player::First);
        assert_ne!(red, pattern(&["...", "..R", "..."], 1, 1, Player::First));
        assert_ne!(blue, beside_blue);
        // The edge: Red on its bottom row sees the board's end below, Blue on the left
        // column sees it on its own side.
        let red_edge = pattern(&["...", "...", "..."], 1, 0, Player::First);
        let blue_edge = pattern(&["...", "...", "..."], 0, 1, Player::Second);
        assert_eq!(red_edge, blue_edge);
        assert_ne!(
            red_edge,
            pattern(&["...", "...", "..."], 0, 1, Player::First)
        );
    }

    #[test]
    fn the_effect_bit_is_kept_apart() {
        let b = board(&["R..", "...", "..."]);
        let slot = b.square().slot(Cell::new(1, 1));
        let plain = placement_pattern(&b, slot, Player::First, false);
        let with = placement_pattern(&b, slot, Player::First, true);
        assert_eq!(with, plain | EFFECT_BIT);
        assert!((with as usize) < PATTERN_COUNT);
    }

    #[test]
    fn a_table_reads_back_what_it_wrote() {
        let header = vec![
            ("format".to_string(), "1".to_string()),
            ("game".to_string(), "swaptimum".to_string()),
            ("seed".to_string(), "7".to_string()),
        ];
        let table = PriorTable::new(header, 0.25, [(9, 1.0), (3, 0.0), (70_000, 0.5)]);
        let text = table.to_text();
        assert!(
            text.starts_with("swapboard-priors format=1 game=swaptimum seed=7 neutral=0.2500\n")
        );
        let back = PriorTable::parse(&text, "swaptimum").unwrap();
        assert_eq!(back, table);
        assert_eq!(back.weight(9), 1.0);
        assert_eq!(back.weight(3), 0.0);
        assert_eq!(back.weight(4), 0.25);
        assert_eq!(back.neutral(), 0.25);
        assert_eq!(back.len(), 3);
    }

    #[test]
    fn a_damaged_table_is_refused_with_its_line_and_reason() {
        let head = "swapboard-priors format=1 game=flipstop neutral=0.1";
        for (text, line, reason) in [
            ("", 1, "empty"),
            ("priors format=1", 1, "must start with"),
            (
                "swapboard-priors format=2 game=flipstop neutral=0.1",
                1,
                "format 2",
            ),
            (
                "swapboard-priors format=1 game=swaptimum neutral=0.1",
                1,
                "for swaptimum",
            ),
            ("swapboard-priors format=1 game=flipstop", 1, "no neutral"),
            (
                "swapboard-priors format=1 game=flipstop neutral=2",
                1,
                "from 0 to 1",
            ),
            (
                "swapboard-priors format=1 game flipstop",
                1,
                "not key=value",
            ),
            (&format!("{head}\n5 0.5\n7"), 3, "not 'pattern weight'"),
            (&format!("{head}\n5 0.5\n4 0.5"), 3, "must increase"),
            (&format!("{head}\n131072 0.5"), 2, "below 131072"),
            (&format!("{head}\n5 1.5"), 2, "from 0 to 1"),
            (&format!("{head}\n5 nan"), 2, "from 0 to 1"),
            (&format!("{head}\n\n5 0.5"), 2, "blank line"),
        ] {
            let error = PriorTable::parse(text, "flipstop").unwrap_err();
            assert_eq!(error.line, line, "{text:?}: {error}");
            assert!(error.reason.contains(reason), "{text:?}: {error}");
        }
        assert!(PriorTable::parse(&format!("{head}\n5 0.5\n\n"), "flipstop").is_ok());
    }
}
