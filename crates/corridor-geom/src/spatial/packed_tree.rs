//! Which of a fixed set of boxes meet a query box? A static R-tree packed in Hilbert
//! order: one sort of the entries' keys, no partitioning; queries walk it level by level.

use super::boxes::{boxes_meet, union, union_of_numbers, EMPTY_BOX};
use crate::radix::{insertion_sort, radix_sort_by_key, Digit};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Children per node of the packed tree.
const NODE: usize = 16;

/// A static R-tree packed in Hilbert order (the layout of the `flatbush` library): the
/// entries sorted by the Hilbert index of their box centres, then grouped `NODE` at a
/// time, level by level, up to one root.
///
/// Why it exists: a set of boxes known all at once (the cell pieces of a freshly built
/// ECM, a level of a [`LogIndex`](crate::LogIndex)) is bulk-loaded with one sort and no
/// node splits, stored in three flat vectors, and queried without allocating; much
/// cheaper to build and to walk than an R* tree filled one box at a time. It never
/// changes after [`PackedTree::new`]: for insertions and removals, see
/// [`LogIndex`](crate::LogIndex). Boxes are `[min x, min y, max x, max y]` (see
/// [`boxes`](crate::boxes)); entries are reported by their index in the input.
///
/// ```
/// use corridor_geom::PackedTree;
/// let boxes = [[0.0, 0.0, 1.0, 1.0], [2.0, 2.0, 3.0, 3.0], [0.5, 0.5, 2.5, 2.5]];
/// let tree = PackedTree::new(&boxes);
/// let mut found: Vec<u32> = tree.meeting([0.9, 0.9, 1.1, 1.1]).collect();
/// found.sort_unstable();
/// assert_eq!(found, [0, 2]);
/// assert_eq!(tree.meeting([5.0, 5.0, 6.0, 6.0]).count(), 0);
/// ```
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct PackedTree {
    /// Boxes `[min x, min y, max x, max y]`: the leaves in Hilbert order, then each level
    /// of parents, the root last.
    pub(super) boxes: Vec<[f64; 4]>,
    /// Per box: for a leaf, the entry's index; for a parent, where its children start in
    /// `boxes` (they run to the next parent's first child or the end of their level).
    pub(super) links: Vec<u32>,
    /// The end of each level in `boxes`, leaves first.
    pub(super) level_ends: Vec<u32>,
}

impl PackedTree {
    /// The tree of `entries` (boxes `[min x, min y, max x, max y]` without NaN), which
    /// queries report by their index in `entries`.
    pub fn new(entries: &[[f64; 4]]) -> Self {
        Self::with_extent(entries, entries.iter().fold(EMPTY_BOX, |e, &b| union(e, b)))
    }

    /// [`PackedTree::new`] given the box of all entries' boxes (their [`union`], folded in
    /// order from [`EMPTY_BOX`]; a zero of either sign where the fold has one gives the
    /// same keys, hence the same tree).
    pub fn with_extent(entries: &[[f64; 4]], extent: [f64; 4]) -> Self {
        let n = entries.len();
        if n == 0 {
            return PackedTree::default();
        }
        let keys = sorted_keys(entries, extent);
        let mut boxes = Vec::with_capacity(PackedTree::boxes_for(n));
        let mut links = Vec::with_capacity(PackedTree::boxes_for(n));
        boxes.extend(keys.iter().map(|&k| entries[key_index(k)]));
        links.extend(keys.iter().map(|&k| key_index(k) as u32));
        drop(keys);
        PackedTree::over_leaves(boxes, links)
    }

