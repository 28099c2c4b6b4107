//! Every `BuildError` variant is reachable, and its message names the offending obstacle.
mod common;
use common::*;
use corridor_ecm::{BuildError, Ecm, WallProblem};
use corridor_geom::{
    Environment, GridPoint, Obstacle, ObstacleId, Point, SnapGrid, WallSegment, WallSource, Walls,
};

fn obstacle(id: u32) -> Vec<WallSource> {
    vec![WallSource::Obstacle(ObstacleId(id))]
}

fn seg(a: (i32, i32), b: (i32, i32), two_sided: bool, id: u32) -> WallSegment {
    WallSegment {
        a: GridPoint::new(a.0, a.1),
        b: GridPoint::new(b.0, b.1),
        two_sided,
        sources: obstacle(id).into(),
    }
}

fn room_with(extra: Vec<WallSegment>, points: Vec<(GridPoint, Vec<WallSource>)>) -> Walls {
    let mut segments = box_walls((0, 0), (100, 100));
    segments.extend(extra);
    Walls {
        grid: SnapGrid::new(1.0).unwrap(),
        segments,
        points,
    }
}

fn invalid(walls: &Walls) -> (WallProblem, String) {
    let err = Ecm::from_walls(walls).unwrap_err();
    let message = err.to_string();
    match err {
        BuildError::InvalidWalls { problem, .. } => (problem, message),
        other => panic!("expected InvalidWalls, got {other}"),
    }
}

#[test]
fn normalize_errors_name_the_obstacle() {
    let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
    // A bow tie crosses itself.
    env.insert(Obstacle::polygon(vec![
        Point::new(1.0, 1.0),
        Point::new(3.0, 3.0),
        Point::new(3.0, 1.0),
        Point::new(1.0, 3.0),
    ]));
    let err = Ecm::build(&env).unwrap_err();
    assert!(matches!(err, BuildError::Normalize(_)), "{err}");
    assert!(err.to_string().contains("obstacle #0"), "{err}");
}

#[test]
fn crossing_walls_name_both_obstacles() {
    let walls = room_with(
        vec![
            seg((10, 10), (50, 50), true, 1),
            seg((10, 50), (50, 10), true, 2),
        ],
        vec![],
    );
    let (problem, message) = invalid(&walls);
    assert!(matches!(problem, WallProblem::Crossing { .. }));
    assert!(
        message.contains("obstacle #1") && message.contains("obstacle #2"),
        "{message}"
    );
    // Overlapping collinear walls that share an end point also conflict.
    let walls = room_with(
        vec![
            seg((10, 10), (50, 10), true, 3),
            seg((10, 10), (30, 10), true, 4),
        ],
        vec![],
    );
    let (problem, message) = invalid(&walls);
    assert!(
        matches!(problem, WallProblem::Crossing { .. }) && message.contains("obstacle #3"),
        "{message}"
    );
}

#[test]
fn degenerate_walls_name_the_obstacle() {
    let walls = room_with(vec![seg((10, 10), (10, 10), true, 5)], vec![]);
    let (problem, message) = invalid(&walls);
    assert!(
        matches!(problem, WallProblem::ZeroLength { .. }) && message.contains("obstacle #5"),
        "{message}"
    );

    let far = SnapGrid::MAX_GRID_COORDINATE + 1;
    let walls = room_with(vec![seg((10, 10), (far, 10), true, 6)], vec![]);
    let (problem, message) = invalid(&walls);
    assert!(
        matches!(problem, WallProblem::OutOfRange { .. }) && message.contains("obstacle #6"),
        "{message}"
    );

    let walls = room_with(
        vec![seg((10, 10), (50, 10), true, 7)],
        vec![(GridPoint::new(30, 10), obstacle(8))],
    );
    let (problem, message) = invalid(&walls);
    assert!(
        matches!(problem, WallProblem::PointOnWall { .. }) && message.contains("obstacle #8"),
        "{message}"
    );
}

#[test]
fn inconsistent_orientation_names_the_obstacle() {
    // A counter-clockwise obstacle inside a counter-clockwise room: its free side faces in.
    let square = [(40, 40), (60, 40), (60, 60), (40, 60)];
    let mut extra: Vec<WallSegment> = (0..4)
        .map(|i| seg(square[i], square[(i + 1) % 4], false, 9))
        .collect();
    // Reverse one edge so that walls at a corner arrive twice.
    let e = extra.remove(0);
    extra.insert(
        0,
        WallSegment {
            a: e.b,
            b: e.a,
            ..e
        },
    );
    let (problem, message) = invalid(&room_with(extra, vec![]));
    assert!(
        matches!(problem, WallProblem::Orientation { .. }) && message.contains("obstacle #9"),
        "{message}"
    );
}

#[test]
fn unbounded_free_space_names_the_obstacle() {
    // Only a clockwise obstacle: the free space around it is unbounded.
    let square = [(40, 40), (40, 60), (60, 60), (60, 40)];
    let segments = (0..4)
        .map(|i| seg(square[i], square[(i + 1) % 4], false, 10))
        .collect();
    let walls = Walls {
        grid: SnapGrid::new(1.0).unwrap(),
        segments,
        ..Walls::default()
    };
    let err = Ecm::from_walls(&walls).unwrap_err();
    assert!(matches!(err, BuildError::Unbounded { .. }), "{err}");
    assert!(err.to_string().contains("obstacle #10"), "{err}");
    // A room plus an obstacle outside it: positive free area, still unbounded.
    let outside = [(200, 200), (200, 210), (210, 210), (210, 200)];
    let extra = (0..4)
        .map(|i| seg(outside[i], outside[(i + 1) % 4], false, 11))
        .collect();
    let err = Ecm::from_walls(&room_with(extra, vec![])).unwrap_err();
    assert!(matches!(err, BuildError::Unbounded { .. }), "{err}");
    assert!(err.to_string().contains("obstacle #11"), "{err}");
}

#[test]
fn unrecoverable_diagrams_name_the_obstacle() {
    use corridor_ecm::{BuildOptions, Transform};
    // An input the diagram library gets wrong in this box (see tests/hard_inputs.rs).
    let (points, segs) = read_boost_input(
        &boostvoronoi_dir().join("example/input_data/active_problems/issue_43_1.txt"),
    );
    let walls = walls_in_box_with_margin(&points, &segs, 4.0);
    let options = BuildOptions {
        recovery: vec![Transform::Identity],
        ..BuildOptions::default()
    };
    let err = Ecm::from_walls_with(&walls, &options).unwrap_err();
    assert!(
        matches!(err, BuildError::Unrecoverable { attempts: 1, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("obstacle #"), "{err}");
}

#[test]
fn an_empty_free_space_is_called_empty() {
    use corridor_geom::{Environment, Obstacle, Point};
    // An obstacle covering the whole map, and no walls at all.
    let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
    env.insert(Obstacle::rectangle(
        Point::new(-1.0, -1.0),
        Point::new(11.0, 11.0),
    ));
    let err = Ecm::build(&env).unwrap_err();
    assert_eq!(err, BuildError::EmptyFreeSpace, "{err}");
    assert!(err.to_string().contains("the free space is empty"));
    let err = Ecm::from_walls(&Walls::default()).unwrap_err();
    assert_eq!(err, BuildError::EmptyFreeSpace, "{err}");
}
