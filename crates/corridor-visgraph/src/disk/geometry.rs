//! Where does a disk touch, and how close do its pieces come? Tangents between circles of
//! one radius, the cone of directions in which a circle around a corner may be touched,
//! and the distances from points, segments and arcs to a wall.
//!
//! Orientation convention: a path that runs along a circle counter-clockwise has
//! orientation `+1` (`CCW`), clockwise `-1` (`CW`). At the circle point in direction `u`
//! from the centre, a path of orientation `σ` moves along `σ · u.perp()`.

use corridor_geom::Point;
use std::f64::consts::TAU;

/// Counter-clockwise travel around a circle.
pub(crate) const CCW: i8 = 1;
/// Clockwise travel around a circle.
pub(crate) const CW: i8 = -1;

/// One tangent segment from a point on circle `v` to a point on circle `w` (both of the
/// common radius): its ends' directions from the centres and the orientations of travel
/// around each circle that the segment continues smoothly (leaving `v`, arriving at `w`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tangent {
    pub u_from: Point,
    pub sigma_from: i8,
    pub u_to: Point,
    pub sigma_to: i8,
    pub length: f64,
}

/// The up-to-four tangent segments between the circles of radius `r` around `v` and `w`
/// (two outer ones, parallel to `v → w`; two inner ones crossing at the midpoint when
/// the centres are at least `2r` apart). None when the centres coincide.
pub(crate) fn bitangents(v: Point, w: Point, r: f64, out: &mut Vec<Tangent>) {
    out.clear();
    let d = w - v;
    let dist = d.length();
    if dist == 0.0 {
        return;
    }
    let e = d / dist;
    let n = e.perp();
    // Outer: along e with the circles on the right (CW) or on the left (CCW).
    out.push(Tangent {
        u_from: n,
        sigma_from: CW,
        u_to: n,
        sigma_to: CW,
        length: dist,
    });
    out.push(Tangent {
        u_from: -n,
        sigma_from: CCW,
        u_to: -n,
        sigma_to: CCW,
        length: dist,
    });
    // Inner: through the midpoint, from the point at angle ±β off e on v to the point
    // opposite it on w.
    let half = dist / 2.0;
    if half >= r {
        let cos_b = (r / half).min(1.0);
        let sin_b = (1.0 - cos_b * cos_b).max(0.0).sqrt();
        let length = 2.0 * (half * half - r * r).max(0.0).sqrt();
        let up = e * cos_b + n * sin_b;
        let down = e * cos_b - n * sin_b;
        out.push(Tangent {
            u_from: up,
            sigma_from: CW,
            u_to: -up,
            sigma_to: CCW,
            length,
        });
        out.push(Tangent {
            u_from: down,
            sigma_from: CCW,
            u_to: -down,
            sigma_to: CW,
            length,
        });
    }
}

/// The two tangents from the point `p` to the circle of radius `r` around `c` (with
/// `|p − c| ≥ r`): the touching directions from `c` and, for a path from `p` *to* the
/// circle, the orientation it continues in (reverse the orientation for a path from the
/// circle to `p`), with the segment's length. At distance exactly `r` both touch at `p`.
pub(crate) fn point_tangents(p: Point, c: Point, r: f64) -> [(Point, i8, f64); 2] {
    let d = p - c;
    let dist = d.length();
    let e = d / dist;
    let cos_b = (r / dist).min(1.0);
    let sin_b = (1.0 - cos_b * cos_b).max(0.0).sqrt();
    let length = (dist * dist - r * r).max(0.0).sqrt();
    let n = e.perp();
    [
        (e * cos_b + n * sin_b, CCW, length),
        (e * cos_b - n * sin_b, CW, length),
    ]
}

/// The directions in which a circle around a corner may be touched: those from which
/// the corner is the nearest point of its walls, a closed cone of angle `span` starting
/// at `lo` counter-clockwise (`span = TAU` for an isolated point).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cone {
    /// Angle of the cone's first direction.
    pub lo: f64,
    /// The cone's angle (0 to 2π).
    pub span: f64,
    lo_dir: Point,
    hi_dir: Point,
}

