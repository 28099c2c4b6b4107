//! Paths for disk-shaped characters of any radius (van Toll et al., SoCG 2016, §4;
//! Geraerts, ICRA 2010): retract start and goal onto the medial axis, search the medial
//! axis with A* ignoring everything narrower than the radius, take the corridor of cells
//! along the route, and pull the shortest path with clearance taut inside it.

use crate::query::{QueryError, Retraction};
use crate::{Ecm, EdgeId, VertexId};
use corridor_geom::funnel::{taut_path, Disk, Portal};
use corridor_geom::{orient, Orientation, Point, Segment};
use slotmap::SecondaryMap;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What to plan: from `start` to `goal` for a character of `radius`, preferring to keep
/// `preferred_clearance` from the walls where the corridor is wide enough.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathQuery {
    /// Where the character's centre starts.
    pub start: Point,
    /// Where it should end.
    pub goal: Point,
    /// The character's radius: the path keeps at least this distance from every wall.
    pub radius: f64,
    /// The distance the indicative route keeps where the corridor allows it (at least
    /// `radius`).
    pub preferred_clearance: f64,
}

impl PathQuery {
    /// A query for a point-sized character.
    pub fn new(start: Point, goal: Point) -> Self {
        PathQuery {
            start,
            goal,
            radius: 0.0,
            preferred_clearance: 0.0,
        }
    }

    /// The same query for a character of `radius`.
    pub fn with_radius(mut self, radius: f64) -> Self {
        self.radius = radius;
        self.preferred_clearance = self.preferred_clearance.max(radius);
        self
    }

    /// The same query with a preferred clearance for the indicative route.
    pub fn with_preferred_clearance(mut self, clearance: f64) -> Self {
        self.preferred_clearance = clearance;
        self
    }
}

/// Why there is no path.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum PlanError {
    /// The radius or preferred clearance is negative or not finite.
    #[error("radius {radius} and preferred clearance {preferred_clearance} must be finite and non-negative")]
    InvalidRadius {
        /// As given.
        radius: f64,
        /// As given.
        preferred_clearance: f64,
    },
    /// The start is not usable.
    #[error("start: {0}")]
    Start(QueryError),
    /// The goal is not usable.
    #[error("goal: {0}")]
    Goal(QueryError),
    /// The start is closer to a wall than the radius.
    #[error("start ({}, {}) is {clearance} from a wall, closer than the radius {radius}", .point.x, .point.y)]
    StartTooClose {
        /// The start.
        point: Point,
        /// Its clearance.
        clearance: f64,
        /// The radius asked for.
        radius: f64,
    },
    /// The goal is closer to a wall than the radius.
    #[error("goal ({}, {}) is {clearance} from a wall, closer than the radius {radius}", .point.x, .point.y)]
    GoalTooClose {
        /// The goal.
        point: Point,
        /// Its clearance.
        clearance: f64,
        /// The radius asked for.
        radius: f64,
    },
    /// Start and goal lie in different connected parts of the free space.
    #[error("start and goal are in different components of the free space")]
    DifferentComponents,
    /// They are connected, but not by a corridor as wide as the character.
    #[error("no corridor is wide enough for radius {radius}")]
    NoCorridor {
        /// The radius asked for.
        radius: f64,
    },
}

/// One bending point the path passes, seen in the direction of travel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CorridorStep {
    /// The medial-axis point.
    pub position: Point,
    /// Nearest obstacle point on the walker's left.
    pub left: Point,
    /// Nearest obstacle point on the walker's right.
    pub right: Point,
    /// Clearance at `position`.
    pub clearance: f64,
    /// Whether `left` is an obstacle corner rather than a point inside a straight wall.
    pub left_is_corner: bool,
    /// Whether `right` is an obstacle corner rather than a point inside a straight wall.
    pub right_is_corner: bool,
}

