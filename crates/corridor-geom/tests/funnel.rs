//! The funnel algorithm against a brute-force shortest path in random x-monotone sleeves.

use corridor_geom::funnel::{taut_path, taut_path_into, Disk, Portal, TautPath};
use corridor_geom::{orient, Orientation, Point, Ring, Segment};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random x-monotone sleeve: lower and upper chains over shared x positions, the gap
/// between them at least `min_gap`.
fn sleeve(rng: &mut ChaCha8Rng, n: usize, min_gap: f64) -> (Vec<Point>, Vec<Point>) {
    let mut lower = Vec::new();
    let mut upper = Vec::new();
    let mut y = 0.0;
    for i in 0..n {
        let x = i as f64 * rng.random_range(0.5..2.0)
            + if i > 0 {
                lower.last().map_or(0.0, |p: &Point| p.x)
            } else {
                0.0
            };
        y += rng.random_range(-2.0..2.0);
        let gap = rng.random_range(min_gap..min_gap + 3.0);
        lower.push(Point::new(x, y));
        upper.push(Point::new(x, y + gap));
    }
    (lower, upper)
}

/// Start and goal mid-way across the sleeve's first and last portal, and the inner
/// portals as disks of radius `r` (left on the upper chain).
fn crossing(lower: &[Point], upper: &[Point], r: f64) -> (Point, Point, Vec<Portal>) {
    let n = lower.len();
    let portals = (1..n - 1)
        .map(|i| Portal {
            left: Disk::new(upper[i], r),
            right: Disk::new(lower[i], r),
        })
        .collect();
    (
        lower[0].lerp(upper[0], 0.5),
        lower[n - 1].lerp(upper[n - 1], 0.5),
        portals,
    )
}

fn polygon(lower: &[Point], upper: &[Point]) -> Ring {
    let mut v = lower.to_vec();
    v.extend(upper.iter().rev());
    Ring::new(v)
}

/// Whether the segment `a b` stays inside the closed polygon (touching the boundary
/// allowed): it crosses no edge properly and points along it are inside or on the boundary.
fn inside(ring: &Ring, a: Point, b: Point) -> bool {
    let crosses = |e: Segment| {
        let opposite = |p: Orientation, q: Orientation| {
            p != Orientation::Collinear && q != Orientation::Collinear && p != q
        };
        opposite(orient(a, b, e.a), orient(a, b, e.b))
            && opposite(orient(e.a, e.b, a), orient(e.a, e.b, b))
    };
    let in_or_on =
        |p: Point| ring.contains_or_touches(p) || ring.edges().any(|e| e.distance(p) < 1e-9);
    !ring.edges().any(crosses) && (1..50).all(|k| in_or_on(a.lerp(b, k as f64 / 50.0)))
}

fn brute_force_shortest(ring: &Ring, s: Point, g: Point) -> f64 {
    let mut nodes = vec![s, g];
    nodes.extend(ring.vertices().iter().copied());
    let n = nodes.len();
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[0] = 0.0;
    for _ in 0..n {
        let u = (0..n)
            .filter(|&i| !done[i])
            .min_by(|&i, &j| dist[i].total_cmp(&dist[j]))
            .unwrap();
        done[u] = true;
        for v in 0..n {
            if !done[v] && inside(ring, nodes[u], nodes[v]) {
                dist[v] = dist[v].min(dist[u] + nodes[u].distance(nodes[v]));
            }
        }
    }
    dist[1]
}

