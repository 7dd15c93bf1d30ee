//! Submissions: a player's secret `CELL CELL TOKENS` lines, read and checked line by line.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::board::{Board, Seat, Tile, are_neighbours, cell_of, parse_tile};

/// An edge between two neighbouring tiles, an unordered pair stored low index first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct Edge {
    low: u8,
    high: u8,
}

impl Edge {
    /// The edge between two tiles (in any order), if they are neighbours.
    pub fn new(a: usize, b: usize) -> Option<Edge> {
        are_neighbours(a, b).then(|| Edge {
            low: a.min(b) as u8,
            high: a.max(b) as u8,
        })
    }

    /// The two tiles, in cell order.
    pub fn tiles(self) -> (usize, usize) {
        (usize::from(self.low), usize::from(self.high))
    }

    /// Whether the edge touches a tile.
    pub fn touches(self, tile: usize) -> bool {
        usize::from(self.low) == tile || usize::from(self.high) == tile
    }
}

impl fmt::Display for Edge {
    /// The two cells in cell order, like `A2 A3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = self.tiles();
        write!(f, "{} {}", cell_of(a), cell_of(b))
    }
}

/// Tokens placed on an edge by one accepted submission line.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Bid {
    /// The edge.
    pub edge: Edge,
    /// The tokens, at least 1.
    pub tokens: u32,
    /// The line of the submission it came from, from 1.
    pub line: usize,
}

/// Why a submission line was rejected, in words the player can read.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum RejectReason {
    /// The line is not three fields.
    Fields(usize),
    /// A field is not a cell of the hexagon.
    UnknownCell(String),
    /// The tokens field is not a positive whole number.
    NotANumber(String),
    /// The two cells do not share an edge.
    NotNeighbours(String, String),
    /// Neither tile is a wall of the submitter nor a wild wall.
    NotYours(String, String),
    /// The line would take the submitter's total over the allowance.
    OverAllowance {
        /// The tokens asked for on this line (saturated for absurd numbers).
        tokens: u64,
        /// The total accepted so far.
        spent: u32,
        /// The allowance of the round.
        allowance: u32,
    },
}

impl fmt::Display for RejectReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RejectReason::Fields(n) => write!(
                f,
                "expected three fields CELL CELL TOKENS (like 'A2 A3 5'), found {n}"
            ),
            RejectReason::UnknownCell(c) => {
                write!(
                    f,
                    "unknown cell '{c}' (rows A-I, numbered from 1 at the left)"
                )
            }
            RejectReason::NotANumber(t) => write!(
                f,
                "'{t}' is not a number of tokens (a whole number from 1, digits only)"
            ),
            RejectReason::NotNeighbours(a, b) => write!(f, "{a} and {b} are not neighbours"),
            RejectReason::NotYours(a, b) => write!(
                f,
                "neither {a} nor {b} is your wall or a wild wall at the start of the round"
            ),
            RejectReason::OverAllowance {
                tokens,
                spent,
                allowance,
            } => write!(
                f,
                "{tokens} tokens over your allowance: {spent} of {allowance} already spent"
            ),
        }
    }
}

/// A rejected line.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Rejection {
    /// The line number in the submission, from 1 (blank and `#` lines counted).
    pub line: usize,
    /// Why it was rejected.
    pub reason: RejectReason,
}

/// A checked submission: the accepted bids and the rejected lines, both in line order.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Submission {
    /// The accepted lines.
    pub bids: Vec<Bid>,
    /// The rejected lines.
    pub rejections: Vec<Rejection>,
}

impl Submission {
    /// The tokens accepted in all.
    pub fn spent(&self) -> u32 {
        self.bids.iter().map(|b| b.tokens).sum()
    }
}

/// Reads `[1-9][0-9]*` as a number, saturating absurdly long ones.
fn parse_tokens(text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    if bytes.first().is_none_or(|&b| !(b'1'..=b'9').contains(&b))
        || !bytes.iter().all(u8::is_ascii_digit)
    {
        return None;
    }
    Some(bytes.iter().fold(0u64, |acc, d| {
        acc.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    }))
}

/// Checks one line without regard to the allowance: the bid, or why it is refused.
fn check_line(line: &str, board: &Board, seat: Seat) -> Result<(Edge, u64), RejectReason> {
    let fields: Vec<&str> = line.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
    let &[a, b, tokens] = fields.as_slice() else {
        return Err(RejectReason::Fields(fields.len()));
    };
    let tile =
        |text: &str| parse_tile(text).ok_or_else(|| RejectReason::UnknownCell(text.to_string()));
    let (ta, tb) = (tile(a)?, tile(b)?);
    let tokens =
        parse_tokens(tokens).ok_or_else(|| RejectReason::NotANumber(tokens.to_string()))?;
    let names = || (cell_of(ta).to_string(), cell_of(tb).to_string());
    let edge = Edge::new(ta, tb).ok_or_else(|| {
        let (a, b) = names();
        RejectReason::NotNeighbours(a, b)
    })?;
    let mine = |t: usize| matches!(board.tile(t), Tile::Wild) || board.tile(t) == Tile::Wall(seat);
    if !mine(ta) && !mine(tb) {
        let (a, b) = names();
        return Err(RejectReason::NotYours(a, b));
    }
    Ok((edge, tokens))
}

/// The longest submission text a front end reads, in bytes: nine bids fit in a few dozen
/// bytes, comments included, and a longer text is refused before it is checked.
pub const SUBMISSION_BYTES: usize = 4 * 1024;

