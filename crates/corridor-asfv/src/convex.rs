//! Convex polygons for the builder: clipping a box by obstacle lines, and the exact
//! collision tests that decide whether a growth step is allowed.
//!
//! Polygons here are counter-clockwise and strictly convex (every turn is a left turn by
//! the exact [`orient`] predicate). Vertex positions are `f64`; every decision about them
//! is exact.

use corridor_geom::{orient, Aabb, Orientation, Point};

/// One of the four growing sides of a region, in counter-clockwise order of their
/// outward normals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// `x <= offset`.
    Right = 0,
    /// `y <= offset`.
    Top = 1,
    /// `x >= offset`.
    Left = 2,
    /// `y >= offset`.
    Bottom = 3,
}

impl Side {
    pub(crate) const ALL: [Side; 4] = [Side::Right, Side::Top, Side::Left, Side::Bottom];

    /// +1 when the side grows towards larger coordinates.
    pub(crate) fn sign(self) -> f64 {
        match self {
            Side::Right | Side::Top => 1.0,
            Side::Left | Side::Bottom => -1.0,
        }
    }

    /// The coordinate this side bounds.
    pub(crate) fn coordinate(self, p: Point) -> f64 {
        match self {
            Side::Right | Side::Left => p.x,
            Side::Top | Side::Bottom => p.y,
        }
    }
}

/// The line an edge of a clipped polygon lies on: one of the box sides, or an adopted
/// obstacle line (free side on the left of `a → b`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Support {
    Box(Side, f64),
    Line(Point, Point),
}

/// Where the lines `first` and `second` meet, computed from the two lines alone (so the
/// same pair always gives the same bits), then moved by a few ulps along `first` until
/// it lies on the closed free side of `second`. A box side stays exact: x (or y) is
/// copied, never computed.
fn meet(first: Support, second: (Point, Point)) -> Option<Point> {
    let (c, d) = second;
    let mut p = match first {
        Support::Box(side, offset) => match side {
            Side::Right | Side::Left => {
                if d.x == c.x {
                    return None;
                }
                let t = (offset - c.x) / (d.x - c.x);
                Point::new(offset, c.y + (d.y - c.y) * t)
            }
            Side::Top | Side::Bottom => {
                if d.y == c.y {
                    return None;
                }
                let t = (offset - c.y) / (d.y - c.y);
                Point::new(c.x + (d.x - c.x) * t, offset)
            }
        },
        Support::Line(a, b) => {
            if a == c || a == d {
                return Some(a);
            }
            if b == c || b == d {
                return Some(b);
            }
            let (r, s) = (b - a, d - c);
            let denom = r.perp_dot(s);
            if denom == 0.0 || !denom.is_finite() {
                return None;
            }
            a + r * ((c - a).perp_dot(s) / denom)
        }
    };
    if !p.is_finite() {
        return None;
    }
    // Nudge onto the free side of `second`, along `first`.
    let along = match first {
        Support::Box(Side::Right | Side::Left, _) => Point::Y,
        Support::Box(Side::Top | Side::Bottom, _) => Point::X,
        Support::Line(a, b) => b - a,
    };
    // Between two obstacle lines the nudged point must also stay on the free side of
    // the first; when rounding cannot manage both, give up (the caller then treats the
    // growth step as blocked, which is always safe).
    let inside_first = |p: Point| match first {
        Support::Line(a, b) => orient(a, b, p) != Orientation::Clockwise,
        Support::Box(..) => true,
    };
    for k in 0..64 {
        if orient(c, d, p) != Orientation::Clockwise {
            return inside_first(p).then_some(p);
        }
        // Move in whichever direction along `first` increases the orientation.
        let dir = if (d - c).perp_dot(along) > 0.0 {
            along
        } else {
            -along
        };
        let unit = dir.normalize_or_zero();
        let scale = p.abs().max_element().max(1.0) * f64::EPSILON * (1u64 << k.min(40)) as f64;
        let moved = p + unit * scale;
        p = match first {
            Support::Box(Side::Right | Side::Left, _) => Point::new(p.x, moved.y),
            Support::Box(Side::Top | Side::Bottom, _) => Point::new(moved.x, p.y),
            Support::Line(..) => moved,
        };
    }
    None
}

