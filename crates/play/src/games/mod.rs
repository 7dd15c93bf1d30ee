//! Each game's glue to the play layer, one file per game: how its position is kept in an
//! [`AnyPosition`](crate::AnyPosition) (`Playable`), how its moves are built cell by cell
//! ([`Build`](crate::Build)) and what its moves say ([`Describe`](crate::words::Describe)).
//! A new game is one more file here, plus its variants in `game.rs` and `position.rs`
//! (docs/ARCHITECTURE.md, "Checklist: a new game").

/// Makes a game's position a [`Playable`](crate::Playable): the variant of
/// [`AnyPosition`](crate::AnyPosition) and of [`GameId`](crate::GameId) of the same name.
macro_rules! playable {
    ($g:ident) => {
        impl $crate::Playable for $g {
            const GAME: $crate::GameId = $crate::GameId::$g;

            fn erase(self) -> $crate::AnyPosition {
                $crate::AnyPosition::$g(self)
            }

            fn unerase(any: &$crate::AnyPosition) -> Option<&$g> {
                match any {
                    $crate::AnyPosition::$g(p) => Some(p),
                    _ => None,
                }
            }
        }
    };
}

mod flipstop;
mod rapid_transit;
mod scware;
mod swaptimum;
