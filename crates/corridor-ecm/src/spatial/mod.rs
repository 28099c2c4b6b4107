//! Which boxes meet a query box? The static packed R-tree (Hilbert order) and the
//! log-structured index of such trees that the cell index and the dynamic updates use.
//! Boxes are `[min x, min y, max x, max y]`; nothing here knows about the ECM.

mod boxes;
mod log_index;
mod packed_tree;

pub(crate) use boxes::{boxes_meet, union, union_of_numbers, EMPTY_BOX};
pub(crate) use log_index::{Level, LogIndex, Slot};
pub(crate) use packed_tree::PackedTree;
