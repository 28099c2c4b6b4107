//! How an ECM is built: normalize, Voronoi diagram, extraction and annotation,
//! assembly into the graph, validation (with recovery under exact transforms), index.

mod annotate;
mod assemble;
mod error;
mod extract;
mod options;
mod recovery;
mod tiles;
mod validate;
mod voronoi;
mod wall_index;

pub use error::{BuildError, FailureKind, ValidationFailure, WallProblem};
pub use options::BuildOptions;

pub(crate) use assemble::finalize;
pub(crate) use extract::{extract_open, OpenVertex};
pub(crate) use validate::tolerance;
pub(crate) use voronoi::voronoi;
pub(crate) use wall_index::nearest_on_segment;
