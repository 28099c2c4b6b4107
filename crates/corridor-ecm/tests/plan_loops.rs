//! The taut-length search on maps with loops that leave the funnel's apex in place
//! (round a point obstacle, a tree of the city's parks): every turn round such a loop
//! ties with the last, and before the search dropped a route that comes back to a
//! window it already crossed with the same apex, it went round them until its label cap
//! (64 per vertex) on most city queries, taking 150–250 ms and returning the best route
//! found by then. Checked here at radius 0 with the search alone (no A* candidates) against
//! the exact visibility-graph planner (`corridor-visgraph`, an independent algorithm).

use corridor_ecm::{Ecm, PathQuery, Planner};
use corridor_geom::{Environment, Obstacle, Point};
use corridor_visgraph::VisibilityGraph;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plans `count` random pairs of medial-axis vertices of the largest component with the
/// taut-length search alone; returns the largest label count, after checking every
/// length against the visibility graph.
fn exact_with_few_labels(env: &Environment, count: usize, seed: u64) -> usize {
    let graph = VisibilityGraph::build(env).unwrap();
    most_labels(env, count, seed, |start, goal, length| {
        let exact = graph.shortest_path(start, goal).unwrap().length;
        assert!(
            (length - exact).abs() <= 1e-6 * exact.max(1.0),
            "{start:?} -> {goal:?}: ours {length}, exact {exact}"
        );
    })
}

/// As [`exact_with_few_labels`], with `check` given each query and its length.
fn most_labels(
    env: &Environment,
    count: usize,
    seed: u64,
    check: impl Fn(Point, Point, f64),
) -> usize {
    let ecm = Ecm::build(env).unwrap();
    let mut sizes = std::collections::HashMap::new();
    for (_, v) in ecm.vertices() {
        *sizes.entry(v.component).or_insert(0usize) += 1;
    }
    let main = sizes.iter().max_by_key(|(_, &n)| n).map(|(&c, _)| c);
    let points: Vec<Point> = ecm
        .vertices()
        .filter(|(_, v)| Some(v.component) == main && v.clearance > 1e-3)
        .map(|(_, v)| v.position)
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut planner = Planner::new();
    planner.set_candidate_corridors(0);
    let mut most = 0;
    for _ in 0..count {
        let start = points[rng.random_range(0..points.len())];
        let goal = points[rng.random_range(0..points.len())];
        let ours = planner.plan(&ecm, &PathQuery::new(start, goal)).unwrap();
        check(start, goal, ours.length);
        most = most.max(planner.search_statistics().1);
    }
    most
}

#[test]
fn city_paths_are_shortest_without_going_round_trees() {
    let env = corridor_io::scenes::city();
    let most = exact_with_few_labels(&env, 60, 24);
    // The cap is 64 labels per vertex (about 100,000 on the city); the loop-free search
    // needs a few thousand at most.
    assert!(most < 20_000, "{most} labels");
}

#[test]
fn a_room_of_point_obstacles() {
    // A 7 × 7 lattice of points: the medial axis is a grid of small loops round them.
    let mut env = Environment::rectangle(Point::ZERO, Point::new(16.0, 16.0));
    for i in 0..7 {
        for j in 0..7 {
            let jitter = 0.1 * ((i * 7 + j) % 5) as f64;
            env.insert(Obstacle::Point(Point::new(
                2.0 + 2.0 * i as f64 + jitter,
                2.0 + 2.0 * j as f64,
            )));
        }
    }
    let most = exact_with_few_labels(&env, 60, 25);
    assert!(most < 5_000, "{most} labels");
}

#[test]
fn a_pillar_lattice() {
    // One blocked cell at every odd (x, y): straight lines pass exactly through the
    // medial axis's 4-way vertices, where many routes reach one window with one apex and
    // the same funnel. Without the window dominance the search multiplied them up to its
    // label cap (64 per vertex) on a tenth of the queries of a 60 × 60 lattice.
    let text = corridor_testkit::worlds::pillar_lattice_map(20);
    let env = corridor_io::read_map_environment(&text).unwrap();
    let most = exact_with_few_labels(&env, 40, 26);
    eprintln!("lattice: {most} labels");
    assert!(most < 5_000, "{most} labels");
}

#[test]
fn a_larger_pillar_lattice_stays_below_the_cap() {
    // 60 × 60 pillars: before the window dominance a tenth of the queries ran into the
    // label cap (238,401 labels); with it the most over 100 queries was 27,113. With it
    // switched off this test fails (a query finds no route within the cap); the 20 × 20
    // lattice above then still passes, at 3,447 labels. The
    // visibility graph of 3,600 pillars is too slow for a test: lengths are only checked
    // against the straight line, which no path beats.
    let text = corridor_testkit::worlds::pillar_lattice_map(60);
    let env = corridor_io::read_map_environment(&text).unwrap();
    let most = most_labels(&env, 30, 27, |s, g, length| {
        assert!(
            length >= s.distance(g) * (1.0 - 1e-12),
            "{s:?} -> {g:?}: {length}"
        );
    });
    eprintln!("lattice 60: {most} labels");
    assert!(most < 100_000, "{most} labels");
}

#[test]
fn a_pillar_lattice_of_150_needs_few_labels() {
    // 150 × 150 pillars: with window dominance by one apex only (session 27) 20 random
    // queries needed up to 210,228 labels (p50 36,844, 0.4 s); dominance across apexes
    // (one label's reach no later than another's on the whole window) brought the most
    // to 37,727 (p50 5,931); these 10 queries need 19,570 at most. Lengths are checked
    // against the straight line only (see above).
    let text = corridor_testkit::worlds::pillar_lattice_map(150);
    let env = corridor_io::read_map_environment(&text).unwrap();
    let most = most_labels(&env, 10, 28, |s, g, length| {
        assert!(
            length >= s.distance(g) * (1.0 - 1e-12),
            "{s:?} -> {g:?}: {length}"
        );
    });
    eprintln!("lattice 150: {most} labels");
    assert!(most < 40_000, "{most} labels");
}