/// Angle tolerance of [`Cone::offset`]: directions this far outside still count as on the
/// cone's edge (a touching point moved by `r · 1e-9` at most, along the circle).
const ANGLE_TOLERANCE: f64 = 1e-9;

impl Cone {
    /// The cone from angle `lo` counter-clockwise over `span`.
    pub fn new(lo: f64, span: f64) -> Self {
        let hi = lo + span;
        Cone {
            lo,
            span,
            lo_dir: Point::new(lo.cos(), lo.sin()),
            hi_dir: Point::new(hi.cos(), hi.sin()),
        }
    }

    /// Whether the cone goes all the way round (an isolated point).
    pub fn full(&self) -> bool {
        self.span >= TAU
    }

    /// A cheap test whether unit direction `u` may lie in the cone (no trigonometry):
    /// false only when it is clearly outside.
    #[inline]
    pub fn may_contain(&self, u: Point) -> bool {
        const SLACK: f64 = 1e-7;
        if self.full() {
            return true;
        }
        let after_lo = self.lo_dir.perp_dot(u) >= -SLACK;
        let before_hi = u.perp_dot(self.hi_dir) >= -SLACK;
        if self.span <= std::f64::consts::PI {
            after_lo && before_hi
        } else {
            after_lo || before_hi
        }
    }

    /// The angle of unit direction `u` past `lo` (in `[0, span]`), or `None` when `u` is
    /// outside the cone (up to [`ANGLE_TOLERANCE`]).
    pub fn offset(&self, u: Point) -> Option<f64> {
        let mut off = (u.y.atan2(u.x) - self.lo).rem_euclid(TAU);
        if self.full() {
            return Some(off);
        }
        if off > self.span {
            if off <= self.span + ANGLE_TOLERANCE {
                off = self.span;
            } else if off >= TAU - ANGLE_TOLERANCE {
                off = 0.0;
            } else {
                return None;
            }
        }
        Some(off)
    }
}

/// Distance from `p` to the segment `a b` (a point when `a == b`).
#[inline]
pub(crate) fn point_segment_distance(p: Point, a: Point, b: Point) -> f64 {
    let d = b - a;
    let len2 = d.length_squared();
    let t = if len2 == 0.0 {
        0.0
    } else {
        ((p - a).dot(d) / len2).clamp(0.0, 1.0)
    };
    (a + d * t).distance(p)
}

/// Whether the closed segments `p q` and `a b` share a point (floating point; only used
/// where the answer 0 is then compared with a positive radius).
fn segments_cross(p: Point, q: Point, a: Point, b: Point) -> bool {
    let d1 = (q - p).perp_dot(a - p);
    let d2 = (q - p).perp_dot(b - p);
    let d3 = (b - a).perp_dot(p - a);
    let d4 = (b - a).perp_dot(q - a);
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// Distance between the segments `p q` and `a b` (either may be a point).
#[inline]
pub(crate) fn segment_distance(p: Point, q: Point, a: Point, b: Point) -> f64 {
    if segments_cross(p, q, a, b) {
        return 0.0;
    }
    point_segment_distance(p, a, b)
        .min(point_segment_distance(q, a, b))
        .min(point_segment_distance(a, p, q))
        .min(point_segment_distance(b, p, q))
}

/// An arc of the circle of radius `r` around `c`, from angle `from` counter-clockwise
/// over `sweep` (0 to 2π).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ArcSpec {
    pub c: Point,
    pub r: f64,
    pub from: f64,
    pub sweep: f64,
}

impl ArcSpec {
    fn point_at(&self, angle: f64) -> Point {
        self.c + Point::new(angle.cos(), angle.sin()) * self.r
    }

    /// Whether the direction `d` from the centre lies within the arc's angles.
    fn covers(&self, d: Point) -> bool {
        d != Point::ZERO && (d.y.atan2(d.x) - self.from).rem_euclid(TAU) <= self.sweep
    }

    /// Distance from `p` to the arc: radial when `p`'s direction is covered, else to the
    /// nearer end.
    fn point_distance(&self, p: Point) -> f64 {
        let d = p - self.c;
        if self.covers(d) {
            (d.length() - self.r).abs()
        } else {
            p.distance(self.point_at(self.from))
                .min(p.distance(self.point_at(self.from + self.sweep)))
        }
    }

