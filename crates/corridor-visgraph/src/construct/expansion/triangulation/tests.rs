use super::*;
use corridor_geom::{point_on_segment, Environment, Obstacle, Ring};
use corridor_testkit::random::{random_environment, BoundaryShape, RandomEnvironmentOptions};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use corridor_testkit::free_space_cases as cases;

fn cross(a: Point, b: Point, c: Point) -> f64 {
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

/// The points on the boundary of the convex hull (collinear ones included), counted
/// independently of the triangulation: the strict hull by a monotone chain, then every
/// point on one of its edges.
fn hull_boundary_points(pts: &[Point]) -> (usize, f64) {
    let mut sorted: Vec<Point> = pts.to_vec();
    sorted.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    let mut hull: Vec<Point> = Vec::new();
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Point>> = if pass == 0 {
            Box::new(sorted.iter())
        } else {
            Box::new(sorted.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && orient(hull[hull.len() - 2], hull[hull.len() - 1], p)
                    != Orientation::CounterClockwise
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    let k = hull.len();
    let on_hull = pts
        .iter()
        .filter(|&&p| (0..k).any(|i| point_on_segment(p, hull[i], hull[(i + 1) % k])))
        .count();
    let area = (0..k)
        .map(|i| cross(hull[0], hull[i], hull[(i + 1) % k]))
        .sum::<f64>()
        / 2.0;
    (on_hull, area)
}

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1e-300)
}

/// The free area by the shoelace formula over the one-sided walls (the free space is
/// on their left, so they bound it counter-clockwise).
fn wall_area(fs: &FreeSpace) -> f64 {
    fs.walls
        .iter()
        .filter(|w| !w.two_sided)
        .map(|w| {
            cross(
                fs.points[0],
                fs.points[w.a as usize],
                fs.points[w.b as usize],
            )
        })
        .sum::<f64>()
        / 2.0
}

/// The signed area of a ring, by the shoelace formula about its first vertex (about
/// the origin, far-away rings would lose digits).
fn ring_area(ring: &[Point]) -> f64 {
    let k = ring.len();
    (0..k)
        .map(|i| cross(ring[0], ring[i], ring[(i + 1) % k]))
        .sum::<f64>()
        / 2.0
}

/// The free area of the environment normalized by the geometry kernel (boundary
/// minus the union of the obstacles), computed from its own polygons.
fn normalized_free_area(env: &Environment) -> f64 {
    let walls = corridor_geom::normalize(env).unwrap();
    let mut area = 0.0;
    for shape in &walls.free_space() {
        for contour in shape {
            let ring: Vec<Point> = contour.iter().map(|&g| walls.grid.to_point(g)).collect();
            area += ring_area(&ring);
        }
    }
    area
}

/// Walls inserted across triangles, and edges of an enclosed vertex matched up, by all
/// tests so far.
pub(super) static INSERTED: AtomicUsize = AtomicUsize::new(0);
pub(super) static ENCLOSED: AtomicUsize = AtomicUsize::new(0);

/// Every property the expansion relies on, with and without the rounding flips;
/// returns the number of triangles.
fn check(fs: &FreeSpace, free_area: Option<f64>, what: &str) -> usize {
    let flipped = check_one(fs, free_area, true, what);
    assert_eq!(flipped, check_one(fs, free_area, false, what));
    flipped
}

fn check_one(fs: &FreeSpace, free_area: Option<f64>, flips: bool, what: &str) -> usize {
    let what = &format!("{what} (flips: {flips})");
    let tri = triangulate_with(fs, flips).unwrap_or_else(|e| panic!("{what}: {e}"));
    let pts = &fs.points;
    let n = pts.len();
    let count = tri.corners.len();
    assert_eq!(tri.neighbours.len(), count);
    assert_eq!(tri.wall_edges.len(), count);
    assert_eq!(tri.free.len(), count);
    assert_eq!(tri.triangle_at.len(), n);
    let (h, hull_area) = hull_boundary_points(pts);
    assert_eq!(count, 2 * n - h - 2, "{what}: Euler");
    let mut edges: HashMap<(u32, u32), (u32, usize)> = HashMap::new();
    let (mut area, mut free_tri_area, mut hull_edges) = (0.0, 0.0, 0);
    for t in 0..count {
        let c = tri.corners[t];
        let (a, b, d) = (pts[c[0] as usize], pts[c[1] as usize], pts[c[2] as usize]);
        assert_eq!(
            orient(a, b, d),
            Orientation::CounterClockwise,
            "{what}: triangle {t}"
        );
        let x = cross(a, b, d) / 2.0;
        area += x;
        if tri.free[t] {
            free_tri_area += x;
        }
        assert_eq!(tri.wall_edges[t] & !WALLS, 0);
        for i in 0..3 {
            let (u, v) = (c[(i + 1) % 3], c[(i + 2) % 3]);
            assert!(
                edges.insert((u, v), (t as u32, i)).is_none(),
                "{what}: edge twice"
            );
            let nb = tri.neighbours[t][i];
            if nb == NO_TRIANGLE {
                hull_edges += 1;
                continue;
            }
            let d = tri.corners[nb as usize];
            let k = (0..3)
                .find(|&k| tri.neighbours[nb as usize][k] == t as u32)
                .unwrap_or_else(|| panic!("{what}: neighbours not symmetric"));
            assert_eq!(
                (d[(k + 1) % 3], d[(k + 2) % 3]),
                (v, u),
                "{what}: shared edge"
            );
            assert_eq!(
                tri.wall_edges[t] >> i & 1,
                tri.wall_edges[nb as usize] >> k & 1,
                "{what}: wall bit on one side only"
            );
            if tri.wall_edges[t] >> i & 1 == 0 {
                assert_eq!(tri.free[t], tri.free[nb as usize], "{what}: free across");
            }
        }
    }
    assert_eq!(hull_edges, h, "{what}: hull edges");
    assert!(
        close(area, hull_area),
        "{what}: area {area} vs hull {hull_area}"
    );
    for (p, &t) in tri.triangle_at.iter().enumerate() {
        assert!(
            tri.corners[t as usize].contains(&(p as u32)),
            "{what}: triangle_at"
        );
    }
    let mut wall_edge_sides = 0;
    for w in &fs.walls {
        let left = edges.get(&(w.a, w.b)).copied();
        let right = edges.get(&(w.b, w.a)).copied();
        let (lt, li) = left.unwrap_or_else(|| panic!("{what}: wall's left side missing"));
        assert!(
            tri.wall_edges[lt as usize] >> li & 1 == 1,
            "{what}: left bit"
        );
        assert!(tri.free[lt as usize], "{what}: wall's left side not free");
        wall_edge_sides += 1;
        match right {
            Some((rt, ri)) => {
                assert!(
                    tri.wall_edges[rt as usize] >> ri & 1 == 1,
                    "{what}: right bit"
                );
                assert_eq!(tri.free[rt as usize], w.two_sided, "{what}: right side");
                wall_edge_sides += 1;
            }
            None => assert!(!w.two_sided, "{what}: thin wall on the hull"),
        }
    }
    let marked: u32 = tri.wall_edges.iter().map(|f| f.count_ones()).sum();
    assert_eq!(
        marked, wall_edge_sides,
        "{what}: edges marked that are no walls"
    );
    let walls_say = wall_area(fs);
    assert!(
        close(free_tri_area, walls_say),
        "{what}: free triangles {free_tri_area} vs walls {walls_say}"
    );
    if let Some(expected) = free_area {
        assert!(
            close(free_tri_area, expected),
            "{what}: free triangles {free_tri_area} vs free area {expected}"
        );
    }
    count
}

/// The free area: the boundary's minus the obstacles' when they are interior-disjoint
/// (the free space keeps their coordinates), else the normalized free polygons' (the
/// free space's walls lie on the same snap grid).
fn free_area(env: &Environment) -> f64 {
    if FreeSpace::from_disjoint(env).is_ok() {
        let obstacles: f64 = env
            .obstacles()
            .map(|(_, o)| match o {
                Obstacle::Polygon(poly) => {
                    let outer = ring_area(poly.exterior.vertices()).abs();
                    let holes: f64 = poly
                        .holes
                        .iter()
                        .map(|h| ring_area(h.vertices()).abs())
                        .sum();
                    outer - holes
                }
                _ => 0.0,
            })
            .sum();
        ring_area(env.boundary().vertices()).abs() - obstacles
    } else {
        normalized_free_area(env)
    }
}

fn check_env(env: &Environment, what: &str) -> usize {
    let fs = FreeSpace::from_environment(env).unwrap();
    check(&fs, Some(free_area(env)), what)
}

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

#[test]
fn degenerate_random_environments() {
    let mut triangles = 0;
    for seed in 0..1000u64 {
        let (w, h) = (3 + (seed % 4) as i32, 3 + ((seed / 4) % 4) as i32);
        let env = cases::random_environment(seed, w, h);
        triangles += check_env(&env, &format!("seed {seed}"));
    }
    assert!(triangles > 10_000);
    // The cavity code ran, including a vertex enclosed by one cavity (its edges met
    // from both sides; other tests running at the same time only add to the counts).
    assert!(INSERTED.load(Relaxed) > 1000);
    assert!(ENCLOSED.load(Relaxed) > 0);
    for seed in 0..200u64 {
        let env = cases::random_environment(seed + 5000, 12 + (seed % 7) as i32, 9);
        check_env(&env, &format!("large seed {seed}"));
    }
}

#[test]
fn generated_environments_with_every_obstacle_kind() {
    for seed in 0..180u64 {
        let options = match seed % 6 {
            0 => RandomEnvironmentOptions::default(),
            // Far from the origin and small, or spanning the snap grid's whole
            // range: orientation falls back to exact arithmetic more often.
            4 => RandomEnvironmentOptions {
                origin: p(3e4, -2e4),
                size: 0.5,
                ..RandomEnvironmentOptions::default()
            },
            5 => RandomEnvironmentOptions {
                origin: p(-4e4, 1e4),
                size: 4e4,
                ..RandomEnvironmentOptions::default()
            },
            1 => RandomEnvironmentOptions::grid_map(16, 40),
            2 => RandomEnvironmentOptions {
                boundary: BoundaryShape::Star,
                on_boundary: 0.3,
                ..RandomEnvironmentOptions::default()
            },
            _ => RandomEnvironmentOptions {
                obstacles: 60,
                ..RandomEnvironmentOptions::default()
            },
        };
        let env = random_environment(seed, &options);
        check_env(&env, &format!("generated seed {seed}"));
    }
}

#[test]
fn hand_made_corner_cases() {
    // A pinch: two cells touching at a corner, one touching the boundary.
    let mut env = Environment::rectangle(p(0.0, 0.0), p(3.0, 3.0));
    env.insert(Obstacle::rectangle(p(0.0, 0.0), p(1.0, 1.0)));
    env.insert(Obstacle::rectangle(p(1.0, 1.0), p(2.0, 2.0)));
    check_env(&env, "pinch");
    // Thin walls (one dangling, one a chain), a point obstacle, a concave obstacle
    // touching a convex one along part of an edge.
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 8.0));
    env.insert(Obstacle::Polyline(vec![p(1.0, 1.0), p(4.0, 1.0)]));
    env.insert(Obstacle::Polyline(vec![
        p(1.0, 7.0),
        p(2.0, 6.0),
        p(3.0, 7.0),
    ]));
    env.insert(Obstacle::Point(p(5.0, 5.0)));
    env.insert(Obstacle::polygon(vec![
        p(5.0, 2.0),
        p(9.0, 2.0),
        p(9.0, 6.0),
        p(7.0, 6.0),
        p(7.0, 4.0),
        p(5.0, 4.0),
    ]));
    env.insert(Obstacle::rectangle(p(5.0, 4.0), p(6.0, 5.0)));
    check_env(&env, "thin walls and a concave obstacle");
    // A non-convex boundary (an L) with obstacles touching it, one at its reflex
    // corner, one along an edge.
    let boundary = Ring::new(vec![
        p(0.0, 0.0),
        p(6.0, 0.0),
        p(6.0, 3.0),
        p(3.0, 3.0),
        p(3.0, 6.0),
        p(0.0, 6.0),
    ]);
    let mut env = Environment::new(boundary);
    env.insert(Obstacle::polygon(vec![
        p(3.0, 3.0),
        p(2.0, 3.0),
        p(2.0, 2.0),
    ]));
    env.insert(Obstacle::rectangle(p(4.0, 0.0), p(5.0, 1.0)));
    env.insert(Obstacle::polygon(vec![
        p(0.0, 5.0),
        p(1.0, 4.0),
        p(1.0, 6.0),
    ]));
    check_env(&env, "L boundary");
    // Cocircular and collinear points: a regular polygon and a comb of equal teeth.
    let mut env = Environment::rectangle(p(-2.0, -2.0), p(12.0, 2.0));
    let ring: Vec<Point> = (0..32)
        .map(|k| {
            let a = k as f64 * std::f64::consts::TAU / 32.0;
            p(a.cos(), a.sin())
        })
        .collect();
    env.insert(Obstacle::polygon(ring));
    for k in 0..8 {
        let x = 2.0 + k as f64;
        env.insert(Obstacle::polygon(vec![
            p(x, -1.0),
            p(x + 0.5, -1.0),
            p(x, 1.0),
        ]));
    }
    check_env(&env, "cocircular and collinear");
}

