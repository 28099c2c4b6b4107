//! Why a build failed, naming the walls (and so the obstacles) involved.

use corridor_geom::{GridPoint, NormalizeError, Point, WallSource};
use std::fmt;

/// Why [`crate::Ecm::build`] or [`crate::Ecm::from_walls`] failed.
///
/// Every variant names the obstacles (or the boundary) whose walls are at fault, as far
/// as they are known.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BuildError {
    /// The environment could not be normalized into walls (its message names the obstacle).
    #[error(transparent)]
    Normalize(#[from] NormalizeError),
    /// The walls break the contract of [`corridor_geom::Walls`].
    #[error("invalid walls of {}: {problem}", Sources(sources))]
    InvalidWalls {
        /// Where the offending wall came from.
        sources: Vec<WallSource>,
        /// What is wrong.
        problem: WallProblem,
    },
    /// There is no free space: the obstacles cover the whole map (no walls are left).
    #[error("the free space is empty: the obstacles cover the whole map")]
    EmptyFreeSpace,
    /// The free space is not enclosed: the medial axis runs off to infinity.
    #[error(
        "the free space is not enclosed: the medial axis runs to infinity between walls of {}",
        Sources(sources)
    )]
    Unbounded {
        /// The walls on either side of the unbounded part.
        sources: Vec<WallSource>,
    },
    /// Every attempt (the plain build and each exact transform) produced a diagram that
    /// failed validation; no ECM is returned rather than a wrong one.
    #[error("no valid ECM after {attempts} attempts; first failure: {failure}")]
    Unrecoverable {
        /// How many diagrams were built.
        attempts: usize,
        /// The first validation failure.
        failure: ValidationFailure,
    },
}

/// What is wrong with a wall (see [`BuildError::InvalidWalls`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum WallProblem {
    /// A coordinate is beyond ±[`corridor_geom::SnapGrid::MAX_GRID_COORDINATE`].
    #[error("grid point ({}, {}) is outside the grid range", .at.x, .at.y)]
    OutOfRange {
        /// The point.
        at: GridPoint,
    },
    /// A segment starts and ends at the same grid point.
    #[error("zero-length segment at ({}, {})", .at.x, .at.y)]
    ZeroLength {
        /// Where.
        at: GridPoint,
    },
    /// Two segments cross or overlap other than at a shared end point.
    #[error("a segment from ({}, {}) meets a wall of {} other than at a shared end point", .at.x, .at.y, Sources(other))]
    Crossing {
        /// Start of the offending segment.
        at: GridPoint,
        /// Where the other segment came from.
        other: Vec<WallSource>,
    },
    /// An isolated point lies on a segment or on another point.
    #[error("point ({}, {}) lies on another wall", .at.x, .at.y)]
    PointOnWall {
        /// The point.
        at: GridPoint,
    },
    /// One-sided walls meeting at a grid point do not alternate in and out, so the free
    /// space cannot be on the left of all of them.
    #[error("one-sided walls at ({}, {}) do not keep the free space on their left", .at.x, .at.y)]
    Orientation {
        /// The shared end point.
        at: GridPoint,
    },
}

/// A check of the always-on validation layer that failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{kind} at ({}, {}) next to walls of {}", .position.x, .position.y, Sources(sources))]
pub struct ValidationFailure {
    /// What failed.
    pub kind: FailureKind,
    /// Where (user units).
    pub position: Point,
    /// The walls involved (the wall that is too close, or those that should be nearest).
    pub sources: Vec<WallSource>,
}

/// The kinds of [`ValidationFailure`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FailureKind {
    /// The Voronoi library itself returned an error.
    #[error("the Voronoi library failed ({message})")]
    Voronoi {
        /// Its message.
        message: String,
    },
    /// A medial-axis point is not equidistant from its two nearest points.
    #[error("medial-axis point is {left} from its left and {right} from its right nearest point (grid units)")]
    NotEquidistant {
        /// Distance to the left nearest point (grid units).
        left: f64,
        /// Distance to the right nearest point (grid units).
        right: f64,
    },
    /// A wall is closer to a medial-axis point than its clearance.
    #[error("a wall is {distance} from a medial-axis point of clearance {clearance} (grid units)")]
    CloserWall {
        /// The clearance (grid units).
        clearance: f64,
        /// The distance of the closer wall (grid units).
        distance: f64,
    },
    /// A cell piece is turned inside out.
    #[error("an ECM cell piece has negative area {area} (grid units²)")]
    InvertedCell {
        /// Its signed area.
        area: f64,
    },
    /// The cells do not add up to the free area.
    #[error("the ECM cells cover {cells} but the free space is {free} (grid units²)")]
    AreaMismatch {
        /// Sum of the cell areas.
        cells: f64,
        /// Free area from the walls.
        free: f64,
    },
    /// A vertex has degree 2 without being alone on a loop, or degree 0.
    #[error("an ECM vertex has degree {degree}")]
    Degree {
        /// Its degree.
        degree: usize,
    },
    /// The free space is not enclosed (seen on this attempt).
    #[error("the medial axis runs to infinity")]
    Unbounded,
}

/// Formats a list of wall sources as "the boundary", "obstacle #3", "obstacles #3, #5" etc.
pub(crate) struct Sources<'a>(pub &'a [WallSource]);

impl fmt::Display for Sources<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sources = self.0.to_vec();
        sources.sort();
        sources.dedup();
        if sources.is_empty() {
            return write!(f, "no known obstacle");
        }
        let boundary = sources.contains(&WallSource::Boundary);
        let ids: Vec<String> = sources
            .iter()
            .filter_map(|s| match s {
                WallSource::Obstacle(id) => Some(id.to_string()),
                WallSource::Boundary => None,
            })
            .collect();
        if boundary {
            write!(f, "the boundary")?;
            if !ids.is_empty() {
                write!(f, " and ")?;
            }
        }
        match ids.len() {
            0 => Ok(()),
            1 => write!(f, "obstacle {}", ids[0]),
            _ => write!(f, "obstacles {}", ids.join(", ")),
        }
    }
}
