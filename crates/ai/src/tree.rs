//! One search tree and the iteration that grows it: select, expand, play out, back up.

use std::any::TypeId;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_core::{Game, Outcome, Player, Stepwise, play_out_best_of};

use crate::Config;

/// The parent of the root.
const NO_PARENT: u32 = u32::MAX;

/// A node of the tree: the position reached by a move, with the statistics of that move.
///
/// Every statistic is for [`Node::mover`], the player who made the move, so that turns need
/// not alternate.
#[derive(Debug, Clone)]
pub(crate) struct Node<M> {
    /// The move into this node (`None` at the root).
    pub(crate) mv: Option<M>,
    /// The move's key in the all-moves-as-first table.
    pub(crate) key: u64,
    /// The parent's index.
    pub(crate) parent: u32,
    /// The first child's index; children are consecutive.
    pub(crate) first_child: u32,
    /// The number of children (0 until expanded).
    pub(crate) child_count: u32,
    /// Whether the children have been added.
    pub(crate) expanded: bool,
    /// The player who made the move into this node.
    pub(crate) mover: Player,
    /// A proven result of this position, if any (a finished game, or the solver's proof).
    pub(crate) proof: Option<Outcome>,
    /// Iterations through this node.
    pub(crate) visits: u32,
    /// The sum of the mover's scores (1 win, 0.5 draw, 0 loss) over those iterations.
    pub(crate) score: f32,
    /// Iterations in which the mover played this move later on, from the parent (AMAF).
    pub(crate) amaf_visits: u32,
    /// The sum of the mover's scores over those iterations.
    pub(crate) amaf_score: f32,
    /// The game's prior for the move (0 without one).
    pub(crate) prior: f32,
    /// Whether the move completes its mover's turn (known once the node has been visited;
    /// always true when the steps are the game's moves).
    pub(crate) ends_turn: bool,
}

impl<M> Node<M> {
    fn root() -> Node<M> {
        Node {
            mv: None,
            key: 0,
            parent: NO_PARENT,
            first_child: 0,
            child_count: 0,
            expanded: false,
            mover: Player::Second,
            proof: None,
            visits: 0,
            score: 0.0,
            amaf_visits: 0,
            amaf_score: 0.0,
            prior: 0.0,
            ends_turn: false,
        }
    }

    /// The children's index range.
    pub(crate) fn children(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + self.child_count as usize
    }

    /// The mover's mean score, or `None` before any visit.
    pub(crate) fn mean(&self) -> Option<f32> {
        (self.visits > 0).then(|| self.score / self.visits as f32)
    }
}

/// A cheap hasher for move keys (a multiply-rotate mix; moves are a few small integers).
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }

    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

/// The key under which a move's all-moves-as-first statistics are kept.
pub(crate) fn move_key<M: Hash>(mv: &M) -> u64 {
    let mut h = KeyHasher(0x9e37_79b9_7f4a_7c15);
    mv.hash(&mut h);
    // Spread the high bits into the low ones: the table is indexed by the low bits.
    h.0 ^ (h.0 >> 29)
}

/// The all-moves-as-first key of `mv`: its cell's when the game pools moves by cell and
/// `by_cells` asks for it (a decision fills at most one cell), the move's own otherwise.
fn amaf_key<S: Game>(mv: &S::Move, by_cells: bool) -> u64 {
    let mut key = None;
    if by_cells {
        S::amaf_cells(mv, |cell| key = Some(cell_key(cell.col(), cell.row())));
    }
    key.unwrap_or_else(|| move_key(mv))
}

/// The key of a cell in the all-moves-as-first table, apart from every move's key (which
/// hashes the move's own fields, never through this tag).
fn cell_key(col: u8, row: u8) -> u64 {
    move_key(&(0x5ce1_u16, col, row))
}

