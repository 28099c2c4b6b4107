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
//! 4. `level` ([`Level`]): each layer's free space as a 2D [`Environment`] with
//!    per-triangle heights, and the [`Connection`]s between layers.
//!
//! `ground` does every union and difference on one integer grid per level (through
//! `i_overlay`), so that layers that meet share exact coordinates.
//!
//! [`Environment`]: corridor_geom::Environment

mod ground;
mod layers;
mod level;
mod read;
mod walkable;

pub use level::{read_level, Connection, Layer, Level, LevelError};
pub use read::{read_obj, ObjError, TriangleMesh};
pub use walkable::{HeightPlane, WalkableOptions};
