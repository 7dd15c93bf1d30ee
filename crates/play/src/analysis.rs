//! What the AI thinks of a position, and of each move of a game: the analysis a front end
//! shows after a game, worded the same for every game.
//!
//! Every position is first given to the solver within a node budget ([`REVIEW_SOLVER_NODES`]
//! on boards of up to 25 cells, the AI's live solver's budget, which settles every 4x4
//! position and most 5x5 ones a few plies in; [`SOLVER_NODES`] on larger ones, where it
//! settles finished-looking positions), then to the search. Neither reads a clock: the
//! solver's budget is in nodes and the search's in iterations and nodes, from a seed, so an
//! analysis says the same on any machine under any load (a proof cut short by seconds
//! would leave a position unproven on a busy machine that a quiet one proves). A
//! position's value is the chance of its player to move: 1, 0 or 1/2 once the game is over
//! or the solver or the search has proved it, else the win rate of the search's best move.
//!
//! A move's review is exact wherever the truth is known: where the positions before and
//! after the move are both proven, the move is a blunder exactly when it turns a proven win
//! into a proven loss, and nothing otherwise; a move in a proven-lost position, or one after
//! which its mover has a proven win, is never judged. Elsewhere it compares the search's
//! estimates before and after (never a proven value with an estimate) and names what was
//! lost with lichess's words and thresholds, as the AI's opinion.

use std::any::TypeId;
use std::time::Duration;

use swapboard_ai::{Analysis, Level};
use swapboard_core::{Outcome, Player, Stepwise};
use swapboard_solver::book::OFF_BOOK_NODES;
use swapboard_solver::{MoveResult, Options, Solution, Solver};

use crate::game::Playable;
use crate::opponent::AiRequest;
use crate::position::{AnyPosition, PositionFn};

/// The level whose budget a review gives each position: 4,000 iterations (divided by the
/// game's search cost, as the AI's own are).
const REVIEW_LEVEL: u8 = 5;

/// The node cap of a review's search of one position: its memory, a few tens of MB.
const REVIEW_MAX_NODES: usize = 200_000;

/// The solver's node budget for a position of a board of up to [`SMALL_BOARD_CELLS`]
/// cells: the AI's live solver's ([`OFF_BOOK_NODES`], about 1.5 s of CPU), which settles
/// every 4x4 position (the empty 4x4 boards take 0.3-0.35 M nodes) and most 5x5 ones a few
/// plies in. A budget in nodes, never in seconds: what it proves is the same on any
/// machine under any load.
pub(crate) const REVIEW_SOLVER_NODES: u64 = OFF_BOOK_NODES;

/// The solver's node budget on larger boards: about 30 ms, as much as the search's own
/// share, which settles the positions where one side is about to connect.
pub(crate) const SOLVER_NODES: u64 = 10_000;

/// The largest board, in cells, given [`REVIEW_SOLVER_NODES`].
const SMALL_BOARD_CELLS: usize = 25;

/// The solver's table: 8 MiB, half a million entries, more than the budget fills.
const SOLVER_TABLE_BYTES: usize = 8 << 20;

impl AiRequest {
    /// The search a review gives each position of a game: level 5's 4,000 iterations
    /// (divided by the game's search cost), a tree of at most 200,000 nodes, and no time
    /// limit, so that a review from the same seed says the same on any machine under any
    /// load (its work is bounded by the iterations and nodes).
    pub fn review(seed: u64) -> AiRequest {
        AiRequest {
            level: Level::new(REVIEW_LEVEL).unwrap_or(Level::MAX),
            limit: None,
            extra: Duration::ZERO,
            seed,
            max_nodes: REVIEW_MAX_NODES,
        }
    }
}

/// A proven result of a line, for the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proven {
    /// The player to move wins with this move whatever the reply.
    Win,
    /// The player to move loses after this move whatever it does.
    Loss,
    /// Neither side can do better than a draw.
    Draw,
}

