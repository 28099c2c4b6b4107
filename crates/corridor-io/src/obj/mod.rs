//! Real 3D levels: from a Wavefront OBJ triangle mesh to walkable layers joined by
//! connections.
//!
//! The pipeline, one question per module:
//! 1. [`read_obj`] — what triangles does the file hold (parsing by `tobj`)?
//! 2. `walkable` — which parts of which triangles can an agent stand on
//!    ([`WalkableOptions`]: slope, headroom, climb)?

mod read;

pub use read::{read_obj, ObjError, TriangleMesh};
