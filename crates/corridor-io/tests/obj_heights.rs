//! 3D paths on real levels lie on the mesh: every 3D point of a layered path over the
//! Recast demo levels (data/recast) is at the height of a triangle of its layer under it,
//! checked against the OBJ's triangles directly (barycentric heights, brute force), not
//! through the layer's height field.

use corridor_ecm::{LayeredEcm, LayeredPlanner};
use corridor_geom::{LayerId, Point};
use corridor_io::obj::{read_level, read_obj, WalkableOptions};
use corridor_testkit::layered_oracle::in_closed_free_space;
use rand::distr::{weighted::WeightedIndex, Distribution};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How far (ground plane) a path point may be from a triangle of its layer and still be
/// on it: the layers' snap grid moves boundaries by up to 2e-4.
const ON_TRIANGLE: f64 = 1e-3;

/// The height of triangle `c` (OBJ corners, Y up) over ground point `p` by barycentric
/// coordinates (extended linearly outside it), and the ground distance from `p` to it.
fn triangle_height(c: [[f64; 3]; 3], p: Point) -> (f64, f64) {
    let g = c.map(|v| Point::new(v[0], v[2]));
    let area = (g[1] - g[0]).perp_dot(g[2] - g[0]);
    let w1 = (p - g[0]).perp_dot(g[2] - g[0]) / area;
    let w2 = (g[1] - g[0]).perp_dot(p - g[0]) / area;
    let w0 = 1.0 - w1 - w2;
    let z = w0 * c[0][1] + w1 * c[1][1] + w2 * c[2][1];
    let inside = w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0;
    let d = if inside {
        0.0
    } else {
        (0..3)
            .map(|k| corridor_geom::Segment::new(g[k], g[(k + 1) % 3]).distance(p))
            .fold(f64::MAX, f64::min)
    };
    (z, d)
}

#[test]
fn path_points_lie_on_the_triangles_of_their_layer() {
    for (name, queries) in [("undulating.obj", 40), ("nav_test.obj", 20)] {
        let path = corridor_testkit::data_dir().join("recast").join(name);
        let text = corridor_io::read_text(&path).unwrap();
        let mesh = read_obj(&text).unwrap();
        let level = read_level(&text, &WalkableOptions::default()).unwrap();
        let world = level.layered();
        let ecm = LayeredEcm::build(world).unwrap();
        let planner = LayeredPlanner::new(&ecm, 0.0).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(26);
        // Layers drawn by area (the demo levels have many small ones).
        let by_area = WeightedIndex::new(level.surfaces().iter().map(|s| s.area())).unwrap();
        let mut random_point = || loop {
            let layer = LayerId(by_area.sample(&mut rng) as u32);
            let env = &world.layer(layer).unwrap().environment;
            let b = env.bounds();
            let p = Point::new(
                rng.random_range(b.min.x..b.max.x),
                rng.random_range(b.min.y..b.max.y),
            );
            if in_closed_free_space(env, p) && ecm.clearance(layer, p).is_ok_and(|c| c > 1e-3) {
                return (layer, p);
            }
        };
        let (mut points, mut worst, mut worst_plane, mut found) = (0usize, 0.0f64, 0.0f64, 0);
        for _ in 0..queries {
            let (from, start) = random_point();
            let (to, goal) = random_point();
            let Ok(path) = planner.plan(from, start, to, goal) else {
                continue;
            };
            found += 1;
            let lifted = path.points_3d(&ecm);
            for ((layer, p), q) in path.points().into_iter().zip(lifted) {
                assert_eq!((q.x, q.y), (p.x, p.y));
                let triangles = level.surfaces()[layer.0 as usize].triangles();
                // The smallest height error over the layer's triangles under p.
                let error = triangles
                    .filter_map(|t| {
                        let (z, d) = triangle_height(mesh.corners(t), p);
                        (d <= ON_TRIANGLE).then_some((z - q.z).abs())
                    })
                    .fold(f64::INFINITY, f64::min);
                assert!(
                    error <= 1e-6,
                    "{name}: {layer} {p}: height {} is {error} from its triangles",
                    q.z
                );
                let plane = world.layer(layer).unwrap().height.height_at(p);
                worst_plane = worst_plane.max((plane - q.z).abs());
                worst = worst.max(error);
                points += 1;
            }
        }
        eprintln!(
            "{name}: {found} paths of {queries}, {points} path points, largest height error {worst:.2e} (one fitted plane per layer: {worst_plane:.3})"
        );
        assert!(found * 4 >= queries, "{name}: too few paths");
    }
}