impl Proven {
    /// The word: `win`, `loss` or `draw`.
    pub fn as_str(self) -> &'static str {
        match self {
            Proven::Win => "win",
            Proven::Loss => "loss",
            Proven::Draw => "draw",
        }
    }

    fn of(outcome: Outcome, player: Player) -> Proven {
        match outcome {
            Outcome::Win(winner) if winner == player => Proven::Win,
            Outcome::Win(_) => Proven::Loss,
            Outcome::Draw => Proven::Draw,
        }
    }

    /// The same result seen by the other player.
    fn other(self) -> Proven {
        match self {
            Proven::Win => Proven::Loss,
            Proven::Loss => Proven::Win,
            Proven::Draw => Proven::Draw,
        }
    }

    /// The chance it gives the player to move.
    fn chance(self) -> f64 {
        match self {
            Proven::Win => 1.0,
            Proven::Loss => 0.0,
            Proven::Draw => 0.5,
        }
    }
}

/// One candidate move of an analysis.
#[derive(Debug, Clone, PartialEq)]
pub struct LineView {
    /// The move, as the contract writes it.
    pub mv: String,
    /// The search's iterations through it.
    pub visits: u64,
    /// The mover's chance through it, 0 to 1.
    pub win_rate: f64,
    /// The move and the replies the search expects, as the contract writes them.
    pub pv: Vec<String>,
    /// The result the search proved after it, if any.
    pub proven: Option<Proven>,
}

/// What the AI thinks of a position.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysisView {
    /// The player to move.
    pub to_move: Player,
    /// That player's colour letter (`R`, `B`, ...).
    pub colour: char,
    /// The nodes of the search tree.
    pub nodes: usize,
    /// The iterations searched.
    pub iterations: u64,
    /// The chance of the player to move, 0 to 1 (see the module's words).
    pub win_rate: f64,
    /// The proven result for the player to move (the game's end, the solver's or the
    /// search's proof), if any.
    pub proven: Option<Proven>,
    /// The search's own estimate of that chance, its best unproven line's win rate (the
    /// game's end once it is over): what a review compares when a proof is missing on
    /// either side of a move.
    pub estimate: f64,
    /// The best moves, best first (proven wins first, proven losses last); none once the
    /// game is over.
    pub lines: Vec<LineView>,
}

impl AnalysisView {
    /// The chance of `player` in this position.
    pub fn chance_of(&self, player: Player) -> f64 {
        chance_for(self.win_rate, self.to_move, player)
    }
}

/// An analysis of a position, keeping its best `lines` (a [`PositionFn`]).
struct Analyse {
    request: AiRequest,
    lines: usize,
}

impl PositionFn for Analyse {
    type Output = AnalysisView;

    fn call<G: Playable>(self, position: &G) -> AnalysisView {
        let to_move = position.to_move();
        let colour = G::colour_letter(to_move);
        if let Some(outcome) = position.outcome() {
            let proven = Proven::of(outcome, to_move);
            return AnalysisView {
                to_move,
                colour,
                nodes: 0,
                iterations: 0,
                win_rate: proven.chance(),
                proven: Some(proven),
                estimate: proven.chance(),
                lines: Vec::new(),
            };
        }
        let solution = solve(position);
        let (mut search, budget) = self.request.search(position);
        let analysis: Analysis<G::Move> = search.think(&budget);
        let mut lines: Vec<LineView> = analysis
            .lines
            .iter()
            .map(|line| LineView {
                mv: line.mv.to_string(),
                visits: line.visits,
                win_rate: line.win_rate.clamp(0.0, 1.0),
                pv: line.pv.iter().map(ToString::to_string).collect(),
                proven: line.proven.map(|outcome| Proven::of(outcome, to_move)),
            })
            .collect();
        let estimate = lines
            .iter()
            .find(|line| line.proven.is_none())
            .or(lines.first())
            .map_or(0.5, |line| line.win_rate);
        let proven = solution
            .as_ref()
            .and_then(|s| s.outcome)
            .or(analysis.proven)
            .map(|outcome| Proven::of(outcome, to_move));
        if let Some(solution) = &solution {
            add_proofs(&mut lines, solution, proven);
        }
        for line in &mut lines {
            if let Some(proof) = line.proven {
                line.win_rate = proof.chance();
            }
        }
        // Proven wins first and proven losses last, the search's order kept within each.
        lines.sort_by_key(|line| match line.proven {
            Some(Proven::Win) => 0,
            Some(Proven::Loss) => 2,
            _ => 1,
        });
        lines.truncate(self.lines);
        let win_rate = match (proven, lines.first()) {
            (Some(proven), _) => proven.chance(),
            (None, Some(best)) => best.win_rate,
            (None, None) => 0.5,
        };
        AnalysisView {
            to_move,
            colour,
            nodes: analysis.nodes,
            iterations: analysis.iterations,
            win_rate,
            proven,
            estimate,
            lines,
        }
    }
}

