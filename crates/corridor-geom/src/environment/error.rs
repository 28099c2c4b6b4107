//! What can be wrong with an environment ([`EnvironmentError`]), naming the obstacle or
//! the boundary ([`Owner`]).

use super::obstacle::ObstacleId;
use crate::SnapError;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use std::fmt;

/// What is wrong with an environment. Every variant names the obstacle (or the boundary).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EnvironmentError {
    /// A coordinate is NaN or infinite.
    #[error("{owner}: coordinate ({x}, {y}) is not finite")]
    NonFinite {
        /// The obstacle, or the boundary.
        owner: Owner,
        /// x as given.
        x: f64,
        /// y as given.
        y: f64,
    },
    /// A polygon ring has fewer than three distinct vertices.
    #[error("{owner}: ring {ring} has {distinct} distinct vertices, a polygon needs at least 3")]
    TooFewVertices {
        /// The obstacle, or the boundary.
        owner: Owner,
        /// 0 for the exterior, 1.. for holes.
        ring: usize,
        /// How many distinct vertices it has.
        distinct: usize,
    },
    /// A polyline with fewer than two points.
    #[error("{owner}: a polyline needs at least 2 points, it has {count}")]
    TooFewPoints {
        /// The obstacle.
        owner: Owner,
        /// How many it has.
        count: usize,
    },
    /// A ring crosses or touches itself.
    #[error("{owner}: ring {ring} intersects itself: edge {first_edge} meets edge {second_edge}")]
    SelfIntersecting {
        /// The obstacle, or the boundary.
        owner: Owner,
        /// 0 for the exterior, 1.. for holes.
        ring: usize,
        /// Edge `i` runs from vertex `i` to vertex `i + 1`.
        first_edge: usize,
        /// The other edge.
        second_edge: usize,
    },
    /// A hole lies (partly) outside its polygon's exterior.
    #[error("{owner}: hole {hole} is not inside the exterior ring")]
    HoleOutside {
        /// The obstacle.
        owner: Owner,
        /// 1-based hole number.
        hole: usize,
    },
    /// An obstacle lies entirely outside the boundary.
    #[error("{owner}: the obstacle lies entirely outside the boundary")]
    OutsideBoundary {
        /// The obstacle.
        owner: Owner,
    },
    /// A coordinate cannot be snapped to the integer grid.
    #[error("{owner}: {source}")]
    Snap {
        /// The obstacle, or the boundary.
        owner: Owner,
        /// Why.
        source: SnapError,
    },
    /// The environment has no obstacle with this id.
    #[error("no obstacle with id {0}")]
    UnknownObstacle(ObstacleId),
}

/// Who owns a faulty coordinate: an obstacle or the boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Owner {
    /// The outer boundary.
    Boundary,
    /// An obstacle.
    Obstacle(ObstacleId),
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Owner::Boundary => write!(f, "boundary"),
            Owner::Obstacle(id) => write!(f, "obstacle {id}"),
        }
    }
}
