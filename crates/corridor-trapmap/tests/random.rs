//! The trapezoidal map on seeded random environments rich in degenerate configurations
//! (integer coordinates on small grids: equal x everywhere, vertical walls, touching
//! obstacles, pinch points, thin walls).

use corridor_geom::{Point, Polygon};
// The degenerate random environments of the visibility-graph tests (same `FreeSpace`).
use corridor_testkit::free_space_cases::{random_environment, random_points};
use corridor_trapmap::{Endpoint, QueryError, TrapezoidalMap};
use corridor_visgraph::VisibilityGraph;
use rand::{Rng, SeedableRng};

fn free_area(env: &corridor_geom::Environment) -> f64 {
    let blocked: f64 = env
        .obstacles()
        .filter_map(|(_, o)| match o {
            corridor_geom::Obstacle::Polygon(p) => Some(Polygon::area(p)),
            _ => None,
        })
        .sum();
    env.boundary().area() - blocked
}

fn quad_area(c: &[Point; 4]) -> f64 {
    let mut twice = 0.0;
    for i in 0..4 {
        let (p, q) = (c[i], c[(i + 1) % 4]);
        twice += p.x * q.y - q.x * p.y;
    }
    twice.abs() / 2.0
}

#[test]
fn point_location_agrees_with_brute_force_on_100_000_points() {
    let mut checked = 0;
    for seed in 0..20u64 {
        let (w, h) = (6 + (seed % 7) as i32, 5 + (seed % 5) as i32);
        let env = random_environment(seed + 700, w, h);
        let map = TrapezoidalMap::build_seeded(&env, seed).unwrap();
        let ids: Vec<usize> = map.trapezoids().map(|t| t.id).collect();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..5000 {
            let p = Point::new(
                rng.random_range(-1.0..w as f64 + 1.0),
                rng.random_range(-1.0..h as f64 + 1.0),
            );
            let holding: Vec<usize> = ids
                .iter()
                .copied()
                .filter(|&t| map.trapezoid_contains(t, p))
                .collect();
            assert_eq!(holding, vec![map.locate(p)], "seed {seed}: {p}");
            // The free space agrees with the trapezoid's label.
            assert_eq!(
                map.trapezoid(holding[0]).free,
                map.free_space().classify(p).is_free(),
                "seed {seed}: {p}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 100_000);
}

#[test]
fn free_trapezoids_tile_the_free_space() {
    for seed in 0..200u64 {
        let (w, h) = (3 + (seed % 6) as i32, 3 + ((seed / 6) % 6) as i32);
        let env = random_environment(seed + 3000, w, h);
        for order in 0..3 {
            let map = TrapezoidalMap::build_seeded(&env, order).unwrap();
            let area: f64 = map
                .trapezoids()
                .filter(|t| t.free)
                .map(|t| quad_area(&t.corners))
                .sum();
            let expected = free_area(&env);
            assert!(
                (area - expected).abs() < 1e-9 * expected.max(1.0),
                "seed {seed}/{order}: {area} vs {expected}"
            );
            // Expected O(n) size: at most 3n + 1 trapezoids for n walls (+2 frame walls).
            let n = map.free_space().wall_count() + 2;
            assert!(map.trapezoid_count() <= 3 * n + 1);
        }
    }
}

#[test]
fn paths_are_free_and_exist_exactly_when_the_visibility_graph_finds_one() {
    let (mut found, mut none) = (0, 0);
    for seed in 0..150u64 {
        let (w, h) = (4 + (seed % 5) as i32, 4 + ((seed / 5) % 5) as i32);
        let env = random_environment(seed + 11_000, w, h);
        let map = TrapezoidalMap::build_seeded(&env, seed).unwrap();
        let graph = VisibilityGraph::build(&env).unwrap();
        let pts = random_points(seed, w, h, 10);
        for &s in &pts {
            for &f in &pts {
                let (a, b) = (map.path(s, f), graph.shortest_path(s, f));
                match (&a, &b) {
                    (Ok(path), Ok(best)) => {
                        assert_eq!((path.points[0], *path.points.last().unwrap()), (s, f));
                        for seg in path.segments() {
                            assert!(
                                map.free_space().segment_is_free(seg.a, seg.b),
                                "seed {seed} {s} -> {f}: {seg:?} of {:?}",
                                path.points
                            );
                        }
                        assert!(path.length >= best.length - 1e-9);
                        found += 1;
                    }
                    (Err(x), Err(y)) => {
                        assert_eq!(&as_visgraph_error(x), y, "seed {seed} {s} -> {f}");
                        none += 1;
                    }
                    _ => panic!("seed {seed} {s} -> {f}: trapmap {a:?}, visgraph {b:?}"),
                }
            }
        }
    }
    assert!(found > 5000 && none > 100, "{found} {none}");
}

/// The same query error in the visibility graph's terms (the two planners share their
/// free space, so they must refuse the same queries for the same reasons).
fn as_visgraph_error(e: &QueryError) -> corridor_visgraph::QueryError {
    use corridor_visgraph::{Endpoint as E, QueryError as V};
    let end = |endpoint: &Endpoint| match endpoint {
        Endpoint::Start => E::Start,
        Endpoint::Goal => E::Goal,
    };
    match e {
        QueryError::NotFinite { endpoint, point } => V::NotFinite {
            endpoint: end(endpoint),
            point: *point,
        },
        QueryError::OutsideBoundary { endpoint, point } => V::OutsideBoundary {
            endpoint: end(endpoint),
            point: *point,
        },
        QueryError::InsideObstacle {
            endpoint,
            point,
            obstacle,
        } => V::InsideObstacle {
            endpoint: end(endpoint),
            point: *point,
            obstacle: *obstacle,
        },
        QueryError::NoPath { start, goal } => V::NoPath {
            start: *start,
            goal: *goal,
        },
    }
}

#[test]
fn query_errors_are_typed() {
    let env = random_environment(1, 6, 6);
    let map = TrapezoidalMap::build(&env).unwrap();
    assert!(matches!(
        map.path(Point::new(-3.0, 1.0), Point::new(1.0, 1.0)),
        Err(QueryError::OutsideBoundary { .. })
    ));
    assert!(matches!(
        map.path(Point::new(1.0, f64::INFINITY), Point::new(1.0, 1.0)),
        Err(QueryError::NotFinite { .. })
    ));
}

#[test]
fn the_dag_stays_shallow() {
    // Expected depth O(log n): on a 30 × 30 random map, far below the wall count.
    let env = random_environment(42, 30, 30);
    let map = TrapezoidalMap::build(&env).unwrap();
    let n = map.free_space().wall_count();
    assert!(n > 300);
    assert!(
        map.dag_depth() < 12 * (n as f64).log2() as usize,
        "{}",
        map.dag_depth()
    );
}
