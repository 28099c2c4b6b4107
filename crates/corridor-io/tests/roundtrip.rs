//! Randomized properties: the native JSON format round-trips exactly, GeoJSON reads back
//! what was written, and grid tracing gives exactly the blocked cells as simple rings.

use corridor_geom::{Aabb, Environment, Obstacle, ObstacleId, Point, Polygon, Ring, SnapGrid};
use corridor_io::{read_geojson, read_json, write_json, CellGrid};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A coordinate in `[lo, hi]` with all 52 mantissa bits in use, or now and then a value
/// that stresses the number formatting (zero, negative zero, tiny, subnormal).
fn coordinate(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> f64 {
    let special = match rng.random_range(0..40) {
        0 => 0.0,
        1 => -0.0,
        2 => 5e-324,
        3 => -1e-300,
        4 => 0.1,
        5 => (lo + (hi - lo) * rng.random::<f64>()).round(),
        _ => f64::NAN,
    };
    if special >= lo && special <= hi {
        special
    } else {
        lo + (hi - lo) * rng.random::<f64>()
    }
}

fn point(rng: &mut ChaCha8Rng, b: &Aabb) -> Point {
    Point::new(
        coordinate(rng, b.min.x, b.max.x),
        coordinate(rng, b.min.y, b.max.y),
    )
}

/// A star-shaped polygon around `centre`: simple by construction (angles in order, no
/// gap of π or more between neighbours).
fn star(rng: &mut ChaCha8Rng, centre: Point, radius: f64) -> Ring {
    let n = rng.random_range(3..9);
    Ring::new(
        (0..n)
            .map(|i| {
                let a = (i as f64 + 0.4 * rng.random::<f64>()) / n as f64 * std::f64::consts::TAU;
                let r = radius * (0.3 + 0.7 * rng.random::<f64>());
                centre + Point::new(a.cos(), a.sin()) * r
            })
            .collect(),
    )
}

fn random_environment(rng: &mut ChaCha8Rng) -> Environment {
    let snap = if rng.random_bool(0.3) {
        SnapGrid::new(10f64.powf(rng.random_range(0.0..6.0))).unwrap()
    } else {
        SnapGrid::default()
    };
    let limit = snap.limit() * 0.9;
    let half = limit * rng.random::<f64>().max(1e-6);
    let min = Point::new(-half * rng.random::<f64>(), -half * rng.random::<f64>());
    let max = min
        + Point::new(
            half * (0.1 + rng.random::<f64>()),
            half * (0.1 + rng.random::<f64>()),
        );
    let bounds = Aabb::new(min, max);
    let mut env = Environment::rectangle(min, max).with_snap_grid(snap);
    let inner = Aabb::new(min + bounds.size() * 0.05, max - bounds.size() * 0.05);
    for _ in 0..rng.random_range(0..12) {
        let obstacle = match rng.random_range(0..5) {
            0 => Obstacle::Point(point(rng, &bounds)),
            1 => Obstacle::Polyline(
                (0..rng.random_range(2..7))
                    .map(|_| point(rng, &inner))
                    .collect(),
            ),
            2 => Obstacle::polygon((0..3).map(|_| point(rng, &inner)).collect()),
            3 => {
                let c = point(rng, &inner);
                Obstacle::Polygon(Polygon::simple(star(
                    rng,
                    c,
                    inner.size().min_element() * 0.1,
                )))
            }
            _ => {
                let c = point(rng, &inner);
                let r = inner.size().min_element() * 0.1 * (0.1 + rng.random::<f64>());
                let outer = Ring::new(
                    Aabb::new(c - Point::splat(r), c + Point::splat(r))
                        .corners()
                        .to_vec(),
                );
                let hole = star(rng, c, r * 0.5);
                Obstacle::Polygon(Polygon::new(outer, vec![hole]))
            }
        };
        match rng.random_range(0..3) {
            0 => {
                env.insert(obstacle);
            }
            1 => {
                env.insert_with_id(ObstacleId(rng.random_range(0..100_000)), obstacle);
            }
            _ => {
                let id = env.insert(obstacle);
                if rng.random_bool(0.3) {
                    env.remove(id);
                }
            }
        }
    }
    env
}

fn bits(env: &Environment) -> Vec<u64> {
    let mut out: Vec<u64> = env
        .boundary()
        .vertices()
        .iter()
        .flat_map(|p| [p.x.to_bits(), p.y.to_bits()])
        .collect();
    for (id, o) in env.obstacles() {
        out.push(id.0 as u64);
        out.extend(o.points().flat_map(|p| [p.x.to_bits(), p.y.to_bits()]));
    }
    out.push(env.next_id().0 as u64);
    out.push(env.snap_grid().scale().to_bits());
    out
}

#[test]
fn json_round_trip_is_exact_on_random_environments() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x15_0001);
    let (mut checked, mut skipped) = (0, 0);
    for _ in 0..3000 {
        let env = random_environment(&mut rng);
        if let Err(e) = env.validate() {
            // Random triangles can be (nearly) degenerate; the reader would reject them.
            if skipped < 5 {
                println!("skipped: {e}");
            }
            skipped += 1;
            continue;
        }
        let text = write_json(&env).unwrap();
        let back = read_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, env, "{text}");
        assert_eq!(bits(&back), bits(&env), "{text}");
        assert_eq!(write_json(&back).unwrap(), text);
        checked += 1;
    }
    assert!(
        skipped * 20 < checked,
        "{skipped} skipped, {checked} checked"
    );
}