/// Plays `position` out for at most `cap` moves as `config` asks: the game's own playout,
/// or the best of several drawn moves a ply.
fn play_out<S: Game>(
    position: &mut S,
    rng: &mut Xoshiro256PlusPlus,
    config: &Config,
    cap: u32,
    record: impl FnMut(&S::Move, Player),
) {
    if config.playout_draws > 1 {
        play_out_best_of(position, rng, cap, config.playout_draws, record);
    } else {
        position.play_out(rng, cap, record);
    }
}

/// The moves each player made from some ply on, during one iteration, as a table stamped
/// with the iteration number so that it never needs clearing.
struct AmafTable {
    slots: Vec<(u32, u64)>,
    stamp: u32,
}

impl AmafTable {
    const BITS: u32 = 12;
    const MASK: u64 = (1 << Self::BITS) - 1;

    fn new() -> AmafTable {
        AmafTable {
            slots: vec![(0, 0); 2 << Self::BITS],
            stamp: 0,
        }
    }

    fn next_iteration(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill((0, 0));
            self.stamp = 1;
        }
    }

    fn slot(key: u64, player: Player) -> usize {
        (player.index() << Self::BITS) | (key & Self::MASK) as usize
    }

    fn mark(&mut self, key: u64, player: Player) {
        self.slots[Self::slot(key, player)] = (self.stamp, key);
    }

    fn contains(&self, key: u64, player: Player) -> bool {
        self.slots[Self::slot(key, player)] == (self.stamp, key)
    }
}

/// A decision of the step view of `G`.
pub(crate) type Step<G> = <<G as Stepwise>::Steps as Game>::Move;

/// A search tree over the step positions of `G`, with the buffers its descents and back-ups
/// reuse. Every thread of a search shares one tree (tree parallelism): a thread holds it to
/// descend and to back up, not while it plays out, and its [`Walker`] carries the iteration
/// between the two.
pub(crate) struct Tree<G: Stepwise> {
    /// The root position.
    pub(crate) root: G::Steps,
    /// The root position as a whole game, kept for games whose steps are not their moves:
    /// playouts run in whole moves from the first turn boundary, which is much faster than
    /// walking decisions when turns are compound.
    root_whole: Option<G>,
    /// The whole move of every visited node that completes a turn (step games only), so
    /// that it is made from the decisions once, not at every visit.
    turn_moves: HashMap<u32, G::Move>,
    /// The nodes; index 0 is the root.
    pub(crate) nodes: Vec<Node<Step<G>>>,
    moves: Vec<Step<G>>,
    /// The priors of `moves` when the search weighs them (empty otherwise).
    priors: Vec<Option<f32>>,
    amaf: AmafTable,
    spare: Vec<Node<Step<G>>>,
    old_index: Vec<u32>,
}

/// One searching thread's part of an iteration: its random generator, and the path and
/// moves of the iteration it is running, from the descent through the playout to the
/// back-up.
pub(crate) struct Walker<G: Stepwise> {
    rng: Xoshiro256PlusPlus,
    /// The decisions of the turn in progress (step games only).
    turn: Vec<Step<G>>,
    path: Vec<u32>,
    /// The (key, player) of every move of the iteration, from the root.
    played: Vec<(u64, Player)>,
    /// The leaf descended to, until it is played out.
    pub(crate) leaf: Option<Leaf<G>>,
    /// The first player's score of the last leaf played out.
    pub(crate) value: f32,
}

/// Where a descent stopped: at a settled result, or at a position to play out.
pub(crate) enum Leaf<G: Stepwise> {
    /// The first player's score of a finished game or a proven position.
    Settled(f32),
    /// A leaf to play out from: its step position, and its whole position for a step game.
    Open(G::Steps, Option<G>),
}

impl<G: Stepwise> Walker<G> {
    /// A walker drawing its random choices from `seed`.
    pub(crate) fn new(seed: u64) -> Walker<G> {
        Walker {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            turn: Vec::new(),
            path: Vec::new(),
            played: Vec::new(),
            leaf: None,
            value: 0.5,
        }
    }

