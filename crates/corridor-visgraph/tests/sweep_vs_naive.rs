//! The rotational sweep, the pair-by-pair construction and the triangular expansion build
//! exactly the graph the
//! naive O(n³) construction builds, and the reduced graph gives the same shortest paths
//! as the full one.

use corridor_testkit::free_space_cases::{random_environment, random_points};
use corridor_visgraph::{
    Construction, FreeSpace, GraphKind, GraphOptions, QueryError, VisibilityGraph,
};

fn graph(free: &FreeSpace, kind: GraphKind, construction: Construction) -> VisibilityGraph {
    VisibilityGraph::from_free_space(
        free.clone(),
        GraphOptions {
            kind,
            construction,
            no_culling: false,
        },
    )
}

fn edge_set(g: &VisibilityGraph) -> Vec<(usize, usize)> {
    g.edges().collect()
}

#[test]
fn sweep_equals_naive_on_1000_degenerate_environments() {
    equals_naive_on_1000_degenerate_environments(Construction::Sweep);
}

#[test]
fn pairs_equal_naive_on_1000_degenerate_environments() {
    equals_naive_on_1000_degenerate_environments(Construction::Pairs);
}

#[test]
fn expansion_equals_naive_on_1000_degenerate_environments() {
    equals_naive_on_1000_degenerate_environments(Construction::Expansion);
}

fn equals_naive_on_1000_degenerate_environments(construction: Construction) {
    let mut full_edges = 0;
    let mut reduced_edges = 0;
    for seed in 0..1000u64 {
        let (w, h) = (3 + (seed % 4) as i32, 3 + ((seed / 4) % 4) as i32);
        let env = random_environment(seed, w, h);
        let free = FreeSpace::from_environment(&env).unwrap();
        for kind in [GraphKind::Full, GraphKind::Reduced] {
            let sweep = graph(&free, kind, construction);
            let naive = graph(&free, kind, Construction::Naive);
            let (a, b) = (edge_set(&sweep), edge_set(&naive));
            if a != b {
                let only_sweep: Vec<_> = a.iter().filter(|e| !b.contains(e)).collect();
                let only_naive: Vec<_> = b.iter().filter(|e| !a.contains(e)).collect();
                let show = |e: &&(usize, usize)| (sweep.node_point(e.0), sweep.node_point(e.1));
                panic!(
                    "seed {seed} {kind:?}: only in {construction:?} {:?}, only in naive {:?}",
                    only_sweep.iter().map(show).collect::<Vec<_>>(),
                    only_naive.iter().map(show).collect::<Vec<_>>()
                );
            }
            // Every edge is symmetric with the same length both ways, the naive one's.
            for u in 0..sweep.node_count() {
                for (v, len) in sweep.neighbours(u) {
                    assert!(sweep.neighbours(v).any(|(x, l)| x == u && l == len));
                    assert!(naive.neighbours(u).any(|(x, l)| x == v && l == len));
                }
            }
            match kind {
                GraphKind::Full => full_edges += a.len(),
                GraphKind::Reduced => reduced_edges += a.len(),
            }
        }
    }
    assert!(reduced_edges < full_edges);
}

#[test]
fn reduced_graph_gives_the_full_graphs_shortest_paths() {
    let mut compared = 0;
    for seed in 0..300u64 {
        let (w, h) = (4 + (seed % 5) as i32, 4 + ((seed / 5) % 5) as i32);
        let env = random_environment(seed + 5000, w, h);
        let free = FreeSpace::from_environment(&env).unwrap();
        let full = graph(&free, GraphKind::Full, Construction::Sweep);
        let reduced = graph(&free, GraphKind::Reduced, Construction::Sweep);
        // The default build (pair by pair at this size) is the same graph.
        let default = VisibilityGraph::from_free_space(free.clone(), GraphOptions::default());
        assert_eq!(edge_set(&default), edge_set(&reduced), "seed {seed}");
        let pts = random_points(seed, w, h, 12);
        for s in &pts {
            for g in &pts {
                let (a, b) = (full.shortest_path(*s, *g), reduced.shortest_path(*s, *g));
                match (&a, &b) {
                    (Ok(a), Ok(b)) => {
                        assert!(
                            (a.length - b.length).abs() <= 1e-9 * a.length.max(1.0),
                            "seed {seed} {s} -> {g}: full {} reduced {}",
                            a.length,
                            b.length
                        );
                        for seg in b.segments() {
                            assert!(free.segment_is_free(seg.a, seg.b), "seed {seed}: {seg:?}");
                        }
                        compared += 1;
                    }
                    (Err(x), Err(y)) => assert_eq!(x, y),
                    _ => panic!("seed {seed} {s} -> {g}: full {a:?}, reduced {b:?}"),
                }
            }
        }
    }
    assert!(compared > 10_000, "{compared}");
}