#[test]
fn json_round_trip_of_a_grid_environment() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let grid = random_grid(&mut rng, 40, 30, 0.4);
    let env = grid.to_environment();
    assert_eq!(read_json(&write_json(&env).unwrap()).unwrap(), env);
}

#[test]
fn writing_non_finite_coordinates_fails() {
    let mut env = Environment::rectangle(Point::ZERO, Point::ONE);
    env.insert(Obstacle::Point(Point::new(f64::NAN, 0.5)));
    let err = write_json(&env).unwrap_err();
    assert!(
        matches!(err, corridor_io::JsonError::Unwritable(_)),
        "{err}"
    );
}

#[test]
fn obstacles_without_ids_come_after_the_given_ones() {
    let text = r#"{"version": 1, "next_id": 10, "boundary": [[0,0],[9,0],[9,9],[0,9]],
        "obstacles": [{"point": [1,1]}, {"id": 3, "point": [2,2]}, {"point": [3,3]}]}"#;
    let env = read_json(text).unwrap();
    let ids: Vec<u32> = env.obstacles().map(|(id, _)| id.0).collect();
    assert_eq!(ids, [3, 10, 11]);
    assert_eq!(env.next_id(), ObstacleId(12));
    assert_eq!(
        env.obstacle(ObstacleId(10)),
        Some(&Obstacle::Point(Point::ONE))
    );
}

/// A GeoJSON writer for the test (the crate only reads GeoJSON).
fn to_geojson(env: &Environment) -> String {
    let pos = |p: &Point| format!("[{:?}, {:?}]", p.x, p.y);
    let ring = |r: &Ring| {
        let mut v: Vec<String> = r.vertices().iter().map(pos).collect();
        v.push(pos(&r.vertices()[0]));
        format!("[{}]", v.join(", "))
    };
    let mut features = vec![format!(
        r#"{{"type": "Feature", "properties": {{"role": "boundary"}}, "geometry": {{"type": "Polygon", "coordinates": [{}]}}}}"#,
        ring(env.boundary())
    )];
    for (id, o) in env.obstacles() {
        let geometry = match o {
            Obstacle::Point(p) => format!(r#"{{"type": "Point", "coordinates": {}}}"#, pos(p)),
            Obstacle::Polyline(v) => format!(
                r#"{{"type": "LineString", "coordinates": [{}]}}"#,
                v.iter().map(pos).collect::<Vec<_>>().join(", ")
            ),
            Obstacle::Polygon(p) => format!(
                r#"{{"type": "Polygon", "coordinates": [{}]}}"#,
                p.rings().map(ring).collect::<Vec<_>>().join(", ")
            ),
        };
        features.push(format!(
            r#"{{"type": "Feature", "properties": {{"id": {}}}, "geometry": {geometry}}}"#,
            id.0
        ));
    }
    format!(
        "{{\"type\": \"FeatureCollection\", \"features\": [\n{}\n]}}",
        features.join(",\n")
    )
}

#[test]
fn geojson_reads_back_random_environments() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x15_0002);
    let mut checked = 0;
    for _ in 0..1500 {
        let env = random_environment(&mut rng);
        if env.validate().is_err() || env.snap_grid() != SnapGrid::default() {
            continue;
        }
        let back = read_geojson(&to_geojson(&env)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back.boundary(), env.boundary());
        let a: Vec<_> = env.obstacles().collect();
        let b: Vec<_> = back.obstacles().collect();
        assert_eq!(a, b);
        assert_eq!(
            bits(&back)[..bits(&back).len() - 2],
            bits(&env)[..bits(&env).len() - 2]
        );
        checked += 1;
    }
    assert!(checked > 500);
}

