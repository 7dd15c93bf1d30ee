//! The structure of one turn's growth moves, from which they are listed, counted, sampled and
//! decided step by step.
//!
//! A growth is a choice, for every original group of the mover, of "no growth" or one of its
//! liberties, such that a liberty touching several groups is chosen by all of them or by none
//! (no group is adjacent to two new stones). The restriction (diagonal own stones in one
//! group after the move) couples some choices. Groups are split into *components* that
//! cannot affect each other:
//!
//! - groups sharing a liberty are coupled;
//! - a liberty diagonal to a stone of another group, or to another group's liberty, is a
//!   *requirement*: if chosen, it must end in the same group as that stone or that new stone;
//! - two orthogonally adjacent liberties of different groups merge those groups when both are
//!   chosen, which can satisfy requirements elsewhere.
//!
//! A component holding a requirement couples all groups it reaches through these relations
//! (a requirement can be met through any chain of merges), and its assignments are enumerated
//! and checked with a small union-find. A component with no requirement has no restriction to
//! check, so it is split further by shared liberties alone; a lone group then simply
//! contributes `1 + liberties` choices. The number of growths is the product of the
//! components' counts, minus the empty growth.

use std::ops::ControlFlow;

use swapboard_core::{Player, Stone, StoneBoard};
use swapboard_grid::{CellSet, Square};

use crate::count::Packings;
use crate::union_find::{find, union};

/// No group, or no liberty, at a slot.
const NO: u16 = u16::MAX;
/// A group whose choice is not made yet.
pub(crate) const UNSET: u16 = u16::MAX;
/// A group that does not grow.
pub(crate) const SKIP: u16 = u16::MAX - 1;

/// An empty cell next to at least one original group.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Lib {
    /// Its mailbox slot.
    pub(crate) slot: u16,
    /// The distinct groups it touches (the first `touching` entries).
    pub(crate) adj: [u16; 4],
    /// How many groups it touches (1 to 4).
    pub(crate) touching: u8,
}

impl Lib {
    /// The groups this liberty touches.
    pub(crate) fn groups(&self) -> &[u16] {
        &self.adj[..usize::from(self.touching)]
    }

    /// The group that stands for this liberty's new stone in the union-find.
    pub(crate) fn owner(&self) -> u16 {
        self.adj[0]
    }
}

/// What a chosen liberty needs to be joined with after the move.
#[derive(Debug, Clone, Copy)]
enum Req {
    /// A diagonally adjacent stone of this (other) group.
    Group(u16),
    /// A diagonally adjacent liberty of other groups, if it is chosen too.
    Lib(u16),
}

/// A compressed list of lists.
#[derive(Debug, Clone)]
struct Lists<T> {
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T> Lists<T> {
    fn new() -> Lists<T> {
        Lists {
            start: Vec::new(),
            items: Vec::new(),
        }
    }

    fn push_list(&mut self) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        self.start.push(self.items.len() as u32);
    }

    fn push(&mut self, item: T) {
        self.items.push(item);
        *self.start.last_mut().expect("push_list first") = self.items.len() as u32;
    }

