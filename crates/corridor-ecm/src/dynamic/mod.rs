//! The ECM of a changing environment ([`DynamicEcm`]): inserting, removing and moving
//! obstacles with an exact local repair of the ECM, in two steps (a read-only
//! [`DynamicEcm::plan_update`] and a short [`DynamicEcm::apply`]), and the canonical
//! comparison the tests use to show that the result equals a full rebuild.
//!
//! The files, from the top: this one (the map and its two steps), [`Change`], [`Patch`]
//! (with the report), [`UpdateOptions`], [`UpdateStats`], [`UpdateError`], and `local`,
//! the local repair of the ECM that a patch carries.

mod change;
mod error;
mod local;
mod options;
mod patch;
mod stats;

pub use change::Change;
pub use error::UpdateError;
pub use options::UpdateOptions;
pub use patch::{Patch, PatchReport, RepairMethod};
pub use stats::UpdateStats;

use crate::Ecm;
use corridor_geom::{
    normalize, Environment, EnvironmentError, Obstacle, ObstacleEdit, ObstacleId, Point, WallMap,
    Walls,
};
use patch::Repair;
use std::collections::BTreeMap;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A change of more walls than this fraction of [`UpdateOptions::max_local_fraction`] of
/// the map's walls, and more than [`LARGE_CHANGE_MIN`], rebuilds the whole ECM without
/// trying a local repair.
const LARGE_CHANGE_FRACTION: f64 = 0.25;

/// Below this many changed walls a local repair is always tried (it is cheap).
const LARGE_CHANGE_MIN: usize = 1024;

