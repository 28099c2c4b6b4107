//! Where the nearest obstacle points are: the sites of the Voronoi diagram, which side
//! of a site is free, and the annotated samples of parabolic arcs. Everything here is in
//! grid coordinates of the (possibly transformed) walls.

use crate::graph::BendingPoint;
use corridor_geom::{
    orient, GridPoint, Orientation, Point, PointGroups, WallSegment, WallSource, Walls,
};

/// A Voronoi site: an isolated point, a segment end point, or a segment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Site {
    Point(GridPoint),
    Segment(u32),
}

/// `x.round()` wherever it is less than 2⁵¹ from 0 and not halfway between two integers
/// (elsewhere some other value), without a call into the maths library: adding and
/// subtracting 1.5 · 2⁵² rounds to an integer (halfway to the even one). Extraction only
/// uses the result where it is within 10⁻⁶ of `x` and 2³¹ of 0, as a grid coordinate.
pub(crate) fn round(x: f64) -> f64 {
    const SHIFT: f64 = 6_755_399_441_055_744.0;
    // `round` keeps the sign of a zero result (−0.3 rounds to −0).
    ((x + SHIFT) - SHIFT).copysign(x)
}

pub(crate) fn pt(p: GridPoint) -> Point {
    Point::new(p.x as f64, p.y as f64)
}

pub(crate) struct Extractor<'a> {
    pub(crate) walls: &'a Walls,
    /// Per wall segment, its floating-point geometry.
    pub(crate) segments: Vec<SegmentGeometry>,
    /// The segment ends grouped by point (see [`segment_ends`](super::extract::segment_ends)).
    pub(crate) ends: &'a PointGroups,
    /// Maximum chord deviation of sampled parabolic arcs (grid units).
    pub(crate) deviation: f64,
}

/// A wall segment in grid coordinates as floating-point points, with the difference of its
/// ends and the tolerance of [`Extractor::nearest_with_kind`], which would otherwise be
/// recomputed for every bending point near the segment.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SegmentGeometry {
    pub(crate) a: Point,
    pub(crate) b: Point,
    /// `b - a`.
    pub(crate) d: Point,
    /// The squared length of `d`.
    pub(crate) len2: f64,
    /// How close to an end a nearest point counts as that end (see
    /// [`Extractor::nearest_with_kind`]).
    pub(crate) near_end: f64,
}

impl SegmentGeometry {
    pub(crate) fn new(s: &WallSegment) -> Self {
        let (a, b) = (pt(s.a), pt(s.b));
        let d = b - a;
        let len2 = d.length_squared();
        SegmentGeometry {
            a,
            b,
            d,
            len2,
            // `1e-9 * d.length()`.
            near_end: 1e-9 * len2.sqrt(),
        }
    }
}

/// Most samples on one parabolic arc (a guard against absurd deviation settings).
const MAX_ARC_SAMPLES: usize = 1 << 16;

