//! A fixed workload for instruction counts (callgrind), which unlike times do not depend on
//! the machine's load: builds the ECMs of `den520d.map` and `Aurora.map`, asks 10,000
//! `locate` and `clearance` queries at fixed pseudo-random free points of each, plans 500
//! paths between such points on each (radius 0 and 0.5, alternating), and inserts and
//! removes a few boxes on `den520d.map`. Compare two commits by running it under both.
//!
//! ```sh
//! cargo build --release -p corridor-ecm --example workload_counts
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.X target/release/examples/workload_counts
//! callgrind_annotate /tmp/cg.X | head -20
//! ```

use corridor_ecm::{DynamicEcm, Ecm, PathQuery};
use corridor_geom::{Obstacle, Point};

/// A fixed sequence of numbers in `[0, 1)` (a 64-bit LCG), the same on every run.
struct Numbers(u64);

impl Numbers {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn main() {
    let data = corridor_testkit::data_dir().join("movingai");
    let mut checksum = 0.0;
    for name in ["den520d.map", "Aurora.map"] {
        let env = corridor_io::load_environment(data.join(name)).expect(name);
        let ecm = Ecm::build(&env).expect(name);
        let bounds = env.bounds();
        let (lo, size) = (bounds.min, bounds.size());
        let mut numbers = Numbers(42);
        let (mut found, mut tries) = (0, 0);
        let mut free = Vec::new();
        while found < 10_000 && tries < 1_000_000 {
            tries += 1;
            let p = Point::new(
                lo.x + numbers.next() * size.x,
                lo.y + numbers.next() * size.y,
            );
            if ecm.locate(p).is_ok() {
                if let Ok(c) = ecm.clearance(p) {
                    checksum += c;
                    found += 1;
                    free.push(p);
                }
            }
        }
        let (mut planned, mut length) = (0, 0.0);
        for (k, pair) in free.chunks_exact(2).take(500).enumerate() {
            let radius = if k % 2 == 0 { 0.0 } else { 0.5 };
            if let Ok(path) = ecm.plan(&PathQuery::new(pair[0], pair[1]).with_radius(radius)) {
                planned += 1;
                length += path.length;
            }
        }
        println!("{name}: {found} free points of {tries}, {planned} paths of length {length:.6}");
    }
    let env = corridor_io::load_environment(data.join("den520d.map")).expect("den520d");
    let bounds = env.bounds();
    let (lo, size) = (bounds.min, bounds.size());
    let mut map = DynamicEcm::new(env).expect("den520d");
    let mut numbers = Numbers(7);
    let mut updates = 0;
    for _ in 0..8 {
        let c = Point::new(
            lo.x + numbers.next() * size.x,
            lo.y + numbers.next() * size.y,
        );
        let half = Point::splat(1.5);
        if let Ok(id) = map.insert(Obstacle::rectangle(c - half, c + half)) {
            map.remove(id).expect("remove");
            updates += 2;
        }
    }
    println!("den520d.map: {updates} updates applied; clearance checksum {checksum}");
}
