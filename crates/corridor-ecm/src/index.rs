//! Which ECM cell contains a point: an R-tree over the cell pieces.

use crate::graph::{cell_piece, Ecm, Edge, EdgeId, Side};
use corridor_geom::Point;
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::RTree;
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

type Entry = GeomWithData<Rectangle<[f64; 2]>, CellRef>;

/// Point location in the ECM cells (built once per ECM, saved with it).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CellIndex {
    pub(crate) tree: RTree<Entry>,
}

impl CellIndex {
    pub(crate) fn build(edges: &SlotMap<EdgeId, Edge>) -> Self {
        let mut entries = Vec::new();
        for (id, e) in edges {
            entries.extend(edge_entries(id, e));
        }
        CellIndex {
            tree: RTree::bulk_load(entries),
        }
    }

    /// Indexes the cell pieces of one more edge (for dynamic updates).
    pub(crate) fn insert_edge(&mut self, id: EdgeId, edge: &Edge) {
        for entry in edge_entries(id, edge) {
            self.tree.insert(entry);
        }
    }

    /// Removes the cell pieces of an edge, which must be indexed with the geometry it has
    /// now (for dynamic updates).
    pub(crate) fn remove_edge(&mut self, id: EdgeId, edge: &Edge) {
        for entry in edge_entries(id, edge) {
            self.tree.remove(&entry);
        }
    }

    /// Removes the cell pieces of several edges in one walk of the tree (for dynamic
    /// updates; cheaper than [`CellIndex::remove_edge`] per edge when they lie together).
    pub(crate) fn remove_edges<'a>(&mut self, edges: impl IntoIterator<Item = (EdgeId, &'a Edge)>) {
        let mut ids = std::collections::HashSet::new();
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for (id, edge) in edges {
            ids.insert(id);
            for entry in edge_entries(id, edge) {
                let e = entry.geom();
                lo = [lo[0].min(e.lower()[0]), lo[1].min(e.lower()[1])];
                hi = [hi[0].max(e.upper()[0]), hi[1].max(e.upper()[1])];
            }
        }
        if ids.is_empty() {
            return;
        }
        let selection = SelectEdges {
            envelope: rstar::AABB::from_corners(lo, hi),
            ids,
        };
        self.tree
            .drain_with_selection_function(selection)
            .for_each(drop);
    }

    /// Number of indexed cell pieces.
    pub fn len(&self) -> usize {
        self.tree.size()
    }

    /// Whether no cell piece is indexed.
    pub fn is_empty(&self) -> bool {
        self.tree.size() == 0
    }
}

/// Selects the cell pieces of a set of edges within an envelope.
struct SelectEdges {
    envelope: rstar::AABB<[f64; 2]>,
    ids: std::collections::HashSet<EdgeId>,
}

impl rstar::SelectionFunction<Entry> for SelectEdges {
    fn should_unpack_parent(&self, envelope: &rstar::AABB<[f64; 2]>) -> bool {
        use rstar::Envelope;
        self.envelope.intersects(envelope)
    }

    fn should_unpack_leaf(&self, leaf: &Entry) -> bool {
        self.ids.contains(&leaf.data.edge)
    }
}

/// The index entries of one edge's cell pieces (both sides).
fn edge_entries(id: EdgeId, e: &Edge) -> impl Iterator<Item = Entry> + '_ {
    [Side::Left, Side::Right].into_iter().flat_map(move |side| {
        e.bending_points.windows(2).enumerate().map(move |(k, w)| {
            let piece = cell_piece(&w[0], &w[1], side);
            let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for p in &piece {
                lo = [lo[0].min(p.x), lo[1].min(p.y)];
                hi = [hi[0].max(p.x), hi[1].max(p.y)];
            }
            Entry::new(
                Rectangle::from_corners(lo, hi),
                CellRef {
                    edge: id,
                    side,
                    piece: k as u32,
                },
            )
        })
    })
}

/// Whether `p` lies in the closed polygon `ring` (crossing number; boundary points may go
/// either way, which is fine for locating a cell among neighbours that share the boundary).
fn in_polygon(ring: &[Point], p: Point) -> bool {
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
        let envelope = rstar::AABB::from_point([p.x, p.y]);
        self.cells
            .tree
            .locate_in_envelope_intersecting(envelope)
            .map(|e| e.data)
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
