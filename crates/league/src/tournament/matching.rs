//! Whether a set of players can all be paired: a perfect matching in the graph of allowed
//! games, by Edmonds' blossom algorithm (O(n^3)). The Swiss search asks it before committing
//! to a game, so it never walks into a dead end; simple checks (everyone has someone left,
//! colours can balance) miss obstacles such as three players who can only meet the same two.

/// Whether the `n` vertices (0..n) can be paired off completely when `allowed(a, b)` says
/// which pairs may meet (it must be symmetric).
pub(super) fn has_perfect_matching(n: usize, allowed: impl Fn(usize, usize) -> bool) -> bool {
    if n % 2 == 1 {
        return false;
    }
    let neighbours: Vec<Vec<usize>> = (0..n)
        .map(|a| (0..n).filter(|&b| b != a && allowed(a, b)).collect())
        .collect();
    let mut graph = Blossom {
        neighbours,
        mate: vec![None; n],
        parent: vec![None; n],
        base: (0..n).collect(),
        used: vec![false; n],
        in_blossom: vec![false; n],
        queue: Vec::with_capacity(n),
    };
    // A greedy start leaves the search few vertices to augment from.
    for a in 0..n {
        if graph.mate[a].is_none()
            && let Some(&b) = graph.neighbours[a]
                .iter()
                .find(|&&b| graph.mate[b].is_none())
        {
            graph.mate[a] = Some(b);
            graph.mate[b] = Some(a);
        }
    }
    for root in 0..n {
        if graph.mate[root].is_none() {
            match graph.augmenting_path_end(root) {
                Some(end) => graph.augment(end),
                None => return false,
            }
        }
    }
    true
}

struct Blossom {
    neighbours: Vec<Vec<usize>>,
    mate: Vec<Option<usize>>,
    /// The tree edge into an outer vertex's mate, per search.
    parent: Vec<Option<usize>>,
    /// Each vertex's blossom base.
    base: Vec<usize>,
    /// Vertices in the search tree as outer (even) vertices.
    used: Vec<bool>,
    in_blossom: Vec<bool>,
    queue: Vec<usize>,
}

impl Blossom {
    /// The lowest common ancestor of `a` and `b`'s blossoms in the alternating tree.
    fn common_base(&self, mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.base.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            match self.mate[a].and_then(|m| self.parent[m]) {
                Some(next) => a = next,
                None => break,
            }
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.mate[b].and_then(|m| self.parent[m]).unwrap_or(b);
        }
    }

    /// Marks the blossom's vertices from `v` down to `base`, re-parenting on the way.
    fn mark_path(&mut self, mut v: usize, base: usize, mut child: usize) {
        while self.base[v] != base {
            let mate = self.mate[v].unwrap_or(v);
            self.in_blossom[self.base[v]] = true;
            self.in_blossom[self.base[mate]] = true;
            self.parent[v] = Some(child);
            child = mate;
            v = self.parent[mate].unwrap_or(base);
        }
    }

    /// Grows an alternating tree from the unmatched `root`; the unmatched vertex it reaches.
    fn augmenting_path_end(&mut self, root: usize) -> Option<usize> {
        let n = self.base.len();
        self.used.fill(false);
        self.parent.fill(None);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.used[root] = true;
        self.queue.clear();
        self.queue.push(root);
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            for index in 0..self.neighbours[v].len() {
                let to = self.neighbours[v][index];
                if self.base[v] == self.base[to] || self.mate[v] == Some(to) {
                    continue;
                }
                let to_is_outer =
                    to == root || self.mate[to].is_some_and(|m| self.parent[m].is_some());
                if to_is_outer {
                    let base = self.common_base(v, to);
                    self.in_blossom.fill(false);
                    self.mark_path(v, base, to);
                    self.mark_path(to, base, v);
                    for i in 0..n {
                        if self.in_blossom[self.base[i]] {
                            self.base[i] = base;
                            if !self.used[i] {
                                self.used[i] = true;
                                self.queue.push(i);
                            }
                        }
                    }
                } else if self.parent[to].is_none() {
                    self.parent[to] = Some(v);
                    match self.mate[to] {
                        None => return Some(to),
                        Some(next) => {
                            self.used[next] = true;
                            self.queue.push(next);
                        }
                    }
                }
            }
        }
        None
    }

    /// Flips the matching along the path ending at `v`.
    fn augment(&mut self, mut v: usize) {
        while let Some(pv) = self.parent[v] {
            let next = self.mate[pv];
            self.mate[v] = Some(pv);
            self.mate[pv] = Some(v);
            match next {
                Some(next) => v = next,
                None => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::has_perfect_matching;

    /// Every graph on up to 8 vertices given by a seeded pseudo-random edge set, against
    /// trying every pairing.
    #[test]
    fn agrees_with_trying_every_pairing() {
        fn brute(vertices: &[usize], edge: &dyn Fn(usize, usize) -> bool) -> bool {
            let Some((&a, rest)) = vertices.split_first() else {
                return true;
            };
            rest.iter().any(|&b| {
                let left: Vec<usize> = rest.iter().copied().filter(|&v| v != b).collect();
                edge(a, b) && brute(&left, edge)
            })
        }
        let mut state = 0x2026_u64;
        let mut disagreements = 0;
        let mut perfect = 0;
        for _ in 0..4000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let n = 2 * (1 + (state >> 60) as usize % 4);
            let density = (state >> 32) % 100;
            let bits = state.rotate_left(17) ^ state;
            let edge = |a: usize, b: usize| {
                let (a, b) = (a.min(b), a.max(b));
                let h = bits.wrapping_mul((a * 8 + b + 1) as u64).rotate_left(23) % 100;
                h < density
            };
            let vertices: Vec<usize> = (0..n).collect();
            let expected = brute(&vertices, &edge);
            perfect += usize::from(expected);
            if has_perfect_matching(n, edge) != expected {
                disagreements += 1;
            }
        }
        assert_eq!(disagreements, 0);
        assert!(
            perfect > 500 && perfect < 3500,
            "both answers are exercised: {perfect}"
        );
    }

    #[test]
    fn a_blossom_is_handled() {
        // A triangle 0-1-2 with a tail 2-3 and 0-4, 4-5: the triangle must be entered.
        let edges = [(0, 1), (1, 2), (2, 0), (2, 3), (0, 4), (4, 5)];
        let edge = |a: usize, b: usize| edges.contains(&(a, b)) || edges.contains(&(b, a));
        assert!(has_perfect_matching(6, edge));
        // Two triangles joined by nothing: no perfect matching.
        let apart = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)];
        assert!(!has_perfect_matching(6, |a, b| apart.contains(&(a, b)) || apart.contains(&(b, a))));
        assert!(!has_perfect_matching(3, |_, _| true));
    }
}
