use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use swapboard_core::{Game, IllegalMove, Outcome, Stepwise};

use crate::tree::{Step, Tree, Walker, turn_over};
use crate::{Analysis, Budget, Config, Line};

/// Iterations run between two looks at the clock, the stop flag and the budget.
const CHUNK: u64 = 64;
/// The iterations a thread sharing the tree descends at once (each on a walker of its own)
/// before it plays them out: one hold of the tree for several descents.
const BATCH: usize = 16;
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
    /// The one tree every thread of a search grows.
    tree: Mutex<Tree<G>>,
    /// One walker per thread, each seeded apart.
    walkers: Vec<Walker<G>>,
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
    /// Set while the reporting thread takes a snapshot of the tree: workers wait between
    /// chunks, because std's mutex is not fair and the workers relocking the tree at once
    /// starved the reporter (and so `stop`) for seconds.
    reporting: AtomicBool,
}

impl Shared<'_> {
    /// Claims the next chunk of iterations for a thread: how many to run, none when the
    /// search is over.
    fn claim(&self) -> Option<u64> {
        if self.finished.load(Ordering::Relaxed)
            || self.budget.stopped()
            || self
                .budget
                .time
                .is_some_and(|t| self.started.elapsed() >= t)
        {
            return None;
        }
        let start = self.claimed.fetch_add(CHUNK, Ordering::Relaxed);
        (start < self.limit).then(|| CHUNK.min(self.limit - start))
    }

    /// Counts `n` iterations run, and ends the search if `tree`'s root is proven.
    fn ran(&self, n: u64, tree: &Tree<impl Stepwise>) {
        self.done.fetch_add(n, Ordering::Relaxed);
        if tree.root_proof().is_some() {
            self.finished.store(true, Ordering::Relaxed);
        }
    }

    /// Runs one chunk of iterations on `tree` by the search's only thread; false when the
    /// search is over.
    fn chunk_alone<G: Stepwise>(&self, tree: &mut Tree<G>, walker: &mut Walker<G>) -> bool {
        let Some(n) = self.claim() else {
            return false;
        };
        let mut i = 0;
        while i < n && tree.root_proof().is_none() {
            tree.iterate(walker, self.config);
            i += 1;
        }
        self.ran(i, tree);
        true
    }

    /// Runs one chunk of iterations on the tree shared by several threads, [`BATCH`] at a
    /// time, one per walker: the tree is held to descend them all and to back them all up,
    /// and let go while the walkers play out, which is where an iteration spends most of
    /// its time. False when the search is over.
    fn chunk_shared<G: Stepwise>(&self, tree: &Mutex<Tree<G>>, walkers: &mut [Walker<G>]) -> bool {
        let Some(n) = self.claim() else {
            return false;
        };
        let mut i = 0;
        while i < n {
            let mut batch = 0;
            {
                let mut tree = lock_spinning(tree);
                for walker in walkers.iter_mut().take((n - i) as usize) {
                    if tree.root_proof().is_some() {
                        break;
                    }
                    walker.leaf = Some(tree.descend(walker, self.config));
                    batch += 1;
                }
            }
            if batch == 0 {
                break;
            }
            for walker in &mut walkers[..batch] {
                walker.play_out(self.config);
            }
            let mut tree = lock_spinning(tree);
            for walker in &walkers[..batch] {
                tree.back_up(walker, walker.value, self.config);
            }
            i += batch as u64;
        }
        self.ran(i, &lock(tree));
        true
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The tries a thread sharing the tree makes before it sleeps on the lock.
const SPINS: u32 = 20_000;

/// Locks the shared tree, spinning first: another thread holds it for a few microseconds
/// (one descent or back-up), far less than a sleep and a wake-up through the kernel cost.
fn lock_spinning<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    for _ in 0..SPINS {
        match m.try_lock() {
            Ok(guard) => return guard,
            Err(std::sync::TryLockError::Poisoned(poisoned)) => return poisoned.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => std::hint::spin_loop(),
        }
    }
    lock(m)
}

