//! Simple rings and polygons with holes.

use crate::radix::{sort_index_pairs, total_order_key};
use crate::{orient, point_on_segment, segments_intersect, Aabb, Orientation, Point, Segment};
#[cfg(feature = "serde")]
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
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
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

    /// The number of distinct vertices when it is below `limit`, else `limit`: a linear
    /// scan that stops at the `limit`-th distinct vertex (most rings stop after three).
    pub fn distinct_vertex_count_up_to(&self, limit: usize) -> usize {
        // Validation asks for 3 on every ring: small limits need no heap buffer.
        let mut on_stack = [Point::ZERO; 8];
        let mut on_heap = Vec::new();
        let seen: &mut [Point] = if limit <= on_stack.len() {
            &mut on_stack[..limit]
        } else {
            on_heap.resize(limit, Point::ZERO);
            &mut on_heap
        };
        let mut count = 0;
        for &p in &self.vertices {
            if count == seen.len() {
                break;
            }
            if !seen[..count].contains(&p) {
                seen[count] = p;
                count += 1;
            }
        }
        count
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
        self.find_self_intersection_in(&mut SweepScratch::default())
    }

    /// [`Ring::find_self_intersection`] with the sweep's buffers in `scratch` (reused
    /// across the rings of one environment: most rings are small, and three allocations
    /// each were a good part of their check).
    pub(crate) fn find_self_intersection_in(
        &self,
        scratch: &mut SweepScratch,
    ) -> Option<SelfIntersection> {
        let n = self.vertices.len();
        if n < 3 {
            return None;
        }
        if n <= SMALL_RING && !self.small_ring_conflicts() {
            // No pair conflicts, so neither does any pair the sweep would test (a subset).
            return None;
        }
        if n > SMALL_RING && lattice_ring_is_simple(&self.vertices, &mut scratch.marks) {
            // No two points of the ring coincide: no pair conflicts (see the function).
            return None;
        }
        let SweepScratch {
            edges,
            boxes,
            order,
            active,
            counts,
            ..
        } = scratch;
        edges.clear();
        edges.extend(self.edges());
        boxes.clear();
        boxes.extend(edges.iter().map(Segment::aabb));
        // Each box once, sorted with its edge by left side (ties in edge order, as the
        // stable sort by `total_cmp` of before: the keys are the same order, and the pairs
        // are distinct), and the active boxes kept beside their edges: recomputing the
        // boxes from the edges in the inner loop was two thirds of this function.
        if !sort_by_integer_left(boxes, order, counts) {
            order.clear();
            order.extend(
                boxes
                    .iter()
                    .zip(0u32..)
                    .map(|(b, i)| (total_order_key(b.min.x), i)),
            );
            sort_index_pairs(order);
        }
        let finite = self.vertices.iter().all(|p| p.is_finite());
        active.clear();
        for &(_, i) in order.iter() {
            let (bi, i) = (boxes[i as usize], i as usize);
            active.retain(|(bj, _)| bj.max.x >= bi.min.x);
            for &(bj, j) in active.iter() {
                if !bi.intersects(&bj) {
                    continue;
                }
                let (lo, hi) = (i.min(j), i.max(j));
                if edges_conflict(edges, lo, hi, n, finite) {
                    return Some(SelfIntersection {
                        first_edge: lo,
                        second_edge: hi,
                    });
                }
            }
            active.push((bi, i));
        }
        None
    }

    /// Whether any two edges of a ring of at most [`SMALL_RING`] vertices conflict, all
    /// pairs with meeting boxes tested (no buffers, no sort).
    fn small_ring_conflicts(&self) -> bool {
        let n = self.vertices.len();
        debug_assert!((3..=SMALL_RING).contains(&n));
        let v = &self.vertices;
        let edges: [Segment; SMALL_RING] =
            std::array::from_fn(|i| Segment::new(v[i % n], v[(i + 1) % n]));
        let boxes: [Aabb; SMALL_RING] = std::array::from_fn(|i| edges[i].aabb());
        let finite = v.iter().all(|p| p.is_finite());
        (0..n).any(|i| {
            (i + 1..n)
                .any(|j| boxes[i].intersects(&boxes[j]) && edges_conflict(&edges, i, j, n, finite))
        })
    }
}

