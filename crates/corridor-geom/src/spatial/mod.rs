//! Spatial indexes of the geometry kernel: which segments are near a box, a segment or
//! a ray, and which boxes meet a box. [`SegmentGrid`] buckets wall segments on the
//! integer grid; [`DynamicTree`] is the R-tree of boxes that change; [`FloatSegmentGrid`]
//! buckets segments in user coordinates (the walls of a [`crate::FreeSpace`]). The two
//! grids stay apart: one is exact on integer grid points, the other on `f64` points with
//! other queries (rays, triangle covers). [`PackedTree`] is the static R-tree of boxes
//! bulk-loaded once, [`LogIndex`] the log-structured set of such trees for insertions and
//! removals, and [`boxes`] their `[min x, min y, max x, max y]` box helpers.

pub mod boxes;
mod dynamic_tree;
mod float_grid;
mod log_index;
mod packed_tree;
mod segment_grid;

pub(crate) use dynamic_tree::{boxed, Boxed};
pub use dynamic_tree::{DynamicTree, DynamicTreeOptions};
pub use float_grid::FloatSegmentGrid;
pub use log_index::{LogIndex, Slot};
pub use packed_tree::{BoxesWhere, PackedTree};
pub(crate) use segment_grid::corner;
pub use segment_grid::{GridMarks, SegmentGrid};
