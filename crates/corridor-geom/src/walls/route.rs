//! The entry points of normalization ([`normalize`] and its variants) and the choice of
//! route: without the overlay when the rings are proven interior-disjoint
//! ([`super::disjoint`]), through `i_overlay` otherwise ([`super::overlay`]); both end in
//! [`super::merge`].

use super::disjoint::normalize_disjoint;
use super::input::{gp, ip, Input, OpenEdge};
use super::merge::{finish_walls, Checks, RawWall};
use super::overlay::{
    add_ring, collect_one_sided, free_on_left, merge_collinear_strings, split_round,
    MAX_SPLIT_ROUNDS,
};
use super::size::NormalizeLimits;
use super::snap::SnappedShape;
use super::sources::{Tag, TagStore};
use super::{NormalizeError, WallSource, Walls};
use crate::free_space::traced::{canonical_free_space, simplify_contour, Shapes};
use crate::spatial::SegmentGrid;
use crate::{Environment, GridPoint, ObstacleId, PointGroups, SnapGrid};
use i_overlay::core::edge_overlay::EdgeOverlay;
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::vector::edge::DataVectorShape;

/// Normalizes an environment into [`Walls`] on its snap grid.
///
/// The environment is validated first ([`Environment::validate`]); its errors come back
/// as [`NormalizeError::Environment`] and name the obstacle. Runs in O(n log n) for n
/// input vertices plus the number of crossings (a few tenths of a second in release for
/// 100 000 vertices in 5 000 overlapping polygons on a 512-unit map).
///
/// # How it works
///
/// 1. Every coordinate is snapped to the environment's [`SnapGrid`].
/// 2. **Free space** is computed with `i_overlay`'s integer engine: the boundary is added
///    counter-clockwise (winding +1 inside), every polygon obstacle with its exterior
///    clockwise and its holes counter-clockwise (winding −1 inside the obstacle, 0 in its
///    holes). With the *positive* fill rule a point is free exactly when it lies inside
///    the boundary and inside no obstacle, however the obstacles overlap. Obstacles that
///    touch only at a vertex (diagonal cells of a grid map) leave the free space
///    *pinched* there: the free regions on either side are separate shapes that share
///    that one vertex, so nothing passes through it.
/// 3. **One-sided walls** are the free-space edges, directed with the free space on
///    their left.
/// 4. **Two-sided walls.** Polylines, and polygons that collapse to zero area on the
///    grid, are split together with the free-space edges in a second overlay: every
///    edge is cut at every crossing and touching point (so a fence ending on a wall
///    splits that wall), crossing points are rounded to the grid, and splitting repeats
///    until no two edges cross. Rounding can move an edge by about a grid step (it bends
///    through the rounded point); the free space is taken from the same split, so walls
///    and [`Walls::free_space`] agree exactly. Open pieces outside the free space are
///    dropped, pieces on a free-space edge merge into that one-sided wall, the rest
///    become two-sided walls.
/// 5. **Sources.** Every input edge carries a tag through the overlays (split pieces
///    inherit it, coinciding pieces unite their tags), so
///    [`WallSegment::sources`](crate::WallSegment::sources) lists the boundary, obstacles
///    and polylines whose edges the wall lies on — for an edge bent by rounding, where it
///    ended up rather than where it was drawn.
/// 6. **Points** are kept when they lie strictly inside the free space and on no wall;
///    points snapping onto the same grid point become one, listing both sources.
/// 7. Straight chains of walls through vertices that no other wall touches are merged
///    into single segments (sources united), the output is sorted, and
///    [`Walls::check_disjoint`] verifies the guarantees before returning.
///
/// Features narrower than a grid step may change shape when snapped: that is the
/// resolution of the grid. The guarantees of [`Walls`] hold exactly for the output.
///
/// ```
/// use corridor_geom::{normalize, Environment, Obstacle, Point, WallSource};
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
/// let pillar = env.insert(Obstacle::Point(Point::new(5.0, 5.0)));
/// let outside = env.insert(Obstacle::rectangle(Point::new(8.0, 8.0), Point::new(12.0, 12.0)));
/// let walls = normalize(&env).unwrap();
/// assert_eq!(walls.points.len(), 1);
/// assert_eq!(walls.points[0].1, vec![WallSource::Obstacle(pillar)]);
/// // The crate sticking out of the boundary is clipped: 4 boundary + 2 crate edges remain.
/// assert_eq!(walls.one_sided().count(), 6);
/// assert!(walls.one_sided().any(|w| w.sources[..] == [WallSource::Obstacle(outside)]));
/// assert_eq!(walls.free_area(), 96.0);
/// ```
pub fn normalize(env: &Environment) -> Result<Walls, NormalizeError> {
    normalize_indexed(env).map(|(walls, _)| walls)
}

