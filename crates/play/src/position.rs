//! A position of any game, for code that holds games it does not know at compile time (a
//! server's map of tables, the engine protocol).

use std::fmt;
use std::str::FromStr;

use swapboard_core::{
    BoardView, Game, MoveError, Outcome, Player, PositionError, PositionErrorKind,
};
use swapboard_flipstop::Flipstop;
use swapboard_rapid_transit::RapidTransit;
use swapboard_scware::Scware;
use swapboard_swaptimum::Swaptimum;

use std::ops::ControlFlow;

use crate::builder::{Build, Draft, Selection};
use crate::game::{GameFn, GameId, Playable};

/// A position of one of the games of [`GameId::ALL`]. It serialises as its contract text,
/// and reads the game from the text's first word.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AnyPosition {
    /// A Swaptimum position.
    Swaptimum(Swaptimum),
    /// A Flipstop position.
    Flipstop(Flipstop),
    /// A Scware position.
    Scware(Scware),
    /// A Rapid Transit position.
    RapidTransit(RapidTransit),
}

/// Runs an expression with `$p` bound to the position inside any variant.
macro_rules! each {
    ($pos:expr, $p:ident => $body:expr) => {
        match $pos {
            AnyPosition::Swaptimum($p) => $body,
            AnyPosition::Flipstop($p) => $body,
            AnyPosition::Scware($p) => $body,
            AnyPosition::RapidTransit($p) => $body,
        }
    };
}

/// Reads a position text of game `G` (a [`GameFn`]).
struct Parse<'a>(&'a str);

impl GameFn for Parse<'_> {
    type Output = Result<AnyPosition, PositionError>;

    fn call<G: Playable>(self) -> Self::Output {
        Ok(self.0.parse::<G>()?.erase())
    }
}

/// The start position of game `G` on a board of the given side (a [`GameFn`]).
struct Start(usize);

impl GameFn for Start {
    type Output = Result<AnyPosition, PositionError>;

    fn call<G: Playable>(self) -> Self::Output {
        Ok(G::start(self.0)?.erase())
    }
}

/// Runs `f` with the position inside `any`, typed (a visitor, as [`GameFn`] is for ids).
pub trait PositionFn {
    /// What the code returns.
    type Output;

    /// Runs the code for a position of game `G`.
    fn call<G: Playable>(self, position: &G) -> Self::Output;
}

impl AnyPosition {
    /// The start position of `game` on a board of side `size`.
    pub fn start(game: GameId, size: usize) -> Result<AnyPosition, PositionError> {
        game.run(Start(size))
    }

    /// The game of this position.
    pub fn game(&self) -> GameId {
        each!(self, p => game_of(p))
    }

    /// Runs `f` with the typed position.
    pub fn visit<F: PositionFn>(&self, f: F) -> F::Output {
        each!(self, p => f.call(p))
    }

    /// The board side.
    pub fn size(&self) -> usize {
        each!(self, p => p.size())
    }

    /// The player whose turn it is.
    pub fn to_move(&self) -> Player {
        each!(self, p => p.to_move())
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        each!(self, p => p.outcome())
    }

    /// The colour name of a player in this game (`Red`).
    pub fn colour_name(&self, player: Player) -> &'static str {
        each!(self, p => colour_name(p, player))
    }

    /// Reads, checks and plays a move given as text (cells in any case); returns it as the
    /// contract writes it.
    pub fn play_text(&mut self, text: &str) -> Result<String, MoveError> {
        let text = text.to_ascii_lowercase();
        each!(self, p => p.play_text(&text).map(|m| m.to_string()))
    }

    /// What the legal move `text` does from here, in the game's words (`Red c3: placed c3;
    /// replaced b3`), or `None` when the rules refuse it: a lesson tells a learner what the
    /// move they played did before saying why it misses the task.
    pub fn describe_move(&self, text: &str) -> Option<String> {
        let text = text.to_ascii_lowercase();
        each!(self, p => {
            let mut after = p.clone();
            let mv = after.play_text(&text).ok()?;
            Some(crate::words::describe(p, &after, &mv))
        })
    }

    /// Every legal move as text, or `None` when there are more than `limit` (a crowded
    /// Scware position has millions: a client builds those with the move builder).
    pub fn legal_moves(&self, limit: usize) -> Option<Vec<String>> {
        each!(self, p => listed(p, limit))
    }

    /// Plays every pass the rules force from here on ([`crate::step::play_forced_passes`]);
    /// `passed` gets each pass as the contract writes it and the player who made it.
    pub fn play_forced_passes(&mut self, mut passed: impl FnMut(&str, Player)) {
        each!(self, p => crate::step::play_forced_passes(p, |mv, who| passed(&mv.to_string(), who)))
    }

    /// How a game that ended here ended, in words ([`crate::words::ending_how`]).
    pub fn ending_how(&self, ending: crate::Ending) -> String {
        each!(self, p => crate::words::ending_how(ending, p))
    }

    /// How the game ended here by the rules, in words (`Red wins by connection`), or `None`
    /// while it goes on.
    pub fn outcome_words(&self) -> Option<String> {
        let outcome = self.outcome()?;
        let ending = crate::Ending::of_outcome(outcome);
        Some(format!(
            "{} {}",
            each!(self, p => ending_text_of(p, ending)),
            self.ending_how(ending)
        ))
    }

    /// The engine's estimate of how many moves each player (first, then second) is from
    /// winning, where the game gives one ([`Game::distances_to_win`]).
    pub fn distances_to_win(&self) -> Option<[u32; 2]> {
        each!(self, p => p.distances_to_win())
    }

    /// The same board with `player` to move, if the game can stand so (a question for a
    /// hint: what could the opponent do if it moved now). `None` when the rules refuse the
    /// board with that player to move.
    pub fn with_turn_of(&self, player: Player) -> Option<AnyPosition> {
        let text = self.to_string();
        let letter = each!(self, p => colour_letter(p, player));
        let turned: Vec<String> = text
            .split(' ')
            .enumerate()
            .map(|(k, field)| {
                if k == 2 {
                    letter.to_string()
                } else {
                    field.to_owned()
                }
            })
            .collect();
        turned.join(" ").parse().ok()
    }

    /// What a board picture of this position shows.
    pub fn view(&self) -> BoardView {
        each!(self, p => p.view())
    }

    /// What the cells chosen so far make, the move written as text: the move builder of
    /// [`crate::builder`] for a client that knows no game.
    ///
    /// The cells come from a client: one off the board is refused with its name, before any
    /// game looks at it.
    pub fn draft(&self, selection: &Selection) -> Draft<String> {
        let size = self.size();
        if let Some(off) = selection
            .cells
            .iter()
            .find(|c| usize::from(c.col()) >= size || usize::from(c.row()) >= size)
        {
            return Draft::refused(format!("{off} is off the {size}x{size} board"));
        }
        each!(self, p => p.draft(selection).to_text())
    }
}