impl<'a> Extractor<'a> {
    /// The segments that end at `p`, in increasing order.
    pub(crate) fn incident(&self, p: GridPoint) -> impl Iterator<Item = u32> + '_ {
        self.ends.at(p).iter().map(|end| end / 2)
    }

    pub(crate) fn site_sources(&self, site: Site) -> Vec<WallSource> {
        match site {
            Site::Segment(s) => self.walls.segments[s as usize].sources.to_vec(),
            Site::Point(p) => {
                let mut out: Vec<WallSource> = self
                    .incident(p)
                    .flat_map(|s| self.walls.segments[s as usize].sources.iter().copied())
                    .collect();
                out.extend(
                    self.walls
                        .points
                        .iter()
                        .filter(|(q, _)| *q == p)
                        .flat_map(|(_, s)| s.iter().copied()),
                );
                out
            }
        }
    }

    /// The bending point at `q` between the sites on its left and right (grid
    /// coordinates; `clearance` is set by `finalize`).
    #[inline(always)]
    pub(crate) fn annotate(
        &self,
        q: Point,
        left: Site,
        right: Site,
        is_voronoi_vertex: bool,
    ) -> BendingPoint {
        let (left, left_is_corner) = self.nearest_with_kind(left, q);
        let (right, right_is_corner) = self.nearest_with_kind(right, q);
        BendingPoint {
            position: q,
            left,
            right,
            clearance: 0.0,
            left_is_corner,
            right_is_corner,
            is_voronoi_vertex,
        }
    }

    /// The nearest point of a site to `q`, and whether it is a wall end point (a corner)
    /// rather than a point inside a segment. (Inlined: it is a few lines, and once the
    /// compiler stopped inlining it on its own extraction cost 6 % more instructions.)
    #[inline]
    pub(crate) fn nearest_with_kind(&self, site: Site, q: Point) -> (Point, bool) {
        match site {
            Site::Point(p) => (pt(p), true),
            Site::Segment(s) => {
                // `nearest_on_segment(a, b, q)` with `b - a` and its squared length as
                // stored (the same operations, so the same point). A Voronoi vertex on a
                // corner's bisector projects onto the segment's end up to rounding: count
                // that as the corner. (At an end, the distance to it is 0.)
                let g = &self.segments[s as usize];
                if g.len2 == 0.0 {
                    return (g.a, true);
                }
                let t = ((q - g.a).dot(g.d) / g.len2).clamp(0.0, 1.0);
                if t == 0.0 {
                    (g.a, true)
                } else if t == 1.0 {
                    (g.b, true)
                } else {
                    let n = g.a + g.d * t;
                    (
                        n,
                        n.distance(g.a) <= g.near_end || n.distance(g.b) <= g.near_end,
                    )
                }
            }
        }
    }

    /// The nearest point of a site to `q`.
    pub(crate) fn nearest(&self, site: Site, q: Point) -> Point {
        self.nearest_with_kind(site, q).0
    }

    /// Whether `q`, a point whose nearest wall point is `p` (a segment end point or an
    /// isolated point), lies in free space: find the wall that bounds the wedge around `p`
    /// containing `q` on its counter-clockwise side and ask which side of it is free.
    pub(crate) fn free_near_point(&self, p: GridPoint, q: Point) -> bool {
        let d = q - pt(p);
        let first = if d.is_finite() {
            self.first_wall_ccw(p, d)
        } else {
            self.first_wall_ccw_by_angles(p, d)
        };
        // No wall: an isolated point lies in free space. Otherwise the wedge is clockwise
        // of the wall as seen from `p`: that is the wall's left side exactly when it
        // arrives at `p`.
        first.is_none_or(|s| {
            let seg = &self.walls.segments[s as usize];
            seg.two_sided || seg.b == p
        })
    }

    /// The first wall at `p` counter-clockwise from the direction `d`, angles taken in
    /// (0, 2π] (a wall along `d` counts as 2π): ordered by the quarter of the turn they
    /// fall in (by the signs of the cross and dot products with `d`, the values `atan2`
    /// would be given), then within the open half-turns by the exact orientation of the
    /// two walls.
    pub(crate) fn first_wall_ccw(&self, p: GridPoint, d: Point) -> Option<u32> {
        let rank = |w: Point| -> u8 {
            let (y, x) = (d.perp_dot(w), d.dot(w));
            if y > 0.0 {
                0
            } else if y < 0.0 {
                2
            } else if x < 0.0 {
                1
            } else {
                3
            }
        };
        let mut best: Option<(u8, GridPoint, u32)> = None;
        for s in self.incident(p) {
            let other = self.other_end(s, p);
            let r = rank(pt(other) - pt(p));
            let first = match best {
                None => true,
                Some((b, _, _)) if r != b => r < b,
                // In an open half-turn the wall clockwise of the other comes first.
                Some((_, o, _)) => {
                    (r == 0 || r == 2)
                        && corridor_geom::orient_grid(p, other, o) == Orientation::CounterClockwise
                }
            };
            if first {
                best = Some((r, other, s));
            }
        }
        best.map(|(_, _, s)| s)
    }

    /// [`Extractor::first_wall_ccw`] by `atan2` angles, for a non-finite direction `d`
    /// (where the orientation tests are undefined).
    pub(crate) fn first_wall_ccw_by_angles(&self, p: GridPoint, d: Point) -> Option<u32> {
        let mut best: Option<(f64, u32)> = None;
        for s in self.incident(p) {
            let w = pt(self.other_end(s, p)) - pt(p);
            let mut ccw = d.perp_dot(w).atan2(d.dot(w));
            if ccw <= 0.0 {
                ccw += std::f64::consts::TAU;
            }
            if best.is_none_or(|(b, _)| ccw < b) {
                best = Some((ccw, s));
            }
        }
        best.map(|(_, s)| s)
    }

    /// The end of wall `s` that is not `p`.
    pub(crate) fn other_end(&self, s: u32, p: GridPoint) -> GridPoint {
        let seg = &self.walls.segments[s as usize];
        if seg.a == p {
            seg.b
        } else {
            seg.a
        }
    }

    /// Whether the point `q()` on a Voronoi edge between `a` and `b` lies in free space
    /// (`q` is called only when the sites do not decide it).
    #[inline(always)]
    pub(crate) fn free_between(&self, a: Site, b: Site, q: impl FnOnce() -> Point) -> bool {
        match (a, b) {
            (Site::Segment(s), other) | (other, Site::Segment(s)) => {
                let seg = &self.walls.segments[s as usize];
                if seg.two_sided {
                    return true;
                }
                // For a parabola (segment against a point off its line) the point itself
                // is on the edge's side of the segment: decide exactly on integers (`orient`
                // is exact too, so on the point it would say the same; an end point of the
                // segment is collinear with it).
                if let Site::Point(p) = other {
                    let side = corridor_geom::orient_grid(seg.a, seg.b, p);
                    if side != Orientation::Collinear {
                        return side == Orientation::CounterClockwise;
                    }
                }
                let g = &self.segments[s as usize];
                orient(g.a, g.b, q()) == Orientation::CounterClockwise
            }
            (Site::Point(p), Site::Point(_)) => self.free_near_point(p, q()),
        }
    }
}

