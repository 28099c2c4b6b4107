//! What a game needs in one import: `use corridor::prelude::*;`.
//!
//! The environment and its obstacles, the planners' main types, the one way to ask any
//! of them for a path ([`PathPlanner`]), dynamic updates and the load/save functions.

pub use crate::planner::{FindPathError, PathPlanner, PlannedPath, RadiusGraph};
pub use corridor_asfv::{AsfvOptions, Decomposition};
pub use corridor_ecm::{
    Change, CorridorStep, DynamicEcm, Ecm, Patch, PathQuery, PlanError, Planner,
};
pub use corridor_ecm::{EdgeKind, ViewLimits, VisibilityPolygon};
pub use corridor_geom::{Aabb, Environment, Obstacle, ObstacleId, Point, Polygon, Ring};
pub use corridor_io::scenes::Scene;
pub use corridor_io::{load_environment, read_json, write_json};
pub use corridor_trapmap::TrapezoidalMap;
pub use corridor_visgraph::VisibilityGraph;
