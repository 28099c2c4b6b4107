//! A wall by its geometry ([`WallKey`]): what the ECM is built from, ordered, hashed and
//! boxed for the indexes of a [`WallMap`](super::WallMap).

use crate::spatial::corner;
use crate::{GridPoint, Walls};
use rstar::AABB;

/// A wall by its geometry (grid coordinates), without its sources: what the ECM is built
/// from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WallKey {
    /// A segment from `a` to `b`: free space on its left when one-sided; `a < b` when
    /// two-sided.
    Segment {
        /// Start.
        a: GridPoint,
        /// End.
        b: GridPoint,
        /// Whether free space lies on both sides.
        two_sided: bool,
    },
    /// An isolated point obstacle.
    Point(GridPoint),
}

impl WallKey {
    /// All walls of `walls` as keys.
    ///
    /// ```
    /// use corridor_geom::{normalize, Environment, Obstacle, Point, WallKey};
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(4.0, 4.0));
    /// env.insert(Obstacle::Point(Point::new(1.0, 1.0)));
    /// let walls = normalize(&env).unwrap();
    /// assert_eq!(WallKey::all(&walls).count(), 5);
    /// ```
    pub fn all(walls: &Walls) -> impl Iterator<Item = WallKey> + '_ {
        walls
            .segments
            .iter()
            .map(|s| WallKey::Segment {
                a: s.a,
                b: s.b,
                two_sided: s.two_sided,
            })
            .chain(walls.points.iter().map(|(p, _)| WallKey::Point(*p)))
    }

    /// The two ends (twice the point for a point).
    pub fn ends(self) -> (GridPoint, GridPoint) {
        match self {
            WallKey::Segment { a, b, .. } => (a, b),
            WallKey::Point(p) => (p, p),
        }
    }

    /// Whether this is a one-sided segment (an edge of the free space).
    pub fn is_one_sided(self) -> bool {
        matches!(
            self,
            WallKey::Segment {
                two_sided: false,
                ..
            }
        )
    }

    /// Its share of twice the free area (grid units², exact): the cross product of its
    /// ends for a one-sided wall, zero otherwise.
    pub fn twice_area_share(self) -> i128 {
        match self {
            WallKey::Segment {
                a,
                b,
                two_sided: false,
            } => a.x as i128 * b.y as i128 - b.x as i128 * a.y as i128,
            _ => 0,
        }
    }

    pub(super) fn envelope(self) -> AABB<[i64; 2]> {
        let (a, b) = self.ends();
        AABB::from_corners(corner(a), corner(b))
    }

    pub(super) fn extent(self) -> u32 {
        let (a, b) = self.ends();
        [a, b]
            .iter()
            .map(|p| p.x.unsigned_abs().max(p.y.unsigned_abs()))
            .max()
            .unwrap_or(0)
    }
}
