//! Crowd simulation on the Explicit Corridor Map: many heterogeneous characters follow
//! indicative routes, avoid each other with ORCA and never enter a wall, on a map whose
//! obstacles change while they walk.
//!
//! The loop has the levels of van Toll et al. (SoCG 2016, §4–5): a **global route** per
//! character (an ECM path for its radius, with its indicative route keeping the
//! preferred clearance), **route following** (an attraction point a little ahead on the
//! route; a character that strays too far, or whose corridor an obstacle change
//! touched, plans again), **local avoidance** (Optimal Reciprocal Collision Avoidance
//! between characters, van den Berg et al. 2009, see [`orca`]; a half-plane from the
//! ECM's nearest wall point) and **integration** with a fixed time step and substeps,
//! which pushes a disc back out of any wall it entered, so clearance never drops below
//! the radius.
//!
//! Characters are stored as one array per attribute ([`Crowd`]); neighbours come from a
//! grid rebuilt every substep ([`NeighbourGrid`]); every pass runs on a rayon pool of the
//! chosen size and writes into separate buffers, so a run gives the same trajectories
//! for any thread count. Obstacle changes go through [`corridor_ecm::DynamicEcm`]:
//! planned beside a step, applied between steps.
//!
//! Scenarios (RVO2's Circle and Blocks, scaled circles, crossing groups, the dungeon's
//! evacuation, a door closing in the city) are built in and load from versioned JSON
//! ([`Scenario`]).
//!
//! ```
//! use corridor_crowd::{Scenario, ScenarioKind};
//! // Two groups of 10 walk head-on through a corridor 100 m long.
//! let mut run = Scenario::builtin(ScenarioKind::Crossing, Some(20))?.start(1)?;
//! while !run.all_arrived() && run.sim.stats().steps < 1000 {
//!     run.step()?;
//! }
//! assert!(run.all_arrived());
//! assert!(run.sim.stats().min_wall_gap >= 0.0); // nobody touched a wall
//! # Ok::<(), corridor_crowd::CrowdError>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

mod character;
mod crowd;
mod error;
mod grid;
mod lists;
mod moves;
mod options;
pub mod orca;
mod route;
mod scenario;
mod share;
mod sim;
mod stats;
mod walls;

pub use character::{Character, CharacterId, Phase};
pub use crowd::Crowd;
pub use error::CrowdError;
pub use grid::NeighbourGrid;
pub use lists::NeighbourLists;
pub use options::{Avoidance, Options};
pub use route::Route;
pub use scenario::{Event, Run, Scenario, ScenarioKind, SCENARIO_VERSION};
pub use share::share_route;
pub use sim::Simulation;
pub use stats::Stats;
pub use walls::{move_clear, wall_half_plane, MoveOutcome, WallCache};