/// [`normalize`], also handing back the bucket grid of its final check
/// ([`Walls::check_disjoint_indexed`]), so that a caller querying the walls next (the
/// ECM build) need not index them again.
pub fn normalize_indexed(env: &Environment) -> Result<(Walls, SegmentGrid), NormalizeError> {
    normalize_indexed_within(env, &NormalizeLimits::default())
}

/// [`normalize`] refusing, before the overlay starts, an input that would split into more
/// pieces than `limits` allow (see [`NormalizeLimits`]).
pub fn normalize_within(
    env: &Environment,
    limits: &NormalizeLimits,
) -> Result<Walls, NormalizeError> {
    normalize_indexed_within(env, limits).map(|(walls, _)| walls)
}

/// [`normalize_indexed`] under `limits` (see [`normalize_within`]).
pub fn normalize_indexed_within(
    env: &Environment,
    limits: &NormalizeLimits,
) -> Result<(Walls, SegmentGrid), NormalizeError> {
    let (walls, grid, _) = normalize_overlay(env, false, Route::Auto, Checks::Full, limits)?;
    // The full checks index the walls on every route; indexing here is only a fallback.
    let grid = match grid {
        Some(grid) => grid,
        None => walls
            .check_disjoint_indexed()
            .map_err(NormalizeError::Conflict)?,
    };
    Ok((walls, grid))
}

/// [`normalize`] (or, with `overlay`, `normalize_through_overlay`) of an environment
/// given already snapped, without validating it and without the final
/// [`Walls::check_disjoint`] of the overlay route: the same walls [`normalize`] returns
/// (but a segment's sources are empty unless they are the boundary alone)
/// for the environment with this boundary (snapped, counter-clockwise, as
/// [`snapped_boundary`](super::snap::snapped_boundary) gives it) and these obstacles
/// (snapped by [`snap_shape`](super::snap::snap_shape)), on `grid`.
///
/// For `WallMap`'s group method only. Its caller has validated every part of the
/// environment already: the boundary and obstacles of an environment the map describes
/// (validated when they came in) and the new obstacles (validated with the same boundary
/// by `WallMap::plan`), and [`Environment::validate`] checks the boundary and each
/// obstacle on its own, so it would pass. It also checks the walls it uses itself
/// (`WallMap::check`: every added wall against the map's walls and the other added ones).
/// The fast path for interior-disjoint rings keeps its disjointness check, which is part
/// of its proof. `obstacles` must be in increasing id order, the order in which
/// [`Environment::obstacles`] gives them to [`normalize`].
pub(crate) fn normalize_snapped_trusted(
    grid: SnapGrid,
    boundary: &[GridPoint],
    obstacles: &[(ObstacleId, &SnappedShape)],
    overlay: bool,
) -> Result<Walls, NormalizeError> {
    let route = if overlay { Route::Overlay } else { Route::Auto };
    debug_assert!(obstacles.windows(2).all(|w| w[0].0 < w[1].0));
    let collect = || {
        let mut input = Input::new();
        input.boundary = boundary.iter().map(|&g| ip(g)).collect();
        for &(id, shape) in obstacles {
            input.add_shape(id, shape);
        }
        Ok(input)
    };
    normalize_collected(
        grid,
        collect,
        false,
        route,
        Checks::Trusted,
        &NormalizeLimits::default(),
    )
    .map(|(walls, _, _)| walls)
}

