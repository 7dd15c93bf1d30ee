//! Helpers for the position text of the contract: `<game> <rows> <to-move> [<fields>...]`.

use std::ops::RangeInclusive;

use crate::{Player, PositionError, StoneBoard};

/// The whitespace-separated fields of a position text after checking that it names `game`
/// and has exactly `fields` fields in all (game word included).
pub fn fields<'a>(text: &'a str, game: &str, fields: usize) -> Result<Vec<&'a str>, PositionError> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    match parts.first() {
        None => return Err(PositionError::unreadable("the position is empty")),
        Some(&g) if g != game => {
            return Err(PositionError::unknown_game(format!(
                "the position is of game '{g}', not '{game}'"
            )));
        }
        _ => {}
    }
    if parts.len() != fields {
        return Err(PositionError::unreadable(format!(
            "a {game} position has {fields} fields (game, rows, player to move{}), found {}",
            if fields > 3 { ", ..." } else { "" },
            parts.len()
        )));
    }
    Ok(parts)
}

/// Reads the player-to-move field: one of the two colour letters.
pub fn player(field: &str, letters: [char; 2]) -> Result<Player, PositionError> {
    let mut chars = field.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c == letters[0] => Ok(Player::First),
        (Some(c), None) if c == letters[1] => Ok(Player::Second),
        _ => Err(PositionError::unreadable(format!(
            "the player to move is '{field}', expected '{}' or '{}'",
            letters[0], letters[1]
        ))),
    }
}

/// Reads `<game> <rows> <to-move>`, the whole position text of the crosscut games, refusing a
/// board on which a crosscut stands (no game of `game` can reach one).
pub fn crosscut_free_position(
    text: &str,
    game: &str,
    letters: [char; 2],
    sizes: RangeInclusive<usize>,
) -> Result<(StoneBoard, Player), PositionError> {
    let fields = fields(text, game, 3)?;
    let board = StoneBoard::parse_rows(fields[1], letters, sizes)?;
    let to_move = player(fields[2], letters)?;
    if let Some(cell) = board.find_crosscut() {
        return Err(PositionError::unreachable(format!(
            "a crosscut stands at {}: no {game} game can reach it",
            board.block_name(board.square().slot(cell))
        )));
    }
    Ok((board, to_move))
}

/// The first word of a position text: the game it is of.
pub fn game_of(text: &str) -> Option<&str> {
    text.split_whitespace().next()
}

/// `text` made safe inside XML and SVG text and attribute values: `&`, `<`, `>` and `"` become
/// entities. The one escaper of the workspace's pictures.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escape_leaves_no_markup() {
        assert_eq!(
            xml_escape(r#"Red & Blue <"1">"#),
            "Red &amp; Blue &lt;&quot;1&quot;&gt;"
        );
        assert_eq!(
            xml_escape("Scware by Christian Freeling"),
            "Scware by Christian Freeling"
        );
    }

    #[test]
    fn fields_check_game_and_count() {
        assert_eq!(fields("g a R", "g", 3).unwrap(), ["g", "a", "R"]);
        assert!(fields("h a R", "g", 3).unwrap_err().reason.contains("'h'"));
        assert!(fields("g a", "g", 3).is_err());
        assert!(fields("", "g", 3).is_err());
        assert_eq!(player("B", ['R', 'B']).unwrap(), Player::Second);
        assert!(player("RB", ['R', 'B']).is_err());
    }
}
