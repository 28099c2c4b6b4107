//! Shared helpers of the integration tests: walls from grids, maps, boost input files and
//! random generators, and an independent brute-force checker.
#![allow(dead_code)]

use corridor_ecm::{Ecm, Side};
use corridor_geom::{
    segments_intersect_grid, GridPoint, ObstacleId, Point, SnapGrid, WallSegment, WallSource, Walls,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};

/// The project's shared data directory (`data/` from the workspace root).
pub fn shared_data() -> PathBuf {
    corridor_testkit::data_dir()
}

/// The workspace's fork of `boostvoronoi` 0.12.1 (`vendor/boostvoronoi`, the crate
/// `corridor-voronoi`), which keeps the crate's `example/input_data/active_problems`.
pub fn boostvoronoi_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vendor/boostvoronoi")
}

/// Walls of a grid of `width × height` unit cells (cell (x, y) covers
/// [x, x+1] × [y, y+1]); cells outside the grid are blocked. Coordinates are multiplied
/// by `scale` (grid steps per cell). Collinear unit edges are merged where no other wall
/// meets them.
pub fn grid_walls(
    width: usize,
    height: usize,
    blocked: &dyn Fn(usize, usize) -> bool,
    scale: i32,
) -> Walls {
    let free = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && (x as usize) < width
            && (y as usize) < height
            && !blocked(x as usize, y as usize)
    };
    let source = |x: i64, y: i64| {
        if x >= 0 && y >= 0 && (x as usize) < width && (y as usize) < height {
            WallSource::Obstacle(ObstacleId((y as usize * width + x as usize) as u32))
        } else {
            WallSource::Boundary
        }
    };
    let (w, h) = (width as i64, height as i64);
    // Horizontal unit edge at line y between x and x+1: +1 (free above, runs +x),
    // -1 (free below, runs -x), 0 none.
    let hdir = |x: i64, y: i64| -> i8 {
        match (free(x, y - 1), free(x, y)) {
            (true, false) => -1,
            (false, true) => 1,
            _ => 0,
        }
    };
    // Vertical unit edge at line x between y and y+1: +1 (free on the left, runs +y).
    let vdir = |x: i64, y: i64| -> i8 {
        match (free(x - 1, y), free(x, y)) {
            (true, false) => 1,
            (false, true) => -1,
            _ => 0,
        }
    };
    let g = |x: i64, y: i64| GridPoint::new((x * scale as i64) as i32, (y * scale as i64) as i32);
    let mut segments = Vec::new();
    for y in 0..=h {
        let mut x = 0;
        while x < w {
            let d = hdir(x, y);
            if d == 0 {
                x += 1;
                continue;
            }
            let start = x;
            while x + 1 < w && hdir(x + 1, y) == d && vdir(x + 1, y - 1) == 0 && vdir(x + 1, y) == 0
            {
                x += 1;
            }
            let end = x + 1;
            let src = if d > 0 {
                source(start, y - 1)
            } else {
                source(start, y)
            };
            let (a, b) = if d > 0 {
                (g(start, y), g(end, y))
            } else {
                (g(end, y), g(start, y))
            };
            segments.push(WallSegment {
                a,
                b,
                two_sided: false,
                sources: vec![src].into(),
            });
            x += 1;
        }
    }
    for x in 0..=w {
        let mut y = 0;
        while y < h {
            let d = vdir(x, y);
            if d == 0 {
                y += 1;
                continue;
            }
            let start = y;
            while y + 1 < h && vdir(x, y + 1) == d && hdir(x - 1, y + 1) == 0 && hdir(x, y + 1) == 0
            {
                y += 1;
            }
            let end = y + 1;
            let src = if d > 0 {
                source(x, start)
            } else {
                source(x - 1, start)
            };
            let (a, b) = if d > 0 {
                (g(x, start), g(x, end))
            } else {
                (g(x, end), g(x, start))
            };
            segments.push(WallSegment {
                a,
                b,
                two_sided: false,
                sources: vec![src].into(),
            });
            y += 1;
        }
    }
    Walls {
        grid: SnapGrid::new(scale as f64).unwrap(),
        segments,
        ..Walls::default()
    }
}

