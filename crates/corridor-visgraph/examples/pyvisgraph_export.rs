//! Inputs and our timings for the side-by-side run against `pyvisgraph` (driven by
//! `bench/pyvisgraph/run.sh`; not part of the tests).
//!
//! ```text
//! cargo run --release -p corridor-visgraph --example pyvisgraph_export -- \
//!     --out bench/pyvisgraph/out --families convex,star --sizes 100,300,1000,2000 [--reps 5] [--seed 1]
//! ```
//!
//! For every family and size it generates disjoint polygons with about that many
//! vertices in general position (random `f64` coordinates, no three vertices collinear,
//! no touching obstacles, so no degenerate case arises for either library), writes them
//! as pyvisgraph-ready JSON (`OUT/FAMILY-SIZE.json`: `{"name": …, "polygons": [[[x, y],
//! …], …]}`, coordinates printed exactly, so Python reads the same doubles), then builds
//! our full graph and our reduced graph of the same polygons (inside a rectangular
//! boundary one cell around them, which pyvisgraph does not have), each by the default
//! construction (`full`, `reduced`) and by the rotational sweep (`full_sweep`,
//! `reduced_sweep`), and prints one JSON line per input:
//! median CPU and wall ms of the whole build from the environment (free space + graph)
//! and the edge counts. `full_edges_between_obstacles` leaves out the edges at the four
//! boundary corners: it is the number comparable with pyvisgraph's.
//!
//! Families: `convex` — a convex polygon of 3–8 corners in each cell of a jittered
//! lattice; `star` — a star-shaped (mostly concave) polygon of 5–10 corners per cell.

use corridor_geom::{Aabb, Environment, Obstacle, Point, Polygon, Ring};
use corridor_testkit::random::{random_concave_polygon, random_convex_polygon};
use corridor_testkit::thread_cpu_time;
use corridor_visgraph::{Construction, GraphKind, GraphOptions, VisibilityGraph};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

/// The side of one lattice cell (coordinates stay far below pyvisgraph's `INF = 10000`).
const CELL: f64 = 10.0;

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        0.5 * (values[n / 2 - 1] + values[n / 2])
    }
}

