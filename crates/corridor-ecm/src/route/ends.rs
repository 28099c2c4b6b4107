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

use super::corridor::{between_start_and_goal, keeps_clearance};
use super::path::{CorridorStep, PathQuery};
use corridor_geom::funnel::{taut_path_into, Portal, TautPath};
use corridor_geom::Point;

/// How many dropped portals at each end are tried back.
const RESTORED: usize = 3;

/// Buffers of [`restore_end_portals`].
#[derive(Debug)]
pub(super) struct EndPortals {
    portals: Vec<Portal>,
    funnel: TautPath,
    points: Vec<Point>,
}

impl Default for EndPortals {
    fn default() -> Self {
        EndPortals {
            portals: Vec::new(),
            funnel: TautPath::empty(),
            points: Vec::new(),
        }
    }
}

/// The shortest of the funnel paths through `corridor` with up to [`RESTORED`] of the
/// dropped portals put back at each end (each step's portal from `portal`) that keeps
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
    let before = kept.start.min(RESTORED);
    let after = (corridor.len() - kept.end).min(RESTORED);
    let mut best: Option<f64> = None;
    for a in 0..=before {
        for b in 0..=after {
            if a + b == 0 {
                continue;
            }
            let steps = &corridor[kept.start - a..kept.end + b];
            buffers.portals.clear();
            buffers.portals.extend(steps.iter().map(&portal));
            taut_path_into(
                query.start,
                query.goal,
                &buffers.portals,
                &mut buffers.funnel,
            );
            let length = buffers.funnel.length;
            if !length.is_finite() || best.is_some_and(|l| length >= l) {
                continue;
            }
            buffers.funnel.polyline_into(deviation, &mut buffers.points);
            if keeps_clearance(ecm, &buffers.points, radius, step) {
                best = Some(length);
                std::mem::swap(out, &mut buffers.points);
            }
        }
    }
    best
}
