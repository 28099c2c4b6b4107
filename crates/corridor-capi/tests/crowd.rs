//! The crowd through the C ABI, called from Rust as C would: characters arrive without
//! entering walls (judged by the map's clearance query), arrays read in place match the
//! count, bad input adds or removes nothing and names the character.

use corridor_capi::*;
use std::ffi::{CStr, CString};
use std::ptr;

fn last_error() -> String {
    // SAFETY: the library's string, valid until the next failure on this thread.
    unsafe { CStr::from_ptr(corridor_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// A 10 x 6 room with a wall from (4, 0) to (6, 4).
fn room() -> *mut CorridorMap {
    let boundary = [0.0, 0.0, 10.0, 0.0, 10.0, 6.0, 0.0, 6.0];
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
    map
}

fn crowd(map: *const CorridorMap, threads: usize) -> *mut CorridorCrowd {
    let options = CorridorCrowdOptions {
        threads,
        ..corridor_crowd_options_default()
    };
    let mut crowd = ptr::null_mut();
    // SAFETY: a live map, valid options and output pointer.
    let s = unsafe { corridor_crowd_new(map, &options, &mut crowd) };
    assert_eq!(s, CorridorStatus::Ok, "{}", last_error());
    crowd
}

/// The positions as (x, y) pairs, read in place.
fn positions(crowd: *const CorridorCrowd) -> Vec<[f64; 2]> {
    let mut n = usize::MAX;
    // SAFETY: a live crowd; the array is read before the next change.
    let xy = unsafe { corridor_crowd_positions(crowd, &mut n) };
    let xy = unsafe { std::slice::from_raw_parts(xy, 2 * n) };
    xy.chunks_exact(2).map(|c| [c[0], c[1]]).collect()
}

#[test]
fn characters_cross_the_room_clear_of_the_wall() {
    let map = room();
    let crowd = crowd(map, 1);
    let people = [
        corridor_character(1.0, 1.0, 9.0, 1.0, 0.3),
        corridor_character(9.0, 5.0, 1.0, 5.0, 0.3),
    ];
    let mut ids = [u64::MAX; 2];
    // SAFETY: live handles, arrays of the counts given.
    let s = unsafe { corridor_crowd_add(crowd, people.as_ptr(), 2, ids.as_mut_ptr()) };
    assert_eq!(s, CorridorStatus::Ok, "{}", last_error());
    assert_ne!(ids[0], ids[1]);
    for _ in 0..200 {
        // SAFETY: exclusive access to a live crowd.
        assert_eq!(unsafe { corridor_crowd_step(crowd, 1) }, CorridorStatus::Ok);
        for p in positions(crowd) {
            let mut c = 0.0;
            // SAFETY: a live map; the crowd has its own copy, this one only answers.
            let s = unsafe { corridor_map_clearance(map, p[0], p[1], &mut c) };
            assert_eq!(s, CorridorStatus::Ok, "{}", last_error());
            assert!(c >= 0.3 - 1e-7, "{p:?} has clearance {c}");
        }
    }
    let mut n = 0;
    // SAFETY: a live crowd.
    let phases = unsafe { std::slice::from_raw_parts(corridor_crowd_phases(crowd, &mut n), n) };
    assert_eq!(phases, [CorridorPhase::Arrived; 2]);
    let ids_now = unsafe { std::slice::from_raw_parts(corridor_crowd_ids(crowd, &mut n), n) };
    let mut row = usize::MAX;
    // SAFETY: a live crowd, a valid output pointer.
    assert_eq!(
        unsafe { corridor_crowd_index(crowd, ids[1], &mut row) },
        CorridorStatus::Ok
    );
    assert_eq!(ids_now[row], ids[1]);
    let at = positions(crowd)[row];
    assert!(((at[0] - 1.0).powi(2) + (at[1] - 5.0).powi(2)).sqrt() <= 0.3);
    // SAFETY: a live crowd.
    assert!(unsafe { corridor_crowd_time(crowd) } > 0.0);
    let radii = unsafe { std::slice::from_raw_parts(corridor_crowd_radii(crowd, &mut n), n) };
    assert_eq!(radii, [0.3, 0.3]);
    // SAFETY: each handle freed once.
    unsafe {
        corridor_crowd_free(crowd);
        corridor_map_free(map);
    }
}

#[test]
fn bad_input_changes_nothing() {
    let map = room();
    let crowd = crowd(map, 1);
    let good = corridor_character(1.0, 5.0, 9.0, 5.0, 0.3);
    let cases = [
        (
            corridor_character(f64::NAN, 5.0, 9.0, 5.0, 0.3),
            CorridorStatus::InvalidArgument,
            "not finite",
        ),
        (
            corridor_character(2.0, 5.0, 9.0, 5.0, 0.0),
            CorridorStatus::InvalidArgument,
            "radius 0",
        ),
        (
            CorridorCharacter {
                preferred_speed: 3.0,
                ..good
            },
            CorridorStatus::InvalidArgument,
            "speeds",
        ),
        (
            corridor_character(5.0, 2.0, 9.0, 5.0, 0.3),
            CorridorStatus::QueryFailed,
            "closer than its radius",
        ),
    ];
    for (bad, status, words) in cases {
        let batch = [good, bad];
        // SAFETY: live handles, arrays of the counts given.
        let s = unsafe { corridor_crowd_add(crowd, batch.as_ptr(), 2, ptr::null_mut()) };
        assert_eq!(s, status, "{bad:?}");
        let message = last_error();
        assert!(
            message.starts_with("character 1: ") && message.contains(words),
            "{message}"
        );
        // SAFETY: a live crowd.
        assert_eq!(unsafe { corridor_crowd_count(crowd) }, 0, "all or none");
    }
    let mut id = 0;
    // SAFETY: as above.
    assert_eq!(
        unsafe { corridor_crowd_add(crowd, &good, 1, &mut id) },
        CorridorStatus::Ok
    );
    let unknown = [id, id + 100];
    // SAFETY: as above.
    let s = unsafe { corridor_crowd_remove(crowd, unknown.as_ptr(), 2) };
    assert_eq!(s, CorridorStatus::UnknownCharacter);
    assert!(last_error().contains(&(id + 100).to_string()));
    assert_eq!(unsafe { corridor_crowd_count(crowd) }, 1, "all or none");
    // SAFETY: NULL arguments are reported, not dereferenced.
    unsafe {
        assert_eq!(
            corridor_crowd_add(crowd, ptr::null(), 1, ptr::null_mut()),
            CorridorStatus::NullArgument
        );
        assert_eq!(
            corridor_crowd_step(ptr::null_mut(), 1),
            CorridorStatus::NullArgument
        );
        let mut n = 7;
        assert!(corridor_crowd_positions(ptr::null(), &mut n).is_null());
        assert_eq!(n, 0);
        assert_eq!(corridor_crowd_remove(crowd, &id, 1), CorridorStatus::Ok);
        assert_eq!(corridor_crowd_count(crowd), 0);
    }
    let bad_options = CorridorCrowdOptions {
        time_step: -1.0,
        ..corridor_crowd_options_default()
    };
    let mut other = ptr::null_mut();
    // SAFETY: valid arguments.
    let s = unsafe { corridor_crowd_new(map, &bad_options, &mut other) };
    assert_eq!(
        (s, other.is_null()),
        (CorridorStatus::InvalidArgument, true)
    );
    assert!(last_error().contains("time_step"));
    // A map loaded from an ECM saved alone takes no crowd (it cannot follow obstacle
    // changes); one saved with its environment does.
    let file = std::env::temp_dir().join(format!("corridor-crowd-{}.ecm", std::process::id()));
    let name = CString::new(file.to_str().unwrap()).unwrap();
    let mut loaded = ptr::null_mut();
    // SAFETY: valid arguments; each handle freed once.
    unsafe {
        assert_eq!(
            corridor_map_save_ecm_only(map, name.as_ptr()),
            CorridorStatus::Ok
        );
        assert_eq!(
            corridor_map_load_ecm(name.as_ptr(), &mut loaded),
            CorridorStatus::Ok
        );
        let s = corridor_crowd_new(loaded, ptr::null(), &mut other);
        assert_eq!(s, CorridorStatus::ReadOnly);
        corridor_map_free(loaded);
        assert_eq!(
            corridor_map_save_ecm(map, name.as_ptr()),
            CorridorStatus::Ok
        );
        assert_eq!(
            corridor_map_load_ecm(name.as_ptr(), &mut loaded),
            CorridorStatus::Ok
        );
        let s = corridor_crowd_new(loaded, ptr::null(), &mut other);
        assert_eq!(s, CorridorStatus::Ok);
        // Obstacle changes checked when queued: unknown ids, NULL arrays, a NULL crowd.
        assert_eq!(
            corridor_crowd_remove_obstacle(other, 999),
            CorridorStatus::UnknownObstacle
        );
        let square = [1.0, 1.0, 2.0, 1.0, 2.0, 2.0, 1.0, 2.0];
        assert_eq!(
            corridor_crowd_move_polygon(other, 999, square.as_ptr(), 4),
            CorridorStatus::UnknownObstacle
        );
        let mut id = 0;
        assert_eq!(
            corridor_crowd_insert_polygon(other, ptr::null(), 4, &mut id),
            CorridorStatus::NullArgument
        );
        assert_eq!(
            corridor_crowd_insert_polygon(ptr::null_mut(), square.as_ptr(), 4, &mut id),
            CorridorStatus::NullArgument
        );
        let before = corridor_crowd_obstacle_count(other);
        assert_eq!(
            corridor_crowd_insert_polygon(other, square.as_ptr(), 4, &mut id),
            CorridorStatus::Ok
        );
        assert_eq!(corridor_crowd_obstacle_count(other), before);
        assert_eq!(corridor_crowd_step(other, 1), CorridorStatus::Ok);
        assert_eq!(corridor_crowd_obstacle_count(other), before + 1);
        assert_eq!(
            corridor_crowd_remove_obstacle(other, id),
            CorridorStatus::Ok
        );
        corridor_crowd_free(other);
        corridor_map_free(loaded);
        corridor_crowd_free(crowd);
        corridor_map_free(map);
    }
    std::fs::remove_file(file).unwrap();
}

#[test]
fn the_same_trajectories_for_one_and_two_threads() {
    let map = room();
    let people: Vec<CorridorCharacter> = (0..8)
        .map(|i| {
            let y = 0.6 + 0.6 * i as f64;
            corridor_character(0.5 + (i % 2) as f64, y, 9.0, 5.4 - 0.6 * i as f64, 0.25)
        })
        .collect();
    let run = |threads| {
        let crowd = crowd(map, threads);
        // SAFETY: live handles, an array of the count given; freed once.
        unsafe {
            let s = corridor_crowd_add(crowd, people.as_ptr(), people.len(), ptr::null_mut());
            assert_eq!(s, CorridorStatus::Ok, "{}", last_error());
            assert_eq!(corridor_crowd_step(crowd, 60), CorridorStatus::Ok);
            let mut n = 0;
            let v = std::slice::from_raw_parts(corridor_crowd_velocities(crowd, &mut n), 2 * n)
                .to_vec();
            let p = positions(crowd);
            corridor_crowd_free(crowd);
            (p, v)
        }
    };
    assert_eq!(run(1), run(2));
    // SAFETY: freed once.
    unsafe { corridor_map_free(map) };
}
