//! Triangulates the free space of one pyvisgraph comparison input over and over, for
//! instruction counts (`valgrind --tool=callgrind`); not part of the tests.
//!
//! ```text
//! bench/pyvisgraph/run.sh --families convex --sizes 100      # writes bench/pyvisgraph/out/convex-100.json
//! cargo build --release -p corridor-visgraph --example repeat_triangulate
//! valgrind --tool=callgrind target/release/examples/repeat_triangulate bench/pyvisgraph/out/convex-100.json 20
//! ```
//!
//! The environment is `repeat_build`'s (the polygons inside a rectangle one cell around
//! them); the free space is built once, untimed. Per triangulation = (count with N
//! builds − count with 0) / N. Prints the sizes, then the mean and minimum wall time.

use corridor_geom::{Aabb, Environment, Obstacle, Point, Polygon, Ring};
use corridor_visgraph::triangulation::triangle_count;
use corridor_visgraph::FreeSpace;
use std::hint::black_box;
use std::time::Instant;

/// The polygons of an exporter JSON file (`{"name": …, "polygons": [[[x, y], …], …]}`),
/// read as `repeat_build` reads them.
fn read_polygons(text: &str) -> Option<Vec<Ring>> {
    let body = &text[text.find("\"polygons\"")? + "\"polygons\"".len()..];
    let mut rings = Vec::new();
    for polygon in body.split("]], [[") {
        let numbers: Vec<f64> = polygon
            .split(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E')))
            .filter(|s| !s.is_empty())
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        if numbers.len() < 6 || !numbers.len().is_multiple_of(2) {
            return None;
        }
        rings.push(Ring::new(
            numbers.chunks(2).map(|c| Point::new(c[0], c[1])).collect(),
        ));
    }
    Some(rings)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: repeat_triangulate FILE.json BUILDS");
        std::process::exit(2)
    };
    if args.len() != 2 {
        usage();
    }
    let text = std::fs::read_to_string(&args[0]).unwrap_or_else(|e| {
        eprintln!("{}: {e}", args[0]);
        std::process::exit(1)
    });
    let Some(rings) = read_polygons(&text) else {
        eprintln!("{}: not an exporter polygon file", args[0]);
        std::process::exit(1)
    };
    let builds: usize = args[1].parse().unwrap_or_else(|_| usage());
    let Some(bounds) = Aabb::from_points(rings.iter().flat_map(|r| r.vertices().iter().copied()))
    else {
        usage()
    };
    let mut env = Environment::rectangle(
        bounds.min - Point::splat(10.0),
        bounds.max + Point::splat(10.0),
    );
    for r in rings {
        env.insert(Obstacle::Polygon(Polygon::simple(r)));
    }
    let free = FreeSpace::from_environment(&env).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let triangles = triangle_count(&free);
    if triangles == 0 {
        eprintln!("the triangulation failed");
        std::process::exit(1);
    }
    println!(
        "{} points, {} walls, {triangles} triangles",
        free.vertices().len(),
        free.wall_count()
    );
    let (start, mut least) = (Instant::now(), f64::INFINITY);
    for _ in 0..builds {
        let t = Instant::now();
        black_box(triangle_count(black_box(&free)));
        least = least.min(t.elapsed().as_secs_f64());
    }
    println!(
        "mean {:.4} ms, min {:.4} ms over {builds} builds",
        start.elapsed().as_secs_f64() * 1e3 / builds.max(1) as f64,
        least * 1e3
    );
}