    /// [`PackedTree::with_extent`] taking the entries by value: they are put in the
    /// leaves' order in place and become the tree's boxes, so that building a large tree
    /// holds no second copy of its boxes (only the sort keys, a quarter of their size).
    /// Give `entries` a capacity of [`PackedTree::boxes_for`] their number, or the parents
    /// grow the vector. The tree is the one [`PackedTree::with_extent`] builds.
    ///
    /// ```
    /// use corridor_geom::boxes::{union, EMPTY_BOX};
    /// use corridor_geom::PackedTree;
    /// let boxes = [[0.0, 0.0, 1.0, 1.0], [2.0, 2.0, 3.0, 3.0], [0.5, 0.5, 2.5, 2.5]];
    /// let extent = boxes.iter().fold(EMPTY_BOX, |e, &b| union(e, b));
    /// let mut owned = Vec::with_capacity(PackedTree::boxes_for(boxes.len()));
    /// owned.extend_from_slice(&boxes);
    /// let tree = PackedTree::from_entries(owned, extent);
    /// let mut found: Vec<u32> = tree.meeting([0.9, 0.9, 1.1, 1.1]).collect();
    /// found.sort_unstable();
    /// assert_eq!(found, [0, 2]);
    /// ```
    pub fn from_entries(mut entries: Vec<[f64; 4]>, extent: [f64; 4]) -> Self {
        let n = entries.len();
        if n == 0 {
            return PackedTree::default();
        }
        let keys = sorted_keys(&entries, extent);
        let mut links = Vec::with_capacity(PackedTree::boxes_for(n));
        links.extend(keys.iter().map(|&k| key_index(k) as u32));
        drop(keys);
        // Leaf `i` takes entry `links[i]`: follow each cycle of that permutation, moving
        // every box once (the first box of a cycle waits in `first`).
        let mut placed = vec![false; n];
        for start in 0..n {
            if placed[start] {
                continue;
            }
            let first = entries[start];
            let mut i = start;
            loop {
                placed[i] = true;
                let from = links[i] as usize;
                if from == start {
                    entries[i] = first;
                    break;
                }
                entries[i] = entries[from];
                i = from;
            }
        }
        drop(placed);
        entries.reserve_exact(PackedTree::boxes_for(n) - n);
        PackedTree::over_leaves(entries, links)
    }

    /// The tree [`PackedTree::new`] built over `entries`, given its leaf order (`links[i]`
    /// is the entry of leaf `i`, as the tree reports it): rebuilds the parents without
    /// sorting, for a loader that saved the order. `None` unless `links` is a permutation
    /// of the entries' indices.
    ///
    /// ```
    /// use corridor_geom::PackedTree;
    /// let boxes = [[0.0, 0.0, 1.0, 1.0], [2.0, 2.0, 3.0, 3.0], [0.5, 0.5, 2.5, 2.5]];
    /// let tree = PackedTree::new(&boxes);
    /// let order: Vec<u32> = tree.leaves().map(|(_, i)| i).collect();
    /// let again = PackedTree::from_leaf_order(&boxes, order).unwrap();
    /// assert_eq!(format!("{again:?}"), format!("{tree:?}"));
    /// assert!(PackedTree::from_leaf_order(&boxes, vec![0, 0, 1]).is_none());
    /// ```
    pub fn from_leaf_order(entries: &[[f64; 4]], mut links: Vec<u32>) -> Option<Self> {
        let n = entries.len();
        if links.len() != n {
            return None;
        }
        let mut seen = vec![false; n];
        for &l in &links {
            if std::mem::replace(seen.get_mut(l as usize)?, true) {
                return None;
            }
        }
        drop(seen);
        let mut boxes = Vec::with_capacity(PackedTree::boxes_for(n));
        boxes.extend(links.iter().map(|&l| entries[l as usize]));
        links.reserve_exact(PackedTree::boxes_for(n) - n);
        Some(PackedTree::over_leaves(boxes, links))
    }

