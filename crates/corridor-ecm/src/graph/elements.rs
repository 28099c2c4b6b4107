//! The parts of an ECM: bending points with their nearest obstacle points, vertices,
//! edges, and the cell pieces between consecutive bending points.

use super::ids::{ComponentId, EdgeId, Side, VertexId};
use corridor_geom::Point;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

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
pub(crate) const INLINE_DEGREE: usize = 3;

/// A vertex's incident edges: a small vector (`smallvec::SmallVec`) that holds up to 3 of
/// them inline (almost every vertex of a medial axis has degree 1 or 3). It dereferences to a
/// slice (`&[EdgeId]`), and serializes as a sequence, as a `Vec` does.
pub type VertexEdges = SmallVec<[EdgeId; INLINE_DEGREE]>;

/// A vertex's nearest obstacle points: a small vector (`smallvec::SmallVec`) that holds
/// up to 3 of them inline (a vertex has one per sector between its edges). It
/// dereferences to a slice (`&[Point]`), and serializes as a sequence, as a `Vec` does.
pub type NearestPoints = SmallVec<[Point; INLINE_DEGREE]>;

/// Reads a small vector element by element, reserving nothing from the length field
/// (`smallvec`'s own `Deserialize` reserves the length it is told, unbounded): a forged
/// length in a saved ECM then costs no more memory than its bytes can fill.
pub(crate) fn bounded_small_vec<'de, D, A>(d: D) -> Result<SmallVec<A>, D::Error>
where
    D: serde::Deserializer<'de>,
    A: smallvec::Array,
    A::Item: Deserialize<'de>,
{
    struct Items<A>(std::marker::PhantomData<A>);
    impl<'de, A: smallvec::Array> serde::de::Visitor<'de> for Items<A>
    where
        A::Item: Deserialize<'de>,
    {
        type Value = SmallVec<A>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a sequence")
        }
        fn visit_seq<S: serde::de::SeqAccess<'de>>(
            self,
            mut seq: S,
        ) -> Result<Self::Value, S::Error> {
            let mut items = SmallVec::new();
            while let Some(item) = seq.next_element()? {
                items.push(item);
            }
            Ok(items)
        }
    }
    d.deserialize_seq(Items(std::marker::PhantomData))
}

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
    /// just the corner). Inline up to 3 points; use it as a slice.
    #[serde(deserialize_with = "bounded_small_vec")]
    pub nearest_obstacle_points: NearestPoints,
    /// Incident edges, counter-clockwise by the direction in which they leave the vertex.
    /// An edge that starts and ends here (a loop) appears twice. Inline up to 3
    /// edges; use it as a slice.
    #[serde(deserialize_with = "bounded_small_vec")]
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
