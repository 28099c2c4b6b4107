//! What an ECM is: vertices, edges made of annotated bending points, components, cells
//! and the stored cell index's data. Pure data and accessors; building, locating and
//! planning live in the modules above it.

mod cells;
mod ecm;
mod elements;
mod ids;
mod stats;

pub use cells::{CellIndex, CellRef};
pub use ecm::Ecm;
pub use elements::{BendingPoint, Edge, NearestPoints, Vertex, VertexEdges};
pub use ids::{ComponentId, EdgeId, Side, VertexId};
pub use stats::BuildStats;

pub(crate) use cells::PieceRun;
pub(crate) use ecm::fresh_uid;
#[cfg(test)]
pub(crate) use elements::bounded_small_vec;
pub(crate) use elements::{cell_corners, cell_piece, signed_area, INLINE_DEGREE};
