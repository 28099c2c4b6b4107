//! What a character is: its disc, its speeds, the room it likes to keep from walls and
//! where it goes; and the handle that names it while the simulation runs.

use corridor_geom::Point;
use serde::{Deserialize, Serialize};

/// A character to add to a [`Simulation`](crate::Simulation).
///
/// ```
/// use corridor_crowd::Character;
/// use corridor_geom::Point;
/// let c = Character::new(Point::new(1.0, 2.0), Point::new(9.0, 2.0), 0.3)
///     .with_speeds(1.3, 1.8)
///     .with_preferred_clearance(0.6);
/// assert_eq!(c.max_speed, 1.8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    /// Where its centre starts.
    pub position: Point,
    /// Where it goes.
    pub goal: Point,
    /// Its radius (positive): it never comes closer to a wall than this.
    pub radius: f64,
    /// The speed it walks at when nothing is in the way.
    #[serde(default = "default_preferred_speed")]
    pub preferred_speed: f64,
    /// The speed it may reach to avoid others.
    #[serde(default = "default_max_speed")]
    pub max_speed: f64,
    /// The distance from walls its indicative route keeps where the corridor allows
    /// (at least the radius).
    #[serde(default)]
    pub preferred_clearance: f64,
}

fn default_preferred_speed() -> f64 {
    1.0
}

fn default_max_speed() -> f64 {
    2.0
}

impl Character {
    /// A character of `radius` walking at 1 m/s (2 m/s at most) from `position` to `goal`.
    pub fn new(position: Point, goal: Point, radius: f64) -> Self {
        Character {
            position,
            goal,
            radius,
            preferred_speed: default_preferred_speed(),
            max_speed: default_max_speed(),
            preferred_clearance: radius,
        }
    }

    /// The same character with other speeds.
    pub fn with_speeds(mut self, preferred: f64, max: f64) -> Self {
        self.preferred_speed = preferred;
        self.max_speed = max;
        self
    }

    /// The same character with a preferred clearance for its indicative route.
    pub fn with_preferred_clearance(mut self, clearance: f64) -> Self {
        self.preferred_clearance = clearance;
        self
    }
}

/// Names a character for as long as it is in the simulation (never reused).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CharacterId(pub u64);

/// Where a character is in its journey.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// On its way.
    Walking,
    /// Within the arrival distance of its goal (it stays there and keeps avoiding).
    Arrived,
    /// No corridor wide enough leads to its goal (for example, a door closed): it waits,
    /// and tries again after the next change of the obstacles.
    Blocked,
}