    /// Plays out the pending leaf into [`Walker::value`].
    pub(crate) fn play_out(&mut self, config: &Config) {
        if let Some(leaf) = self.leaf.take() {
            self.value = self.score(leaf, config);
        }
    }

    /// The random generator, for choices made outside iterations.
    pub(crate) fn rng(&mut self) -> &mut Xoshiro256PlusPlus {
        &mut self.rng
    }

    /// The first player's score of a leaf: settled, or played out (which needs no tree).
    pub(crate) fn score(&mut self, leaf: Leaf<G>, config: &Config) -> f32 {
        match leaf {
            Leaf::Settled(value) => value,
            Leaf::Open(mut state, Some(mut whole)) => {
                self.playout_steps_then_whole(&mut state, &mut whole, config)
            }
            Leaf::Open(mut state, None) => self.playout(&mut state, config),
        }
    }

    /// Plays the game out from `state` with its playout policy; the first player's score.
    fn playout(&mut self, state: &mut G::Steps, config: &Config) -> f32 {
        let played = &mut self.played;
        play_out(
            state,
            &mut self.rng,
            config,
            config.playout_cap,
            |mv, mover| {
                played.push((amaf_key::<G::Steps>(mv, config.amaf_by_cells), mover));
            },
        );
        match state.outcome() {
            Some(outcome) => outcome.score_for(Player::First) as f32,
            None => state.evaluation().unwrap_or(0.5),
        }
    }

    /// Plays out a step game: the turn in progress decision by decision, then the rest in
    /// whole moves with the whole game's playout policy. Whole moves are not decisions: that
    /// part counts for all-moves-as-first only by the cells its moves fill, when the search
    /// pools by cells ([`Config::amaf_by_cells`]).
    fn playout_steps_then_whole(
        &mut self,
        state: &mut G::Steps,
        whole: &mut G,
        config: &Config,
    ) -> f32 {
        let mut plies = 0;
        while !self.turn.is_empty() && plies < config.playout_cap {
            let mover = state.to_move();
            let Some(step) = state.playout_move(&mut self.rng) else {
                break;
            };
            self.played
                .push((amaf_key::<G::Steps>(&step, config.amaf_by_cells), mover));
            state.play_unchecked(&step);
            self.turn.push(step);
            plies += 1;
            if turn_over(state, mover) {
                complete_turn(whole, &mut self.turn);
            }
        }
        if !self.turn.is_empty() {
            return match state.outcome() {
                Some(outcome) => outcome.score_for(Player::First) as f32,
                None => state.evaluation().unwrap_or(0.5),
            };
        }
        let played = &mut self.played;
        play_out(
            whole,
            &mut self.rng,
            config,
            config.playout_cap - plies,
            |mv, mover| {
                if config.amaf_by_cells {
                    G::amaf_cells(mv, |cell| {
                        played.push((cell_key(cell.col(), cell.row()), mover))
                    });
                }
            },
        );
        match whole.outcome() {
            Some(outcome) => outcome.score_for(Player::First) as f32,
            None => whole.evaluation().unwrap_or(0.5),
        }
    }
}

impl<G: Stepwise> Tree<G> {
    /// A tree holding only `root`.
    pub(crate) fn new(root: &G) -> Tree<G> {
        Tree {
            root: root.to_steps(),
            root_whole: whole_of(root),
            turn_moves: HashMap::new(),
            nodes: vec![Node::root()],
            moves: Vec::new(),
            priors: Vec::new(),
            amaf: AmafTable::new(),
            spare: Vec::new(),
            old_index: Vec::new(),
        }
    }

    /// Forgets the tree and starts again from `root`.
    pub(crate) fn reset(&mut self, root: &G) {
        self.root = root.to_steps();
        self.root_whole = whole_of(root);
        self.turn_moves.clear();
        self.nodes.clear();
        self.nodes.push(Node::root());
    }

    /// The whole move completing a turn at `node`, if an iteration has recorded it.
    pub(crate) fn turn_move(&self, node: usize) -> Option<&G::Move> {
        self.turn_moves.get(&(node as u32))
    }

