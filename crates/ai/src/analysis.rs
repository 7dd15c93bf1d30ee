use std::time::Duration;

use swapboard_core::{Outcome, Player};

/// One candidate move of an analysis, with what the search thinks of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Line<M> {
    /// The move.
    pub mv: M,
    /// The iterations that went through it.
    pub visits: u64,
    /// The mover's mean score through it (1 win, 0.5 draw, 0 loss).
    pub win_rate: f64,
    /// The proven result after it, if the solver has one.
    pub proven: Option<Outcome>,
    /// The principal variation: the move, then the expected replies, in whole moves.
    pub pv: Vec<M>,
}

/// What a search found: its candidate moves, best first.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis<M> {
    /// The player to move at the root.
    pub player: Player,
    /// The iterations of the last search.
    pub iterations: u64,
    /// The iterations the tree holds, reused ones included.
    pub root_visits: u64,
    /// The nodes of the tree(s).
    pub nodes: usize,
    /// The wall-clock time of the last search.
    pub elapsed: Duration,
    /// The proven result of the position, if the solver has one.
    pub proven: Option<Outcome>,
    /// The candidate moves, best first: proven wins, then by visits, proven losses last.
    pub lines: Vec<Line<M>>,
}

impl<M> Analysis<M> {
    /// The best line, if the search has one.
    pub fn best(&self) -> Option<&Line<M>> {
        self.lines.first()
    }

    /// The iterations of the last search per second.
    pub fn iterations_per_second(&self) -> f64 {
        self.iterations as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Orders the lines best first, for `player` to move.
    pub(crate) fn sort(&mut self) {
        let player = self.player;
        let rank = |line: &Line<M>| match line.proven {
            Some(Outcome::Win(p)) if p == player => 2,
            Some(Outcome::Win(_)) => 0,
            _ => 1,
        };
        self.lines.sort_by(|a, b| {
            rank(b)
                .cmp(&rank(a))
                .then(b.visits.cmp(&a.visits))
                .then(b.win_rate.total_cmp(&a.win_rate))
        });
        // The search stops visiting a proven draw, so it may have fewer visits than a move
        // that looks worse than a draw: prefer the sure draw then.
        let draw = self
            .lines
            .iter()
            .position(|l| l.proven == Some(Outcome::Draw));
        if let (Some(d), Some(first)) = (draw, self.lines.first())
            && first.proven.is_none()
            && first.win_rate < 0.5
        {
            let line = self.lines.remove(d);
            self.lines.insert(0, line);
        }
    }
}
