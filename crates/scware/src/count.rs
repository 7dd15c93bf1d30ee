//! Exact counting of growth moves without listing them.
//!
//! The new stones of a growth fall into *clusters*: maximal orthogonally connected sets of
//! new stones. Since every original group touches at most one new stone, it belongs to at
//! most one cluster, so after the move the group of a new stone is exactly its cluster plus
//! the original groups the cluster touches: merges never chain from one cluster to another.
//! The rules then become local to clusters:
//!
//! - a cluster is *valid* when no original group touches two of its stones, and every own
//!   stone diagonal to one of its stones is in a group the cluster touches;
//! - two clusters *fit together* when they touch no common group and no stone of one is
//!   8-adjacent to a stone of the other (orthogonal neighbours would be one cluster, diagonal
//!   ones two groups).
//!
//! A growth is exactly a non-empty set of valid clusters that pairwise fit together. Naming a
//! cluster's *resources* as the groups it touches and the 2 x 2 blocks holding its stones (two
//! cells are 8-adjacent exactly when some block holds both), clusters fit together exactly
//! when their resources are disjoint. Counting growths is therefore counting packings of
//! clusters. Clusters sharing no resource, even indirectly, form independent components
//! whose counts multiply; within a component, clusters are swept in board order and a dynamic
//! programme keeps, for every set of taken resources that later clusters can still meet, the
//! number of ways to reach it. A resource leaves the state after the last cluster using it.
//! The state is a bit set of at most 128 live resources; a component needing more is left to
//! the enumeration (`None`), which has not happened on boards up to 11 x 11.

use crate::turn::{SKIP, Search, Turn, UNSET};
use crate::union_find::{find, union};

/// No liberty at a slot (as in [`Turn::lib_of`]).
const NO: u16 = u16::MAX;

/// One valid cluster.
struct Cluster {
    /// Its lowest slot: clusters are swept in this order.
    first: u16,
    /// Groups it touches (ids `0..groups`), then the blocks holding its stones
    /// (`groups + lower-left slot`).
    resources: Vec<u32>,
    /// Its stones, as liberty indices.
    libs: Vec<u16>,
}

/// The valid clusters of a turn, split into independent components.
pub(crate) struct Packings {
    clusters: Vec<Cluster>,
    /// Cluster indices of each component, in sweep order.
    components: Vec<Vec<usize>>,
    /// Number of resource ids.
    resource_count: usize,
    /// Id of the first block resource (= number of groups).
    block_base: u32,
    /// The component of each group's clusters ([`NONE`] for a group with no valid cluster).
    component_of_group: Vec<u32>,
    /// The component of each liberty's clusters ([`NONE`] for a liberty in none): every
    /// cluster holding a liberty uses the blocks around it, so they share a component.
    component_of_lib: Vec<u32>,
}

/// No component.
const NONE: u32 = u32::MAX;