    /// Whether the tree searches decisions that are not the game's whole moves.
    pub(crate) fn searches_steps(&self) -> bool {
        self.root_whole.is_some()
    }

    /// The root's proven result, if any.
    pub(crate) fn root_proof(&self) -> Option<Outcome> {
        self.nodes[0].proof
    }

    /// One iteration by `walker` alone: descend to a leaf, play out, back the result up.
    pub(crate) fn iterate(&mut self, walker: &mut Walker<G>, config: &Config) {
        let leaf = self.descend(walker, config);
        let value = walker.score(leaf, config);
        self.back_up(walker, value, config);
    }

    /// The first half of an iteration: selects a leaf from the root, maybe expanding it, into
    /// `walker`'s path. Every node passed is counted as visited as it is left (a virtual
    /// loss until [`Tree::back_up`] adds the score), so that threads sharing the tree
    /// spread over it; a thread alone selects exactly as if the visit were counted on the
    /// way back.
    pub(crate) fn descend(&mut self, walker: &mut Walker<G>, config: &Config) -> Leaf<G> {
        let mut state = self.root.clone();
        let mut whole = self.root_whole.clone();
        walker.turn.clear();
        walker.path.clear();
        walker.played.clear();
        walker.path.push(0);
        let mut node = 0usize;
        let leaf = loop {
            if let Some(proof) = self.nodes[node].proof {
                break Leaf::Settled(proof.score_for(Player::First) as f32);
            }
            if !self.nodes[node].expanded {
                if let Some(outcome) = state.outcome() {
                    self.nodes[node].proof = Some(outcome);
                    break Leaf::Settled(outcome.score_for(Player::First) as f32);
                }
                // A leaf inside a turn is expanded at once (while the tree may grow): a
                // playout from it would finish the turn decision by decision, each costing
                // as much as listing the decisions once, and the listing is kept.
                let grow = node == 0
                    || ((!walker.turn.is_empty()
                        || self.nodes[node].visits >= config.expand_visits)
                        && self.nodes.len() < config.max_nodes);
                if !grow {
                    break Leaf::Open(state, whole);
                }
                self.expand(node, &state, &mut walker.rng, config);
            }
            let child = self.select(node, state.to_move(), config);
            self.nodes[node].visits += 1;
            let mover = state.to_move();
            let Some(mv) = self.nodes[child].mv.as_ref() else {
                unreachable!("only the root has no move")
            };
            state.play_unchecked(mv);
            if let Some(whole) = &mut whole {
                walker.turn.push(mv.clone());
                let ends = turn_over(&state, mover);
                self.nodes[child].ends_turn = ends;
                if ends {
                    let mv = match self.turn_moves.get(&(child as u32)) {
                        Some(mv) => Some(mv.clone()),
                        None => whole.move_from_steps_unchecked(&walker.turn),
                    };
                    debug_assert!(mv.is_some(), "a completed turn makes a move");
                    if let Some(mv) = mv {
                        whole.play_unchecked(&mv);
                        self.turn_moves.entry(child as u32).or_insert(mv);
                    }
                    walker.turn.clear();
                }
            }
            walker.played.push((self.nodes[child].key, mover));
            walker.path.push(child as u32);
            node = child;
        };
        self.nodes[node].visits += 1;
        leaf
    }

