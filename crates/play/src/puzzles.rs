//! Puzzles proven by the solver: positions where exactly one move wins for the player to
//! move, that move proved to win and every other one proved not to (`docs/PUZZLES.md`).
//!
//! [`examine`] decides whether a position is a puzzle: it lists the legal moves, counts as
//! one the moves that lead to positions equal under the board's symmetries, and asks the
//! solver, within a node budget, about the position after each. Exactly one class must
//! win, every other must be proved not to win, and the shortest forced win is proved
//! ([`swapboard_solver::Solver::wins_within`]): the fewest moves of the winner's, forced
//! passes not counted, that win against any defence. Its main line (the winning move, the
//! opponent's longest resistance, the winner's fastest answers, to the game's end) is
//! recorded. [`Candidates`] draws the positions to examine from random games. [`judge`]
//! answers an attempt: a move that wins, or the refutation of one that does not, in words.
//!
//! Nothing here reads a clock or does I/O: the budget is in nodes, so a proof found once is
//! found again, and the command that writes the file (`swapboard puzzles generate`) and the
//! server that seeds its database from it do the rest.

use std::collections::HashSet;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use swapboard_core::{Game, MoveError, Outcome, Player, Stepwise};
use swapboard_solver::{Options, Solver};

use crate::game::{GameFn, GameId, Playable};
use crate::position::{AnyPosition, PositionFn};
use crate::step::{forced_pass, play_forced_passes};

/// The puzzles shipped with swapboard, one JSON object a line ([`Puzzle`]), as
/// `swapboard puzzles generate` wrote them; a new server seeds its database from them.
pub const SHIPPED: &str = include_str!("../puzzles/puzzles.jsonl");

/// The solver's node budget for each proof of a puzzle unless the generator is told
/// otherwise: every move's proof (the win and each refutation) must fit in it.
pub const DEFAULT_BUDGET: u64 = 100_000;

/// The fewest move classes a puzzle position may offer: with two, a guess is as good as a
/// solution.
pub const MIN_CHOICES: usize = 3;

/// The most move classes a puzzle position may offer: beyond that a position costs too many
/// proofs, and a player too many guesses.
pub const MAX_CHOICES: usize = 64;

/// The longest main line kept, in plies: a line that has not ended by then is no puzzle.
const MAX_LINE: usize = 60;

/// The most moves of the winner's a shortest win is looked for in: half of [`MAX_LINE`].
const MAX_MOVES: u32 = 30;

/// The solver's table for a puzzle's proofs: 8 MiB, half a million entries.
const TABLE_BYTES: usize = 8 << 20;

/// What a puzzle is about, read from its proofs. A move here is a turn of the player's own:
/// a pass the rules force (the only legal move) is not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    /// A win in one move: the winning move is the winner's last, whatever the opponent does.
    /// It ends the game at once, or, in Rapid Transit, leaves the winner only passes until
    /// the game ends (a swap after which neither side can swap, or after which the
    /// opponent's last swaps change nothing).
    Finish,
    /// The win takes several moves against any defence, and every other move lets the
    /// opponent end the game with a win at once: the winning move is the only defence, and
    /// it wins as well.
    Defence,
    /// The win takes several moves against any defence, and some other move does not lose
    /// at once.
    Combination,
}

impl Theme {
    /// Every theme, in the order lists show them.
    pub const ALL: [Theme; 3] = [Theme::Finish, Theme::Defence, Theme::Combination];

    /// The word of the API and the file (`finish`).
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Finish => "finish",
            Theme::Defence => "defence",
            Theme::Combination => "combination",
        }
    }

    /// The theme named by [`Theme::as_str`]'s word.
    pub fn of_str(word: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.as_str() == word)
    }

    /// What the puzzle asks, in words, for the player to move (`Red to move`).
    pub fn task(self, colour: &str) -> String {
        match self {
            Theme::Finish => format!("{colour} to move: win in one move"),
            Theme::Defence => format!("{colour} to move: stop the threat and win"),
            Theme::Combination => format!("{colour} to move and win"),
        }
    }
}

