//! Dynamic repair: hundreds of random insertions and removals per built-in scene, each
//! followed by the independent checker around the repaired area (and over everything
//! every 50 changes), and coverage within one percentage point of a full rebuild.

mod common;

use corridor_asfv::{AsfvError, AsfvOptions, Decomposition};
use corridor_geom::{Obstacle, ObstacleId, Point};
use corridor_io::scenes::Scene;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// Runs `ops` random changes on `scene`; returns (mean repair time, full rebuild time).
fn churn(scene: Scene, ops: usize, seed: u64) -> (Duration, Duration) {
    let env = scene.build();
    let params = AsfvOptions::default();
    let mut d = Decomposition::build(&env, &params).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let bounds = env.bounds();
    let max_size = (bounds.size().x.min(bounds.size().y) / 15.0).max(1.0);
    let mut inserted: Vec<ObstacleId> = Vec::new();
    let original: Vec<ObstacleId> = env.obstacles().map(|(id, _)| id).collect();
    let mut removed_original = 0;
    let mut repair_time = Duration::ZERO;
    for op in 0..ops {
        let t = Instant::now();
        let report = if inserted.is_empty() || rng.random_bool(0.55) {
            let o = common::random_obstacle(&mut rng, bounds, max_size);
            let (id, report) = d.insert_with_report(o).unwrap();
            inserted.push(id);
            report
        } else if removed_original < original.len() / 4 && rng.random_bool(0.2) {
            // Now and then remove one of the scene's own obstacles for good.
            let id = original[rng.random_range(0..original.len())];
            match d.remove_with_report(id) {
                Ok((_, report)) => {
                    removed_original += 1;
                    report
                }
                Err(AsfvError::UnknownObstacle(_)) => continue,
                Err(e) => panic!("{e}"),
            }
        } else {
            let id = inserted.swap_remove(rng.random_range(0..inserted.len()));
            d.remove_with_report(id).unwrap().1
        };
        repair_time += t.elapsed();
        if let Some(area) = report.area {
            d.validate_within(area.expanded(1.0))
                .unwrap_or_else(|e| panic!("{} after change {op}: {e}", scene.name()));
        }
        if (op + 1) % 50 == 0 {
            d.validate()
                .unwrap_or_else(|e| panic!("{} after change {op}: {e}", scene.name()));
        }
    }
    let t = Instant::now();
    let full = Decomposition::build(d.environment(), &params).unwrap();
    let rebuild = t.elapsed();
    full.validate().unwrap();
    let (got, want) = (d.coverage().fraction(), full.coverage().fraction());
    println!(
        "{:9} {ops} changes: coverage {:.3}% (full rebuild {:.3}%), regions {} ({}), \
         mean repair {:?}, full rebuild {:?}",
        scene.name(),
        100.0 * got,
        100.0 * want,
        d.region_count(),
        full.region_count(),
        repair_time / ops as u32,
        rebuild
    );
    assert!(
        (got - want).abs() <= 0.01,
        "{}: coverage {got} vs rebuild {want}",
        scene.name()
    );
    (repair_time / ops as u32, rebuild)
}

#[test]
fn random_changes_keep_every_scene_valid() {
    for (i, scene) in Scene::ALL.into_iter().enumerate() {
        let ops = if scene == Scene::City { 300 } else { 400 };
        churn(scene, ops, 0xA5F0 + i as u64);
    }
}

/// The full thousand changes per scene, with timings; run with `--ignored`.
#[test]
#[ignore = "long: 1,000 changes per scene"]
fn thousand_changes_per_scene() {
    for (i, scene) in Scene::ALL.into_iter().enumerate() {
        churn(scene, 1000, 0xD45F + i as u64);
    }
}

#[test]
fn move_is_remove_then_insert() {
    let env = Scene::Military.build();
    let mut d = Decomposition::build(&env, &AsfvOptions::default()).unwrap();
    let id = d
        .insert(Obstacle::rectangle(
            Point::new(60.0, 20.0),
            Point::new(64.0, 24.0),
        ))
        .unwrap();
    let ids_before: Vec<_> = d.regions().map(|r| r.id()).collect();
    d.move_to(
        id,
        Obstacle::rectangle(Point::new(150.0, 40.0), Point::new(154.0, 44.0)),
    )
    .unwrap();
    d.validate().unwrap();
    assert!(d.environment().obstacle(id).is_some());
    assert!(
        d.locate(Point::new(62.0, 22.0)).is_some(),
        "the old place is free again"
    );
    assert!(
        d.locate(Point::new(152.0, 42.0)).is_none(),
        "the new place is blocked"
    );
    // Most regions survive a local change, with their ids.
    let kept = d.regions().filter(|r| ids_before.contains(&r.id())).count();
    assert!(
        kept * 10 > ids_before.len() * 9,
        "{kept} of {}",
        ids_before.len()
    );
}

#[test]
fn bad_changes_are_typed_errors() {
    let env = Scene::Empty.build();
    let mut d = Decomposition::build(&env, &AsfvOptions::default()).unwrap();
    let n = d.region_count();
    assert!(matches!(
        d.remove(ObstacleId(999)),
        Err(AsfvError::UnknownObstacle(ObstacleId(999)))
    ));
    let bad = Obstacle::polygon(vec![
        Point::new(1.0, 1.0),
        Point::new(5.0, 5.0),
        Point::new(5.0, 1.0),
        Point::new(1.0, 5.0),
    ]);
    assert!(matches!(d.insert(bad), Err(AsfvError::Environment(_))));
    let nan = Obstacle::Point(Point::new(f64::NAN, 1.0));
    assert!(matches!(d.insert(nan), Err(AsfvError::Environment(_))));
    assert_eq!(d.region_count(), n);
    d.validate().unwrap();
}
