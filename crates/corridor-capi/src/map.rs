//! Making, saving and freeing maps, and the point queries (clearance, nearest obstacle).

use crate::handles::{free_handle, get, into_handle, points, put, text, CorridorMap, Inner};
use crate::status::{guard, CorridorStatus, Failure};
use corridor::ecm::StoreError;
use corridor::prelude::*;
use std::ffi::c_char;

fn build(env: Environment) -> Result<CorridorMap, Failure> {
    Ok(CorridorMap {
        inner: Inner::Dynamic(Box::new(DynamicEcm::new(env)?)),
    })
}

/// Builds the map of a built-in scene: "empty", "military", "dungeon" or "city".
///
/// # Safety
/// `name` is a NUL-terminated string; `out` is valid for a write. On success `*out` owns
/// a new map: free it with `corridor_map_free`.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_from_scene(
    name: *const c_char,
    out: *mut *mut CorridorMap,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let name = unsafe { text(name, "name") }?;
        let scene = Scene::from_name(name).ok_or_else(|| {
            Failure::new(
                CorridorStatus::InvalidArgument,
                format!("unknown scene {name:?} (empty, military, dungeon, city)"),
            )
        })?;
        let map = build(scene.build())?;
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, into_handle(map), "out") }
    })
}

/// Reads an environment file (native JSON, GeoJSON, Moving AI `.map`, Polyanya `.mesh`,
/// any-angle `maze.txt`) and builds its map.
///
/// # Safety
/// `path` is a NUL-terminated UTF-8 string; `out` is valid for a write. On success `*out`
/// owns a new map: free it with `corridor_map_free`.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_load(
    path: *const c_char,
    out: *mut *mut CorridorMap,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let path = unsafe { text(path, "path") }?;
        let map = build(load_environment(path)?)?;
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, into_handle(map), "out") }
    })
}

/// Loads a map saved with `corridor_map_save_ecm`, ready at once (no ECM is built): a
/// file saved with its environment (`corridor_map_save_ecm`) gives a map that takes
/// updates and can carry a crowd; one saved without it (`corridor_map_save_ecm_only`,
/// or by an older version) a read-only map that answers queries and fails updates with
/// `CORRIDOR_STATUS_READ_ONLY`. A damaged or inconsistent file is
/// `CORRIDOR_STATUS_FORMAT`.
///
/// # Safety
/// As `corridor_map_load`.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_load_ecm(
    path: *const c_char,
    out: *mut *mut CorridorMap,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let path = unsafe { text(path, "path") }?;
        let inner = match DynamicEcm::load(path) {
            Ok(map) => Inner::Dynamic(Box::new(map)),
            Err(StoreError::NoEnvironment { .. }) => Inner::Static(Box::new(Ecm::load(path)?)),
            Err(e) => return Err(e.into()),
        };
        let map = CorridorMap { inner };
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, into_handle(map), "out") }
    })
}

/// Builds a map from a boundary ring and polygon obstacles. `boundary_xy` holds
/// `boundary_count` (x, y) pairs; `polygons_xy` holds the obstacles' (x, y) pairs one
/// polygon after the other, `counts[i]` pairs for polygon `i` of `polygon_count`
/// (`polygons_xy` and `counts` may be NULL when `polygon_count` is 0). Obstacle ids are
/// 0, 1, ... in order.
///
/// # Safety
/// The arrays are valid for the reads their counts say; `out` is valid for a write. On
/// success `*out` owns a new map: free it with `corridor_map_free`.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_from_polygons(
    boundary_xy: *const f64,
    boundary_count: usize,
    polygons_xy: *const f64,
    counts: *const usize,
    polygon_count: usize,
    out: *mut *mut CorridorMap,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let boundary = unsafe { points(boundary_xy, boundary_count, "boundary_xy") }?;
        let mut env = Environment::new(Ring::new(boundary));
        if polygon_count > 0 {
            if counts.is_null() {
                return Err(Failure::new(CorridorStatus::NullArgument, "counts is NULL"));
            }
            // SAFETY: `counts` holds `polygon_count` values by the contract.
            let counts = unsafe { std::slice::from_raw_parts(counts, polygon_count) };
            let total = counts.iter().try_fold(0usize, |a, &c| a.checked_add(c));
            let total = total.ok_or_else(|| {
                Failure::new(CorridorStatus::InvalidArgument, "counts add up past size_t")
            })?;
            // SAFETY: `polygons_xy` holds `total` pairs by the contract.
            let all = unsafe { points(polygons_xy, total, "polygons_xy") }?;
            let mut rest = all.as_slice();
            for &c in counts {
                let (ring, tail) = rest.split_at(c);
                env.insert(Obstacle::polygon(ring.to_vec()));
                rest = tail;
            }
        }
        env.validate()?;
        let map = build(env)?;
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, into_handle(map), "out") }
    })
}

