//! What does a disk's shortest path look like? Tangent segments and arcs of radius r
//! around corners, with its exact length and a sampled polyline for drawing.

use corridor_geom::{Point, Segment};

/// An arc of a shortest path: part of the circle of radius `radius` around an obstacle
/// corner, which the disk's centre follows while the disk rolls around the corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiskArc {
    /// The corner.
    pub centre: Point,
    /// The disk's radius.
    pub radius: f64,
    /// Angle (radians, from +x) of the arc's first point around the centre.
    pub start_angle: f64,
    /// Signed angle swept (positive counter-clockwise, negative clockwise).
    pub sweep: f64,
}

impl DiskArc {
    /// The arc's length, `radius · |sweep|`.
    pub fn length(&self) -> f64 {
        self.radius * self.sweep.abs()
    }

    /// The point at fraction `t` (0 to 1) of the arc.
    pub fn point_at(&self, t: f64) -> Point {
        let a = self.start_angle + self.sweep * t;
        self.centre + Point::new(a.cos(), a.sin()) * self.radius
    }
}

/// One piece of a disk's path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DiskPiece {
    /// A straight piece (tangent to the arcs at its ends).
    Segment(Segment),
    /// A piece around a corner.
    Arc(DiskArc),
}

/// The shortest path of a disk's centre: segments and arcs, alternating (an arc may be
/// missing between two segments where the path only touches a circle).
///
/// ```
/// use corridor_geom::{Environment, Obstacle, Point};
/// use corridor_visgraph::DiskVisibilityGraph;
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
/// env.insert(Obstacle::rectangle(Point::new(4.0, 0.0), Point::new(6.0, 6.0)));
/// let graph = DiskVisibilityGraph::build(&env, 1.0).unwrap();
/// let path = graph.shortest_path(Point::new(1.0, 1.0), Point::new(9.0, 1.0)).unwrap();
/// assert_eq!(path.arcs().count(), 2); // around the wall's two top corners
/// let drawn = path.sampled(0.1);
/// assert_eq!(drawn.first(), Some(&Point::new(1.0, 1.0)));
/// assert_eq!(drawn.last(), Some(&Point::new(9.0, 1.0)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct DiskPath {
    /// The pieces from start to goal (empty when start and goal coincide).
    pub pieces: Vec<DiskPiece>,
    /// The total length: segments plus `radius · angle` for the arcs.
    pub length: f64,
    /// Start.
    pub start: Point,
    /// Goal.
    pub goal: Point,
}

impl DiskPath {
    /// The polyline of the path's touching points: start, the ends of every piece, goal
    /// (consecutive points on one circle are joined by an arc, see [`DiskPath::arcs`]).
    pub fn points(&self) -> Vec<Point> {
        let mut out = vec![self.start];
        for piece in &self.pieces {
            let end = match piece {
                DiskPiece::Segment(s) => s.b,
                DiskPiece::Arc(a) => a.point_at(1.0),
            };
            out.push(end);
        }
        if out.last() != Some(&self.goal) {
            out.push(self.goal);
        }
        out
    }

    /// The arcs, in order.
    pub fn arcs(&self) -> impl Iterator<Item = &DiskArc> + '_ {
        self.pieces.iter().filter_map(|p| match p {
            DiskPiece::Arc(a) => Some(a),
            DiskPiece::Segment(_) => None,
        })
    }

    /// The path as a polyline for drawing: arcs replaced by chords at most `step` long
    /// (the chords' points lie on the arcs).
    pub fn sampled(&self, step: f64) -> Vec<Point> {
        let mut out = vec![self.start];
        for piece in &self.pieces {
            match piece {
                DiskPiece::Segment(s) => out.push(s.b),
                DiskPiece::Arc(a) => {
                    let n = if step > 0.0 {
                        ((a.length() / step).ceil() as usize).clamp(1, 10_000)
                    } else {
                        1
                    };
                    out.extend((1..=n).map(|i| a.point_at(i as f64 / n as f64)));
                }
            }
        }
        if out.last() != Some(&self.goal) {
            out.push(self.goal);
        }
        out
    }
}