impl CorridorStep {
    /// What the path must keep out of on one side for clearance `r`: around a corner the
    /// disk of radius `r`; along a straight wall the point `r` out from the wall towards
    /// the medial axis, since a disk there would let the path bend around it and dip
    /// below `r` from the wall on either side of that point.
    fn keep_out(&self, wall_point: Point, is_corner: bool, r: f64) -> Disk {
        if is_corner || r == 0.0 {
            Disk::new(wall_point, r)
        } else {
            let out = (self.position - wall_point).normalize_or_zero();
            Disk::point(wall_point + out * r)
        }
    }

    /// The portal this step puts across the corridor for clearance `r`.
    fn portal(&self, r: f64) -> Portal {
        Portal {
            left: self.keep_out(self.left, self.left_is_corner, r),
            right: self.keep_out(self.right, self.right_is_corner, r),
        }
    }
}

/// A planned path.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    /// The shortest path with clearance `radius` inside the corridor, as a polyline whose
    /// arcs around corners are replaced by tangent polylines outside the clearance disk.
    pub points: Vec<Point>,
    /// Exact length of that path (straight pieces plus circular arcs).
    pub length: f64,
    /// The indicative route: like `points`, but keeping `preferred_clearance` where the
    /// corridor is wide enough.
    pub indicative_route: Vec<Point>,
    /// The medial-axis route from the start's retraction to the goal's.
    pub medial_route: Vec<Point>,
    /// The corridor: the bending points along the route with their left and right
    /// nearest obstacle points.
    pub corridor: Vec<CorridorStep>,
    /// The edges followed, in order, with the direction (true: start → end vertex).
    pub edges: Vec<(EdgeId, bool)>,
}

/// Reusable search state: keep one per thread; once its buffers have grown to the map's
/// size, the search itself allocates nothing.
#[derive(Debug, Default)]
pub struct Planner {
    best: SecondaryMap<VertexId, (f64, Parent)>,
    closed: SecondaryMap<VertexId, ()>,
    open: BinaryHeap<Open>,
    route: Vec<(EdgeId, bool)>,
    /// Cost of crossing each edge: the length of the taut path through the edge's own
    /// corridor from one end vertex to the other, computed once per edge and reused.
    edge_cost: SecondaryMap<EdgeId, f64>,
    /// The map `edge_cost` belongs to.
    costs_of: u64,
    /// Edges used by routes already tried in this query, made dearer so that the next
    /// search looks for another corridor.
    penalty: SecondaryMap<EdgeId, ()>,
    /// The best route so far while alternatives are tried.
    best_route: Vec<(EdgeId, bool)>,
}

/// How many corridors a query compares (the first found by A*, then alternatives that
/// avoid the edges already tried). The taut path is exact inside a corridor; comparing a
/// few corridors fixes most cases where the medial axis prefers another way round an
/// obstacle than the shortest path does.
const CANDIDATE_CORRIDORS: usize = 4;

/// Cost factor for edges of corridors already tried.
const PENALTY: f64 = 1.5;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Parent {
    /// Reached from start candidate `index` along its edge (`forward`: towards the end).
    Start { index: usize, forward: bool },
    /// Reached over `edge` from `from`.
    Edge { from: VertexId, edge: EdgeId },
}

/// How the best route ends.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Finish {
    /// Start candidate `start` and goal candidate `goal` share an edge.
    Direct { start: usize, goal: usize },
    /// Goal candidate `goal`, entered from `vertex` (`forward`: from the edge's start).
    Via {
        vertex: VertexId,
        goal: usize,
        forward: bool,
    },
}

/// An entry of an A* open list: best estimate first, then the larger cost (deeper) first.
#[derive(Debug, PartialEq)]
pub(crate) struct Open {
    pub(crate) estimate: f64,
    pub(crate) cost: f64,
    pub(crate) vertex: VertexId,
}

impl Eq for Open {}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .estimate
            .total_cmp(&self.estimate)
            .then(self.cost.total_cmp(&other.cost))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Largest deviation of the path polyline from its true arcs, relative to the radius.
const ARC_TOLERANCE: f64 = 1e-3;

