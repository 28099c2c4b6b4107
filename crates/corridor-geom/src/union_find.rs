//! Which items are joined? A union–find over `0..n` with path halving ([`UnionFind`]).

/// Disjoint sets over the items `0..n`, each named by its root.
///
/// [`UnionFind::union`] keeps the lower root, so the sets' names (their lowest member
/// once every union is made) do not depend on the order of the unions.
///
/// ```
/// use corridor_geom::UnionFind;
/// let mut sets = UnionFind::new(4);
/// assert!(sets.union(3, 1));
/// assert!(!sets.union(1, 3));
/// assert_eq!(sets.find(3), 1);
/// assert_eq!(sets.find(2), 2);
/// ```
#[derive(Clone, Debug, Default)]
pub struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    /// `n` items, each a set of its own.
    pub fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n as u32).collect(),
        }
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// Adds a new singleton set and returns its element (the previous [`len`](Self::len)).
    pub fn push(&mut self) -> u32 {
        let i = self.parent.len() as u32;
        self.parent.push(i);
        i
    }

    /// The root of `i`'s set, halving the path on the way.
    #[inline]
    pub fn find(&mut self, mut i: u32) -> u32 {
        let parent = &mut self.parent;
        while parent[i as usize] != i {
            parent[i as usize] = parent[parent[i as usize] as usize];
            i = parent[i as usize];
        }
        i
    }

    /// Joins the sets of `a` and `b` under the lower of their roots; false when they were
    /// one set already.
    #[inline]
    pub fn union(&mut self, a: u32, b: u32) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        self.parent[ra.max(rb) as usize] = ra.min(rb);
        true
    }

    /// Hangs the root `child` under the root `root` (for callers that choose the new root
    /// themselves).
    #[inline]
    pub fn link(&mut self, child: u32, root: u32) {
        debug_assert!(self.parent[child as usize] == child && self.parent[root as usize] == root);
        self.parent[child as usize] = root;
    }
}
