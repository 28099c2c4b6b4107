//! Obstacles that change while a crowd walks, from C: insert, move and remove obstacles
//! of a simulation's map as the crowd module allows (queued, applied at the end of the
//! next step). Each change is checked when it is queued, against the environment as the
//! changes already queued will leave it, so that an unknown id or a bad polygon fails at
//! once and an insertion writes the id the obstacle will have.

use crate::crowd::CorridorCrowd;
use crate::handles::{get_mut, points, put};
use crate::status::{guard, CorridorStatus, Failure};
use corridor::ecm::Change;
use corridor::prelude::{Obstacle, ObstacleId};

/// Queues `change` on the crowd once it is valid after the changes already queued.
fn queue(crowd: &mut CorridorCrowd, change: Change) -> Result<ObstacleId, Failure> {
    let env = crowd
        .queued
        .get_or_insert_with(|| crowd.sim.map().environment().clone());
    let id = change.apply_to(env)?;
    crowd.sim.change_obstacles([change]);
    Ok(id)
}

/// Queues a polygon obstacle of `count` (x, y) pairs for the end of the next
/// `corridor_crowd_step` and writes the id it will have. Characters the new obstacle
/// catches are pushed out to the nearest free point; those whose corridor it cuts plan
/// again. A bad polygon is `CORRIDOR_STATUS_INVALID_GEOMETRY` (nothing is queued). Needs
/// exclusive access.
///
/// # Safety
/// `crowd` is a live simulation used by no other call meanwhile; `xy` holds `count`
/// pairs; `id` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_insert_polygon(
    crowd: *mut CorridorCrowd,
    xy: *const f64,
    count: usize,
    id: *mut u32,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let (crowd, ring) = unsafe { (get_mut(crowd, "crowd")?, points(xy, count, "xy")?) };
        if id.is_null() {
            return Err(Failure::new(CorridorStatus::NullArgument, "id is NULL"));
        }
        let new = queue(crowd, Change::Insert(Obstacle::polygon(ring)))?;
        // SAFETY: forwarded from this function's contract.
        unsafe { put(id, new.0, "id") }
    })
}

/// Queues a new polygon of `count` (x, y) pairs for obstacle `id` (it keeps its id) for
/// the end of the next step. An id that is not there once the queued changes apply is
/// `CORRIDOR_STATUS_UNKNOWN_OBSTACLE`. Needs exclusive access.
///
/// # Safety
/// `crowd` is a live simulation used by no other call meanwhile; `xy` holds `count`
/// pairs.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_move_polygon(
    crowd: *mut CorridorCrowd,
    id: u32,
    xy: *const f64,
    count: usize,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let (crowd, ring) = unsafe { (get_mut(crowd, "crowd")?, points(xy, count, "xy")?) };
        let obstacle = Obstacle::polygon(ring);
        let id = ObstacleId(id);
        queue(crowd, Change::Move { id, obstacle })?;
        Ok(())
    })
}

/// Queues the removal of obstacle `id` for the end of the next step
/// (`CORRIDOR_STATUS_UNKNOWN_OBSTACLE` if it is not there once the queued changes apply).
/// Needs exclusive access.
///
/// # Safety
/// `crowd` is a live simulation used by no other call meanwhile.
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_remove_obstacle(
    crowd: *mut CorridorCrowd,
    id: u32,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let crowd = unsafe { get_mut(crowd, "crowd") }?;
        queue(crowd, Change::Remove(ObstacleId(id)))?;
        Ok(())
    })
}

/// How many obstacles the simulation's map has now (queued changes not counted until
/// the step that applies them).
///
/// # Safety
/// `crowd` is NULL or a live simulation (NULL gives 0).
#[no_mangle]
pub unsafe extern "C" fn corridor_crowd_obstacle_count(crowd: *const CorridorCrowd) -> usize {
    // SAFETY: NULL or live by the contract.
    unsafe { crowd.as_ref() }.map_or(0, |c| c.sim.map().environment().obstacles().len())
}
