//! Exact predicates, point-in-ring and the convex hull, each checked against an
//! independent brute-force computation in exact integer (rational) arithmetic.

use corridor_geom::{
    convex_hull, orient, orient_grid, point_on_segment, segments_intersect,
    segments_intersect_grid, GridPoint, Orientation, Point, Polygon, Ring,
};
use corridor_testkit::random::random_concave_polygon;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

type I2 = (i128, i128);

fn cross(o: I2, a: I2, b: I2) -> i128 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

fn sign_to_orientation(s: i128) -> Orientation {
    match s.signum() {
        1 => Orientation::CounterClockwise,
        -1 => Orientation::Clockwise,
        _ => Orientation::Collinear,
    }
}

fn pt(p: I2) -> Point {
    Point::new(p.0 as f64, p.1 as f64)
}

fn gpt(p: I2) -> GridPoint {
    GridPoint::new(p.0 as i32, p.1 as i32)
}

/// Whether `p` lies on the closed segment `a b`, exactly.
fn brute_on_segment(p: I2, a: I2, b: I2) -> bool {
    cross(a, b, p) == 0
        && p.0 >= a.0.min(b.0)
        && p.0 <= a.0.max(b.0)
        && p.1 >= a.1.min(b.1)
        && p.1 <= a.1.max(b.1)
}

/// Whether closed segments share a point, by solving for the intersection with rationals.
fn brute_intersect(a: I2, b: I2, c: I2, d: I2) -> bool {
    if a == b {
        return brute_on_segment(a, c, d);
    }
    if c == d {
        return brute_on_segment(c, a, b);
    }
    let r = (b.0 - a.0, b.1 - a.1);
    let s = (d.0 - c.0, d.1 - c.1);
    let den = r.0 * s.1 - r.1 * s.0;
    let qp = (c.0 - a.0, c.1 - a.1);
    if den == 0 {
        if qp.0 * r.1 - qp.1 * r.0 != 0 {
            return false; // parallel, different lines
        }
        // Collinear: project on r and compare intervals.
        let rr = r.0 * r.0 + r.1 * r.1;
        let t0 = qp.0 * r.0 + qp.1 * r.1;
        let t1 = t0 + s.0 * r.0 + s.1 * r.1;
        let (lo, hi) = (t0.min(t1), t0.max(t1));
        return hi >= 0 && lo <= rr;
    }
    // a + t r = c + u s, t = (qp x s) / den, u = (qp x r) / den, both in [0, 1].
    let t_num = qp.0 * s.1 - qp.1 * s.0;
    let u_num = qp.0 * r.1 - qp.1 * r.0;
    let within = |num: i128| {
        if den > 0 {
            num >= 0 && num <= den
        } else {
            num <= 0 && num >= den
        }
    };
    within(t_num) && within(u_num)
}

#[test]
fn orient_matches_exact_determinant() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for range in [5i64, 1_000, 1 << 26, 1 << 40] {
        for _ in 0..20_000 {
            let mut p = || -> I2 {
                (
                    rng.random_range(-range..=range) as i128,
                    rng.random_range(-range..=range) as i128,
                )
            };
            let (a, b, c) = (p(), p(), p());
            let exact = sign_to_orientation(cross(a, b, c));
            assert_eq!(orient(pt(a), pt(b), pt(c)), exact, "{a:?} {b:?} {c:?}");
            if range < (1 << 29) {
                assert_eq!(orient_grid(gpt(a), gpt(b), gpt(c)), exact);
            }
        }
    }
}

