//! What can go wrong with a [`FreeSpace`](super::FreeSpace), as typed errors that name
//! the walls or the point: building it, and asking it for a path.

use crate::{Endpoint, EnvironmentError, NormalizeError, ObstacleId, Point, Segment};

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

/// Why a path query over the free space has no answer: an end that is not free, or
/// no path. The visibility graph and the trapezoidal map answer with it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PathQueryError {
    /// A coordinate is NaN or infinite.
    #[error("{endpoint} ({}, {}) is not finite", point.x, point.y)]
    NotFinite {
        /// Start or goal.
        endpoint: Endpoint,
        /// As given.
        point: Point,
    },
    /// The point lies outside the environment's boundary.
    #[error("{endpoint} ({}, {}) lies outside the boundary", point.x, point.y)]
    OutsideBoundary {
        /// Start or goal.
        endpoint: Endpoint,
        /// As given.
        point: Point,
    },
    /// The point lies inside an obstacle (or between obstacles that touch all round it).
    #[error("{endpoint} ({}, {}) lies inside {}", point.x, point.y,
        obstacle.map_or("an obstacle".to_string(), |id| format!("obstacle {id}")))]
    InsideObstacle {
        /// Start or goal.
        endpoint: Endpoint,
        /// As given.
        point: Point,
        /// An obstacle of the blocked region around the point, when known.
        obstacle: Option<ObstacleId>,
    },
    /// Start and goal lie in different connected parts of the free space.
    #[error("no path from ({}, {}) to ({}, {})", start.x, start.y, goal.x, goal.y)]
    NoPath {
        /// The start.
        start: Point,
        /// The goal.
        goal: Point,
    },
}
