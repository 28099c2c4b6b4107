//! The crowd simulation from C: a simulation on its own copy of a map, characters added
//! and removed in batches, steps, and the characters' arrays read in place.

use crate::handles::{free_handle, get, get_mut, into_handle, put, CorridorMap};
use crate::status::{guard, CorridorStatus, Failure};
use corridor::crowd::{Avoidance, Character, CharacterId, Options, Phase, Simulation};
use corridor::prelude::Point;

/// A crowd simulation on its own copy of a map. Opaque; free with `corridor_crowd_free`.
pub struct CorridorCrowd {
    pub(crate) sim: Simulation,
    /// The ids and phases in index order, refreshed after every change of the crowd, so
    /// that C reads them in place as it reads the positions.
    ids: Vec<u64>,
    phases: Vec<CorridorPhase>,
    /// The environment as the queued obstacle changes will leave it (`None`: nothing
    /// queued); see `crowd_obstacles`.
    pub(crate) queued: Option<corridor::prelude::Environment>,
}

impl CorridorCrowd {
    fn refresh(&mut self) {
        let crowd = self.sim.crowd();
        self.ids = crowd.ids().iter().map(|id| id.0).collect();
        self.phases = crowd.phases().iter().map(|&p| p.into()).collect();
    }
}

/// Where a character is in its journey.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorridorPhase {
    /// On its way.
    Walking = 0,
    /// Within the arrival distance of its goal.
    Arrived = 1,
    /// No corridor wide enough leads to its goal; it tries again after an obstacle change.
    Blocked = 2,
}

impl From<Phase> for CorridorPhase {
    fn from(p: Phase) -> CorridorPhase {
        match p {
            Phase::Walking => CorridorPhase::Walking,
            Phase::Arrived => CorridorPhase::Arrived,
            Phase::Blocked => CorridorPhase::Blocked,
        }
    }
}

/// A character to add: where its centre starts, where it goes, its radius (positive), its
/// preferred and maximum speeds (m/s, 0 ≤ preferred ≤ max) and the clearance its route
/// keeps from walls where there is room (at least the radius is kept anyway).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CorridorCharacter {
    pub x: f64,
    pub y: f64,
    pub goal_x: f64,
    pub goal_y: f64,
    pub radius: f64,
    pub preferred_speed: f64,
    pub max_speed: f64,
    pub preferred_clearance: f64,
}

/// How a simulation runs (the crowd module's options; avoidance with RVO2's names).
/// Start from `corridor_crowd_options_default`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CorridorCrowdOptions {
    /// Seconds per step.
    pub time_step: f64,
    /// Avoidance and movement run this many times per step.
    pub substeps: usize,
    /// Worker threads (0: one per core); the trajectories do not depend on it.
    pub threads: usize,
    /// Other characters further than this are ignored.
    pub neighbour_distance: f64,
    /// At most this many nearest neighbours are avoided.
    pub max_neighbours: usize,
    /// Collisions with characters are avoided this many seconds ahead.
    pub time_horizon: f64,
    /// Collisions with walls are avoided this many seconds ahead.
    pub obstacle_horizon: f64,
    /// Follow the ECM route (true) or walk straight at the goal (false).
    pub route_following: bool,
    /// How far ahead on the route the attraction point lies, beyond the radius.
    pub lookahead: f64,
    /// A character this far from its route plans again.
    pub stray_distance: f64,
    /// Arrival within this distance of the goal (0: the radius).
    pub arrival_distance: f64,
    /// Arrived characters leave the simulation.
    pub remove_arrived: bool,
    /// Characters starting close together for the same goal share one plan.
    pub share_plans: bool,
    /// Seed of the tiny perturbation that breaks symmetries (0: none).
    pub seed: u64,
}

