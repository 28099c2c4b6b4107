//! Paths across layers: which connections to cross, and where.
//!
//! A [`LayeredPlanner`] is made for one radius `r`. On every connection between regions
//! (see the module above; connections open inside a chart's ECM need none) it places
//! crossing samples every [`LayeredPlanner::SPACING`] units (at least `r` from the
//! connection's ends); each sample is a straight crossing segment from `r + η` inside one
//! layer to `r + η` inside the other (η = [`CROSSING_MARGIN_STEPS`] grid steps), kept only
//! if it stays at least `r` from every wall of both layers (brute force, the connection
//! itself excepted). A query runs A* over the samples and its start and goal, with every
//! leg inside one layer (start to sample, sample to sample, sample to goal) planned by the
//! per-layer ECM planner (any radius, the same fitting rule as in 2D) only when the search
//! reaches it: a leg waits in the heap under its straight-line length, a lower bound, and
//! is planned when popped (see `LayeredPlanner::search`). Lengths between samples are
//! kept for later queries, so making a planner costs only the samples, and a query
//! between layers that no kept crossing joins is refused at once. The chosen crossings
//! then slide along their connections (golden-section search) to the shortest total.
//!
//! So the route is exact within each layer, the crossing points are optimized
//! numerically, and every crossing costs 2η more than a straight pass: a path is at most
//! a little longer than the layered shortest path, never closer than `r` to a wall.

use super::{LayeredEcmError, LayeredMap};
use crate::{CorridorPath, Ecm, PathQuery, PlanError, Planner, FIT_TOLERANCE_STEPS};
use corridor_geom::{orient, ConnectionId, LayerId, Obstacle, Orientation, Point, Segment};
use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::sync::Mutex;

/// How far inside each layer a crossing segment ends, beyond the radius, in grid steps:
/// the per-layer ECMs see the closed connection as a wall, and an end exactly `r` from
/// it would be decided by rounding.
pub const CROSSING_MARGIN_STEPS: f64 = 10.0;

/// One piece of a layered path: the path inside one layer.
#[derive(Clone, Debug)]
pub struct LayeredStep {
    /// The layer.
    pub layer: LayerId,
    /// The 2D path in that layer's ECM (its corridor, indicative route, medial route).
    pub path: CorridorPath,
}

/// A path across layers.
#[derive(Clone, Debug)]
pub struct LayeredPath {
    /// Ground-plane length: the steps' lengths plus the crossing segments.
    pub length: f64,
    /// The path in each layer, in order; consecutive steps are joined by a straight
    /// crossing segment through a connection (of length zero at an open connection, where
    /// one step ends and the next begins at the point the path meets it).
    pub steps: Vec<LayeredStep>,
    /// The connections crossed, in order.
    pub crossings: Vec<ConnectionId>,
}

impl LayeredPath {
    /// Every point with its layer, in order (crossing segments join consecutive steps).
    pub fn points(&self) -> Vec<(LayerId, Point)> {
        self.steps
            .iter()
            .flat_map(|s| s.path.points.iter().map(move |p| (s.layer, *p)))
            .collect()
    }

    /// The path in 3D: each point lifted onto its layer's height plane.
    pub fn points_3d(&self, ecm: &impl LayeredMap) -> Vec<corridor_geom::Point3> {
        self.points()
            .into_iter()
            .filter_map(|(l, p)| ecm.world().point_3d(l, p).ok())
            .collect()
    }
}

/// A crossing sample's end on one layer.
#[derive(Clone, Copy, Debug)]
struct Node {
    layer: LayerId,
    /// The region of the layer (where the legs from this node are planned).
    region: usize,
    point: Point,
    /// The node on the other side of the same crossing.
    partner: usize,
    connection: ConnectionId,
}

