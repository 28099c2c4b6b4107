//! Path queries on several threads while another thread plans and applies 10,000
//! updates: planning only reads the map (readers keep going), applying takes the write
//! lock briefly. Every path found keeps its radius from every wall of the map it was
//! planned on (brute force against the normalized walls), and the final map equals a
//! full rebuild.

use corridor_ecm::{
    Change, DynamicEcm, Ecm, PathQuery, PlanError, Planner, UpdateError, UpdateOptions,
};
use corridor_geom::{normalize, Obstacle, ObstacleId, Point, Segment};
use corridor_testkit::random::{random_environment, ObstacleMix, RandomEnvironmentOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};

const UPDATES: usize = 10_000;

fn options() -> RandomEnvironmentOptions {
    RandomEnvironmentOptions {
        obstacles: 6,
        size: 40.0,
        mix: ObstacleMix::ALL,
        min_radius: 0.02,
        max_radius: 0.08,
        max_vertices: 6,
        ..Default::default()
    }
}

fn random_obstacle(rng: &mut ChaCha8Rng) -> Obstacle {
    corridor_testkit::random::random_obstacle(rng.random(), &options())
}

fn too_close(points: &[Point], walls: &[Segment], radius: f64) -> Option<String> {
    for w in points.windows(2) {
        let piece = Segment::new(w[0], w[1]);
        for wall in walls {
            let d = piece.distance_to_segment(wall);
            if d < radius - 1e-6 {
                return Some(format!("piece {piece:?} is {d} from wall {wall:?}"));
            }
        }
    }
    None
}

/// Writes the map's environment as native JSON (exact numbers) next to the test's
/// build files, returning where, or why it could not.
fn save_for_replay(map: &DynamicEcm, k: usize) -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "update_concurrent_defect_{}_{k}.json",
        map.version()
    ));
    let written = corridor_io::write_json(map.environment())
        .map_err(|e| e.to_string())
        .and_then(|text| std::fs::write(&path, text).map_err(|e| e.to_string()));
    match written {
        Ok(()) => path.display().to_string(),
        Err(e) => format!("(not saved: {e}) {:?}", map.environment()),
    }
}

/// Plans queries between random points on the current map; checks every path found
/// against the walls by brute force. Returns (paths checked, queries refused).
fn query_batch(
    map: &DynamicEcm,
    planner: &mut Planner,
    rng: &mut ChaCha8Rng,
    defects: &mut Vec<String>,
) -> (usize, usize) {
    let walls: Vec<Segment> = normalize(map.environment())
        .expect("walls")
        .user_segments()
        .collect();
    let (mut planned, mut refused) = (0, 0);
    for _ in 0..4 {
        let p = |rng: &mut ChaCha8Rng| {
            Point::new(rng.random_range(0.5..39.5), rng.random_range(0.5..39.5))
        };
        let radius = [0.0, 0.2, 0.6][rng.random_range(0..3)];
        let query = PathQuery::new(p(rng), p(rng)).with_radius(radius);
        match planner.plan(map.ecm(), &query) {
            Ok(path) => {
                planned += 1;
                if let Some(problem) = too_close(&path.points, &walls, radius) {
                    // Is it the update or the planner? Plan the same query on a full
                    // rebuild: the maps must be equal, and so must be the paths.
                    let fresh = Ecm::build(map.environment()).expect("full rebuild");
                    assert_eq!(map.ecm().canonical_diff(&fresh, 1e-6), None);
                    let again = fresh.plan(&query).map(|p| p.points);
                    match again {
                        Ok(points) if points == path.points => {
                            // The planner's own defect, not the update's: reported as
                            // such, with the map saved so that the failure can be replayed
                            // (`corridor path FILE --from .. --to .. --radius ..`).
                            defects.push(format!(
                                "{query:?}: {problem} (also on a full rebuild); map saved to {}",
                                save_for_replay(map, defects.len())
                            ));
                        }
                        other => panic!(
                            "{query:?}: {problem} (version {}), but a full rebuild plans {other:?}",
                            map.version()
                        ),
                    }
                }
            }
            Err(PlanError::Start(_)) | Err(PlanError::Goal(_)) => refused += 1,
            Err(PlanError::StartTooClose { clearance, .. })
            | Err(PlanError::GoalTooClose { clearance, .. }) => {
                assert!(clearance < radius);
                refused += 1;
            }
            Err(PlanError::NoCorridor { .. }) | Err(PlanError::DifferentComponents) => refused += 1,
            Err(e) => panic!("{query:?}: unexpected {e}"),
        }
    }
    (planned, refused)
}

