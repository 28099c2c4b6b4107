//! What a caller can ask of a [`DynamicEcm`](crate::DynamicEcm): insert, remove or move
//! one obstacle ([`Change`]).

use corridor_geom::{Obstacle, ObstacleId};

/// One change of the obstacles of a [`DynamicEcm`](crate::DynamicEcm).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// Add an obstacle; it gets the environment's next id.
    Insert(Obstacle),
    /// Remove the obstacle with this id.
    Remove(ObstacleId),
    /// Replace the geometry of an obstacle, keeping its id.
    Move {
        /// The obstacle.
        id: ObstacleId,
        /// Its new geometry.
        obstacle: Obstacle,
    },
}
