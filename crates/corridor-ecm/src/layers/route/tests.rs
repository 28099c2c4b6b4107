//! The lazy search against Dijkstra's algorithm over every leg planned up front, on
//! `builtin:layers`: the same shortest lengths, with no leg planned by making a planner.

use super::*;
use crate::LayeredEcm;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The lengths between every two samples of one layer, planned up front (from the
/// lower-numbered sample, as the planner does).
fn all_links(planner: &LayeredPlanner) -> HashMap<(usize, usize), Option<f64>> {
    let nodes = &planner.nodes;
    let mut out = HashMap::new();
    for i in 0..nodes.len() {
        for j in i + 1..nodes.len() {
            if nodes[i].region == nodes[j].region {
                let ecm = planner.ecm.region_ecm(nodes[i].region).unwrap();
                let query =
                    PathQuery::new(nodes[i].point, nodes[j].point).with_radius(planner.radius);
                let length = plan_on(nodes[i].region, ecm, &query).ok().map(|p| p.length);
                out.insert((i, j), length);
            }
        }
    }
    out
}

/// Dijkstra over the samples, the start and the goal with every leg planned first: the
/// length the lazy search must find.
fn eager_length(
    planner: &LayeredPlanner,
    links: &HashMap<(usize, usize), Option<f64>>,
    from: LayerId,
    start: Point,
    to: LayerId,
    goal: Point,
) -> f64 {
    let nodes = &planner.nodes;
    let n = nodes.len();
    let (s, g) = (n, n + 1);
    let place = |v: usize| match v {
        _ if v == s => (planner.ecm.region_of(from), start),
        _ if v == g => (planner.ecm.region_of(to), goal),
        _ => (nodes[v].region, nodes[v].point),
    };
    let leg = |u: usize, v: usize| -> Option<f64> {
        let ((lu, pu), (lv, pv)) = (place(u), place(v));
        if u < n && nodes[u].partner == v {
            return Some(pu.distance(pv));
        }
        if lu != lv || v == s || u == g {
            return None;
        }
        if u < n && v < n {
            return links[&(u.min(v), u.max(v))];
        }
        let ecm = planner.ecm.region_ecm(lu).ok()?;
        let query = PathQuery::new(pu, pv).with_radius(planner.radius);
        plan_on(lu, ecm, &query).ok().map(|p| p.length)
    };
    let mut dist = vec![f64::INFINITY; n + 2];
    let mut done = vec![false; n + 2];
    dist[s] = 0.0;
    while let Some(u) = (0..n + 2)
        .filter(|&v| !done[v] && dist[v].is_finite())
        .min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
    {
        done[u] = true;
        for v in 0..n + 2 {
            if !done[v] {
                if let Some(step) = leg(u, v) {
                    dist[v] = dist[v].min(dist[u] + step);
                }
            }
        }
    }
    dist[g]
}

#[test]
fn lazy_legs_find_the_lengths_of_dijkstra_over_all_legs() {
    let world = corridor_io::scenes::layers();
    let ecm = LayeredEcm::build(&world).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    for radius in [0.0, 0.3] {
        let planner = LayeredPlanner::new(&ecm, radius).unwrap();
        assert!(planner.crossing_count() > 0);
        assert!(planner.links.lock().unwrap().is_empty());
        let links = all_links(&planner);
        let mut checked = 0;
        while checked < 6 {
            let pick = |rng: &mut ChaCha8Rng| loop {
                let layer = LayerId(rng.random_range(0..world.layer_count() as u32));
                let b = world.layer(layer).unwrap().environment.bounds();
                let p = Point::new(
                    rng.random_range(b.min.x..b.max.x),
                    rng.random_range(b.min.y..b.max.y),
                );
                if ecm.clearance(layer, p).is_ok_and(|c| c > radius + 1e-3) {
                    return (layer, p);
                }
            };
            let ((from, start), (to, goal)) = (pick(&mut rng), pick(&mut rng));
            if from == to {
                continue;
            }
            let want = eager_length(&planner, &links, from, start, to, goal);
            let plan = |region: usize, a: Point, b: Point| {
                let ecm = planner.ecm.region_ecm(region).ok()?;
                plan_on(region, ecm, &PathQuery::new(a, b).with_radius(radius)).ok()
            };
            let (rf, rt) = (planner.ecm.region_of(from), planner.ecm.region_of(to));
            let got = planner.search(rf, start, rt, goal, &plan).0[planner.nodes.len() + 1];
            // Twice: the second search reads the legs the first one kept.
            let again = planner.search(rf, start, rt, goal, &plan).0[planner.nodes.len() + 1];
            assert!(
                (got - want).abs() <= 1e-9 * want.max(1.0)
                    || (got.is_infinite() && want.is_infinite()),
                "r = {radius}, {from} {start} -> {to} {goal}: lazy {got}, eager {want}"
            );
            assert_eq!(got.to_bits(), again.to_bits());
            checked += 1;
        }
        assert!(!planner.links.lock().unwrap().is_empty());
    }
}
