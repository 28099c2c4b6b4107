//! Dynamic updates: inserting, removing and moving obstacles with an exact local repair
//! of the ECM, in two steps (a read-only [`DynamicEcm::plan`] and a short
//! [`DynamicEcm::apply`]), and the canonical comparison the tests use to show that the
//! result equals a full rebuild.

mod canonical;
mod local;

use crate::{BuildError, BuildOptions, Ecm};
use corridor_geom::{
    normalize, Environment, EnvironmentError, NormalizeError, Obstacle, ObstacleId, Owner, Point,
    Walls,
};
use std::time::{Duration, Instant};

/// One change of the obstacles of a [`DynamicEcm`].
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// Add an obstacle; it gets the environment's next id.
    Insert(Obstacle),
    /// Remove the obstacle with this id.
    Remove(ObstacleId),
    /// Replace the geometry of an obstacle, keeping its id.
    Move {
        /// The obstacle.
        id: ObstacleId,
        /// Its new geometry.
        obstacle: Obstacle,
    },
}

/// Why an update could not be planned or applied. Every variant names the obstacle.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum UpdateError {
    /// No obstacle has this id.
    #[error("no obstacle with id {0}")]
    UnknownObstacle(ObstacleId),
    /// The obstacle's geometry is invalid (not finite, self-intersecting, off the grid,
    /// outside the boundary, ...).
    #[error("obstacle {id} is invalid: {source}")]
    InvalidObstacle {
        /// The obstacle (for an insertion, the id it would have had).
        id: ObstacleId,
        /// What is wrong with it.
        source: EnvironmentError,
    },
    /// The changed environment could not be normalized into walls.
    #[error(transparent)]
    Normalize(NormalizeError),
    /// The ECM of the changed environment could not be built (for example, no free
    /// space is left).
    #[error(transparent)]
    Build(#[from] BuildError),
    /// The patch was planned for another state of the map (an update was applied
    /// in between); plan it again.
    #[error(
        "the patch was planned for version {patch} of the map, which is now at version {current}"
    )]
    StalePatch {
        /// The version the patch was planned for.
        patch: u64,
        /// The map's version.
        current: u64,
    },
}

impl From<NormalizeError> for UpdateError {
    fn from(e: NormalizeError) -> Self {
        match e {
            NormalizeError::Environment(source) => match owner_of(&source) {
                Some(Owner::Obstacle(id)) => UpdateError::InvalidObstacle { id, source },
                _ => UpdateError::Normalize(NormalizeError::Environment(source)),
            },
            other => UpdateError::Normalize(other),
        }
    }
}

fn owner_of(e: &EnvironmentError) -> Option<Owner> {
    match e {
        EnvironmentError::NonFinite { owner, .. }
        | EnvironmentError::TooFewVertices { owner, .. }
        | EnvironmentError::TooFewPoints { owner, .. }
        | EnvironmentError::SelfIntersecting { owner, .. }
        | EnvironmentError::HoleOutside { owner, .. }
        | EnvironmentError::OutsideBoundary { owner }
        | EnvironmentError::Snap { owner, .. } => Some(*owner),
        EnvironmentError::UnknownObstacle(id) => Some(Owner::Obstacle(*id)),
    }
}

/// Settings of a [`DynamicEcm`].
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
    /// repairs locally whenever the repair can be proven.
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
    /// ECM edges the patch removes (all of them for a full rebuild).
    pub removed_edges: usize,
    /// ECM edges the patch adds.
    pub added_edges: usize,
    /// How often the local region was doubled.
    pub widenings: usize,
    /// Why the local repair fell back to a full rebuild, if it did.
    pub fallback_reason: Option<String>,
    /// Time spent planning (normalization included).
    pub plan_time: Duration,
}

/// A planned update: computed by [`DynamicEcm::plan`] without changing the map, applied
/// by [`DynamicEcm::apply`].
#[derive(Clone, Debug)]
pub struct Patch {
    base: u64,
    env: Environment,
    walls: Walls,
    inserted: Vec<ObstacleId>,
    walls_diff: local::WallDiff,
    repair: Repair,
    report: PatchReport,
}

#[derive(Clone, Debug)]
enum Repair {
    Unchanged,
    Local(Box<local::Splice>),
    Full(Box<Ecm>),
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

/// Counters over the life of a [`DynamicEcm`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UpdateStats {
    /// Patches applied.
    pub patches: usize,
    /// Patches that replaced a local region.
    pub local: usize,
    /// Patches that rebuilt the whole ECM.
    pub full_rebuilds: usize,
    /// Patches that rebuilt the whole ECM although local repair was on.
    pub fallbacks: usize,
    /// Patches that changed no wall.
    pub unchanged: usize,
    /// Doublings of local regions over all patches.
    pub widenings: usize,
}

