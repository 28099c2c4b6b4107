//! Shortest paths on the shared data sets equal the published optima: every any-angle
//! maze problem and every Polyanya `aurora` problem.
//!
//! The published lengths are rounded decimals (`aurora-euclidean.csv` keeps six
//! significant digits, e.g. `4.12311` for √17 = 4.1231056…), so a length matches when it
//! is within 1e-6 relative of the stated value *or* within half a unit of the stated
//! value's last printed digit.

use corridor_geom::Point;
use corridor_io::{load_environment, load_grid, load_problems, Problem};
use corridor_testkit::free_space_cases::{anyangle_maze_dirs, required_data_dir as data_dir};
use corridor_visgraph::{Construction, FreeSpace, GraphOptions, VisibilityGraph};
use std::path::Path;
use std::time::Instant;

/// The number of digits after the decimal point of each problem's length, as printed.
fn printed_digits(csv: &Path) -> Vec<i32> {
    let text = std::fs::read_to_string(csv).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("start_x"))
        .map(|l| {
            let last = l.rsplit(',').next().unwrap().trim();
            last.split('.').nth(1).map_or(0, |d| d.len() as i32)
        })
        .collect()
}

fn matches(found: f64, stated: f64, digits: i32) -> bool {
    let tolerance = (1e-6 * stated).max(0.5 * 10f64.powi(-digits) + 1e-12);
    (found - stated).abs() <= tolerance
}

struct Tally {
    solved: usize,
    total: usize,
    strict: usize,
    failures: Vec<String>,
}

fn check(graph: &VisibilityGraph, problems: &[Problem], digits: &[i32], tally: &mut Tally) {
    assert_eq!(problems.len(), digits.len());
    for (p, &d) in problems.iter().zip(digits) {
        tally.total += 1;
        match graph.shortest_path(p.start, p.goal) {
            Ok(path) if matches(path.length, p.length, d) => {
                tally.solved += 1;
                if (path.length - p.length).abs() <= 1e-6 * p.length {
                    tally.strict += 1;
                }
            }
            other => tally.failures.push(format!(
                "{} -> {}: stated {}, found {:?}",
                p.start,
                p.goal,
                p.length,
                other.map(|path| path.length)
            )),
        }
    }
}

#[test]
fn anyangle_mazes_all_4102_problems() {
    anyangle_mazes_all_4102_problems_by(Construction::Auto);
}

fn build_by(env: &corridor_geom::Environment, construction: Construction) -> VisibilityGraph {
    VisibilityGraph::with_options(
        env,
        GraphOptions {
            construction,
            ..GraphOptions::default()
        },
    )
    .unwrap()
}

fn anyangle_mazes_all_4102_problems_by(construction: Construction) {
    let dirs = anyangle_maze_dirs();
    let mut tally = Tally {
        solved: 0,
        total: 0,
        strict: 0,
        failures: Vec::new(),
    };
    let (mut build, mut query) = (0.0, 0.0);
    for dir in &dirs {
        let env = load_grid(dir).unwrap().to_environment();
        let problems = load_problems(dir).unwrap();
        let digits = printed_digits(&dir.join("problems.csv"));
        let t = Instant::now();
        let graph = build_by(&env, construction);
        build += t.elapsed().as_secs_f64();
        let t = Instant::now();
        check(&graph, &problems, &digits, &mut tally);
        query += t.elapsed().as_secs_f64();
    }
    eprintln!(
        "anyangle ({construction:?}): {}/{} match ({} within 1e-6 relative); build {build:.1} s, queries {query:.1} s",
        tally.solved, tally.total, tally.strict
    );
    assert_eq!(tally.total, 4102);
    assert!(tally.failures.is_empty(), "{:#?}", tally.failures);
}

#[test]
fn aurora_all_2990_problems() {
    aurora_all_2990_problems_by(Construction::Auto);
}

/// The default is the expansion; the rotational sweep is checked on the same problems.
#[test]
fn aurora_all_2990_problems_by_sweep() {
    aurora_all_2990_problems_by(Construction::Sweep);
}

fn aurora_all_2990_problems_by(construction: Construction) {
    let dir = data_dir().join("polyanya");
    let env = load_environment(dir.join("aurora.mesh")).unwrap();
    let problems = load_problems(dir.join("aurora-euclidean.csv")).unwrap();
    let digits = printed_digits(&dir.join("aurora-euclidean.csv"));
    let t = Instant::now();
    let graph = build_by(&env, construction);
    let build = t.elapsed().as_secs_f64();
    let mut tally = Tally {
        solved: 0,
        total: 0,
        strict: 0,
        failures: Vec::new(),
    };
    let t = Instant::now();
    check(&graph, &problems, &digits, &mut tally);
    eprintln!(
        "aurora ({construction:?}): {} nodes, {} edges; {}/{} match ({} within 1e-6 relative); build {build:.1} s, queries {:.1} s",
        graph.node_count(),
        graph.edge_count(),
        tally.solved,
        tally.total,
        tally.strict,
        t.elapsed().as_secs_f64()
    );
    assert_eq!(tally.total, 2990);
    assert!(tally.failures.is_empty(), "{:#?}", tally.failures);
}

/// Slow (minutes): the culled sweep and the pair-by-pair construction equal the sweep over
/// every wall on the shared mazes of up to 3 000 walls.
#[test]
#[ignore]
fn culling_changes_nothing_on_shared_mazes() {
    let root = data_dir().join("anyangle");
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        let env = load_grid(&dir).unwrap().to_environment();
        let free = FreeSpace::from_environment(&env).unwrap();
        if free.wall_count() > 3000 {
            continue;
        }
        let culled = VisibilityGraph::from_free_space(
            free.clone(),
            GraphOptions {
                construction: Construction::Sweep,
                ..GraphOptions::default()
            },
        );
        let pairs = VisibilityGraph::from_free_space(
            free.clone(),
            GraphOptions {
                construction: Construction::Pairs,
                ..GraphOptions::default()
            },
        );
        let plain = VisibilityGraph::from_free_space(
            free,
            GraphOptions {
                no_culling: true,
                ..GraphOptions::default()
            },
        );
        assert!(culled.edges().eq(plain.edges()), "{}", dir.display());
        assert!(pairs.edges().eq(plain.edges()), "{}", dir.display());
    }
}

#[test]
fn grid_corner_rules() {
    // A pinch between two blocked cells: (0,0)-(1,1) free cells around (1,1) diagonal.
    let grid = corridor_io::read_maze("3 3\n0 1 0\n1 0 0\n0 0 0\n").unwrap();
    let env = grid.to_environment();
    let graph = VisibilityGraph::build(&env).unwrap();
    // Cell (0,0) is closed off by the pinch at (1,1): its corner (0,0) cannot reach (3,3).
    assert!(graph
        .shortest_path(Point::new(0.0, 0.0), Point::new(3.0, 3.0))
        .is_err());
    // The pinch point itself may be reached from outside.
    let path = graph
        .shortest_path(Point::new(1.0, 1.0), Point::new(3.0, 3.0))
        .unwrap();
    assert!((path.length - 8f64.sqrt()).abs() < 1e-12);
    // Running along a wall and through a corner where blocked cells meet a free cell.
    let path = graph
        .shortest_path(Point::new(2.0, 0.0), Point::new(2.0, 1.0))
        .unwrap();
    assert_eq!(path.length, 1.0);
}
