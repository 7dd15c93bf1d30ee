//! The games the command knows, in one place: add a game by adding a line to `with_game!`
//! and to `GAMES`.

/// The game ids the position-based commands accept, in the order `--help` lists them.
pub(crate) const GAMES: &[&str] = &["swaptimum", "flipstop", "scware", "rapid-transit"];

/// Runs `$body` with `$g` bound to the position type of the game named `$id` (a `&str`), or
/// returns a bad-input error for an unknown game.
macro_rules! with_game {
    ($id:expr, $g:ident => $body:expr) => {
        match $id {
            "swaptimum" => {
                type $g = swapboard_swaptimum::Swaptimum;
                $body
            }
            "flipstop" => {
                type $g = swapboard_flipstop::Flipstop;
                $body
            }
            "scware" => {
                type $g = swapboard_scware::Scware;
                $body
            }
            "rapid-transit" => {
                type $g = swapboard_rapid_transit::RapidTransit;
                $body
            }
            other => Err($crate::error::CliError::bad(format!(
                "unknown game '{other}' (known games: {})",
                $crate::games::GAMES.join(", ")
            ))),
        }
    };
}

pub(crate) use with_game;