/// Rings of up to this many vertices are first checked pair by pair (at most 28 pairs);
/// the sweep runs only when some pair conflicts, to name the pair it would have named.
const SMALL_RING: usize = 8;

/// The buffers of [`Ring::find_self_intersection_in`].
#[derive(Debug, Default)]
pub(crate) struct SweepScratch {
    edges: Vec<Segment>,
    boxes: Vec<Aabb>,
    order: Vec<(u64, u32)>,
    active: Vec<(Aabb, usize)>,
    counts: Vec<u32>,
    /// The lattice points visited by [`lattice_ring_is_simple`], one bit each.
    marks: Vec<u64>,
}

/// Whether the ring is proven simple by walking its lattice points: `true` only when
/// every vertex has integer coordinates, every edge is horizontal or vertical and not
/// empty, and no lattice point is met twice along the closed walk (each edge marks its
/// lattice points from its start, exclusive, to its end, inclusive, so every point of the
/// walk at an integer position is marked once per visit); `false` otherwise, or when the
/// walk or its bounding box would be long for the ring's size (then the sweep decides).
///
/// When it says `true`, no pair of edges conflicts as [`edges_conflict`] defines it:
/// two axis-parallel edges with integer ends that share a point share a lattice point
/// (a horizontal and a vertical one meet at (x of the vertical, y of the horizontal);
/// two on one line overlap in a closed interval with integer ends), so non-neighbours
/// that meet, or neighbours folding back onto each other beyond their common vertex,
/// visit some lattice point twice; no edge is empty; and a triangle of such edges is
/// degenerate, so it folds back too. Grid maps' obstacles are such rings, and the walk
/// (a few steps per edge there) is far cheaper than the sweep, whose active list holds
/// every long horizontal edge while it passes. Signed zeros are equal numbers here.
fn lattice_ring_is_simple(v: &[Point], marks: &mut Vec<u64>) -> bool {
    let n = v.len();
    // Integers this small convert to `i64` exactly; NaN fails the range test.
    const RANGE: f64 = (1u64 << 40) as f64;
    let integer = |c: f64| c.abs() <= RANGE && (c as i64) as f64 == c;
    let (mut lo, mut hi) = (Point::splat(f64::INFINITY), Point::splat(f64::NEG_INFINITY));
    let mut steps = 0.0;
    let mut a = v[n - 1];
    for &b in v {
        if !(integer(b.x) && integer(b.y)) {
            return false;
        }
        // Horizontal or vertical, and not empty (exact differences of small integers;
        // `a` was checked in its own turn, or is the last vertex, checked last).
        let (dx, dy) = ((b.x - a.x).abs(), (b.y - a.y).abs());
        if (dx == 0.0) == (dy == 0.0) {
            return false;
        }
        steps += dx + dy;
        lo = lo.min(b);
        hi = hi.max(b);
        a = b;
    }
    let (width, height) = (hi.x - lo.x + 1.0, hi.y - lo.y + 1.0);
    let words = (width * height / 64.0).ceil();
    if !(steps <= (16 * n) as f64 && words <= (4 * n + 64) as f64) {
        return false;
    }
    let (width, words) = (width as usize, words as usize);
    marks.clear();
    marks.resize(words, 0);
    let (x0, y0) = (lo.x as i64, lo.y as i64);
    let index = |p: Point| (p.y as i64 - y0) as usize * width + (p.x as i64 - x0) as usize;
    let mut a = v[n - 1];
    let mut from = index(a);
    for &b in v {
        let to = index(b);
        let stride = if a.y == b.y { 1 } else { width };
        let (count, step) = if to > from {
            ((to - from) / stride, stride as isize)
        } else {
            ((from - to) / stride, -(stride as isize))
        };
        let mut k = from;
        for _ in 0..count {
            k = k.wrapping_add_signed(step);
            let (word, bit) = (k / 64, 1u64 << (k % 64));
            if marks[word] & bit != 0 {
                return false;
            }
            marks[word] |= bit;
        }
        (a, from) = (b, to);
    }
    true
}