/// A Moving AI `.map` file as a grid (`true` = blocked), row `y` of the file is cell row `y`.
pub fn read_movingai(path: &Path) -> (usize, usize, Vec<bool>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let (mut w, mut h) = (0, 0);
    for line in lines.by_ref() {
        let mut parts = line.split_whitespace();
        match parts.next() {
            Some("height") => h = parts.next().unwrap().parse().unwrap(),
            Some("width") => w = parts.next().unwrap().parse().unwrap(),
            Some("map") => break,
            _ => {}
        }
    }
    let mut cells = Vec::with_capacity(w * h);
    for line in lines.take(h) {
        let row: Vec<char> = line.chars().collect();
        for x in 0..w {
            let c = row.get(x).copied().unwrap_or('@');
            cells.push(!matches!(c, '.' | 'G' | 'S'));
        }
    }
    assert_eq!(cells.len(), w * h, "{}", path.display());
    (w, h, cells)
}

/// Free-space components of a grid (4-connected; diagonal pinches do not connect).
pub fn grid_components(w: usize, h: usize, blocked: &[bool]) -> (usize, Vec<u32>) {
    let mut label = vec![u32::MAX; w * h];
    let mut count = 0u32;
    let mut stack = Vec::new();
    for start in 0..w * h {
        if blocked[start] || label[start] != u32::MAX {
            continue;
        }
        label[start] = count;
        stack.push(start);
        while let Some(c) = stack.pop() {
            let (x, y) = (c % w, c / w);
            let mut nb = Vec::with_capacity(4);
            if x > 0 {
                nb.push(c - 1);
            }
            if x + 1 < w {
                nb.push(c + 1);
            }
            if y > 0 {
                nb.push(c - w);
            }
            if y + 1 < h {
                nb.push(c + w);
            }
            for n in nb {
                if !blocked[n] && label[n] == u32::MAX {
                    label[n] = count;
                    stack.push(n);
                }
            }
        }
        count += 1;
    }
    (count as usize, label)
}

/// Reads a boostvoronoi input file (points, then segments).
pub fn read_boost_input(path: &Path) -> (Vec<[i64; 2]>, Vec<[i64; 4]>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut nums = text.split_whitespace().map(|t| t.parse::<i64>().unwrap());
    let np = nums.next().unwrap() as usize;
    let points = (0..np)
        .map(|_| [nums.next().unwrap(), nums.next().unwrap()])
        .collect();
    let ns = nums.next().unwrap_or(0) as usize;
    let segs = (0..ns)
        .map(|_| {
            [
                nums.next().unwrap(),
                nums.next().unwrap(),
                nums.next().unwrap(),
                nums.next().unwrap(),
            ]
        })
        .collect();
    (points, segs)
}

/// The box boundary (counter-clockwise) around `[lo, hi]`.
pub fn box_walls(lo: (i32, i32), hi: (i32, i32)) -> Vec<WallSegment> {
    let c = [(lo.0, lo.1), (hi.0, lo.1), (hi.0, hi.1), (lo.0, hi.1)];
    (0..4)
        .map(|i| WallSegment {
            a: GridPoint::new(c[i].0, c[i].1),
            b: GridPoint::new(c[(i + 1) % 4].0, c[(i + 1) % 4].1),
            two_sided: false,
            sources: vec![WallSource::Boundary].into(),
        })
        .collect()
}

/// Isolated points and two-sided segments (obstacle `i` is the i-th item) inside a box
/// boundary with a margin of half their extent.
pub fn walls_in_box(points: &[[i64; 2]], segs: &[[i64; 4]]) -> Walls {
    walls_in_box_with_margin(points, segs, 0.5)
}

