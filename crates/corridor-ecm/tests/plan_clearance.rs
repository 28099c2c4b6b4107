//! Brute-force clearance checks of planned paths on random environments, where wall
//! corners and overlapping clearance disks make the funnel's tangents delicate.

use corridor_ecm::{Ecm, PathQuery, PlanError, Planner};
use corridor_geom::{normalize, Point, Segment};
use corridor_testkit::random::{random_environment, ObstacleMix, RandomEnvironmentOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn closest_wall(points: &[Point], walls: &[Segment]) -> f64 {
    let mut best = f64::INFINITY;
    for w in points.windows(2) {
        let piece = Segment::new(w[0], w[1]);
        for wall in walls {
            best = best.min(piece.distance_to_segment(wall));
        }
    }
    best
}

/// The goal lies 0.605 from the boundary, beyond the last portal but in the angular
/// shadow of that portal's clearance disk: the funnel once wrapped the path around the
/// disk (through the boundary) instead of going straight to the goal.
#[test]
fn goal_in_the_shadow_of_a_clearance_disk() {
    let env = random_environment(
        4,
        &RandomEnvironmentOptions {
            obstacles: 6,
            size: 40.0,
            min_radius: 0.02,
            max_radius: 0.08,
            max_vertices: 6,
            ..Default::default()
        },
    );
    let walls: Vec<Segment> = normalize(&env).unwrap().user_segments().collect();
    let ecm = Ecm::build(&env).unwrap();
    let query =
        PathQuery::new(Point::new(5.2330, 32.2249), Point::new(39.3950, 24.3385)).with_radius(0.6);
    let path = Planner::new().plan(&ecm, &query).unwrap();
    assert_eq!(*path.points.first().unwrap(), query.start);
    assert_eq!(*path.points.last().unwrap(), query.goal);
    let d = closest_wall(&path.points, &walls);
    assert!(d >= 0.6 - 1e-6, "path comes {d} from a wall");
}

/// Thousands of random queries for several radii on random environments with every
/// obstacle kind (points, segments, convex, concave, overlapping, on the boundary):
/// every returned path starts and ends at the query points and keeps its radius from
/// every wall, checked by brute force against the normalized walls.
#[test]
fn random_paths_keep_their_radius() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut planned, mut refused) = (0usize, 0usize);
    let mut failures = Vec::new();
    let seeds: u64 = std::env::var("CLEARANCE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    for seed in 0..seeds {
        let env = random_environment(
            seed,
            &RandomEnvironmentOptions {
                obstacles: 4 + (seed as usize % 12),
                size: 40.0,
                mix: ObstacleMix::ALL,
                min_radius: 0.02,
                max_radius: 0.12,
                max_vertices: 7,
                on_boundary: 0.2,
                ..Default::default()
            },
        );
        let walls: Vec<Segment> = normalize(&env).unwrap().user_segments().collect();
        let ecm = Ecm::build(&env).unwrap();
        let mut planner = Planner::new();
        for _ in 0..150 {
            let mut point = || Point::new(rng.random_range(0.0..40.0), rng.random_range(0.0..40.0));
            let query = PathQuery::new(point(), point())
                .with_radius([0.0, 0.25, 0.6, 1.5][rng.random_range(0..4)]);
            match planner.plan(&ecm, &query) {
                Ok(path) => {
                    planned += 1;
                    let d = closest_wall(&path.points, &walls);
                    let ends = path.points.first() == Some(&query.start)
                        && path.points.last() == Some(&query.goal);
                    if d < query.radius - 1e-6 || !ends {
                        failures.push(format!(
                            "seed {seed} {query:?}: clearance {d}, ends kept: {ends}"
                        ));
                    }
                }
                Err(
                    PlanError::Start(_)
                    | PlanError::Goal(_)
                    | PlanError::StartTooClose { .. }
                    | PlanError::GoalTooClose { .. }
                    | PlanError::DifferentComponents
                    | PlanError::NoCorridor { .. },
                ) => refused += 1,
                Err(e) => panic!("seed {seed} {query:?}: unexpected {e}"),
            }
        }
    }
    println!("{planned} paths checked, {refused} refused");
    assert!(planned > 3_000, "too few paths: {planned}");
    assert!(
        failures.is_empty(),
        "{} of {planned} paths too close:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
