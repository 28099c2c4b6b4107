//! From the extracted medial axis (grid coordinates) to the ECM graph: components, vertex
//! edge order, nearest points per sector, user coordinates.

use super::extract::RawEcm;
use crate::graph::{
    BendingPoint, BuildStats, CellIndex, ComponentId, Ecm, Edge, EdgeId, Vertex, VertexId,
    INLINE_DEGREE,
};
use crate::transform::{to_user, Transform};
use corridor_geom::radix::insertion_sort;
use corridor_geom::{Point, UnionFind, Walls};
use slotmap::SlotMap;
use smallvec::SmallVec;
use std::cmp::Ordering;

/// Turns the raw medial axis (grid coordinates of the transformed walls) into an [`Ecm`]
/// in user coordinates: maps points back, swaps sides under reflections, computes
/// clearances, lengths, vertex data and components.
pub(crate) fn finalize(raw: RawEcm, transform: Transform, walls: &Walls) -> Ecm {
    let grid = walls.grid;
    let user = |p: Point| to_user(transform, grid, p);
    let flip = transform.is_reflection();
    let n = raw.vertices.len();
    // One pass over the edges: the edge ends per vertex, and components by union-find
    // over raw vertex indices.
    let mut degree = vec![0u32; n];
    let mut sets = UnionFind::new(n);
    for e in &raw.edges {
        degree[e.start as usize] += 1;
        degree[e.end as usize] += 1;
        let (a, b) = (sets.find(e.start), sets.find(e.end));
        if a != b {
            sets.link(a, b);
        }
    }
    // Components numbered in the order of their first vertex; `first_end[v]` is where
    // vertex `v`'s edge ends start in `ends` (prefix sums of the degrees).
    let mut component_of_root = vec![u32::MAX; n];
    let mut component_count = 0u32;
    let mut component = vec![0u32; n];
    let mut first_end = Vec::with_capacity(n + 1);
    let mut total = 0u32;
    for v in 0..n as u32 {
        let r = sets.find(v) as usize;
        if component_of_root[r] == u32::MAX {
            component_of_root[r] = component_count;
            component_count += 1;
        }
        component[v as usize] = component_of_root[r];
        first_end.push(total);
        total += degree[v as usize];
    }
    first_end.push(total);
    let mut vertices: SlotMap<VertexId, Vertex> = SlotMap::with_capacity_and_key(n);
    let ids: Vec<VertexId> = raw
        .vertices
        .iter()
        .zip(&component)
        .map(|(&(p, _), &c)| {
            vertices.insert(Vertex {
                position: user(p),
                clearance: 0.0,
                nearest_obstacle_points: SmallVec::new(),
                edges: SmallVec::new(),
                component: ComponentId(c),
            })
        })
        .collect();

    // Each vertex's edge ends, in the order the edges are added (`filled` counts them per
    // vertex): the edge, the angle at which it leaves the vertex, and the bending point
    // there. They are taken while the edge's bending points are at hand (looking the
    // edges up again per vertex afterwards read them back from all over memory) and
    // written to the vertices in one pass at the end.
    let mut ends: Vec<End> = vec![End::default(); total as usize];
    let mut filled = vec![0u32; n];
    let mut edges: SlotMap<EdgeId, Edge> = SlotMap::with_capacity_and_key(raw.edges.len());
    // The edges' bending-point lists become the ECM's, converted in place.
    for e in raw.edges {
        let mut bending_points = e.bending_points;
        // The identity (almost every build) only scales: no transform to match per point.
        let (length, min_clearance) = if transform == Transform::Identity {
            let scale = grid.scale();
            to_user_points(&mut bending_points, false, |p| p / scale)
        } else {
            to_user_points(&mut bending_points, flip, user)
        };
        // The direction in which the edge leaves its start (or its end): towards the first
        // bending point elsewhere. A loop leaves its one vertex from its start both times.
        let angle_at = |from_start: bool| {
            let bps = &bending_points;
            let (from, to) = if from_start {
                let f = bps[0].position;
                (f, bps.iter().map(|b| b.position).find(|p| *p != f))
            } else {
                let l = bps[bps.len() - 1].position;
                (l, bps.iter().rev().map(|b| b.position).find(|p| *p != l))
            };
            // No other point: the angle 0 (`atan2(0, 1)`), as the direction (1, 0) gives.
            Direction::new(to.map_or(Point::new(1.0, 0.0), |t| t - from))
        };
        let last = bending_points.len() - 1;
        let raw_ends = [(e.start, 0, true), (e.end, last, e.start == e.end)];
        let slots = raw_ends.map(|(raw_v, k, from_start)| {
            let v = raw_v as usize;
            let slot = (first_end[v] + filled[v]) as usize;
            filled[v] += 1;
            let bp = &bending_points[k];
            let end = &mut ends[slot];
            (end.left, end.right, end.clearance) = (bp.left, bp.right, bp.clearance);
            // Only vertices with several edges sort them.
            if degree[v] > 1 {
                end.angle = angle_at(from_start);
            }
            slot
        });
        let id = edges.insert(Edge {
            start: ids[e.start as usize],
            end: ids[e.end as usize],
            bending_points,
            length,
            min_clearance,
            component: ComponentId(component[e.start as usize]),
        });
        for slot in slots {
            ends[slot].edge = id;
        }
    }
    // Per vertex: the smallest clearance of its ends (0 without any), its edges
    // counter-clockwise by leaving direction and its distinct nearest points (left, then
    // right of each end, in the order added) by direction from the vertex, both in the
    // order of their `atan2` angles (see [`Direction`]) by a stable sort. The vertices
    // come in the order they were inserted (a fresh slot map hands out its slots in
    // order), so `v` is the raw index.
    let mut points: Vec<(Direction, Point)> = Vec::new();
    for (v, (vid, vertex)) in vertices.iter_mut().enumerate() {
        debug_assert_eq!(vid, ids[v]);
        let at = &ends[first_end[v] as usize..first_end[v + 1] as usize];
        if at.is_empty() {
            continue;
        }
        let mut clearance = f64::INFINITY;
        for end in at {
            // `clearance.min(end.clearance)`, as the edges' smallest clearance above.
            if end.clearance < clearance {
                clearance = end.clearance;
            }
        }
        vertex.clearance = if clearance == f64::INFINITY {
            0.0
        } else {
            clearance
        };
        let c = vertex.position;
        let direction = |a: Point| Direction::new(Point::new(a.x - c.x, a.y - c.y));
        if let [end] = at {
            // Half the vertices (dead ends): one edge, one or two points.
            vertex.edges = SmallVec::from_buf_and_len([end.edge; INLINE_DEGREE], 1);
            vertex.nearest_obstacle_points = if end.left == end.right {
                SmallVec::from_buf_and_len([end.left; INLINE_DEGREE], 1)
            } else {
                let mut two = [
                    (direction(end.left), end.left),
                    (direction(end.right), end.right),
                ];
                sort_small(&mut two);
                SmallVec::from_buf_and_len([two[0].1, two[1].1, two[1].1], 2)
            };
            continue;
        }
        if let [e0, e1, e2] = at {
            // Almost all the others: three edges around three points.
            let mut three = [
                (e0.angle, e0.edge),
                (e1.angle, e1.edge),
                (e2.angle, e2.edge),
            ];
            sort_small(&mut three);
            vertex.edges = SmallVec::from_buf([three[0].1, three[1].1, three[2].1]);
            let mut found = [Point::ZERO; 2 * INLINE_DEGREE];
            let mut count = 0;
            for p in [e0.left, e0.right, e1.left, e1.right, e2.left, e2.right] {
                if !found[..count].contains(&p) {
                    found[count] = p;
                    count += 1;
                }
            }
            if count == 3 {
                let mut three = [found[0], found[1], found[2]].map(|p| (direction(p), p));
                sort_small(&mut three);
                vertex.nearest_obstacle_points =
                    SmallVec::from_buf([three[0].1, three[1].1, three[2].1]);
                continue;
            }
        }
        points.clear();
        for end in at.iter() {
            for p in [end.left, end.right] {
                if !points.iter().any(|q| q.1 == p) {
                    points.push((Direction::ZERO, p));
                }
            }
        }
        if at.len() != 3 {
            let mut by_angle: SmallVec<[(Direction, EdgeId); 8]> =
                at.iter().map(|e| (e.angle, e.edge)).collect();
            insertion_sort(&mut by_angle, |a, b| a.0.cmp(&b.0));
            vertex.edges = by_angle.iter().map(|a| a.1).collect();
        }
        if points.len() > 1 {
            for (d, a) in points.iter_mut() {
                *d = direction(*a);
            }
            insertion_sort(&mut points, |a, b| a.0.cmp(&b.0));
        }
        vertex.nearest_obstacle_points = points.iter().map(|k| k.1).collect();
    }
    Ecm {
        grid,
        vertices,
        edges,
        component_count,
        free_area: 0.0,
        stats: BuildStats::default(),
        cells: CellIndex::default(),
        uid: crate::graph::fresh_uid(),
        lineage: crate::graph::fresh_uid(),
    }
}