    fn get(&self, i: usize) -> &[T] {
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// The analysed growth structure of the player to move.
pub(crate) struct Turn {
    pub(crate) square: Square,
    /// Group index of each of the mover's stones (by slot), [`NO`] elsewhere. Groups are
    /// numbered in the cell order of their first stone.
    pub(crate) group_of: Vec<u16>,
    /// Number of original groups.
    pub(crate) groups: usize,
    /// The liberties, in cell order.
    pub(crate) libs: Vec<Lib>,
    /// Liberty index of each slot, [`NO`] elsewhere.
    pub(crate) lib_of: Vec<u16>,
    /// Whether a liberty can never be chosen (its new stone would stand diagonally next to
    /// another group's stone across two enemy stones: no merge can ever join them).
    pub(crate) dead: Vec<bool>,
    /// The choosable liberties of each group.
    group_libs: Lists<u16>,
    /// The requirements of each liberty.
    reqs: Lists<Req>,
    /// Orthogonally adjacent liberties of disjoint groups (their stones merge the groups).
    links: Lists<u16>,
    /// Groups, component by component.
    pub(crate) order: Vec<u16>,
    /// `order` range of each component.
    pub(crate) comp_start: Vec<u32>,
    /// Whether a component has requirements to check.
    pub(crate) comp_checked: Vec<bool>,
    /// Component of each group.
    pub(crate) comp_of: Vec<u16>,
    /// Cells where the mover may start a new group (no own stone among the 8 neighbours),
    /// as slots in cell order.
    pub(crate) placements: Vec<u16>,
}

/// The mutable state of a walk over growth choices.
pub(crate) struct Search {
    /// The choice of each group: [`UNSET`], [`SKIP`] or a liberty index.
    pub(crate) choice: Vec<u16>,
    parent: Vec<u16>,
    /// Liberties that may not be chosen (cells reserved for Red's new group).
    pub(crate) forbidden: Vec<bool>,
    /// The cells chosen so far.
    pub(crate) cells: CellSet,
    /// Number of chosen liberties.
    pub(crate) chosen: usize,
}

impl Turn {
    /// Analyses the growth moves of `mover` on `board`.
    pub(crate) fn new(board: &StoneBoard, mover: Player) -> Turn {
        let square = board.square();
        let own = Stone::of(mover);
        let enemy = Stone::of(mover.other());
        let slots = square.slot_count();
        let orth = square.orthogonal();
        let diag = square.diagonal();

        // Groups, numbered in the cell order of their first stone.
        let mut group_of = vec![NO; slots];
        let mut groups = 0u16;
        let mut stack: Vec<usize> = Vec::new();
        for cell in square.cells() {
            let s = square.slot(cell);
            if board.get(s) != own || group_of[s] != NO {
                continue;
            }
            group_of[s] = groups;
            stack.push(s);
            while let Some(t) = stack.pop() {
                for d in orth {
                    let n = t.wrapping_add_signed(d);
                    if board.get(n) == own && group_of[n] == NO {
                        group_of[n] = groups;
                        stack.push(n);
                    }
                }
            }
            groups += 1;
        }

        // Liberties and placements, in cell order.
        let mut libs = Vec::new();
        let mut lib_of = vec![NO; slots];
        let mut placements = Vec::new();
        for cell in square.cells() {
            let s = square.slot(cell);
            if board.get(s) != Stone::Empty {
                continue;
            }
            let mut lib = Lib {
                slot: s as u16,
                adj: [NO; 4],
                touching: 0,
            };
            for d in orth {
                let g = group_of[s.wrapping_add_signed(d)];
                if g != NO && !lib.groups().contains(&g) {
                    lib.adj[usize::from(lib.touching)] = g;
                    lib.touching += 1;
                }
            }
            if lib.touching > 0 {
                lib_of[s] = libs.len() as u16;
                libs.push(lib);
            } else if diag
                .iter()
                .all(|&d| board.get(s.wrapping_add_signed(d)) != own)
            {
                placements.push(s as u16);
            }
        }

        // Requirements, links, dead liberties.
        let disjoint = |a: &Lib, b: &Lib| a.groups().iter().all(|g| !b.groups().contains(g));
        let mut dead = vec![false; libs.len()];
        let mut reqs = Lists::new();
        let mut links = Lists::new();
        for (i, lib) in libs.iter().enumerate() {
            reqs.push_list();
            links.push_list();
            let s = usize::from(lib.slot);
            for d in diag {
                let n = s.wrapping_add_signed(d);
                let g = group_of[n];
                if g != NO {
                    if lib.groups().contains(&g) {
                        continue;
                    }
                    // Across two enemy stones no chain of merges can ever join the new
                    // stone to that group: the enemy stones would have to be cut apart.
                    let between = between_cells(s, n, square.stride());
                    if between.iter().all(|&b| board.get(b) == enemy) {
                        dead[i] = true;
                    }
                    if !reqs
                        .get(i)
                        .iter()
                        .any(|r| matches!(r, Req::Group(h) if *h == g))
                    {
                        reqs.push(Req::Group(g));
                    }
                } else if lib_of[n] != NO && disjoint(lib, &libs[usize::from(lib_of[n])]) {
                    reqs.push(Req::Lib(lib_of[n]));
                }
            }
            for d in orth {
                let n = s.wrapping_add_signed(d);
                if lib_of[n] != NO && disjoint(lib, &libs[usize::from(lib_of[n])]) {
                    links.push(lib_of[n]);
                }
            }
        }
        if libs.is_empty() {
            reqs.push_list();
            links.push_list();
        }

        let n = usize::from(groups);
        let mut group_libs = Lists::new();
        {
            let mut per_group: Vec<Vec<u16>> = vec![Vec::new(); n];
            for (i, lib) in libs.iter().enumerate() {
                if !dead[i] {
                    for &g in lib.groups() {
                        per_group[usize::from(g)].push(i as u16);
                    }
                }
            }
            group_libs.start.push(0);
            for list in per_group {
                group_libs.items.extend(list);
                group_libs.start.push(group_libs.items.len() as u32);
            }
        }

        // Components: everything that can interact, then requirement-free ones split by
        // shared liberties alone.
        let mut full: Vec<u16> = (0..groups).collect();
        let mut shared: Vec<u16> = (0..groups).collect();
        for (i, lib) in libs.iter().enumerate() {
            if dead[i] {
                continue;
            }
            for &g in &lib.groups()[1..] {
                union(&mut full, lib.owner(), g);
                union(&mut shared, lib.owner(), g);
            }
            for r in reqs.get(i) {
                match *r {
                    Req::Group(h) => union(&mut full, lib.owner(), h),
                    Req::Lib(y) if !dead[usize::from(y)] => {
                        union(&mut full, lib.owner(), libs[usize::from(y)].owner())
                    }
                    Req::Lib(_) => {}
                }
            }
            for &y in links.get(i) {
                if !dead[usize::from(y)] {
                    union(&mut full, lib.owner(), libs[usize::from(y)].owner());
                }
            }
        }
        let mut has_req = vec![false; n];
        for (i, lib) in libs.iter().enumerate() {
            if !dead[i] && !reqs.get(i).is_empty() {
                let r = find(&mut full, lib.owner());
                has_req[usize::from(r)] = true;
            }
        }
        // Key of each group's component: its full root if checked, else n + shared root.
        let mut key: Vec<(u32, u16)> = (0..groups)
            .map(|g| {
                let r = find(&mut full, g);
                let k = if has_req[usize::from(r)] {
                    u32::from(r)
                } else {
                    n as u32 + u32::from(find(&mut shared, g))
                };
                (k, g)
            })
            .collect();
        key.sort_unstable();
        let mut order = Vec::with_capacity(n);
        let mut comp_start = vec![0u32];
        let mut comp_checked = Vec::new();
        let mut comp_of = vec![0u16; n];
        for (i, &(k, g)) in key.iter().enumerate() {
            if i > 0 && key[i - 1].0 != k {
                comp_start.push(i as u32);
            }
            if i == 0 || key[i - 1].0 != k {
                comp_checked.push((k as usize) < n);
            }
            comp_of[usize::from(g)] = (comp_checked.len() - 1) as u16;
            order.push(g);
        }
        comp_start.push(n as u32);
        if n == 0 {
            comp_start.truncate(1);
        }

        Turn {
            square,
            group_of,
            groups: n,
            libs,
            lib_of,
            dead,
            group_libs,
            reqs,
            links,
            order,
            comp_start,
            comp_checked,
            comp_of,
            placements,
        }
    }

    /// The choosable liberties of a group.
    pub(crate) fn libs_of(&self, group: u16) -> &[u16] {
        self.group_libs.get(usize::from(group))
    }

    /// Number of components.
    pub(crate) fn components(&self) -> usize {
        self.comp_checked.len()
    }

    /// The groups of a component.
    pub(crate) fn comp_groups(&self, comp: usize) -> &[u16] {
        &self.order[self.comp_start[comp] as usize..self.comp_start[comp + 1] as usize]
    }

    /// A fresh search state with every choice unset.
    pub(crate) fn search(&self) -> Search {
        Search {
            choice: vec![UNSET; self.groups],
            parent: (0..self.groups as u16).collect(),
            forbidden: vec![false; self.libs.len()],
            cells: CellSet::new(),
            chosen: 0,
        }
    }

    /// Whether liberty `lib` is chosen in `st`.
    #[inline]
    pub(crate) fn is_chosen(&self, st: &Search, lib: u16) -> bool {
        st.choice[usize::from(self.libs[usize::from(lib)].owner())] == lib
    }

    /// Whether `lib` can be chosen now: not dead or forbidden, and every group it touches
    /// is still undecided.
    pub(crate) fn can_choose(&self, st: &Search, lib: u16) -> bool {
        let l = usize::from(lib);
        !self.dead[l]
            && !st.forbidden[l]
            && self.libs[l]
                .groups()
                .iter()
                .all(|&g| st.choice[usize::from(g)] == UNSET)
    }

    /// Chooses a liberty for every group it touches.
    pub(crate) fn choose(&self, st: &mut Search, lib: u16) {
        let l = &self.libs[usize::from(lib)];
        for &g in l.groups() {
            st.choice[usize::from(g)] = lib;
        }
        if let Some(cell) = self.square.cell_at(usize::from(l.slot)) {
            st.cells.insert(cell);
        }
        st.chosen += 1;
    }

    /// Undoes [`Turn::choose`], leaving the groups unset.
    pub(crate) fn unchoose(&self, st: &mut Search, lib: u16) {
        let l = &self.libs[usize::from(lib)];
        for &g in l.groups() {
            st.choice[usize::from(g)] = UNSET;
        }
        if let Some(cell) = self.square.cell_at(usize::from(l.slot)) {
            st.cells.remove(cell);
        }
        st.chosen -= 1;
    }

    /// Joins, in `st`'s union-find, the groups of `groups` as the chosen stones merge them.
    fn merge(&self, st: &mut Search, groups: &[u16]) {
        for &g in groups {
            st.parent[usize::from(g)] = g;
        }
        for &g in groups {
            let c = st.choice[usize::from(g)];
            if c >= SKIP || self.libs[usize::from(c)].owner() != g {
                continue;
            }
            let lib = &self.libs[usize::from(c)];
            for &h in &lib.groups()[1..] {
                union(&mut st.parent, g, h);
            }
            for &y in self.links.get(usize::from(c)) {
                if self.is_chosen(st, y) {
                    union(&mut st.parent, g, self.libs[usize::from(y)].owner());
                }
            }
        }
    }

    /// The first chosen liberty among `groups` whose requirement is broken, once `merge`
    /// has run.
    fn broken(&self, st: &mut Search, groups: &[u16]) -> Option<u16> {
        for &g in groups {
            let c = st.choice[usize::from(g)];
            if c >= SKIP || self.libs[usize::from(c)].owner() != g {
                continue;
            }
            for r in self.reqs.get(usize::from(c)) {
                let other = match *r {
                    Req::Group(h) => h,
                    Req::Lib(y) if self.is_chosen(st, y) => self.libs[usize::from(y)].owner(),
                    Req::Lib(_) => continue,
                };
                if find(&mut st.parent, g) != find(&mut st.parent, other) {
                    return Some(c);
                }
            }
        }
        None
    }

    /// Whether the (complete) choices of a component keep the restriction.
    pub(crate) fn comp_valid(&self, st: &mut Search, comp: usize) -> bool {
        if !self.comp_checked[comp] {
            return true;
        }
        let groups = self.comp_groups(comp);
        self.merge(st, groups);
        self.broken(st, groups).is_none()
    }

    /// Drops chosen stones that break the restriction until none does (dropping a stone can
    /// only undo merges, so this ends, with a valid growth, possibly empty).
    pub(crate) fn prune(&self, st: &mut Search) {
        let all = &self.order[..];
        loop {
            self.merge(st, all);
            match self.broken(st, all) {
                Some(lib) => {
                    self.unchoose(st, lib);
                    for &g in self.libs[usize::from(lib)].groups() {
                        st.choice[usize::from(g)] = SKIP;
                    }
                }
                None => return,
            }
        }
    }

    /// Walks every completion of the choices of `order[pos..end]` (a run of whole
    /// components), calling `leaf` at each valid one. Restores `st` before returning.
    pub(crate) fn walk<F>(
        &self,
        st: &mut Search,
        pos: usize,
        end: usize,
        leaf: &mut F,
    ) -> ControlFlow<()>
    where
        F: FnMut(&mut Search) -> ControlFlow<()>,
    {
        if pos == end {
            return leaf(st);
        }
        let g = self.order[pos];
        let gi = usize::from(g);
        if st.choice[gi] != UNSET {
            return self.next(st, pos, end, leaf);
        }
        st.choice[gi] = SKIP;
        let mut flow = self.next(st, pos, end, leaf);
        st.choice[gi] = UNSET;
        if flow.is_break() {
            return flow;
        }
        for &lib in self.libs_of(g) {
            if !self.can_choose(st, lib) {
                continue;
            }
            self.choose(st, lib);
            flow = self.next(st, pos, end, leaf);
            self.unchoose(st, lib);
            if flow.is_break() {
                return flow;
            }
        }
        ControlFlow::Continue(())
    }

    fn next<F>(&self, st: &mut Search, pos: usize, end: usize, leaf: &mut F) -> ControlFlow<()>
    where
        F: FnMut(&mut Search) -> ControlFlow<()>,
    {
        let comp = usize::from(self.comp_of[usize::from(self.order[pos])]);
        if self.comp_start[comp + 1] as usize == pos + 1 && !self.comp_valid(st, comp) {
            return ControlFlow::Continue(());
        }
        self.walk(st, pos + 1, end, leaf)
    }

    /// The `order` range of a component.
    pub(crate) fn comp_range(&self, comp: usize) -> (usize, usize) {
        (
            self.comp_start[comp] as usize,
            self.comp_start[comp + 1] as usize,
        )
    }

    /// The number of valid choices of a component (the empty one included), given the
    /// choices already made in `st`.
    pub(crate) fn comp_count(&self, st: &mut Search, comp: usize) -> u128 {
        let (start, end) = self.comp_range(comp);
        if end - start == 1 && !self.comp_checked[comp] {
            let g = self.order[start];
            if st.choice[usize::from(g)] != UNSET {
                return 1;
            }
            let free = self
                .libs_of(g)
                .iter()
                .filter(|&&l| self.can_choose(st, l))
                .count();
            return 1 + free as u128;
        }
        let mut n = 0u128;
        let _ = self.walk(st, start, end, &mut |_| {
            n += 1;
            ControlFlow::Continue(())
        });
        n
    }

    /// Whether a component has a valid completion of the choices in `st`, with a new stone
    /// in it if `nonempty`.
    pub(crate) fn comp_completes(&self, st: &mut Search, comp: usize, nonempty: bool) -> bool {
        let (start, end) = self.comp_range(comp);
        let base = st.chosen;
        let groups = self.comp_groups(comp);
        let already = groups.iter().any(|&g| st.choice[usize::from(g)] < SKIP);
        self.walk(st, start, end, &mut |st| {
            if !nonempty || already || st.chosen > base {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .is_break()
    }

    /// Whether the choices in `st` can be completed to a legal growth (with at least one
    /// stone).
    ///
    /// Decided by the packings of clusters (`packings`, made from this turn: see
    /// [`Packings::completes`]); by walking the choices only if a component is too wide
    /// for that.
    pub(crate) fn completes(&self, st: &mut Search, packings: &Packings) -> bool {
        packings
            .completes(st)
            .unwrap_or_else(|| self.completes_by_walk(st))
    }

    /// [`Turn::completes`] by walking the choices of each component: exact, but it may try
    /// every completion of a large component before it can say no.
    pub(crate) fn completes_by_walk(&self, st: &mut Search) -> bool {
        let comps = self.components();
        if !(0..comps).all(|c| self.comp_completes(st, c, false)) {
            return false;
        }
        st.chosen > 0 || (0..comps).any(|c| self.comp_completes(st, c, true))
    }

    /// Whether any growth is legal.
    pub(crate) fn has_growth(&self) -> bool {
        let mut st = self.search();
        (0..self.components()).any(|c| self.comp_completes(&mut st, c, true))
    }

    /// The number of legal growths, saturating.
    pub(crate) fn growth_count(&self) -> u128 {
        let mut st = self.search();
        let mut product = 1u128;
        for c in 0..self.components() {
            product = product.saturating_mul(self.comp_count(&mut st, c));
        }
        product - 1
    }

    /// The slots next to `slot` (8-neighbourhood) that are liberties.
    pub(crate) fn libs_around(&self, slot: usize) -> impl Iterator<Item = u16> + '_ {
        self.square
            .king()
            .into_iter()
            .map(move |d| self.lib_of[slot.wrapping_add_signed(d)])
            .filter(|&l| l != NO)
    }

    /// The number of Red's balanced growths: for every new-group cell, the growths that
    /// keep clear of its 8 neighbours.
    pub(crate) fn balanced_count(&self) -> u128 {
        let mut st = self.search();
        let counts: Vec<u128> = (0..self.components())
            .map(|c| self.comp_count(&mut st, c))
            .collect();
        let mut total = 0u128;
        let mut touched: Vec<usize> = Vec::with_capacity(8);
        for &p in &self.placements {
            touched.clear();
            for l in self.libs_around(usize::from(p)) {
                st.forbidden[usize::from(l)] = true;
                let c = usize::from(self.comp_of[usize::from(self.libs[usize::from(l)].owner())]);
                if !touched.contains(&c) {
                    touched.push(c);
                }
            }
            let mut product = 1u128;
            for (c, &n) in counts.iter().enumerate() {
                let n = if touched.contains(&c) {
                    self.comp_count(&mut st, c)
                } else {
                    n
                };
                product = product.saturating_mul(n);
            }
            total = total.saturating_add(product - 1);
            for l in self.libs_around(usize::from(p)) {
                st.forbidden[usize::from(l)] = false;
            }
        }
        total
    }

    /// Whether `slot` has a chosen stone among its 8 neighbours.
    pub(crate) fn near_new_stone(&self, st: &Search, slot: usize) -> bool {
        self.libs_around(slot).any(|l| self.is_chosen(st, l))
    }
}

/// The two cells orthogonally adjacent to both of two diagonal neighbours.
pub(crate) fn between_cells(a: usize, b: usize, stride: usize) -> [usize; 2] {
    let (lo, hi) = (a.min(b), a.max(b));
    // hi = lo + stride + 1 or lo + stride - 1.
    if hi - lo == stride + 1 {
        [lo + 1, lo + stride]
    } else {
        [lo - 1, lo + stride]
    }
}
