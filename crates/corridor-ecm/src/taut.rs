//! Choosing the corridor by the length of the taut path itself.
//!
//! A* on medial-axis lengths can prefer a corridor whose taut path is longer than
//! another's. Here the cost of reaching a medial-axis vertex is the length of the taut
//! (shortest, radius 0) path from the start to that vertex through the corridor followed
//! so far, kept as an incremental funnel (Lee and Preparata) per search node. The cost
//! depends on the route, so this is a best-first search rather than an exact shortest-path
//! algorithm, but it measures far closer to the true shortest paths than medial-axis
//! lengths do.
//!
//! The search state lives in a reusable [`TautSearch`]: per-vertex records in dense
//! arrays reset by a generation stamp (no clearing), and the funnel of every search node
//! stored as two slices of one shared point pool, so that a warmed search allocates
//! nothing.

use crate::plan::Open;
use crate::query::Retraction;
use crate::{Ecm, EdgeId, VertexId};
use corridor_geom::{orient, Orientation, Point};
use slotmap::Key;
use std::collections::BinaryHeap;

/// The slot index of a slotmap key (dense, reused after removal; the version is left
/// out, which is fine for state that lives within one query on one map).
#[inline]
pub(crate) fn slot<K: Key>(key: K) -> usize {
    (key.data().as_ffi() & 0xffff_ffff) as usize
}

/// Per-slot values valid for one generation: `reset` forgets everything in O(1).
#[derive(Debug, Default)]
pub(crate) struct Marks<T: Copy + Default> {
    stamp: Vec<u32>,
    value: Vec<T>,
    generation: u32,
}