/// One edge end at a vertex, while [`finalize`] collects them.
#[derive(Clone, Copy, Debug)]
struct End {
    /// The edge.
    edge: EdgeId,
    /// The direction in which it leaves the vertex (only set at vertices of degree > 1).
    angle: Direction,
    /// The nearest obstacle points and the clearance of its bending point at the vertex.
    left: Point,
    right: Point,
    clearance: f64,
}

impl Default for End {
    fn default() -> Self {
        End {
            edge: EdgeId::default(),
            angle: Direction::ZERO,
            left: Point::ZERO,
            right: Point::ZERO,
            clearance: 0.0,
        }
    }
}

/// [`insertion_sort`] by [`Direction`] of two or three items, unrolled: the same
/// comparisons in the same order, so the same result.
#[inline]
fn sort_small<T: Copy, const N: usize>(items: &mut [(Direction, T); N]) {
    debug_assert!(N == 2 || N == 3);
    let greater = |a: &(Direction, T), b: &(Direction, T)| a.0.cmp(&b.0) == Ordering::Greater;
    if greater(&items[0], &items[1]) {
        items.swap(0, 1);
    }
    if N == 3 && greater(&items[1], &items[2]) {
        items.swap(1, 2);
        if greater(&items[0], &items[1]) {
            items.swap(0, 1);
        }
    }
}