#[test]
fn culling_changes_nothing_on_larger_maps() {
    for seed in 0..40u64 {
        let (w, h) = (12 + (seed % 7) as i32, 10 + (seed % 5) as i32);
        let env = random_environment(seed + 90_000, w, h);
        let free = FreeSpace::from_environment(&env).unwrap();
        for kind in [GraphKind::Full, GraphKind::Reduced] {
            let culled = graph(&free, kind, Construction::Sweep);
            let plain = VisibilityGraph::from_free_space(
                free.clone(),
                GraphOptions {
                    kind,
                    construction: Construction::Sweep,
                    no_culling: true,
                },
            );
            assert_eq!(edge_set(&culled), edge_set(&plain), "seed {seed} {kind:?}");
            let pairs = graph(&free, kind, Construction::Pairs);
            assert_eq!(edge_set(&pairs), edge_set(&plain), "seed {seed} {kind:?}");
            let expansion = graph(&free, kind, Construction::Expansion);
            assert_eq!(
                edge_set(&expansion),
                edge_set(&plain),
                "seed {seed} {kind:?}"
            );
        }
        if seed < 10 {
            let naive = graph(&free, GraphKind::Reduced, Construction::Naive);
            let culled = graph(&free, GraphKind::Reduced, Construction::Sweep);
            assert_eq!(edge_set(&culled), edge_set(&naive), "seed {seed}");
        }
    }
}

#[test]
fn query_errors_are_typed() {
    let env = random_environment(3, 6, 6);
    let g = VisibilityGraph::build(&env).unwrap();
    let outside = corridor_geom::Point::new(-1.0, 2.0);
    let inside = corridor_geom::Point::new(2.0, 2.0);
    assert!(matches!(
        g.shortest_path(outside, inside),
        Err(QueryError::OutsideBoundary { .. })
    ));
    let nan = corridor_geom::Point::new(f64::NAN, 0.0);
    assert!(matches!(
        g.shortest_path(inside, nan),
        Err(QueryError::NotFinite { .. })
    ));
}

/// The pair construction's direction filter works on rounded pseudo-angles; far from the
/// origin a rounded direction is least accurate relative to short walls. The same
/// degenerate environments moved by an exact offset of about 10⁷ still give the naive
/// graph, and so does the triangular expansion.
#[test]
fn pairs_equal_naive_far_from_the_origin() {
    use corridor_geom::{Environment, Point};
    let offset = Point::new(1.0e7 + 0.5, -3.0e6 - 0.25);
    for seed in 0..200u64 {
        let (w, h) = (3 + (seed % 4) as i32, 3 + ((seed / 4) % 4) as i32);
        let env = random_environment(seed + 20_000, w, h);
        // A snap grid of quarter units reaches 10⁸ and holds every moved coordinate.
        let mut moved = Environment::new(corridor_geom::Ring::new(
            env.boundary()
                .vertices()
                .iter()
                .map(|&p| p + offset)
                .collect(),
        ))
        .with_snap_grid(corridor_geom::SnapGrid::new(4.0).unwrap());
        for (_, o) in env.obstacles() {
            moved.insert(o.translated(offset));
        }
        let free = FreeSpace::from_environment(&moved).unwrap();
        for kind in [GraphKind::Full, GraphKind::Reduced] {
            let pairs = graph(&free, kind, Construction::Pairs);
            let naive = graph(&free, kind, Construction::Naive);
            assert_eq!(edge_set(&pairs), edge_set(&naive), "seed {seed} {kind:?}");
            let expansion = graph(&free, kind, Construction::Expansion);
            assert_eq!(
                edge_set(&expansion),
                edge_set(&naive),
                "seed {seed} {kind:?}"
            );
        }
    }
}
