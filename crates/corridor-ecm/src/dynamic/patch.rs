//! What an update carries from planning to applying: a [`Patch`] (only the changed
//! obstacles, walls and ECM part) and the [`PatchReport`] of how it was found.

use super::local::Splice;
use crate::Ecm;
use corridor_geom::{NormalizeScope, Obstacle, ObstacleId, WallDelta, Walls};
use std::time::Duration;

/// How a patch repairs the ECM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepairMethod {
    /// The walls did not change (for example, an obstacle inside another one): only the
    /// environment changes.
    Unchanged,
    /// A local region of the ECM is replaced.
    Local,
    /// The whole ECM is rebuilt (local repair is off, or could not prove its result).
    FullRebuild,
}

/// What planning a patch found and did.
#[derive(Clone, Debug, PartialEq)]
pub struct PatchReport {
    /// How the ECM is repaired.
    pub method: RepairMethod,
    /// Wall segments and points that were removed or added by the change.
    pub changed_walls: usize,
    /// How the change of the walls was computed (see [`WallMap`](corridor_geom::WallMap)).
    pub normalize_scope: NormalizeScope,
    /// ECM edges the patch removes (all of them for a full rebuild).
    pub removed_edges: usize,
    /// ECM edges the patch adds.
    pub added_edges: usize,
    /// How often the local region was doubled.
    pub widenings: usize,
    /// Whether the local repair cut the influenced ECM edges at Voronoi vertices on
    /// their stable parts and rebuilt only the parts near the change (else it rebuilt
    /// them whole).
    pub cut_edges: bool,
    /// Why the local repair fell back to a full rebuild, if it did.
    pub fallback_reason: Option<String>,
    /// Time spent planning (normalization included).
    pub plan_time: Duration,
    /// Of which: computing the change of the walls ([`WallMap::plan`](corridor_geom::WallMap::plan)).
    pub walls_time: Duration,
    /// Of which: building local Voronoi diagrams (or, for a full rebuild, normalizing
    /// and building the whole ECM).
    pub voronoi_time: Duration,
    /// Walls (segments and points) the last local Voronoi diagram was built from (0
    /// without a local repair).
    pub local_walls: usize,
}

/// A planned update: computed by [`DynamicEcm::plan_update`](crate::DynamicEcm::plan_update)
/// without changing the map, applied by [`DynamicEcm::apply`](crate::DynamicEcm::apply).
///
/// A patch holds only what changes: the new geometry of the changed obstacles, the walls
/// removed and added, and the replacement of the part of the ECM around them.
#[derive(Clone, Debug)]
pub struct Patch {
    /// The version of the map the patch was planned for.
    pub(super) base: u64,
    /// The final geometry of every obstacle the changes touch (`None`: removed).
    pub(super) edits: Vec<(ObstacleId, Option<Obstacle>)>,
    /// The environment's next id after the changes.
    pub(super) next_id: ObstacleId,
    /// The ids of the inserted obstacles, in the order of the changes.
    pub(super) inserted: Vec<ObstacleId>,
    pub(super) walls_delta: WallDelta,
    pub(super) repair: Repair,
    pub(super) report: PatchReport,
}

/// How a patch repairs the ECM, with what the repair needs: the local replacement, or
/// the rebuilt ECM and its walls.
#[derive(Clone, Debug)]
pub(super) enum Repair {
    Unchanged,
    Local(Box<Splice>),
    Full(Box<Ecm>, Box<Walls>),
}

impl Patch {
    /// What planning found and how the patch repairs the ECM.
    pub fn report(&self) -> &PatchReport {
        &self.report
    }

    /// The ids of the obstacles the patch inserts, in the order of the changes.
    pub fn inserted(&self) -> &[ObstacleId] {
        &self.inserted
    }
}