/// The solver's answer for `position` within the review's node budget (no time limit), or
/// `None` for a game whose turns are searched decision by decision (Scware): the solver
/// lists every whole move of a position, and a crowded Scware position has hundreds of
/// millions.
fn solve<G: Stepwise>(position: &G) -> Option<Solution<G::Move>> {
    if TypeId::of::<G>() != TypeId::of::<G::Steps>() {
        return None;
    }
    let size = position.size();
    let max_nodes = if size * size <= SMALL_BOARD_CELLS {
        REVIEW_SOLVER_NODES
    } else {
        SOLVER_NODES
    };
    let options = Options {
        table_bytes: SOLVER_TABLE_BYTES,
        max_nodes: Some(max_nodes),
        time: None,
        ..Options::default()
    };
    Some(Solver::new(options).solve(position, &mut |_| {}))
}

/// Marks the lines the solver settled, and puts its winning move among them if the search
/// did not list it: in a won position, the move that wins; in a lost one, every move (a
/// move that did not lose would make the position no loss).
fn add_proofs<M: ToString>(
    lines: &mut Vec<LineView>,
    solution: &Solution<M>,
    proven: Option<Proven>,
) {
    for (mv, result) in &solution.moves {
        let text = mv.to_string();
        let proof = match (result, proven) {
            (MoveResult::Wins, _) => Proven::Win,
            (MoveResult::DoesNotWin, Some(Proven::Loss)) => Proven::Loss,
            _ => continue,
        };
        match lines.iter_mut().find(|line| line.mv == text) {
            Some(line) => line.proven = Some(proof),
            None if proof == Proven::Win => lines.insert(
                0,
                LineView {
                    mv: text.clone(),
                    visits: 0,
                    win_rate: proof.chance(),
                    pv: vec![text],
                    proven: Some(proof),
                },
            ),
            None => {}
        }
    }
}

impl AnyPosition {
    /// What the AI at `request`'s level thinks of this position: its best `lines` moves
    /// with their win rates and expected continuations. One search thread; memory bounded
    /// by `request.max_nodes`, time by `request.limit`.
    pub fn analyse(&self, request: AiRequest, lines: usize) -> AnalysisView {
        self.visit(Analyse { request, lines })
    }
}

/// How bad a move was, by the chance its mover threw away (lichess's words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    /// At least [`Judgement::INACCURACY`] of the mover's chance lost.
    Inaccuracy,
    /// At least [`Judgement::MISTAKE`] lost.
    Mistake,
    /// At least [`Judgement::BLUNDER`] lost.
    Blunder,
}

impl Judgement {
    /// The loss that makes an inaccuracy.
    pub const INACCURACY: f64 = 0.1;
    /// The loss that makes a mistake.
    pub const MISTAKE: f64 = 0.2;
    /// The loss that makes a blunder.
    pub const BLUNDER: f64 = 0.3;

    /// The judgement of a move that lost `loss` of its mover's chance, if it deserves one.
    pub fn of_loss(loss: f64) -> Option<Judgement> {
        if loss >= Judgement::BLUNDER {
            Some(Judgement::Blunder)
        } else if loss >= Judgement::MISTAKE {
            Some(Judgement::Mistake)
        } else if loss >= Judgement::INACCURACY {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    /// The word: `inaccuracy`, `mistake` or `blunder`.
    pub fn as_str(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// What a judgement rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// Proofs: the judgement (or its absence) is a fact of the game.
    Proven,
    /// The search's estimates: the AI's opinion.
    Estimated,
}

impl Basis {
    /// The word: `proven` or `estimated`.
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::Proven => "proven",
            Basis::Estimated => "estimated",
        }
    }
}

/// What one move of a game did to its mover's chance.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveReview {
    /// The mover's chance before the move: the best the position offered (proven when both
    /// positions are, else the search's estimate).
    pub win_before: f64,
    /// The mover's chance after it, of the same kind as `win_before`.
    pub win_after: f64,
    /// What the move threw away: `win_before - win_after`, never below 0.
    pub loss: f64,
    /// The move to play instead: a proven winning move whenever the position has one, else
    /// the search's preferred move, if it had one.
    pub best: Option<String>,
    /// How bad the move was, if bad at all.
    pub judgement: Option<Judgement>,
    /// Whether the judgement (or its absence) is proven or the search's estimate.
    pub basis: Basis,
}

