//! Simple rings and polygons with holes.

use crate::{orient, point_on_segment, segments_intersect, Aabb, Orientation, Point, Segment};
use serde::{Deserialize, Serialize};

/// A closed polyline that should not cross itself: the boundary of a simple polygon.
/// Vertices are stored without repeating the first one; either orientation is allowed.
///
/// ```
/// use corridor_geom::{Point, Ring};
/// // A concave "L".
/// let l = Ring::new([(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)]
///     .iter().map(|&(x, y)| Point::new(x, y)).collect());
/// assert_eq!(l.area(), 3.0);
/// assert!(l.contains(Point::new(0.5, 1.5)));
/// assert!(!l.contains(Point::new(1.5, 1.5)));
/// assert!(l.find_self_intersection().is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Ring {
    vertices: Vec<Point>,
}

/// Two edges of a ring that cross or touch where they should not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelfIntersection {
    /// Index of the first edge (from vertex `i` to vertex `i + 1`).
    pub first_edge: usize,
    /// Index of the second edge.
    pub second_edge: usize,
}

impl Ring {
    /// A ring through `vertices`; a repeated closing vertex is dropped.
    pub fn new(mut vertices: Vec<Point>) -> Self {
        if vertices.len() > 1 && vertices.first() == vertices.last() {
            vertices.pop();
        }
        Ring { vertices }
    }

    /// The vertices, without the closing repetition.
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.vertices.len()
    }

    /// Whether the ring has no vertices.
    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }

    /// The edges, from vertex `i` to vertex `i + 1` (wrapping).
    pub fn edges(&self) -> impl ExactSizeIterator<Item = Segment> + '_ {
        let n = self.vertices.len();
        (0..n).map(move |i| Segment::new(self.vertices[i], self.vertices[(i + 1) % n]))
    }

    /// Twice the signed area: positive when counter-clockwise.
    pub fn signed_area(&self) -> f64 {
        let n = self.vertices.len();
        let mut twice = 0.0;
        for i in 0..n {
            let (p, q) = (self.vertices[i], self.vertices[(i + 1) % n]);
            twice += p.x * q.y - q.x * p.y;
        }
        twice / 2.0
    }

    /// Area (absolute).
    pub fn area(&self) -> f64 {
        self.signed_area().abs()
    }

    /// Whether the vertices run counter-clockwise.
    pub fn is_counter_clockwise(&self) -> bool {
        self.signed_area() > 0.0
    }

    /// The same ring in the opposite orientation.
    pub fn reversed(&self) -> Ring {
        let mut vertices = self.vertices.clone();
        vertices.reverse();
        Ring { vertices }
    }

    /// Bounding box (`None` for an empty ring).
    pub fn aabb(&self) -> Option<Aabb> {
        Aabb::from_points(self.vertices.iter().copied())
    }

    /// Number of distinct vertices.
    pub fn distinct_vertex_count(&self) -> usize {
        let mut v = self.vertices.clone();
        v.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
        v.dedup();
        v.len()
    }

    /// Whether `p` lies on the boundary (exact).
    pub fn on_boundary(&self, p: Point) -> bool {
        self.edges().any(|e| point_on_segment(p, e.a, e.b))
    }

    /// Whether `p` lies strictly inside (exact; boundary points are not inside).
    pub fn contains(&self, p: Point) -> bool {
        self.winding_number(p) != 0 && !self.on_boundary(p)
    }

    /// Whether `p` lies inside or on the boundary (exact).
    pub fn contains_or_touches(&self, p: Point) -> bool {
        self.on_boundary(p) || self.winding_number(p) != 0
    }

    /// Winding number of the ring around `p` (exact orientation tests; undefined sign
    /// convention for points on the boundary).
    pub fn winding_number(&self, p: Point) -> i32 {
        let mut winding = 0;
        for e in self.edges() {
            if e.a.y <= p.y {
                if e.b.y > p.y && orient(e.a, e.b, p) == Orientation::CounterClockwise {
                    winding += 1;
                }
            } else if e.b.y <= p.y && orient(e.a, e.b, p) == Orientation::Clockwise {
                winding -= 1;
            }
        }
        winding
    }

    /// The point of the boundary nearest to `p`.
    pub fn nearest_boundary_point(&self, p: Point) -> Option<Point> {
        self.edges()
            .map(|e| e.nearest_point(p))
            .min_by(|a, b| a.distance_squared(p).total_cmp(&b.distance_squared(p)))
    }

    /// The first pair of edges that cross or touch, other than neighbours meeting at their
    /// shared vertex; `None` when the ring is simple. Zero-length edges are reported too
    /// (as touching their neighbours). A sweep over x keeps this near O(n log n) for
    /// typical rings.
    pub fn find_self_intersection(&self) -> Option<SelfIntersection> {
        let n = self.vertices.len();
        if n < 3 {
            return None;
        }
        let edges: Vec<Segment> = self.edges().collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&i, &j| edges[i].aabb().min.x.total_cmp(&edges[j].aabb().min.x));
        let mut active: Vec<usize> = Vec::new();
        for &i in &order {
            let bi = edges[i].aabb();
            active.retain(|&j| edges[j].aabb().max.x >= bi.min.x);
            for &j in &active {
                if !bi.intersects(&edges[j].aabb()) {
                    continue;
                }
                let (lo, hi) = (i.min(j), i.max(j));
                if edges_conflict(&edges, lo, hi, n) {
                    return Some(SelfIntersection {
                        first_edge: lo,
                        second_edge: hi,
                    });
                }
            }
            active.push(i);
        }
        None
    }
}