/// A puzzle: a position where exactly one move (up to the board's symmetries) wins.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// A stable id, from the position's text ([`puzzle_id`]).
    pub id: String,
    /// The game.
    pub game: GameId,
    /// The board's side.
    pub size: usize,
    /// The position, in the contract's text (docs/CONTRACT.md).
    pub position: String,
    /// The winning move, as the contract writes it.
    pub solution: String,
    /// The proof's main line: the winning move, then the opponent's longest resistance
    /// and the winner's fastest answers, to the game's end. The winner's moves in it, forced
    /// passes not counted ([`winner_moves`]), are the fewest it is proved to win in against
    /// any defence.
    pub line: Vec<String>,
    /// How hard it is, from the size of its proofs and the length of its line
    /// ([`difficulty`]): about 800 for a win in one among few moves, 2,000 and more for a
    /// long combination.
    pub difficulty: u32,
    /// What it is about.
    pub theme: Theme,
    /// The solver's nodes for all its proofs (the win and every refutation).
    pub nodes: u64,
}

/// A stable id for a puzzle from its position's text: 12 hex digits of its FNV-1a hash,
/// the same on every machine and in every build.
pub fn puzzle_id(position: &str) -> String {
    let hash = position.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{:012x}", hash >> 16)
}

/// A puzzle's difficulty: 600, plus 100 for each doubling of the proofs' nodes, plus 80
/// for each of the winner's moves after the first (in the shortest forced win). A win in
/// one among few moves is about 800; a win in four whose refutations took a million nodes,
/// about 2,800.
pub fn difficulty(nodes: u64, winner_moves: usize) -> u32 {
    let doublings = 64 - nodes.leading_zeros();
    let later = u32::try_from(winner_moves.saturating_sub(1)).unwrap_or(u32::MAX);
    600 + 100 * doublings + 80 * later.min(30)
}

/// Whether `position` is a puzzle, its proofs each within `budget` solver nodes: the puzzle
/// if it is, else `None` (the game is over, it offers fewer move classes than
/// [`MIN_CHOICES`] or more than [`MAX_CHOICES`], no move or more than one wins, a proof did
/// not fit the budget, or the length of the shortest win was not proved within it).
pub fn examine(position: &AnyPosition, budget: u64) -> Option<Puzzle> {
    position.visit(Examine { budget })
}

/// [`examine`] for a typed position.
struct Examine {
    budget: u64,
}

/// What the solver proved of one move class.
struct Proved<M> {
    mv: M,
    wins: bool,
    nodes: u64,
    /// Whether the opponent wins at once after it (a move that does not win): it ends the
    /// game in the opponent's win, or leaves the opponent a move that does (forced passes
    /// aside).
    lost_at_once: bool,
}

impl PositionFn for Examine {
    type Output = Option<Puzzle>;

    fn call<G: Playable>(self, position: &G) -> Option<Puzzle> {
        if position.outcome().is_some() {
            return None;
        }
        let mover = position.to_move();
        let classes = move_classes(position)?;
        if classes.len() < MIN_CHOICES {
            return None;
        }
        let mut solver = solver::<G>(self.budget);
        let mut proved: Vec<Proved<G::Move>> = Vec::with_capacity(classes.len());
        // Immediate wins first: two of them end the examination at no cost.
        let mut order: Vec<(G::Move, G)> = classes;
        order.sort_by_key(|(_, after)| after.outcome() != Some(Outcome::Win(mover)));
        for (mv, after) in order {
            let (wins, nodes) = match after.outcome() {
                Some(outcome) => (outcome == Outcome::Win(mover), 0),
                None => {
                    let solution = solver.solve(&after.to_steps(), &mut |_| {});
                    let outcome = solution.outcome?;
                    (outcome == Outcome::Win(mover), solution.nodes)
                }
            };
            let mut ended = after.clone();
            let lost_at_once = !wins
                && ((ends_at_once(&mut ended)
                    && ended.outcome() == Some(Outcome::Win(mover.other())))
                    || wins_at_once(&after));
            proved.push(Proved {
                mv,
                wins,
                nodes,
                lost_at_once,
            });
            if proved.iter().filter(|p| p.wins).count() > 1 {
                return None;
            }
        }
        let winning = proved.iter().find(|p| p.wins)?;
        // The only winning class: its move is the first of every shortest win, and one of
        // the winner's moves (a position of three classes or more has no forced pass).
        let moves = shortest_win(&mut solver, position, mover)?;
        let mut line = vec![winning.mv.clone()];
        let mut after = position.clone();
        after.play_unchecked(&winning.mv);
        fastest_line(
            &mut solver,
            &mut after,
            mover,
            moves.checked_sub(1)?,
            &mut line,
        )?;
        let winner_moves = usize::try_from(moves).ok()?;
        let theme = if moves == 1 {
            Theme::Finish
        } else if proved.iter().all(|p| p.wins || p.lost_at_once) {
            Theme::Defence
        } else {
            Theme::Combination
        };
        let nodes = proved.iter().map(|p| p.nodes).sum();
        let text = position.to_string();
        Some(Puzzle {
            id: puzzle_id(&text),
            game: G::GAME,
            size: position.size(),
            solution: winning.mv.to_string(),
            line: line.iter().map(ToString::to_string).collect(),
            difficulty: difficulty(nodes, winner_moves),
            theme,
            nodes,
            position: text,
        })
    }
}

