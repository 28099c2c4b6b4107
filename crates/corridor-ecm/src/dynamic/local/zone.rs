//! Where a local diagram takes its walls from, and where its result can be trusted: a
//! [`Zone`] (a box, or the tapered capsule of the clearance discs along a chord of an
//! edge), with the distances and containment tests between zones and walls.
//!
//! The boxes are [`corridor_geom::Aabb`]; this file adds the empty box (the start of a
//! union) and strict containment, which the certification needs (a disc on the border of
//! the region may touch a wall outside it).

use crate::build::nearest_on_segment;
use crate::graph::BendingPoint;
use corridor_geom::{Aabb, Point};

/// The empty box: the start of a union of boxes (every real box absorbs it).
pub(super) const EMPTY_AABB: Aabb = Aabb {
    min: Point::splat(f64::INFINITY),
    max: Point::splat(f64::NEG_INFINITY),
};

/// Whether `inner` lies strictly inside `outer` (not touching its border).
pub(super) fn strictly_inside(inner: &Aabb, outer: &Aabb) -> bool {
    inner.min.x > outer.min.x
        && inner.min.y > outer.min.y
        && inner.max.x < outer.max.x
        && inner.max.y < outer.max.y
}

/// The bounding box of some zones (an attempt's region).
pub(super) fn bounding_box(zones: &[Zone]) -> Aabb {
    zones.iter().map(Zone::bbox).fold(EMPTY_AABB, Aabb::union)
}

/// The box that contains the clearance disc of every point of the arc between two
/// consecutive bending points (user units).
pub(super) fn chord_box(a: &BendingPoint, b: &BendingPoint, deviation: f64) -> Aabb {
    let r = a.clearance.max(b.clearance) + deviation;
    Aabb {
        min: a.position.min(b.position) - Point::splat(r),
        max: a.position.max(b.position) + Point::splat(r),
    }
}

/// A part of the plane whose new walls a local diagram takes (user units): a box, or the
/// convex hull of the discs of radius `ra` around `a` and `rb` around `b` (a tapered
/// capsule, which holds the clearance discs along a chord with fewer walls than its box).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Zone {
    Box(Aabb),
    Cone {
        a: Point,
        ra: f64,
        b: Point,
        rb: f64,
    },
}

/// The distance from `p` to the convex hull of the discs `(a, ra)` and `(b, rb)`, negative
/// inside (then minus the radius of a disc around `p` that fits inside). The hull is the
/// union of the discs around `a + s (b − a)` of radius `ra + s (rb − ra)`, `s` in
/// `[0, 1]`, and the distance is the smallest of `|p − c(s)| − r(s)`, a convex function of
/// `s`, whose minimum has a closed form. When one disc (nearly) holds the other, `lower`
/// chooses a bound from below (the capsule of the larger radius) or from above (the
/// nearer end disc).
pub(super) fn cone_distance(p: Point, a: Point, ra: f64, b: Point, rb: f64, lower: bool) -> f64 {
    let d = b - a;
    let len = d.length();
    let k = if len > 0.0 { (rb - ra) / len } else { 1.0 };
    if len == 0.0 || 1.0 - k * k < 1e-9 {
        return if lower {
            p.distance(nearest_on_segment(a, b, p)) - ra.max(rb)
        } else {
            (p.distance(a) - ra).min(p.distance(b) - rb)
        };
    }
    let u = d / len;
    let rel = p - a;
    let x = rel.dot(u);
    let y = rel.perp_dot(u).abs();
    let s = ((x + k * y / (1.0 - k * k).sqrt()) / len).clamp(0.0, 1.0);
    p.distance(a + d * s) - (ra + s * (rb - ra))
}

impl Zone {
    /// The tapered capsule of the clearance discs along the arc between two bending
    /// points. Along a Voronoi arc the clearance is convex in the parameter along the
    /// chord (affine between two segments, convex between two points or a point and a
    /// segment), so it is at most the interpolation of the ends' clearances, and every arc
    /// point is within the deviation of the chord point of the same parameter: its disc
    /// lies in the disc around that chord point of the interpolated radius plus the
    /// deviation.
    pub(super) fn chord(a: &BendingPoint, b: &BendingPoint, deviation: f64) -> Zone {
        Zone::Cone {
            a: a.position,
            ra: a.clearance + deviation,
            b: b.position,
            rb: b.clearance + deviation,
        }
    }

    pub(super) fn bbox(&self) -> Aabb {
        match *self {
            Zone::Box(b) => b,
            Zone::Cone { a, ra, b, rb } => Aabb {
                min: (a - Point::splat(ra)).min(b - Point::splat(rb)),
                max: (a + Point::splat(ra)).max(b + Point::splat(rb)),
            },
        }
    }

