//! A game in progress: who sits at each side, the moves with the time each took, the clock,
//! undo, and how the game ended.

use serde::{Deserialize, Serialize};
use swapboard_core::{BoardView, Game, MoveError, Player};

use crate::clock::{Clock, Millis, TimeControl};
use crate::game::Playable;
use crate::opponent::seat_name;
use crate::record::{GameRecord, RecordResult};
use crate::step::{
    Early, Moved, Refused, abortable, flag_fall, forced_pass, judge, play_forced_passes,
    resignation,
};
use crate::words::{Ending, Termination, describe, ending_text, marked_view};

/// Who plays one side.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// A person, by the name the front end knows them by (an account, `human`).
    Person(String),
    /// The AI at a strength level (1 to 9; a server offers 1 to 8).
    Ai(u8),
}

/// Whether moves may be taken back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UndoPolicy {
    /// Moves may be taken back (casual games, the terminal).
    #[default]
    Allowed,
    /// Moves stand (rated games, a server).
    Forbidden,
}

/// A move played at a table, with the time it took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// The move as the contract writes it.
    #[serde(rename = "move")]
    pub text: String,
    /// The milliseconds from the start of the mover's turn to the move.
    pub ms: u64,
}

/// Why a table refused a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The request was made for another ply than the table's (another move came first).
    #[error("stale ply {given}: the game is at ply {current}")]
    StalePly {
        /// The ply the request was made for.
        given: usize,
        /// The table's ply.
        current: usize,
    },
    /// The game has ended.
    #[error("the game is over ({0})")]
    Over(String),
    /// The move cannot be played.
    #[error("{0}")]
    Move(#[from] MoveError),
    /// Nothing to undo, or undo is not allowed.
    #[error("{0}")]
    Undo(&'static str),
    /// A game can be aborted only before its second move.
    #[error("a game can be aborted only before its second move")]
    TooLateToAbort,
    /// A stored table could not be rebuilt.
    #[error("stored game: {0}")]
    Stored(String),
}

/// A game in progress of game `G`.
#[derive(Debug, Clone)]
pub struct Table<G: Game> {
    seats: [Seat; 2],
    undo: UndoPolicy,
    /// The positions from the start; one more than the moves.
    positions: Vec<G>,
    moves: Vec<G::Move>,
    times: Vec<Millis>,
    /// The clock before each move, so that undo restores it.
    clocks: Vec<Clock>,
    clock: Clock,
    ended: Option<Ending>,
    passes: Passes,
}

/// Who plays a pass the rules force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Passes {
    /// The table, at once, after the move before it (a game being played).
    Forced,
    /// Whoever gives the moves, as any move (a stored game or record replayed, whose moves
    /// hold their passes; the engine protocol, whose controller gives every move).
    AsGiven,
}

impl<G: Playable> Table<G> {
    /// A new table from `start` whose clock starts at `now`. It plays the passes the rules
    /// force by itself ([`crate::step`]), each a ply of its own, so no front end waits for
    /// one.
    pub fn new(
        start: G,
        seats: [Seat; 2],
        control: TimeControl,
        undo: UndoPolicy,
        now: Millis,
    ) -> Table<G> {
        let mut table = Table::replaying(start, seats, control, undo, now);
        table.passes = Passes::Forced;
        table.play_forced_passes(now);
        table
    }

    /// A table that plays exactly the moves it is given, passes included: for a game
    /// replayed from its stored moves, and for a controller that gives every move.
    pub fn replaying(
        start: G,
        seats: [Seat; 2],
        control: TimeControl,
        undo: UndoPolicy,
        now: Millis,
    ) -> Table<G> {
        let clock = Clock::new(control, start.to_move(), now);
        let ended = start.outcome().map(Ending::of_outcome);
        Table {
            seats,
            undo,
            positions: vec![start],
            moves: Vec::new(),
            times: Vec::new(),
            clocks: Vec::new(),
            clock,
            ended,
            passes: Passes::AsGiven,
        }
    }

