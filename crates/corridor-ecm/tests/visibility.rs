//! The ECM's visibility queries against the test kit's independent oracle (an angular
//! sweep over all walls; brute-force segment–wall intersection for line of sight), on
//! random environments (degenerate ones included: grid maps with collinear walls, pinch
//! corners and query points on walls' supporting lines) and on a sample of the shared
//! Moving AI maps. Both implementations are checked: the ECM cell walk and the
//! [`VisibilityIndex`] (triangular expansion on a constrained triangulation). The example
//! `visibility_check` runs the large counts.

use corridor_ecm::{
    Ecm, EdgeKind, ViewLimits, VisibilityError, VisibilityIndex, VisibilityPolygon,
};
use corridor_geom::{point_on_segment, Environment, Obstacle, Point, Polygon, Ring};
use corridor_testkit::visibility_oracle::{
    limit_polygon, merge_collinear, merge_limited, polygon_area, WallSweep,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Compares one visibility polygon with the oracle's: the same number of corners after
/// merging collinear ones, the same area to 1e-9 relative. `None` when `q` is not free
/// for the ECM (skipped and counted by the caller).
fn check_polygon(
    view: &dyn Fn(Point) -> Result<VisibilityPolygon, VisibilityError>,
    sweep: &WallSweep,
    q: Point,
) -> Option<Result<(), String>> {
    // A point on a wall is not free; the ECM's nearest points on a slanted wall are
    // rounded, so it may take such a point for free (a documented limit): not compared.
    if sweep.on_wall(q) {
        return None;
    }
    let ours = match view(q) {
        Ok(p) => p,
        Err(VisibilityError::NotInFreeSpace { .. } | VisibilityError::OnObstacle { .. }) => {
            return None
        }
        Err(e) => return Some(Err(format!("{q}: {e}"))),
    };
    assert_eq!(ours.kinds().len(), ours.len());
    let a = merge_collinear(ours.vertices(), 1e-9);
    let b = merge_collinear(&sweep.visibility_polygon(q), 1e-9);
    let (area_a, area_b) = (polygon_area(&a), polygon_area(&b));
    let rel = (area_a - area_b).abs() / area_b.abs().max(1e-300);
    if a.len() != b.len() || rel > 1e-9 || (ours.area() - area_a).abs() > 1e-9 * area_a.abs() {
        return Some(Err(format!(
            "{q:?}: ours {} corners, area {area_a}; sweep {} corners, area {area_b}\n ours {a:?}\n sweep {b:?}",
            a.len(),
            b.len()
        )));
    }
    Some(Ok(()))
}

fn walls_of(env: &Environment) -> WallSweep {
    WallSweep::new(
        corridor_geom::normalize(env)
            .unwrap()
            .user_segments()
            .collect(),
    )
}

/// Checks `points` on the ECM walk and on the index, and returns (checked, skipped) of
/// the ECM walk; panics with the failures.
fn check_points(
    ecm: &Ecm,
    index: &VisibilityIndex,
    sweep: &WallSweep,
    points: &[Point],
    what: &str,
) -> (usize, usize) {
    let (mut ok, mut skipped, mut failures) = (0, 0, Vec::new());
    let mut index_ok = 0;
    for &q in points {
        match check_polygon(&|q| ecm.visibility_polygon(q), sweep, q) {
            None => skipped += 1,
            Some(Ok(())) => ok += 1,
            Some(Err(e)) => failures.push(format!("ECM {e}")),
        }
        match check_polygon(&|q| index.visibility_polygon(q), sweep, q) {
            None => {}
            Some(Ok(())) => index_ok += 1,
            Some(Err(e)) => failures.push(format!("index {e}")),
        }
    }
    // The index is exact on slanted walls too, so it skips no more than the ECM walk.
    assert!(index_ok >= ok, "{what}: index checked {index_ok}, ECM {ok}");
    assert!(
        failures.is_empty(),
        "{what}: {} of {} differ; first: {}",
        failures.len(),
        points.len(),
        failures[0]
    );
    (ok, skipped)
}

fn check_sight(
    ecm: &Ecm,
    index: &VisibilityIndex,
    sweep: &WallSweep,
    pairs: &[(Point, Point)],
    what: &str,
) -> usize {
    let mut checked = 0;
    for &(p, q) in pairs {
        if let Ok(ours) = index.line_of_sight(p, q) {
            let truth = sweep.line_of_sight(p, q);
            assert_eq!(ours, truth, "{what}: index line of sight {p:?} → {q:?}");
        }
        let Ok(ours) = ecm.line_of_sight(p, q) else {
            continue;
        };
        let truth = sweep.line_of_sight(p, q);
        assert_eq!(ours, truth, "{what}: line of sight {p:?} → {q:?}");
        checked += 1;
    }
    checked
}

#[test]
fn degenerate_grid_environments_match_the_sweep() {
    let (mut ok, mut skipped, mut sights) = (0, 0, 0);
    for seed in 0..40 {
        let (w, h) = (12, 9);
        let env = corridor_testkit::free_space_cases::random_environment(seed, w, h);
        let Ok(ecm) = Ecm::build(&env) else { continue };
        let index = VisibilityIndex::build(&env).unwrap();
        let sweep = walls_of(&env);
        // Grid vertices (corners, pinch points, points on walls' supporting lines),
        // half-integer points and generic points.
        let points = corridor_testkit::free_space_cases::random_points(seed, w, h, 60);
        let (a, b) = check_points(&ecm, &index, &sweep, &points, &format!("grid seed {seed}"));
        ok += a;
        skipped += b;
        let pairs: Vec<(Point, Point)> = points
            .iter()
            .zip(points.iter().rev())
            .map(|(&p, &q)| (p, q))
            .collect();
        sights += check_sight(&ecm, &index, &sweep, &pairs, &format!("grid seed {seed}"));
    }
    assert!(ok > 500, "only {ok} points checked ({skipped} not free)");
    assert!(sights > 500, "only {sights} pairs checked");
}

#[test]
fn random_polygon_environments_match_the_sweep() {
    let mut ok = 0;
    for seed in 0..30 {
        let options = corridor_testkit::random::RandomEnvironmentOptions::default();
        let env = corridor_testkit::random::random_environment(seed, &options);
        let Ok(ecm) = Ecm::build(&env) else { continue };
        let index = VisibilityIndex::build(&env).unwrap();
        let sweep = walls_of(&env);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let points: Vec<Point> = (0..40)
            .map(|_| Point::new(rng.random_range(0.0..100.0), rng.random_range(0.0..100.0)))
            .collect();
        ok += check_points(
            &ecm,
            &index,
            &sweep,
            &points,
            &format!("random seed {seed}"),
        )
        .0;
        let pairs: Vec<(Point, Point)> = points.windows(2).map(|w| (w[0], w[1])).collect();
        check_sight(&ecm, &index, &sweep, &pairs, &format!("random seed {seed}"));
    }
    assert!(ok > 400, "only {ok} points checked");
}

#[test]
fn pinch_corners_and_collinear_walls() {
    // Two blocks touching at one corner (a pinch), and a row of three collinear blocks.
    let square = |x0: f64, y0: f64, x1: f64, y1: f64| {
        Obstacle::Polygon(Polygon::new(
            Ring::new(vec![
                Point::new(x0, y0),
                Point::new(x1, y0),
                Point::new(x1, y1),
                Point::new(x0, y1),
            ]),
            vec![],
        ))
    };
    let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(20.0, 12.0));
    env.insert(square(4.0, 4.0, 6.0, 6.0));
    env.insert(square(6.0, 6.0, 8.0, 8.0));
    for x in [11.0, 14.0, 17.0] {
        env.insert(square(x, 3.0, x + 1.0, 4.0));
    }
    let ecm = Ecm::build(&env).unwrap();
    let index = VisibilityIndex::build(&env).unwrap();
    let sweep = walls_of(&env);
    for (p, q, seen) in [
        ((5.0, 7.0), (7.0, 5.0), false),
        ((3.0, 9.0), (9.0, 3.0), false),
        ((10.0, 3.0), (19.0, 3.0), false),
        ((10.0, 2.5), (19.0, 2.5), true),
    ] {
        let (p, q) = (Point::new(p.0, p.1), Point::new(q.0, q.1));
        assert_eq!(index.line_of_sight(p, q), Ok(seen), "index {p:?} → {q:?}");
    }
    assert_eq!(
        index.visibility_polygon(Point::new(5.0, 5.0)),
        Err(VisibilityError::NotInFreeSpace {
            point: Point::new(5.0, 5.0)
        })
    );
    assert!(matches!(
        index.visibility_polygon(Point::new(0.0, 5.0)),
        Err(VisibilityError::OnObstacle { .. })
    ));
    assert!(matches!(
        index.line_of_sight(Point::new(1.0, 1.0), Point::new(f64::INFINITY, 5.0)),
        Err(VisibilityError::NotFinite { .. })
    ));
    // Through the pinch point (6, 6) along the diagonal: blocked (obstacles are closed).
    assert!(!ecm
        .line_of_sight(Point::new(5.0, 7.0), Point::new(7.0, 5.0))
        .unwrap());
    assert!(!ecm
        .line_of_sight(Point::new(3.0, 9.0), Point::new(9.0, 3.0))
        .unwrap());
    // Along the blocks' common supporting line y = 3, touching them: blocked.
    assert!(!ecm
        .line_of_sight(Point::new(10.0, 3.0), Point::new(19.0, 3.0))
        .unwrap());
    assert!(ecm
        .line_of_sight(Point::new(10.0, 2.5), Point::new(19.0, 2.5))
        .unwrap());
    let mut points = vec![
        Point::new(10.0, 3.0),
        Point::new(10.0, 4.0),
        Point::new(3.0, 9.0),
        Point::new(5.0, 7.0),
        Point::new(2.0, 2.0),
        Point::new(6.0, 10.0),
        Point::new(9.0, 6.0),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    points.extend((0..300).map(|_| {
        Point::new(
            rng.random_range(0..=40) as f64 * 0.5,
            rng.random_range(0..=24) as f64 * 0.5,
        )
    }));
    let (ok, _) = check_points(&ecm, &index, &sweep, &points, "pinch");
    assert!(ok > 200);
    let seen = ecm.visibility_polygon(Point::new(2.0, 2.0)).unwrap();
    assert!(seen.kinds().contains(&EdgeKind::Window) && seen.kinds().contains(&EdgeKind::Wall));
    assert_eq!(
        ecm.visibility_polygon(Point::new(5.0, 5.0)),
        Err(VisibilityError::NotInFreeSpace {
            point: Point::new(5.0, 5.0)
        })
    );
    assert!(matches!(
        ecm.visibility_polygon(Point::new(0.0, 5.0)),
        Err(VisibilityError::OnObstacle { .. } | VisibilityError::NotInFreeSpace { .. })
    ));
    assert!(matches!(
        ecm.visibility_polygon(Point::new(f64::NAN, 5.0)),
        Err(VisibilityError::NotFinite { .. })
    ));
    assert!(matches!(
        ecm.line_of_sight_with_radius(Point::new(1.0, 1.0), Point::new(2.0, 2.0), -1.0),
        Err(VisibilityError::BadRadius { .. })
    ));
}

#[test]
fn swept_disk_matches_brute_force_distances() {
    let mut checked = 0;
    for seed in 0..10 {
        let env = corridor_testkit::free_space_cases::random_environment(seed, 12, 9);
        let Ok(ecm) = Ecm::build(&env) else { continue };
        let sweep = walls_of(&env);
        let mut rng = ChaCha8Rng::seed_from_u64(seed + 100);
        for _ in 0..300 {
            let p = Point::new(rng.random_range(0.0..12.0), rng.random_range(0.0..9.0));
            let q = Point::new(rng.random_range(0.0..12.0), rng.random_range(0.0..9.0));
            let r = rng.random_range(0.0..0.6);
            let Ok(ours) = ecm.line_of_sight_with_radius(p, q, r) else {
                continue;
            };
            let seg = corridor_geom::Segment { a: p, b: q };
            let clear = sweep.line_of_sight(p, q)
                && sweep
                    .walls()
                    .iter()
                    .all(|w| seg.distance_to_segment(w) >= r);
            assert_eq!(ours, clear, "seed {seed}: {p:?} → {q:?} radius {r}");
            checked += 1;
        }
    }
    assert!(checked > 1000);
}

#[test]
fn shared_maps_sample_matches_the_sweep() {
    let data = corridor_testkit::data_dir().join("movingai");
    for name in ["arena.map", "den312d.map", "16room_000.map"] {
        let path = data.join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let grid = corridor_io::read_map(&text).unwrap();
        let env = grid.to_environment();
        let ecm = Ecm::build(&env).unwrap();
        let index = VisibilityIndex::build(&env).unwrap();
        let sweep = walls_of(&env);
        let free: Vec<Point> = (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| grid.is_free(x as i64, y as i64))
            .map(|(x, y)| Point::new(x as f64 + 0.5, y as f64 + 0.5))
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(27);
        let points: Vec<Point> = (0..200)
            .map(|_| free[rng.random_range(0..free.len())])
            .collect();
        let (ok, skipped) = check_points(&ecm, &index, &sweep, &points, name);
        assert!(ok >= 190, "{name}: {ok} checked, {skipped} not located");
        let pairs: Vec<(Point, Point)> = (0..1000)
            .map(|_| {
                (
                    free[rng.random_range(0..free.len())],
                    free[rng.random_range(0..free.len())],
                )
            })
            .collect();
        check_sight(&ecm, &index, &sweep, &pairs, name);
    }
}

/// Random limits: a range, a cone, both or neither (openings up to the whole turn, a
/// half turn among them).
fn random_limits(rng: &mut ChaCha8Rng, scale: f64) -> ViewLimits {
    let mut limits = ViewLimits::new();
    if rng.random_bool(0.7) {
        limits = limits.with_range(rng.random_range(0.05..1.0) * scale);
    }
    if rng.random_bool(0.7) {
        let a: f64 = rng.random_range(0.0..std::f64::consts::TAU);
        let opening = match rng.random_range(0..6) {
            0 => std::f64::consts::PI,
            1 => std::f64::consts::TAU,
            _ => rng.random_range(0.05..std::f64::consts::TAU),
        };
        limits = limits.with_cone(Point::new(a.cos(), a.sin()), opening);
    }
    limits
}

/// Compares the limited polygon of `q` with the oracle's cut of the sweep's polygon:
/// corner count after merging, area to 1e-9 relative. Returns whether it was compared.
fn check_limited(ecm: &Ecm, sweep: &WallSweep, q: Point, limits: &ViewLimits) -> bool {
    if sweep.on_wall(q) {
        return false;
    }
    let Ok(ours) = ecm.visibility_polygon_within(q, limits) else {
        return false;
    };
    check_limited_polygon(&ours, sweep, q, limits);
    true
}

/// [`check_limited`] for the index.
fn check_limited_index(
    index: &VisibilityIndex,
    sweep: &WallSweep,
    q: Point,
    limits: &ViewLimits,
) -> bool {
    if sweep.on_wall(q) {
        return false;
    }
    let Ok(ours) = index.visibility_polygon_within(q, limits) else {
        return false;
    };
    check_limited_polygon(&ours, sweep, q, limits);
    true
}

fn check_limited_polygon(
    ours: &VisibilityPolygon,
    sweep: &WallSweep,
    q: Point,
    limits: &ViewLimits,
) {
    assert_eq!(ours.kinds().len(), ours.len());
    let truth = limit_polygon(
        q,
        &sweep.visibility_polygon(q),
        limits.range(),
        limits.cone(),
    );
    let mine: Vec<(Point, bool)> = ours
        .edges()
        .map(|(a, _, k)| (a, k == EdgeKind::Arc))
        .collect();
    let (a, b) = (
        merge_limited(&mine, 1e-9),
        merge_limited(&truth.corners, 1e-9),
    );
    let rel = (ours.area() - truth.area).abs() / truth.area.abs().max(1e-300);
    assert!(
        a.len() == b.len() && rel <= 1e-9,
        "{q:?} {limits:?}: ours {} corners, area {}; oracle {} corners, area {}\n ours {a:?}\n oracle {b:?}",
        a.len(),
        ours.area(),
        b.len(),
        truth.area
    );
}

#[test]
fn range_and_cone_match_the_oracle() {
    let (mut checked, mut checked_index) = (0, 0);
    for seed in 0..20 {
        let env = corridor_testkit::free_space_cases::random_environment(seed, 12, 9);
        if let Ok(ecm) = Ecm::build(&env) {
            let index = VisibilityIndex::build(&env).unwrap();
            let sweep = walls_of(&env);
            let mut rng = ChaCha8Rng::seed_from_u64(seed + 100);
            for q in corridor_testkit::free_space_cases::random_points(seed, 12, 9, 30) {
                let limits = random_limits(&mut rng, 12.0);
                checked += check_limited(&ecm, &sweep, q, &limits) as usize;
                checked_index += check_limited_index(&index, &sweep, q, &limits) as usize;
            }
        }
        let options = corridor_testkit::random::RandomEnvironmentOptions::default();
        let env = corridor_testkit::random::random_environment(seed, &options);
        let Ok(ecm) = Ecm::build(&env) else { continue };
        let index = VisibilityIndex::build(&env).unwrap();
        let sweep = walls_of(&env);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..30 {
            let q = Point::new(rng.random_range(0.0..100.0), rng.random_range(0.0..100.0));
            let limits = random_limits(&mut rng, 100.0);
            checked += check_limited(&ecm, &sweep, q, &limits) as usize;
            checked_index += check_limited_index(&index, &sweep, q, &limits) as usize;
        }
    }
    assert!(checked > 500, "only {checked} compared");
    assert!(
        checked_index >= checked,
        "index: only {checked_index} compared"
    );
}

#[test]
fn range_and_cone_on_a_shared_map() {
    let path = corridor_testkit::data_dir()
        .join("movingai")
        .join("arena.map");
    let grid = corridor_io::read_map(&std::fs::read_to_string(path).unwrap()).unwrap();
    let env = grid.to_environment();
    let ecm = Ecm::build(&env).unwrap();
    let sweep = walls_of(&env);
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    let mut checked = 0;
    while checked < 300 {
        let (x, y) = (
            rng.random_range(0..grid.width()),
            rng.random_range(0..grid.height()),
        );
        if !grid.is_free(x as i64, y as i64) {
            continue;
        }
        let q = Point::new(x as f64 + 0.5, y as f64 + 0.5);
        let limits = random_limits(&mut rng, 40.0);
        assert!(
            check_limited(&ecm, &sweep, q, &limits),
            "{q:?} not answered"
        );
        checked += 1;
    }
}

#[test]
fn limits_out_of_their_domain_are_typed_errors() {
    let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(4.0, 3.0));
    let ecm = Ecm::build(&env).unwrap();
    let q = Point::new(1.0, 1.0);
    let x = Point::new(1.0, 0.0);
    for (limits, range) in [
        (ViewLimits::new().with_range(0.0), true),
        (ViewLimits::new().with_range(f64::NAN), true),
        (ViewLimits::new().with_range(f64::INFINITY), true),
        (
            ViewLimits::new().with_cone(Point::new(0.0, 0.0), 1.0),
            false,
        ),
        (ViewLimits::new().with_cone(x, 0.0), false),
        (ViewLimits::new().with_cone(x, 7.0), false),
        (
            ViewLimits::new().with_cone(Point::new(f64::NAN, 1.0), 1.0),
            false,
        ),
    ] {
        let e = ecm.visibility_polygon_within(q, &limits).unwrap_err();
        assert_eq!(
            matches!(e, VisibilityError::BadRange { .. }),
            range,
            "{limits:?}: {e}"
        );
        assert_eq!(
            matches!(e, VisibilityError::BadCone { .. }),
            !range,
            "{limits:?}: {e}"
        );
    }
    // In range of nothing: the whole disk, one corner and one arc.
    let disk = ecm
        .visibility_polygon_within(Point::new(2.0, 1.5), &ViewLimits::new().with_range(0.5))
        .unwrap();
    assert_eq!(disk.kinds(), &[EdgeKind::Arc]);
    assert!((disk.area() - std::f64::consts::PI * 0.25).abs() < 1e-12);
    // A half-turn cone facing +y from the middle of the bottom: half the room.
    let half = ecm
        .visibility_polygon_within(
            Point::new(2.0, 0.5),
            &ViewLimits::new().with_cone(Point::new(0.0, 1.0), std::f64::consts::PI),
        )
        .unwrap();
    assert!((half.area() - 10.0).abs() < 1e-9, "{}", half.area());
}