    /// How many boxes the tree of `n` entries holds: the leaves and every level of
    /// parents above them.
    ///
    /// ```
    /// use corridor_geom::PackedTree;
    /// assert_eq!(PackedTree::boxes_for(0), 0);
    /// assert_eq!(PackedTree::boxes_for(1), 1);
    /// assert_eq!(PackedTree::boxes_for(17), 17 + 2 + 1);
    /// assert_eq!(PackedTree::new(&vec![[0.0; 4]; 17]).len_boxes(), 20);
    /// ```
    pub fn boxes_for(n: usize) -> usize {
        let (mut size, mut total) = (n, n);
        while size > 1 {
            size = size.div_ceil(NODE);
            total += size;
        }
        total
    }

    /// Number of boxes in the tree (leaves and parents; see [`PackedTree::boxes_for`]).
    pub fn len_boxes(&self) -> usize {
        self.boxes.len()
    }

    /// The tree over leaves already in Hilbert order (`boxes`, with each leaf's entry
    /// index in `links`): adds the levels of parents, `NODE` children each.
    fn over_leaves(mut boxes: Vec<[f64; 4]>, mut links: Vec<u32>) -> Self {
        let n = boxes.len();
        let mut level_ends = Vec::new();
        level_ends.push(n as u32);
        let mut start = 0;
        while boxes.len() - start > 1 {
            let end = boxes.len();
            for first in (start..end).step_by(NODE) {
                let b = boxes[first + 1..(first + NODE).min(end)]
                    .iter()
                    .fold(boxes[first], |b, &c| union_of_numbers(b, c));
                boxes.push(b);
                links.push(first as u32);
            }
            level_ends.push(boxes.len() as u32);
            start = end;
        }
        PackedTree {
            boxes,
            links,
            level_ends,
        }
    }

