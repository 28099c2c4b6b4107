//! Snapping user coordinates to the integer grid the Voronoi-based planners work on.

use crate::Point;
use serde::{Deserialize, Serialize};

/// A point on the integer grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GridPoint {
    /// Grid x.
    pub x: i32,
    /// Grid y.
    pub y: i32,
}

impl GridPoint {
    /// A grid point.
    pub const fn new(x: i32, y: i32) -> Self {
        GridPoint { x, y }
    }
}

/// Why a coordinate could not be snapped.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SnapError {
    /// NaN or infinite coordinate.
    #[error("coordinate ({x}, {y}) is not finite")]
    NonFinite {
        /// x as given.
        x: f64,
        /// y as given.
        y: f64,
    },
    /// The snapped coordinate does not fit the grid's integer range.
    #[error(
        "coordinate ({x}, {y}) is outside the snap range ±{limit} units at {scale} steps per unit"
    )]
    OutOfRange {
        /// x as given.
        x: f64,
        /// y as given.
        y: f64,
        /// The largest absolute coordinate allowed, in user units.
        limit: f64,
        /// Grid steps per unit.
        scale: f64,
    },
    /// The scale itself is not a positive finite number.
    #[error("snap scale {0} is not a positive finite number")]
    BadScale(f64),
}

/// The integer grid: `scale` steps per user unit.
///
/// Coordinates must stay within ±[`SnapGrid::MAX_GRID_COORDINATE`] grid steps, which leaves
/// head-room in `i32` for exact transforms (rotations, shifts) and for the Voronoi
/// library's internal arithmetic.
///
/// ```
/// use corridor_geom::{GridPoint, Point, SnapGrid};
/// let grid = SnapGrid::default();
/// assert_eq!(grid.snap(Point::new(1.5, -0.25)).unwrap(), GridPoint::new(15_000, -2_500));
/// assert_eq!(grid.to_point(GridPoint::new(15_000, -2_500)), Point::new(1.5, -0.25));
/// assert!(grid.snap(Point::new(f64::NAN, 0.0)).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SnapGrid {
    scale: f64,
}

impl Default for SnapGrid {
    fn default() -> Self {
        SnapGrid {
            scale: Self::DEFAULT_SCALE,
        }
    }
}

impl SnapGrid {
    /// Grid steps per user unit unless configured otherwise.
    pub const DEFAULT_SCALE: f64 = 10_000.0;
    /// The largest absolute grid coordinate (2^29).
    pub const MAX_GRID_COORDINATE: i32 = 1 << 29;

    /// A grid of `scale` steps per unit.
    pub fn new(scale: f64) -> Result<Self, SnapError> {
        if scale.is_finite() && scale > 0.0 {
            Ok(SnapGrid { scale })
        } else {
            Err(SnapError::BadScale(scale))
        }
    }

    /// Steps per user unit.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// The largest absolute user coordinate that can be snapped.
    pub fn limit(&self) -> f64 {
        Self::MAX_GRID_COORDINATE as f64 / self.scale
    }

    /// The nearest grid point, or an error for non-finite or out-of-range input.
    pub fn snap(&self, p: Point) -> Result<GridPoint, SnapError> {
        if !p.is_finite() {
            return Err(SnapError::NonFinite { x: p.x, y: p.y });
        }
        let (x, y) = ((p.x * self.scale).round(), (p.y * self.scale).round());
        let max = Self::MAX_GRID_COORDINATE as f64;
        if x.abs() > max || y.abs() > max {
            return Err(SnapError::OutOfRange {
                x: p.x,
                y: p.y,
                limit: self.limit(),
                scale: self.scale,
            });
        }
        Ok(GridPoint::new(x as i32, y as i32))
    }

    /// The user-space position of a grid point.
    pub fn to_point(&self, g: GridPoint) -> Point {
        Point::new(g.x as f64 / self.scale, g.y as f64 / self.scale)
    }

    /// A user-space length in grid steps.
    pub fn to_grid_length(&self, length: f64) -> f64 {
        length * self.scale
    }

    /// A grid length in user units.
    pub fn to_user_length(&self, grid_length: f64) -> f64 {
        grid_length / self.scale
    }
}