    /// Replays stored moves (each at its time), ends the game off the board if it was
    /// (`off_board`, unless the rules ended it), then goes on as a game being played: the
    /// passes the rules force from here on are played by the table.
    fn resume<'a>(
        mut self,
        moves: impl IntoIterator<Item = (&'a str, Millis)>,
        off_board: Option<Ending>,
    ) -> Result<Table<G>, TableError> {
        let mut now = self.clock.since();
        for (k, (text, at)) in moves.into_iter().enumerate() {
            now = at;
            self.play(k, text, now)
                .map_err(|e| TableError::Stored(format!("move {}: {e}", k + 1)))?;
        }
        if let Some(ending) = off_board {
            self.end_off_the_board(ending);
        }
        self.passes = Passes::Forced;
        self.play_forced_passes(now);
        Ok(self)
    }

    /// The start position.
    pub fn start(&self) -> &G {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &G {
        &self.positions[self.positions.len() - 1]
    }

    /// The position after `ply` moves (0 is the start), if the game has come that far.
    pub fn position_at(&self, ply: usize) -> Option<&G> {
        self.positions.get(ply)
    }

    /// The number of moves played: a move is accepted only for the current ply.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The moves played.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The moves with the time each took.
    pub fn played(&self) -> Vec<Played> {
        self.moves
            .iter()
            .zip(&self.times)
            .map(|(m, t)| Played {
                text: m.to_string(),
                ms: t.0,
            })
            .collect()
    }

    /// Who sits at `player`'s side.
    pub fn seat(&self, player: Player) -> &Seat {
        &self.seats[player.index()]
    }

    /// The undo policy.
    pub fn undo_policy(&self) -> UndoPolicy {
        self.undo
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// How the game ended, or `None` while it goes on.
    pub fn ending(&self) -> Option<Ending> {
        self.ended
    }

    /// The ending in words (see [`ending_text`]).
    pub fn ending_text(&self) -> Option<String> {
        self.ended.map(ending_text::<G>)
    }

    /// Whether the AI is to move in a game that goes on.
    pub fn ai_to_move(&self) -> bool {
        self.ended.is_none() && matches!(self.seat(self.position().to_move()), Seat::Ai(_))
    }

    /// The only legal move when it is `pass` ([`crate::step::forced_pass`]).
    fn forced_pass(&self) -> Option<G::Move> {
        if self.ended.is_some() {
            return None;
        }
        forced_pass(self.position())
    }

    fn refuse_if_over(&self) -> Result<(), TableError> {
        match self.ended {
            Some(e) => Err(TableError::Over(ending_text::<G>(e))),
            None => Ok(()),
        }
    }

    /// The board after `ply` moves (0 is the start), with what the move before it changed
    /// marked; `None` past the current ply.
    pub fn view_at(&self, ply: usize) -> Option<BoardView> {
        let after = self.positions.get(ply)?;
        Some(match ply.checked_sub(1) {
            Some(k) => marked_view(&self.positions[k], after),
            None => after.view(),
        })
    }

    /// The current board, with what the last move changed marked.
    pub fn view(&self) -> BoardView {
        self.view_at(self.ply())
            .expect("the current ply has a position")
    }

    /// What move `k` (from 0) did, in words (see [`describe`]).
    pub fn describe(&self, k: usize) -> Option<String> {
        let mv = self.moves.get(k)?;
        Some(describe(&self.positions[k], &self.positions[k + 1], mv))
    }

    /// Ends the game on time if the side to move has run out at `now`; returns the ending
    /// then. A server calls it when the clock's deadline passes.
    pub fn check_time(&mut self, now: Millis) -> Option<Ending> {
        if self.ended.is_some() {
            return None;
        }
        let loser = self.clock.flagged(now)?;
        let ending = flag_fall(self.ply(), loser, Early::Lose);
        self.ended = Some(ending);
        Some(ending)
    }

    /// Plays a legal move at `now`, made for ply `expected` (the server's optimistic
    /// concurrency: a request made for a ply that has passed is refused whatever it holds);
    /// then, at a table made by [`Table::new`], every pass the rules force after it, each a
    /// ply of its own.
    pub fn play_move(
        &mut self,
        expected: usize,
        mv: &G::Move,
        now: Millis,
    ) -> Result<(), TableError> {
        self.play_only(expected, mv, now)?;
        self.play_forced_passes(now);
        Ok(())
    }

    /// Plays the passes the rules force ([`play_forced_passes`]), at `now`, at a table that
    /// plays them.
    fn play_forced_passes(&mut self, now: Millis) {
        if self.ended.is_some() || self.passes == Passes::AsGiven {
            return;
        }
        let mut passes = Vec::new();
        play_forced_passes(&mut self.position().clone(), |pass, _| {
            passes.push(pass.clone());
        });
        for pass in passes {
            // The passer's time started at `now`: a pass comes in time, and `judge` plays it
            // and presses the clock as any move.
            match judge(
                self.position(),
                &pass,
                Some(self.clock),
                self.ply(),
                now,
                Early::Lose,
            ) {
                Ok(moved) => self.push(pass, moved),
                Err(Refused::OutOfTime(ending)) => self.ended = Some(ending),
                Err(Refused::Rules(_)) => return,
            }
        }
    }

    /// Plays `mv` and nothing more.
    fn play_only(&mut self, expected: usize, mv: &G::Move, now: Millis) -> Result<(), TableError> {
        if expected != self.ply() {
            return Err(TableError::StalePly {
                given: expected,
                current: self.ply(),
            });
        }
        self.refuse_if_over()?;
        match judge(
            self.position(),
            mv,
            Some(self.clock),
            self.ply(),
            now,
            Early::Lose,
        ) {
            Ok(moved) => {
                self.push(mv.clone(), moved);
                Ok(())
            }
            Err(Refused::OutOfTime(ending)) => {
                self.ended = Some(ending);
                self.refuse_if_over()
            }
            Err(Refused::Rules(e)) => Err(e.into()),
        }
    }

    /// Records a move [`judge`] let through.
    fn push(&mut self, mv: G::Move, moved: Moved<G>) {
        // A table always runs a clock (one that never falls without a time control).
        let (clock, took) = moved.clock.unwrap_or((self.clock, Millis(0)));
        self.clocks.push(self.clock);
        self.clock = clock;
        self.times.push(took);
        self.moves.push(mv);
        if moved.ending.is_some() {
            self.ended = moved.ending;
        }
        self.positions.push(moved.position);
    }

    /// Reads and plays a move given as text (see [`Table::play_move`]); returns it as the
    /// contract writes it.
    pub fn play(&mut self, expected: usize, text: &str, now: Millis) -> Result<String, TableError> {
        // Cells are read without regard to case (`C3` is `c3`), as every move text allows.
        let mv = self.position().parse_move(&text.to_ascii_lowercase())?;
        self.play_move(expected, &mv, now)?;
        Ok(mv.to_string())
    }

    /// Ends a game the rules have not ended (a resignation, a timeout or an abort known
    /// from storage); a game the rules ended keeps that ending.
    pub(crate) fn end_off_the_board(&mut self, ending: Ending) {
        if self.ended.is_none() {
            self.ended = Some(ending);
        }
    }

    /// `player` gives the game up.
    pub fn resign(&mut self, player: Player) -> Result<Ending, TableError> {
        self.refuse_if_over()?;
        let ending = resignation(self.ply(), player, Early::Lose);
        self.ended = Some(ending);
        Ok(ending)
    }

    /// Calls the game off, which is allowed only before its second move.
    pub fn abort(&mut self) -> Result<Ending, TableError> {
        self.refuse_if_over()?;
        if !abortable(self.ply()) {
            return Err(TableError::TooLateToAbort);
        }
        let ending = Ending {
            winner: None,
            reason: Termination::Aborted,
        };
        self.ended = Some(ending);
        Ok(ending)
    }

    /// Takes the last move back (and a resignation or timeout with it), restoring the
    /// clock.
    pub fn undo(&mut self) -> Result<(), TableError> {
        if self.undo == UndoPolicy::Forbidden {
            return Err(TableError::Undo("moves cannot be taken back in this game"));
        }
        if matches!(self.ended, Some(e) if e.reason == Termination::Aborted) {
            return Err(TableError::Undo("the game was aborted"));
        }
        let Some(clock) = self.clocks.pop() else {
            return Err(TableError::Undo("nothing to undo"));
        };
        self.clock = clock;
        self.moves.pop();
        self.times.pop();
        self.positions.pop();
        self.ended = None;
        Ok(())
    }

    /// Takes back at least one move, then more (the AI's replies and forced passes) until
    /// a person is to move with a choice to make. Returns how many moves were taken back.
    pub fn undo_turn(&mut self) -> Result<usize, TableError> {
        if self.ended.is_some_and(|e| e.reason != Termination::Rules) && self.moves.is_empty() {
            // A resignation before any move: only the resignation is taken back.
            self.undo()?;
        }
        let mut taken = 0;
        loop {
            self.undo()?;
            taken += 1;
            let person = matches!(self.seat(self.position().to_move()), Seat::Person(_));
            if self.moves.is_empty() || (person && self.forced_pass().is_none()) {
                return Ok(taken);
            }
        }
    }
}

impl<G: Playable> Table<G> {
    /// The record of the game so far (`docs/RECORDS.md`), dated `date` (`2026.11.23`).
    pub fn record(&self, date: &str) -> GameRecord {
        let start = self.start();
        let mut record = GameRecord::new::<G>(start.size());
        if G::start(start.size()).is_ok_and(|s| s != *start) {
            record.set_tag("Start", start.to_string());
        }
        record.moves = self.moves.iter().map(ToString::to_string).collect();
        record.result = match self.ended {
            Some(Ending {
                winner: Some(p), ..
            }) => RecordResult::Win(G::colour_letter(p)),
            Some(Ending {
                winner: None,
                reason: Termination::Rules | Termination::Adjudicated,
            }) => RecordResult::Draw,
            _ => RecordResult::Unfinished,
        };
        record.set_tag(
            "Players",
            format!(
                "{} vs {}",
                seat_name(self.seat(Player::First)),
                seat_name(self.seat(Player::Second))
            ),
        );
        record.set_tag("Date", date);
        record.set_tag("Result", record.result.to_string());
        record.set_tag(
            "Termination",
            self.ended.map_or("unfinished", |e| e.reason.as_str()),
        );
        record
    }

    /// A table that continues the game of a record at `now` (its moves took no time), with
    /// these seats. A game ended off the board (resigned, timeout, adjudicated) keeps its
    /// ending.
    pub fn from_record(
        record: &GameRecord,
        seats: [Seat; 2],
        undo: UndoPolicy,
        now: Millis,
    ) -> Result<Table<G>, TableError> {
        let positions = record
            .replay::<G>()
            .map_err(|e| TableError::Stored(e.to_string()))?;
        let off_board = record.ended_off_the_board().then(|| {
            let winner = match record.result {
                RecordResult::Win(letter) => Player::BOTH
                    .into_iter()
                    .find(|&p| G::colour_letter(p) == letter),
                _ => None,
            };
            let reason = record
                .tag("Termination")
                .and_then(|word| word.parse().ok())
                .unwrap_or(Termination::Aborted);
            Ending { winner, reason }
        });
        let table = Table::replaying(positions[0].clone(), seats, TimeControl::None, undo, now);
        table.resume(
            record.moves.iter().map(|text| (text.as_str(), now)),
            off_board,
        )
    }
}

#[cfg(test)]
mod tests {
    use swapboard_core::Outcome;
    use swapboard_flipstop::Flipstop;
    use swapboard_swaptimum::Swaptimum;

    use super::*;

    fn people() -> [Seat; 2] {
        [Seat::Person("ann".into()), Seat::Person("bob".into())]
    }

    fn table(control: TimeControl) -> Table<Swaptimum> {
        Table::new(
            Swaptimum::start(5).unwrap(),
            people(),
            control,
            UndoPolicy::Allowed,
            Millis(0),
        )
    }

    /// A table being played passes for a player whose only move is a pass, at once and as a
    /// ply of its own; a replaying table waits for the pass to be given, as any move.
    #[test]
    fn a_table_plays_the_passes_the_rules_force() {
        let red_to_play: Flipstop = "flipstop RRRB/BBR./RR.R/BRRB R".parse().unwrap();
        let mut t = Table::new(
            red_to_play.clone(),
            people(),
            TimeControl::None,
            UndoPolicy::Allowed,
            Millis(0),
        );
        // Red fills d3; Blue's only move is then a pass (c2 would be illegal for Blue).
        t.play(0, "d3", Millis(10)).unwrap();
        assert_eq!(t.ply(), 2, "{:?}", t.played());
        assert!(Flipstop::is_pass(&t.moves()[1]));
        assert_eq!(t.describe(1).unwrap(), "Blue cannot place: pass");
        assert_eq!(t.position().to_move(), Player::First);
        // Undo takes back the pass with the move that forced it.
        assert_eq!(t.undo_turn(), Ok(2));
        let mut replay = Table::replaying(
            red_to_play,
            people(),
            TimeControl::None,
            UndoPolicy::Allowed,
            Millis(0),
        );
        replay.play(0, "d3", Millis(10)).unwrap();
        assert_eq!(replay.ply(), 1);
        replay.play(1, "pass", Millis(20)).unwrap();
        assert_eq!(replay.ply(), 2);
    }

    #[test]
    fn moves_count_plies_and_stale_plies_are_refused() {
        let mut t = table(TimeControl::None);
        assert_eq!(t.play(0, "c3", Millis(1_500)).unwrap(), "c3");
        assert_eq!(t.ply(), 1);
        assert_eq!(
            t.play(0, "D4", Millis(2_000)),
            Err(TableError::StalePly {
                given: 0,
                current: 1
            })
        );
        assert!(matches!(
            t.play(1, "c3", Millis(2_000)),
            Err(TableError::Move(_))
        ));
        assert_eq!(t.play(1, "B2", Millis(4_000)).unwrap(), "b2");
        assert_eq!(
            t.played(),
            vec![
                Played {
                    text: "c3".into(),
                    ms: 1_500
                },
                Played {
                    text: "b2".into(),
                    ms: 2_500
                }
            ]
        );
        assert_eq!(t.position_at(1).unwrap().to_move(), Player::Second);
    }

    #[test]
    fn resigning_ends_the_game_and_undo_takes_it_back() {
        let mut t = table(TimeControl::None);
        t.play(0, "c3", Millis(0)).unwrap();
        let e = t.resign(Player::Second).unwrap();
        assert_eq!(
            e,
            Ending {
                winner: Some(Player::First),
                reason: Termination::Resigned
            }
        );
        assert_eq!(t.ending_text().unwrap(), "Blue resigned: Red wins");
        assert!(matches!(
            t.play(1, "b2", Millis(0)),
            Err(TableError::Over(_))
        ));
        t.undo().unwrap();
        assert_eq!((t.ply(), t.ending()), (0, None));
        assert_eq!(t.undo(), Err(TableError::Undo("nothing to undo")));
    }

    #[test]
    fn undo_can_be_forbidden_and_abort_is_only_early() {
        let mut t = Table::new(
            Flipstop::start(5).unwrap(),
            people(),
            TimeControl::None,
            UndoPolicy::Forbidden,
            Millis(0),
        );
        t.play(0, "c3", Millis(0)).unwrap();
        assert!(t.undo().is_err());
        t.play(1, "b2", Millis(0)).unwrap();
        assert_eq!(t.abort(), Err(TableError::TooLateToAbort));
        let mut early = table(TimeControl::None);
        early.play(0, "c3", Millis(0)).unwrap();
        assert_eq!(early.abort().unwrap().reason, Termination::Aborted);
        assert_eq!(early.ending_text().unwrap(), "aborted");
    }

    #[test]
    fn the_clock_runs_out_and_the_game_ends_on_time() {
        let mut t = table(TimeControl::live_seconds(10, 0).unwrap());
        t.play(0, "c3", Millis(4_000)).unwrap();
        assert_eq!(t.clock().deadline(), Some(Millis(14_000)));
        assert_eq!(t.check_time(Millis(13_999)), None);
        assert!(matches!(
            t.play(1, "b2", Millis(14_000)),
            Err(TableError::Over(_))
        ));
        assert_eq!(
            t.ending(),
            Some(Ending {
                winner: Some(Player::First),
                reason: Termination::Timeout
            })
        );
        assert_eq!(t.ending_text().unwrap(), "Blue ran out of time: Red wins");
    }

    #[test]
    fn the_rules_end_the_game() {
        let mut t = table(TimeControl::correspondence(2).unwrap());
        let mut ply = 0;
        while t.ending().is_none() {
            let mv = t.position().legal_moves()[0];
            t.play_move(ply, &mv, Millis(ply as u64 * 1_000)).unwrap();
            ply += 1;
        }
        assert_eq!(t.ending().unwrap().reason, Termination::Rules);
        assert_eq!(
            t.position().outcome(),
            Some(Outcome::Win(t.ending().unwrap().winner.unwrap()))
        );
    }

    #[test]
    fn records_keep_resignations_and_resume() {
        let mut t = table(TimeControl::None);
        t.play(0, "c3", Millis(0)).unwrap();
        let unfinished = t.record("2026.11.23");
        assert_eq!(unfinished.result, RecordResult::Unfinished);
        assert_eq!(unfinished.tag("Termination"), Some("unfinished"));
        assert_eq!(unfinished.tag("Players"), Some("ann vs bob"));
        let resumed =
            Table::<Swaptimum>::from_record(&unfinished, people(), UndoPolicy::Allowed, Millis(9))
                .unwrap();
        assert_eq!((resumed.ply(), resumed.ending()), (1, None));
        t.resign(Player::Second).unwrap();
        let text = t.record("2026.11.23").to_string();
        assert!(
            text.contains("[Result \"R\"]\n[Termination \"resigned\"]"),
            "{text}"
        );
        assert!(text.ends_with("1. c3 R\n"), "{text}");
        let read = crate::record::read_records(&text).unwrap();
        let back =
            Table::<Swaptimum>::from_record(&read[0], people(), UndoPolicy::Allowed, Millis(0))
                .unwrap();
        assert_eq!(back.ending(), t.ending());
    }

    /// An adjudicated game's record: the winner's letter, or `draw` for an adjudicated draw
    /// (not `*`: it has a result), and `adjudicated`, which a table reads back as such.
    #[test]
    fn records_keep_adjudications() {
        for (winner, result) in [
            (Some(Player::Second), RecordResult::Win('B')),
            (None, RecordResult::Draw),
        ] {
            let ending = crate::step::adjudication(winner);
            let start = Table::replaying(
                Swaptimum::start(5).unwrap(),
                people(),
                TimeControl::None,
                UndoPolicy::Allowed,
                Millis(0),
            );
            let t = start.resume([("c3", Millis(0))], Some(ending)).unwrap();
            let record = t.record("2026.11.26");
            assert_eq!(record.result, result);
            assert_eq!(record.tag("Termination"), Some("adjudicated"));
            let text = record.to_string();
            let read = crate::record::read_records(&text).unwrap();
            let back =
                Table::<Swaptimum>::from_record(&read[0], people(), UndoPolicy::Allowed, Millis(0))
                    .unwrap();
            assert_eq!(back.ending(), Some(ending), "{text}");
        }
    }

    #[test]
    fn undo_turn_takes_back_the_ai_reply_too() {
        let mut t = Table::new(
            Swaptimum::start(5).unwrap(),
            [Seat::Person("human".into()), Seat::Ai(1)],
            TimeControl::None,
            UndoPolicy::Allowed,
            Millis(0),
        );
        t.play(0, "c3", Millis(0)).unwrap();
        t.play(1, "b2", Millis(0)).unwrap();
        assert_eq!(t.undo_turn(), Ok(2));
        assert_eq!(t.ply(), 0);
    }
}
