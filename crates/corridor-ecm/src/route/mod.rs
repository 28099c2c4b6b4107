//! Paths for disk-shaped characters of any radius: the query and its answer, the
//! planner, the taut-length search that chooses the corridor, and the layouts of the
//! medial axis they search.
//!
//! # Touching is fitting
//! A disk of radius `r` fits wherever the clearance is at least `r`: it may touch walls
//! (at `r = 0.5` the cell centres of a 1-wide grid corridor have clearance exactly 0.5,
//! and the corridor is passable). Clearances are computed from coordinates rounded to
//! the snap grid and back, so the rule is applied with a tolerance of
//! [`FIT_TOLERANCE_STEPS`] grid steps: the planner works with the *fitting radius*
//! `r − ε` (ε that many grid steps, never below 0) everywhere it compares a clearance
//! with the radius: the start and goal checks after point location, the A* and
//! taut-length searches' edge and vertex admissibility (`min_clearance`, bending-point
//! clearances), the corridor's portals (their keep-out disks and points), the funnel
//! and the final clearance check of the path. One radius for all of them means a
//! corridor the search admits is one the funnel can pass and the check accepts; a path
//! keeps clearance at least `r − ε` from every wall.
//!
//! "Every wall" means the walls of the ECM: the environment snapped to its grid. Inputs
//! whose coordinates are not on the grid (the city scene, random environments) move by
//! up to √2/2 grid steps when snapped (7.1·10⁻⁵ units at the default scale), and a path
//! can come that much closer to the walls as given (the radius oracle measured 8·10⁻⁶
//! and 4.4·10⁻⁵ below `r`); inputs on the grid (grid maps) lose nothing. A finer
//! [`SnapGrid`](corridor_geom::SnapGrid) scale shrinks the allowance.
//!
//! # Fallbacks are reported
//! When the funnel's path through the chosen corridor fails the final clearance check
//! (and neither the corridor's end portals put back or left out, nor the funnel run from
//! the goal, pass), the planner returns the medial route pulled taut. It keeps the
//! radius but may be longer; [`CorridorPath::fallback`] says so.

mod adjacency;
mod clearance;
mod corridor;
mod dominance;
mod ends;
mod funnel;
mod gate;
mod indicative;
mod path;
mod planner;
mod scratch;
mod search_graph;
mod taut;

pub use path::{CorridorPath, CorridorStep, Fallback, PathQuery, PlanError};
pub use planner::Planner;

/// The tolerance of the rule "a disk of radius `r` fits where the clearance is at least
/// `r`", in grid steps (see the module doc): 10⁻³ steps, 10⁻⁷ user units at the default
/// 10 000 steps per unit, far above the rounding of the ECM's coordinates and far below
/// anything a user can see.
pub const FIT_TOLERANCE_STEPS: f64 = 1e-3;

/// The radius the planner works with for a disk of radius `radius`: `radius` less the
/// fit tolerance, never negative.
pub(crate) fn fitting_radius(ecm: &crate::Ecm, radius: f64) -> f64 {
    (radius - FIT_TOLERANCE_STEPS / ecm.grid.scale()).max(0.0)
}