/// A solver whose every search stops after `budget` nodes (no time limit: a proof found
/// once is found again).
pub(crate) fn solver<G: Stepwise>(budget: u64) -> Solver<G::Steps> {
    Solver::new(Options {
        table_bytes: TABLE_BYTES,
        max_nodes: Some(budget),
        time: None,
        ..Options::default()
    })
}

/// The legal moves of `position`, one per class of positions equal under the board's
/// symmetries, each with the position it leads to; `None` past [`MAX_CHOICES`] classes.
fn move_classes<G: Game>(position: &G) -> Option<Vec<(G::Move, G)>> {
    let mut seen = HashSet::new();
    let mut classes = Vec::new();
    let mut too_many = false;
    let _ = position.for_each_move(|mv| {
        let mut after = position.clone();
        after.play_unchecked(&mv);
        if seen.insert(after.canonical_hash()) {
            if classes.len() == MAX_CHOICES {
                too_many = true;
                return std::ops::ControlFlow::Break(());
            }
            classes.push((mv, after));
        }
        std::ops::ControlFlow::Continue(())
    });
    (!too_many).then_some(classes)
}

/// Whether the player to move can end the game with a win in one move (forced passes
/// after it aside).
fn wins_at_once<G: Game>(position: &G) -> bool {
    let mover = position.to_move();
    let mut after = position.clone();
    position
        .for_each_move(|mv| {
            after.clone_from(position);
            after.play_unchecked(&mv);
            if ends_at_once(&mut after) && after.outcome() == Some(Outcome::Win(mover)) {
                std::ops::ControlFlow::Break(())
            } else {
                std::ops::ControlFlow::Continue(())
            }
        })
        .is_break()
}

/// Whether the game is over at `position` once the passes the rules force are played
/// (`position` is left there): a move that leaves the opponent only a pass, and then
/// itself only a pass, ends a Rapid Transit game as surely as a connection ends others.
fn ends_at_once<G: Game>(position: &mut G) -> bool {
    play_forced_passes(position, |_, _| {});
    position.outcome().is_some()
}

/// The fewest moves of its own with which `winner` wins `position` against any defence,
/// forced passes not counted (a turn of several decisions is one move); `None` if the
/// solver does not prove one within its budget and [`MAX_MOVES`].
fn shortest_win<G: Stepwise>(
    solver: &mut Solver<G::Steps>,
    position: &G,
    winner: Player,
) -> Option<u32> {
    if let Some(outcome) = position.outcome() {
        return (outcome == Outcome::Win(winner)).then_some(0);
    }
    let steps = position.to_steps();
    for moves in 0..=MAX_MOVES {
        if solver.wins_within(&steps, winner, moves, false)? {
            return Some(moves);
        }
    }
    None
}