/// Polygons with about `target` vertices in total, one per lattice cell.
fn polygons(family: &str, target: usize, seed: u64) -> Vec<Ring> {
    let mean = if family == "star" { 7.5 } else { 5.5 };
    let side = ((target as f64 / mean).sqrt().ceil() as usize).max(1);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut vertices = 0;
    'cells: for y in 0..side {
        for x in 0..side {
            if vertices >= target {
                break 'cells;
            }
            let cell = Point::new((x as f64 + 0.5) * CELL, (y as f64 + 0.5) * CELL);
            let radius = CELL * (0.15 + 0.25 * rng.random::<f64>());
            let slack = 0.45 * CELL - radius;
            let centre = cell
                + Point::new(
                    slack * (2.0 * rng.random::<f64>() - 1.0),
                    slack * (2.0 * rng.random::<f64>() - 1.0),
                );
            let ring = if family == "star" {
                let corners = rng.random_range(5..=10);
                random_concave_polygon(&mut rng, centre, radius, corners)
            } else {
                let corners = rng.random_range(3..=8);
                random_convex_polygon(&mut rng, centre, radius, corners)
            };
            vertices += ring.len();
            out.push(ring);
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = PathBuf::from("bench/pyvisgraph/out");
    let mut families = vec!["convex".to_string(), "star".to_string()];
    let mut sizes = vec![100usize, 300, 1000, 2000];
    let (mut reps, mut seed) = (5usize, 1u64);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let value = it.next().unwrap_or_else(|| {
            eprintln!("{arg} needs a value");
            std::process::exit(2)
        });
        let bad = |what: &str| -> ! {
            eprintln!("bad {what} {value:?}");
            std::process::exit(2)
        };
        match arg.as_str() {
            "--out" => out = PathBuf::from(value),
            "--families" => families = value.split(',').map(str::to_string).collect(),
            "--sizes" => {
                sizes = value
                    .split(',')
                    .map(|s| s.parse().unwrap_or_else(|_| bad("--sizes")))
                    .collect()
            }
            "--reps" => reps = value.parse().unwrap_or_else(|_| bad("--reps")),
            "--seed" => seed = value.parse().unwrap_or_else(|_| bad("--seed")),
            other => {
                eprintln!("unknown argument {other:?}");
                std::process::exit(2)
            }
        }
    }
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("{}: {e}", out.display());
        std::process::exit(1);
    }
    for family in &families {
        if family != "convex" && family != "star" {
            eprintln!("unknown family {family:?} (convex, star)");
            std::process::exit(2);
        }
        for &size in &sizes {
            let name = format!("{family}-{size}");
            let rings = polygons(family, size, seed);
            let vertices: usize = rings.iter().map(|r| r.len()).sum();
            let mut json = format!("{{\"name\": \"{name}\", \"polygons\": [");
            for (i, r) in rings.iter().enumerate() {
                json += if i == 0 { "[" } else { ", [" };
                for (k, p) in r.vertices().iter().enumerate() {
                    let sep = if k == 0 { "" } else { ", " };
                    let _ = write!(json, "{sep}[{:?}, {:?}]", p.x, p.y);
                }
                json += "]";
            }
            json += "]}\n";
            let file = out.join(format!("{name}.json"));
            if let Err(e) = std::fs::write(&file, json) {
                eprintln!("{}: {e}", file.display());
                std::process::exit(1);
            }

            // The same polygons in a boundary one cell around their bounding box (the
            // boundary is convex and touches no polygon, so it changes no edge between
            // polygon vertices; a far boundary only makes every sweep reach further).
            let bounds = Aabb::from_points(rings.iter().flat_map(|r| r.vertices().iter().copied()))
                .unwrap_or(Aabb::new(Point::ZERO, Point::splat(CELL)));
            let (lo, hi) = (
                bounds.min - Point::splat(CELL),
                bounds.max + Point::splat(CELL),
            );
            let mut env = Environment::rectangle(lo, hi);
            for r in &rings {
                env.insert(Obstacle::Polygon(Polygon::simple(r.clone())));
            }
            let corners = [lo, Point::new(hi.x, lo.y), hi, Point::new(lo.x, hi.y)];
            let mut fields = format!(
                "{{\"name\": \"{name}\", \"file\": {:?}, \"polygons\": {}, \"vertices\": {vertices}, \"reps\": {reps}",
                file.display().to_string(),
                rings.len()
            );
            for (label, kind, construction) in [
                ("full", GraphKind::Full, Construction::Auto),
                ("reduced", GraphKind::Reduced, Construction::Auto),
                ("full_sweep", GraphKind::Full, Construction::Sweep),
                ("reduced_sweep", GraphKind::Reduced, Construction::Sweep),
            ] {
                let options = GraphOptions {
                    kind,
                    construction,
                    no_culling: false,
                };
                let graph = match VisibilityGraph::with_options(&env, options) {
                    Ok(g) => g,
                    Err(e) => {
                        eprintln!("{name}: {e}");
                        std::process::exit(1);
                    }
                };
                let (mut cpu, mut wall) = (Vec::new(), Vec::new());
                for _ in 0..reps.max(1) {
                    let (c, w) = (thread_cpu_time(), Instant::now());
                    let g = VisibilityGraph::with_options(&env, options);
                    wall.push(w.elapsed().as_secs_f64() * 1e3);
                    cpu.push((thread_cpu_time() - c).as_secs_f64() * 1e3);
                    drop(black_box(g));
                }
                let between = graph
                    .edges()
                    .filter(|&(u, w)| {
                        !corners.contains(&graph.node_point(u))
                            && !corners.contains(&graph.node_point(w))
                    })
                    .count();
                let _ = write!(
                    fields,
                    ", \"{label}_cpu_ms\": {:.4}, \"{label}_wall_ms\": {:.4}, \"{label}_nodes\": {}, \
                     \"{label}_edges\": {}, \"{label}_edges_between_obstacles\": {between}, \
                     \"{label}_bytes\": {}",
                    median(&mut cpu),
                    median(&mut wall),
                    graph.node_count(),
                    graph.edge_count(),
                    graph.memory_bytes()
                );
            }
            println!("{fields}}}");
        }
    }
}
