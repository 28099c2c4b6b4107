//! The cost of one update that inserts many obstacles at once, against a full rebuild of the
//! same environment (issue 25: an update must never cost much more than a rebuild).
//!
//! `cargo run --release -p corridor-ecm --example batch_update_cost -- [MAP] [N...]`
//! (default: random512-10-0 with batches of 1, 10, 50, 100, 200 and 500 unit squares at
//! seeded random free spots).

use corridor_ecm::{Change, DynamicEcm, Ecm};
use corridor_geom::{Obstacle, Point};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let map = args.next().unwrap_or_else(|| "random512-10-0".into());
    let sizes: Vec<usize> = args.filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() {
        vec![1, 10, 50, 100, 200, 500]
    } else {
        sizes
    };
    let path = corridor_testkit::data_path(format!("movingai/{map}.map"));
    let env = corridor_io::load_environment(&path).expect("the map reads");
    let dynamic = DynamicEcm::new(env.clone()).expect("the map builds");
    let bounds = env.bounds();
    println!("{map}: {} walls", dynamic.wall_map().walls().len());
    println!("| batch | method | plan (ms) | walls (ms) | Voronoi (ms) | widenings | rebuild (ms) | plan / rebuild | local walls | walls scope |");
    println!("|---:|---|---:|---:|---:|---:|---:|---:|---:|---|");
    for n in sizes {
        let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
        let changes: Vec<Change> = (0..n)
            .map(|_| {
                let x = rng.random_range(bounds.min.x + 1.0..bounds.max.x - 2.0);
                let y = rng.random_range(bounds.min.y + 1.0..bounds.max.y - 2.0);
                let min = Point::new(x.floor() + 0.25, y.floor() + 0.25);
                Change::Insert(Obstacle::rectangle(min, min + Point::new(0.5, 0.5)))
            })
            .collect();
        let clock = Instant::now();
        let patch = dynamic.plan_batch(&changes).expect("the batch plans");
        let plan = clock.elapsed().as_secs_f64() * 1e3;
        let mut after = env.clone();
        for change in &changes {
            if let Change::Insert(o) = change {
                after.insert(o.clone());
            }
        }
        let clock = Instant::now();
        Ecm::build(&after).expect("the new map builds");
        let rebuild = clock.elapsed().as_secs_f64() * 1e3;
        let report = patch.report();
        println!(
            "| {n} | {:?} | {plan:.0} | {:.0} | {:.0} | {} | {rebuild:.0} | {:.2} | {} | {:?} |",
            report.method,
            report.walls_time.as_secs_f64() * 1e3,
            report.voronoi_time.as_secs_f64() * 1e3,
            report.widenings,
            plan / rebuild,
            report.local_walls,
            report.normalize_scope
        );
    }
}
