//! The planner: retract start and goal onto the medial axis, choose the corridor by the
//! taut-length search and a few A* alternatives, pull the path taut with clearance in it
//! (van Toll et al., SoCG 2016, §4; Geraerts, ICRA 2010).

use super::adjacency::Adjacency;
use super::clearance::keeps_clearance;
use super::corridor::{
    between, between_start_and_goal, corridor_steps, medial_route, partial, portals_for,
    pulled_medial_route,
};
use super::ends::{restore_end_portals, EndPortals};
use super::indicative::IndicativeRoom;
use super::path::{CorridorPath, CorridorStep, Fallback, PathQuery, PlanError};
use super::scratch::{Marks, Open};
use super::search_graph::SearchGraph;
use super::taut::TautSearch;
use crate::graph::{Ecm, EdgeId, VertexId};
use crate::locate::Retraction;
use crate::util::slot;
use corridor_geom::funnel::{taut_path_into, taut_path_within, Disk, Portal, TautPath};
use corridor_geom::Point;
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

/// Reusable search state: keep one per thread; once its buffers have grown to the map's
/// size, a query allocates nothing but its result (and nothing at all through
/// [`Planner::plan_into`] with a reused [`CorridorPath`]; see the crate's `plan_alloc` test).
#[derive(Debug)]
pub struct Planner {
    best: Marks<(f64, Parent)>,
    closed: Marks<()>,
    open: BinaryHeap<Open>,
    route: Vec<(EdgeId, bool)>,
    /// Cost of crossing each edge, by slot with the edge's id (another id: not computed
    /// yet): the length of the taut path through the edge's own corridor from one end
    /// vertex to the other, computed once per edge and reused.
    edge_cost: Vec<(EdgeId, f64)>,
    /// The map lineage `edge_cost` belongs to: an edge never changes within one, so the
    /// costs of the edges a patch kept stay valid.
    costs_of: u64,
    /// Edges used by routes already tried in this query, made dearer so that the next
    /// search looks for another corridor.
    penalty: Marks<()>,
    /// The best route so far while alternatives are tried.
    best_route: Vec<(EdgeId, bool)>,
    /// The taut-length search.
    taut: TautSearch,
    starts: Vec<Retraction>,
    goals: Vec<Retraction>,
    /// Corridor of the candidate being measured, and of the best so far.
    corridor: Vec<CorridorStep>,
    best_corridor: Vec<CorridorStep>,
    portals: Vec<Portal>,
    /// Funnel results: the candidate being measured, and the best so far.
    funnel: TautPath,
    best_funnel: TautPath,
    used: Vec<EdgeId>,
    /// Corridors measured in this query (start, goal and a range of `measured_edges`):
    /// an A* candidate that repeats one is not measured again.
    measured: Vec<(Retraction, Retraction, usize, usize)>,
    measured_edges: Vec<(EdgeId, bool)>,
    /// [`SearchGraph::goal_key`] of the goal candidates' edges, for the A* search.
    goal_keys: Vec<u32>,
    /// The A* search's ends: (node, goal candidate, forward, length on to the goal).
    goal_entries: Vec<(u32, usize, bool, f64)>,
    /// The map's adjacency in dense arrays, for the A* searches.
    adjacency: Adjacency,
    /// The same laid out for the taut-length search (chains contiguous).
    search_graph: SearchGraph,
    /// How many A* corridors to compare with the taut-length search's.
    candidates: usize,
    /// Whether to time the phases of each query.
    timing: bool,
    /// Buffers for putting dropped end portals back (see `ends`).
    ends: EndPortals,
    /// The end-portal retry the last query's path needed (see [`Planner::end_retry`]).
    end_retry: Option<(isize, isize, bool)>,
    /// The indicative route's keep-out radii.
    room: IndicativeRoom,
    times: [Duration; PHASES],
}

impl Default for Planner {
    fn default() -> Self {
        Planner {
            best: Marks::default(),
            closed: Marks::default(),
            open: BinaryHeap::new(),
            route: Vec::new(),
            edge_cost: Vec::new(),
            costs_of: 0,
            penalty: Marks::default(),
            best_route: Vec::new(),
            taut: TautSearch::default(),
            starts: Vec::new(),
            goals: Vec::new(),
            corridor: Vec::new(),
            best_corridor: Vec::new(),
            portals: Vec::new(),
            funnel: TautPath::empty(),
            best_funnel: TautPath::empty(),
            used: Vec::new(),
            measured: Vec::new(),
            measured_edges: Vec::new(),
            goal_keys: Vec::new(),
            goal_entries: Vec::new(),
            adjacency: Adjacency::default(),
            search_graph: SearchGraph::default(),
            candidates: CANDIDATE_CORRIDORS,
            timing: false,
            ends: EndPortals::default(),
            end_retry: None,
            room: IndicativeRoom::default(),
            times: [Duration::ZERO; PHASES],
        }
    }
}

