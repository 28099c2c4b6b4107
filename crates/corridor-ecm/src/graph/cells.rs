//! The names of cell pieces and the stored data of the cell index; how the index is
//! built, updated and asked lives in [`crate::locate`].

use super::ids::{EdgeId, Side};
use corridor_geom::LogIndex;
use serde::{Deserialize, Serialize};

/// One ECM cell piece: the part of an edge side between bending points `piece` and
/// `piece + 1` (see [`Edge::cell_pieces`](crate::Edge::cell_pieces)).
///
/// Cell references are ordered by edge id, then side, then piece index: [`Ecm::locate`](crate::Ecm::locate)
/// answers the smallest piece that holds the point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CellRef {
    /// The edge.
    pub edge: EdgeId,
    /// Which side of it.
    pub side: Side,
    /// Index of the first bending point of the piece.
    pub piece: u32,
}

/// One index entry: the cell pieces `first..first + count` of one edge side, under the
/// box of their boxes. Indexing runs of pieces instead of single pieces makes the tree
/// about four times smaller (and its bulk load that much cheaper); lookups refine a run
/// into its pieces (see [`CellIndex::pieces_meeting`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct PieceRun {
    pub(crate) edge: EdgeId,
    pub(crate) side: Side,
    pub(crate) first: u32,
    pub(crate) count: u32,
}

/// Point location in the ECM cells (built once per ECM, saved with it).
///
/// The runs of a build sit in a static R-tree packed in Hilbert order (one sort, no
/// partitioning: a fifth of the instructions of a bulk-loaded `rstar` tree on Aurora).
/// Dynamic updates remove runs by marking them dead and add new runs to a
/// log-structured index beside it (a short unsorted tail, packed into more small trees as it
/// fills), so an update never rebuilds the large tree. Which pieces a query reports does
/// not depend on how the runs are split among the trees; their order does, and
/// [`Ecm::locate`](crate::Ecm::locate) does not depend on the order.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CellIndex {
    /// The runs: those of the build in the first packed level, those of updates after.
    pub(crate) runs: LogIndex<PieceRun>,
    /// Number of indexed cell pieces (the live runs' counts added up).
    pub(crate) pieces: usize,
}

impl CellIndex {
    /// Number of indexed cell pieces.
    pub fn len(&self) -> usize {
        self.pieces
    }

    /// Number of index entries: runs of consecutive cell pieces of one edge side, each
    /// under one box (see [`CellIndex::len`] for the pieces).
    pub fn entries(&self) -> usize {
        self.runs.len()
    }

    /// Whether no cell piece is indexed.
    pub fn is_empty(&self) -> bool {
        self.pieces == 0
    }
}
