//! Which ECM cell contains a point: an R-tree over the cell pieces.

use crate::graph::{cell_piece, BendingPoint, Ecm, Edge, EdgeId, Side};
use corridor_geom::radix::{radix_sort_by_key, Digit};
use corridor_geom::Point;
use rstar::AABB;
use serde::{Deserialize, Serialize};
use slotmap::SlotMap;

/// One ECM cell piece: the part of an edge side between bending points `piece` and
/// `piece + 1` (see [`Edge::cell_pieces`]).
///
/// Cell references are ordered by edge id, then side, then piece index: [`Ecm::locate`]
/// answers the smallest piece that holds the point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CellRef {
    /// The edge.
    pub edge: EdgeId,
    /// Which side of it.
    pub side: Side,
    /// Index of the first bending point of the piece.
    pub piece: u32,
}

/// One index entry: the cell pieces `first..first + count` of one edge side, under the
/// box of their boxes. Indexing runs of pieces instead of single pieces makes the tree
/// about four times smaller (and its bulk load that much cheaper); lookups refine a run
/// into its pieces (see [`CellIndex::pieces_meeting`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct PieceRun {
    edge: EdgeId,
    side: Side,
    first: u32,
    count: u32,
}

/// Point location in the ECM cells (built once per ECM, saved with it).
///
/// The runs of a build sit in a static R-tree packed in Hilbert order (one sort, no
/// partitioning: a fifth of the instructions of a bulk-loaded `rstar` tree on Aurora).
/// Dynamic updates remove runs by marking them dead and add new runs to a
/// [`LogIndex`] beside it (a short unsorted tail, packed into more small trees as it
/// fills), so an update never rebuilds the large tree. Which pieces a query reports does
/// not depend on how the runs are split among the trees; their order does, and
/// [`Ecm::locate`] does not depend on the order.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CellIndex {
    /// The runs: those of the build in the first packed level, those of updates after.
    runs: LogIndex<PieceRun>,
    /// Number of indexed cell pieces (the live runs' counts added up).
    pieces: usize,
}

impl CellIndex {
    // Out of line (one call per build) so that profiles show it apart from validation.
    #[inline(never)]
    pub(crate) fn build(edges: &SlotMap<EdgeId, Edge>) -> Self {
        let pieces: usize = edges
            .values()
            .map(|e| 2 * e.bending_points.len().saturating_sub(1))
            .sum();
        // Room for one run per piece, the most there can be, so the lists never grow (at
        // twice the edges, as before, they grew twice on the shared maps: a run covers two
        // pieces on average). They are dropped once the level is packed.
        // The runs go straight into the level's slots, and the box of all boxes is taken
        // as they come (the box `PackedTree::new` folds, up to the sign of a zero, which
        // gives the same keys).
        let mut boxes = Vec::with_capacity(pieces);
        let mut slots = Vec::with_capacity(pieces);
        let mut extent = EMPTY_BOX;
        for (id, e) in edges {
            edge_entries(id, e, |b, run| {
                // Neither box has a NaN (the runs' boxes are folded from the empty box by
                // `min`/`max`, which keep numbers); the sign of an equal zero, which
                // `union_of_numbers` may pick differently from `union`, is seen by no key
                // (`extent` only places and scales the Hilbert keys' centres).
                extent = union_of_numbers(extent, b);
                boxes.push(b);
                slots.push(Slot {
                    data: run,
                    dead: false,
                });
            });
        }
        slots.shrink_to_fit();
        let mut runs = LogIndex::default();
        if !slots.is_empty() {
            runs.levels.push(Level {
                tree: PackedTree::with_extent(&boxes, extent),
                live: slots.len(),
                slots,
            });
        }
        CellIndex { runs, pieces }
    }