/// The phases [`Planner::phase_times`] reports.
const PHASES: usize = 5;
const PHASE_NAMES: [&str; PHASES] = [
    "retract",
    "taut_search",
    "candidates",
    "funnel",
    "clearance",
];

/// How many corridors a query compares by default besides the taut-length search's (the
/// first found by A*, then alternatives that avoid the edges already tried). The taut
/// path is exact inside a corridor; comparing a few corridors fixes most cases where the
/// medial axis prefers another way round an obstacle than the shortest path does.
const CANDIDATE_CORRIDORS: usize = 4;

/// Cost factor for edges of corridors already tried.
const PENALTY: f64 = 1.5;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Parent {
    #[default]
    None,
    /// Reached from start candidate `index` along its edge (`forward`: towards the end).
    Start { index: usize, forward: bool },
    /// Reached over the edge in slot `edge` from node `from` (`forward`: the edge leaves
    /// `from` at its start).
    Edge { from: u32, edge: u32, forward: bool },
}

/// How the best route ends.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Finish {
    /// Start candidate `start` and goal candidate `goal` share an edge.
    Direct { start: usize, goal: usize },
    /// Goal candidate `goal`, entered from search-graph node `node` (`forward`: from the
    /// edge's start).
    Via {
        node: u32,
        goal: usize,
        forward: bool,
    },
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
    pub fn plan(&self, query: &PathQuery) -> Result<CorridorPath, PlanError> {
        Planner::default().plan(self, query)
    }
}

/// Phase timer: records the time since the last lap into a phase when timing is on.
struct Laps(Option<Instant>);

impl Laps {
    fn lap(&mut self, times: &mut [Duration; PHASES], phase: usize) {
        if let Some(at) = &mut self.0 {
            let now = Instant::now();
            times[phase] += now - *at;
            *at = now;
        }
    }
}

impl Planner {
    /// A planner with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many A* corridors each query compares with the corridor the taut-length
    /// search chose (default 4; 0 keeps only the taut-length search's unless it finds
    /// none). Fewer is faster and may return longer paths.
    pub fn set_candidate_corridors(&mut self, count: usize) {
        self.candidates = count;
    }

    /// Switches timing of the query phases on or off (off by default; it costs a few
    /// clock reads per query).
    pub fn set_timing(&mut self, on: bool) {
        self.timing = on;
    }

