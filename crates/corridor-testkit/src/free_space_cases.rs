//! Which inputs break a free space? The cases the visibility-graph and trapezoidal-map
//! tests share: seeded random environments rich in degenerate configurations — integer
//! coordinates on a small grid (so many vertices are collinear and rays pass through
//! vertices), cells blocked whole or cut along a diagonal (obstacles touching along edges
//! and at corners, diagonal pinch points, T-junctions), and thin walls along grid lines
//! and diagonals — random query points on that grid, and the any-angle mazes of the data
//! folder.

use corridor_geom::FreeSpace;
use corridor_geom::{Environment, Obstacle, Point};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;

/// The data folder ([`crate::data_dir`]), which these tests cannot do without.
pub fn required_data_dir() -> PathBuf {
    let dir = crate::data_dir();
    assert!(
        dir.is_dir(),
        "the shared data folder {} is missing: these tests run its published problems",
        dir.display()
    );
    dir
}

/// The 83 any-angle maze folders, sorted.
pub fn anyangle_maze_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(required_data_dir().join("anyangle"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert_eq!(dirs.len(), 83);
    dirs
}

/// A random environment on a `w × h` grid.
pub fn random_environment(seed: u64, w: i32, h: i32) -> Environment {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let p = |x: i32, y: i32| Point::new(x as f64, y as f64);
    let mut env = Environment::rectangle(p(0, 0), p(w, h));
    let density = rng.random_range(0.1..0.45);
    for y in 0..h {
        for x in 0..w {
            if !rng.random_bool(density) {
                continue;
            }
            let (a, b, c, d) = (p(x, y), p(x + 1, y), p(x + 1, y + 1), p(x, y + 1));
            let shape = match rng.random_range(0..6) {
                0 | 1 => vec![a, b, c, d],
                2 => vec![a, b, c],
                3 => vec![a, c, d],
                4 => vec![a, b, d],
                _ => vec![b, c, d],
            };
            env.insert(Obstacle::polygon(shape));
        }
    }
    // A few larger polygons with vertices on the grid (possibly long diagonal edges),
    // kept only if the obstacles stay interior-disjoint.
    for _ in 0..rng.random_range(0..3) {
        let x = rng.random_range(0..w);
        let y = rng.random_range(0..h);
        let dx = rng.random_range(1..=3.min(w - x).max(1));
        let dy = rng.random_range(1..=3.min(h - y).max(1));
        if x + dx > w || y + dy > h {
            continue;
        }
        let shape = match rng.random_range(0..3) {
            0 => vec![p(x, y), p(x + dx, y), p(x, y + dy)],
            1 => vec![p(x, y), p(x + dx, y + dy), p(x, y + dy)],
            _ => vec![p(x, y), p(x + dx, y), p(x + dx, y + dy)],
        };
        let id = env.insert(Obstacle::polygon(shape));
        if FreeSpace::from_disjoint(&env).is_err() {
            env.remove(id);
        }
    }
    for _ in 0..rng.random_range(0..5) {
        let (x0, y0) = (rng.random_range(0..=w), rng.random_range(0..=h));
        let (dx, dy) = match rng.random_range(0..4) {
            0 => (rng.random_range(1..4), 0),
            1 => (0, rng.random_range(1..4)),
            2 => (1, 1),
            _ => (2, -1),
        };
        let (x1, y1) = (x0 + dx, y0 + dy);
        if x1 > w || y1 > h || y1 < 0 {
            continue;
        }
        let mut line = vec![p(x0, y0), p(x1, y1)];
        if rng.random_bool(0.3) && x1 < w {
            line.push(p(x1 + 1, y1));
        }
        let id = env.insert(Obstacle::Polyline(line));
        if FreeSpace::from_disjoint(&env).is_err() {
            env.remove(id);
        }
    }
    env
}

/// Random query points: grid vertices, half-integer points and generic points.
pub fn random_points(seed: u64, w: i32, h: i32, n: usize) -> Vec<Point> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9);
    (0..n)
        .map(|_| match rng.random_range(0..3) {
            0 => Point::new(
                rng.random_range(0..=w) as f64,
                rng.random_range(0..=h) as f64,
            ),
            1 => Point::new(
                rng.random_range(0..=2 * w) as f64 / 2.0,
                rng.random_range(0..=2 * h) as f64 / 2.0,
            ),
            _ => Point::new(
                rng.random_range(0.0..w as f64),
                rng.random_range(0.0..h as f64),
            ),
        })
        .collect()
}
