//! Dynamic updates: the canonical comparison, the update API and its errors, and long
//! random sequences of insertions, removals and moves in which the dynamic ECM must equal
//! a full rebuild after every step.

use corridor_ecm::{Change, DynamicEcm, Ecm, RepairMethod, UpdateError, UpdateOptions};
use corridor_geom::{Environment, Obstacle, ObstacleId, Point};
use corridor_testkit::random::{
    random_environment, random_obstacle, BoundaryShape, ObstacleMix, RandomEnvironmentOptions,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Tolerance of the comparison with a full rebuild (user units; 0.01 grid steps).
const TOLERANCE: f64 = 1e-6;

fn room() -> Environment {
    let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(20.0, 10.0));
    env.insert(Obstacle::rectangle(
        Point::new(9.0, 0.0),
        Point::new(11.0, 4.0),
    ));
    env.insert(Obstacle::rectangle(
        Point::new(9.0, 6.0),
        Point::new(11.0, 10.0),
    ));
    env
}

fn assert_rebuilt(map: &DynamicEcm, context: &str) {
    let full = Ecm::build(map.environment()).expect("full rebuild");
    if let Some(diff) = map.ecm().canonical_diff(&full, TOLERANCE) {
        panic!("{context}: the dynamic ECM differs from a full rebuild: {diff}");
    }
    assert_eq!(
        map.ecm().cell_index().len(),
        full.cell_index().len(),
        "{context}: cell index"
    );
}

#[test]
fn canonical_diff_equal_and_different() {
    let env = room();
    let a = Ecm::build(&env).unwrap();
    let b = Ecm::build(&env).unwrap();
    assert_eq!(a.canonical_diff(&b, 1e-9), None);
    assert_eq!(a.canonical_diff(&a, 0.0), None);
    let mut moved = env.clone();
    moved.insert(Obstacle::Point(Point::new(3.0, 3.0)));
    let c = Ecm::build(&moved).unwrap();
    assert!(a.canonical_diff(&c, 1e-9).is_some());
    assert!(c.canonical_diff(&a, 1e-9).is_some());
    // A tiny shift of one obstacle is a difference below a coarse tolerance only.
    let mut shifted = env.clone();
    shifted
        .replace(
            ObstacleId(0),
            Obstacle::rectangle(Point::new(9.0, 0.0), Point::new(11.0, 4.001)),
        )
        .unwrap();
    let d = Ecm::build(&shifted).unwrap();
    let diff = a
        .canonical_diff(&d, 1e-6)
        .expect("a 0.001 shift is a difference");
    assert!(!diff.is_empty());
    assert_eq!(a.canonical_diff(&d, 0.01), None);
}

#[test]
fn canonical_diff_ignores_direction_and_ids() {
    // The same environment with obstacles inserted in another order: other ids, maybe
    // other walls order, same map.
    let mut e1 = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
    let mut e2 = e1.clone();
    let obstacles = [
        Obstacle::rectangle(Point::new(2.0, 2.0), Point::new(3.0, 4.0)),
        Obstacle::Point(Point::new(7.0, 7.0)),
        Obstacle::segment(Point::new(5.0, 1.0), Point::new(8.0, 3.0)),
    ];
    for o in &obstacles {
        e1.insert(o.clone());
    }
    for o in obstacles.iter().rev() {
        e2.insert(o.clone());
    }
    let (a, b) = (Ecm::build(&e1).unwrap(), Ecm::build(&e2).unwrap());
    assert_eq!(a.canonical_diff(&b, 1e-9), None);
}

#[test]
fn door_splits_and_joins_components() {
    let mut map = DynamicEcm::new(room()).unwrap();
    assert_eq!(map.ecm().component_count(), 1);
    let door = map
        .insert(Obstacle::rectangle(
            Point::new(9.5, 3.0),
            Point::new(10.5, 7.0),
        ))
        .unwrap();
    assert_eq!(map.ecm().component_count(), 2);
    assert_rebuilt(&map, "door closed");
    map.remove(door).unwrap();
    assert_eq!(map.ecm().component_count(), 1);
    assert_rebuilt(&map, "door open");
    assert_eq!(map.stats().patches, 2);
    assert_eq!(map.stats().fallbacks, 0, "{:?}", map.stats());
}

