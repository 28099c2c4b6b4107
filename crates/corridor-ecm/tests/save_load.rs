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
    // Bit for bit, by the ECM's own serialized form (every field, the cell index's tree
    // included), which the compact format does not use.
    let full = |e: &Ecm| postcard::to_allocvec(e).unwrap();
    assert!(full(&loaded) == full(&ecm), "the loaded map differs");
    assert_eq!(&ecm.to_bytes()[..8], b"CRDECM09");
    assert!(size as f64 <= 40.0 * ecm.bending_point_count() as f64);
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

/// The older format a map is saved in (`CRDECM07`: the postcard form behind the header)
/// still loads, as the same map, before and after an update.
#[test]
fn the_older_version_still_loads() {
    use corridor_ecm::DynamicEcm;
    use corridor_geom::Obstacle;
    let full = |e: &Ecm| postcard::to_allocvec(e).unwrap();
    let old = |e: &Ecm| {
        let payload = full(e);
        let mut bytes = b"CRDECM07".to_vec();
        bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
        bytes
    };
    let mut map = DynamicEcm::new(corridor_io::scenes::Scene::Dungeon.build()).unwrap();
    let built = map.ecm().clone();
    let loaded = Ecm::from_bytes(&old(&built)).unwrap();
    assert!(full(&loaded) == full(&built));
    assert_eq!(loaded.to_bytes(), built.to_bytes());
    map.insert(Obstacle::rectangle(
        Point::new(40.0, 40.0),
        Point::new(41.5, 41.0),
    ))
    .unwrap();
    // Whichever version the updated map takes, it loads as itself.
    let updated = map.ecm().to_bytes();
    assert!(full(&Ecm::from_bytes(&updated).unwrap()) == full(map.ecm()));
    assert!(full(&Ecm::from_bytes(&old(map.ecm())).unwrap()) == full(map.ecm()));
}

/// The compact format on every built-in scene and a random environment: the loaded map
/// is the saved one bit for bit, and no larger than 40 bytes per bending point (beyond
/// a thousand of them).
#[test]
fn compact_saves_load_bit_for_bit() {
    use corridor_testkit::random::{random_environment, RandomEnvironmentOptions};
    let full = |e: &Ecm| postcard::to_allocvec(e).unwrap();
    let mut envs: Vec<_> = corridor_io::scenes::Scene::ALL
        .iter()
        .map(|s| (s.name().to_string(), s.build()))
        .collect();
    for seed in 0..4 {
        let env = random_environment(seed, &RandomEnvironmentOptions::default());
        envs.push((format!("random {seed}"), env));
    }
    for (name, env) in envs {
        let ecm = Ecm::build(&env).unwrap();
        let bytes = ecm.to_bytes();
        assert_eq!(&bytes[..8], b"CRDECM09", "{name}");
        let loaded = Ecm::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            full(&loaded) == full(&ecm),
            "{name}: the loaded map differs"
        );
        let per_point = bytes.len() as f64 / ecm.bending_point_count() as f64;
        println!(
            "{name}: {} bytes, {per_point:.1} per bending point",
            bytes.len()
        );
        // The header and the section lengths (60 bytes) count on a tiny map.
        if ecm.bending_point_count() >= 1000 {
            assert!(
                per_point <= 40.0,
                "{name}: {per_point:.1} bytes per bending point"
            );
        }
    }
}