    pub(super) fn expanded(self, m: f64) -> Zone {
        match self {
            Zone::Box(b) => Zone::Box(b.expanded(m)),
            Zone::Cone { a, ra, b, rb } => Zone::Cone {
                a,
                ra: ra + m,
                b,
                rb: rb + m,
            },
        }
    }

    /// Whether the segment `p q` (user units) comes within the zone, with `slack` to
    /// spare (a box: whether the boxes meet, as for a wall's bounding box).
    ///
    /// For a cone, the smallest of `|x − c(s)| − r(s)` over points `x` of the segment and
    /// `s` in `[0, 1]` (convex in both) is on an edge of the parameter square (an end of
    /// the segment against the cone, or the segment against an end disc), or where the
    /// segment crosses the axis `a b`.
    pub(super) fn meets(&self, p: Point, q: Point, slack: f64) -> bool {
        match *self {
            Zone::Box(b) => {
                let w = Aabb {
                    min: p.min(q),
                    max: p.max(q),
                };
                w.min.x <= b.max.x + slack
                    && w.min.y <= b.max.y + slack
                    && w.max.x >= b.min.x - slack
                    && w.max.y >= b.min.y - slack
            }
            Zone::Cone { a, ra, b, rb } => {
                if self.box_misses(p, q, slack) {
                    return false;
                }
                let r = ra.max(rb) + slack;
                let r = r + 1e-9 * (r + a.abs().max(b.abs()).max_element());
                // The cone lies in the capsule of radius `max(ra, rb)` around its axis, so a
                // segment farther than `r` from the axis misses it (most segments that
                // pass the box test; the four tests below cost twice this one).
                let axis = segment_distance(a, b, p, q);
                if axis > r {
                    return false;
                }
                let to_segment = |c: Point| c.distance(nearest_on_segment(p, q, c));
                axis <= 0.0
                    || cone_distance(p, a, ra, b, rb, true) <= slack
                    || cone_distance(q, a, ra, b, rb, true) <= slack
                    || to_segment(a) - ra <= slack
                    || to_segment(b) - rb <= slack
            }
        }
    }

    /// The first test of [`Zone::meets`] for a cone (`false` for a box): every way of
    /// meeting the cone passes within `max(ra, rb) + slack` of the axis, so a segment
    /// whose box is farther in x or y is out (with a margin for rounding). Cheap, and
    /// inlined where most segments fail it.
    #[inline(always)]
    pub(super) fn box_misses(&self, p: Point, q: Point, slack: f64) -> bool {
        let Zone::Cone { a, ra, b, rb } = *self else {
            return false;
        };
        let r = ra.max(rb) + slack;
        let r = r + 1e-9 * (r + a.abs().max(b.abs()).max_element());
        p.x.max(q.x) < a.x.min(b.x) - r
            || p.y.max(q.y) < a.y.min(b.y) - r
            || p.x.min(q.x) > a.x.max(b.x) + r
            || p.y.min(q.y) > a.y.max(b.y) + r
    }

    /// Whether `inner` lies strictly inside this zone, `slack` to spare. A cone is convex,
    /// so it holds another cone when it holds both end discs, and a box when it holds its
    /// corners. `outer_box` and `inner_box` are the zones' bounding boxes.
    pub(super) fn holds_boxed(
        &self,
        outer_box: &Aabb,
        inner: &Zone,
        inner_box: &Aabb,
        slack: f64,
    ) -> bool {
        if !strictly_inside(inner_box, outer_box) {
            return false;
        }
        let Zone::Cone { a, ra, b, rb } = *self else {
            return true;
        };
        let inside = |p: Point, r: f64| cone_distance(p, a, ra, b, rb, false) + r < -slack;
        match *inner {
            Zone::Cone {
                a: c,
                ra: rc,
                b: d,
                rb: rd,
            } => inside(c, rc) && inside(d, rd),
            Zone::Box(x) => [
                x.min,
                x.max,
                Point::new(x.min.x, x.max.y),
                Point::new(x.max.x, x.min.y),
            ]
            .into_iter()
            .all(|p| inside(p, 0.0)),
        }
    }
}

/// Distance between segments `a b` and `c d` (either may be a point).
pub(super) fn segment_distance(a: Point, b: Point, c: Point, d: Point) -> f64 {
    let cross = |o: Point, p: Point, q: Point| (p - o).perp_dot(q - o);
    let (d1, d2) = (cross(a, b, c), cross(a, b, d));
    let (d3, d4) = (cross(c, d, a), cross(c, d, b));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return 0.0;
    }
    let p = |q: Point, s: Point, t: Point| q.distance(nearest_on_segment(s, t, q));
    p(a, c, d).min(p(b, c, d)).min(p(c, a, b)).min(p(d, a, b))
}
