//! What an ECM is: vertices, edges made of annotated bending points, components and cells.

use crate::{BuildStats, CellIndex};
use corridor_geom::{Point, SnapGrid};
use serde::{Deserialize, Serialize};
use slotmap::{new_key_type, SlotMap};
use smallvec::SmallVec;
use std::fmt;

new_key_type! {
    /// Stable id of an ECM vertex.
    ///
    /// Ids stay valid while other parts of the graph are replaced (a later dynamic update
    /// removes and inserts vertices locally); a removed vertex's id is never handed out
    /// again for a different vertex.
    pub struct VertexId;
    /// Stable id of an ECM edge (same guarantees as [`VertexId`]).
    pub struct EdgeId;
}

/// Which connected component of the free space (and of the medial axis) something is in.
///
/// Components are numbered `0..Ecm::component_count()` in the order they were found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ComponentId(pub u32);

impl fmt::Display for ComponentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "component {}", self.0)
    }
}

/// A side of an edge, looking from its start vertex towards its end vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Side {
    /// To the left of the direction of travel.
    Left,
    /// To the right of the direction of travel.
    Right,
}

impl Side {
    /// The other side.
    pub fn opposite(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

/// A point of the medial axis with its nearest obstacle point on each side.
///
/// `clearance` is the distance to the nearest obstacle (the smaller of the two
/// distances, which agree within the validation tolerance).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BendingPoint {
    /// Position on the medial axis (user units).
    pub position: Point,
    /// Nearest obstacle point on the left side of the edge.
    pub left: Point,
    /// Nearest obstacle point on the right side of the edge.
    pub right: Point,
    /// Distance to the nearest obstacle.
    pub clearance: f64,
    /// Whether `left` is a wall end point (an obstacle corner) rather than a point inside
    /// a straight wall. A path keeps its clearance around a corner on an arc, but along a
    /// straight wall on a straight line: path planning needs to know which.
    pub left_is_corner: bool,
    /// Whether `right` is a wall end point (see `left_is_corner`).
    pub right_is_corner: bool,
    /// Whether the point is a vertex of the Voronoi diagram of the walls (where the
    /// nearest walls change) rather than a sample inside one Voronoi arc. The local
    /// repair cuts edges at such points.
    pub is_voronoi_vertex: bool,
}

impl BendingPoint {
    /// The nearest obstacle point on `side`.
    pub fn nearest(&self, side: Side) -> Point {
        match side {
            Side::Left => self.left,
            Side::Right => self.right,
        }
    }

    /// Whether the nearest obstacle point on `side` is a wall end point (a corner).
    pub fn is_corner(&self, side: Side) -> bool {
        match side {
            Side::Left => self.left_is_corner,
            Side::Right => self.right_is_corner,
        }
    }

    /// The length of the polyline through `points` and its smallest clearance: what an
    /// [`Edge`] stores about its bending points.
    pub(crate) fn length_and_min_clearance(points: &[BendingPoint]) -> (f64, f64) {
        let length = points
            .windows(2)
            .map(|w| w[0].position.distance(w[1].position))
            .sum();
        let min_clearance = points
            .iter()
            .map(|b| b.clearance)
            .fold(f64::INFINITY, f64::min);
        (length, min_clearance)
    }

    /// The same point seen walking the edge the other way: left and right swap.
    pub(crate) fn flipped(&self) -> BendingPoint {
        BendingPoint {
            left: self.right,
            right: self.left,
            left_is_corner: self.right_is_corner,
            right_is_corner: self.left_is_corner,
            ..*self
        }
    }
}

/// How many edges a [`Vertex`] keeps inline (in [`VertexEdges`]); a vertex of higher
/// degree keeps them on the heap.
pub const INLINE_DEGREE: usize = 3;

/// A vertex's incident edges: a [`SmallVec`] that holds up to [`INLINE_DEGREE`] of them
/// inline (almost every vertex of a medial axis has degree 1 or 3). It dereferences to a
/// slice (`&[EdgeId]`), and serializes as a sequence, as a `Vec` does.
pub type VertexEdges = SmallVec<[EdgeId; INLINE_DEGREE]>;

/// A vertex's nearest obstacle points: a [`SmallVec`] that holds up to
/// [`INLINE_DEGREE`] of them inline (a vertex has one per sector between its edges). It
/// dereferences to a slice (`&[Point]`), and serializes as a sequence, as a `Vec` does.
pub type NearestPoints = SmallVec<[Point; INLINE_DEGREE]>;

/// An ECM vertex: a medial-axis vertex of degree 1 or at least 3.
///
/// Degree-1 vertices are either at concave corners of obstacles (the free space has an
/// angle below 180° there; clearance 0) or nowhere else. A degree-2 vertex only appears on
/// a closed loop of the medial axis that has no other vertex, where one point of the loop
/// has to serve as the vertex.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Vertex {
    /// Position (user units).
    pub position: Point,
    /// Distance to the nearest obstacle.
    pub clearance: f64,
    /// The distinct nearest obstacle points (one per incident sector; a corner vertex has
    /// just the corner). Inline up to [`INLINE_DEGREE`] points; use it as a slice.
    pub nearest_obstacle_points: NearestPoints,
    /// Incident edges, counter-clockwise by the direction in which they leave the vertex.
    /// An edge that starts and ends here (a loop) appears twice. Inline up to
    /// [`INLINE_DEGREE`] edges; use it as a slice.
    pub edges: VertexEdges,
    /// The component this vertex belongs to.
    pub component: ComponentId,
}

