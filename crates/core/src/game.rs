use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::ops::{ControlFlow, RangeInclusive};
use std::str::FromStr;

use rand::{Rng, RngExt};
use swapboard_grid::Cell;

use crate::{BoardView, IllegalMove, MoveError, Outcome, PlayError, Player, PositionError};

/// A position of a two-player game, with everything the rules need to continue from it.
///
/// The AI, the arena, the terminal tools and the server are generic over this trait and know
/// no game. Implementations must keep these promises, which the conformance suite
/// (`swapboard-conformance`) checks for every game:
///
/// - [`Game::for_each_move`] yields each legal move once, and exactly the moves that
///   [`Game::check_move`] accepts; nothing once [`Game::outcome`] is `Some`;
/// - `pass` is legal exactly when nothing else is;
/// - the position text ([`Display`]/[`FromStr`]) and move text ([`Display`]/
///   [`Game::parse_move`]) round-trip;
/// - [`Game::zobrist`] depends only on the position, so equal positions hash equally.
///
/// Its items come in three groups, in this order:
///
/// | Job | Items |
/// |-----|-------|
/// | Rules | [`Game::Move`], [`Game::ID`], [`Game::DEFAULT_SIZE`], [`Game::sizes`], [`Game::start`], [`Game::size`], [`Game::to_move`], [`Game::outcome`], [`Game::for_each_move`], [`Game::is_pass`], [`Game::check_move`], [`Game::play_unchecked`], [`Game::parse_move`], [`Game::zobrist`]; provided: [`Game::is_over`], [`Game::fill_moves`], [`Game::legal_moves`], [`Game::move_count`], [`Game::has_legal_move`], [`Game::is_legal`], [`Game::play`], [`Game::play_text`] |
/// | Presentation | [`Game::TITLE`], [`Game::colour_letter`], [`Game::colour_name`], [`Game::view`] |
/// | Search, solver and statistics hooks (all provided) | [`Game::SEARCH_COST`], [`Game::MOVE_PRIORS`], [`Game::random_move`], [`Game::playout_move`], [`Game::play_out`], [`Game::move_prior`], [`Game::move_pattern`], [`Game::fill_moves_with_priors`], [`Game::symmetries`], [`Game::canonical_hash`], [`Game::distances_to_win`], [`Game::evaluation`], [`Game::rule_events`] |
pub trait Game:
    Clone + Send + Sync + Eq + Hash + Debug + Display + FromStr<Err = PositionError> + 'static
{
    // ---- Rules: the position, its moves and their legality. Every game writes the items up
    // to `zobrist`; the provided ones after it derive from them.

    /// A move, as small and cheap to copy as the game allows.
    type Move: Clone + Eq + Hash + Debug + Display + Send + Sync + 'static;

    /// The game's name in position texts and commands (`swaptimum`).
    const ID: &'static str;

    /// The board size of a new game when none is asked for.
    const DEFAULT_SIZE: usize;

    /// The board sizes this game can be played on.
    fn sizes() -> RangeInclusive<usize>;

    /// The start position on a board of side `size`.
    fn start(size: usize) -> Result<Self, PositionError>;

    /// The board side.
    fn size(&self) -> usize;

    /// The player whose turn it is. Turns need not alternate.
    fn to_move(&self) -> Player;

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Calls `f` with every legal move, each once, until `f` breaks.
    ///
    /// Must not allocate per move: this is the hot path of perft and search.
    fn for_each_move<F: FnMut(Self::Move) -> ControlFlow<()>>(&self, f: F) -> ControlFlow<()>;

    /// Whether `mv` is the move `pass` (front ends offer and announce it apart).
    fn is_pass(mv: &Self::Move) -> bool;

    /// Whether `mv` is legal here, and if not, the rule it breaks.
    fn check_move(&self, mv: &Self::Move) -> Result<(), IllegalMove>;

    /// Plays a move known to be legal. An illegal move leaves an unspecified (but memory-safe)
    /// position: use [`Game::play`] for untrusted moves.
    fn play_unchecked(&mut self, mv: &Self::Move);

    /// Reads a move in the contract's notation for this position (cells must lie on the
    /// board). Says nothing about legality: see [`Game::check_move`].
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// A Zobrist-style hash of the position (board, side to move, and game fields).
    fn zobrist(&self) -> u64;

    /// Whether the game has ended.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Every legal move, appended to `out` (which is cleared first), reusing its storage.
    fn fill_moves(&self, out: &mut Vec<Self::Move>) {
        out.clear();
        let _ = self.for_each_move(|m| {
            out.push(m);
            ControlFlow::Continue(())
        });
    }

    /// Every legal move, in a new vector.
    fn legal_moves(&self) -> Vec<Self::Move> {
        let mut out = Vec::new();
        self.fill_moves(&mut out);
        out
    }

    /// The number of legal moves. Games whose moves can be counted faster than listed
    /// override this (perft uses it at the last ply).
    fn move_count(&self) -> u64 {
        let mut n = 0;
        let _ = self.for_each_move(|_| {
            n += 1;
            ControlFlow::Continue(())
        });
        n
    }

    /// Whether the player to move has any legal move (a `pass` counts).
    fn has_legal_move(&self) -> bool {
        self.for_each_move(|_| ControlFlow::Break(())).is_break()
    }

    /// Whether `mv` is legal here.
    fn is_legal(&self, mv: &Self::Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// Plays a move after checking it; on refusal hands the untouched position back.
    fn play(mut self, mv: &Self::Move) -> Result<Self, PlayError<Self>> {
        match self.check_move(mv) {
            Ok(()) => {
                self.play_unchecked(mv);
                Ok(self)
            }
            Err(reason) => Err(PlayError {
                position: self,
                mv: mv.clone(),
                reason,
            }),
        }
    }

    /// Reads, checks and plays a move given as text.
    fn play_text(&mut self, text: &str) -> Result<Self::Move, MoveError> {
        let mv = self.parse_move(text)?;
        self.check_move(&mv).map_err(|reason| MoveError::Illegal {
            text: text.to_string(),
            reason,
        })?;
        self.play_unchecked(&mv);
        Ok(mv)
    }

    // ---- Presentation: the names, colours and picture front ends show.

    /// The game's name with its author's credit, as every page naming it must show it.
    const TITLE: &'static str;

    /// The colour letter of a player in position texts (`R`, `B`, ...).
    fn colour_letter(player: Player) -> char;

    /// The colour name of a player (`Red`).
    fn colour_name(player: Player) -> &'static str;

    /// What a board picture of this position shows.
    fn view(&self) -> BoardView;

    // ---- Search, solver and statistics hooks: knowledge a game may offer to the AI, the
    // solvers and `swapboard stats`; each has a default that needs none.

    /// Knowledge hook for search: about how many times more one search iteration costs in
    /// this game than in the simplest ones (1, the default), so that a strength level thinks
    /// about as long in every game. Levels divide their iteration budgets by it.
    const SEARCH_COST: u32 = 1;

    /// Knowledge hook for search: whether [`Game::move_prior`] answers (a table of learned
    /// priors), `false` by default. A search leans on the priors and on all-moves-as-first
    /// statistics instead of an exploration term where a game has them, which was measured
    /// to play far better (`docs/AI.md`); the conformance suite checks the two agree.
    const MOVE_PRIORS: bool = false;

    /// Knowledge hook for search: how many moves each ply of a tuned search's playout draws
    /// with [`Game::playout_move`], to play the one [`Game::playout_score`] ranks highest
    /// (the first of those tied). 1, the default, plays every move as drawn.
    const PLAYOUT_DRAWS: u32 = 1;

    /// A legal move drawn uniformly at random, or `None` when the game is over.
    ///
    /// The default samples a reservoir over [`Game::for_each_move`] (no allocation); games
    /// override it with something faster for playouts, keeping the distribution a game's
    /// documentation states.
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Move> {
        let mut chosen = None;
        let mut seen = 0u64;
        let _ = self.for_each_move(|m| {
            seen += 1;
            if rng.random_range(0..seen) == 0 {
                chosen = Some(m);
            }
            ControlFlow::Continue(())
        });
        chosen
    }

    /// Knowledge hook for search playouts: the move a playout plays here, or `None` when the
    /// game is over. The default is [`Game::random_move`]; a game may bias it (towards
    /// blocking or connecting moves, say), as long as every move it returns is legal.
    fn playout_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Move> {
        self.random_move(rng)
    }

    /// Knowledge hook for search playouts that draw several moves ([`Game::PLAYOUT_DRAWS`]):
    /// draws `draws` moves with [`Game::playout_move`] and returns the one
    /// [`Game::playout_score`] ranks highest (the first of those tied), or `None` when the
    /// game is over. The default is [`best_of_drawn_moves`]; a game may override it with
    /// something faster (drawing every move from one scan of the board, say), as long as it
    /// returns the same move from the same random numbers.
    fn best_playout_move<R: Rng + ?Sized>(&self, rng: &mut R, draws: u32) -> Option<Self::Move> {
        best_of_drawn_moves(self, rng, draws)
    }

    /// Knowledge hook for search: plays this position out with [`Game::playout_move`] until
    /// the game ends or `cap` moves have been played, calling `record` with each move and
    /// the player who made it (for all-moves-as-first statistics). A game may override it
    /// with a faster playout (fewer checks per move, say), as long as it calls `record` for
    /// the moves it plays and leaves `self` where the playout ended.
    fn play_out<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        cap: u32,
        record: impl FnMut(&Self::Move, Player),
    ) {
        play_out_by_moves(self, rng, cap, record);
    }

    /// Knowledge hook for search: calls `f` with each cell `mv` fills with its mover's
    /// stones and returns `true`, when all-moves-as-first statistics should pool moves by
    /// the cells they fill rather than by the moves themselves; `false` (the default, and
    /// for a move that fills no cell) keeps the move as its own key. In a connection game
    /// who holds a cell at the end of a playout matters, not the kind of move that took it
    /// (Scware: a placement, a growth's stone and a new group on one cell), and a compound
    /// move's stones each count like a move of their own.
    fn amaf_cells(mv: &Self::Move, f: impl FnMut(Cell)) -> bool {
        let _ = (mv, f);
        false
    }

    /// Knowledge hook for search: how promising `mv` looks before any search, from 0 (bad)
    /// to 1 (good), or `None` (the default) when the game offers no prior. A search adds it
    /// as a bias that fades as the move gets visited.
    fn move_prior(&self, mv: &Self::Move) -> Option<f32> {
        let _ = mv;
        None
    }

    /// Knowledge hook for search and training: the pattern of `mv`, a number below
    /// [`crate::pattern::PATTERN_COUNT`] shared by the moves that look alike to the game
    /// (for the placement games, [`crate::pattern::placement_pattern`]), or `None` (the
    /// default, and for a pass) when the game has no patterns. `swapboard train` counts how
    /// often self-play chooses each pattern, and a game's [`Game::move_prior`] may look its
    /// weight up. Called for every child at each expansion of a search tree: it must be
    /// cheap and allocate nothing.
    fn move_pattern(&self, mv: &Self::Move) -> Option<u32> {
        let _ = mv;
        None
    }

    /// Knowledge hook for search: [`Game::fill_moves`] and the [`Game::move_prior`] of each
    /// move (`priors[i]` is that of `moves[i]`), as a search expands a node when it weighs
    /// priors. A game whose priors need what listing its moves already works out (Flipstop's
    /// analysis of each placement) overrides it to work that out once; the moves, their
    /// order and the priors must be the default's, bit for bit.
    fn fill_moves_with_priors(&self, moves: &mut Vec<Self::Move>, priors: &mut Vec<Option<f32>>) {
        self.fill_moves(moves);
        priors.clear();
        priors.extend(moves.iter().map(|mv| self.move_prior(mv)));
    }

    /// Knowledge hook for solvers: the other positions this one is equivalent to under the
    /// board's symmetries. Each image must be this game with the cells renamed and perhaps
    /// the players' roles exchanged (colours and player to move swapped together), so that
    /// the result *for the player to move* is the same as here. The default is none.
    fn symmetries(&self) -> Vec<Self> {
        Vec::new()
    }

    /// Knowledge hook for solvers: a hash shared by this position and its
    /// [`Game::symmetries`], the smallest [`Game::zobrist`] among them. Games with
    /// symmetries override it with a computation that builds no image.
    fn canonical_hash(&self) -> u64 {
        self.symmetries()
            .iter()
            .map(Game::zobrist)
            .fold(self.zobrist(), u64::min)
    }

    /// Knowledge hook for solvers: an estimate of how far each player (first, then second)
    /// is from winning here, in moves (0 once they have won; larger when their way is
    /// blocked), or `None` (the default) when the game offers none. A proof-number search
    /// starts a new position's numbers from it, so that the lines where a side is close to
    /// winning are searched first; it needs no precision, only to grow with the distance.
    fn distances_to_win(&self) -> Option<[u32; 2]> {
        None
    }

    /// Knowledge hook for search playouts that draw several moves ([`Game::PLAYOUT_DRAWS`]):
    /// how good the legal move `mv` looks for its mover, higher is better; 0 by default.
    /// Called for every draw: it must be cheap and allocate nothing.
    fn playout_score(&self, mv: &Self::Move) -> f32 {
        let _ = mv;
        0.0
    }

    /// Knowledge hook for search: the first player's expected score here (0 loss, 0.5
    /// draw, 1 win), used where a playout is cut short (games that can cycle), or `None`
    /// (the default) when the game offers no evaluation and a cut playout counts as a draw.
    fn evaluation(&self) -> Option<f32> {
        None
    }

    /// Statistics hook: what the rules did when the legal move `mv` is played here, as named
    /// counts passed to `event` (`("crosscuts formed", 2)`). A game reports every counter it
    /// keeps for every move other than `pass`, zeros included, so a report lists them all.
    ///
    /// Only tools that study games call it (`swapboard stats`), never search or perft: it
    /// may clone, play and scan the board. The default reports nothing.
    fn rule_events(&self, mv: &Self::Move, event: &mut dyn FnMut(&'static str, u64)) {
        let _ = (mv, event);
    }
}

/// The default [`Game::best_playout_move`]: draws `draws` moves with [`Game::playout_move`]
/// and returns the first of those [`Game::playout_score`] ranks highest, or `None` when
/// the game is over.
pub fn best_of_drawn_moves<G: Game, R: Rng + ?Sized>(
    position: &G,
    rng: &mut R,
    draws: u32,
) -> Option<G::Move> {
    let mut best = position.playout_move(rng)?;
    let mut best_score = position.playout_score(&best);
    for _ in 1..draws {
        let Some(mv) = position.playout_move(rng) else {
            break;
        };
        let score = position.playout_score(&mv);
        if score > best_score {
            (best, best_score) = (mv, score);
        }
    }
    Some(best)
}

/// A playout that plays [`Game::best_playout_move`] of `draws` draws at each ply, until the
/// game ends or `cap` moves have been played, calling `record` like [`Game::play_out`].
/// With one draw it is [`play_out_by_moves`].
pub fn play_out_best_of<G: Game, R: Rng + ?Sized>(
    position: &mut G,
    rng: &mut R,
    cap: u32,
    draws: u32,
    mut record: impl FnMut(&G::Move, Player),
) {
    for _ in 0..cap {
        let mover = position.to_move();
        let Some(best) = position.best_playout_move(rng, draws) else {
            break;
        };
        record(&best, mover);
        position.play_unchecked(&best);
    }
}

/// The default [`Game::play_out`]: [`Game::playout_move`] and [`Game::play_unchecked`] until
/// the game ends or `cap` moves have been played; also the fallback of a game whose faster
/// playout covers only some positions (small boards, say).
pub fn play_out_by_moves<G: Game, R: Rng + ?Sized>(
    position: &mut G,
    rng: &mut R,
    cap: u32,
    mut record: impl FnMut(&G::Move, Player),
) {
    for _ in 0..cap {
        let mover = position.to_move();
        let Some(mv) = position.playout_move(rng) else {
            break;
        };
        record(&mv, mover);
        position.play_unchecked(&mv);
    }
}

/// The number of legal move sequences of length `depth` from `position` (`perft 0` is 1; a
/// finished game has no moves; `pass` is a move).
pub fn perft<G: Game>(position: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.move_count(),
        _ => {
            let mut total = 0;
            let _ = position.for_each_move(|m| {
                let mut next = position.clone();
                next.play_unchecked(&m);
                total += perft(&next, depth - 1);
                ControlFlow::Continue(())
            });
            total
        }
    }
}
