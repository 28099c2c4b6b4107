//! The C ABI called from Rust as C would: statuses and messages, panics caught, queries
//! from many threads on one map while an update is planned.

use corridor_capi::status::{guard, Failure};
use corridor_capi::*;
use std::ffi::{CStr, CString};
use std::ptr;

fn last_error() -> String {
    // SAFETY: the library's string, valid until the next failure on this thread.
    unsafe { CStr::from_ptr(corridor_last_error()) }
        .to_string_lossy()
        .into_owned()
}

fn scene(name: &str) -> *mut CorridorMap {
    let name = CString::new(name).unwrap();
    let mut map = ptr::null_mut();
    // SAFETY: valid string and output pointer.
    assert_eq!(
        unsafe { corridor_map_from_scene(name.as_ptr(), &mut map) },
        CorridorStatus::Ok
    );
    map
}

#[test]
fn a_panic_becomes_a_status_with_its_message() {
    let status = guard(|| -> Result<(), Failure> { panic!("boom") });
    assert_eq!(status, CorridorStatus::Panic);
    assert!(last_error().contains("boom"));
}

#[test]
fn failures_name_the_problem() {
    let mut map = ptr::null_mut();
    let name = CString::new("castle").unwrap();
    // SAFETY: valid arguments.
    let s = unsafe { corridor_map_from_scene(name.as_ptr(), &mut map) };
    assert_eq!((s, map.is_null()), (CorridorStatus::InvalidArgument, true));
    assert!(last_error().contains("castle"));
    let missing = CString::new("/nonexistent/map.json").unwrap();
    // SAFETY: valid arguments.
    assert_eq!(
        unsafe { corridor_map_load(missing.as_ptr(), &mut map) },
        CorridorStatus::Io
    );
    assert!(last_error().contains("/nonexistent/map.json"));
    // SAFETY: NULL arguments are reported, not dereferenced.
    assert_eq!(
        unsafe { corridor_map_from_scene(ptr::null(), &mut map) },
        CorridorStatus::NullArgument
    );
    let map = scene("empty");
    let mut path = ptr::null_mut();
    // SAFETY: a live map and a valid output pointer.
    let s = unsafe { corridor_map_find_path(map, 10.0, 10.0, 90.0, 70.0, -1.0, 0.0, &mut path) };
    assert_eq!(s, CorridorStatus::InvalidArgument);
    let mut count = 7;
    // SAFETY: NULL is accepted.
    assert!(unsafe { corridor_path_points(ptr::null(), &mut count) }.is_null());
    assert_eq!(count, 7);
    // SAFETY: the map is freed once.
    unsafe { corridor_map_free(map) };
}

#[test]
fn queries_on_many_threads_while_an_update_is_planned() {
    let map = scene("military");
    let shared = map as usize;
    let lengths: Vec<f64> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(move || {
                    let map = shared as *const CorridorMap;
                    let mut path = ptr::null_mut();
                    // SAFETY: the map lives until after the scope; queries only read.
                    let s = unsafe {
                        corridor_map_find_path(map, 5.0, 5.0, 95.0, 75.0, 0.5, 0.5, &mut path)
                    };
                    assert_eq!(s, CorridorStatus::Ok, "{}", last_error());
                    // SAFETY: a live path, freed once.
                    let l = unsafe { corridor_path_length(path) };
                    unsafe { corridor_path_free(path) };
                    l
                })
            })
            .collect();
        let block = [48.0, 2.0, 49.0, 2.0, 49.0, 3.0, 48.0, 3.0];
        let mut patch = ptr::null_mut();
        // SAFETY: planning only reads the map.
        let s = unsafe {
            corridor_map_plan_insert_polygon(
                shared as *const CorridorMap,
                block.as_ptr(),
                4,
                &mut patch,
            )
        };
        assert_eq!(s, CorridorStatus::Ok, "{}", last_error());
        let lengths = workers.into_iter().map(|w| w.join().unwrap()).collect();
        // SAFETY: the workers are done: exclusive access.
        unsafe { corridor_patch_free(patch) };
        lengths
    });
    assert!(lengths.iter().all(|&l| l == lengths[0] && l > 0.0));
    // SAFETY: freed once.
    unsafe { corridor_map_free(map) };
}

#[test]
fn maps_from_polygons_and_their_paths() {
    let boundary = [0.0, 0.0, 10.0, 0.0, 10.0, 6.0, 0.0, 6.0];
    // A wall from (4, 0) to (6, 4): over its top corners, length 2 * sqrt(18) + 2.
    let wall = [4.0, 0.0, 6.0, 0.0, 6.0, 4.0, 4.0, 4.0];
    let mut map = ptr::null_mut();
    // SAFETY: arrays as long as their counts say; a valid output pointer.
    let s = unsafe {
        corridor_map_from_polygons(
            boundary.as_ptr(),
            4,
            wall.as_ptr(),
            [4].as_ptr(),
            1,
            &mut map,
        )
    };
    assert_eq!(s, CorridorStatus::Ok, "{}", last_error());
    let mut path = ptr::null_mut();
    // SAFETY: a live map and a valid output pointer.
    let s = unsafe { corridor_map_find_path(map, 1.0, 1.0, 9.0, 1.0, 0.0, 0.0, &mut path) };
    assert_eq!(s, CorridorStatus::Ok, "{}", last_error());
    // SAFETY: a live path.
    let length = unsafe { corridor_path_length(path) };
    assert!((length - (2.0 * 18f64.sqrt() + 2.0)).abs() < 1e-9);
    let mut count = 0;
    // SAFETY: a live path; the array lives as long as the path.
    let xy = unsafe { corridor_path_points(path, &mut count) };
    let xy = unsafe { std::slice::from_raw_parts(xy, 2 * count) };
    assert_eq!(
        (&xy[..2], &xy[2 * count - 2..]),
        (&[1.0, 1.0][..], &[9.0, 1.0][..])
    );
    // SAFETY: freed once each.
    unsafe { corridor_path_free(path) };
    // A radius of 1.5 does not fit through the 2-wide gap.
    let s = unsafe { corridor_map_find_path(map, 1.5, 1.5, 8.5, 1.5, 1.5, 0.0, &mut path) };
    assert_eq!(s, CorridorStatus::NoPath);
    unsafe { corridor_map_free(map) };

    let bowtie = [1.0, 1.0, 3.0, 3.0, 3.0, 1.0, 1.0, 3.0];
    let mut bad = ptr::null_mut();
    // SAFETY: as above.
    let s = unsafe {
        corridor_map_from_polygons(
            boundary.as_ptr(),
            4,
            bowtie.as_ptr(),
            [4].as_ptr(),
            1,
            &mut bad,
        )
    };
    assert_eq!((s, bad.is_null()), (CorridorStatus::InvalidGeometry, true));
    assert!(
        last_error().contains("intersects itself"),
        "{}",
        last_error()
    );
}
