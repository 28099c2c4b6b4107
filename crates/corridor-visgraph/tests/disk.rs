//! The exact planner for a disk: closed-form lengths, corridors exactly 2r wide,
//! clearance by brute force over every wall, bounds from the 32-gon growth and from
//! radius 0, and symmetry.

use corridor_geom::{Environment, FreeSpace, Obstacle, Point, Segment};
use corridor_testkit::random::{random_environment, RandomEnvironmentOptions};
use corridor_visgraph::{
    inflate_obstacles, DiskPiece, DiskQueryError, DiskVisibilityGraph, VisibilityGraph,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod common;
use common::exact_over_the_wall;

/// Every wall of `env` (the free space's walls and the point obstacles).
fn walls(env: &Environment) -> Vec<Segment> {
    let free = FreeSpace::from_environment(env).unwrap();
    let mut out: Vec<Segment> = free.walls().map(|w| w.segment).collect();
    for (_, o) in env.obstacles() {
        if let Obstacle::Point(p) = o {
            out.push(Segment::new(*p, *p));
        }
    }
    out
}

/// The path's smallest distance to any wall, by brute force: segments exactly, arcs
/// sampled every 1/2000 of a turn.
fn brute_clearance(path: &corridor_visgraph::DiskPath, walls: &[Segment]) -> f64 {
    let mut best = f64::INFINITY;
    for piece in &path.pieces {
        match piece {
            DiskPiece::Segment(s) => {
                for w in walls {
                    best = best.min(s.distance_to_segment(w));
                }
            }
            DiskPiece::Arc(a) => {
                let n = (a.sweep.abs() / std::f64::consts::TAU * 2000.0).ceil() as usize + 1;
                for k in 0..=n {
                    let p = a.point_at(k as f64 / n as f64);
                    for w in walls {
                        best = best.min(w.distance(p));
                    }
                }
            }
        }
    }
    best
}

#[test]
fn over_a_wall_the_length_is_the_closed_form() {
    let mut env = Environment::rectangle(Point::ZERO, Point::new(20.0, 20.0));
    env.insert(Obstacle::rectangle(
        Point::new(9.0, 5.0),
        Point::new(11.0, 15.0),
    ));
    let (s, g) = (Point::new(5.0, 10.0), Point::new(15.0, 10.0));
    for r in [0.1, 0.25, 0.5, 1.0, 2.0] {
        let graph = DiskVisibilityGraph::build(&env, r).unwrap();
        let path = graph.shortest_path(s, g).unwrap();
        assert!(
            (path.length - exact_over_the_wall(r)).abs() < 1e-9,
            "r = {r}"
        );
        assert_eq!(path.arcs().count(), 2, "r = {r}");
        let back = graph.shortest_path(g, s).unwrap();
        assert!((back.length - path.length).abs() < 1e-9);
    }
}

#[test]
fn around_a_point_obstacle_the_length_is_the_closed_form() {
    // A pillar on the straight line: two tangents and the arc between them.
    let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
    env.insert(Obstacle::Point(Point::new(5.0, 5.0)));
    let (s, g, r) = (Point::new(1.0, 5.0), Point::new(9.0, 5.0), 1.0);
    let graph = DiskVisibilityGraph::build(&env, r).unwrap();
    let path = graph.shortest_path(s, g).unwrap();
    let d: f64 = 4.0;
    let tangent = (d * d - r * r).sqrt();
    let arc = std::f64::consts::PI - 2.0 * (r / d).acos();
    assert!((path.length - (2.0 * tangent + r * arc)).abs() < 1e-9);
    let walls = walls(&env);
    assert!(brute_clearance(&path, &walls) >= r - 1e-9);
}

#[test]
fn a_corridor_exactly_2r_wide_passes_and_a_narrower_one_does_not() {
    for r in [0.1, 0.5, 1.0] {
        let mut env = Environment::rectangle(Point::ZERO, Point::new(20.0, 10.0));
        let gap = 2.0 * r;
        env.insert(Obstacle::rectangle(
            Point::new(8.0, 0.0),
            Point::new(12.0, 5.0),
        ));
        env.insert(Obstacle::rectangle(
            Point::new(8.0, 5.0 + gap),
            Point::new(12.0, 10.0),
        ));
        let (s, g) = (Point::new(2.0, 5.0 + r), Point::new(18.0, 5.0 + r));
        let graph = DiskVisibilityGraph::build(&env, r).unwrap();
        let path = graph.shortest_path(s, g).unwrap();
        assert!(
            (path.length - 16.0).abs() < 1e-9,
            "r = {r}: {}",
            path.length
        );
        let narrower = DiskVisibilityGraph::build(&env, r * (1.0 + 1e-6)).unwrap();
        assert!(matches!(
            narrower.shortest_path(s, g),
            Err(DiskQueryError::Free(
                corridor_geom::PathQueryError::NoPath { .. }
            ))
        ));
    }
}

#[test]
fn ends_too_close_to_a_wall_are_typed_errors() {
    let env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
    let graph = DiskVisibilityGraph::build(&env, 1.0).unwrap();
    let err = graph.shortest_path(Point::new(5.0, 5.0), Point::new(9.5, 5.0));
    assert!(
        matches!(err, Err(DiskQueryError::TooClose { clearance, .. }) if (clearance - 0.5).abs() < 1e-12)
    );
    assert!(graph
        .shortest_path(Point::new(15.0, 5.0), Point::new(5.0, 5.0))
        .is_err());
    assert!(DiskVisibilityGraph::build(&env, 0.0).is_err());
    assert!(DiskVisibilityGraph::build(&env, f64::NAN).is_err());
}

/// Random environments of every generator kind: clearance by brute force, bounds from
/// the 32-gon growth (a larger obstacle, so never shorter) and from radius 0, symmetry.
#[test]
fn random_environments_keep_clearance_and_the_bounds() {
    let mut checked = 0;
    for seed in 0..24u64 {
        let options = match seed % 3 {
            0 => RandomEnvironmentOptions::grid_map(16, 30),
            1 => RandomEnvironmentOptions {
                obstacles: 8,
                ..RandomEnvironmentOptions::scaled(100.0, Point::new(50.0, 50.0))
            },
            _ => RandomEnvironmentOptions {
                obstacles: 12,
                ..Default::default()
            },
        };
        let env = random_environment(seed, &options);
        let bounds = env.bounds();
        let extent = bounds.size().max_element();
        let r = extent * [0.01, 0.03][seed as usize % 2];
        let Ok(graph) = DiskVisibilityGraph::build(&env, r) else {
            continue;
        };
        let point_graph = VisibilityGraph::build(&env).unwrap();
        // The growth may reach past the boundary (obstacles on it): no upper bound then.
        let grown = inflate_obstacles(&env, r)
            .ok()
            .and_then(|e| VisibilityGraph::build(&e).ok());
        let walls = walls(&env);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut points = Vec::new();
        while points.len() < 8 {
            let p = Point::new(
                rng.random_range(bounds.min.x..bounds.max.x),
                rng.random_range(bounds.min.y..bounds.max.y),
            );
            if point_graph.free_space().classify(p) == corridor_geom::PointClass::Free
                && walls.iter().all(|w| w.distance(p) > r * 1.01)
            {
                points.push(p);
            }
        }
        for (a, b) in points.iter().zip(points.iter().skip(1)) {
            let Ok(path) = graph.shortest_path(*a, *b) else {
                // The grown obstacles must then separate them as well.
                if let Some(grown) = &grown {
                    assert!(grown.shortest_path(*a, *b).is_err(), "seed {seed}: {a} {b}");
                }
                continue;
            };
            checked += 1;
            let clearance = brute_clearance(&path, &walls);
            assert!(
                clearance >= r - 1e-9,
                "seed {seed}: {a} → {b}: clearance {clearance} < {r}"
            );
            let lower = point_graph.shortest_path(*a, *b).unwrap().length;
            assert!(
                path.length >= lower - 1e-9,
                "seed {seed}: shorter than for a point"
            );
            if let Some(Ok(upper)) = grown.as_ref().map(|g| g.shortest_path(*a, *b)) {
                // The growth snaps to the environment's grid (1e-4 per coordinate).
                assert!(path.length <= upper.length + 1e-3, "seed {seed}: {a} → {b}");
            }
            let back = graph.shortest_path(*b, *a).unwrap();
            assert!((back.length - path.length).abs() < 1e-9 * (1.0 + path.length));
            let drawn = path.sampled(r / 4.0);
            assert_eq!((drawn[0], *drawn.last().unwrap()), (*a, *b));
        }
    }
    assert!(checked > 60, "only {checked} paths checked");
}
