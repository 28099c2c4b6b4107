//! The corridor of a route: the stretches of medial axis at its ends, its bending points
//! in the direction of travel, its portals trimmed to start and goal, and the fallback
//! route along the medial axis, pulled taut under the clearance check.

use super::clearance::keeps_clearance;
use super::gate::{keeps_for_goal, skips_for_start};
use super::path::{CorridorStep, PathQuery};
use crate::graph::{Ecm, EdgeId};
use crate::locate::Retraction;
use corridor_geom::funnel::Portal;
use corridor_geom::Point;

/// Position of a retraction along its edge as (bending point index before it, t).
pub(super) fn piece_of(r: &Retraction) -> (usize, f64) {
    (r.cell.piece as usize, r.t)
}

/// Length of the medial-axis stretch from a retraction to one end of its edge
/// (`forward`: towards the end vertex), or `None` if it is narrower than `radius`
/// somewhere. Bending points include every arc's narrowest point, so checking them is
/// exact.
pub(super) fn partial(ecm: &Ecm, r: &Retraction, forward: bool, radius: f64) -> Option<f64> {
    let bps = &ecm.edges[r.edge()].bending_points;
    let (k, _) = piece_of(r);
    if forward {
        walk(
            r,
            bps[k + 1..].iter().map(|b| (b.position, b.clearance)),
            radius,
        )
    } else {
        walk(
            r,
            bps[..=k].iter().rev().map(|b| (b.position, b.clearance)),
            radius,
        )
    }
}

/// Walks from a retraction through bending points, summing lengths and checking clearance.
pub(super) fn walk(
    r: &Retraction,
    points: impl Iterator<Item = (Point, f64)>,
    radius: f64,
) -> Option<f64> {
    if r.clearance < radius {
        return None;
    }
    let (mut length, mut at) = (0.0, r.point);
    for (p, clearance) in points {
        if clearance < radius {
            return None;
        }
        length += at.distance(p);
        at = p;
    }
    Some(length)
}

/// The stretch between two retractions on the same edge.
pub(super) fn between(ecm: &Ecm, a: &Retraction, b: &Retraction, radius: f64) -> Option<f64> {
    let bps = &ecm.edges[a.edge()].bending_points;
    let (ka, ta) = piece_of(a);
    let (kb, tb) = piece_of(b);
    let points = |range: &[crate::BendingPoint]| {
        range
            .iter()
            .map(|b| (b.position, b.clearance))
            .collect::<Vec<_>>()
    };
    let stretch: Vec<(Point, f64)> = if (ka, ta) <= (kb, tb) {
        points(&bps[ka + 1..=kb])
    } else {
        let mut v = points(&bps[kb + 1..=ka]);
        v.reverse();
        v
    };
    let length = walk(a, stretch.iter().copied(), radius)?;
    let last = stretch.last().map_or(a.point, |s| s.0);
    (b.clearance >= radius).then(|| length + last.distance(b.point))
}

/// The bending points along the route, oriented in the direction of travel.
pub(super) fn corridor_steps(
    ecm: &Ecm,
    start: &Retraction,
    goal: &Retraction,
    route: &[(EdgeId, bool)],
    steps: &mut Vec<CorridorStep>,
) {
    steps.clear();
    let step = |edge: EdgeId, i: usize, forward: bool| {
        let b = &ecm.edges[edge].bending_points[i];
        let ((left, left_is_corner), (right, right_is_corner)) = if forward {
            ((b.left, b.left_is_corner), (b.right, b.right_is_corner))
        } else {
            ((b.right, b.right_is_corner), (b.left, b.left_is_corner))
        };
        CorridorStep {
            position: b.position,
            left,
            right,
            clearance: b.clearance,
            left_is_corner,
            right_is_corner,
        }
    };
    if route.is_empty() {
        // Start and goal on one edge.
        let (ka, ta) = piece_of(start);
        let (kb, tb) = piece_of(goal);
        if (ka, ta) <= (kb, tb) {
            steps.extend((ka + 1..=kb).map(|i| step(start.edge(), i, true)));
        } else {
            steps.extend((kb + 1..=ka).rev().map(|i| step(start.edge(), i, false)));
        }
        return;
    }
    let last = route.len() - 1;
    for (n, &(edge, forward)) in route.iter().enumerate() {
        let count = ecm.edges[edge].bending_points.len();
        let (mut from, mut to) = (0usize, count - 1); // inclusive, in edge order
        if n == 0 {
            let (k, _) = piece_of(start);
            if forward {
                from = k + 1
            } else {
                to = k
            }
        }
        if n == last {
            let (k, _) = piece_of(goal);
            if forward {
                to = k
            } else {
                from = k + 1
            }
        }
        if from > to {
            continue;
        }
        if forward {
            steps.extend((from..=to).map(|i| step(edge, i, true)));
        } else {
            steps.extend((from..=to).rev().map(|i| step(edge, i, false)));
        }
    }
}