    /// Every cell piece whose box (the box of its corners) meets `envelope`: exactly the
    /// pieces an R-tree over the single pieces would report, in some order. `edges` must
    /// be the edges this index was built over.
    pub(crate) fn pieces_meeting<'a>(
        &'a self,
        edges: &'a SlotMap<EdgeId, Edge>,
        envelope: AABB<[f64; 2]>,
    ) -> impl Iterator<Item = CellRef> + 'a {
        let (lo, hi) = (envelope.lower(), envelope.upper());
        let query = [lo[0], lo[1], hi[0], hi[1]];
        self.runs.meeting(query).flat_map(move |run| {
            let bps = &edges[run.edge].bending_points;
            (run.first..run.first + run.count).filter_map(move |k| {
                let (lo, hi) = piece_box(&bps[k as usize], &bps[k as usize + 1], run.side);
                boxes_meet([lo[0], lo[1], hi[0], hi[1]], query).then_some(CellRef {
                    edge: run.edge,
                    side: run.side,
                    piece: k,
                })
            })
        })
    }

    /// The cell piece holding `p` by `contains`: of all pieces whose box holds `p` and
    /// that `contains` accepts, the smallest by [`CellRef`]'s order (edge id, side, piece
    /// index). A point on the boundary between pieces is in several of them; taking the
    /// smallest makes the answer independent of the order in which the index reports
    /// pieces, hence of how it was built (in one go, or edge by edge by updates).
    pub(crate) fn smallest_holding(
        &self,
        edges: &SlotMap<EdgeId, Edge>,
        p: Point,
        mut contains: impl FnMut(CellRef) -> bool,
    ) -> Option<CellRef> {
        let mut best: Option<CellRef> = None;
        for cell in self.pieces_meeting(edges, AABB::from_point([p.x, p.y])) {
            if best.is_none_or(|b| cell < b) && contains(cell) {
                best = Some(cell);
            }
        }
        best
    }

    /// Indexes the cell pieces of one more edge (for dynamic updates).
    pub(crate) fn insert_edge(&mut self, id: EdgeId, edge: &Edge) {
        edge_entries(id, edge, |b, run| {
            self.pieces += run.count as usize;
            self.runs.insert(b, run);
        });
    }

    /// Removes the cell pieces of an edge, which must be indexed with the geometry it has
    /// now (for dynamic updates).
    pub(crate) fn remove_edge(&mut self, id: EdgeId, edge: &Edge) {
        self.remove_edges([(id, edge)]);
    }

    /// Removes the cell pieces of several edges, each indexed with the geometry it has
    /// now, with one walk of each tree (for dynamic updates).
    pub(crate) fn remove_edges<'a>(&mut self, edges: impl IntoIterator<Item = (EdgeId, &'a Edge)>) {
        // The edges as a sorted list: a few binary-search steps per visited run instead
        // of a SipHash per look-up in a `HashSet`.
        let mut ids = Vec::new();
        let mut extent = EMPTY_BOX;
        for (id, edge) in edges {
            if edge.bending_points.len() < 2 {
                continue; // no pieces
            }
            ids.push(id);
            // The union of the boxes of the edge's runs: every bending point and both its
            // nearest points are corners of its pieces.
            for b in &edge.bending_points {
                for p in [b.position, b.left, b.right] {
                    extent = union(extent, [p.x, p.y, p.x, p.y]);
                }
            }
        }
        if ids.is_empty() {
            return;
        }
        ids.sort_unstable();
        ids.dedup();
        let mut removed = 0;
        self.runs.remove_meeting(
            extent,
            |run| ids.binary_search(&run.edge).is_ok(),
            |run| removed += run.count as usize,
        );
        self.pieces -= removed;
    }

    /// Number of indexed cell pieces.
    pub fn len(&self) -> usize {
        self.pieces
    }

    /// Number of index entries: runs of consecutive cell pieces of one edge side, each
    /// under one box (see [`CellIndex::len`] for the pieces).
    pub fn entries(&self) -> usize {
        self.runs.len()
    }

    /// Whether no cell piece is indexed.
    pub fn is_empty(&self) -> bool {
        self.pieces == 0
    }
}

/// The box that holds nothing (`union` with it gives the other box).
pub(crate) const EMPTY_BOX: [f64; 4] = [
    f64::INFINITY,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NEG_INFINITY,
];