    /// The entries whose boxes meet `query` (closed boxes: touching counts), by their
    /// index in the entries the tree was built from, in no particular order, without
    /// allocating.
    #[inline]
    pub fn meeting(&self, query: [f64; 4]) -> BoxesWhere<'_, impl FnMut(&[f64; 4]) -> bool> {
        self.boxes_where(move |b: &[f64; 4]| boxes_meet(*b, query))
    }

    /// The entries whose boxes pass `keep`, found by a walk that opens only the parents
    /// whose boxes pass it too: `keep` must pass every box holding a box it passes (such
    /// as "meets this box" or "comes within this distance of a point"), or entries are
    /// missed. Same order and no allocation as [`PackedTree::meeting`].
    ///
    /// ```
    /// use corridor_geom::PackedTree;
    /// let boxes = [[0.0, 0.0, 1.0, 1.0], [3.0, 3.0, 4.0, 4.0]];
    /// let tree = PackedTree::new(&boxes);
    /// // Within 2 of the point (2, 0): the first box only.
    /// let near = |b: &[f64; 4]| {
    ///     let dx = (b[0] - 2.0).max(2.0 - b[2]).max(0.0);
    ///     let dy = (b[1] - 0.0).max(0.0 - b[3]).max(0.0);
    ///     dx * dx + dy * dy <= 4.0
    /// };
    /// assert_eq!(tree.boxes_where(near).collect::<Vec<_>>(), [0]);
    /// ```
    #[inline]
    pub fn boxes_where<F: FnMut(&[f64; 4]) -> bool>(&self, keep: F) -> BoxesWhere<'_, F> {
        let levels = self.level_ends.len();
        let root = self.level_ends.last().map_or(0, |&end| end as usize - 1);
        BoxesWhere {
            tree: self,
            keep,
            node: root,
            level: levels.saturating_sub(1),
            start: root,
            group_end: root + 1,
            done: levels == 0,
        }
    }

    /// Whether the tree has exactly the shape [`PackedTree::new`] gives (level sizes,
    /// links, each parent the union of its children, no NaN): what a query walk relies
    /// on, so that a tree read from untrusted bytes either passes or is refused before a
    /// query indexes out of range or misses an entry. Returns what is wrong.
    ///
    /// ```
    /// use corridor_geom::PackedTree;
    /// let tree = PackedTree::new(&[[0.0, 0.0, 1.0, 1.0], [2.0, 2.0, 3.0, 3.0]]);
    /// assert!(tree.check_shape().is_ok());
    /// assert!(PackedTree::default().check_shape().is_ok());
    /// ```
    pub fn check_shape(&self) -> Result<(), &'static str> {
        let total = self.boxes.len();
        if self.links.len() != total {
            return Err("packed tree: links and boxes differ in number");
        }
        let Some(&n) = self.level_ends.first() else {
            return if total == 0 {
                Ok(())
            } else {
                Err("packed tree: boxes without levels")
            };
        };
        let n = n as usize;
        // The level ends `new` makes for `n` entries.
        let (mut size, mut end, mut level) = (n, n, 0);
        loop {
            if self.level_ends.get(level).map(|&e| e as usize) != Some(end) || n == 0 {
                return Err("packed tree: levels of the wrong size");
            }
            if size <= 1 {
                break;
            }
            size = size.div_ceil(NODE);
            end += size;
            level += 1;
        }
        if self.level_ends.len() != level + 1 || end != total {
            return Err("packed tree: levels of the wrong size");
        }
        let mut seen = vec![false; n];
        for (b, &link) in self.boxes[..n].iter().zip(&self.links) {
            if b.iter().any(|v| v.is_nan()) || b[0] > b[2] || b[1] > b[3] {
                return Err("packed tree: a leaf box is NaN or turned over");
            }
            match seen.get_mut(link as usize) {
                Some(s) if !*s => *s = true,
                _ => return Err("packed tree: leaves do not name each entry once"),
            }
        }
        for level in 1..self.level_ends.len() {
            let below = self.level_start(level - 1);
            let below_end = self.level_ends[level - 1] as usize;
            for (k, node) in (self.level_start(level)..self.level_ends[level] as usize).enumerate()
            {
                let first = below + k * NODE;
                let children = &self.boxes[first..(first + NODE).min(below_end)];
                let union = children[1..]
                    .iter()
                    .fold(children[0], |b, &c| union_of_numbers(b, c));
                if self.links[node] as usize != first || self.boxes[node] != union {
                    return Err("packed tree: a parent is not the box of its children");
                }
            }
        }
        Ok(())
    }

    /// The leaves: each entry's box with the index it was given as, in the tree's order.
    pub fn leaves(&self) -> impl Iterator<Item = ([f64; 4], u32)> + '_ {
        let n = self.level_ends.first().map_or(0, |&n| n as usize);
        self.boxes[..n]
            .iter()
            .copied()
            .zip(self.links.iter().copied())
    }

    /// Where level `level` starts in `boxes`.
    #[inline]
    fn level_start(&self, level: usize) -> usize {
        if level == 0 {
            0
        } else {
            self.level_ends[level - 1] as usize
        }
    }
}

/// The entries' sort keys in the leaves' order: the Hilbert position of each box's
/// centre (16 bits per axis over `extent`) in the high 32 bits, the entry's index in the
/// low ones.
fn sorted_keys(entries: &[[f64; 4]], extent: [f64; 4]) -> Vec<u64> {
    let scale = |lo: f64, hi: f64| if hi > lo { 65535.0 / (hi - lo) } else { 0.0 };
    let (sx, sy) = (scale(extent[0], extent[2]), scale(extent[1], extent[3]));
    let mut keys: Vec<u64> = entries
        .iter()
        .enumerate()
        .map(|(i, b)| {
            // Centres as 16-bit cell numbers (the casts saturate; NaN-free boxes).
            let x = ((0.5 * (b[0] + b[2]) - extent[0]) * sx) as u32;
            let y = ((0.5 * (b[1] + b[3]) - extent[1]) * sy) as u32;
            (u64::from(hilbert(x.min(65535), y.min(65535))) << 32) | i as u64
        })
        .collect();
    sort_keys(&mut keys);
    keys
}

