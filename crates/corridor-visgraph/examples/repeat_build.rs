//! Builds the visibility graph of one pyvisgraph comparison input over and over, for
//! profiling (`valgrind --tool=callgrind`, `perf record`) and for minimum times on a busy
//! machine; not part of the tests.
//!
//! ```text
//! bench/pyvisgraph/run.sh --families convex --sizes 100      # writes bench/pyvisgraph/out/convex-100.json
//! cargo run --release -p corridor-visgraph --example repeat_build -- \
//!     bench/pyvisgraph/out/convex-100.json reduced|full BUILDS [all|free-space|graph] \
//!     [auto|pairs|sweep|expansion|naive]
//! ```
//!
//! The environment is the exporter's (`pyvisgraph_export`): the polygons inside a
//! rectangle one cell around them. `all` (the default) times whole builds from the
//! environment, `free-space` only `FreeSpace::from_environment`, `graph` only the graph
//! over a copy of a prebuilt free space (the expansion's triangulation is part of it;
//! everything is measured through the public API). Prints the graph's size, then the
//! mean and the minimum wall time of one build. The last argument picks the construction
//! (default `auto`).

use corridor_geom::{Aabb, Environment, Obstacle, Point, Polygon, Ring};
use corridor_visgraph::{Construction, FreeSpace, GraphKind, GraphOptions, VisibilityGraph};
use std::hint::black_box;
use std::time::Instant;

/// The polygons of an exporter JSON file (`{"name": …, "polygons": [[[x, y], …], …]}`).
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
        eprintln!(
            "usage: repeat_build FILE.json reduced|full BUILDS [all|free-space|graph] \
             [auto|pairs|sweep|expansion|naive]"
        );
        std::process::exit(2)
    };
    if args.len() < 3 {
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
    let kind = match args[1].as_str() {
        "reduced" => GraphKind::Reduced,
        "full" => GraphKind::Full,
        _ => usage(),
    };
    let builds: usize = args[2].parse().unwrap_or_else(|_| usage());
    let what = args.get(3).map(String::as_str).unwrap_or("all");
    if !matches!(what, "all" | "free-space" | "graph") {
        usage();
    }
    let construction = match args.get(4).map(String::as_str).unwrap_or("auto") {
        "auto" => Construction::Auto,
        "pairs" => Construction::Pairs,
        "sweep" => Construction::Sweep,
        "expansion" => Construction::Expansion,
        "naive" => Construction::Naive,
        _ => usage(),
    };
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
    let options = GraphOptions {
        kind,
        construction,
        ..GraphOptions::default()
    };
    let free = FreeSpace::from_environment(&env).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let graph = VisibilityGraph::from_free_space(free.clone(), options);
    println!("{} nodes, {} edges", graph.node_count(), graph.edge_count());
    let (start, mut least) = (Instant::now(), f64::INFINITY);
    for _ in 0..builds {
        let t = Instant::now();
        match what {
            "free-space" => drop(black_box(FreeSpace::from_environment(&env))),
            "graph" => drop(black_box(VisibilityGraph::from_free_space(
                free.clone(),
                options,
            ))),
            _ => drop(black_box(VisibilityGraph::with_options(&env, options))),
        }
        least = least.min(t.elapsed().as_secs_f64());
    }
    println!(
        "mean {:.4} ms, min {:.4} ms over {builds} builds",
        start.elapsed().as_secs_f64() * 1e3 / builds.max(1) as f64,
        least * 1e3
    );
}
