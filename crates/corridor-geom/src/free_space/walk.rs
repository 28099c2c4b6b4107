//! How a straight path passes the boundary points on it, nearest first ([`Walk`]): one
//! wedge at each vertex must hold both its directions, and along a thin wall it keeps to
//! one side.

use super::ray::{Arrival, Place};
use super::wedge::{Dir, BOTH};
use super::FreeSpace;

/// The account of one straight path from its start outwards.
pub struct Walk<'a> {
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
    #[inline]
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
    #[inline]
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
    #[inline]
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
