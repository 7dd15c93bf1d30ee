use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use swapboard_core::{Game, IllegalMove, Outcome, Stepwise};

use crate::tree::{Step, Tree, turn_over};
use crate::{Analysis, Budget, Config, Line};

/// Iterations run between two looks at the clock, the stop flag and the budget.
const CHUNK: u64 = 64;
/// The most decisions one turn may take (a guard against a step game that never completes
/// a turn).
const MAX_TURN_STEPS: usize = 1024;
/// The most whole moves of a principal variation.
const MAX_PV_MOVES: usize = 16;

/// A Monte Carlo tree search from one position of a game `G`, searching `G::Steps`.
///
/// Drive it like an engine: [`Mcts::think`] (or [`Mcts::think_with`] to receive analysis
/// snapshots while it thinks), play the move with [`Mcts::advance`] (keeping the subtree
/// below it), and [`Mcts::set_position`] for an unrelated position.
pub struct Mcts<G: Stepwise> {
    config: Config,
    position: G,
    trees: Vec<Mutex<Tree<G>>>,
    iterations: u64,
    elapsed: Duration,
    /// The analysis of the last search, until the tree changes: building one walks the
    /// root player's turn, which is long on a step game.
    last: Option<Analysis<G::Move>>,
}

/// What the threads of one search share.
struct Shared<'a> {
    config: &'a Config,
    budget: &'a Budget,
    started: Instant,
    limit: u64,
    claimed: AtomicU64,
    done: AtomicU64,
    finished: AtomicBool,
    /// Set while the reporting thread takes a snapshot of the trees: workers wait between
    /// chunks, because std's mutex is not fair and a worker relocking its tree at once
    /// starved the reporter (and so `stop`) for seconds.
    reporting: AtomicBool,
}

