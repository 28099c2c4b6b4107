//! The model's checks: each error on the smallest world that shows it.

use super::*;
use crate::{Environment, Obstacle, Orientation, Point, Segment};

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

fn rect_layer(name: &str, min: Point, max: Point, z: f64) -> Layer {
    Layer::new(name, Environment::rectangle(min, max), HeightPlane::flat(z))
}

/// Two floors over the same ground, a stair layer beside them joined to both.
fn two_floors() -> (LayeredEnvironment, LayerId, LayerId, LayerId) {
    let mut w = LayeredEnvironment::new();
    let ground = w.add_layer(rect_layer("ground", p(0.0, 0.0), p(10.0, 10.0), 0.0));
    let upper = w.add_layer(rect_layer("upper", p(0.0, 0.0), p(10.0, 10.0), 3.0));
    let stairs = w.add_layer(Layer::new(
        "stairs",
        Environment::rectangle(p(10.0, 0.0), p(16.0, 2.0)),
        HeightPlane::new(0.5, 0.0, -5.0),
    ));
    (w, ground, upper, stairs)
}

#[test]
fn stairs_between_two_floors_validate() {
    let (mut w, ground, upper, stairs) = two_floors();
    let bottom = w
        .connect(ground, stairs, Segment::new(p(10.0, 0.0), p(10.0, 2.0)))
        .unwrap();
    // The upper end of the stairs at x = 16 meets an upper-floor extension.
    let landing = w.add_layer(rect_layer("landing", p(16.0, 0.0), p(18.0, 10.0), 3.0));
    let top = w
        .connect(stairs, landing, Segment::new(p(16.0, 0.0), p(16.0, 2.0)))
        .unwrap();
    w.connect(landing, upper, Segment::new(p(10.0, 10.0), p(10.0, 2.0)))
        .unwrap_err();
    w.validate().unwrap();
    assert_eq!(w.connections_of(stairs).count(), 2);
    assert_eq!(w.connection(top).unwrap().other(stairs), Some(landing));
    assert_eq!(
        w.free_side(bottom, ground).unwrap(),
        Orientation::CounterClockwise
    );
    assert_eq!(w.point_3d(stairs, p(16.0, 1.0)).unwrap().z, 3.0);
    assert!(w.layer(upper).is_ok());
}

#[test]
fn unknown_and_same_layer() {
    let (mut w, ground, _, _) = two_floors();
    let s = Segment::new(p(10.0, 0.0), p(10.0, 2.0));
    assert_eq!(
        w.connect(ground, LayerId(9), s),
        Err(LayeredError::UnknownLayer {
            layer: LayerId(9),
            count: 3
        })
    );
    assert!(matches!(
        w.connect(ground, ground, s),
        Err(LayeredError::SameLayer { .. })
    ));
    assert!(w.connection(ConnectionId(0)).is_err());
}

#[test]
fn degenerate_and_non_finite_segments() {
    let (mut w, ground, _, stairs) = two_floors();
    let dot = Segment::new(p(10.0, 1.0), p(10.0, 1.000_01));
    assert!(matches!(
        w.connect(ground, stairs, dot),
        Err(LayeredError::DegenerateConnection { .. })
    ));
    let nan = Segment::new(p(10.0, f64::NAN), p(10.0, 1.0));
    assert!(matches!(
        w.connect(ground, stairs, nan),
        Err(LayeredError::NonFiniteConnection { .. })
    ));
}

#[test]
fn off_boundary_connections_are_refused() {
    let (mut w, ground, _, stairs) = two_floors();
    // Sticks out past the stairs' side (y = 2 .. 3 is not on the stairs' boundary).
    let long = Segment::new(p(10.0, 0.0), p(10.0, 3.0));
    assert_eq!(
        w.connect(ground, stairs, long),
        Err(LayeredError::NotOnBoundary {
            connection: ConnectionId(0),
            layer: stairs
        })
    );
    // Slightly off the line.
    let skew = Segment::new(p(10.0, 0.0), p(10.001, 2.0));
    assert!(matches!(
        w.connect(ground, stairs, skew),
        Err(LayeredError::NotOnBoundary { .. })
    ));
}

#[test]
fn an_obstacle_edge_is_a_boundary_and_sides_must_be_opposite() {
    let (mut w, ground, upper, _) = two_floors();
    // A stairwell: the upper floor has a hole (an obstacle) where the stairs come up.
    w.layer_mut(upper)
        .unwrap()
        .environment
        .insert(Obstacle::rectangle(p(2.0, 2.0), p(4.0, 6.0)));
    let well = w.add_layer(rect_layer("well", p(2.0, 2.0), p(4.0, 6.0), 3.0));
    let edge = Segment::new(p(2.0, 6.0), p(4.0, 6.0));
    w.connect(upper, well, edge).unwrap();
    // The ground floor has no edge there; with a thin wall along it, it is free on both
    // sides: no entry side.
    assert!(matches!(
        w.connect(ground, well, edge),
        Err(LayeredError::NotOnBoundary { .. })
    ));
    w.layer_mut(ground)
        .unwrap()
        .environment
        .insert(Obstacle::segment(p(1.0, 6.0), p(5.0, 6.0)));
    assert_eq!(
        w.connect(ground, well, edge),
        Err(LayeredError::NoEntrySide {
            connection: ConnectionId(1),
            layer: ground,
            free_sides: 2
        })
    );
    // Two layers free on the same side.
    let twin = w.add_layer(rect_layer("twin", p(2.0, 2.0), p(4.0, 6.0), 0.0));
    assert!(matches!(
        w.connect(twin, well, edge),
        Err(LayeredError::SameSide { .. })
    ));
    w.validate().unwrap();
}

#[test]
fn validate_catches_edits_that_break_a_connection() {
    let (mut w, ground, _, stairs) = two_floors();
    w.connect(ground, stairs, Segment::new(p(10.0, 0.0), p(10.0, 2.0)))
        .unwrap();
    // A crate against the door on the ground side: the ground is no longer free there.
    w.layer_mut(ground)
        .unwrap()
        .environment
        .insert(Obstacle::rectangle(p(9.0, 0.5), p(10.0, 1.5)));
    assert!(matches!(
        w.validate(),
        Err(LayeredError::NoEntrySide { free_sides: 0, .. })
    ));
}

#[test]
fn bad_layers_and_heights_are_named() {
    let mut w = LayeredEnvironment::new();
    let l = w.add_layer(rect_layer("x", p(0.0, 0.0), p(1.0, 1.0), f64::NAN));
    assert!(matches!(
        w.validate(),
        Err(LayeredError::NonFiniteHeight { layer, .. }) if layer == l
    ));
    w.layer_mut(l).unwrap().height = HeightPlane::flat(0.0);
    w.layer_mut(l)
        .unwrap()
        .environment
        .insert(Obstacle::Point(p(f64::INFINITY, 0.0)));
    assert!(matches!(w.validate(), Err(LayeredError::Layer { .. })));
}
