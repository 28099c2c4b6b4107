//! Which way from start to goal? Where a query point lies among the free trapezoids,
//! and the path along the roadmap between them.

use crate::map::Nudge;
use crate::{Endpoint, PointClass, QueryError, TrapezoidalMap};
use corridor_geom::{Point, Segment};

/// A path through the free space along the roadmap (free, but not the shortest).
#[derive(Clone, Debug, PartialEq)]
pub struct RoadmapPath {
    /// The corners from start to goal (both included; one point when they coincide).
    pub points: Vec<Point>,
    /// The total Euclidean length.
    pub length: f64,
}

impl RoadmapPath {
    /// The straight pieces.
    pub fn segments(&self) -> impl Iterator<Item = Segment> + '_ {
        self.points.windows(2).map(|w| Segment::new(w[0], w[1]))
    }
}

impl TrapezoidalMap {
    /// The free trapezoids a path from `p` may start in: the one holding `p`, or for a
    /// point on walls, for each of its free wedges the one holding `p` nudged into it.
    fn free_trapezoids(&self, p: Point, endpoint: Endpoint) -> Result<Vec<u32>, QueryError> {
        if !p.is_finite() {
            return Err(QueryError::NotFinite { endpoint, point: p });
        }
        match self.free_space.classify(p) {
            PointClass::Outside => Err(QueryError::OutsideBoundary { endpoint, point: p }),
            PointClass::Blocked(obstacle) => Err(QueryError::InsideObstacle {
                endpoint,
                point: p,
                obstacle,
            }),
            PointClass::Free => Ok(vec![self.map.locate(p, None)]),
            PointClass::Boundary(wedges) => {
                let mut found: Vec<u32> = wedges
                    .iter()
                    .map(|w| self.map.locate(p, Some(Nudge { to: w.start })))
                    .filter(|&t| self.free[t as usize])
                    .collect();
                found.sort_unstable();
                found.dedup();
                if found.is_empty() {
                    Err(QueryError::InsideObstacle {
                        endpoint,
                        point: p,
                        obstacle: None,
                    })
                } else {
                    Ok(found)
                }
            }
        }
    }

    /// A path from `start` to `goal` along the roadmap: straight when both lie in one
    /// trapezoid, otherwise start → its trapezoid's centre → … → the goal trapezoid's
    /// centre → goal, found by A* on the roadmap. Every piece lies in the closure of one
    /// free trapezoid.
    ///
    /// # Errors
    /// [`QueryError`] when an end is not finite, outside the boundary or inside an
    /// obstacle, or when no path exists.
    pub fn path(&self, start: Point, goal: Point) -> Result<RoadmapPath, QueryError> {
        let starts = self.free_trapezoids(start, Endpoint::Start)?;
        let goals = self.free_trapezoids(goal, Endpoint::Goal)?;
        let mut best: Option<RoadmapPath> = None;
        // A point where obstacles touch has one trapezoid per free wedge: try each pair.
        for &ts in &starts {
            for &tg in &goals {
                let mut points = vec![start];
                if ts != tg {
                    let Some(nodes) = self
                        .roadmap
                        .search(self.centre_node[ts as usize], self.centre_node[tg as usize])
                    else {
                        continue;
                    };
                    points.extend(nodes.iter().map(|&n| self.roadmap.points[n as usize]));
                }
                points.push(goal);
                points.dedup();
                let length = points.windows(2).map(|w| w[0].distance(w[1])).sum();
                if best.as_ref().is_none_or(|b| length < b.length) {
                    best = Some(RoadmapPath { points, length });
                }
            }
        }
        best.ok_or(QueryError::NoPath { start, goal })
    }
}
