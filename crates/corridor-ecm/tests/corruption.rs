//! Saved maps cannot lie: damaged copies of small saved ECMs (arena, the builtin scenes)
//! never panic and never load as a different map; forged ones (damaged, with the header's
//! length and checksum made to match) never panic, neither on load nor on the path
//! queries and point look-ups after a load that succeeds. The full count (≥ 100,000) is
//! the example `corrupt_saved_maps`.

mod common;
use common::*;
use corridor_ecm::{Ecm, LoadOptions, PathQuery, StoreError};
use corridor_geom::Point;
use corridor_testkit::corrupt::{corrupt, forge, with_header, Corruption, ECM_HEADER};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

fn small_maps() -> Vec<(String, Ecm)> {
    let (w, h, blocked) = read_movingai(&shared_data().join("movingai/arena.map"));
    let mut maps = vec![(
        "arena".to_string(),
        Ecm::from_walls(&grid_walls(w, h, &|x, y| blocked[y * w + x], 10_000)).unwrap(),
    )];
    for scene in corridor_io::scenes::Scene::ALL {
        maps.push((
            scene.name().to_string(),
            Ecm::build(&scene.build()).unwrap(),
        ));
    }
    maps
}

/// Queries a loaded map the way a user would (paths between vertices, look-ups).
fn use_map(ecm: &Ecm, probes: &[Point]) {
    for w in probes.windows(2) {
        let _ = ecm.plan(&PathQuery::new(w[0], w[1]));
        let _ = ecm.plan(&PathQuery {
            radius: 0.5,
            ..PathQuery::new(w[0], w[1])
        });
        let _ = ecm.locate(w[0]);
        let _ = ecm.retract(w[1]);
    }
}

#[test]
fn corrupted_saved_maps_are_errors_and_forged_ones_do_not_panic() {
    let maps = small_maps();
    let saved: Vec<Vec<u8>> = maps.iter().map(|(_, e)| e.to_bytes()).collect();
    let probes: Vec<Vec<Point>> = maps
        .iter()
        .map(|(_, e)| {
            e.vertices()
                .step_by(7)
                .take(6)
                .map(|(_, v)| v.position)
                .collect()
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    let (mut loaded, mut forged_loaded) = (0, 0);
    let mut kinds: BTreeMap<Corruption, usize> = BTreeMap::new();
    let runs = 10_000;
    for i in 0..runs {
        let m = rng.random_range(0..maps.len());
        let original = &saved[m];
        let forgery = i % 4 == 3;
        let (bytes, kind) = if forgery {
            forge(&mut rng, original)
        } else {
            corrupt(&mut rng, original)
        };
        *kinds.entry(kind).or_default() += 1;
        if std::env::var_os("CORRUPTION_TRACE").is_some() {
            eprintln!("run {i} map {} forged {forgery} {kind:?}", maps[m].0);
        }
        let full = LoadOptions {
            full_validation: i % 2 == 0,
            ..LoadOptions::default()
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let result = Ecm::from_bytes_with(&bytes, &full);
            if let Ok(ecm) = &result {
                use_map(ecm, &probes[m]);
            }
            result.map(|e| e.to_bytes())
        }));
        match outcome {
            Err(_) => panic!(
                "run {i} ({}, {kind:?}, forged {forgery}) panicked",
                maps[m].0
            ),
            Ok(Ok(back)) if !forgery => {
                loaded += 1;
                assert_eq!(
                    &back, original,
                    "run {i} ({}, {kind:?}) loaded a different map",
                    maps[m].0
                );
            }
            Ok(Ok(_)) => forged_loaded += 1,
            Ok(Err(_)) => {}
        }
    }
    println!("{runs} corruptions ({kinds:?}): {loaded} plain and {forged_loaded} forged loaded");
    // A damaged file never passes the checksum.
    assert_eq!(loaded, 0);
}

#[test]
fn damage_is_named() {
    let ecm = &small_maps()[1].1;
    let bytes = ecm.to_bytes();
    let err = |b: &[u8]| Ecm::from_bytes(b).unwrap_err();
    assert!(matches!(err(b"not an ecm"), StoreError::NotAnEcm { .. }));
    let mut old = bytes.clone();
    old[7] = b'6';
    assert!(matches!(err(&old), StoreError::Version { .. }));
    assert!(matches!(err(&bytes[..12]), StoreError::ShortHeader { .. }));
    assert!(matches!(
        err(&bytes[..bytes.len() - 1]),
        StoreError::Truncated { .. }
    ));
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0; 1000]);
    assert!(matches!(
        err(&longer),
        StoreError::TrailingBytes { extra: 1000 }
    ));
    let mut flipped = bytes.clone();
    *flipped.last_mut().unwrap() ^= 1;
    assert!(matches!(err(&flipped), StoreError::Checksum { .. }));
    // With a matching checksum: bytes after the map, a cut map.
    let payload = &bytes[ECM_HEADER..];
    let extra = with_header(&bytes[..8], &[payload, &[0, 0]].concat());
    assert!(matches!(
        err(&extra),
        StoreError::TrailingBytes { extra: 2 }
    ));
    let cut = with_header(&bytes[..8], &payload[..payload.len() / 2]);
    assert!(matches!(err(&cut), StoreError::Decode(_)));
}

/// A map changed by dynamic updates (runs in the index's later levels and tail, dead
/// slots in the slot maps and the index) passes the load's checks, the full ones too, and
/// loads as itself.
#[test]
fn updated_maps_load_as_themselves() {
    use corridor_ecm::DynamicEcm;
    use corridor_geom::Obstacle;
    let mut map = DynamicEcm::new(corridor_io::scenes::Scene::Dungeon.build()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut inserted = Vec::new();
    let full = LoadOptions {
        full_validation: true,
        ..LoadOptions::default()
    };
    let mut changes = 0;
    for step in 0..60 {
        if step % 3 == 2 && !inserted.is_empty() {
            let id = inserted.swap_remove(rng.random_range(0..inserted.len()));
            map.remove(id).unwrap();
        } else {
            let (x, y) = (rng.random_range(5.0..95.0), rng.random_range(5.0..95.0));
            let square = Obstacle::rectangle(Point::new(x, y), Point::new(x + 1.5, y + 1.0));
            if let Ok(id) = map.insert(square) {
                inserted.push(id);
                changes += 1;
            }
        }
        let bytes = map.ecm().to_bytes();
        let loaded =
            Ecm::from_bytes_with(&bytes, &full).unwrap_or_else(|e| panic!("step {step}: {e}"));
        assert_eq!(loaded.to_bytes(), bytes, "step {step}");
    }
    assert!(changes > 20, "only {changes} insertions succeeded");
}
