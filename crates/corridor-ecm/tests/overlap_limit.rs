//! Heavily overlapping obstacles (the hardening issue's pile of large triangles): the
//! overlay's size is reported exactly, and a build under a wall-piece limit refuses such a
//! pile with a clear error instead of spending time and memory on it.
use corridor_ecm::{BuildError, BuildOptions, Ecm};
use corridor_geom::{
    orient, overlay_size, NormalizeError, NormalizeLimits, Obstacle, Orientation, Segment,
};
use corridor_testkit::hostile::overlapping_triangles;

/// Whether two segments' interiors cross at one point (exact), by every pair: the
/// independent count the library's R-tree count is checked against.
fn cross(s: Segment, t: Segment) -> bool {
    let opposite = |p: Orientation, q: Orientation| {
        p != Orientation::Collinear && q != Orientation::Collinear && p != q
    };
    opposite(orient(s.a, s.b, t.a), orient(s.a, s.b, t.b))
        && opposite(orient(t.a, t.b, s.a), orient(t.a, t.b, s.b))
}

#[test]
fn the_overlay_size_counts_every_crossing() {
    let env = overlapping_triangles(400, 7);
    let mut edges: Vec<Segment> = env.boundary().edges().collect();
    for (_, obstacle) in env.obstacles() {
        let Obstacle::Polygon(polygon) = obstacle else {
            unreachable!("the pile holds triangles")
        };
        edges.extend(polygon.edges());
    }
    let brute = (0..edges.len())
        .flat_map(|i| (i + 1..edges.len()).map(move |j| (i, j)))
        .filter(|&(i, j)| cross(edges[i], edges[j]))
        .count();
    let size = overlay_size(&env).unwrap();
    assert_eq!(size.edges, edges.len());
    assert_eq!(size.crossings, brute);
    assert!(brute > 5_000, "a heavy pile: {brute} crossings");
}

#[test]
fn a_wall_piece_limit_refuses_a_pile_before_normalizing_it() {
    let env = overlapping_triangles(300, 3);
    let pieces = overlay_size(&env).unwrap().pieces();
    let limited = |max| BuildOptions {
        normalize: NormalizeLimits {
            max_wall_pieces: Some(max),
        },
        ..BuildOptions::default()
    };
    // At the limit the build goes through and equals the unlimited one.
    let at_limit = Ecm::build_with(&env, &limited(pieces)).unwrap();
    assert_eq!(
        at_limit.canonical_diff(&Ecm::build(&env).unwrap(), 0.0),
        None
    );
    // One piece fewer is refused, naming the sizes.
    let err = Ecm::build_with(&env, &limited(pieces - 1)).unwrap_err();
    let BuildError::Normalize(NormalizeError::TooManyPieces {
        limit,
        edges,
        crossings_at_least,
    }) = &err
    else {
        panic!("expected TooManyPieces, got {err:?}")
    };
    assert_eq!(*limit, pieces - 1);
    assert!(edges + 2 * crossings_at_least > *limit);
    assert!(err.to_string().contains("overlap too much"), "{err}");
}
