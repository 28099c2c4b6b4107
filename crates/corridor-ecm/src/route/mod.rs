//! Paths for disk-shaped characters of any radius: the query and its answer, the
//! planner, the taut-length search that chooses the corridor, and the layouts of the
//! medial axis they search.

mod adjacency;
mod corridor;
mod funnel;
mod gate;
mod path;
mod planner;
mod scratch;
mod search_graph;
mod taut;

pub use path::{CorridorPath, CorridorStep, PathQuery, PlanError};
pub use planner::Planner;
