//! Path queries and reading a path's arrays.

use crate::handles::{free_handle, get, into_handle, put, CorridorMap, CorridorPath, CorridorStep};
use crate::status::{guard, CorridorStatus};
use corridor::prelude::*;
use std::cell::RefCell;

thread_local! {
    /// One planner per thread: its buffers are reused from query to query.
    static PLANNER: RefCell<Planner> = RefCell::new(Planner::new());
}

/// Plans a path from (start_x, start_y) to (goal_x, goal_y) for a disk of `radius`,
/// keeping `preferred_clearance` (at least the radius) on the indicative route where
/// there is room.
///
/// Fails with `CORRIDOR_STATUS_QUERY_FAILED` when an end is not finite, not free or
/// too close to a wall, `CORRIDOR_STATUS_NO_PATH` when nothing joins them and
/// `CORRIDOR_STATUS_INVALID_ARGUMENT` for a negative or non-finite radius.
///
/// # Safety
/// `map` is a live map; `out` is valid for a write. On success `*out` owns a new path:
/// free it with `corridor_path_free`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn corridor_map_find_path(
    map: *const CorridorMap,
    start_x: f64,
    start_y: f64,
    goal_x: f64,
    goal_y: f64,
    radius: f64,
    preferred_clearance: f64,
    out: *mut *mut CorridorPath,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let map = unsafe { get(map, "map") }?;
        let query = PathQuery::new(Point::new(start_x, start_y), Point::new(goal_x, goal_y))
            .with_preferred_clearance(preferred_clearance)
            .with_radius(radius);
        let path = PLANNER.with_borrow_mut(|p| p.plan(map.ecm(), &query))?;
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, into_handle(CorridorPath::new(&path)), "out") }
    })
}

/// Frees a path (NULL is ignored); the arrays it handed out become invalid.
///
/// # Safety
/// `path` is NULL or a path from this library not freed before.
#[no_mangle]
pub unsafe extern "C" fn corridor_path_free(path: *mut CorridorPath) {
    // SAFETY: forwarded from this function's contract.
    unsafe { free_handle(path) }
}

/// The exact length of the path (NaN for a NULL path).
///
/// # Safety
/// `path` is NULL or a live path.
#[no_mangle]
pub unsafe extern "C" fn corridor_path_length(path: *const CorridorPath) -> f64 {
    // SAFETY: forwarded from this function's contract.
    unsafe { path.as_ref() }.map_or(f64::NAN, |p| p.length)
}

/// Borrows a flat array of (x, y) pairs out of a path.
///
/// # Safety
/// `path` is NULL or a live path; `count` is valid for a write.
unsafe fn pairs(
    path: *const CorridorPath,
    count: *mut usize,
    pick: impl Fn(&CorridorPath) -> &[f64],
) -> *const f64 {
    let mut result = std::ptr::null();
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let path = unsafe { get(path, "path") }?;
        let xy = pick(path);
        // SAFETY: forwarded from this function's contract.
        unsafe { put(count, xy.len() / 2, "count") }?;
        result = xy.as_ptr();
        Ok(())
    });
    result
}

/// The path's points from start to goal: `*count` (x, y) pairs, x0 y0 x1 y1 ...
/// Owned by the path, valid until `corridor_path_free`. NULL if an argument is NULL.
///
/// # Safety
/// `path` is NULL or a live path; `count` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn corridor_path_points(
    path: *const CorridorPath,
    count: *mut usize,
) -> *const f64 {
    // SAFETY: forwarded from this function's contract.
    unsafe { pairs(path, count, |p| &p.points) }
}

/// The indicative route: `*count` (x, y) pairs, owned by the path (as
/// `corridor_path_points`).
///
/// # Safety
/// As `corridor_path_points`.
#[no_mangle]
pub unsafe extern "C" fn corridor_path_indicative_route(
    path: *const CorridorPath,
    count: *mut usize,
) -> *const f64 {
    // SAFETY: forwarded from this function's contract.
    unsafe { pairs(path, count, |p| &p.route) }
}

/// The corridor along the path: `*count` steps, owned by the path, valid until
/// `corridor_path_free`. NULL if an argument is NULL.
///
/// # Safety
/// `path` is NULL or a live path; `count` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn corridor_path_corridor(
    path: *const CorridorPath,
    count: *mut usize,
) -> *const CorridorStep {
    let mut result = std::ptr::null();
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let path = unsafe { get(path, "path") }?;
        // SAFETY: forwarded from this function's contract.
        unsafe { put(count, path.corridor.len(), "count") }?;
        result = path.corridor.as_ptr();
        Ok(())
    });
    result
}
