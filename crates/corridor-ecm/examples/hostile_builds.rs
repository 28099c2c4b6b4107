//! Build phases on the hardening issue's inputs (from the test kit's `hostile` module):
//! a row of point pillars facing open space (5k, 10k, 20k pillars on y = 500 in a
//! 1000 × 1000 map) and a dense zigzag polyline (200k segments). Prints the Voronoi and
//! validation times (median of 3 builds; the build's own phase times) and the ECM's
//! counts; `maps` adds two game maps (den520d, Aurora) for comparison.
//!
//! `cargo run --release -p corridor-ecm --example hostile_builds -- [pillars|zigzag|maps|all]`

use corridor_ecm::Ecm;
use corridor_geom::Environment;
use corridor_testkit::hostile::{pillar_row, zigzag};

fn row(name: &str, env: &Environment) {
    let mut voronoi = Vec::new();
    let mut validation = Vec::new();
    let mut counts = (0, 0, 0);
    for _ in 0..3 {
        let ecm = Ecm::build(env).expect("builds");
        let s = ecm.stats();
        voronoi.push(s.voronoi.as_secs_f64() * 1e3);
        validation.push(s.validation.as_secs_f64() * 1e3);
        counts = (
            ecm.vertex_count(),
            ecm.edge_count(),
            ecm.bending_point_count(),
        );
    }
    println!(
        "| {name} | {:.0} | {:.0} | {} / {} / {} |",
        corridor_testkit::median(&voronoi),
        corridor_testkit::median(&validation),
        counts.0,
        counts.1,
        counts.2
    );
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "all".into());
    println!("| input | Voronoi (ms) | validation (ms) | vertices / edges / bending points |");
    println!("|---|---:|---:|---|");
    if which == "all" || which == "pillars" {
        for n in [5_000, 10_000, 20_000] {
            row(&format!("{n} pillars in a row"), &pillar_row(n));
        }
    }
    if which == "all" || which == "zigzag" {
        row("zigzag of 200k segments", &zigzag(200_000));
    }
    if which == "all" || which == "maps" {
        // Game maps, where validation was already below the Voronoi time.
        for name in ["den520d", "Aurora"] {
            let path = corridor_testkit::data_path(format!("movingai/{name}.map"));
            row(name, &corridor_io::load_environment(&path).expect("reads"));
        }
    }
}
