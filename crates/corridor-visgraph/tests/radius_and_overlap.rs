//! Round bodies through grown obstacles, and overlapping obstacles through the union.

use corridor_geom::{Environment, Obstacle, Point};
use corridor_visgraph::{inflate_obstacles, QueryError, VisibilityGraph, INFLATE_SIDES};

mod common;
use common::exact_over_the_wall;

#[test]
fn grown_obstacles_give_the_round_bodys_path_within_the_stated_bound() {
    let mut env = Environment::rectangle(Point::ZERO, Point::new(20.0, 20.0));
    env.insert(Obstacle::rectangle(
        Point::new(9.0, 5.0),
        Point::new(11.0, 15.0),
    ));
    let (s, g) = (Point::new(5.0, 10.0), Point::new(15.0, 10.0));
    for r in [0.25, 0.5, 1.0, 2.0] {
        let graph = VisibilityGraph::build(&inflate_obstacles(&env, r).unwrap()).unwrap();
        let path = graph.shortest_path(s, g).unwrap();
        let lower = exact_over_the_wall(r);
        let upper = exact_over_the_wall(r / (std::f64::consts::PI / INFLATE_SIDES as f64).cos());
        // The grid snap (1e-4) may move corners a little either way.
        assert!(
            path.length >= lower - 1e-3 && path.length <= upper + 1e-3,
            "r = {r}: {} not in [{lower}, {upper}]",
            path.length
        );
        // Every corner of the path keeps its distance from the wall (up to the snap).
        let wall = corridor_geom::Polygon::simple(corridor_geom::Ring::new(vec![
            Point::new(9.0, 5.0),
            Point::new(11.0, 5.0),
            Point::new(11.0, 15.0),
            Point::new(9.0, 15.0),
        ]));
        for seg in path.segments() {
            for k in 0..=20 {
                let p = seg.a + (seg.b - seg.a) * (k as f64 / 20.0);
                assert!(wall.boundary_distance(p) >= r - 1e-3, "r = {r}: {p}");
            }
        }
    }
    // A start too close to the wall for the body is inside a grown obstacle.
    let graph = VisibilityGraph::build(&inflate_obstacles(&env, 1.0).unwrap()).unwrap();
    assert!(matches!(
        graph.shortest_path(Point::new(8.5, 10.0), g),
        Err(QueryError::InsideObstacle { .. })
    ));
}

#[test]
fn overlapping_obstacles_are_unioned() {
    let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
    env.insert(Obstacle::rectangle(
        Point::new(2.0, 2.0),
        Point::new(6.0, 5.0),
    ));
    env.insert(Obstacle::rectangle(
        Point::new(4.0, 4.0),
        Point::new(8.0, 8.0),
    ));
    env.insert(Obstacle::segment(
        Point::new(1.0, 9.0),
        Point::new(5.0, 6.0),
    ));
    let graph = VisibilityGraph::build(&env).unwrap();
    let free = graph.free_space();
    assert!(!free.classify(Point::new(5.0, 4.5)).is_free());
    assert!(free.classify(Point::new(3.0, 7.0)).is_free());
    let path = graph
        .shortest_path(Point::new(1.0, 1.0), Point::new(9.0, 9.0))
        .unwrap();
    for seg in path.segments() {
        assert!(free.segment_is_free(seg.a, seg.b));
    }
    // Round the union's corner at (8, 4) or (2, 5)…(4, 8): either way longer than straight.
    assert!(path.length > 8.0 * 2f64.sqrt());
}
