use crate::Point;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// An axis-aligned box, closed on all sides.
///
/// ```
/// use corridor_geom::{Aabb, Point};
/// let b = Aabb::from_points([Point::new(1.0, 2.0), Point::new(-1.0, 5.0)]).unwrap();
/// assert_eq!(b.min, Point::new(-1.0, 2.0));
/// assert!(b.contains(Point::new(0.0, 3.0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Aabb {
    /// Lower-left corner.
    pub min: Point,
    /// Upper-right corner.
    pub max: Point,
}

impl Aabb {
    /// The box with the given corners (they are sorted per axis).
    pub fn new(a: Point, b: Point) -> Self {
        Aabb {
            min: a.min(b),
            max: a.max(b),
        }
    }

    /// The smallest box containing all points, or `None` for no points.
    pub fn from_points(points: impl IntoIterator<Item = Point>) -> Option<Self> {
        let mut it = points.into_iter();
        let first = it.next()?;
        Some(it.fold(
            Aabb {
                min: first,
                max: first,
            },
            |b, p| b.including(p),
        ))
    }

    /// This box grown to contain `p`.
    pub fn including(self, p: Point) -> Self {
        Aabb {
            min: self.min.min(p),
            max: self.max.max(p),
        }
    }

    /// The smallest box containing both boxes.
    pub fn union(self, other: Aabb) -> Self {
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// Whether `p` lies inside or on the border.
    pub fn contains(&self, p: Point) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }

    /// Whether the two closed boxes share at least one point.
    pub fn intersects(&self, other: &Aabb) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }

    /// Width and height.
    pub fn size(&self) -> Point {
        self.max - self.min
    }

    /// The box grown by `margin` on every side.
    pub fn expanded(&self, margin: f64) -> Self {
        Aabb {
            min: self.min - Point::splat(margin),
            max: self.max + Point::splat(margin),
        }
    }

    /// The four corners, counter-clockwise from `min`.
    pub fn corners(&self) -> [Point; 4] {
        [
            self.min,
            Point::new(self.max.x, self.min.y),
            self.max,
            Point::new(self.min.x, self.max.y),
        ]
    }
}
