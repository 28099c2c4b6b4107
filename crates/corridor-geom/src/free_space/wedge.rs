//! Which way is free at a boundary point? Exact directions and wedges.
//!
//! A direction is never stored as a rounded vector: it is "from `apex` towards the
//! point `to`", possibly reversed. Every comparison is then an exact orientation test on
//! the original coordinates, so two directions that are equal in exact arithmetic compare
//! equal here, however the coordinates round.

use crate::{orient, Orientation, Point};
use std::cmp::Ordering;

/// The direction from an apex towards `to` (or away from it when `reversed`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dir {
    /// The point the direction points at (or away from).
    pub to: Point,
    /// Whether the direction points away from `to`.
    pub reversed: bool,
}

impl Dir {
    /// From the apex towards `to`.
    #[inline]
    pub fn towards(to: Point) -> Self {
        Dir {
            to,
            reversed: false,
        }
    }

    /// From the apex directly away from `from`.
    #[inline]
    pub fn away_from(from: Point) -> Self {
        Dir {
            to: from,
            reversed: true,
        }
    }

    /// The opposite direction.
    #[inline]
    pub fn opposite(self) -> Self {
        Dir {
            to: self.to,
            reversed: !self.reversed,
        }
    }

    #[inline]
    fn sign(self) -> i32 {
        if self.reversed {
            -1
        } else {
            1
        }
    }
}

#[inline]
fn sign_of(o: Orientation) -> i32 {
    match o {
        Orientation::CounterClockwise => 1,
        Orientation::Clockwise => -1,
        Orientation::Collinear => 0,
    }
}

/// Sign of the orientation of `(a, b, p)` (exact): 1 counter-clockwise, -1 clockwise, 0
/// collinear.
#[inline]
pub fn side(a: Point, b: Point, p: Point) -> i32 {
    sign_of(orient(a, b, p))
}

#[inline]
fn cmp_sign(a: f64, b: f64) -> i32 {
    if a > b {
        1
    } else if a < b {
        -1
    } else {
        0
    }
}

/// Sign of the cross product of two directions at `apex` (exact).
#[inline]
pub(crate) fn cross_sign(apex: Point, u: Dir, v: Dir) -> i32 {
    u.sign() * v.sign() * sign_of(orient(apex, u.to, v.to))
}

/// Sign of the dot product of two directions at `apex` that are known to be collinear.
#[inline]
fn collinear_dot_sign(apex: Point, u: Dir, v: Dir) -> i32 {
    let (su, sv) = if u.to.x != apex.x {
        (cmp_sign(u.to.x, apex.x), cmp_sign(v.to.x, apex.x))
    } else {
        (cmp_sign(u.to.y, apex.y), cmp_sign(v.to.y, apex.y))
    };
    u.sign() * v.sign() * su * sv
}

/// Whether the direction's angle from the positive x axis lies in `[0, π)`.
#[inline]
fn upper_half(apex: Point, d: Dir) -> bool {
    let sy = d.sign() * cmp_sign(d.to.y, apex.y);
    sy > 0 || (sy == 0 && d.sign() * cmp_sign(d.to.x, apex.x) > 0)
}

/// Compares the angles of two directions measured counter-clockwise from the positive x
/// axis, in `[0, 2π)` (exact).
#[inline]
pub(crate) fn angle_cmp(apex: Point, u: Dir, v: Dir) -> Ordering {
    by_halves(apex, u, v, upper_half(apex, u), upper_half(apex, v))
}