#[test]
fn shared_grid_maps() {
    let dir = cases::required_data_dir();
    let grids = ["arena.map", "den312d.map"]
        .iter()
        .map(|m| dir.join("movingai").join(m))
        .chain(cases::anyangle_maze_dirs().into_iter().step_by(10));
    for path in grids {
        let env = corridor_io::load_grid(&path).unwrap().to_environment();
        let fs = FreeSpace::from_environment(&env).unwrap();
        check(&fs, Some(free_area(&env)), &path.display().to_string());
    }
}

#[test]
fn inconsistent_free_spaces_are_errors() {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(4.0, 4.0));
    env.insert(Obstacle::rectangle(p(1.0, 1.0), p(2.0, 2.0)));
    let fs = FreeSpace::from_environment(&env).unwrap();
    assert!(triangulate(&fs).is_ok());
    // A wall reversed: its sides disagree with the others'.
    let mut reversed = fs.clone();
    let w = &mut reversed.walls[0];
    (w.a, w.b) = (w.b, w.a);
    assert_eq!(
        triangulate(&reversed).err(),
        Some(TriangulationError::Inconsistent)
    );
    // A wall crossing another one, and a wall through a point.
    let id = |q: Point| fs.vertex_at(q).unwrap() as u32;
    let mut crossing = fs.clone();
    let extra = extra_wall(&fs, id(p(1.0, 1.0)), id(p(4.0, 4.0)));
    crossing.walls.push(extra);
    assert!(matches!(
        triangulate(&crossing),
        Err(TriangulationError::WallBlocked { .. })
    ));
    let mut through = fs.clone();
    through
        .walls
        .push(extra_wall(&fs, id(p(0.0, 0.0)), id(p(2.0, 2.0))));
    assert!(matches!(
        triangulate(&through),
        Err(TriangulationError::WallBlocked { .. })
    ));
    // Out-of-range ids, repeated and infinite points, no area.
    let mut bad = fs.clone();
    bad.walls[0].b = 99;
    assert!(triangulate(&bad).is_err());
    let mut repeated = fs.clone();
    repeated.points[1] = repeated.points[0];
    assert!(triangulate(&repeated).is_err());
    let mut infinite = fs.clone();
    infinite.points[2] = p(f64::INFINITY, 0.0);
    assert!(triangulate(&infinite).is_err());
    let mut flat = fs.clone();
    for (k, q) in flat.points.iter_mut().enumerate() {
        *q = p(k as f64, 2.0 * k as f64);
    }
    assert_eq!(triangulate(&flat).err(), Some(TriangulationError::Flat));
}

