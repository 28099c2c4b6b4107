//! Where is a point? Building and updating the cell index, point location, nearest
//! obstacle points, clearance and retraction onto the medial axis.

mod cell_index;
mod query;

pub use query::{QueryError, Retraction};
