//! Random updates of dynamic ECMs, each compared with a full rebuild: [`soak`]. Test
//! code (the `update_soak` tests and `corridor soak`), so it lives here and not in the
//! published `corridor-ecm`, whose public API it uses.

use crate::random::{
    random_environment, random_obstacle, BoundaryShape, ObstacleMix, RandomEnvironmentOptions,
};
use corridor_ecm::{Change, DynamicEcm, Ecm, RepairMethod, UpdateError, UpdateOptions};
use corridor_geom::{normalize, Environment, NormalizeScope, ObstacleId, Point};
use serde::Serialize;
use std::time::Instant;

/// Settings of [`soak`].
#[derive(Clone, Debug)]
pub struct SoakOptions {
    /// Environments to run on, in turn (name and environment). When empty, the soak
    /// draws random environments of several kinds: the default obstacle mix (points,
    /// segments, polylines, convex and concave polygons, polygons with holes, some on the
    /// boundary), a star-shaped boundary, large overlapping polygons, grid maps and
    /// rectangles on a lattice (shared edges, diagonal pinches), and tiny and huge
    /// coordinates.
    pub environments: Vec<(String, Environment)>,
    /// Operations on one environment before the next one is taken (default 200).
    pub ops_per_environment: usize,
    /// Compare with a full rebuild after every `check_every`-th operation (default 1:
    /// after every one).
    pub check_every: usize,
    /// Tolerance of the comparison ([`Ecm::canonical_diff`], user units; default 1e-6).
    pub tolerance: f64,
    /// Options of the dynamic maps (default: local repair whenever it can be proven,
    /// however large the region).
    pub update: UpdateOptions,
    /// Descriptions of at most this many mismatches are kept (default 20).
    pub max_details: usize,
    /// When positive, random environments start with at most this many obstacles
    /// (smaller maps make more operations per second; default 0: each kind's own count,
    /// 8 to 30).
    pub max_obstacles: usize,
    /// Only these random environment kinds (indices into the list above, in its order;
    /// empty: all of them).
    pub kinds: Vec<usize>,
    /// Keep, for each of the first `max_details` mismatches, the environment before the
    /// update and the changes ([`SoakReport::failures`]), so that it can be replayed
    /// alone (default false: cloning the environment before every update costs time).
    pub keep_failures: bool,
}

impl Default for SoakOptions {
    fn default() -> Self {
        SoakOptions {
            environments: Vec::new(),
            ops_per_environment: 200,
            check_every: 1,
            tolerance: 1e-6,
            update: UpdateOptions {
                max_local_fraction: f64::INFINITY,
                ..UpdateOptions::default()
            },
            max_details: 20,
            max_obstacles: 0,
            kinds: Vec::new(),
            keep_failures: false,
        }
    }
}

/// What a [`soak`] run did and found.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SoakReport {
    /// Updates applied.
    pub operations: usize,
    /// Of which single insertions.
    pub inserts: usize,
    /// Of which single removals.
    pub removes: usize,
    /// Of which single moves.
    pub moves: usize,
    /// Of which batches of two or three changes.
    pub batches: usize,
    /// Updates repaired locally.
    pub local: usize,
    /// Updates that rebuilt the whole ECM (the local repair could not prove its result).
    pub full_rebuilds: usize,
    /// Updates that changed no wall.
    pub unchanged: usize,
    /// Walls changed by the window method, the group method and a full normalization.
    pub walls_window: usize,
    /// See `walls_window`.
    pub walls_group: usize,
    /// See `walls_window`.
    pub walls_global: usize,
    /// Changes refused with a typed error (an obstacle outside the boundary, no free space
    /// left, ...), each confirmed by a full rebuild that refuses them too.
    pub rejected: usize,
    /// Updates compared with a full rebuild.
    pub checked: usize,
    /// Differences from a full rebuild (a different map, a different verdict, a cell index
    /// of another size, component ids out of range). Must be 0.
    pub mismatches: usize,
    /// The first mismatches, described.
    pub details: Vec<String>,
    /// The first mismatches as reproducers, when [`SoakOptions::keep_failures`] is set.
    #[serde(skip)]
    pub failures: Vec<SoakFailure>,
    /// Environments used.
    pub environments: usize,
    /// Time spent planning and applying updates (seconds, wall clock).
    pub update_seconds: f64,
    /// Time spent on the full rebuilds of the comparison (seconds, wall clock).
    pub rebuild_seconds: f64,
}