/// Converts an edge's bending points from grid coordinates of the transformed walls to
/// user coordinates in place (`user` maps a point back; sides swap under reflections),
/// sets their clearances, and returns the edge's length and smallest clearance, as
/// [`BendingPoint::length_and_min_clearance`] computes them (same sums in the same order),
/// without a second pass over the points.
#[inline]
fn to_user_points(
    bending_points: &mut [BendingPoint],
    flip: bool,
    user: impl Fn(Point) -> Point,
) -> (f64, f64) {
    // `Sum` of `f64` starts from −0.0.
    let mut length = -0.0;
    let mut min_clearance = f64::INFINITY;
    let mut previous: Option<Point> = None;
    for b in bending_points {
        let ((l, l_corner), (r, r_corner)) = if flip {
            ((b.right, b.right_is_corner), (b.left, b.left_is_corner))
        } else {
            ((b.left, b.left_is_corner), (b.right, b.right_is_corner))
        };
        let (position, left, right) = (user(b.position), user(l), user(r));
        let clearance = position.distance(left).min(position.distance(right));
        *b = BendingPoint {
            position,
            left,
            right,
            clearance,
            left_is_corner: l_corner,
            right_is_corner: r_corner,
            is_voronoi_vertex: b.is_voronoi_vertex,
        };
        if let Some(p) = previous {
            length += p.distance(position);
        }
        previous = Some(position);
        // `min_clearance.min(clearance)`: `min_clearance` is never NaN (it starts at
        // infinity and `min` keeps the number), so the comparison picks what `min` picks,
        // a NaN `clearance` included; only equal zeros could differ in sign, and a
        // clearance is a square root or the `min` of two, never −0. Without `min`'s NaN
        // fix-up (the compiler cannot see that the running value has no NaN).
        if clearance < min_clearance {
            min_clearance = clearance;
        }
    }
    (length, min_clearance)
}

/// A direction, ordered as the `atan2` angles of its vectors (`total_cmp`, so in
/// [−π, π] with −0 before +0), mostly without computing `atan2` (which was a fifth of
/// `finalize`).
///
/// `key` is a pseudo-angle: `1 − x / (|x| + |y|)` when `y` has a positive sign, `x / (|x| +
/// |y|) − 1` when negative, running from −2 (angle −π) through 0 (angle 0) to 2 (angle π).
/// Along the unit circle its derivative by the angle θ is `1 / (|cos θ| + |sin θ|)²`, in
/// [½, 1], so two keys `g` apart are at least `g` radians apart. Computed, a key is within
/// a few units of 10⁻¹⁶ of the true one, and `atan2` within a few ulp of the true angle,
/// so when two keys differ by more than [`KEY_GAP`] the angles are that far apart and
/// `atan2` orders them as the keys do. Closer keys (near ties, a signed zero, the branch
/// cut at ±π) are compared by `atan2` itself, as are directions without a key (zero,
/// non-finite, or so large that `|x| + |y|` overflows). So the comparison is the `atan2`
/// comparison on every pair, and a stable sort by it gives the same order bit for bit.
#[derive(Clone, Copy, Debug)]
struct Direction {
    /// The pseudo-angle (NaN when there is none).
    key: f64,
    /// The vector.
    d: Point,
}

/// Keys further apart than this decide the order without `atan2` (see [`Direction`]).
const KEY_GAP: f64 = 1e-9;

impl Direction {
    /// The direction of the zero vector (a placeholder: it has no key).
    const ZERO: Direction = Direction {
        key: f64::NAN,
        d: Point::ZERO,
    };