impl<G: Stepwise> Mcts<G> {
    /// A search from `position`.
    pub fn new(position: G, config: Config) -> Mcts<G> {
        let threads = config.threads.max(1);
        let walkers = (0..if threads > 1 { threads * BATCH } else { 1 })
            .map(|i| Walker::new(config.seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)))
            .collect();
        Mcts {
            tree: Mutex::new(Tree::new(&position)),
            walkers,
            config,
            position,
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
            self.tree
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner)
                .reset(&position);
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
        let position = &self.position;
        let tree = self.tree.get_mut().unwrap_or_else(PoisonError::into_inner);
        match find_turn(position, tree, mv) {
            Some((node, state)) if state == next_steps => tree.reroot(node, state, &next),
            _ => tree.reset(&next),
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
        if let [walker] = self.walkers.as_mut_slice() {
            loop {
                let more = shared.chunk_alone(&mut lock(&self.tree), walker);
                if !more {
                    break;
                }
                if last_report.elapsed() >= interval {
                    last_report = Instant::now();
                    report(&snapshot_of(
                        &self.position,
                        &lock(&self.tree),
                        shared.done.load(Ordering::Relaxed),
                        shared.started,
                    ));
                }
            }
        } else {
            thread::scope(|scope| {
                let shared = &shared;
                let tree = &self.tree;
                let workers: Vec<_> = self
                    .walkers
                    .chunks_mut(BATCH)
                    .map(|walkers| {
                        scope.spawn(move || {
                            while shared.chunk_shared(tree, walkers) {
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
                        let snapshot = snapshot_of(
                            &self.position,
                            &lock(tree),
                            shared.done.load(Ordering::Relaxed),
                            shared.started,
                        );
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
        let mut analysis = snapshot_of(
            &self.position,
            &lock(&self.tree),
            self.iterations,
            Instant::now(),
        );
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
        let tree = self.tree.get_mut().unwrap_or_else(PoisonError::into_inner);
        if tree.searches_steps() {
            let mut node = 0;
            while path.len() < MAX_TURN_STEPS {
                let mover = steps.to_move();
                let Some(next) = tree.nodes[node]
                    .children()
                    .filter(|&c| tree.nodes[c].visits > 0)
                    .max_by_key(|&c| {
                        let n = &tree.nodes[c];
                        (n.proof == Some(Outcome::Win(mover)), n.visits)
                    })
                else {
                    break;
                };
                let Some(step) = tree.nodes[next].mv.clone() else {
                    break;
                };
                node = next;
                steps.play_unchecked(&step);
                path.push(step);
                if turn_over(&steps, mover) {
                    return self.position.move_from_steps(&path);
                }
            }
        } else {
            let best = match &self.last {
                Some(last) => last.best().map(|line| line.mv.clone()),
                None => snapshot_of(&self.position, tree, self.iterations, Instant::now())
                    .lines
                    .into_iter()
                    .next()
                    .map(|line| line.mv),
            };
            if let Some(mv) = best {
                return Some(mv);
            }
        }
        let rng = self.walkers[0].rng();
        while path.len() < MAX_TURN_STEPS {
            let Some(step) = steps.playout_move(rng) else {
                break;
            };
            steps.play_unchecked(&step);
            path.push(step);
            if let Some(mv) = self.position.move_from_steps(&path) {
                return Some(mv);
            }
        }
        self.position.random_move(rng)
    }
}

/// The analysis of `tree`, searched from `position`, as it stands.
fn snapshot_of<G: Stepwise>(
    position: &G,
    tree: &Tree<G>,
    iterations: u64,
    started: Instant,
) -> Analysis<G::Move> {
    let mut ends = Vec::new();
    turn_ends(position, tree, &mut ends);
    let root = &tree.nodes[0];
    let mut analysis = Analysis {
        player: position.to_move(),
        iterations,
        root_visits: u64::from(root.visits),
        nodes: tree.nodes.len(),
        elapsed: started.elapsed(),
        proven: tree.root_proof(),
        lines: ends
            .into_iter()
            .map(|(mv, node)| {
                let n = &tree.nodes[node];
                Line {
                    pv: principal_variation(position, &mv, tree, node),
                    mv,
                    visits: u64::from(n.visits),
                    win_rate: f64::from(n.score) / f64::from(n.visits.max(1)),
                    proven: n.proof,
                }
            })
            .collect(),
    };
    analysis.sort();
    analysis
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