impl Vertex {
    /// Number of incident edge ends.
    pub fn degree(&self) -> usize {
        self.edges.len()
    }
}

/// An ECM edge: a chain of medial-axis arcs between two vertices, sampled into bending
/// points.
///
/// `bending_points[0]` is at the start vertex and the last one at the end vertex.
/// Straight arcs contribute their end points; parabolic arcs are sampled so that no point
/// of the true arc is farther than the build's `max_arc_deviation` from the polyline,
/// and the point of smallest clearance of every arc is itself a bending point, so
/// `min_clearance` is exact.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Edge {
    /// Start vertex.
    pub start: VertexId,
    /// End vertex.
    pub end: VertexId,
    /// Bending points from start to end (at least two).
    pub bending_points: Vec<BendingPoint>,
    /// Length of the bending-point polyline.
    pub length: f64,
    /// Smallest clearance along the edge (exact for the true arcs, not just the samples).
    pub min_clearance: f64,
    /// The component this edge belongs to.
    pub component: ComponentId,
}

impl Edge {
    /// The vertex at the other end from `v` (or `None` if `v` is not an end).
    pub fn opposite(&self, v: VertexId) -> Option<VertexId> {
        if v == self.start {
            Some(self.end)
        } else if v == self.end {
            Some(self.start)
        } else {
            None
        }
    }

    /// The bending-point positions from start to end.
    pub fn polyline(&self) -> impl ExactSizeIterator<Item = Point> + '_ {
        self.bending_points.iter().map(|b| b.position)
    }

    /// The ECM cell pieces on one side: for each pair of consecutive bending points the
    /// polygon `bp_k, bp_k+1, nearest_k+1, nearest_k` (counter-clockwise, repeated points
    /// removed, so a piece whose nearest points coincide is a triangle).
    pub fn cell_pieces(&self, side: Side) -> impl Iterator<Item = Vec<Point>> + '_ {
        self.bending_points
            .windows(2)
            .map(move |w| cell_piece(&w[0], &w[1], side))
    }

    /// The whole ECM cell on one side as one polygon (counter-clockwise): the bending
    /// points followed by their nearest obstacle points in reverse, repeated points removed.
    pub fn cell(&self, side: Side) -> Vec<Point> {
        let bps = &self.bending_points;
        let mut ring: Vec<Point> = Vec::with_capacity(bps.len() * 2);
        match side {
            Side::Left => {
                ring.extend(bps.iter().map(|b| b.position));
                ring.extend(bps.iter().rev().map(|b| b.left));
            }
            Side::Right => {
                ring.extend(bps.iter().map(|b| b.right));
                ring.extend(bps.iter().rev().map(|b| b.position));
            }
        }
        dedup_ring(ring)
    }
}

/// One cell piece between two consecutive bending points (see [`Edge::cell_pieces`]).
pub(crate) fn cell_piece(a: &BendingPoint, b: &BendingPoint, side: Side) -> Vec<Point> {
    dedup_ring(cell_corners(a, b, side).to_vec())
}

/// The four corners of [`cell_piece`] before repeated points are dropped (no allocation;
/// [`signed_area`] of them equals that of the piece bit for bit, since a repeated corner
/// adds an exact zero to the same sum).
pub(crate) fn cell_corners(a: &BendingPoint, b: &BendingPoint, side: Side) -> [Point; 4] {
    match side {
        Side::Left => [a.position, b.position, b.left, a.left],
        Side::Right => [a.position, a.right, b.right, b.position],
    }
}

fn dedup_ring(mut ring: Vec<Point>) -> Vec<Point> {
    ring.dedup();
    while ring.len() > 1 && ring.first() == ring.last() {
        ring.pop();
    }
    ring
}

/// Signed area of a polygon (positive when counter-clockwise).
pub(crate) fn signed_area(ring: &[Point]) -> f64 {
    if ring.len() < 3 {
        return 0.0;
    }
    let o = ring[0];
    let mut twice = 0.0;
    for w in ring[1..].windows(2) {
        twice += (w[0] - o).perp_dot(w[1] - o);
    }
    twice * 0.5
}

