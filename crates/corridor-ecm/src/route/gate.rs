//! Gates: the portal of one bending point as a route walks it, and the rules that trim a
//! corridor's leading and trailing portals for its start and goal.

use corridor_geom::{orient, Orientation, Point};

/// A portal with the bending point it belongs to: (left, right as seen walking,
/// medial-axis position, clearance).
pub(crate) type Gate = (Point, Point, Point, f64);

/// Whether `q` lies inside the clearance disk of a gate's bending point. The chord
/// between a bending point's nearest obstacle points lies in that (empty) disk, and a
/// point of a neighbouring cell can lie on the wrong side of the chord only inside it;
/// a point outside it that is on the wrong side of the chord's line is elsewhere in the
/// corridor (which has wound round), not next to the portal.
#[inline]
pub(crate) fn in_disk(position: Point, clearance: f64, q: Point) -> bool {
    position.distance(q) <= clearance * (1.0 + 1e-9) + 1e-12
}

/// Whether the planner's corridor keeps a trailing portal for `goal`: it drops the last
/// portals while the goal does not lie strictly beyond them, next to them (see
/// [`in_disk`]).
#[inline]
pub(crate) fn keeps_for_goal(g: &Gate, goal: Point) -> bool {
    orient(g.1, g.0, goal) == Orientation::Clockwise || !in_disk(g.2, g.3, goal)
}

/// Whether the planner's corridor drops a leading portal for `start`: while the start
/// does not lie strictly before it, next to it.
#[inline]
pub(crate) fn skips_for_start(g: &Gate, start: Point) -> bool {
    orient(g.1, g.0, start) != Orientation::CounterClockwise && in_disk(g.2, g.3, start)
}

/// Index of the last gate the planner's corridor keeps for the goal.
pub(crate) fn last_kept(gates: impl Iterator<Item = Gate>, goal: Point) -> Option<usize> {
    let mut last = None;
    for (i, g) in gates.enumerate() {
        if keeps_for_goal(&g, goal) {
            last = Some(i);
        }
    }
    last
}