/// Whether edges `i < j` of a ring with `n` edges meet anywhere they should not.
fn edges_conflict(edges: &[Segment], i: usize, j: usize, n: usize) -> bool {
    let (e, f) = (edges[i], edges[j]);
    if !segments_intersect(e.a, e.b, f.a, f.b) {
        return false;
    }
    let adjacent_forward = j == i + 1; // e.b == f.a
    let adjacent_wrap = i == 0 && j == n - 1; // f.b == e.a
    if !(adjacent_forward || adjacent_wrap) {
        return true;
    }
    if n == 3 && e.length() > 0.0 && f.length() > 0.0 {
        // A triangle's edges are all neighbours; they conflict only when degenerate.
        let third = if adjacent_forward { f.b } else { e.b };
        let shared = if adjacent_forward { e.b } else { e.a };
        let other = if adjacent_forward { e.a } else { f.a };
        return orient(other, shared, third) == Orientation::Collinear;
    }
    // Neighbours may only share their common vertex: they conflict when they fold back
    // onto each other (collinear and overlapping beyond the shared vertex) or one is empty.
    let (shared, p, q) = if adjacent_forward {
        (e.b, e.a, f.b)
    } else {
        (e.a, e.b, f.a)
    };
    if p == shared || q == shared {
        return true;
    }
    orient(p, shared, q) == Orientation::Collinear && (q - shared).dot(p - shared) > 0.0
}

/// A polygon: an outer ring with zero or more holes. Holes may touch the outer ring or
/// each other at single points (as grid maps produce), but must not cross.
///
/// ```
/// use corridor_geom::{Point, Polygon, Ring};
/// let sq = |x0: f64, y0: f64, s: f64| Ring::new(vec![
///     Point::new(x0, y0), Point::new(x0 + s, y0), Point::new(x0 + s, y0 + s), Point::new(x0, y0 + s),
/// ]);
/// let frame = Polygon::new(sq(0.0, 0.0, 3.0), vec![sq(1.0, 1.0, 1.0)]);
/// assert_eq!(frame.area(), 8.0);
/// assert!(!frame.contains(Point::new(1.5, 1.5)));
/// assert!(frame.contains(Point::new(0.5, 1.5)));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Polygon {
    /// The outer boundary.
    pub exterior: Ring,
    /// Holes inside the exterior.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<Ring>,
}

impl Polygon {
    /// A polygon from its outer ring and holes.
    pub fn new(exterior: Ring, holes: Vec<Ring>) -> Self {
        Polygon { exterior, holes }
    }

    /// A polygon without holes.
    pub fn simple(exterior: Ring) -> Self {
        Polygon {
            exterior,
            holes: Vec::new(),
        }
    }

    /// Area of the exterior minus the holes.
    pub fn area(&self) -> f64 {
        self.exterior.area() - self.holes.iter().map(Ring::area).sum::<f64>()
    }

    /// Whether `p` lies strictly inside (not on any boundary, not in a hole).
    pub fn contains(&self, p: Point) -> bool {
        self.exterior.contains(p) && !self.holes.iter().any(|h| h.contains_or_touches(p))
    }

    /// Whether `p` lies inside or on a boundary.
    pub fn contains_or_touches(&self, p: Point) -> bool {
        self.exterior.contains_or_touches(p) && !self.holes.iter().any(|h| h.contains(p))
    }

    /// All rings: the exterior first, then the holes.
    pub fn rings(&self) -> impl Iterator<Item = &Ring> {
        std::iter::once(&self.exterior).chain(self.holes.iter())
    }

    /// All boundary edges.
    pub fn edges(&self) -> impl Iterator<Item = Segment> + '_ {
        self.rings().flat_map(Ring::edges)
    }

    /// Bounding box of the exterior.
    pub fn aabb(&self) -> Option<Aabb> {
        self.exterior.aabb()
    }

    /// Distance from `p` to the nearest boundary point (0 on the boundary).
    pub fn boundary_distance(&self, p: Point) -> f64 {
        self.edges()
            .map(|e| e.distance(p))
            .fold(f64::INFINITY, f64::min)
    }
}