/// [`walls_in_box`] with a margin of `margin` times the extent (at least 10).
pub fn walls_in_box_with_margin(points: &[[i64; 2]], segs: &[[i64; 4]], margin: f64) -> Walls {
    let xs = points
        .iter()
        .flat_map(|p| [p[0]])
        .chain(segs.iter().flat_map(|s| [s[0], s[2]]));
    let ys = points
        .iter()
        .flat_map(|p| [p[1]])
        .chain(segs.iter().flat_map(|s| [s[1], s[3]]));
    let (x0, x1) = xs.fold((i64::MAX, i64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    let (y0, y1) = ys.fold((i64::MAX, i64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    let margin = (((x1 - x0).max(y1 - y0) as f64 * margin) as i64).max(10);
    let mut segments = box_walls(
        ((x0 - margin) as i32, (y0 - margin) as i32),
        ((x1 + margin) as i32, (y1 + margin) as i32),
    );
    let mut id = 0u32;
    let mut next = || {
        id += 1;
        vec![WallSource::Obstacle(ObstacleId(id - 1))]
    };
    let pts = points
        .iter()
        .map(|p| (GridPoint::new(p[0] as i32, p[1] as i32), next()))
        .collect();
    for s in segs {
        segments.push(WallSegment {
            a: GridPoint::new(s[0] as i32, s[1] as i32),
            b: GridPoint::new(s[2] as i32, s[3] as i32),
            two_sided: true,
            sources: next().into(),
        });
    }
    Walls {
        grid: SnapGrid::new(1.0).unwrap(),
        segments,
        points: pts,
    }
}

/// `count` random two-sided segments with coordinates in `±range` that do not touch.
pub fn random_segments(rng: &mut impl Rng, count: usize, range: i64) -> Vec<[i64; 4]> {
    let mut out: Vec<[i64; 4]> = Vec::with_capacity(count);
    let g = |x: i64, y: i64| GridPoint::new(x as i32, y as i32);
    while out.len() < count {
        let s = [
            rng.random_range(-range..range),
            rng.random_range(-range..range),
            rng.random_range(-range..range),
            rng.random_range(-range..range),
        ];
        if s[0] == s[2] && s[1] == s[3] {
            continue;
        }
        let clash = out.iter().any(|t| {
            segments_intersect_grid(g(s[0], s[1]), g(s[2], s[3]), g(t[0], t[1]), g(t[2], t[3]))
        });
        if !clash {
            out.push(s);
        }
    }
    out
}

/// A random environment of disjoint obstacles in a box: convex polygons (clockwise),
/// two-sided segments and isolated points, each in its own slot of a `cols × rows`
/// layout with random sizes; coordinates are multiplied by `unit`.
pub fn random_obstacles(seed: u64, unit: i64) -> Walls {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let cols = rng.random_range(1..5i64);
    let rows = rng.random_range(1..5i64);
    let slot = 100i64;
    let mut segments = box_walls(
        (0, 0),
        ((cols * slot * unit) as i32, (rows * slot * unit) as i32),
    );
    let mut points = Vec::new();
    let mut id = 0u32;
    for cx in 0..cols {
        for cy in 0..rows {
            let kind = rng.random_range(0..5);
            let src = vec![WallSource::Obstacle(ObstacleId(id))];
            id += 1;
            let (ox, oy) = (cx * slot + 10, cy * slot + 10);
            let rnd = |rng: &mut ChaCha8Rng| {
                (
                    (ox + rng.random_range(0..80)) * unit + rng.random_range(0..unit.max(1)),
                    (oy + rng.random_range(0..80)) * unit + rng.random_range(0..unit.max(1)),
                )
            };
            let g = |p: (i64, i64)| GridPoint::new(p.0 as i32, p.1 as i32);
            match kind {
                0 => continue, // empty slot
                1 => points.push((g(rnd(&mut rng)), src)),
                2 => {
                    let (a, b) = (rnd(&mut rng), rnd(&mut rng));
                    if a != b {
                        segments.push(WallSegment {
                            a: g(a),
                            b: g(b),
                            two_sided: true,
                            sources: src.into(),
                        });
                    }
                }
                _ => {
                    let n = rng.random_range(3..9);
                    let pts: Vec<(i64, i64)> = (0..n).map(|_| rnd(&mut rng)).collect();
                    let hull = convex_hull(pts);
                    if hull.len() < 3 {
                        continue;
                    }
                    // Clockwise: free space (outside) on the left.
                    let k = hull.len();
                    for i in 0..k {
                        let (a, b) = (hull[(k - i) % k], hull[(k - i - 1) % k]);
                        segments.push(WallSegment {
                            a: g(a),
                            b: g(b),
                            two_sided: false,
                            sources: src.clone().into(),
                        });
                    }
                }
            }
        }
    }
    Walls {
        grid: SnapGrid::new(unit as f64).unwrap(),
        segments,
        points,
    }
}

/// Counter-clockwise convex hull without collinear points.
pub fn convex_hull(mut pts: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    pts.sort();
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let cross = |o: (i64, i64), a: (i64, i64), b: (i64, i64)| {
        (a.0 - o.0) as i128 * (b.1 - o.1) as i128 - (a.1 - o.1) as i128 * (b.0 - o.0) as i128
    };
    let mut hull: Vec<(i64, i64)> = Vec::new();
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &(i64, i64)>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// Distance from `q` to the segment `a b`.
fn seg_dist(a: Point, b: Point, q: Point) -> f64 {
    let d = b - a;
    let t = if d.length_squared() == 0.0 {
        0.0
    } else {
        ((q - a).dot(d) / d.length_squared()).clamp(0.0, 1.0)
    };
    (a + d * t).distance(q)
}

/// Independent check of a built ECM against its walls (not using the crate's validator):
/// every bending point is equidistant from its nearest points and no wall is closer
/// than its clearance (brute force over all walls, or over an R-tree when there are more
/// than `brute_limit` walls), the nearest points lie on walls, the cells add up to
/// `free_area`, and degrees are 1 or ≥ 3. Returns the largest equidistance error (grid
/// steps).
pub fn check_ecm(ecm: &Ecm, walls: &Walls, free_area: f64) -> f64 {
    let scale = walls.grid.scale();
    let wall_list: Vec<(Point, Point)> = walls
        .segments
        .iter()
        .map(|s| (gp(s.a), gp(s.b)))
        .chain(walls.points.iter().map(|(p, _)| (gp(*p), gp(*p))))
        .collect();
    let tree = rstar::RTree::bulk_load(
        wall_list
            .iter()
            .map(|(a, b)| rstar::primitives::Line::new([a.x, a.y], [b.x, b.y]))
            .collect::<Vec<_>>(),
    );
    let nearest = |q: Point| -> f64 {
        if wall_list.len() <= 64 {
            wall_list
                .iter()
                .map(|(a, b)| seg_dist(*a, *b, q))
                .fold(f64::INFINITY, f64::min)
        } else {
            // Not `nearest_neighbor`: its min-max-distance pruning is wrong for lines
            // (a slanted line does not touch every face of its envelope).
            let (l, _) = tree
                .nearest_neighbor_iter_with_distance_2([q.x, q.y])
                .next()
                .unwrap();
            seg_dist(Point::from(l.from), Point::from(l.to), q)
        }
    };
    let extent = wall_list
        .iter()
        .flat_map(|(a, b)| [a.abs().max_element(), b.abs().max_element()])
        .fold(0.0, f64::max);
    let tol = 1e-3 + 1e-10 * extent;
    let mut worst: f64 = 0.0;
    let mut area = 0.0;
    for (_, e) in ecm.edges() {
        assert!(e.bending_points.len() >= 2);
        for bp in &e.bending_points {
            let q = bp.position * scale;
            let (l, r) = (bp.left * scale, bp.right * scale);
            let (dl, dr) = (q.distance(l), q.distance(r));
            worst = worst.max((dl - dr).abs());
            assert!(
                (dl - dr).abs() <= tol,
                "not equidistant at {q}: {dl} vs {dr}"
            );
            let n = nearest(q);
            assert!(
                n >= dl.min(dr) - tol,
                "wall at {n} closer than clearance {} at {q}",
                dl.min(dr)
            );
            assert!(
                nearest(l) <= tol && nearest(r) <= tol,
                "nearest point off the walls at {q}"
            );
            assert!((bp.clearance * scale - dl.min(dr)).abs() <= tol);
        }
        let min = e
            .bending_points
            .iter()
            .map(|b| b.clearance)
            .fold(f64::INFINITY, f64::min);
        assert_eq!(min, e.min_clearance);
        for side in [Side::Left, Side::Right] {
            for piece in e.cell_pieces(side) {
                area += shoelace(&piece);
            }
        }
    }
    let rel = (area - free_area).abs() / free_area;
    assert!(rel <= 1e-6, "cells cover {area}, free area {free_area}");
    for (id, v) in ecm.vertices() {
        let d = v.degree();
        let lone_loop =
            d == 2 && v.edges[0] == v.edges[1] && ecm.edge(v.edges[0]).unwrap().start == id;
        assert!(
            d == 1 || d >= 3 || lone_loop,
            "vertex of degree {d} at {}",
            v.position
        );
        if d == 1 {
            assert!(
                v.clearance * scale <= tol,
                "degree-1 vertex with clearance {}",
                v.clearance
            );
        }
    }
    worst
}

fn gp(p: GridPoint) -> Point {
    Point::new(p.x as f64, p.y as f64)
}

/// Signed area of a polygon.
pub fn shoelace(ring: &[Point]) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|i| ring[i].perp_dot(ring[(i + 1) % n]))
        .sum::<f64>()
        * 0.5
}

/// Free area of walls made of boxes and polygons: from the one-sided walls (grid units²
/// converted to user units²), computed independently of the crate.
pub fn free_area_of(walls: &Walls) -> f64 {
    let s = walls.grid.scale();
    walls
        .segments
        .iter()
        .filter(|w| !w.two_sided)
        .map(|w| (w.a.x as f64 * w.b.y as f64 - w.b.x as f64 * w.a.y as f64) * 0.5)
        .sum::<f64>()
        / (s * s)
}
