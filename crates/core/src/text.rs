//! Helpers for the position text of the contract: `<game> <rows> <to-move> [<fields>...]`.

use crate::{Player, PositionError};

/// The whitespace-separated fields of a position text after checking that it names `game`
/// and has exactly `fields` fields in all (game word included).
pub fn fields<'a>(text: &'a str, game: &str, fields: usize) -> Result<Vec<&'a str>, PositionError> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    match parts.first() {
        None => return Err(PositionError::new("the position is empty")),
        Some(&g) if g != game => {
            return Err(PositionError::new(format!(
                "the position is of game '{g}', not '{game}'"
            )));
        }
        _ => {}
    }
    if parts.len() != fields {
        return Err(PositionError::new(format!(
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
        _ => Err(PositionError::new(format!(
            "the player to move is '{field}', expected '{}' or '{}'",
            letters[0], letters[1]
        ))),
    }
}

/// The first word of a position text: the game it is of.
pub fn game_of(text: &str) -> Option<&str> {
    text.split_whitespace().next()
}

#[cfg(test)]
mod tests {
    use super::*;

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
