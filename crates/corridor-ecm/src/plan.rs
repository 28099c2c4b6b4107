//! Paths for disk-shaped characters of any radius (van Toll et al., SoCG 2016, §4;
//! Geraerts, ICRA 2010): retract start and goal onto the medial axis, search the medial
//! axis with A* ignoring everything narrower than the radius, take the corridor of cells
//! along the route, and pull the shortest path with clearance taut inside it.

use crate::query::{QueryError, Retraction};
use crate::search_graph::SearchGraph;
use crate::taut::{keeps_for_goal, skips_for_start, slot, Gate, Marks, TautSearch};
use crate::{Ecm, EdgeId, VertexId};
use corridor_geom::funnel::{taut_path_into, Disk, Portal, TautPath};
use corridor_geom::{Point, Segment};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

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
/// size, a query allocates nothing but its result (and nothing at all through
/// [`Planner::plan_into`] with a reused [`Path`]; see the crate's `plan_alloc` test).
#[derive(Debug)]
pub struct Planner {
    best: Marks<(f64, Parent)>,
    closed: Marks<()>,
    open: BinaryHeap<Open>,
    route: Vec<(EdgeId, bool)>,
    /// Cost of crossing each edge (by slot; NaN: not computed yet): the length of the
    /// taut path through the edge's own corridor from one end vertex to the other,
    /// computed once per edge and reused.
    edge_cost: Vec<f64>,
    /// The map `edge_cost` belongs to.
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
    /// The map's adjacency in dense arrays, for the A* searches.
    adjacency: Adjacency,
    /// The same laid out for the taut-length search (chains contiguous).
    search_graph: SearchGraph,
    /// How many A* corridors to compare with the taut-length search's.
    candidates: usize,
    /// Whether to time the phases of each query.
    timing: bool,
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
            adjacency: Adjacency::default(),
            search_graph: SearchGraph::default(),
            candidates: CANDIDATE_CORRIDORS,
            timing: false,
            times: [Duration::ZERO; PHASES],
        }
    }
}

/// The medial axis as dense arrays by vertex slot (built once per map): the A* searches
/// touch nothing else in their inner loop.
#[derive(Debug, Default)]
pub(crate) struct Adjacency {
    /// The map it was built for.
    of: u64,
    /// Links of the vertex in slot `i`: `links[first[i]..first[i + 1]]`, in the order of
    /// [`crate::Vertex::edges`].
    pub(crate) first: Vec<u32>,
    pub(crate) links: Vec<Link>,
    /// The bending points of every edge as gates in the edge's forward direction, each
    /// edge's contiguous, without the gates a funnel does not need (see
    /// [`funnel_gates`]): what the taut-length search pushes when it takes a whole edge
    /// (it reads them from its [`SearchGraph`], which keeps them in walking order).
    pub(crate) funnel_gates: Vec<Gate>,
    /// Vertex positions by slot.
    position: Vec<Point>,
    /// Pendant trees (see [`SearchGraph::leads_to_goal`]): the preorder number of every
    /// vertex slot that hangs off the medial axis's cycles in a tree (0 for a vertex on a
    /// cycle or on a path between cycles, the "core"), and the last preorder number of
    /// its subtree.
    pub(crate) tree_in: Vec<u32>,
    pub(crate) tree_out: Vec<u32>,
    /// Length of the pieces the clearance check splits a path segment into (about four
    /// cell pieces across), so that its index queries stay local.
    check_step: f64,
}

/// One edge as seen from one of its end vertices.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Link {
    pub(crate) edge: EdgeId,
    pub(crate) next: VertexId,
    pub(crate) edge_slot: u32,
    pub(crate) next_slot: u32,
    pub(crate) min_clearance: f64,
    /// Whether the edge leaves the vertex at its start.
    pub(crate) forward: bool,
    /// The edge's gates in [`Adjacency::funnel_gates`]: first index and count.
    pub(crate) funnel_gates: u32,
    pub(crate) funnel_count: u32,
}