    /// With timing on: the time the last query spent in each phase, in order
    /// `retract` (point location and retraction of start and goal), `taut_search` (the
    /// corridor chosen by taut length, and that length), `candidates` (the A* corridors
    /// compared with it), `funnel` (the final path, indicative route and medial route)
    /// and `clearance` (the clearance check of the final path and its fallback).
    pub fn phase_times(&self) -> [(&'static str, Duration); PHASES] {
        std::array::from_fn(|i| (PHASE_NAMES[i], self.times[i]))
    }

    /// Statistics of the last query's taut-length search: labels expanded and labels
    /// created (each a route to a medial-axis vertex with its funnel).
    pub fn search_statistics(&self) -> (usize, usize) {
        (self.taut.expanded, self.taut.labels_created())
    }

    /// Which retry of the disk funnel the last query's path came from (`None`: its first
    /// funnel path kept the clearance): `(a, b, backwards)`, where `a` and `b` count the
    /// portals put back (> 0) or left out (< 0) before the start and after the goal, and
    /// `backwards` says the funnel ran from the goal. A diagnostic of the funnel.
    ///
    /// ```
    /// use corridor_ecm::{Ecm, PathQuery, Planner};
    /// use corridor_geom::{Environment, Point};
    /// let ecm = Ecm::build(&Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0))).unwrap();
    /// let mut planner = Planner::new();
    /// planner.plan(&ecm, &PathQuery::new(Point::new(1.0, 1.0), Point::new(9.0, 9.0)).with_radius(0.5)).unwrap();
    /// assert_eq!(planner.end_retry(), None);
    /// ```
    pub fn end_retry(&self) -> Option<(isize, isize, bool)> {
        self.end_retry
    }

    /// Plans a path on `ecm`.
    pub fn plan(&mut self, ecm: &Ecm, query: &PathQuery) -> Result<CorridorPath, PlanError> {
        let mut path = CorridorPath::empty();
        self.plan_into(ecm, query, &mut path)?;
        Ok(path)
    }

    /// Plans a path on `ecm` into `path`, reusing its buffers. On an error `path` is left
    /// with unspecified contents.
    pub fn plan_into(
        &mut self,
        ecm: &Ecm,
        query: &PathQuery,
        path: &mut CorridorPath,
    ) -> Result<(), PlanError> {
        self.times = [Duration::ZERO; PHASES];
        let mut laps = Laps(self.timing.then(Instant::now));
        let radius = query.radius;
        let preferred = query.preferred_clearance.max(radius);
        if !(radius.is_finite() && radius >= 0.0 && preferred.is_finite()) {
            return Err(PlanError::InvalidRadius {
                radius,
                preferred_clearance: query.preferred_clearance,
            });
        }
        // Touching is fitting (see the module doc of `route`): every comparison of a
        // clearance with the radius below, and the portals, use the fitting radius; the
        // reported errors name the radius asked for.
        let asked = radius;
        let radius = super::fitting_radius(ecm, radius);
        if self.costs_of != ecm.lineage {
            self.edge_cost.clear();
            self.costs_of = ecm.lineage;
        }
        self.adjacency.update(ecm);
        self.search_graph.update(ecm, &self.adjacency);
        ecm.retractions_into(query.start, &mut self.starts)
            .map_err(PlanError::Start)?;
        ecm.retractions_into(query.goal, &mut self.goals)
            .map_err(PlanError::Goal)?;
        let (starts, goals) = (&self.starts, &self.goals);
        let start_clearance = query.start.distance(starts[0].nearest_obstacle_point);
        if start_clearance < radius {
            return Err(PlanError::StartTooClose {
                point: query.start,
                clearance: start_clearance,
                radius: asked,
            });
        }
        let goal_clearance = query.goal.distance(goals[0].nearest_obstacle_point);
        if goal_clearance < radius {
            return Err(PlanError::GoalTooClose {
                point: query.goal,
                clearance: goal_clearance,
                radius: asked,
            });
        }
        let component = |r: &Retraction| ecm.edges[r.edge()].component;
        if !starts
            .iter()
            .any(|s| goals.iter().any(|g| component(s) == component(g)))
        {
            return Err(PlanError::DifferentComponents);
        }
        laps.lap(&mut self.times, 0);
        self.penalty.reset(ecm.edges.capacity() + 1);
        let mut best: Option<(f64, Retraction, Retraction)> = None;
        let mut first_candidate = None;
        if radius > 0.0 {
            // With a radius, narrow corridors may leave no route at all; A* settles that
            // with one visit per vertex, where the taut-length search would try many
            // routes before giving up.
            let starts = std::mem::take(&mut self.starts);
            let goals = std::mem::take(&mut self.goals);
            let found = self.search(ecm, &starts, &goals, radius);
            self.starts = starts;
            self.goals = goals;
            match found {
                // Nothing is penalised yet: this is the first A* candidate's corridor.
                Ok(ends) => first_candidate = Some(ends),
                Err(_) => return Err(PlanError::NoCorridor { radius: asked }),
            }
        }
        // First candidate: the corridor chosen by taut length itself.
        if let Some(found) = self.taut.run(
            ecm,
            &self.search_graph,
            query.start,
            query.goal,
            &self.starts,
            &self.goals,
            radius,
        ) {
            let (start, goal) = (self.starts[found.start], self.goals[found.goal]);
            corridor_steps(
                ecm,
                &start,
                &goal,
                &self.taut.route,
                &mut self.best_corridor,
            );
            portals_for(&self.best_corridor, query, |_| radius, &mut self.portals);
            taut_path_into(
                query.start,
                query.goal,
                &self.portals,
                &mut self.best_funnel,
            );
            best = Some((self.best_funnel.length, start, goal));
            self.best_route.clear();
            self.best_route.extend_from_slice(&self.taut.route);
        }
        self.measured.clear();
        self.measured_edges.clear();
        if let Some((_, start, goal)) = best {
            self.measured.push((start, goal, 0, self.best_route.len()));
            self.measured_edges.extend_from_slice(&self.best_route);
        }
        laps.lap(&mut self.times, 1);
        let starts = std::mem::take(&mut self.starts);
        let goals = std::mem::take(&mut self.goals);
        // At radius 0 the taut-length search is exact (its corridor's taut path is the
        // shortest path), so other corridors cannot do better; with a radius the disk
        // funnel's lengths differ from the point funnel's and the candidates still help.
        let candidates = if radius == 0.0 && best.is_some() && !self.taut.capped {
            0
        } else {
            self.candidates
        };
        // Every corridor the A* searches can find is one the taut-length search weighed
        // (same admissibility, same trimming), and a disk path crosses the portals the
        // point path crosses: no candidate's disk length lies below the shortest point
        // length. Once the best disk path reaches it (it wraps no corner disk), no
        // candidate can be strictly shorter.
        let lower = if self.taut.capped {
            f64::NEG_INFINITY
        } else {
            self.taut.length
        };
        for attempt in 0..candidates {
            if best.is_some_and(|b| b.0 <= lower) {
                break;
            }
            let found = match first_candidate.take() {
                Some(ends) => Ok(ends),
                None => self.search(ecm, &starts, &goals, radius),
            };
            let Ok((start, goal)) = found else {
                break;
            };
            // A corridor measured already (often the taut-length search's own) cannot
            // be strictly shorter than the best: skip its funnel, keep its penalties.
            let edges = &self.measured_edges;
            let route = &self.route;
            let seen = self
                .measured
                .iter()
                .any(|&(s, g, lo, hi)| s == start && g == goal && edges[lo..hi] == route[..]);
            if seen && attempt > 0 {
                // Every corridor measured so far (the best among them) is penalised
                // already: the penalties stay as they are, so every further search
                // would find this same route again.
                break;
            }
            if !seen {
                let at = self.measured_edges.len();
                self.measured_edges.extend_from_slice(&self.route);
                let end = self.measured_edges.len();
                self.measured.push((start, goal, at, end));
                corridor_steps(ecm, &start, &goal, &self.route, &mut self.corridor);
                portals_for(&self.corridor, query, |_| radius, &mut self.portals);
                // Only a strictly shorter path matters: the funnel stops once it cannot be.
                let limit = best.map_or(f64::INFINITY, |b| b.0);
                let (s, g) = (query.start, query.goal);
                taut_path_within(s, g, &self.portals, limit, &mut self.funnel);
            }
            if !seen && best.as_ref().is_none_or(|b| self.funnel.length < b.0) {
                best = Some((self.funnel.length, start, goal));
                std::mem::swap(&mut self.best_funnel, &mut self.funnel);
                std::mem::swap(&mut self.best_route, &mut self.route);
                std::mem::swap(&mut self.best_corridor, &mut self.corridor);
            }
            self.used.clear();
            self.used
                .extend(self.route.iter().chain(self.best_route.iter()).map(|r| r.0));
            for &edge in &self.used {
                self.penalty.insert(slot(edge), ());
            }
        }
        self.starts = starts;
        self.goals = goals;
        laps.lap(&mut self.times, 2);
        let Some((_, start, goal)) = best else {
            return Err(PlanError::NoCorridor { radius: asked });
        };
        std::mem::swap(&mut self.best_route, &mut self.route);
        let corridor = &self.best_corridor;
        let shortest = &self.best_funnel;
        shortest.polyline_into(ARC_TOLERANCE * radius.max(1e-9), &mut path.points);
        path.length = shortest.length;
        laps.lap(&mut self.times, 3);
        let step = self.adjacency.check_step;
        let keeps = keeps_clearance(ecm, &path.points, radius, step);
        self.ends.taken = None;
        let restored = if keeps {
            None
        } else {
            // The trimmed corridor missed a corner next to start or goal: put some of
            // the dropped portals back (see `ends`).
            restore_end_portals(
                ecm,
                query,
                corridor,
                |s: &CorridorStep| s.portal(radius),
                (radius, step, ARC_TOLERANCE * radius.max(1e-9)),
                &mut self.ends,
                &mut path.points,
            )
        };
        self.end_retry = self.ends.taken;
        path.fallback = None;
        if let Some(length) = restored {
            path.length = length;
        } else if !keeps {
            path.fallback = Some(Fallback::MedialRoute);
            // Never return a path that grazes a wall.
            medial_route(query, &start, &goal, corridor, &mut path.medial_route);
            pulled_medial_route(ecm, &path.medial_route, radius, step, &mut path.points);
            path.length = path.points.windows(2).map(|w| w[0].distance(w[1])).sum();
        }
        laps.lap(&mut self.times, 4);
        path.indicative_route.clear();
        if preferred == asked {
            // The indicative route's portals are the path's own: it is the path.
            path.indicative_route.extend_from_slice(&path.points);
        } else {
            // Keep the preferred clearance where the corridor has room for it, never
            // less than the radius (see `indicative`).
            let preferred = super::fitting_radius(ecm, preferred).max(radius);
            self.room.measure(corridor, query, radius, preferred);
            let room = &self.room;
            let portal = |s: &CorridorStep| room.portal(s, query, radius, preferred);
            let kept = between_start_and_goal(corridor, query.start, query.goal);
            self.portals.clear();
            self.portals.extend(corridor[kept].iter().map(portal));
            taut_path_into(query.start, query.goal, &self.portals, &mut self.funnel);
            let tolerance = ARC_TOLERANCE * preferred.max(1e-9);
            self.funnel
                .polyline_into(tolerance, &mut path.indicative_route);
            laps.lap(&mut self.times, 3);
            if !keeps_clearance(ecm, &path.indicative_route, radius, step)
                && restore_end_portals(
                    ecm,
                    query,
                    corridor,
                    portal,
                    (radius, step, tolerance),
                    &mut self.ends,
                    &mut path.indicative_route,
                )
                .is_none()
            {
                path.indicative_route.clear();
                path.indicative_route.extend_from_slice(&path.points);
                path.fallback = path.fallback.or(Some(Fallback::IndicativeRoute));
            }
            laps.lap(&mut self.times, 4);
        }
        medial_route(query, &start, &goal, corridor, &mut path.medial_route);
        path.corridor.clear();
        path.corridor.extend_from_slice(corridor);
        path.edges.clear();
        path.edges.extend_from_slice(&self.route);
        laps.lap(&mut self.times, 3);
        Ok(())
    }

    /// The cost of crossing `edge` (cached): the taut path length through its corridor.
    #[inline]
    fn edge_cost(&mut self, ecm: &Ecm, id: EdgeId, i: usize) -> f64 {
        if let Some(&(of, cost)) = self.edge_cost.get(i) {
            if of == id {
                return cost;
            }
        }
        self.compute_edge_cost(ecm, id, i)
    }

    #[cold]
    fn compute_edge_cost(&mut self, ecm: &Ecm, id: EdgeId, i: usize) -> f64 {
        let edge = &ecm.edges[id];
        let bps = &edge.bending_points;
        let cost = if bps.len() <= 2 {
            edge.length
        } else {
            self.portals.clear();
            self.portals
                .extend(bps[1..bps.len() - 1].iter().map(|b| Portal {
                    left: Disk::point(b.left),
                    right: Disk::point(b.right),
                }));
            let (first, last) = (bps[0].position, bps[bps.len() - 1].position);
            taut_path_into(first, last, &self.portals, &mut self.funnel);
            self.funnel.length.min(edge.length)
        };
        if self.edge_cost.len() <= i {
            self.edge_cost.resize(
                (ecm.edges.capacity() + 1).max(i + 1),
                (EdgeId::default(), f64::NAN),
            );
        }
        self.edge_cost[i] = (id, cost);
        cost
    }

    /// A* on the medial axis from the start candidates to the goal candidates, skipping
    /// every stretch whose clearance is below `radius`. Leaves the route in `self.route`
    /// and returns the start and goal candidates it uses.
    ///
    /// It runs on the taut-length search's [`SearchGraph`] layout (nodes of a chain next
    /// to each other in memory, 32-byte links): the search is bound by cache misses, and
    /// the links are visited in the same order as the ECM's. Like the taut-length
    /// search it does not enter a pendant tree of the medial axis that holds no goal
    /// candidate's edge ([`SearchLink::leads_to_goal`](super::search_graph::SearchLink::leads_to_goal)): a route into one can only end
    /// at a leaf.
    fn search(
        &mut self,
        ecm: &Ecm,
        starts: &[Retraction],
        goals: &[Retraction],
        radius: f64,
    ) -> Result<(Retraction, Retraction), PlanError> {
        let graph = std::mem::take(&mut self.search_graph);
        let found = self.search_in(ecm, &graph, starts, goals, radius);
        self.search_graph = graph;
        found
    }

    fn search_in(
        &mut self,
        ecm: &Ecm,
        graph: &SearchGraph,
        starts: &[Retraction],
        goals: &[Retraction],
        radius: f64,
    ) -> Result<(Retraction, Retraction), PlanError> {
        let nodes = graph.node_count();
        self.best.reset(nodes);
        self.closed.reset(nodes);
        self.open.clear();
        self.route.clear();
        let heuristic = |p: Point| {
            goals
                .iter()
                .map(|g| p.distance(g.point))
                .fold(f64::INFINITY, f64::min)
        };
        let node = |v: VertexId| graph.node(slot(v));
        // Pendant trees of the medial axis without a goal edge are dead ends.
        self.goal_keys.clear();
        self.goal_keys.extend(goals.iter().map(|g| {
            let edge = &ecm.edges[g.edge()];
            graph.goal_key(node(edge.start), node(edge.end))
        }));
        for (index, start) in starts.iter().enumerate() {
            let edge = &ecm.edges[start.edge()];
            for forward in [true, false] {
                let Some(length) = partial(ecm, start, forward, radius) else {
                    continue;
                };
                let v = node(if forward { edge.end } else { edge.start });
                if self.best.get(v as usize).is_none_or(|b| length < b.0) {
                    self.best
                        .insert(v as usize, (length, Parent::Start { index, forward }));
                    self.open.push(Open {
                        estimate: length + heuristic(graph.position(v)),
                        cost: length,
                        node: v,
                    });
                }
            }
        }
        // Where the route may end: each goal candidate's edge entered at either end, with
        // the stretch on to the goal (forward: entered at its start, before the goal).
        self.goal_entries.clear();
        for (index, goal) in goals.iter().enumerate() {
            let edge = &ecm.edges[goal.edge()];
            for (forward, entry) in [(true, edge.start), (false, edge.end)] {
                if let Some(rest) = partial(ecm, goal, !forward, radius) {
                    self.goal_entries.push((node(entry), index, forward, rest));
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
            node: at,
        }) = self.open.pop()
        {
            if estimate >= best_total {
                break;
            }
            let vs = at as usize;
            // A stale entry (the vertex was reached more cheaply since) or a closed vertex.
            if self.best.get(vs).is_none_or(|b| cost > b.0) || self.closed.insert(vs, ()) {
                continue;
            }
            for &(entry, goal, forward, rest) in &self.goal_entries {
                if entry == at && cost + rest < best_total {
                    best_total = cost + rest;
                    finish = Some(Finish::Via {
                        node: at,
                        goal,
                        forward,
                    });
                }
            }
            for link in graph.links(at) {
                if link.min_clearance < radius || !link.leads_to_goal(&self.goal_keys) {
                    continue;
                }
                let ns = link.next as usize;
                if self.closed.contains(ns) {
                    continue;
                }
                let es = link.edge as usize;
                let factor = if self.penalty.contains(es) {
                    PENALTY
                } else {
                    1.0
                };
                let next_cost = cost + factor * self.edge_cost(ecm, graph.edge_id(link.edge), es);
                if self.best.get(ns).is_some_and(|b| b.0 <= next_cost) {
                    continue;
                }
                self.best.insert(
                    ns,
                    (
                        next_cost,
                        Parent::Edge {
                            from: at,
                            edge: link.edge,
                            forward: link.forward(),
                        },
                    ),
                );
                self.open.push(Open {
                    estimate: next_cost + heuristic(graph.position(link.next)),
                    cost: next_cost,
                    node: link.next,
                });
            }
        }
        match finish {
            None => Err(PlanError::NoCorridor { radius }),
            Some(Finish::Direct { start, goal }) => Ok((starts[start], goals[goal])),
            Some(Finish::Via {
                node: mut at,
                goal,
                forward,
            }) => {
                self.route.push((goals[goal].edge(), forward));
                loop {
                    match self.best.get(at as usize).map(|b| b.1) {
                        Some(Parent::Edge {
                            from,
                            edge,
                            forward,
                        }) => {
                            self.route.push((graph.edge_id(edge), forward));
                            at = from;
                        }
                        Some(Parent::Start { index, forward }) => {
                            self.route.push((starts[index].edge(), forward));
                            self.route.reverse();
                            return Ok((starts[index], goals[goal]));
                        }
                        _ => unreachable!("every reached vertex has a parent"),
                    }
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "planner_carry_tests.rs"]
mod carry_tests;