#[test]
fn geojson_without_boundary_uses_the_grown_bounding_box() {
    let text = r#"{"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {}, "geometry": {"type": "MultiLineString",
         "coordinates": [[[0, 0], [10, 0]], [[0, 5], [10, 5]]]}}]}"#;
    let env = read_geojson(text).unwrap();
    assert_eq!(
        env.bounds(),
        Aabb::new(Point::new(-0.5, -0.5), Point::new(10.5, 5.5))
    );
    assert_eq!(env.obstacles().count(), 2);
}

fn random_grid(rng: &mut ChaCha8Rng, w: u32, h: u32, density: f64) -> CellGrid {
    let cells = (0..w * h).map(|_| rng.random_bool(density)).collect();
    CellGrid::from_cells(w, h, cells).unwrap()
}

/// Number of 4-connected components of blocked cells.
fn components(grid: &CellGrid) -> usize {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let mut seen = vec![false; (w * h) as usize];
    let mut count = 0;
    for start in 0..w * h {
        if seen[start as usize] || !grid.is_blocked(start % w, start / w) {
            continue;
        }
        count += 1;
        let mut stack = vec![(start % w, start / w)];
        seen[start as usize] = true;
        while let Some((x, y)) = stack.pop() {
            for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
                if grid.is_blocked(nx, ny) && !seen[(ny * w + nx) as usize] {
                    seen[(ny * w + nx) as usize] = true;
                    stack.push((nx, ny));
                }
            }
        }
    }
    count
}

#[test]
fn random_grids_trace_into_exact_simple_polygons() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x15_0003);
    for case in 0..3000 {
        let (w, h) = (rng.random_range(1..=24), rng.random_range(1..=24));
        let density = [0.1, 0.3, 0.5, 0.6, 0.8, 0.95][case % 6];
        let grid = random_grid(&mut rng, w, h, density);
        let env = grid.to_environment();
        env.validate()
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{grid:?}"));
        let polygons: Vec<&Polygon> = env
            .obstacles()
            .map(|(_, o)| match o {
                Obstacle::Polygon(p) => p,
                other => panic!("{other:?}"),
            })
            .collect();
        // One polygon per 4-connected blocked component.
        assert_eq!(polygons.len(), components(&grid), "case {case}");
        let area: f64 = polygons.iter().map(|p| p.area()).sum();
        assert_eq!(area, grid.blocked_cell_count() as f64, "case {case}");
        assert_eq!(env.boundary().area() - area, grid.free_cell_count() as f64);
        for p in &polygons {
            assert!(p.exterior.is_counter_clockwise());
            for (k, ring) in p.rings().enumerate() {
                assert_eq!(ring.is_counter_clockwise(), k == 0);
                let v = ring.vertices();
                for i in 0..v.len() {
                    let (a, b, c) = (v[i], v[(i + 1) % v.len()], v[(i + 2) % v.len()]);
                    assert!(a.x == b.x || a.y == b.y, "edges are axis-aligned");
                    let collinear = (a.x == b.x && b.x == c.x) || (a.y == b.y && b.y == c.y);
                    assert!(!collinear, "case {case}: collinear vertex {b}");
                }
            }
        }
        for y in 0..h as i64 {
            for x in 0..w as i64 {
                let centre = Point::new(x as f64 + 0.5, y as f64 + 0.5);
                let inside = polygons.iter().filter(|p| p.contains(centre)).count();
                assert_eq!(
                    inside,
                    usize::from(grid.is_blocked(x, y)),
                    "case {case}: cell ({x}, {y})"
                );
            }
        }
        assert!(env.vertex_count() <= 4 * grid.blocked_cell_count());
    }
}

