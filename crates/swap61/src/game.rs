//! A game master's game: the setup, the open round's submissions, and an append-only
//! history of every change, from which the whole state is replayed (and so audited, and
//! undone).
//!
//! The game file is JSON, format [`FORMAT`]; `docs/SWAP61.md` documents it field by field.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::board::{Board, Seat};
use crate::round::{LAST_ROUND, RoundOutcome, RoundSpec, allowance, play_round};
use crate::setup::{Setup, SetupError};
use crate::submission::{Submission, check_submission};

/// The format tag of a game file; a later incompatible format gets a new number.
pub const FORMAT: &str = "swapboard-swap61/1";

/// A change to a game, as the history records it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "kebab-case")]
pub enum Change {
    /// The game was created from its setup.
    New,
    /// A player's submission for the open round (replacing any earlier one).
    Submit {
        /// The player's name.
        player: String,
        /// The submission text as the player sent it.
        text: String,
    },
    /// The open round was resolved; the grid and scores it produced are kept for audit.
    Resolve {
        /// The round resolved.
        round: usize,
        /// The grid after the round.
        grid: Board,
        /// The scores, in seat order (none for the pregame).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scores: Option<Vec<u32>>,
    },
    /// The game master took back the latest change still in force.
    Undo {
        /// The `seq` of the entry taken back.
        undoes: usize,
    },
}

/// One entry of the history.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Entry {
    /// The entry's number, from 0 (the `new` entry).
    pub seq: usize,
    /// When it happened, in seconds since 1970 (as the caller says; rules code reads no
    /// clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<u64>,
    /// What changed.
    #[serde(flatten)]
    pub change: Change,
}

/// Why a game command or file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The setup is not a valid Swap 61 game.
    #[error("{0}")]
    Setup(#[from] SetupError),
    /// No player of that name.
    #[error("no player '{0}' in this game (players: {1})")]
    UnknownPlayer(String, String),
    /// Round 5 is resolved.
    #[error("the game is over: all {LAST_ROUND} rounds are resolved")]
    Over,
    /// Only the creation is left.
    #[error("nothing to undo: no submission or resolution is in force")]
    NothingToUndo,
    /// The file cannot be read as a game.
    #[error("not a swap61 game file: {0}")]
    Format(String),
    /// The history does not give the state the file records.
    #[error("the game file is inconsistent: {0}")]
    Inconsistent(String),
}

/// The public state after the history, stored in the file for readers and checked on load.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
struct Summary {
    /// The open round (0 = pregame), or 6 once the game is over.
    round: usize,
    /// The grid now.
    grid: Board,
    /// Cumulative scores in seat order.
    totals: Vec<u32>,
    /// The submissions of the open round, by player name.
    submissions: BTreeMap<String, String>,
}

/// The game file.
#[derive(Serialize, Deserialize)]
struct GameFile {
    format: String,
    setup: Setup,
    history: Vec<Entry>,
    state: Summary,
}

/// A game in progress, with its history.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Swap61Game {
    setup: Setup,
    history: Vec<Entry>,
    board: Board,
    submissions: BTreeMap<Seat, String>,
    outcomes: Vec<RoundOutcome>,
    /// The submissions each resolved round was resolved with.
    resolved_with: Vec<BTreeMap<Seat, String>>,
}

impl Swap61Game {
    /// A new game from a checked setup.
    pub fn new(setup: Setup, at: Option<u64>) -> Result<Swap61Game, GameError> {
        setup.check()?;
        let history = vec![Entry {
            seq: 0,
            at,
            change: Change::New,
        }];
        Swap61Game::replay(setup, history)
    }

