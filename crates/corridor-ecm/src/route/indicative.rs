//! How far the indicative route keeps from each wall point of its corridor: the
//! preferred clearance where the corridor has room for it, and less where it has not
//! (van Toll et al., SoCG 2016: the indicative route keeps the preferred clearance
//! "as much as the corridor allows").
//!
//! One corner is the end of many consecutive portals. Giving it the keep-out radius of
//! each portal's own room (half the portal's width) hands the funnel disks of different
//! sizes around one centre: the wide portals' big disk then blocks the narrow ones, the
//! funnel's path crosses a wall and the planner had to fall back to the shortest path
//! (military with a preferred clearance of 6 or more). Here a corner keeps the smallest
//! room of all the portals it ends, so the route can pass every one of them. Start and
//! goal may lie nearer a wall point than the preferred clearance: that wall point keeps
//! at most their distance from it, so that neither lies inside a keep-out disk.

use super::path::{CorridorStep, PathQuery};
use crate::util::BuildPointHasher;
use corridor_geom::funnel::Portal;
use corridor_geom::Point;
use std::collections::HashMap;

/// The keep-out radii of the corners of one corridor (see the module doc).
#[derive(Debug, Default)]
pub(super) struct IndicativeRoom {
    corners: HashMap<(u64, u64), f64, BuildPointHasher>,
}

fn key(p: Point) -> (u64, u64) {
    ((p.x + 0.0).to_bits(), (p.y + 0.0).to_bits())
}

impl IndicativeRoom {
    /// Records the room of every corner of `corridor` for keep-out radius `preferred`
    /// (never below `radius`; both already fitting radii, see `super::fitting_radius`).
    pub(super) fn measure(
        &mut self,
        corridor: &[CorridorStep],
        query: &PathQuery,
        radius: f64,
        preferred: f64,
    ) {
        self.corners.clear();
        for s in corridor {
            let room = Self::own(s, query, radius, preferred);
            for (point, is_corner) in [(s.left, s.left_is_corner), (s.right, s.right_is_corner)] {
                if is_corner {
                    let r = self.corners.entry(key(point)).or_insert(room(point));
                    *r = r.min(room(point));
                }
            }
        }
    }

    /// The keep-out radius of a wall point of step `s` from that step alone: the
    /// preferred clearance, at most half the portal's width and the distance of start and
    /// goal, at least `radius`.
    fn own(
        s: &CorridorStep,
        query: &PathQuery,
        radius: f64,
        preferred: f64,
    ) -> impl Fn(Point) -> f64 {
        // Less the fit tolerance (the gap between the radius asked and the fitting
        // radius), so that the two keep-outs of a full portal leave it open.
        let slack = (query.radius - radius).max(0.0);
        let room = 0.5 * s.left.distance(s.right) - slack;
        let (start, goal) = (query.start, query.goal);
        move |p: Point| {
            preferred
                .min(room)
                .min(p.distance(start))
                .min(p.distance(goal))
                .max(radius)
        }
    }

    /// The portal of step `s` for the indicative route (after [`Self::measure`] on its
    /// corridor).
    pub(super) fn portal(
        &self,
        s: &CorridorStep,
        query: &PathQuery,
        radius: f64,
        preferred: f64,
    ) -> Portal {
        let own = Self::own(s, query, radius, preferred);
        let keep = |p: Point, is_corner: bool| {
            let r = if is_corner {
                self.corners.get(&key(p)).copied().unwrap_or_else(|| own(p))
            } else {
                own(p)
            };
            s.keep_out(p, is_corner, r)
        };
        Portal {
            left: keep(s.left, s.left_is_corner),
            right: keep(s.right, s.right_is_corner),
        }
    }
}