impl Adjacency {
    fn update(&mut self, ecm: &Ecm) {
        if self.of == ecm.uid {
            return;
        }
        self.of = ecm.uid;
        let n = ecm.vertices.keys().map(slot).max().map_or(0, |m| m + 1);
        self.first.clear();
        self.first.resize(n + 1, 0);
        self.position.clear();
        self.position.resize(n, Point::ZERO);
        for (v, vertex) in &ecm.vertices {
            self.first[slot(v) + 1] = vertex.edges.len() as u32;
            self.position[slot(v)] = vertex.position;
        }
        for i in 0..n {
            self.first[i + 1] += self.first[i];
        }
        self.links.clear();
        self.links.resize(self.first[n] as usize, Link::default());
        self.funnel_gates.clear();
        let edge_slots = ecm.edges.keys().map(slot).max().map_or(0, |m| m + 1);
        let mut funnel_gates_of = vec![(0u32, 0u32); edge_slots];
        let mut gates = Vec::new();
        for (e, edge) in &ecm.edges {
            gates.clear();
            gates.extend(
                edge.bending_points
                    .iter()
                    .map(|b| (b.left, b.right, b.position, b.clearance)),
            );
            let at = self.funnel_gates.len() as u32;
            funnel_gates(&gates, &mut self.funnel_gates);
            funnel_gates_of[slot(e)] = (at, self.funnel_gates.len() as u32 - at);
        }
        for (v, vertex) in &ecm.vertices {
            let at = self.first[slot(v)] as usize;
            for (k, &e) in vertex.edges.iter().enumerate() {
                let edge = &ecm.edges[e];
                // A link to nowhere (never in a valid map) is skipped like the search
                // skipped it.
                let (next, min_clearance) = match edge.opposite(v) {
                    Some(next) => (next, edge.min_clearance),
                    None => (v, f64::NEG_INFINITY),
                };
                self.links[at + k] = Link {
                    edge: e,
                    next,
                    edge_slot: slot(e) as u32,
                    next_slot: slot(next) as u32,
                    min_clearance,
                    forward: edge.start == v,
                    funnel_gates: funnel_gates_of[slot(e)].0,
                    funnel_count: funnel_gates_of[slot(e)].1,
                };
            }
        }
        self.number_pendant_trees();
        let cells = ecm.cells.len().max(1) as f64;
        let (mut lo, mut hi) = (Point::splat(f64::INFINITY), Point::splat(f64::NEG_INFINITY));
        for p in &self.position {
            (lo, hi) = (lo.min(*p), hi.max(*p));
        }
        let area = ((hi.x - lo.x) * (hi.y - lo.y)).max(0.0);
        self.check_step = 4.0 * (area / cells).sqrt();
        if !(self.check_step.is_finite() && self.check_step > 0.0) {
            self.check_step = f64::INFINITY;
        }
    }
}

impl Adjacency {
    /// Numbers the pendant trees of the medial axis: peels degree-1 vertices until only
    /// the core is left (the vertices on cycles and on paths between them; in a
    /// component without cycles, one vertex), then numbers the peeled vertices in
    /// preorder from the core, so that the subtree behind a link into a peeled vertex
    /// `w` is the preorder range `tree_in[w]..=tree_out[w]`.
    fn number_pendant_trees(&mut self) {
        let n = self.position.len();
        let mut degree: Vec<u32> = (0..n).map(|i| self.first[i + 1] - self.first[i]).collect();
        let mut peeled = vec![false; n];
        let mut stack: Vec<usize> = (0..n).filter(|&i| degree[i] == 1).collect();
        while let Some(v) = stack.pop() {
            if peeled[v] || degree[v] != 1 {
                continue;
            }
            peeled[v] = true;
            degree[v] = 0;
            for link in &self.links[self.first[v] as usize..self.first[v + 1] as usize] {
                let w = link.next_slot as usize;
                if w != v && !peeled[w] {
                    degree[w] -= 1;
                    if degree[w] == 1 {
                        stack.push(w);
                    }
                }
            }
        }
        // A component that is a tree is peeled completely but for its last vertex, whose
        // degree dropped to 0: it stays in the core as the tree's root.
        self.tree_in.clear();
        self.tree_in.resize(n, 0);
        self.tree_out.clear();
        self.tree_out.resize(n, 0);
        let mut next = 1u32;
        // Depth-first walk: (vertex slot, parent slot, index of the next link to try).
        let mut walk: Vec<(usize, usize, usize)> = Vec::new();
        for root in 0..n {
            if peeled[root] {
                continue;
            }
            walk.push((root, usize::MAX, self.first[root] as usize));
            while let Some(&mut (v, parent, ref mut k)) = walk.last_mut() {
                if *k == self.first[v + 1] as usize {
                    self.tree_out[v] = next - 1;
                    walk.pop();
                    continue;
                }
                let w = self.links[*k].next_slot as usize;
                *k += 1;
                if w != parent && w != v && peeled[w] && self.tree_in[w] == 0 {
                    self.tree_in[w] = next;
                    next += 1;
                    walk.push((w, v, self.first[w] as usize));
                }
            }
        }
    }
}