/// The box of two boxes `[min x, min y, max x, max y]`.
pub(crate) fn union(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    [
        a[0].min(b[0]),
        a[1].min(b[1]),
        a[2].max(b[2]),
        a[3].max(b[3]),
    ]
}

/// [`union`] of two boxes without NaN coordinates, by comparisons (`min`/`max` with their
/// NaN fix-ups cost about three times the instructions): the same box, except that of two
/// equal zeros it may keep the other sign, which no comparison sees.
fn union_of_numbers(mut a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    for k in 0..2 {
        if b[k] < a[k] {
            a[k] = b[k];
        }
        if b[k + 2] > a[k + 2] {
            a[k + 2] = b[k + 2];
        }
    }
    a
}

/// Most entries [`LogIndex`] keeps unsorted before packing them into a tree.
const TAIL: usize = 32;

/// One entry of a [`LogIndex`] level.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct Slot<T> {
    /// The entry's data.
    data: T,
    /// Whether it was removed (its box stays in the tree until the level is packed again).
    dead: bool,
}

/// A packed tree over some entries of a [`LogIndex`].
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Level<T> {
    tree: PackedTree,
    /// The entries, by the index the tree reports.
    slots: Vec<Slot<T>>,
    /// Number of live entries.
    live: usize,
}

impl<T: Copy> Level<T> {
    fn new(boxes: &[[f64; 4]], data: Vec<T>) -> Self {
        Level {
            tree: PackedTree::new(boxes),
            live: data.len(),
            slots: data
                .into_iter()
                .map(|data| Slot { data, dead: false })
                .collect(),
        }
    }

    /// Appends the live entries (box and data) to `boxes` and `data`.
    fn append_live(&self, boxes: &mut Vec<[f64; 4]>, data: &mut Vec<T>) {
        let leaves = self.tree.level_ends.first().map_or(0, |&n| n as usize);
        for (b, &i) in self.tree.boxes[..leaves].iter().zip(&self.tree.links) {
            let slot = &self.slots[i as usize];
            if !slot.dead {
                boxes.push(*b);
                data.push(slot.data);
            }
        }
    }
}

/// Boxes with data that change by insertions and removals, without an R* tree: a
/// log-structured set of [`PackedTree`]s. New entries go to a short unsorted tail (at
/// most [`TAIL`], which queries scan); a full tail is packed into a new level, merged with
/// the smaller levels before it while they are less than twice its size, so that every
/// level holds more than twice the live entries of the next one (a logarithmic number of
/// levels, each entry packed a logarithmic number of times). Removal marks entries dead;
/// a level that is mostly dead is packed again without them, an empty one dropped.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound(serialize = "T: Serialize", deserialize = "T: Deserialize<'de>"))]
pub(crate) struct LogIndex<T> {
    /// The packed levels, largest first.
    levels: Vec<Level<T>>,
    /// Boxes and data not packed yet.
    tail: Vec<([f64; 4], T)>,
}

impl<T> Default for LogIndex<T> {
    fn default() -> Self {
        LogIndex {
            levels: Vec::new(),
            tail: Vec::new(),
        }
    }
}

impl<T: Copy> LogIndex<T> {
    /// The entries `data` with boxes `boxes` (`[min x, min y, max x, max y]`), packed in
    /// one level (the tests' way to make one; `CellIndex::build` fills its level itself).
    #[cfg(test)]
    pub(crate) fn packed(boxes: Vec<[f64; 4]>, data: Vec<T>) -> Self {
        debug_assert_eq!(boxes.len(), data.len());
        let mut index = LogIndex::default();
        if !data.is_empty() {
            index.levels.push(Level::new(&boxes, data));
        }
        index
    }

    /// Number of live entries.
    pub(crate) fn len(&self) -> usize {
        self.levels.iter().map(|l| l.live).sum::<usize>() + self.tail.len()
    }

    /// Adds an entry.
    pub(crate) fn insert(&mut self, b: [f64; 4], data: T) {
        self.tail.push((b, data));
        if self.tail.len() >= TAIL {
            self.flush();
        }
    }

