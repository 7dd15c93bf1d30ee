//! What the AI thinks of a position, and of each move of a game: the analysis a front end
//! shows after a game, worded the same for every game.
//!
//! A position's value is the chance of its player to move: 1 or 0 once the game is over or
//! the search has proved it, else the win rate of the search's best move. A move's review
//! compares the mover's chance before it (the best the position offered) with the chance
//! after it, and names what was lost with lichess's words and thresholds.

use std::time::Duration;

use swapboard_ai::{Analysis, Level};
use swapboard_core::{Outcome, Player};

use crate::game::Playable;
use crate::opponent::AiRequest;
use crate::position::{AnyPosition, PositionFn};

/// The level whose budget a review gives each position: 4,000 iterations (divided by the
/// game's search cost, as the AI's own are).
const REVIEW_LEVEL: u8 = 5;

/// The node cap of a review's search of one position: its memory, a few tens of MB.
const REVIEW_MAX_NODES: usize = 200_000;

/// The time cap of a review's search of one position, a guard for a loaded machine.
const REVIEW_TIME: Duration = Duration::from_secs(2);

impl AiRequest {
    /// The search a review gives each position of a game: level 5's 4,000 iterations
    /// (divided by the game's search cost), a tree of at most 200,000 nodes, at most 2 s.
    pub fn review(seed: u64) -> AiRequest {
        AiRequest {
            level: Level::new(REVIEW_LEVEL).unwrap_or(Level::MAX),
            limit: Some(REVIEW_TIME),
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
    /// The best moves, best first; none once the game is over.
    pub lines: Vec<LineView>,
}

impl AnalysisView {
    /// The chance of `player` in this position.
    pub fn chance_of(&self, player: Player) -> f64 {
        if player == self.to_move {
            self.win_rate
        } else {
            1.0 - self.win_rate
        }
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
            return AnalysisView {
                to_move,
                colour,
                nodes: 0,
                iterations: 0,
                win_rate: Proven::of(outcome, to_move).chance(),
                lines: Vec::new(),
            };
        }
        let (mut search, budget) = self.request.search(position);
        let analysis: Analysis<G::Move> = search.think(&budget);
        let lines: Vec<LineView> = analysis
            .lines
            .iter()
            .take(self.lines)
            .map(|line| LineView {
                mv: line.mv.to_string(),
                visits: line.visits,
                win_rate: line.win_rate.clamp(0.0, 1.0),
                pv: line.pv.iter().map(ToString::to_string).collect(),
                proven: line.proven.map(|outcome| Proven::of(outcome, to_move)),
            })
            .collect();
        let win_rate = match (analysis.proven, lines.first()) {
            (Some(outcome), _) => Proven::of(outcome, to_move).chance(),
            (None, Some(best)) => best.proven.map_or(best.win_rate, Proven::chance),
            (None, None) => 0.5,
        };
        AnalysisView {
            to_move,
            colour,
            nodes: analysis.nodes,
            iterations: analysis.iterations,
            win_rate,
            lines,
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

/// What one move of a game did to its mover's chance.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveReview {
    /// The mover's chance before the move: the best the position offered.
    pub win_before: f64,
    /// The mover's chance after it.
    pub win_after: f64,
    /// What the move threw away: `win_before - win_after`, never below 0.
    pub loss: f64,
    /// The move the search preferred, if it had one.
    pub best: Option<String>,
    /// How bad the move was, if bad at all.
    pub judgement: Option<Judgement>,
}

impl MoveReview {
    /// The review of `played`, from the analyses of the positions before and after it. The
    /// move the search itself preferred is judged by nothing: the two searches disagree by
    /// their noise only.
    pub fn of(before: &AnalysisView, played: &str, after: &AnalysisView) -> MoveReview {
        let win_before = before.win_rate;
        let win_after = after.chance_of(before.to_move);
        let loss = (win_before - win_after).max(0.0);
        let best = before.lines.first().map(|line| line.mv.clone());
        let judgement = if best.as_deref() == Some(played) {
            None
        } else {
            Judgement::of_loss(loss)
        };
        MoveReview {
            win_before,
            win_after,
            loss,
            best,
            judgement,
        }
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
            let mv = position.ai_move(request(1)).unwrap();
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
        // The search's own choice is never judged; a move that gains loses nothing.
        assert_eq!(MoveReview::of(&before, "c3", &after).judgement, None);
        let better = MoveReview::of(&before, "a1", &view(Player::Second, 0.0, "d4"));
        assert_eq!((better.loss, better.judgement), (0.0, None));
    }
}