#[test]
fn errors_name_the_obstacle() {
    let mut map = DynamicEcm::new(room()).unwrap();
    assert_eq!(
        map.remove(ObstacleId(77)).unwrap_err(),
        UpdateError::UnknownObstacle(ObstacleId(77))
    );
    let err = map
        .move_to(ObstacleId(99), Obstacle::Point(Point::new(1.0, 1.0)))
        .unwrap_err();
    assert_eq!(err, UpdateError::UnknownObstacle(ObstacleId(99)));
    let next = map.environment().next_id();
    let err = map
        .insert(Obstacle::Point(Point::new(f64::NAN, 1.0)))
        .unwrap_err();
    assert!(
        matches!(err, UpdateError::InvalidObstacle { id, .. } if id == next),
        "{err}"
    );
    assert!(err.to_string().contains(&next.to_string()), "{err}");
    let bow_tie = Obstacle::polygon(vec![
        Point::new(1.0, 1.0),
        Point::new(3.0, 3.0),
        Point::new(3.0, 1.0),
        Point::new(1.0, 3.0),
    ]);
    let err = map.insert(bow_tie.clone()).unwrap_err();
    assert!(matches!(err, UpdateError::InvalidObstacle { .. }), "{err}");
    let err = map.move_to(ObstacleId(0), bow_tie).unwrap_err();
    assert!(
        matches!(
            err,
            UpdateError::InvalidObstacle {
                id: ObstacleId(0),
                ..
            }
        ),
        "{err}"
    );
    let far = Obstacle::rectangle(Point::new(50.0, 50.0), Point::new(51.0, 51.0));
    let err = map.insert(far).unwrap_err();
    assert!(matches!(err, UpdateError::InvalidObstacle { .. }), "{err}");
    // Nothing changed.
    assert_eq!(map.version(), 0);
    assert_rebuilt(&map, "after errors");
    // A stale patch is refused.
    let p1 = map
        .plan_update(&Change::Insert(Obstacle::Point(Point::new(2.0, 2.0))))
        .unwrap();
    let p2 = map
        .plan_update(&Change::Insert(Obstacle::Point(Point::new(3.0, 2.0))))
        .unwrap();
    map.apply(p1).unwrap();
    assert!(matches!(
        map.apply(p2),
        Err(UpdateError::StalePatch {
            patch: 0,
            current: 1
        })
    ));
}

#[test]
fn plan_does_not_change_the_map() {
    let map = DynamicEcm::new(room()).unwrap();
    let before = map.ecm().clone();
    let patch = map
        .plan_update(&Change::Insert(Obstacle::rectangle(
            Point::new(2.0, 2.0),
            Point::new(4.0, 4.0),
        )))
        .unwrap();
    assert_eq!(patch.report().method, RepairMethod::Local);
    assert!(patch.report().added_edges > 0);
    assert_eq!(map.ecm().canonical_diff(&before, 0.0), None);
}

#[derive(Default, Debug)]
struct Tally {
    ops: usize,
    local: usize,
    fallbacks: usize,
    unchanged: usize,
    rejected: usize,
    reasons: std::collections::BTreeMap<String, usize>,
}

impl Tally {
    fn add(&mut self, t: Tally) {
        self.ops += t.ops;
        self.local += t.local;
        self.fallbacks += t.fallbacks;
        self.unchanged += t.unchanged;
        self.rejected += t.rejected;
        for (k, v) in t.reasons {
            *self.reasons.entry(k).or_default() += v;
        }
    }
}