/// Extends `line` with a fastest win of `winner` from `position`, which it wins in exactly
/// `moves` moves of its own ([`shortest_win`]), to the game's end, leaving `position`
/// there: each decision of the winner's one that keeps the win within the moves left, each
/// of the loser's one after which the winner still needs all of them (the longest
/// resistance). `None` if a search did not settle or the line passed [`MAX_LINE`] plies.
fn fastest_line<G: Stepwise>(
    solver: &mut Solver<G::Steps>,
    position: &mut G,
    winner: Player,
    mut moves: u32,
    line: &mut Vec<G::Move>,
) -> Option<()> {
    while position.outcome().is_none() {
        if line.len() >= MAX_LINE {
            return None;
        }
        let mover = position.to_move();
        let mut steps = position.to_steps();
        if mover == winner && forced_pass(&steps).is_none() {
            moves = moves.checked_sub(1)?;
        }
        let mut path = Vec::new();
        loop {
            // The solver's own choice first (the first move of its proof, or the reply whose
            // refutation took it the most work), kept if it keeps the count.
            let mut candidates = steps.legal_moves();
            if let Some(best) = solver.solve(&steps, &mut |_| {}).best_move {
                candidates.retain(|step| *step != best);
                candidates.insert(0, best);
            }
            let mut chosen = None;
            for step in candidates.iter() {
                if candidates.len() == 1 {
                    chosen = Some(step.clone());
                    break;
                }
                let mut next = steps.clone();
                next.play_unchecked(step);
                let turn_started = next.to_move() == mover && next.outcome().is_none();
                let keeps = if mover == winner {
                    solver.wins_within(&next, winner, moves, turn_started)?
                } else if moves == 0 {
                    true
                } else {
                    !solver.wins_within(&next, winner, moves - 1, turn_started)?
                };
                if keeps {
                    chosen = Some(step.clone());
                    break;
                }
            }
            let step = chosen?;
            steps.play_unchecked(&step);
            path.push(step);
            if steps.outcome().is_some() || steps.to_move() != mover {
                break;
            }
        }
        let mv = position.move_from_steps(&path)?;
        position.play_unchecked(&mv);
        line.push(mv);
    }
    (position.outcome() == Some(Outcome::Win(winner))).then_some(())
}

/// The moves of the player to move at `position` in `line`, played from there, forced
/// passes not counted: for a puzzle's line, the fewest moves its winner wins in.
pub fn winner_moves(position: &AnyPosition, line: &[String]) -> Result<usize, MoveError> {
    position.visit(WinnerMoves { line })
}

/// [`winner_moves`] for a typed position.
struct WinnerMoves<'a> {
    line: &'a [String],
}

impl PositionFn for WinnerMoves<'_> {
    type Output = Result<usize, MoveError>;

    fn call<G: Playable>(self, position: &G) -> Result<usize, MoveError> {
        count_moves(position, position.to_move(), self.line)
    }
}

/// The moves of `player` in `line`, played from `position`, forced passes not counted.
fn count_moves<G: Game>(position: &G, player: Player, line: &[String]) -> Result<usize, MoveError> {
    let mut position = position.clone();
    let mut count = 0;
    for mv in line {
        let counted = position.to_move() == player && forced_pass(&position).is_none();
        position.play_text(mv)?;
        count += usize::from(counted);
    }
    Ok(count)
}

/// Extends `line` with the solver's best moves from `position` to the game's end (each
/// player's best: a proven win, or the longest resistance), leaving `position` there;
/// `None` if a search did not settle or the line passed [`MAX_LINE`] plies.
fn main_line<G: Stepwise>(
    solver: &mut Solver<G::Steps>,
    position: &mut G,
    line: &mut Vec<G::Move>,
) -> Option<()> {
    while position.outcome().is_none() {
        if line.len() >= MAX_LINE {
            return None;
        }
        let mv = best_move(solver, position)?;
        position.play_unchecked(&mv);
        line.push(mv);
    }
    Some(())
}

/// The solver's best whole move from `position`: its decisions taken one by one until the
/// turn passes (a single decision in games whose moves are listed whole).
pub(crate) fn best_move<G: Stepwise>(
    solver: &mut Solver<G::Steps>,
    position: &G,
) -> Option<G::Move> {
    let mover = position.to_move();
    let mut steps = position.to_steps();
    let mut path = Vec::new();
    loop {
        let solution = solver.solve(&steps, &mut |_| {});
        solution.outcome?;
        let step = solution.best_move?;
        steps.play_unchecked(&step);
        path.push(step);
        if steps.outcome().is_some() || steps.to_move() != mover {
            break;
        }
    }
    position.move_from_steps(&path)
}

/// The answer to an attempt at a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Attempt {
    /// Whether the move wins (the solution, or a move equal to it under the board's
    /// symmetries).
    pub correct: bool,
    /// The puzzle's winning move.
    pub solution: String,
    /// For a right move, the proof's main line; for a wrong one, that move and the
    /// opponent's refutation to the game's end.
    pub line: Vec<String>,
    /// Why, in words.
    pub why: String,
}