    /// Rebuilds the state from the setup and the history, checking every recorded result.
    fn replay(setup: Setup, history: Vec<Entry>) -> Result<Swap61Game, GameError> {
        let mut in_force: Vec<usize> = Vec::new();
        for (i, entry) in history.iter().enumerate() {
            if entry.seq != i {
                return Err(GameError::Inconsistent(format!(
                    "history entry {i} is numbered {}",
                    entry.seq
                )));
            }
            match (&entry.change, i) {
                (Change::New, 0) => in_force.push(0),
                (Change::New, _) => {
                    return Err(GameError::Inconsistent(format!(
                        "entry {i} creates the game again"
                    )));
                }
                (_, 0) => {
                    return Err(GameError::Inconsistent(
                        "the history does not begin with 'new'".into(),
                    ));
                }
                (Change::Undo { undoes }, _) => {
                    if in_force.len() < 2 || in_force.last() != Some(undoes) {
                        return Err(GameError::Inconsistent(format!(
                            "entry {i} undoes entry {undoes}, which is not the latest change in force"
                        )));
                    }
                    in_force.pop();
                }
                _ => in_force.push(i),
            }
        }
        let board = setup.start;
        let mut game = Swap61Game {
            setup,
            history: Vec::new(),
            board,
            submissions: BTreeMap::new(),
            outcomes: Vec::new(),
            resolved_with: Vec::new(),
        };
        for &i in &in_force {
            let seq = history[i].seq;
            match &history[i].change {
                Change::New | Change::Undo { .. } => {}
                Change::Submit { player, text } => {
                    game.apply_submit(player, text)
                        .map_err(|e| GameError::Inconsistent(format!("entry {seq}: {e}")))?;
                }
                Change::Resolve {
                    round,
                    grid,
                    scores,
                } => {
                    let outcome = game
                        .apply_resolve()
                        .map_err(|e| GameError::Inconsistent(format!("entry {seq}: {e}")))?;
                    if outcome.round != *round
                        || outcome.resolution.board != *grid
                        || outcome.scores != *scores
                    {
                        return Err(GameError::Inconsistent(format!(
                            "entry {seq} records a different result for round {round} than the rules give"
                        )));
                    }
                }
            }
        }
        game.history = history;
        Ok(game)
    }

    fn apply_submit(&mut self, player: &str, text: &str) -> Result<Submission, GameError> {
        let seat = self.seat(player)?;
        if self.is_over() {
            return Err(GameError::Over);
        }
        let round = self.round();
        let checked = check_submission(text, &self.board, seat, allowance(round));
        self.submissions.insert(seat, text.to_string());
        Ok(checked)
    }

    fn apply_resolve(&mut self) -> Result<RoundOutcome, GameError> {
        if self.is_over() {
            return Err(GameError::Over);
        }
        let round = self.round();
        let texts: Vec<(Seat, &str)> = self
            .submissions
            .iter()
            .map(|(s, t)| (*s, t.as_str()))
            .collect();
        let outcome = play_round(&self.board, round, &self.setup.rounds[round], &texts);
        self.board = outcome.resolution.board;
        self.resolved_with
            .push(std::mem::take(&mut self.submissions));
        self.outcomes.push(outcome.clone());
        Ok(outcome)
    }

    fn push(&mut self, at: Option<u64>, change: Change) {
        let seq = self.history.len();
        self.history.push(Entry { seq, at, change });
    }

    /// Records a player's submission for the open round and returns it checked, so the
    /// player can be told at once what was accepted. A later submission replaces it.
    pub fn submit(
        &mut self,
        player: &str,
        text: &str,
        at: Option<u64>,
    ) -> Result<Submission, GameError> {
        let checked = self.apply_submit(player, text)?;
        self.push(
            at,
            Change::Submit {
                player: player.to_string(),
                text: text.to_string(),
            },
        );
        Ok(checked)
    }

    /// Resolves the open round with the submissions received, scores it, and opens the
    /// next.
    pub fn resolve(&mut self, at: Option<u64>) -> Result<RoundOutcome, GameError> {
        let outcome = self.apply_resolve()?;
        self.push(
            at,
            Change::Resolve {
                round: outcome.round,
                grid: outcome.resolution.board,
                scores: outcome.scores.clone(),
            },
        );
        Ok(outcome)
    }

    /// Takes back the latest change still in force (a submission or a resolution) and
    /// returns the entry taken back. The undo itself is appended to the history.
    pub fn undo(&mut self, at: Option<u64>) -> Result<Entry, GameError> {
        let mut in_force: Vec<usize> = Vec::new();
        for entry in &self.history {
            match entry.change {
                Change::Undo { .. } => {
                    in_force.pop();
                }
                _ => in_force.push(entry.seq),
            }
        }
        let &undoes = in_force
            .last()
            .filter(|_| in_force.len() > 1)
            .ok_or(GameError::NothingToUndo)?;
        let mut history = self.history.clone();
        history.push(Entry {
            seq: history.len(),
            at,
            change: Change::Undo { undoes },
        });
        *self = Swap61Game::replay(self.setup.clone(), history)?;
        Ok(self.history[undoes].clone())
    }

