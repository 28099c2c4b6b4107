//! Choosing the corridor by the length of the taut path itself.
//!
//! A* on medial-axis lengths can prefer a corridor whose taut path is longer than
//! another's. Here the cost of reaching a medial-axis vertex is the length of the taut
//! (shortest, radius 0) path from the start to that vertex through the corridor followed
//! so far, kept as an incremental funnel (Lee and Preparata) per search node. The cost
//! depends on the route, so this is a best-first search rather than an exact shortest-path
//! algorithm, but it measures far closer to the true shortest paths than medial-axis
//! lengths do.

use crate::plan::Open;
use crate::query::Retraction;
use crate::{Ecm, EdgeId, VertexId};
use corridor_geom::{orient, Orientation, Point};
use slotmap::SecondaryMap;
use std::collections::BinaryHeap;

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
    fn new(start: Point) -> Self {
        Funnel {
            apex: start,
            ..Funnel::default()
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

    /// Length of the taut path from the start to `target` (which lies beyond every portal).
    fn length_to(&self, target: Point) -> f64 {
        let mut f = self.clone();
        f.push_side(target, true);
        let mut length = f.apex_length;
        let mut at = f.apex;
        for &p in &f.left {
            length += at.distance(p);
            at = p;
        }
        length
    }
}

/// Portals (left, right as seen walking) of bending points `range` of `edge`, in walking
/// order.
fn portals(
    ecm: &Ecm,
    edge: EdgeId,
    forward: bool,
    from: usize,
    to: usize,
) -> impl Iterator<Item = (Point, Point)> + '_ {
    let bps = &ecm.edges[edge].bending_points;
    let pick = move |i: usize| {
        let b = &bps[i];
        if forward {
            (b.left, b.right)
        } else {
            (b.right, b.left)
        }
    };
    let (lo, hi) = (from.min(to), from.max(to));
    let indices: Box<dyn Iterator<Item = usize>> = if forward {
        Box::new(lo..=hi)
    } else {
        Box::new((lo..=hi).rev())
    };
    indices.map(pick)
}

/// How a route found by [`taut_search`] begins and ends.
pub(crate) struct TautRoute {
    pub start: usize,
    pub goal: usize,
    /// Edges with direction, as in [`crate::Path::edges`]; empty when start and goal
    /// share an edge and the direct stretch wins.
    pub route: Vec<(EdgeId, bool)>,
}

#[derive(Clone, Copy)]
enum Parent {
    Start { index: usize, forward: bool },
    Edge { from: VertexId, edge: EdgeId },
}

/// Best-first search over medial-axis vertices by taut length (see the module doc).
pub(crate) fn taut_search(
    ecm: &Ecm,
    start_point: Point,
    goal_point: Point,
    starts: &[Retraction],
    goals: &[Retraction],
    radius: f64,
) -> Option<TautRoute> {
    let mut state: SecondaryMap<VertexId, (f64, Parent, Funnel)> = SecondaryMap::new();
    let mut closed: SecondaryMap<VertexId, ()> = SecondaryMap::new();
    let mut open = BinaryHeap::new();
    let fits = |edge: EdgeId, lo: usize, hi: usize| {
        ecm.edges[edge].bending_points[lo..=hi]
            .iter()
            .all(|b| b.clearance >= radius)
    };
    let mut best: Option<(f64, TautRoute)> = None;

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
            if s.clearance < radius || g.clearance < radius || (lo <= hi && !fits(s.edge(), lo, hi))
            {
                continue;
            }
            let mut f = Funnel::new(start_point);
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
                best = Some((
                    length,
                    TautRoute {
                        start: i,
                        goal: j,
                        route: Vec::new(),
                    },
                ));
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
            let mut f = Funnel::new(start_point);
            for (l, r) in skip_passed(portals(ecm, s.edge(), forward, from, to), start_point) {
                f.push(l, r);
            }
            let cost = f.length_to(ecm.vertices[v].position);
            if state.get(v).is_none_or(|b| cost < b.0) {
                state.insert(v, (cost, Parent::Start { index, forward }, f));
                open.push(Open {
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
    }) = open.pop()
    {
        if best.as_ref().is_some_and(|b| estimate >= b.0) {
            break;
        }
        if cost > state[vertex].0 || closed.insert(vertex, ()).is_some() {
            continue;
        }
        let funnel = state[vertex].2.clone();
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
                let mut f = funnel.clone();
                for (l, r) in until_goal(portals(ecm, g.edge(), forward, from, to), goal_point) {
                    f.push(l, r);
                }
                let length = f.length_to(goal_point);
                if best.as_ref().is_none_or(|b| length < b.0) {
                    let mut route = vec![(g.edge(), forward)];
                    let mut at = vertex;
                    let start = loop {
                        match state[at].1 {
                            Parent::Edge { from, edge } => {
                                let e = &ecm.edges[edge];
                                route.push((edge, e.start == from && e.end == at));
                                at = from;
                            }
                            Parent::Start { index, forward } => {
                                route.push((starts[index].edge(), forward));
                                break index;
                            }
                        }
                    };
                    route.reverse();
                    best = Some((
                        length,
                        TautRoute {
                            start,
                            goal: j,
                            route,
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
            if closed.contains_key(next) {
                continue;
            }
            let forward = edge.start == vertex;
            let mut f = funnel.clone();
            for (l, r) in portals(ecm, edge_id, forward, 0, edge.bending_points.len() - 1) {
                f.push(l, r);
            }
            let next_position = ecm.vertices[next].position;
            let next_cost = f.length_to(next_position);
            if state.get(next).is_some_and(|b| b.0 <= next_cost) {
                continue;
            }
            state.insert(
                next,
                (
                    next_cost,
                    Parent::Edge {
                        from: vertex,
                        edge: edge_id,
                    },
                    f,
                ),
            );
            open.push(Open {
                estimate: next_cost + next_position.distance(goal_point),
                cost: next_cost,
                vertex: next,
            });
        }
    }
    best.map(|(_, route)| route)
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
