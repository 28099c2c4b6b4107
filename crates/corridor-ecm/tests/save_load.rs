//! Saving and loading: the loaded ECM is the saved one, and loading takes a fraction of
//! the build time (printed, not asserted: timings are benchmarks).
mod common;
use common::*;
use corridor_ecm::{Ecm, StoreError};
use corridor_geom::Point;
use std::time::Instant;

#[test]
fn save_and_load_a_map() {
    let (w, h, blocked) = read_movingai(&shared_data().join("movingai/den520d.map"));
    let walls = grid_walls(w, h, &|x, y| blocked[y * w + x], 10_000);
    let started = Instant::now();
    let ecm = Ecm::from_walls(&walls).unwrap();
    let build = started.elapsed();
    let path = std::env::temp_dir().join(format!("corridor-ecm-test-{}.ecm", std::process::id()));
    ecm.save(&path).unwrap();
    let started = Instant::now();
    let loaded = Ecm::load(&path).unwrap();
    let load = started.elapsed();
    let size = std::fs::metadata(&path).unwrap().len();
    std::fs::remove_file(&path).unwrap();
    println!(
        "den520d: build {build:?}, load {load:?} ({:.1}× faster), {size} bytes for {} bending points",
        build.as_secs_f64() / load.as_secs_f64(),
        ecm.bending_point_count()
    );
    assert_eq!(loaded.to_bytes(), ecm.to_bytes());
    // The counts are saved; the build times are not (so that saved bytes are the same
    // for every build of the map).
    let counts =
        |s: &corridor_ecm::BuildStats| (s.vertices, s.edges, s.bending_points, s.recoveries);
    assert_eq!(counts(loaded.stats()), counts(ecm.stats()));
    assert_eq!(loaded.stats().total(), std::time::Duration::ZERO);
    assert_eq!(Ecm::from_walls(&walls).unwrap().to_bytes(), ecm.to_bytes());
    for (id, e) in ecm.edges() {
        assert_eq!(loaded.edge(id), Some(e));
    }
    for x in 0..50 {
        let p = Point::new(x as f64 * 5.1 + 0.3, x as f64 * 4.7 + 0.2);
        assert_eq!(loaded.locate(p), ecm.locate(p));
    }
}

#[test]
fn damaged_files_are_errors() {
    assert!(matches!(
        Ecm::from_bytes(b"not an ecm"),
        Err(StoreError::NotAnEcm { .. })
    ));
    let walls = grid_walls(3, 3, &|x, y| x == 1 && y == 1, 1);
    let bytes = Ecm::from_walls(&walls).unwrap().to_bytes();
    assert!(matches!(
        Ecm::from_bytes(&bytes[..bytes.len() / 2]),
        Err(StoreError::Truncated { .. })
    ));
    let err = Ecm::load("/nonexistent/corridor.ecm").unwrap_err();
    assert!(err.to_string().contains("/nonexistent/corridor.ecm"));
}