impl MoveReview {
    /// The review of `played`, from the analyses of the positions before and after it (and
    /// what the one before proved of `played`, if the one after proved nothing).
    ///
    /// Where both positions are proven, the move is a blunder exactly when it turned a
    /// proven win into a proven loss. A move in a proven-lost position, or one after which
    /// its mover has a proven win, lost nothing, whatever the estimates say. Otherwise the
    /// estimates before and after are compared, never a proven value with an estimate: a
    /// proof on one side only would make the search's noise on the other look like a loss
    /// (or hide one). The search's preferred move is judged like any other.
    pub fn of(before: &AnalysisView, played: &str, after: &AnalysisView) -> MoveReview {
        let mover = before.to_move;
        let best = before.lines.first().map(|line| line.mv.clone());
        // What the position after the move proved, or, when its own budget fell short,
        // what the analysis before proved of the move.
        let after_proven = after
            .proven
            .map(|p| if after.to_move == mover { p } else { p.other() })
            .or_else(|| {
                before
                    .lines
                    .iter()
                    .find(|line| line.mv == played)
                    .and_then(|line| line.proven)
            });
        let (win_before, win_after, basis) = match (before.proven, after_proven) {
            (Some(b), Some(a)) => (b.chance(), a.chance(), Basis::Proven),
            _ => (
                before.estimate,
                chance_for(after.estimate, after.to_move, mover),
                Basis::Estimated,
            ),
        };
        let loss = (win_before - win_after).max(0.0);
        let (judgement, basis) = match (before.proven, after_proven) {
            (Some(Proven::Win), Some(Proven::Loss)) => (Some(Judgement::Blunder), Basis::Proven),
            (Some(_), Some(_)) | (Some(Proven::Loss), None) | (None, Some(Proven::Win)) => {
                (None, Basis::Proven)
            }
            _ => (Judgement::of_loss(loss), basis),
        };
        MoveReview {
            win_before,
            win_after,
            loss,
            best,
            judgement,
            basis,
        }
    }
}

/// The chance of `player` where the player to move, `to_move`, has `chance`.
fn chance_for(chance: f64, to_move: Player, player: Player) -> f64 {
    if player == to_move {
        chance
    } else {
        1.0 - chance
    }
}

#[cfg(test)]
mod tests {
    use crate::GameId;

    use super::*;

    fn request(level: u8) -> AiRequest {
        AiRequest {
            level: Level::new(level).unwrap(),
            limit: Some(Duration::from_secs(5)),
            extra: Duration::ZERO,
            seed: 7,
            max_nodes: 100_000,
        }
    }

    #[test]
    fn an_analysis_gives_legal_lines_best_first() {
        let start = AnyPosition::start(GameId::Swaptimum, 5).unwrap();
        let analysis = start.analyse(request(4), 5);
        assert_eq!(analysis.to_move, start.to_move());
        assert_eq!(analysis.colour, 'R');
        assert!(!analysis.lines.is_empty() && analysis.lines.len() <= 5);
        assert!(analysis.nodes > 0 && analysis.iterations > 0);
        assert!((0.0..=1.0).contains(&analysis.win_rate));
        for line in &analysis.lines {
            let mut after = start.clone();
            after.play_text(&line.mv).unwrap();
            assert_eq!(line.pv.first(), Some(&line.mv));
            assert!((0.0..=1.0).contains(&line.win_rate));
        }
        let visits: Vec<u64> = analysis.lines.iter().map(|l| l.visits).collect();
        assert!(visits.windows(2).all(|w| w[0] >= w[1]) || analysis.lines[0].proven.is_some());
    }

