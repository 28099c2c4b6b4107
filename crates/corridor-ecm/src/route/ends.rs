//! Which portals next to start and goal the disk funnel needs, when the trimmed
//! corridor's path comes closer than the radius to a wall.
//!
//! The corridor drops its leading portals the start lies beyond (or on) and its trailing
//! portals the goal lies before (or on) ([`between_start_and_goal`]): at radius 0 the
//! path cannot cross them again, so they say nothing. With a radius they still do: their
//! ends are corners the disk must keep `r` away from, and a path leaving a start that
//! sits on a portal's chord (a grid cell centre between two diagonal corners, at `r =
//! 0.5`) can pass within `r` of a dropped corner. Before giving up on the funnel's path
//! (the planner's fallback pulls the medial route taut, often much longer), the planner
//! puts a few of the dropped portals back, nearest the ends first, and keeps the
//! shortest path that passes the clearance check.
//!
//! The opposite happens too: a kept portal next to the goal whose far end's disk lies
//! beyond the goal (a goal on a diagonal pinch's chord, den520d at `r = 0.5`) casts an
//! angular shadow over the goal as seen from the funnel's apex, and the disk funnel then
//! wraps the portal's other end almost all the way round. So the planner also tries the
//! corridor without a few of the kept portals at each end. Any candidate is only taken
//! when the clearance check (against every wall near the path, not just the corridor's)
//! passes, so leaving portals out never yields a path that grazes a wall; it can only
//! find a shorter one. Each candidate is also run backwards (from the goal, each
//! portal's sides swapped): the same shadow then falls at the start, where it does no
//! harm, and the lengths agree when both runs are right.

use super::clearance::keeps_clearance;
use super::corridor::between_start_and_goal;
use super::path::{CorridorStep, PathQuery};
use corridor_geom::funnel::{taut_path_into, Portal, TautPath};
use corridor_geom::Point;

/// How many dropped portals at each end are tried back, and how many kept ones are
/// tried without.
const RESTORED: usize = 3;

/// Buffers of [`restore_end_portals`].
#[derive(Debug)]
pub(super) struct EndPortals {
    portals: Vec<Portal>,
    funnel: TautPath,
    points: Vec<Point>,
    /// The candidate the last call took: `(a, b, backwards)`, the portals put back (> 0)
    /// or left out (< 0) before and after, and whether it ran from the goal.
    pub(super) taken: Option<(isize, isize, bool)>,
}

impl Default for EndPortals {
    fn default() -> Self {
        EndPortals {
            portals: Vec::new(),
            funnel: TautPath::empty(),
            points: Vec::new(),
            taken: None,
        }
    }
}

/// The shortest of the funnel paths through `corridor` with up to [`RESTORED`] of the
/// dropped portals put back, or of the kept portals left out, at each end (each step's portal from `portal`) that keeps
/// `radius` from every wall (`step`: the clearance check's look-up stretch), written
/// into `out` as a polyline (tolerance `deviation`) with its length returned; `None`
/// (and `out` untouched) when none does.
#[allow(clippy::too_many_arguments)]
pub(super) fn restore_end_portals(
    ecm: &crate::Ecm,
    query: &PathQuery,
    corridor: &[CorridorStep],
    portal: impl Fn(&CorridorStep) -> Portal,
    (radius, step, deviation): (f64, f64, f64),
    buffers: &mut EndPortals,
    out: &mut Vec<Point>,
) -> Option<f64> {
    let kept = between_start_and_goal(corridor, query.start, query.goal);
    // Signed changes of the kept range's ends: a portal put back (up to RESTORED) or a
    // kept one left out (up to RESTORED, never more than the range holds).
    let put_back_before = kept.start.min(RESTORED) as isize;
    let put_back_after = (corridor.len() - kept.end).min(RESTORED) as isize;
    let left_out = kept.len().min(RESTORED) as isize;
    let mut best: Option<f64> = None;
    buffers.taken = None;
    for a in -left_out..=put_back_before {
        for b in -left_out..=put_back_after {
            let (from, to) = (kept.start as isize - a, kept.end as isize + b);
            if from > to {
                continue;
            }
            let steps = &corridor[from as usize..to as usize];
            for backwards in [false, true] {
                if (a, b, backwards) == (0, 0, false) {
                    // The planner's own path, which failed the check.
                    continue;
                }
                buffers.portals.clear();
                let (start, goal) = if backwards {
                    // Walking from the goal, each portal's sides swap.
                    buffers
                        .portals
                        .extend(steps.iter().rev().map(|s| portal(s).reversed()));
                    (query.goal, query.start)
                } else {
                    buffers.portals.extend(steps.iter().map(&portal));
                    (query.start, query.goal)
                };
                taut_path_into(start, goal, &buffers.portals, &mut buffers.funnel);
                let length = buffers.funnel.length;
                if !length.is_finite() || best.is_some_and(|l| length >= l) {
                    continue;
                }
                buffers.funnel.polyline_into(deviation, &mut buffers.points);
                if backwards {
                    buffers.points.reverse();
                }
                if keeps_clearance(ecm, &buffers.points, radius, step) {
                    best = Some(length);
                    buffers.taken = Some((a, b, backwards));
                    // Copied, not swapped: a swap would hand the buffers' capacities
                    // back and forth, and a warmed query could then meet the smaller
                    // one and allocate (tests/plan_alloc.rs).
                    out.clear();
                    out.extend_from_slice(&buffers.points);
                }
            }
        }
    }
    best
}