/// Runs `ops` random insertions, removals and moves on `env`, comparing with a full
/// rebuild after every step.
fn soak(
    env: Environment,
    options: &RandomEnvironmentOptions,
    ops: usize,
    seed: u64,
    name: &str,
) -> Tally {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Repair locally whenever it can be proven, even where a full rebuild would be
    // cheaper, so that the local repair is what is tested.
    let update = UpdateOptions {
        max_local_fraction: f64::INFINITY,
        ..Default::default()
    };
    let mut map = DynamicEcm::with_options(env, update).unwrap();
    let mut tally = Tally::default();
    for step in 0..ops {
        let ids: Vec<ObstacleId> = map.environment().obstacles().map(|(id, _)| id).collect();
        let roll: f64 = rng.random();
        let change = if ids.is_empty() || roll < 0.45 {
            Change::Insert(random_obstacle(rng.random(), options))
        } else if roll < 0.7 {
            Change::Remove(ids[rng.random_range(0..ids.len())])
        } else {
            let id = ids[rng.random_range(0..ids.len())];
            let obstacle = if rng.random::<f64>() < 0.7 {
                let step = options.size * 0.05;
                let d = Point::new(rng.random_range(-step..step), rng.random_range(-step..step));
                map.environment().obstacle(id).unwrap().translated(d)
            } else {
                random_obstacle(rng.random(), options)
            };
            Change::Move { id, obstacle }
        };
        let patch = match map.plan_update(&change) {
            Ok(p) => p,
            Err(UpdateError::InvalidObstacle { .. }) | Err(UpdateError::Build(_)) => {
                tally.rejected += 1;
                continue;
            }
            Err(e) => panic!("{name} step {step}: {change:?} failed: {e}"),
        };
        match patch.report().method {
            RepairMethod::Local => tally.local += 1,
            RepairMethod::FullRebuild => {
                tally.fallbacks += 1;
                let reason = patch.report().fallback_reason.clone().unwrap_or_default();
                let reason: String = reason.split(" at ").next().unwrap_or("").into();
                *tally.reasons.entry(reason).or_default() += 1;
            }
            RepairMethod::Unchanged => tally.unchanged += 1,
        }
        let report = patch.report().clone();
        map.apply(patch).unwrap();
        tally.ops += 1;
        let full = Ecm::build(map.environment()).expect("full rebuild");
        if let Some(diff) = map.ecm().canonical_diff(&full, TOLERANCE) {
            panic!("{name} (seed {seed}) step {step}: {change:?} ({report:?}): the dynamic ECM differs from a full rebuild: {diff}");
        }
        assert_eq!(
            map.ecm().cell_index().len(),
            full.cell_index().len(),
            "{name} step {step}: cell index"
        );
    }
    tally
}

#[test]
fn random_environments_equal_full_rebuild() {
    let mut total = Tally::default();
    let configs = [
        RandomEnvironmentOptions {
            obstacles: 12,
            ..Default::default()
        },
        RandomEnvironmentOptions {
            obstacles: 8,
            boundary: BoundaryShape::Star,
            ..Default::default()
        },
        RandomEnvironmentOptions {
            obstacles: 10,
            mix: ObstacleMix::POLYGONS,
            max_radius: 0.25,
            ..Default::default()
        },
        RandomEnvironmentOptions::grid_map(24, 30),
    ];
    for (k, options) in configs.iter().enumerate() {
        for seed in 0..3u64 {
            let env = random_environment(seed * 31 + k as u64, options);
            let t = soak(
                env,
                options,
                150,
                seed + 100 * k as u64,
                &format!("config {k} seed {seed}"),
            );
            total.add(t);
        }
    }
    println!("random environments: {total:?}");
    assert!(total.ops >= 1500, "{total:?}");
    assert!(total.local > total.fallbacks, "{total:?}");
}

/// Every shared map: the Moving AI maps, the Polyanya meshes and the any-angle mazes.
fn shared_maps() -> Vec<std::path::PathBuf> {
    let data = corridor_testkit::data_dir();
    let mut maps = Vec::new();
    for (folder, extension) in [("movingai", "map"), ("polyanya", "mesh")] {
        let entries = std::fs::read_dir(data.join(folder)).unwrap_or_else(|e| {
            panic!("{folder}: {e} (the repository's data/ folder, or $CORRIDOR_DATA)")
        });
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|x| x == extension) {
                maps.push(path);
            }
        }
    }
    for entry in std::fs::read_dir(data.join("anyangle")).unwrap() {
        let path = entry.unwrap().path().join("maze.txt");
        if path.is_file() {
            maps.push(path);
        }
    }
    maps.sort();
    maps
}