/// An ECM that follows a changing environment: it owns the [`Environment`], its
/// [`Walls`] and the [`Ecm`], and keeps the ECM equal to a full rebuild after every
/// update.
///
/// Updates run in two steps: [`DynamicEcm::plan`] (or [`DynamicEcm::plan_batch`]) reads
/// the map and returns a [`Patch`]; [`DynamicEcm::apply`] splices it in. Readers can keep
/// querying [`DynamicEcm::ecm`] while a patch is planned (for example behind an
/// `RwLock`, taking the write lock only for `apply`). The one-step helpers
/// [`DynamicEcm::insert`], [`DynamicEcm::remove`], [`DynamicEcm::move_to`] and
/// [`DynamicEcm::apply_batch`] do both.
///
/// The repair is local: the ECM edges whose clearance discs meet the changed walls are
/// replaced by the matching part of an ECM built from the walls around them, and the
/// result is checked (every new point's disc lies inside the region whose walls were
/// used, the Voronoi output passes the build's validation, degrees and areas balance).
/// When the check fails, the region is doubled; after
/// [`UpdateOptions::max_widenings`] doublings the whole ECM is rebuilt. A wrong map is
/// never returned.
///
/// ```
/// use corridor_ecm::{DynamicEcm, Ecm};
/// use corridor_geom::{Environment, Obstacle, Point};
/// let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(20.0, 10.0));
/// env.insert(Obstacle::rectangle(Point::new(9.0, 0.0), Point::new(11.0, 4.0)));
/// env.insert(Obstacle::rectangle(Point::new(9.0, 6.0), Point::new(11.0, 10.0)));
/// let mut map = DynamicEcm::new(env)?;
/// assert_eq!(map.ecm().component_count(), 1);
/// // A door closes the gap between the two blocks: the room splits in two.
/// let door = map.insert(Obstacle::rectangle(Point::new(9.5, 3.0), Point::new(10.5, 7.0)))?;
/// assert_eq!(map.ecm().component_count(), 2);
/// // The result is the ECM a full rebuild gives.
/// let rebuilt = Ecm::build(map.environment())?;
/// assert_eq!(map.ecm().canonical_diff(&rebuilt, 1e-7), None);
/// // Opening it again joins them.
/// map.remove(door)?;
/// assert_eq!(map.ecm().component_count(), 1);
/// # Ok::<(), corridor_ecm::UpdateError>(())
/// ```
#[derive(Clone, Debug)]
pub struct DynamicEcm {
    env: Environment,
    walls: Walls,
    ecm: Ecm,
    options: UpdateOptions,
    version: u64,
    index: local::UpdateIndex,
    stats: UpdateStats,
}

impl DynamicEcm {
    /// Builds the map of an environment with default options.
    pub fn new(env: Environment) -> Result<Self, UpdateError> {
        Self::with_options(env, UpdateOptions::default())
    }

    /// Builds the map of an environment with explicit options.
    pub fn with_options(env: Environment, options: UpdateOptions) -> Result<Self, UpdateError> {
        let start = Instant::now();
        let walls = normalize(&env)?;
        let normalize_time = start.elapsed();
        let mut ecm = Ecm::from_walls_with(&walls, &options.build)?;
        ecm.stats.normalize = normalize_time;
        let index = local::UpdateIndex::new(&walls, &ecm, options.build.max_arc_deviation);
        Ok(DynamicEcm {
            env,
            walls,
            ecm,
            options,
            version: 0,
            index,
            stats: UpdateStats::default(),
        })
    }

    /// The current ECM.
    pub fn ecm(&self) -> &Ecm {
        &self.ecm
    }

    /// The current environment (the obstacles as the user gave them).
    pub fn environment(&self) -> &Environment {
        &self.env
    }

    /// The current walls (the normalized obstacles the ECM is built from).
    pub fn walls(&self) -> &Walls {
        &self.walls
    }

    /// The options the map was built with.
    pub fn options(&self) -> &UpdateOptions {
        &self.options
    }

    /// Counters of the updates applied so far.
    pub fn stats(&self) -> &UpdateStats {
        &self.stats
    }

