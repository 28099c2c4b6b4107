//! Diagonal pinches of grid maps, closed (Moving AI, the default) or open (the any-angle
//! suite): a checkerboard, and the suite's stated lengths under the open rule.

use corridor_geom::Point;
use corridor_io::{load_grid, load_problems, CellGrid, PinchRule, OPEN_PINCH_CUT};
use corridor_testkit::free_space_cases::anyangle_maze_dirs;
use corridor_visgraph::{QueryError, VisibilityGraph};

#[test]
fn a_checkerboard_corner_is_closed_by_default_and_passable_when_open() {
    // #.
    // .#   free cells (1, 0) and (0, 1) meet only at the corner (1, 1).
    let grid = CellGrid::from_cells(2, 2, vec![true, false, false, true]).unwrap();
    let (a, b) = (Point::new(1.5, 0.5), Point::new(0.5, 1.5));
    let closed = VisibilityGraph::build(&grid.to_environment()).unwrap();
    assert!(matches!(
        closed.shortest_path(a, b),
        Err(QueryError::NoPath { .. })
    ));
    let open = VisibilityGraph::build(&grid.to_environment_with(PinchRule::Open)).unwrap();
    let path = open.shortest_path(a, b).unwrap();
    // Straight through the corner.
    assert!((path.length - 2f64.sqrt()).abs() < 1e-12, "{}", path.length);
    // Around a cut corner: from the middle of one free cell's side to the other's, at
    // most the two half sides, at least the straight line.
    let (c, d) = (Point::new(1.5, 0.0), Point::new(0.0, 1.5));
    let around = open.shortest_path(c, d).unwrap();
    assert!(around.length >= c.distance(d) - 1e-12);
    assert!(around.length <= 2.0 * 0.5f64.hypot(1.0) + 1e-12);
    assert!(closed.shortest_path(c, d).is_err());
}

/// The suite's lengths are for open pinches: every problem matches them under the open
/// rule (up to the cut, which can only shorten a path through a pinch). Its 83 mazes
/// happen to have no diagonal pinch at all, so the two rules agree on every problem
/// (counted here, so that a new maze with pinches shows).
#[test]
fn anyangle_lengths_hold_with_open_pinches() {
    let (mut total, mut differ, mut pinches) = (0, 0, 0);
    let mut failures = Vec::new();
    for dir in anyangle_maze_dirs() {
        let grid = load_grid(&dir).unwrap();
        pinches += (0..=grid.width() as i64)
            .flat_map(|x| (0..=grid.height() as i64).map(move |y| (x, y)))
            .filter(|&(x, y)| grid.is_pinch(x, y))
            .count();
        let closed = VisibilityGraph::build(&grid.to_environment()).unwrap();
        let open = VisibilityGraph::build(&grid.to_environment_with(PinchRule::Open)).unwrap();
        for p in load_problems(&dir).unwrap() {
            total += 1;
            let o = open.shortest_path(p.start, p.goal).map(|q| q.length);
            let c = closed.shortest_path(p.start, p.goal).map(|q| q.length);
            if o.as_ref().ok() != c.as_ref().ok() {
                differ += 1;
            }
            // Printed to about 7 significant digits; a cut corner only shortens a path
            // through a pinch, by about the cut.
            let slack = 1e-6 * p.length + 1e-6;
            match o {
                Ok(len)
                    if len <= p.length + slack
                        && len >= p.length - slack - 8.0 * OPEN_PINCH_CUT => {}
                other => failures.push(format!("{}: {p:?}: {other:?}", dir.display())),
            }
        }
    }
    eprintln!(
        "anyangle open pinches: {total} problems, {differ} differ from closed, {pinches} pinches"
    );
    assert_eq!(total, 4102);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_region_closing_on_itself_diagonally_opens_into_its_pocket() {
    // ###
    // #.#    one 4-connected region whose cells (2, 1) and (1, 2) touch at (2, 2): closed,
    // ##.    the middle cell is a pocket; open, it connects to the free corner cell.
    let rows = ["###", "#.#", "##."];
    let cells = rows
        .iter()
        .flat_map(|r| r.chars().map(|c| c == '#'))
        .collect();
    let grid = CellGrid::from_cells(3, 3, cells).unwrap();
    assert!(grid.is_pinch(2, 2));
    let (pocket, corner) = (Point::new(1.5, 1.5), Point::new(2.5, 2.5));
    let closed = VisibilityGraph::build(&grid.to_environment()).unwrap();
    assert!(closed.shortest_path(pocket, corner).is_err());
    let env = grid.to_environment_with(PinchRule::Open);
    assert!(env.validate().is_ok());
    // One ring, no hole: the pocket is part of the outside.
    let polygons = grid.polygons_with(PinchRule::Open);
    assert_eq!(polygons.len(), 1);
    assert!(polygons[0].holes.is_empty());
    let area = 7.0 - 2.0 * OPEN_PINCH_CUT * OPEN_PINCH_CUT / 2.0;
    assert!((polygons[0].area() - area).abs() < 1e-12);
    let open = VisibilityGraph::build(&env).unwrap();
    let path = open.shortest_path(pocket, corner).unwrap();
    assert!((path.length - 2f64.sqrt()).abs() < 1e-12);
}
