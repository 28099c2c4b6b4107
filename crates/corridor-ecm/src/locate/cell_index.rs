//! Building and updating the cell index (an R-tree over runs of cell pieces, see
//! [`CellIndex`]) and asking it which pieces meet a box.

use crate::graph::{BendingPoint, CellIndex, CellRef, Edge, EdgeId, PieceRun, Side};
use crate::util::at_most;
use corridor_geom::boxes::{boxes_meet, union, union_of_numbers, EMPTY_BOX};
use corridor_geom::Point;
use corridor_geom::{LogIndex, PackedTree, Slot};
use rstar::AABB;
use slotmap::SlotMap;

impl CellIndex {
    // Out of line (one call per build) so that profiles show it apart from validation.
    #[inline(never)]
    pub(crate) fn build(edges: &SlotMap<EdgeId, Edge>) -> Self {
        // A first pass counts the runs, so that the lists are allocated at their final
        // size: the boxes with room for the tree's parents (they become the tree's boxes,
        // sorted in place), the slots exactly. No list grows or is copied, and the only
        // other temporary is the tree's sort keys (measured: the lists sized for one run
        // per piece, then shrunk, held 17.6 MB at the heap peak of grid 512).
        let (mut count, mut pieces) = (0, 0);
        for (id, e) in edges {
            edge_entries(id, e, |_, run| {
                count += 1;
                pieces += run.count as usize;
            });
        }
        let mut boxes = Vec::with_capacity(PackedTree::boxes_for(count));
        let mut slots = Vec::with_capacity(count);
        // The runs go straight into the level's slots, and the box of all boxes is taken
        // as they come (the box `PackedTree::new` folds, up to the sign of a zero, which
        // gives the same keys).
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
        let runs = LogIndex::from_packed_level(PackedTree::from_entries(boxes, extent), slots);
        CellIndex { runs, pieces }
    }

    /// The entries as [`CellIndex::build`] lists them, before the tree sorts them: their
    /// boxes and runs, edge by edge (`expected` of them: the lists are reserved at that
    /// size, so that a load grows and copies none).
    fn build_entries(
        edges: &SlotMap<EdgeId, Edge>,
        expected: usize,
    ) -> (Vec<[f64; 4]>, Vec<Slot<PieceRun>>, usize) {
        let (mut boxes, mut slots) = (Vec::with_capacity(expected), Vec::with_capacity(expected));
        let mut pieces = 0;
        for (id, e) in edges {
            edge_entries(id, e, |b, run| {
                pieces += run.count as usize;
                boxes.push(b);
                slots.push(Slot {
                    data: run,
                    dead: false,
                });
            });
        }
        (boxes, slots, pieces)
    }

    /// Where each leaf of the index's tree comes in [`CellIndex::build`]'s list of
    /// entries, if the index is one that `build` gives over `edges` (one packed level,
    /// nothing dead, no tail): what a saved map stores instead of the index.
    pub(crate) fn leaf_order(&self, edges: &SlotMap<EdgeId, Edge>) -> Option<Vec<u32>> {
        let (_, slots, _) = CellIndex::build_entries(edges, self.runs.len());
        // `build` lists the runs by edge (in slot order), side and first piece.
        let key = |r: &PieceRun| (r.edge, r.side, r.first);
        let order: Vec<u32> = self
            .runs
            .live_entries()
            .map(|(_, run)| {
                slots
                    .binary_search_by(|s| key(&s.data).cmp(&key(run)))
                    .ok()
                    .map(|i| i as u32)
            })
            .collect::<Option<_>>()?;
        let again = CellIndex::with_leaf_order(edges, order.clone())?;
        // The same index bit for bit, or none.
        let same = postcard::to_allocvec(&again).ok()? == postcard::to_allocvec(self).ok()?;
        same.then_some(order)
    }

    /// The index [`CellIndex::build`] gives over `edges`, given its tree's leaf order
    /// (from [`CellIndex::leaf_order`]): no sort, only the boxes and the parents. `None`
    /// if `order` is not a permutation of the entries.
    pub(crate) fn with_leaf_order(edges: &SlotMap<EdgeId, Edge>, order: Vec<u32>) -> Option<Self> {
        // `order` has one entry per run (checked below), read from the file: no more than
        // its bytes can hold.
        let (boxes, slots, pieces) = CellIndex::build_entries(edges, order.len());
        let tree = PackedTree::from_leaf_order(&boxes, order)?;
        drop(boxes);
        Some(CellIndex {
            runs: LogIndex::from_packed_level(tree, slots),
            pieces,
        })
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
                if !at_most(area(nlo, nhi), 2.0 * nsum) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Ecm;
    use crate::locate::query::{in_polygon, on_boundary};
    use corridor_testkit::random::{random_environment, RandomEnvironmentOptions};

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
                // Every piece whose closed polygon holds `p`, and whether the half-open
                // rule takes it too.
                let closed: Vec<(CellRef, bool)> = ecm
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
                    .filter_map(|c| {
                        let ring = ecm.cell_piece(c).unwrap();
                        let (lo, hi) = ring.iter().fold(
                            (Point::splat(f64::INFINITY), Point::splat(f64::NEG_INFINITY)),
                            |(lo, hi), q| (lo.min(*q), hi.max(*q)),
                        );
                        let in_box = lo.x <= p.x && p.x <= hi.x && lo.y <= p.y && p.y <= hi.y;
                        let open = in_box && in_polygon(&ring, p);
                        (open || (in_box && on_boundary(&ring, p))).then_some((c, open))
                    })
                    .collect();
                // The half-open rule first; the closed pieces for points no piece holds
                // by it (on walls).
                let expected = |keep: &dyn Fn(EdgeId) -> bool| {
                    let kept = || closed.iter().filter(|(c, _)| keep(c.edge));
                    let open = kept().filter(|(_, open)| *open).map(|(c, _)| *c).min();
                    open.or_else(|| kept().map(|(c, _)| *c).min())
                };
                if closed.len() > 1 {
                    ambiguous += 1;
                }
                let smallest = expected(&|_| true);
                let smallest_left = expected(&|id| pruned.edges.contains_key(id));
                assert_eq!(pruned.locate(p).ok(), smallest_left, "seed {seed}: {p}");
                assert_eq!(ecm.locate(p).ok(), smallest, "seed {seed}: {p}");
                assert_eq!(grown.locate(p).ok(), smallest, "seed {seed}: {p}");
                assert_eq!(patched.locate(p).ok(), smallest, "seed {seed}: {p}");
                assert_eq!(ecm.locate_free(p).ok(), smallest, "seed {seed}: {p}");
            }
        }
        // The probes do reach points on the boundary of several closed pieces.
        assert!(ambiguous > 0, "no probe lies on two pieces");
    }
}
