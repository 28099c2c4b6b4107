//! What is the disk's shortest path between two points? Start and goal join the circles
//! by their tangents (per query; the graph is not rebuilt), then A* with the straight
//! distance to the goal (a lower bound: an arc is longer than its chord).

use super::geometry::{point_segment_distance, point_tangents, CCW, CW};
use super::{node, Circle, DiskArc, DiskPath, DiskPiece, DiskQueryError, DiskVisibilityGraph};
use corridor_geom::{Aabb, Endpoint, PathQueryError, Point, PointClass, Segment};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::f64::consts::TAU;

/// Where a path from the start joins a circle, or one to the goal leaves it.
#[derive(Clone, Copy, Debug)]
struct Touch {
    circle: u32,
    offset: f64,
    /// Travel orientation along the circle at the touching point.
    sigma: i8,
    /// The tangent's length (start to the point, or the point to the goal).
    length: f64,
    point: Point,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Came {
    Nothing,
    Node(u32),
    Entry(u32),
}

impl DiskVisibilityGraph {
    /// The distance from `p` to the nearest wall, when less than the radius.
    fn too_close(&self, p: Point) -> Option<f64> {
        let mut best = f64::INFINITY;
        self.walls
            .for_each_near(&Aabb::new(p, p).expanded(self.radius), |w| {
                let (a, b) = self.walls.wall(w);
                best = best.min(point_segment_distance(p, a, b));
            });
        (best < self.min_clearance()).then_some(best)
    }

    /// Checks that the disk fits at `p`.
    fn check(&self, p: Point, endpoint: Endpoint) -> Result<(), DiskQueryError> {
        if !p.is_finite() {
            return Err(PathQueryError::NotFinite { endpoint, point: p }.into());
        }
        match self.free.classify(p) {
            PointClass::Outside => {
                return Err(PathQueryError::OutsideBoundary { endpoint, point: p }.into())
            }
            PointClass::Blocked(obstacle) => {
                return Err(PathQueryError::InsideObstacle {
                    endpoint,
                    point: p,
                    obstacle,
                }
                .into())
            }
            _ => {}
        }
        match self.too_close(p) {
            Some(clearance) => Err(DiskQueryError::TooClose {
                endpoint,
                point: p,
                clearance,
                radius: self.radius,
            }),
            None => Ok(()),
        }
    }

    /// The angle swept from `from` to `to` (offsets in circle `c`'s cone) travelling in
    /// orientation `sigma`, when that stays in the cone.
    fn sweep(c: &Circle, from: f64, to: f64, sigma: i8) -> Option<f64> {
        let raw = if sigma == CCW { to - from } else { from - to };
        if c.cone.full() {
            Some(raw.rem_euclid(TAU))
        } else {
            (raw >= 0.0).then_some(raw)
        }
    }

    /// The touching points of the tangents from `p` (`to_circle`: paths from `p` onto
    /// the circles; otherwise from the circles to `p`), clear of the walls.
    fn touches(&self, p: Point, to_circle: bool) -> Vec<Touch> {
        let min = self.min_clearance();
        let mut out = Vec::new();
        for (i, c) in self.circles.iter().enumerate() {
            for (u, sigma, length) in point_tangents(p, c.centre, self.radius) {
                let Some((offset, q)) = self.touch(i, u) else {
                    continue;
                };
                if self.walls.segment_clear(p, q, min) {
                    out.push(Touch {
                        circle: i as u32,
                        offset,
                        sigma: if to_circle { sigma } else { -sigma },
                        length,
                        point: q,
                    });
                }
            }
        }
        out
    }