impl Packings {
    /// Finds every valid cluster of `turn` and the components.
    pub(crate) fn new(turn: &Turn) -> Packings {
        let sq = turn.square;
        let block_base = turn.groups as u32;
        let resource_count = turn.groups + sq.slot_count();
        let mut clusters = Vec::new();
        let mut cells = Vec::new();
        let mut groups = Vec::new();
        for root in 0..turn.libs.len() as u16 {
            if turn.dead[usize::from(root)] {
                continue;
            }
            cells.clear();
            groups.clear();
            cells.push(root);
            groups.extend_from_slice(turn.libs[usize::from(root)].groups());
            let ext: Vec<u16> = alive_neighbours(turn, root).filter(|&u| u > root).collect();
            extend(
                turn,
                root,
                &mut cells,
                &mut groups,
                ext,
                &mut |cells, groups| {
                    if let Some(c) = cluster(turn, block_base, cells, groups) {
                        clusters.push(c);
                    }
                },
            );
        }
        clusters.sort_by_key(|c| c.first);

        // Components: clusters joined through shared resources.
        let mut parent: Vec<u32> = (0..resource_count as u32).collect();
        for c in &clusters {
            for &r in &c.resources[1..] {
                union(&mut parent, c.resources[0], r);
            }
        }
        let mut index_of_root = vec![usize::MAX; resource_count];
        let mut components: Vec<Vec<usize>> = Vec::new();
        for (i, c) in clusters.iter().enumerate() {
            let root = find(&mut parent, c.resources[0]) as usize;
            if index_of_root[root] == usize::MAX {
                index_of_root[root] = components.len();
                components.push(Vec::new());
            }
            components[index_of_root[root]].push(i);
        }
        let mut component_of_group = vec![NONE; turn.groups];
        let mut component_of_lib = vec![NONE; turn.libs.len()];
        for (k, members) in components.iter().enumerate() {
            for &i in members {
                let c = &clusters[i];
                for &r in c.resources.iter().take_while(|&&r| r < block_base) {
                    component_of_group[r as usize] = k as u32;
                }
                for &l in &c.libs {
                    component_of_lib[usize::from(l)] = k as u32;
                }
            }
        }
        Packings {
            clusters,
            components,
            resource_count,
            block_base,
            component_of_group,
            component_of_lib,
        }
    }

    /// The number of packings of each component (the empty one included), or `None` if a
    /// component is too wide for the state.
    pub(crate) fn component_counts(&self) -> Option<Vec<u128>> {
        (0..self.components.len())
            .map(|k| self.count(k, &[]))
            .collect()
    }

    /// The number of legal growths (the product of the components' counts, less the empty
    /// growth), or `None` if a component is too wide.
    pub(crate) fn growth_count(&self) -> Option<u128> {
        let counts = self.component_counts()?;
        Some(counts.iter().fold(1u128, |p, &n| p.saturating_mul(n)) - 1)
    }

    /// The number of Red's balanced growths: for every new-group cell of `turn`, the growths
    /// with no stone 8-adjacent to it (no cluster using a block that holds the cell).
    pub(crate) fn balanced_count(&self, turn: &Turn) -> Option<u128> {
        let counts = self.component_counts()?;
        let sq = turn.square;
        let mut component_of = vec![usize::MAX; self.resource_count];
        for (k, members) in self.components.iter().enumerate() {
            for &i in members {
                for &r in &self.clusters[i].resources {
                    component_of[r as usize] = k;
                }
            }
        }
        let mut total = 0u128;
        for &p in &turn.placements {
            let blocks = sq
                .blocks_around(usize::from(p))
                .map(|b| self.block_base + b as u32);
            let mut product = 1u128;
            let mut touched: Vec<usize> = blocks
                .iter()
                .map(|&b| component_of[b as usize])
                .filter(|&k| k != usize::MAX)
                .collect();
            touched.sort_unstable();
            touched.dedup();
            for (k, &n) in counts.iter().enumerate() {
                let n = if touched.contains(&k) {
                    self.count(k, &blocks)?
                } else {
                    n
                };
                product = product.saturating_mul(n);
            }
            total = total.saturating_add(product - 1);
        }
        Some(total)
    }

