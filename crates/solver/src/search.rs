use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use swapboard_core::{Game, Outcome, Player};

use crate::table::{INFINITY, Numbers, Table};
use crate::{MoveResult, Options, Progress, Solution, Stop};

/// Xored into the key of a node where the player trying to win is to move, so that the two
/// propositions about one position ("the mover wins", "the other player wins") are kept
/// apart.
const MOVER_GOAL_KEY: u64 = 0x6a09_e667_f3bc_c909;

/// The moves left to the goal player in a search that does not count them (every search
/// but [`Solver::wins_within`]'s).
const UNBOUNDED: u32 = u32::MAX;

/// Multiplies a bounded search's moves left into a node's key: "the goal player wins with
/// at most n more moves" is a different proposition for each n, and for a node where the
/// player to move is in the middle of a turn (whose next decision is no new move).
const BOUND_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// Nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 1 << 10;
/// Children made between two looks at the clock, whatever the node count: on a big board a
/// node has hundreds of children, and 1,024 such nodes took seconds past the time limit.
const CLOCK_CHILDREN: u64 = 1 << 14;

/// A move from a node being searched, and what is known of the position it leads to (the
/// position itself is made again when the search descends: keeping one per child would
/// copy every child's position twice).
struct Child<G: Game> {
    mv: G::Move,
    /// The table key (0 for a finished game).
    key: u64,
    /// Whether the game is over there (its numbers are then exact and not in the table).
    finished: bool,
    /// The numbers as last seen: looked up when the child is made, then updated from its
    /// own searches (a transposition that changes them meanwhile is picked up on the
    /// child's next search).
    numbers: Numbers,
    /// The goal player's moves left there ([`UNBOUNDED`] unless the search counts them).
    left: u32,
    /// Whether its player to move starts a turn there (did not make the decision that led
    /// to it): only a turn's first decision is a move of its own.
    turn_start: bool,
}

/// A df-pn solver with its transposition table, reusable for several positions (the table
/// is kept: what one search proved, the next one finds).
pub struct Solver<G: Game> {
    options: Options,
    table: Table,
    /// The player whose win the current search tries to prove.
    goal: Player,
    nodes: u64,
    /// Children made since the clock was last read (see [`CLOCK_CHILDREN`]).
    children_since_clock: u64,
    started: Instant,
    stopped: Option<Stop>,
    /// Raised by another thread to stop the search (a GUI's `stop`).
    stop_flag: Option<Arc<AtomicBool>>,
    next_report: u64,
    /// The root's numbers as its search last combined them (the root's table entry is
    /// written only when its search returns).
    root: Numbers,
    /// The keys of the nodes on the current path (cycle detection).
    path: Vec<u64>,
    /// One child list per depth, reused so that the search does not allocate per node.
    pools: Vec<Vec<Child<G>>>,
}

/// `a + b`, kept below infinity unless one of them is infinite.
fn add(a: u32, b: u32) -> u32 {
    if a == INFINITY || b == INFINITY {
        INFINITY
    } else {
        a.saturating_add(b).min(INFINITY - 1)
    }
}

/// The threshold given to the best child: a little above the second best (the 1 + ε trick,
/// ε = 1/4), so that the search does not flip between two close children.
fn widened(second: u32) -> u32 {
    if second == INFINITY {
        INFINITY
    } else {
        second.saturating_add((second / 4).max(1)).min(INFINITY - 1)
    }
}

impl<G: Game> Solver<G> {
    /// A solver with the table and limits of `options`.
    pub fn new(options: Options) -> Solver<G> {
        Solver {
            table: Table::with_bytes(options.table_bytes),
            options,
            goal: Player::First,
            nodes: 0,
            children_since_clock: 0,
            started: Instant::now(),
            stopped: None,
            stop_flag: None,
            next_report: 0,
            root: Numbers::UNKNOWN,
            path: Vec::new(),
            pools: Vec::new(),
        }
    }

    /// The solver, stopped (with [`Stop::Requested`]) soon after `flag` is raised.
    pub fn with_stop(mut self, flag: Arc<AtomicBool>) -> Solver<G> {
        self.stop_flag = Some(flag);
        self
    }