#[test]
fn queries_run_while_updates_are_planned_and_applied() {
    let env = random_environment(99, &options());
    // Repair locally whenever it can be proven (the default rebuilds small maps whole).
    let update = UpdateOptions {
        max_local_fraction: f64::INFINITY,
        ..Default::default()
    };
    let map = Arc::new(RwLock::new(
        DynamicEcm::with_options(env, update).expect("map"),
    ));
    let done = Arc::new(AtomicBool::new(false));
    let paths = Arc::new(AtomicUsize::new(0));
    let readers: Vec<_> = (0..2u64)
        .map(|k| {
            let (map, done, paths) = (map.clone(), done.clone(), paths.clone());
            std::thread::spawn(move || {
                let mut rng = ChaCha8Rng::seed_from_u64(k);
                let mut planner = Planner::new();
                let (mut planned, mut refused, mut versions) =
                    (0, 0, std::collections::HashSet::new());
                let mut defects = Vec::new();
                while !done.load(Ordering::Relaxed) {
                    let guard = map.read().expect("lock");
                    versions.insert(guard.version());
                    let (p, r) = query_batch(&guard, &mut planner, &mut rng, &mut defects);
                    drop(guard);
                    planned += p;
                    refused += r;
                    // Leave the writer some of the machine.
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                paths.fetch_add(planned, Ordering::Relaxed);
                (planned, refused, versions.len(), defects)
            })
        })
        .collect();
    // The writer: plan under a read lock (readers keep querying), apply under the write
    // lock.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut applied, mut rejected, mut max_apply) = (0, 0, std::time::Duration::ZERO);
    while applied < UPDATES {
        let patch = {
            let guard = map.read().expect("lock");
            let ids: Vec<ObstacleId> = guard.environment().obstacles().map(|(id, _)| id).collect();
            let roll: f64 = rng.random();
            let change = if ids.len() < 3 || roll < 0.4 {
                Change::Insert(random_obstacle(&mut rng))
            } else if roll < 0.7 || ids.len() > 10 {
                Change::Remove(ids[rng.random_range(0..ids.len())])
            } else {
                Change::Move {
                    id: ids[rng.random_range(0..ids.len())],
                    obstacle: random_obstacle(&mut rng),
                }
            };
            match guard.plan_update(&change) {
                Ok(p) => p,
                Err(UpdateError::InvalidObstacle { .. }) | Err(UpdateError::Build(_)) => {
                    rejected += 1;
                    continue;
                }
                Err(e) => panic!("{change:?}: {e}"),
            }
        };
        let mut guard = map.write().expect("lock");
        let clock = std::time::Instant::now();
        guard.apply(patch).expect("no other writer");
        max_apply = max_apply.max(clock.elapsed());
        applied += 1;
        if applied % 1000 == 0 {
            let full = Ecm::build(guard.environment()).expect("full rebuild");
            assert_eq!(
                guard.ecm().canonical_diff(&full, 1e-6),
                None,
                "after {applied} updates"
            );
        }
    }
    done.store(true, Ordering::Relaxed);
    let mut total_versions = 0;
    let mut defects = Vec::new();
    for r in readers {
        let (planned, refused, versions, d) = r.join().expect("reader");
        println!(
            "reader: {planned} paths checked, {refused} refused, {versions} map versions seen, \
             {} planner defects (the same path on a full rebuild)",
            d.len()
        );
        assert!(planned > 0);
        total_versions += versions;
        defects.extend(d);
    }
    assert!(
        defects.is_empty(),
        "{} paths closer to a wall than their radius, first: {}",
        defects.len(),
        defects[0]
    );
    let map = map.read().expect("lock");
    println!(
        "{applied} updates applied ({rejected} refused), longest apply {max_apply:?}, {} paths checked; {:?}",
        paths.load(Ordering::Relaxed),
        map.stats()
    );
    assert_eq!(map.stats().patches, UPDATES);
    assert!(
        total_versions > 2,
        "readers saw only {total_versions} versions"
    );
    let full = Ecm::build(map.environment()).expect("full rebuild");
    assert_eq!(map.ecm().canonical_diff(&full, 1e-6), None);
}
