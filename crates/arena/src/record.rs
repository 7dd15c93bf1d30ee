//! The record of a game: a PGN-like text of tag pairs and numbered moves in the contract's
//! notation (`docs/RECORDS.md`).
//!
//! ```text
//! [Game "swaptimum"]
//! [Size "9"]
//! [Players "mcts:level=8 vs greedy"]
//! [Date "2026.11.21"]
//! [Result "R"]
//! [Termination "rules"]
//!
//! 1. e5 2. d4 3. c3:c4-d3 ... R
//! ```
//!
//! The result token ending the moves is the winner's colour letter, `draw`, or `*` for a game
//! without a result (stopped at a ply cap, unfinished, or aborted). A game won by resignation
//! or on time has the winner's letter and says so in its `Termination` tag (`resigned`,
//! `timeout`); so does a game an administrator decided (`adjudicated`). Several records in
//! one file are separated by blank lines.

use std::fmt;
use std::str::FromStr;

use swapboard_core::{Game, Outcome};

/// How a recorded game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordResult {
    /// The player with this colour letter won.
    Win(char),
    /// The rules drew the game.
    Draw,
    /// No result of the rules: unfinished, or stopped at a ply cap.
    Unfinished,
}

impl RecordResult {
    /// The result of a game of `G` that ended with `outcome` (`None`: no result).
    pub fn of<G: Game>(outcome: Option<Outcome>) -> RecordResult {
        match outcome {
            Some(Outcome::Win(p)) => RecordResult::Win(G::colour_letter(p)),
            Some(Outcome::Draw) => RecordResult::Draw,
            None => RecordResult::Unfinished,
        }
    }
}

impl fmt::Display for RecordResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordResult::Win(letter) => write!(f, "{letter}"),
            RecordResult::Draw => f.write_str("draw"),
            RecordResult::Unfinished => f.write_str("*"),
        }
    }
}

impl FromStr for RecordResult {
    type Err = String;

    fn from_str(text: &str) -> Result<RecordResult, String> {
        let mut chars = text.chars();
        match (text, chars.next(), chars.next()) {
            ("draw", ..) => Ok(RecordResult::Draw),
            ("*", ..) => Ok(RecordResult::Unfinished),
            (_, Some(c), None) if c.is_ascii_uppercase() => Ok(RecordResult::Win(c)),
            _ => Err(format!(
                "'{text}' is not a result (a colour letter, draw or *)"
            )),
        }
    }
}

/// Why a record could not be read or replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct RecordError {
    /// The line of the text (from 1; for a replay, the line of the record's first move).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// One game: its tag pairs in order, its moves as text, its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The tag pairs (`Game`, `Size`, `Players`, `Date`, `Result`, `Termination`, and
    /// `Start` when the game did not begin at the start position), in order.
    pub tags: Vec<(String, String)>,
    /// The moves, in the contract's notation.
    pub moves: Vec<String>,
    /// The result.
    pub result: RecordResult,
}

impl GameRecord {
    /// An empty record of a game of `G` on a board of `size`, with the `Game` and `Size`
    /// tags.
    pub fn new<G: Game>(size: usize) -> GameRecord {
        GameRecord {
            tags: vec![
                ("Game".to_string(), G::ID.to_string()),
                ("Size".to_string(), size.to_string()),
            ],
            moves: Vec::new(),
            result: RecordResult::Unfinished,
        }
    }

    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing its value if it is there, appending it otherwise.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// Whether the `Termination` tag says the game ended off the board (`resigned`,
    /// `timeout`, `aborted`, `adjudicated`): then the result is the players', not the final position's.
    pub fn ended_off_the_board(&self) -> bool {
        matches!(
            self.tag("Termination"),
            Some("resigned" | "timeout" | "aborted" | "adjudicated")
        )
    }

    /// The two players of the `Players` tag (`first vs second`).
    pub fn players(&self) -> Option<(&str, &str)> {
        self.tag("Players")?.split_once(" vs ")
    }

    /// Replays the record as a game of `G`: the start position (the `Start` tag, or the
    /// start of the `Size` tag's board) and the position after each move; checks that the
    /// `Game` tag names `G` and, for a result of the rules, that the final position has it.
    pub fn replay<G: Game>(&self) -> Result<Vec<G>, RecordError> {
        self.replay_at(&RecordLines::default())
    }

    /// [`GameRecord::replay`], an error naming the line of the text where the faulty tag,
    /// move or result stands (`lines` from [`read_records_with_lines`]).
    pub fn replay_at<G: Game>(&self, lines: &RecordLines) -> Result<Vec<G>, RecordError> {
        let start_line = lines.start.max(1);
        let fail = |reason: String| RecordError {
            line: start_line,
            reason,
        };
        if self.tag("Game") != Some(G::ID) {
            return Err(fail(format!("the record is not a game of {}", G::ID)));
        }
        let start = match (self.tag("Start"), self.tag("Size")) {
            (Some(text), _) => text
                .parse::<G>()
                .map_err(|e| fail(format!("Start tag: {e}")))?,
            (None, Some(size)) => {
                let size: usize = size
                    .parse()
                    .map_err(|_| fail(format!("Size tag '{size}' is not a number")))?;
                G::start(size).map_err(|e| fail(format!("Size tag: {e}")))?
            }
            (None, None) => G::start(G::DEFAULT_SIZE).map_err(|e| fail(e.to_string()))?,
        };
        let mut positions = vec![start];
        for (i, text) in self.moves.iter().enumerate() {
            let mut next = positions[positions.len() - 1].clone();
            next.play_text(text).map_err(|e| RecordError {
                line: lines.moves.get(i).copied().unwrap_or(start_line),
                reason: format!("move {}: {e}", i + 1),
            })?;
            positions.push(next);
        }
        let last = &positions[positions.len() - 1];
        let expected = RecordResult::of::<G>(last.outcome());
        if self.result != RecordResult::Unfinished
            && self.result != expected
            && !self.ended_off_the_board()
        {
            return Err(RecordError {
                line: lines.result.max(start_line),
                reason: format!(
                    "the record says {} but the game's result is {expected}",
                    self.result
                ),
            });
        }
        Ok(positions)
    }
}

