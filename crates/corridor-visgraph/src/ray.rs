//! How does a straight path pass the boundary points on it?
//!
//! A straight path may touch walls and run along them. At a vertex it passes, one
//! wedge there must hold both its directions (so it neither enters an obstacle nor slips
//! through a pinch). Along a thin wall (free on both sides) it is on one side or the
//! other, and must keep to that side for as long as it runs along the wall: the free
//! sides allowed at each vertex of such a run, and at the run's ends, must have one in
//! common. [`Walk`] visits the vertices on a path nearest first and keeps that account;
//! the sweep, the naive oracle and [`crate::FreeSpace::segment_is_free`] all use it.

use crate::angle::{Dir, BOTH};
use crate::free_space::FreeSpace;
use corridor_geom::Point;
use std::cmp::Ordering;

/// Where a path's end (or a point it passes) lies on the boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
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
pub(crate) struct Arrival {
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
    pub fn admits(&self, leave: u8, arrive: u8) -> bool {
        if self.joint {
            leave & arrive & self.end_sides != 0
        } else {
            leave & self.centre_sides != 0 && arrive & self.end_sides != 0
        }
    }
}

/// The account of one straight path from its start outwards.
pub(crate) struct Walk<'a> {
    fs: &'a FreeSpace,
    d: Dir,
    prev: Place,
    at_start: bool,
    run: Option<(u8, bool)>,
    centre_sides: u8,
    last_pass: u8,
}

impl<'a> Walk<'a> {
    /// A path from `start` travelling along `d` (given at any apex on the path, e.g.
    /// "away from the start point").
    pub fn new(fs: &'a FreeSpace, start: Place, d: Dir) -> Self {
        Walk {
            fs,
            d,
            prev: start,
            at_start: true,
            run: None,
            centre_sides: BOTH,
            last_pass: BOTH,
        }
    }

    /// The path reaches `at` (the next boundary point on it).
    pub fn arrive(&mut self, at: Place) -> Arrival {
        if self.fs.thin_wall_between(self.prev, at) {
            if self.run.is_none() {
                self.run = Some((self.last_pass, self.at_start));
            }
        } else if let Some((sides, from_start)) = self.run.take() {
            if from_start {
                self.centre_sides = sides;
            }
        }
        self.prev = at;
        self.at_start = false;
        match self.run {
            Some((sides, true)) => Arrival {
                centre_sides: BOTH,
                end_sides: sides,
                joint: true,
            },
            Some((sides, false)) => Arrival {
                centre_sides: self.centre_sides,
                end_sides: sides,
                joint: false,
            },
            None => Arrival {
                centre_sides: self.centre_sides,
                end_sides: BOTH,
                joint: false,
            },
        }
    }

    /// The path goes on through vertex `v`, where it just arrived; false if it cannot.
    pub fn pass(&mut self, v: u32) -> bool {
        let sides = self.fs.passable_sides(v, self.d);
        self.last_pass = sides;
        if sides == 0 {
            return false;
        }
        if let Some((run, _)) = &mut self.run {
            *run &= sides;
            if *run == 0 {
                return false;
            }
        }
        true
    }
}

/// Orders two points on the same ray from `c` by distance, exactly.
pub(crate) fn along_ray_cmp(c: Point, p: Point, q: Point) -> Ordering {
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
