//! The call into the segment Voronoi library (`corridor-voronoi`, the fixed fork of
//! `boostvoronoi`).

use corridor_geom::{WallSource, Walls};
use corridor_voronoi::prelude::{Builder, EdgeList};

/// Why extraction failed.
#[derive(Clone, Debug)]
pub(crate) enum ExtractError {
    /// The Voronoi library returned an error.
    Voronoi(String),
    /// An infinite Voronoi edge lies in the free space.
    Unbounded(Vec<WallSource>),
}

/// Builds the Voronoi diagram of the walls' segments and points, as the library's compact
/// output: the sweep of a full `Builder::build`, without the cells, links and colours
/// that extraction does not read (the same edges, sites and vertices, see
/// `boostvoronoi::output::EdgeList`).
pub(crate) fn voronoi(walls: &Walls) -> Result<EdgeList, ExtractError> {
    let err = |e: corridor_voronoi::prelude::BvError| ExtractError::Voronoi(e.to_string());
    // The sites of `Walls::integer_sites`, handed over as they are converted (no lists of
    // them written and read back).
    Builder::<i64>::default()
        .with_vertices(walls.integer_points())
        .map_err(err)?
        .with_segments(walls.integer_segments())
        .map_err(err)?
        .build_output::<EdgeList>()
        .map_err(err)
}