impl<T: Copy + Default> Marks<T> {
    /// Forgets every value; makes room for `slots` slots.
    pub(crate) fn reset(&mut self, slots: usize) {
        if self.stamp.len() < slots {
            self.stamp.resize(slots, 0);
            self.value.resize(slots, T::default());
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<&T> {
        (self.stamp.get(i) == Some(&self.generation)).then(|| &self.value[i])
    }

    #[inline]
    pub(crate) fn contains(&self, i: usize) -> bool {
        self.stamp.get(i) == Some(&self.generation)
    }

    /// Sets the value of slot `i`; returns whether it had one already.
    #[inline]
    pub(crate) fn insert(&mut self, i: usize, v: T) -> bool {
        if i >= self.stamp.len() {
            self.stamp.resize(i + 1, 0);
            self.value.resize(i + 1, T::default());
        }
        let had = self.stamp[i] == self.generation;
        self.stamp[i] = self.generation;
        self.value[i] = v;
        had
    }
}

/// The funnel after some portals: the taut path ends at `apex` with length
/// `apex_length`; `left` and `right` are the chains of corners seen from the apex.
#[derive(Clone, Debug, Default)]
struct Funnel {
    apex: Point,
    apex_length: f64,
    left: Vec<Point>,
    right: Vec<Point>,
}

impl Funnel {
    /// Starts afresh at `start`, keeping the buffers.
    fn reset(&mut self, start: Point) {
        self.apex = start;
        self.apex_length = 0.0;
        self.left.clear();
        self.right.clear();
    }

    /// Copies `other` into `self`, keeping the buffers.
    fn copy_from(&mut self, other: &Funnel) {
        self.apex = other.apex;
        self.apex_length = other.apex_length;
        self.left.clear();
        self.left.extend_from_slice(&other.left);
        self.right.clear();
        self.right.extend_from_slice(&other.right);
    }

    /// Loads a funnel stored in `pool`.
    fn load(&mut self, stored: &StoredFunnel, pool: &[Point]) {
        self.apex = stored.apex;
        self.apex_length = stored.apex_length;
        self.left.clear();
        self.left
            .extend_from_slice(&pool[stored.left.0 as usize..stored.left.1 as usize]);
        self.right.clear();
        self.right
            .extend_from_slice(&pool[stored.right.0 as usize..stored.right.1 as usize]);
    }

    /// Appends the chains to `pool` and returns the handle.
    fn store(&self, pool: &mut Vec<Point>) -> StoredFunnel {
        let a = pool.len() as u32;
        pool.extend_from_slice(&self.left);
        let b = pool.len() as u32;
        pool.extend_from_slice(&self.right);
        let c = pool.len() as u32;
        StoredFunnel {
            apex: self.apex,
            apex_length: self.apex_length,
            left: (a, b),
            right: (b, c),
        }
    }

    /// Adds the portal `(left, right)` (as seen walking forward).
    fn push(&mut self, left: Point, right: Point) {
        self.push_side(left, true);
        self.push_side(right, false);
    }

    /// Adds one new end point to one side of the funnel.
    fn push_side(&mut self, p: Point, is_left: bool) {
        // A left chain turns counter-clockwise, a right chain clockwise.
        let keeps = if is_left {
            Orientation::CounterClockwise
        } else {
            Orientation::Clockwise
        };
        let crosses = if is_left {
            Orientation::Clockwise
        } else {
            Orientation::CounterClockwise
        };
        let (own, other) = if is_left {
            (&mut self.left, &mut self.right)
        } else {
            (&mut self.right, &mut self.left)
        };
        if own.last() == Some(&p) {
            return;
        }
        // Drop corners of this side that no longer bend the path.
        while let Some(&last) = own.last() {
            let previous = if own.len() >= 2 {
                own[own.len() - 2]
            } else {
                self.apex
            };
            if previous != last && orient(previous, last, p) == keeps {
                break;
            }
            own.pop();
        }
        if own.is_empty() {
            // The new point may swing past the other side: its corners become apexes.
            let mut advanced = 0;
            while advanced < other.len()
                && other[advanced] != self.apex
                && orient(self.apex, other[advanced], p) == crosses
            {
                self.apex_length += self.apex.distance(other[advanced]);
                self.apex = other[advanced];
                advanced += 1;
            }
            other.drain(..advanced);
        }
        if p != self.apex {
            own.push(p);
        }
    }

    /// Length of the taut path from the start to `target` (which lies beyond every
    /// portal): what pushing `target` on the left and summing the chain would give,
    /// computed without changing (or copying) the funnel.
    fn length_to(&self, target: Point) -> f64 {
        let own = &self.left;
        let mut kept = own.len();
        if own.last() == Some(&target) {
            let mut length = self.apex_length;
            let mut at = self.apex;
            for &p in own {
                length += at.distance(p);
                at = p;
            }
            return length;
        }
        while kept > 0 {
            let last = own[kept - 1];
            let previous = if kept >= 2 { own[kept - 2] } else { self.apex };
            if previous != last && orient(previous, last, target) == Orientation::CounterClockwise {
                break;
            }
            kept -= 1;
        }
        let (mut apex, mut length) = (self.apex, self.apex_length);
        if kept == 0 {
            for &corner in &self.right {
                if corner == apex || orient(apex, corner, target) != Orientation::Clockwise {
                    break;
                }
                length += apex.distance(corner);
                apex = corner;
            }
        }
        let mut at = apex;
        for &p in &own[..kept] {
            length += at.distance(p);
            at = p;
        }
        if target != apex {
            length += at.distance(target);
        }
        length
    }
}

/// A funnel kept in the shared pool: its chains are `pool[left.0..left.1]` and
/// `pool[right.0..right.1]`.
#[derive(Clone, Copy, Debug, Default)]
struct StoredFunnel {
    apex: Point,
    apex_length: f64,
    left: (u32, u32),
    right: (u32, u32),
}

/// Portals (left, right as seen walking) of bending points `from..=to` of `edge` (`to`
/// may be below `from` when walking backwards), in walking order.
fn portals(
    ecm: &Ecm,
    edge: EdgeId,
    forward: bool,
    from: usize,
    to: usize,
) -> impl Iterator<Item = (Point, Point)> + '_ {
    let bps = &ecm.edges[edge].bending_points;
    let (lo, hi) = (from.min(to), from.max(to));
    (0..=hi - lo).map(move |j| {
        let b = &bps[if forward { lo + j } else { hi - j }];
        if forward {
            (b.left, b.right)
        } else {
            (b.right, b.left)
        }
    })
}

/// How a route found by [`TautSearch::run`] begins and ends; the route itself is in
/// [`TautSearch::route`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct TautRoute {
    pub start: usize,
    pub goal: usize,
}

#[derive(Clone, Copy, Debug, Default)]
enum Parent {
    #[default]
    None,
    Start {
        index: usize,
        forward: bool,
    },
    Edge {
        from: VertexId,
        edge: EdgeId,
    },
}

#[derive(Clone, Copy, Debug, Default)]
struct Node {
    cost: f64,
    parent: Parent,
    funnel: StoredFunnel,
}

