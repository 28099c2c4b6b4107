//! Build phases on the hardening issue's inputs (from the test kit's `hostile` module):
//! a row of point pillars facing open space (5k, 10k, 20k pillars on y = 500 in a
//! 1000 × 1000 map) and a dense zigzag polyline (200k segments). Prints the Voronoi and
//! validation times (median of 3 builds; the build's own phase times) and the ECM's
//! counts; `maps` adds two game maps (den520d, Aurora) for comparison. `overlap N ...`
//! normalizes N heavily overlapping large triangles (one process per N gives its own peak
//! memory) and prints the overlay's size (edges, crossings), the output walls, the time
//! per piece, and how long a limit takes to refuse it. `threads` builds random512-10-0
//! and a 2048² random grid on 1 and 2 threads (validation runs on all of them).
//!
//! `cargo run --release -p corridor-ecm --example hostile_builds -- [pillars [N...]|zigzag|maps|maps10|threads|all]`
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
        // Each build a first build: the library's cache of exact fallbacks (one per
        // thread) would otherwise make the later builds cheaper, by which thread they ran on.
        corridor_voronoi::clear_exact_fallback_cache();
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

/// Validation on 1 and on 2 threads (alternating, 3 builds each): the median validation
/// and whole build times, and whether both give the same ECM.
fn threads(name: &str, env: &Environment) {
    let mut times = [(Vec::new(), Vec::new()), (Vec::new(), Vec::new())];
    let mut counts = [(0, 0, 0); 2];
    for _ in 0..3 {
        for (k, n) in [1, 2].into_iter().enumerate() {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .expect("a pool");
            let clock = Instant::now();
            let ecm = pool.install(|| Ecm::build(env)).expect("builds");
            times[k].1.push(clock.elapsed().as_secs_f64());
            times[k].0.push(ecm.stats().validation.as_secs_f64());
            counts[k] = (
                ecm.vertex_count(),
                ecm.edge_count(),
                ecm.bending_point_count(),
            );
        }
    }
    let median = corridor_testkit::median;
    println!(
        "| {name} | {:.3} | {:.3} | {:.2}× | {:.2} | {:.2} | {} |",
        median(&times[0].0),
        median(&times[1].0),
        median(&times[0].0) / median(&times[1].0),
        median(&times[0].1),
        median(&times[1].1),
        if counts[0] == counts[1] {
            "same counts"
        } else {
            "DIFFERENT"
        },
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
    if which == "threads" {
        println!("| input | validation, 1 thread (s) | 2 threads (s) | speed-up | build, 1 thread (s) | 2 threads (s) | ECM |");
        println!("|---|---:|---:|---:|---:|---:|---|");
        let path = corridor_testkit::data_path("movingai/random512-10-0.map");
        let env = corridor_io::load_environment(&path).expect("reads");
        threads("random512-10-0", &env);
        let text = corridor_testkit::worlds::random_grid_map(2048, 2048, 0.1, 30);
        let env = corridor_io::read_map_environment(&text).expect("a grid map");
        threads("random grid 2048², 10 % (seed 30)", &env);
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
    if which == "all" || which == "maps" || which == "maps10" {
        // Game maps, where validation was already below the Voronoi time (`maps10`: the
        // ten Moving AI maps of `data/`, to check that the sweep keeps its speed there).
        let names: &[&str] = if which == "maps10" {
            &[
                "16room_000",
                "AR0011SR",
                "Aurora",
                "arena",
                "brc202d",
                "den312d",
                "den520d",
                "lak303d",
                "ost003d",
                "random512-10-0",
            ]
        } else {
            &["den520d", "Aurora"]
        };
        for &name in names {
            let path = corridor_testkit::data_path(format!("movingai/{name}.map"));
            row(name, &corridor_io::load_environment(&path).expect("reads"));
        }
    }
}