/// Reads and checks a submission of the player in `seat` against the grid at the start of
/// the round, with `allowance` tokens to spend.
///
/// Lines are `CELL CELL TOKENS`, fields separated by spaces or tabs, cells in either case.
/// Blank lines and lines whose first non-blank character is `#` are skipped. Lines are taken
/// in order: one that would take the total over the allowance is rejected, later lines that
/// fit are still accepted. A line ends at LF; a CR just before it is dropped.
pub fn check_submission(text: &str, board: &Board, seat: Seat, allowance: u32) -> Submission {
    let mut submission = Submission::default();
    let mut spent = 0u32;
    for (i, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let content = line.trim_start_matches([' ', '\t']);
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let number = i + 1;
        match check_line(line, board, seat) {
            Ok((edge, tokens)) if tokens <= u64::from(allowance - spent) => {
                spent += tokens as u32;
                submission.bids.push(Bid {
                    edge,
                    tokens: tokens as u32,
                    line: number,
                });
            }
            Ok((_, tokens)) => submission.rejections.push(Rejection {
                line: number,
                reason: RejectReason::OverAllowance {
                    tokens,
                    spent,
                    allowance,
                },
            }),
            Err(reason) => submission.rejections.push(Rejection {
                line: number,
                reason,
            }),
        }
    }
    submission
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::tests::TEN;
    use proptest::prelude::*;

    fn board() -> Board {
        Board::parse(TEN, 10).unwrap()
    }

    fn seat(n: usize) -> Seat {
        Seat::new(n).unwrap()
    }

    fn reasons(text: &str, s: usize, allowance: u32) -> Vec<(usize, String)> {
        check_submission(text, &board(), seat(s), allowance)
            .rejections
            .iter()
            .map(|r| (r.line, r.reason.to_string()))
            .collect()
    }

    #[test]
    fn the_sheet_example_reads_as_three_bids() {
        // P1 owns B5 B6 C1 C2 C3; the sheet's example lines, adapted to P1's walls.
        let text = "B5 B6 5\n\nC1 C2 3\nC3 D4 1\n";
        let sub = check_submission(text, &board(), seat(1), 9);
        assert!(sub.rejections.is_empty(), "{:?}", sub.rejections);
        assert_eq!(sub.bids.len(), 3);
        assert_eq!(sub.bids[1].line, 3);
        assert_eq!(sub.spent(), 9);
        assert_eq!(sub.bids[0].edge.to_string(), "B5 B6");
    }

    #[test]
    fn each_rejected_line_gets_its_reason() {
        let text = "\
# my bids
B5 B6
J1 B5 4
B5 B6 x
B5 B6 05
B5 B6 -3
B5 D5 4
A1 A2 4
B5 B6 5 # trailing comment
b5 b6 6
C1 C2 4
C2 C3 3";
        let got = reasons(text, 1, 9);
        let expect = [
            (2, "found 2"),
            (3, "unknown cell 'J1'"),
            (4, "'x' is not a number"),
            (5, "'05' is not a number"),
            (6, "'-3' is not a number"),
            (7, "B5 and D5 are not neighbours"),
            (8, "neither A1 nor A2 is your wall"),
            (9, "found 6"),
            (11, "4 tokens over your allowance: 6 of 9 already spent"),
        ];
        assert_eq!(got.len(), expect.len(), "{got:?}");
        for ((line, reason), (eline, ereason)) in got.iter().zip(expect) {
            assert_eq!(*line, eline);
            assert!(
                reason.contains(ereason),
                "line {line}: {reason:?} lacks {ereason:?}"
            );
        }
        // Line 12 fits after line 11 was refused: later lines that fit are accepted.
        let sub = check_submission(text, &board(), seat(1), 9);
        assert_eq!(
            sub.bids.iter().map(|b| b.line).collect::<Vec<_>>(),
            [10, 12]
        );
    }

    #[test]
    fn wild_walls_are_everyones_and_borrowed_walls_nobodys() {
        // I4 and I5 are the wild walls; H6 is P10's wall.
        assert!(reasons("H6 I5 4", 3, 9).is_empty());
        assert!(reasons("I4 I5 4", 3, 9).is_empty());
        // P2 would borrow P1 and P3 in round 1, but borrowed walls do not count.
        assert_eq!(reasons("B5 B6 4", 2, 9).len(), 1);
    }

    #[test]
    fn crlf_and_absurd_numbers() {
        let sub = check_submission(
            "B5 B6 4\r\nB5 B6 99999999999999999999999\r\n",
            &board(),
            seat(1),
            9,
        );
        assert_eq!(sub.bids.len(), 1);
        assert!(matches!(
            sub.rejections[0].reason,
            RejectReason::OverAllowance {
                tokens: u64::MAX,
                ..
            }
        ));
        // The same tile twice is not an edge.
        assert!(reasons("B5 B5 4", 1, 9)[0].1.contains("not neighbours"));
    }

    proptest! {
        #[test]
        fn never_panics_and_never_overspends(text in "[A-Ja-j0-9 \t#\r\n-]{0,120}", allowance in 0u32..12) {
            let sub = check_submission(&text, &board(), seat(1), allowance);
            prop_assert!(sub.spent() <= allowance);
            let lines = text.split('\n').count();
            for r in &sub.rejections {
                prop_assert!(r.line >= 1 && r.line <= lines);
            }
        }

        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,80}") {
            let _ = check_submission(&text, &board(), seat(4), 9);
        }
    }
}