/// The entry index in a key of [`sorted_keys`].
fn key_index(key: u64) -> usize {
    (key & u64::from(u32::MAX)) as usize
}

/// Sorts the keys of [`PackedTree::new`] (a Hilbert position in the high 32 bits, the
/// entry's index in the low ones, indices `0..n` in increasing order) into increasing
/// order, the order `sort_unstable` gives (the keys are distinct). From 64 keys up: one
/// counting pass and one scatter by the top `log2 n` bits of the keys (about one or two
/// keys per bucket: the positions spread along the curve over the box of all boxes),
/// then each bucket sorted on its own (by insertion up to 16 keys, by `sort_unstable`
/// above, so that keys bunched in a few buckets cost no more than a comparison sort).
/// At a few thousand keys this takes about half the instructions of a stable radix sort
/// of the positions (three digits of 11, 11 and 10 bits, one counting pass for all
/// three), whose counts and passes are mostly overhead there; from [`BUCKETS_UP_TO`] keys
/// up the radix sort is used (it keeps equal positions in index order, so it gives the
/// same order): with one bucket per key, the buckets' counts and the zeroed buffers cost
/// more than its passes (Aurora.map, 70,530 keys: +0.56 M instructions).
fn sort_keys(keys: &mut Vec<u64>) {
    let n = keys.len();
    if n < 64 {
        keys.sort_unstable();
        return;
    }
    if n >= BUCKETS_UP_TO {
        debug_assert!(keys.windows(2).all(|w| (w[0] as u32) < (w[1] as u32)));
        const DIGITS: [Digit; 3] = [Digit::new(32, 11), Digit::new(43, 11), Digit::new(54, 10)];
        radix_sort_by_key(keys, &DIGITS[..], |&k| k);
        return;
    }
    let bits = usize::BITS - 1 - n.leading_zeros();
    let shift = u64::BITS - bits;
    // Per bucket: its size, then where it starts, then (after the scatter) where it ends.
    let mut next = vec![0u32; 1 << bits];
    for &k in keys.iter() {
        next[(k >> shift) as usize] += 1;
    }
    let mut start = 0;
    for c in next.iter_mut() {
        (*c, start) = (start, start + *c);
    }
    let mut sorted = vec![0u64; n];
    for &k in keys.iter() {
        let slot = &mut next[(k >> shift) as usize];
        sorted[*slot as usize] = k;
        *slot += 1;
    }
    let mut begin = 0;
    for &end in &next {
        let bucket = &mut sorted[begin..end as usize];
        begin = end as usize;
        if bucket.len() > 16 {
            bucket.sort_unstable();
        } else {
            insertion_sort(bucket, u64::cmp);
        }
    }
    *keys = sorted;
}

/// From this many keys up [`sort_keys`] sorts by radix instead of by buckets.
const BUCKETS_UP_TO: usize = 1 << 14;

/// A query's walk down a [`PackedTree`] ([`PackedTree::meeting`],
/// [`PackedTree::boxes_where`]), depth first and without a stack: the tree is implicit (the children of the `k`-th node of a level are the nodes `k NODE ..` of the
/// level below, up to `NODE` of them), so the walk is a node, its level and the end of its
/// group of siblings, and going up is a division.
pub struct BoxesWhere<'a, F> {
    tree: &'a PackedTree,
    /// Which boxes the walk keeps (and which parents it opens).
    keep: F,
    /// The node to look at next, and its level (0: the leaves).
    node: usize,
    level: usize,
    /// Where `level` starts in the tree's boxes.
    start: usize,
    /// The end of `node`'s group of siblings.
    group_end: usize,
    done: bool,
}