#[test]
fn orient_is_exact_on_nearly_collinear_points() {
    // Coordinates k / 2^30 with |k| < 2^53 are exact in f64; scaled by 2^30 the
    // determinant is an exact i128. Points a hair off a line are where naive
    // floating-point cross products go wrong.
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let scale = (1u64 << 30) as f64;
    for _ in 0..20_000 {
        let k = |rng: &mut ChaCha8Rng| rng.random_range(-(1i64 << 50)..(1i64 << 50)) as i128;
        let a = (k(&mut rng), k(&mut rng));
        let b = (k(&mut rng), k(&mut rng));
        // c = a + (b - a) * m / 2^8, then nudged by -1, 0 or +1 unit in x.
        let m = rng.random_range(-256i128..=256);
        let nudge = rng.random_range(-1i128..=1);
        let c = (
            a.0 + (b.0 - a.0) * m / 256 + nudge,
            a.1 + (b.1 - a.1) * m / 256,
        );
        if (b.0 - a.0) * m % 256 != 0 || (b.1 - a.1) * m % 256 != 0 {
            continue; // keep c exactly on the line before the nudge
        }
        let f = |p: I2| Point::new(p.0 as f64 / scale, p.1 as f64 / scale);
        let exact = sign_to_orientation(cross(a, b, c));
        assert_eq!(orient(f(a), f(b), f(c)), exact, "{a:?} {b:?} {c:?}");
    }
}

#[test]
fn orient_survives_the_classic_rounding_trap() {
    // Kettner et al., "Classroom examples of robustness problems": p = (0.5 + i·2⁻⁵³,
    // 0.5 + j·2⁻⁵³) against the diagonal through (12, 12) and (24, 24). Scaled by 2⁵³
    // every coordinate is an integer, so the truth is an exact i128 determinant.
    let ulp = f64::EPSILON / 2.0; // 2^-53
    let big = 1i128 << 53;
    let mut naive_wrong = 0;
    for (q, r) in [
        ((12.0, 12.0), (24.0, 24.0)),
        ((24.0, 24.0), (12.0, 12.0)),
        ((13.0, 13.0), (27.0, 27.0)),
    ] {
        for i in 0..64 {
            for j in 0..64 {
                let p = Point::new(0.5 + i as f64 * ulp, 0.5 + j as f64 * ulp);
                let (fq, fr) = (Point::new(q.0, q.1), Point::new(r.0, r.1));
                let exact = sign_to_orientation(cross(
                    (big / 2 + i, big / 2 + j),
                    (q.0 as i128 * big, q.1 as i128 * big),
                    (r.0 as i128 * big, r.1 as i128 * big),
                ));
                assert_eq!(orient(p, fq, fr), exact, "{i} {j}");
                let naive = (fq.x - p.x) * (fr.y - p.y) - (fq.y - p.y) * (fr.x - p.x);
                let naive = if naive > 0.0 {
                    Orientation::CounterClockwise
                } else if naive < 0.0 {
                    Orientation::Clockwise
                } else {
                    Orientation::Collinear
                };
                naive_wrong += usize::from(naive != exact);
            }
        }
    }
    // The test would prove nothing if plain f64 arithmetic got these right too.
    assert!(naive_wrong > 100, "{naive_wrong}");
}

#[test]
fn segments_intersect_matches_rational_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut hits = [0usize; 2];
    for range in [2i64, 6, 1_000] {
        for _ in 0..40_000 {
            let mut p = || -> I2 {
                (
                    rng.random_range(-range..=range) as i128,
                    rng.random_range(-range..=range) as i128,
                )
            };
            let (a, b, c, d) = (p(), p(), p(), p());
            let exact = brute_intersect(a, b, c, d);
            hits[exact as usize] += 1;
            assert_eq!(
                segments_intersect(pt(a), pt(b), pt(c), pt(d)),
                exact,
                "{a:?} {b:?} {c:?} {d:?}"
            );
            assert_eq!(
                segments_intersect_grid(gpt(a), gpt(b), gpt(c), gpt(d)),
                exact,
                "{a:?} {b:?} {c:?} {d:?}"
            );
        }
    }
    assert!(hits[0] > 1000 && hits[1] > 1000, "{hits:?}");
}

