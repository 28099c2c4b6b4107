//! Shared helpers for the integration tests.
#![allow(dead_code)]

use corridor_geom::{Environment, Obstacle, Point, Polygon, Segment};
use std::path::PathBuf;

/// `data/` in the repository.
pub fn shared_data() -> PathBuf {
    corridor_testkit::data_dir()
}

pub fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

/// Hand-made environments with slanted walls, polylines, points, holes and overlaps.
pub fn hand_made() -> Vec<(&'static str, Environment)> {
    let mut out = Vec::new();
    let mut env = Environment::rectangle(p(0.0, 0.0), p(40.0, 30.0));
    env.insert(Obstacle::polygon(vec![
        p(10.0, 5.0),
        p(20.0, 8.0),
        p(12.0, 17.0),
    ]));
    env.insert(Obstacle::polygon(vec![
        p(25.0, 10.0),
        p(33.0, 12.5),
        p(30.0, 22.0),
        p(22.5, 19.0),
    ]));
    out.push(("slanted", env));

    let mut env = Environment::rectangle(p(0.0, 0.0), p(30.0, 30.0));
    env.insert(Obstacle::Polyline(vec![
        p(5.0, 5.0),
        p(15.0, 12.0),
        p(25.0, 5.0),
    ]));
    env.insert(Obstacle::segment(p(5.0, 25.0), p(25.0, 20.0)));
    env.insert(Obstacle::Point(p(15.0, 17.5)));
    env.insert(Obstacle::Point(p(7.25, 14.0)));
    out.push(("thin", env));

    let mut env = Environment::rectangle(p(0.0, 0.0), p(30.0, 30.0));
    let sq = |x0: f64, y0: f64, s: f64| {
        corridor_geom::Ring::new(vec![
            p(x0, y0),
            p(x0 + s, y0),
            p(x0 + s, y0 + s),
            p(x0, y0 + s),
        ])
    };
    env.insert(Obstacle::Polygon(Polygon::new(
        sq(5.0, 5.0, 20.0),
        vec![sq(10.0, 10.0, 10.0)],
    )));
    env.insert(Obstacle::rectangle(p(20.0, 0.0), p(28.0, 8.0)));
    out.push(("courtyard", env));

    // A non-rectangular boundary.
    let env = Environment::new(corridor_geom::Ring::new(vec![
        p(0.0, 0.0),
        p(30.0, 0.0),
        p(30.0, 10.0),
        p(15.0, 25.0),
        p(0.0, 20.0),
    ]));
    out.push(("pentagon", env));
    out
}

/// A Moving AI `.map` as an environment: each run of blocked cells in a row becomes one
/// rectangle (cell (x, y) covers [x, x+1] × [y, y+1], row 0 at y = 0).
pub fn grid_map(path: &std::path::Path) -> Environment {
    let text = std::fs::read_to_string(path).expect("map file");
    let mut lines = text.lines();
    let (mut w, mut h) = (0usize, 0usize);
    for line in lines.by_ref() {
        let mut it = line.split_whitespace();
        match (it.next(), it.next()) {
            (Some("height"), Some(v)) => h = v.parse().unwrap(),
            (Some("width"), Some(v)) => w = v.parse().unwrap(),
            (Some("map"), None) => break,
            _ => {}
        }
    }
    let mut env = Environment::rectangle(p(0.0, 0.0), p(w as f64, h as f64));
    for (y, row) in lines.take(h).enumerate() {
        let cells: Vec<bool> = row.chars().map(|c| !matches!(c, '.' | 'G' | 'S')).collect();
        let mut x = 0;
        while x < w {
            if cells.get(x).copied().unwrap_or(true) {
                let start = x;
                while x < w && cells.get(x).copied().unwrap_or(true) {
                    x += 1;
                }
                env.insert(Obstacle::rectangle(
                    p(start as f64, y as f64),
                    p(x as f64, y as f64 + 1.0),
                ));
            } else {
                x += 1;
            }
        }
    }
    env
}