    /// Whether the partial choices of `st` can be completed to a legal growth: a packing of
    /// valid clusters that holds every chosen liberty, touches no skipped group, gives a
    /// decided group no stone but its chosen one, and uses no forbidden liberty; with at
    /// least one stone. `None` if a component is too wide for the state.
    ///
    /// The step view asks this for every decision it offers; a search of the choices
    /// themselves may try every completion of a large component before it can say no.
    pub(crate) fn completes(&self, st: &Search) -> Option<bool> {
        // Only components holding a decided group or a forbidden liberty can fail; every
        // other one can still take any of its clusters, or none.
        let mut touched: Vec<u32> = Vec::new();
        let mut required: Vec<u16> = Vec::new();
        for (g, &choice) in st.choice.iter().enumerate() {
            if choice == UNSET {
                continue;
            }
            touched.push(self.component_of_group[g]);
            if choice < SKIP {
                // A chosen liberty in no valid cluster can never be completed.
                if self.component_of_lib[usize::from(choice)] == NONE {
                    return Some(false);
                }
                required.push(choice);
            }
        }
        for (l, _) in st.forbidden.iter().enumerate().filter(|(_, f)| **f) {
            touched.push(self.component_of_lib[l]);
        }
        touched.sort_unstable();
        touched.dedup();
        if touched.last() == Some(&NONE) {
            touched.pop();
        }
        required.sort_unstable();
        required.dedup();
        let allowed = |c: &Cluster| {
            c.libs.iter().all(|&l| !st.forbidden[usize::from(l)])
                && c.resources
                    .iter()
                    .take_while(|&&r| r < self.block_base)
                    .all(|&g| match st.choice[g as usize] {
                        SKIP => false,
                        lib if lib < SKIP => c.libs.contains(&lib),
                        _ => true,
                    })
        };
        // Growths are closed under taking fewer clusters, so a component with no chosen
        // liberty can always take none, and one with chosen liberties needs only clusters
        // holding them: a packing of those covering them all, if any, completes it.
        let mut any_nonempty = !required.is_empty() || touched.len() < self.components.len();
        let mut members: Vec<&Cluster> = Vec::new();
        let mut held: Vec<u16> = Vec::new();
        for &k in &touched {
            let component = self.components[k as usize]
                .iter()
                .map(|&i| &self.clusters[i]);
            held.clear();
            held.extend(
                required
                    .iter()
                    .copied()
                    .filter(|&l| self.component_of_lib[usize::from(l)] == k),
            );
            if held.is_empty() {
                any_nonempty = any_nonempty || component.clone().any(&allowed);
                continue;
            }
            members.clear();
            members.extend(
                component.filter(|c| c.libs.iter().any(|l| held.contains(l)) && allowed(c)),
            );
            if !held
                .iter()
                .all(|l| members.iter().any(|c| c.libs.contains(l)))
                || !self.covers(&members, &held)?
            {
                return Some(false);
            }
        }
        Some(any_nonempty)
    }

    /// Whether `members` (allowed clusters of one component, in sweep order) have a packing
    /// covering every liberty of `required`; `None` if the frontier is too wide.
    fn covers(&self, members: &[&Cluster], required: &[u16]) -> Option<bool> {
        // Resources: the clusters' own, then one per required liberty ("covered").
        let cover_base = self.resource_count as u32;
        let resources_of = |c: &Cluster| -> Vec<u32> {
            let mut r = c.resources.clone();
            r.extend(
                required
                    .iter()
                    .enumerate()
                    .filter(|(_, lib)| c.libs.contains(lib))
                    .map(|(i, _)| cover_base + i as u32),
            );
            r
        };
        let lists: Vec<Vec<u32>> = members.iter().map(|c| resources_of(c)).collect();
        let ids = self.resource_count + required.len();
        let mut last_use = vec![usize::MAX; ids];
        for (i, list) in lists.iter().enumerate() {
            for &r in list {
                last_use[r as usize] = i;
            }
        }
        let mut bit_of = vec![u32::MAX; ids];
        let mut free = u128::MAX;
        // A state: the live resources taken.
        let mut states: Vec<u128> = vec![0];
        let mut next: Vec<u128> = Vec::new();
        for (i, list) in lists.iter().enumerate() {
            let mut mask = 0u128;
            for &r in list {
                let r = r as usize;
                if bit_of[r] == u32::MAX {
                    if free == 0 {
                        return None;
                    }
                    bit_of[r] = free.trailing_zeros();
                    free &= free - 1;
                }
                mask |= 1 << bit_of[r];
            }
            let (mut release, mut must_hold) = (0u128, 0u128);
            for &r in list {
                if last_use[r as usize] == i {
                    let bit = 1u128 << bit_of[r as usize];
                    release |= bit;
                    if r >= cover_base {
                        must_hold |= bit;
                    }
                }
            }
            free |= release;
            next.clear();
            for &s in &states {
                // A required liberty leaves the window here: it must have been covered.
                if s & must_hold == must_hold {
                    next.push(s & !release);
                }
                if s & mask == 0 {
                    next.push((s | mask) & !release);
                }
            }
            next.sort_unstable();
            next.dedup();
            std::mem::swap(&mut states, &mut next);
        }
        Some(!states.is_empty())
    }

