//! The settings of a build.

use crate::transform::Transform;
use corridor_geom::NormalizeLimits;

/// Settings of a build.
///
/// ```
/// use corridor_ecm::BuildOptions;
/// let options = BuildOptions { max_arc_deviation: 0.001, ..BuildOptions::default() };
/// assert_eq!(options.recovery.len(), 8);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct BuildOptions {
    /// The largest distance (user units) between a parabolic medial-axis arc and the
    /// polyline of its bending points. Default 0.01 (1 cm when units are metres).
    pub max_arc_deviation: f64,
    /// The exact transforms tried in order; the first whose diagram passes validation
    /// wins. The default is [`Transform::RECOVERY_SEQUENCE`], starting with the identity.
    pub recovery: Vec<Transform>,
    /// Limits on normalizing the environment ([`Ecm::build_with`](crate::Ecm::build_with)
    /// only): set `max_wall_pieces` to refuse heavily overlapping obstacles early, with a
    /// clear error, instead of spending time and memory on their overlay. No limit by
    /// default.
    pub normalize: NormalizeLimits,
    /// Vertical strips whose Voronoi diagrams are built in parallel and stitched where
    /// they are certified (see [`Ecm::build`](crate::Ecm::build)); 0 or 1 (the default):
    /// one diagram of all the walls. The ECM is the same either way (up to the numbering
    /// of its vertices and edges); when the strips cannot prove every edge, the build
    /// falls back to one diagram.
    pub tiles: usize,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            max_arc_deviation: 0.01,
            recovery: Transform::RECOVERY_SEQUENCE.to_vec(),
            normalize: NormalizeLimits::default(),
            tiles: 1,
        }
    }
}
