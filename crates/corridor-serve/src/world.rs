//! One shared map ([`World`]): how many clients query one environment's ECM at once
//! while another changes it.
//!
//! Readers load the current [`Snapshot`] (an `Arc`, through `arc-swap`: no lock, no
//! waiting) and plan on it. An update takes the writer's lock (updates run one at a
//! time), plans the patch on the writer's [`DynamicEcm`] (the read-only step), applies it
//! (the short step), and publishes a new snapshot; readers that hold the old one finish
//! on it. A reader never waits for an update.

use crate::protocol::{EditRequest, ServeError, MAX_WALL_PIECES};
use arc_swap::ArcSwap;
use corridor_ecm::{Change, DynamicEcm, Ecm, PatchReport, RepairMethod};
use corridor_geom::{Environment, NormalizeLimits, Obstacle, ObstacleId, Point};
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// What readers see: one version of the map.
#[derive(Debug)]
pub struct Snapshot {
    /// How many updates led here.
    pub version: u64,
    /// The ECM of `env`.
    pub ecm: Ecm,
    /// The environment.
    pub env: Environment,
    /// The obstacles that are doors (closed by `close_door`).
    pub doors: BTreeSet<ObstacleId>,
    /// Time of the last update (plan + apply + publish), if any.
    pub last_update: Option<UpdateTimes>,
    /// The map's JSON, made for the first client that asks.
    pub(crate) view: OnceLock<Arc<str>>,
}

/// How long an update took, in its steps.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UpdateTimes {
    /// Planning the patch (read-only).
    pub plan: Duration,
    /// Applying it to the writer's map.
    pub apply: Duration,
    /// Copying the result into the snapshot readers load.
    pub publish: Duration,
}

/// The outcome of one update.
#[derive(Clone, Debug)]
pub struct UpdateOutcome {
    /// The version after it.
    pub version: u64,
    /// How the ECM was repaired.
    pub method: RepairMethod,
    /// The planner's report.
    pub report: PatchReport,
    /// The ids the update inserted.
    pub inserted: Vec<ObstacleId>,
    /// The changes as applied (drags and doors resolved to obstacles), for the crowds
    /// that walk on copies of this map.
    pub changes: Arc<[Change]>,
    /// The steps' times.
    pub times: UpdateTimes,
}

struct Writer {
    map: DynamicEcm,
    doors: BTreeSet<ObstacleId>,
}

/// The shared map of one environment.
pub struct World {
    name: String,
    current: ArcSwap<Snapshot>,
    writer: Mutex<Writer>,
}

impl World {
    /// Builds the map of an environment.
    ///
    /// ```
    /// use corridor_serve::World;
    /// let world = World::build("empty", corridor_io::scenes::empty()).unwrap();
    /// assert_eq!(world.snapshot().version, 0);
    /// ```
    pub fn build(name: &str, env: Environment) -> Result<World, ServeError> {
        let limits = NormalizeLimits {
            max_wall_pieces: Some(MAX_WALL_PIECES),
        };
        limits
            .check_environment(&env)
            .map_err(|e| ServeError::Build(e.to_string()))?;
        let map = DynamicEcm::new(env).map_err(|e| ServeError::Build(e.to_string()))?;
        let snapshot = Snapshot {
            version: 0,
            ecm: map.ecm().clone(),
            env: map.environment().clone(),
            doors: BTreeSet::new(),
            last_update: None,
            view: OnceLock::new(),
        };
        Ok(World {
            name: name.to_owned(),
            current: ArcSwap::from_pointee(snapshot),
            writer: Mutex::new(Writer {
                map,
                doors: BTreeSet::new(),
            }),
        })
    }

