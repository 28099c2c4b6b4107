//! The ids of vertices, edges and components, and the sides of an edge.

use serde::{Deserialize, Serialize};
use slotmap::new_key_type;
use std::fmt;

new_key_type! {
    /// Stable id of an ECM vertex.
    ///
    /// Ids stay valid while other parts of the graph are replaced (a later dynamic update
    /// removes and inserts vertices locally); a removed vertex's id is never handed out
    /// again for a different vertex.
    pub struct VertexId;
    /// Stable id of an ECM edge (same guarantees as [`VertexId`]).
    pub struct EdgeId;
}

/// Which connected component of the free space (and of the medial axis) something is in.
///
/// Components are numbered `0..Ecm::component_count()` in the order they were found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ComponentId(pub u32);

impl fmt::Display for ComponentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "component {}", self.0)
    }
}

/// A side of an edge, looking from its start vertex towards its end vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Side {
    /// To the left of the direction of travel.
    Left,
    /// To the right of the direction of travel.
    Right,
}

impl Side {
    /// The other side.
    pub fn opposite(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}