    /// Packs the tail into a level, merged with the smaller levels that are less than
    /// twice its size.
    fn flush(&mut self) {
        let (mut boxes, mut data): (Vec<[f64; 4]>, Vec<T>) = self.tail.drain(..).unzip();
        while let Some(last) = self.levels.last() {
            if last.live >= 2 * data.len() {
                break;
            }
            last.append_live(&mut boxes, &mut data);
            self.levels.pop();
        }
        if !data.is_empty() {
            self.levels.push(Level::new(&boxes, data));
        }
    }

    /// The live entries whose boxes meet `query`, in no particular order.
    pub(crate) fn meeting(&self, query: [f64; 4]) -> impl Iterator<Item = &T> + '_ {
        self.levels
            .iter()
            .flat_map(move |level| {
                level.tree.meeting(query).filter_map(move |i| {
                    let slot = &level.slots[i as usize];
                    (!slot.dead).then_some(&slot.data)
                })
            })
            .chain(
                self.tail
                    .iter()
                    .filter(move |(b, _)| boxes_meet(*b, query))
                    .map(|(_, data)| data),
            )
    }

    /// Removes the live entries whose boxes meet `query` and that `doomed` selects,
    /// calling `removed` on each.
    pub(crate) fn remove_meeting(
        &mut self,
        query: [f64; 4],
        mut doomed: impl FnMut(&T) -> bool,
        mut removed: impl FnMut(&T),
    ) {
        let mut repack = false;
        for level in &mut self.levels {
            let Level { tree, slots, live } = level;
            for i in tree.meeting(query) {
                let slot = &mut slots[i as usize];
                if !slot.dead && doomed(&slot.data) {
                    slot.dead = true;
                    *live -= 1;
                    removed(&slot.data);
                }
            }
            repack |= *live == 0 || mostly_dead(*live, slots.len());
        }
        self.tail.retain(|(b, data)| {
            let gone = boxes_meet(*b, query) && doomed(data);
            if gone {
                removed(data);
            }
            !gone
        });
        if repack {
            // Levels at most half alive are packed again without their dead entries
            // (paid for by the removals that made them so), empty ones dropped.
            for level in &mut self.levels {
                if level.live > 0 && mostly_dead(level.live, level.slots.len()) {
                    let (mut boxes, mut data) = (Vec::new(), Vec::new());
                    level.append_live(&mut boxes, &mut data);
                    *level = Level::new(&boxes, data);
                }
            }
            self.levels.retain(|l| l.live > 0);
        }
    }
}

/// Whether a level of `slots` entries with `live` alive is to be packed again: at most
/// half alive (and more than a tail's worth dead).
fn mostly_dead(live: usize, slots: usize) -> bool {
    2 * live + TAIL < slots
}

/// Whether two closed boxes `[min x, min y, max x, max y]` share a point.
fn boxes_meet(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}

/// Children per node of the packed tree.
const NODE: usize = 16;

/// A static R-tree packed in Hilbert order (the layout of the `flatbush` library): the
/// entries sorted by the Hilbert index of their box centres, then grouped `NODE` at a
/// time, level by level, up to one root.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct PackedTree {
    /// Boxes `[min x, min y, max x, max y]`: the leaves in Hilbert order, then each level
    /// of parents, the root last.
    boxes: Vec<[f64; 4]>,
    /// Per box: for a leaf, the entry's index; for a parent, where its children start in
    /// `boxes` (they run to the next parent's first child or the end of their level).
    links: Vec<u32>,
    /// The end of each level in `boxes`, leaves first.
    level_ends: Vec<u32>,
}

impl PackedTree {
    fn new(entries: &[[f64; 4]]) -> Self {
        Self::with_extent(entries, entries.iter().fold(EMPTY_BOX, |e, &b| union(e, b)))
    }