impl Ecm {
    /// Plans a path (a fresh [`Planner`] each time; keep one per thread to avoid the
    /// allocations).
    ///
    /// ```
    /// use corridor_ecm::{Ecm, PathQuery};
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 6.0));
    /// env.insert(Obstacle::rectangle(Point::new(4.0, 0.0), Point::new(6.0, 4.0)));
    /// let ecm = Ecm::build(&env).unwrap();
    /// let query = PathQuery::new(Point::new(1.0, 1.0), Point::new(9.0, 1.0));
    /// let path = ecm.plan(&query).unwrap();
    /// // Over the wall's top corners (4, 4) and (6, 4).
    /// let expected = 2.0 * (3f64 * 3.0 + 3.0 * 3.0).sqrt() + 2.0;
    /// assert!((path.length - expected).abs() < 1e-9);
    /// // A character of radius 1.5 does not fit through the 2-wide gap above the wall.
    /// assert!(ecm.plan(&query.with_radius(1.5)).is_err());
    /// ```
    pub fn plan(&self, query: &PathQuery) -> Result<Path, PlanError> {
        Planner::default().plan(self, query)
    }
}

impl Planner {
    /// A planner with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Plans a path on `ecm`.
    pub fn plan(&mut self, ecm: &Ecm, query: &PathQuery) -> Result<Path, PlanError> {
        let radius = query.radius;
        let preferred = query.preferred_clearance.max(radius);
        if !(radius.is_finite() && radius >= 0.0 && preferred.is_finite()) {
            return Err(PlanError::InvalidRadius {
                radius,
                preferred_clearance: query.preferred_clearance,
            });
        }
        if self.costs_of != ecm.uid {
            self.edge_cost.clear();
            self.costs_of = ecm.uid;
        }
        let starts = ecm.retractions(query.start).map_err(PlanError::Start)?;
        let goals = ecm.retractions(query.goal).map_err(PlanError::Goal)?;
        let start_clearance = query.start.distance(starts[0].nearest_obstacle_point);
        if start_clearance < radius {
            return Err(PlanError::StartTooClose {
                point: query.start,
                clearance: start_clearance,
                radius,
            });
        }
        let goal_clearance = query.goal.distance(goals[0].nearest_obstacle_point);
        if goal_clearance < radius {
            return Err(PlanError::GoalTooClose {
                point: query.goal,
                clearance: goal_clearance,
                radius,
            });
        }
        let component = |r: &Retraction| ecm.edges[r.edge()].component;
        if !starts
            .iter()
            .any(|s| goals.iter().any(|g| component(s) == component(g)))
        {
            return Err(PlanError::DifferentComponents);
        }
        self.penalty.clear();
        let mut best: Option<(f64, Retraction, Retraction)> = None;
        // First candidate: the corridor chosen by taut length itself.
        if let Some(found) =
            crate::taut::taut_search(ecm, query.start, query.goal, &starts, &goals, radius)
        {
            let (start, goal) = (starts[found.start], goals[found.goal]);
            let corridor = corridor_steps(ecm, &start, &goal, &found.route);
            let length = taut_path(
                query.start,
                query.goal,
                &portals_for(&corridor, query, |_| radius),
            )
            .length;
            best = Some((length, start, goal));
            self.best_route = found.route;
        }
        for attempt in 0..CANDIDATE_CORRIDORS {
            let Ok((start, goal)) = self.search(ecm, &starts, &goals, radius) else {
                break;
            };
            if attempt > 0 && self.route == self.best_route {
                break;
            }
            let corridor = corridor_steps(ecm, &start, &goal, &self.route);
            let length = taut_path(
                query.start,
                query.goal,
                &portals_for(&corridor, query, |_| radius),
            )
            .length;
            if best.as_ref().is_none_or(|b| length < b.0) {
                best = Some((length, start, goal));
                std::mem::swap(&mut self.best_route, &mut self.route);
            }
            let used: Vec<EdgeId> = self
                .route
                .iter()
                .chain(self.best_route.iter())
                .map(|r| r.0)
                .collect();
            for edge in used {
                self.penalty.insert(edge, ());
            }
        }
        let Some((_, start, goal)) = best else {
            return Err(PlanError::NoCorridor { radius });
        };
        std::mem::swap(&mut self.best_route, &mut self.route);
        let corridor = corridor_steps(ecm, &start, &goal, &self.route);
        let portals =
            |clearance: &dyn Fn(&CorridorStep) -> f64| portals_for(&corridor, query, clearance);
        let shortest = taut_path(query.start, query.goal, &portals(&|_| radius));
        let mut points = shortest.polyline(ARC_TOLERANCE * radius.max(1e-9));
        let mut length = shortest.length;
        if !keeps_clearance(ecm, &points, radius) {
            // The disk funnel is exact for well-formed corridors, but near start and goal
            // its portals can miss a corner; never return a path that grazes a wall.
            points = pulled_medial_route(ecm, query, &start, &goal, &corridor, radius);
            length = points.windows(2).map(|w| w[0].distance(w[1])).sum();
        }
        let indicative = taut_path(
            query.start,
            query.goal,
            &portals(&|s: &CorridorStep| {
                // Keep the preferred clearance where the gap allows it, never less than
                // the radius.
                let room = 0.5 * s.left.distance(s.right);
                preferred.min(room).max(radius)
            }),
        );
        let mut indicative_route = indicative.polyline(ARC_TOLERANCE * preferred.max(1e-9));
        if !keeps_clearance(ecm, &indicative_route, radius) {
            indicative_route = points.clone();
        }
        Ok(Path {
            points,
            length,
            indicative_route,
            medial_route: medial_route(query, &start, &goal, &corridor),
            corridor,
            edges: self.route.clone(),
        })
    }

