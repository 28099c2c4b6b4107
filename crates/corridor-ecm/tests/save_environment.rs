//! Saved maps that hold their environment (`CRDECM08`): a loaded map takes updates and
//! then equals a full rebuild of the updated environment (the oracle); the bytes are
//! deterministic; files of the ECM alone still load, read-only, and are a clear error
//! when a map to update is asked of them; an environment that is not the ECM's, and
//! damaged or forged files, are typed errors, never panics.

mod common;
use common::*;
use corridor_ecm::{DynamicEcm, Ecm, EnvironmentProblem, LoadOptions, StoreError, UpdateOptions};
use corridor_geom::{Environment, Obstacle, ObstacleId, Point};
use corridor_io::scenes::Scene;
use corridor_testkit::corrupt::{corrupt, forge, with_header, ECM_HEADER};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};

fn scene_maps() -> Vec<(&'static str, DynamicEcm)> {
    Scene::ALL
        .into_iter()
        .map(|s| (s.name(), DynamicEcm::new(s.build()).unwrap()))
        .collect()
}

/// A random change of `env`: insert a small box, move or remove one of the obstacles.
fn random_change(rng: &mut ChaCha8Rng, map: &mut DynamicEcm) {
    let b = map.environment().bounds();
    let (w, h) = (b.max.x - b.min.x, b.max.y - b.min.y);
    let ids: Vec<ObstacleId> = map.environment().obstacles().map(|(id, _)| id).collect();
    let spot = |rng: &mut ChaCha8Rng| {
        let (x, y) = (
            b.min.x + rng.random_range(0.05..0.9) * w,
            b.min.y + rng.random_range(0.05..0.9) * h,
        );
        Obstacle::rectangle(Point::new(x, y), Point::new(x + 0.02 * w, y + 0.015 * h))
    };
    // A change the map refuses (an obstacle that leaves no room, say) leaves it as it was.
    let _ = match rng.random_range(0..3) {
        0 | 1 if ids.is_empty() => map.insert(spot(rng)).map(|_| ()),
        0 => map.insert(spot(rng)).map(|_| ()),
        1 => {
            let id = ids[rng.random_range(0..ids.len())];
            map.move_to(id, spot(rng))
        }
        _ => {
            let id = ids[rng.random_range(0..ids.len())];
            map.remove(id).map(|_| ())
        }
    };
}

#[test]
fn a_loaded_map_takes_updates_and_equals_a_rebuild() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    for (name, map) in scene_maps() {
        let bytes = map.to_bytes();
        assert_eq!(&bytes[..8], b"CRDECM08");
        let mut loaded = DynamicEcm::from_bytes(&bytes).unwrap();
        assert_eq!(loaded.to_bytes(), bytes, "{name}: not deterministic");
        assert_eq!(loaded.environment(), map.environment(), "{name}");
        assert_eq!(loaded.ecm().to_bytes(), map.ecm().to_bytes(), "{name}");
        // The same updates on the original map and on the loaded one.
        let mut original = map;
        let mut twin = rng.clone();
        for step in 0..12 {
            random_change(&mut rng, &mut loaded);
            random_change(&mut twin, &mut original);
            let rebuilt = Ecm::build(loaded.environment()).unwrap();
            assert_eq!(
                loaded.ecm().canonical_diff(&rebuilt, 1e-7),
                None,
                "{name}, step {step}: the loaded map after the update is not a rebuild"
            );
            assert_eq!(loaded.environment(), original.environment(), "{name}");
        }
        assert!(loaded.version() > 0, "{name}: no update was applied");
        // Saved again after the updates, it loads as itself.
        let again = loaded.to_bytes();
        let reloaded = DynamicEcm::from_bytes(&again).unwrap();
        assert_eq!(reloaded.to_bytes(), again, "{name}");
    }
}

/// The size the environment adds (printed; FORMAT.md quotes it), on the scenes and on a
/// game map, and the load against the build (printed, not asserted: timings are
/// benchmarks).
#[test]
fn size_of_the_environment() {
    let den = corridor_io::load_environment(shared_data().join("movingai/den520d.map")).unwrap();
    let mut envs: Vec<(&str, Environment)> = Scene::ALL.map(|s| (s.name(), s.build())).to_vec();
    envs.push(("den520d", den));
    for (name, env) in envs {
        let vertices = env.vertex_count();
        let started = std::time::Instant::now();
        let map = DynamicEcm::new(env).unwrap();
        let build = started.elapsed();
        let (plain, full) = (map.ecm().to_bytes().len(), map.to_bytes().len());
        let started = std::time::Instant::now();
        let loaded = DynamicEcm::from_bytes(&map.to_bytes()).unwrap();
        let load = started.elapsed();
        println!(
            "{name}: {plain} bytes ECM alone, {full} with the environment (+{:.1} %, {:.1} bytes \
             per obstacle vertex); build {build:?}, load for updates {load:?}",
            100.0 * (full - plain) as f64 / plain as f64,
            (full - plain) as f64 / vertices.max(1) as f64,
        );
        assert!(full > plain);
        assert_eq!(loaded.ecm().to_bytes(), map.ecm().to_bytes());
    }
}