impl From<Options> for CorridorCrowdOptions {
    fn from(o: Options) -> Self {
        CorridorCrowdOptions {
            time_step: o.time_step,
            substeps: o.substeps,
            threads: o.threads,
            neighbour_distance: o.avoidance.neighbour_distance,
            max_neighbours: o.avoidance.max_neighbours,
            time_horizon: o.avoidance.time_horizon,
            obstacle_horizon: o.avoidance.obstacle_horizon,
            route_following: o.route_following,
            lookahead: o.lookahead,
            stray_distance: o.stray_distance,
            arrival_distance: o.arrival_distance,
            remove_arrived: o.remove_arrived,
            share_plans: o.share_plans,
            seed: o.seed,
        }
    }
}

impl From<CorridorCrowdOptions> for Options {
    fn from(o: CorridorCrowdOptions) -> Self {
        Options {
            time_step: o.time_step,
            substeps: o.substeps,
            threads: o.threads,
            avoidance: Avoidance {
                neighbour_distance: o.neighbour_distance,
                max_neighbours: o.max_neighbours,
                time_horizon: o.time_horizon,
                obstacle_horizon: o.obstacle_horizon,
            },
            route_following: o.route_following,
            lookahead: o.lookahead,
            stray_distance: o.stray_distance,
            arrival_distance: o.arrival_distance,
            remove_arrived: o.remove_arrived,
            share_plans: o.share_plans,
            seed: o.seed,
        }
    }
}

/// The default options (a quarter-second step, one substep, every core, RVO2's Circle
/// avoidance parameters, route following on).
#[no_mangle]
pub extern "C" fn corridor_crowd_options_default() -> CorridorCrowdOptions {
    Options::default().into()
}

/// A character from (x, y) to (goal_x, goal_y) of `radius`, walking at 1 m/s (2 at most),
/// keeping its radius as preferred clearance.
#[no_mangle]
pub extern "C" fn corridor_character(
    x: f64,
    y: f64,
    goal_x: f64,
    goal_y: f64,
    radius: f64,
) -> CorridorCharacter {
    let c = Character::new(Point::new(x, y), Point::new(goal_x, goal_y), radius);
    CorridorCharacter {
        x,
        y,
        goal_x,
        goal_y,
        radius,
        preferred_speed: c.preferred_speed,
        max_speed: c.max_speed,
        preferred_clearance: c.preferred_clearance,
    }
}

/// A simulation on a copy of `map` (later updates of the map do not reach it); `options`
/// may be NULL for the defaults. Fails with `CORRIDOR_STATUS_READ_ONLY` for a map loaded
/// from a saved ECM and `CORRIDOR_STATUS_INVALID_ARGUMENT` for an option out of range.
///
/// # Safety
/// `map` is a live map; `options` is NULL or valid for a read; `out` is valid for a write.
/// On success `*out` owns a new simulation: free it with `corridor_crowd_free`.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_new(
    map: *const CorridorMap,
    options: *const CorridorCrowdOptions,
    out: *mut *mut CorridorCrowd,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let map = unsafe { get(map, "map") }?;
        // SAFETY: NULL or valid for a read by the contract.
        let options = unsafe { options.as_ref() }.map_or_else(Options::default, |o| (*o).into());
        let sim = Simulation::with_map(map.dynamic()?.clone(), options)?;
        let crowd = CorridorCrowd {
            sim,
            ids: Vec::new(),
            phases: Vec::new(),
            queued: None,
        };
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, into_handle(crowd), "out") }
    })
}

/// Frees a simulation (NULL is ignored); the arrays it handed out become invalid.
///
/// # Safety
/// `crowd` is NULL or a simulation not freed before, used by no other call meanwhile.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_free(crowd: *mut CorridorCrowd) {
    // SAFETY: forwarded from this function's contract.
    unsafe { free_handle(crowd) }
}