    /// Adds every move of `state` as a child of `node`, in a random order (so that ties in
    /// selection fall on a random move). The game's priors are asked for only when they
    /// weigh something.
    fn expand(
        &mut self,
        node: usize,
        state: &G::Steps,
        rng: &mut Xoshiro256PlusPlus,
        config: &Config,
    ) {
        let weighs_priors = config.prior_weight != 0.0;
        if weighs_priors {
            state.fill_moves_with_priors(&mut self.moves, &mut self.priors);
        } else {
            state.fill_moves(&mut self.moves);
            self.priors.clear();
        }
        for i in (1..self.moves.len()).rev() {
            let j = rng.random_range(0..=i);
            self.moves.swap(i, j);
            if weighs_priors {
                self.priors.swap(i, j);
            }
        }
        let first = self.nodes.len();
        let mover = state.to_move();
        let steps_are_moves = self.root_whole.is_none();
        for (i, mv) in self.moves.drain(..).enumerate() {
            let prior = self.priors.get(i).copied().flatten().unwrap_or(0.0);
            self.nodes.push(Node {
                key: amaf_key::<G::Steps>(&mv, config.amaf_by_cells),
                mv: Some(mv),
                parent: node as u32,
                mover,
                prior,
                ends_turn: steps_are_moves,
                ..Node::root()
            });
        }
        let count = (self.nodes.len() - first) as u32;
        let n = &mut self.nodes[node];
        n.first_child = first as u32;
        n.child_count = count;
        n.expanded = true;
    }

    /// The child to descend into: a proven win at once, never a proven loss while anything
    /// else is left, otherwise the best UCT-RAVE value.
    fn select(&self, node: usize, to_move: Player, config: &Config) -> usize {
        let parent = &self.nodes[node];
        let log_visits = (parent.visits.max(1) as f32).ln();
        let mut best = parent.first_child as usize;
        let mut best_value = f32::NEG_INFINITY;
        for c in parent.children() {
            let child = &self.nodes[c];
            let value = match child.proof {
                Some(Outcome::Win(p)) if config.solver && p == to_move => return c,
                // Another iteration through a proven loss or draw teaches nothing: they are
                // chosen only when every move is proven (and then so is this node).
                Some(_) if config.solver => -1.0,
                _ => self.value(child, log_visits, config),
            };
            if value > best_value {
                best_value = value;
                best = c;
            }
        }
        best
    }

    /// The UCT-RAVE value of a child for its mover.
    fn value(&self, child: &Node<Step<G>>, log_visits: f32, config: &Config) -> f32 {
        let n = child.visits as f32;
        let mut value = match (config.rave_equivalence, child.mean()) {
            (Some(k), mean) if child.amaf_visits > 0 => {
                let amaf_n = child.amaf_visits as f32;
                let amaf = child.amaf_score / amaf_n;
                // Silver's schedule, without a square root: the weight of the AMAF mean falls
                // to a half once the move's own visits reach about k.
                let beta = amaf_n / (n + amaf_n + n * amaf_n / k);
                (1.0 - beta) * mean.unwrap_or(0.0) + beta * amaf
            }
            (_, Some(mean)) => mean,
            (_, None) => return config.first_play_urgency + config.prior_weight * child.prior,
        };
        if config.exploration > 0.0 {
            value += config.exploration * (log_visits / (n + 1.0)).sqrt();
        }
        value + config.prior_weight * child.prior / (n + 1.0)
    }

    /// The second half of an iteration: backs `walker`'s result up its path (the visits
    /// were counted on the way down): scores, AMAF statistics of the siblings whose move the
    /// same player made later in the iteration, and proofs.
    pub(crate) fn back_up(&mut self, walker: &Walker<G>, value: f32, config: &Config) {
        let leaf_depth = walker.path.len() - 1;
        let rave = config.rave_equivalence.is_some();
        if rave {
            self.amaf.next_iteration();
            for &(key, player) in &walker.played[leaf_depth..] {
                self.amaf.mark(key, player);
            }
        }
        let mut proven_below = self.nodes[walker.path[leaf_depth] as usize].proof.is_some();
        for depth in (0..=leaf_depth).rev() {
            let index = walker.path[depth] as usize;
            let node = &mut self.nodes[index];
            node.score += score_for(value, node.mover);
            if rave && node.expanded {
                for c in self.nodes[index].children() {
                    let child = &mut self.nodes[c];
                    if self.amaf.contains(child.key, child.mover) {
                        child.amaf_visits += 1;
                        child.amaf_score += score_for(value, child.mover);
                    }
                }
            }
            if config.solver && proven_below && depth < leaf_depth {
                proven_below = self.prove(index);
            }
            if rave && depth > 0 {
                let (key, player) = walker.played[depth - 1];
                self.amaf.mark(key, player);
            }
        }
    }