    /// The packings of component `k` using none of the `taken` resources.
    fn count(&self, k: usize, taken: &[u32]) -> Option<u128> {
        let members: Vec<&Cluster> = self.components[k]
            .iter()
            .map(|&i| &self.clusters[i])
            .filter(|c| c.resources.iter().all(|r| !taken.contains(r)))
            .collect();
        // Give each resource a bit while clusters still use it.
        let mut last_use = vec![usize::MAX; self.resource_count];
        for (i, c) in members.iter().enumerate() {
            for &r in &c.resources {
                last_use[r as usize] = i;
            }
        }
        let mut bit_of = vec![u8::MAX; self.resource_count];
        let mut free = u128::MAX;
        let mut states: Vec<(u128, u128)> = vec![(0, 1)];
        let mut next: Vec<(u128, u128)> = Vec::new();
        for (i, c) in members.iter().enumerate() {
            let mut mask = 0u128;
            for &r in &c.resources {
                let r = r as usize;
                if bit_of[r] == u8::MAX {
                    if free == 0 {
                        return None;
                    }
                    bit_of[r] = free.trailing_zeros() as u8;
                    free &= free - 1;
                }
                mask |= 1 << bit_of[r];
            }
            let mut release = 0u128;
            for &r in &c.resources {
                if last_use[r as usize] == i {
                    release |= 1 << bit_of[r as usize];
                }
            }
            free |= release;
            next.clear();
            for &(s, n) in &states {
                next.push((s & !release, n));
                if s & mask == 0 {
                    next.push(((s | mask) & !release, n));
                }
            }
            next.sort_unstable_by_key(|&(s, _)| s);
            states.clear();
            for &(s, n) in &next {
                match states.last_mut() {
                    Some((t, m)) if *t == s => *m = m.saturating_add(n),
                    _ => states.push((s, n)),
                }
            }
        }
        Some(
            states
                .iter()
                .fold(0u128, |total, &(_, n)| total.saturating_add(n)),
        )
    }
}

/// The liberties orthogonally next to liberty `lib` that can be chosen.
fn alive_neighbours(turn: &Turn, lib: u16) -> impl Iterator<Item = u16> + '_ {
    let slot = usize::from(turn.libs[usize::from(lib)].slot);
    turn.square
        .orthogonal()
        .into_iter()
        .map(move |d| turn.lib_of[slot.wrapping_add_signed(d)])
        .filter(move |&m| m != NO && !turn.dead[usize::from(m)])
}

/// Whether two liberties are orthogonal neighbours.
fn adjacent(turn: &Turn, a: u16, b: u16) -> bool {
    let (x, y) = (
        usize::from(turn.libs[usize::from(a)].slot),
        usize::from(turn.libs[usize::from(b)].slot),
    );
    let d = x.abs_diff(y);
    d == 1 || d == turn.square.stride()
}