/// Compares two directions given which half turn (first or second) each lies in: the
/// first half comes first; within one half (less than π wide) the cross product decides.
#[inline]
fn by_halves(apex: Point, u: Dir, v: Dir, u_first: bool, v_first: bool) -> Ordering {
    if u_first != v_first {
        return if u_first {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    match cross_sign(apex, u, v) {
        1 => Ordering::Less,
        -1 => Ordering::Greater,
        _ => Ordering::Equal,
    }
}

/// Whether the angle of `v` measured counter-clockwise from `base` lies in `[0, π)`.
#[inline]
fn first_half_from(apex: Point, base: Dir, v: Dir) -> bool {
    match cross_sign(apex, base, v) {
        1 => true,
        -1 => false,
        _ => collinear_dot_sign(apex, base, v) > 0,
    }
}

/// Compares the counter-clockwise angles of `u` and `v` measured from `base`, in `[0, 2π)`.
#[inline]
pub fn angle_from_cmp(apex: Point, base: Dir, u: Dir, v: Dir) -> Ordering {
    let (hu, hv) = (
        first_half_from(apex, base, u),
        first_half_from(apex, base, v),
    );
    by_halves(apex, u, v, hu, hv)
}

/// A number in `[0, 4]` increasing with the angle of `v` from the positive x axis (the
/// "diamond angle"): monotone, cheap, rounded (NaN for a non-finite or zero `v`). Used
/// to presort and prefilter directions; every decision near a key's rounding error is
/// left to the exact tests above.
#[inline]
pub fn pseudo_angle(v: Point) -> f64 {
    let p = v.y / (v.x.abs() + v.y.abs());
    if v.x >= 0.0 {
        if v.y >= 0.0 {
            p
        } else {
            4.0 + p
        }
    } else {
        2.0 - p
    }
}

/// A pseudo-angle difference brought into `[0, 4)`.
#[inline]
pub fn wrap4(k: f64) -> f64 {
    if k < 0.0 {
        k + 4.0
    } else {
        k
    }
}

/// Side masks relative to a direction of travel: the free space is on its left, right,
/// or both.
pub const LEFT: u8 = 1;
/// See [`LEFT`].
pub const RIGHT: u8 = 2;
/// See [`LEFT`].
pub const BOTH: u8 = 3;

/// The same sides seen travelling the other way.
#[inline]
pub fn flip(sides: u8) -> u8 {
    ((sides & LEFT) << 1) | ((sides & RIGHT) >> 1)
}

/// Whether `u` and `v` point the same way (exact).
#[inline]
fn same_direction(apex: Point, u: Dir, v: Dir) -> bool {
    if u == v {
        return true;
    }
    cross_sign(apex, u, v) == 0 && collinear_dot_sign(apex, u, v) > 0
}

/// Whether `d` lies in the half-open range of directions turning counter-clockwise from
/// `lo` (excluded) to `hi` (included).
#[inline]
pub fn in_half_open(apex: Point, lo: Dir, hi: Dir, d: Dir) -> bool {
    angle_from_cmp(apex, lo, lo, d) == Ordering::Less
        && angle_from_cmp(apex, lo, d, hi) != Ordering::Greater
}

/// A closed sector of free directions at a boundary point: from the ray towards `start`
/// counter-clockwise to the ray towards `end`; the free space lies inside.
///
/// Where two obstacles touch diagonally (a pinch point of a grid map) a point has two
/// wedges, and a path may turn inside one of them but not pass from one to the other:
/// that is how "no squeezing between diagonal neighbours" is expressed exactly. The free
/// end of a thin wall has one `full` wedge covering every direction.
///
/// ```
/// use corridor_geom::Point;
/// use corridor_geom::Wedge;
/// // The corner of a square obstacle occupying the first quadrant.
/// let w = Wedge { apex: Point::ZERO, start: Point::Y, end: Point::X, full: false };
/// assert!(w.is_reflex());
/// assert!(w.contains_towards(Point::new(-1.0, -1.0)));
/// assert!(!w.contains_towards(Point::new(1.0, 1.0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wedge {
    /// The boundary point.
    pub apex: Point,
    /// A point on the ray where the free sector starts (the far end of a wall edge).
    pub start: Point,
    /// A point on the ray where the free sector ends, counter-clockwise from `start`.
    pub end: Point,
    /// Whether every direction is free (the end of a thin wall): `start == end`.
    pub full: bool,
}

impl Wedge {
    /// Whether direction `d` lies in the closed sector.
    #[inline]
    pub fn contains(&self, d: Dir) -> bool {
        // Towards the far end of one of its walls (points are interned, so this is the
        // wall's own direction, on the closed sector's boundary): no test needed.
        if self.full || !d.reversed && (d.to == self.start || d.to == self.end) {
            return true;
        }
        let start = Dir::towards(self.start);
        angle_from_cmp(self.apex, start, d, Dir::towards(self.end)) != Ordering::Greater
    }

    /// On which sides of a path leaving the apex along `d` the wedge's free space lies
    /// (0 when `d` is not in the wedge): one side when `d` runs along one of the wedge's
    /// walls, both when it points strictly inside.
    #[inline]
    pub fn sides_along(&self, d: Dir) -> u8 {
        if !self.contains(d) {
            0
        } else if self.full {
            BOTH
        } else if same_direction(self.apex, d, Dir::towards(self.start)) {
            LEFT
        } else if same_direction(self.apex, d, Dir::towards(self.end)) {
            RIGHT
        } else {
            BOTH
        }
    }

    /// On which sides (relative to `d`) of a straight path passing through the apex along
    /// `d` this wedge's free space lies; 0 when the path does not stay in the wedge.
    #[inline]
    pub fn sides_through(&self, d: Dir) -> u8 {
        self.sides_along(d) & flip(self.sides_along(d.opposite()))
    }

    /// Whether the whole line through the apex along `d` leaves the obstacle on one side:
    /// both `d` and its opposite are free directions.
    #[inline]
    pub fn contains_line(&self, d: Dir) -> bool {
        self.contains(d) && self.contains(d.opposite())
    }

    /// Whether the free angle exceeds π: only such corners can bend a shortest path (the
    /// free space is reflex there, the obstacle convex).
    #[inline]
    pub fn is_reflex(&self) -> bool {
        self.full || cross_sign(self.apex, Dir::towards(self.start), Dir::towards(self.end)) < 0
    }

    /// Whether the direction from the apex towards `p` is free (inside the closed wedge).
    #[inline]
    pub fn contains_towards(&self, p: Point) -> bool {
        self.contains(Dir::towards(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn angle_order_is_exact_and_total() {
        let c = p(0.0, 0.0);
        let dirs = [
            p(1.0, 0.0),
            p(1.0, 1.0),
            p(0.0, 1.0),
            p(-1.0, 1.0),
            p(-1.0, 0.0),
            p(-1.0, -1.0),
            p(0.0, -1.0),
            p(1.0, -1.0),
        ];
        for (i, &a) in dirs.iter().enumerate() {
            for (j, &b) in dirs.iter().enumerate() {
                assert_eq!(
                    angle_cmp(c, Dir::towards(a), Dir::towards(b)),
                    i.cmp(&j),
                    "{a} vs {b}"
                );
            }
        }
        assert_eq!(
            angle_cmp(c, Dir::towards(p(2.0, 2.0)), Dir::towards(p(1.0, 1.0))),
            Ordering::Equal
        );
        assert_eq!(
            angle_cmp(c, Dir::away_from(p(-1.0, 0.0)), Dir::towards(p(3.0, 0.0))),
            Ordering::Equal
        );
    }

    #[test]
    fn sectors() {
        let c = p(0.0, 0.0);
        // Free space everywhere except the first quadrant (a convex obstacle corner).
        let s = Wedge {
            apex: c,
            start: p(0.0, 1.0),
            end: p(1.0, 0.0),
            full: false,
        };
        assert!(s.is_reflex());
        assert!(s.contains(Dir::towards(p(-1.0, 0.0))));
        assert!(s.contains(Dir::towards(p(0.0, 5.0))));
        assert!(s.contains(Dir::towards(p(5.0, 0.0))));
        assert!(!s.contains(Dir::towards(p(1.0, 1.0))));
        assert!(s.contains_line(Dir::towards(p(1.0, -1.0))));
        assert!(!s.contains_line(Dir::towards(p(1.0, 2.0))));
        assert!(s.contains_line(Dir::towards(p(1.0, 0.0))));
        // The first quadrant alone.
        let q = Wedge {
            apex: c,
            start: p(1.0, 0.0),
            end: p(0.0, 1.0),
            full: false,
        };
        assert!(!q.is_reflex());
        assert!(q.contains(Dir::towards(p(1.0, 1.0))));
        assert!(!q.contains(Dir::towards(p(-1.0, 1.0))));
        let full = Wedge {
            apex: c,
            start: p(1.0, 0.0),
            end: p(1.0, 0.0),
            full: true,
        };
        assert!(full.is_reflex() && full.contains_line(Dir::towards(p(1.0, 0.0))));
    }
}
