//! The compact Voronoi output that extraction reads (`boostvoronoi::output::EdgeList`,
//! filled by the same sweep as the library's `Diagram`) against the finished `Diagram` of
//! the same input, read into the same form: the same edges in the same order (sites, primary
//! flag, start vertex of each half), the same vertices and vertex ids after the removal of
//! degenerate edges, or the same error. Extraction reads nothing else, so it gets the same
//! medial axis from both. Inputs: random small segment sets (as `stress.rs`), random
//! environments (a third on a lattice), cocircular point grids and grid maps (these give
//! degenerate edges, which are counted), the hard inputs of the shared data and of the
//! library, and two shared maps.
mod common;
use common::*;
use corridor_geom::{normalize, Walls};
use corridor_testkit::random::{random_environment, RandomEnvironmentOptions};
use corridor_voronoi::prelude::{Builder, EdgeList};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Both outputs of one input; the number of degenerate edges removed (0 on an error).
fn compare(points: &[[i64; 2]], segments: &[[i64; 4]], what: &str) -> usize {
    let builder = || {
        Builder::<i64>::default()
            .with_vertices(points.iter())
            .and_then(|b| b.with_segments(segments.iter()))
    };
    let full = builder().and_then(|b| b.build());
    let compact = builder().and_then(|b| b.build_output::<EdgeList>());
    match (full, compact) {
        (Ok(full), Ok(compact)) => {
            let expected = EdgeList::from_diagram(&full);
            // What extraction reads: each half's start after the merges, by the sweep's
            // numbering; renumbered as the diagram's compaction, the same vertices.
            let starts = |l: &EdgeList| -> Vec<[Option<usize>; 2]> {
                l.pairs()
                    .iter()
                    .map(|p| [l.start(p, 0), l.start(p, 1)])
                    .collect()
            };
            let sweep_order = starts(&compact);
            let compact = compact.compacted();
            assert_eq!(expected.pairs(), compact.pairs(), "{what}: edges");
            // The renumbering keeps the order of the vertices it keeps.
            let mut renumbered = std::collections::BTreeMap::new();
            for (a, b) in sweep_order.iter().zip(starts(&compact)) {
                for half in 0..2 {
                    if let (Some(a), Some(b)) = (a[half], b[half]) {
                        assert_eq!(*renumbered.entry(a).or_insert(b), b, "{what}: merges");
                    }
                }
            }
            let order: Vec<usize> = renumbered.values().copied().collect();
            assert!(
                order.windows(2).all(|w| w[0] < w[1]),
                "{what}: vertex order"
            );
            let bits = |l: &EdgeList| -> Vec<[u64; 2]> {
                l.vertices()
                    .iter()
                    .map(|v| [v[0].to_bits(), v[1].to_bits()])
                    .collect()
            };
            assert_eq!(bits(&expected), bits(&compact), "{what}: vertices");
            // Every vertex starts an edge (the compaction's rule), ids are in range.
            let mut used = vec![false; compact.vertices().len()];
            for p in compact.pairs() {
                for half in 0..2 {
                    if let Some(v) = p.vertex0(half) {
                        used[v] = true;
                    }
                }
            }
            assert!(used.iter().all(|&u| u), "{what}: a vertex without edges");
            compact.removed_degenerate()
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string(), "{what}: errors");
            0
        }
        (a, b) => panic!(
            "{what}: one output failed: {:?} / {:?}",
            a.err().map(|e| e.to_string()),
            b.err().map(|e| e.to_string())
        ),
    }
}

fn compare_walls(walls: &Walls, what: &str) -> usize {
    let sites = walls.integer_sites();
    compare(&sites.points, &sites.segments, what)
}

#[test]
fn random_small_inputs() {
    let mut degenerate = 0;
    for i in 0..20_000u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(i);
        let count = rng.random_range(3..=8);
        let range = [1_000, 1_000_000, 200_000_000][(i % 3) as usize];
        let segs = random_segments(&mut rng, count, range);
        let walls = walls_in_box_with_margin(&[], &segs, 0.2);
        degenerate += compare_walls(&walls, &format!("small input {i}"));
        // The bare segments, without the box (infinite edges, no walls around).
        let sites = walls.integer_sites();
        let inner = &sites.segments[..sites.segments.len().saturating_sub(4)];
        degenerate += compare(&[], inner, &format!("small input {i} without box"));
    }
    eprintln!("random small inputs: {degenerate} degenerate edges removed");
}

#[test]
fn random_environments() {
    let (mut degenerate, mut compared) = (0, 0);
    for seed in 0..600u64 {
        let options = RandomEnvironmentOptions {
            obstacles: 5 + (seed % 60) as usize,
            lattice: (seed % 3 == 0).then_some(0.5 + (seed % 7) as f64),
            ..RandomEnvironmentOptions::default()
        };
        let env = random_environment(seed, &options);
        let Ok(walls) = normalize(&env) else {
            continue;
        };
        degenerate += compare_walls(&walls, &format!("environment {seed}"));
        compared += 1;
    }
    assert!(compared >= 500, "{compared}");
    eprintln!("random environments: {compared} compared, {degenerate} degenerate edges removed");
}

#[test]
fn cocircular_inputs_have_degenerate_edges() {
    let mut degenerate = 0;
    // Point lattices: every unit square's four corners are cocircular.
    for k in 2..=24i64 {
        let points: Vec<[i64; 2]> = (0..k * k).map(|i| [(i % k) * 10, (i / k) * 10]).collect();
        degenerate += compare(&points, &[], &format!("point lattice {k}"));
    }
    // Grid maps of unit cells (random blocked cells, several scales).
    for seed in 0..60u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(1000 + seed);
        let (w, h) = (rng.random_range(3..30), rng.random_range(3..30));
        let density = rng.random_range(0.05..0.5);
        let blocked: Vec<bool> = (0..w * h).map(|_| rng.random_bool(density)).collect();
        let scale = [1, 2, 7, 1000][(seed % 4) as usize];
        let walls = grid_walls(w, h, &|x, y| blocked[y * w + x], scale);
        degenerate += compare_walls(&walls, &format!("grid map {seed}"));
    }
    eprintln!("cocircular inputs: {degenerate} degenerate edges removed");
    assert!(
        degenerate > 100,
        "only {degenerate} degenerate edges: the test misses the case"
    );
}

#[test]
fn hard_inputs_and_maps() {
    let mut files: Vec<_> = [
        shared_data().join("voronoi-hard"),
        boostvoronoi_dir().join("example/input_data/active_problems"),
    ]
    .iter()
    .flat_map(|d| std::fs::read_dir(d).unwrap_or_else(|e| panic!("{}: {e}", d.display())))
    .map(|e| e.unwrap().path())
    .filter(|p| p.extension().is_some_and(|e| e == "txt"))
    .collect();
    files.sort();
    assert!(files.len() >= 9, "{files:?}");
    let mut degenerate = 0;
    for f in &files {
        let (points, segs) = read_boost_input(f);
        degenerate += compare(&points, &segs, &f.display().to_string());
        degenerate += compare_walls(
            &walls_in_box(&points, &segs),
            &format!("{} in a box", f.display()),
        );
    }
    for map in ["arena.map", "den312d.map"] {
        let path = shared_data().join("movingai").join(map);
        let env = corridor_io::load_environment(&path).unwrap();
        let walls = normalize(&env).unwrap();
        degenerate += compare_walls(&walls, map);
    }
    eprintln!("hard inputs and maps: {degenerate} degenerate edges removed");
}
