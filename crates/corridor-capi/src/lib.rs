//! The C ABI of Corridor: what a game engine (C, C++, C# through P/Invoke) calls to load
//! a map, plan paths, ask clearance, update obstacles and run a crowd simulation.
//!
//! The conventions (status codes, the thread's last error, ownership, thread safety) are
//! written at the top of the generated header `include/corridor.h`; the C example
//! `examples/demo.c` walks through them. Every function catches panics
//! ([`status::guard`]), so none crosses into C.

mod crowd;
mod crowd_obstacles;
mod handles;
mod map;
mod path;
pub mod status;
mod update;

pub use crowd::*;
pub use crowd_obstacles::*;
pub use handles::{CorridorMap, CorridorPatch, CorridorPath, CorridorStep};
pub use map::*;
pub use path::*;
pub use status::{corridor_last_error, CorridorStatus};
pub use update::*;
