//! The environment a user describes: an outer boundary and obstacles with stable ids.
//! What an obstacle is (`obstacle`), what can be wrong (`error`) and the checks the
//! planners rely on (`validate`) live below.

mod error;
mod obstacle;
mod validate;

pub use error::{EnvironmentError, Owner};
pub use obstacle::{Obstacle, ObstacleId};

use crate::{Aabb, Point, Ring, SnapGrid};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A 2D world: the outer boundary (any simple polygon) and obstacles with stable ids.
///
/// Obstacles may overlap, touch, stick out of the boundary or be points and polylines;
/// [`crate::normalize`] turns them into interior-disjoint walls.
///
/// ```
/// use corridor_geom::{Environment, Obstacle, Point};
/// let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
/// let crate_id = env.insert(Obstacle::rectangle(Point::new(2.0, 2.0), Point::new(3.0, 3.0)));
/// let pillar = env.insert(Obstacle::Point(Point::new(7.0, 7.0)));
/// assert_ne!(crate_id, pillar);
/// env.validate().unwrap();
/// assert!(env.remove(crate_id).is_some());
/// assert_eq!(env.obstacles().count(), 1);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Environment {
    boundary: Ring,
    obstacles: BTreeMap<ObstacleId, Obstacle>,
    next_id: u32,
    snap: SnapGrid,
}

impl Environment {
    /// An environment bounded by `boundary` with no obstacles and the default snap grid.
    pub fn new(boundary: Ring) -> Self {
        Environment {
            boundary,
            obstacles: BTreeMap::new(),
            next_id: 0,
            snap: SnapGrid::default(),
        }
    }

    /// An environment bounded by the rectangle with corners `min` and `max`.
    pub fn rectangle(min: Point, max: Point) -> Self {
        Environment::new(Ring::new(Aabb::new(min, max).corners().to_vec()))
    }

    /// The same environment on another snap grid.
    pub fn with_snap_grid(mut self, snap: SnapGrid) -> Self {
        self.snap = snap;
        self
    }

    /// The snap grid the planners use for this environment.
    pub fn snap_grid(&self) -> SnapGrid {
        self.snap
    }

    /// The outer boundary.
    pub fn boundary(&self) -> &Ring {
        &self.boundary
    }

    /// Bounding box of the boundary.
    pub fn bounds(&self) -> Aabb {
        self.boundary
            .aabb()
            .unwrap_or(Aabb::new(Point::ZERO, Point::ZERO))
    }

    /// Adds an obstacle and returns its new id, one no other obstacle has.
    ///
    /// ```
    /// use corridor_geom::{Environment, Obstacle, ObstacleId, Point};
    /// let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
    /// let a = env.insert(Obstacle::Point(Point::new(1.0, 1.0)));
    /// let b = env.insert(Obstacle::Point(Point::new(2.0, 2.0)));
    /// assert_ne!(a, b);
    /// // Even after a reader used the very last id, nothing is overwritten.
    /// env.insert_with_id(ObstacleId(u32::MAX), Obstacle::Point(Point::new(3.0, 3.0)));
    /// let c = env.insert(Obstacle::Point(Point::new(4.0, 4.0)));
    /// assert_eq!(env.obstacles().len(), 4);
    /// assert!(![a, b, ObstacleId(u32::MAX)].contains(&c));
    /// ```
    pub fn insert(&mut self, obstacle: Obstacle) -> ObstacleId {
        let id = self.fresh_id();
        self.next_id = self.next_id.max(id.0.saturating_add(1));
        self.obstacles.insert(id, obstacle);
        id
    }

    /// The counter's id, unless it is taken: that happens only once `u32::MAX` was
    /// given to [`Environment::insert_with_id`] (the counter saturates there), and then
    /// the smallest free id is used. One always exists: 2^32 obstacles do not fit in memory.
    fn fresh_id(&self) -> ObstacleId {
        if !self.obstacles.contains_key(&ObstacleId(self.next_id)) {
            return ObstacleId(self.next_id);
        }
        let mut free = 0;
        for id in self.obstacles.keys() {
            if id.0 != free {
                break;
            }
            free += 1;
        }
        ObstacleId(free)
    }

    /// Adds an obstacle under a given id (for readers of formats that carry ids).
    /// Later [`Environment::insert`]s pick ids above it. Returns the replaced obstacle.
    pub fn insert_with_id(&mut self, id: ObstacleId, obstacle: Obstacle) -> Option<Obstacle> {
        self.next_id = self.next_id.max(id.0.saturating_add(1));
        self.obstacles.insert(id, obstacle)
    }

    /// Removes an obstacle, returning it.
    pub fn remove(&mut self, id: ObstacleId) -> Option<Obstacle> {
        self.obstacles.remove(&id)
    }

    /// Replaces an obstacle's geometry, keeping its id.
    pub fn replace(
        &mut self,
        id: ObstacleId,
        obstacle: Obstacle,
    ) -> Result<Obstacle, EnvironmentError> {
        match self.obstacles.get_mut(&id) {
            Some(slot) => Ok(std::mem::replace(slot, obstacle)),
            None => Err(EnvironmentError::UnknownObstacle(id)),
        }
    }

    /// The obstacle with this id.
    pub fn obstacle(&self, id: ObstacleId) -> Option<&Obstacle> {
        self.obstacles.get(&id)
    }

    /// All obstacles in id order.
    pub fn obstacles(&self) -> impl ExactSizeIterator<Item = (ObstacleId, &Obstacle)> {
        self.obstacles.iter().map(|(id, o)| (*id, o))
    }

    /// The id counter: the id the next [`Environment::insert`] will return, unless that
    /// id is taken (only after [`Environment::insert_with_id`] with `u32::MAX`).
    pub fn next_id(&self) -> ObstacleId {
        ObstacleId(self.next_id)
    }

    /// Total number of obstacle vertices (points count as one).
    pub fn vertex_count(&self) -> usize {
        self.obstacles.values().map(|o| o.points().count()).sum()
    }
}
