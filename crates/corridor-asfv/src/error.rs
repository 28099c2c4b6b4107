//! What can go wrong, as typed errors.

use corridor_geom::{EnvironmentError, ObstacleId, Point};

/// Errors of building, repairing and querying a decomposition. Bad input gives one of
/// these, never a panic.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AsfvError {
    /// A parameter is out of range.
    #[error("parameter {name} = {value}: {reason}")]
    InvalidParameter {
        /// The field of [`crate::AsfvOptions`].
        name: &'static str,
        /// Its value.
        value: f64,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The environment (or an obstacle being inserted) is invalid.
    #[error(transparent)]
    Environment(#[from] EnvironmentError),
    /// The first seed lattice alone would hold more seeds than the limit: the
    /// environment is too large for these parameters (raise `seed_spacing`).
    #[error("the environment holds about {seeds:.0} seeds at seed_spacing {spacing}; the limit is {limit}")]
    TooLarge {
        /// Seeds on the first lattice (bounding box area / spacing²).
        seeds: f64,
        /// The spacing used.
        spacing: f64,
        /// The largest allowed.
        limit: f64,
    },
    /// No obstacle has this id.
    #[error("no obstacle with id {0}")]
    UnknownObstacle(ObstacleId),
    /// A query point is NaN or infinite.
    #[error("{which} ({x}, {y}) is not finite")]
    NonFinitePoint {
        /// `"start"` or `"goal"`.
        which: &'static str,
        /// x as given.
        x: f64,
        /// y as given.
        y: f64,
    },
    /// A query point lies in no region: inside an obstacle, outside the boundary, or in
    /// a sliver of free space too thin for a region.
    #[error("{which} ({}, {}) lies in no region of the decomposition", point.x, point.y)]
    NotCovered {
        /// `"start"` or `"goal"`.
        which: &'static str,
        /// The point.
        point: Point,
    },
    /// Start and goal lie in regions that the connectivity graph does not join.
    #[error("no path: the regions of start and goal are not connected")]
    NoPath,
}
