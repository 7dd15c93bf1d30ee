//! A union-find over a slice of parents, for the small integer ids the Scware modules use
//! (groups as `u8` in the sampler's fixed arrays, `u16` in a turn, resources as `u32`).

/// An id stored in a parent slice.
pub(crate) trait Id: Copy + Eq {
    /// The id as a slice index.
    fn index(self) -> usize;
}

impl Id for u8 {
    fn index(self) -> usize {
        usize::from(self)
    }
}

impl Id for u16 {
    fn index(self) -> usize {
        usize::from(self)
    }
}

impl Id for u32 {
    fn index(self) -> usize {
        self as usize
    }
}

/// The representative of `x`'s set, halving the path on the way.
pub(crate) fn find<T: Id>(parent: &mut [T], mut x: T) -> T {
    while parent[x.index()] != x {
        let p = parent[parent[x.index()].index()];
        parent[x.index()] = p;
        x = p;
    }
    x
}

/// Joins the sets of `a` and `b`.
pub(crate) fn union<T: Id>(parent: &mut [T], a: T, b: T) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.index()] = rb;
    }
}

#[cfg(test)]
mod tests {
    use super::{find, union};

    #[test]
    fn unions_join_sets_and_nothing_else() {
        let mut parent: Vec<u16> = (0..6).collect();
        union(&mut parent, 0, 1);
        union(&mut parent, 2, 3);
        union(&mut parent, 1, 3);
        let root = find(&mut parent, 0);
        assert!([1, 2, 3].iter().all(|&x| find(&mut parent, x) == root));
        assert_ne!(find(&mut parent, 4), root);
        assert_ne!(find(&mut parent, 4), find(&mut parent, 5));
    }
}
