//! Build and query times on one map: `cargo run --release -p corridor-visgraph
//! --example visgraph_bench -- <maze folder | .map | .mesh> [problems.csv]`.

use corridor_visgraph::{Construction, FreeSpace, GraphKind, GraphOptions, VisibilityGraph};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = std::path::Path::new(&args[0]);
    let env = if path.is_dir() {
        corridor_io::load_grid(path).unwrap().to_environment()
    } else {
        corridor_io::load_environment(path).unwrap()
    };
    let t = Instant::now();
    let free = FreeSpace::from_environment(&env).unwrap();
    println!(
        "free space: {} walls, {} wedges in {:.3} s",
        free.wall_count(),
        free.wedges().len(),
        t.elapsed().as_secs_f64()
    );
    let kinds: &[(&str, GraphOptions)] = &[(
        "reduced/sweep",
        GraphOptions {
            kind: GraphKind::Reduced,
            construction: Construction::Sweep,
            no_culling: false,
        },
    )];
    let extra = std::env::var("ALL_KINDS").is_ok();
    let more = [
        (
            "full/sweep",
            GraphOptions {
                kind: GraphKind::Full,
                ..GraphOptions::default()
            },
        ),
        (
            "reduced/naive",
            GraphOptions {
                construction: Construction::Naive,
                ..GraphOptions::default()
            },
        ),
    ];
    let mut graph = None;
    for (name, options) in kinds
        .iter()
        .chain(if extra { more.iter() } else { [].iter() })
    {
        let t = Instant::now();
        let g = VisibilityGraph::from_free_space(free.clone(), *options);
        println!(
            "{name}: {} nodes, {} edges in {:.3} s",
            g.node_count(),
            g.edge_count(),
            t.elapsed().as_secs_f64()
        );
        graph.get_or_insert(g);
    }
    let graph = graph.unwrap();
    let problems = if let Some(csv) = args.get(1) {
        corridor_io::load_problems(csv).unwrap()
    } else if path.is_dir() {
        corridor_io::load_problems(path).unwrap()
    } else {
        Vec::new()
    };
    if !problems.is_empty() {
        let t = Instant::now();
        let ok = problems
            .iter()
            .filter(|p| graph.shortest_path(p.start, p.goal).is_ok())
            .count();
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{ok}/{} queries in {secs:.3} s ({:.3} ms each)",
            problems.len(),
            1000.0 * secs / problems.len() as f64
        );
    }
}