/// How `ecm` differs from the full rebuild `full`, if it does: the canonical map, the
/// size of the cell index, the counts in its stats, component ids in range.
fn difference(ecm: &Ecm, full: &Ecm, tolerance: f64) -> Option<String> {
    ecm.canonical_diff(full, tolerance)
        .or_else(|| {
            (ecm.cell_index().len() != full.cell_index().len()).then(|| {
                format!(
                    "cell index of {} pieces against {}",
                    ecm.cell_index().len(),
                    full.cell_index().len()
                )
            })
        })
        .or_else(|| {
            let stats = ecm.stats();
            let counted = (
                ecm.vertex_count(),
                ecm.edge_count(),
                ecm.bending_point_count(),
            );
            (counted != (stats.vertices, stats.edges, stats.bending_points)).then(|| {
                format!(
                    "stats say {} vertices, {} edges, {} bending points; the map has {counted:?}",
                    stats.vertices, stats.edges, stats.bending_points
                )
            })
        })
        .or_else(|| {
            let count = ecm.component_count() as u32;
            ecm.vertices()
                .any(|(_, v)| v.component.0 >= count)
                .then(|| "a component id out of range".to_string())
        })
}

impl SoakFailure {
    /// Replays the update alone: builds a dynamic map of the environment, applies the
    /// changes and compares with a full rebuild. Returns what differs, `None` when the
    /// update now equals the rebuild.
    pub fn replay(&self, options: &SoakOptions) -> Option<String> {
        let mut map =
            match DynamicEcm::with_options(self.environment.clone(), options.update.clone()) {
                Ok(map) => map,
                Err(e) => return Some(format!("the environment does not build: {e}")),
            };
        let patch = match map.plan_batch(&self.changes) {
            Ok(patch) => patch,
            Err(e) => return Some(format!("the update is refused: {e}")),
        };
        if let Err(e) = map.apply(patch) {
            return Some(format!("apply failed: {e}"));
        }
        match Ecm::build_with(map.environment(), &options.update.build) {
            Err(e) => Some(format!("a full rebuild fails ({e})")),
            Ok(full) => difference(map.ecm(), &full, options.tolerance),
        }
    }
}

/// One mismatch of a [`soak`], enough to replay it: apply `changes` to a
/// [`DynamicEcm`] of `environment` and compare with a full rebuild.
#[derive(Clone, Debug, PartialEq)]
pub struct SoakFailure {
    /// The environment before the update.
    pub environment: Environment,
    /// The update (one change or a batch).
    pub changes: Vec<Change>,
    /// What differed.
    pub description: String,
}

impl SoakReport {
    fn mismatch(&mut self, max: usize, what: String) {
        self.mismatches += 1;
        if self.details.len() < max {
            self.details.push(what);
        }
    }

    /// Keeps a reproducer of the mismatch just counted, when there is room.
    fn keep(&mut self, max: usize, before: Option<Environment>, changes: &[Change]) {
        if let (Some(environment), Some(description)) = (before, self.details.last()) {
            if self.failures.len() < max.min(self.details.len()) {
                self.failures.push(SoakFailure {
                    environment,
                    changes: changes.to_vec(),
                    description: description.clone(),
                });
            }
        }
    }
}