    /// Forgets what earlier searches proved.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Proves the result of `position`, calling `progress` now and then.
    pub fn solve(
        &mut self,
        position: &G,
        progress: &mut dyn FnMut(&Progress),
    ) -> Solution<G::Move> {
        self.nodes = 0;
        self.started = Instant::now();
        self.stopped = None;
        self.next_report = self.options.progress_every;
        let mover = position.to_move();
        let mut solution = Solution {
            outcome: position.outcome(),
            stopped: None,
            player: mover,
            best_move: None,
            moves: Vec::new(),
            nodes: 0,
            elapsed: Default::default(),
        };
        if solution.outcome.is_none() {
            let first = self.prove(position, mover, UNBOUNDED, true, progress);
            let second = match first {
                Some(false) => self.prove(position, mover.other(), UNBOUNDED, true, progress),
                _ => None,
            };
            solution.outcome = match (first, second) {
                (Some(true), _) => Some(Outcome::Win(mover)),
                (Some(false), Some(true)) => Some(Outcome::Win(mover.other())),
                (Some(false), Some(false)) => Some(Outcome::Draw),
                _ => None,
            };
            solution.stopped = self.stopped;
            self.describe_moves(position, &mut solution);
        }
        solution.nodes = self.nodes;
        solution.elapsed = self.started.elapsed();
        solution
    }

    /// Whether `goal` wins `position` with at most `moves` moves of its own, forced passes
    /// not counted, or `None` if the search stopped within the limits first.
    ///
    /// A move is a turn: in a game searched decision by decision (the steps of a
    /// [`Stepwise`](swapboard_core::Stepwise) game) the decisions of one turn are one move, and `turn_started` says that the
    /// player to move in `position` has already made a decision of the turn it is in. A
    /// pass that is the only legal move is not counted: the rules made it, not the player.
    /// The shortest forced win is the least `moves` for which this is true: a puzzle's
    /// "wins in N moves" (`crates/play/src/puzzles.rs`).
    pub fn wins_within(
        &mut self,
        position: &G,
        goal: Player,
        moves: u32,
        turn_started: bool,
    ) -> Option<bool> {
        self.nodes = 0;
        self.started = Instant::now();
        self.stopped = None;
        self.next_report = self.options.progress_every;
        if let Some(outcome) = position.outcome() {
            return Some(outcome == Outcome::Win(goal));
        }
        // Below `UNBOUNDED`, which stands for "not counted".
        let moves = moves.min(UNBOUNDED - 1);
        self.prove(position, goal, moves, !turn_started, &mut |_| {})
    }

    /// Whether `goal` wins `position` with at most `left` moves of its own ([`UNBOUNDED`]:
    /// any number), `turn_start` saying whether the player to move starts its turn there;
    /// `None` if the search stopped first.
    fn prove(
        &mut self,
        position: &G,
        goal: Player,
        left: u32,
        turn_start: bool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Option<bool> {
        self.goal = goal;
        self.root = Numbers::UNKNOWN;
        self.path.clear();
        let root_key = self.key(position, left, turn_start);
        self.path.push(root_key);
        let numbers = self.mid(
            position,
            root_key,
            (left, turn_start),
            (INFINITY, INFINITY),
            0,
            progress,
        );
        if numbers.pn == 0 {
            Some(true)
        } else if numbers.dn == 0 {
            Some(false)
        } else {
            None
        }
    }

    /// The table key of an unfinished position for the current goal, with the goal
    /// player's moves `left` there and whether its player to move starts a turn (both part
    /// of the key only when the moves are counted).
    fn key(&self, position: &G, left: u32, turn_start: bool) -> u64 {
        let hash = if self.options.symmetries {
            position.canonical_hash()
        } else {
            position.zobrist()
        };
        let mut key = if position.to_move() == self.goal {
            hash ^ MOVER_GOAL_KEY
        } else {
            hash
        };
        if left != UNBOUNDED {
            let bound = 2 * u64::from(left) + u64::from(turn_start) + 1;
            key ^= bound.wrapping_mul(BOUND_KEY);
        }
        key.max(1)
    }

    /// The child reached by `mv` from `position`; `scratch` is left holding its position.
    fn child(&self, position: &G, mv: &G::Move, scratch: &mut G) -> Child<G> {
        let mut child = self.unlooked_child(position, mv, UNBOUNDED, scratch);
        if !child.finished {
            child.numbers = self.table.get(child.key).map_or(child.numbers, |(n, _)| n);
        }
        child
    }

    /// The child reached by `mv` from `position`, the goal player having `left` moves
    /// there, its numbers not yet looked up in the table (unknown unless the game is over
    /// there); `scratch` is left holding its position.
    fn unlooked_child(&self, position: &G, mv: &G::Move, left: u32, scratch: &mut G) -> Child<G> {
        scratch.clone_from(position);
        scratch.play_unchecked(mv);
        let fixed = scratch.outcome().map(|o| {
            if o == Outcome::Win(self.goal) {
                Numbers::PROVEN
            } else {
                Numbers::DISPROVEN
            }
        });
        let turn_start = scratch.to_move() != position.to_move();
        let key = if fixed.is_some() {
            0
        } else {
            self.key(scratch, left, turn_start)
        };
        Child {
            mv: mv.clone(),
            key,
            finished: fixed.is_some(),
            numbers: fixed.unwrap_or_else(|| self.estimate(scratch)),
            left,
            turn_start,
        }
    }

    /// The numbers a position nothing is known about starts from: 1 and 1, or with the
    /// game's [`Game::distances_to_win`], each side's distance in turns (a side to move is a
    /// turn nearer), so that the search first follows the lines where the goal player is
    /// near a win (small proof numbers) or the other player is (small disproof numbers).
    /// (Df-pn with initial numbers from knowledge, as in Nagai's df-pn+; measured in
    /// docs/PERFORMANCE.md.)
    fn estimate(&self, position: &G) -> Numbers {
        let distances = self
            .options
            .distances
            .then(|| position.distances_to_win())
            .flatten();
        let Some(distances) = distances else {
            return Numbers::UNKNOWN;
        };
        let to_move = position.to_move();
        let turns = |p: Player| (distances[p.index()] + u32::from(p != to_move)).max(1);
        Numbers {
            pn: turns(self.goal),
            dn: turns(self.goal.other()),
        }
    }

    /// Counts a node and looks at the limits; false once the search must stop.
    fn tick(&mut self, progress: &mut dyn FnMut(&Progress)) -> bool {
        self.nodes += 1;
        if self.options.max_nodes.is_some_and(|m| self.nodes >= m) {
            self.stopped.get_or_insert(Stop::NodeLimit);
        }
        if self.nodes.is_multiple_of(CLOCK_EVERY) || self.children_since_clock >= CLOCK_CHILDREN {
            self.children_since_clock = 0;
            if self
                .options
                .time
                .is_some_and(|t| self.started.elapsed() >= t)
            {
                self.stopped.get_or_insert(Stop::TimeLimit);
            }
        }
        if self.nodes.is_multiple_of(CLOCK_EVERY)
            && self
                .stop_flag
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            self.stopped.get_or_insert(Stop::Requested);
        }
        if self.nodes >= self.next_report {
            self.next_report = self.nodes + self.options.progress_every;
            let root = self.root;
            progress(&Progress {
                nodes: self.nodes,
                elapsed: self.started.elapsed(),
                goal: self.goal,
                proof: root.pn,
                disproof: root.dn,
                table_used: self.table.used(),
                table_capacity: self.table.capacity(),
            });
        }
        self.stopped.is_none()
    }

