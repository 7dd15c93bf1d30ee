//! Everything a front end says about a game in words, in one place: what a move did, the
//! outcome, how a game ended, and the contract's result line.

use serde::{Deserialize, Serialize};
use swapboard_core::{BoardView, CellMark, Game, Outcome, Player};
use swapboard_grid::Cell;

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// The rules ended it (a win or a draw on the board).
    Rules,
    /// A player gave up.
    Resigned,
    /// A player ran out of time.
    Timeout,
    /// The game was called off before it really began; nobody wins.
    Aborted,
    /// An administrator decided the result of a game being played (a win or a draw).
    Adjudicated,
}

impl Termination {
    /// Every termination, in the order of the API's documentation.
    pub const ALL: [Termination; 5] = [
        Termination::Rules,
        Termination::Resigned,
        Termination::Timeout,
        Termination::Aborted,
        Termination::Adjudicated,
    ];

    /// The word of the API and of a record's `Termination` tag (`resigned`).
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Rules => "rules",
            Termination::Resigned => "resigned",
            Termination::Timeout => "timeout",
            Termination::Aborted => "aborted",
            Termination::Adjudicated => "adjudicated",
        }
    }

    /// How an ending other than the rules' came about, in the words that follow "you won"
    /// or the winner's name (`by resignation`, `on time`, `by adjudication`; `aborted`).
    /// `None` for the rules, whose words need the final position ([`Describe::rules_how`]).
    /// Front ends without the position (the server's notifications) read these words too.
    pub fn how(self) -> Option<&'static str> {
        match self {
            Termination::Rules => None,
            Termination::Resigned => Some("by resignation"),
            Termination::Timeout => Some("on time"),
            Termination::Aborted => Some("aborted"),
            Termination::Adjudicated => Some("by adjudication"),
        }
    }
}

impl std::str::FromStr for Termination {
    type Err = String;

    /// Reads the word [`Termination::as_str`] writes.
    fn from_str(text: &str) -> Result<Termination, String> {
        Termination::ALL
            .into_iter()
            .find(|t| t.as_str() == text)
            .ok_or_else(|| {
                format!(
                    "'{text}' is not a termination (rules, resigned, timeout, aborted, adjudicated)"
                )
            })
    }
}

/// How a game ended: the winner (none for a draw or an aborted game) and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ending {
    /// The winner, if any.
    pub winner: Option<Player>,
    /// Why the game ended.
    pub reason: Termination,
}

impl Ending {
    /// The ending the rules gave.
    pub fn of_outcome(outcome: Outcome) -> Ending {
        Ending {
            winner: match outcome {
                Outcome::Win(p) => Some(p),
                Outcome::Draw => None,
            },
            reason: Termination::Rules,
        }
    }
}

/// An outcome in words: `Red wins`, `drawn: neither player can move`.
pub fn outcome_text<G: Game>(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(p) => format!("{} wins", G::colour_name(p)),
        Outcome::Draw => "drawn: neither player can move".to_string(),
    }
}

/// An ending in words: `Red wins`, `drawn: ...`, `Blue resigned: Red wins`, `Red ran out of
/// time: Blue wins`, `aborted`, `Red wins by adjudication`, `drawn by adjudication`.
pub fn ending_text<G: Game>(ending: Ending) -> String {
    let loser_then = |what: &str| match ending.winner {
        Some(w) => format!(
            "{} {what}: {} wins",
            G::colour_name(w.other()),
            G::colour_name(w)
        ),
        None => format!("a player {what}"),
    };
    match ending.reason {
        Termination::Rules => outcome_text::<G>(match ending.winner {
            Some(p) => Outcome::Win(p),
            None => Outcome::Draw,
        }),
        Termination::Resigned => loser_then("resigned"),
        Termination::Timeout => loser_then("ran out of time"),
        Termination::Aborted => "aborted".to_string(),
        Termination::Adjudicated => match ending.winner {
            Some(w) => format!("{} wins by adjudication", G::colour_name(w)),
            None => "drawn by adjudication".to_string(),
        },
    }
}

