//! Exact transforms of the integer grid, used to rebuild an input whose Voronoi diagram
//! failed validation: the diagram library's rounding depends on the coordinates, the
//! geometry does not.

use corridor_geom::{GridPoint, Point, SnapGrid, WallSegment, Walls};
use serde::{Deserialize, Serialize};

/// An exact, invertible map of the integer grid onto itself.
///
/// Rotations by multiples of 90°, mirrors and integer shifts map grid points to grid
/// points without rounding, so the medial axis of the transformed walls, mapped back,
/// is the medial axis of the original walls.
///
/// ```
/// use corridor_ecm::Transform;
/// use corridor_geom::GridPoint;
/// let t = Transform::Rotate90;
/// let p = t.apply(GridPoint::new(3, 1)).unwrap();
/// assert_eq!(p, GridPoint::new(-1, 3));
/// let back = t.invert_point(corridor_geom::Point::new(p.x as f64, p.y as f64));
/// assert_eq!(back, corridor_geom::Point::new(3.0, 1.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Transform {
    /// No change.
    Identity,
    /// Counter-clockwise by 90°: `(x, y) → (−y, x)`.
    Rotate90,
    /// By 180°: `(x, y) → (−x, −y)`.
    Rotate180,
    /// Counter-clockwise by 270°: `(x, y) → (y, −x)`.
    Rotate270,
    /// Mirror in the y axis: `(x, y) → (−x, y)`.
    MirrorX,
    /// Mirror in the diagonal: `(x, y) → (y, x)`.
    Transpose,
    /// Integer shift: `(x, y) → (x + dx, y + dy)`.
    Shift {
        /// Added to x.
        dx: i32,
        /// Added to y.
        dy: i32,
    },
}

impl Transform {
    /// The transforms a build tries, in order, until one gives a valid ECM.
    pub const RECOVERY_SEQUENCE: [Transform; 8] = [
        Transform::Identity,
        Transform::Rotate90,
        Transform::Rotate180,
        Transform::Rotate270,
        Transform::MirrorX,
        Transform::Transpose,
        Transform::Shift { dx: 7, dy: 3 },
        Transform::Shift { dx: -5, dy: 11 },
    ];

    /// The image of a grid point, or `None` if it leaves the `i32` range.
    pub fn apply(self, p: GridPoint) -> Option<GridPoint> {
        let (x, y) = (p.x, p.y);
        let (x, y) = match self {
            Transform::Identity => (x, y),
            Transform::Rotate90 => (y.checked_neg()?, x),
            Transform::Rotate180 => (x.checked_neg()?, y.checked_neg()?),
            Transform::Rotate270 => (y, x.checked_neg()?),
            Transform::MirrorX => (x.checked_neg()?, y),
            Transform::Transpose => (y, x),
            Transform::Shift { dx, dy } => (x.checked_add(dx)?, y.checked_add(dy)?),
        };
        Some(GridPoint::new(x, y))
    }

    /// Maps a point of the transformed plane back (exact for rotations and mirrors; for
    /// shifts exact up to the last bit of the `f64`).
    pub fn invert_point(self, p: Point) -> Point {
        let (x, y) = (p.x, p.y);
        let (x, y) = match self {
            Transform::Identity => (x, y),
            Transform::Rotate90 => (y, -x),
            Transform::Rotate180 => (-x, -y),
            Transform::Rotate270 => (-y, x),
            Transform::MirrorX => (-x, y),
            Transform::Transpose => (y, x),
            Transform::Shift { dx, dy } => (x - dx as f64, y - dy as f64),
        };
        Point::new(x, y)
    }

    /// Whether the transform reverses orientation (left and right swap).
    pub fn is_reflection(self) -> bool {
        matches!(self, Transform::MirrorX | Transform::Transpose)
    }

    /// The transformed walls (one-sided walls keep free space on their left), or `None`
    /// if a coordinate leaves the `i32` range.
    pub(crate) fn apply_walls(self, walls: &Walls) -> Option<Walls> {
        if self == Transform::Identity {
            return Some(walls.clone());
        }
        let flip = self.is_reflection();
        let segments = walls
            .segments
            .iter()
            .map(|s| {
                let (a, b) = (self.apply(s.a)?, self.apply(s.b)?);
                let (a, b) = if flip { (b, a) } else { (a, b) };
                Some(WallSegment {
                    a,
                    b,
                    two_sided: s.two_sided,
                    sources: s.sources.clone(),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let points = walls
            .points
            .iter()
            .map(|(p, src)| Some((self.apply(*p)?, src.clone())))
            .collect::<Option<Vec<_>>>()?;
        Some(Walls {
            grid: walls.grid,
            segments,
            points,
        })
    }
}

/// Converts a point of the (transformed) grid plane to user coordinates.
pub(crate) fn to_user(t: Transform, grid: SnapGrid, p: Point) -> Point {
    t.invert_point(p) / grid.scale()
}