/// Sorts the edges by the left side of their boxes into `order` (each as its
/// [`total_order_key`] and number) when every left side is an integer, none of them
/// `-0.0`, all within a range of at most 4n + 64 (grid maps): a counting sort by
/// `x - min`, stable, so the order of the sort by (key, edge); returns false, leaving
/// `order` as it was, otherwise. The differences are exact: two integers `x ≥ min` whose
/// difference is that small are both small, or of one sign within a factor of two.
fn sort_by_integer_left(
    boxes: &[Aabb],
    order: &mut Vec<(u64, u32)>,
    counts: &mut Vec<u32>,
) -> bool {
    let n = boxes.len();
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for b in boxes {
        let x = b.min.x;
        // `-0.0` sorts below `0.0` by `total_cmp`, though the two are equal numbers.
        if !(x.is_finite() && x == x.trunc()) || x.to_bits() == (-0.0f64).to_bits() {
            return false;
        }
        lo = lo.min(x);
        hi = hi.max(x);
    }
    let span = (4 * n + 64) as f64;
    // Finite here (every side is), or infinite when the subtraction overflows.
    if n == 0 || hi - lo > span {
        return false;
    }
    let slots = (hi - lo) as usize + 2;
    counts.clear();
    counts.resize(slots, 0);
    for b in boxes {
        counts[(b.min.x - lo) as usize + 1] += 1;
    }
    for k in 1..slots {
        counts[k] += counts[k - 1];
    }
    order.clear();
    order.resize(n, (0, 0));
    for (b, i) in boxes.iter().zip(0u32..) {
        let slot = &mut counts[(b.min.x - lo) as usize];
        order[*slot as usize] = (total_order_key(b.min.x), i);
        *slot += 1;
    }
    true
}

/// Exact point location against one ring for many queries: the ring's edges listed by
/// horizontal rows, so a query looks only at the edges whose y-range meets its row
/// instead of at every edge. Answers are those of [`Ring::contains_or_touches`]: an edge
/// whose closed y-range misses `p.y` can neither hold `p` nor cross the horizontal ray
/// from `p`, and the row of a y-range always contains the rows of the values inside it
/// (the row of `y` is a monotone function of `y`, whatever the rounding).
pub(crate) struct RingLocator<'a> {
    ring: &'a Ring,
    bounds: Aabb,
    y0: f64,
    rows_per_unit: f64,
    rows: usize,
    /// Edges of row `r`: `entries[row_start[r]..row_start[r + 1]]`.
    row_start: Vec<u32>,
    entries: Vec<u32>,
}

impl<'a> RingLocator<'a> {
    /// The index over `ring` (`None` for an empty ring). Linear time and memory: the row
    /// count is halved until the edges list at most four rows each on average.
    pub(crate) fn new(ring: &'a Ring) -> Option<Self> {
        let bounds = ring.aabb()?;
        let n = ring.len();
        let height = bounds.max.y - bounds.min.y;
        let mut rows = (n / 2).max(1);
        loop {
            let rows_per_unit = if height > 0.0 {
                rows as f64 / height
            } else {
                0.0
            };
            let mut locator = RingLocator {
                ring,
                bounds,
                y0: bounds.min.y,
                rows_per_unit,
                rows,
                row_start: Vec::new(),
                entries: Vec::new(),
            };
            let spans = || {
                ring.edges().map(|e| {
                    let (lo, hi) = (e.a.y.min(e.b.y), e.a.y.max(e.b.y));
                    (locator.row(lo), locator.row(hi))
                })
            };
            let total: usize = spans().map(|(lo, hi)| hi - lo + 1).sum();
            if total > 4 * n && rows > 1 {
                rows /= 2;
                continue;
            }
            let mut count = vec![0u32; rows + 1];
            for (lo, hi) in spans() {
                for r in lo..=hi {
                    count[r + 1] += 1;
                }
            }
            for r in 0..rows {
                count[r + 1] += count[r];
            }
            let mut entries = vec![0u32; total];
            let mut next = count.clone();
            for (i, (lo, hi)) in spans().enumerate() {
                for r in lo..=hi {
                    entries[next[r] as usize] = i as u32;
                    next[r] += 1;
                }
            }
            locator.row_start = count;
            locator.entries = entries;
            return Some(locator);
        }
    }

    /// The row of height `y` (clamped; monotone in `y`).
    fn row(&self, y: f64) -> usize {
        let r = ((y - self.y0) * self.rows_per_unit).max(0.0) as usize;
        r.min(self.rows - 1)
    }