#[test]
fn files_of_the_ecm_alone_load_read_only() {
    let map = DynamicEcm::new(Scene::Dungeon.build()).unwrap();
    let old = map.ecm().to_bytes();
    assert_eq!(&old[..8], b"CRDECM09");
    let err = DynamicEcm::from_bytes(&old).unwrap_err();
    assert!(matches!(err, StoreError::NoEnvironment { .. }));
    assert!(err.to_string().contains("read-only"), "{err}");
    // Both versions load as an ECM; the new one's environment is checked and dropped.
    assert_eq!(Ecm::from_bytes(&old).unwrap().to_bytes(), old);
    assert_eq!(Ecm::from_bytes(&map.to_bytes()).unwrap().to_bytes(), old);
}

#[test]
fn an_environment_that_is_not_the_ecms_is_refused() {
    let dungeon = DynamicEcm::new(Scene::Dungeon.build()).unwrap();
    let mut moved = dungeon.clone();
    let id = moved.environment().obstacles().next().unwrap().0;
    moved.remove(id).unwrap();
    // The dungeon's ECM beside the environment without one of its obstacles: the two
    // payloads are the ECM's postcard form then the environment's.
    let ecm_len = postcard::to_allocvec(dungeon.ecm()).unwrap().len();
    let bytes = moved.to_bytes();
    let forged_payload = [
        &dungeon.to_bytes()[ECM_HEADER..ECM_HEADER + ecm_len],
        &bytes[ECM_HEADER + postcard::to_allocvec(moved.ecm()).unwrap().len()..],
    ]
    .concat();
    let forged = with_header(b"CRDECM08", &forged_payload);
    let err = DynamicEcm::from_bytes(&forged).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::Environment(EnvironmentProblem::FreeArea { .. })
        ),
        "{err}"
    );
    // A pillar has no area: only the full validation (a rebuild) sees it.
    let mut pillar = dungeon.clone();
    let (_, roomy) = dungeon
        .ecm()
        .vertices()
        .max_by(|a, b| a.1.clearance.total_cmp(&b.1.clearance))
        .unwrap();
    pillar.insert(Obstacle::Point(roomy.position)).unwrap();
    assert!(pillar.ecm().vertex_count() != dungeon.ecm().vertex_count());
    let bytes = pillar.to_bytes();
    let forged_payload = [
        &dungeon.to_bytes()[ECM_HEADER..ECM_HEADER + ecm_len],
        &bytes[ECM_HEADER + pillar.ecm().to_bytes().len() - ECM_HEADER..],
    ]
    .concat();
    let forged = with_header(b"CRDECM08", &forged_payload);
    let full = LoadOptions {
        full_validation: true,
        ..LoadOptions::default()
    };
    let err = DynamicEcm::from_bytes_with(&forged, &full, UpdateOptions::default()).unwrap_err();
    assert!(
        matches!(err, StoreError::Environment(EnvironmentProblem::Rebuild(_))),
        "{err}"
    );
}

/// As `corruption.rs` for `CRDECM08`: damaged copies never load, forged ones never panic
/// (neither on load nor on an update and a query after it).
#[test]
fn damaged_and_forged_maps_with_environments_are_errors() {
    let maps = scene_maps();
    let saved: Vec<Vec<u8>> = maps.iter().map(|(_, m)| m.to_bytes()).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(2631);
    let (mut loaded, mut forged_loaded) = (0, 0);
    let runs = 2_000;
    for i in 0..runs {
        let m = rng.random_range(0..maps.len());
        let forgery = i % 4 == 3;
        let (bytes, kind) = if forgery {
            forge(&mut rng, &saved[m])
        } else {
            corrupt(&mut rng, &saved[m])
        };
        let load = LoadOptions {
            full_validation: i % 8 == 0,
            ..LoadOptions::default()
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let result = DynamicEcm::from_bytes_with(&bytes, &load, UpdateOptions::default());
            if let Ok(map) = &result {
                let mut map = map.clone();
                let b = map.environment().bounds();
                let c = (b.min + b.max) * 0.5;
                let _ = map.insert(Obstacle::Point(c));
                let _ = map.ecm().locate(c + Point::new(0.1, 0.1));
            }
            result.map(|m| m.to_bytes())
        }));
        match outcome {
            Err(_) => panic!(
                "run {i} ({}, {kind:?}, forged {forgery}) panicked",
                maps[m].0
            ),
            Ok(Ok(back)) if !forgery => {
                loaded += 1;
                assert_eq!(back, saved[m], "run {i}: loaded a different map");
            }
            Ok(Ok(_)) => forged_loaded += 1,
            Ok(Err(_)) => {}
        }
    }
    println!("{runs} corruptions: {loaded} plain and {forged_loaded} forged loaded");
    assert_eq!(loaded, 0);
}
