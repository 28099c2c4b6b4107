//! What an obstacle is: a point, a polyline or a polygon ([`Obstacle`]), named by a
//! stable [`ObstacleId`].

use crate::{Aabb, Point, Polygon, Ring};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use std::fmt;

/// A stable obstacle id: never reused within one [`Environment`](crate::Environment).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct ObstacleId(pub u32);

impl fmt::Display for ObstacleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Something characters cannot pass through.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Obstacle {
    /// A single point (a pillar of zero width).
    Point(Point),
    /// An open polyline of one or more segments (a fence, a thin wall).
    Polyline(Vec<Point>),
    /// A solid polygon, possibly concave, possibly with holes (free pockets inside).
    Polygon(Polygon),
}

impl Obstacle {
    /// A segment from `a` to `b`.
    pub fn segment(a: Point, b: Point) -> Self {
        Obstacle::Polyline(vec![a, b])
    }

    /// A polygon without holes through `vertices`.
    pub fn polygon(vertices: Vec<Point>) -> Self {
        Obstacle::Polygon(Polygon::simple(Ring::new(vertices)))
    }

    /// An axis-aligned rectangle.
    pub fn rectangle(min: Point, max: Point) -> Self {
        Obstacle::polygon(Aabb::new(min, max).corners().to_vec())
    }

    /// The obstacle with every coordinate passed through `f` (a move, a rotation).
    ///
    /// ```
    /// use corridor_geom::{Obstacle, Point};
    /// let fence = Obstacle::segment(Point::new(0.0, 0.0), Point::new(2.0, 0.0));
    /// let moved = fence.mapped(|p| p + Point::new(1.0, 3.0));
    /// assert_eq!(moved, Obstacle::segment(Point::new(1.0, 3.0), Point::new(3.0, 3.0)));
    /// ```
    pub fn mapped(&self, f: impl Fn(Point) -> Point) -> Obstacle {
        let ring = |r: &Ring| Ring::new(r.vertices().iter().map(|p| f(*p)).collect());
        match self {
            Obstacle::Point(p) => Obstacle::Point(f(*p)),
            Obstacle::Polyline(v) => Obstacle::Polyline(v.iter().map(|p| f(*p)).collect()),
            Obstacle::Polygon(poly) => Obstacle::Polygon(Polygon {
                exterior: ring(&poly.exterior),
                holes: poly.holes.iter().map(ring).collect(),
            }),
        }
    }

    /// The obstacle shifted by `offset`.
    pub fn translated(&self, offset: Point) -> Obstacle {
        self.mapped(|p| p + offset)
    }

    /// All coordinates of the obstacle.
    pub fn points(&self) -> impl Iterator<Item = Point> + Clone + '_ {
        // One iterator type for every kind, so that no box is allocated: validation
        // walks the points of every obstacle several times.
        let (single, line, exterior, holes): (Option<Point>, &[Point], &[Point], &[Ring]) =
            match self {
                Obstacle::Point(p) => (Some(*p), &[], &[], &[]),
                Obstacle::Polyline(v) => (None, v, &[], &[]),
                Obstacle::Polygon(poly) => (None, &[], poly.exterior.vertices(), &poly.holes),
            };
        single
            .into_iter()
            .chain(line.iter().copied())
            .chain(exterior.iter().copied())
            .chain(holes.iter().flat_map(|r| r.vertices().iter().copied()))
    }

    /// Bounding box.
    pub fn aabb(&self) -> Option<Aabb> {
        Aabb::from_points(self.points())
    }

    /// Short name of the kind, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Obstacle::Point(_) => "point",
            Obstacle::Polyline(_) => "polyline",
            Obstacle::Polygon(_) => "polygon",
        }
    }
}
