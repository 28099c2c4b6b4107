//! Query times of the [`LayeredPlanner`] on `builtin:layers` and the three Recast demo
//! levels (data/recast): per level and radius, the planner's set-up, the median and p90
//! wall-clock time of a query over the same random pairs (drawn by layer area, at least
//! the radius from walls), and how many pairs found a path, with the median and p90 of
//! those queries alone (most pairs on the demo levels join layers that no connection
//! joins, which a query refuses at once). Run it before and after a
//! change of the planner to compare (the pairs depend only on the seed).
//!
//! `cargo run --release -p corridor-ecm --example layered_queries -- [PAIRS]` (200 by default)

use corridor_ecm::{LayeredEcm, LayeredPlanner};
use corridor_geom::{LayerId, LayeredEnvironment, Point};
use corridor_io::obj::{read_level, WalkableOptions};
use corridor_testkit::layered_oracle::in_closed_free_space;
use corridor_testkit::{median, quantile};
use rand::distr::{weighted::WeightedIndex, Distribution};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

fn ms<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed().as_secs_f64() * 1e3)
}

/// A random point on a layer drawn by free area, more than `margin` from its walls.
fn random_point(ecm: &LayeredEcm, rng: &mut ChaCha8Rng, margin: f64) -> (LayerId, Point) {
    let by_area = WeightedIndex::new(ecm.layers().map(|(_, e)| e.free_area())).expect("free area");
    loop {
        let layer = LayerId(by_area.sample(rng) as u32);
        let env = &ecm.world().layer(layer).unwrap().environment;
        let b = env.bounds();
        let p = Point::new(
            rng.random_range(b.min.x..b.max.x),
            rng.random_range(b.min.y..b.max.y),
        );
        if in_closed_free_space(env, p) && ecm.clearance(layer, p).is_ok_and(|c| c > margin) {
            return (layer, p);
        }
    }
}

fn main() {
    let pairs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let mut levels: Vec<(String, LayeredEnvironment)> =
        vec![("builtin:layers".into(), corridor_io::scenes::layers())];
    for name in ["nav_test", "dungeon", "undulating"] {
        let path = corridor_testkit::data_dir()
            .join("recast")
            .join(format!("{name}.obj"));
        let text = corridor_io::read_text(&path).unwrap();
        let level = read_level(&text, &WalkableOptions::default()).unwrap();
        levels.push((name.into(), level.into_layered()));
    }
    for (name, world) in &levels {
        let (ecm, build) = ms(|| LayeredEcm::build(world).unwrap());
        println!(
            "{name}: {} layers, {} connections, layered build {build:.1} ms",
            world.layer_count(),
            world.connections().len()
        );
        for radius in [0.0, 0.3] {
            let (planner, setup) = ms(|| LayeredPlanner::new(&ecm, radius).unwrap());
            let mut rng = ChaCha8Rng::seed_from_u64(26);
            let (mut times, mut found) = (Vec::new(), Vec::new());
            for _ in 0..pairs {
                let (from, start) = random_point(&ecm, &mut rng, radius);
                let (to, goal) = random_point(&ecm, &mut rng, radius);
                let (result, t) = ms(|| planner.plan(from, start, to, goal));
                if result.is_ok() {
                    found.push(t);
                }
                times.push(t);
            }
            println!(
                "  r = {radius}: set-up {setup:.1} ms, {} crossing samples; query median {:.3} ms, p90 {:.3} ms; {} of {pairs} found, their median {:.3} ms, p90 {:.3} ms",
                planner.crossing_count(),
                median(&times),
                quantile(&times, 0.9),
                found.len(),
                median(&found),
                quantile(&found, 0.9)
            );
        }
    }
}