/// Crossing samples for one radius, with the lengths between samples on each layer.
///
/// ```
/// use corridor_ecm::{LayeredEcm, LayeredPlanner};
/// use corridor_geom::{Environment, HeightPlane, Layer, LayeredEnvironment, Point, Segment};
/// let mut world = LayeredEnvironment::new();
/// let flat = |min, max, z| Layer::new("l", Environment::rectangle(min, max), HeightPlane::flat(z));
/// let hall = world.add_layer(flat(Point::new(0.0, 0.0), Point::new(10.0, 10.0), 0.0));
/// let ramp = world.add_layer(flat(Point::new(10.0, 4.0), Point::new(14.0, 6.0), 1.0));
/// world.connect(hall, ramp, Segment::new(Point::new(10.0, 4.0), Point::new(10.0, 6.0))).unwrap();
/// let ecm = LayeredEcm::build(&world).unwrap();
/// let planner = LayeredPlanner::new(&ecm, 0.5).unwrap();
/// let path = planner.plan(hall, Point::new(2.0, 5.0), ramp, Point::new(13.0, 5.0)).unwrap();
/// assert!((path.length - 11.0).abs() < 1e-2);
/// assert_eq!(path.steps.len(), 2);
/// // A disk of radius 1.5 does not pass the 2-wide door.
/// assert!(LayeredPlanner::new(&ecm, 1.5).unwrap()
///     .plan(hall, Point::new(2.0, 5.0), ramp, Point::new(13.0, 5.0)).is_err());
/// ```
pub struct LayeredPlanner<'a> {
    ecm: &'a dyn LayeredMap,
    radius: f64,
    nodes: Vec<Node>,
    by_region: Vec<Vec<usize>>,
    /// For each region, the smallest region joined to it by kept crossings: regions with
    /// different values have no route between them for this radius.
    group: Vec<usize>,
    /// Lengths between nodes of one layer planned so far, under `(i, j)` with `i < j`
    /// (`None`: no path for the radius). Filled by queries, shared by all of them.
    links: Mutex<HashMap<(usize, usize), Option<f64>>>,
}

impl<'a> LayeredPlanner<'a> {
    /// Distance between crossing samples along a connection, in user units.
    pub const SPACING: f64 = 0.1;

    /// Places the crossing samples for `radius` (the lengths between them are planned by
    /// the queries that need them).
    pub fn new(ecm: &'a impl LayeredMap, radius: f64) -> Result<Self, LayeredEcmError> {
        if !radius.is_finite() || radius < 0.0 {
            return Err(LayeredEcmError::InvalidRadius(radius));
        }
        let world = ecm.world();
        let walls: Vec<Vec<Segment>> = world
            .layers()
            .map(|(_, l)| walls_of(&l.environment))
            .collect();
        let mut nodes = Vec::new();
        for (id, c) in world.connections() {
            // An open connection is crossed inside its region's ECM.
            if ecm.is_open(id) {
                continue;
            }
            let [l, n] = c.layers;
            let grid = ecm.layer_ecm(l)?.grid.scale();
            let offset = radius + CROSSING_MARGIN_STEPS / grid;
            let tolerance = FIT_TOLERANCE_STEPS / grid;
            let (a, b) = (c.segment.a, c.segment.b);
            let len = a.distance(b);
            let left = (b - a).perp() / len;
            let into_n = match ecm.entry_side(id, l)? {
                Orientation::CounterClockwise => -left,
                _ => left,
            };
            let span = len - 2.0 * offset;
            if span < 0.0 {
                continue;
            }
            let count = (span / Self::SPACING).ceil().max(1.0) as usize;
            for k in 0..=count {
                let x = a + (b - a) * ((offset + span * k as f64 / count as f64) / len);
                let crossing = Segment::new(x - into_n * offset, x + into_n * offset);
                let clear = [l, n].iter().all(|layer| {
                    walls[layer.0 as usize]
                        .iter()
                        .flat_map(|w| outside_of(*w, c.segment))
                        .all(|w| fits(crossing.distance_to_segment(&w), radius, tolerance))
                });
                if clear {
                    let i = nodes.len();
                    nodes.push(Node {
                        layer: l,
                        region: ecm.region_of(l),
                        point: crossing.a,
                        partner: i + 1,
                        connection: id,
                    });
                    nodes.push(Node {
                        layer: n,
                        region: ecm.region_of(n),
                        point: crossing.b,
                        partner: i,
                        connection: id,
                    });
                }
            }
        }
        let mut by_region = vec![Vec::new(); ecm.region_count()];
        for (i, node) in nodes.iter().enumerate() {
            by_region[node.region].push(i);
        }
        let group = groups(ecm.region_count(), &nodes);
        Ok(LayeredPlanner {
            ecm,
            radius,
            nodes,
            group,
            by_region,
            links: Mutex::new(HashMap::new()),
        })
    }

    /// The number of crossing samples (each has two ends).
    pub fn crossing_count(&self) -> usize {
        self.nodes.len() / 2
    }

