//! The trapezoidal map on the shared data: a path for every published problem (each has
//! one: the visibility graph's test finds the stated optimum for all of them), every
//! piece of every path checked exactly against the walls, and point location against
//! brute force on a real map.

use corridor_geom::Point;
use corridor_io::{load_environment, load_grid, load_problems, Problem};
use corridor_testkit::free_space_cases::{anyangle_maze_dirs, required_data_dir as data_dir};
use corridor_trapmap::TrapezoidalMap;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::time::Instant;

/// Paths for all problems; returns (found, distinct pieces checked). Pieces along the
/// roadmap recur in many paths; each distinct one is checked once.
fn run(map: &TrapezoidalMap, problems: &[Problem], failures: &mut Vec<String>) -> (usize, usize) {
    let mut found = 0;
    let mut checked: HashSet<[u64; 4]> = HashSet::new();
    for p in problems {
        match map.path(p.start, p.goal) {
            Ok(path) => {
                found += 1;
                assert_eq!(path.points[0], p.start);
                assert_eq!(*path.points.last().unwrap(), p.goal);
                assert!(path.length >= p.length * (1.0 - 1e-6) - 1e-5);
                for seg in path.segments() {
                    let key = [seg.a.x, seg.a.y, seg.b.x, seg.b.y].map(f64::to_bits);
                    if checked.insert(key) && !map.free_space().segment_is_free(seg.a, seg.b) {
                        failures.push(format!("{} -> {}: piece {seg:?} not free", p.start, p.goal));
                    }
                }
            }
            Err(e) => failures.push(format!("{} -> {}: {e}", p.start, p.goal)),
        }
    }
    (found, checked.len())
}

#[test]
fn anyangle_mazes_every_problem_has_a_free_path() {
    let dirs = anyangle_maze_dirs();
    let mut failures = Vec::new();
    let (mut found, mut total, mut pieces) = (0, 0, 0);
    let (mut build, mut query) = (0.0, 0.0);
    for dir in &dirs {
        let env = load_grid(dir).unwrap().to_environment();
        let problems = load_problems(dir).unwrap();
        let t = Instant::now();
        let map = TrapezoidalMap::build(&env).unwrap();
        build += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let (f, p) = run(&map, &problems, &mut failures);
        query += t.elapsed().as_secs_f64();
        found += f;
        pieces += p;
        total += problems.len();
    }
    eprintln!("anyangle: {found}/{total} paths, {pieces} distinct pieces checked; build {build:.2} s, queries + checks {query:.1} s");
    assert_eq!(total, 4102);
    assert!(
        failures.is_empty(),
        "{:#?}",
        &failures[..failures.len().min(20)]
    );
}

#[test]
fn aurora_every_problem_has_a_free_path() {
    let dir = data_dir().join("polyanya");
    let env = load_environment(dir.join("aurora.mesh")).unwrap();
    let problems = load_problems(dir.join("aurora-euclidean.csv")).unwrap();
    let t = Instant::now();
    let map = TrapezoidalMap::build(&env).unwrap();
    let build = t.elapsed().as_secs_f64();
    let mut failures = Vec::new();
    let t = Instant::now();
    let (found, pieces) = run(&map, &problems, &mut failures);
    eprintln!(
        "aurora: {} walls, {} trapezoids, DAG depth {}; {found}/{} paths, {pieces} distinct pieces checked; build {build:.2} s, queries + checks {:.1} s",
        map.free_space().wall_count(),
        map.trapezoid_count(),
        map.dag_depth(),
        problems.len(),
        t.elapsed().as_secs_f64()
    );
    assert_eq!(problems.len(), 2990);
    assert!(
        failures.is_empty(),
        "{:#?}",
        &failures[..failures.len().min(20)]
    );
}

#[test]
fn point_location_agrees_with_brute_force_on_a_real_map() {
    let dir = data_dir().join("anyangle/def_i0EREKID_iED_iED_iP");
    let env = load_grid(&dir).unwrap().to_environment();
    let map = TrapezoidalMap::build(&env).unwrap();
    let ids: Vec<usize> = map.trapezoids().map(|t| t.id).collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for _ in 0..10_000 {
        // Random points, a third of them on grid lines (equal x with many vertices).
        let mut p = Point::new(rng.random_range(0.0..100.0), rng.random_range(0.0..100.0));
        if rng.random_bool(0.33) {
            p.x = p.x.floor();
        }
        let holding: Vec<usize> = ids
            .iter()
            .copied()
            .filter(|&t| map.trapezoid_contains(t, p))
            .collect();
        if map.free_space().classify(p).is_free()
            && !matches!(
                map.free_space().classify(p),
                corridor_trapmap::PointClass::Boundary(_)
            )
        {
            assert_eq!(holding, vec![map.locate(p)], "{p}");
        }
    }
}