impl Shared<'_> {
    /// Runs one chunk of iterations on `tree`; false when the search is over.
    fn chunk<G: Stepwise>(&self, tree: &mut Tree<G>) -> bool {
        if self.finished.load(Ordering::Relaxed)
            || self.budget.stopped()
            || self
                .budget
                .time
                .is_some_and(|t| self.started.elapsed() >= t)
        {
            return false;
        }
        let start = self.claimed.fetch_add(CHUNK, Ordering::Relaxed);
        if start >= self.limit {
            return false;
        }
        let n = CHUNK.min(self.limit - start);
        for i in 0..n {
            if tree.root_proof().is_some() {
                self.done.fetch_add(i, Ordering::Relaxed);
                self.finished.store(true, Ordering::Relaxed);
                return false;
            }
            tree.iterate(self.config);
        }
        self.done.fetch_add(n, Ordering::Relaxed);
        true
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<G: Stepwise> Mcts<G> {
    /// A search from `position`.
    pub fn new(position: G, config: Config) -> Mcts<G> {
        let threads = config.threads.max(1);
        let trees = (0..threads)
            .map(|i| {
                let seed = config.seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                Mutex::new(Tree::new(&position, seed))
            })
            .collect();
        Mcts {
            config,
            position,
            trees,
            iterations: 0,
            elapsed: Duration::ZERO,
            last: None,
        }
    }

    /// The position searched.
    pub fn position(&self) -> &G {
        &self.position
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Searches a new position; the tree is kept only if the position is the same.
    pub fn set_position(&mut self, position: G) {
        if position != self.position {
            self.last = None;
            for tree in &mut self.trees {
                tree.get_mut()
                    .unwrap_or_else(PoisonError::into_inner)
                    .reset(&position);
            }
            self.position = position;
        }
    }

    /// Plays `mv` (checked) and keeps the part of the tree below it.
    pub fn advance(&mut self, mv: &G::Move) -> Result<(), IllegalMove> {
        self.position.check_move(mv)?;
        let mut next = self.position.clone();
        next.play_unchecked(mv);
        let next_steps = next.to_steps();
        self.last = None;
        for tree in &mut self.trees {
            let tree = tree.get_mut().unwrap_or_else(PoisonError::into_inner);
            match find_turn(&self.position, tree, mv) {
                Some((node, state)) if state == next_steps => tree.reroot(node, state, &next),
                _ => tree.reset(&next),
            }
        }
        self.position = next;
        Ok(())
    }

    /// Searches within `budget` and returns the analysis.
    pub fn think(&mut self, budget: &Budget) -> Analysis<G::Move> {
        self.think_with(budget, Duration::MAX, |_| {})
    }

    /// Searches within `budget`; then, if its time ran out before its iterations (a clock's
    /// share cut it short) and the best move is still unsettled
    /// ([`Analysis::is_unsettled`]), goes on for up to `extra` more, within the iterations
    /// left. Time management from a clock: a critical position gets more of it.
    pub fn think_extended(&mut self, budget: &Budget, extra: Duration) -> Analysis<G::Move> {
        let first = self.think(budget);
        match budget.extension(&first, extra) {
            Some(more) => self.think(&more),
            None => first,
        }
    }

    /// Searches within `budget`, calling `report` with an analysis snapshot about every
    /// `interval`, and returns the final analysis.
    pub fn think_with(
        &mut self,
        budget: &Budget,
        interval: Duration,
        mut report: impl FnMut(&Analysis<G::Move>),
    ) -> Analysis<G::Move> {
        let shared = Shared {
            config: &self.config,
            budget,
            started: Instant::now(),
            limit: budget.iteration_limit(),
            claimed: AtomicU64::new(0),
            done: AtomicU64::new(0),
            finished: AtomicBool::new(self.position.is_over()),
            reporting: AtomicBool::new(false),
        };
        let mut last_report = shared.started;
        if let [tree] = self.trees.as_slice() {
            loop {
                let more = shared.chunk(&mut lock(tree));
                if !more {
                    break;
                }
                if last_report.elapsed() >= interval {
                    last_report = Instant::now();
                    report(&self.snapshot(shared.done.load(Ordering::Relaxed), shared.started));
                }
            }
        } else {
            thread::scope(|scope| {
                let shared = &shared;
                let workers: Vec<_> = self
                    .trees
                    .iter()
                    .map(|tree| {
                        scope.spawn(move || {
                            while shared.chunk(&mut lock(tree)) {
                                while shared.reporting.load(Ordering::Acquire) {
                                    thread::yield_now();
                                }
                            }
                        })
                    })
                    .collect();
                while !workers.iter().all(|w| w.is_finished()) {
                    thread::sleep(Duration::from_millis(2));
                    if last_report.elapsed() >= interval {
                        last_report = Instant::now();
                        shared.reporting.store(true, Ordering::Release);
                        let snapshot =
                            self.snapshot(shared.done.load(Ordering::Relaxed), shared.started);
                        shared.reporting.store(false, Ordering::Release);
                        report(&snapshot);
                    }
                }
            });
        }
        self.iterations = shared.done.load(Ordering::Relaxed);
        self.elapsed = shared.started.elapsed();
        self.last = None;
        let analysis = self.analysis();
        self.last = Some(analysis.clone());
        analysis
    }

    /// The analysis of the last search.
    pub fn analysis(&self) -> Analysis<G::Move> {
        if let Some(last) = &self.last {
            return last.clone();
        }
        let mut analysis = self.snapshot(self.iterations, Instant::now());
        analysis.elapsed = self.elapsed;
        analysis
    }

    /// The move to play: the best line's, or, when the search has none (no iteration, or a
    /// tree too shallow to hold a whole turn), one completed by the playout policy.
    ///
    /// A game searched as decisions (Scware) chooses its turn decision by decision, each the
    /// most visited (a proven win first) below the last: ranking its whole turns instead
    /// would favour turns of one decision (a placement), whose visits are not split among
    /// the many turns that share a first decision. The turn is completed by the playout
    /// policy where the tree ends before it does.
    pub fn best_move(&mut self) -> Option<G::Move> {
        if self.position.is_over() {
            return None;
        }
        let mut steps = self.position.to_steps();
        let mut path = Vec::new();
        let trees: Vec<&mut Tree<G>> = self
            .trees
            .iter_mut()
            .map(|t| t.get_mut().unwrap_or_else(PoisonError::into_inner))
            .collect();
        if trees[0].searches_steps() {
            // Where each tree stands on the path chosen so far; with root parallelism the
            // trees' visits are summed decision by decision.
            let mut cursors: Vec<(usize, usize)> = (0..trees.len()).map(|t| (t, 0)).collect();
            while path.len() < MAX_TURN_STEPS {
                let mover = steps.to_move();
                let mut options: Vec<(Step<G>, bool, u64)> = Vec::new();
                for &(t, node) in &cursors {
                    for c in trees[t].nodes[node].children() {
                        let n = &trees[t].nodes[c];
                        let Some(step) = n.mv.as_ref().filter(|_| n.visits > 0) else {
                            continue;
                        };
                        let won = n.proof == Some(Outcome::Win(mover));
                        match options.iter_mut().find(|o| &o.0 == step) {
                            Some(option) => {
                                option.1 |= won;
                                option.2 += u64::from(n.visits);
                            }
                            None => options.push((step.clone(), won, u64::from(n.visits))),
                        }
                    }
                }
                let Some((step, ..)) = options.into_iter().max_by_key(|o| (o.1, o.2)) else {
                    break;
                };
                cursors.retain_mut(|(t, node)| {
                    let tree = &trees[*t];
                    let next = tree.nodes[*node]
                        .children()
                        .find(|&c| tree.nodes[c].mv.as_ref() == Some(&step));
                    next.map(|c| *node = c).is_some()
                });
                steps.play_unchecked(&step);
                path.push(step);
                if turn_over(&steps, mover) {
                    return self.position.move_from_steps(&path);
                }
            }
        } else {
            let best = match &self.last {
                Some(last) => last.best().map(|line| line.mv.clone()),
                None => self.analysis().lines.into_iter().next().map(|line| line.mv),
            };
            if let Some(mv) = best {
                return Some(mv);
            }
        }
        let tree = self.trees[0]
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        while path.len() < MAX_TURN_STEPS {
            let Some(step) = steps.playout_move(tree.rng()) else {
                break;
            };
            steps.play_unchecked(&step);
            path.push(step);
            if let Some(mv) = self.position.move_from_steps(&path) {
                return Some(mv);
            }
        }
        self.position.random_move(tree.rng())
    }

    /// The analysis of the trees as they stand.
    fn snapshot(&self, iterations: u64, started: Instant) -> Analysis<G::Move> {
        let trees: Vec<_> = self.trees.iter().map(lock).collect();
        let mut lines: Vec<(Line<G::Move>, f64, usize, usize)> = Vec::new();
        let mut ends = Vec::new();
        // A step game may have many thousand turn ends: merge them by move in a map.
        let mut line_of: HashMap<G::Move, usize> = HashMap::new();
        for (t, tree) in trees.iter().enumerate() {
            ends.clear();
            turn_ends(&self.position, tree, &mut ends);
            for (mv, node) in ends.drain(..) {
                let n = &tree.nodes[node];
                let index = *line_of.entry(mv.clone()).or_insert_with(|| {
                    let line = Line {
                        mv,
                        visits: 0,
                        win_rate: 0.0,
                        proven: None,
                        pv: Vec::new(),
                    };
                    lines.push((line, 0.0, t, node));
                    lines.len() - 1
                });
                let entry = &mut lines[index];
                let (line, score, best_tree, best_node) = entry;
                if u64::from(n.visits) > u64::from(trees[*best_tree].nodes[*best_node].visits) {
                    (*best_tree, *best_node) = (t, node);
                }
                line.visits += u64::from(n.visits);
                *score += f64::from(n.score);
                line.proven = line.proven.or(n.proof);
            }
        }
        let mut analysis = Analysis {
            player: self.position.to_move(),
            iterations,
            root_visits: trees.iter().map(|t| u64::from(t.nodes[0].visits)).sum(),
            nodes: trees.iter().map(|t| t.nodes.len()).sum(),
            elapsed: started.elapsed(),
            proven: trees.iter().find_map(|t| t.root_proof()),
            lines: lines
                .into_iter()
                .map(|(mut line, score, t, node)| {
                    line.win_rate = if line.visits > 0 {
                        score / line.visits as f64
                    } else {
                        0.0
                    };
                    line.pv = principal_variation(&self.position, &line.mv, &trees[t], node);
                    line
                })
                .collect(),
        };
        analysis.sort();
        analysis
    }
}

/// Every node of the tree that completes the root player's turn (visited at least once),
/// with its move. The walk follows the nodes' `ends_turn` marks, so only a node that ends
/// the turn has its move made from its decisions.
fn turn_ends<G: Stepwise>(position: &G, tree: &Tree<G>, out: &mut Vec<(G::Move, usize)>) {
    let mut stack = vec![0usize];
    let mut path = Vec::new();
    while let Some(node) = stack.pop() {
        for c in tree.nodes[node].children() {
            let child = &tree.nodes[c];
            if child.visits == 0 {
                continue;
            }
            if !child.ends_turn {
                stack.push(c);
                continue;
            }
            if let Some(mv) = tree.turn_move(c) {
                out.push((mv.clone(), c));
                continue;
            }
            turn_path(tree, c, &mut path);
            if let Some(mv) = position.move_from_steps_unchecked(&path) {
                out.push((mv, c));
            }
        }
    }
}

/// The decisions from the root down to `node`, into `path`.
fn turn_path<G: Stepwise>(tree: &Tree<G>, mut node: usize, path: &mut Vec<Step<G>>) {
    path.clear();
    while node != 0 && path.len() < MAX_TURN_STEPS {
        let n = &tree.nodes[node];
        if let Some(step) = &n.mv {
            path.push(step.clone());
        }
        node = n.parent as usize;
    }
    path.reverse();
}

/// The node completing the root player's turn with `mv`, and its step position.
fn find_turn<G: Stepwise>(position: &G, tree: &Tree<G>, mv: &G::Move) -> Option<(usize, G::Steps)> {
    let mut ends = Vec::new();
    turn_ends(position, tree, &mut ends);
    let node = ends.into_iter().find(|(found, _)| found == mv)?.1;
    let mut path = Vec::new();
    turn_path(tree, node, &mut path);
    let mut state = tree.root.clone();
    for step in &path {
        state.play_unchecked(step);
    }
    Some((node, state))
}

/// The whole moves expected after `mv`, `mv` first, following the most visited children
/// from `node` (the end of `mv`'s turn).
fn principal_variation<G: Stepwise>(
    position: &G,
    mv: &G::Move,
    tree: &Tree<G>,
    mut node: usize,
) -> Vec<G::Move> {
    let mut pv = vec![mv.clone()];
    let mut current = position.clone();
    current.play_unchecked(mv);
    let mut path = Vec::new();
    while pv.len() < MAX_PV_MOVES && path.len() < MAX_TURN_STEPS {
        let Some(next) = tree.nodes[node]
            .children()
            .filter(|&c| tree.nodes[c].visits > 0)
            .max_by_key(|&c| tree.nodes[c].visits)
        else {
            break;
        };
        node = next;
        let Some(step) = &tree.nodes[node].mv else {
            break;
        };
        path.push(step.clone());
        if !tree.nodes[node].ends_turn {
            continue;
        }
        let Some(whole) = tree
            .turn_move(node)
            .cloned()
            .or_else(|| current.move_from_steps_unchecked(&path))
        else {
            break;
        };
        current.play_unchecked(&whole);
        pv.push(whole);
        path.clear();
    }
    pv
}
