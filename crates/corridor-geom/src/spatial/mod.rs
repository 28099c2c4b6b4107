//! Spatial indexes of the geometry kernel: which segments are near a box, a segment or
//! a ray. [`SegmentGrid`] buckets wall segments on the integer grid; [`DynamicTree`] is
//! the R-tree of boxes that change; [`FloatSegmentGrid`] buckets segments in user
//! coordinates (the walls of a [`crate::FreeSpace`]). The two grids stay apart: one is
//! exact on integer grid points, the other on `f64` points with other queries (rays,
//! triangle covers).

mod dynamic_tree;
mod float_grid;
mod segment_grid;

pub(crate) use dynamic_tree::{boxed, Boxed};
pub use dynamic_tree::{DynamicTree, DynamicTreeOptions};
pub use float_grid::FloatSegmentGrid;
pub(crate) use segment_grid::corner;
pub use segment_grid::SegmentGrid;