#[test]
fn grid_corner_cases() {
    // Fully blocked: one polygon equal to the boundary, no free area.
    let full = CellGrid::from_cells(3, 2, vec![true; 6]).unwrap();
    let env = full.to_environment();
    env.validate().unwrap();
    assert_eq!(env.obstacles().count(), 1);
    assert_eq!(env.vertex_count(), 4);
    // Fully free: no obstacles.
    assert_eq!(CellGrid::new(5, 5).to_environment().obstacles().count(), 0);
    // A checkerboard: every blocked cell its own square, corners shared.
    let cells = (0..36).map(|i| (i % 6 + i / 6) % 2 == 0).collect();
    let board = CellGrid::from_cells(6, 6, cells).unwrap();
    let env = board.to_environment();
    env.validate().unwrap();
    assert_eq!(env.obstacles().count(), 18);
    assert_eq!(env.vertex_count(), 72);
}

#[test]
fn the_example_in_format_md_reads() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/FORMAT.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let start = doc.find("```json\n").expect("a json example") + 8;
    let end = start + doc[start..].find("```").unwrap();
    let env = read_json(&doc[start..end]).unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<u32> = env.obstacles().map(|(id, _)| id.0).collect();
    assert_eq!(ids, [0, 3, 7]);
    assert_eq!(env.next_id(), ObstacleId(8));
    assert_eq!(write_json(&env).unwrap(), doc[start..end]);
}

#[test]
fn load_environment_picks_the_reader_by_path() {
    use corridor_io::{load_environment, LoadError};
    let dir = std::env::temp_dir().join(format!("corridor-io-load-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("folder")).unwrap();
    let mut env = Environment::rectangle(Point::ZERO, Point::new(4.0, 3.0));
    env.insert(Obstacle::rectangle(Point::ONE, Point::new(2.0, 2.0)));
    let files = [
        ("native.json", write_json(&env).unwrap()),
        ("geo.json", to_geojson(&env)),
        ("geo.GeoJSON", to_geojson(&env)),
        (
            "grid.map",
            "type octile\nheight 3\nwidth 4\nmap\n....\n.@..\n....\n".into(),
        ),
        ("folder/maze.txt", "4 3\n0 0 0 0\n0 1 0 0\n0 0 0 0\n".into()),
        (
            "m.mesh",
            "mesh 2 4 1  0 0 1 0  4 0 1 0  4 3 1 0  0 3 1 0  4 0 1 2 3 -1 -1 -1 -1".into(),
        ),
    ];
    for (name, text) in &files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    for name in [
        "native.json",
        "geo.json",
        "geo.GeoJSON",
        "grid.map",
        "folder/maze.txt",
        "folder",
    ] {
        let loaded = load_environment(dir.join(name)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(loaded.boundary().area(), 12.0, "{name}");
        assert_eq!(loaded.obstacles().count(), 1, "{name}");
        let (_, o) = loaded.obstacles().next().unwrap();
        assert_eq!(
            o.aabb(),
            Some(Aabb::new(Point::ONE, Point::new(2.0, 2.0))),
            "{name}"
        );
    }
    let mesh = load_environment(dir.join("m.mesh")).unwrap();
    assert_eq!(
        (mesh.boundary().area(), mesh.obstacles().count()),
        (12.0, 0)
    );
    let err = load_environment(dir.join("notes.txt")).unwrap_err();
    assert!(matches!(err, LoadError::UnknownFormat { .. }), "{err}");
    std::fs::write(
        dir.join("broken.json"),
        "{\"version\": 1,\n\"boundary\": [}",
    )
    .unwrap();
    let err = load_environment(dir.join("broken.json")).unwrap_err();
    assert!(matches!(&err, LoadError::Json { .. }), "{err}");
    assert!(
        err.to_string().contains("broken.json: line 2, column 14"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
