//! What a caller can ask of a [`DynamicEcm`](crate::DynamicEcm): insert, remove or move
//! one obstacle ([`Change`]).

use super::UpdateError;
use corridor_geom::{Environment, Obstacle, ObstacleId};

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

impl Change {
    /// Makes the change in `env` if it is valid there (the obstacle's geometry against the
    /// boundary, the id known), leaving `env` as it was otherwise, and returns the
    /// obstacle's id (the new one for an insertion): how a caller that queues changes
    /// for later (a crowd applies them between steps) checks each one as it comes.
    ///
    /// ```
    /// use corridor_ecm::{Change, UpdateError};
    /// use corridor_geom::{Environment, Obstacle, ObstacleId, Point};
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
    /// let crate_ = Obstacle::rectangle(Point::new(4.0, 4.0), Point::new(6.0, 6.0));
    /// let id = Change::Insert(crate_).apply_to(&mut env)?;
    /// assert_eq!(env.obstacles().count(), 1);
    /// let broken = Obstacle::Point(Point::new(f64::NAN, 5.0));
    /// let moved = Change::Move { id, obstacle: broken }.apply_to(&mut env);
    /// assert!(matches!(moved, Err(UpdateError::InvalidObstacle { .. })));
    /// assert_eq!(env.obstacles().count(), 1); // left as it was
    /// assert_eq!(
    ///     Change::Remove(ObstacleId(7)).apply_to(&mut env),
    ///     Err(UpdateError::UnknownObstacle(ObstacleId(7)))
    /// );
    /// # Ok::<(), UpdateError>(())
    /// ```
    pub fn apply_to(&self, env: &mut Environment) -> Result<ObstacleId, UpdateError> {
        let invalid = |id, source| UpdateError::InvalidObstacle { id, source };
        match self {
            Change::Insert(obstacle) => {
                env.validate_obstacle_geometry(obstacle)
                    .map_err(|e| invalid(env.next_id(), e))?;
                Ok(env.insert(obstacle.clone()))
            }
            Change::Move { id, obstacle } => {
                env.obstacle(*id).ok_or(UpdateError::UnknownObstacle(*id))?;
                env.validate_obstacle_geometry(obstacle)
                    .map_err(|e| invalid(*id, e))?;
                env.replace(*id, obstacle.clone())
                    .map_err(|e| invalid(*id, e))?;
                Ok(*id)
            }
            Change::Remove(id) => env
                .remove(*id)
                .map(|_| *id)
                .ok_or(UpdateError::UnknownObstacle(*id)),
        }
    }
}