/// Appends the gates of one edge (in its forward order) that a funnel needs: all but
/// those whose both end points lie on the straight segments between the neighbouring
/// kept gate's and the next gate's (to a relative 1e-12). Between two kept gates the
/// corridor is then a quadrilateral with straight sides, which a path crossing both
/// portals crosses every portal between them, so the funnel (the taut path) is the same
/// up to rounding; the first and last gate (the windows) are always kept. Degree-2
/// parabolic pieces (a corner against a straight wall) and straight pieces lose all
/// their inner gates.
fn funnel_gates(gates: &[Gate], out: &mut Vec<Gate>) {
    let between = |a: Point, p: Point, b: Point| {
        let d = b - a;
        let len2 = d.length_squared();
        if len2 == 0.0 {
            return p == a;
        }
        let along = (p - a).dot(d);
        d.perp_dot(p - a).abs() <= 1e-12 * len2 && (0.0..=len2).contains(&along)
    };
    let Some((&first, rest)) = gates.split_first() else {
        return;
    };
    out.push(first);
    let mut kept = first;
    for (j, &g) in rest.iter().enumerate() {
        let Some(&next) = rest.get(j + 1) else {
            out.push(g);
            break;
        };
        if between(kept.0, g.0, next.0) && between(kept.1, g.1, next.1) {
            continue;
        }
        out.push(g);
        kept = g;
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

impl Path {
    /// An empty path, to be filled by [`Planner::plan_into`].
    pub fn empty() -> Self {
        Path {
            points: Vec::new(),
            length: 0.0,
            indicative_route: Vec::new(),
            medial_route: Vec::new(),
            corridor: Vec::new(),
            edges: Vec::new(),
        }
    }
}

impl Default for Path {
    fn default() -> Self {
        Path::empty()
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

    /// Plans a path on `ecm`.
    pub fn plan(&mut self, ecm: &Ecm, query: &PathQuery) -> Result<Path, PlanError> {
        let mut path = Path::empty();
        self.plan_into(ecm, query, &mut path)?;
        Ok(path)
    }

    /// Plans a path on `ecm` into `path`, reusing its buffers. On an error `path` is left
    /// with unspecified contents.
    pub fn plan_into(
        &mut self,
        ecm: &Ecm,
        query: &PathQuery,
        path: &mut Path,
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
        if self.costs_of != ecm.uid {
            self.edge_cost.clear();
            self.costs_of = ecm.uid;
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
                Err(_) => return Err(PlanError::NoCorridor { radius }),
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
        for attempt in 0..candidates {
            let found = match first_candidate.take() {
                Some(ends) => Ok(ends),
                None => self.search(ecm, &starts, &goals, radius),
            };
            let Ok((start, goal)) = found else {
                break;
            };
            if attempt > 0 && self.route == self.best_route {
                break;
            }
            corridor_steps(ecm, &start, &goal, &self.route, &mut self.corridor);
            portals_for(&self.corridor, query, |_| radius, &mut self.portals);
            taut_path_into(query.start, query.goal, &self.portals, &mut self.funnel);
            if best.as_ref().is_none_or(|b| self.funnel.length < b.0) {
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
            return Err(PlanError::NoCorridor { radius });
        };
        std::mem::swap(&mut self.best_route, &mut self.route);
        let corridor = &self.best_corridor;
        let shortest = &self.best_funnel;
        shortest.polyline_into(ARC_TOLERANCE * radius.max(1e-9), &mut path.points);
        path.length = shortest.length;
        laps.lap(&mut self.times, 3);
        let step = self.adjacency.check_step;
        let keeps = keeps_clearance(ecm, &path.points, radius, step);
        if !keeps {
            // The disk funnel is exact for well-formed corridors, but near start and goal
            // its portals can miss a corner; never return a path that grazes a wall.
            medial_route(query, &start, &goal, corridor, &mut path.medial_route);
            pulled_medial_route(ecm, &path.medial_route, radius, step, &mut path.points);
            path.length = path.points.windows(2).map(|w| w[0].distance(w[1])).sum();
        }
        laps.lap(&mut self.times, 4);
        path.indicative_route.clear();
        if preferred == radius {
            // The indicative route's portals are the path's own: it is the path.
            path.indicative_route.extend_from_slice(&path.points);
        } else {
            portals_for(
                corridor,
                query,
                |s: &CorridorStep| {
                    // Keep the preferred clearance where the gap allows it, never less
                    // than the radius.
                    let room = 0.5 * s.left.distance(s.right);
                    preferred.min(room).max(radius)
                },
                &mut self.portals,
            );
            taut_path_into(query.start, query.goal, &self.portals, &mut self.funnel);
            let tolerance = ARC_TOLERANCE * preferred.max(1e-9);
            self.funnel
                .polyline_into(tolerance, &mut path.indicative_route);
            laps.lap(&mut self.times, 3);
            if !keeps_clearance(ecm, &path.indicative_route, radius, step) {
                path.indicative_route.clear();
                path.indicative_route.extend_from_slice(&path.points);
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
        if let Some(&cost) = self.edge_cost.get(i) {
            if !cost.is_nan() {
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
            self.edge_cost
                .resize((ecm.edges.capacity() + 1).max(i + 1), f64::NAN);
        }
        self.edge_cost[i] = cost;
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
        let slots = ecm.vertices.capacity() + 1;
        self.best.reset(slots);
        self.closed.reset(slots);
        self.open.clear();
        self.route.clear();
        let heuristic = |p: Point| {
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
                if self.best.get(slot(v)).is_none_or(|b| length < b.0) {
                    self.best
                        .insert(slot(v), (length, Parent::Start { index, forward }));
                    self.open.push(Open {
                        estimate: length + heuristic(ecm.vertices[v].position),
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
            let vs = slot(vertex);
            // A stale entry (the vertex was reached more cheaply since) or a closed vertex.
            if self.best.get(vs).is_none_or(|b| cost > b.0) || self.closed.insert(vs, ()) {
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
            let (lo, hi) = (
                self.adjacency.first[vs] as usize,
                self.adjacency.first[vs + 1] as usize,
            );
            for k in lo..hi {
                let link = self.adjacency.links[k];
                if link.min_clearance < radius {
                    continue;
                }
                let (next, ns, edge_id) = (link.next, link.next_slot as usize, link.edge);
                if self.closed.contains(ns) {
                    continue;
                }
                let es = link.edge_slot as usize;
                let factor = if self.penalty.contains(es) {
                    PENALTY
                } else {
                    1.0
                };
                let next_cost = cost + factor * self.edge_cost(ecm, edge_id, es);
                if self.best.get(ns).is_some_and(|b| b.0 <= next_cost) {
                    continue;
                }
                self.best.insert(
                    ns,
                    (
                        next_cost,
                        Parent::Edge {
                            from: vertex,
                            edge: edge_id,
                        },
                    ),
                );
                self.open.push(Open {
                    estimate: next_cost + heuristic(self.adjacency.position[ns]),
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
                    match self.best.get(slot(vertex)).map(|b| b.1) {
                        Some(Parent::Edge { from, edge }) => {
                            let e = &ecm.edges[edge];
                            self.route.push((edge, e.start == from && e.end == vertex));
                            vertex = from;
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
fn portals_for(
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
/// trims the same way ([`crate::taut::skips_for_start`], [`crate::taut::keeps_for_goal`]),
/// so that it measures the corridors as the planner does.
fn between_start_and_goal(
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
fn medial_route(
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

/// Whether every piece of `points` keeps `radius` (up to rounding) from every wall.
///
/// The cells tile the free space and each has its wall on one side, so a wall point
/// within `radius` of a piece lies in a cell whose box meets the piece's box grown by
/// `radius`: the cell index finds every wall that could be too close.
///
/// A long piece is looked up in the index in stretches of about `step` (each box grown
/// by `radius` and a rounding margin), which finds the same walls near the piece without
/// visiting every cell in the piece's whole bounding box; distances are always measured
/// to the whole piece.
fn keeps_clearance(ecm: &Ecm, points: &[Point], radius: f64, step: f64) -> bool {
    let allowed = radius * (1.0 - 1e-9) - 1e-12;
    if allowed <= 0.0 {
        // Every distance passes: nothing to look up.
        return true;
    }
    points.windows(2).all(|w| {
        let piece = Segment::new(w[0], w[1]);
        let d = w[1] - w[0];
        let stretches = if step.is_finite() {
            ((d.length() / step).ceil() as usize).clamp(1, 1 << 16)
        } else {
            1
        };
        let scale = w[0]
            .x
            .abs()
            .max(w[0].y.abs())
            .max(w[1].x.abs())
            .max(w[1].y.abs());
        let margin = if stretches > 1 {
            1e-9 * (1.0 + scale)
        } else {
            0.0
        };
        let at = |i: usize| match i {
            0 => w[0],
            i if i == stretches => w[1],
            i => w[0] + d * (i as f64 / stretches as f64),
        };
        (0..stretches).all(|i| {
            let (a, b) = (at(i), at(i + 1));
            let (lo, hi) = (a.min(b) - (radius + margin), a.max(b) + (radius + margin));
            let reach = rstar::AABB::from_corners([lo.x, lo.y], [hi.x, hi.y]);
            ecm.cells.pieces_meeting(&ecm.edges, reach).all(|cell| {
                let bps = &ecm.edges[cell.edge].bending_points;
                let k = cell.piece as usize;
                let wall = Segment::new(bps[k].nearest(cell.side), bps[k + 1].nearest(cell.side));
                piece.distance_to_segment(&wall) >= allowed
            })
        })
    })
}

/// The medial route, pulled taut greedily: from each point, straight to the farthest
/// later point the walls allow. Slower and a little longer than the funnel's
/// path, but its clearance is checked piece by piece.
/// Writes it into `pulled` (cleared first).
fn pulled_medial_route(
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

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(l: (f64, f64), r: (f64, f64)) -> Gate {
        (Point::new(l.0, l.1), Point::new(r.0, r.1), Point::ZERO, 1.0)
    }

    #[test]
    fn funnel_gates_drop_only_gates_implied_by_straight_sides() {
        // A corner (left, fixed) against a straight wall (right): the inner gates go.
        let fan: Vec<Gate> = (0..5).map(|i| gate((0.0, 1.0), (i as f64, -1.0))).collect();
        let mut out = Vec::new();
        funnel_gates(&fan, &mut out);
        assert_eq!(out, vec![fan[0], fan[4]]);
        // A bend in the right side keeps the gate at the bend.
        let bent = vec![
            gate((0.0, 1.0), (0.0, -1.0)),
            gate((0.0, 1.0), (1.0, -1.0)),
            gate((0.0, 1.0), (2.0, -1.5)),
        ];
        out.clear();
        funnel_gates(&bent, &mut out);
        assert_eq!(out, bent);
        // One gate stays one gate.
        out.clear();
        funnel_gates(&bent[..1], &mut out);
        assert_eq!(out, bent[..1].to_vec());
    }

    #[test]
    fn pendant_trees_are_dead_ends_unless_they_hold_the_goal() {
        // A 10 × 10 room around a 2 × 2 block: the medial axis is a cycle round the block
        // with a pendant branch into every convex corner.
        let mut env =
            corridor_geom::Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
        env.insert(corridor_geom::Obstacle::rectangle(
            Point::new(4.0, 4.0),
            Point::new(6.0, 6.0),
        ));
        let ecm = Ecm::build(&env).expect("ECM");
        let mut adjacency = Adjacency::default();
        adjacency.update(&ecm);
        let mut graph = SearchGraph::default();
        graph.update(&ecm, &adjacency);
        let mut into_trees = 0;
        for (v, _) in ecm.vertices() {
            let from = graph.node(slot(v));
            for link in graph.links(from) {
                let to = link.next;
                assert_eq!(graph.leads_to_goal(from, to, &[]), link.leads_to_goal(&[]));
                if link.leads_to_goal(&[]) {
                    continue;
                }
                into_trees += 1;
                // The far side is a tree: the goal key of any edge in it opens it.
                let key = graph.goal_key(from, to);
                assert!(graph.leads_to_goal(from, to, &[key]));
                assert!(link.leads_to_goal(&[key]));
                let e = graph.edge_id(link.edge);
                assert!(ecm.edge(e).is_some_and(|e| e.start == v || e.end == v));
            }
        }
        assert!(into_trees >= 4, "the corner branches are pendant trees");
    }
}
