//! What can go wrong, as typed errors of the trapezoidal map's own: building fails only
//! when the free space cannot be built; a path query names the end that is not free.

use corridor_geom::FreeSpaceError;

/// Why the map could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BuildError {
    /// The free space of the environment could not be built: invalid input, or obstacles
    /// that overlap or cross.
    #[error(transparent)]
    FreeSpace(#[from] FreeSpaceError),
}

/// Why a path query has no answer (the free space's query error, shared with the
/// visibility graph).
pub use corridor_geom::PathQueryError as QueryError;
