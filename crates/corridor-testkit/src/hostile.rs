//! The hostile inputs of the hardening issue, made on demand at any size: many squares
//! as native JSON and as GeoJSON text (the readers' linear-time tests), a row of point
//! pillars facing open space and a dense zigzag polyline (validation), and heavily
//! overlapping triangles (normalization). Small sizes are regression tests; the full
//! sizes run in examples.

use corridor_geom::{Environment, Obstacle, Point, Polygon, Ring};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

/// The side of the square grid that holds `n` unit squares two units apart.
fn side(n: usize) -> usize {
    (n as f64).sqrt().ceil().max(1.0) as usize
}

/// The corners of the `i`-th of `n` unit squares (counter-clockwise), laid out in a
/// square grid with one unit of free space between them, inside a boundary from
/// `(0, 0)` to `(2 side + 1)²`.
fn square(n: usize, i: usize) -> [(usize, usize); 4] {
    let s = side(n);
    let (x, y) = (1 + 2 * (i % s), 1 + 2 * (i / s));
    [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]
}

/// `n` unit squares in the native JSON format, one obstacle a line.
///
/// ```
/// let text = corridor_testkit::hostile::squares_json(3);
/// assert_eq!(text.matches("polygon").count(), 3);
/// assert!(text.starts_with("{\n  \"version\": 1,"));
/// ```
pub fn squares_json(n: usize) -> String {
    let m = 2 * side(n) + 1;
    let mut out = format!(
        "{{\n  \"version\": 1,\n  \"boundary\": [[0, 0], [{m}, 0], [{m}, {m}], [0, {m}]],\n  \"obstacles\": [\n"
    );
    for i in 0..n {
        let c = square(n, i);
        let _ = writeln!(
            out,
            "    {{\"polygon\": [[{}, {}], [{}, {}], [{}, {}], [{}, {}]]}}{}",
            c[0].0,
            c[0].1,
            c[1].0,
            c[1].1,
            c[2].0,
            c[2].1,
            c[3].0,
            c[3].1,
            if i + 1 < n { "," } else { "" }
        );
    }
    out.push_str("  ]\n}\n");
    out
}

/// `n` unit squares as a GeoJSON FeatureCollection, one feature a line, with the
/// boundary as the first feature.
///
/// ```
/// let text = corridor_testkit::hostile::squares_geojson(3);
/// assert_eq!(text.matches("\"Polygon\"").count(), 4);
/// ```
pub fn squares_geojson(n: usize) -> String {
    let m = 2 * side(n) + 1;
    let mut out = format!(
        "{{\"type\": \"FeatureCollection\", \"features\": [\n  {{\"type\": \"Feature\", \"properties\": {{\"role\": \"boundary\"}}, \"geometry\": {{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [{m}, 0], [{m}, {m}], [0, {m}], [0, 0]]]}}}}"
    );
    for i in 0..n {
        let c = square(n, i);
        let _ = write!(
            out,
            ",\n  {{\"type\": \"Feature\", \"properties\": null, \"geometry\": {{\"type\": \"Polygon\", \"coordinates\": [[[{}, {}], [{}, {}], [{}, {}], [{}, {}], [{}, {}]]]}}}}",
            c[0].0, c[0].1, c[1].0, c[1].1, c[2].0, c[2].1, c[3].0, c[3].1, c[0].0, c[0].1
        );
    }
    out.push_str("\n]}\n");
    out
}

/// A 1000 × 1000 map with `n` point pillars in a row on y = 500, evenly spaced: every
/// pillar faces open space above and below (quadratic for a validation that scans along
/// the row).
///
/// ```
/// let env = corridor_testkit::hostile::pillar_row(100);
/// assert_eq!(env.obstacles().count(), 100);
/// ```
pub fn pillar_row(n: usize) -> Environment {
    let mut env = Environment::rectangle(Point::ZERO, Point::new(1000.0, 1000.0));
    let step = 998.0 / n.max(1) as f64;
    for i in 0..n {
        env.insert(Obstacle::Point(Point::new(
            1.0 + (i as f64 + 0.5) * step,
            500.0,
        )));
    }
    env
}

/// A 1000 × 1000 map with one zigzag polyline of `segments` segments across its middle
/// (teeth 2 units high, as dense as the count makes them).
///
/// ```
/// use corridor_geom::Obstacle;
/// let env = corridor_testkit::hostile::zigzag(1000);
/// let Some((_, Obstacle::Polyline(points))) = env.obstacles().next() else { panic!() };
/// assert_eq!(points.len(), 1001);
/// ```
pub fn zigzag(segments: usize) -> Environment {
    let mut env = Environment::rectangle(Point::ZERO, Point::new(1000.0, 1000.0));
    let step = 998.0 / segments.max(1) as f64;
    let points = (0..=segments)
        .map(|i| Point::new(1.0 + i as f64 * step, 499.0 + 2.0 * (i % 2) as f64))
        .collect();
    env.insert(Obstacle::Polyline(points));
    env
}

/// `n` random large triangles (sides up to a fifth of the map) in a 1000 × 1000 map,
/// overlapping heavily: the normalization's output grows with the square of `n`.
///
/// ```
/// let env = corridor_testkit::hostile::overlapping_triangles(50, 1);
/// assert_eq!(env.obstacles().count(), 50);
/// ```
pub fn overlapping_triangles(n: usize, seed: u64) -> Environment {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut env = Environment::rectangle(Point::ZERO, Point::new(1000.0, 1000.0));
    for _ in 0..n {
        let c = Point::new(
            rng.random_range(110.0..890.0),
            rng.random_range(110.0..890.0),
        );
        let mut corner = |k: f64| {
            let a = (k + rng.random_range(0.0..0.8)) * std::f64::consts::TAU / 3.0;
            let r = rng.random_range(40.0..100.0);
            Point::new(c.x + r * a.cos(), c.y + r * a.sin())
        };
        let ring = Ring::new(vec![corner(0.0), corner(1.0), corner(2.0)]);
        env.insert(Obstacle::Polygon(Polygon::new(ring, Vec::new())));
    }
    env
}