/// How a game ended, in words that follow the winner's name or "You won"/"You lost": `by
/// connection`, `by the largest network (31 to 22)`, `on time`, `by resignation`, `by
/// adjudication`; an aborted game reads `aborted`. `last` is the game's final position.
pub fn ending_how<G: Describe>(ending: Ending, last: &G) -> String {
    ending
        .reason
        .how()
        .map_or_else(|| last.rules_how(), str::to_owned)
}

/// The contract's result line of a position: `result: R`, `result: draw`, `result:
/// ongoing`.
pub fn result_line<G: Game>(position: &G) -> String {
    match position.outcome() {
        None => "result: ongoing".to_string(),
        Some(Outcome::Win(p)) => format!("result: {}", G::colour_letter(p)),
        Some(Outcome::Draw) => "result: draw".to_string(),
    }
}

/// The caption of a picture of the board after `ply` of a game's `last` plies, with the
/// move that made it (`after ply 3 of 40: c3`).
pub fn ply_caption(ply: usize, last: usize, mv: Option<&str>) -> String {
    match mv {
        Some(mv) => format!("after ply {ply} of {last}: {mv}"),
        None => format!("after ply {ply} of {last}"),
    }
}

/// The view of `after` with what the move from `before` changed marked.
pub fn marked_view<G: Game>(before: &G, after: &G) -> BoardView {
    let mut view = after.view();
    view.mark_changes_from(&before.view());
    view
}

/// A game's words for what its moves do.
pub trait Describe: Game {
    /// What a player who must pass cannot do, as a verb (`swap`, `place`): a forced pass
    /// reads `Red cannot swap: pass`.
    const CANNOT: &'static str = "move";

    /// How the rules ended the game in this final position, for a sentence about the winner
    /// (`by connection`; Rapid Transit: `by the largest network (31 to 22)`).
    fn rules_how(&self) -> String {
        match self.outcome() {
            Some(Outcome::Draw) => "with neither player able to move".to_string(),
            _ => "by connection".to_string(),
        }
    }

    /// What the legal `mv`, played from `self` to reach `after`, did to the board, without
    /// the mover (`placed c3; swapped c3, d4`). The default reads the changes a board view
    /// marks.
    fn did(&self, after: &Self, mv: &Self::Move) -> String {
        let _ = mv;
        let view = marked_view(self, after);
        let mut parts = Vec::new();
        for (mark, word) in [
            (CellMark::Placed, "placed"),
            (CellMark::Swapped, "swapped"),
            (CellMark::Replaced, "replaced"),
        ] {
            let cells: Vec<Cell> = view
                .marks
                .iter()
                .filter(|&&(_, m)| m == mark)
                .map(|&(c, _)| c)
                .collect();
            if !cells.is_empty() {
                parts.push(format!("{word} {}", cell_list(cells)));
            }
        }
        parts.join("; ")
    }
}

/// Cells in board order, separated by commas.
pub(crate) fn cell_list(mut cells: Vec<Cell>) -> String {
    cells.sort();
    cells.dedup();
    let names: Vec<String> = cells.iter().map(Cell::to_string).collect();
    names.join(", ")
}

