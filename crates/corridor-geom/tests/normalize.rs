//! Normalization: properties over random environments (checked against independent
//! brute-force computations on the original `f64` geometry), hand-made situations, and
//! the errors.

use corridor_geom::{
    normalize, normalize_through_overlay, normalize_with_overlay_shapes, takes_disjoint_path,
    Environment, EnvironmentError, GridPoint, NormalizeError, Obstacle, ObstacleId, Owner, Point,
    Polygon, Ring, Segment, SnapGrid, WallConflict, WallSegment, WallSource, Walls,
};
use corridor_testkit::random::{
    random_environment, BoundaryShape, ObstacleMix, RandomEnvironmentOptions,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::time::Instant;

// ---------------------------------------------------------------------------------------
// Helpers.

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

fn g(x: i32, y: i32) -> GridPoint {
    GridPoint::new(x, y)
}

/// The configurations the property tests sweep: default mix, concave boundary, grid maps,
/// polygons only, points and fences only, tiny and huge coordinates.
fn configs() -> Vec<(&'static str, RandomEnvironmentOptions)> {
    let fences = ObstacleMix {
        points: 1.0,
        segments: 2.0,
        polylines: 2.0,
        rectangles: 1.0,
        convex: 0.5,
        star: 0.5,
        random_walk: 0.0,
        with_hole: 0.0,
    };
    vec![
        ("default", RandomEnvironmentOptions::default()),
        (
            "star boundary",
            RandomEnvironmentOptions {
                boundary: BoundaryShape::Star,
                obstacles: 30,
                ..Default::default()
            },
        ),
        ("grid map", RandomEnvironmentOptions::grid_map(10, 35)),
        (
            "lattice mix",
            RandomEnvironmentOptions {
                lattice: Some(1.0),
                size: 16.0,
                obstacles: 25,
                max_radius: 0.2,
                ..Default::default()
            },
        ),
        (
            "dense polygons",
            RandomEnvironmentOptions {
                mix: ObstacleMix::POLYGONS,
                obstacles: 40,
                max_radius: 0.2,
                ..Default::default()
            },
        ),
        (
            "fences on a coarse grid",
            RandomEnvironmentOptions {
                mix: fences,
                obstacles: 30,
                size: 0.005, // 50 grid steps: crossings snap a lot
                max_radius: 0.3,
                ..Default::default()
            },
        ),
        (
            "huge coordinates",
            RandomEnvironmentOptions {
                obstacles: 15,
                ..RandomEnvironmentOptions::scaled(90_000.0, p(-5_000.0, 3_000.0))
            },
        ),
    ]
}

/// Whether `q` is free in the original geometry: strictly inside the boundary and in no
/// polygon obstacle (open obstacles take no area).
fn originally_free(env: &Environment, q: Point) -> bool {
    env.boundary().contains(q)
        && !env.obstacles().any(|(_, o)| match o {
            Obstacle::Polygon(poly) => poly.contains_or_touches(q),
            _ => false,
        })
}

/// All edges of the original geometry (boundary, polygon rings, polylines) in user units.
fn original_edges(env: &Environment) -> Vec<Segment> {
    let mut edges: Vec<Segment> = env.boundary().edges().collect();
    for (_, o) in env.obstacles() {
        match o {
            Obstacle::Point(q) => edges.push(Segment::new(*q, *q)),
            Obstacle::Polyline(v) => edges.extend(v.windows(2).map(|w| Segment::new(w[0], w[1]))),
            Obstacle::Polygon(poly) => edges.extend(poly.edges()),
        }
    }
    edges
}

fn perimeter(env: &Environment) -> f64 {
    let mut total: f64 = env.boundary().edges().map(|e| e.length()).sum();
    for (_, o) in env.obstacles() {
        if let Obstacle::Polygon(poly) = o {
            total += poly.edges().map(|e| e.length()).sum::<f64>();
        }
    }
    total
}

/// Snapped edges of every source, for provenance checks.
fn source_edges(env: &Environment) -> HashMap<WallSource, Vec<(GridPoint, GridPoint)>> {
    let grid = env.snap_grid();
    let s = |q: Point| grid.snap(q).unwrap();
    let ring_edges =
        |r: &Ring| -> Vec<(GridPoint, GridPoint)> { r.edges().map(|e| (s(e.a), s(e.b))).collect() };
    let mut map = HashMap::new();
    map.insert(WallSource::Boundary, ring_edges(env.boundary()));
    for (id, o) in env.obstacles() {
        let edges = match o {
            Obstacle::Point(q) => vec![(s(*q), s(*q))],
            Obstacle::Polyline(v) => v.windows(2).map(|w| (s(w[0]), s(w[1]))).collect(),
            Obstacle::Polygon(poly) => poly.rings().flat_map(ring_edges).collect(),
        };
        map.insert(WallSource::Obstacle(id), edges);
    }
    map
}

type I2 = (i128, i128);

fn i2(q: GridPoint) -> I2 {
    (q.x as i128, q.y as i128)
}

fn cross(o: I2, a: I2, b: I2) -> i128 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

fn dot(o: I2, a: I2, b: I2) -> i128 {
    (a.0 - o.0) * (b.0 - o.0) + (a.1 - o.1) * (b.1 - o.1)
}

/// Whether the segments are collinear and share a piece of positive length (exact).
fn collinear_overlap(a: GridPoint, b: GridPoint, c: GridPoint, d: GridPoint) -> bool {
    let (a, b, c, d) = (i2(a), i2(b), i2(c), i2(d));
    if a == b || c == d || cross(a, b, c) != 0 || cross(a, b, d) != 0 {
        return false;
    }
    let len = dot(a, b, b);
    let (t0, t1) = (dot(a, b, c), dot(a, b, d));
    t0.max(t1).min(len) > t0.min(t1).max(0)
}

/// Length (in grid steps) of the part of segment `a b` that lies within `tolerance` grid
/// steps of segment `c d`. The distance to a segment is convex along a line, so that part
/// is one interval: found by ternary search for the closest point, then bisection.
fn near_overlap(a: GridPoint, b: GridPoint, c: GridPoint, d: GridPoint, tolerance: f64) -> f64 {
    let f = |q: GridPoint| p(q.x as f64, q.y as f64);
    let (a, b, edge) = (f(a), f(b), Segment::new(f(c), f(d)));
    let dist = |t: f64| edge.distance(a + (b - a) * t);
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..100 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if dist(m1) < dist(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let best = (lo + hi) / 2.0;
    if dist(best) > tolerance {
        return 0.0;
    }
    let edge_of = |mut inside: f64, mut outside: f64| {
        if dist(outside) <= tolerance {
            return outside;
        }
        for _ in 0..100 {
            let mid = (inside + outside) / 2.0;
            if dist(mid) <= tolerance {
                inside = mid;
            } else {
                outside = mid;
            }
        }
        inside
    };
    (edge_of(best, 1.0) - edge_of(best, 0.0)) * a.distance(b)
}

/// The segments share only a common endpoint or nothing — computed independently of the
/// library: the exact intersection with rationals.
fn brute_segments_conflict(s: &WallSegment, t: &WallSegment) -> bool {
    let (a, b, c, d) = (i2(s.a), i2(s.b), i2(t.a), i2(t.b));
    let r = (b.0 - a.0, b.1 - a.1);
    let u = (d.0 - c.0, d.1 - c.1);
    let den = r.0 * u.1 - r.1 * u.0;
    let qp = (c.0 - a.0, c.1 - a.1);
    if den == 0 {
        if qp.0 * r.1 - qp.1 * r.0 != 0 {
            return false;
        }
        // Collinear: overlap on the line, as an interval of r-projections.
        let rr = r.0 * r.0 + r.1 * r.1;
        let t0 = qp.0 * r.0 + qp.1 * r.1;
        let t1 = t0 + u.0 * r.0 + u.1 * r.1;
        let (lo, hi) = (t0.min(t1).max(0), t0.max(t1).min(rr));
        if lo > hi {
            return false;
        }
        if lo < hi {
            return true;
        }
        // A single common point: fine only if it is an endpoint of both.
        let at = if lo == 0 { a } else { b };
        return !(at == c || at == d);
    }
    let t_num = qp.0 * u.1 - qp.1 * u.0;
    let u_num = qp.0 * r.1 - qp.1 * r.0;
    let within = |num: i128| {
        if den > 0 {
            (0..=den).contains(&num)
        } else {
            (den..=0).contains(&num)
        }
    };
    if !(within(t_num) && within(u_num)) {
        return false;
    }
    // Intersection X = a + r t_num / den; an endpoint of both?
    let is = |e: I2| (e.0 - a.0) * den == r.0 * t_num && (e.1 - a.1) * den == r.1 * t_num;
    let shared = (is(a) || is(b)) && (is(c) || is(d));
    !shared
}

/// The O(n²) version of [`Walls::check_disjoint`], in the same reporting order.
fn brute_check(walls: &Walls) -> Result<(), WallConflict> {
    let segs = &walls.segments;
    if let Some(i) = segs.iter().position(|s| s.a == s.b) {
        return Err(WallConflict::ZeroLength { segment: i });
    }
    for i in 0..segs.len() {
        for j in i + 1..segs.len() {
            if brute_segments_conflict(&segs[i], &segs[j]) {
                return Err(WallConflict::SegmentsMeet {
                    first: i,
                    second: j,
                });
            }
        }
    }
    for (i, (q, _)) in walls.points.iter().enumerate() {
        for (j, s) in segs.iter().enumerate() {
            let (a, b, q) = (i2(s.a), i2(s.b), i2(*q));
            if cross(a, b, q) == 0 && dot(q, a, b) <= 0 {
                return Err(WallConflict::PointOnSegment {
                    point: i,
                    segment: j,
                });
            }
        }
    }
    for i in 0..walls.points.len() {
        for j in i + 1..walls.points.len() {
            if walls.points[i].0 == walls.points[j].0 {
                return Err(WallConflict::PointsCoincide {
                    first: i,
                    second: j,
                });
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Properties over random environments.

/// (a) The free area equals an independent Monte-Carlo estimate on the original `f64`
/// polygons, within 5 standard deviations plus the snapping error (perimeter × a grid
/// step); and away from every original edge, each sample is free in the original exactly
/// when it lies in a free-space shape of the walls.
#[test]
fn free_area_matches_a_raster_estimate() {
    const SAMPLES: usize = 1500;
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut pointwise = 0usize;
    for (name, options) in configs() {
        for seed in 0..40 {
            let env = random_environment(seed, &options);
            let walls = normalize(&env).unwrap_or_else(|e| panic!("{name} {seed}: {e}"));
            let bounds = env.bounds();
            let box_area = bounds.size().x * bounds.size().y;
            let edges = original_edges(&env);
            let step = 1.0 / env.snap_grid().scale();
            let mut free = 0usize;
            for k in 0..SAMPLES {
                let q = bounds.min + bounds.size() * p(rng.random(), rng.random());
                let orig = originally_free(&env, q);
                free += usize::from(orig);
                // Pointwise on a subset, well away from anything snapping can move.
                if k % 8 == 0 && edges.iter().all(|e| e.distance(q) > 8.0 * step) {
                    pointwise += 1;
                    assert_eq!(
                        walls.free_shape_at(q).is_some(),
                        orig,
                        "{name} seed {seed}: sample {q}"
                    );
                }
            }
            let estimate = free as f64 / SAMPLES as f64 * box_area;
            let p_free = (walls.free_area() / box_area).clamp(0.0, 1.0);
            let sigma = box_area * (p_free * (1.0 - p_free) / SAMPLES as f64).sqrt();
            let tolerance = 5.0 * sigma + 2.0 * perimeter(&env) * step + box_area / SAMPLES as f64;
            assert!(
                (walls.free_area() - estimate).abs() <= tolerance,
                "{name} seed {seed}: free area {} vs estimate {estimate} (tolerance {tolerance})",
                walls.free_area()
            );
        }
    }
    assert!(pointwise > 10_000, "{pointwise}");
}

/// On a lattice with a square boundary and rectangles only, counting unit cells is exact.
#[test]
fn grid_map_free_area_is_exact() {
    for seed in 0..60 {
        let env = random_environment(seed, &RandomEnvironmentOptions::grid_map(12, 30));
        let walls = normalize(&env).unwrap();
        let mut free_cells = 0;
        for x in 0..12 {
            for y in 0..12 {
                free_cells += usize::from(originally_free(&env, p(x as f64 + 0.5, y as f64 + 0.5)));
            }
        }
        assert_eq!(walls.free_area(), free_cells as f64, "seed {seed}");
        assert_eq!(
            walls.free_area_twice_grid(),
            free_cells as i128 * 2 * 10_000 * 10_000
        );
    }
}

/// (b) The walls are disjoint, and the brute-force O(n²) check agrees.
#[test]
fn walls_are_disjoint_and_brute_force_agrees() {
    let mut compared = 0;
    for (name, options) in configs() {
        for seed in 0..40 {
            let env = random_environment(1000 + seed, &options);
            let walls = normalize(&env).unwrap_or_else(|e| panic!("{name} {seed}: {e}"));
            assert_eq!(walls.check_disjoint(), Ok(()), "{name} {seed}");
            if walls.segments.len() <= 600 {
                assert_eq!(brute_check(&walls), Ok(()), "{name} {seed}");
                compared += 1;
            }
            // Every wall endpoint is shared by at least two walls (one-sided walls form
            // closed loops; two-sided walls may end freely), and one-sided walls balance.
            let mut degree: HashMap<GridPoint, i32> = HashMap::new();
            for s in walls.one_sided() {
                *degree.entry(s.a).or_default() += 1;
                *degree.entry(s.b).or_default() -= 1;
            }
            assert!(degree.values().all(|&d| d == 0), "{name} {seed}: open loop");
            for s in &walls.segments {
                assert!(!s.sources.is_empty());
                assert!(
                    s.sources.windows(2).all(|w| w[0] < w[1]),
                    "sorted, no repeats"
                );
                if s.two_sided {
                    assert!(s.a < s.b, "two-sided walls are stored a < b");
                }
            }
        }
    }
    assert!(compared > 150, "{compared}");
}

/// The checker finds every kind of planted conflict, in the same order as brute force.
#[test]
fn check_disjoint_finds_planted_conflicts() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut caught = [0usize; 4];
    for seed in 0..60 {
        let env = random_environment(seed, &RandomEnvironmentOptions::default());
        let clean = normalize(&env).unwrap();
        if clean.segments.len() < 4 || clean.segments.len() > 400 {
            continue;
        }
        for kind in 0..7 {
            let mut walls = clean.clone();
            let i = rng.random_range(0..walls.segments.len());
            let s = walls.segments[i].clone();
            let mid = g(
                ((s.a.x as i64 + s.b.x as i64) / 2) as i32,
                ((s.a.y as i64 + s.b.y as i64) / 2) as i32,
            );
            let plant = |a: GridPoint, b: GridPoint| WallSegment {
                a,
                b,
                two_sided: true,
                sources: vec![WallSource::Boundary].into(),
            };
            match kind {
                0 => walls.segments.push(s.clone()),       // duplicate
                1 => walls.segments.push(plant(s.b, s.a)), // reversed duplicate
                2 => walls.segments.push(plant(mid, g(mid.x + 7, mid.y + 13))), // T or crossing
                3 => walls.segments.push(plant(
                    g(mid.x - (s.b.y - s.a.y) / 2, mid.y + (s.b.x - s.a.x) / 2),
                    g(mid.x + (s.b.y - s.a.y) / 2, mid.y - (s.b.x - s.a.x) / 2),
                )), // crossing through the middle
                4 => walls.points.push((mid, vec![WallSource::Boundary])),
                5 => walls.points.push((s.a, vec![WallSource::Boundary])),
                _ => walls.segments.insert(0, plant(s.a, s.a)),
            }
            let fast = walls.check_disjoint();
            assert_eq!(fast, brute_check(&walls), "seed {seed} kind {kind}");
            match fast {
                Err(WallConflict::SegmentsMeet { .. }) => caught[0] += 1,
                Err(WallConflict::PointOnSegment { .. }) => caught[1] += 1,
                Err(WallConflict::ZeroLength { .. }) => caught[2] += 1,
                Err(WallConflict::PointsCoincide { .. }) => caught[3] += 1,
                Ok(()) => {}
            }
        }
    }
    assert!(
        caught[0] > 100 && caught[1] > 50 && caught[2] > 20,
        "{caught:?}"
    );
}

/// (c) Same environment, same walls — and the generator itself is deterministic.
#[test]
fn normalization_is_deterministic() {
    for (name, options) in configs() {
        for seed in 0..15 {
            let env = random_environment(2000 + seed, &options);
            assert_eq!(env, random_environment(2000 + seed, &options));
            let first = normalize(&env).unwrap();
            let second = normalize(&env.clone()).unwrap();
            assert_eq!(first, second, "{name} {seed}");
            // Obstacle ids do not depend on insertion order, and neither do the walls.
            let mut shuffled = Environment::new(env.boundary().clone());
            let mut all: Vec<(ObstacleId, Obstacle)> =
                env.obstacles().map(|(id, o)| (id, o.clone())).collect();
            all.reverse();
            for (id, o) in all {
                shuffled.insert_with_id(id, o);
            }
            assert_eq!(normalize(&shuffled).unwrap(), first, "{name} {seed}");
        }
    }
}

/// The generator is the same function of the seed on every platform: no transcendental
/// functions, only IEEE-exact `+ − × ÷ sqrt`. Pinning a checksum of one environment's
/// coordinate bits catches accidental changes (e.g. a new `rand_chacha` stream).
#[test]
fn random_environment_checksum_is_stable() {
    let env = random_environment(42, &RandomEnvironmentOptions::default());
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (_, o) in env.obstacles() {
        for q in o.points() {
            for bits in [q.x.to_bits(), q.y.to_bits()] {
                hash ^= bits;
                hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
    assert_eq!(env.obstacles().count(), 20);
    let again = random_environment(42, &RandomEnvironmentOptions::default());
    assert_eq!(env, again);
    // Printed so a deliberate generator change can update the pinned value.
    println!("checksum {hash:#x}");
    assert_eq!(hash, GENERATOR_CHECKSUM);
}

const GENERATOR_CHECKSUM: u64 = 0x923c_6bd5_bd81_6b3d;

/// (e) Every wall's sources are right: each listed source has an input edge running along
/// part of the wall (within 2.5 grid steps, as rounding crossings to the grid bends
/// edges by about a step, and a bent edge is listed where it ends up); points list
/// exactly the point obstacles that snapped onto them.
#[test]
fn sources_map_back_to_the_input() {
    for (name, options) in configs() {
        for seed in 0..25 {
            let env = random_environment(3000 + seed, &options);
            let walls = normalize(&env).unwrap();
            let edges = source_edges(&env);
            for w in &walls.segments {
                for source in &w.sources {
                    let supported = edges[source]
                        .iter()
                        .any(|&(a, b)| a != b && near_overlap(w.a, w.b, a, b, 2.5) >= 0.5);
                    assert!(supported, "{name} {seed}: {w:?} does not lie on {source:?}");
                }
            }
            for (q, sources) in &walls.points {
                for source in sources {
                    assert!(edges[source].contains(&(*q, *q)), "{name} {seed}");
                }
                for (source, list) in &edges {
                    if list == &vec![(*q, *q)] {
                        assert!(sources.contains(source));
                    }
                }
            }
        }
    }
}

/// A grid map with axis-aligned fences and points on the lattice: every crossing is a
/// lattice point, nothing bends, so sources must be exact both ways — each source has an
/// edge collinear with the wall and sharing a stretch of it, and every such input edge is
/// listed.
#[test]
fn sources_are_exact_when_nothing_bends() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for seed in 0..40 {
        let mut env = random_environment(seed, &RandomEnvironmentOptions::grid_map(12, 25));
        for _ in 0..12 {
            let mut q = || {
                p(
                    rng.random_range(0..=12) as f64,
                    rng.random_range(0..=12) as f64,
                )
            };
            let (a, mut b) = (q(), q());
            if rng.random::<bool>() {
                b.y = a.y;
            } else {
                b.x = a.x;
            }
            if rng.random_range(0..4) == 0 {
                env.insert(Obstacle::Point(a));
            } else if a != b {
                env.insert(Obstacle::Polyline(vec![a, b, p(b.x, a.y)]));
            }
        }
        let walls = normalize(&env).unwrap();
        let edges = source_edges(&env);
        for w in &walls.segments {
            let exact: Vec<WallSource> = {
                let mut v: Vec<WallSource> = edges
                    .iter()
                    .filter(|(_, list)| {
                        list.iter().any(|&(a, b)| collinear_overlap(w.a, w.b, a, b))
                    })
                    .map(|(s, _)| *s)
                    .collect();
                v.sort();
                v
            };
            assert_eq!(w.sources[..], exact[..], "seed {seed}: {w:?}");
        }
    }
}

/// Free space is consistent with the walls: the one-sided walls are exactly the edges of
/// the free-space contours (after merging straight runs), oriented with free space on the
/// left, outer contours counter-clockwise and holes clockwise.
#[test]
fn free_space_agrees_with_the_walls() {
    for (name, options) in configs() {
        for seed in 0..20 {
            let env = random_environment(4000 + seed, &options);
            let walls = normalize(&env).unwrap();
            let free_space = walls.free_space();
            for shape in &free_space {
                let area = |c: &Vec<GridPoint>| -> i128 {
                    (0..c.len())
                        .map(|i| {
                            let (a, b) = (c[i], c[(i + 1) % c.len()]);
                            a.x as i128 * b.y as i128 - b.x as i128 * a.y as i128
                        })
                        .sum()
                };
                assert!(area(&shape[0]) > 0, "{name} {seed}: outer contour is CCW");
                assert!(shape[1..].iter().all(|h| area(h) < 0), "holes are CW");
            }
            // Walk every contour edge: it must be covered by one-sided walls in the same
            // direction (walls may be split where open walls attach).
            let mut covered = 0i128;
            let mut contour_length = 0i128;
            for c in free_space.iter().flatten() {
                for i in 0..c.len() {
                    let (a, b) = (c[i], c[(i + 1) % c.len()]);
                    contour_length +=
                        (b.x as i128 - a.x as i128).abs() + (b.y as i128 - a.y as i128).abs();
                }
            }
            for w in walls.one_sided() {
                covered +=
                    (w.b.x as i128 - w.a.x as i128).abs() + (w.b.y as i128 - w.a.y as i128).abs();
                let on_contour = free_space.iter().flatten().any(|c| {
                    (0..c.len()).any(|i| {
                        let (a, b) = (c[i], c[(i + 1) % c.len()]);
                        collinear_overlap(w.a, w.b, a, b) && {
                            let (d1, d2) = (
                                (b.x as i128 - a.x as i128, b.y as i128 - a.y as i128),
                                (w.b.x as i128 - w.a.x as i128, w.b.y as i128 - w.a.y as i128),
                            );
                            d1.0 * d2.0 + d1.1 * d2.1 > 0
                        }
                    })
                });
                assert!(
                    on_contour,
                    "{name} {seed}: {w:?} is not on the free-space boundary"
                );
            }
            assert_eq!(covered, contour_length, "{name} {seed}");
        }
    }
}

/// Twice the signed area of a contour (exact).
fn contour_area(c: &[GridPoint]) -> i128 {
    (0..c.len())
        .map(|i| {
            let (a, b) = (c[i], c[(i + 1) % c.len()]);
            a.x as i128 * b.y as i128 - b.x as i128 * a.y as i128
        })
        .sum()
}

/// [`Walls::free_space`], derived from the one-sided walls, equals the shapes the overlay
/// builds (up to the canonical order), and the free area from the walls equals the sum
/// over the contours; the overlay route returns the same walls as `normalize`.
fn assert_free_space_matches_overlay(env: &Environment, what: &str) {
    let walls = normalize(env).unwrap();
    let (reference_walls, reference) = normalize_with_overlay_shapes(env).unwrap();
    assert_eq!(walls, reference_walls, "{what}: walls");
    let derived = walls.free_space();
    assert_eq!(derived, reference, "{what}: free-space shapes");
    let area: i128 = derived.iter().flatten().map(|c| contour_area(c)).sum();
    assert_eq!(walls.free_area_twice_grid(), area, "{what}: free area");
}

/// Random environments of every configuration (every obstacle kind, overlapping,
/// touching, pinched grid cells, holes and rooms, fences): derived shapes = overlay shapes.
#[test]
fn derived_free_space_equals_the_overlay_shapes() {
    let mut more = configs();
    more.push((
        "rooms and islands",
        RandomEnvironmentOptions {
            mix: ObstacleMix {
                with_hole: 3.0,
                ..ObstacleMix::RECTANGLES
            },
            obstacles: 30,
            max_radius: 0.25,
            ..Default::default()
        },
    ));
    more.push((
        "touching lattice polygons",
        RandomEnvironmentOptions {
            lattice: Some(1.0),
            size: 12.0,
            mix: ObstacleMix::POLYGONS,
            obstacles: 40,
            min_radius: 0.05,
            max_radius: 0.2,
            on_boundary: 0.3,
            ..Default::default()
        },
    ));
    more.push(("small grid map", RandomEnvironmentOptions::grid_map(8, 30)));
    let mut shapes = 0;
    let mut holes = 0;
    for (name, options) in more {
        for seed in 0..60 {
            let env = random_environment(9000 + seed, &options);
            assert_free_space_matches_overlay(&env, &format!("{name} {seed}"));
            let walls = normalize(&env).unwrap();
            let fs = walls.free_space();
            shapes += fs.len();
            holes += fs.iter().map(|s| s.len() - 1).sum::<usize>();
        }
    }
    assert!(
        shapes > 500 && holes > 500,
        "{shapes} shapes, {holes} holes"
    );
}

/// The fast path for interior-disjoint rings gives exactly the walls of the overlay
/// route (segments with sources and order, points), on thousands of seeded random
/// environments, disjoint and not: grid maps, touching lattice polygons, rooms with
/// islands, obstacles along and across the boundary, overlapping polygons.
#[test]
fn fast_path_equals_the_overlay_route() {
    let mut more = configs();
    more.push(("grid map 12", RandomEnvironmentOptions::grid_map(12, 60)));
    more.push(("grid map 6", RandomEnvironmentOptions::grid_map(6, 12)));
    more.push((
        "touching rectangles",
        RandomEnvironmentOptions {
            lattice: Some(1.0),
            size: 10.0,
            mix: ObstacleMix::RECTANGLES,
            obstacles: 30,
            min_radius: 0.05,
            max_radius: 0.15,
            on_boundary: 0.3,
            ..Default::default()
        },
    ));
    more.push((
        "rooms and islands",
        RandomEnvironmentOptions {
            lattice: Some(1.0),
            size: 12.0,
            mix: ObstacleMix {
                points: 0.5,
                segments: 0.0,
                polylines: 0.0,
                rectangles: 1.0,
                convex: 0.5,
                star: 0.0,
                random_walk: 0.0,
                with_hole: 2.0,
            },
            obstacles: 12,
            max_radius: 0.3,
            on_boundary: 0.2,
            ..Default::default()
        },
    ));
    let (mut fast, mut total) = (0, 0);
    for seed in 0..3000u64 {
        let n = [3, 6, 10, 20][seed as usize % 4];
        let spoil = seed % 3 == 2;
        let slanted = seed % 5 == 4;
        let env = disjoint_environment(seed, n, spoil, slanted);
        let walls = normalize(&env).unwrap();
        let reference = normalize_through_overlay(&env).unwrap();
        assert_eq!(walls, reference, "lattice {seed}");
        let taken = takes_disjoint_path(&env).unwrap();
        if !spoil && !slanted {
            // Axis-aligned and disjoint: every vertex inside another edge comes with a
            // collinear overlap, which the fast path splits, so it must be taken.
            assert!(taken, "lattice {seed}: disjoint but not taken");
        }
        total += 1;
        fast += usize::from(taken);
    }
    for (name, options) in more {
        for seed in 0..250 {
            let env = random_environment(20_000 + seed, &options);
            let walls = normalize(&env).unwrap();
            let reference = normalize_through_overlay(&env).unwrap();
            assert_eq!(walls, reference, "{name} {seed}");
            total += 1;
            fast += usize::from(takes_disjoint_path(&env).unwrap());
        }
    }
    println!("fast path on {fast} of {total}");
    assert!(fast > total / 5, "fast path on {fast} of {total}");
    assert!(fast < total, "the fallback was exercised");
}

/// A seeded environment of interior-disjoint obstacles on a unit lattice (`n × n` cells
/// in a square boundary): blocked cells as unit squares, horizontal runs of cells as one
/// rectangle (their edges end inside the neighbours' edges), half cells as triangles
/// (slanted edges, pinches at corners), rooms (a frame with a hole and an island in it).
/// With `spoil`, one obstacle that may break disjointness is added (overlapping another,
/// crossing or outside the boundary, inside another obstacle, or the same one twice).
/// Without `slanted`, no half cells: every edge is axis-aligned.
fn disjoint_environment(seed: u64, n: i32, spoil: bool, slanted: bool) -> Environment {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let size = n as f64;
    let mut env = Environment::rectangle(p(0.0, 0.0), p(size, size));
    let density = rng.random_range(0.1..0.5);
    let mut taken = vec![false; (n * n) as usize];
    let rect =
        |x0: i32, y0: i32, x1: i32, y1: i32| square(x0 as f64, y0 as f64, x1 as f64, y1 as f64);
    // A room in one corner block now and then.
    if n >= 6 && rng.random_bool(0.5) {
        let (x0, y0) = (rng.random_range(0..n - 5), rng.random_range(0..n - 5));
        let ring =
            |a: f64, b: f64, c: f64, d: f64| Ring::new(vec![p(a, b), p(c, b), p(c, d), p(a, d)]);
        let (fx, fy) = (x0 as f64, y0 as f64);
        env.insert(Obstacle::Polygon(Polygon::new(
            ring(fx, fy, fx + 5.0, fy + 5.0),
            vec![ring(fx + 1.0, fy + 1.0, fx + 4.0, fy + 4.0)],
        )));
        if rng.random_bool(0.7) {
            env.insert(rect(x0 + 2, y0 + 2, x0 + 3, y0 + 3));
        }
        for y in y0..y0 + 5 {
            for x in x0..x0 + 5 {
                taken[(y * n + x) as usize] = true;
            }
        }
    }
    for y in 0..n {
        let mut x = 0;
        while x < n {
            if taken[(y * n + x) as usize] || !rng.random_bool(density) {
                x += 1;
                continue;
            }
            let mut run = 1;
            while x + run < n && !taken[(y * n + x + run) as usize] && rng.random_bool(0.4) {
                run += 1;
            }
            match rng.random_range(0..6) {
                0 if slanted => {
                    // A half cell: the triangle below or above a diagonal.
                    let (fx, fy) = (x as f64, y as f64);
                    let t = match rng.random_range(0..4) {
                        0 => vec![p(fx, fy), p(fx + 1.0, fy), p(fx, fy + 1.0)],
                        1 => vec![p(fx + 1.0, fy), p(fx + 1.0, fy + 1.0), p(fx, fy)],
                        2 => vec![p(fx + 1.0, fy + 1.0), p(fx, fy + 1.0), p(fx + 1.0, fy)],
                        _ => vec![p(fx, fy + 1.0), p(fx, fy), p(fx + 1.0, fy + 1.0)],
                    };
                    env.insert(Obstacle::Polygon(Polygon::new(Ring::new(t), vec![])));
                    run = 1;
                }
                1 | 2 => {
                    env.insert(rect(x, y, x + run, y + 1));
                }
                _ => {
                    for k in 0..run {
                        env.insert(rect(x + k, y, x + k + 1, y + 1));
                    }
                }
            }
            for k in 0..run {
                taken[(y * n + x + k) as usize] = true;
            }
            x += run;
        }
    }
    if rng.random_range(0..4) == 0 {
        env.insert(Obstacle::Point(p(
            rng.random_range(0..n) as f64 + 0.5,
            rng.random_range(0..n) as f64 + 0.5,
        )));
    }
    if spoil {
        let (x, y) = (rng.random_range(0..n - 1), rng.random_range(0..n - 1));
        match rng.random_range(0..5) {
            0 => env.insert(square(
                x as f64 + 0.5,
                y as f64 + 0.5,
                x as f64 + 1.5,
                y as f64 + 1.5,
            )),
            1 => env.insert(rect(-1, y, 1, y + 1)),
            2 => env.insert(rect(n, y, n + 1, y + 1)),
            3 => env.insert(square(
                x as f64 + 0.25,
                y as f64 + 0.25,
                x as f64 + 0.75,
                y as f64 + 0.75,
            )),
            _ => env.insert(rect(x, y, x + 1, y + 1)),
        };
    }
    env.with_snap_grid(SnapGrid::new(1.0).unwrap())
}

/// Hand-made touching cases: a hole touching the outer contour at a vertex, two obstacles
/// touching at a corner inside a room, a pinched pocket, a diamond on the boundary.
#[test]
fn derived_free_space_touching_cases() {
    let diamond = |cx: f64, cy: f64, r: f64| {
        Obstacle::Polygon(Polygon::new(
            Ring::new(vec![
                p(cx, cy - r),
                p(cx + r, cy),
                p(cx, cy + r),
                p(cx - r, cy),
            ]),
            vec![],
        ))
    };
    let mut cases: Vec<(&str, Environment)> = Vec::new();
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    env.insert(diamond(5.0, 1.0, 1.0));
    cases.push(("diamond on the boundary", env));
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    env.insert(square(2.0, 2.0, 4.0, 4.0));
    env.insert(square(4.0, 4.0, 6.0, 6.0));
    cases.push(("corner-touching squares in a room", env));
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    env.insert(square(0.0, 0.0, 5.0, 5.0));
    env.insert(square(5.0, 5.0, 10.0, 10.0));
    cases.push(("diagonal pinch", env));
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    // A C-shaped obstacle whose arms touch at a corner: the pocket is pinched off.
    env.insert(square(2.0, 2.0, 3.0, 8.0));
    env.insert(square(3.0, 7.0, 7.0, 8.0));
    env.insert(square(3.0, 2.0, 7.0, 3.0));
    env.insert(square(7.0, 3.0, 8.0, 5.0));
    env.insert(square(6.0, 5.0, 7.0, 7.0));
    env.insert(diamond(5.0, 5.0, 0.5));
    cases.push(("pinched pocket with an island", env));
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    env.insert(square(2.0, 2.0, 4.0, 4.0));
    env.insert(diamond(5.0, 3.0, 1.0));
    env.insert(square(6.0, 2.0, 8.0, 4.0));
    env.insert(square(0.0, 4.0, 2.0, 6.0));
    cases.push(("a chain of corner touches", env));
    for (name, env) in &cases {
        assert_free_space_matches_overlay(env, name);
    }
}

// ---------------------------------------------------------------------------------------
// Hand-made situations.

fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Obstacle {
    Obstacle::rectangle(p(x0, y0), p(x1, y1))
}

fn segments_at(walls: &Walls, q: GridPoint) -> usize {
    walls
        .segments
        .iter()
        .filter(|s| s.a == q || s.b == q)
        .count()
}

/// (d) Squares touching only at a corner keep the pinch closed: the free regions on
/// either side are different shapes, meeting at a vertex of zero width.
#[test]
fn diagonal_pinch_stays_closed() {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(2.0, 2.0));
    env.insert(square(0.0, 0.0, 1.0, 1.0));
    env.insert(square(1.0, 1.0, 2.0, 2.0));
    let walls = normalize(&env).unwrap();
    let upper_left = walls.free_shape_at(p(0.5, 1.5)).unwrap();
    let lower_right = walls.free_shape_at(p(1.5, 0.5)).unwrap();
    assert_ne!(upper_left, lower_right);
    assert_eq!(walls.free_space().len(), 2);
    assert_eq!(walls.free_area(), 2.0);
    assert_eq!(segments_at(&walls, g(10_000, 10_000)), 4);
    walls.check_disjoint().unwrap();
}

/// A checkerboard: every free cell touches the others only at corners.
#[test]
fn checkerboard_cells_stay_separate() {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(6.0, 6.0));
    for x in 0..6 {
        for y in 0..6 {
            if (x + y) % 2 == 0 {
                env.insert(square(x as f64, y as f64, x as f64 + 1.0, y as f64 + 1.0));
            }
        }
    }
    let walls = normalize(&env).unwrap();
    walls.check_disjoint().unwrap();
    assert_eq!(walls.free_area(), 18.0);
    let mut shapes: Vec<usize> = Vec::new();
    for x in 0..6 {
        for y in 0..6 {
            let at = walls.free_shape_at(p(x as f64 + 0.5, y as f64 + 0.5));
            assert_eq!(at.is_some(), (x + y) % 2 == 1);
            shapes.extend(at);
        }
    }
    shapes.sort();
    shapes.dedup();
    assert_eq!(shapes.len(), 18, "each free cell is its own region");
    // Interior corners join four walls; no wall crosses a pinch.
    assert_eq!(segments_at(&walls, g(20_000, 30_000)), 4);
}

/// The same pinch made by an obstacle and a diagonal neighbour that also overlaps a third.
#[test]
fn pinch_survives_overlapping_neighbours() {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(4.0, 4.0));
    env.insert(square(0.0, 0.0, 2.0, 2.0));
    env.insert(square(2.0, 2.0, 4.0, 4.0));
    env.insert(square(2.5, 2.5, 3.5, 5.0)); // overlaps the upper square and the boundary
    env.insert(square(-1.0, -1.0, 1.0, 1.0)); // overlaps the lower square, sticks out
    let walls = normalize(&env).unwrap();
    walls.check_disjoint().unwrap();
    assert_ne!(
        walls.free_shape_at(p(1.0, 3.0)),
        walls.free_shape_at(p(3.0, 1.0))
    );
    assert_eq!(walls.free_area(), 8.0);
}

#[test]
fn overlapping_concave_obstacles_merge() {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    // An L and a rectangle overlapping its inner corner, plus one touching along an edge.
    let l = env.insert(Obstacle::polygon(vec![
        p(1.0, 1.0),
        p(5.0, 1.0),
        p(5.0, 2.0),
        p(2.0, 2.0),
        p(2.0, 5.0),
        p(1.0, 5.0),
    ]));
    let r = env.insert(square(1.5, 1.5, 3.0, 3.0));
    let t = env.insert(square(5.0, 1.0, 6.0, 2.0));
    let walls = normalize(&env).unwrap();
    walls.check_disjoint().unwrap();
    // L (7) + rectangle outside the L (2.25 - 0.75 - 0.5 = 1.0) + touching square (1).
    assert!((walls.free_area() - (100.0 - 7.0 - 1.0 - 1.0)).abs() < 1e-12);
    assert_eq!(walls.free_space().len(), 1);
    assert_eq!(
        walls.free_space()[0].len(),
        2,
        "one obstacle outline: one hole"
    );
    // The bottom edge y = 1 runs from x = 1 to 6 across both L and the touching square.
    let bottom = walls
        .segments
        .iter()
        .find(|s| s.a.y == 10_000 && s.b.y == 10_000)
        .unwrap();
    assert_eq!(
        (bottom.a.x.min(bottom.b.x), bottom.a.x.max(bottom.b.x)),
        (10_000, 60_000)
    );
    assert_eq!(
        bottom.sources[..],
        [WallSource::Obstacle(l), WallSource::Obstacle(t)]
    );
    assert!(walls
        .segments
        .iter()
        .any(|s| s.sources[..] == [WallSource::Obstacle(r)]));
}

#[test]
fn obstacles_sticking_out_are_clipped() {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    let a = env.insert(square(-2.0, 4.0, 2.0, 6.0));
    let b = env.insert(square(8.0, 8.0, 12.0, 12.0));
    let walls = normalize(&env).unwrap();
    walls.check_disjoint().unwrap();
    assert_eq!(walls.free_area(), 100.0 - 4.0 - 4.0);
    assert_eq!(walls.free_space().len(), 1);
    assert_eq!(
        walls.free_space()[0].len(),
        1,
        "clipped obstacles dent the outer contour"
    );
    let find = |id| {
        walls
            .segments
            .iter()
            .filter(move |s| s.sources.contains(&WallSource::Obstacle(id)))
    };
    assert_eq!(find(a).count(), 3);
    assert_eq!(find(b).count(), 2);
    assert!(walls.segments.iter().all(|s| s.sources.len() == 1));
}

#[test]
fn polygon_with_hole_and_an_island() {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    let ring = |x0: f64, y0: f64, x1: f64, y1: f64| {
        Ring::new(vec![p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)])
    };
    env.insert(Obstacle::Polygon(Polygon::new(
        ring(2.0, 2.0, 8.0, 8.0),
        vec![ring(3.0, 3.0, 7.0, 7.0)],
    )));
    env.insert(square(4.0, 4.0, 6.0, 6.0)); // island in the courtyard
    env.insert(Obstacle::Point(p(3.5, 3.5))); // in the courtyard: kept
    env.insert(Obstacle::Point(p(2.5, 2.5))); // inside the frame: dropped
    let walls = normalize(&env).unwrap();
    walls.check_disjoint().unwrap();
    assert_eq!(walls.free_area(), 100.0 - 20.0 - 4.0);
    assert_eq!(
        walls.free_space().len(),
        2,
        "outside the frame, and the courtyard"
    );
    let outside = walls.free_shape_at(p(1.0, 1.0)).unwrap();
    let courtyard = walls.free_shape_at(p(6.5, 6.5)).unwrap();
    assert_ne!(outside, courtyard);
    assert_eq!(
        walls.free_space()[courtyard].len(),
        2,
        "the island is the courtyard's hole"
    );
    assert_eq!(walls.points.len(), 1);
    assert_eq!(walls.points[0].0, g(35_000, 35_000));
}

#[test]
fn fences_are_clipped_split_and_deduplicated() {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    let crate_id = env.insert(square(6.0, 4.0, 8.0, 6.0));
    // Runs from outside the boundary, through free space, into the crate and out again.
    let fence = env.insert(Obstacle::segment(p(-1.0, 5.0), p(9.0, 5.0)));
    // Crosses the first fence at (3, 5).
    let cross = env.insert(Obstacle::segment(p(3.0, 3.0), p(3.0, 7.0)));
    // Lies on the boundary: a duplicate of a one-sided wall.
    let on_wall = env.insert(Obstacle::segment(p(2.0, 0.0), p(4.0, 0.0)));
    // Ends on the boundary (T-junction) and overlaps another fence drawn twice.
    let t1 = env.insert(Obstacle::Polyline(vec![
        p(1.0, 10.0),
        p(1.0, 8.0),
        p(1.0, 7.0),
    ]));
    let t2 = env.insert(Obstacle::segment(p(1.0, 9.0), p(1.0, 7.5)));
    let walls = normalize(&env).unwrap();
    walls.check_disjoint().unwrap();
    assert_eq!(walls.free_area(), 96.0, "fences take no area");
    let two: Vec<&WallSegment> = walls.two_sided().collect();
    let with = |id: ObstacleId| {
        two.iter()
            .filter(move |s| s.sources.contains(&WallSource::Obstacle(id)))
    };
    // Fence: (0,5)-(3,5) and (3,5)-(6,5) and (8,5)-(9,5); the part in the crate is gone.
    assert_eq!(with(fence).count(), 3, "{two:?}");
    assert!(with(fence).all(|s| s.a.y == 50_000));
    assert!(with(fence).any(|s| s.a == g(0, 50_000) && s.b == g(30_000, 50_000)));
    assert!(with(fence).any(|s| s.a == g(80_000, 50_000) && s.b == g(90_000, 50_000)));
    assert_eq!(with(cross).count(), 2);
    assert_eq!(
        segments_at(&walls, g(30_000, 50_000)),
        4,
        "split at the crossing"
    );
    assert_eq!(with(on_wall).count(), 0);
    let boundary_piece = walls
        .one_sided()
        .find(|s| s.sources.contains(&WallSource::Obstacle(on_wall)))
        .unwrap();
    assert_eq!(
        boundary_piece.sources[..],
        [WallSource::Boundary, WallSource::Obstacle(on_wall)]
    );
    // The doubled fence is one straight wall listing both polylines.
    let doubled: Vec<_> = with(t1).collect();
    assert_eq!(doubled.len(), 1);
    assert_eq!(
        (doubled[0].a, doubled[0].b),
        (g(10_000, 70_000), g(10_000, 100_000))
    );
    assert_eq!(
        doubled[0].sources[..],
        [WallSource::Obstacle(t1), WallSource::Obstacle(t2)]
    );
    // Its end on the top boundary splits the boundary wall there.
    assert_eq!(segments_at(&walls, g(10_000, 100_000)), 3);
    // The crate's walls touch the fence ends on both sides.
    assert_eq!(segments_at(&walls, g(60_000, 50_000)), 3);
    assert!(walls
        .segments
        .iter()
        .any(|s| s.sources[..] == [WallSource::Obstacle(crate_id)]));
}

#[test]
fn fences_crossing_off_the_grid_are_snapped_and_stay_disjoint() {
    // Crossings at irrational-looking points on a coarse grid (10 steps per unit).
    let mut env = Environment::rectangle(p(0.0, 0.0), p(3.0, 3.0))
        .with_snap_grid(SnapGrid::new(10.0).unwrap());
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for _ in 0..40 {
        let mut q = || p(rng.random::<f64>() * 3.0, rng.random::<f64>() * 3.0);
        env.insert(Obstacle::segment(q(), q()));
    }
    let walls = normalize(&env).unwrap();
    assert_eq!(brute_check(&walls), Ok(()));
    assert!(walls.two_sided().count() > 100);
    assert_eq!(walls.free_area(), 9.0);
}

#[test]
fn points_are_kept_only_in_free_space() {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    env.insert(square(4.0, 4.0, 6.0, 6.0));
    env.insert(Obstacle::segment(p(1.0, 1.0), p(3.0, 1.0)));
    let kept = env.insert(Obstacle::Point(p(8.0, 8.0)));
    let twin = env.insert(Obstacle::Point(p(8.0, 8.000_000_01))); // snaps onto the same
    env.insert(Obstacle::Point(p(5.0, 5.0))); // inside the square
    env.insert(Obstacle::Point(p(4.0, 5.0))); // on its edge
    env.insert(Obstacle::Point(p(6.0, 6.0))); // on its corner
    env.insert(Obstacle::Point(p(0.0, 3.0))); // on the boundary
    env.insert(Obstacle::Point(p(2.0, 1.0))); // on the fence
    env.insert(Obstacle::Point(p(3.0, 1.0))); // at the fence's end
    let walls = normalize(&env).unwrap();
    walls.check_disjoint().unwrap();
    assert_eq!(
        walls.points,
        vec![(
            g(80_000, 80_000),
            vec![WallSource::Obstacle(kept), WallSource::Obstacle(twin)]
        )]
    );
}

#[test]
fn thin_polygons_become_two_sided_walls() {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    // 1e-6 thick: zero area on the default grid (1e-4 per step).
    let sliver = env.insert(Obstacle::polygon(vec![
        p(2.0, 5.0),
        p(8.0, 5.0),
        p(8.0, 5.000_001),
        p(2.0, 5.000_001),
    ]));
    // A polyline and a polygon that snap to a single point become points.
    let dot = env.insert(Obstacle::Polyline(vec![p(1.0, 1.0), p(1.000_01, 1.0)]));
    let speck = env.insert(Obstacle::polygon(vec![
        p(9.0, 9.0),
        p(9.000_01, 9.0),
        p(9.0, 9.000_01),
    ]));
    let walls = normalize(&env).unwrap();
    walls.check_disjoint().unwrap();
    let two: Vec<_> = walls.two_sided().collect();
    assert_eq!(two.len(), 1);
    assert_eq!((two[0].a, two[0].b), (g(20_000, 50_000), g(80_000, 50_000)));
    assert_eq!(two[0].sources[..], [WallSource::Obstacle(sliver)]);
    let ids: Vec<_> = walls.points.iter().map(|(_, s)| s.clone()).collect();
    assert_eq!(
        ids,
        vec![
            vec![WallSource::Obstacle(dot)],
            vec![WallSource::Obstacle(speck)]
        ]
    );
    assert_eq!(walls.free_area(), 100.0);
}

#[test]
fn an_obstacle_covering_everything_leaves_no_walls() {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    env.insert(square(-1.0, -1.0, 11.0, 11.0));
    env.insert(Obstacle::segment(p(1.0, 1.0), p(9.0, 9.0)));
    env.insert(Obstacle::Point(p(5.0, 1.0)));
    let walls = normalize(&env).unwrap();
    assert_eq!(
        walls,
        Walls {
            grid: env.snap_grid(),
            ..Walls::default()
        }
    );
    assert_eq!(walls.free_area(), 0.0);
}

#[test]
fn concave_boundary_with_obstacles_crossing_it() {
    // A U-shaped boundary; one obstacle bridges the gap between its arms outside.
    let mut env = Environment::new(Ring::new(vec![
        p(0.0, 0.0),
        p(9.0, 0.0),
        p(9.0, 9.0),
        p(6.0, 9.0),
        p(6.0, 3.0),
        p(3.0, 3.0),
        p(3.0, 9.0),
        p(0.0, 9.0),
    ]));
    let bridge = env.insert(square(2.0, 7.0, 7.0, 8.0));
    let walls = normalize(&env).unwrap();
    walls.check_disjoint().unwrap();
    assert_eq!(walls.free_area(), 81.0 - 18.0 - 2.0);
    assert_eq!(walls.free_space().len(), 1);
    // Three walls of the bridge in each arm.
    assert_eq!(
        walls
            .segments
            .iter()
            .filter(|s| s.sources.contains(&WallSource::Obstacle(bridge)))
            .count(),
        6
    );
}

/// A big map (about 5 000 polygons and 100 000 vertices on 512 × 512 units) and a grid
/// map; prints timings (benchmarks live elsewhere; nothing here asserts a duration).
#[test]
fn large_maps_normalize() {
    let options = RandomEnvironmentOptions {
        obstacles: 5000,
        size: 512.0,
        mix: ObstacleMix::POLYGONS,
        min_radius: 0.002,
        max_radius: 0.008,
        max_vertices: 40,
        on_boundary: 0.02,
        ..Default::default()
    };
    for (name, env) in [
        ("5000 polygons", random_environment(1, &options)),
        (
            "512x512 grid map",
            random_environment(2, &RandomEnvironmentOptions::grid_map(512, 6000)),
        ),
    ] {
        let start = Instant::now();
        let walls = normalize(&env).unwrap();
        let elapsed = start.elapsed();
        println!(
            "{name}: {} obstacles, {} vertices -> {} walls, {} free shapes in {elapsed:?}",
            env.obstacles().count(),
            env.vertex_count(),
            walls.segment_count(),
            walls.free_space().len()
        );
        walls.check_disjoint().unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let bounds = env.bounds();
        let samples = 400;
        let mut free = 0;
        for _ in 0..samples {
            let q = bounds.min + bounds.size() * p(rng.random(), rng.random());
            free += usize::from(originally_free(&env, q));
        }
        let box_area = bounds.size().x * bounds.size().y;
        let estimate = free as f64 / samples as f64 * box_area;
        assert!(
            (walls.free_area() - estimate).abs() < 0.12 * box_area,
            "{name}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// (f) Errors.

fn env_error(env: &Environment) -> EnvironmentError {
    match normalize(env) {
        Err(NormalizeError::Environment(e)) => e,
        other => panic!("expected an environment error, got {other:?}"),
    }
}

#[test]
fn nan_coordinates_name_the_obstacle() {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    env.insert(square(1.0, 1.0, 2.0, 2.0));
    let bad = env.insert(Obstacle::Polyline(vec![p(1.0, 1.0), p(f64::NAN, 2.0)]));
    assert!(matches!(
        env_error(&env),
        EnvironmentError::NonFinite { owner: Owner::Obstacle(id), .. } if id == bad
    ));
    let env = Environment::new(Ring::new(vec![
        p(0.0, 0.0),
        p(1.0, f64::INFINITY),
        p(1.0, 0.0),
    ]));
    assert!(matches!(
        env_error(&env),
        EnvironmentError::NonFinite {
            owner: Owner::Boundary,
            ..
        }
    ));
}

#[test]
fn self_intersecting_polygons_name_the_obstacle_and_edges() {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    let bow_tie = env.insert(Obstacle::polygon(vec![
        p(1.0, 1.0),
        p(3.0, 3.0),
        p(3.0, 1.0),
        p(1.0, 3.0),
    ]));
    let e = env_error(&env);
    assert_eq!(
        e,
        EnvironmentError::SelfIntersecting {
            owner: Owner::Obstacle(bow_tie),
            ring: 0,
            first_edge: 0,
            second_edge: 2
        }
    );
    assert!(e.to_string().contains("obstacle #0") && e.to_string().contains("edge 0 meets edge 2"));
}

#[test]
fn too_few_vertices_and_points() {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    let flat = env.insert(Obstacle::polygon(vec![
        p(1.0, 1.0),
        p(2.0, 2.0),
        p(1.0, 1.0),
    ]));
    assert_eq!(
        env_error(&env),
        EnvironmentError::TooFewVertices {
            owner: Owner::Obstacle(flat),
            ring: 0,
            distinct: 2
        }
    );
    env.remove(flat);
    let stub = env.insert(Obstacle::Polyline(vec![p(1.0, 1.0)]));
    assert_eq!(
        env_error(&env),
        EnvironmentError::TooFewPoints {
            owner: Owner::Obstacle(stub),
            count: 1
        }
    );
}

#[test]
fn obstacles_outside_the_boundary_are_rejected() {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    env.insert(square(1.0, 1.0, 2.0, 2.0));
    let far = env.insert(square(20.0, 20.0, 21.0, 21.0));
    assert_eq!(
        env_error(&env),
        EnvironmentError::OutsideBoundary {
            owner: Owner::Obstacle(far)
        }
    );
}

#[test]
fn coordinates_beyond_the_snap_range_are_rejected() {
    // ±2^29 grid steps at 10 000 per unit: about ±53 687 units.
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    let huge = env.insert(Obstacle::segment(p(5.0, 5.0), p(60_000.0, 5.0)));
    assert!(matches!(
        env_error(&env),
        EnvironmentError::Snap { owner: Owner::Obstacle(id), .. } if id == huge
    ));
    // The same environment fits a coarser grid.
    let coarse = env.clone().with_snap_grid(SnapGrid::new(100.0).unwrap());
    assert!(normalize(&coarse).is_ok());
}

#[test]
fn a_boundary_thinner_than_the_grid_is_rejected() {
    let env = Environment::new(Ring::new(vec![
        p(0.0, 0.0),
        p(10.0, 0.0),
        p(10.0, 0.000_01),
    ]));
    assert!(matches!(
        normalize(&env),
        Err(NormalizeError::BoundaryCollapsed { .. })
    ));
}

/// The fast path with open obstacles (segments, polylines) and points gives exactly the
/// walls of the overlay route: isolated fences and polylines (taken), and fences touching
/// or crossing a ring, inside an obstacle, outside the boundary, touching or crossing
/// each other, overlapping collinearly, polylines with collinear pieces, doubling back,
/// points on and off them (whichever route is taken, the walls are equal).
#[test]
fn fast_path_with_open_obstacles_equals_the_overlay_route() {
    let check = |env: &Environment, what: &str| -> bool {
        match (normalize(env), normalize_through_overlay(env)) {
            (Ok(walls), Ok(reference)) => {
                assert_eq!(walls, reference, "{what}");
                takes_disjoint_path(env).unwrap()
            }
            (Err(e), Err(f)) => {
                assert_eq!(e, f, "{what}");
                false
            }
            (a, b) => panic!("{what}: {a:?} vs {b:?}"),
        }
    };
    // Hand-made: a 10 × 10 room with a crate at (4, 4)-(6, 6).
    let base = || {
        let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
        env.insert(square(4.0, 4.0, 6.0, 6.0));
        env
    };
    let seg = |a: (f64, f64), b: (f64, f64)| Obstacle::segment(p(a.0, a.1), p(b.0, b.1));
    let line = |v: &[(f64, f64)]| Obstacle::Polyline(v.iter().map(|&(x, y)| p(x, y)).collect());
    let cases: Vec<(&str, Vec<Obstacle>, Option<bool>)> = vec![
        ("isolated", vec![seg((1.0, 1.0), (3.0, 2.0))], Some(true)),
        (
            "isolated polyline, collinear pieces",
            vec![line(&[(1.0, 1.0), (2.0, 1.0), (3.0, 1.0), (3.0, 3.0)])],
            Some(true),
        ),
        (
            "two fences meeting end to end, collinear",
            vec![seg((1.0, 1.0), (2.0, 1.0)), seg((2.0, 1.0), (3.0, 1.0))],
            Some(true),
        ),
        (
            "three fences at one end",
            vec![
                seg((1.0, 1.0), (2.0, 2.0)),
                seg((2.0, 2.0), (3.0, 1.0)),
                seg((2.0, 2.0), (2.0, 3.0)),
            ],
            Some(true),
        ),
        (
            "fence with points on and off it",
            vec![
                seg((1.0, 1.0), (3.0, 1.0)),
                Obstacle::Point(p(2.0, 1.0)),
                Obstacle::Point(p(1.0, 1.0)),
                Obstacle::Point(p(2.0, 2.0)),
                Obstacle::Point(p(5.0, 5.0)),
            ],
            Some(true),
        ),
        (
            "touching a ring at a corner",
            vec![seg((1.0, 1.0), (4.0, 4.0))],
            None,
        ),
        (
            "touching a ring inside an edge",
            vec![seg((1.0, 5.0), (4.0, 5.0))],
            None,
        ),
        (
            "touching the boundary",
            vec![seg((0.0, 5.0), (2.0, 5.0))],
            None,
        ),
        ("crossing a ring", vec![seg((1.0, 5.0), (5.0, 5.0))], None),
        ("along a ring edge", vec![seg((4.0, 4.0), (5.0, 4.0))], None),
        (
            "along the boundary",
            vec![seg((2.0, 0.0), (5.0, 0.0))],
            None,
        ),
        (
            "inside the obstacle",
            vec![seg((4.5, 4.5), (5.5, 5.5))],
            Some(false),
        ),
        (
            "crossing the boundary",
            vec![seg((8.0, 8.0), (12.0, 12.0))],
            None,
        ),
        (
            "outside the boundary",
            vec![seg((11.0, 11.0), (12.0, 12.0))],
            None,
        ),
        (
            "crossing fences",
            vec![seg((1.0, 1.0), (3.0, 3.0)), seg((1.0, 3.0), (3.0, 1.0))],
            Some(false),
        ),
        (
            "fence ending inside another",
            vec![seg((1.0, 1.0), (3.0, 1.0)), seg((2.0, 1.0), (2.0, 3.0))],
            Some(false),
        ),
        (
            "collinear overlap",
            vec![seg((1.0, 1.0), (3.0, 1.0)), seg((2.0, 1.0), (3.5, 1.0))],
            Some(false),
        ),
        (
            "the same fence twice",
            vec![seg((1.0, 1.0), (3.0, 1.0)), seg((3.0, 1.0), (1.0, 1.0))],
            Some(false),
        ),
        (
            "a chain and a fence over it",
            vec![
                line(&[(1.0, 1.0), (2.0, 1.0), (3.0, 1.0)]),
                seg((1.0, 1.0), (3.0, 1.0)),
            ],
            Some(false),
        ),
        (
            "polyline doubling back",
            vec![line(&[(1.0, 1.0), (3.0, 1.0), (2.0, 1.0)])],
            Some(false),
        ),
        (
            "closed polyline",
            vec![line(&[(1.0, 1.0), (3.0, 1.0), (2.0, 2.0), (1.0, 1.0)])],
            Some(true),
        ),
        (
            "fence near a corner",
            vec![seg((7.0, 7.0), (8.0, 8.0))],
            Some(true),
        ),
    ];
    for (what, obstacles, expect) in cases {
        let mut env = base();
        for o in obstacles {
            env.insert(o);
        }
        let taken = check(&env, what);
        if let Some(expect) = expect {
            assert_eq!(taken, expect, "{what}: fast path taken");
        }
    }
    // Seeded lattice environments with fences and polylines on the half lattice (so
    // that they often touch, cross, overlap or continue one another) and points.
    let (mut fast, mut total) = (0, 0);
    for seed in 0..2000u64 {
        let n = [4, 6, 10][seed as usize % 3];
        let mut env = disjoint_environment(seed, n, seed % 7 == 6, seed % 5 == 4);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        let half = |rng: &mut ChaCha8Rng| {
            p(
                rng.random_range(0..=2 * n) as f64 / 2.0,
                rng.random_range(0..=2 * n) as f64 / 2.0,
            )
        };
        for _ in 0..rng.random_range(1..6) {
            match rng.random_range(0..4) {
                0 => {
                    let a = half(&mut rng);
                    env.insert(Obstacle::Point(a));
                }
                1 => {
                    // A short fence, often isolated.
                    let a = half(&mut rng);
                    let d = p(
                        rng.random_range(-2..=2) as f64 / 4.0,
                        rng.random_range(-2..=2) as f64 / 4.0,
                    );
                    let b = p(a.x + d.x, a.y + d.y);
                    env.insert(Obstacle::Polyline(vec![a, b]));
                }
                2 => {
                    // A polyline on one line now and then (collinear pieces).
                    let a = half(&mut rng);
                    let d = p(rng.random_range(-1..=1) as f64 / 4.0, 0.25);
                    let k = rng.random_range(2..5);
                    let straight = rng.random_bool(0.5);
                    let v = (0..k)
                        .map(|i| {
                            let t = i as f64;
                            let bend = if straight || i % 2 == 0 { 0.0 } else { 0.25 };
                            p(a.x + t * d.x + bend, a.y + t * d.y)
                        })
                        .collect();
                    env.insert(Obstacle::Polyline(v));
                }
                _ => {
                    let (a, b) = (half(&mut rng), half(&mut rng));
                    if a != b {
                        env.insert(Obstacle::Polyline(vec![a, b]));
                    }
                }
            }
        }
        let taken = check(&env, &format!("lattice with fences {seed}"));
        total += 1;
        fast += usize::from(taken);
    }
    println!("fast path on {fast} of {total}");
    assert!(fast > total / 10, "fast path on {fast} of {total}");
    assert!(fast < total, "the fallback was exercised");
}
