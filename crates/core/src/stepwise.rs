use crate::Game;

/// A game whose turns a search can build as a path of small decisions.
///
/// Scware's compound growth moves run to millions per turn: a tree search cannot list them,
/// so it searches [`Stepwise::Steps`] instead, a view of the game in which a move is one
/// decision (which liberty a group grows into, or none) and the player to move stays the same
/// until the turn is complete. Games whose moves are few enough to list use themselves as
/// their steps ([`whole_turns!`](crate::whole_turns)).
///
/// The search asks [`Stepwise::to_steps`] for the root, walks decisions, and turns the
/// decisions of the root player's turn back into one real move with
/// [`Stepwise::move_from_steps`].
pub trait Stepwise: Game {
    /// The game seen decision by decision.
    type Steps: Game;

    /// This position, at the start of its turn, as a step position.
    fn to_steps(&self) -> Self::Steps;

    /// The whole move made by `path`, the decisions of one turn taken from
    /// `self.to_steps()`, or `None` if the path does not complete a legal turn.
    fn move_from_steps(&self, path: &[<Self::Steps as Game>::Move]) -> Option<Self::Move>;

    /// The whole move made by `path`, trusted to be the legal decisions of one complete
    /// turn taken from `self.to_steps()`: a search that made each decision from the listed
    /// ones needs no replay to check them. On any other path the answer is unspecified
    /// (`None` or a move that is not legal), never a panic.
    ///
    /// By default it is [`Stepwise::move_from_steps`]; a game whose check replays the turn
    /// at a cost (listing every decision again) overrides it.
    fn move_from_steps_unchecked(
        &self,
        path: &[<Self::Steps as Game>::Move],
    ) -> Option<Self::Move> {
        self.move_from_steps(path)
    }
}

/// Implements [`Stepwise`] for a game whose whole moves are the search's decisions.
#[macro_export]
macro_rules! whole_turns {
    ($game:ty) => {
        impl $crate::Stepwise for $game {
            type Steps = $game;

            fn to_steps(&self) -> $game {
                self.clone()
            }

            fn move_from_steps(
                &self,
                path: &[<$game as $crate::Game>::Move],
            ) -> Option<<$game as $crate::Game>::Move> {
                match path {
                    [only] => Some(only.clone()),
                    _ => None,
                }
            }
        }
    };
}