    /// A shortest path for the planner's radius from `start` on layer `from` to `goal`
    /// on layer `to`.
    pub fn plan(
        &self,
        from: LayerId,
        start: Point,
        to: LayerId,
        goal: Point,
    ) -> Result<LayeredPath, LayeredEcmError> {
        self.ecm.layer_ecm(from)?;
        self.ecm.layer_ecm(to)?;
        let (rf, rt) = (self.ecm.region_of(from), self.ecm.region_of(to));
        let (from_ecm, to_ecm) = (self.ecm.region_ecm(rf)?, self.ecm.region_ecm(rt)?);
        let r = self.radius;
        let plan = |region: usize, a: Point, b: Point| self.plan_leg(region, a, b).ok();
        // Start and goal errors are the caller's; a missing corridor is not.
        let usable = |layer, region, ecm, p: Point| -> Result<(), LayeredEcmError> {
            match plan_on(region, ecm, &PathQuery::new(p, p).with_radius(r)) {
                Err(
                    source @ (PlanError::Start(_)
                    | PlanError::StartTooClose { .. }
                    | PlanError::Goal(_)
                    | PlanError::GoalTooClose { .. }),
                ) => Err(LayeredEcmError::Plan { layer, source }),
                _ => Ok(()),
            }
        };
        usable(from, rf, from_ecm, start)?;
        usable(to, rt, to_ecm, goal)?;
        if self.group[rf] != self.group[rt] {
            return Err(LayeredEcmError::NoPath {
                from,
                to,
                radius: r,
            });
        }
        let n = self.nodes.len();
        let (s, g) = (n, n + 1);
        let (dist, prev) = self.search(rf, start, rt, goal, &plan);
        if !dist[g].is_finite() {
            return Err(LayeredEcmError::NoPath {
                from,
                to,
                radius: r,
            });
        }
        // The chosen crossings: each pair (this side, other side) in order.
        let mut chain = Vec::new();
        let mut at = prev[g];
        while at != s {
            chain.push(at);
            at = prev[at];
        }
        chain.reverse();
        // Consecutive nodes that are two ends of one sample are a crossing; other
        // consecutive nodes lie on one layer (the route passes a sample without crossing,
        // where the per-layer planner's lengths are not quite additive) and are planned
        // through directly below.
        let crossings: Vec<(ConnectionId, Point, Point, LayerId, LayerId)> = chain
            .windows(2)
            .filter(|pair| self.nodes[pair[0]].partner == pair[1])
            .map(|pair| {
                let (a, b) = (self.nodes[pair[0]], self.nodes[pair[1]]);
                (a.connection, a.point, b.point, a.layer, b.layer)
            })
            .collect();
        let crossings = self.slide(start, goal, from, crossings);
        // The final steps, planned again with the corridors kept, each leg cut into its
        // pieces per layer at the open connections it passes.
        let mut out = LayeredPath {
            length: 0.0,
            steps: Vec::new(),
            crossings: Vec::new(),
        };
        let no_path = || LayeredEcmError::NoPath {
            from,
            to,
            radius: r,
        };
        let (mut layer, mut at) = (from, start);
        for &(id, here, there, near, next) in &crossings {
            let region = self.ecm.region_of(layer);
            let path = plan(region, at, here).ok_or_else(no_path)?;
            out.length += here.distance(there);
            self.push_leg(&mut out, region, (layer, near), path);
            out.crossings.push(id);
            (layer, at) = (next, there);
        }
        let region = self.ecm.region_of(layer);
        let path = plan(region, at, goal).ok_or_else(no_path)?;
        self.push_leg(&mut out, region, (layer, to), path);
        Ok(out)
    }