    /// Tries to prove an expanded node from its children; whether it is now proven.
    fn prove(&mut self, index: usize) -> bool {
        let node = &self.nodes[index];
        if node.proof.is_some() {
            return true;
        }
        if !node.expanded || node.child_count == 0 {
            return false;
        }
        let to_move = self.nodes[node.first_child as usize].mover;
        let mut all_proven = true;
        let mut draw = false;
        for c in node.children() {
            match self.nodes[c].proof {
                Some(Outcome::Win(p)) if p == to_move => {
                    self.nodes[index].proof = Some(Outcome::Win(to_move));
                    return true;
                }
                Some(Outcome::Draw) => draw = true,
                Some(Outcome::Win(_)) => {}
                None => all_proven = false,
            }
        }
        if !all_proven {
            return false;
        }
        self.nodes[index].proof = Some(if draw {
            Outcome::Draw
        } else {
            Outcome::Win(to_move.other())
        });
        true
    }

    /// Makes `new_root` (a descendant reached by `path`) the root, keeping its subtree and
    /// dropping the rest; `state` is its position.
    pub(crate) fn reroot(&mut self, new_root: usize, state: G::Steps, whole: &G) {
        self.spare.clear();
        self.old_index.clear();
        let mut root = self.nodes[new_root].clone();
        root.parent = NO_PARENT;
        root.mv = None;
        self.spare.push(root);
        self.old_index.push(new_root as u32);
        let mut next = 0;
        while next < self.spare.len() {
            let old = &self.nodes[self.old_index[next] as usize];
            if old.expanded {
                let first = self.spare.len();
                for c in old.children() {
                    let mut child = self.nodes[c].clone();
                    child.parent = next as u32;
                    self.spare.push(child);
                    self.old_index.push(c as u32);
                }
                self.spare[next].first_child = first as u32;
            }
            next += 1;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare);
        self.spare.clear();
        let mut turn_moves = HashMap::with_capacity(self.turn_moves.len());
        for (new, old) in self.old_index.iter().enumerate() {
            if let Some(mv) = self.turn_moves.remove(old) {
                turn_moves.insert(new as u32, mv);
            }
        }
        self.turn_moves = turn_moves;
        self.root = state;
        self.root_whole = whole_of(whole);
    }
}

/// Whether the decision just played by `mover`, leading to `state`, completed a turn: the
/// step view keeps the player to move until the turn is complete, and a completed turn
/// passes the move (a player with nothing to do still has a pass decision) or ends the game.
/// Testing this costs nothing, where asking `move_from_steps` after every decision replays
/// the whole turn each time.
pub(crate) fn turn_over<S: Game>(state: &S, mover: Player) -> bool {
    state.to_move() != mover || state.outcome().is_some()
}

/// Plays the completed turn `turn` (its decisions) on `whole` and clears it.
fn complete_turn<G: Stepwise>(whole: &mut G, turn: &mut Vec<Step<G>>) {
    let mv = whole.move_from_steps_unchecked(turn);
    debug_assert!(mv.is_some(), "a completed turn makes a move");
    if let Some(mv) = mv {
        whole.play_unchecked(&mv);
    }
    turn.clear();
}

/// The whole position to play out from, for a game whose steps are not its moves.
fn whole_of<G: Stepwise>(position: &G) -> Option<G> {
    (TypeId::of::<G>() != TypeId::of::<G::Steps>()).then(|| position.clone())
}

/// The score of `player` when the first player scores `value`.
fn score_for(value: f32, player: Player) -> f32 {
    match player {
        Player::First => value,
        Player::Second => 1.0 - value,
    }
}

#[cfg(test)]
mod tests {
    use swapboard_core::Stone;
    use swapboard_scware::{Scware, ScwareStep, ScwareSteps};
    use swapboard_swaptimum::Swaptimum;

    use super::*;