    /// [`PackedTree::new`] given the box of all entries' boxes (their [`union`], folded in
    /// order from [`EMPTY_BOX`]; a zero of either sign where the fold has one gives the
    /// same keys, hence the same tree).
    fn with_extent(entries: &[[f64; 4]], extent: [f64; 4]) -> Self {
        let n = entries.len();
        if n == 0 {
            return PackedTree::default();
        }
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
        let mut levels = 1;
        let mut size = n;
        let mut total = n;
        while size > 1 {
            size = size.div_ceil(NODE);
            total += size;
            levels += 1;
        }
        let mut boxes = Vec::with_capacity(total);
        let mut links = Vec::with_capacity(total);
        let index = |key: &u64| (key & u64::from(u32::MAX)) as usize;
        boxes.extend(keys.iter().map(|k| entries[index(k)]));
        links.extend(keys.iter().map(|k| index(k) as u32));
        let mut level_ends = Vec::with_capacity(levels);
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

    /// The entries whose boxes meet `query`, without allocating.
    fn meeting(&self, query: [f64; 4]) -> Meeting<'_> {
        let levels = self.level_ends.len();
        let root = self.level_ends.last().map_or(0, |&end| end as usize - 1);
        Meeting {
            tree: self,
            query,
            node: root,
            level: levels.saturating_sub(1),
            start: root,
            group_end: root + 1,
            done: levels == 0,
        }
    }

    /// Where level `level` starts in `boxes`.
    fn level_start(&self, level: usize) -> usize {
        if level == 0 {
            0
        } else {
            self.level_ends[level - 1] as usize
        }
    }
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
            crate::build::insertion_sort(bucket, u64::cmp);
        }
    }
    *keys = sorted;
}

/// From this many keys up [`sort_keys`] sorts by radix instead of by buckets.
const BUCKETS_UP_TO: usize = 1 << 14;

/// A query's walk down a [`PackedTree`], depth first and without a stack: the tree is
/// implicit (the children of the `k`-th node of a level are the nodes `k NODE ..` of the
/// level below, up to `NODE` of them), so the walk is a node, its level and the end of its
/// group of siblings, and going up is a division.
struct Meeting<'a> {
    tree: &'a PackedTree,
    query: [f64; 4],
    /// The node to look at next, and its level (0: the leaves).
    node: usize,
    level: usize,
    /// Where `level` starts in the tree's boxes.
    start: usize,
    /// The end of `node`'s group of siblings.
    group_end: usize,
    done: bool,
}

impl Meeting<'_> {
    /// Moves to the next sibling of the current node, or to the next sibling of the
    /// nearest ancestor that has one; ends the walk when there is none.
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