    /// A* over the crossing samples from `start` to `goal` (nodes `n` and `n + 1`), with
    /// the ground-plane distance to the goal as the (consistent) heuristic. Every leg
    /// inside one layer (from the start, between two samples, to the goal) waits in the
    /// heap under its straight-line length, a lower bound, and is planned only when popped
    /// (a leg between samples is looked up first among those planned by earlier queries),
    /// so a query plans the few legs that can still be on a shortest route instead of all
    /// of them. The lengths found are those of Dijkstra's algorithm over all legs.
    /// Returns the distances and the predecessors.
    fn search(
        &self,
        from: usize,
        start: Point,
        to: usize,
        goal: Point,
        plan: &impl Fn(usize, Point, Point) -> Option<CorridorPath>,
    ) -> (Vec<f64>, Vec<usize>) {
        let n = self.nodes.len();
        let (s, g) = (n, n + 1);
        let point = |v: usize| if v == g { goal } else { self.nodes[v].point };
        let h = |v: usize| point(v).distance(goal);
        let mut dist = vec![f64::INFINITY; n + 2];
        let mut prev = vec![usize::MAX; n + 2];
        let mut heap = BinaryHeap::new();
        dist[s] = 0.0;
        if from == to {
            heap.push(Entry(start.distance(goal), g, Leg::FromStart));
        }
        for &i in &self.by_region[from] {
            heap.push(Entry(start.distance(point(i)) + h(i), i, Leg::FromStart));
        }
        let relax = |heap: &mut BinaryHeap<Entry>,
                     dist: &mut [f64],
                     prev: &mut [usize],
                     u: usize,
                     v: usize,
                     d: f64| {
            if d < dist[v] {
                dist[v] = d;
                prev[v] = u;
                heap.push(Entry(d + h(v), v, Leg::Known(d)));
            }
        };
        while let Some(Entry(_, u, leg)) = heap.pop() {
            match leg {
                Leg::FromStart => {
                    if let Some(d) = plan(from, start, point(u)).map(|p| p.length) {
                        relax(&mut heap, &mut dist, &mut prev, s, u, d);
                    }
                }
                Leg::ToGoal => {
                    if let Some(d) = plan(to, point(u), goal).map(|p| dist[u] + p.length) {
                        relax(&mut heap, &mut dist, &mut prev, u, g, d);
                    }
                }
                Leg::Link(w, base) => {
                    if let Some(step) = self.link(w, u) {
                        relax(&mut heap, &mut dist, &mut prev, w, u, base + step);
                    }
                }
                Leg::Known(d) => {
                    if d > dist[u] {
                        continue;
                    }
                    if u == g {
                        break;
                    }
                    let node = self.nodes[u];
                    let crossing = node.point.distance(self.nodes[node.partner].point);
                    relax(
                        &mut heap,
                        &mut dist,
                        &mut prev,
                        u,
                        node.partner,
                        d + crossing,
                    );
                    let known = self.links.lock().unwrap_or_else(|e| e.into_inner());
                    for &v in &self.by_region[node.region] {
                        let bound = d + node.point.distance(point(v));
                        if v == u || bound >= dist[v] || bound + h(v) >= dist[g] {
                            continue;
                        }
                        match known.get(&(u.min(v), u.max(v))) {
                            Some(Some(step)) => {
                                relax(&mut heap, &mut dist, &mut prev, u, v, d + step)
                            }
                            Some(None) => {}
                            None => heap.push(Entry(bound + h(v), v, Leg::Link(u, d))),
                        }
                    }
                    drop(known);
                    if node.region == to {
                        heap.push(Entry(d + h(u), u, Leg::ToGoal));
                    }
                }
            }
        }
        (dist, prev)
    }