/// Why an attempt could not be judged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AttemptError {
    /// The puzzle's position text does not read (a damaged store).
    #[error("the puzzle's position does not read: {0}")]
    Position(String),
    /// The move is not legal there: the rule's refusal.
    #[error("{0}")]
    Move(#[from] MoveError),
}

/// Judges `mv` (a move's text) at `puzzle`: right when it leads where the solution does, up
/// to the board's symmetries; wrong otherwise, with the refutation the solver finds within
/// `budget` nodes a proof.
pub fn judge(puzzle: &Puzzle, mv: &str, budget: u64) -> Result<Attempt, AttemptError> {
    let position: AnyPosition = puzzle
        .position
        .parse()
        .map_err(|e: swapboard_core::PositionError| AttemptError::Position(e.to_string()))?;
    position.visit(Judge { puzzle, mv, budget })
}

/// [`judge`] for a typed position.
struct Judge<'a> {
    puzzle: &'a Puzzle,
    mv: &'a str,
    budget: u64,
}

impl PositionFn for Judge<'_> {
    type Output = Result<Attempt, AttemptError>;

    fn call<G: Playable>(self, position: &G) -> Result<Attempt, AttemptError> {
        let mover = position.to_move();
        let (me, them) = (G::colour_name(mover), G::colour_name(mover.other()));
        let mut tried = position.clone();
        let played = tried.play_text(&self.mv.to_ascii_lowercase())?;
        let mut solved = position.clone();
        let solution = solved
            .play_text(&self.puzzle.solution)
            .map_err(|e| AttemptError::Position(e.to_string()))?;
        let line = &self.puzzle.line;
        let mut solver = solver::<G>(self.budget);
        if tried.canonical_hash() == solved.canonical_hash() {
            // The stored line is a shortest win: its count is the proved one.
            let moves = count_moves(position, mover, line)
                .map_err(|e| AttemptError::Position(e.to_string()))?;
            let how = how_fast(moves, ends_at_once(&mut tried.clone()), them);
            let why = if played == solution {
                format!("{played} wins: {me} wins {how}")
            } else {
                format!(
                    "{played} wins: it is the solution {solution} seen in a mirror, and {me} wins {how}"
                )
            };
            let mut shown = line.clone();
            if played != solution {
                shown = vec![played.to_string()];
                let mut after = tried.clone();
                let mut rest = Vec::new();
                let left = u32::try_from(moves.saturating_sub(1)).unwrap_or(u32::MAX);
                if fastest_line(&mut solver, &mut after, mover, left, &mut rest).is_some() {
                    shown.extend(rest.iter().map(ToString::to_string));
                }
            }
            return Ok(Attempt {
                correct: true,
                solution: solution.to_string(),
                line: shown,
                why,
            });
        }
        // The opponent's shortest win after the move, if the budget proves it; else the
        // solver's plain proof (a draw held, or a win whose length is not proved).
        let mut refutation = Vec::new();
        let mut after = tried.clone();
        let fastest = shortest_win(&mut solver, &tried, mover.other()).filter(|&moves| {
            fastest_line(
                &mut solver,
                &mut after,
                mover.other(),
                moves,
                &mut refutation,
            )
            .is_some()
        });
        if fastest.is_none() {
            refutation.clear();
            after.clone_from(&tried);
        }
        let proved = fastest.is_some()
            || (main_line(&mut solver, &mut after, &mut refutation).is_some()
                && after.outcome().is_some_and(|o| o != Outcome::Win(mover)));
        let why = match (proved, refutation.first()) {
            (true, Some(answer)) => {
                let how = match (fastest, after.outcome()) {
                    (Some(moves), _) => {
                        let mut answered = tried.clone();
                        answered.play_unchecked(answer);
                        let moves = usize::try_from(moves).unwrap_or(usize::MAX);
                        format!("wins {}", how_fast(moves, ends_at_once(&mut answered), me))
                    }
                    (None, Some(Outcome::Win(_))) => format!("wins whatever {me} does"),
                    _ => "holds the draw".to_string(),
                };
                format!("{played} does not win: {them} answers {answer} and {how}")
            }
            _ if tried.outcome().is_some() => {
                format!("{played} does not win: it ends the game without a win for {me}")
            }
            _ => format!(
                "{played} does not win: the solver proved it when the puzzle was made; the \
                 winning move is {solution}"
            ),
        };
        let mut shown = vec![played.to_string()];
        if proved {
            shown.extend(refutation.iter().map(ToString::to_string));
        }
        Ok(Attempt {
            correct: false,
            solution: solution.to_string(),
            line: shown,
            why,
        })
    }
}