fn colour_letter<G: Playable>(_: &G, player: Player) -> char {
    G::colour_letter(player)
}

fn game_of<G: Playable>(_: &G) -> GameId {
    G::GAME
}

fn ending_text_of<G: Game>(_: &G, ending: crate::Ending) -> String {
    crate::words::ending_text::<G>(ending)
}

fn colour_name<G: Game>(_: &G, player: Player) -> &'static str {
    G::colour_name(player)
}

fn listed<G: Game>(position: &G, limit: usize) -> Option<Vec<String>> {
    let mut moves = Vec::new();
    let flow = position.for_each_move(|m| {
        if moves.len() == limit {
            return ControlFlow::Break(());
        }
        moves.push(m.to_string());
        ControlFlow::Continue(())
    });
    flow.is_continue().then_some(moves)
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each!(self, p => fmt::Display::fmt(p, f))
    }
}

impl FromStr for AnyPosition {
    type Err = PositionError;

    /// Reads a position text of any game, named by its first word.
    fn from_str(text: &str) -> Result<AnyPosition, PositionError> {
        let game = GameId::of_position(text)
            .map_err(|e| PositionError::new(PositionErrorKind::UnknownGame, e.to_string()))?;
        game.run(Parse(text))
    }
}

swapboard_core::serde_as_text!(AnyPosition);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;

    /// A client's cell off the board is refused by name in every game (a Flipstop engine
    /// once took e9 on a 5x5 board for a legal placement).
    #[test]
    fn drafts_refuse_cells_off_the_board() {
        for game in GameId::ALL {
            let pos = AnyPosition::start(game, *game.sizes().start()).unwrap();
            let n = pos.size() as u8;
            let off = swapboard_grid::Cell::new(0, n);
            let draft = pos.draft(&Selection {
                cells: vec![off],
                split: None,
            });
            let Verdict::Refused { reason } = draft.verdict else {
                panic!("{game}: {off} accepted: {draft:?}");
            };
            assert!(reason.contains("off the"), "{game}: {reason}");
        }
    }

    #[test]
    fn positions_of_every_game_round_trip_through_text_and_serde() {
        for game in GameId::ALL {
            let mut pos = AnyPosition::start(game, game.default_size()).unwrap();
            assert_eq!(pos.game(), game);
            let text = pos.to_string();
            assert_eq!(text.parse::<AnyPosition>().unwrap(), pos);
            let json = serde_json::to_string(&pos).unwrap();
            assert_eq!(serde_json::from_str::<AnyPosition>(&json).unwrap(), pos);
            let first = pos.legal_moves(usize::MAX).unwrap()[0].clone();
            let mover = pos.to_move();
            assert_eq!(pos.play_text(&first).unwrap(), first);
            assert!(pos.outcome().is_some() || pos.to_move() != mover || game == GameId::Scware);
        }
    }

    #[test]
    fn unknown_games_and_bad_moves_are_named() {
        let err = "chess 8".parse::<AnyPosition>().unwrap_err();
        assert!(err.to_string().starts_with("unknown game 'chess'"), "{err}");
        let mut pos = AnyPosition::start(GameId::Flipstop, 5).unwrap();
        assert!(pos.play_text("z9").is_err());
        assert_eq!(pos.play_text("C3").unwrap(), "c3");
        assert!(pos.play_text("c3").is_err());
    }

    #[test]
    fn the_builder_answers_for_any_game() {
        let pos = AnyPosition::start(GameId::Flipstop, 5).unwrap();
        let c3 = Selection::default().with("c3".parse().unwrap());
        assert_eq!(pos.draft(&c3).ready().map(String::as_str), Some("c3"));
        let pos = AnyPosition::start(GameId::RapidTransit, 4).unwrap();
        let first = pos.draft(&Selection::default());
        assert!(first.more && first.prompt.contains("terminal"), "{first:?}");
    }

    #[test]
    fn long_move_lists_are_refused_past_the_limit() {
        let pos = AnyPosition::start(GameId::Swaptimum, 9).unwrap();
        assert_eq!(pos.legal_moves(81).unwrap().len(), 81);
        assert_eq!(pos.legal_moves(80), None);
    }
}
