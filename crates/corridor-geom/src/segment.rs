use crate::{Aabb, Point};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A closed line segment from `a` to `b`.
///
/// ```
/// use corridor_geom::{Point, Segment};
/// let s = Segment::new(Point::new(0.0, 0.0), Point::new(4.0, 0.0));
/// assert_eq!(s.nearest_point(Point::new(1.0, 3.0)), Point::new(1.0, 0.0));
/// assert_eq!(s.distance(Point::new(7.0, 4.0)), 5.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Segment {
    /// Start.
    pub a: Point,
    /// End.
    pub b: Point,
}

impl Segment {
    /// The segment from `a` to `b`.
    pub const fn new(a: Point, b: Point) -> Self {
        Segment { a, b }
    }

    /// Length.
    pub fn length(&self) -> f64 {
        self.a.distance(self.b)
    }

    /// The point of the segment nearest to `p`.
    pub fn nearest_point(&self, p: Point) -> Point {
        let d = self.b - self.a;
        let len2 = d.length_squared();
        if len2 == 0.0 {
            return self.a;
        }
        let t = ((p - self.a).dot(d) / len2).clamp(0.0, 1.0);
        self.a + d * t
    }

    /// Euclidean distance from `p` to the segment.
    pub fn distance(&self, p: Point) -> f64 {
        self.nearest_point(p).distance(p)
    }

    /// Squared distance from `p` to the segment.
    pub fn distance_squared(&self, p: Point) -> f64 {
        self.nearest_point(p).distance_squared(p)
    }

    /// Bounding box.
    pub fn aabb(&self) -> Aabb {
        Aabb::new(self.a, self.b)
    }

    /// Whether the two closed segments share a point (exact).
    pub fn intersects(&self, other: &Segment) -> bool {
        crate::segments_intersect(self.a, self.b, other.a, other.b)
    }

    /// The smallest distance between two segments.
    pub fn distance_to_segment(&self, other: &Segment) -> f64 {
        if self.intersects(other) {
            return 0.0;
        }
        self.distance(other.a)
            .min(self.distance(other.b))
            .min(other.distance(self.a))
            .min(other.distance(self.b))
    }
}
