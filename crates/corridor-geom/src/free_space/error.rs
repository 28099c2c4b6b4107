//! Why a [`FreeSpace`](super::FreeSpace) could not be built, as a typed error that names
//! the walls or the point.

use crate::{EnvironmentError, NormalizeError, Point, Segment};

/// Why the free space could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FreeSpaceError {
    /// The environment failed validation.
    #[error(transparent)]
    Environment(#[from] EnvironmentError),
    /// Normalization (the union of overlapping obstacles) failed.
    #[error(transparent)]
    Normalize(#[from] NormalizeError),
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
