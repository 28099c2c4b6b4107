//! Which ECM cell contains a point: an R-tree over the cell pieces.

use crate::graph::{cell_piece, BendingPoint, Ecm, Edge, EdgeId, Side};
use corridor_geom::Point;
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{Envelope, RTree, AABB};
use serde::{Deserialize, Serialize};
use slotmap::SlotMap;

/// One ECM cell piece: the part of an edge side between bending points `piece` and
/// `piece + 1` (see [`Edge::cell_pieces`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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

type Entry = GeomWithData<Rectangle<[f64; 2]>, PieceRun>;

/// Point location in the ECM cells (built once per ECM, saved with it).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CellIndex {
    tree: RTree<Entry>,
    /// Number of indexed cell pieces (the runs' counts added up).
    pieces: usize,
}

impl CellIndex {
    pub(crate) fn build(edges: &SlotMap<EdgeId, Edge>) -> Self {
        let mut entries = Vec::with_capacity(edges.len() * 2);
        let mut pieces = 0;
        for (id, e) in edges {
            pieces += 2 * e.bending_points.len().saturating_sub(1);
            edge_entries(id, e, &mut entries);
        }
        CellIndex {
            tree: RTree::bulk_load(entries),
            pieces,
        }
    }

    /// Every cell piece whose box (the box of its corners) meets `envelope`: exactly the
    /// pieces an R-tree over the single pieces would report, in some order. `edges` must
    /// be the edges this index was built over.
    pub(crate) fn pieces_meeting<'a>(
        &'a self,
        edges: &'a SlotMap<EdgeId, Edge>,
        envelope: AABB<[f64; 2]>,
    ) -> impl Iterator<Item = CellRef> + 'a {
        self.tree
            .locate_in_envelope_intersecting(envelope)
            .flat_map(move |entry| {
                let run = entry.data;
                let bps = &edges[run.edge].bending_points;
                (run.first..run.first + run.count).filter_map(move |k| {
                    let (lo, hi) = piece_box(&bps[k as usize], &bps[k as usize + 1], run.side);
                    AABB::from_corners(lo, hi)
                        .intersects(&envelope)
                        .then_some(CellRef {
                            edge: run.edge,
                            side: run.side,
                            piece: k,
                        })
                })
            })
    }

    /// Indexes the cell pieces of one more edge (for dynamic updates).
    pub(crate) fn insert_edge(&mut self, id: EdgeId, edge: &Edge) {
        let mut entries = Vec::new();
        edge_entries(id, edge, &mut entries);
        for entry in entries {
            self.pieces += entry.data.count as usize;
            self.tree.insert(entry);
        }
    }

    /// Removes the cell pieces of an edge, which must be indexed with the geometry it has
    /// now (for dynamic updates).
    pub(crate) fn remove_edge(&mut self, id: EdgeId, edge: &Edge) {
        let mut entries = Vec::new();
        edge_entries(id, edge, &mut entries);
        for entry in entries {
            if self.tree.remove(&entry).is_some() {
                self.pieces -= entry.data.count as usize;
            }
        }
    }

    /// Removes the cell pieces of several edges in one walk of the tree (for dynamic
    /// updates; cheaper than [`CellIndex::remove_edge`] per edge when they lie together).
    pub(crate) fn remove_edges<'a>(&mut self, edges: impl IntoIterator<Item = (EdgeId, &'a Edge)>) {
        let mut ids = std::collections::HashSet::new();
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        let mut entries = Vec::new();
        for (id, edge) in edges {
            ids.insert(id);
            entries.clear();
            edge_entries(id, edge, &mut entries);
            for entry in &entries {
                let e = entry.geom();
                lo = [lo[0].min(e.lower()[0]), lo[1].min(e.lower()[1])];
                hi = [hi[0].max(e.upper()[0]), hi[1].max(e.upper()[1])];
            }
        }
        if ids.is_empty() {
            return;
        }
        let selection = SelectEdges {
            envelope: AABB::from_corners(lo, hi),
            ids,
        };
        let removed: usize = self
            .tree
            .drain_with_selection_function(selection)
            .map(|entry| entry.data.count as usize)
            .sum();
        self.pieces -= removed;
    }

    /// Number of indexed cell pieces.
    pub fn len(&self) -> usize {
        self.pieces
    }

    /// Number of index entries: runs of consecutive cell pieces of one edge side, each
    /// under one box (see [`CellIndex::len`] for the pieces).
    pub fn entries(&self) -> usize {
        self.tree.size()
    }

    /// Whether no cell piece is indexed.
    pub fn is_empty(&self) -> bool {
        self.pieces == 0
    }
}