impl Iterator for Meeting<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let tree = self.tree;
        while !self.done {
            let c = self.node;
            if boxes_meet(tree.boxes[c], self.query) {
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

/// The box of the cell piece between bending points `a` and `b` on `side`: the box of
/// its corners (`cell_piece` only drops repeated ones), without allocating the piece.
fn piece_box(a: &BendingPoint, b: &BendingPoint, side: Side) -> ([f64; 2], [f64; 2]) {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in [a.position, b.position, a.nearest(side), b.nearest(side)] {
        lo = [lo[0].min(p.x), lo[1].min(p.y)];
        hi = [hi[0].max(p.x), hi[1].max(p.y)];
    }
    (lo, hi)
}

/// The most pieces one index entry covers.
const MAX_RUN: u32 = 16;

/// Gives the index entries of one edge's cell pieces (both sides) to `out`: runs of
/// consecutive pieces, each run ending before its box would exceed twice the boxes of its
/// pieces added up (so a lookup seldom refines a run none of whose pieces it meets).
fn edge_entries(id: EdgeId, e: &Edge, mut out: impl FnMut([f64; 4], PieceRun)) {
    let bps = &e.bending_points;
    let n = bps.len().saturating_sub(1);
    if n == 0 {
        return;
    }
    let area = |lo: [f64; 2], hi: [f64; 2]| (hi[0] - lo[0]) * (hi[1] - lo[1]);
    for side in [Side::Left, Side::Right] {
        let mut k = 0;
        let (mut lo, mut hi) = piece_box(&bps[0], &bps[1], side);
        loop {
            let mut sum = area(lo, hi);
            let mut count = 1;
            // The box of the piece that did not fit: the next run's first.
            let mut rejected = None;
            while count < MAX_RUN as usize && k + count < n {
                let j = k + count;
                let (l, h) = piece_box(&bps[j], &bps[j + 1], side);
                let nlo = [lo[0].min(l[0]), lo[1].min(l[1])];
                let nhi = [hi[0].max(h[0]), hi[1].max(h[1])];
                let nsum = sum + area(l, h);
                if !crate::validate::at_most(area(nlo, nhi), 2.0 * nsum) {
                    rejected = Some((l, h));
                    break;
                }
                (lo, hi, sum) = (nlo, nhi, nsum);
                count += 1;
            }
            out(
                [lo[0], lo[1], hi[0], hi[1]],
                PieceRun {
                    edge: id,
                    side,
                    first: k as u32,
                    count: count as u32,
                },
            );
            k += count;
            if k >= n {
                break;
            }
            (lo, hi) = rejected.unwrap_or_else(|| piece_box(&bps[k], &bps[k + 1], side));
        }
    }
}

/// Whether `p` lies in the closed polygon `ring` (crossing number; boundary points may go
/// either way, which is fine for locating a cell among neighbours that share the boundary).
/// Point location and retraction both use it, so that they agree on a point's cell.
pub(crate) fn in_polygon(ring: &[Point], p: Point) -> bool {
    let mut inside = false;
    let n = ring.len();
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

impl Ecm {
    /// The ECM cell piece that contains `p` (user units), if `p` is in the free space.
    ///
    /// A point on the boundary between cell pieces (a medial-axis chord, the segment from
    /// a bending point to its nearest obstacle point, or a shared corner) lies in all of
    /// them; the answer is then the smallest of them by [`CellRef`]'s order (edge id,
    /// side, piece index), whatever order the index holds them in, so an ECM answers the
    /// same whether its index was built in one go or grown by dynamic updates.
    ///
    /// ```
    /// # use corridor_ecm::{Ecm, Side};
    /// # use corridor_geom::{GridPoint, Point, SnapGrid, WallSegment, WallSource, Walls};
    /// # let corners = [(0, 0), (4, 0), (4, 2), (0, 2)];
    /// # let segments = (0..4).map(|i| { let (a, b) = (corners[i], corners[(i + 1) % 4]);
    /// #     WallSegment { a: GridPoint::new(a.0, a.1), b: GridPoint::new(b.0, b.1), two_sided: false,
    /// #     sources: [WallSource::Boundary].into() } }).collect();
    /// # let walls = Walls { grid: SnapGrid::new(1.0).unwrap(), segments, ..Walls::default() };
    /// let ecm = Ecm::from_walls(&walls).unwrap();
    /// let cell = ecm.locate(Point::new(2.0, 0.5)).unwrap();
    /// let piece = ecm.cell_piece(cell).unwrap();
    /// // The cell below the centre line reaches down to the bottom wall.
    /// assert!(piece.iter().any(|p| p.y == 0.0));
    /// assert!(ecm.locate(Point::new(5.0, 1.0)).is_none());
    /// ```
    pub fn locate(&self, p: Point) -> Option<CellRef> {
        self.cells.smallest_holding(&self.edges, p, |c| {
            self.cell_piece(c).is_some_and(|ring| in_polygon(&ring, p))
        })
    }

    /// The polygon of one cell piece (counter-clockwise, user units).
    pub fn cell_piece(&self, cell: CellRef) -> Option<Vec<Point>> {
        let e = self.edges.get(cell.edge)?;
        let k = cell.piece as usize;
        let (a, b) = (e.bending_points.get(k)?, e.bending_points.get(k + 1)?);
        Some(cell_piece(a, b, cell.side))
    }

    /// The cell index (for its size; queries go through [`Ecm::locate`]).
    pub fn cell_index(&self) -> &CellIndex {
        &self.cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use corridor_testkit::random::{random_environment, RandomEnvironmentOptions};
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

    #[test]
    fn log_index_reports_exactly_the_live_boxes_meeting_a_query() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let random_box = |rng: &mut ChaCha8Rng| {
            let (x, y) = (
                rng.random_range(-100.0..100.0),
                rng.random_range(-100.0..100.0),
            );
            let (w, h) = (rng.random::<f64>() * 10.0, rng.random::<f64>() * 10.0);
            [x, y, x + w, y + h]
        };
        // Start from a packed level (as a build does) and from nothing.
        for start in [0, 500] {
            let boxes: Vec<[f64; 4]> = (0..start).map(|_| random_box(&mut rng)).collect();
            let mut live: Vec<([f64; 4], u32)> = boxes.iter().copied().zip(0..).collect();
            let mut index = LogIndex::packed(boxes, (0..start as u32).collect());
            let mut next = start as u32;
            for step in 0..6000 {
                // Grow for a while, then shrink, then grow again.
                let remove = match step {
                    0..2000 => rng.random_bool(0.3),
                    2000..4000 => rng.random_bool(0.8),
                    _ => rng.random_bool(0.4),
                };
                if remove && !live.is_empty() {
                    let q = random_box(&mut rng);
                    let picked: Vec<u32> = live
                        .iter()
                        .filter(|(b, id)| boxes_meet(*b, q) && id % 3 != 0)
                        .map(|(_, id)| *id)
                        .collect();
                    let mut removed = Vec::new();
                    index.remove_meeting(q, |id| id % 3 != 0, |id| removed.push(*id));
                    removed.sort_unstable();
                    let mut expected = picked.clone();
                    expected.sort_unstable();
                    assert_eq!(removed, expected, "step {step}");
                    live.retain(|(_, id)| !picked.contains(id));
                } else {
                    let b = random_box(&mut rng);
                    index.insert(b, next);
                    live.push((b, next));
                    next += 1;
                }
                assert_eq!(index.len(), live.len());
                // Levels more than double in size, so there are few of them.
                let bound = 2 + (live.len().max(1) as f64).log2() as usize;
                assert!(index.levels.len() <= bound, "{} levels", index.levels.len());
                if step % 20 == 0 {
                    let q = random_box(&mut rng);
                    let mut found: Vec<u32> = index.meeting(q).copied().collect();
                    found.sort_unstable();
                    let mut expected: Vec<u32> = live
                        .iter()
                        .filter(|(b, _)| boxes_meet(*b, q))
                        .map(|(_, id)| *id)
                        .collect();
                    expected.sort_unstable();
                    assert_eq!(found, expected, "step {step}");
                }
            }
        }
    }

    /// Points on the boundaries of cell pieces: every bending point, every nearest
    /// obstacle point, the midpoints of the chords and of the bending-point-to-obstacle
    /// segments, and lattice points.
    fn boundary_probes(ecm: &Ecm) -> Vec<Point> {
        let mut probes = Vec::new();
        for e in ecm.edges.values() {
            for w in e.bending_points.windows(2) {
                let (a, b) = (&w[0], &w[1]);
                probes.extend([a.position, a.left, a.right]);
                // Points on a segment are rounded off it, to either side: the pieces on
                // both sides may then both claim them.
                for t in [0.5, 1.0 / 3.0, 0.1] {
                    probes.push(a.position.lerp(b.position, t));
                    probes.push(a.position.lerp(a.left, t));
                    probes.push(a.position.lerp(a.right, t));
                }
            }
        }
        for x in 0..=40 {
            for y in 0..=40 {
                probes.push(Point::new(x as f64, y as f64));
            }
        }
        probes
    }

    #[test]
    fn build_packs_the_level_the_plain_way_would() {
        // `CellIndex::build` takes the box of all boxes as the runs come and fills the
        // level's slots itself; `LogIndex::packed` (with `PackedTree::new`) is the plain way:
        // the same entries, boxes, tree and slots, byte for byte.
        for seed in 0..4 {
            let options = if seed % 2 == 0 {
                RandomEnvironmentOptions::grid_map(40, 120)
            } else {
                RandomEnvironmentOptions::scaled(40.0, Point::splat(20.0))
            };
            let ecm = Ecm::build(&random_environment(seed, &options)).unwrap();
            let (mut boxes, mut runs) = (Vec::new(), Vec::new());
            for (id, e) in &ecm.edges {
                edge_entries(id, e, |b, run| {
                    boxes.push(b);
                    runs.push(run);
                });
            }
            let plain = LogIndex::packed(boxes, runs);
            let built = CellIndex::build(&ecm.edges);
            assert!(built.runs.len() > 10);
            assert_eq!(
                postcard::to_allocvec(&built.runs).unwrap(),
                postcard::to_allocvec(&plain).unwrap()
            );
        }
    }

    #[test]
    fn locate_on_boundaries_does_not_depend_on_how_the_index_was_built() {
        let mut ambiguous = 0;
        for seed in 0..6 {
            let options = if seed % 2 == 0 {
                RandomEnvironmentOptions::grid_map(40, 120)
            } else {
                RandomEnvironmentOptions::scaled(40.0, Point::splat(20.0))
            };
            let env = random_environment(seed, &options);
            let ecm = Ecm::build(&env).unwrap();
            // Built edge by edge, in reverse order, as dynamic updates insert pieces.
            let mut grown = ecm.clone();
            grown.cells = CellIndex::default();
            for (id, e) in ecm.edges.iter().collect::<Vec<_>>().into_iter().rev() {
                grown.cells.insert_edge(id, e);
            }
            // Built in one go, then half the edges removed and indexed again.
            let mut patched = ecm.clone();
            let half: Vec<(EdgeId, &Edge)> = ecm.edges.iter().step_by(2).collect();
            let (one, rest) = half.split_at(half.len() / 2);
            for &(id, e) in one {
                patched.cells.remove_edge(id, e);
            }
            patched.cells.remove_edges(rest.iter().copied());
            assert_eq!(
                patched.cells.len(),
                ecm.cells.len()
                    - half
                        .iter()
                        .map(|(_, e)| 2 * (e.bending_points.len() - 1))
                        .sum::<usize>()
            );
            for &(id, e) in half.iter().rev() {
                patched.cells.insert_edge(id, e);
            }
            assert_eq!(grown.cells.len(), ecm.cells.len());
            assert_eq!(patched.cells.len(), ecm.cells.len());
            // Edges removed from the map too: their dead runs are never looked at.
            let mut pruned = ecm.clone();
            for &(id, e) in &half {
                pruned.cells.remove_edge(id, e);
                pruned.edges.remove(id);
            }
            for p in boundary_probes(&ecm) {
                let holding: Vec<CellRef> = ecm
                    .edges
                    .iter()
                    .flat_map(|(id, e)| {
                        let n = e.bending_points.len() as u32 - 1;
                        [Side::Left, Side::Right].into_iter().flat_map(move |side| {
                            (0..n).map(move |piece| CellRef {
                                edge: id,
                                side,
                                piece,
                            })
                        })
                    })
                    .filter(|&c| {
                        let ring = ecm.cell_piece(c).unwrap();
                        let (lo, hi) = ring.iter().fold(
                            (Point::splat(f64::INFINITY), Point::splat(f64::NEG_INFINITY)),
                            |(lo, hi), q| (lo.min(*q), hi.max(*q)),
                        );
                        lo.x <= p.x
                            && p.x <= hi.x
                            && lo.y <= p.y
                            && p.y <= hi.y
                            && in_polygon(&ring, p)
                    })
                    .collect();
                if holding.len() > 1 {
                    ambiguous += 1;
                }
                let smallest = holding.iter().min().copied();
                let smallest_left = holding
                    .iter()
                    .filter(|c| pruned.edges.contains_key(c.edge))
                    .min()
                    .copied();
                assert_eq!(pruned.locate(p), smallest_left, "seed {seed}: {p}");
                assert_eq!(ecm.locate(p), smallest, "seed {seed}: {p}");
                assert_eq!(grown.locate(p), smallest, "seed {seed}: {p}");
                assert_eq!(patched.locate(p), smallest, "seed {seed}: {p}");
                assert_eq!(ecm.locate_free(p).ok(), smallest, "seed {seed}: {p}");
            }
        }
        // The probes do reach points that several pieces hold.
        assert!(ambiguous > 0, "no probe lies in two pieces");
    }
}