impl<F> BoxesWhere<'_, F> {
    /// Moves to the next sibling of the current node, or to the next sibling of the
    /// nearest ancestor that has one; ends the walk when there is none.
    #[inline]
    fn advance(&mut self) {
        self.node += 1;
        if self.node < self.group_end {
            return;
        }
        let tree = self.tree;
        let top = tree.level_ends.len() - 1;
        loop {
            if self.level == top {
                self.done = true;
                return;
            }
            // Up to the parent of the group's last node, then on to the parent's next
            // sibling.
            let above = tree.level_ends[self.level] as usize;
            let parent = above + (self.node - 1 - self.start) / NODE;
            self.level += 1;
            self.start = above;
            let first = above + (parent - above) / NODE * NODE;
            self.group_end = (first + NODE).min(tree.level_ends[self.level] as usize);
            self.node = parent + 1;
            if self.node < self.group_end {
                return;
            }
        }
    }
}

impl<F: FnMut(&[f64; 4]) -> bool> Iterator for BoxesWhere<'_, F> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        let tree = self.tree;
        while !self.done {
            let c = self.node;
            if (self.keep)(&tree.boxes[c]) {
                if self.level > 0 {
                    // Down to the first child.
                    let below = tree.level_start(self.level - 1);
                    let first = below + (c - self.start) * NODE;
                    self.level -= 1;
                    self.start = below;
                    self.node = first;
                    self.group_end = (first + NODE).min(tree.level_ends[self.level] as usize);
                    continue;
                }
                self.advance();
                return Some(tree.links[c]);
            }
            self.advance();
        }
        None
    }
}

/// The position of cell `(x, y)` (16 bits each) along a Hilbert curve over the 2¹⁶ × 2¹⁶
/// cells, so that entries close in the order lie close in the plane: the curve of the
/// `flatbush` library. Four look-ups in [`HILBERT_TABLE`], four bits of each coordinate
/// at a time: a third of the instructions of the branch-free bit arithmetic it replaces
/// (kept for the tests as `hilbert_bits`, which it equals on every cell tried).
fn hilbert(x: u32, y: u32) -> u32 {
    let mut state = 0;
    let mut d = 0;
    for shift in [12, 8, 4, 0] {
        let cell = (((x >> shift) & 15) << 4) | ((y >> shift) & 15);
        let e = HILBERT_TABLE[(state << 8) | cell as usize];
        d = (d << 8) | u32::from(e & 0xFF);
        state = usize::from(e >> 8);
    }
    d
}

/// The Hilbert curve of [`hilbert`] as a state machine read four levels at a time: entry
/// `state << 8 | x << 4 | y` (`x`, `y` four bits of the coordinates, highest levels first)
/// holds the curve's eight bits for them and, above, the state for the next four levels.
/// A state is how the sub-square is turned: bit 0 swaps x and y, bit 1 mirrors both. One
/// level takes the quadrant's bits `(rx, ry)` (after the turn) to the digit `3 rx ^ ry`,
/// and a quadrant with `ry == 0` turns its sub-square: swapped, and mirrored too if `rx ==
/// 1` (the usual `xy2d` of a Hilbert curve).
const HILBERT_TABLE: [u16; 1024] = hilbert_table();

const fn hilbert_table() -> [u16; 1024] {
    let mut table = [0u16; 1024];
    let mut i = 0;
    while i < 1024 {
        let mut state = i >> 8;
        let (x, y) = ((i >> 4) & 15, i & 15);
        let mut digits = 0;
        let mut level = 4;
        while level > 0 {
            level -= 1;
            let (mut rx, mut ry) = ((x >> level) & 1, (y >> level) & 1);
            if state & 2 != 0 {
                rx ^= 1;
                ry ^= 1;
            }
            if state & 1 != 0 {
                let t = rx;
                rx = ry;
                ry = t;
            }
            digits = (digits << 2) | ((3 * rx) ^ ry);
            if ry == 0 {
                if rx == 1 {
                    state ^= 2;
                }
                state ^= 1;
            }
        }
        table[i] = (digits | (state << 8)) as u16;
        i += 1;
    }
    table
}