/// Adds `count` characters, all or none, and writes their ids to `ids` (may be NULL).
/// Each plans its route at the start of the next step. Fails with
/// `CORRIDOR_STATUS_INVALID_ARGUMENT` (a radius not positive, speeds negative or preferred
/// above max, a point not finite) or `CORRIDOR_STATUS_QUERY_FAILED` (a start closer to a
/// wall than the radius); the message names the character's index. Needs exclusive
/// access.
///
/// # Safety
/// `crowd` is a live simulation used by no other call meanwhile; `characters` holds
/// `count` characters; `ids` is NULL or valid for `count` writes.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_add(
    crowd: *mut CorridorCrowd,
    characters: *const CorridorCharacter,
    count: usize,
    ids: *mut u64,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let crowd = unsafe { get_mut(crowd, "crowd") }?;
        if characters.is_null() && count > 0 {
            return Err(Failure::new(
                CorridorStatus::NullArgument,
                "characters is NULL",
            ));
        }
        let characters = if count == 0 {
            &[][..]
        } else {
            // SAFETY: non-NULL and valid for `count` reads by the contract.
            unsafe { std::slice::from_raw_parts(characters, count) }
        };
        let mut added = Vec::with_capacity(count);
        for (i, c) in characters.iter().enumerate() {
            let character = Character::new(
                Point::new(c.x, c.y),
                Point::new(c.goal_x, c.goal_y),
                c.radius,
            )
            .with_speeds(c.preferred_speed, c.max_speed)
            .with_preferred_clearance(c.preferred_clearance);
            match crowd.sim.add(character) {
                Ok(id) => added.push(id),
                Err(e) => {
                    for id in added {
                        crowd.sim.remove(id);
                    }
                    let f = Failure::from(e);
                    return Err(Failure::new(
                        f.status,
                        format!("character {i}: {}", f.message),
                    ));
                }
            }
        }
        crowd.refresh();
        if !ids.is_null() {
            for (i, id) in added.iter().enumerate() {
                // SAFETY: valid for `count` writes by the contract.
                unsafe { ids.add(i).write(id.0) };
            }
        }
        Ok(())
    })
}

/// Removes `count` characters by id, all or none: fails with
/// `CORRIDOR_STATUS_UNKNOWN_CHARACTER` (naming it) if one is not in the simulation. Needs
/// exclusive access.
///
/// # Safety
/// `crowd` is a live simulation used by no other call meanwhile; `ids` holds `count` ids.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_remove(
    crowd: *mut CorridorCrowd,
    ids: *const u64,
    count: usize,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let crowd = unsafe { get_mut(crowd, "crowd") }?;
        if ids.is_null() && count > 0 {
            return Err(Failure::new(CorridorStatus::NullArgument, "ids is NULL"));
        }
        let ids = if count == 0 {
            &[][..]
        } else {
            // SAFETY: non-NULL and valid for `count` reads by the contract.
            unsafe { std::slice::from_raw_parts(ids, count) }
        };
        if let Some(id) = ids
            .iter()
            .find(|&&id| crowd.sim.crowd().index_of(CharacterId(id)).is_none())
        {
            return Err(unknown(*id));
        }
        for &id in ids {
            crowd.sim.remove(CharacterId(id));
        }
        crowd.refresh();
        Ok(())
    })
}

fn unknown(id: u64) -> Failure {
    Failure::new(
        CorridorStatus::UnknownCharacter,
        format!("no character has id {id}"),
    )
}

/// Runs `steps` steps of the options' time step, on the simulation's own threads. Needs
/// exclusive access; the arrays handed out before stay valid (characters removed on
/// arrival, with `remove_arrived`, shorten them: read the count again). Queued obstacle
/// changes (`corridor_crowd_insert_polygon`, ...) are applied at the end of the first
/// step; should the map refuse them (rare: they were checked when queued), they are
/// dropped and the error returned after the steps.
///
/// # Safety
/// `crowd` is a live simulation used by no other call meanwhile.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_step(
    crowd: *mut CorridorCrowd,
    steps: usize,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let crowd = unsafe { get_mut(crowd, "crowd") }?;
        if steps > 0 {
            crowd.queued = None;
        }
        let result = (0..steps).try_for_each(|_| crowd.sim.step());
        crowd.refresh();
        Ok(result?)
    })
}

/// The row of character `id` in the arrays below. Fails with
/// `CORRIDOR_STATUS_UNKNOWN_CHARACTER` if it is not in the simulation.
///
/// # Safety
/// `crowd` is a live simulation; `index` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_index(
    crowd: *const CorridorCrowd,
    id: u64,
    index: *mut usize,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let crowd = unsafe { get(crowd, "crowd") }?;
        let i = crowd
            .sim
            .crowd()
            .index_of(CharacterId(id))
            .ok_or_else(|| unknown(id))?;
        // SAFETY: forwarded from this function's contract.
        unsafe { put(index, i, "index") }
    })
}