    /// How many patches have been applied; a patch is only valid for the version it was
    /// planned for.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Plans one change without modifying the map.
    ///
    /// ```
    /// use corridor_ecm::{Change, DynamicEcm, RepairMethod};
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
    /// let mut map = DynamicEcm::new(env)?;
    /// let before = map.ecm().vertex_count();
    /// let patch = map.plan(&Change::Insert(Obstacle::Point(Point::new(3.0, 3.0))))?;
    /// assert_eq!(patch.report().method, RepairMethod::Local);
    /// assert_eq!(map.ecm().vertex_count(), before); // not applied yet
    /// let ids = map.apply(patch)?;
    /// assert_eq!(map.environment().obstacle(ids[0]), Some(&Obstacle::Point(Point::new(3.0, 3.0))));
    /// # Ok::<(), corridor_ecm::UpdateError>(())
    /// ```
    pub fn plan(&self, change: &Change) -> Result<Patch, UpdateError> {
        self.plan_batch(std::slice::from_ref(change))
    }

    /// Plans several changes as one update (one repair for all of them).
    pub fn plan_batch(&self, changes: &[Change]) -> Result<Patch, UpdateError> {
        let start = Instant::now();
        let mut env = self.env.clone();
        let mut inserted = Vec::new();
        for change in changes {
            match change {
                Change::Insert(obstacle) => {
                    let id = env.next_id();
                    env.validate_obstacle_geometry(obstacle)
                        .map_err(|source| UpdateError::InvalidObstacle { id, source })?;
                    inserted.push(env.insert(obstacle.clone()));
                }
                Change::Remove(id) => {
                    env.remove(*id).ok_or(UpdateError::UnknownObstacle(*id))?;
                }
                Change::Move { id, obstacle } => {
                    if env.obstacle(*id).is_none() {
                        return Err(UpdateError::UnknownObstacle(*id));
                    }
                    env.validate_obstacle_geometry(obstacle)
                        .map_err(|source| UpdateError::InvalidObstacle { id: *id, source })?;
                    env.replace(*id, obstacle.clone())
                        .map_err(|_| UpdateError::UnknownObstacle(*id))?;
                }
            }
        }
        let walls = normalize(&env)?;
        let diff = self.index.diff(&walls);
        let mut report = PatchReport {
            method: RepairMethod::Unchanged,
            changed_walls: diff.len(),
            removed_edges: 0,
            added_edges: 0,
            widenings: 0,
            fallback_reason: None,
            plan_time: Duration::ZERO,
        };
        let repair = if diff.is_empty() {
            Repair::Unchanged
        } else {
            let local = if self.options.local_repair {
                local::plan(self, &walls, &diff)
            } else {
                Err(local::Fallback {
                    reason: String::new(),
                    widenings: 0,
                })
            };
            match local {
                Ok(splice) => {
                    report.method = RepairMethod::Local;
                    report.widenings = splice.widenings;
                    report.removed_edges = splice.remove_edges.len();
                    report.added_edges = splice.new_edges.len();
                    Repair::Local(Box::new(splice))
                }
                Err(fallback) => {
                    let ecm = Ecm::from_walls_with(&walls, &self.options.build)?;
                    report.method = RepairMethod::FullRebuild;
                    report.widenings = fallback.widenings;
                    if self.options.local_repair {
                        report.fallback_reason = Some(fallback.reason);
                    }
                    report.removed_edges = self.ecm.edge_count();
                    report.added_edges = ecm.edge_count();
                    Repair::Full(Box::new(ecm))
                }
            }
        };
        report.plan_time = start.elapsed();
        Ok(Patch {
            base: self.version,
            env,
            walls,
            inserted,
            walls_diff: diff,
            repair,
            report,
        })
    }

    /// Applies a patch planned on this version of the map; returns the ids of the
    /// obstacles it inserted.
    pub fn apply(&mut self, patch: Patch) -> Result<Vec<ObstacleId>, UpdateError> {
        if patch.base != self.version {
            return Err(UpdateError::StalePatch {
                patch: patch.base,
                current: self.version,
            });
        }
        let Patch {
            env,
            walls,
            inserted,
            walls_diff,
            repair,
            report,
            ..
        } = patch;
        let deviation = self.options.build.max_arc_deviation;
        match repair {
            Repair::Unchanged => self.stats.unchanged += 1,
            Repair::Local(splice) => {
                local::apply(&mut self.ecm, &mut self.index, *splice, deviation);
                self.ecm.uid = crate::graph::fresh_uid();
                self.stats.local += 1;
            }
            Repair::Full(ecm) => {
                self.ecm = *ecm;
                self.index.rebuild_sweep(&self.ecm, deviation);
                self.stats.full_rebuilds += 1;
                if self.options.local_repair {
                    self.stats.fallbacks += 1;
                }
            }
        }
        self.index.apply_diff(walls_diff);
        self.stats.widenings += report.widenings;
        self.stats.patches += 1;
        self.env = env;
        self.walls = walls;
        self.version += 1;
        Ok(inserted)
    }

