//! Every real map, maze and mesh in `data/` loads, validates, has exactly the right
//! free area, and every scenario or problem endpoint lies in free space.
//!
//! Run with `--nocapture` to see the figures (vertex counts, load times).

use corridor_geom::{Aabb, Environment, Obstacle, Point, Polygon};
use corridor_io::{
    load_environment, load_grid, load_mesh, load_problems, load_scenarios, CellGrid, Format,
};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn data_dir() -> PathBuf {
    let dir = corridor_testkit::data_dir();
    assert!(
        dir.is_dir(),
        "the shared data folder {} is missing: these tests read the real maps from there",
        dir.display()
    );
    dir
}

fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no {suffix} files in {}", dir.display());
    out
}

/// Boundary area minus the areas of the obstacle polygons (with their holes).
fn free_area(env: &Environment) -> f64 {
    env.boundary().area()
        - env
            .obstacles()
            .map(|(_, o)| match o {
                Obstacle::Polygon(p) => p.area(),
                _ => 0.0,
            })
            .sum::<f64>()
}

/// Answers "is this point in free space" by brute force over boxes.
struct FreeSpace<'e> {
    env: &'e Environment,
    polygons: Vec<(Aabb, &'e Polygon)>,
}

impl<'e> FreeSpace<'e> {
    fn new(env: &'e Environment) -> Self {
        let polygons = env
            .obstacles()
            .filter_map(|(_, o)| match o {
                Obstacle::Polygon(p) => Some((p.aabb().unwrap(), p)),
                _ => None,
            })
            .collect();
        FreeSpace { env, polygons }
    }

    /// Inside or on the boundary, and not strictly inside any obstacle.
    fn is_free(&self, p: Point) -> bool {
        self.env.boundary().contains_or_touches(p)
            && !self
                .polygons
                .iter()
                .any(|(b, poly)| b.contains(p) && poly.contains(p))
    }
}

fn check_grid_environment(name: &str, grid: &CellGrid, env: &Environment, millis: f64) {
    env.validate()
        .unwrap_or_else(|e| panic!("{name}: invalid environment: {e}"));
    let free = free_area(env);
    assert_eq!(
        free,
        grid.free_cell_count() as f64,
        "{name}: free area differs from the number of free cells"
    );
    let blocked = grid.blocked_cell_count();
    let vertices = env.vertex_count();
    println!(
        "{name:<28} {:>4}×{:<4} blocked {blocked:>7}  polygons {:>5}  vertices {vertices:>7} ({:>5.1}% of 4×blocked)  {millis:>7.1} ms",
        grid.width(),
        grid.height(),
        env.obstacles().count(),
        100.0 * vertices as f64 / (4 * blocked).max(1) as f64,
    );
    assert!(
        vertices <= 4 * blocked,
        "{name}: {vertices} vertices for {blocked} blocked cells"
    );
}

#[test]
fn every_moving_ai_map_and_scenario() {
    let dir = data_dir().join("movingai");
    let mut checked = 0;
    for path in files(&dir, ".map") {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let t = Instant::now();
        let grid = load_grid(&path).unwrap_or_else(|e| panic!("{e}"));
        let env = grid.to_environment();
        let millis = t.elapsed().as_secs_f64() * 1e3;
        check_grid_environment(&name, &grid, &env, millis);
        // The polygons must not be one square per cell on these game maps.
        if !name.starts_with("random") {
            assert!(
                env.vertex_count() < grid.blocked_cell_count(),
                "{name}: too many vertices"
            );
        }
        assert_eq!(Format::detect(&path), Some(Format::MovingAiMap));

        let scen = dir.join(format!("{name}.scen"));
        let scenarios = load_scenarios(&scen).unwrap_or_else(|e| panic!("{e}"));
        assert!(!scenarios.is_empty());
        let free = FreeSpace::new(&env);
        for s in &scenarios {
            assert_eq!((s.map_width, s.map_height), (grid.width(), grid.height()));
            assert!(s.map.ends_with(&name), "{} is not for {name}", s.map);
            for (cell, point) in [(s.start, s.start_point()), (s.goal, s.goal_point())] {
                assert!(
                    grid.is_free(cell.0 as i64, cell.1 as i64),
                    "{name}: scenario cell {cell:?} is blocked"
                );
                assert!(free.is_free(point), "{name}: {point} is inside an obstacle");
                checked += 1;
            }
        }
    }
    println!("{checked} scenario endpoints in free cells and free space");
}

