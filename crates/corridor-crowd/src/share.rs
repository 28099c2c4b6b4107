//! Which characters can share one plan: those starting close together, going to the
//! same place (goals in the same small cell) with radii of the same class. One of them
//! plans for the largest radius of its group; the others join its indicative route at
//! the furthest of its first points they see and leave it for their own goal at the
//! first of its last points that sees that goal, both checked with the ECM's line of
//! sight for their radius. Whoever cannot join plans alone.

use crate::crowd::Crowd;
use crate::route::Route;
use corridor_ecm::Ecm;
use corridor_geom::Point;
use rustc_hash::FxHashMap;

/// Starts this close (metres) may share a plan.
const START_REACH: f64 = 6.0;
/// Goals in the same square cell of this side (metres) count as the same place.
const GOAL_CELL: f64 = 2.0;
/// Radii in the same band of this width (metres) are one class.
const RADIUS_CLASS: f64 = 0.25;
/// How many route points from either end a follower tries to join or leave at.
const JOIN_POINTS: usize = 4;

/// For every character of `due` (indices into `crowd`), the position in `due` of the
/// character that plans for it (itself when it plans). Greedy in index order, so the
/// answer depends on nothing but the crowd.
pub(crate) fn leaders(due: &[usize], crowd: &Crowd) -> Vec<usize> {
    let cell = |p: Point, side: f64| ((p.x / side).floor() as i64, (p.y / side).floor() as i64);
    type Key = ((i64, i64), i64, (i64, i64));
    let mut planners: FxHashMap<Key, Vec<usize>> = FxHashMap::default();
    let mut leader = Vec::with_capacity(due.len());
    for (k, &i) in due.iter().enumerate() {
        let start = crowd.position[i];
        let goal = cell(crowd.goal[i], GOAL_CELL);
        let class = (crowd.radius[i] / RADIUS_CLASS).floor() as i64;
        let (sx, sy) = cell(start, START_REACH);
        let mut found = None;
        'cells: for dx in -1..=1 {
            for dy in -1..=1 {
                let Some(list) = planners.get(&(goal, class, (sx + dx, sy + dy))) else {
                    continue;
                };
                if let Some(&l) = list
                    .iter()
                    .find(|&&l| crowd.position[due[l]].distance(start) <= START_REACH)
                {
                    found = Some(l);
                    break 'cells;
                }
            }
        }
        leader.push(found.unwrap_or_else(|| {
            planners.entry((goal, class, (sx, sy))).or_default().push(k);
            k
        }));
    }
    leader
}

/// The route of a character of `radius` from `start` to `goal` along `shared`, or
/// `None` when it sees none of the route's first points or none of its last points
/// sees `goal`.
///
/// ```
/// use corridor_crowd::share_route;
/// use corridor_crowd::Route;
/// use corridor_ecm::Ecm;
/// use corridor_geom::{Environment, Point};
/// let ecm = Ecm::build(&Environment::rectangle(Point::ZERO, Point::new(20.0, 10.0)))?;
/// let shared = Route::straight(Point::new(1.0, 5.0), Point::new(19.0, 5.0));
/// let own = share_route(&ecm, &shared, Point::new(1.0, 3.0), Point::new(19.0, 6.0), 0.3)
///     .unwrap();
/// assert_eq!(own.points.first(), Some(&Point::new(1.0, 3.0)));
/// assert_eq!(own.points.last(), Some(&Point::new(19.0, 6.0)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn share_route(
    ecm: &Ecm,
    shared: &Route,
    start: Point,
    goal: Point,
    radius: f64,
) -> Option<Route> {
    let points = &shared.points;
    let last = points.len().checked_sub(1)?;
    let sees =
        |a: Point, b: Point| a == b || ecm.line_of_sight_with_radius(a, b, radius) == Ok(true);
    let entry = (0..=last.min(JOIN_POINTS))
        .rev()
        .find(|&k| sees(start, points[k]))?;
    let exit =
        (entry.max(last.saturating_sub(JOIN_POINTS))..=last).find(|&k| sees(points[k], goal))?;
    let mut own = Vec::with_capacity(exit - entry + 3);
    own.push(start);
    own.extend(
        points[entry..=exit]
            .iter()
            .copied()
            .filter(|&p| p != start && p != goal),
    );
    own.push(goal);
    Some(Route {
        points: own,
        edges: shared.edges.clone(),
        segment: 0,
    })
}