/// The number of characters (0 for NULL).
///
/// # Safety
/// `crowd` is NULL or a live simulation.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_count(crowd: *const CorridorCrowd) -> usize {
    // SAFETY: the caller's contract.
    unsafe { crowd.as_ref() }.map_or(0, |c| c.sim.crowd().len())
}

/// Simulated seconds so far (NaN for NULL).
///
/// # Safety
/// `crowd` is NULL or a live simulation.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_time(crowd: *const CorridorCrowd) -> f64 {
    // SAFETY: the caller's contract.
    unsafe { crowd.as_ref() }.map_or(f64::NAN, |c| c.sim.time())
}

/// An array the simulation owns, handed out in place with its length.
///
/// # Safety
/// `crowd` is NULL or a live simulation; `count` is NULL or valid for a write.
unsafe fn borrowed<T>(
    crowd: *const CorridorCrowd,
    count: *mut usize,
    array: impl FnOnce(&CorridorCrowd) -> (*const T, usize),
) -> *const T {
    // SAFETY: the caller's contract.
    let (ptr, n) = unsafe { crowd.as_ref() }.map_or((std::ptr::null(), 0), array);
    if !count.is_null() {
        // SAFETY: non-NULL and valid by the caller's contract.
        unsafe { count.write(n) };
    }
    ptr
}

/// The characters' positions in place: `*count` (x, y) pairs in index order, owned by the
/// simulation and valid until the next add, remove, step or free (no copy). NULL and a
/// count of 0 for a NULL crowd.
///
/// # Safety
/// `crowd` is NULL or a live simulation; `count` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_positions(
    crowd: *const CorridorCrowd,
    count: *mut usize,
) -> *const f64 {
    // SAFETY: forwarded; glam's DVec2 is `repr(C)` {x, y}, so the slice is 2n doubles.
    unsafe { borrowed(crowd, count, |c| points(c.sim.crowd().positions())) }
}

/// The characters' velocities (m/s) in place, as `corridor_crowd_positions`.
///
/// # Safety
/// As `corridor_crowd_positions`.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_velocities(
    crowd: *const CorridorCrowd,
    count: *mut usize,
) -> *const f64 {
    // SAFETY: forwarded from this function's contract.
    unsafe { borrowed(crowd, count, |c| points(c.sim.crowd().velocities())) }
}

/// The characters' radii in place, `*count` doubles, valid as `corridor_crowd_positions`.
///
/// # Safety
/// As `corridor_crowd_positions`.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_radii(
    crowd: *const CorridorCrowd,
    count: *mut usize,
) -> *const f64 {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        borrowed(crowd, count, |c| {
            (c.sim.crowd().radii().as_ptr(), c.sim.crowd().len())
        })
    }
}

/// The characters' ids in index order, `*count` of them, valid as
/// `corridor_crowd_positions`.
///
/// # Safety
/// As `corridor_crowd_positions`.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_ids(
    crowd: *const CorridorCrowd,
    count: *mut usize,
) -> *const u64 {
    // SAFETY: forwarded from this function's contract.
    unsafe { borrowed(crowd, count, |c| (c.ids.as_ptr(), c.ids.len())) }
}

/// The characters' phases in index order, `*count` of them, valid as
/// `corridor_crowd_positions`.
///
/// # Safety
/// As `corridor_crowd_positions`.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_phases(
    crowd: *const CorridorCrowd,
    count: *mut usize,
) -> *const CorridorPhase {
    // SAFETY: forwarded from this function's contract.
    unsafe { borrowed(crowd, count, |c| (c.phases.as_ptr(), c.phases.len())) }
}

/// A slice of points as a pointer to its first coordinate and the number of points.
fn points(ps: &[Point]) -> (*const f64, usize) {
    (ps.as_ptr().cast::<f64>(), ps.len())
}