/// The Explicit Corridor Map: the medial axis of the free space as a graph whose edges
/// carry, at every bending point, the nearest obstacle point on each side.
///
/// Built by [`Ecm::build`] or [`Ecm::from_walls`], which validate the result before
/// returning it. Coordinates are user units (`f64`); internally the construction works on
/// the environment's integer [`SnapGrid`] and converts exactly once at the end.
///
/// ```
/// use corridor_ecm::{Ecm, Side};
/// use corridor_geom::{GridPoint, SnapGrid, WallSegment, WallSource, Walls};
/// // A 4 × 2 room (grid units; scale 1 so that grid and user units agree).
/// let corners = [(0, 0), (4, 0), (4, 2), (0, 2)];
/// let segments = (0..4)
///     .map(|i| {
///         let (a, b) = (corners[i], corners[(i + 1) % 4]);
///         WallSegment {
///             a: GridPoint::new(a.0, a.1),
///             b: GridPoint::new(b.0, b.1),
///             two_sided: false,
///             sources: [WallSource::Boundary].into(),
///         }
///     })
///     .collect();
/// let walls = Walls { grid: SnapGrid::new(1.0).unwrap(), segments, ..Walls::default() };
/// let ecm = Ecm::from_walls(&walls).unwrap();
/// // Four corner branches meet in two degree-3 vertices joined by the centre line.
/// assert_eq!(ecm.vertex_count(), 6);
/// assert_eq!(ecm.edge_count(), 5);
/// assert_eq!(ecm.component_count(), 1);
/// let widest = ecm.edges().map(|(_, e)| e.min_clearance).fold(0.0, f64::max);
/// assert!((widest - 1.0).abs() < 1e-9);
/// // The cells tile the room.
/// let area: f64 = ecm.edges().map(|(id, _)| ecm.cell_area(id, Side::Left) + ecm.cell_area(id, Side::Right)).sum();
/// assert!((area - 8.0).abs() < 1e-9);
/// ```
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Ecm {
    pub(crate) grid: SnapGrid,
    pub(crate) vertices: SlotMap<VertexId, Vertex>,
    pub(crate) edges: SlotMap<EdgeId, Edge>,
    pub(crate) component_count: u32,
    pub(crate) free_area: f64,
    pub(crate) stats: BuildStats,
    pub(crate) cells: CellIndex,
    /// Identity of this map's current contents, so that caches keyed by edge id (such as
    /// a [`crate::Planner`]'s edge costs) are never reused across maps. Fresh on every
    /// build, load and change.
    #[serde(skip, default = "fresh_uid")]
    pub(crate) uid: u64,
}

/// A number no other map content has had in this process.
pub(crate) fn fresh_uid() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Ecm {
    /// The snap grid the ECM was built on.
    pub fn snap_grid(&self) -> SnapGrid {
        self.grid
    }

    /// All vertices with their ids.
    pub fn vertices(&self) -> impl ExactSizeIterator<Item = (VertexId, &Vertex)> {
        self.vertices.iter()
    }

    /// All edges with their ids.
    pub fn edges(&self) -> impl ExactSizeIterator<Item = (EdgeId, &Edge)> {
        self.edges.iter()
    }

    /// The vertex with this id.
    pub fn vertex(&self, id: VertexId) -> Option<&Vertex> {
        self.vertices.get(id)
    }

    /// The edge with this id.
    pub fn edge(&self, id: EdgeId) -> Option<&Edge> {
        self.edges.get(id)
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.vertices.len()
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Number of bending points, counting each vertex once and each edge's interior
    /// bending points.
    pub fn bending_point_count(&self) -> usize {
        self.vertices.len()
            + self
                .edges
                .values()
                .map(|e| e.bending_points.len().saturating_sub(2))
                .sum::<usize>()
    }

    /// Number of connected components (one per connected component of the free space).
    pub fn component_count(&self) -> usize {
        self.component_count as usize
    }

    /// The vertices of one component.
    pub fn component_vertices(
        &self,
        component: ComponentId,
    ) -> impl Iterator<Item = VertexId> + '_ {
        self.vertices
            .iter()
            .filter(move |(_, v)| v.component == component)
            .map(|(id, _)| id)
    }

    /// Area of the free space the ECM was built for (exact, from the walls).
    pub fn free_area(&self) -> f64 {
        self.free_area
    }

    /// Area of one edge side's cell (the sum of its pieces' signed areas).
    pub fn cell_area(&self, edge: EdgeId, side: Side) -> f64 {
        self.edges
            .get(edge)
            .map(|e| e.cell_pieces(side).map(|p| signed_area(&p)).sum())
            .unwrap_or(0.0)
    }

    /// Timings and counts of the build that made this ECM.
    pub fn stats(&self) -> &BuildStats {
        &self.stats
    }
}