    /// The setup.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The whole history.
    pub fn history(&self) -> &[Entry] {
        &self.history
    }

    /// The open round: 0 (pregame) to 5, or 6 once the game is over.
    pub fn round(&self) -> usize {
        self.outcomes.len()
    }

    /// Whether all rounds are resolved.
    pub fn is_over(&self) -> bool {
        self.round() > LAST_ROUND
    }

    /// The spec of the open round, if the game is not over.
    pub fn spec(&self) -> Option<&RoundSpec> {
        self.setup.rounds.get(self.round())
    }

    /// The grid now.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The seat of a player.
    pub fn seat(&self, player: &str) -> Result<Seat, GameError> {
        self.setup.seat_of(player).ok_or_else(|| {
            GameError::UnknownPlayer(player.to_string(), self.setup.players.join(", "))
        })
    }

    /// A player's submission for the open round, as sent.
    pub fn submission(&self, seat: Seat) -> Option<&str> {
        self.submissions.get(&seat).map(String::as_str)
    }

    /// The seats that have submitted for the open round.
    pub fn submitted(&self) -> impl Iterator<Item = Seat> + '_ {
        self.submissions.keys().copied()
    }

    /// The submissions each resolved round was resolved with, by seat, in round order.
    pub fn resolved_submissions(&self) -> &[BTreeMap<Seat, String>] {
        &self.resolved_with
    }

    /// The resolved rounds, in order.
    pub fn outcomes(&self) -> &[RoundOutcome] {
        &self.outcomes
    }

    /// Cumulative scores in seat order.
    pub fn totals(&self) -> Vec<u32> {
        let mut totals = vec![0; self.setup.seats()];
        for scores in self.outcomes.iter().filter_map(|o| o.scores.as_ref()) {
            for (t, s) in totals.iter_mut().zip(scores) {
                *t += s;
            }
        }
        totals
    }

    fn summary(&self) -> Summary {
        Summary {
            round: self.round(),
            grid: self.board,
            totals: self.totals(),
            submissions: self
                .submissions
                .iter()
                .map(|(s, t)| (self.setup.name(*s).to_string(), t.clone()))
                .collect(),
        }
    }

    /// The game file text (pretty JSON, ending in a newline).
    pub fn to_json(&self) -> String {
        let file = GameFile {
            format: FORMAT.to_string(),
            setup: self.setup.clone(),
            history: self.history.clone(),
            state: self.summary(),
        };
        let mut text = serde_json::to_string_pretty(&file).expect("a game always serialises");
        text.push('\n');
        text
    }

    /// Reads a game file, replays its history and checks the state it records.
    pub fn from_json(text: &str) -> Result<Swap61Game, GameError> {
        #[derive(Deserialize)]
        struct Tag {
            format: String,
        }
        let tag: Tag = serde_json::from_str(text).map_err(|e| GameError::Format(e.to_string()))?;
        if tag.format != FORMAT {
            return Err(GameError::Format(format!(
                "format '{}', this swapboard reads '{FORMAT}'",
                tag.format
            )));
        }
        let file: GameFile =
            serde_json::from_str(text).map_err(|e| GameError::Format(e.to_string()))?;
        file.setup.check()?;
        let game = Swap61Game::replay(file.setup, file.history)?;
        if game.summary() != file.state {
            return Err(GameError::Inconsistent(
                "the recorded state differs from what the history gives".into(),
            ));
        }
        Ok(game)
    }
}