/// The convex polygon `{x_min <= x <= x_max, y_min <= y <= y_max}` clipped by the closed
/// left sides of `lines`. Returns the counter-clockwise strictly convex vertex list and
/// whether cleaning it up had to drop a reflex vertex (a rounding artefact that makes
/// the polygon a hair larger than the exact intersection), or `None` when nothing with
/// area is left.
pub(crate) fn clip_box(offsets: [f64; 4], lines: &[(Point, Point)]) -> Option<(Vec<Point>, bool)> {
    let [x_max, y_max, x_min, y_min] = offsets;
    if !(x_min < x_max && y_min < y_max) {
        return None;
    }
    let mut poly: Vec<(Point, Support)> = vec![
        (Point::new(x_min, y_min), Support::Box(Side::Bottom, y_min)),
        (Point::new(x_max, y_min), Support::Box(Side::Right, x_max)),
        (Point::new(x_max, y_max), Support::Box(Side::Top, y_max)),
        (Point::new(x_min, y_max), Support::Box(Side::Left, x_min)),
    ];
    for &(a, b) in lines {
        let n = poly.len();
        let side: Vec<Orientation> = poly.iter().map(|&(p, _)| orient(a, b, p)).collect();
        if side.iter().all(|&o| o != Orientation::Clockwise) {
            continue;
        }
        let mut out = Vec::with_capacity(n + 1);
        for i in 0..n {
            let j = (i + 1) % n;
            let (cur, support) = poly[i];
            let (cur_in, next_in) = (
                side[i] != Orientation::Clockwise,
                side[j] != Orientation::Clockwise,
            );
            if cur_in {
                if !next_in && side[i] == Orientation::Collinear {
                    out.push((cur, Support::Line(a, b)));
                    continue;
                }
                out.push((cur, support));
                if !next_in {
                    out.push((meet(support, (a, b))?, Support::Line(a, b)));
                }
            } else if next_in && side[j] != Orientation::Collinear {
                out.push((meet(support, (a, b))?, support));
            }
        }
        if out.len() < 3 {
            return None;
        }
        poly = out;
    }
    let mut points: Vec<Point> = poly.into_iter().map(|(p, _)| p).collect();
    let reflex = make_strictly_convex(&mut points);
    (points.len() >= 3).then_some((points, reflex))
}

/// Drops repeated, collinear and reflex vertices until every turn is a strict left turn.
/// Returns whether a reflex vertex was dropped.
pub(crate) fn make_strictly_convex(points: &mut Vec<Point>) -> bool {
    let mut reflex = false;
    loop {
        let n = points.len();
        if n < 3 {
            return reflex;
        }
        let mut removed = false;
        for i in 0..n {
            let (prev, cur, next) = (points[(i + n - 1) % n], points[i], points[(i + 1) % n]);
            let o = orient(prev, cur, next);
            if cur == prev || o != Orientation::CounterClockwise {
                reflex |= o == Orientation::Clockwise && cur != prev && cur != next;
                points.remove(i);
                removed = true;
                break;
            }
        }
        if !removed {
            return reflex;
        }
    }
}

/// Whether the closed segment `a b` meets the open interior of the convex polygon.
///
/// Why this is exact and complete: the interior and the segment are disjoint iff some
/// line separates them, and for a polygon and a segment such a line can always be taken
/// parallel to a polygon edge or to the segment (the edges of their Minkowski difference).
pub(crate) fn segment_meets_interior(poly: &[Point], a: Point, b: Point) -> bool {
    if a == b {
        return point_strictly_inside(poly, a);
    }
    let n = poly.len();
    for i in 0..n {
        let (u, v) = (poly[i], poly[(i + 1) % n]);
        if orient(u, v, a) != Orientation::CounterClockwise
            && orient(u, v, b) != Orientation::CounterClockwise
        {
            return false;
        }
    }
    let mut left = false;
    let mut right = false;
    for &p in poly {
        match orient(a, b, p) {
            Orientation::CounterClockwise => left = true,
            Orientation::Clockwise => right = true,
            Orientation::Collinear => {}
        }
    }
    left && right
}

/// Whether `p` lies strictly inside the convex polygon.
pub(crate) fn point_strictly_inside(poly: &[Point], p: Point) -> bool {
    let n = poly.len();
    (0..n).all(|i| orient(poly[i], poly[(i + 1) % n], p) == Orientation::CounterClockwise)
}

/// Whether `p` lies inside or on the convex polygon.
pub(crate) fn point_inside_or_on(poly: &[Point], p: Point) -> bool {
    let n = poly.len();
    (0..n).all(|i| orient(poly[i], poly[(i + 1) % n], p) != Orientation::Clockwise)
}

/// Whether the open interiors of two convex polygons overlap (separating axis test with
/// exact orientation; touching along an edge or at a point is not overlapping).
pub(crate) fn interiors_overlap(p: &[Point], q: &[Point]) -> bool {
    !has_separating_edge(p, q) && !has_separating_edge(q, p)
}

fn has_separating_edge(p: &[Point], q: &[Point]) -> bool {
    let n = p.len();
    (0..n).any(|i| {
        let (u, v) = (p[i], p[(i + 1) % n]);
        q.iter()
            .all(|&w| orient(u, v, w) != Orientation::CounterClockwise)
    })
}

/// Twice the signed area (positive for counter-clockwise).
pub(crate) fn area(poly: &[Point]) -> f64 {
    let n = poly.len();
    let mut twice = 0.0;
    for i in 0..n {
        twice += poly[i].perp_dot(poly[(i + 1) % n]);
    }
    twice / 2.0
}

/// The vertex average: strictly inside a strictly convex polygon up to rounding.
pub(crate) fn centre(poly: &[Point]) -> Point {
    poly.iter().copied().sum::<Point>() / poly.len() as f64
}

