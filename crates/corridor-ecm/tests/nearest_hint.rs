//! `Ecm::nearest_obstacle_from` (the nearest obstacle point from a cell hint) answers
//! exactly as `Ecm::nearest_obstacle_point` and `Ecm::locate_free`, whatever the hint:
//! on random walks (the hint is the last answer's cell), on random points with unrelated
//! hints, on lattice points of grid maps (on the pieces' shared sides and corners), and
//! with hints kept across dynamic updates that remove and replace the hinted cells.

use corridor_ecm::{CellRef, Change, DynamicEcm, Ecm, UpdateError};
use corridor_geom::{Environment, ObstacleId, Point};
use corridor_testkit::random::{random_environment, random_obstacle, RandomEnvironmentOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Asks `q` with `hint` and checks the answer against the full location; returns the
/// next hint (the answer's cell, or the old hint when `q` is not free).
fn check(ecm: &Ecm, q: Point, hint: Option<CellRef>, context: &str) -> Option<CellRef> {
    let hinted = ecm.nearest_obstacle_from(q, hint);
    match (ecm.nearest_obstacle_point(q), hinted) {
        (Ok(point), Ok(n)) => {
            assert_eq!(n.point, point, "{context}: {q:?} from {hint:?}");
            assert_eq!(n.clearance, point.distance(q), "{context}: {q:?}");
            assert_eq!(Ok(n.cell), ecm.locate_free(q), "{context}: {q:?}");
            Some(n.cell)
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "{context}: {q:?}");
            hint
        }
        (a, b) => panic!("{context}: {q:?} from {hint:?}: {a:?} vs {b:?}"),
    }
}

fn random_point(rng: &mut ChaCha8Rng, env: &Environment) -> Point {
    let b = env.bounds();
    Point::new(
        rng.random_range(b.min.x..b.max.x),
        rng.random_range(b.min.y..b.max.y),
    )
}

/// Walks of small random steps, each asked with the previous answer's cell, and random
/// points asked with the cell of another random point.
fn walks_and_jumps(ecm: &Ecm, env: &Environment, rng: &mut ChaCha8Rng, context: &str) {
    let b = env.bounds();
    let extent = (b.max.x - b.min.x).max(b.max.y - b.min.y);
    for _ in 0..10 {
        let mut q = random_point(rng, env);
        let mut hint = None;
        let step = extent * rng.random_range(0.001..0.02);
        for _ in 0..200 {
            hint = check(ecm, q, hint, context);
            q += Point::new(rng.random_range(-step..step), rng.random_range(-step..step));
        }
    }
    let mut hint = None;
    for _ in 0..500 {
        hint = check(ecm, random_point(rng, env), hint, context);
    }
}

#[test]
fn hinted_queries_answer_as_the_full_location() {
    let mut rng = ChaCha8Rng::seed_from_u64(28);
    let kinds = [
        RandomEnvironmentOptions::default(),
        RandomEnvironmentOptions::grid_map(30, 80),
    ];
    for (k, options) in kinds.iter().enumerate() {
        for seed in 0..4 {
            let env = random_environment(seed, options);
            let ecm = Ecm::build(&env).unwrap();
            let context = format!("kind {k} seed {seed}");
            walks_and_jumps(&ecm, &env, &mut rng, &context);
            // Lattice points (shared sides and corners of grid maps), each asked with
            // the cells of its neighbours on the lattice.
            let b = env.bounds();
            let step = (b.max.x - b.min.x) / 30.0;
            let mut hint = None;
            for i in 0..=60 {
                for j in 0..=60 {
                    let q = b.min + Point::new(i as f64, j as f64) * (step / 2.0);
                    hint = check(&ecm, q, hint, &context);
                }
            }
        }
    }
}

#[test]
fn hints_kept_across_dynamic_updates_never_mislead() {
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let options = RandomEnvironmentOptions::default();
    for seed in 0..3 {
        let env = random_environment(seed, &options);
        let mut map = DynamicEcm::new(env).unwrap();
        // Hints of random points, taken before each update and used after it.
        let probes: Vec<Point> = (0..300)
            .map(|_| random_point(&mut rng, map.environment()))
            .collect();
        let mut stale = 0;
        for op in 0..12 {
            let hints: Vec<Option<CellRef>> = probes
                .iter()
                .map(|&q| {
                    map.ecm()
                        .nearest_obstacle_from(q, None)
                        .ok()
                        .map(|n| n.cell)
                })
                .collect();
            let ids: Vec<ObstacleId> = map.environment().obstacles().map(|(id, _)| id).collect();
            let change = if ids.is_empty() || rng.random::<f64>() < 0.5 {
                Change::Insert(random_obstacle(rng.random(), &options))
            } else {
                Change::Remove(ids[rng.random_range(0..ids.len())])
            };
            match map.apply_batch(std::slice::from_ref(&change)) {
                Ok(_) | Err(UpdateError::InvalidObstacle { .. }) | Err(UpdateError::Build(_)) => {}
                Err(e) => panic!("seed {seed} op {op}: {change:?}: {e}"),
            }
            let ecm = map.ecm();
            let context = format!("seed {seed} after op {op}");
            for (&q, &hint) in probes.iter().zip(&hints) {
                stale += usize::from(hint.is_some_and(|c| ecm.cell_piece(c).is_none()));
                check(ecm, q, hint, &context);
            }
            walks_and_jumps(ecm, map.environment(), &mut rng, &context);
        }
        // The updates did remove hinted cells: stale hints were exercised.
        assert!(stale > 0, "seed {seed}: no hint went stale");
    }
}
