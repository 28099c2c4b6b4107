//! The multi-storey building ([`corridor_testkit::building`]) as a layered benchmark:
//! build time (the layered ECM, against the sum of its layers' builds: the cost of the
//! layered part), the planner's set-up per radius, and per-query time of random
//! floor-to-floor queries (figures in docs/BENCHMARKS.md).
//!
//! ```sh
//! cargo run --release -p corridor-testkit --example building -- [--floors 4] [--seed 1] [--queries 200] [--radius 0,0.5]
//! cargo run --release -p corridor-testkit --example building -- --json building.json   # the generator: a layered JSON every command reads
//! cargo run --release -p corridor-testkit --example building -- --iso building.svg      # an isometric picture with one path
//! ```
//! Times are wall-clock medians (the builds and queries use every core rayon gives them;
//! `RAYON_NUM_THREADS=1` for one).

use corridor_ecm::{Ecm, LayeredEcm, LayeredPlanner};
use corridor_geom::{LayerId, Point};
use corridor_testkit::building::{building, BuildingOptions};
use corridor_testkit::{median, quantile};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name}: bad value {v}"))
        })
        .unwrap_or(default)
}

fn ms(started: Instant) -> f64 {
    started.elapsed().as_secs_f64() * 1e3
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let floors: usize = arg(&args, "--floors", 4);
    let seed: u64 = arg(&args, "--seed", 1);
    let queries: usize = arg(&args, "--queries", 200);
    let radii: String = arg(&args, "--radius", "0,0.5".to_string());
    let options = BuildingOptions {
        floors,
        ..BuildingOptions::default()
    };
    let started = Instant::now();
    let world = building(&options, seed);
    let generate_ms = ms(started);
    println!(
        "building floors={floors} seed={seed}: {} layers, {} connections, {} obstacle vertices, generated in {generate_ms:.1} ms",
        world.layer_count(),
        world.connections().len(),
        world.vertex_count()
    );
    if let Some(file) = args
        .iter()
        .position(|a| a == "--json")
        .and_then(|i| args.get(i + 1))
    {
        let text = corridor_io::write_layered_json(&world).expect("the building is valid");
        std::fs::write(file, text).unwrap_or_else(|e| panic!("{file}: {e}"));
        println!("wrote {file}");
        return;
    }
    // Builds: the layered ECM and its layers one by one, alternated, 5 of each.
    let (mut layered, mut summed) = (Vec::new(), Vec::new());
    let mut ecm = None;
    for _ in 0..5 {
        let started = Instant::now();
        ecm = Some(LayeredEcm::build(&world).expect("the building builds"));
        layered.push(ms(started));
        let started = Instant::now();
        for (_, layer) in world.layers() {
            Ecm::build(&layer.environment).expect("a floor builds");
        }
        summed.push(ms(started));
    }
    let ecm = ecm.expect("built");
    println!(
        "build: layered ECM {:.1} ms (median of 5); its layers one by one {:.1} ms",
        median(&layered),
        median(&summed)
    );
    let floor_ids: Vec<LayerId> = (0..floors as u32).map(LayerId).collect();
    for radius in radii
        .split(',')
        .map(|r| r.parse::<f64>().expect("a radius"))
    {
        let started = Instant::now();
        let planner = LayeredPlanner::new(&ecm, radius).expect("a radius");
        let setup_ms = ms(started);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let point = |rng: &mut ChaCha8Rng| loop {
            let layer = floor_ids[rng.random_range(0..floor_ids.len())];
            let p = Point::new(
                rng.random::<f64>() * options.width,
                rng.random::<f64>() * options.depth,
            );
            if ecm.clearance(layer, p).is_ok_and(|c| c > radius) {
                return (layer, p);
            }
        };
        let (mut times, mut found, mut crossings) = (Vec::new(), 0, 0);
        for _ in 0..queries {
            let ((la, a), (lb, b)) = (point(&mut rng), point(&mut rng));
            let started = Instant::now();
            let path = planner.plan(la, a, lb, b);
            times.push(ms(started));
            if let Ok(path) = path {
                found += 1;
                crossings += path.crossings.len();
            }
        }
        println!(
            "radius {radius}: planner set-up {setup_ms:.1} ms ({} crossing samples); {queries} queries between random floors: {found} found, {:.1} crossings on average, median {:.3} ms, p99 {:.3} ms",
            planner.crossing_count(),
            crossings as f64 / found.max(1) as f64,
            median(&times),
            quantile(&times, 0.99)
        );
        // The picture: from the ground floor's west end to the top floor's east end
        // (lattice corners, never inside furniture).
        if let Some(file) = args
            .iter()
            .position(|a| a == "--iso")
            .and_then(|i| args.get(i + 1))
        {
            let (a, b) = (
                Point::new(options.cell, 0.5 * options.depth),
                Point::new(options.width - options.cell, 0.5 * options.depth),
            );
            let top = LayerId(floors as u32 - 1);
            let path = planner
                .plan(LayerId(0), a, top, b)
                .expect("the floors are joined");
            let mut picture = corridor_io::svg::IsometricSvg::new(&world);
            picture.add_path(&world, &path);
            picture
                .write(file)
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            println!(
                "wrote {file}: a path of {:.1} over layers {:?}",
                path.length,
                path.steps.iter().map(|s| s.layer.0).collect::<Vec<_>>()
            );
        }
    }
}
