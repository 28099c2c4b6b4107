//! Spatial indexes of the geometry kernel: which segments are near a box, a segment or
//! a ray. [`SegmentGrid`] buckets wall segments on the integer grid; [`DynamicTree`] is
//! the R-tree of boxes that change.

mod dynamic_tree;
mod segment_grid;

pub(crate) use dynamic_tree::{boxed, Boxed};
pub use dynamic_tree::{DynamicTree, DynamicTreeOptions};
pub(crate) use segment_grid::corner;
pub use segment_grid::SegmentGrid;