#[test]
fn zero_radius_matches_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for case in 0..1000 {
        let n = rng.random_range(3..12);
        let (lower, upper) = sleeve(&mut rng, n, 0.3);
        let ring = polygon(&lower, &upper);
        if ring.find_self_intersection().is_some() {
            continue;
        }
        // Exactly on the end edges (which are vertical), so the brute force sees them inside.
        let across =
            |i: usize, t: f64| Point::new(lower[i].x, lower[i].y + t * (upper[i].y - lower[i].y));
        let s = across(0, rng.random_range(0.1..0.9));
        let g = across(n - 1, rng.random_range(0.1..0.9));
        let portals: Vec<Portal> = (1..n - 1)
            .map(|i| Portal {
                left: Disk::point(upper[i]),
                right: Disk::point(lower[i]),
            })
            .collect();
        let path = taut_path(s, g, &portals);
        let expected = brute_force_shortest(&ring, s, g);
        let points = path.polyline(1e-3);
        for w in points.windows(2) {
            assert!(
                inside(&ring, w[0], w[1]),
                "case {case}: path leaves the sleeve at {} {}",
                w[0],
                w[1]
            );
        }
        assert!(
            (path.length - expected).abs() <= 1e-9 * expected.max(1.0),
            "case {case}: funnel {} brute force {expected}",
            path.length
        );
    }
}

