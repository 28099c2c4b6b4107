//! What a build did (kept with the ECM and saved with it).

use crate::transform::Transform;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// What a build did: the time of each phase and the size of the result.
///
/// Times add up over all attempts when validation forced a rebuild. Stages that ran side
/// by side on several threads (see [`Ecm::build`](crate::Ecm::build)) each report their
/// own time, so the sum may exceed the wall time. The times are not saved (a loaded ECM reports zero): two saves of the same map give the same bytes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BuildStats {
    /// Turning the environment into walls ([`corridor_geom::normalize`]); zero for
    /// [`Ecm::from_walls`](crate::Ecm::from_walls).
    #[serde(skip)]
    pub normalize: Duration,
    /// Building the segment Voronoi diagram (`boostvoronoi`); for a build from strips
    /// (`BuildOptions::tiles`), the strips' diagrams and their extraction.
    #[serde(skip)]
    pub voronoi: Duration,
    /// Keeping the medial axis, chaining edges, sampling arcs, annotating nearest points,
    /// components.
    #[serde(skip)]
    pub extraction: Duration,
    /// Checking the walls and the result (a bucket grid over the walls, per-point checks,
    /// areas).
    #[serde(skip)]
    pub validation: Duration,
    /// Building the cell index for point location.
    #[serde(skip)]
    pub index: Duration,
    /// Wall segments given to the Voronoi diagram.
    pub input_segments: usize,
    /// Isolated points given to the Voronoi diagram.
    pub input_points: usize,
    /// ECM vertices.
    pub vertices: usize,
    /// ECM edges.
    pub edges: usize,
    /// Bending points (vertices once, plus the interior bending points of every edge).
    pub bending_points: usize,
    /// Connected components.
    pub components: usize,
    /// Diagrams rejected by validation and rebuilt under another exact transform.
    pub recoveries: usize,
    /// Strips whose diagrams were stitched into this ECM (`BuildOptions::tiles`); 0 when
    /// it was built from one diagram. Not saved.
    #[serde(skip)]
    pub tiles: usize,
    /// The transform whose diagram was accepted.
    pub transform: Option<Transform>,
}

impl BuildStats {
    /// Total time of all phases.
    pub fn total(&self) -> Duration {
        self.normalize + self.voronoi + self.extraction + self.validation + self.index
    }
}
