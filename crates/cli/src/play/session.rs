//! A game being played: the positions so far, who sits at each side, undo, resignation,
//! hints, what each move caused, and the record at the end. Both front ends (full screen and
//! line mode) drive this.

use swapboard_ai::Level;
use swapboard_arena::record::{GameRecord, RecordResult};
use swapboard_arena::{Bot, PlayerSpec, today};
use swapboard_core::{BoardView, CellMark, Game, Outcome, Player, Stepwise};
use swapboard_grid::Cell;

/// Who plays one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seat {
    /// A person at the keyboard.
    Human,
    /// The search at the session's level.
    Ai,
}

/// How a game ended, if it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The rules ended it.
    Rules(Outcome),
    /// This player resigned.
    Resigned(Player),
}

/// A game in progress.
pub(crate) struct Session<G: Stepwise> {
    positions: Vec<G>,
    moves: Vec<G::Move>,
    seats: [Seat; 2],
    level: Level,
    ai: Bot<G>,
    resigned: Option<Player>,
}

impl<G: Stepwise> Session<G> {
    /// A new game from `start` with these seats; the AI (and the hints) search at `level`.
    pub(crate) fn new(start: G, seats: [Seat; 2], level: Level, seed: u64) -> Session<G> {
        let ai = Bot::new(PlayerSpec::Level(level), &start, seed);
        Session {
            positions: vec![start],
            moves: Vec::new(),
            seats,
            level,
            ai,
            resigned: None,
        }
    }

    /// The current position.
    pub(crate) fn position(&self) -> &G {
        &self.positions[self.positions.len() - 1]
    }

    /// The moves played so far.
    pub(crate) fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// Who sits at `player`'s side.
    pub(crate) fn seat(&self, player: Player) -> Seat {
        self.seats[player.index()]
    }

    /// A side's name in the record and on screen: `human` or the AI's player spec.
    pub(crate) fn player_name(&self, player: Player) -> String {
        match self.seat(player) {
            Seat::Human => "human".to_string(),
            Seat::Ai => PlayerSpec::Level(self.level).to_string(),
        }
    }

    /// How the game ended, or `None` while it goes on.
    pub(crate) fn ending(&self) -> Option<Ending> {
        if let Some(p) = self.resigned {
            return Some(Ending::Resigned(p));
        }
        self.position().outcome().map(Ending::Rules)
    }

    /// Whether the side to move is the AI (and the game goes on).
    pub(crate) fn ai_to_move(&self) -> bool {
        self.ending().is_none() && self.seat(self.position().to_move()) == Seat::Ai
    }

    /// The only legal move when it is `pass`: the turn is skipped without asking anyone.
    pub(crate) fn forced_pass(&self) -> Option<G::Move> {
        if self.ending().is_some() {
            return None;
        }
        match self.position().legal_moves().as_slice() {
            [only] if only.to_string() == "pass" => Some(only.clone()),
            _ => None,
        }
    }

    /// Plays a legal move; the error is the rule it breaks.
    pub(crate) fn play(&mut self, mv: &G::Move) -> Result<(), String> {
        if let Some(ending) = self.ending() {
            return Err(format!("the game is over ({})", self.ending_text(ending)));
        }
        let next = self
            .position()
            .clone()
            .play(mv)
            .map_err(|e| e.to_string())?;
        let _ = self.ai.observe(mv);
        self.positions.push(next);
        self.moves.push(mv.clone());
        Ok(())
    }

    /// Reads and plays a move written in the contract's notation.
    pub(crate) fn play_text(&mut self, text: &str) -> Result<(), String> {
        let mv = self
            .position()
            .parse_move(text)
            .map_err(|e| e.to_string())?;
        self.play(&mv)
    }

    /// The AI's move in the current position.
    pub(crate) fn ai_move(&mut self) -> Option<G::Move> {
        let pos = self.position().clone();
        self.ai.choose(&pos)
    }

    /// The move the AI would play for the side to move.
    pub(crate) fn hint(&mut self) -> Option<G::Move> {
        if self.ending().is_some() {
            return None;
        }
        self.ai_move()
    }

