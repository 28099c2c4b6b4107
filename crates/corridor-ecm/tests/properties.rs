//! Properties of built ECMs on the shared game maps, on random grids and on random
//! obstacle sets: equidistant bending points with no closer wall (checked independently of
//! the crate's validator), cells that tile the free space, degree rules, one component per
//! free-space component, and pinch points that no medial axis passes.
mod common;
use common::*;
use corridor_ecm::{BuildOptions, Ecm, Side};
use corridor_geom::Point;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Builds the grid's ECM and checks everything, including that ECM components are the
/// grid's 4-connected free components (one to one). Returns the ECM.
fn check_grid(w: usize, h: usize, blocked: &[bool], scale: i32) -> Ecm {
    let walls = grid_walls(w, h, &|x, y| blocked[y * w + x], scale);
    let ecm = Ecm::from_walls(&walls).unwrap();
    let free_cells = blocked.iter().filter(|b| !**b).count() as f64;
    check_ecm(&ecm, &walls, free_cells);
    let (count, label) = grid_components(w, h, blocked);
    assert_eq!(ecm.component_count(), count, "components");
    // Each ECM component lies in exactly one grid component and vice versa.
    let mut grid_of = vec![u32::MAX; ecm.component_count()];
    let mut ecm_of = vec![u32::MAX; count];
    for (_, e) in ecm.edges() {
        let widest = e
            .bending_points
            .iter()
            .max_by(|a, b| a.clearance.total_cmp(&b.clearance))
            .unwrap();
        assert!(widest.clearance > 0.0);
        let (x, y) = (
            widest.position.x.floor() as usize,
            widest.position.y.floor() as usize,
        );
        let g = label[y.min(h - 1) * w + x.min(w - 1)];
        assert_ne!(
            g,
            u32::MAX,
            "medial axis in a blocked cell at {}",
            widest.position
        );
        let c = e.component.0 as usize;
        assert!(
            grid_of[c] == u32::MAX || grid_of[c] == g,
            "ECM component spans two free components"
        );
        assert!(
            ecm_of[g as usize] == u32::MAX || ecm_of[g as usize] == c as u32,
            "free component split"
        );
        grid_of[c] = g;
        ecm_of[g as usize] = c as u32;
    }
    ecm
}

#[test]
fn shared_maps() {
    let maps = corridor_testkit::movingai_maps();
    assert_eq!(maps.len(), 10);
    for path in maps {
        let (w, h, blocked) = read_movingai(&path);
        let ecm = check_grid(w, h, &blocked, 10_000);
        let s = ecm.stats();
        println!(
            "{}: {} segments → {} vertices, {} edges, {} bending points, {} components, {} recoveries; \
             voronoi {:?}, extraction {:?}, validation {:?}, index {:?}",
            path.file_name().unwrap().to_string_lossy(),
            s.input_segments, s.vertices, s.edges, s.bending_points, s.components, s.recoveries,
            s.voronoi, s.extraction, s.validation, s.index
        );
    }
}

#[test]
fn random_grids() {
    for seed in 0..300u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (w, h) = (rng.random_range(2..14), rng.random_range(2..14));
        let p = rng.random_range(0.1..0.5);
        let blocked: Vec<bool> = (0..w * h).map(|_| rng.random_bool(p)).collect();
        if blocked.iter().all(|b| *b) {
            continue;
        }
        let scale = [1, 7, 10_000][seed as usize % 3];
        check_grid(w, h, &blocked, scale);
    }
}

#[test]
fn random_obstacle_sets() {
    for seed in 0..300u64 {
        // Small and large coordinates: units of 1, 1 000 and 1 000 000 grid steps.
        let unit = [1, 1_000, 1_000_000][seed as usize % 3];
        let walls = random_obstacles(seed, unit);
        let ecm = Ecm::from_walls(&walls).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        check_ecm(&ecm, &walls, free_area_of(&walls));
        // Obstacles never touch, so the free space is one component.
        assert_eq!(ecm.component_count(), 1, "seed {seed}");
    }
}

