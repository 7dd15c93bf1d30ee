//! Hints for a player learning against the AI (issue 25), on request: how far each player is
//! from joining its edges, where the engine estimates it, and the threats: the moves with
//! which the opponent would win at once if it were to move now. Everything comes from the
//! engines (their distance estimate, legal moves and outcome); nothing here knows a rule.

use swapboard_core::{Outcome, Player};
use swapboard_grid::Cell;

use crate::AnyPosition;

/// The most opponent moves a hint looks through: a crowded Scware position has millions,
/// and a hint is answered while the player waits.
const MAX_MOVES: usize = 2_000;

/// A hint for the player to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    /// The engine's estimate of how many moves each player is from joining its edges: the
    /// player to move first, then the opponent (`None` where the game gives none).
    pub distances: Option<[u32; 2]>,
    /// The opponent's moves that would win at once were it the opponent's turn, as the
    /// contract writes them (empty when there are none or too many moves to look through).
    pub threats: Vec<String>,
    /// Whether every opponent move was looked at.
    pub complete: bool,
    /// What the hint says, in words.
    pub words: Vec<String>,
}

impl Hint {
    /// The cells of the threats: every cell their moves name.
    pub fn threat_cells(&self) -> Vec<Cell> {
        let mut cells: Vec<Cell> = self
            .threats
            .iter()
            .flat_map(|mv| mv.split([':', ',', '-', '+']))
            .filter_map(|part| part.parse().ok())
            .collect();
        cells.sort();
        cells.dedup();
        cells
    }
}

/// The hint for the player to move in `position` (a game in progress).
pub fn hint(position: &AnyPosition) -> Hint {
    let mover = position.to_move();
    let opponent = mover.other();
    let (me, them) = (position.colour_name(mover), position.colour_name(opponent));
    let distances = position
        .distances_to_win()
        .map(|d| [d[mover.index()], d[opponent.index()]]);
    let mut words = Vec::new();
    if let Some([mine, theirs]) = distances {
        words.push(format!(
            "{me} is about {mine} move{} from joining its edges; {them} about {theirs}.",
            if mine == 1 { "" } else { "s" }
        ));
    }
    let (threats, complete) = match position.with_turn_of(opponent) {
        Some(turned) => winning_moves(&turned, opponent),
        None => (Vec::new(), false),
    };
    if !threats.is_empty() {
        words.push(format!(
            "Threat: if it were {them}'s turn, {them} would win at once with {}.",
            threats.join(" or ")
        ));
    } else if complete {
        words.push(format!("{them} has no move that would win at once."));
    }
    Hint {
        distances,
        threats,
        complete,
        words,
    }
}

/// The moves with which `player` (to move in `position`) wins at once, and whether every
/// move was looked at.
fn winning_moves(position: &AnyPosition, player: Player) -> (Vec<String>, bool) {
    let Some(moves) = position.legal_moves(MAX_MOVES) else {
        return (Vec::new(), false);
    };
    let wins = moves
        .into_iter()
        .filter(|mv| {
            let mut after = position.clone();
            after.play_text(mv).is_ok() && {
                after.play_forced_passes(|_, _| {});
                after.outcome() == Some(Outcome::Win(player))
            }
        })
        .collect();
    (wins, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(text: &str) -> AnyPosition {
        text.parse().unwrap()
    }

    #[test]
    fn the_opponents_win_in_one_is_the_threat() {
        // Blue completes row 3 with a3 when it is Blue's turn (a lesson's step); with Red to
        // move, that is the threat a hint shows Red.
        let red = position("swaptimum RRBB./RRRRB/.BBBB/BR.BR/BRRR. R");
        let hint = hint(&red);
        assert!(hint.complete);
        assert_eq!(hint.threats, ["a3"]);
        assert_eq!(hint.threat_cells(), ["a3".parse::<Cell>().unwrap()]);
        assert!(
            hint.words
                .iter()
                .any(|w| w.contains("Blue would win at once with a3"))
        );
        let [red_distance, blue_distance] = hint.distances.expect("Swaptimum estimates");
        assert!(
            blue_distance <= 1 && red_distance >= 1,
            "{:?}",
            hint.distances
        );
    }

    #[test]
    fn no_threat_is_said_so_and_a_game_without_estimates_gives_none() {
        let start = position("swaptimum ...../...../...../...../..... R");
        let hint = hint(&start);
        assert!(hint.threats.is_empty() && hint.complete);
        assert!(
            hint.words
                .iter()
                .any(|w| w.contains("no move that would win"))
        );
        let transit = position("rapid-transit CRCRCR/RCRCRC/CRCRCR/RCRCRC/CRCRCR/RCRCRC R 0 -");
        assert_eq!(super::hint(&transit).distances, None);
    }

    #[test]
    fn a_threats_cells_are_every_cell_its_moves_name() {
        let hint = Hint {
            distances: None,
            threats: vec![
                "c3:b3-c3".to_owned(),
                "b2,d4+e5".to_owned(),
                "a4-b3".to_owned(),
            ],
            complete: true,
            words: Vec::new(),
        };
        let mut cells: Vec<String> = hint
            .threat_cells()
            .iter()
            .map(ToString::to_string)
            .collect();
        cells.sort();
        assert_eq!(cells, ["a4", "b2", "b3", "c3", "d4", "e5"]);
    }
}
