//! Why an update is refused ([`UpdateError`]), each error naming the obstacle at fault.

use crate::BuildError;
use corridor_geom::{EnvironmentError, NormalizeError, ObstacleId, Owner};

/// Why an update could not be planned or applied. Every variant names the obstacle.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum UpdateError {
    /// No obstacle has this id.
    #[error("no obstacle with id {0}")]
    UnknownObstacle(ObstacleId),
    /// The obstacle's geometry is invalid (not finite, self-intersecting, off the grid,
    /// outside the boundary, ...).
    #[error("obstacle {id} is invalid: {source}")]
    InvalidObstacle {
        /// The obstacle (for an insertion, the id it would have had).
        id: ObstacleId,
        /// What is wrong with it.
        source: EnvironmentError,
    },
    /// The changed environment could not be normalized into walls.
    #[error(transparent)]
    Normalize(NormalizeError),
    /// The ECM of the changed environment could not be built (for example, no free
    /// space is left).
    #[error(transparent)]
    Build(#[from] BuildError),
    /// The patch was planned for another state of the map (an update was applied
    /// in between); plan it again.
    #[error(
        "the patch was planned for version {patch} of the map, which is now at version {current}"
    )]
    StalePatch {
        /// The version the patch was planned for.
        patch: u64,
        /// The map's version.
        current: u64,
    },
}

impl From<NormalizeError> for UpdateError {
    fn from(e: NormalizeError) -> Self {
        match e {
            NormalizeError::Environment(source) => match owner_of(&source) {
                Some(Owner::Obstacle(id)) => UpdateError::InvalidObstacle { id, source },
                _ => UpdateError::Normalize(NormalizeError::Environment(source)),
            },
            other => UpdateError::Normalize(other),
        }
    }
}

fn owner_of(e: &EnvironmentError) -> Option<Owner> {
    match e {
        EnvironmentError::NonFinite { owner, .. }
        | EnvironmentError::TooFewVertices { owner, .. }
        | EnvironmentError::TooFewPoints { owner, .. }
        | EnvironmentError::SelfIntersecting { owner, .. }
        | EnvironmentError::HoleOutside { owner, .. }
        | EnvironmentError::OutsideBoundary { owner }
        | EnvironmentError::Snap { owner, .. } => Some(*owner),
        EnvironmentError::UnknownObstacle(id) => Some(Owner::Obstacle(*id)),
    }
}