    /// The site met first travelling from `offset` in orientation `sigma` on circle `c`
    /// (`forward`), or the last site before it (`!forward`), with the clear sweep between.
    fn neighbour_site(&self, t: &Touch, forward: bool) -> Option<(u32, f64)> {
        let c = &self.circles[t.circle as usize];
        let ids = c.sites.clone();
        if ids.is_empty() {
            return None;
        }
        let offs = &self.sites[ids.start as usize..ids.end as usize];
        // Ascending along the cone when moving counter-clockwise forwards (or clockwise
        // backwards).
        let ascending = (t.sigma == CCW) == forward;
        let k = if ascending {
            let i = offs.partition_point(|s| s.offset < t.offset);
            if i < offs.len() {
                i
            } else if c.cone.full() {
                0
            } else {
                return None;
            }
        } else {
            let i = offs.partition_point(|s| s.offset <= t.offset);
            if i > 0 {
                i - 1
            } else if c.cone.full() {
                offs.len() - 1
            } else {
                return None;
            }
        };
        let site = ids.start + k as u32;
        let s_off = self.sites[site as usize].offset;
        let (from, to) = if forward {
            (t.offset, s_off)
        } else {
            (s_off, t.offset)
        };
        let sweep = Self::sweep(c, from, to, t.sigma)?;
        // A clockwise arc is the counter-clockwise one from its end.
        let arc_from = if t.sigma == CCW { from } else { to };
        self.arc_clear(c, arc_from, sweep).then_some((site, sweep))
    }