    #[test]
    fn a_finished_game_is_worth_all_or_nothing() {
        let mut position = AnyPosition::start(GameId::Flipstop, 3).unwrap();
        while position.outcome().is_none() {
            let mv = position.ai_move(&[], request(1)).unwrap().unwrap();
            position.play_text(&mv).unwrap();
        }
        let analysis = position.analyse(request(3), 5);
        assert!(analysis.lines.is_empty());
        let Some(Outcome::Win(winner)) = position.outcome() else {
            panic!("Flipstop has no draws");
        };
        assert_eq!(analysis.chance_of(winner), 1.0);
        assert_eq!(analysis.chance_of(winner.other()), 0.0);
    }

    /// A game of `game` on a small board from Red's centre move (b2: a quick proof, where
    /// the empty board is the slowest position to prove), the best moves played, until its
    /// mover has a proven win and a move that throws it away: the moves before, and that
    /// move.
    pub(crate) fn a_won_position_thrown_away(game: GameId, size: usize) -> (Vec<String>, String) {
        let mut position = AnyPosition::start(game, size).unwrap();
        let mut played = vec!["b2".to_owned()];
        position.play_text(&played[0]).unwrap();
        while position.outcome().is_none() {
            let before = position.analyse(AiRequest::review(1), 1);
            if before.win_rate == 1.0 {
                for mv in position.legal_moves(10_000).unwrap() {
                    let mut after = position.clone();
                    after.play_text(&mv).unwrap();
                    let answer = after.analyse(AiRequest::review(1), 1);
                    if answer.chance_of(before.to_move) == 0.0 {
                        return (played, mv);
                    }
                }
            }
            let best = before.lines[0].mv.clone();
            position.play_text(&best).unwrap();
            played.push(best);
        }
        panic!("no won position thrown away in {played:?}");
    }

    /// The position after `moves` from the start of `game` on `size`.
    fn after_moves(game: GameId, size: usize, moves: &[String]) -> AnyPosition {
        let mut position = AnyPosition::start(game, size).unwrap();
        for mv in moves {
            position.play_text(mv).unwrap();
        }
        position
    }

    #[test]
    fn a_won_position_thrown_away_is_a_proven_blunder_and_best_is_a_proven_win() {
        for game in [GameId::Swaptimum, GameId::Flipstop] {
            let (played, blunder) = a_won_position_thrown_away(game, 4);
            let mut position = after_moves(game, 4, &played);
            let before = position.analyse(AiRequest::review(9), 1);
            position.play_text(&blunder).unwrap();
            let after = position.analyse(AiRequest::review(9), 1);
            let review = MoveReview::of(&before, &blunder, &after);
            let context = format!("{game:?} {played:?} {blunder}");
            assert_eq!(
                (review.win_before, review.win_after),
                (1.0, 0.0),
                "{context}"
            );
            assert_eq!(review.loss, 1.0);
            assert_eq!(review.judgement, Some(Judgement::Blunder), "{context}");
            assert_eq!(review.basis, Basis::Proven, "{context}");
            // The move to play instead wins, proven.
            let best = review.best.expect("a best move");
            let mut instead = after_moves(game, 4, &played);
            instead.play_text(&best).unwrap();
            let answer = instead.analyse(AiRequest::review(9), 1);
            assert_eq!(answer.chance_of(before.to_move), 1.0, "{context} {best}");
            assert!(answer.proven.is_some(), "{context} {best}");
            // Keeping the win is no mistake, and a proven fact.
            let kept = MoveReview::of(&before, &best, &answer);
            assert_eq!((kept.judgement, kept.basis), (None, Basis::Proven));
        }
    }

    #[test]
    fn no_move_in_a_proven_lost_position_is_judged() {
        // Blue wins 4x4 Flipstop whatever Red does: after Red's corner and Blue's best
        // reply, every move of Red's is in a lost position.
        let game = GameId::Flipstop;
        let mut position = AnyPosition::start(game, 4).unwrap();
        position.play_text("a1").unwrap();
        let reply = position.analyse(AiRequest::review(3), 1);
        position.play_text(&reply.lines[0].mv).unwrap();
        let before = position.analyse(AiRequest::review(4), 1);
        assert_eq!(before.proven, Some(Proven::Loss), "{position}");
        let mut judged_by_estimates = 0;
        for mv in position.legal_moves(10_000).unwrap() {
            let mut next = position.clone();
            next.play_text(&mv).unwrap();
            let after = next.analyse(AiRequest::review(5), 1);
            let review = MoveReview::of(&before, &mv, &after);
            assert_eq!(
                (review.judgement, review.basis),
                (None, Basis::Proven),
                "{mv}"
            );
            let guess = before.estimate - chance_for(after.estimate, after.to_move, Player::First);
            judged_by_estimates += usize::from(Judgement::of_loss(guess).is_some());
        }
        // The estimates alone would have charged some of these moves (what the review did
        // before it asked the solver).
        assert!(judged_by_estimates > 0);
    }