    /// Pooled by cells, a placement, a growth's stone and a new group on one cell share a
    /// key, and a step game's whole-move playout records every stone it puts down, each for
    /// its player; kept apart, every decision is its own key and the whole moves record
    /// nothing.
    #[test]
    fn pooled_by_cells_a_cell_s_decisions_share_a_key_and_playouts_count_their_stones() {
        let cell = "c3".parse().expect("a cell");
        let [place, grow, new_group] = [
            ScwareStep::Place(cell),
            ScwareStep::Grow(cell),
            ScwareStep::NewGroup(cell),
        ];
        let key = |step: &ScwareStep, by_cells| amaf_key::<ScwareSteps>(step, by_cells);
        assert_eq!(key(&place, true), key(&grow, true));
        assert_eq!(key(&place, true), key(&new_group, true));
        assert_ne!(key(&place, false), key(&grow, false));
        assert_eq!(key(&ScwareStep::Skip, true), move_key(&ScwareStep::Skip));

        for by_cells in [true, false] {
            let config = Config {
                amaf_by_cells: by_cells,
                ..Config::default()
            };
            let mut whole = Scware::start(7).expect("7x7 exists");
            let mut steps = whole.to_steps();
            let mut walker = Walker::<Scware>::new(5);
            walker.playout_steps_then_whole(&mut steps, &mut whole, &config);
            let mut stones = 0;
            for player in Player::BOTH {
                for at in whole.board().square().cells() {
                    if whole.board().at(at) == Stone::of(player) {
                        stones += 1;
                        let recorded = (cell_key(at.col(), at.row()), player);
                        assert_eq!(walker.played.contains(&recorded), by_cells, "{at}");
                    }
                }
            }
            assert!(stones > 0, "the playout put stones down");
            assert_eq!(walker.played.len(), if by_cells { stones } else { 0 });
        }
    }

    /// Two walkers in flight at once, as two threads sharing the tree are: the first one's
    /// virtual loss sends the second down another move, and backing both up leaves every
    /// count as two iterations one after the other would have.
    #[test]
    fn a_virtual_loss_sends_the_next_walker_elsewhere_until_it_is_backed_up() {
        let start = Swaptimum::start(5).expect("5x5 exists");
        let config = Config::default();
        let mut tree = Tree::new(&start);
        let (mut first, mut second) = (Walker::new(1), Walker::new(2));

        let first_leaf = tree.descend(&mut first, &config);
        let taken = first.path[1] as usize;
        assert_eq!(
            first.path.len(),
            2,
            "the fresh root is expanded, its child is a leaf"
        );
        assert_eq!((tree.nodes[0].visits, tree.nodes[taken].visits), (1, 1));
        assert_eq!(
            tree.nodes[taken].score, 0.0,
            "counted as a loss until backed up"
        );

        let second_leaf = tree.descend(&mut second, &config);
        let other = second.path[1] as usize;
        assert_ne!(
            other, taken,
            "the virtual loss turns the second walker away"
        );
        // Unvisited moves tie, and ties fall on the first in the children's order: without
        // the virtual loss the second walker would have followed the first.
        let untried = tree.nodes[0]
            .children()
            .find(|&c| tree.nodes[c].visits == 0);
        assert!(untried.is_some_and(|c| c > other) && taken < other);

        first.leaf = Some(first_leaf);
        second.leaf = Some(second_leaf);
        first.play_out(&config);
        second.play_out(&config);
        tree.back_up(&first, first.value, &config);
        tree.back_up(&second, second.value, &config);
        let root = &tree.nodes[0];
        assert_eq!(root.visits, 2);
        let children: u32 = root.children().map(|c| tree.nodes[c].visits).sum();
        assert_eq!(
            children, 2,
            "each iteration went through one move of the root"
        );
        for (walker, node) in [(&first, taken), (&second, other)] {
            let n = &tree.nodes[node];
            assert_eq!(n.visits, 1);
            assert_eq!(n.score, score_for(walker.value, n.mover));
        }
    }
}
