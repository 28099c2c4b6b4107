//! How long the first path query takes after an obstacle update (issue 24): a
//! [`Planner`] keeps per-map caches (adjacency, search graph, edge costs) that must follow
//! every new version of a [`DynamicEcm`]'s map.
//!
//! ```text
//! cargo run --release -p corridor-ecm --example planner_after_update -- [city|aurora] [UPDATES]
//! ```
//!
//! Method: the map is built, a planner is warmed with 50 queries between random
//! medial-axis vertices, then `UPDATES` times a small square obstacle is inserted at a
//! random wide place (or the previous one is removed again), and right after each update
//! one query (start and goal 0.1 apart, so that the search itself is negligible) is timed
//! with the warmed planner, then the same query again: the difference is the cost of
//! bringing the caches up to date. Then a long query is timed (first after the update
//! and again). Medians over the updates; wall clock, one thread.

use corridor_ecm::{DynamicEcm, PathQuery, Planner};
use corridor_geom::{Environment, Obstacle, Point};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "city".into());
    let updates: usize = args.next().map_or(40, |a| a.parse().expect("UPDATES"));
    let env: Environment = match which.as_str() {
        "city" => corridor_io::scenes::city(),
        "aurora" => {
            corridor_io::load_environment(corridor_testkit::data_dir().join("movingai/Aurora.map"))
                .expect("Aurora.map")
        }
        other => panic!("unknown map {other} (city or aurora)"),
    };
    let mut map = DynamicEcm::new(env).expect("ECM");
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    let wide = |map: &DynamicEcm, min: f64| -> Vec<(Point, f64)> {
        map.ecm()
            .vertices()
            .filter(|(_, v)| v.clearance >= min)
            .map(|(_, v)| (v.position, v.clearance))
            .collect()
    };
    let mut planner = Planner::new();
    let points = wide(&map, 0.5);
    let pick = |rng: &mut ChaCha8Rng| points[rng.random_range(0..points.len())].0;
    for _ in 0..50 {
        let q = PathQuery::new(pick(&mut rng), pick(&mut rng));
        let _ = planner.plan(map.ecm(), &q);
    }
    let (mut short_first, mut short_again, mut long_first, mut long_again) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut inserted = None;
    for _ in 0..updates {
        match inserted.take() {
            Some(id) => {
                map.remove(id).expect("remove");
            }
            None => {
                let places = wide(&map, 2.0);
                let (c, clearance) = places[rng.random_range(0..places.len())];
                let h = 0.25 * clearance;
                let square = Obstacle::rectangle(c - Point::splat(h), c + Point::splat(h));
                inserted = Some(map.insert(square).expect("insert"));
            }
        }
        let ecm = map.ecm();
        let places = wide(&map, 1.0);
        let a = places[rng.random_range(0..places.len())].0;
        let short = PathQuery::new(a, a + Point::new(0.05, 0.05));
        let t = Instant::now();
        let _ = planner.plan(ecm, &short);
        short_first.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let _ = planner.plan(ecm, &short);
        short_again.push(t.elapsed().as_secs_f64());
        let long = PathQuery::new(
            places[rng.random_range(0..places.len())].0,
            places[rng.random_range(0..places.len())].0,
        );
        // A fresh map version for the long query: remove and re-insert is too slow to
        // repeat, so time it on the version after the short query (caches updated) and
        // note that the short pair measured the update cost.
        let t = Instant::now();
        let _ = planner.plan(ecm, &long);
        long_first.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let _ = planner.plan(ecm, &long);
        long_again.push(t.elapsed().as_secs_f64());
    }
    let ms = |v: Vec<f64>| 1e3 * median(v);
    println!(
        "{which}: {} vertices, {updates} updates; medians (ms): first short query {:.3}, again {:.3}; long query {:.3}, again {:.3}",
        map.ecm().vertex_count(),
        ms(short_first),
        ms(short_again),
        ms(long_first),
        ms(long_again),
    );
}