    /// The length for the planner's radius between nodes `i` and `j` of one layer
    /// (`None`: no path), planned once (from the lower-numbered node) and kept.
    fn link(&self, i: usize, j: usize) -> Option<f64> {
        let key = (i.min(j), i.max(j));
        if let Some(&known) = self
            .links
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return known;
        }
        let (a, b) = (self.nodes[key.0], self.nodes[key.1]);
        let length = self
            .plan_leg(a.region, a.point, b.point)
            .ok()
            .map(|p| p.length);
        self.links
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, length);
        length
    }

    /// Slides each crossing along its connection (two golden-section passes), keeping a
    /// move only when its crossing segment is clear and the total gets shorter.
    fn slide(
        &self,
        start: Point,
        goal: Point,
        from: LayerId,
        mut crossings: Vec<(ConnectionId, Point, Point, LayerId, LayerId)>,
    ) -> Vec<(ConnectionId, Point, Point, LayerId, LayerId)> {
        let world = self.ecm.world();
        let length = |layer: LayerId, a: Point, b: Point| -> f64 {
            self.plan_leg(self.ecm.region_of(layer), a, b)
                .map_or(f64::INFINITY, |p| p.length)
        };
        for _pass in 0..2 {
            for k in 0..crossings.len() {
                let (id, here, there, l, n) = crossings[k];
                let Ok(c) = world.connection(id) else {
                    continue;
                };
                let (before_layer, before) = if k == 0 {
                    (from, start)
                } else {
                    (crossings[k - 1].4, crossings[k - 1].2)
                };
                let after = crossings.get(k + 1).map_or(goal, |c| c.1);
                let (a, b) = (c.segment.a, c.segment.b);
                let d = b - a;
                let shift = here - (a + d * ((here - a).dot(d) / d.length_squared()));
                let cross = there - here;
                let at = |u: f64| a + d * u + shift;
                let total = |u: f64| {
                    let p = at(u);
                    length(before_layer, before, p) + cross.length() + length(n, p + cross, after)
                };
                let u0 = (here - shift - a).dot(d) / d.length_squared();
                let du = Self::SPACING / d.length();
                let (mut lo, mut hi) = (u0 - du, u0 + du);
                let clear = |u: f64| self.clear_crossing(id, at(u), at(u) + cross, l, n);
                let f = |u: f64| if clear(u) { total(u) } else { f64::INFINITY };
                // Golden-section search, one new evaluation per step.
                let golden = 0.618_033_988_749_895;
                let (mut m1, mut m2) = (hi - golden * (hi - lo), lo + golden * (hi - lo));
                let (mut f1, mut f2) = (f(m1), f(m2));
                for _ in 0..12 {
                    if f1 <= f2 {
                        (hi, m2, f2) = (m2, m1, f1);
                        m1 = hi - golden * (hi - lo);
                        f1 = f(m1);
                    } else {
                        (lo, m1, f1) = (m1, m2, f2);
                        m2 = lo + golden * (hi - lo);
                        f2 = f(m2);
                    }
                }
                let u = 0.5 * (lo + hi);
                if clear(u) && total(u) < total(u0) {
                    crossings[k].1 = at(u);
                    crossings[k].2 = at(u) + cross;
                }
            }
        }
        crossings
    }

    /// The path for the planner's radius from `a` to `b` in a region's ECM.
    fn plan_leg(&self, region: usize, a: Point, b: Point) -> Result<CorridorPath, LayeredEcmError> {
        let ecm = self.ecm.region_ecm(region)?;
        let layer = LayerId(region as u32);
        plan_on(region, ecm, &PathQuery::new(a, b).with_radius(self.radius))
            .map_err(|source| LayeredEcmError::Plan { layer, source })
    }

    /// Adds a leg planned in `region` from layer `ends.0` to layer `ends.1`: one step, or
    /// in a region of several layers one step per layer with the open connections
    /// crossed between them.
    fn push_leg(
        &self,
        out: &mut LayeredPath,
        region: usize,
        ends: (LayerId, LayerId),
        path: CorridorPath,
    ) {
        out.length += path.length;
        let world = self.ecm.world();
        let layers: Vec<LayerId> = world
            .layers()
            .map(|(id, _)| id)
            .filter(|l| self.ecm.region_of(*l) == region)
            .collect();
        if layers.len() == 1 {
            out.steps.push(LayeredStep {
                layer: ends.0,
                path,
            });
            return;
        }
        let open: Vec<ConnectionId> = world
            .connections()
            .filter(|(id, c)| self.ecm.is_open(*id) && layers.contains(&c.layers[0]))
            .map(|(id, _)| id)
            .collect();
        for piece in super::split::split(world, &layers, &open, ends, path) {
            out.steps.push(LayeredStep {
                layer: piece.layer,
                path: piece.path,
            });
            out.crossings.extend(piece.exit);
        }
    }

    /// Whether the crossing segment `p`–`q` through connection `id` keeps the radius from
    /// every wall of both layers (the connection excepted).
    fn clear_crossing(&self, id: ConnectionId, p: Point, q: Point, l: LayerId, n: LayerId) -> bool {
        let world = self.ecm.world();
        let Ok(c) = world.connection(id) else {
            return false;
        };
        let Ok(grid) = self.ecm.layer_ecm(l).map(|e| e.grid.scale()) else {
            return false;
        };
        let crossing = Segment::new(p, q);
        // Inside the connection's span, at least the radius from its ends.
        let (a, b) = (c.segment.a, c.segment.b);
        let u = (p - a).dot(b - a) / (b - a).length_squared();
        let len = a.distance(b);
        if u * len < self.radius || (1.0 - u) * len < self.radius {
            return false;
        }
        [l, n].iter().all(|layer| {
            world.layer(*layer).is_ok_and(|lay| {
                walls_of(&lay.environment)
                    .into_iter()
                    .flat_map(|w| outside_of(w, c.segment))
                    .all(|w| {
                        fits(
                            crossing.distance_to_segment(&w),
                            self.radius,
                            FIT_TOLERANCE_STEPS / grid,
                        )
                    })
            })
        })
    }
}