    /// The cost of crossing `edge` (cached): the taut path length through its corridor.
    fn edge_cost(&mut self, ecm: &Ecm, id: EdgeId) -> f64 {
        if let Some(&cost) = self.edge_cost.get(id) {
            return cost;
        }
        let edge = &ecm.edges[id];
        let bps = &edge.bending_points;
        let cost = if bps.len() <= 2 {
            edge.length
        } else {
            let portals: Vec<Portal> = bps[1..bps.len() - 1]
                .iter()
                .map(|b| Portal {
                    left: Disk::point(b.left),
                    right: Disk::point(b.right),
                })
                .collect();
            let (first, last) = (bps[0].position, bps[bps.len() - 1].position);
            taut_path(first, last, &portals).length.min(edge.length)
        };
        self.edge_cost.insert(id, cost);
        cost
    }

    /// A* on the medial axis from the start candidates to the goal candidates, skipping
    /// every stretch whose clearance is below `radius`. Leaves the route in `self.route`
    /// and returns the start and goal candidates it uses.
    fn search(
        &mut self,
        ecm: &Ecm,
        starts: &[Retraction],
        goals: &[Retraction],
        radius: f64,
    ) -> Result<(Retraction, Retraction), PlanError> {
        self.best.clear();
        self.closed.clear();
        self.open.clear();
        self.route.clear();
        let heuristic = |v: VertexId| {
            let p = ecm.vertices[v].position;
            goals
                .iter()
                .map(|g| p.distance(g.point))
                .fold(f64::INFINITY, f64::min)
        };
        for (index, start) in starts.iter().enumerate() {
            let edge = &ecm.edges[start.edge()];
            for forward in [true, false] {
                let Some(length) = partial(ecm, start, forward, radius) else {
                    continue;
                };
                let v = if forward { edge.end } else { edge.start };
                if self.best.get(v).is_none_or(|b| length < b.0) {
                    self.best
                        .insert(v, (length, Parent::Start { index, forward }));
                    self.open.push(Open {
                        estimate: length + heuristic(v),
                        cost: length,
                        vertex: v,
                    });
                }
            }
        }
        let mut best_total = f64::INFINITY;
        let mut finish: Option<Finish> = None;
        for (i, s) in starts.iter().enumerate() {
            for (j, g) in goals.iter().enumerate() {
                if s.edge() == g.edge() {
                    if let Some(length) = between(ecm, s, g, radius) {
                        if length < best_total {
                            best_total = length;
                            finish = Some(Finish::Direct { start: i, goal: j });
                        }
                    }
                }
            }
        }
        while let Some(Open {
            estimate,
            cost,
            vertex,
        }) = self.open.pop()
        {
            if estimate >= best_total {
                break;
            }
            // A stale entry (the vertex was reached more cheaply since) or a closed vertex.
            if cost > self.best[vertex].0 || self.closed.insert(vertex, ()).is_some() {
                continue;
            }
            for (goal_index, goal) in goals.iter().enumerate() {
                let edge = &ecm.edges[goal.edge()];
                for forward in [true, false] {
                    let entry = if forward { edge.start } else { edge.end };
                    if entry != vertex {
                        continue;
                    }
                    // Entering forward from the start vertex runs the stretch before the goal.
                    if let Some(rest) = partial(ecm, goal, !forward, radius) {
                        if cost + rest < best_total {
                            best_total = cost + rest;
                            finish = Some(Finish::Via {
                                vertex,
                                goal: goal_index,
                                forward,
                            });
                        }
                    }
                }
            }
            for k in 0..ecm.vertices[vertex].edges.len() {
                let edge_id = ecm.vertices[vertex].edges[k];
                let edge = &ecm.edges[edge_id];
                if edge.min_clearance < radius {
                    continue;
                }
                let Some(next) = edge.opposite(vertex) else {
                    continue;
                };
                let factor = if self.penalty.contains_key(edge_id) {
                    PENALTY
                } else {
                    1.0
                };
                let next_cost = cost + factor * self.edge_cost(ecm, edge_id);
                if self.closed.contains_key(next)
                    || self.best.get(next).is_some_and(|b| b.0 <= next_cost)
                {
                    continue;
                }
                self.best.insert(
                    next,
                    (
                        next_cost,
                        Parent::Edge {
                            from: vertex,
                            edge: edge_id,
                        },
                    ),
                );
                self.open.push(Open {
                    estimate: next_cost + heuristic(next),
                    cost: next_cost,
                    vertex: next,
                });
            }
        }
        match finish {
            None => Err(PlanError::NoCorridor { radius }),
            Some(Finish::Direct { start, goal }) => Ok((starts[start], goals[goal])),
            Some(Finish::Via {
                mut vertex,
                goal,
                forward,
            }) => {
                self.route.push((goals[goal].edge(), forward));
                loop {
                    match self.best[vertex].1 {
                        Parent::Edge { from, edge } => {
                            let e = &ecm.edges[edge];
                            self.route.push((edge, e.start == from && e.end == vertex));
                            vertex = from;
                        }
                        Parent::Start { index, forward } => {
                            self.route.push((starts[index].edge(), forward));
                            self.route.reverse();
                            return Ok((starts[index], goals[goal]));
                        }
                    }
                }
            }
        }
    }
}

