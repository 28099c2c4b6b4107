//! Timings of the layered ECM on `builtin:layers`: the layered build against the sum of
//! the per-layer builds, the planner's set-up per radius (crossing samples and the lengths
//! between them), the median query time at r = 0 and r = 0.3, and the median time of an
//! obstacle's insertion, move and removal in the [`DynamicLayeredEcm`] (plan and apply;
//! wall clock, on a shared machine: compare within one run).
//!
//! `cargo run --release -p corridor-ecm --example layered_bench`

use corridor_ecm::{DynamicLayeredEcm, Ecm, LayeredEcm, LayeredPlanner};
use corridor_geom::{LayerId, Obstacle, Point};
use corridor_testkit::median;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// Wall-clock milliseconds: the layered build and queries run on rayon's threads, which a
/// thread CPU clock would not count.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed().as_secs_f64() * 1e3)
}

fn main() {
    let world = corridor_io::scenes::layers();
    let rounds = 7;
    let (mut layered, mut separate) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        // Alternate the two measurements, as the machine is shared.
        let (_, t) = timed(|| LayeredEcm::build(&world).unwrap());
        layered.push(t);
        let (_, t) = timed(|| {
            for (_, layer) in world.layers() {
                Ecm::build(&layer.environment).unwrap();
            }
        });
        separate.push(t);
    }
    println!(
        "build: layered {:.3} ms, sum of per-layer builds {:.3} ms (medians of {rounds})",
        median(&layered),
        median(&separate)
    );
    let ecm = LayeredEcm::build(&world).unwrap();
    for radius in [0.0, 0.3] {
        let (planner, setup) = timed(|| LayeredPlanner::new(&ecm, radius).unwrap());
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut times = Vec::new();
        while times.len() < 200 {
            let mut pick = || loop {
                let layer = LayerId(rng.random_range(0..world.layer_count() as u32));
                let b = world.layer(layer).unwrap().environment.bounds();
                let p = Point::new(
                    rng.random_range(b.min.x..b.max.x),
                    rng.random_range(b.min.y..b.max.y),
                );
                if ecm.clearance(layer, p).is_ok_and(|c| c > radius) {
                    return (layer, p);
                }
            };
            let ((from, start), (to, goal)) = (pick(), pick());
            let (result, t) = timed(|| planner.plan(from, start, to, goal));
            if result.is_ok() {
                times.push(t);
            }
        }
        println!(
            "r = {radius}: planner set-up {:.1} ms ({} crossing samples), median query {:.3} ms over {} queries",
            setup,
            planner.crossing_count(),
            median(&times),
            times.len()
        );
    }
    updates(&world);
}

/// Insert a small box on a random layer, move it, remove it: the map is back where it
/// was after every round, so every round measures the same kind of update.
fn updates(world: &corridor_geom::LayeredEnvironment) {
    let mut map = DynamicLayeredEcm::new(world).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut insert, mut moves, mut remove) = (Vec::new(), Vec::new(), Vec::new());
    let boxed = |rng: &mut ChaCha8Rng, layer: LayerId| {
        let b = world.layer(layer).unwrap().environment.bounds();
        let c = Point::new(
            rng.random_range(b.min.x + 0.5..b.max.x - 0.5),
            rng.random_range(b.min.y + 0.5..b.max.y - 0.5),
        );
        Obstacle::rectangle(c - Point::splat(0.25), c + Point::splat(0.25))
    };
    while insert.len() < 1000 {
        let layer = LayerId(rng.random_range(0..world.layer_count() as u32));
        let (first, second) = (boxed(&mut rng, layer), boxed(&mut rng, layer));
        let (Ok(id), t) = timed(|| map.insert(layer, first)) else {
            continue;
        };
        insert.push(t);
        if let (Ok(()), t) = timed(|| map.move_to(layer, id, second)) {
            moves.push(t);
        }
        let (removed, t) = timed(|| map.remove(layer, id));
        removed.unwrap();
        remove.push(t);
    }
    println!(
        "updates (plan + apply, {} rounds): median insertion {:.4} ms, move {:.4} ms, removal {:.4} ms",
        insert.len(),
        median(&insert),
        median(&moves),
        median(&remove)
    );
}