/// Visits every connected set of liberties containing `cells`, with `root` as its lowest
/// liberty and no group touched twice, each once (the extension-set method: a liberty
/// joins only from `ext`, and a newly reachable one only if no earlier member reached it).
fn extend(
    turn: &Turn,
    root: u16,
    cells: &mut Vec<u16>,
    groups: &mut Vec<u16>,
    mut ext: Vec<u16>,
    visit: &mut impl FnMut(&[u16], &[u16]),
) {
    visit(cells, groups);
    while let Some(w) = ext.pop() {
        let own = turn.libs[usize::from(w)].groups();
        // A group touched twice stays so in every larger set: nothing to find through w.
        if own.iter().any(|g| groups.contains(g)) {
            continue;
        }
        let mut next = ext.clone();
        for u in alive_neighbours(turn, w) {
            if u > root
                && !cells.contains(&u)
                && !cells.iter().any(|&c| adjacent(turn, c, u))
                && !next.contains(&u)
            {
                next.push(u);
            }
        }
        cells.push(w);
        let before = groups.len();
        groups.extend_from_slice(own);
        extend(turn, root, cells, groups, next, visit);
        groups.truncate(before);
        cells.pop();
    }
}

/// The cluster of these liberties (touching these groups), if it is valid: every own stone
/// diagonal to one of its stones is in a group it touches.
fn cluster(turn: &Turn, block_base: u32, cells: &[u16], groups: &[u16]) -> Option<Cluster> {
    let sq = turn.square;
    let mut resources: Vec<u32> = groups.iter().map(|&g| u32::from(g)).collect();
    let mut first = u16::MAX;
    for &c in cells {
        let slot = usize::from(turn.libs[usize::from(c)].slot);
        for d in sq.diagonal() {
            let g = turn.group_of[slot.wrapping_add_signed(d)];
            if g != NO && !groups.contains(&g) {
                return None;
            }
        }
        for b in sq.blocks_around(slot) {
            let r = block_base + b as u32;
            if !resources.contains(&r) {
                resources.push(r);
            }
        }
        first = first.min(slot as u16);
    }
    Some(Cluster {
        first,
        resources,
        libs: cells.to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use swapboard_core::Game;

    use super::Packings;
    use crate::Scware;
    use crate::turn::{SKIP, Turn, UNSET};

    /// On random positions and random partial choices (groups skipped, grown or left open,
    /// liberties forbidden), the packings tell whether the choices can be completed exactly
    /// as walking every completion does.
    #[test]
    fn completion_by_packings_agrees_with_the_walk() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
        let mut answers = [0usize; 2];
        for n in [4usize, 5, 6, 7] {
            for _ in 0..60 {
                let mut pos = Scware::start(n).unwrap();
                for _ in 0..rng.random_range(0..n * n) {
                    let Some(mv) = pos.random_move(&mut rng) else {
                        break;
                    };
                    pos.play_unchecked(&mv);
                }
                if pos.outcome().is_some() {
                    continue;
                }
                let turn = Turn::new(pos.board(), pos.to_move());
                let packings = Packings::new(&turn);
                for _ in 0..20 {
                    let mut st = turn.search();
                    for lib in 0..turn.libs.len() {
                        st.forbidden[lib] = rng.random_range(0..12) == 0;
                    }
                    for g in 0..turn.groups as u16 {
                        if st.choice[usize::from(g)] != UNSET {
                            continue;
                        }
                        match rng.random_range(0..3) {
                            0 => st.choice[usize::from(g)] = SKIP,
                            1 => {
                                let free: Vec<u16> = turn
                                    .libs_of(g)
                                    .iter()
                                    .copied()
                                    .filter(|&l| turn.can_choose(&st, l))
                                    .collect();
                                if !free.is_empty() {
                                    turn.choose(&mut st, free[rng.random_range(0..free.len())]);
                                }
                            }
                            _ => {}
                        }
                    }
                    let by_walk = turn.completes_by_walk(&mut st);
                    assert_eq!(packings.completes(&st), Some(by_walk), "{pos}");
                    answers[usize::from(by_walk)] += 1;
                }
            }
        }
        assert!(answers[0] > 100 && answers[1] > 100, "{answers:?}");
    }
}