/// Appends the interior sample points of the Voronoi arc from `p0` to `p1` between the
/// sites `left` and `right`, annotated.
///
/// A parabolic arc (segment against a point) is sampled uniformly along the segment's
/// direction with spacing `sqrt(8 · deviation · d)`, `d` the distance of the point from the
/// segment's line: the parabola `h(t) = ((t − t0)² + d²) / 2d` deviates from a chord of
/// width `Δt` by at most `Δt² / 8d` (its vertical offset, which bounds the perpendicular
/// one), so no point of the arc is farther than `deviation` from the polyline. The apex
/// `t0` (the point of smallest clearance) is added when it is inside the arc. On a
/// straight arc between two points the midpoint of the two points (smallest clearance)
/// is added when it is inside; straight arcs between segments have their smallest
/// clearance at an end.
/// Whether two coordinates along an arc (grid units) are one point up to the rounding of
/// the Voronoi vertices (relative to their magnitude).
fn near(a: f64, b: f64) -> bool {
    (a - b).abs() <= SAME_POINT * (1.0 + a.abs().max(b.abs()))
}

/// Whether `q` is one of the arc's ends up to rounding: an apex or midpoint that falls on a
/// Voronoi vertex is that vertex, and must not become a second bending point in one build
/// and not in another.
fn near_end(q: Point, p0: Point, p1: Point) -> bool {
    [p0, p1].iter().any(|&p| near(q.x, p.x) && near(q.y, p.y))
}

/// Relative distance under which two computed points are taken as one (Voronoi vertices
/// are computed to a few units in the last place; this leaves a wide margin).
const SAME_POINT: f64 = 1e-9;

/// `(r.ceil() as usize).clamp(1, MAX_ARC_SAMPLES)` for `r ≥ 0` or NaN (as a ratio of a
/// length to a positive step is), without a call into the maths library: below the
/// clamp the integer part by conversion, plus 1 if it is less than `r`.
fn ceil_pieces(r: f64) -> usize {
    if r >= MAX_ARC_SAMPLES as f64 {
        return MAX_ARC_SAMPLES;
    }
    let t = r as usize;
    (t + usize::from((t as f64) < r)).max(1)
}