/// Whether [`normalize`] takes the fast path without the overlay for this environment
/// (valid environments only; for tests and measurements).
#[cfg(feature = "test-oracles")]
pub fn takes_disjoint_path(env: &Environment) -> Result<bool, NormalizeError> {
    env.validate()?;
    let mut input = Input::new();
    input.collect(env)?;
    Ok(disjoint_route_pays(&input)
        && normalize_disjoint(env.snap_grid(), input, Checks::Full).is_some())
}

/// Which way [`normalize_overlay`] goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Route {
    /// Without the overlay when the rings are proven interior-disjoint and the open
    /// pieces isolated in the free space.
    Auto,
    /// Always through the overlay.
    Overlay,
}

/// [`normalize`] always through the overlay (never the disjoint-rings fast path): the
/// reference the tests compare the fast path with.
#[cfg(feature = "test-oracles")]
pub fn normalize_through_overlay(env: &Environment) -> Result<Walls, NormalizeError> {
    normalize_overlay(
        env,
        false,
        Route::Overlay,
        Checks::Full,
        &NormalizeLimits::default(),
    )
    .map(|(walls, _, _)| walls)
}

/// The free-space shapes as the overlay builds them, in canonical form
/// ([`canonical_free_space`]), with the walls [`normalize`] returns: the reference that
/// tests compare [`Walls::free_space`] with. Not for production use (it costs an
/// extra shape assembly in the overlay).
#[cfg(feature = "test-oracles")]
pub fn normalize_with_overlay_shapes(env: &Environment) -> Result<(Walls, Shapes), NormalizeError> {
    normalize_overlay(
        env,
        true,
        Route::Overlay,
        Checks::Full,
        &NormalizeLimits::default(),
    )
    .map(|(walls, _, shapes)| (walls, shapes.unwrap_or_default()))
}

/// Normalization through `i_overlay`; with `want_shapes`, also the overlay's free-space
/// shapes (canonical).
fn normalize_overlay(
    env: &Environment,
    want_shapes: bool,
    mode: Route,
    checks: Checks,
    limits: &NormalizeLimits,
) -> Result<(Walls, Option<SegmentGrid>, Option<Shapes>), NormalizeError> {
    if checks == Checks::Full {
        env.validate()?;
    }
    let collect = || {
        let mut input = Input::new();
        input.collect(env)?;
        Ok(input)
    };
    normalize_collected(env.snap_grid(), collect, want_shapes, mode, checks, limits)
}

/// Whether to try the overlay-free route on this input. Its winding checks cast one ray
/// per ring walk and per open piece to the nearest side of the walls' box, so it grows
/// faster than the overlay on inputs with many rings: measured on the build bench's
/// synthetic inputs (disjoint convex polygons and 20 % open segments), it is the faster
/// route up to 100k edges (103 ms against 128 ms) and the slower one from 300k (542 ms
/// against 419 ms; 1M: 4.3 s against 1.8 s). Inputs with open obstacles take it below
/// [`DISJOINT_WITH_OPEN_MAX_EDGES`] edges; rings-only inputs always take it, as before
/// (their crossover was not measured).
fn disjoint_route_pays(input: &Input) -> bool {
    if input.strings.is_empty() {
        return true;
    }
    let edges = input.boundary.len()
        + input.polygons.iter().map(|(r, _)| r.len()).sum::<usize>()
        + input.strings.len();
    edges <= DISJOINT_WITH_OPEN_MAX_EDGES
}

/// See [`disjoint_route_pays`].
const DISJOINT_WITH_OPEN_MAX_EDGES: usize = 150_000;