    /// Takes moves back until a person is to move with a choice to make, having taken back
    /// at least one move (and the AI's replies and forced passes after it). Returns how many
    /// plies were taken back.
    pub(crate) fn undo(&mut self) -> usize {
        self.resigned = None;
        let mut taken = 0;
        while !self.moves.is_empty() {
            self.moves.pop();
            self.positions.pop();
            taken += 1;
            let mover = self.position().to_move();
            if self.seat(mover) == Seat::Human && self.forced_pass().is_none() {
                break;
            }
        }
        taken
    }

    /// The side to move gives the game up.
    pub(crate) fn resign(&mut self) {
        if self.ending().is_none() {
            self.resigned = Some(self.position().to_move());
        }
    }

    /// The ending in words: `Red wins`, `drawn`, `Blue resigned: Red wins`.
    pub(crate) fn ending_text(&self, ending: Ending) -> String {
        match ending {
            Ending::Rules(Outcome::Win(p)) => format!("{} wins", G::colour_name(p)),
            Ending::Rules(Outcome::Draw) => "drawn: neither player can move".to_string(),
            Ending::Resigned(p) => format!(
                "{} resigned: {} wins",
                G::colour_name(p),
                G::colour_name(p.other())
            ),
        }
    }

    /// The view of the current position, with what the last move changed marked.
    pub(crate) fn view(&self) -> BoardView {
        match self.positions.as_slice() {
            [.., before, after] => marked_view(before, after),
            _ => self.position().view(),
        }
    }

    /// What move `k` (from 0) did, in words (see [`describe`]).
    pub(crate) fn describe(&self, k: usize) -> String {
        describe(&self.positions[k], &self.positions[k + 1], &self.moves[k])
    }

    /// The record of the game so far (`docs/RECORDS.md`).
    pub(crate) fn record(&self) -> GameRecord {
        let start = &self.positions[0];
        let mut record = GameRecord::new::<G>(start.size());
        if G::start(start.size()).is_ok_and(|s| s != *start) {
            record.set_tag("Start", start.to_string());
        }
        record.moves = self.moves.iter().map(ToString::to_string).collect();
        record.result = RecordResult::of::<G>(self.position().outcome());
        record.set_tag(
            "Players",
            format!(
                "{} vs {}",
                self.player_name(Player::First),
                self.player_name(Player::Second)
            ),
        );
        record.set_tag("Date", today());
        record.set_tag("Result", record.result.to_string());
        record.set_tag(
            "Termination",
            match self.ending() {
                Some(Ending::Rules(_)) => "rules".to_string(),
                Some(Ending::Resigned(p)) => format!("{} resigned", G::colour_name(p)),
                None => "unfinished".to_string(),
            },
        );
        record
    }
}

/// The view of `after` with what the move from `before` changed marked.
pub(crate) fn marked_view<G: Game>(before: &G, after: &G) -> BoardView {
    let mut view = after.view();
    view.mark_changes_from(&before.view());
    view
}

/// What `mv`, played from `before` to reach `after`, did, in words:
/// `Red c3:d4-e5: placed c3; swapped c3, d4`, `Blue passes: no legal move, ...`, and a win
/// made on the opponent's turn.
pub(crate) fn describe<G: Game>(before: &G, after: &G, mv: &G::Move) -> String {
    let mover = before.to_move();
    let name = G::colour_name(mover);
    if mv.to_string() == "pass" {
        return format!("{name} passes: no legal move, the turn is skipped");
    }
    let view = marked_view(before, after);
    let mut parts = Vec::new();
    for (mark, word) in [
        (CellMark::Placed, "placed"),
        (CellMark::Swapped, "swapped"),
        (CellMark::Replaced, "replaced"),
    ] {
        let mut cells: Vec<Cell> = view
            .marks
            .iter()
            .filter(|&&(_, m)| m == mark)
            .map(|&(c, _)| c)
            .collect();
        cells.sort();
        if !cells.is_empty() {
            let names: Vec<String> = cells.iter().map(Cell::to_string).collect();
            parts.push(format!("{word} {}", names.join(", ")));
        }
    }
    let mut text = format!("{name} {mv}: {}", parts.join("; "));
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