    /// Distance from the arc to the segment `a b`: the smallest of the critical pairs
    /// (arc ends to the segment, segment ends to the arc, the foot of the centre on the
    /// segment's line when the line misses the circle, and 0 when they cross).
    pub fn segment_distance(&self, a: Point, b: Point) -> f64 {
        let (e0, e1) = (
            self.point_at(self.from),
            self.point_at(self.from + self.sweep),
        );
        let mut best = point_segment_distance(e0, a, b)
            .min(point_segment_distance(e1, a, b))
            .min(self.point_distance(a))
            .min(self.point_distance(b));
        let d = b - a;
        let len2 = d.length_squared();
        if len2 > 0.0 {
            let t = ((self.c - a).dot(d) / len2).clamp(0.0, 1.0);
            let foot = a + d * t;
            let h = foot.distance(self.c);
            if h >= self.r {
                if self.covers(foot - self.c) {
                    best = best.min(h - self.r);
                }
            } else {
                // The line crosses the circle at distance ±s from the foot along it.
                let s = (self.r * self.r - h * h).sqrt() / len2.sqrt();
                let foot_line = a + d * ((self.c - a).dot(d) / len2);
                for k in [-1.0, 1.0] {
                    let x = foot_line + d * (k * s);
                    let along = (x - a).dot(d) / len2;
                    if (0.0..=1.0).contains(&along) && self.covers(x - self.c) {
                        return 0.0;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn bitangents_touch_both_circles_and_continue_the_orientation() {
        let (v, w, r) = (p(0.0, 0.0), p(5.0, 2.0), 1.0);
        let mut out = Vec::new();
        bitangents(v, w, r, &mut out);
        assert_eq!(out.len(), 4);
        for t in &out {
            let (a, b) = (v + t.u_from * r, w + t.u_to * r);
            assert!((a.distance(b) - t.length).abs() < 1e-12);
            let dir = (b - a) / t.length;
            // Perpendicular to the radius at both ends, along the stated orientation.
            assert!((dir - t.u_from.perp() * t.sigma_from as f64).length() < 1e-12);
            assert!((dir - t.u_to.perp() * t.sigma_to as f64).length() < 1e-12);
        }
    }

    #[test]
    fn point_tangents_are_perpendicular_to_the_radius() {
        let (s, c, r) = (p(4.0, 1.0), p(0.0, 0.0), 1.5);
        for (u, sigma, len) in point_tangents(s, c, r) {
            let q = c + u * r;
            assert!((q.distance(s) - len).abs() < 1e-12);
            let dir = (q - s) / len;
            assert!((dir - u.perp() * sigma as f64).length() < 1e-12);
        }
    }

    #[test]
    fn arc_segment_distance_matches_sampling() {
        let arc = ArcSpec {
            c: p(0.0, 0.0),
            r: 1.0,
            from: 0.3,
            sweep: 2.0,
        };
        let cases = [
            (p(-3.0, 2.0), p(3.0, 2.0)),
            (p(0.0, 0.0), p(0.2, 0.1)),
            (p(-2.0, -1.0), p(2.0, -1.5)),
            (p(0.5, -2.0), p(0.5, 2.0)),
            (p(1.0, 1.0), p(1.0, 1.0)),
        ];
        for (a, b) in cases {
            let sampled = (0..=20_000)
                .map(|i| arc.point_at(arc.from + arc.sweep * i as f64 / 20_000.0))
                .map(|q| point_segment_distance(q, a, b))
                .fold(f64::INFINITY, f64::min);
            let exact = arc.segment_distance(a, b);
            assert!(exact <= sampled + 1e-12, "{a} {b}: {exact} > {sampled}");
            assert!(sampled - exact < 1e-4, "{a} {b}: {exact} vs {sampled}");
        }
    }

    #[test]
    fn cones_accept_their_edges() {
        let cone = Cone::new(0.0, std::f64::consts::FRAC_PI_2);
        assert_eq!(cone.offset(p(1.0, 0.0)), Some(0.0));
        assert!(cone.offset(p(0.0, 1.0)).is_some());
        assert!(cone.offset(p(-1.0, 0.1).normalize()).is_none());
        assert!(!cone.may_contain(p(-1.0, -0.1).normalize()));
    }
}
