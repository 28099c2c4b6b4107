//! How a [`DynamicEcm`](crate::DynamicEcm) repairs its ECM: locally or by full rebuilds,
//! how often it widens a local region and when a region is too large ([`UpdateOptions`]).

use crate::BuildOptions;

/// Settings of a [`DynamicEcm`](crate::DynamicEcm).
#[derive(Clone, Debug, PartialEq)]
pub struct UpdateOptions {
    /// Options of every build (full and local); the arc deviation must stay the same for
    /// the life of the map.
    pub build: BuildOptions,
    /// Repair the ECM locally (the default); when `false`, every update rebuilds the
    /// whole ECM (the reference the local repair is tested against).
    pub local_repair: bool,
    /// How often the local region may be doubled when it cannot prove its result before
    /// the update falls back to a full rebuild.
    pub max_widenings: usize,
    /// When the local region needs more than this fraction of all walls, the update
    /// rebuilds the whole ECM instead (which is then cheaper). Default 0.5; `f64::INFINITY`
    /// repairs locally whenever the repair can be proven, and then also normalizes
    /// groups of interacting obstacles locally however large they are (see
    /// [`WallMap::with_group_fraction`](corridor_geom::WallMap::with_group_fraction)).
    pub max_local_fraction: f64,
}

impl Default for UpdateOptions {
    fn default() -> Self {
        UpdateOptions {
            build: BuildOptions::default(),
            local_repair: true,
            max_widenings: 4,
            max_local_fraction: 0.5,
        }
    }
}