#[test]
fn positive_radius_keeps_clearance_and_is_longer() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let r = 0.4;
    let mut checked = 0;
    for _ in 0..300 {
        let n = rng.random_range(3..10);
        let (lower, upper) = sleeve(&mut rng, n, 2.0 * r + 0.5);
        let ring = polygon(&lower, &upper);
        if ring.find_self_intersection().is_some() {
            continue;
        }
        let (s, g, portals) = crossing(&lower, &upper, r);
        let with_radius = taut_path(s, g, &portals);
        let zero: Vec<Portal> = portals
            .iter()
            .map(|p| Portal {
                left: Disk::point(p.left.center),
                right: Disk::point(p.right.center),
            })
            .collect();
        let without = taut_path(s, g, &zero);
        assert!(with_radius.length >= without.length - 1e-9);
        // Clearance from every chain vertex that is a disk: the polyline never enters one.
        let points = with_radius.polyline(1e-4);
        for w in points.windows(2) {
            let seg = Segment::new(w[0], w[1]);
            for p in lower[1..n - 1].iter().chain(upper[1..n - 1].iter()) {
                assert!(
                    seg.distance(*p) >= r - 1e-9,
                    "path enters a disk: {} < {r}",
                    seg.distance(*p)
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 100);
}

#[test]
fn around_one_corner_the_length_is_analytic() {
    // Start below-left, goal above-right of a disk of radius 1 at the origin, which must stay
    // on the left: two tangents and an arc.
    let r = 1.0;
    let (s, g) = (Point::new(-3.0, -1.0), Point::new(1.0, 3.0));
    let portals = [Portal {
        left: Disk::new(Point::ZERO, r),
        right: Disk::point(Point::new(3.0, -3.0)),
    }];
    let path = taut_path(s, g, &portals);
    let tangent = |p: Point| (p.length_squared() - r * r).sqrt();
    let (ts, tg) = (tangent(s), tangent(g));
    // Angle between the tangent points.
    let angle_s = s.to_angle() + (r / s.length()).acos();
    let angle_g = g.to_angle() - (r / g.length()).acos();
    let arc = (angle_g - angle_s)
        .rem_euclid(std::f64::consts::TAU)
        .min(std::f64::consts::TAU - (angle_g - angle_s).rem_euclid(std::f64::consts::TAU));
    let expected = ts + tg + r * arc;
    assert!(
        (path.length - expected).abs() < 1e-9,
        "{} vs {expected}",
        path.length
    );
}

/// Three clearance disks on one straight wall, all touched by the path: the middle one
/// meets the path at a single tangent point and must add no turn (rounding once made it
/// a full turn around the disk).
#[test]
fn collinear_disks_add_no_turn() {
    let r = 0.25;
    let wall = [
        Point::new(14.5378, 5.7042),
        Point::new(13.404182199914572, 5.601860868618331),
        Point::new(10.4991, 5.3396),
    ];
    // Walking west above the wall (the wall on the walker's left), from a start and to a
    // goal both below the wall's line extended, so the path hugs the wall's top.
    let portals: Vec<Portal> = wall
        .iter()
        .map(|&p| Portal {
            left: Disk::new(p, r),
            right: Disk::point(p + Point::new(0.0, 8.0)),
        })
        .collect();
    let (start, goal) = (Point::new(30.0, 4.0), Point::new(0.0, 3.0));
    let path = taut_path(start, goal, &portals);
    let straight: f64 = path
        .corners
        .windows(2)
        .map(|w| w[0].leave.distance(w[1].arrive))
        .sum();
    // Arcs can only add what the two real turns (at the wall's ends) need: far less than
    // one full turn of the disk.
    assert!(
        path.length - straight < std::f64::consts::PI * r,
        "arcs add {}",
        path.length - straight
    );
}

/// The goal sits beyond the last portal but in the angular shadow of that portal's
/// clearance disk, nearer than the disk: the path goes straight to it instead of wrapping
/// the disk.
#[test]
fn goal_in_the_shadow_of_a_disk_is_reached_straight() {
    let portal = Portal {
        left: Disk::new(Point::new(40.0, 24.727), 0.6),
        right: Disk::point(Point::new(11.2416, 18.6953)),
    };
    let (start, goal) = (Point::new(5.233, 32.2249), Point::new(39.395, 24.3385));
    let path = taut_path(start, goal, &[portal]);
    assert_eq!(path.corners.len(), 2, "{:?}", path.corners);
    assert!((path.length - start.distance(goal)).abs() < 1e-12);
}

/// The same goal behind a wall that leaves the disk's corner back towards the start (a
/// later left end stands for it): now the path must wrap the corner.
#[test]
fn goal_behind_the_corner_wraps_it() {
    let corner = Point::new(8.9867, 15.0828);
    let r = 0.25;
    let portals = [
        Portal {
            left: Disk::new(corner, r),
            right: Disk::point(Point::new(11.547, 17.0348)),
        },
        Portal {
            left: Disk::point(Point::new(9.0692, 14.8141) + Point::new(-0.95, -0.3) * r),
            right: Disk::point(Point::new(6.9479, 15.9663)),
        },
    ];
    let (start, goal) = (Point::new(36.2697, 12.0072), Point::new(8.9087, 13.9329));
    let path = taut_path(start, goal, &portals);
    assert!(
        path.corners.iter().any(|c| c.disk.center == corner),
        "{:?}",
        path.corners
    );
}

#[test]
fn reused_buffers_give_the_same_paths() {
    // One `TautPath` and one polyline buffer reused across sleeves of different lengths
    // and radii (longer, then shorter): the results equal freshly built ones.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut reused = TautPath::empty();
    let mut points = Vec::new();
    for round in 0..200 {
        let n = rng.random_range(3..12);
        let r = if round % 2 == 0 { 0.0 } else { 0.3 };
        let (lower, upper) = sleeve(&mut rng, n, 2.0 * r + 0.5);
        let (s, g, portals) = crossing(&lower, &upper, r);
        let fresh = taut_path(s, g, &portals);
        taut_path_into(s, g, &portals, &mut reused);
        assert_eq!(reused, fresh);
        reused.polyline_into(0.01, &mut points);
        assert_eq!(points, fresh.polyline(0.01));
    }
}

/// A 1-wide door at radius 0.5 (less a 10⁻⁷ tolerance): the corner disks on either side
/// nearly touch, their tangents from the start almost coincide, and the funnel once
/// wrapped the upper disk almost all the way round (length 12.02 instead of 8.88). The
/// lower disk blocks the way to the upper one, so the path wraps the lower one first.
#[test]
fn door_as_wide_as_the_disk() {
    let r = 0.5 - 1e-7;
    let disk = |x: f64, y: f64| Disk::new(Point::new(x, y), r);
    let point = |x: f64, y: f64| Disk::point(Point::new(x, y));
    let portals = [
        Portal {
            left: disk(272.0, 358.0),
            right: point(267.0, 353.5),
        },
        Portal {
            left: disk(272.0, 358.0),
            right: disk(272.0, 357.0),
        },
        Portal {
            left: disk(273.0, 358.0),
            right: disk(273.0, 357.0),
        },
        Portal {
            left: point(277.0, 353.5),
            right: disk(273.0, 357.0),
        },
    ];
    let path = taut_path(Point::new(266.5, 356.5), Point::new(273.5, 355.5), &portals);
    // Over (272, 357), along y = 357.5, round (273, 357) down to the goal.
    assert!((path.length - 8.876).abs() < 1e-3, "{}", path.length);
    for corner in [
        (272.0, 358.0),
        (273.0, 358.0),
        (272.0, 357.0),
        (273.0, 357.0),
    ] {
        let c = Point::new(corner.0, corner.1);
        for w in path.polyline(1e-4).windows(2) {
            let d = corridor_geom::Segment::new(w[0], w[1]).distance(c);
            assert!(d >= r - 1e-9, "{w:?} is {d} from {c}");
        }
    }
}

/// lak303d at r = 0.5 (scenario 533, two portals of its corridor found by the
/// `funnel_case` example of corridor-ecm): a gap between two corners' disks, then a gap
/// between the same left corner and a point `r` out from the right wall, 0.73 from the
/// right corner. The shortest path is tangent to the right corner's disk, wraps it
/// clockwise and leaves tangent to the goal; the point lies just right of the first
/// tangent, so it bends nothing.
fn shadowed_point_end() -> (Point, Point, [Portal; 2], f64) {
    let r = 0.4999999;
    let (s, g) = (Point::new(10.5, 134.5), Point::new(131.5, 70.5));
    let corner = Point::new(29.0, 133.0);
    let out = Point::new(28.5000001, 133.52525512860842);
    let portals = [
        Portal {
            left: Disk::new(Point::new(25.0, 136.0), r),
            right: Disk::new(corner, r),
        },
        Portal {
            left: Disk::new(Point::new(25.0, 136.0), r),
            right: Disk::point(out),
        },
    ];
    // Tangent from s, arc, tangent to g around the corner's disk (on the walker's right).
    let (ds, dg) = (s.distance(corner), g.distance(corner));
    let (u, v) = (s - corner, g - corner);
    // Clockwise from `u` to `v`, over the top of the disk.
    let angle = (-u.perp_dot(v).atan2(u.dot(v))).rem_euclid(std::f64::consts::TAU);
    let arc = angle - (r / ds).acos() - (r / dg).acos();
    assert!(arc > 0.0);
    let expected = (ds * ds - r * r).sqrt() + (dg * dg - r * r).sqrt() + r * arc;
    // The first tangent keeps `out` on the walker's right.
    let direction = Point::from_angle((corner - s).to_angle() + (r / ds).asin());
    assert!(direction.perp_dot(out - s) < 0.0);
    (s, g, portals, expected)
}

/// Forwards the funnel wrapped the disk and then went back to the point (142.16): the
/// disk's tangent point lies beyond the second portal, whose gap the piece into the
/// disk crosses on its way.
#[test]
fn point_end_in_the_shadow_of_a_disk_forwards() {
    let (s, g, portals, expected) = shadowed_point_end();
    let path = taut_path(s, g, &portals);
    assert!(
        (path.length - expected).abs() < 1e-9,
        "{} expected {expected}",
        path.length
    );
    assert_eq!(path.corners.len(), 3);
}

/// From the goal the funnel takes the point as an apex and cuts through the disk
/// (138.78): seen from the goal, the first portal's gap is hidden behind the far
/// corner's disk, the sides cross at once and the nearer end (the point) becomes the
/// apex before the next portal's disk, which blocks the way to it, is looked at. Not
/// fixed yet (session 26); the planner's clearance check and retries catch it.
#[test]
#[ignore = "open: an apex chosen where a later portal's disk blocks the way to it"]
fn point_end_in_the_shadow_of_a_disk_backwards() {
    let (s, g, portals, expected) = shadowed_point_end();
    let swapped: Vec<Portal> = portals.iter().rev().map(Portal::reversed).collect();
    let path = taut_path(g, s, &swapped);
    assert!(
        (path.length - expected).abs() < 1e-9,
        "{} expected {expected}",
        path.length
    );
}
