//! Shim: the free space moved to [`corridor_geom::free_space`] (issue 23), so that
//! corridor-trapmap no longer depends on this crate for it. It keeps the other modules'
//! imports working until it is removed after the merge.

pub(crate) use corridor_geom::free_space::properly_cross;
#[cfg(test)]
pub(crate) use corridor_geom::free_space::WallRec;
pub use corridor_geom::{FreeSpace, FreeSpaceWall as Wall, PointClass};

use crate::BuildError;
use corridor_geom::FreeSpaceError;

/// The free space's errors are the graph's build errors of the same name.
impl From<FreeSpaceError> for BuildError {
    fn from(e: FreeSpaceError) -> Self {
        match e {
            FreeSpaceError::Environment(e) => BuildError::Environment(e),
            FreeSpaceError::Normalize(e) => BuildError::Normalize(e),
            FreeSpaceError::Crossing { first, second } => BuildError::Crossing { first, second },
            FreeSpaceError::Overlap { segment } => BuildError::Overlap { segment },
            FreeSpaceError::Inconsistent { point } => BuildError::Inconsistent { point },
        }
    }
}