pub(crate) fn sample_arc(
    x: &Extractor<'_>,
    left: Site,
    right: Site,
    p0: Point,
    p1: Point,
    bps: &mut Vec<BendingPoint>,
) {
    #[inline(always)]
    fn push(x: &Extractor<'_>, q: Point, left: Site, right: Site, bps: &mut Vec<BendingPoint>) {
        bps.push(x.annotate(q, left, right, false));
    }
    match (left, right) {
        (Site::Point(a), Site::Point(b)) => {
            let m = (pt(a) + pt(b)) * 0.5;
            let d = p1 - p0;
            let t = (m - p0).dot(d) / d.length_squared();
            if t > 0.0 && t < 1.0 && !near_end(m, p0, p1) {
                push(x, m, left, right, bps);
            }
        }
        (Site::Segment(s), Site::Point(p)) | (Site::Point(p), Site::Segment(s)) => {
            let seg = &x.walls.segments[s as usize];
            if p == seg.a || p == seg.b {
                return;
            }
            let g = &x.segments[s as usize];
            let a = g.a;
            // `(b - a).length()`.
            let len = g.len2.sqrt();
            let u = g.d / len;
            let mut n = u.perp();
            let rel = pt(p) - a;
            let mut d = rel.dot(n);
            if d < 0.0 {
                n = -n;
                d = -d;
            }
            if d <= 0.0 {
                return;
            }
            let t0 = rel.dot(u);
            let ts = (p0 - a).dot(u);
            let te = (p1 - a).dot(u);
            let on_arc = |t: f64| {
                let h = ((t - t0) * (t - t0) + d * d) / (2.0 * d);
                a + u * t + n * h
            };
            let step = (8.0 * x.deviation.max(f64::MIN_POSITIVE) * d).sqrt();
            let span = te - ts;
            // The ratio is exact in theory but not in floating point: on lattice input it
            // is often a whole number, and the rounding of the Voronoi vertices (which
            // depends on the transform and on the other sites) would round it up in one
            // build and not in another. A whole number up to a relative 1e-7 is taken as
            // whole, so every build samples the arc alike.
            let ratio = span.abs() / step;
            let pieces = ceil_pieces(ratio * (1.0 - 1e-7));
            let apex_inside = (t0 - ts) * (te - t0) > 0.0 && !near_end(on_arc(t0), p0, p1);
            let mut apex_done = !apex_inside;
            for k in 1..pieces {
                let t = ts + span * (k as f64 / pieces as f64);
                if !apex_done && (t - t0) * span.signum() >= 0.0 {
                    if !near(t, t0) {
                        push(x, on_arc(t0), left, right, bps);
                    }
                    apex_done = true;
                }
                push(x, on_arc(t), left, right, bps);
            }
            if !apex_done {
                push(x, on_arc(t0), left, right, bps);
            }
        }
        (Site::Segment(_), Site::Segment(_)) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceil_pieces_is_the_clamped_library_ceil() {
        let mut values = vec![f64::NAN, f64::INFINITY, 0.0, -0.0, 1e-300, 65535.5, 65536.0];
        for k in [0u32, 1, 2, 7, 1000, 65535, 65536, 65537, 1 << 30] {
            for e in [0.0, 1e-9, -1e-9, 0.5, -0.5] {
                values.push((k as f64 + e).max(0.0));
            }
        }
        for r in values {
            let expected = (r.ceil() as usize).clamp(1, MAX_ARC_SAMPLES);
            assert_eq!(ceil_pieces(r), expected, "{r}");
        }
    }

    #[test]
    fn round_is_the_library_round_near_integers() {
        let mut values = vec![0.0, -0.0, 1e-300, -1e-300, 0.3, -0.3, 2.0, -7.0];
        for k in [
            -2_147_483_648i64,
            -1000,
            -1,
            0,
            1,
            17,
            1 << 20,
            2_147_483_647,
        ] {
            for e in [
                0.0, 1e-7, -1e-7, 9.9e-7, -9.9e-7, 0.25, -0.25, 0.4999, -0.4999,
            ] {
                values.push(k as f64 + e);
            }
        }
        for x in values {
            assert_eq!(round(x).to_bits(), x.round().to_bits(), "{x}");
        }
    }
}
