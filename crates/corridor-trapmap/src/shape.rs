//! What does a trapezoid look like in the plane?
//!
//! The map is built under the symbolic shear (points ordered by x, then y); in the
//! plane, a trapezoid between two points with the same x collapses to a vertical
//! segment, and a trapezoid bounded by a vertical wall is such a sliver beside it. These
//! functions give each trapezoid's closure in real coordinates: its x-range and, at each
//! x, its y-range. Closures of free trapezoids lie in the closed free space.

use crate::map::{Decomposition, Seg};
use corridor_geom::Point;

/// The height of wall `s` at `x` (rounded; exact at the ends).
fn height(s: &Seg, x: f64) -> f64 {
    if x == s.p.x {
        s.p.y
    } else if x == s.q.x {
        s.q.y
    } else {
        s.p.y + (x - s.p.x) * (s.q.y - s.p.y) / (s.q.x - s.p.x)
    }
}

impl Decomposition {
    /// The y-range of trapezoid `t`'s closure at `x` (within its x-range).
    pub(crate) fn y_range(&self, t: u32, x: f64) -> (f64, f64) {
        let tr = self.traps[t as usize];
        let (top, bottom) = (&self.segs[tr.top as usize], &self.segs[tr.bottom as usize]);
        // A vertical bottom wall: the sliver beside it starts at the left corner's
        // height; a vertical top wall: it ends at the right corner's height.
        let lo = if bottom.p.x == bottom.q.x {
            tr.leftp.y
        } else {
            height(bottom, x)
        };
        let hi = if top.p.x == top.q.x {
            tr.rightp.y
        } else {
            height(top, x)
        };
        (lo, hi.max(lo))
    }

    /// The corners of trapezoid `t`'s closure, counter-clockwise from the lower left
    /// (two coincide at a corner where its walls meet; a sliver's are collinear).
    pub(crate) fn corners(&self, t: u32) -> [Point; 4] {
        let tr = self.traps[t as usize];
        let (xl, xr) = (tr.leftp.x, tr.rightp.x);
        let (l0, l1) = self.y_range(t, xl);
        let (r0, r1) = self.y_range(t, xr);
        [
            Point::new(xl, l0),
            Point::new(xr, r0),
            Point::new(xr, r1),
            Point::new(xl, l1),
        ]
    }

    /// A point of trapezoid `t`'s closure, central where it has width.
    pub(crate) fn centre(&self, t: u32) -> Point {
        let tr = self.traps[t as usize];
        let x = 0.5 * (tr.leftp.x + tr.rightp.x);
        let (lo, hi) = self.y_range(t, x);
        Point::new(x, 0.5 * (lo + hi))
    }

    /// The middle of the vertical side shared by `t` and its right neighbour `r`.
    pub(crate) fn door(&self, t: u32, r: u32) -> Point {
        let x = self.traps[t as usize].rightp.x;
        let (a0, a1) = self.y_range(t, x);
        let (b0, b1) = self.y_range(r, x);
        let (lo, hi) = (a0.max(b0), a1.min(b1));
        Point::new(x, 0.5 * (lo + hi.max(lo)))
    }
}
