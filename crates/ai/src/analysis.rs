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

/// The share of the best line's visits above which a runner-up leaves an analysis
/// unsettled ([`Analysis::is_unsettled`]): a best move searched less than twice as much as
/// the next has not been told apart from it.
pub const UNSETTLED_SHARE: f64 = 0.5;

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

    /// Whether the search has not yet told its best move from the others, so that a clock
    /// may give it more time: the position is not proven, the best line is no proven win,
    /// and the runner-up either has more than [`UNSETTLED_SHARE`] of the best line's visits
    /// or a higher win rate (the visits and the values disagree).
    pub fn is_unsettled(&self) -> bool {
        if self.proven.is_some() {
            return false;
        }
        let open: Vec<&Line<M>> = self.lines.iter().filter(|l| l.proven.is_none()).collect();
        match (self.lines.first(), open.as_slice()) {
            (Some(first), [best, second, ..]) if first.proven.is_none() => {
                second.visits as f64 > UNSETTLED_SHARE * best.visits as f64
                    || second.win_rate > best.win_rate
            }
            _ => false,
        }
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use swapboard_core::{Outcome, Player};

    use super::{Analysis, Line};
    use crate::Budget;

    fn line(mv: u8, visits: u64, win_rate: f64, proven: Option<Outcome>) -> Line<u8> {
        Line {
            mv,
            visits,
            win_rate,
            proven,
            pv: vec![mv],
        }
    }

    fn analysis(iterations: u64, lines: Vec<Line<u8>>) -> Analysis<u8> {
        Analysis {
            player: Player::First,
            iterations,
            root_visits: iterations,
            nodes: 0,
            elapsed: Duration::ZERO,
            proven: None,
            lines,
        }
    }

    #[test]
    fn a_best_move_not_told_apart_from_the_next_is_unsettled() {
        let clear = analysis(
            1_000,
            vec![line(1, 700, 0.6, None), line(2, 300, 0.5, None)],
        );
        assert!(!clear.is_unsettled());
        let close = analysis(
            1_000,
            vec![line(1, 550, 0.6, None), line(2, 450, 0.5, None)],
        );
        assert!(close.is_unsettled());
        let disagreeing = analysis(
            1_000,
            vec![line(1, 700, 0.5, None), line(2, 300, 0.6, None)],
        );
        assert!(
            disagreeing.is_unsettled(),
            "the runner-up has the better rate"
        );
        let won = Some(Outcome::Win(Player::First));
        let proven = analysis(1_000, vec![line(1, 10, 1.0, won), line(2, 500, 0.5, None)]);
        assert!(!proven.is_unsettled(), "a proven win is settled");
        let lost = Some(Outcome::Win(Player::Second));
        let one_open = analysis(
            1_000,
            vec![line(1, 900, 0.4, None), line(2, 950, 0.0, lost)],
        );
        assert!(!one_open.is_unsettled(), "proven losses are no rivals");
        let mut over = close.clone();
        over.proven = Some(Outcome::Draw);
        assert!(!over.is_unsettled());
        assert!(!analysis(0, vec![]).is_unsettled());
    }

    #[test]
    fn only_a_search_cut_short_by_its_time_and_unsettled_is_extended() {
        let close = analysis(
            1_000,
            vec![line(1, 550, 0.6, None), line(2, 450, 0.5, None)],
        );
        let clear = analysis(
            1_000,
            vec![line(1, 900, 0.6, None), line(2, 100, 0.5, None)],
        );
        let extra = Duration::from_millis(300);
        let cut = Budget {
            iterations: Some(4_000),
            time: Some(Duration::from_millis(100)),
            stop: None,
        };
        let more = cut.extension(&close, extra).expect("extended");
        assert_eq!(
            more.iterations,
            Some(3_000),
            "the level's iterations are kept"
        );
        assert_eq!(more.time, Some(extra));
        assert!(cut.extension(&clear, extra).is_none(), "settled");
        assert!(
            cut.extension(&close, Duration::ZERO).is_none(),
            "no time to give"
        );
        let done = analysis(4_000, close.lines.clone());
        assert!(
            cut.extension(&done, extra).is_none(),
            "its iterations all ran"
        );
        let untimed = Budget::iterations(4_000);
        assert!(
            untimed.extension(&close, extra).is_none(),
            "no clock cut it"
        );
        let timed = Budget::time(Duration::from_millis(100));
        assert_eq!(timed.extension(&close, extra).unwrap().iterations, None);
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let stopped = timed.clone().with_stop(flag);
        assert!(
            stopped.extension(&close, extra).is_none(),
            "stopped by its caller"
        );
    }
}