/// Ranks for cumulative scores, highest first, ties sharing a rank (1, 2, 2, 4): each seat
/// with its rank and total.
pub fn standings(totals: &[u32]) -> Vec<(usize, Seat, u32)> {
    let mut order: Vec<(Seat, u32)> = Seat::all(totals.len())
        .zip(totals.iter().copied())
        .collect();
    order.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut ranked = Vec::with_capacity(order.len());
    for (i, &(seat, total)) in order.iter().enumerate() {
        let rank = match ranked.last() {
            Some(&(r, _, t)) if t == total => r,
            _ => i + 1,
        };
        ranked.push((rank, seat, total));
    }
    ranked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Swap61Game {
        let names: Vec<String> = (1..=10).map(|i| format!("p{i}")).collect();
        Swap61Game::new(Setup::generate(&names, 3).unwrap(), Some(1)).unwrap()
    }

    /// A line bidding `tokens` on the first edge from one of the player's walls.
    fn own_bid(game: &Swap61Game, player: &str, tokens: u32) -> String {
        let seat = game.seat(player).unwrap();
        let wall = (0..61)
            .find(|&t| game.board().tile(t) == crate::Tile::Wall(seat))
            .unwrap();
        let g = crate::board::geometry();
        let other = usize::from(g.neighbours[wall][0]);
        format!(
            "{} {} {tokens}\n",
            crate::cell_of(wall),
            crate::cell_of(other)
        )
    }

    #[test]
    fn ranks_are_shared_on_ties() {
        let s = standings(&[5, 9, 5, 1, 9]);
        let ranks: Vec<(usize, usize, u32)> = s
            .iter()
            .map(|&(r, seat, t)| (r, seat.number(), t))
            .collect();
        assert_eq!(
            ranks,
            [(1, 2, 9), (1, 5, 9), (3, 1, 5), (3, 3, 5), (5, 4, 1)]
        );
    }

    #[test]
    fn a_later_submission_replaces_the_earlier() {
        let mut g = game();
        let p = g.setup().players[0].clone();
        g.submit(&p, "nonsense", None).unwrap();
        let second = own_bid(&g, &p, 4);
        let checked = g.submit(&p, &second, None).unwrap();
        assert_eq!(checked.bids.len(), 1);
        assert_eq!(g.submission(g.seat(&p).unwrap()), Some(second.as_str()));
        assert!(matches!(
            g.submit("nobody", "", None),
            Err(GameError::UnknownPlayer(..))
        ));
    }

    #[test]
    fn a_whole_game_round_trips_through_its_file_and_undo() {
        let mut g = game();
        for round in 0..=LAST_ROUND {
            for p in g.setup().players.clone() {
                let bid = own_bid(&g, &p, 4);
                g.submit(&p, &bid, Some(round as u64)).unwrap();
            }
            let outcome = g.resolve(None).unwrap();
            assert_eq!(outcome.round, round);
            assert_eq!(outcome.scores.is_some(), round > 0);
            let reread = Swap61Game::from_json(&g.to_json()).unwrap();
            assert_eq!(reread, g);
        }
        assert!(g.is_over());
        assert_eq!(g.resolve(None), Err(GameError::Over));
        let before_last = g.outcomes()[LAST_ROUND - 1].clone();
        let undone = g.undo(None).unwrap();
        assert!(matches!(
            undone.change,
            Change::Resolve {
                round: LAST_ROUND,
                ..
            }
        ));
        assert_eq!(g.round(), LAST_ROUND);
        assert_eq!(*g.board(), before_last.resolution.board);
        // The submissions of round 5 are in force again; undo them one by one.
        assert_eq!(g.submitted().count(), 10);
        let undone = g.undo(None).unwrap();
        assert!(matches!(undone.change, Change::Submit { .. }));
        assert_eq!(g.submitted().count(), 9);
        assert_eq!(Swap61Game::from_json(&g.to_json()).unwrap(), g);
    }

    #[test]
    fn nothing_to_undo_at_the_start() {
        let mut g = game();
        assert_eq!(g.undo(None), Err(GameError::NothingToUndo));
        let p = g.setup().players[0].clone();
        g.submit(&p, "", None).unwrap();
        g.undo(None).unwrap();
        assert_eq!(g.undo(None), Err(GameError::NothingToUndo));
        assert_eq!(g.history().len(), 3);
    }

    #[test]
    fn tampered_files_are_refused() {
        let mut g = game();
        g.resolve(None).unwrap();
        let json = g.to_json();
        let other_format = json.replace(FORMAT, "swapboard-swap61/99");
        assert!(matches!(
            Swap61Game::from_json(&other_format),
            Err(GameError::Format(_))
        ));
        let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
        value["state"]["totals"][0] = 99.into();
        assert!(matches!(
            Swap61Game::from_json(&value.to_string()),
            Err(GameError::Inconsistent(_))
        ));
        let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
        value["history"][1]["round"] = 3.into();
        assert!(matches!(
            Swap61Game::from_json(&value.to_string()),
            Err(GameError::Inconsistent(_))
        ));
        assert!(matches!(
            Swap61Game::from_json("{"),
            Err(GameError::Format(_))
        ));
    }
}