/// [`hilbert`] by branch-free bit arithmetic (the form used by the `flatbush` library,
/// after "Fast Hilbert curve generation" by rawrunprotected), as the index computed it up
/// to session 16: the reference the table is tested against.
#[cfg(test)]
fn hilbert_bits(x: u32, y: u32) -> u32 {
    let mut a = x ^ y;
    let mut b = 0xFFFF ^ a;
    let mut c = 0xFFFF ^ (x | y);
    let mut d = x & (y ^ 0xFFFF);

    let mut aa = a | (b >> 1);
    let mut bb = (a >> 1) ^ a;
    let mut cc = ((c >> 1) ^ (b & (d >> 1))) ^ c;
    let mut dd = ((a & (c >> 1)) ^ (d >> 1)) ^ d;

    (a, b, c, d) = (aa, bb, cc, dd);
    aa = (a & (a >> 2)) ^ (b & (b >> 2));
    bb = (a & (b >> 2)) ^ (b & ((a ^ b) >> 2));
    cc ^= (a & (c >> 2)) ^ (b & (d >> 2));
    dd ^= (b & (c >> 2)) ^ ((a ^ b) & (d >> 2));

    (a, b, c, d) = (aa, bb, cc, dd);
    aa = (a & (a >> 4)) ^ (b & (b >> 4));
    bb = (a & (b >> 4)) ^ (b & ((a ^ b) >> 4));
    cc ^= (a & (c >> 4)) ^ (b & (d >> 4));
    dd ^= (b & (c >> 4)) ^ ((a ^ b) & (d >> 4));

    (a, b, c, d) = (aa, bb, cc, dd);
    cc ^= (a & (c >> 8)) ^ (b & (d >> 8));
    dd ^= (b & (c >> 8)) ^ ((a ^ b) & (d >> 8));

    a = cc ^ (cc >> 1);
    b = dd ^ (dd >> 1);
    let spread = |mut v: u32| {
        v = (v | (v << 8)) & 0x00FF_00FF;
        v = (v | (v << 4)) & 0x0F0F_0F0F;
        v = (v | (v << 2)) & 0x3333_3333;
        (v | (v << 1)) & 0x5555_5555
    };
    let i0 = x ^ y;
    let i1 = b | (0xFFFF ^ (i0 | a));
    (spread(i1) << 1) | spread(i0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn hilbert_walks_the_corner_square_cell_by_cell() {
        // The first 4⁸ positions of the curve fill the 256 × 256 corner square, each
        // step to a neighbouring cell.
        let mut at = vec![None; 1 << 16];
        for x in 0..256 {
            for y in 0..256 {
                let d = hilbert(x, y) as usize;
                assert!(d < at.len(), "({x}, {y}) at {d}");
                assert!(at[d].is_none(), "({x}, {y}) and {:?} both at {d}", at[d]);
                at[d] = Some((x, y));
            }
        }
        for w in at.windows(2) {
            let ((x0, y0), (x1, y1)) = (w[0].unwrap(), w[1].unwrap());
            assert_eq!(x0.abs_diff(x1) + y0.abs_diff(y1), 1, "{w:?}");
        }
        assert_eq!(hilbert(0xFFFF, 0), u32::MAX);
    }

    #[test]
    fn hilbert_table_is_the_bit_arithmetic_curve() {
        for x in 0..256 {
            for y in 0..256 {
                for (x, y) in [(x, y), (x << 8 | y, y << 8 | x), (x << 8 | 0xFF, y << 8)] {
                    assert_eq!(hilbert(x, y), hilbert_bits(x, y), "({x}, {y})");
                }
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..200_000 {
            let (x, y) = (rng.random_range(0..65536), rng.random_range(0..65536));
            assert_eq!(hilbert(x, y), hilbert_bits(x, y), "({x}, {y})");
        }
    }

    #[test]
    fn sort_keys_orders_like_the_comparison_sort() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for n in [
            0, 1, 63, 64, 65, 1023, 1024, 1025, 5000, 16_383, 16_384, 70_000,
        ] {
            for spread in [0u32, 1, 2047, 1 << 22, u32::MAX] {
                let keys: Vec<u64> = (0..n)
                    .map(|i| {
                        let h = if spread == u32::MAX {
                            rng.random::<u32>()
                        } else {
                            rng.random_range(0..=spread)
                        };
                        (u64::from(h) << 32) | i as u64
                    })
                    .collect();
                let mut expected = keys.clone();
                expected.sort_unstable();
                let mut sorted = keys;
                sort_keys(&mut sorted);
                assert_eq!(sorted, expected, "{n} keys, spread {spread}");
            }
        }
    }

    #[test]
    fn from_entries_builds_the_tree_with_extent_builds() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for n in [0, 1, 2, 15, 16, 17, 255, 256, 257, 3000, 20_000] {
            let boxes: Vec<[f64; 4]> = (0..n)
                .map(|_| {
                    let (x, y): (f64, f64) =
                        (rng.random_range(-50.0..50.0), rng.random_range(-50.0..50.0));
                    // Some centres coincide (equal keys, ordered by index).
                    let (x, y) = if rng.random::<bool>() {
                        (x.round(), y.round())
                    } else {
                        (x, y)
                    };
                    [x, y, x + rng.random::<f64>(), y + rng.random::<f64>()]
                })
                .collect();
            let extent = boxes.iter().fold(EMPTY_BOX, |e, &b| union(e, b));
            let expected = PackedTree::with_extent(&boxes, extent);
            let mut owned = Vec::with_capacity(PackedTree::boxes_for(n));
            owned.extend_from_slice(&boxes);
            let at = owned.as_ptr();
            let tree = PackedTree::from_entries(owned, extent);
            assert_eq!(tree.boxes, expected.boxes, "{n} boxes");
            assert_eq!(tree.links, expected.links, "{n} boxes");
            assert_eq!(tree.level_ends, expected.level_ends, "{n} boxes");
            if n > 0 {
                // The entries became the tree's boxes, with no copy.
                assert_eq!(tree.boxes.as_ptr(), at, "{n} boxes");
            }
            assert_eq!(tree.len_boxes(), PackedTree::boxes_for(n));
            assert!(tree.check_shape().is_ok());
        }
    }

    #[test]
    fn packed_tree_finds_exactly_the_boxes_meeting_a_query() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for n in [0, 1, 2, 15, 16, 17, 255, 256, 257, 3000] {
            let mut random_box = |size: f64| {
                let (x, y) = (
                    rng.random_range(-100.0..100.0),
                    rng.random_range(-100.0..100.0),
                );
                let (w, h) = (rng.random::<f64>() * size, rng.random::<f64>() * size);
                // Some boxes are points or share coordinates with others.
                let snap = |v: f64| if n % 2 == 0 { v.round() } else { v };
                [snap(x), snap(y), snap(x + w), snap(y + h)]
            };
            let boxes: Vec<[f64; 4]> = (0..n).map(|_| random_box(20.0)).collect();
            let tree = PackedTree::new(&boxes);
            for q in 0..200 {
                let query = if q % 4 == 0 {
                    let b = boxes.get(q % n.max(1)).copied().unwrap_or_default();
                    [b[0], b[1], b[0], b[1]]
                } else {
                    random_box(if q % 3 == 0 { 0.0 } else { 60.0 })
                };
                let mut found: Vec<u32> = tree.meeting(query).collect();
                found.sort_unstable();
                let expected: Vec<u32> = (0..n as u32)
                    .filter(|&i| boxes_meet(boxes[i as usize], query))
                    .collect();
                assert_eq!(found, expected, "{n} boxes, query {query:?}");
            }
        }
    }
}