/// A small deterministic generator (SplitMix64), enough to pick changes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[lo, hi)`.
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform in `0..n` (`n > 0`).
    fn index(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The random environment kinds of a soak without given environments.
fn random_configs() -> Vec<RandomEnvironmentOptions> {
    vec![
        RandomEnvironmentOptions {
            obstacles: 12,
            ..Default::default()
        },
        RandomEnvironmentOptions {
            obstacles: 8,
            boundary: BoundaryShape::Star,
            ..Default::default()
        },
        RandomEnvironmentOptions {
            obstacles: 10,
            mix: ObstacleMix::POLYGONS,
            max_radius: 0.25,
            ..Default::default()
        },
        RandomEnvironmentOptions::grid_map(24, 30),
        RandomEnvironmentOptions {
            obstacles: 25,
            mix: ObstacleMix::RECTANGLES,
            lattice: Some(2.0),
            ..Default::default()
        },
        RandomEnvironmentOptions {
            obstacles: 10,
            ..RandomEnvironmentOptions::scaled(2.0, Point::new(-1.0, 3.0))
        },
        RandomEnvironmentOptions {
            obstacles: 10,
            ..RandomEnvironmentOptions::scaled(20_000.0, Point::new(15_000.0, -20_000.0))
        },
    ]
}

/// Options for random obstacles that suit a given environment.
fn options_for(env: &Environment) -> RandomEnvironmentOptions {
    let bounds = env.bounds();
    let size = (bounds.max - bounds.min).max_element().max(1e-9);
    RandomEnvironmentOptions {
        origin: bounds.min,
        size,
        min_radius: (0.5 / size).min(0.02),
        max_radius: (4.0 / size).min(0.12),
        snap: env.snap_grid(),
        ..Default::default()
    }
}

/// One random change of `env`: an insertion, a removal or a move (a small shift on the
/// lattice or off it, or a new shape).
fn random_change(
    rng: &mut Rng,
    env: &Environment,
    pending: &[ObstacleId],
    options: &RandomEnvironmentOptions,
) -> Change {
    let ids: Vec<ObstacleId> = env
        .obstacles()
        .map(|(id, _)| id)
        .filter(|id| !pending.contains(id))
        .collect();
    let roll = rng.unit();
    if ids.is_empty() || roll < 0.45 {
        return Change::Insert(random_obstacle(rng.next(), options));
    }
    let id = ids[rng.index(ids.len())];
    if roll < 0.7 {
        return Change::Remove(id);
    }
    let obstacle = if rng.unit() < 0.7 {
        let step = options.size * 0.05;
        let mut d = Point::new(rng.range(-step, step), rng.range(-step, step));
        if let Some(l) = options.lattice {
            d = (d / l).round() * l;
        }
        match env.obstacle(id) {
            Some(o) => o.translated(d),
            None => random_obstacle(rng.next(), options),
        }
    } else {
        random_obstacle(rng.next(), options)
    };
    Change::Move { id, obstacle }
}

/// The environment after `changes` (in order), or `None` when a change names an unknown
/// obstacle.
fn changed(env: &Environment, changes: &[Change]) -> Option<Environment> {
    let mut env = env.clone();
    for c in changes {
        match c {
            Change::Insert(o) => {
                env.insert(o.clone());
            }
            Change::Remove(id) => {
                env.remove(*id)?;
            }
            Change::Move { id, obstacle } => {
                env.replace(*id, obstacle.clone()).ok()?;
            }
        }
    }
    Some(env)
}

/// Runs `ops` random updates (insertions, removals and moves of points, segments,
/// polylines, convex and concave polygons and polygons with holes, overlapping or not,
/// and batches of them) and compares the dynamic ECM with a full rebuild after each (see
/// [`SoakOptions::check_every`]). Deterministic for a given `seed` and options.
///
/// A mismatch is counted, never retried: a map that differs from the full rebuild
/// ([`Ecm::canonical_diff`]), a change the update refuses but a full rebuild accepts (or
/// the other way round), a cell index of another size, component ids out of
/// `0..component_count`.
///
/// ```
/// use corridor_testkit::soak::{soak, SoakOptions};
/// let report = soak(30, 7, &SoakOptions::default());
/// assert_eq!(report.mismatches, 0, "{:?}", report.details);
/// assert_eq!(report.operations + report.rejected, 30);
/// ```
pub fn soak(ops: usize, seed: u64, options: &SoakOptions) -> SoakReport {
    soak_with_progress(ops, seed, options, |_| {})
}

/// [`soak`], calling `progress` with the report so far after every operation.
pub fn soak_with_progress(
    ops: usize,
    seed: u64,
    options: &SoakOptions,
    mut progress: impl FnMut(&SoakReport),
) -> SoakReport {
    let mut rng = Rng(seed);
    let mut report = SoakReport::default();
    let configs = random_configs();
    let per_env = options.ops_per_environment.max(1);
    let check_every = options.check_every.max(1);
    let max = options.max_details;
    let mut done = 0usize;
    while done < ops {
        // The next environment.
        let k = report.environments;
        report.environments += 1;
        let (name, env, draw) = if options.environments.is_empty() {
            let kinds: Vec<usize> = if options.kinds.is_empty() {
                (0..configs.len()).collect()
            } else {
                options
                    .kinds
                    .iter()
                    .copied()
                    .filter(|k| *k < configs.len())
                    .collect()
            };
            let kind = kinds.get(k % kinds.len().max(1)).copied().unwrap_or(0);
            let mut config = configs[kind];
            if options.max_obstacles > 0 {
                config.obstacles = config.obstacles.min(options.max_obstacles);
            }
            let env_seed = rng.next();
            let name = format!("random kind {kind} seed {env_seed}");
            (name, random_environment(env_seed, &config), config)
        } else {
            let (name, env) = &options.environments[k % options.environments.len()];
            (name.clone(), env.clone(), options_for(env))
        };
        let mut map = match DynamicEcm::with_options(env.clone(), options.update.clone()) {
            Ok(map) => map,
            Err(e) => {
                // The environment itself cannot be built: a full build must agree.
                if Ecm::build(&env).is_ok() {
                    report.mismatch(
                        max,
                        format!("{name}: the dynamic map fails ({e}) but a full build succeeds"),
                    );
                }
                continue;
            }
        };
        for _ in 0..per_env.min(ops - done) {
            done += 1;
            let step = done;
            // One change, or a batch of two or three.
            let batch = rng.unit() < 0.05;
            let mut changes = Vec::new();
            let mut pending = Vec::new();
            for _ in 0..if batch { 2 + rng.index(2) } else { 1 } {
                let c = random_change(&mut rng, map.environment(), &pending, &draw);
                match &c {
                    Change::Remove(id) | Change::Move { id, .. } => pending.push(*id),
                    Change::Insert(_) => {}
                }
                changes.push(c);
            }
            let before = options.keep_failures.then(|| map.environment().clone());
            let clock = Instant::now();
            let planned = map.plan_batch(&changes);
            let patch = match planned {
                Ok(p) => p,
                Err(e) => {
                    report.update_seconds += clock.elapsed().as_secs_f64();
                    // The change is refused: a full rebuild of the changed environment
                    // must refuse it too.
                    let clock = Instant::now();
                    let full_ok = changed(map.environment(), &changes)
                        .is_some_and(|env| normalize(&env).is_ok() && Ecm::build(&env).is_ok());
                    report.rebuild_seconds += clock.elapsed().as_secs_f64();
                    let expected = matches!(
                        e,
                        UpdateError::InvalidObstacle { .. }
                            | UpdateError::Build(_)
                            | UpdateError::Normalize(_)
                    );
                    if full_ok || !expected {
                        report.mismatch(
                            max,
                            format!("{name} step {step}: {changes:?} refused ({e}) but a full rebuild accepts it"),
                        );
                        report.keep(max, before, &changes);
                    } else {
                        report.rejected += 1;
                    }
                    progress(&report);
                    continue;
                }
            };
            let r = patch.report().clone();
            if let Err(e) = map.apply(patch) {
                report.mismatch(max, format!("{name} step {step}: apply failed: {e}"));
                report.keep(max, before, &changes);
                break;
            }
            report.update_seconds += clock.elapsed().as_secs_f64();
            report.operations += 1;
            match (batch, &changes[0]) {
                (true, _) => report.batches += 1,
                (false, Change::Insert(_)) => report.inserts += 1,
                (false, Change::Remove(_)) => report.removes += 1,
                (false, Change::Move { .. }) => report.moves += 1,
            }
            match r.method {
                RepairMethod::Local => report.local += 1,
                RepairMethod::FullRebuild => report.full_rebuilds += 1,
                RepairMethod::Unchanged => report.unchanged += 1,
            }
            match r.normalize_scope {
                NormalizeScope::Window => report.walls_window += 1,
                NormalizeScope::Group => report.walls_group += 1,
                NormalizeScope::Global => report.walls_global += 1,
                NormalizeScope::Unchanged => {}
            }
            if step.is_multiple_of(check_every) {
                report.checked += 1;
                let clock = Instant::now();
                let full = Ecm::build_with(map.environment(), &options.update.build);
                report.rebuild_seconds += clock.elapsed().as_secs_f64();
                let problem = match full {
                    Err(e) => Some(format!("a full rebuild fails ({e})")),
                    Ok(full) => difference(map.ecm(), &full, options.tolerance),
                };
                if let Some(p) = problem {
                    report.mismatch(max, format!("{name} step {step}: {changes:?} ({r:?}): {p}"));
                    report.keep(max, before, &changes);
                    // Go on from a correct map.
                    match DynamicEcm::with_options(
                        map.environment().clone(),
                        options.update.clone(),
                    ) {
                        Ok(fresh) => map = fresh,
                        Err(_) => break,
                    }
                }
            }
            progress(&report);
        }
    }
    report
}