/// Position of a retraction along its edge as (bending point index before it, t).
fn piece_of(r: &Retraction) -> (usize, f64) {
    (r.cell.piece as usize, r.t)
}

/// Length of the medial-axis stretch from a retraction to one end of its edge
/// (`forward`: towards the end vertex), or `None` if it is narrower than `radius`
/// somewhere. Bending points include every arc's narrowest point, so checking them is
/// exact.
fn partial(ecm: &Ecm, r: &Retraction, forward: bool, radius: f64) -> Option<f64> {
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
fn walk(r: &Retraction, points: impl Iterator<Item = (Point, f64)>, radius: f64) -> Option<f64> {
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
fn between(ecm: &Ecm, a: &Retraction, b: &Retraction, radius: f64) -> Option<f64> {
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
fn corridor_steps(
    ecm: &Ecm,
    start: &Retraction,
    goal: &Retraction,
    route: &[(EdgeId, bool)],
) -> Vec<CorridorStep> {
    let mut steps = Vec::new();
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
        return steps;
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
    steps
}

/// The portals of a corridor with the given clearance per step, trimmed to the stretch
/// between start and goal.
fn portals_for(
    corridor: &[CorridorStep],
    query: &PathQuery,
    clearance: impl Fn(&CorridorStep) -> f64,
) -> Vec<Portal> {
    let kept = between_start_and_goal(corridor, query.start, query.goal);
    corridor[kept]
        .iter()
        .map(|s| s.portal(clearance(s)))
        .collect()
}

/// The steps whose portals lie between start and goal: it drops the steps the start
/// already lies beyond (or on) and those the goal lies before (or on). A portal is the
/// chord between the nearest obstacle points of a bending point, and a point inside the
/// same clearance disk, or on a wall corner that is a portal end, may sit on either side
/// of it.
fn between_start_and_goal(
    corridor: &[CorridorStep],
    start: Point,
    goal: Point,
) -> std::ops::Range<usize> {
    let side = |s: &CorridorStep, q: Point| orient(s.right, s.left, q);
    let first = corridor
        .iter()
        .take_while(|s| side(s, start) != Orientation::CounterClockwise)
        .count();
    let mut end = corridor.len();
    while end > first && side(&corridor[end - 1], goal) != Orientation::Clockwise {
        end -= 1;
    }
    first..end
}

/// Start, its retraction, the corridor's bending points, the goal's retraction and the
/// goal: a route that keeps the clearance of the medial axis.
fn medial_route(
    query: &PathQuery,
    start: &Retraction,
    goal: &Retraction,
    corridor: &[CorridorStep],
) -> Vec<Point> {
    let mut route = vec![query.start, start.point];
    route.extend(corridor.iter().map(|s| s.position));
    route.extend([goal.point, query.goal]);
    route.dedup();
    route
}

/// Whether every piece of `points` keeps `radius` (up to rounding) from every wall.
///
/// The cells tile the free space and each has its wall on one side, so a wall point
/// within `radius` of a piece lies in a cell whose box meets the piece's box grown by
/// `radius`: the cell index finds every wall that could be too close.
fn keeps_clearance(ecm: &Ecm, points: &[Point], radius: f64) -> bool {
    let allowed = radius * (1.0 - 1e-9) - 1e-12;
    points.windows(2).all(|w| {
        let piece = Segment::new(w[0], w[1]);
        let (lo, hi) = (w[0].min(w[1]) - radius, w[0].max(w[1]) + radius);
        let reach = rstar::AABB::from_corners([lo.x, lo.y], [hi.x, hi.y]);
        ecm.cells
            .tree
            .locate_in_envelope_intersecting(reach)
            .all(|entry| {
                let cell = entry.data;
                let bps = &ecm.edges[cell.edge].bending_points;
                let k = cell.piece as usize;
                let wall = Segment::new(bps[k].nearest(cell.side), bps[k + 1].nearest(cell.side));
                piece.distance_to_segment(&wall) >= allowed
            })
    })
}

/// The medial route, pulled taut greedily: from each point, straight to the farthest
/// later point the walls allow. Slower and a little longer than the funnel's
/// path, but its clearance is checked piece by piece.
fn pulled_medial_route(
    ecm: &Ecm,
    query: &PathQuery,
    start: &Retraction,
    goal: &Retraction,
    corridor: &[CorridorStep],
    radius: f64,
) -> Vec<Point> {
    let route = medial_route(query, start, goal, corridor);
    let mut pulled = vec![route[0]];
    let mut at = 0;
    while at + 1 < route.len() {
        let next = (at + 2..route.len())
            .rev()
            .find(|&k| keeps_clearance(ecm, &[route[at], route[k]], radius))
            .unwrap_or(at + 1);
        pulled.push(route[next]);
        at = next;
    }
    pulled
}