/// Selects the cell pieces of a set of edges within an envelope.
struct SelectEdges {
    envelope: AABB<[f64; 2]>,
    ids: std::collections::HashSet<EdgeId>,
}

impl rstar::SelectionFunction<Entry> for SelectEdges {
    fn should_unpack_parent(&self, envelope: &AABB<[f64; 2]>) -> bool {
        self.envelope.intersects(envelope)
    }

    fn should_unpack_leaf(&self, leaf: &Entry) -> bool {
        self.ids.contains(&leaf.data.edge)
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

/// Appends the index entries of one edge's cell pieces (both sides) to `out`: runs of
/// consecutive pieces, each run ending before its box would exceed twice the boxes of its
/// pieces added up (so a lookup seldom refines a run none of whose pieces it meets).
fn edge_entries(id: EdgeId, e: &Edge, out: &mut Vec<Entry>) {
    let bps = &e.bending_points;
    let n = bps.len().saturating_sub(1) as u32;
    for side in [Side::Left, Side::Right] {
        let mut k = 0;
        while k < n {
            let (mut lo, mut hi) = piece_box(&bps[k as usize], &bps[k as usize + 1], side);
            let area = |lo: [f64; 2], hi: [f64; 2]| (hi[0] - lo[0]) * (hi[1] - lo[1]);
            let mut sum = area(lo, hi);
            let mut count = 1;
            while count < MAX_RUN && k + count < n {
                let j = (k + count) as usize;
                let (l, h) = piece_box(&bps[j], &bps[j + 1], side);
                let nlo = [lo[0].min(l[0]), lo[1].min(l[1])];
                let nhi = [hi[0].max(h[0]), hi[1].max(h[1])];
                let nsum = sum + area(l, h);
                if !crate::validate::at_most(area(nlo, nhi), 2.0 * nsum) {
                    break;
                }
                (lo, hi, sum) = (nlo, nhi, nsum);
                count += 1;
            }
            out.push(Entry::new(
                Rectangle::from_corners(lo, hi),
                PieceRun {
                    edge: id,
                    side,
                    first: k,
                    count,
                },
            ));
            k += count;
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
    /// ```
    /// # use corridor_ecm::{Ecm, Side};
    /// # use corridor_geom::{GridPoint, Point, SnapGrid, WallSegment, WallSource, Walls};
    /// # let corners = [(0, 0), (4, 0), (4, 2), (0, 2)];
    /// # let segments = (0..4).map(|i| { let (a, b) = (corners[i], corners[(i + 1) % 4]);
    /// #     WallSegment { a: GridPoint::new(a.0, a.1), b: GridPoint::new(b.0, b.1), two_sided: false,
    /// #     sources: vec![WallSource::Boundary] } }).collect();
    /// # let walls = Walls { grid: SnapGrid::new(1.0).unwrap(), segments, ..Walls::default() };
    /// let ecm = Ecm::from_walls(&walls).unwrap();
    /// let cell = ecm.locate(Point::new(2.0, 0.5)).unwrap();
    /// let piece = ecm.cell_piece(cell).unwrap();
    /// // The cell below the centre line reaches down to the bottom wall.
    /// assert!(piece.iter().any(|p| p.y == 0.0));
    /// assert!(ecm.locate(Point::new(5.0, 1.0)).is_none());
    /// ```
    pub fn locate(&self, p: Point) -> Option<CellRef> {
        let envelope = AABB::from_point([p.x, p.y]);
        self.cells
            .pieces_meeting(&self.edges, envelope)
            .find(|c| self.cell_piece(*c).is_some_and(|ring| in_polygon(&ring, p)))
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
