//! What can go wrong when setting up or changing a simulation.

use corridor_geom::Point;

/// Why a simulation, a character or a scenario is refused.
#[derive(Debug, thiserror::Error)]
pub enum CrowdError {
    /// A character's radius is not positive and finite.
    #[error("character radius {0} must be positive and finite")]
    BadRadius(f64),
    /// A speed is negative or not finite.
    #[error(
        "speeds (preferred {preferred}, max {max}) must be finite, non-negative, preferred ≤ max"
    )]
    BadSpeed {
        /// As given.
        preferred: f64,
        /// As given.
        max: f64,
    },
    /// A position or goal is not finite.
    #[error("point ({}, {}) is not finite", .0.x, .0.y)]
    NotFinite(Point),
    /// A character starts closer to a wall than its radius (or inside an obstacle).
    #[error("character at ({}, {}) with radius {radius} is closer than its radius to a wall", .position.x, .position.y)]
    StartInWall {
        /// Its start.
        position: Point,
        /// Its radius.
        radius: f64,
    },
    /// An option is out of range.
    #[error("option {name} = {value} is out of range: {why}")]
    BadOption {
        /// The option.
        name: &'static str,
        /// Its value.
        value: f64,
        /// The range.
        why: &'static str,
    },
    /// The ECM could not be built or updated.
    #[error("map: {0}")]
    Map(#[from] corridor_ecm::UpdateError),
    /// The worker threads could not be started.
    #[error("thread pool: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// A scenario is malformed.
    #[error("scenario: {0}")]
    Scenario(String),
}