    /// The environment's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The current snapshot (lock-free).
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.current.load_full()
    }

    /// Applies edits as one update: plans, applies, publishes. Blocks the calling thread
    /// (run it off the async runtime); readers go on meanwhile.
    ///
    /// ```
    /// use corridor_serve::{EditRequest, World};
    /// use corridor_geom::{Obstacle, Point};
    /// let world = World::build("empty", corridor_io::scenes::empty()).unwrap();
    /// let block = Obstacle::rectangle(Point::new(10.0, 10.0), Point::new(12.0, 12.0));
    /// let outcome = world.update(&[EditRequest::Insert(block)]).unwrap();
    /// assert_eq!(outcome.version, 1);
    /// assert_eq!(world.snapshot().env.obstacles().count(), outcome.inserted[0].0 as usize + 1);
    /// ```
    pub fn update(&self, edits: &[EditRequest]) -> Result<UpdateOutcome, ServeError> {
        let mut writer = match self.writer.lock() {
            Ok(w) => w,
            // A panic inside an earlier update left the writer in an unknown state:
            // rebuild it from the last published environment.
            Err(poisoned) => {
                let mut w = poisoned.into_inner();
                self.recover(&mut w)?;
                self.writer.clear_poison();
                w
            }
        };
        let (changes, doors) = self.changes(&writer, edits)?;
        let start = Instant::now();
        let patch = writer.map.plan_batch(&changes)?;
        let changes: Arc<[Change]> = changes.into();
        let plan = start.elapsed();
        let report = patch.report().clone();
        let start = Instant::now();
        let inserted = writer.map.apply(patch)?;
        let apply = start.elapsed();
        // Doors: new ones by position among the inserted, removed ones dropped.
        for (k, id) in inserted.iter().enumerate() {
            if doors.contains(&k) {
                writer.doors.insert(*id);
            }
        }
        for edit in edits {
            if let EditRequest::Remove(id) = edit {
                writer.doors.remove(id);
            }
        }
        let start = Instant::now();
        let previous = self.current.load();
        let mut snapshot = Snapshot {
            version: previous.version + 1,
            ecm: writer.map.ecm().clone(),
            env: writer.map.environment().clone(),
            doors: writer.doors.clone(),
            last_update: None,
            view: OnceLock::new(),
        };
        let times = UpdateTimes {
            plan,
            apply,
            publish: start.elapsed(),
        };
        snapshot.last_update = Some(times);
        let version = snapshot.version;
        self.current.store(Arc::new(snapshot));
        Ok(UpdateOutcome {
            version,
            method: report.method,
            report,
            inserted,
            changes,
            times,
        })
    }

    /// A copy of the writer's map and the version it is at, for a crowd that walks on
    /// it and follows the updates (see [`UpdateOutcome::changes`]).
    ///
    /// ```
    /// let world = corridor_serve::World::build("empty", corridor_io::scenes::empty()).unwrap();
    /// let (version, map) = world.map_copy();
    /// assert_eq!((version, map.ecm().component_count()), (0, 1));
    /// ```
    pub fn map_copy(&self) -> (u64, DynamicEcm) {
        let writer = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        (self.current.load().version, writer.map.clone())
    }

    /// The ECM changes of the edits, and which of the insertions are doors (their
    /// positions among the insertions).
    fn changes(
        &self,
        writer: &Writer,
        edits: &[EditRequest],
    ) -> Result<(Vec<Change>, BTreeSet<usize>), ServeError> {
        let env = writer.map.environment();
        let mut doors = BTreeSet::new();
        let mut inserts = 0;
        let mut changes = Vec::with_capacity(edits.len());
        for edit in edits {
            changes.push(match edit {
                EditRequest::Insert(o) => {
                    inserts += 1;
                    Change::Insert(o.clone())
                }
                EditRequest::Remove(id) => Change::Remove(*id),
                EditRequest::Move(id, o) => Change::Move {
                    id: *id,
                    obstacle: o.clone(),
                },
                EditRequest::Translate(id, offset) => {
                    let o = env
                        .obstacle(*id)
                        .ok_or(corridor_ecm::UpdateError::UnknownObstacle(*id))?;
                    Change::Move {
                        id: *id,
                        obstacle: o.translated(*offset),
                    }
                }
                EditRequest::CloseDoor(at) => {
                    doors.insert(inserts);
                    inserts += 1;
                    Change::Insert(door_across(writer.map.ecm(), *at)?)
                }
            });
        }
        Ok((changes, doors))
    }

    /// Rebuilds the writer from the last published environment and publishes it.
    fn recover(&self, writer: &mut Writer) -> Result<(), ServeError> {
        let last = self.current.load_full();
        writer.map =
            DynamicEcm::new(last.env.clone()).map_err(|e| ServeError::Internal(e.to_string()))?;
        writer.doors = last.doors.clone();
        Ok(())
    }
}

/// A thin door across the passage through `at`: a rectangle from the nearest obstacle
/// point on one side of the medial axis to the one on the other, at the bending point
/// of `at`'s cell nearest to its retraction.
///
/// ```
/// use corridor_ecm::Ecm;
/// use corridor_geom::{Environment, Point};
/// let ecm = Ecm::build(&Environment::rectangle(Point::ZERO, Point::new(20.0, 4.0))).unwrap();
/// let door = corridor_serve::door_across(&ecm, Point::new(10.0, 1.0)).unwrap();
/// let b = door.aabb().unwrap();
/// assert!(b.min.y.abs() < 1e-9 && (b.max.y - 4.0).abs() < 1e-9);
/// ```
pub fn door_across(ecm: &Ecm, at: Point) -> Result<Obstacle, ServeError> {
    let r = ecm.retract(at)?;
    let edge = ecm
        .edge(r.edge())
        .ok_or_else(|| ServeError::Internal("retraction on a missing edge".into()))?;
    let k = r.cell.piece as usize + usize::from(r.t > 0.5);
    let b = edge
        .bending_points
        .get(k)
        .ok_or_else(|| ServeError::Internal("retraction past the edge's end".into()))?;
    let across = b.right - b.left;
    let width = across.length();
    if width <= 0.0 {
        return Err(ServeError::BadRequest("no passage at this point".into()));
    }
    let half = across.perp() / width * (0.02 * width).max(0.05);
    Ok(Obstacle::polygon(vec![
        b.left - half,
        b.right - half,
        b.right + half,
        b.left + half,
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pile_of_overlapping_obstacles_is_refused_before_its_overlay() {
        // 600 vertical and 600 horizontal bars: 4 crossings per pair, 1.44M in all.
        let mut env = Environment::rectangle(Point::ZERO, Point::new(1000.0, 1000.0));
        for i in 0..600 {
            let t = 100.0 + 1.3 * i as f64;
            env.insert(Obstacle::rectangle(
                Point::new(t, 50.0),
                Point::new(t + 0.5, 950.0),
            ));
            env.insert(Obstacle::rectangle(
                Point::new(50.0, t),
                Point::new(950.0, t + 0.5),
            ));
        }
        let clock = Instant::now();
        let Err(ServeError::Build(message)) = World::build("pile", env) else {
            panic!("the pile was built")
        };
        assert!(message.contains("overlap too much"), "{message}");
        assert!(clock.elapsed() < Duration::from_secs(30), "refused late");
    }
}
