//! What is the shortest path? Start and goal join the graph per query, then A*.
//!
//! The graph is never rebuilt for a query: one rotational sweep around the start and one
//! around the goal find the nodes they see (with the same tangency rule as the graph's
//! edges), and A* with the straight-line distance to the goal (a consistent heuristic)
//! searches the graph plus those temporary edges.

use crate::graph::VisibilityGraph;
use crate::sweep::{Seen, Sweeper};
use crate::{Endpoint, QueryError};
use corridor_geom::free_space::PointClass;
use corridor_geom::free_space::{flip, Dir};
use corridor_geom::{Point, Segment};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A path through the free space.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphPath {
    /// The corners from start to goal (both included; one point when they coincide).
    pub points: Vec<Point>,
    /// The total Euclidean length.
    pub length: f64,
}

impl GraphPath {
    /// The straight pieces.
    pub fn segments(&self) -> impl Iterator<Item = Segment> + '_ {
        self.points.windows(2).map(|w| Segment::new(w[0], w[1]))
    }
}

const NONE: u32 = u32::MAX;

impl VisibilityGraph {
    /// Where `p` lies, as a query error when it is not free.
    fn check(&self, p: Point, endpoint: Endpoint) -> Result<PointClass, QueryError> {
        if !p.is_finite() {
            return Err(QueryError::NotFinite { endpoint, point: p });
        }
        match self.free.classify(p) {
            PointClass::Outside => Err(QueryError::OutsideBoundary { endpoint, point: p }),
            PointClass::Blocked(obstacle) => Err(QueryError::InsideObstacle {
                endpoint,
                point: p,
                obstacle,
            }),
            class => Ok(class),
        }
    }

    /// The graph nodes `p` sees along an allowed direction, with distances.
    fn connect(&self, sweeper: &mut Sweeper<'_>, p: Point, class: &PointClass) -> Vec<(u32, f64)> {
        let mut seen = Seen::default();
        let wedges: &[crate::Wedge] = match class {
            PointClass::Boundary(w) => w,
            _ => &[],
        };
        sweeper.visible_from(p, self.free.place(p), wedges, false, &mut seen);
        let mut out = Vec::new();
        for &(x, arrival) in &seen.vertices {
            let q = self.free.points[x as usize];
            let leave = class.sides_towards(q);
            if leave == 0 {
                continue;
            }
            for n in self.nodes_at(x) {
                let wedge = &self.free.wedges[self.node_wedge[n as usize] as usize];
                let arrive = flip(wedge.sides_along(Dir::towards(p)));
                if self.allows(wedge, Dir::towards(p)) && arrival.admits(leave, arrive) {
                    out.push((n, p.distance(q)));
                }
            }
        }
        out
    }

    /// The shortest path from `start` to `goal` through the free space (exact up to the
    /// rounding of the lengths: the graph and the visibility tests are exact).
    ///
    /// # Errors
    /// [`QueryError`] when an end is not finite, outside the boundary or inside an
    /// obstacle, or when no path exists.
    ///
    /// ```
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// use corridor_visgraph::{QueryError, VisibilityGraph};
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(4.0, 4.0));
    /// env.insert(Obstacle::rectangle(Point::new(1.0, 1.0), Point::new(3.0, 3.0)));
    /// let graph = VisibilityGraph::build(&env).unwrap();
    /// let path = graph.shortest_path(Point::new(0.0, 0.0), Point::new(4.0, 4.0)).unwrap();
    /// assert!((path.length - 2.0 * 10f64.sqrt()).abs() < 1e-12);
    /// assert!(matches!(
    ///     graph.shortest_path(Point::new(2.0, 2.0), Point::ZERO),
    ///     Err(QueryError::InsideObstacle { .. })
    /// ));
    /// ```
    pub fn shortest_path(&self, start: Point, goal: Point) -> Result<GraphPath, QueryError> {
        let start_class = self.check(start, Endpoint::Start)?;
        let goal_class = self.check(goal, Endpoint::Goal)?;
        if start == goal {
            return Ok(GraphPath {
                points: vec![start],
                length: 0.0,
            });
        }
        if self.free.segment_is_free(start, goal) {
            return Ok(GraphPath {
                points: vec![start, goal],
                length: start.distance(goal),
            });
        }
        let mut sweeper = Sweeper::new(&self.free);
        let from_start = self.connect(&mut sweeper, start, &start_class);
        let to_goal = self.connect(&mut sweeper, goal, &goal_class);
        let n = self.node_count();
        let mut goal_cost = vec![f64::INFINITY; n];
        for &(node, d) in &to_goal {
            goal_cost[node as usize] = goal_cost[node as usize].min(d);
        }
        let mut dist = vec![f64::INFINITY; n];
        let mut came = vec![NONE; n];
        let mut heap: BinaryHeap<Reverse<(u64, u32)>> = BinaryHeap::new();
        let h = |node: u32| self.node_point(node as usize).distance(goal);
        for &(node, d) in &from_start {
            if d < dist[node as usize] {
                dist[node as usize] = d;
                heap.push(Reverse(((d + h(node)).to_bits(), node)));
            }
        }
        let mut best = (f64::INFINITY, NONE);
        while let Some(Reverse((f, node))) = heap.pop() {
            if f64::from_bits(f) >= best.0 {
                break;
            }
            let g = dist[node as usize];
            if (g + h(node)).to_bits() != f {
                continue; // stale entry
            }
            let via = g + goal_cost[node as usize];
            if via < best.0 {
                best = (via, node);
            }
            for (m, w) in self.neighbours(node as usize) {
                let ng = g + w;
                if ng < dist[m] {
                    dist[m] = ng;
                    came[m] = node;
                    heap.push(Reverse(((ng + h(m as u32)).to_bits(), m as u32)));
                }
            }
        }
        if best.1 == NONE {
            return Err(QueryError::NoPath { start, goal });
        }
        let mut points = vec![goal];
        let mut node = best.1;
        while node != NONE {
            points.push(self.node_point(node as usize));
            node = came[node as usize];
        }
        points.push(start);
        points.reverse();
        Ok(GraphPath {
            points,
            length: best.0,
        })
    }
}