/// Writes a tag value between quotes, escaping `"` and `\`.
fn quoted(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            writeln!(f, "[{name} \"{}\"]", quoted(value))?;
        }
        writeln!(f)?;
        let mut line = String::new();
        let tokens = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, mv)| format!("{}. {mv}", i + 1))
            .chain(std::iter::once(self.result.to_string()));
        for token in tokens {
            if !line.is_empty() && line.len() + 1 + token.len() > 79 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        writeln!(f, "{line}")
    }
}

/// Where a record stands in its text, for errors found after reading (lines from 1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordLines {
    /// The line of the record's first tag or move.
    pub start: usize,
    /// The line of each move.
    pub moves: Vec<usize>,
    /// The line of the result token.
    pub result: usize,
}

/// Reads every record of a text (records separated by blank lines).
pub fn read_records(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    Ok(read_records_with_lines(text)?
        .into_iter()
        .map(|(record, _)| record)
        .collect())
}

/// Reads every record of a text, each with the lines where its parts stand.
pub fn read_records_with_lines(text: &str) -> Result<Vec<(GameRecord, RecordLines)>, RecordError> {
    let mut records = Vec::new();
    let mut current: Option<(GameRecord, bool)> = None;
    let mut lines = RecordLines::default();
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        last_line = line_no;
        let fail = |reason: String| RecordError {
            line: line_no,
            reason,
        };
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            if let Some((record, true)) = &current {
                return Err(fail(format!(
                    "a new record starts before the result of the last one ({} moves)",
                    record.moves.len()
                )));
            }
            let (record, _) = current.get_or_insert_with(|| {
                lines = RecordLines {
                    start: line_no,
                    ..RecordLines::default()
                };
                (empty(), false)
            });
            let (name, value) = parse_tag(line).map_err(fail)?;
            record.tags.push((name, value));
            continue;
        }
        let (record, in_moves) = current.get_or_insert_with(|| {
            lines = RecordLines {
                start: line_no,
                ..RecordLines::default()
            };
            (empty(), false)
        });
        *in_moves = true;
        let tokens: Vec<&str> = line.split_whitespace().collect();
        for (t, token) in tokens.iter().enumerate() {
            if let Some(number) = token.strip_suffix('.') {
                let expected = record.moves.len() + 1;
                if number.parse::<usize>() != Ok(expected) {
                    return Err(fail(format!(
                        "move number '{token}' where {expected}. was expected"
                    )));
                }
            } else if let Ok(result) = token.parse::<RecordResult>() {
                if let Some(tag) = record.tag("Result")
                    && tag != *token
                {
                    return Err(fail(format!(
                        "the result {token} differs from the Result tag \"{tag}\""
                    )));
                }
                if t + 1 < tokens.len() {
                    return Err(fail(format!("'{}' after the result", tokens[t + 1])));
                }
                record.result = result;
                lines.result = line_no;
                break;
            } else {
                record.moves.push((*token).to_string());
                lines.moves.push(line_no);
            }
        }
        if tokens
            .last()
            .is_some_and(|t| t.parse::<RecordResult>().is_ok())
        {
            let (done, _) = current.take().expect("a record in progress");
            records.push((done, std::mem::take(&mut lines)));
        }
    }
    if current.is_some() {
        return Err(RecordError {
            line: last_line,
            reason: "the record ends without a result (a colour letter, draw or *)".to_string(),
        });
    }
    Ok(records)
}

fn empty() -> GameRecord {
    GameRecord {
        tags: Vec::new(),
        moves: Vec::new(),
        result: RecordResult::Unfinished,
    }
}

/// Reads `[Name "value"]`.
fn parse_tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| format!("'{line}' is not a tag pair [Name \"value\"]"))?;
    let (name, rest) = inner
        .split_once(' ')
        .ok_or_else(|| format!("tag '{line}' has no value"))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("tag name '{name}' is not a word"));
    }
    let body = rest
        .trim()
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(|| format!("the value of tag {name} is not in quotes"))?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('\\' | '"')) => value.push(e),
                _ => return Err(format!("tag {name}: a backslash must escape \\ or \"")),
            },
            '"' => {
                return Err(format!(
                    "tag {name}: a quote inside the value must be escaped"
                ));
            }
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

/// The date of an instant (ms since the Unix epoch, UTC) as records write it: `YYYY.MM.DD`.
pub fn date_of(unix_ms: i64) -> String {
    let (y, m, d) = civil_from_days(unix_ms.div_euclid(86_400_000));
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard Hinnant's method).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_day_counts_and_instants() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_778), (2026, 11, 21));
        assert_eq!(date_of(0), "1970.01.01");
        assert_eq!(date_of(20_778 * 86_400_000 + 86_399_999), "2026.11.21");
        assert_eq!(date_of(-1), "1969.12.31");
    }
}