/// Broken free spaces (walls removed, reversed, added between random points, points
/// moved onto others) give an error or a valid triangulation, never a panic.
#[test]
fn broken_free_spaces_never_panic() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let (mut ok, mut failed) = (0, 0);
    for seed in 0..300u64 {
        let env = cases::random_environment(seed, 4 + (seed % 3) as i32, 4);
        let mut fs = FreeSpace::from_environment(&env).unwrap();
        let (n, m) = (fs.points.len() as u32, fs.walls.len());
        for _ in 0..rng.random_range(1..4) {
            match rng.random_range(0..4) {
                0 => {
                    fs.walls.swap_remove(rng.random_range(0..fs.walls.len()));
                }
                1 => {
                    let k = rng.random_range(0..m.min(fs.walls.len()));
                    let w = &mut fs.walls[k];
                    (w.a, w.b) = (w.b, w.a);
                }
                2 => {
                    let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
                    let two_sided = rng.random_bool(0.5);
                    fs.walls.push(corridor_geom::free_space::WallRec {
                        a,
                        b,
                        two_sided,
                        ..fs.walls[0]
                    });
                }
                _ => {
                    let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
                    fs.points[a as usize] = fs.points[b as usize];
                }
            }
        }
        match triangulate(&fs) {
            Ok(tri) => {
                ok += 1;
                for (t, c) in tri.corners.iter().enumerate() {
                    let q = |i: usize| fs.points[c[i] as usize];
                    assert_eq!(orient(q(0), q(1), q(2)), Orientation::CounterClockwise);
                    for &nb in &tri.neighbours[t] {
                        assert!(
                            nb == NO_TRIANGLE || tri.neighbours[nb as usize].contains(&(t as u32))
                        );
                    }
                }
            }
            Err(_) => failed += 1,
        }
    }
    // Most corruptions are caught; some (a wall removed between two free regions)
    // leave a consistent free space.
    assert!(failed > 100 && ok > 10, "{ok} ok, {failed} errors");
}

fn extra_wall(fs: &FreeSpace, a: u32, b: u32) -> corridor_geom::free_space::WallRec {
    corridor_geom::free_space::WallRec {
        a,
        b,
        ..fs.walls[0]
    }
}