/// Bounding box of a non-empty vertex list.
pub(crate) fn bbox(poly: &[Point]) -> Aabb {
    Aabb::from_points(poly.iter().copied()).unwrap_or(Aabb::new(Point::ZERO, Point::ZERO))
}

/// The common boundary piece of two convex polygons with disjoint interiors, when it has
/// positive length. Its endpoints are vertices of the polygons (never computed points).
pub(crate) fn shared_edge(p: &[Point], q: &[Point]) -> Option<(Point, Point)> {
    let (n, m) = (p.len(), q.len());
    for i in 0..n {
        let (u, v) = (p[i], p[(i + 1) % n]);
        for j in 0..m {
            let (s, t) = (q[j], q[(j + 1) % m]);
            if orient(u, v, s) != Orientation::Collinear
                || orient(u, v, t) != Orientation::Collinear
            {
                continue;
            }
            // Collinear edges: overlap along the edge's main axis.
            let key = |w: Point| {
                if (v.x - u.x).abs() >= (v.y - u.y).abs() {
                    (w.x, w.y)
                } else {
                    (w.y, w.x)
                }
            };
            let lo_p = if key(u) <= key(v) { u } else { v };
            let hi_p = if key(u) <= key(v) { v } else { u };
            let lo_q = if key(s) <= key(t) { s } else { t };
            let hi_q = if key(s) <= key(t) { t } else { s };
            let lo = if key(lo_p) >= key(lo_q) { lo_p } else { lo_q };
            let hi = if key(hi_p) <= key(hi_q) { hi_p } else { hi_q };
            if key(lo) < key(hi) {
                return Some((lo, hi));
            }
        }
    }
    None
}

/// The longest part of the segment `a b` not covered by the segments `covers` (all
/// collinear with it), or `None` when nothing of positive length is left. Ties go to the
/// part that comes first from `a`. Endpoints are input points, never computed ones.
pub(crate) fn longest_uncovered(
    a: Point,
    b: Point,
    covers: &[(Point, Point)],
) -> Option<(Point, Point)> {
    // Lexicographic order is monotone along any line, so it orders collinear points.
    let lt = |p: Point, q: Point| (p.x, p.y) < (q.x, q.y);
    let forward = lt(a, b);
    let (lo, hi) = if forward { (a, b) } else { (b, a) };
    let mut cut: Vec<(Point, Point)> = covers
        .iter()
        .map(|&(p, q)| if lt(p, q) { (p, q) } else { (q, p) })
        .filter(|&(p, q)| lt(p, hi) && lt(lo, q))
        .collect();
    cut.sort_by(|x, y| x.0.x.total_cmp(&y.0.x).then(x.0.y.total_cmp(&y.0.y)));
    let mut pieces = Vec::new();
    let mut start = lo;
    for (p, q) in cut {
        if lt(start, p) {
            pieces.push((start, p));
        }
        if lt(start, q) {
            start = q;
        }
    }
    if lt(start, hi) {
        pieces.push((start, hi));
    }
    let mut best: Option<(Point, Point)> = None;
    for piece in pieces {
        let len = piece.0.distance(piece.1);
        if best.is_none_or(|b| len > b.0.distance(b.1)) {
            best = Some(piece);
        }
    }
    best.map(|(p, q)| if forward { (p, q) } else { (q, p) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn clip_keeps_box_sides_exact() {
        let (poly, _) = clip_box([10.0, 10.0, 0.0, 0.0], &[(p(3.0, 10.5), p(-0.7, 6.1))]).unwrap();
        assert_eq!(poly.len(), 5);
        assert!(poly.iter().any(|q| q.x == 0.0 && q.y > 6.0 && q.y < 7.0));
        for w in poly.windows(2) {
            assert_ne!(w[0], w[1]);
        }
    }

    #[test]
    fn segment_interior_tests() {
        let sq = [p(0., 0.), p(2., 0.), p(2., 2.), p(0., 2.)];
        assert!(segment_meets_interior(&sq, p(-1., 1.), p(3., 1.)));
        assert!(segment_meets_interior(&sq, p(0., 0.), p(2., 2.)));
        assert!(!segment_meets_interior(&sq, p(0., 0.), p(2., 0.)));
        assert!(!segment_meets_interior(&sq, p(2., 2.), p(3., 3.)));
        assert!(!segment_meets_interior(&sq, p(1., 3.), p(3., 1.)));
        assert!(segment_meets_interior(&sq, p(1., 1.), p(1., 1.)));
    }

    #[test]
    fn overlap_and_shared_edges() {
        let a = [p(0., 0.), p(2., 0.), p(2., 2.), p(0., 2.)];
        let b = [p(2., 1.), p(4., 1.), p(4., 5.), p(2., 5.)];
        assert!(!interiors_overlap(&a, &b));
        assert_eq!(shared_edge(&a, &b), Some((p(2., 1.), p(2., 2.))));
        let c = [p(1., 1.), p(3., 1.), p(3., 3.), p(1., 3.)];
        assert!(interiors_overlap(&a, &c));
        let d = [p(2., 2.), p(3., 2.), p(3., 3.), p(2., 3.)];
        assert_eq!(shared_edge(&a, &d), None);
    }
}