#[test]
fn pinch_points_separate_and_carry_no_medial_axis() {
    // Two free 2 × 2 blocks touching only at the corner (2, 2).
    let blocked: Vec<bool> = (0..16)
        .map(|i| {
            let (x, y) = (i % 4, i / 4);
            (x < 2) != (y < 2)
        })
        .collect();
    let ecm = check_grid(4, 4, &blocked, 1);
    assert_eq!(ecm.component_count(), 2);
    // A pinch inside one component: blocked (1, 1) and (2, 2) in a 4 × 4 room.
    let blocked: Vec<bool> = (0..16).map(|i| i == 5 || i == 10).collect();
    let ecm = check_grid(4, 4, &blocked, 1);
    assert_eq!(ecm.component_count(), 1);
    let pinch = Point::new(2.0, 2.0);
    let mut ends_at_pinch = 0;
    for (_, v) in ecm.vertices() {
        if v.position == pinch {
            assert_eq!(v.degree(), 1, "a vertex at the pinch joins edges");
            ends_at_pinch += 1;
        }
    }
    assert_eq!(
        ends_at_pinch, 2,
        "one corner branch on each free side of the pinch"
    );
    for (_, e) in ecm.edges() {
        let inner = &e.bending_points[1..e.bending_points.len() - 1];
        assert!(inner.iter().all(|b| b.position.distance(pinch) > 1e-9));
    }
}

#[test]
fn closed_rooms_are_their_own_components() {
    // A 9 × 9 grid with a ring of blocked cells around the 3 × 3 centre.
    let blocked: Vec<bool> = (0..81)
        .map(|i| {
            let (x, y) = (i % 9, i / 9);
            (2..=6).contains(&x)
                && (2..=6).contains(&y)
                && !((3..=5).contains(&x) && (3..=5).contains(&y))
        })
        .collect();
    let ecm = check_grid(9, 9, &blocked, 10_000);
    assert_eq!(ecm.component_count(), 2);
    let areas: Vec<f64> = (0..2)
        .map(|c| {
            ecm.edges()
                .filter(|(_, e)| e.component.0 == c)
                .map(|(id, _)| ecm.cell_area(id, Side::Left) + ecm.cell_area(id, Side::Right))
                .sum()
        })
        .collect();
    let mut areas = areas;
    areas.sort_by(f64::total_cmp);
    assert!(
        (areas[0] - 9.0).abs() < 1e-9 && (areas[1] - 56.0).abs() < 1e-9,
        "{areas:?}"
    );
}

#[test]
fn located_cells_give_the_nearest_obstacle() {
    let mut located = 0;
    for seed in 0..20 {
        let walls = random_obstacles(seed, 1_000);
        let ecm = Ecm::from_walls(&walls).unwrap();
        let scale = 1_000.0;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let hi = walls.segments[2].a; // the box's top-right corner
        let walls_user: Vec<(Point, Point)> = walls
            .segments
            .iter()
            .map(|s| {
                (
                    Point::new(s.a.x as f64, s.a.y as f64) / scale,
                    Point::new(s.b.x as f64, s.b.y as f64) / scale,
                )
            })
            .chain(walls.points.iter().map(|(p, _)| {
                let q = Point::new(p.x as f64, p.y as f64) / scale;
                (q, q)
            }))
            .collect();
        for _ in 0..500 {
            let p = Point::new(
                rng.random_range(0.0..hi.x as f64),
                rng.random_range(0.0..hi.y as f64),
            ) / scale;
            let Ok(cell) = ecm.locate(p) else { continue };
            located += 1;
            let e = ecm.edge(cell.edge).unwrap();
            let (a, b) = (
                &e.bending_points[cell.piece as usize],
                &e.bending_points[cell.piece as usize + 1],
            );
            // In an ECM cell the nearest obstacle point lies on the cell's obstacle side, up
            // to the sampling of parabolic arcs: a point between an arc and its chord may be
            // nearer the other side's obstacle by at most twice the arc deviation.
            let chord = dist(a.nearest(cell.side), b.nearest(cell.side), p);
            let brute = walls_user
                .iter()
                .map(|(s, t)| dist(*s, *t, p))
                .fold(f64::INFINITY, f64::min);
            let slack = 2.0 * BuildOptions::default().max_arc_deviation + 1e-9;
            assert!(
                brute <= chord + 1e-9 && chord - brute <= slack,
                "seed {seed}: {p}: cell says {chord}, walls {brute}"
            );
        }
    }
    assert!(located > 5_000, "{located}");
}

fn dist(a: Point, b: Point, q: Point) -> f64 {
    let d = b - a;
    let t = if d.length_squared() == 0.0 {
        0.0
    } else {
        ((q - a).dot(d) / d.length_squared()).clamp(0.0, 1.0)
    };
    (a + d * t).distance(q)
}
