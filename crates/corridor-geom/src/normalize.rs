//! From user obstacles (overlapping, touching, concave, partly outside, points and
//! segments) to interior-disjoint walls on the integer grid.

use crate::{Environment, EnvironmentError, GridPoint, ObstacleId, SnapGrid};
use serde::{Deserialize, Serialize};

/// Where a wall piece came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum WallSource {
    /// The environment's outer boundary.
    Boundary,
    /// A user obstacle.
    Obstacle(ObstacleId),
}

/// One wall segment on the grid.
///
/// One-sided walls (edges of polygons and of the boundary) have the free space on their
/// left, going from `a` to `b`; two-sided walls (segment obstacles lying in free space)
/// have free space on both sides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WallSegment {
    /// Start.
    pub a: GridPoint,
    /// End.
    pub b: GridPoint,
    /// Whether free space lies on both sides.
    pub two_sided: bool,
    /// The boundary and/or obstacles this piece lies on (sorted, at least one).
    pub sources: Vec<WallSource>,
}

/// Walls on the grid: what the Voronoi-based planners see.
///
/// Guarantees: no zero-length segments, no duplicates, no two segments cross or overlap
/// except at shared endpoints, no point lies on a segment or coincides with another
/// point or with a segment endpoint.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Walls {
    /// The grid the coordinates live on.
    pub grid: SnapGrid,
    /// Wall segments.
    pub segments: Vec<WallSegment>,
    /// Isolated point obstacles in free space, with where they came from.
    pub points: Vec<(GridPoint, Vec<WallSource>)>,
    /// The free space as polygons on the grid (boundary minus the union of polygon
    /// obstacles; segments and points take no area): each shape's first contour is its
    /// outer boundary (counter-clockwise), the rest are holes (clockwise).
    pub free_space: Vec<Vec<Vec<GridPoint>>>,
}

/// Why normalization failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NormalizeError {
    /// The environment is invalid.
    #[error(transparent)]
    Environment(#[from] EnvironmentError),
}

/// Normalizes an environment into [`Walls`] on its snap grid.
pub fn normalize(env: &Environment) -> Result<Walls, NormalizeError> {
    env.validate()?;
    let _ = env.snap_grid();
    todo!("normalization")
}