/// The portals of a corridor with the given clearance per step, trimmed to the stretch
/// between start and goal.
pub(super) fn portals_for(
    corridor: &[CorridorStep],
    query: &PathQuery,
    clearance: impl Fn(&CorridorStep) -> f64,
    portals: &mut Vec<Portal>,
) {
    let kept = between_start_and_goal(corridor, query.start, query.goal);
    portals.clear();
    portals.extend(corridor[kept].iter().map(|s| s.portal(clearance(s))));
}

/// The steps whose portals lie between start and goal: it drops the steps the start
/// already lies beyond (or on) and those the goal lies before (or on), as long as the
/// point lies inside the step's clearance disk. A portal is the chord between the nearest
/// obstacle points of a bending point, and a point of a neighbouring cell (or a wall
/// corner that is a portal end) may sit on either side of it, but only inside that disk;
/// a point on the wrong side of the chord's line farther away lies where the corridor has
/// wound round, and trimming there would cut the corridor short. The taut-length search
/// trims the same way ([`super::gate::skips_for_start`], [`super::gate::keeps_for_goal`]),
/// so that it measures the corridors as the planner does.
pub(super) fn between_start_and_goal(
    corridor: &[CorridorStep],
    start: Point,
    goal: Point,
) -> std::ops::Range<usize> {
    let gate = |s: &CorridorStep| (s.left, s.right, s.position, s.clearance);
    let first = corridor
        .iter()
        .take_while(|s| skips_for_start(&gate(s), start))
        .count();
    let mut end = corridor.len();
    while end > first && !keeps_for_goal(&gate(&corridor[end - 1]), goal) {
        end -= 1;
    }
    first..end
}

/// Start, its retraction, the corridor's bending points, the goal's retraction and the
/// goal: a route that keeps the clearance of the medial axis.
pub(super) fn medial_route(
    query: &PathQuery,
    start: &Retraction,
    goal: &Retraction,
    corridor: &[CorridorStep],
    route: &mut Vec<Point>,
) {
    route.clear();
    route.extend([query.start, start.point]);
    route.extend(corridor.iter().map(|s| s.position));
    route.extend([goal.point, query.goal]);
    route.dedup();
}

/// The medial route, pulled taut greedily: from each point, straight to the farthest
/// later point the walls allow. Slower and a little longer than the funnel's
/// path, but its clearance is checked piece by piece.
/// Writes it into `pulled` (cleared first).
pub(super) fn pulled_medial_route(
    ecm: &Ecm,
    route: &[Point],
    radius: f64,
    step: f64,
    pulled: &mut Vec<Point>,
) {
    pulled.clear();
    let Some(&first) = route.first() else {
        return;
    };
    pulled.push(first);
    let mut at = 0;
    while at + 1 < route.len() {
        let next = (at + 2..route.len())
            .rev()
            .find(|&k| keeps_clearance(ecm, &[route[at], route[k]], radius, step))
            .unwrap_or(at + 1);
        pulled.push(route[next]);
        at = next;
    }
}