    /// The multiple-iterative-deepening step of df-pn: searches below `position` (table key
    /// `key`, the goal player's moves left there and whether its player to move starts a
    /// turn in `bound`) until its proof number reaches `th_pn` or its disproof number
    /// `th_dn` (`thresholds`), and returns its numbers (also stored in the table).
    fn mid(
        &mut self,
        position: &G,
        key: u64,
        bound: (u32, bool),
        thresholds: (u32, u32),
        depth: usize,
        progress: &mut dyn FnMut(&Progress),
    ) -> Numbers {
        let (mut left, turn_start) = bound;
        let (th_pn, th_dn) = thresholds;
        let nodes_before = self.nodes;
        if !self.tick(progress) {
            return Numbers::UNKNOWN;
        }
        // In a search that counts the goal player's moves, starting a turn costs one (a
        // forced pass excepted), and with none left the goal player has not won in time.
        if left != UNBOUNDED
            && turn_start
            && position.to_move() == self.goal
            && !only_pass(position)
        {
            if left == 0 {
                self.table.put(key, Numbers::DISPROVEN, 1);
                return Numbers::DISPROVEN;
            }
            left -= 1;
        }
        if self.pools.len() <= depth {
            self.pools.resize_with(depth + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.pools[depth]);
        children.clear();
        // At a node where the goal player moves, one proven child proves it (OR); elsewhere
        // every child must be proven (AND). A child that settles the node ends the listing.
        let or_node = position.to_move() == self.goal;
        let settles = |n: Numbers| if or_node { n.pn == 0 } else { n.dn == 0 };
        // The children are made first and looked up in the table after, in a loop of
        // independent loads: the lookups are cache misses, and this way the processor
        // overlaps them instead of waiting for each between two moves' work.
        let mut scratch = position.clone();
        let _ = position.for_each_move(|mv| {
            let child = self.unlooked_child(position, &mv, left, &mut scratch);
            let settled = child.finished && settles(child.numbers);
            children.push(child);
            if settled {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        self.children_since_clock += children.len() as u64;
        for child in children.iter_mut().filter(|c| !c.finished) {
            child.numbers = self.table.get(child.key).map_or(child.numbers, |(n, _)| n);
        }
        let mut numbers;
        loop {
            let (mut best, mut best_value, mut second) = (0, INFINITY, INFINITY);
            let (mut min, mut sum) = (INFINITY, 0u32);
            for (i, child) in children.iter().enumerate() {
                let n = child.numbers;
                // The number minimised at this node, and the one summed.
                let (least, summed) = if or_node { (n.pn, n.dn) } else { (n.dn, n.pn) };
                sum = add(sum, summed);
                min = min.min(least);
                if least < best_value {
                    (second, best_value, best) = (best_value, least, i);
                } else if least < second {
                    second = least;
                }
            }
            numbers = if or_node {
                Numbers { pn: min, dn: sum }
            } else {
                Numbers { pn: sum, dn: min }
            };
            if depth == 0 {
                self.root = numbers;
            }
            if numbers.pn >= th_pn || numbers.dn >= th_dn || self.stopped.is_some() {
                break;
            }
            let child_numbers = children[best].numbers;
            let (child_pn, child_dn) = if or_node {
                let dn = u64::from(th_dn) - u64::from(numbers.dn) + u64::from(child_numbers.dn);
                (
                    th_pn.min(widened(second)),
                    dn.min(u64::from(INFINITY)) as u32,
                )
            } else {
                let pn = u64::from(th_pn) - u64::from(numbers.pn) + u64::from(child_numbers.pn);
                (
                    pn.min(u64::from(INFINITY)) as u32,
                    th_dn.min(widened(second)),
                )
            };
            let child_key = children[best].key;
            if self.path.contains(&child_key) {
                self.stopped = Some(Stop::Repetition);
                break;
            }
            self.path.push(child_key);
            scratch.clone_from(position);
            scratch.play_unchecked(&children[best].mv);
            let bound = (children[best].left, children[best].turn_start);
            let searched = self.mid(
                &scratch,
                child_key,
                bound,
                (child_pn, child_dn),
                depth + 1,
                progress,
            );
            children[best].numbers = searched;
            self.path.pop();
        }
        self.pools[depth] = children;
        if self.stopped.is_none() || numbers.is_solved() {
            self.table.put(key, numbers, self.nodes - nodes_before);
        }
        numbers
    }

    /// What the table knows of `goal`'s win after `mv` from `position`, and the work spent
    /// on it; with `search`, searched again if the table has forgotten it (quick after the
    /// root's proof).
    fn settle(
        &mut self,
        position: &G,
        mv: &G::Move,
        goal: Player,
        search: bool,
    ) -> (Option<Numbers>, u32) {
        self.goal = goal;
        let mut next = position.clone();
        let child = self.child(position, mv, &mut next);
        if child.finished {
            return (Some(child.numbers), 0);
        }
        match self.table.get(child.key) {
            Some((n, work)) if n.is_solved() => (Some(n), work),
            _ if !search || self.stopped.is_some() => (None, 0),
            _ => {
                self.path.clear();
                self.path.push(child.key);
                let bound = (UNBOUNDED, child.turn_start);
                let n = self.mid(
                    &next,
                    child.key,
                    bound,
                    (INFINITY, INFINITY),
                    0,
                    &mut |_| {},
                );
                (n.is_solved().then_some(n), 0)
            }
        }
    }

    /// Fills in what is known of every move, and the best move.
    fn describe_moves(&mut self, position: &G, solution: &mut Solution<G::Move>) {
        let mover = solution.player;
        let moves = position.legal_moves();
        for mv in &moves {
            let result = match self.settle(position, mv, mover, false).0 {
                Some(n) if n.pn == 0 => MoveResult::Wins,
                Some(_) => MoveResult::DoesNotWin,
                None => MoveResult::Open,
            };
            solution.moves.push((mv.clone(), result));
        }
        solution.best_move = match solution.outcome {
            // A move the table still knows to win, else one searched again: the proof's own
            // move may have been replaced in the table, and searching another costs more.
            Some(Outcome::Win(p)) if p == mover => [false, true].into_iter().find_map(|search| {
                moves
                    .iter()
                    .find(|mv| {
                        self.settle(position, mv, mover, search)
                            .0
                            .is_some_and(|n| n.pn == 0)
                    })
                    .cloned()
            }),
            Some(Outcome::Win(_)) => moves
                .iter()
                .map(|mv| (self.settle(position, mv, mover.other(), false).1, mv))
                .max_by_key(|(work, _)| *work)
                .map(|(_, mv)| mv.clone()),
            // A drawing move: after it the opponent does not win either.
            Some(Outcome::Draw) => moves
                .iter()
                .find(|mv| {
                    self.settle(position, mv, mover.other(), true)
                        .0
                        .is_some_and(|n| n.dn == 0)
                })
                .cloned(),
            None => None,
        };
    }
}

/// Whether the only legal move of `position` is a pass: a move the rules make, which a
/// count of a player's moves leaves out.
fn only_pass<G: Game>(position: &G) -> bool {
    let (mut count, mut pass) = (0, false);
    let _ = position.for_each_move(|mv| {
        count += 1;
        pass = G::is_pass(&mv);
        if count > 1 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    count == 1 && pass
}