#[test]
fn degenerate_segments_intersect_only_where_they_are() {
    let p = |x: f64, y: f64| Point::new(x, y);
    // A point segment inside the other segment's box but off the segment.
    assert!(!segments_intersect(
        p(1., 1.),
        p(1., 1.),
        p(0., 0.),
        p(2., 1.)
    ));
    assert!(!segments_intersect(
        p(0., 0.),
        p(2., 1.),
        p(1., 1.),
        p(1., 1.)
    ));
    assert!(segments_intersect(
        p(1., 0.5),
        p(1., 0.5),
        p(0., 0.),
        p(2., 1.)
    ));
    assert!(segments_intersect(
        p(3., 3.),
        p(3., 3.),
        p(3., 3.),
        p(3., 3.)
    ));
    assert!(!segments_intersect(
        p(3., 3.),
        p(3., 3.),
        p(3., 4.),
        p(3., 4.)
    ));
}

#[test]
fn point_on_segment_matches_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for _ in 0..50_000 {
        let mut p = || -> I2 { (rng.random_range(-4..=4), rng.random_range(-4..=4)) };
        let (q, a, b) = (p(), p(), p());
        assert_eq!(
            point_on_segment(pt(q), pt(a), pt(b)),
            brute_on_segment(q, a, b)
        );
    }
}

/// Exact even-odd ray casting; `None` for points on the boundary.
fn brute_inside(ring: &[I2], p: I2) -> Option<bool> {
    let n = ring.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if brute_on_segment(p, a, b) {
            return None;
        }
        if (a.1 > p.1) != (b.1 > p.1) {
            // x of the crossing > p.x  <=>  (p.x - a.x)(b.y - a.y) < (p.y - a.y)(b.x - a.x)
            // with the inequality flipped when b.y < a.y.
            let lhs = (p.0 - a.0) * (b.1 - a.1);
            let rhs = (p.1 - a.1) * (b.0 - a.0);
            let right = if b.1 > a.1 { lhs < rhs } else { lhs > rhs };
            if right {
                inside = !inside;
            }
        }
    }
    Some(inside)
}

fn integer_ring(rng: &mut ChaCha8Rng, radius: f64, vertices: usize) -> Option<Vec<I2>> {
    let ring = random_concave_polygon(rng, Point::ZERO, radius, vertices);
    let v: Vec<I2> = ring
        .vertices()
        .iter()
        .map(|p| (p.x.round() as i128, p.y.round() as i128))
        .collect();
    let r = Ring::new(v.iter().map(|&p| pt(p)).collect());
    (r.len() == v.len()
        && r.distinct_vertex_count() == v.len()
        && r.find_self_intersection().is_none())
    .then_some(v)
}

#[test]
fn ring_point_location_matches_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut rings = 0;
    let mut counts = [0usize; 3];
    while rings < 150 {
        let n = rng.random_range(3..14);
        let Some(v) = integer_ring(&mut rng, 9.0, n) else {
            continue;
        };
        rings += 1;
        let mut ring = Ring::new(v.iter().map(|&p| pt(p)).collect());
        if rings % 2 == 0 {
            ring = ring.reversed();
        }
        for x in -10..=10 {
            for y in -10..=10 {
                let q = (x, y);
                let expected = brute_inside(&v, q);
                counts[match expected {
                    None => 0,
                    Some(false) => 1,
                    Some(true) => 2,
                }] += 1;
                assert_eq!(ring.on_boundary(pt(q)), expected.is_none());
                assert_eq!(ring.contains(pt(q)), expected == Some(true), "{v:?} {q:?}");
                assert_eq!(ring.contains_or_touches(pt(q)), expected != Some(false));
            }
        }
    }
    assert!(counts.iter().all(|&c| c > 500), "{counts:?}");
}