    /// The shortest path of the disk's centre from `start` to `goal`.
    ///
    /// # Errors
    /// [`DiskQueryError::TooClose`] when an end is closer than the radius to a wall;
    /// [`DiskQueryError::Free`] when an end is not finite, outside the boundary or in an
    /// obstacle, or when no path exists.
    ///
    /// ```
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// use corridor_visgraph::{DiskQueryError, DiskVisibilityGraph};
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 4.0));
    /// // A wall with a gap exactly 1 wide: a disk of radius 0.5 passes, touching.
    /// env.insert(Obstacle::rectangle(Point::new(5.0, 0.0), Point::new(6.0, 2.0)));
    /// env.insert(Obstacle::rectangle(Point::new(5.0, 3.0), Point::new(6.0, 4.0)));
    /// let (s, g) = (Point::new(1.0, 2.5), Point::new(9.0, 2.5));
    /// let graph = DiskVisibilityGraph::build(&env, 0.5).unwrap();
    /// assert!((graph.shortest_path(s, g).unwrap().length - 8.0).abs() < 1e-9);
    /// let fat = DiskVisibilityGraph::build(&env, 0.51).unwrap();
    /// assert!(fat.shortest_path(s, g).is_err());
    /// assert!(matches!(
    ///     graph.shortest_path(Point::new(1.0, 0.2), g),
    ///     Err(DiskQueryError::TooClose { .. })
    /// ));
    /// ```
    pub fn shortest_path(&self, start: Point, goal: Point) -> Result<DiskPath, DiskQueryError> {
        self.check(start, Endpoint::Start)?;
        self.check(goal, Endpoint::Goal)?;
        let done = |pieces: Vec<DiskPiece>, length: f64| DiskPath {
            pieces,
            length,
            start,
            goal,
        };
        if start == goal {
            return Ok(done(Vec::new(), 0.0));
        }
        if self.walls.segment_clear(start, goal, self.min_clearance()) {
            return Ok(done(
                vec![DiskPiece::Segment(Segment::new(start, goal))],
                start.distance(goal),
            ));
        }
        let entries = self.touches(start, true);
        let exits = self.touches(goal, false);
        let n = 2 * self.sites.len();
        let mut dist = vec![f64::INFINITY; n];
        let mut came = vec![Came::Nothing; n];
        // Best finish: cost, then how (a node and an exit, or an entry straight to an exit).
        let mut best = (f64::INFINITY, Came::Nothing, u32::MAX);
        let mut goal_cost: Vec<(f64, u32)> = vec![(f64::INFINITY, u32::MAX); n];
        for (x, t) in exits.iter().enumerate() {
            if let Some((site, sweep)) = self.neighbour_site(t, false) {
                let cost = self.radius * sweep + t.length;
                let slot = &mut goal_cost[node(site, t.sigma) as usize];
                if cost < slot.0 {
                    *slot = (cost, x as u32);
                }
            }
        }
        let h = |nd: u32| self.sites[nd as usize / 2].point.distance(goal);
        let mut heap: BinaryHeap<Reverse<(u64, u32)>> = BinaryHeap::new();
        for (e, t) in entries.iter().enumerate() {
            let c = &self.circles[t.circle as usize];
            for (x, g) in exits.iter().enumerate() {
                if g.circle != t.circle || g.sigma != t.sigma {
                    continue;
                }
                if let Some(sweep) = Self::sweep(c, t.offset, g.offset, t.sigma) {
                    let from = if t.sigma == CCW { t.offset } else { g.offset };
                    let cost = t.length + self.radius * sweep + g.length;
                    if cost < best.0 && self.arc_clear(c, from, sweep) {
                        best = (cost, Came::Entry(e as u32), x as u32);
                    }
                }
            }
            if let Some((site, sweep)) = self.neighbour_site(t, true) {
                let nd = node(site, t.sigma);
                let d = t.length + self.radius * sweep;
                if d < dist[nd as usize] {
                    dist[nd as usize] = d;
                    came[nd as usize] = Came::Entry(e as u32);
                    heap.push(Reverse(((d + h(nd)).to_bits(), nd)));
                }
            }
        }
        while let Some(Reverse((f, nd))) = heap.pop() {
            if f64::from_bits(f) >= best.0 {
                break;
            }
            let g = dist[nd as usize];
            if (g + h(nd)).to_bits() != f {
                continue; // stale entry
            }
            let (finish, x) = goal_cost[nd as usize];
            if g + finish < best.0 {
                best = (g + finish, Came::Node(nd), x);
            }
            let range = self.offsets[nd as usize] as usize..self.offsets[nd as usize + 1] as usize;
            for (&m, &w) in self.targets[range.clone()].iter().zip(&self.weights[range]) {
                let ng = g + w;
                if ng < dist[m as usize] {
                    dist[m as usize] = ng;
                    came[m as usize] = Came::Node(nd);
                    heap.push(Reverse(((ng + h(m)).to_bits(), m)));
                }
            }
        }
        let (length, last, exit) = best;
        if last == Came::Nothing {
            return Err(PathQueryError::NoPath { start, goal }.into());
        }
        // Back from the goal: the touching points (circle, offset, orientation) in order.
        let exit = exits[exit as usize];
        let mut chain = vec![(exit.circle, exit.offset, exit.sigma, exit.point)];
        let mut at = last;
        let entry = loop {
            match at {
                Came::Node(nd) => {
                    let s = self.sites[nd as usize / 2];
                    let sigma = if nd % 2 == 0 { CCW } else { CW };
                    chain.push((s.circle, s.offset, sigma, s.point));
                    at = came[nd as usize];
                }
                Came::Entry(e) => break entries[e as usize],
                Came::Nothing => unreachable!("every reached node has a predecessor"),
            }
        };
        chain.push((entry.circle, entry.offset, entry.sigma, entry.point));
        chain.reverse();
        let mut pieces = vec![DiskPiece::Segment(Segment::new(start, entry.point))];
        for w in chain.windows(2) {
            let ((ca, oa, sa, pa), (cb, ob, _, pb)) = (w[0], w[1]);
            if ca == cb {
                let c = &self.circles[ca as usize];
                let sweep = Self::sweep(c, oa, ob, sa).unwrap_or(0.0);
                if sweep > 0.0 {
                    pieces.push(DiskPiece::Arc(DiskArc {
                        centre: c.centre,
                        radius: self.radius,
                        start_angle: c.cone.lo + oa,
                        sweep: sweep * f64::from(sa),
                    }));
                }
            } else {
                pieces.push(DiskPiece::Segment(Segment::new(pa, pb)));
            }
        }
        pieces.push(DiskPiece::Segment(Segment::new(exit.point, goal)));
        Ok(done(pieces, length))
    }
}