/// Random operations on every shared map, each compared with a full rebuild. Large maps
/// get fewer operations (each comparison rebuilds the whole map): about 60,000 ECM edges
/// rebuilt per map, at least 2 and at most 150 operations.
#[test]
fn shared_maps_equal_full_rebuild() {
    let maps = shared_maps();
    assert!(maps.len() >= 13 + 80, "{} shared maps found", maps.len());
    let mut total = Tally::default();
    for (k, path) in maps.iter().enumerate() {
        let name = path
            .strip_prefix(corridor_testkit::data_dir())
            .unwrap_or(path)
            .display()
            .to_string();
        let env = corridor_io::load_environment(path).unwrap();
        let edges = Ecm::build(&env).unwrap().edge_count();
        let bounds = env.bounds();
        let size = (bounds.max - bounds.min).max_element();
        let options = RandomEnvironmentOptions {
            origin: bounds.min,
            size,
            min_radius: (0.5 / size).min(0.02),
            max_radius: (4.0 / size).min(0.12),
            ..Default::default()
        };
        // The any-angle mazes are many and small: a few operations each.
        let budget = if name.starts_with("anyangle") { 4 } else { 150 };
        let ops = (60_000 / edges.max(1)).clamp(2, budget);
        let t = soak(env, &options, ops, 7 + k as u64, &name);
        total.add(t);
    }
    println!("{} shared maps: {total:?}", maps.len());
    assert!(total.ops >= 600, "{total:?}");
}

#[test]
fn full_rebuild_mode_agrees() {
    let options = UpdateOptions {
        local_repair: false,
        ..Default::default()
    };
    let mut map = DynamicEcm::with_options(room(), options).unwrap();
    let id = map.insert(Obstacle::Point(Point::new(3.0, 3.0))).unwrap();
    map.translate(id, Point::new(1.0, 1.0)).unwrap();
    map.rotate(ObstacleId(0), Point::new(10.0, 2.0), 0.3)
        .unwrap();
    assert_rebuilt(&map, "full rebuild mode");
    assert_eq!(map.stats().full_rebuilds, 3);
    assert_eq!(map.stats().fallbacks, 0);
}

#[test]
fn removing_an_overlapping_obstacle_restores_the_walls() {
    let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(20.0, 10.0));
    env.insert(Obstacle::rectangle(
        Point::new(3.0, 3.0),
        Point::new(6.0, 6.0),
    ));
    env.insert(Obstacle::polygon(vec![
        Point::new(12.0, 2.0),
        Point::new(16.0, 3.0),
        Point::new(13.0, 4.0),
        Point::new(15.0, 7.0),
        Point::new(11.0, 6.0),
    ]));
    let mut map = DynamicEcm::new(env).unwrap();
    let walls = map.walls().unwrap().clone();
    let before = map.ecm().clone();
    // A bar overlapping both obstacles and sticking out of the boundary.
    let bar = map
        .insert(Obstacle::rectangle(
            Point::new(5.0, 4.0),
            Point::new(14.0, 5.0),
        ))
        .unwrap();
    assert_rebuilt(&map, "bar inserted");
    let cover = map
        .insert(Obstacle::rectangle(
            Point::new(-1.0, 8.0),
            Point::new(21.0, 11.0),
        ))
        .unwrap();
    assert_rebuilt(&map, "cover over the top boundary inserted");
    let ids = map
        .apply_batch(&[Change::Remove(bar), Change::Remove(cover)])
        .unwrap();
    assert!(ids.is_empty());
    assert_eq!(map.walls().unwrap().segments.len(), walls.segments.len());
    assert_eq!(map.ecm().canonical_diff(&before, TOLERANCE), None);
    assert_rebuilt(&map, "both removed");
}

#[test]
fn obstacle_with_a_hole_makes_a_new_component() {
    use corridor_geom::{Polygon, Ring};
    let mut map = DynamicEcm::new(room()).unwrap();
    let ring = |pts: &[(f64, f64)]| Ring::new(pts.iter().map(|&(x, y)| Point::new(x, y)).collect());
    let donut = Obstacle::Polygon(Polygon::new(
        ring(&[(2.0, 2.0), (7.0, 2.0), (7.0, 8.0), (2.0, 8.0)]),
        vec![ring(&[(3.0, 3.0), (3.0, 7.0), (6.0, 7.0), (6.0, 3.0)])],
    ));
    let id = map.insert(donut).unwrap();
    assert_eq!(map.ecm().component_count(), 2);
    assert_rebuilt(&map, "donut");
    map.translate(id, Point::new(10.5, 0.0))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_rebuilt(&map, "donut moved onto the blocks");
    map.remove(id).unwrap();
    assert_eq!(map.ecm().component_count(), 1);
    assert_rebuilt(&map, "donut removed");
    assert_eq!(map.stats().fallbacks, 0, "{:?}", map.stats());
}