    /// Other threads spinning on every core, twice over, until dropped: the machine a busy
    /// server or CI runner is.
    struct Load {
        stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
        threads: Vec<std::thread::JoinHandle<()>>,
    }

    impl Load {
        fn start() -> Load {
            use std::sync::atomic::Ordering;
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
            let threads = (0..2 * cores)
                .map(|i| {
                    let stop = std::sync::Arc::clone(&stop);
                    std::thread::spawn(move || {
                        let mut x = i as u64 + 1;
                        while !stop.load(Ordering::Relaxed) {
                            for _ in 0..10_000 {
                                x = std::hint::black_box(
                                    x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1),
                                );
                            }
                        }
                    })
                })
                .collect();
            Load { stop, threads }
        }
    }

    impl Drop for Load {
        fn drop(&mut self) {
            self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
            for thread in self.threads.drain(..) {
                let _ = thread.join();
            }
        }
    }

    /// The proven result for the player to move, from a solver without limits.
    struct Proof;

    impl PositionFn for Proof {
        type Output = Proven;

        fn call<G: Playable>(self, position: &G) -> Proven {
            let outcome = position.outcome().or_else(|| {
                Solver::new(Options::default())
                    .solve(position, &mut |_| {})
                    .outcome
            });
            Proven::of(outcome.expect("proven without limits"), position.to_move())
        }
    }

    /// A game of `game` on `size` of random moves from `seed`: its positions from the start
    /// to the end, and its moves.
    fn random_game(game: GameId, size: usize, seed: u64) -> (Vec<AnyPosition>, Vec<String>) {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut position = AnyPosition::start(game, size).unwrap();
        let (mut positions, mut moves) = (vec![position.clone()], Vec::new());
        while position.outcome().is_none() {
            let legal = position.legal_moves(10_000).unwrap();
            let mv = legal[rng.random_range(0..legal.len())].clone();
            position.play_text(&mv).unwrap();
            positions.push(position.clone());
            moves.push(mv);
        }
        (positions, moves)
    }

    /// The review of a 4x4 game, run with every core busy, judges each move as a proof
    /// without limits does: a blunder exactly where a proven win became a proven loss, no
    /// judgement where the proven value stayed, every judgement proven. (With the solver
    /// cut off by seconds, a busy machine missed game-losing moves and judged moves that
    /// changed nothing by the search's estimates.)
    #[test]
    fn a_review_on_a_loaded_machine_judges_exactly_what_is_proven() {
        let (mut blunders, mut kept) = (0, 0);
        for (game, seed) in [(GameId::Swaptimum, 3), (GameId::Flipstop, 4)] {
            let (positions, moves) = random_game(game, 4, seed);
            let views: Vec<AnalysisView> = {
                let _load = Load::start();
                positions
                    .iter()
                    .enumerate()
                    .map(|(ply, p)| p.analyse(AiRequest::review(ply as u64), 1))
                    .collect()
            };
            let proofs: Vec<Proven> = positions.iter().map(|p| p.visit(Proof)).collect();
            for (ply, mv) in moves.iter().enumerate() {
                let review = MoveReview::of(&views[ply], mv, &views[ply + 1]);
                let before = proofs[ply];
                let after = if positions[ply + 1].to_move() == positions[ply].to_move() {
                    proofs[ply + 1]
                } else {
                    proofs[ply + 1].other()
                };
                let context = format!("{game:?} {moves:?}, move {mv} ({before:?} to {after:?})");
                let expected =
                    (before == Proven::Win && after == Proven::Loss).then_some(Judgement::Blunder);
                assert_eq!(review.judgement, expected, "{context}");
                assert_eq!(review.basis, Basis::Proven, "{context}");
                assert_eq!(
                    (review.win_before, review.win_after),
                    (before.chance(), after.chance()),
                    "{context}"
                );
                blunders += usize::from(expected.is_some());
                kept += usize::from(before == after);
            }
        }
        // Both kinds of move are there to be judged.
        assert!(blunders > 0 && kept > 0, "{blunders} blunders, {kept} kept");
    }

    #[test]
    fn judgements_follow_the_thresholds() {
        assert_eq!(Judgement::of_loss(0.0), None);
        assert_eq!(Judgement::of_loss(0.099), None);
        assert_eq!(Judgement::of_loss(0.1), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_loss(0.2), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_loss(0.3), Some(Judgement::Blunder));
        assert_eq!(Judgement::of_loss(1.0), Some(Judgement::Blunder));
        let view = |to_move, win_rate, best: &str| AnalysisView {
            to_move,
            colour: 'R',
            nodes: 1,
            iterations: 1,
            win_rate,
            proven: None,
            estimate: win_rate,
            lines: vec![LineView {
                mv: best.to_owned(),
                visits: 1,
                win_rate,
                pv: vec![best.to_owned()],
                proven: None,
            }],
        };
        // The first player had 0.9 and left the second player 0.75 (itself 0.25).
        let before = view(Player::First, 0.9, "c3");
        let after = view(Player::Second, 0.75, "d4");
        let review = MoveReview::of(&before, "a1", &after);
        assert!((review.win_after - 0.25).abs() < 1e-9);
        assert!((review.loss - 0.65).abs() < 1e-9);
        assert_eq!(review.judgement, Some(Judgement::Blunder));
        assert_eq!(review.best.as_deref(), Some("c3"));
        assert_eq!(review.basis, Basis::Estimated);
        // The search's own choice is judged like any other; a move that gains loses nothing.
        assert_eq!(
            MoveReview::of(&before, "c3", &after).judgement,
            Some(Judgement::Blunder)
        );
        let better = MoveReview::of(&before, "a1", &view(Player::Second, 0.0, "d4"));
        assert_eq!((better.loss, better.judgement), (0.0, None));
    }

    #[test]
    fn a_proven_value_is_never_compared_with_an_estimate() {
        let view = |to_move, proven: Option<Proven>, estimate: f64| AnalysisView {
            to_move,
            colour: 'R',
            nodes: 1,
            iterations: 1,
            win_rate: proven.map_or(estimate, Proven::chance),
            proven,
            estimate,
            lines: Vec::new(),
        };
        // A proven win before, only an estimate after: the estimates are compared (0.6 and
        // 1 - 0.55), not 1 with 0.45.
        let before = view(Player::First, Some(Proven::Win), 0.6);
        let review = MoveReview::of(&before, "a1", &view(Player::Second, None, 0.55));
        assert!((review.loss - 0.15).abs() < 1e-9, "{review:?}");
        assert_eq!(
            (review.judgement, review.basis),
            (Some(Judgement::Inaccuracy), Basis::Estimated)
        );
        // Lost before: nothing to lose, whatever the estimate after.
        let lost = view(Player::First, Some(Proven::Loss), 0.7);
        let review = MoveReview::of(&lost, "a1", &view(Player::Second, None, 0.95));
        assert_eq!((review.judgement, review.basis), (None, Basis::Proven));
        // A proven win after: the move kept (or found) the win.
        let guess = view(Player::First, None, 0.9);
        let review = MoveReview::of(&guess, "a1", &view(Player::Second, Some(Proven::Loss), 0.4));
        assert_eq!((review.judgement, review.basis), (None, Basis::Proven));
        // Both proven: a win kept through a draw is no blunder; a win lost is one.
        let draw = MoveReview::of(
            &before,
            "a1",
            &view(Player::Second, Some(Proven::Draw), 0.5),
        );
        assert_eq!((draw.judgement, draw.basis), (None, Basis::Proven));
        let thrown = MoveReview::of(&before, "a1", &view(Player::Second, Some(Proven::Win), 0.5));
        assert_eq!(
            (thrown.judgement, thrown.basis, thrown.loss),
            (Some(Judgement::Blunder), Basis::Proven, 1.0)
        );
    }
}
