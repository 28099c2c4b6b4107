//! Real 3D levels: from a Wavefront OBJ triangle mesh to walkable layers joined by
//! connections.
//!
//! The OBJ is read Y up (as Recast and most exporters write it): the ground plane is
//! `(x, z)` of the file, in the file's units, and the height is `y`. The pipeline, one
//! question per module:
//! 1. `read` ([`read_obj`]): what triangles does the file hold (parsing by `tobj`)?
//! 2. `walkable` ([`WalkableOptions`]): which parts of which triangles can an agent
//!    stand on (slope, headroom, walls higher than a step)? Exact ground-plane
//!    geometry, not voxels: nothing is eroded by an agent radius (the ECM handles any
//!    radius later).
//! 3. `layers`: which pieces go together on a layer (breadth-first growth over edges
//!    where heights differ by at most a step, never overlapping in the ground plane)?
//! 4. `level` ([`Level`]): the layers as a [`LayeredEnvironment`] (each layer's free
//!    space a 2D environment with a fitted height plane, the connections between
//!    layers), and each layer's exact per-triangle heights ([`LayerSurface`]).
//!
//! `joints` makes the connections exact on the layers' snap grid.
//!
//! `ground` does every union and difference on one integer grid per level (through
//! `i_overlay`), so that layers that meet share exact coordinates.
//!
//! [`LayeredEnvironment`]: corridor_geom::LayeredEnvironment

mod ground;
mod joints;
mod layers;
mod level;
mod read;
mod walkable;

pub use level::{read_level, LayerSurface, Level, LevelError};
pub use read::{read_obj, ObjError, TriangleMesh};
pub use walkable::WalkableOptions;
