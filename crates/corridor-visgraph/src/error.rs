//! What can go wrong, as typed errors that name the obstacle or the query.

use corridor_geom::FreeSpaceError;
use corridor_geom::{EnvironmentError, Point, Segment};

/// Why the free space (and so the graph) could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BuildError {
    /// The environment failed validation.
    #[error(transparent)]
    Environment(#[from] EnvironmentError),
    /// Normalization (the union of overlapping obstacles) failed.
    #[error(transparent)]
    Normalize(#[from] corridor_geom::NormalizeError),
    /// Two walls cross at a point that is not an endpoint of both: obstacles overlap or a
    /// thin wall cuts through an obstacle.
    #[error("walls {first:?} and {second:?} cross; obstacles must be interior-disjoint")]
    Crossing {
        /// One wall.
        first: Segment,
        /// The other wall.
        second: Segment,
    },
    /// Two obstacle edges lie on top of each other with the obstacles on the same side:
    /// the obstacles overlap.
    #[error("obstacles overlap along {segment:?}")]
    Overlap {
        /// The shared piece of boundary.
        segment: Segment,
    },
    /// The free space does not alternate with the obstacles around a boundary point
    /// (nested or overlapping obstacles).
    #[error("the boundary of the free space is inconsistent at ({}, {})", point.x, point.y)]
    Inconsistent {
        /// Where.
        point: Point,
    },
}

/// Why a shortest-path query has no answer (the free space's query error, shared with
/// the trapezoidal map).
pub use corridor_geom::PathQueryError as QueryError;

/// The free space's errors are the graph's build errors of the same name.
impl From<FreeSpaceError> for BuildError {
    fn from(e: FreeSpaceError) -> Self {
        match e {
            FreeSpaceError::Environment(e) => BuildError::Environment(e),
            FreeSpaceError::Normalize(e) => BuildError::Normalize(e),
            FreeSpaceError::Crossing { first, second } => BuildError::Crossing { first, second },
            FreeSpaceError::Overlap { segment } => BuildError::Overlap { segment },
            FreeSpaceError::Inconsistent { point } => BuildError::Inconsistent { point },
        }
    }
}