/// How the best route found so far ends.
#[derive(Clone, Copy, Debug)]
enum Finish {
    /// Start and goal on one edge.
    Direct { start: usize, goal: usize },
    /// Into goal candidate `goal` from `vertex`.
    Via {
        vertex: VertexId,
        goal: usize,
        forward: bool,
    },
}

/// Reusable state of the taut-length search (keep one per thread).
#[derive(Debug, Default)]
pub(crate) struct TautSearch {
    nodes: Marks<Node>,
    closed: Marks<()>,
    open: BinaryHeap<Open>,
    pool: Vec<Point>,
    current: Funnel,
    work: Funnel,
    /// The route of the last successful [`TautSearch::run`]: edges with direction, as in
    /// [`crate::Path::edges`]; empty when start and goal share an edge and the direct
    /// stretch wins.
    pub(crate) route: Vec<(EdgeId, bool)>,
    /// Vertices expanded by the last run (for statistics).
    pub(crate) expanded: usize,
}

impl TautSearch {
    /// Best-first search over medial-axis vertices by taut length (see the module doc).
    pub(crate) fn run(
        &mut self,
        ecm: &Ecm,
        start_point: Point,
        goal_point: Point,
        starts: &[Retraction],
        goals: &[Retraction],
        radius: f64,
    ) -> Option<TautRoute> {
        let slots = ecm.vertices.capacity() + 1;
        self.nodes.reset(slots);
        self.closed.reset(slots);
        self.open.clear();
        self.pool.clear();
        self.route.clear();
        self.expanded = 0;
        let fits = |edge: EdgeId, lo: usize, hi: usize| {
            ecm.edges[edge].bending_points[lo..=hi]
                .iter()
                .all(|b| b.clearance >= radius)
        };
        let mut best: Option<(f64, Finish)> = None;

        // Start and goal on one edge.
        for (i, s) in starts.iter().enumerate() {
            for (j, g) in goals.iter().enumerate() {
                if s.edge() != g.edge() {
                    continue;
                }
                let (ks, kg) = (s.cell.piece as usize, g.cell.piece as usize);
                let forward = (ks, s.t) <= (kg, g.t);
                // Bending points strictly between the two retractions.
                let (lo, hi) = if forward { (ks + 1, kg) } else { (kg + 1, ks) };
                if s.clearance < radius
                    || g.clearance < radius
                    || (lo <= hi && !fits(s.edge(), lo, hi))
                {
                    continue;
                }
                let f = &mut self.work;
                f.reset(start_point);
                if lo <= hi {
                    let (from, to) = if forward { (lo, hi) } else { (hi, lo) };
                    for (l, r) in trimmed(
                        portals(ecm, s.edge(), forward, from, to),
                        start_point,
                        goal_point,
                    ) {
                        f.push(l, r);
                    }
                }
                let length = f.length_to(goal_point);
                if best.as_ref().is_none_or(|b| length < b.0) {
                    best = Some((length, Finish::Direct { start: i, goal: j }));
                }
            }
        }
        for (index, s) in starts.iter().enumerate() {
            let edge = &ecm.edges[s.edge()];
            let last = edge.bending_points.len() - 1;
            let k = s.cell.piece as usize;
            for forward in [true, false] {
                let (from, to, v) = if forward {
                    (k + 1, last, edge.end)
                } else {
                    (k, 0, edge.start)
                };
                if !fits(s.edge(), from.min(to), from.max(to)) || s.clearance < radius {
                    continue;
                }
                let f = &mut self.work;
                f.reset(start_point);
                for (l, r) in skip_passed(portals(ecm, s.edge(), forward, from, to), start_point) {
                    f.push(l, r);
                }
                let cost = f.length_to(ecm.vertices[v].position);
                if self.nodes.get(slot(v)).is_none_or(|b| cost < b.cost) {
                    let funnel = self.work.store(&mut self.pool);
                    self.nodes.insert(
                        slot(v),
                        Node {
                            cost,
                            parent: Parent::Start { index, forward },
                            funnel,
                        },
                    );
                    self.open.push(Open {
                        estimate: cost + ecm.vertices[v].position.distance(goal_point),
                        cost,
                        vertex: v,
                    });
                }
            }
        }
        while let Some(Open {
            estimate,
            cost,
            vertex,
        }) = self.open.pop()
        {
            if best.as_ref().is_some_and(|b| estimate >= b.0) {
                break;
            }
            let vs = slot(vertex);
            let node = self.nodes.get(vs).copied().unwrap_or_default();
            if cost > node.cost || self.closed.insert(vs, ()) {
                continue;
            }
            self.expanded += 1;
            self.current.load(&node.funnel, &self.pool);
            // Finish into a goal edge from here.
            for (j, g) in goals.iter().enumerate() {
                let edge = &ecm.edges[g.edge()];
                let k = g.cell.piece as usize;
                for forward in [true, false] {
                    let entry = if forward { edge.start } else { edge.end };
                    if entry != vertex {
                        continue;
                    }
                    let last = edge.bending_points.len() - 1;
                    let (from, to) = if forward { (0, k) } else { (last, k + 1) };
                    if !fits(g.edge(), from.min(to), from.max(to)) || g.clearance < radius {
                        continue;
                    }
                    let f = &mut self.work;
                    f.copy_from(&self.current);
                    for (l, r) in until_goal(portals(ecm, g.edge(), forward, from, to), goal_point)
                    {
                        f.push(l, r);
                    }
                    let length = f.length_to(goal_point);
                    if best.as_ref().is_none_or(|b| length < b.0) {
                        best = Some((
                            length,
                            Finish::Via {
                                vertex,
                                goal: j,
                                forward,
                            },
                        ));
                    }
                }
            }
            for &edge_id in &ecm.vertices[vertex].edges {
                let edge = &ecm.edges[edge_id];
                if edge.min_clearance < radius {
                    continue;
                }
                let Some(next) = edge.opposite(vertex) else {
                    continue;
                };
                let ns = slot(next);
                if self.closed.contains(ns) {
                    continue;
                }
                let forward = edge.start == vertex;
                let f = &mut self.work;
                f.copy_from(&self.current);
                for (l, r) in portals(ecm, edge_id, forward, 0, edge.bending_points.len() - 1) {
                    f.push(l, r);
                }
                let next_position = ecm.vertices[next].position;
                let next_cost = f.length_to(next_position);
                if self.nodes.get(ns).is_some_and(|b| b.cost <= next_cost) {
                    continue;
                }
                let funnel = self.work.store(&mut self.pool);
                self.nodes.insert(
                    ns,
                    Node {
                        cost: next_cost,
                        parent: Parent::Edge {
                            from: vertex,
                            edge: edge_id,
                        },
                        funnel,
                    },
                );
                self.open.push(Open {
                    estimate: next_cost + next_position.distance(goal_point),
                    cost: next_cost,
                    vertex: next,
                });
            }
        }
        // The parents of closed vertices never change, so the route is read at the end.
        match best?.1 {
            Finish::Direct { start, goal } => Some(TautRoute { start, goal }),
            Finish::Via {
                vertex,
                goal,
                forward,
            } => {
                self.route.push((goals[goal].edge(), forward));
                let mut at = vertex;
                let start = loop {
                    match self.nodes.get(slot(at)).map(|n| n.parent) {
                        Some(Parent::Edge { from, edge }) => {
                            let e = &ecm.edges[edge];
                            self.route.push((edge, e.start == from && e.end == at));
                            at = from;
                        }
                        Some(Parent::Start { index, forward }) => {
                            self.route.push((starts[index].edge(), forward));
                            break index;
                        }
                        _ => unreachable!("every reached vertex has a parent"),
                    }
                };
                self.route.reverse();
                Some(TautRoute { start, goal })
            }
        }
    }
}

/// Portals from the start on: those the start already lies beyond (or on) are skipped.
fn skip_passed(
    portals: impl Iterator<Item = (Point, Point)>,
    start: Point,
) -> impl Iterator<Item = (Point, Point)> {
    portals.skip_while(move |&(l, r)| orient(r, l, start) != Orientation::CounterClockwise)
}

/// Portals up to the goal: stops at the first the goal lies before (or on).
fn until_goal(
    portals: impl Iterator<Item = (Point, Point)>,
    goal: Point,
) -> impl Iterator<Item = (Point, Point)> {
    portals.take_while(move |&(l, r)| orient(r, l, goal) == Orientation::Clockwise)
}

fn trimmed(
    portals: impl Iterator<Item = (Point, Point)>,
    start: Point,
    goal: Point,
) -> impl Iterator<Item = (Point, Point)> {
    until_goal(skip_passed(portals, start), goal)
}