/// How fast a win of `moves` moves (the shortest, forced passes not counted) comes, in
/// words: "at once" when its first move ends the game, else in so many moves whatever the
/// `loser` does.
fn how_fast(moves: usize, at_once: bool, loser: &str) -> String {
    match moves {
        _ if at_once => "at once".to_string(),
        1 => format!("with this move alone, whatever {loser} does"),
        n => format!("in {n} moves whatever {loser} does"),
    }
}

/// Positions to examine for puzzles, drawn from random games of one game and size: each
/// game played out with the game's playout moves, then its positions offered from the end
/// backwards (the last `depth` before the end), where the fights are decided.
pub struct Candidates {
    game: GameId,
    size: usize,
    depth: usize,
    rng: Xoshiro256PlusPlus,
    pending: Vec<AnyPosition>,
}

impl Candidates {
    /// Candidates of `game` on a board of side `size`, from the seed `seed`, each game's
    /// last `depth` positions before its end.
    pub fn new(game: GameId, size: usize, seed: u64, depth: usize) -> Candidates {
        Candidates {
            game,
            size,
            depth,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            pending: Vec::new(),
        }
    }
}

impl Iterator for Candidates {
    type Item = AnyPosition;

    fn next(&mut self) -> Option<AnyPosition> {
        while self.pending.is_empty() {
            let seed = self.rng.random();
            self.pending = self.game.run(RandomGame {
                size: self.size,
                seed,
                depth: self.depth,
            })?;
        }
        self.pending.pop()
    }
}

/// The last positions of one random game, the earliest first ([`Candidates`]).
struct RandomGame {
    size: usize,
    seed: u64,
    depth: usize,
}

impl GameFn for RandomGame {
    type Output = Option<Vec<AnyPosition>>;

    fn call<G: Playable>(self) -> Option<Vec<AnyPosition>> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(self.seed);
        let mut position = G::start(self.size).ok()?;
        let mut history = vec![position.clone()];
        // Games that can cycle are cut off; their last positions are still candidates.
        for _ in 0..(self.size * self.size * 8) {
            if position.outcome().is_some() {
                break;
            }
            let mv = position.playout_move(&mut rng)?;
            position.play_unchecked(&mv);
            history.push(position.clone());
        }
        Some(last_open(
            history.into_iter().map(Playable::erase).collect(),
            self.depth,
        ))
    }
}

/// The last `depth` positions before a game's end that are not over, the earliest first:
/// where a game's fights are decided.
fn last_open(history: Vec<AnyPosition>, depth: usize) -> Vec<AnyPosition> {
    let keep = history.len().saturating_sub(depth + 1);
    history
        .into_iter()
        .skip(keep)
        .filter(|p| p.outcome().is_none())
        .collect()
}

/// Candidates from a game played for real (a server's finished game, a record of the AI's
/// self-play): `moves` replayed from `start`, then its last `depth` positions before the
/// end, the earliest first; an error names the first move that cannot be played.
pub fn positions_of_game(
    start: AnyPosition,
    moves: &[String],
    depth: usize,
) -> Result<Vec<AnyPosition>, String> {
    let mut position = start;
    let mut history = Vec::with_capacity(moves.len() + 1);
    history.push(position.clone());
    for (ply, mv) in moves.iter().enumerate() {
        position
            .play_text(mv)
            .map_err(|e| format!("move {} ({mv}): {e}", ply + 1))?;
        history.push(position.clone());
    }
    Ok(last_open(history, depth))
}

impl Puzzle {
    /// The puzzle as one line of [`SHIPPED`]'s file.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a puzzle serialises")
    }
}

/// Reads puzzles written one JSON object a line ([`Puzzle::to_line`], blank lines skipped);
/// an error names the line and what is wrong with it.
pub fn read_lines(text: &str) -> Result<Vec<Puzzle>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|e| format!("puzzle line {}: {e}", i + 1))
        })
        .collect()
}