#[test]
fn every_any_angle_maze_and_problem() {
    let root = data_dir().join("anyangle");
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    assert!(folders.len() >= 80, "expected the 83 any-angle folders");
    let (mut endpoints, mut transposed_failures, mut cells, mut vertices) = (0, 0, 0, 0);
    let started = Instant::now();
    for folder in &folders {
        let name = folder.file_name().unwrap().to_string_lossy().to_string();
        let t = Instant::now();
        let grid = load_grid(folder).unwrap_or_else(|e| panic!("{e}"));
        let env = load_environment(folder).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(env, grid.to_environment());
        let millis = t.elapsed().as_secs_f64() * 1e3;
        if grid.width() * grid.height() >= 250_000 {
            check_grid_environment(&name, &grid, &env, millis);
        } else {
            env.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(free_area(&env), grid.free_cell_count() as f64, "{name}");
        }
        cells += 4 * grid.blocked_cell_count();
        vertices += env.vertex_count();
        let free = FreeSpace::new(&env);
        let problems = load_problems(folder).unwrap_or_else(|e| panic!("{e}"));
        assert!(!problems.is_empty());
        for p in &problems {
            for q in [p.start, p.goal] {
                let (x, y) = (q.x as i64, q.y as i64);
                assert_eq!(
                    (x as f64, y as f64),
                    (q.x, q.y),
                    "{name}: {q} is not a vertex"
                );
                assert!(
                    grid.vertex_touches_free_cell(x, y),
                    "{name}: vertex {q} touches no free cell"
                );
                assert!(free.is_free(q), "{name}: {q} is inside an obstacle");
                // The other orientation (row = x) would put endpoints in walls.
                let transposed = [(y - 1, x - 1), (y, x - 1), (y - 1, x), (y, x)]
                    .iter()
                    .any(|&(cx, cy)| grid.is_free(cx, cy));
                transposed_failures += usize::from(!transposed);
                endpoints += 1;
            }
        }
    }
    println!(
        "{} mazes, {endpoints} endpoints touch free cells; the transposed reading fails for {transposed_failures}; \
         vertices {vertices} vs 4×blocked {cells}; {:.0} ms",
        folders.len(),
        started.elapsed().as_secs_f64() * 1e3
    );
    assert!(transposed_failures > 0);
}

#[test]
fn every_polyanya_mesh_and_problem() {
    let dir = data_dir().join("polyanya");
    let mut aurora = None;
    for path in files(&dir, ".mesh") {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let t = Instant::now();
        let mesh = load_mesh(&path).unwrap_or_else(|e| panic!("{e}"));
        let env = mesh
            .to_environment()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let millis = t.elapsed().as_secs_f64() * 1e3;
        env.validate().unwrap();
        let (free, area) = (free_area(&env), mesh.area());
        assert!(
            (free - area).abs() <= 1e-9 * area,
            "{name}: free area {free} but the polygons add up to {area}"
        );
        // The meshes were made from the grids beside them.
        let map = dir.join(format!("{}.map", name.split(['-', '.']).next().unwrap()));
        let grid = load_grid(&map).unwrap();
        assert_eq!(area, grid.free_cell_count() as f64, "{name}");
        // Several walkable regions side by side: obstacle 0 is the frame around them.
        let regions = match env.obstacles().next() {
            Some((_, Obstacle::Polygon(p))) if &p.exterior == env.boundary() => p.holes.len(),
            _ => 1,
        };
        println!(
            "{name:<22} vertices {:>6} polygons {:>6} -> {regions} walkable regions, obstacles {:>5} with {:>6} vertices, free area {free}  {millis:.1} ms",
            mesh.vertices().len(),
            mesh.polygons().len(),
            env.obstacles().count(),
            env.vertex_count()
        );
        if name.starts_with("aurora") {
            aurora.get_or_insert_with(Vec::new).push((name, env));
        }
    }
    let problems = load_problems(dir.join("aurora-euclidean.csv")).unwrap();
    assert_eq!(problems.len(), 2990);
    for (name, env) in aurora.expect("aurora meshes") {
        let free = FreeSpace::new(&env);
        for p in &problems {
            assert!(free.is_free(p.start), "{name}: {} blocked", p.start);
            assert!(free.is_free(p.goal), "{name}: {} blocked", p.goal);
        }
    }
}