    fn new(d: Point) -> Direction {
        let sum = d.x.abs() + d.y.abs();
        let key = if sum > 0.0 && sum.is_finite() {
            let r = d.x / sum;
            if d.y.is_sign_negative() {
                r - 1.0
            } else {
                1.0 - r
            }
        } else {
            f64::NAN
        };
        Direction { key, d }
    }

    /// The order of the two vectors' `atan2` angles (`total_cmp`).
    fn cmp(&self, other: &Direction) -> Ordering {
        // False for a NaN key.
        if (self.key - other.key).abs() > KEY_GAP {
            self.key.total_cmp(&other.key)
        } else {
            self.d
                .y
                .atan2(self.d.x)
                .total_cmp(&other.d.y.atan2(other.d.x))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The fused conversion gives the length and smallest clearance of
    /// `length_and_min_clearance` bit for bit, with or without a reflection.
    #[test]
    fn fused_length_and_clearance_are_the_separate_ones() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut p = || Point::new(rng.random_range(-50.0..50.0), rng.random_range(-50.0..50.0));
        for n in 1..40 {
            let raw: Vec<BendingPoint> = (0..n)
                .map(|_| BendingPoint {
                    position: p(),
                    left: p(),
                    right: p(),
                    clearance: 0.0,
                    left_is_corner: false,
                    right_is_corner: true,
                    is_voronoi_vertex: false,
                })
                .collect();
            for flip in [false, true] {
                let mut bps = raw.clone();
                let (length, min) = to_user_points(&mut bps, flip, |q| q / 3.0);
                let (l, m) = BendingPoint::length_and_min_clearance(&bps);
                assert_eq!(
                    (length.to_bits(), min.to_bits()),
                    (l.to_bits(), m.to_bits())
                );
                assert_eq!(bps[0].left_is_corner, flip);
            }
        }
    }

    /// The pseudo-angle order is the `atan2` order on every pair: axis directions with
    /// both signed zeros, the branch cut, near ties one ulp apart, tiny, huge, infinite and
    /// NaN vectors, and random ones, also scaled (which `atan2` sees as the same angle).
    #[test]
    fn direction_order_is_the_atan2_order() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
        let specials = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            1e-310,
            -1e-310,
            1e300,
            -1e300,
            f64::MAX,
            -f64::MAX,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            3.0,
            -3.0,
        ];
        let mut ds: Vec<Point> = Vec::new();
        for &x in &specials {
            for &y in &specials {
                ds.push(Point::new(x, y));
            }
        }
        for _ in 0..300 {
            let (x, y): (f64, f64) = (rng.random_range(-10.0..10.0), rng.random_range(-10.0..10.0));
            let p = Point::new(x, y);
            ds.push(p);
            ds.push(p * 3.0);
            ds.push(Point::new(x, f64::from_bits(y.to_bits() + 1)));
            ds.push(Point::new(x.round(), y.round()));
            ds.push(Point::new(-1.0, y * 1e-12));
            ds.push(Point::new(1.0, y * 1e-12));
        }
        let dirs: Vec<Direction> = ds.iter().map(|&d| Direction::new(d)).collect();
        for a in &dirs {
            for b in &dirs {
                let by_atan2 = a.d.y.atan2(a.d.x).total_cmp(&b.d.y.atan2(b.d.x));
                assert_eq!(a.cmp(b), by_atan2, "{:?} {:?}", a.d, b.d);
            }
        }
    }

    /// The unrolled sort of two or three items is the insertion sort, ties and all.
    #[test]
    fn sort_small_is_the_insertion_sort() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
        // Few distinct directions (so that ties and equal keys are common), and a zero.
        let pool: Vec<Point> = (0..6)
            .map(|_| {
                Point::new(
                    rng.random_range(-2..=2) as f64,
                    rng.random_range(-2..=2) as f64,
                )
            })
            .collect();
        for _ in 0..20_000 {
            let mut pick = || {
                let d = pool[rng.random_range(0..pool.len())];
                (Direction::new(d), rng.random::<u32>())
            };
            let mut two = [pick(), pick()];
            let mut three = [pick(), pick(), pick()];
            let (mut two_ref, mut three_ref) = (two.to_vec(), three.to_vec());
            insertion_sort(&mut two_ref, |a, b| a.0.cmp(&b.0));
            insertion_sort(&mut three_ref, |a, b| a.0.cmp(&b.0));
            sort_small(&mut two);
            sort_small(&mut three);
            assert_eq!(
                two.map(|t| t.1).to_vec(),
                two_ref.iter().map(|t| t.1).collect::<Vec<_>>()
            );
            assert_eq!(
                three.map(|t| t.1).to_vec(),
                three_ref.iter().map(|t| t.1).collect::<Vec<_>>()
            );
        }
    }
}