/// Batches of many small squares far apart (the quadratic case of the hardening issue):
/// on a large map repaired locally (through the spatial trees of the certification, the
/// validation and the wall check) and equal to a full rebuild; on a small map, a batch of
/// more walls than a local repair pays for rebuilds without a local try and says why.
#[test]
fn large_batches_equal_a_rebuild() {
    let squares = |map: &DynamicEcm, n: usize, seed: u64| -> Vec<Change> {
        let b = map.environment().bounds();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let x = rng.random_range(b.min.x + 1.0..b.max.x - 2.0).floor();
                let y = rng.random_range(b.min.y + 1.0..b.max.y - 2.0).floor();
                let min = Point::new(x + 0.25, y + 0.25);
                Change::Insert(Obstacle::rectangle(min, min + Point::new(0.5, 0.5)))
            })
            .collect()
    };
    let load = |name: &str| {
        let path = corridor_testkit::data_path(format!("movingai/{name}.map"));
        DynamicEcm::new(corridor_io::load_environment(&path).unwrap()).unwrap()
    };
    let mut map = load("random512-10-0");
    let patch = map.plan_batch(&squares(&map, 150, 1)).unwrap();
    assert_eq!(
        patch.report().method,
        RepairMethod::Local,
        "{:?}",
        patch.report()
    );
    map.apply(patch).unwrap();
    assert_rebuilt(&map, "150 squares in one update on random512-10-0");

    let mut map = load("den520d");
    let patch = map.plan_batch(&squares(&map, 2000, 2)).unwrap();
    let report = patch.report();
    assert_eq!(report.method, RepairMethod::FullRebuild);
    assert!(
        report
            .fallback_reason
            .as_deref()
            .is_some_and(|r| r.contains("rebuild is cheaper")),
        "{report:?}"
    );
    map.apply(patch).unwrap();
    assert_rebuilt(&map, "2,000 squares in one update on den520d");
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Timings of local repair against a full rebuild on the shared maps (run with
/// `cargo test --release --test update -- --ignored --nocapture timings`).
#[test]
#[ignore]
fn timings() {
    let dir = corridor_testkit::data_dir().join("movingai");
    for name in ["den520d.map", "brc202d.map", "Aurora.map"] {
        let env = corridor_io::load_environment(dir.join(name)).unwrap();
        let clock = std::time::Instant::now();
        let mut map = DynamicEcm::new(env.clone()).unwrap();
        let build = clock.elapsed().as_secs_f64() * 1e3;
        let bounds = env.bounds();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let (mut plan, mut apply, mut full) = (Vec::new(), Vec::new(), Vec::new());
        let mut fallbacks = 0;
        for i in 0..40 {
            // A small crate somewhere (inserted), then removed again.
            let c = Point::new(
                rng.random_range(bounds.min.x + 2.0..bounds.max.x - 2.0),
                rng.random_range(bounds.min.y + 2.0..bounds.max.y - 2.0),
            );
            let o = Obstacle::rectangle(c - Point::splat(0.7), c + Point::splat(0.7));
            for change in [
                Change::Insert(o),
                Change::Remove(map.environment().next_id()),
            ] {
                let t = std::time::Instant::now();
                let patch = match map.plan_update(&change) {
                    Ok(p) => p,
                    Err(_) => continue,
                };
                plan.push(t.elapsed().as_secs_f64() * 1e3);
                if patch.report().method == RepairMethod::FullRebuild {
                    fallbacks += 1;
                }
                let t = std::time::Instant::now();
                map.apply(patch).unwrap();
                apply.push(t.elapsed().as_secs_f64() * 1e3);
                if i % 10 == 0 {
                    let t = std::time::Instant::now();
                    let rebuilt = Ecm::build(map.environment()).unwrap();
                    full.push(t.elapsed().as_secs_f64() * 1e3);
                    assert_eq!(map.ecm().canonical_diff(&rebuilt, TOLERANCE), None);
                }
            }
        }
        println!(
            "{name}: {} edges; initial build {build:.1} ms (normalize {:.1} ms); full rebuild median {:.1} ms; update plan median {:.2} ms, apply median {:.2} ms ({} updates, {fallbacks} fallbacks)",
            map.ecm().edge_count(),
            map.ecm().stats().normalize.as_secs_f64() * 1e3,
            median(&mut full),
            median(&mut plan),
            median(&mut apply),
            plan.len(),
        );
    }
}
