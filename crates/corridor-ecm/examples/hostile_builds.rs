//! Build phases on the hardening issue's inputs (from the test kit's `hostile` module):
//! a row of point pillars facing open space (5k, 10k, 20k pillars on y = 500 in a
//! 1000 × 1000 map) and a dense zigzag polyline (200k segments). Prints the Voronoi and
//! validation times (median of 3 builds; the build's own phase times) and the ECM's
//! counts; `maps` adds two game maps (den520d, Aurora) for comparison. `overlap N ...`
//! normalizes N heavily overlapping large triangles (one process per N gives its own peak
//! memory) and prints the overlay's size (edges, crossings), the output walls, the time
//! per piece, and how long a limit takes to refuse it.
//!
//! `cargo run --release -p corridor-ecm --example hostile_builds -- [pillars [N...]|zigzag|maps|all]`
//! `cargo run --release -p corridor-ecm --example hostile_builds -- overlap 1000 3000`

use corridor_ecm::Ecm;
use corridor_geom::Environment;
use corridor_geom::{normalize_within, overlay_size, NormalizeLimits};
use corridor_testkit::hostile::{overlapping_triangles, pillar_row, zigzag};
use std::time::Instant;

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

/// Normalization of `n` overlapping triangles against the size of their overlay.
fn overlap(n: usize) {
    let env = overlapping_triangles(n, 1);
    let clock = Instant::now();
    let size = overlay_size(&env).expect("valid");
    let counting = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let walls = normalize_within(&env, &NormalizeLimits::default()).expect("normalizes");
    let seconds = clock.elapsed().as_secs_f64();
    let limit = NormalizeLimits {
        max_wall_pieces: Some(100_000),
    };
    let clock = Instant::now();
    let refused = normalize_within(&env, &limit).is_err();
    let refusing = clock.elapsed().as_secs_f64();
    println!(
        "| {n} | {} | {} | {} | {:.2} | {:.0} | {:.3} | {} {:.3} | {} |",
        size.edges,
        size.crossings,
        walls.segment_count(),
        seconds,
        seconds * 1e9 / size.pieces() as f64,
        counting,
        if refused { "refused in" } else { "passed in" },
        refusing,
        peak_memory_mb().map_or("?".into(), |m| format!("{m:.0}")),
    );
}

/// The process's peak resident memory (Linux), in MB.
fn peak_memory_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "all".into());
    if which == "overlap" {
        println!("| triangles | edges | crossings | output walls | normalize (s) | ns per piece | counting (s) | limit 100k pieces (s) | peak MB |");
        println!("|---:|---:|---:|---:|---:|---:|---:|---|---:|");
        for n in std::env::args().skip(2) {
            overlap(n.parse().expect("a triangle count"));
        }
        return;
    }
    println!("| input | Voronoi (ms) | validation (ms) | vertices / edges / bending points |");
    println!("|---|---:|---:|---|");
    if which == "all" || which == "pillars" {
        let sizes: Vec<usize> = std::env::args()
            .skip(2)
            .map(|n| n.parse().expect("a pillar count"))
            .collect();
        let sizes = if sizes.is_empty() {
            vec![5_000, 10_000, 20_000]
        } else {
            sizes
        };
        for n in sizes {
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
