//! The layered ECM on small worlds whose answers are known by hand.

use super::*;
use corridor_geom::{Environment, HeightPlane, Layer, Obstacle, Segment};

pub(super) fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

/// A floor, a 2-wide stair layer east of it and an upper floor east of that.
pub(super) fn corridor_world() -> (LayeredEnvironment, [LayerId; 3]) {
    let mut w = LayeredEnvironment::new();
    let flat =
        |min, max, z| Layer::new("l", Environment::rectangle(min, max), HeightPlane::flat(z));
    let mut ground = flat(p(0.0, 0.0), p(10.0, 10.0), 0.0);
    ground
        .environment
        .insert(Obstacle::rectangle(p(4.0, 3.0), p(6.0, 7.0)));
    let g = w.add_layer(ground);
    let s = w.add_layer(Layer::new(
        "stairs",
        Environment::rectangle(p(10.0, 4.0), p(14.0, 6.0)),
        HeightPlane::new(0.5, 0.0, -5.0),
    ));
    let u = w.add_layer(flat(p(14.0, 0.0), p(24.0, 10.0), 2.0));
    w.connect(g, s, Segment::new(p(10.0, 4.0), p(10.0, 6.0)))
        .unwrap();
    w.connect(s, u, Segment::new(p(14.0, 4.0), p(14.0, 6.0)))
        .unwrap();
    (w, [g, s, u])
}

#[test]
fn cells_add_up_to_the_free_area_of_all_layers() {
    let (w, _) = corridor_world();
    let ecm = LayeredEcm::build(&w).unwrap();
    assert!((ecm.free_area() - (100.0 - 8.0 + 8.0 + 100.0)).abs() < 1e-6);
    assert_eq!(ecm.layers().len(), 3);
}

#[test]
fn locate_and_clearance_name_the_layer() {
    let (w, [g, s, _]) = corridor_world();
    let ecm = LayeredEcm::build(&w).unwrap();
    assert_eq!(ecm.locate(s, p(12.0, 5.0)).unwrap().0, s);
    assert!((ecm.clearance(s, p(12.0, 5.0)).unwrap() - 1.0).abs() < 1e-9);
    // Inside the ground floor's block: a typed error naming the layer.
    assert!(matches!(
        ecm.locate(g, p(5.0, 5.0)),
        Err(LayeredEcmError::Query { layer, .. }) if layer == g
    ));
    assert!(ecm.locate(LayerId(7), p(1.0, 1.0)).is_err());
}

#[test]
fn a_path_climbs_through_both_connections_and_keeps_its_radius() {
    let (w, [g, s, u]) = corridor_world();
    let ecm = LayeredEcm::build(&w).unwrap();
    // Straight along y = 5 is blocked by the block; around it, then through the stairs.
    let planner = LayeredPlanner::new(&ecm, 0.0).unwrap();
    let path = planner.plan(g, p(1.0, 5.0), u, p(20.0, 5.0)).unwrap();
    let around = p(1.0, 5.0).distance(p(4.0, 7.0)) + 2.0 + p(6.0, 7.0).distance(p(10.0, 6.0));
    // From the corner (10, 6) straight to the goal: through both connections.
    let want = around + p(10.0, 6.0).distance(p(20.0, 5.0));
    assert!(path.length >= want - 1e-9, "{} < {want}", path.length);
    assert!(path.length < want + 1e-2, "{} vs {want}", path.length);
    assert_eq!(
        path.steps.iter().map(|s| s.layer).collect::<Vec<_>>(),
        [g, s, u]
    );
    assert_eq!(path.crossings.len(), 2);
    let z = path.points_3d(&ecm);
    assert_eq!(z.first().unwrap().z, 0.0);
    assert_eq!(z.last().unwrap().z, 2.0);
    // Radius 0.9 passes the 2-wide stairs, 1.1 does not.
    assert!(LayeredPlanner::new(&ecm, 0.9)
        .unwrap()
        .plan(g, p(1.0, 5.0), u, p(20.0, 5.0))
        .is_ok());
    assert!(matches!(
        LayeredPlanner::new(&ecm, 1.1)
            .unwrap()
            .plan(g, p(2.0, 5.0), u, p(20.0, 5.0)),
        Err(LayeredEcmError::NoPath { .. })
    ));
    assert!(matches!(
        LayeredPlanner::new(&ecm, -1.0),
        Err(LayeredEcmError::InvalidRadius(_))
    ));
    assert!(matches!(
        planner.plan(g, p(5.0, 5.0), u, p(20.0, 5.0)),
        Err(LayeredEcmError::Plan { .. })
    ));
}

#[test]
fn a_query_between_layers_no_connection_joins_has_no_path() {
    let (mut w, [g, _, u]) = corridor_world();
    // A fourth floor with no connection: refused from and to it, on both radii.
    let attic = w.add_layer(Layer::new(
        "attic",
        Environment::rectangle(p(30.0, 0.0), p(40.0, 10.0)),
        HeightPlane::flat(4.0),
    ));
    let ecm = LayeredEcm::build(&w).unwrap();
    for radius in [0.0, 0.5] {
        let planner = LayeredPlanner::new(&ecm, radius).unwrap();
        for (from, a, to, b) in [
            (g, p(1.0, 1.0), attic, p(35.0, 5.0)),
            (attic, p(35.0, 5.0), u, p(20.0, 5.0)),
        ] {
            assert!(matches!(
                planner.plan(from, a, to, b),
                Err(LayeredEcmError::NoPath { .. })
            ));
        }
        // Inside the attic, and from the ground floor to the top one, paths exist.
        let inside = planner
            .plan(attic, p(31.0, 1.0), attic, p(39.0, 9.0))
            .unwrap();
        assert!((inside.length - p(31.0, 1.0).distance(p(39.0, 9.0))).abs() < 1e-9);
        assert!(inside.crossings.is_empty());
        assert!(planner.plan(g, p(1.0, 1.0), u, p(20.0, 5.0)).is_ok());
    }
}