/// The index's point location (a walk from a grid of triangle hints) against the ECM's, on
/// a lattice of step ½ that covers grid corners, walls, cell centres and points outside
/// the map: the same points are free, and the same error for the others — except points
/// exactly on a slanted wall, which the ECM may take as free (module docs) and the index
/// must refuse (checked with the exact predicate on the walls).
#[test]
fn index_location_matches_the_ecm_on_a_lattice() {
    let (mut free, mut total, mut on_slant) = (0, 0, 0);
    for seed in 0..20 {
        let (w, h) = (12, 9);
        let env = corridor_testkit::free_space_cases::random_environment(seed, w, h);
        let Ok(ecm) = Ecm::build(&env) else { continue };
        let index = VisibilityIndex::build(&env).unwrap();
        let walls: Vec<_> = corridor_geom::normalize(&env)
            .unwrap()
            .user_segments()
            .collect();
        for j in -4..=2 * h + 4 {
            for i in -4..=2 * w + 4 {
                let q = Point::new(i as f64 * 0.5, j as f64 * 0.5);
                let ours = index.visible_points(q, &[q]);
                let theirs = ecm.visible_points(q, &[q]);
                if ours != theirs {
                    assert!(
                        ours == Err(VisibilityError::OnObstacle { point: q })
                            && walls.iter().any(|s| s.a.x != s.b.x
                                && s.a.y != s.b.y
                                && point_on_segment(q, s.a, s.b)),
                        "seed {seed} at {q:?}: index {ours:?}, ECM {theirs:?}"
                    );
                    on_slant += 1;
                }
                free += ours.is_ok() as usize;
                total += 1;
            }
        }
    }
    assert!(
        free > 1000 && free < total && on_slant < total / 100,
        "{free} of {total} lattice points free, {on_slant} on slanted walls"
    );
}