/// Frees a map (NULL is ignored).
///
/// # Safety
/// `map` is NULL or a map from this library not freed before, and no other call uses it
/// meanwhile.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_free(map: *mut CorridorMap) {
    // A panic while dropping would abort: there is none to catch in plain drops.
    // SAFETY: forwarded from this function's contract.
    unsafe { free_handle(map) }
}

/// Writes the map's environment as native JSON (exact); `corridor_map_load` reads it.
///
/// # Safety
/// `map` is a live map; `path` a NUL-terminated UTF-8 string.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_save(
    map: *const CorridorMap,
    path: *const c_char,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let (map, path) = unsafe { (get(map, "map")?, text(path, "path")?) };
        let json = write_json(map.dynamic()?.environment())?;
        std::fs::write(path, json)
            .map_err(|e| Failure::new(CorridorStatus::Io, format!("{path}: {e}")))
    })
}

/// Writes the map in its compact binary form, the ECM with its environment (a read-only
/// map: the ECM alone); `corridor_map_load_ecm` reads it back as a map that takes
/// updates.
///
/// # Safety
/// As `corridor_map_save`.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_save_ecm(
    map: *const CorridorMap,
    path: *const c_char,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let (map, path) = unsafe { (get(map, "map")?, text(path, "path")?) };
        match &map.inner {
            Inner::Dynamic(m) => m.save(path)?,
            Inner::Static(ecm) => ecm.save(path)?,
        }
        Ok(())
    })
}

/// Writes the map's ECM alone (2–5 % smaller than `corridor_map_save_ecm`);
/// `corridor_map_load_ecm` reads it back as a read-only map.
///
/// # Safety
/// As `corridor_map_save`.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_save_ecm_only(
    map: *const CorridorMap,
    path: *const c_char,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let (map, path) = unsafe { (get(map, "map")?, text(path, "path")?) };
        Ok(map.ecm().save(path)?)
    })
}

/// The distance from (x, y) to the nearest obstacle.
///
/// # Safety
/// `map` is a live map; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_clearance(
    map: *const CorridorMap,
    x: f64,
    y: f64,
    out: *mut f64,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let map = unsafe { get(map, "map") }?;
        let c = map.ecm().clearance(Point::new(x, y))?;
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, c, "out") }
    })
}

/// The obstacle point nearest to (x, y).
///
/// # Safety
/// `map` is a live map; `out_x` and `out_y` are valid for a write.
#[no_mangle]
pub unsafe extern "C" fn corridor_map_nearest_obstacle(
    map: *const CorridorMap,
    x: f64,
    y: f64,
    out_x: *mut f64,
    out_y: *mut f64,
) -> CorridorStatus {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let map = unsafe { get(map, "map") }?;
        if out_x.is_null() || out_y.is_null() {
            return Err(Failure::new(
                CorridorStatus::NullArgument,
                "out_x or out_y is NULL",
            ));
        }
        let p = map.ecm().nearest_obstacle_point(Point::new(x, y))?;
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out_x, p.x, "out_x").and_then(|()| put(out_y, p.y, "out_y")) }
    })
}

/// The number of obstacles (0 for a map loaded from a saved ECM).
///
/// # Safety
/// `map` is NULL or a live map (NULL gives 0).
#[no_mangle]
pub unsafe extern "C" fn corridor_map_obstacle_count(map: *const CorridorMap) -> usize {
    // SAFETY: forwarded from this function's contract.
    match unsafe { map.as_ref() }.map(|m| m.dynamic()) {
        Some(Ok(m)) => m.environment().obstacles().count(),
        _ => 0,
    }
}