/// An ECM that follows a changing environment: it owns the [`Environment`], its
/// [`Walls`] and the [`Ecm`], and keeps the ECM equal to a full rebuild after every
/// update.
///
/// Updates run in two steps: [`DynamicEcm::plan_update`] (or [`DynamicEcm::plan_batch`]) reads
/// the map and returns a [`Patch`]; [`DynamicEcm::apply`] splices it in. Readers can keep
/// querying [`DynamicEcm::ecm`] while a patch is planned (for example behind an
/// `RwLock`, taking the write lock only for `apply`). The one-step helpers
/// [`DynamicEcm::insert`], [`DynamicEcm::remove`], [`DynamicEcm::move_to`] and
/// [`DynamicEcm::apply_batch`] do both.
///
/// Every step is local:
///
/// * **Walls.** The change of the walls is computed by re-normalizing only the
///   neighbourhood of the changed obstacles ([`WallMap`]: a box around them where
///   everything is axis-parallel, else the group of obstacles whose boxes overlap them),
///   checked, and spliced into an R-tree of the walls; the exact free area is updated
///   from the changed walls.
/// * **ECM.** The ECM edges whose clearance discs meet the changed walls are replaced by
///   the matching part of an ECM built from the walls around them, and the result is
///   checked (every new point's disc lies inside the region whose walls were used, the
///   Voronoi output passes the build's validation, degrees and areas balance). When the
///   check fails, the region is doubled; after [`UpdateOptions::max_widenings`]
///   doublings the whole ECM is rebuilt. A wrong map is never returned.
/// * **Components** are renumbered by searches from the changed vertices that stop as
///   soon as they know whether a component split or joined.
///
/// A [`Patch`] holds only the changed obstacles, the changed walls and the replacement
/// part of the ECM, so planning copies nothing of the size of the map.
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
    walls: WallMap,
    /// The full [`Walls`] (with sources and free-space polygons), made on demand.
    full_walls: OnceLock<Walls>,
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
        let (map, walls) = Self::walls_for(&env, &options)?;
        let normalize_time = start.elapsed();
        let mut ecm = Ecm::from_walls_with(&walls, &options.build)?;
        ecm.stats.normalize = normalize_time;
        Ok(Self::assemble(env, (map, walls), ecm, options))
    }

    /// The map of an environment whose ECM is already built (a saved map, see
    /// [`DynamicEcm::load`]): normalizes the environment for the updates and builds the
    /// update index, but no ECM. The caller vouches that `ecm` is the environment's.
    pub(crate) fn from_parts(
        env: Environment,
        ecm: Ecm,
        options: UpdateOptions,
    ) -> Result<Self, UpdateError> {
        let walls = Self::walls_for(&env, &options)?;
        Ok(Self::assemble(env, walls, ecm, options))
    }

    /// The walls of `env` and the map the updates keep of them.
    fn walls_for(
        env: &Environment,
        options: &UpdateOptions,
    ) -> Result<(WallMap, Walls), UpdateError> {
        let (mut map, walls) = WallMap::new(env)?;
        if !options.max_local_fraction.is_finite() {
            map = map.with_group_fraction(f64::INFINITY);
        }
        Ok((map, walls))
    }

    /// The map at version 0, given its parts (the ECM of these walls).
    fn assemble(
        env: Environment,
        (map, walls): (WallMap, Walls),
        ecm: Ecm,
        options: UpdateOptions,
    ) -> Self {
        let index = local::UpdateIndex::new(&ecm, options.build.max_arc_deviation);
        DynamicEcm {
            env,
            walls: map,
            full_walls: OnceLock::from(walls),
            ecm,
            options,
            version: 0,
            index,
            stats: UpdateStats::default(),
        }
    }

    /// The current ECM.
    pub fn ecm(&self) -> &Ecm {
        &self.ecm
    }

    /// The current environment (the obstacles as the user gave them).
    pub fn environment(&self) -> &Environment {
        &self.env
    }

    /// The current walls (the normalized obstacles the ECM is built from), with their
    /// sources and the free-space polygons.
    ///
    /// Updates keep only the walls' geometry ([`DynamicEcm::wall_map`]); the first call
    /// after an update normalizes the whole environment again to produce the full
    /// [`Walls`] (the same walls, as the tests check), and later calls return them.
    pub fn walls(&self) -> Result<&Walls, UpdateError> {
        if let Some(w) = self.full_walls.get() {
            return Ok(w);
        }
        let walls = normalize(&self.env)?;
        Ok(self.full_walls.get_or_init(|| walls))
    }

    /// The walls' geometry as the updates keep it: an R-tree over the walls, the exact
    /// free area and the indexes of the local re-normalization.
    pub fn wall_map(&self) -> &WallMap {
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
    /// let patch = map.plan_update(&Change::Insert(Obstacle::Point(Point::new(3.0, 3.0))))?;
    /// assert_eq!(patch.report().method, RepairMethod::Local);
    /// assert_eq!(map.ecm().vertex_count(), before); // not applied yet
    /// let ids = map.apply(patch)?;
    /// assert_eq!(map.environment().obstacle(ids[0]), Some(&Obstacle::Point(Point::new(3.0, 3.0))));
    /// # Ok::<(), corridor_ecm::UpdateError>(())
    /// ```
    pub fn plan_update(&self, change: &Change) -> Result<Patch, UpdateError> {
        self.plan_batch(std::slice::from_ref(change))
    }

    /// Plans several changes as one update (one repair for all of them). The changes
    /// are taken in order: an obstacle inserted by an earlier change can be moved or
    /// removed by a later one (its id is [`Environment::next_id`] at the time).
    pub fn plan_batch(&self, changes: &[Change]) -> Result<Patch, UpdateError> {
        let start = Instant::now();
        // The final geometry of every obstacle the changes touch.
        let mut state: BTreeMap<ObstacleId, Option<Obstacle>> = BTreeMap::new();
        let mut next = self.env.next_id().0;
        let mut inserted = Vec::new();
        let exists =
            |state: &BTreeMap<ObstacleId, Option<Obstacle>>, id: ObstacleId| match state.get(&id) {
                Some(o) => o.is_some(),
                None => self.env.obstacle(id).is_some(),
            };
        for change in changes {
            match change {
                Change::Insert(obstacle) => {
                    let id = ObstacleId(next);
                    next = next.checked_add(1).ok_or(UpdateError::InvalidObstacle {
                        id,
                        source: EnvironmentError::UnknownObstacle(id),
                    })?;
                    state.insert(id, Some(obstacle.clone()));
                    inserted.push(id);
                }
                Change::Remove(id) => {
                    if !exists(&state, *id) {
                        return Err(UpdateError::UnknownObstacle(*id));
                    }
                    state.insert(*id, None);
                }
                Change::Move { id, obstacle } => {
                    if !exists(&state, *id) {
                        return Err(UpdateError::UnknownObstacle(*id));
                    }
                    state.insert(*id, Some(obstacle.clone()));
                }
            }
        }
        let edits: Vec<(ObstacleId, Option<Obstacle>)> = state
            .into_iter()
            .filter(|(id, o)| self.env.obstacle(*id) != o.as_ref())
            .collect();
        let wall_edits: Vec<ObstacleEdit<'_>> = edits
            .iter()
            .map(|(id, o)| ObstacleEdit {
                id: *id,
                obstacle: o.as_ref(),
            })
            .collect();
        let delta = self.walls.plan(&self.env, &wall_edits)?;
        let walls_time = start.elapsed();
        let mut report = PatchReport {
            method: RepairMethod::Unchanged,
            changed_walls: delta.removed().len() + delta.added().len(),
            normalize_scope: delta.scope(),
            removed_edges: 0,
            added_edges: 0,
            widenings: 0,
            cut_edges: false,
            fallback_reason: None,
            plan_time: Duration::ZERO,
            walls_time,
            voronoi_time: Duration::ZERO,
            local_walls: 0,
        };
        let repair = if delta.is_empty() {
            Repair::Unchanged
        } else {
            // A change of many walls for the size of the map costs more to repair locally
            // than to rebuild (measured with `examples/batch_update_cost`: 5,000 squares
            // in random512-10-0 took 1.4x a rebuild, after a failed local attempt).
            let total = self.walls.walls().len() as f64;
            let changed = delta.added().len() + delta.removed().len();
            let large = changed > LARGE_CHANGE_MIN
                && changed as f64 > LARGE_CHANGE_FRACTION * self.options.max_local_fraction * total;
            let local = if self.options.local_repair && !large {
                local::plan_patch(
                    &self.ecm,
                    &self.index,
                    self.walls.walls(),
                    &self.options,
                    &delta,
                )
            } else {
                Err(local::Fallback {
                    reason: if large {
                        format!("{changed} walls change of {total}: a rebuild is cheaper")
                    } else {
                        String::new()
                    },
                    widenings: 0,
                    voronoi_time: Duration::ZERO,
                })
            };
            match local {
                Ok(splice) => {
                    report.method = RepairMethod::Local;
                    report.widenings = splice.widenings;
                    report.cut_edges = splice.cut;
                    report.removed_edges = splice.remove_edges.len();
                    report.added_edges = splice.new_edges.len();
                    report.voronoi_time = splice.voronoi_time;
                    report.local_walls = splice.local_walls;
                    Repair::Local(Box::new(splice))
                }
                Err(fallback) => {
                    let clock = Instant::now();
                    let mut env = self.env.clone();
                    for (id, o) in &edits {
                        match o {
                            Some(o) => {
                                env.insert_with_id(*id, o.clone());
                            }
                            None => {
                                env.remove(*id);
                            }
                        }
                    }
                    let walls = normalize(&env)?;
                    let ecm = Ecm::from_walls_with(&walls, &self.options.build)?;
                    report.method = RepairMethod::FullRebuild;
                    report.widenings = fallback.widenings;
                    if self.options.local_repair {
                        report.fallback_reason = Some(fallback.reason);
                    }
                    report.removed_edges = self.ecm.edge_count();
                    report.added_edges = ecm.edge_count();
                    report.voronoi_time = fallback.voronoi_time + clock.elapsed();
                    Repair::Full(Box::new(ecm), Box::new(walls))
                }
            }
        };
        report.plan_time = start.elapsed();
        Ok(Patch {
            base: self.version,
            edits,
            next_id: ObstacleId(next),
            inserted,
            walls_delta: delta,
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
            edits,
            next_id,
            inserted,
            walls_delta,
            repair,
            report,
            ..
        } = patch;
        let deviation = self.options.build.max_arc_deviation;
        self.full_walls = OnceLock::new();
        match repair {
            Repair::Unchanged => self.stats.unchanged += 1,
            Repair::Local(splice) => {
                local::apply_splice(&mut self.ecm, &mut self.index, *splice, deviation);
                self.ecm.uid = crate::graph::fresh_uid();
                self.stats.local += 1;
            }
            Repair::Full(ecm, walls) => {
                self.ecm = *ecm;
                self.index.rebuild(&self.ecm, deviation);
                self.full_walls = OnceLock::from(*walls);
                self.stats.full_rebuilds += 1;
                if self.options.local_repair {
                    self.stats.fallbacks += 1;
                }
            }
        }
        self.walls.apply(walls_delta);
        for (id, o) in edits {
            match o {
                Some(o) => {
                    self.env.insert_with_id(id, o);
                }
                None => {
                    self.env.remove(id);
                }
            }
        }
        if self.env.next_id() < next_id {
            // Ids of obstacles inserted and removed again by the same patch are used up.
            let last = ObstacleId(next_id.0 - 1);
            self.env.insert_with_id(last, Obstacle::Point(Point::ZERO));
            self.env.remove(last);
        }
        self.stats.widenings += report.widenings;
        self.stats.patches += 1;
        self.version += 1;
        Ok(inserted)
    }

    /// Inserts an obstacle (plan and apply) and returns its id.
    pub fn insert(&mut self, obstacle: Obstacle) -> Result<ObstacleId, UpdateError> {
        let patch = self.plan_update(&Change::Insert(obstacle))?;
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
        let patch = self.plan_update(&Change::Remove(id))?;
        self.apply(patch)?;
        Ok(old)
    }

    /// Replaces an obstacle's geometry (plan and apply), keeping its id.
    pub fn move_to(&mut self, id: ObstacleId, obstacle: Obstacle) -> Result<(), UpdateError> {
        let patch = self.plan_update(&Change::Move { id, obstacle })?;
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
        Ok(obstacle.mapped(f))
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