#[test]
fn polygon_with_hole_point_location() {
    let sq = |x0: f64, y0: f64, s: f64| {
        Ring::new(vec![
            Point::new(x0, y0),
            Point::new(x0 + s, y0),
            Point::new(x0 + s, y0 + s),
            Point::new(x0, y0 + s),
        ])
    };
    let frame = Polygon::new(sq(0.0, 0.0, 4.0), vec![sq(1.0, 1.0, 2.0)]);
    for x in 0..=8 {
        for y in 0..=8 {
            let p = Point::new(x as f64 / 2.0, y as f64 / 2.0);
            let in_outer = (0.0..=4.0).contains(&p.x) && (0.0..=4.0).contains(&p.y);
            let in_hole = (1.0..=3.0).contains(&p.x) && (1.0..=3.0).contains(&p.y);
            let strictly_hole = p.x > 1.0 && p.x < 3.0 && p.y > 1.0 && p.y < 3.0;
            let on_outer = in_outer && (p.x == 0.0 || p.x == 4.0 || p.y == 0.0 || p.y == 4.0);
            assert_eq!(frame.contains(p), in_outer && !on_outer && !in_hole, "{p}");
            assert_eq!(
                frame.contains_or_touches(p),
                in_outer && !strictly_hole,
                "{p}"
            );
        }
    }
}

/// Hull edges by brute force: `p → q` is an edge when every point is strictly left of it
/// or on the closed segment `p q`.
fn brute_hull_edges(points: &[I2]) -> Vec<(I2, I2)> {
    let mut distinct = points.to_vec();
    distinct.sort();
    distinct.dedup();
    let mut edges = Vec::new();
    for &p in &distinct {
        for &q in &distinct {
            if p == q {
                continue;
            }
            if distinct
                .iter()
                .all(|&r| cross(p, q, r) > 0 || brute_on_segment(r, p, q))
            {
                edges.push((p, q));
            }
        }
    }
    edges
}

#[test]
fn convex_hull_matches_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for case in 0..600 {
        let n = rng.random_range(0..30);
        let range: i128 = [2, 5, 1_000][case % 3];
        let mut points: Vec<I2> = (0..n)
            .map(|_| {
                (
                    rng.random_range(-range..=range),
                    rng.random_range(-range..=range),
                )
            })
            .collect();
        if case % 10 == 0 {
            // All on one line, with duplicates.
            points = (0..n)
                .map(|_| {
                    let t = rng.random_range(-3i128..=3);
                    (2 * t + 1, -3 * t)
                })
                .collect();
        }
        let hull: Vec<I2> = convex_hull(&points.iter().map(|&p| pt(p)).collect::<Vec<_>>())
            .iter()
            .map(|p| (p.x as i128, p.y as i128))
            .collect();
        let mut distinct = points.clone();
        distinct.sort();
        distinct.dedup();
        let edges = brute_hull_edges(&points);
        if distinct.len() <= 2 {
            assert_eq!(hull, distinct, "{points:?}");
            continue;
        }
        if edges.len() == 2 && edges[0] == (edges[1].1, edges[1].0) {
            // All collinear: the two extreme points.
            let mut h = hull.clone();
            h.sort();
            let mut e = vec![edges[0].0, edges[0].1];
            e.sort();
            assert_eq!(h, e, "{points:?}");
            continue;
        }
        assert_eq!(hull.len(), edges.len(), "{points:?}: {hull:?} vs {edges:?}");
        for i in 0..hull.len() {
            let e = (hull[i], hull[(i + 1) % hull.len()]);
            assert!(edges.contains(&e), "{points:?}: {e:?} is not a hull edge");
        }
        assert_eq!(hull[0], distinct[0], "starts at the lowest-leftmost point");
    }
}

#[test]
fn convex_hull_ignores_non_finite_points() {
    let pts = [
        Point::new(0.0, 0.0),
        Point::new(f64::NAN, 1.0),
        Point::new(1.0, 0.0),
        Point::new(0.0, f64::INFINITY),
        Point::new(0.0, 1.0),
    ];
    assert_eq!(convex_hull(&pts).len(), 3);
}