/// [`normalize_overlay`] after the validation, with the input from `collect` (called
/// again when the fast path gives up).
fn normalize_collected(
    grid: SnapGrid,
    collect: impl Fn() -> Result<Input, NormalizeError>,
    want_shapes: bool,
    mode: Route,
    checks: Checks,
    limits: &NormalizeLimits,
) -> Result<(Walls, Option<SegmentGrid>, Option<Shapes>), NormalizeError> {
    let mut input = collect()?;
    if mode == Route::Auto && !want_shapes && disjoint_route_pays(&input) {
        if let Some(done) = normalize_disjoint(grid, input, checks) {
            return Ok((done.0, Some(done.1), None));
        }
        // Not proven disjoint: the overlay decides (the input is collected again).
        input = collect()?;
    }
    // Disjoint input never gets here with crossings; the overlay's cost is their count.
    limits.check(&input)?;
    let Input {
        mut store,
        boundary,
        polygons,
        strings,
        points,
    } = input;

    let boundary_set = store.intern_one(WallSource::Boundary);
    let boundary_tag = store.tag(boundary_set, None);
    let edge_count = boundary.len() + polygons.iter().map(|(r, _)| r.len()).sum::<usize>();
    let mut pass1 = EdgeOverlay::<i32, Tag>::new(edge_count);
    *pass1.data_store_mut() = store;
    add_ring(&mut pass1, &boundary, boundary_tag);
    for (ring, tag) in &polygons {
        add_ring(&mut pass1, ring, *tag);
    }

    let strings = merge_collinear_strings(strings, pass1.data_store_mut());
    let mut raw: Vec<RawWall>;
    let shapes: Vec<DataVectorShape<i32, Tag>>;
    let mut store: TagStore;
    if strings.is_empty() && want_shapes {
        shapes = pass1.build_vector_shapes(OverlayRule::Subject, FillRule::Positive);
        store = pass1.into_data_store();
        raw = Vec::new();
        collect_one_sided(shapes.iter().flatten().flatten(), &store, &mut raw);
    } else if strings.is_empty() {
        let free_edges = pass1.build_vectors(OverlayRule::Subject, FillRule::Positive);
        store = pass1.into_data_store();
        shapes = Vec::new();
        raw = Vec::new();
        collect_one_sided(&free_edges, &store, &mut raw);
    } else {
        let free_edges = pass1.build_vectors(OverlayRule::Subject, FillRule::Positive);
        store = pass1.into_data_store();
        let mut subject: Vec<RawWall> = free_edges
            .iter()
            .filter_map(|edge| {
                let (a, b) = free_on_left(edge)?;
                Some(RawWall {
                    a: gp(a),
                    b: gp(b),
                    two_sided: false,
                    set: store.set(edge.data),
                })
            })
            .collect();
        let mut open = strings;
        let mut round = 0;
        loop {
            let result = split_round(&subject, &open, store, want_shapes);
            store = result.store;
            if result.vanished.is_empty() {
                shapes = result.shapes;
                raw = result.one_sided;
                raw.extend(result.two_sided);
                break;
            }
            round += 1;
            if round >= MAX_SPLIT_ROUNDS {
                return Err(NormalizeError::SplitDidNotConverge { rounds: round });
            }
            // Some open pieces cancelled out of the arrangement: split again with them
            // put back, on top of everything found so far (which is already split).
            subject = result.one_sided;
            open = result
                .two_sided
                .iter()
                .map(|w| OpenEdge {
                    a: w.a,
                    b: w.b,
                    set: w.set,
                })
                .collect();
            open.extend(result.vanished);
        }
    }

    let ends = PointGroups::new(raw.iter().flat_map(|w| [w.a, w.b]));
    let (segments, points) = finish_walls(raw, &ends, points, &mut store, checks);
    let shapes = want_shapes.then(|| {
        canonical_free_space(
            shapes
                .iter()
                .map(|shape| {
                    shape
                        .iter()
                        .map(|contour| simplify_contour(contour.iter().map(|e| gp(e.a)).collect()))
                        .filter(|c| c.len() >= 3)
                        .collect::<Vec<_>>()
                })
                .filter(|shape: &Vec<Vec<GridPoint>>| !shape.is_empty())
                .collect(),
        )
    });

    let walls = Walls {
        grid,
        segments,
        points,
    };
    let grid = match checks {
        Checks::Full => Some(
            walls
                .check_disjoint_indexed()
                .map_err(NormalizeError::Conflict)?,
        ),
        Checks::Trusted => None,
    };
    Ok((walls, grid, shapes))
}
