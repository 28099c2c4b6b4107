//! How does a straight path pass the boundary points on it?
//!
//! A straight path may touch walls and run along them. At a vertex it passes, one
//! wedge there must hold both its directions (so it neither enters an obstacle nor slips
//! through a pinch). Along a thin wall (free on both sides) it is on one side or the
//! other, and must keep to that side for as long as it runs along the wall: the free
//! sides allowed at each vertex of such a run, and at the run's ends, must have one in
//! common. [`Walk`](super::Walk) visits the vertices on a path nearest first and keeps
//! that account; the sweep, the naive oracle and
//! [`FreeSpace::segment_is_free`](super::FreeSpace::segment_is_free) all use it. Here:
//! where a path's points lie ([`Place`]), what an arrival must agree with ([`Arrival`])
//! and the exact order along a ray ([`along_ray_cmp`]).

use crate::Point;
use std::cmp::Ordering;

/// Where a path's end (or a point it passes) lies on the boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// At a wall vertex.
    Vertex(u32),
    /// In the interior of a wall.
    OnWall(u32),
    /// Off the walls.
    Free,
}

/// What a path arriving at a vertex must agree with, side-wise (sides are relative to the
/// direction of travel).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// The sides allowed for the run along thin walls that started at the path's start.
    pub centre_sides: u8,
    /// The sides allowed for the run along thin walls that ends at this vertex.
    pub end_sides: u8,
    /// Whether both are the same run (the whole path runs along thin walls).
    pub joint: bool,
}

impl Arrival {
    /// Whether a path leaving its start with free sides `leave` and arriving with free
    /// sides `arrive` is consistent with the runs on the way.
    #[inline]
    pub fn admits(&self, leave: u8, arrive: u8) -> bool {
        if self.joint {
            leave & arrive & self.end_sides != 0
        } else {
            leave & self.centre_sides != 0 && arrive & self.end_sides != 0
        }
    }
}

/// Orders two points on the same ray from `c` by distance, exactly.
#[inline]
pub fn along_ray_cmp(c: Point, p: Point, q: Point) -> Ordering {
    if p.x != c.x {
        let o = p.x.total_cmp(&q.x);
        if p.x > c.x {
            o
        } else {
            o.reverse()
        }
    } else {
        let o = p.y.total_cmp(&q.y);
        if p.y > c.y {
            o
        } else {
            o.reverse()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn along_ray_order() {
        let c = Point::new(1.0, 1.0);
        let (p, q) = (Point::new(2.0, 2.0), Point::new(3.0, 3.0));
        assert_eq!(along_ray_cmp(c, p, q), Ordering::Less);
        let (p, q) = (Point::new(1.0, 0.0), Point::new(1.0, -3.0));
        assert_eq!(along_ray_cmp(c, p, q), Ordering::Less);
    }
}
