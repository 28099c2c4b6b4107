//! Where a character steers: its indicative route (from an ECM path for its radius and
//! preferred clearance) and the attraction point a little ahead of it on that route.

use corridor_ecm::{Ecm, EdgeId};
use corridor_geom::Point;

/// A character's route: the indicative route as a polyline, the ECM edges of its
/// corridor (to notice when an update removes one), and how far along it has come.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Route {
    /// The indicative route, start to goal.
    pub points: Vec<Point>,
    /// The ECM edges the corridor follows.
    pub edges: Vec<EdgeId>,
    /// The segment `points[segment] → points[segment + 1]` being followed.
    pub segment: usize,
}

impl Route {
    /// A straight route (no map involved), as RVO2's examples walk.
    pub fn straight(from: Point, to: Point) -> Self {
        Route {
            points: vec![from, to],
            edges: Vec::new(),
            segment: 0,
        }
    }

    /// Whether every edge of the corridor is still in `ecm` (an update replaces the edges
    /// near a change, so a corridor the change touches loses one).
    pub fn is_valid_in(&self, ecm: &Ecm) -> bool {
        self.edges.iter().all(|&e| ecm.edge(e).is_some())
    }

    /// Moves `segment` forward to the segment nearest `at` among the next few, and
    /// returns the attraction point `ahead` metres beyond `at`'s projection, and the
    /// distance from `at` to the route (see [`Route::look_ahead`]).
    ///
    /// ```
    /// use corridor_crowd::Route;
    /// use corridor_geom::Point;
    /// let mut r = Route {
    ///     points: vec![Point::ZERO, Point::new(10.0, 0.0), Point::new(10.0, 10.0)],
    ///     ..Route::default()
    /// };
    /// let (target, off) = r.attraction_point(Point::new(9.0, 0.5), 3.0);
    /// assert!((target - Point::new(10.0, 2.0)).length() < 1e-9);
    /// assert!((off - 0.5).abs() < 1e-9);
    /// ```
    pub fn attraction_point(&mut self, at: Point, ahead: f64) -> (Point, f64) {
        let (target, off, segment) = self.look_ahead(at, ahead);
        self.segment = segment;
        (target, off)
    }

    /// [`Route::attraction_point`] without moving: the attraction point, the distance to
    /// the route and the segment the character is on.
    #[inline(always)]
    pub fn look_ahead(&self, at: Point, ahead: f64) -> (Point, f64, usize) {
        let last = self.points.len().saturating_sub(1);
        if last == 0 {
            let p = self.points.first().copied().unwrap_or(at);
            return (p, p.distance(at), 0);
        }
        // The nearest point among the current segment and the next three.
        let mut best = (f64::INFINITY, self.segment, 0.0);
        for k in self.segment..(self.segment + 4).min(last) {
            let (a, b) = (self.points[k], self.points[k + 1]);
            let ab = b - a;
            let len_sq = ab.length_squared();
            let t = if len_sq > 0.0 {
                ((at - a).dot(ab) / len_sq).clamp(0.0, 1.0)
            } else {
                1.0
            };
            let d = (a + ab * t).distance_squared(at);
            if d < best.0 {
                best = (d, k, t);
            }
        }
        let (distance_sq, mut k, t) = best;
        let segment = k;
        // Walk `ahead` along the route from the projection.
        let mut from = self.points[k] + (self.points[k + 1] - self.points[k]) * t;
        let mut left = ahead;
        loop {
            let to = self.points[k + 1];
            let length = from.distance(to);
            if length >= left {
                let target = from + (to - from) * (left / length.max(1e-300));
                return (target, distance_sq.sqrt(), segment);
            }
            left -= length;
            k += 1;
            if k == last {
                return (self.points[last], distance_sq.sqrt(), segment);
            }
            from = to;
        }
    }
}