    /// Inserts an obstacle (plan and apply) and returns its id.
    pub fn insert(&mut self, obstacle: Obstacle) -> Result<ObstacleId, UpdateError> {
        let patch = self.plan(&Change::Insert(obstacle))?;
        let ids = self.apply(patch)?;
        Ok(ids[0])
    }

    /// Removes an obstacle (plan and apply) and returns it.
    pub fn remove(&mut self, id: ObstacleId) -> Result<Obstacle, UpdateError> {
        let old = self
            .env
            .obstacle(id)
            .cloned()
            .ok_or(UpdateError::UnknownObstacle(id))?;
        let patch = self.plan(&Change::Remove(id))?;
        self.apply(patch)?;
        Ok(old)
    }

    /// Replaces an obstacle's geometry (plan and apply), keeping its id.
    pub fn move_to(&mut self, id: ObstacleId, obstacle: Obstacle) -> Result<(), UpdateError> {
        let patch = self.plan(&Change::Move { id, obstacle })?;
        self.apply(patch)?;
        Ok(())
    }

    /// Moves an obstacle by `offset`.
    ///
    /// ```
    /// use corridor_ecm::DynamicEcm;
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
    /// let mut map = DynamicEcm::new(env)?;
    /// let id = map.insert(Obstacle::Point(Point::new(3.0, 3.0)))?;
    /// map.translate(id, Point::new(1.0, 0.5))?;
    /// assert_eq!(map.environment().obstacle(id), Some(&Obstacle::Point(Point::new(4.0, 3.5))));
    /// # Ok::<(), corridor_ecm::UpdateError>(())
    /// ```
    pub fn translate(&mut self, id: ObstacleId, offset: Point) -> Result<(), UpdateError> {
        let moved = self.transformed(id, |p| p + offset)?;
        self.move_to(id, moved)
    }

    /// Rotates an obstacle by `angle` radians (counter-clockwise) around `center`.
    pub fn rotate(&mut self, id: ObstacleId, center: Point, angle: f64) -> Result<(), UpdateError> {
        let (s, c) = angle.sin_cos();
        let moved = self.transformed(id, |p| {
            let d = p - center;
            center + Point::new(c * d.x - s * d.y, s * d.x + c * d.y)
        })?;
        self.move_to(id, moved)
    }

    fn transformed(
        &self,
        id: ObstacleId,
        f: impl Fn(Point) -> Point,
    ) -> Result<Obstacle, UpdateError> {
        let obstacle = self
            .env
            .obstacle(id)
            .ok_or(UpdateError::UnknownObstacle(id))?;
        Ok(map_obstacle(obstacle, &f))
    }

    /// Applies several changes as one update; returns the ids of the inserted obstacles.
    ///
    /// ```
    /// use corridor_ecm::{Change, DynamicEcm};
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
    /// let mut map = DynamicEcm::new(env)?;
    /// let ids = map.apply_batch(&[
    ///     Change::Insert(Obstacle::Point(Point::new(3.0, 3.0))),
    ///     Change::Insert(Obstacle::segment(Point::new(6.0, 6.0), Point::new(8.0, 7.0))),
    /// ])?;
    /// assert_eq!(ids.len(), 2);
    /// # Ok::<(), corridor_ecm::UpdateError>(())
    /// ```
    pub fn apply_batch(&mut self, changes: &[Change]) -> Result<Vec<ObstacleId>, UpdateError> {
        let patch = self.plan_batch(changes)?;
        self.apply(patch)
    }
}

fn map_obstacle(obstacle: &Obstacle, f: &impl Fn(Point) -> Point) -> Obstacle {
    use corridor_geom::{Polygon, Ring};
    let ring = |r: &Ring| Ring::new(r.vertices().iter().map(|p| f(*p)).collect());
    match obstacle {
        Obstacle::Point(p) => Obstacle::Point(f(*p)),
        Obstacle::Polyline(v) => Obstacle::Polyline(v.iter().map(|p| f(*p)).collect()),
        Obstacle::Polygon(poly) => Obstacle::Polygon(Polygon {
            exterior: ring(&poly.exterior),
            holes: poly.holes.iter().map(ring).collect(),
        }),
    }
}