/// What `mv`, played from `before` to reach `after`, did, in words: `Red c3:d4-e5: placed
/// c3; swapped c3, d4`, `Blue cannot swap: pass` (a pass is only ever forced), and a win made
/// on the opponent's turn.
pub fn describe<G: Describe>(before: &G, after: &G, mv: &G::Move) -> String {
    let mover = before.to_move();
    let name = G::colour_name(mover);
    if G::is_pass(mv) {
        return format!("{name} cannot {}: pass", G::CANNOT);
    }
    let mut text = format!("{name} {mv}: {}", before.did(after, mv));
    if let Some(Outcome::Win(p)) = after.outcome()
        && p != mover
    {
        let winner = G::colour_name(p);
        text.push_str(&format!(
            " (this completes {winner}'s path: {winner} wins on {name}'s turn)"
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use swapboard_flipstop::Flipstop;
    use swapboard_rapid_transit::RapidTransit;
    use swapboard_scware::Scware;
    use swapboard_swaptimum::Swaptimum;

    use super::*;

    /// The words of the API and the records read back to the same termination, and
    /// nothing else reads as one.
    #[test]
    fn terminations_read_back_from_their_words() {
        for t in Termination::ALL {
            assert_eq!(t.as_str().parse::<Termination>(), Ok(t));
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(json, format!("\"{}\"", t.as_str()));
        }
        assert!("resign".parse::<Termination>().is_err());
    }

    fn after<G: Game>(before: &G, mv: &str) -> (G, G::Move) {
        let mut next = before.clone();
        let mv = next.play_text(mv).unwrap();
        (next, mv)
    }

    #[test]
    fn endings_are_worded_once() {
        let red = Some(Player::First);
        let e = |winner, reason| ending_text::<Swaptimum>(Ending { winner, reason });
        assert_eq!(e(red, Termination::Rules), "Red wins");
        assert_eq!(
            e(None, Termination::Rules),
            "drawn: neither player can move"
        );
        assert_eq!(e(red, Termination::Resigned), "Blue resigned: Red wins");
        assert_eq!(
            e(red, Termination::Timeout),
            "Blue ran out of time: Red wins"
        );
        assert_eq!(e(None, Termination::Aborted), "aborted");
        assert_eq!(e(red, Termination::Adjudicated), "Red wins by adjudication");
        assert_eq!(e(None, Termination::Adjudicated), "drawn by adjudication");
        assert_eq!(serde_json_word(Termination::Timeout), "\"timeout\"");
    }

    /// The words after "You won": the rules' reason (Rapid Transit's network sizes), or the
    /// clock, a resignation, an abort; and a forced pass in the game's own verb.
    #[test]
    fn endings_say_how_and_passes_say_what_could_not_be_done() {
        let red = Some(Player::First);
        let won: Swaptimum = "swaptimum RRR/BB./... B".parse().unwrap();
        let how = |reason| {
            ending_how(
                Ending {
                    winner: red,
                    reason,
                },
                &won,
            )
        };
        assert_eq!(how(Termination::Rules), "by connection");
        assert_eq!(how(Termination::Timeout), "on time");
        assert_eq!(how(Termination::Resigned), "by resignation");
        assert_eq!(how(Termination::Aborted), "aborted");
        assert_eq!(how(Termination::Adjudicated), "by adjudication");
        // Red's network of 26 against Cyan's 23, both players having passed.
        let rt: RapidTransit =
            "rapid-transit CCCCCCCR/CRCRCRRR/CRRRCRCR/CCRCCRCC/CRCCRRRC/RRCRRCRC/RCCCRCRC/RRRRRRRC C 2 R"
                .parse()
                .unwrap();
        let ending = Ending::of_outcome(rt.outcome().unwrap());
        assert_eq!(ending_how(ending, &rt), "by the largest network (26 to 23)");
        let blue: Flipstop = "flipstop RRRB/BBRR/RR.R/BRRB B".parse().unwrap();
        let (after_pass, pass) = after(&blue, "pass");
        assert_eq!(
            describe(&blue, &after_pass, &pass),
            "Blue cannot place: pass"
        );
    }

    fn serde_json_word(t: Termination) -> String {
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(json, format!("\"{}\"", t.as_str()));
        json
    }

    #[test]
    fn scware_moves_are_growths_and_new_groups() {
        let pos: Scware = "scware ...../..W../...../.W.../..... W g".parse().unwrap();
        let (next, mv) = after(&pos, "e1");
        assert_eq!(
            describe(&pos, &next, &mv),
            "White e1: started a group at e1"
        );
        let (next, mv) = after(&pos, "b3,c3");
        assert_eq!(
            describe(&pos, &next, &mv),
            "White b3,c3: grew the groups at b3, c3"
        );
    }

    #[test]
    fn rapid_transit_swaps_name_the_terminal() {
        let pos = RapidTransit::start(4).unwrap();
        let mv = pos.legal_moves()[0];
        let (next, mv) = after(&pos, &mv.to_string());
        let text = describe(&pos, &next, &mv);
        assert!(text.contains(": swapped the terminal piece on "), "{text}");
    }

    #[test]
    fn swaptimum_moves_list_their_changes() {
        let pos = Swaptimum::start(5).unwrap();
        let (next, mv) = after(&pos, "c3");
        assert_eq!(describe(&pos, &next, &mv), "Red c3: placed c3");
    }
}
