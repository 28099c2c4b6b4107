//! Layered paths against the independent layered visibility-graph oracle on random
//! queries over `builtin:layers`: at r = 0 the length ratio (mean and p99), that both find
//! a path or neither does, and that no path is shorter than the oracle's; at r > 0 that
//! every piece keeps the radius from every wall (brute force over the layers' walls).
//!
//! `CORRIDOR_LAYERED_QUERIES` sets the number of r = 0 queries (default 300).

use corridor_ecm::{LayeredEcm, LayeredPlanner, FIT_TOLERANCE_STEPS};
use corridor_geom::{
    orient, point_on_segment, LayerId, LayeredEnvironment, Obstacle, Orientation, Point, Segment,
};
use corridor_testkit::layered_oracle::{
    in_closed_free_space, random_layer_point, LayeredVisibility,
};
use corridor_testkit::quantile;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A random free point on a random layer, away from walls by more than `margin`.
fn random_point(
    world: &LayeredEnvironment,
    ecm: &LayeredEcm,
    rng: &mut ChaCha8Rng,
    margin: f64,
) -> (LayerId, Point) {
    loop {
        let (layer, p) = random_layer_point(world, rng);
        let env = &world.layer(layer).unwrap().environment;
        if in_closed_free_space(env, p) && ecm.clearance(layer, p).is_ok_and(|c| c > margin) {
            return (layer, p);
        }
    }
}

#[test]
fn point_paths_match_the_layered_visibility_graph() {
    let world = corridor_io::scenes::layers();
    let ecm = LayeredEcm::build(&world).unwrap();
    let oracle = LayeredVisibility::new(&world);
    let planner = LayeredPlanner::new(&ecm, 0.0).unwrap();
    let queries: usize = std::env::var("CORRIDOR_LAYERED_QUERIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let mut rng = ChaCha8Rng::seed_from_u64(26);
    let mut ratios = Vec::new();
    let mut crossings = 0;
    for _ in 0..queries {
        let (from, start) = random_point(&world, &ecm, &mut rng, 1e-3);
        let (to, goal) = random_point(&world, &ecm, &mut rng, 1e-3);
        let want = oracle.shortest_path(from, start, to, goal);
        let got = planner.plan(from, start, to, goal);
        match (want, got) {
            (Some((want, _)), Ok(path)) => {
                assert!(
                    path.length >= want - 1e-6,
                    "{from} {start} -> {to} {goal}: {} shorter than the oracle's {want}",
                    path.length
                );
                ratios.push(if want > 0.0 { path.length / want } else { 1.0 });
                crossings += path.crossings.len();
            }
            (None, Err(_)) => {}
            (want, got) => panic!("{from} {start} -> {to} {goal}: oracle {want:?}, ECM {got:?}"),
        }
    }
    let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
    let p99 = quantile(&ratios, 0.99);
    let max = ratios.iter().copied().fold(1.0, f64::max);
    eprintln!(
        "layered r = 0: {} paths, {crossings} crossings, mean ratio {mean:.6}, p99 {p99:.6}, max {max:.6}",
        ratios.len()
    );
    assert!(mean <= 1.005, "mean ratio {mean}");
    assert!(p99 <= 1.02, "p99 ratio {p99}");
    assert!(
        crossings > queries / 2,
        "too few paths cross layers: {crossings}"
    );
}

/// Every wall segment of a layer (points as zero-length segments).
fn walls(world: &LayeredEnvironment, layer: LayerId) -> Vec<Segment> {
    let env = &world.layer(layer).unwrap().environment;
    let mut out: Vec<Segment> = env.boundary().edges().collect();
    for (_, o) in env.obstacles() {
        match o {
            Obstacle::Point(p) => out.push(Segment::new(*p, *p)),
            Obstacle::Polyline(v) => out.extend(v.windows(2).map(|w| Segment::new(w[0], w[1]))),
            Obstacle::Polygon(poly) => out.extend(poly.edges()),
        }
    }
    out
}

/// Whether wall `w` lies on the line of connection `c` and overlaps it (then the crossing
/// segment may pass it).
fn on_connection(w: Segment, c: Segment) -> bool {
    orient(c.a, c.b, w.a) == Orientation::Collinear
        && orient(c.a, c.b, w.b) == Orientation::Collinear
}

#[test]
fn disk_paths_keep_their_radius_across_layers() {
    let world = corridor_io::scenes::layers();
    let ecm = LayeredEcm::build(&world).unwrap();
    let oracle = LayeredVisibility::new(&world);
    // The fitting rule: clearance at least r less FIT_TOLERANCE_STEPS grid steps (and the
    // rounding of the distance computation itself).
    let grid = world.layer(LayerId(0)).unwrap().environment.snap_grid();
    let tolerance = FIT_TOLERANCE_STEPS / grid.scale() + 1e-12;
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let open: Vec<Segment> = ecm
        .charts()
        .iter()
        .flat_map(|c| &c.open)
        .map(|id| world.connection(*id).unwrap().segment)
        .collect();
    assert!(!open.is_empty(), "builtin:layers opens connections");
    let mut checked = 0;
    for radius in [0.3, 0.6, 1.2] {
        let planner = LayeredPlanner::new(&ecm, radius).unwrap();
        for _ in 0..40 {
            let (from, start) = random_point(&world, &ecm, &mut rng, radius);
            let (to, goal) = random_point(&world, &ecm, &mut rng, radius);
            let Ok(path) = planner.plan(from, start, to, goal) else {
                continue;
            };
            checked += 1;
            if let Some((shortest, _)) = oracle.shortest_path(from, start, to, goal) {
                assert!(path.length >= shortest - 1e-6);
            }
            for step in &path.steps {
                // An open connection is no wall (its chart's ECM crosses it).
                let mut w = walls(&world, step.layer);
                w.retain(|wall| {
                    !open.iter().any(|c| {
                        on_connection(*wall, *c)
                            && point_on_segment(wall.a, c.a, c.b)
                            && point_on_segment(wall.b, c.a, c.b)
                    })
                });
                for piece in step.path.points.windows(2) {
                    let s = Segment::new(piece[0], piece[1]);
                    for wall in &w {
                        let d = s.distance_to_segment(wall);
                        assert!(
                            d >= radius - tolerance,
                            "{s:?} is {d} from {wall:?} on {}",
                            step.layer
                        );
                    }
                }
            }
            for (k, id) in path.crossings.iter().enumerate() {
                let c = world.connection(*id).unwrap();
                let (a, b) = (&path.steps[k], &path.steps[k + 1]);
                let s = Segment::new(*a.path.points.last().unwrap(), b.path.points[0]);
                for layer in c.layers {
                    for wall in walls(&world, layer) {
                        if on_connection(wall, c.segment) {
                            continue;
                        }
                        let d = s.distance_to_segment(&wall);
                        assert!(
                            d >= radius - tolerance,
                            "crossing {s:?} is {d} from {wall:?}"
                        );
                    }
                }
            }
        }
    }
    assert!(checked >= 60, "only {checked} disk paths found");
}
