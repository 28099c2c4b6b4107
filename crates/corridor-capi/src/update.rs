//! Dynamic updates: planned on a shared map (while queries go on), applied with exclusive
//! access; and one-call conveniences that do both.

use crate::handles::{
    free_handle, get, get_mut, into_handle, points, put, CorridorMap, CorridorPatch,
};
use crate::status::{guard, CorridorStatus, Failure};
use corridor::prelude::*;

/// Plans a change and hands the patch to C.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or valid for a write.
unsafe fn plan(
    map: *const CorridorMap,
    change: impl FnOnce() -> Result<Change, Failure>,
    out: *mut *mut CorridorPatch,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let map = unsafe { get(map, "map") }?;
        let patch = map.dynamic()?.plan_update(&change()?)?;
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, into_handle(CorridorPatch { patch }), "out") }
    })
}

/// Plans inserting a polygon obstacle of `count` (x, y) pairs. Only reads the map: other
/// threads may query it meanwhile.
///
/// # Safety
/// `map` is a live map; `xy` holds `count` pairs; `out` is valid for a write. On success
/// `*out` owns a patch: pass it to `corridor_map_apply` or `corridor_patch_free`.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_plan_insert_polygon(
    map: *const CorridorMap,
    xy: *const f64,
    count: usize,
    out: *mut *mut CorridorPatch,
) -> CorridorStatus {
    // SAFETY: forwarded from this function's contract.
    let ring = || unsafe { points(xy, count, "xy") };
    // SAFETY: forwarded from this function's contract.
    unsafe { plan(map, || Ok(Change::Insert(Obstacle::polygon(ring()?))), out) }
}

/// Plans giving obstacle `id` a new polygon of `count` (x, y) pairs (it keeps its id).
///
/// # Safety
/// As `corridor_map_plan_insert_polygon`.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_plan_move_polygon(
    map: *const CorridorMap,
    id: u32,
    xy: *const f64,
    count: usize,
    out: *mut *mut CorridorPatch,
) -> CorridorStatus {
    // SAFETY: forwarded from this function's contract.
    let ring = || unsafe { points(xy, count, "xy") };
    let change = || {
        Ok(Change::Move {
            id: ObstacleId(id),
            obstacle: Obstacle::polygon(ring()?),
        })
    };
    // SAFETY: forwarded from this function's contract.
    unsafe { plan(map, change, out) }
}

/// Plans removing obstacle `id`.
///
/// # Safety
/// `map` is a live map; `out` is valid for a write. On success `*out` owns a patch.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_plan_remove(
    map: *const CorridorMap,
    id: u32,
    out: *mut *mut CorridorPatch,
) -> CorridorStatus {
    // SAFETY: forwarded from this function's contract.
    unsafe { plan(map, || Ok(Change::Remove(ObstacleId(id))), out) }
}

/// Applies a patch to the map it was planned on. Takes ownership of `patch` whatever the
/// outcome (do not free it afterwards). `inserted_id` (may be NULL) receives the id of an
/// inserted obstacle, and is left alone otherwise. Fails with
/// `CORRIDOR_STATUS_STALE_PATCH` if another patch was applied since this one was planned:
/// plan it again. Needs exclusive access to the map.
///
/// # Safety
/// `map` is a live map used by no other call meanwhile; `patch` is NULL or a patch not
/// applied or freed before; `inserted_id` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_apply(
    map: *mut CorridorMap,
    patch: *mut CorridorPatch,
    inserted_id: *mut u32,
) -> CorridorStatus {
    guard(|| {
        if patch.is_null() {
            return Err(Failure::new(CorridorStatus::NullArgument, "patch is NULL"));
        }
        // SAFETY: non-NULL, from `into_handle` and not freed, by the contract.
        let patch = unsafe { Box::from_raw(patch) }.patch;
        // SAFETY: forwarded from this function's contract.
        let map = unsafe { get_mut(map, "map") }?;
        let ids = map.dynamic_mut()?.apply(patch)?;
        if let (Some(id), false) = (ids.first(), inserted_id.is_null()) {
            // SAFETY: non-NULL and valid by the contract.
            unsafe { inserted_id.write(id.0) };
        }
        Ok(())
    })
}

/// Frees a patch without applying it (NULL is ignored).
///
/// # Safety
/// `patch` is NULL or a patch not applied or freed before.
#[no_mangle]
pub unsafe extern "C" fn corridor_patch_free(patch: *mut CorridorPatch) {
    // SAFETY: forwarded from this function's contract.
    unsafe { free_handle(patch) }
}

/// Inserts a polygon obstacle of `count` (x, y) pairs (plan and apply) and writes its new
/// id. Needs exclusive access to the map.
///
/// # Safety
/// `map` is a live map used by no other call meanwhile; `xy` holds `count` pairs; `id` is
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_insert_polygon(
    map: *mut CorridorMap,
    xy: *const f64,
    count: usize,
    id: *mut u32,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let (map, ring) = unsafe { (get_mut(map, "map")?, points(xy, count, "xy")?) };
        if id.is_null() {
            return Err(Failure::new(CorridorStatus::NullArgument, "id is NULL"));
        }
        let new = map.dynamic_mut()?.insert(Obstacle::polygon(ring))?;
        // SAFETY: forwarded from this function's contract.
        unsafe { put(id, new.0, "id") }
    })
}

/// Removes obstacle `id` (plan and apply). Needs exclusive access to the map.
///
/// # Safety
/// `map` is a live map used by no other call meanwhile.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_remove(map: *mut CorridorMap, id: u32) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let map = unsafe { get_mut(map, "map") }?;
        map.dynamic_mut()?.remove(ObstacleId(id))?;
        Ok(())
    })
}
