//! What can go wrong, as typed errors of the trapezoidal map's own: building fails only
//! when the free space cannot be built; a path query names the end that is not free.

use corridor_geom::{Endpoint, FreeSpaceError, ObstacleId, Point};

/// Why the map could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BuildError {
    /// The free space of the environment could not be built: invalid input, or obstacles
    /// that overlap or cross.
    #[error(transparent)]
    FreeSpace(#[from] FreeSpaceError),
}

/// Why a path query has no answer.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum QueryError {
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