/// Whether the segment `a b` stays in the closed free space of `env`: it crosses no
/// obstacle or boundary edge properly, and each piece between the points where it
/// touches walls lies outside every polygon obstacle and inside the boundary. Brute
/// force over all walls, independent of any index. Pieces are classified by their
/// midpoints, which are rounded; a midpoint within 1e-9 of an obstacle edge counts as on
/// it.
pub fn segment_is_free(env: &Environment, a: Point, b: Point) -> bool {
    use corridor_geom::{orient, Orientation};
    let mut walls: Vec<Segment> = env.boundary().edges().collect();
    let mut polygons: Vec<&Polygon> = Vec::new();
    for (_, o) in env.obstacles() {
        match o {
            Obstacle::Point(q) => {
                if corridor_geom::point_on_segment(*q, a, b) && *q != a && *q != b {
                    // Passing through a point obstacle is allowed only at path vertices.
                    return false;
                }
            }
            Obstacle::Polyline(v) => walls.extend(v.windows(2).map(|w| Segment::new(w[0], w[1]))),
            Obstacle::Polygon(poly) => {
                walls.extend(poly.edges());
                polygons.push(poly);
            }
        }
    }
    let mut cuts = vec![0.0, 1.0];
    let d = b - a;
    for w in &walls {
        let (o1, o2) = (orient(a, b, w.a), orient(a, b, w.b));
        let (o3, o4) = (orient(w.a, w.b, a), orient(w.a, w.b, b));
        let proper = o1 != o2
            && o1 != Orientation::Collinear
            && o2 != Orientation::Collinear
            && o3 != o4
            && o3 != Orientation::Collinear
            && o4 != Orientation::Collinear;
        if proper {
            return false;
        }
        for q in [w.a, w.b] {
            if corridor_geom::point_on_segment(q, a, b) && d.length_squared() > 0.0 {
                cuts.push((q - a).dot(d) / d.length_squared());
            }
        }
    }
    cuts.sort_by(f64::total_cmp);
    for t in cuts.windows(2) {
        if t[1] - t[0] <= 0.0 {
            continue;
        }
        let m = a + d * ((t[0] + t[1]) / 2.0);
        if !env.boundary().contains_or_touches(m) {
            return false;
        }
        // A piece running along an obstacle edge has its (rounded) midpoint on that
        // edge: only a midpoint clearly inside counts (proper crossings are exact above).
        if polygons
            .iter()
            .any(|poly| poly.contains(m) && poly.boundary_distance(m) > 1e-9)
        {
            return false;
        }
    }
    true
}

/// A random obstacle in `bounds`: an axis-aligned box, a turned box, a pentagon, a
/// fence (polyline) or a pillar (point), of size up to `max_size`.
pub fn random_obstacle(
    rng: &mut impl rand::Rng,
    bounds: corridor_geom::Aabb,
    max_size: f64,
) -> Obstacle {
    let c = Point::new(
        rng.random_range(bounds.min.x..bounds.max.x),
        rng.random_range(bounds.min.y..bounds.max.y),
    );
    let r = rng.random_range(0.3..max_size);
    let angle: f64 = rng.random_range(0.0..std::f64::consts::PI);
    match rng.random_range(0..10) {
        0..=3 => Obstacle::rectangle(c, c + Point::new(r, r * rng.random_range(0.3..1.0))),
        4..=5 => {
            let (u, v) = (
                Point::from_angle(angle) * r,
                Point::from_angle(angle).perp() * r * 0.4,
            );
            Obstacle::polygon(vec![c - u - v, c + u - v, c + u + v, c - u + v])
        }
        6..=7 => Obstacle::polygon(
            (0..5)
                .map(|i| {
                    c + Point::from_angle(angle + i as f64 * 2.0 * std::f64::consts::PI / 5.0) * r
                })
                .collect(),
        ),
        8 => Obstacle::Polyline(vec![
            c,
            c + Point::from_angle(angle) * r,
            c + Point::new(r, 0.0),
        ]),
        _ => Obstacle::Point(c),
    }
}