    /// Whether `p` lies inside or on the ring (exact), as [`Ring::contains_or_touches`].
    pub(crate) fn contains_or_touches(&self, p: Point) -> bool {
        if !self.bounds.contains(p) {
            return false;
        }
        let r = self.row(p.y);
        let v = self.ring.vertices();
        let n = v.len();
        let mut winding = 0;
        for &i in &self.entries[self.row_start[r] as usize..self.row_start[r + 1] as usize] {
            let i = i as usize;
            let (a, b) = (v[i], v[(i + 1) % n]);
            if p.y < a.y.min(b.y) || p.y > a.y.max(b.y) {
                continue;
            }
            let o = orient(a, b, p);
            if o == Orientation::Collinear && p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) {
                return true; // on the boundary
            }
            if a.y <= p.y {
                if b.y > p.y && o == Orientation::CounterClockwise {
                    winding += 1;
                }
            } else if b.y <= p.y && o == Orientation::Clockwise {
                winding -= 1;
            }
        }
        winding != 0
    }
}

/// Whether edges `i < j` of a ring with `n` edges meet anywhere they should not.
///
/// `ring_finite` says that every vertex of the ring is finite (then so are the four ends).
#[inline]
fn edges_conflict(edges: &[Segment], i: usize, j: usize, n: usize, ring_finite: bool) -> bool {
    let (e, f) = (edges[i], edges[j]);
    let adjacent_forward = j == i + 1; // e.b == f.a
    let adjacent_wrap = i == 0 && j == n - 1; // f.b == e.a
    if !(adjacent_forward || adjacent_wrap) {
        return segments_intersect(e.a, e.b, f.a, f.b);
    }
    // Neighbours with finite coordinates always meet at their shared vertex (the same
    // point of the ring): the exact intersection test, which would say so, is skipped
    // for them (it was a third of this sweep on grid maps).
    let finite = ring_finite || [e.a, e.b, f.a, f.b].iter().all(|p| p.is_finite());
    if !finite && !segments_intersect(e.a, e.b, f.a, f.b) {
        return false;
    }
    // A horizontal and a vertical neighbour, both non-empty (most pairs on grid maps),
    // are never collinear, so they only share their common vertex: both tests below
    // would say so through an orientation test.
    let horizontal = |s: Segment| s.a.y == s.b.y && s.a.x != s.b.x;
    let vertical = |s: Segment| s.a.x == s.b.x && s.a.y != s.b.y;
    if finite && ((horizontal(e) && vertical(f)) || (vertical(e) && horizontal(f))) {
        return false;
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
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Polygon {
    /// The outer boundary.
    pub exterior: Ring,
    /// Holes inside the exterior.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The sweep as it was before the scratch buffers, the small-ring pretest and the
    /// keyed sort: a stable sort of (box, edge) by `total_cmp` of the left side.
    fn find_self_intersection_before(ring: &Ring) -> Option<SelfIntersection> {
        let n = ring.vertices.len();
        if n < 3 {
            return None;
        }
        let edges: Vec<Segment> = ring.edges().collect();
        let mut order: Vec<(Aabb, usize)> = edges.iter().map(Segment::aabb).zip(0..).collect();
        order.sort_by(|a, b| a.0.min.x.total_cmp(&b.0.min.x));
        let mut active: Vec<(Aabb, usize)> = Vec::new();
        for &(bi, i) in &order {
            active.retain(|(bj, _)| bj.max.x >= bi.min.x);
            for &(bj, j) in &active {
                if !bi.intersects(&bj) {
                    continue;
                }
                let (lo, hi) = (i.min(j), i.max(j));
                if edges_conflict(&edges, lo, hi, n, false) {
                    return Some(SelfIntersection {
                        first_edge: lo,
                        second_edge: hi,
                    });
                }
            }
            active.push((bi, i));
        }
        None
    }

    /// `edges_conflict` as it was before the horizontal/vertical shortcut for neighbours.
    fn edges_conflict_before(edges: &[Segment], i: usize, j: usize, n: usize) -> bool {
        let (e, f) = (edges[i], edges[j]);
        let adjacent_forward = j == i + 1;
        let adjacent_wrap = i == 0 && j == n - 1;
        if !(adjacent_forward || adjacent_wrap) {
            return segments_intersect(e.a, e.b, f.a, f.b);
        }
        let finite = [e.a, e.b, f.a, f.b].iter().all(|p| p.is_finite());
        if !finite && !segments_intersect(e.a, e.b, f.a, f.b) {
            return false;
        }
        if n == 3 && e.length() > 0.0 && f.length() > 0.0 {
            let third = if adjacent_forward { f.b } else { e.b };
            let shared = if adjacent_forward { e.b } else { e.a };
            let other = if adjacent_forward { e.a } else { f.a };
            return orient(other, shared, third) == Orientation::Collinear;
        }
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

    /// Every pair of edges of small rings on a few grid lines (so that most neighbours are
    /// horizontal and vertical, with repeated vertices, fold-backs, signed zeros, tiny and
    /// non-finite coordinates, triangles) gets the same answer as before the shortcut.
    #[test]
    fn edges_conflict_matches_before() {
        let mut rng = ChaCha8Rng::seed_from_u64(20);
        let values = [
            -1.0,
            -0.0,
            0.0,
            1.0,
            2.0,
            1e-300,
            3.5,
            f64::NAN,
            f64::INFINITY,
        ];
        let mut shortcut = 0;
        for round in 0..20_000 {
            let n = rng.random_range(3..8);
            let wild = round % 10 == 0;
            let coordinate = |rng: &mut ChaCha8Rng| {
                let k = rng.random_range(0..if wild { values.len() } else { 6 });
                values[k]
            };
            let mut v = vec![Point::new(coordinate(&mut rng), coordinate(&mut rng))];
            for _ in 1..n {
                let last = v[v.len() - 1];
                // Mostly axis-parallel steps: keep x or y of the previous vertex.
                v.push(match rng.random_range(0..5) {
                    0 | 1 => Point::new(last.x, coordinate(&mut rng)),
                    2 | 3 => Point::new(coordinate(&mut rng), last.y),
                    _ => Point::new(coordinate(&mut rng), coordinate(&mut rng)),
                });
            }
            let ring = Ring::new(v);
            let edges: Vec<Segment> = ring.edges().collect();
            let n = edges.len();
            let finite = ring.vertices.iter().all(|p| p.is_finite());
            for i in 0..n {
                for j in i + 1..n {
                    let before = edges_conflict_before(&edges, i, j, n);
                    assert_eq!(
                        edges_conflict(&edges, i, j, n, finite),
                        before,
                        "round {round}: {i} {j} {edges:?}"
                    );
                    let (e, f) = (edges[i], edges[j]);
                    shortcut += usize::from(
                        (j == i + 1 || (i == 0 && j == n - 1))
                            && e.a.y == e.b.y
                            && f.a.x == f.b.x
                            && e.a.x != e.b.x
                            && f.a.y != f.b.y,
                    );
                }
            }
        }
        assert!(shortcut > 5_000, "{shortcut} pairs took the shortcut");
    }

    /// The same answers (pair included) as before on random rings of every size around
    /// the small-ring and radix thresholds: simple star-shaped rings, the same with a
    /// vertex moved (often crossing), repeated vertices, grid coordinates with ties, signed
    /// zeros and non-finite coordinates; one scratch reused throughout.
    #[test]
    fn find_self_intersection_matches_before() {
        let mut rng = ChaCha8Rng::seed_from_u64(19);
        let mut scratch = SweepScratch::default();
        let mut found = [0usize; 2];
        for round in 0..1500 {
            let n = match round % 6 {
                0 => rng.random_range(3..=SMALL_RING),
                1 => rng.random_range(SMALL_RING + 1..40),
                2 => rng.random_range(3..6),
                3 => rng.random_range(1000..1100),
                _ => rng.random_range(3..200),
            };
            if n >= 1000 && round % 5 != 0 {
                continue;
            }
            let grid = round % 3 == 0;
            // A star around the origin: angles sorted, radii random.
            let mut angles: Vec<f64> = (0..n)
                .map(|_| rng.random_range(0.0..std::f64::consts::TAU))
                .collect();
            angles.sort_by(f64::total_cmp);
            let mut v: Vec<Point> = angles
                .iter()
                .map(|&a| {
                    let r = rng.random_range(1.0..10.0);
                    let p = Point::new(r * a.cos(), r * a.sin());
                    if grid {
                        Point::new((p.x * 2.0).round(), (p.y * 2.0).round())
                    } else {
                        p
                    }
                })
                .collect();
            match round % 7 {
                1 => {
                    let i = rng.random_range(0..n);
                    v[i] = Point::new(rng.random_range(-10.0..10.0), rng.random_range(-10.0..10.0));
                }
                2 => {
                    let i = rng.random_range(0..n);
                    let j = rng.random_range(0..n);
                    v[i] = v[j];
                }
                3 => {
                    let i = rng.random_range(0..n);
                    v[i] = Point::new(-0.0, 0.0);
                    let j = rng.random_range(0..n);
                    v[j] = Point::new(0.0, -0.0);
                }
                4 if round % 4 == 0 => {
                    let i = rng.random_range(0..n);
                    v[i] = Point::new([f64::NAN, f64::INFINITY, -f64::NAN][round % 3], 1.0);
                }
                _ => {}
            }
            let ring = Ring::new(v);
            let expected = find_self_intersection_before(&ring);
            found[expected.is_some() as usize] += 1;
            assert_eq!(ring.find_self_intersection(), expected, "round {round}");
            assert_eq!(
                ring.find_self_intersection_in(&mut scratch),
                expected,
                "round {round}"
            );
        }
        // Both outcomes were exercised.
        assert!(found[0] > 100 && found[1] > 100, "{found:?}");
    }

    /// Rectilinear rings (grid-map obstacles: skylines with runs of equal heights, so
    /// some neighbours are collinear, then an edge shifted sideways, which makes touches,
    /// crossings, fold-backs and empty edges): the same answers (pair included) as the
    /// sweep before the lattice walk; the walk is checked on its own too (it may only
    /// accept rings the old sweep finds simple), and it must decide most simple rings.
    #[test]
    fn lattice_walk_matches_the_sweep() {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let mut scratch = SweepScratch::default();
        let mut marks = Vec::new();
        let (mut simple, mut accepted, mut conflicts) = (0, 0, 0);
        for round in 0..6000 {
            let columns = rng.random_range(2..40);
            let top = rng.random_range(1..12);
            let heights: Vec<i64> = (0..columns).map(|_| rng.random_range(1..=top)).collect();
            let mut v: Vec<(i64, i64)> = vec![(0, 0), (columns as i64, 0)];
            for i in (0..columns).rev() {
                v.push((i as i64 + 1, heights[i]));
                v.push((i as i64, heights[i]));
            }
            v.dedup();
            while v.len() > 1 && v.first() == v.last() {
                v.pop();
            }
            // Shift one edge sideways (both its ends), keeping it axis-parallel.
            if round % 2 == 1 {
                let n = v.len();
                let i = rng.random_range(0..n);
                let j = (i + 1) % n;
                let d = rng.random_range(-3..=3);
                if v[i].1 == v[j].1 {
                    v[i].1 += d;
                    v[j].1 += d;
                } else {
                    v[i].0 += d;
                    v[j].0 += d;
                }
            }
            if round % 5 == 2 {
                v.reverse();
            }
            let transpose = round % 3 == 1;
            let scale = [1.0, 1.0, 1.0, 3.0, 40.0][round % 5];
            let offset = [0.0, -7.0, 1e9, 0.5, -(2f64.powi(45))][round % 7 / 2 + round % 2];
            let ring = Ring::new(
                v.iter()
                    .map(|&(x, y)| {
                        let (x, y) = if transpose { (y, x) } else { (x, y) };
                        let c = |t: i64| {
                            let c = t as f64 * scale + offset;
                            if c == 0.0 && round % 4 == 0 {
                                -0.0
                            } else {
                                c
                            }
                        };
                        Point::new(c(x), c(y))
                    })
                    .collect(),
            );
            let expected = find_self_intersection_before(&ring);
            assert_eq!(
                ring.find_self_intersection_in(&mut scratch),
                expected,
                "round {round}"
            );
            if ring.len() > SMALL_RING {
                let walk = lattice_ring_is_simple(ring.vertices(), &mut marks);
                assert!(!walk || expected.is_none(), "round {round}");
                if expected.is_none() {
                    simple += 1;
                    accepted += usize::from(walk);
                } else {
                    conflicts += 1;
                }
            }
        }
        assert!(conflicts > 500, "{conflicts} rings with a conflict");
        assert!(
            simple > 1000 && accepted * 2 > simple,
            "the walk accepted {accepted} of {simple} simple rings"
        );
    }
}