thread_local! {
    /// One 2D planner per layer index on each thread. A planner keeps what it learnt of
    /// a map (edge costs, grown buffers) under the map's lineage, a fresh id per built
    /// map, and checks it before use, so reusing one per layer is safe and spares every
    /// leg of a query the set-up a fresh planner pays.
    static PLANNERS: RefCell<Vec<Planner>> = const { RefCell::new(Vec::new()) };
}

/// Plans `query` on `ecm`, the map of region `region`, with this thread's planner for it.
fn plan_on(region: usize, ecm: &Ecm, query: &PathQuery) -> Result<CorridorPath, PlanError> {
    PLANNERS.with(|cell| {
        let mut planners = cell.borrow_mut();
        let i = region;
        if planners.len() <= i {
            planners.resize_with(i + 1, Planner::new);
        }
        planners[i].plan(ecm, query)
    })
}

/// The groups of regions joined by crossing samples (union-find, each region named by
/// the smallest region of its group): a query between two groups has no path, which it
/// can say without planning a leg.
fn groups(layers: usize, nodes: &[Node]) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..layers).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for node in nodes {
        let (a, b) = (
            root(&mut parent, node.region),
            root(&mut parent, nodes[node.partner].region),
        );
        parent[a.max(b)] = a.min(b);
    }
    (0..layers).map(|i| root(&mut parent, i)).collect()
}

/// Whether a distance to a wall lets a disk of radius `r` pass (touching is fitting; a
/// point must not touch).
fn fits(distance: f64, r: f64, tolerance: f64) -> bool {
    if r == 0.0 {
        distance > 0.0
    } else {
        distance >= r - tolerance
    }
}

/// Every wall edge of a layer's environment (points as zero-length segments).
fn walls_of(env: &corridor_geom::Environment) -> Vec<Segment> {
    let mut out: Vec<Segment> = env.boundary().edges().collect();
    for (_, o) in env.obstacles() {
        match o {
            Obstacle::Point(p) => out.push(Segment::new(*p, *p)),
            Obstacle::Polyline(v) => out.extend(v.windows(2).map(|w| Segment::new(w[0], w[1]))),
            Obstacle::Polygon(poly) => out.extend(poly.edges()),
        }
    }
    out
}

/// The parts of wall `w` outside the connection `c` (all of `w` unless it lies on `c`'s
/// line, decided exactly).
pub(crate) fn outside_of(w: Segment, c: Segment) -> Vec<Segment> {
    if orient(c.a, c.b, w.a) != Orientation::Collinear
        || orient(c.a, c.b, w.b) != Orientation::Collinear
    {
        return vec![w];
    }
    let d = c.b - c.a;
    let at = |p: Point| (p - c.a).dot(d) / d.length_squared();
    let (mut s, mut t) = (at(w.a), at(w.b));
    if s > t {
        std::mem::swap(&mut s, &mut t);
    }
    let point = |u: f64| c.a + d * u;
    let mut out = Vec::new();
    if s < 0.0 {
        out.push(Segment::new(point(s), point(t.min(0.0))));
    }
    if t > 1.0 {
        out.push(Segment::new(point(s.max(1.0)), point(t)));
    }
    out
}

/// What a heap entry of [`LayeredPlanner::search`] stands for.
#[derive(Clone, Copy, PartialEq)]
enum Leg {
    /// The node, reached at this length.
    Known(f64),
    /// The leg from the start to the node, not planned yet.
    FromStart,
    /// The leg from the node (reached) to the goal, not planned yet.
    ToGoal,
    /// The leg to the node from another node of its layer (reached at this length), not
    /// planned yet.
    Link(usize, f64),
}

/// A min-heap entry of the search: its key (a lower bound of the length of a route
/// through it), the node and what the entry stands for.
#[derive(PartialEq)]
struct Entry(f64, usize, Leg);

impl Eq for Entry {}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests;
