//! From user obstacles (overlapping, touching, concave, partly outside, points and
//! segments) to interior-disjoint walls on the integer grid. The steps are described on
//! [`normalize`].

pub use crate::free_space::canonical_free_space;
pub(crate) use crate::free_space::twice_signed_area;
use crate::free_space::{
    bounds, simplify_contour, trace_free_space, walk_starts, wall_ends, winding_doubled, Shapes,
};
use crate::radix::sort_index_pairs_below;
use crate::{
    orient_grid, point_on_segment, Environment, EnvironmentError, GridPoint, Obstacle, ObstacleId,
    Orientation, Owner, Point, PointGroups, Ring, Segment, SnapGrid,
};
use i_overlay::core::edge_data::{EdgeDataMerge, EdgeDataSplit, OverlayEdgeData};
use i_overlay::core::edge_overlay::{EdgeOverlay, InputEdge};
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay::ShapeType;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::i_float::int::number::int::IntNumber;
use i_overlay::i_float::int::point::IntPoint;
use i_overlay::segm::boolean::ShapeCountBoolean;
use i_overlay::vector::edge::{DataVectorEdge, DataVectorShape, SUBJ_LEFT, SUBJ_RIGHT};
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

/// FxHash maps for the tag store: its keys (small sets of sources, pairs of set ids) are
/// not chosen by an adversary, and SipHash showed in the profiles of small
/// normalizations (the group method of `WallMap`). The maps are only looked up, never
/// iterated, so the hasher changes no result.
type HashMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// Where a wall piece came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum WallSource {
    /// The environment's outer boundary.
    Boundary,
    /// A user obstacle.
    Obstacle(ObstacleId),
}

/// One wall segment on the grid.
///
/// One-sided walls (edges of polygons and of the boundary) have the free space on their
/// left, going from `a` to `b`; two-sided walls (segment obstacles lying in free space)
/// have free space on both sides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WallSegment {
    /// Start.
    pub a: GridPoint,
    /// End.
    pub b: GridPoint,
    /// Whether free space lies on both sides.
    pub two_sided: bool,
    /// The boundary and/or obstacles this piece lies on (sorted, at least one).
    pub sources: WallSources,
}

/// The sources of a [`WallSegment`]: a list of [`WallSource`]s (sorted and distinct in
/// the walls [`normalize`] returns), read as a slice.
///
/// Almost every wall has one source, so up to one is stored inline (a [`SmallVec`], the
/// size of a `Vec`); only longer lists (walls where obstacles or the boundary meet)
/// allocate. It compares, hashes, prints and serializes as the list.
///
/// ```
/// use corridor_geom::{WallSource, WallSources};
/// let one: WallSources = [WallSource::Boundary].into();
/// assert_eq!(one[..], [WallSource::Boundary]);
/// assert!(!one.spilled());
/// assert!(WallSources::new().is_empty());
/// ```
pub type WallSources = SmallVec<[WallSource; 1]>;

/// Walls on the grid: what the Voronoi-based planners see.
///
/// Guarantees: no zero-length segments, no duplicates, no two segments cross or overlap
/// except at shared endpoints, no point lies on a segment or coincides with another
/// point or with a segment endpoint. [`Walls::check_disjoint`] verifies them exactly.
///
/// ```
/// use corridor_geom::{normalize, Environment, Obstacle, Point};
/// let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
/// // Two overlapping crates become one obstacle outline.
/// env.insert(Obstacle::rectangle(Point::new(2.0, 2.0), Point::new(5.0, 4.0)));
/// env.insert(Obstacle::rectangle(Point::new(4.0, 3.0), Point::new(6.0, 6.0)));
/// // A fence that runs into the crates: only the part in free space stays.
/// env.insert(Obstacle::segment(Point::new(0.5, 8.0), Point::new(5.0, 5.0)));
/// let walls = normalize(&env).unwrap();
/// walls.check_disjoint().unwrap();
/// assert_eq!(walls.two_sided().count(), 1);
/// assert!((walls.free_area() - (100.0 - 6.0 - 6.0 + 1.0)).abs() < 1e-9);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Walls {
    /// The grid the coordinates live on.
    pub grid: SnapGrid,
    /// Wall segments.
    pub segments: Vec<WallSegment>,
    /// Isolated point obstacles in free space, with where they came from.
    pub points: Vec<(GridPoint, Vec<WallSource>)>,
}

/// Why normalization failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NormalizeError {
    /// The environment is invalid.
    #[error(transparent)]
    Environment(#[from] EnvironmentError),
    /// The boundary encloses no area once snapped to the grid (it is thinner than a grid
    /// step, or the grid is too coarse for it).
    #[error("boundary: it encloses no area on the snap grid ({scale} steps per unit)")]
    BoundaryCollapsed {
        /// Grid steps per unit.
        scale: f64,
    },
    /// The walls produced violate the [`Walls`] guarantees. This is a bug in the
    /// normalization (or in the overlay library), reported instead of returning bad walls.
    #[error("normalization produced conflicting walls: {0}")]
    Conflict(WallConflict),
    /// Open walls kept cancelling each other out while being split (see the module
    /// documentation); a bug, reported instead of returning walls with pieces missing.
    #[error("splitting the open walls did not settle after {rounds} rounds")]
    SplitDidNotConverge {
        /// Rounds tried.
        rounds: usize,
    },
}

/// A violation of the [`Walls`] guarantees, found by [`Walls::check_disjoint`].
/// Indices refer to [`Walls::segments`] and [`Walls::points`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum WallConflict {
    /// A segment starts where it ends.
    #[error("segment {segment} has zero length")]
    ZeroLength {
        /// The segment.
        segment: usize,
    },
    /// Two segments cross, overlap, coincide, or one touches the other away from a
    /// shared endpoint.
    #[error("segments {first} and {second} meet away from a shared endpoint")]
    SegmentsMeet {
        /// The lower index.
        first: usize,
        /// The higher index.
        second: usize,
    },
    /// A point obstacle lies on a segment (endpoints included).
    #[error("point {point} lies on segment {segment}")]
    PointOnSegment {
        /// The point.
        point: usize,
        /// The segment.
        segment: usize,
    },
    /// Two point obstacles coincide.
    #[error("points {first} and {second} coincide")]
    PointsCoincide {
        /// The lower index.
        first: usize,
        /// The higher index.
        second: usize,
    },
}

impl WallSegment {
    /// The segment in user units.
    pub fn to_user(&self, grid: &SnapGrid) -> Segment {
        Segment::new(grid.to_point(self.a), grid.to_point(self.b))
    }
}

/// The walls as the input of a segment Voronoi library: isolated points `[x, y]` and
/// segments `[x0, y0, x1, y1]` on the integer grid, in the walls' order (so that a
/// diagram's site indices are indices into [`Walls::points`] and [`Walls::segments`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IntegerSites {
    /// The isolated points, in the order of [`Walls::points`].
    pub points: Vec<[i64; 2]>,
    /// The segments, in the order of [`Walls::segments`].
    pub segments: Vec<[i64; 4]>,
}

impl Walls {
    /// The walls as integer sites, the input `boostvoronoi` takes.
    ///
    /// ```
    /// use corridor_geom::{normalize, Environment, Point};
    /// let env = Environment::rectangle(Point::ZERO, Point::new(2.0, 1.0));
    /// let sites = normalize(&env).unwrap().integer_sites();
    /// assert_eq!(sites.segments.len(), 4);
    /// assert!(sites.points.is_empty());
    /// ```
    pub fn integer_sites(&self) -> IntegerSites {
        IntegerSites {
            points: self.integer_points().collect(),
            segments: self.integer_segments().collect(),
        }
    }

    /// [`IntegerSites::points`] as they are converted, for a caller that hands them on
    /// without keeping a list.
    ///
    /// ```
    /// use corridor_geom::{normalize, Environment, Obstacle, Point};
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(2.0, 1.0));
    /// env.insert(Obstacle::Point(Point::new(1.0, 0.5)));
    /// let walls = normalize(&env).unwrap();
    /// assert!(walls.integer_points().eq(walls.integer_sites().points));
    /// ```
    pub fn integer_points(&self) -> impl ExactSizeIterator<Item = [i64; 2]> + '_ {
        self.points.iter().map(|(p, _)| [p.x as i64, p.y as i64])
    }

    /// [`IntegerSites::segments`] as they are converted (see [`Walls::integer_points`]).
    pub fn integer_segments(&self) -> impl ExactSizeIterator<Item = [i64; 4]> + '_ {
        self.segments
            .iter()
            .map(|s| [s.a.x as i64, s.a.y as i64, s.b.x as i64, s.b.y as i64])
    }

    /// Number of wall segments (one- and two-sided).
    pub fn segment_count(&self) -> usize {
        self.segments.len()
    }

    /// Number of isolated point obstacles.
    pub fn point_count(&self) -> usize {
        self.points.len()
    }

    /// The one-sided walls: edges of the free space, free space on their left.
    pub fn one_sided(&self) -> impl Iterator<Item = &WallSegment> {
        self.segments.iter().filter(|s| !s.two_sided)
    }

    /// The two-sided walls: open obstacles (fences) with free space on both sides.
    pub fn two_sided(&self) -> impl Iterator<Item = &WallSegment> {
        self.segments.iter().filter(|s| s.two_sided)
    }

    /// The wall segments in user units, in the order of [`Walls::segments`].
    pub fn user_segments(&self) -> impl Iterator<Item = Segment> + '_ {
        self.segments.iter().map(|s| s.to_user(&self.grid))
    }

    /// The free space as polygons on the grid (the boundary minus the union of polygon
    /// obstacles; segments and points take no area), derived from the one-sided walls:
    /// each shape's first contour is its outer boundary (counter-clockwise), the rest are
    /// its holes (clockwise). Regions that touch only at a vertex are separate shapes.
    ///
    /// The form is canonical ([`canonical_free_space`]): every contour starts at its
    /// least vertex and has no straight vertices, holes are sorted within a shape and
    /// shapes by their outer contour. Computed on each call in O(n log n) plus, per
    /// hole, a scan of the outer contours whose box holds it; meant for tests, exports
    /// and occasional queries.
    ///
    /// ```
    /// use corridor_geom::{normalize, Environment, GridPoint, Obstacle, Point, SnapGrid};
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(4.0, 3.0))
    ///     .with_snap_grid(SnapGrid::new(1.0).unwrap());
    /// env.insert(Obstacle::rectangle(Point::new(1.0, 1.0), Point::new(2.0, 2.0)));
    /// let shapes = normalize(&env).unwrap().free_space();
    /// let g = GridPoint::new;
    /// assert_eq!(shapes, vec![vec![
    ///     vec![g(0, 0), g(4, 0), g(4, 3), g(0, 3)],
    ///     vec![g(1, 1), g(1, 2), g(2, 2), g(2, 1)],
    /// ]]);
    /// ```
    pub fn free_space(&self) -> Vec<Vec<Vec<GridPoint>>> {
        let one_sided: Vec<(GridPoint, GridPoint)> = self.one_sided().map(|s| (s.a, s.b)).collect();
        trace_free_space(&one_sided)
    }

    /// Twice the free area in grid units², exact: the integer shoelace sum over the
    /// directed one-sided walls (by Green's theorem the free space's positively oriented
    /// boundary; equal to the sum over the contours of [`Walls::free_space`]).
    pub fn free_area_twice_grid(&self) -> i128 {
        self.one_sided()
            .map(|s| s.a.x as i128 * s.b.y as i128 - s.b.x as i128 * s.a.y as i128)
            .sum()
    }

    /// The free area in user units²: the exact grid area, scaled once at the end.
    ///
    /// ```
    /// use corridor_geom::{normalize, Environment, Obstacle, Point};
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(4.0, 3.0));
    /// env.insert(Obstacle::rectangle(Point::new(1.0, 1.0), Point::new(2.0, 2.0)));
    /// assert_eq!(normalize(&env).unwrap().free_area(), 11.0);
    /// ```
    pub fn free_area(&self) -> f64 {
        let scale = self.grid.scale();
        self.free_area_twice_grid() as f64 / 2.0 / (scale * scale)
    }

    /// Checks the [`Walls`] guarantees exactly: no zero-length segment, no two segments
    /// meeting except at a shared endpoint of both (so no crossings, overlaps, duplicates
    /// or T-junctions), no point on a segment, no two coinciding points.
    ///
    /// Runs in about linear time for typical walls (a [`SegmentGrid`] finds the candidate
    /// pairs). The first conflict in index order is returned: zero-length segments first,
    /// then segment pairs by (lower, higher) index, then points.
    ///
    /// ```
    /// use corridor_geom::{GridPoint, WallConflict, WallSegment, WallSource, Walls};
    /// let seg = |a: (i32, i32), b: (i32, i32)| WallSegment {
    ///     a: GridPoint::new(a.0, a.1), b: GridPoint::new(b.0, b.1),
    ///     two_sided: true, sources: [WallSource::Boundary].into(),
    /// };
    /// let mut walls = Walls { segments: vec![seg((0, 0), (4, 0)), seg((4, 0), (4, 4))], ..Walls::default() };
    /// assert!(walls.check_disjoint().is_ok());
    /// walls.segments.push(seg((2, -1), (2, 1)));
    /// assert_eq!(walls.check_disjoint(), Err(WallConflict::SegmentsMeet { first: 0, second: 2 }));
    /// ```
    pub fn check_disjoint(&self) -> Result<(), WallConflict> {
        self.check_disjoint_indexed().map(|_| ())
    }

    /// The ends of every wall: the segments, then each point as a zero-length one (the
    /// order of the items of [`SegmentGrid`]s built over walls).
    pub fn wall_ends(&self) -> impl Iterator<Item = (GridPoint, GridPoint)> + '_ {
        self.segments
            .iter()
            .map(|s| (s.a, s.b))
            .chain(self.points.iter().map(|(p, _)| (*p, *p)))
    }

    /// [`Walls::check_disjoint`], also handing back the bucket grid it checked with, for
    /// a caller that queries the walls next (the ECM's validation): entries `0..n` are
    /// the `n` segments, entries `n..` the points (as `(p, p)`), in the order of
    /// [`Walls::segments`] and [`Walls::points`] — the grid
    /// `SegmentGrid::new` builds from [`Walls::wall_ends`].
    pub fn check_disjoint_indexed(&self) -> Result<SegmentGrid, WallConflict> {
        for (i, s) in self.segments.iter().enumerate() {
            if s.a == s.b {
                return Err(WallConflict::ZeroLength { segment: i });
            }
        }
        let n = self.segments.len();
        let ends: Vec<(GridPoint, GridPoint)> = self.wall_ends().collect();
        let mut index = SegmentGrid::new(&ends);
        let mut near = Vec::new();
        // Two segments that share a point share a bucket, so every pair that may conflict
        // is a pair within one bucket: testing those pairs bucket by bucket (a pair listed
        // in several buckets is tested in each) finds the same first pair (by lower, then
        // higher index) as a query per segment, without the queries' bookkeeping.
        let mut first: Option<(usize, usize)> = None;
        for k in 0..index.start.len() - 1 {
            let bucket = &index.items[index.start[k] as usize..index.start[k + 1] as usize];
            // Bucket items are in increasing order, segments before points.
            let segments_here = bucket.partition_point(|&i| (i as usize) < n);
            let bucket = &bucket[..segments_here];
            for (x, &i) in bucket.iter().enumerate() {
                let s = &self.segments[i as usize];
                for &j in &bucket[x + 1..] {
                    let pair = (i as usize, j as usize);
                    if first.is_some_and(|f| f <= pair) {
                        break; // later items only give larger pairs
                    }
                    let t = &self.segments[j as usize];
                    if segments_conflict(s.a, s.b, t.a, t.b) {
                        first = Some(pair);
                    }
                }
            }
        }
        if let Some((first, second)) = first {
            return Err(WallConflict::SegmentsMeet { first, second });
        }
        for (i, (p, _)) in self.points.iter().enumerate() {
            index.meeting(*p, *p, &mut near);
            let on = near
                .iter()
                .map(|&j| j as usize)
                .filter(|&j| j < n && on_segment_grid(*p, self.segments[j].a, self.segments[j].b))
                .min();
            if let Some(segment) = on {
                return Err(WallConflict::PointOnSegment { point: i, segment });
            }
        }
        let mut order: Vec<usize> = (0..self.points.len()).collect();
        order.sort_by_key(|&i| (self.points[i].0, i));
        let mut coincide: Option<(usize, usize)> = None;
        for w in order.windows(2) {
            if self.points[w[0]].0 == self.points[w[1]].0 {
                let pair = (w[0].min(w[1]), w[0].max(w[1]));
                coincide = Some(coincide.map_or(pair, |c| c.min(pair)));
            }
        }
        match coincide {
            Some((first, second)) => Err(WallConflict::PointsCoincide { first, second }),
            None => Ok(index),
        }
    }

    /// The index (into [`Walls::free_space`]'s shapes) of the free-space shape whose interior
    /// contains `p` (user units), or `None` when `p` is outside the free space or on a
    /// wall or point obstacle. Exact once `p` is scaled to grid units. Each call derives
    /// the shapes again ([`Walls::free_space`], O(n log n) in the number of walls), so it
    /// is meant for occasional queries (start and goal checks, tests), not for inner
    /// loops.
    ///
    /// ```
    /// use corridor_geom::{normalize, Environment, Obstacle, Point};
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(2.0, 2.0));
    /// // Two squares touching at (1, 1): the two free squares meet only in that vertex.
    /// env.insert(Obstacle::rectangle(Point::new(0.0, 0.0), Point::new(1.0, 1.0)));
    /// env.insert(Obstacle::rectangle(Point::new(1.0, 1.0), Point::new(2.0, 2.0)));
    /// let walls = normalize(&env).unwrap();
    /// let upper_left = walls.free_shape_at(Point::new(0.5, 1.5)).unwrap();
    /// let lower_right = walls.free_shape_at(Point::new(1.5, 0.5)).unwrap();
    /// assert_ne!(upper_left, lower_right);
    /// assert_eq!(walls.free_shape_at(Point::new(0.5, 0.5)), None);
    /// ```
    pub fn free_shape_at(&self, p: Point) -> Option<usize> {
        let q = p * self.grid.scale();
        if !q.is_finite() {
            return None;
        }
        let f = |g: GridPoint| Point::new(g.x as f64, g.y as f64);
        let on_wall = self
            .segments
            .iter()
            .any(|s| point_on_segment(q, f(s.a), f(s.b)))
            || self.points.iter().any(|(g, _)| f(*g) == q);
        if on_wall {
            return None;
        }
        let winding = |contour: &[GridPoint]| -> Option<i32> {
            let ring = Ring::new(contour.iter().map(|&g| f(g)).collect());
            if ring.on_boundary(q) {
                None
            } else {
                Some(ring.winding_number(q))
            }
        };
        for (index, shape) in self.free_space().iter().enumerate() {
            let Some((outer, holes)) = shape.split_first() else {
                continue;
            };
            if winding(outer)? == 0 {
                continue;
            }
            let mut in_hole = false;
            for hole in holes {
                if winding(hole)? != 0 {
                    in_hole = true;
                    break;
                }
            }
            if !in_hole {
                return Some(index);
            }
        }
        None
    }
}

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
///    inherit it, coinciding pieces unite their tags), so [`WallSegment::sources`] lists
///    the boundary, obstacles and polylines whose edges the wall lies on — for an edge
///    bent by rounding, where it ended up rather than where it was drawn.
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
    let (walls, grid, _) = normalize_overlay(env, false, Route::Auto, Checks::Full)?;
    // The full checks index the walls on every route; indexing here is only a fallback.
    let grid = match grid {
        Some(grid) => grid,
        None => walls
            .check_disjoint_indexed()
            .map_err(NormalizeError::Conflict)?,
    };
    Ok((walls, grid))
}

/// [`normalize`] (or, with `overlay`, [`normalize_through_overlay`]) of an environment
/// given already snapped, without validating it and without the final
/// [`Walls::check_disjoint`] of the overlay route: the same walls [`normalize`] returns
/// (but a segment's sources are empty unless they are the boundary alone)
/// for the environment with this boundary (snapped, counter-clockwise, as
/// [`snapped_boundary`] gives it) and these obstacles (snapped by [`snap_shape`]), on
/// `grid`.
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
    normalize_collected(grid, collect, false, route, Checks::Trusted).map(|(walls, _, _)| walls)
}

/// Whether [`normalize`] takes the fast path without the overlay for this environment
/// (valid environments only; for tests and measurements).
#[doc(hidden)]
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

/// Which of its own checks [`normalize_overlay`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Checks {
    /// Validates the environment first and checks the walls before returning them.
    Full,
    /// Neither (see [`normalize_snapped_trusted`]); no index of the walls is returned from the
    /// overlay route, and segments keep their sources only when these are the boundary
    /// alone.
    Trusted,
}

/// [`normalize`] always through the overlay (never the disjoint-rings fast path): the
/// reference the tests compare the fast path with.
#[doc(hidden)]
pub fn normalize_through_overlay(env: &Environment) -> Result<Walls, NormalizeError> {
    normalize_overlay(env, false, Route::Overlay, Checks::Full).map(|(walls, _, _)| walls)
}

/// The free-space shapes as the overlay builds them, in canonical form
/// ([`canonical_free_space`]), with the walls [`normalize`] returns: the reference that
/// tests compare [`Walls::free_space`] with. Not for production use (it costs an
/// extra shape assembly in the overlay).
#[doc(hidden)]
pub fn normalize_with_overlay_shapes(env: &Environment) -> Result<(Walls, Shapes), NormalizeError> {
    normalize_overlay(env, true, Route::Overlay, Checks::Full)
        .map(|(walls, _, shapes)| (walls, shapes.unwrap_or_default()))
}

/// Normalization through `i_overlay`; with `want_shapes`, also the overlay's free-space
/// shapes (canonical).
fn normalize_overlay(
    env: &Environment,
    want_shapes: bool,
    mode: Route,
    checks: Checks,
) -> Result<(Walls, Option<SegmentGrid>, Option<Shapes>), NormalizeError> {
    if checks == Checks::Full {
        env.validate()?;
    }
    let collect = || {
        let mut input = Input::new();
        input.collect(env)?;
        Ok(input)
    };
    normalize_collected(env.snap_grid(), collect, want_shapes, mode, checks)
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
) -> Result<(Walls, Option<SegmentGrid>, Option<Shapes>), NormalizeError> {
    let mut input = collect()?;
    if mode == Route::Auto && !want_shapes && disjoint_route_pays(&input) {
        if let Some(done) = normalize_disjoint(grid, input, checks) {
            return Ok((done.0, Some(done.1), None));
        }
        // Not proven disjoint: the overlay decides (the input is collected again).
        input = collect()?;
    }
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

/// The last steps of both routes: straight chains merged, walls sorted, points placed.
/// With [`Checks::Trusted`] a segment's sources are only kept when they are the
/// boundary alone (all the group method asks of them: a wall outside the group must be
/// one); other segments get none.
fn finish_walls(
    raw: Vec<RawWall>,
    ends: &PointGroups,
    points: Vec<(GridPoint, u32)>,
    store: &mut TagStore,
    checks: Checks,
) -> (Vec<WallSegment>, Vec<(GridPoint, Vec<WallSource>)>) {
    let merged = merge_collinear_walls(raw, ends, store);
    // `from_slice` copies (the sources are `Copy`); `clone` goes through the generic
    // iterator collection, about 60 instructions a wall.
    let sources = |set: u32| -> WallSources {
        let set = &store.sets[set as usize];
        match checks {
            Checks::Full => WallSources::from_slice(set),
            Checks::Trusted if set[..] == [WallSource::Boundary] => WallSources::from_slice(set),
            Checks::Trusted => WallSources::default(),
        }
    };
    let mut segments: Vec<WallSegment> = sorted_walls(&merged)
        .map(|w| WallSegment {
            a: w.a,
            b: w.b,
            two_sided: w.two_sided,
            sources: sources(w.set),
        })
        .collect();
    segments.dedup_by(|s, t| s.a == t.a && s.b == t.b && s.two_sided == t.two_sided);
    let points = place_points(points, &segments, store);
    (segments, points)
}

/// How often open pieces that cancelled out of the arrangement are put back before giving up.
const MAX_SPLIT_ROUNDS: usize = 16;

struct SplitRound {
    shapes: Vec<DataVectorShape<i32, Tag>>,
    one_sided: Vec<RawWall>,
    two_sided: Vec<RawWall>,
    /// Open pieces that dropped out of the arrangement because two of them coincided in
    /// opposite directions (their counts cancelled); they must be split again.
    vanished: Vec<OpenEdge>,
    store: TagStore,
}

/// One overlay of the free-space edges (`subject`, free space on their left, already
/// split among themselves) with the open edges: splits everything at every crossing and
/// sorts the pieces into one-sided walls, two-sided walls (open pieces inside the free
/// space) and pieces that vanished.
fn split_round(
    subject: &[RawWall],
    open: &[OpenEdge],
    mut store: TagStore,
    want_shapes: bool,
) -> SplitRound {
    store.hidden.clear();
    store.vanished.clear();
    let mut overlay = EdgeOverlay::<i32, Tag>::new(subject.len() + open.len());
    for w in subject {
        let data = store.tag(w.set, None);
        overlay.add_edge(
            InputEdge {
                a: ip(w.a),
                b: ip(w.b),
                data,
            },
            ShapeType::Subject,
        );
    }
    for s in open {
        let (a, b) = (ip(s.a.min(s.b)), ip(s.a.max(s.b)));
        let data = store.tag(s.set, Some((a, b)));
        // Canonical direction (a < b) so that coinciding open edges add up.
        overlay.add_edge(InputEdge { a, b, data }, ShapeType::Clip);
    }
    *overlay.data_store_mut() = store;
    // The free space is clean (winding 0 or 1), so even-odd equals non-zero for it; for
    // the open edges, even-odd marks every piece covered an odd number of times.
    let (shapes, free_edges) = if want_shapes {
        let shapes = overlay.build_vector_shapes(OverlayRule::Subject, FillRule::EvenOdd);
        (shapes, Vec::new())
    } else {
        let edges = overlay.build_vectors(OverlayRule::Subject, FillRule::EvenOdd);
        (Vec::new(), edges)
    };
    let open_pieces = overlay.build_vectors(OverlayRule::Clip, FillRule::EvenOdd);
    let store = overlay.into_data_store();
    let mut one_sided = Vec::new();
    collect_one_sided(shapes.iter().flatten().flatten(), &store, &mut one_sided);
    collect_one_sided(&free_edges, &store, &mut one_sided);
    let mut two_sided = Vec::new();
    for edge in &open_pieces {
        if edge.fill & (SUBJ_LEFT | SUBJ_RIGHT) == SUBJ_LEFT | SUBJ_RIGHT {
            two_sided.push(RawWall::two_sided(
                gp(edge.a),
                gp(edge.b),
                store.set(edge.data),
            ));
        }
    }
    // Pieces covered an even number of times (two open edges bent onto the same grid
    // points) stay in the arrangement but are invisible to the even-odd rule; the tags
    // remember them.
    for &id in &store.hidden {
        let entry = store.entries[id as usize];
        let (Some((a, b)), false) = (entry.piece, entry.consumed) else {
            continue;
        };
        let (a, b) = (gp(a), gp(b));
        let mid = (a.x as i64 + b.x as i64, a.y as i64 + b.y as i64);
        if a != b
            && winding_doubled(
                mid,
                one_sided
                    .iter()
                    .filter(|w| !w.two_sided)
                    .map(|w| (w.a, w.b)),
            ) == 1
        {
            two_sided.push(RawWall::two_sided(a, b, entry.set));
        }
    }
    let vanished = store
        .vanished
        .iter()
        .filter_map(|&id| {
            let entry = store.entries[id as usize];
            let (a, b) = entry.piece.filter(|_| !entry.consumed)?;
            (a != b).then(|| OpenEdge {
                a: gp(a.min(b)),
                b: gp(a.max(b)),
                set: entry.set,
            })
        })
        .collect();
    SplitRound {
        shapes,
        one_sided,
        two_sided,
        vanished,
        store,
    }
}

// ---------------------------------------------------------------------------------------
// The fast path: rings proven interior-disjoint need no overlay.

/// [`normalize`] without the overlay, for rings (boundary and polygon obstacles) proven
/// to bound interior-disjoint obstacles inside the boundary, with open pieces (fences,
/// polylines) proven to lie strictly inside the free space, meeting nothing but each
/// other's ends; `None` whenever that is not proven (then the overlay decides).
///
/// 1. Every edge is split where collinear edges overlap it; pieces drawn twice in
///    opposite directions (an obstacle along the boundary, two obstacles sharing an
///    edge) cancel, pieces drawn once are the candidate walls (free space on their
///    left), any other repetition gives up.
/// 2. The walls are finished as on the overlay route and [`Walls::check_disjoint_indexed`]
///    must pass: walls meet only at shared endpoints. A cancelled piece must meet no wall
///    and no other cancelled piece inside it. So nothing crosses: the overlay would
///    neither split nor move anything.
/// 3. The free space is then what the overlay's positive fill rule gives exactly when the
///    winding number of all rings is 1 just left of every wall: the walls are walked face
///    by face with the free space on the left (turning into the first wall clockwise, so
///    the left side stays in one sector at each vertex and has one winding number along
///    a walk), every wall must lie on a closed walk, and the winding number just left of
///    each walk's first wall is counted exactly (a ray to the right, the point pushed off
///    the wall symbolically). Walls with winding 1 on their left and 0 on their right are
///    exactly the edges of {winding > 0}.
/// 4. Open pieces: none may overlap another collinearly (the overlay would split and
///    unite them) or end where a ring piece ends, so with step 2 each meets no one-sided
///    wall and no cancelled piece, and meets other open pieces only at shared ends: the
///    overlay keeps it whole as one two-sided wall when it lies in the free space, which
///    the winding number at its midpoint (1) decides. They go through the same
///    [`finish_walls`] as on the overlay route (collinear chains merged there).
fn normalize_disjoint(
    grid: SnapGrid,
    input: Input,
    checks: Checks,
) -> Option<(Walls, SegmentGrid)> {
    let Input {
        mut store,
        boundary,
        polygons,
        points,
        strings,
    } = input;
    // Open pieces overlapping collinearly (or drawn twice) are split and united by the
    // overlay route: not handled here.
    if strings_overlap(&strings) {
        return None;
    }
    let boundary_set = store.intern_one(WallSource::Boundary);
    let (mut raw, cancelled) = disjoint_pieces(&boundary, boundary_set, &polygons, &store)?;
    // The face walks go over these pieces (the same faces as the merged walls), sharing
    // the grouping of their ends with the merge when there are no open pieces.
    let pieces: Vec<(GridPoint, GridPoint)> = raw.iter().map(|w| (w.a, w.b)).collect();
    let ring_ends = wall_ends(&pieces);
    let open_ends;
    let ends = if strings.is_empty() {
        &ring_ends
    } else {
        // The open pieces as the overlay gives them when they meet nothing but each
        // other's ends: each one two-sided wall (the checks below prove that they do).
        let ring_items = 2 * raw.len() as u32;
        raw.extend(strings.iter().map(|e| RawWall::two_sided(e.a, e.b, e.set)));
        open_ends = PointGroups::new(raw.iter().flat_map(|w| [w.a, w.b]));
        // No open piece may end where a ring piece does.
        for g in 0..open_ends.len() {
            let group = open_ends.group(g);
            let rings = group.iter().any(|&i| i < ring_items);
            if rings && group.iter().any(|&i| i >= ring_items) {
                return None;
            }
        }
        &open_ends
    };
    let (segments, points) = finish_walls(raw, ends, points, &mut store, checks);
    let walls = Walls {
        grid,
        segments,
        points,
    };
    let mut index = walls.check_disjoint_indexed().ok()?;
    let n = walls.segments.len();
    let mut near = Vec::new();
    for &(c, d) in &cancelled {
        index.meeting_segment(c, d, &mut near);
        for &j in &near {
            if (j as usize) < n {
                let w = &walls.segments[j as usize];
                if meets_inside(c, d, w.a, w.b)
                    || (w.two_sided && crate::segments_intersect_grid(c, d, w.a, w.b))
                {
                    return None;
                }
            }
        }
    }
    if cancelled.len() > 1 {
        let check = SegmentGrid::new(&cancelled);
        for k in 0..check.start.len() - 1 {
            let bucket = &check.items[check.start[k] as usize..check.start[k + 1] as usize];
            for (x, &i) in bucket.iter().enumerate() {
                let (a, b) = cancelled[i as usize];
                for &j in &bucket[x + 1..] {
                    let (c, d) = cancelled[j as usize];
                    if segments_conflict(a, b, c, d) {
                        return None;
                    }
                }
            }
        }
    }
    // The one-sided walls come first (sorted by kind): the winding numbers count them
    // alone (the index's later items, two-sided walls and points, are skipped).
    let one_sided = walls.segments.partition_point(|w| !w.two_sided);
    let directed: Vec<(GridPoint, GridPoint)> = walls.segments[..one_sided]
        .iter()
        .map(|w| (w.a, w.b))
        .collect();
    let starts = walk_starts(&pieces, &ring_ends)?;
    let bounds = bounds(directed.iter().map(|(a, _)| a));
    for first in starts {
        if winding_left_of(pieces[first], &directed, &mut index, bounds) != 1 {
            return None;
        }
    }
    // Each two-sided wall meets no one-sided wall (the walls meet only at shared ends,
    // and no open piece ends at a ring piece), so it lies in one face of the rings: it is
    // kept by the overlay exactly when that face is free (winding 1; the rings' winding is
    // 0 or 1 everywhere, as every wall has 1 on its left and 0 on its right). Its
    // midpoint must lie strictly inside the walls' box, where the ray is bounded.
    for w in walls.segments[directed.len()..].iter() {
        let (mx, my) = (w.a.x as i64 + w.b.x as i64, w.a.y as i64 + w.b.y as i64);
        let inside =
            2 * bounds[0] < mx && mx < 2 * bounds[2] && 2 * bounds[1] < my && my < 2 * bounds[3];
        if !inside || winding_left_of((w.a, w.b), &directed, &mut index, bounds) != 1 {
            return None;
        }
    }
    Some((walls, index))
}

/// Whether the segments `a b` and `c d` share a point inside `a b` (not at its ends).
fn meets_inside(a: GridPoint, b: GridPoint, c: GridPoint, d: GridPoint) -> bool {
    if !crate::segments_intersect_grid(a, b, c, d) {
        return false;
    }
    let collinear = orient_grid(a, b, c) == Orientation::Collinear
        && orient_grid(a, b, d) == Orientation::Collinear;
    if collinear {
        // Overlapping along a stretch, or touching at one point (an end of `a b`).
        let t = |p: GridPoint| {
            (b.x as i64 - a.x as i64) * (p.x as i64 - a.x as i64)
                + (b.y as i64 - a.y as i64) * (p.y as i64 - a.y as i64)
        };
        let (lo, hi) = (t(c).min(t(d)), t(c).max(t(d)));
        let len = t(b);
        return lo.max(0) < hi.min(len);
    }
    // One common point: inside `a b` unless it is `a` or `b`.
    !on_segment_grid(a, c, d) && !on_segment_grid(b, c, d)
}

/// The candidate walls of [`normalize_disjoint`] (unmerged, free space on their left)
/// and the cancelled pieces, or `None` when some stretch is drawn more than once in one
/// direction or more than twice.
#[allow(clippy::type_complexity)]
fn disjoint_pieces(
    boundary: &[IntPoint<i32>],
    boundary_set: u32,
    polygons: &[(Vec<IntPoint<i32>>, Tag)],
    store: &TagStore,
) -> Option<(Vec<RawWall>, Vec<(GridPoint, GridPoint)>)> {
    // (line key, position of the lower end, of the higher end, forward, set, ends)
    type Keyed = (
        (i64, i64, i128),
        i128,
        i128,
        bool,
        u32,
        GridPoint,
        GridPoint,
    );
    let mut edges: Vec<Keyed> =
        Vec::with_capacity(boundary.len() + polygons.iter().map(|(r, _)| r.len()).sum::<usize>());
    let mut add = |ring: &[IntPoint<i32>], set: u32| {
        let n = ring.len();
        for i in 0..n {
            let (a, b) = (gp(ring[i]), gp(ring[(i + 1) % n]));
            if a == b {
                continue;
            }
            let (line, ta, tb) = supporting_line(a, b);
            let forward = ta < tb;
            let (lo, hi) = if forward { (a, b) } else { (b, a) };
            edges.push((line, ta.min(tb), ta.max(tb), forward, set, lo, hi));
        }
    };
    add(boundary, boundary_set);
    for (ring, tag) in polygons {
        add(ring, store.set(*tag));
    }
    // Sorted by line, then position. Axis-parallel edges (all of them on grid maps) get
    // one packed key: axis, offset and lower position, the coordinates compacted
    // (horizontal: offset y, position x; vertical: offset -x, which is max x - x
    // compacted, position y).
    let compact = Compaction::new(edges.iter().flat_map(|e| [e.5, e.6]));
    let bits = compact.bits;
    let pack = |e: &Keyed| -> Option<u64> {
        let lo = e.5;
        match e.0 {
            (1, 0, _) => Some(compact.y(lo.y) << bits | compact.x(lo.x)),
            (0, 1, _) => Some(1 << (2 * bits) | compact.x_down(lo.x) << bits | compact.y(lo.y)),
            _ => None,
        }
    };
    let packed: Option<Vec<(u64, u32)>> = (2 * bits < 64)
        .then(|| {
            edges
                .iter()
                .enumerate()
                .map(|(i, e)| pack(e).map(|k| (k, i as u32)))
                .collect()
        })
        .flatten();
    // (line, edge) in that order, equal lines for the edges of one line; the edges are
    // read through it (not moved: each is about 100 bytes).
    let order: Vec<(u64, u32)> = match packed {
        Some(mut keys) => {
            sort_index_pairs_below(&mut keys, 2 * bits + 1);
            // Ties (same line and lower end) by the higher end, as the full key would.
            for run in keys.chunk_by_mut(|x, y| x.0 == y.0) {
                if run.len() > 1 {
                    run.sort_unstable_by_key(|&(_, i)| edges[i as usize].2);
                }
            }
            // The line: axis and offset.
            for key in &mut keys {
                key.0 >>= bits;
            }
            keys
        }
        None => {
            edges.sort_unstable_by_key(|x| (x.0, x.1, x.2));
            let mut line = 0;
            (0..edges.len())
                .map(|i| {
                    if i > 0 && edges[i].0 != edges[i - 1].0 {
                        line += 1;
                    }
                    (line, i as u32)
                })
                .collect()
        }
    };
    let mut kept: Vec<RawWall> = Vec::with_capacity(edges.len());
    let mut cancelled: Vec<(GridPoint, GridPoint)> = Vec::new();
    let wall = |lo: GridPoint, hi: GridPoint, forward: bool, set: u32| {
        let (a, b) = if forward { (lo, hi) } else { (hi, lo) };
        RawWall {
            a,
            b,
            two_sided: false,
            set,
        }
    };
    let mut i = 0;
    while i < order.len() {
        // A run of edges on one line that overlap one another (transitively).
        let e = &edges[order[i].1 as usize];
        let mut j = i + 1;
        let mut reach = e.2;
        while j < order.len() && order[j].0 == order[i].0 {
            let f = &edges[order[j].1 as usize];
            if f.1 >= reach {
                break;
            }
            reach = reach.max(f.2);
            j += 1;
        }
        if j == i + 1 {
            kept.push(wall(e.5, e.6, e.3, e.4));
            i = j;
            continue;
        }
        let run: Vec<Keyed> = order[i..j]
            .iter()
            .map(|&(_, k)| edges[k as usize])
            .collect();
        i = j;
        // Elementary stretches between consecutive ends, each covered once (kept) or
        // twice in opposite directions (cancelled).
        let mut breaks: Vec<(i128, GridPoint)> =
            run.iter().flat_map(|e| [(e.1, e.5), (e.2, e.6)]).collect();
        breaks.sort_unstable_by_key(|b| b.0);
        breaks.dedup_by_key(|b| b.0);
        for w in breaks.windows(2) {
            let ((t0, p0), (t1, p1)) = (w[0], w[1]);
            let mut cover = run.iter().filter(|e| e.1 <= t0 && t1 <= e.2);
            match (cover.next(), cover.next(), cover.next()) {
                (Some(e), None, _) => kept.push(wall(p0, p1, e.3, e.4)),
                (Some(e), Some(f), None) if e.3 != f.3 => cancelled.push((p0, p1)),
                (None, _, _) => {}
                _ => return None,
            }
        }
    }
    Some((kept, cancelled))
}

/// The winding number of the directed closed walls `walls` (indexed by `index`, which
/// may also hold points after them) at a point just left of the midpoint of `a b`, a
/// stretch of one of the walls
/// (exact: the point is pushed off the wall symbolically). The ray goes to the nearest
/// side of `bounds` (`[min x, min y, max x, max y]` of the walls): the count is the same
/// in every direction, and a short ray meets fewer walls.
///
/// Inlined at both calls: on rings-only inputs (grid maps) the walk starts' call is hot,
/// and a second call site would otherwise keep it out of line.
#[inline(always)]
fn winding_left_of(
    (a, b): (GridPoint, GridPoint),
    walls: &[(GridPoint, GridPoint)],
    index: &mut SegmentGrid,
    bounds: [i64; 4],
) -> i32 {
    // Doubled coordinates: the midpoint is `a + b`.
    let (mx, my) = (a.x as i64 + b.x as i64, a.y as i64 + b.y as i64);
    let (fx, cx) = (mx.div_euclid(2), (mx + 1).div_euclid(2));
    let (fy, cy) = (my.div_euclid(2), (my + 1).div_euclid(2));
    // The nearest side; `rot` turns the ray's direction into +x (rotations keep the
    // winding number).
    let reach = [
        2 * bounds[2] - mx,
        2 * bounds[3] - my,
        mx - 2 * bounds[0],
        my - 2 * bounds[1],
    ];
    let k = (0..4).min_by_key(|&k| reach[k]).unwrap_or(0);
    // The rotation as a matrix of 0 and ±1 (exact, and no branch per wall): k = 0 is
    // (x, y), 1 is (y, -x), 2 is (-x, -y), 3 is (-y, x).
    let [u, v] = match k {
        0 => [(1, 0), (0, 1)],
        1 => [(0, 1), (-1, 0)],
        2 => [(-1, 0), (0, -1)],
        _ => [(0, -1), (1, 0)],
    };
    let rot = |x: i64, y: i64| (u.0 * x + u.1 * y, v.0 * x + v.1 * y);
    let (lo, hi) = match k {
        0 => ([fx, fy], [bounds[2], cy]),
        1 => ([fx, fy], [cx, bounds[3]]),
        2 => ([bounds[0], fy], [cx, cy]),
        _ => ([fx, bounds[1]], [cx, cy]),
    };
    let (mx, my) = rot(mx, my);
    let (ra, rb) = (rot(a.x as i64, a.y as i64), rot(b.x as i64, b.y as i64));
    // The left normal of `e`: the point is (mx, my) + ε n.
    let n = (-(rb.1 - ra.1), rb.0 - ra.0);
    // Whether a y (doubled) is at most the point's: `y < my || (y == my && n.1 >= 0)`,
    // one comparison on integers.
    let top = if n.1 >= 0 { my } else { my - 1 };
    let below = |y: i64| y <= top;
    // Only a wall with one end below the ray's line and one above can change the count
    // (both branches below need that), and points never do: the others are dropped in
    // the bucket walk, before its seen-mark, with no list of them (most walls along the
    // ray run beside it). The count is a sum, so the order is free.
    let straddles = |j: u32| {
        walls.get(j as usize).is_some_and(|&(c, d)| {
            let y = |p: GridPoint| 2 * (v.0 * p.x as i64 + v.1 * p.y as i64);
            below(y(c)) != below(y(d))
        })
    };
    let mut winding = 0;
    index.for_each_meeting_box_where(lo, hi, straddles, |j| {
        let (c, d) = walls[j as usize];
        let (cx, cy) = rot(2 * c.x as i64, 2 * c.y as i64);
        let (dx, dy) = rot(2 * d.x as i64, 2 * d.y as i64);
        let side = || {
            let s = (dx - cx) as i128 * (my - cy) as i128 - (dy - cy) as i128 * (mx - cx) as i128;
            if s != 0 {
                s.signum()
            } else {
                ((dx - cx) as i128 * n.1 as i128 - (dy - cy) as i128 * n.0 as i128).signum()
            }
        };
        if below(cy) {
            if side() > 0 {
                winding += 1;
            }
        } else if side() < 0 {
            winding -= 1;
        }
    });
    winding
}

// ---------------------------------------------------------------------------------------
// Input collection and snapping.

/// An open edge (from a polyline or a collapsed polygon), canonical `a < b`.
#[derive(Clone, Copy, Debug)]
struct OpenEdge {
    a: GridPoint,
    b: GridPoint,
    set: u32,
}

struct Input {
    store: TagStore,
    /// The boundary, counter-clockwise.
    boundary: Vec<IntPoint<i32>>,
    /// Obstacle rings oriented so that each obstacle has winding −1 inside, 0 in holes.
    polygons: Vec<(Vec<IntPoint<i32>>, Tag)>,
    strings: Vec<OpenEdge>,
    points: Vec<(GridPoint, u32)>,
}

impl Input {
    fn new() -> Self {
        Input {
            store: TagStore::default(),
            boundary: Vec::new(),
            polygons: Vec::new(),
            strings: Vec::new(),
            points: Vec::new(),
        }
    }

    fn collect(&mut self, env: &Environment) -> Result<(), NormalizeError> {
        let grid = env.snap_grid();
        self.boundary = snapped_boundary(env)?.into_iter().map(ip).collect();

        self.polygons.reserve(env.obstacles().len());
        for (id, obstacle) in env.obstacles() {
            let (shape, _) = snap_shape(&grid, id, obstacle)?;
            match shape {
                // The rings are moved, not copied: `GridPoint` and `IntPoint<i32>` are
                // laid out alike, so the conversion keeps each ring's buffer.
                SnappedShape::Rings(rings) => {
                    let tag = self.obstacle_tag(id);
                    for ring in rings {
                        self.polygons
                            .push((ring.into_iter().map(ip).collect(), tag));
                    }
                }
                shape => self.add_shape(id, &shape),
            }
        }
        Ok(())
    }

    /// The tag of an obstacle's rings.
    fn obstacle_tag(&mut self, id: ObstacleId) -> Tag {
        let set = self.store.intern_one(WallSource::Obstacle(id));
        self.store.tag(set, None)
    }

    /// Adds one snapped obstacle.
    fn add_shape(&mut self, id: ObstacleId, shape: &SnappedShape) {
        match shape {
            SnappedShape::Point(p) => {
                let set = self.store.intern_one(WallSource::Obstacle(id));
                self.points.push((*p, set));
            }
            SnappedShape::Open(vertices) => {
                let set = self.store.intern_one(WallSource::Obstacle(id));
                self.add_open(vertices, set);
            }
            SnappedShape::Rings(rings) => {
                let tag = self.obstacle_tag(id);
                for ring in rings {
                    self.polygons
                        .push((ring.iter().map(|&g| ip(g)).collect(), tag));
                }
            }
        }
    }

    /// Adds a polyline's edges; a polyline that snaps to a single point becomes a point.
    fn add_open(&mut self, vertices: &[GridPoint], set: u32) {
        let mut any_edge = false;
        for w in vertices.windows(2) {
            if w[0] != w[1] {
                any_edge = true;
                let (a, b) = (w[0].min(w[1]), w[0].max(w[1]));
                self.strings.push(OpenEdge { a, b, set });
            }
        }
        if !any_edge {
            if let Some(&p) = vertices.first() {
                self.points.push((p, set));
            }
        }
    }
}

/// An obstacle on the snap grid, as normalization collects it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum SnappedShape {
    /// A point obstacle.
    Point(GridPoint),
    /// The vertices of a polyline, or of a polygon thinner than a grid step (closed: the
    /// first vertex repeated at the end): open edges, or a point if they all coincide.
    Open(Vec<GridPoint>),
    /// A polygon: its exterior clockwise, then its holes with nonzero area
    /// counter-clockwise (winding −1 inside the obstacle, 0 in its holes).
    Rings(Vec<Vec<GridPoint>>),
}

/// Snaps an obstacle as [`normalize`] reads it; also the number of its vertices snapped
/// (a polygon's holes counted whatever their area).
pub(crate) fn snap_shape(
    grid: &SnapGrid,
    id: ObstacleId,
    obstacle: &Obstacle,
) -> Result<(SnappedShape, usize), NormalizeError> {
    let owner = Owner::Obstacle(id);
    Ok(match obstacle {
        Obstacle::Point(p) => (SnappedShape::Point(snap(grid, owner, *p)?), 1),
        Obstacle::Polyline(vertices) => {
            let snapped = vertices
                .iter()
                .map(|&p| snap(grid, owner, p))
                .collect::<Result<Vec<_>, _>>()?;
            let n = snapped.len();
            (SnappedShape::Open(snapped), n)
        }
        Obstacle::Polygon(polygon) => {
            let mut exterior = snap_ring(grid, owner, &polygon.exterior)?;
            let mut count = exterior.len();
            let area = twice_signed_area(&exterior);
            if area == 0 {
                // Thinner than a grid step: what is left is a line-like wall.
                exterior.extend(exterior.first().copied());
                return Ok((SnappedShape::Open(exterior), count));
            }
            if area > 0 {
                exterior.reverse();
            }
            let mut rings = vec![exterior];
            for hole in &polygon.holes {
                let mut hole = snap_ring(grid, owner, hole)?;
                count += hole.len();
                let area = twice_signed_area(&hole);
                if area == 0 {
                    continue; // a crack inside the obstacle: nothing to keep
                }
                if area < 0 {
                    hole.reverse();
                }
                rings.push(hole);
            }
            (SnappedShape::Rings(rings), count)
        }
    })
}

pub(crate) fn snap(grid: &SnapGrid, owner: Owner, p: Point) -> Result<GridPoint, NormalizeError> {
    grid.snap(p)
        .map_err(|source| EnvironmentError::Snap { owner, source }.into())
}

/// The environment's boundary on the snap grid, counter-clockwise; an error if snapping
/// collapses it.
pub(crate) fn snapped_boundary(env: &Environment) -> Result<Vec<GridPoint>, NormalizeError> {
    let grid = env.snap_grid();
    let mut boundary = snap_ring(&grid, Owner::Boundary, env.boundary())?;
    let area = twice_signed_area(&boundary);
    if area == 0 {
        return Err(NormalizeError::BoundaryCollapsed {
            scale: grid.scale(),
        });
    }
    if area < 0 {
        boundary.reverse();
    }
    Ok(boundary)
}

/// Snaps a ring and drops consecutive repeated vertices (including the closing one).
pub(crate) fn snap_ring(
    grid: &SnapGrid,
    owner: Owner,
    ring: &Ring,
) -> Result<Vec<GridPoint>, NormalizeError> {
    let mut out: Vec<GridPoint> = Vec::with_capacity(ring.len());
    for &p in ring.vertices() {
        let g = snap(grid, owner, p)?;
        if out.last() != Some(&g) {
            out.push(g);
        }
    }
    while out.len() > 1 && out.first() == out.last() {
        out.pop();
    }
    Ok(out)
}

fn ip(g: GridPoint) -> IntPoint<i32> {
    IntPoint::new(g.x, g.y)
}

fn gp(p: IntPoint<i32>) -> GridPoint {
    GridPoint::new(p.x, p.y)
}

fn add_ring(overlay: &mut EdgeOverlay<i32, Tag>, ring: &[IntPoint<i32>], tag: Tag) {
    let n = ring.len();
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if a != b {
            overlay.add_edge(InputEdge { a, b, data: tag }, ShapeType::Subject);
        }
    }
}

/// Splits open edges that overlap collinearly (the same fence drawn twice, two fences
/// sharing a stretch) at each other's endpoints and keeps every stretch once, listing all
/// the edges that cover it, so that every open piece enters the overlay exactly once.
fn merge_collinear_strings(edges: Vec<OpenEdge>, store: &mut TagStore) -> Vec<OpenEdge> {
    let mut keyed: Vec<_> = edges.into_iter().map(|e| (open_line_key(&e), e)).collect();
    keyed.sort_by_key(|(k, e)| (*k, e.set));
    let mut out: Vec<OpenEdge> = Vec::with_capacity(keyed.len());
    let mut i = 0;
    while i < keyed.len() {
        let mut j = i + 1;
        while j < keyed.len() && keyed[j].0 .0 == keyed[i].0 .0 {
            j += 1;
        }
        let group = &keyed[i..j];
        i = j;
        let mut reach = group[0].0 .2;
        let overlapping = group[1..].iter().any(|(k, _)| {
            let hit = k.1 < reach;
            reach = reach.max(k.2);
            hit
        });
        if !overlapping {
            out.extend(group.iter().map(|(_, e)| *e));
            continue;
        }
        // Elementary stretches between consecutive endpoints, each with the union of the
        // sources of the edges covering it.
        let mut breaks: Vec<(i128, GridPoint)> = group
            .iter()
            .flat_map(|((_, ta, tb), e)| [(*ta, e.a), (*tb, e.b)])
            .collect();
        breaks.sort();
        breaks.dedup_by_key(|b| b.0);
        for w in breaks.windows(2) {
            let ((t0, p0), (t1, p1)) = (w[0], w[1]);
            let mut set: Option<u32> = None;
            for ((_, ta, tb), e) in group {
                if *ta <= t0 && t1 <= *tb {
                    set = Some(set.map_or(e.set, |s| store.union(s, e.set)));
                }
            }
            if let Some(set) = set {
                out.push(OpenEdge { a: p0, b: p1, set });
            }
        }
    }
    out
}

/// The supporting line of the non-empty segment `a b` (reduced direction with its first
/// nonzero component positive, and offset), then the positions of `a` and `b` along it.
/// Vertical: (0, 1), offset −x, position y; horizontal: (1, 0), offset y, position x (the
/// general formulas' values, without their 128-bit products).
#[inline]
fn supporting_line(a: GridPoint, b: GridPoint) -> ((i64, i64, i128), i128, i128) {
    if a.x == b.x {
        return ((0, 1, -(a.x as i128)), a.y as i128, b.y as i128);
    }
    if a.y == b.y {
        return ((1, 0, a.y as i128), a.x as i128, b.x as i128);
    }
    let (dx, dy) = (b.x as i64 - a.x as i64, b.y as i64 - a.y as i64);
    let g = gcd(dx.unsigned_abs(), dy.unsigned_abs()) as i64;
    let (mut ux, mut uy) = (dx / g, dy / g);
    if ux < 0 {
        (ux, uy) = (-ux, -uy);
    }
    let offset = ux as i128 * a.y as i128 - uy as i128 * a.x as i128;
    let t = |p: GridPoint| ux as i128 * p.x as i128 + uy as i128 * p.y as i128;
    ((ux, uy, offset), t(a), t(b))
}

/// [`supporting_line`] of an open edge (`a < b`, so `a` comes first along it).
fn open_line_key(e: &OpenEdge) -> ((i64, i64, i128), i128, i128) {
    supporting_line(e.a, e.b)
}

/// Whether two open edges overlap along a stretch (or coincide): what
/// [`merge_collinear_strings`] splits.
fn strings_overlap(edges: &[OpenEdge]) -> bool {
    if edges.len() < 2 {
        return false;
    }
    let mut keyed: Vec<_> = edges.iter().map(open_line_key).collect();
    keyed.sort_unstable();
    let mut reach = keyed[0].2;
    for w in keyed.windows(2) {
        let (k, l) = (w[0], w[1]);
        if k.0 != l.0 {
            reach = l.2;
            continue;
        }
        if l.1 < reach {
            return true;
        }
        reach = reach.max(l.2);
    }
    false
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

// ---------------------------------------------------------------------------------------
// Provenance tags carried through the overlay.

/// An index into [`TagStore::entries`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tag(u32);

#[derive(Clone, Copy, Debug)]
struct TagEntry {
    /// Index into [`TagStore::sets`].
    set: u32,
    /// For open-edge pieces: the piece's endpoints (so a piece the fill rule cannot see
    /// can still be recovered).
    piece: Option<(IntPoint<i32>, IntPoint<i32>)>,
    /// Whether the piece was split or merged into another entry.
    consumed: bool,
}

#[derive(Default)]
struct TagStore {
    sets: Vec<WallSources>,
    /// The ids of the sets of two or more sources.
    set_ids: HashMap<Vec<WallSource>, u32>,
    /// The ids of the sets of one source (most of them: one per obstacle), kept apart so
    /// that interning them allocates nothing.
    single_ids: HashMap<WallSource, u32>,
    unions: HashMap<(u32, u32), u32>,
    entries: Vec<TagEntry>,
    /// Entries of open pieces whose open-edge count became even (but not zero) and that
    /// lie on no free-space edge.
    hidden: Vec<u32>,
    /// Entries of open pieces whose counts cancelled: the overlay dropped them.
    vanished: Vec<u32>,
}

impl TagStore {
    fn intern(&mut self, set: Vec<WallSource>) -> u32 {
        if let [source] = set[..] {
            return self.intern_one(source);
        }
        if let Some(&id) = self.set_ids.get(&set) {
            return id;
        }
        let id = self.sets.len() as u32;
        self.sets.push(set[..].into());
        self.set_ids.insert(set, id);
        id
    }

    /// [`TagStore::intern`] of the set of one source.
    fn intern_one(&mut self, source: WallSource) -> u32 {
        let next = self.sets.len() as u32;
        let id = *self.single_ids.entry(source).or_insert(next);
        if id == next {
            self.sets.push([source].into());
        }
        id
    }

    fn union(&mut self, a: u32, b: u32) -> u32 {
        if a == b {
            return a;
        }
        let key = (a.min(b), a.max(b));
        if let Some(&id) = self.unions.get(&key) {
            return id;
        }
        let mut set: Vec<WallSource> = self.sets[a as usize]
            .iter()
            .chain(&self.sets[b as usize])
            .copied()
            .collect();
        set.sort();
        set.dedup();
        let id = self.intern(set);
        self.unions.insert(key, id);
        id
    }

    fn tag(&mut self, set: u32, piece: Option<(IntPoint<i32>, IntPoint<i32>)>) -> Tag {
        self.entries.push(TagEntry {
            set,
            piece,
            consumed: false,
        });
        Tag(self.entries.len() as u32 - 1)
    }

    fn set(&self, tag: Tag) -> u32 {
        self.entries[tag.0 as usize].set
    }
}

fn to_i32_point<I: IntNumber>(p: IntPoint<I>) -> IntPoint<i32> {
    // The engine is `i32`; the conversion through `f64` is exact for it.
    IntPoint::new(p.x.to_f64() as i32, p.y.to_f64() as i32)
}

impl OverlayEdgeData for Tag {
    type Store = TagStore;

    fn split<I: IntNumber>(self, ctx: EdgeDataSplit<I>, store: &mut TagStore) -> (Self, Self) {
        let entry = store.entries[self.0 as usize];
        if entry.piece.is_none() {
            return (self, self);
        }
        store.entries[self.0 as usize].consumed = true;
        let (a, p, b) = (
            to_i32_point(ctx.a),
            to_i32_point(ctx.p),
            to_i32_point(ctx.b),
        );
        (
            store.tag(entry.set, Some((a, p))),
            store.tag(entry.set, Some((p, b))),
        )
    }

    fn merge(ctx: EdgeDataMerge<ShapeCountBoolean, Self>, store: &mut TagStore) -> Self {
        let (lhs, rhs) = (ctx.lhs_data, ctx.rhs_data);
        let (l, r) = (store.entries[lhs.0 as usize], store.entries[rhs.0 as usize]);
        let set = store.union(l.set, r.set);
        let piece = l.piece.or(r.piece);
        if piece.is_none() && set == l.set {
            return lhs;
        }
        store.entries[lhs.0 as usize].consumed = true;
        store.entries[rhs.0 as usize].consumed = true;
        let tag = store.tag(set, piece);
        if piece.is_some() && ctx.out_count.subj == 0 {
            if ctx.out_count.clip == 0 {
                store.vanished.push(tag.0);
            } else if ctx.out_count.clip % 2 == 0 {
                store.hidden.push(tag.0);
            }
        }
        tag
    }
}

// ---------------------------------------------------------------------------------------
// Turning overlay output into walls.

#[derive(Clone, Copy, Debug)]
struct RawWall {
    a: GridPoint,
    b: GridPoint,
    two_sided: bool,
    set: u32,
}

impl RawWall {
    fn two_sided(a: GridPoint, b: GridPoint, set: u32) -> Self {
        RawWall {
            a: a.min(b),
            b: a.max(b),
            two_sided: true,
            set,
        }
    }
}

/// The edge directed so that the free space (subject fill) is on its left, or `None` when
/// both or neither side is free.
fn free_on_left(edge: &DataVectorEdge<i32, Tag>) -> Option<(IntPoint<i32>, IntPoint<i32>)> {
    match edge.fill & (SUBJ_LEFT | SUBJ_RIGHT) {
        SUBJ_LEFT => Some((edge.a, edge.b)),
        SUBJ_RIGHT => Some((edge.b, edge.a)),
        _ => None,
    }
}

fn collect_one_sided<'a>(
    edges: impl IntoIterator<Item = &'a DataVectorEdge<i32, Tag>>,
    store: &TagStore,
    out: &mut Vec<RawWall>,
) {
    for edge in edges {
        if let Some((a, b)) = free_on_left(edge) {
            out.push(RawWall {
                a: gp(a),
                b: gp(b),
                two_sided: false,
                set: store.set(edge.data),
            });
        }
    }
}

/// Merges chains of collinear walls of the same kind through vertices that no other wall
/// touches, uniting their sources; the result does not depend on the input order.
///
/// `ends` groups the walls' ends: wall k's ends `a` and `b` are items 2k and 2k + 1.
fn merge_collinear_walls(
    walls: Vec<RawWall>,
    ends: &PointGroups,
    store: &mut TagStore,
) -> Vec<RawWall> {
    let n = walls.len();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn find(parent: &mut [u32], mut i: u32) -> u32 {
        while parent[i as usize] != i {
            parent[i as usize] = parent[parent[i as usize] as usize];
            i = parent[i as usize];
        }
        i
    }
    // joint[2k] / joint[2k + 1]: wall k's end `a` / `b` is merged away.
    let mut joint: Vec<bool> = vec![false; 2 * n];
    // Unions made: the chains are the `n - merged` roots.
    let mut merged = 0;
    let mut any_joint = false;
    // The merges do not depend on the order of the points: the union keeps the lowest
    // wall as the root whatever the order.
    for g in 0..ends.len() {
        if let &[s, t] = ends.group(g) {
            let v = ends.point(g);
            let (s, t) = (s as usize / 2, t as usize / 2);
            if s != t && mergeable(&walls[s], &walls[t], v) {
                any_joint = true;
                joint[2 * s + usize::from(walls[s].b == v)] = true;
                joint[2 * t + usize::from(walls[t].b == v)] = true;
                let (rs, rt) = (find(&mut parent, s as u32), find(&mut parent, t as u32));
                if rs != rt {
                    parent[rs.max(rt) as usize] = rs.min(rt);
                    merged += 1;
                }
            }
        }
    }
    if !any_joint {
        // Every wall is a chain of its own, with its ends and its set (the union of a set
        // with itself is the set): what the chains below would give, without them (most
        // grid maps have no straight joint at all).
        let mut walls = walls;
        for w in walls.iter_mut().filter(|w| w.two_sided) {
            *w = RawWall::two_sided(w.a, w.b, w.set);
        }
        return walls;
    }
    // Each chain: its two free ends (the start of a one-sided chain is an `a` end) and the
    // union of its members' sources. Chains are visited in order of their lowest member.
    struct Chain {
        start: Option<GridPoint>,
        end: Option<GridPoint>,
        set: u32,
        two_sided: bool,
    }
    let mut chain_of: Vec<u32> = vec![u32::MAX; n];
    let mut chains: Vec<Chain> = Vec::with_capacity(n - merged);
    for k in 0..n {
        let root = find(&mut parent, k as u32) as usize;
        if chain_of[root] == u32::MAX {
            chain_of[root] = chains.len() as u32;
            chains.push(Chain {
                start: None,
                end: None,
                set: walls[k].set,
                two_sided: walls[k].two_sided,
            });
        }
        let chain = &mut chains[chain_of[root] as usize];
        chain.set = store.union(chain.set, walls[k].set);
        if !joint[2 * k] {
            chain.start = Some(walls[k].a);
        }
        if !joint[2 * k + 1] {
            chain.end = Some(walls[k].b);
        }
    }
    chains
        .into_iter()
        .filter_map(|c| {
            let (a, b) = (c.start?, c.end?);
            Some(if c.two_sided {
                RawWall::two_sided(a, b, c.set)
            } else {
                RawWall {
                    a,
                    b,
                    two_sided: false,
                    set: c.set,
                }
            })
        })
        .collect()
}

/// The walls sorted by `(two_sided, a, b)`, equal ones in their given order (as a stable
/// sort would leave them).
///
/// Sorting (packed key, index) pairs is about twice as fast as moving the walls through
/// a stable sort with a tuple key, and a key of kind and start (ties broken by the end
/// afterwards) is cheaper to compare than one of all three. The starts are
/// [`Compaction`]-packed, so the radix sort needs as many digits as the walls' extent
/// takes (four on grid maps instead of six); an extent too wide to pack (not from
/// snapping) takes the plain sort.
fn sorted_walls(walls: &[RawWall]) -> impl Iterator<Item = &RawWall> + '_ {
    let compact = Compaction::new(walls.iter().map(|w| w.a));
    let bits = compact.bits;
    let mut order: Vec<(u64, u32)> = Vec::with_capacity(walls.len());
    if 2 * bits < 64 {
        // (kind, a) packed, the kind only when some wall is two-sided; walls with the same
        // start (a few, at pinched corners) are put in order of their `b` afterwards.
        let kinds = walls.iter().any(|w| w.two_sided);
        order.extend(walls.iter().enumerate().map(|(i, w)| {
            let a = compact.x(w.a.x) << bits | compact.y(w.a.y);
            (u64::from(w.two_sided) << (2 * bits) | a, i as u32)
        }));
        sort_index_pairs_below(&mut order, 2 * bits + u32::from(kinds));
        for run in order.chunk_by_mut(|x, y| x.0 == y.0) {
            if run.len() > 1 {
                run.sort_unstable_by_key(|&(_, i)| (walls[i as usize].b, i));
            }
        }
    } else {
        order.extend((0..walls.len() as u32).map(|i| (0, i)));
        order.sort_by_key(|&(_, i)| {
            let w = &walls[i as usize];
            (w.two_sided, w.a, w.b)
        });
    }
    order.into_iter().map(move |(_, i)| &walls[i as usize])
}

/// Grid coordinates as small non-negative integers in the same order, for packed sort
/// keys: `(c - min) >> shift` along each axis, where every coordinate's difference from
/// its axis's minimum is a multiple of 2^`shift` (grid maps: of the snap scale's power
/// of two), so the map is exact and strictly increasing; values fit in `bits` bits.
#[derive(Clone, Copy, Debug)]
struct Compaction {
    min: [i64; 2],
    max_x: i64,
    shift: u32,
    bits: u32,
}

impl Compaction {
    fn new(points: impl Iterator<Item = GridPoint> + Clone) -> Self {
        let (mut lo, mut hi) = ([i64::MAX; 2], [i64::MIN; 2]);
        for p in points.clone() {
            lo = [lo[0].min(p.x as i64), lo[1].min(p.y as i64)];
            hi = [hi[0].max(p.x as i64), hi[1].max(p.y as i64)];
        }
        if lo[0] > hi[0] {
            return Compaction {
                min: [0; 2],
                max_x: 0,
                shift: 0,
                bits: 0,
            };
        }
        let mut any = 0u64;
        for p in points {
            any |= (p.x as i64 - lo[0]) as u64 | (p.y as i64 - lo[1]) as u64;
        }
        let shift = if any == 0 { 0 } else { any.trailing_zeros() };
        let range = ((hi[0] - lo[0]).max(hi[1] - lo[1]) as u64) >> shift;
        Compaction {
            min: lo,
            max_x: hi[0],
            shift,
            bits: 64 - range.leading_zeros(),
        }
    }

    /// `x` compacted (one of the points given).
    fn x(&self, x: i32) -> u64 {
        ((x as i64 - self.min[0]) as u64) >> self.shift
    }

    /// `y` compacted.
    fn y(&self, y: i32) -> u64 {
        ((y as i64 - self.min[1]) as u64) >> self.shift
    }

    /// `-x` compacted: decreasing in `x`.
    fn x_down(&self, x: i32) -> u64 {
        ((self.max_x - x as i64) as u64) >> self.shift
    }
}

/// Whether walls `s` and `t`, the only two at vertex `v`, continue each other straight.
fn mergeable(s: &RawWall, t: &RawWall, v: GridPoint) -> bool {
    if s.two_sided != t.two_sided {
        return false;
    }
    let far = |w: &RawWall| if w.a == v { w.b } else { w.a };
    let (p, q) = (far(s), far(t));
    if orient_grid(p, v, q) != Orientation::Collinear {
        return false;
    }
    let dot = (v.x as i64 - p.x as i64) * (q.x as i64 - v.x as i64)
        + (v.y as i64 - p.y as i64) * (q.y as i64 - v.y as i64);
    if dot <= 0 {
        return false;
    }
    // Two-sided walls are stored `a < b`, so along a straight chain one ends where the
    // next starts, as one-sided walls do (free space stays on the same side).
    (s.b == v && t.a == v) || (s.a == v && t.b == v)
}

/// Keeps the points that lie strictly inside the free space and on no wall; coinciding
/// points are merged with their sources united.
fn place_points(
    mut points: Vec<(GridPoint, u32)>,
    segments: &[WallSegment],
    store: &mut TagStore,
) -> Vec<(GridPoint, Vec<WallSource>)> {
    if points.is_empty() {
        return Vec::new();
    }
    points.sort_unstable();
    let mut unique: Vec<(GridPoint, u32)> = Vec::with_capacity(points.len());
    for (p, set) in points {
        match unique.last_mut() {
            Some((q, s)) if *q == p => *s = store.union(*s, set),
            _ => unique.push((p, set)),
        }
    }
    let ends: Vec<(GridPoint, GridPoint)> = segments.iter().map(|s| (s.a, s.b)).collect();
    let mut index = SegmentGrid::new(&ends);
    let mut near = Vec::new();
    let max_x = segments
        .iter()
        .map(|s| s.a.x.max(s.b.x))
        .max()
        .unwrap_or(i32::MIN);
    let mut out = Vec::new();
    for (p, set) in unique {
        if p.x >= max_x {
            continue; // nothing to its right: outside the free space or on its edge
        }
        index.meeting(p, p, &mut near);
        if near
            .iter()
            .any(|&j| on_segment_grid(p, segments[j as usize].a, segments[j as usize].b))
        {
            continue;
        }
        // Every wall the ray from `p` to the right crosses meets the box of that ray (it
        // crosses at most at `max_x`); each is listed once.
        let mut winding = 0;
        index.meeting(p, GridPoint::new(max_x, p.y), &mut near);
        for &j in &near {
            let s = &segments[j as usize];
            if s.two_sided {
                continue;
            }
            if s.a.y <= p.y {
                if s.b.y > p.y && orient_grid(s.a, s.b, p) == Orientation::CounterClockwise {
                    winding += 1;
                }
            } else if s.b.y <= p.y && orient_grid(s.a, s.b, p) == Orientation::Clockwise {
                winding -= 1;
            }
        }
        if winding == 1 {
            out.push((p, store.sets[set as usize].to_vec()));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Exact segment tests and the spatial index behind them.

/// Whether `p` lies on the closed segment `a b` (exact).
fn on_segment_grid(p: GridPoint, a: GridPoint, b: GridPoint) -> bool {
    orient_grid(a, b, p) == Orientation::Collinear
        && p.x >= a.x.min(b.x)
        && p.x <= a.x.max(b.x)
        && p.y >= a.y.min(b.y)
        && p.y <= a.y.max(b.y)
}

/// Whether two non-degenerate segments share any point other than one common endpoint.
fn segments_conflict(a: GridPoint, b: GridPoint, c: GridPoint, d: GridPoint) -> bool {
    // Segments whose boxes are apart cannot meet: most pairs from a shared bucket end
    // here, for four comparisons instead of four 128-bit orientation tests.
    if a.x.max(b.x) < c.x.min(d.x)
        || c.x.max(d.x) < a.x.min(b.x)
        || a.y.max(b.y) < c.y.min(d.y)
        || c.y.max(d.y) < a.y.min(b.y)
    {
        return false;
    }
    // A horizontal and a vertical segment whose boxes meet (most pairs on grid maps) meet
    // in exactly one point, (x of the vertical, y of the horizontal): a conflict unless it
    // is a common endpoint (what the tests below conclude, through an orientation test
    // for a common endpoint and the intersection test otherwise).
    let kind = |p: GridPoint, q: GridPoint| u8::from(p.y == q.y) | u8::from(p.x == q.x) << 1;
    if let (1, 2) | (2, 1) = (kind(a, b), kind(c, d)) {
        return !(a == c || a == d || b == c || b == d);
    }
    // Two segments with one common endpoint `p` always meet there: they meet elsewhere
    // only if they fold onto each other, which one orientation test decides (on grid
    // maps most pairs met here are neighbours along a ring). The general intersection
    // test is left for pairs without a common endpoint.
    let (p, q, r) = match (a == c, a == d, b == c, b == d) {
        (true, false, false, false) => (a, b, d),
        (false, true, false, false) => (a, b, c),
        (false, false, true, false) => (b, a, d),
        (false, false, false, true) => (b, a, c),
        (false, false, false, false) => return crate::segments_intersect_grid(a, b, c, d),
        _ => return true, // the same segment twice
    };
    orient_grid(p, q, r) == Orientation::Collinear
        && (q.x as i64 - p.x as i64) * (r.x as i64 - p.x as i64)
            + (q.y as i64 - p.y as i64) * (r.y as i64 - p.y as i64)
            > 0
}

pub(crate) fn corner(p: GridPoint) -> [i64; 2] {
    [p.x as i64, p.y as i64]
}

/// A uniform grid of buckets over wall segments (grid coordinates, exact): every segment
/// is listed in each bucket its points fall in (a conservative "supercover" of the
/// segment, row by row), so two segments that share a point share a bucket, and a query
/// box finds every segment that meets it.
///
/// It replaces an R-tree for the disjointness check and for validation's wall queries:
/// building it is two linear passes (count, then fill) instead of a recursive partition,
/// about 10× cheaper on the shared maps, and queries on the evenly spread short walls of
/// grid maps touch one to four buckets. Uneven inputs stay correct; a bucket size that
/// would list the segments more than four times over on average is doubled until it
/// does not, so the memory stays linear.
///
/// ```
/// use corridor_geom::{GridPoint, SegmentGrid};
/// let g = |x, y| GridPoint::new(x, y);
/// let mut grid = SegmentGrid::new(&[(g(0, 0), g(100, 100)), (g(0, 100), g(10, 90)), (g(50, 0), g(50, 0))]);
/// let mut found = Vec::new();
/// grid.meeting(g(45, 0), g(55, 5), &mut found);
/// found.sort();
/// assert!(found.contains(&2) && !found.contains(&1));
/// grid.meeting_segment(g(100, 0), g(0, 100), &mut found);
/// assert!(found.contains(&0) && found.contains(&1));
/// ```
#[derive(Clone, Debug)]
pub struct SegmentGrid {
    layout: Layout,
    /// Bucket `k` lists `items[start[k]..start[k + 1]]`.
    start: Vec<u32>,
    items: Vec<u32>,
    /// `marks[i] == generation` when segment `i` was already reported by this query.
    marks: Vec<u32>,
    generation: u32,
}

/// Where the buckets of a [`SegmentGrid`] are.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// Lower left corner of bucket (0, 0).
    origin: [i64; 2],
    /// Side of a bucket (grid units, at least 1).
    size: i64,
    /// Buckets per row, and rows.
    nx: i64,
    ny: i64,
}

impl SegmentGrid {
    /// Indexes segments given by their end points (`a == b` for a point); they are
    /// numbered in the order given.
    pub fn new(segments: &[(GridPoint, GridPoint)]) -> Self {
        let n = segments.len();
        let (mut lo, mut hi) = ([i64::MAX; 2], [i64::MIN; 2]);
        for &(a, b) in segments {
            for p in [corner(a), corner(b)] {
                lo = [lo[0].min(p[0]), lo[1].min(p[1])];
                hi = [hi[0].max(p[0]), hi[1].max(p[1])];
            }
        }
        if n == 0 {
            (lo, hi) = ([0; 2], [0; 2]);
        }
        let (w, h) = (hi[0] - lo[0] + 1, hi[1] - lo[1] + 1);
        // About one bucket per segment, and never more buckets along a side than segments.
        let mut size = ((w as f64 * h as f64 / n.max(1) as f64).sqrt().ceil() as i64)
            .max((w.max(h) + n as i64 - 1) / n.max(1) as i64)
            .max(1);
        loop {
            let grid = Layout {
                origin: lo,
                size,
                nx: (w - 1) / size + 1,
                ny: (h - 1) / size + 1,
            };
            let buckets = (grid.nx * grid.ny) as usize;
            let mut counts = vec![0u32; buckets + 1];
            let limit = 4 * n + 64;
            // (bucket, segment) of every listing, in segment order: the fill below reads
            // them instead of finding each segment's buckets a second time (those
            // divisions were about half of this function). Not kept past the limit, where
            // the size is doubled and everything counted again.
            let mut listed: Vec<(u32, u32)> = Vec::with_capacity(n + n / 2);
            for (i, &(a, b)) in segments.iter().enumerate() {
                grid.cells_of_segment(a, b, |k| {
                    counts[k] += 1;
                    if listed.len() <= limit {
                        listed.push((k as u32, i as u32));
                    }
                });
            }
            let total = listed.len();
            if total > limit && size < w.max(h) {
                size *= 2;
                continue;
            }
            let total: usize = if total > limit {
                counts.iter().map(|&c| c as usize).sum()
            } else {
                total
            };
            // Prefix sums: `counts[k]` becomes the end of bucket k's range while filling.
            let mut sum = 0u32;
            for c in counts.iter_mut() {
                sum += *c;
                *c = sum;
            }
            let mut items = vec![0u32; total];
            // Last segment first, so that each bucket lists its segments in increasing
            // order.
            if listed.len() == total {
                for &(k, i) in listed.iter().rev() {
                    counts[k as usize] -= 1;
                    items[counts[k as usize] as usize] = i;
                }
            } else {
                for (i, &(a, b)) in segments.iter().enumerate().rev() {
                    grid.cells_of_segment(a, b, |k| {
                        counts[k] -= 1;
                        items[counts[k] as usize] = i as u32;
                    });
                }
            }
            // Now `counts[k]` is the start of bucket k and `counts[buckets] == total`.
            return SegmentGrid {
                layout: grid,
                start: counts,
                items,
                marks: vec![0; n],
                generation: 0,
            };
        }
    }

    /// Number of segments indexed.
    pub fn len(&self) -> usize {
        self.marks.len()
    }

    /// Whether no segment is indexed.
    pub fn is_empty(&self) -> bool {
        self.marks.is_empty()
    }

    fn next_generation(&mut self) -> u32 {
        if self.generation == u32::MAX {
            self.marks.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
        self.generation
    }

    /// Replaces `out` with every segment that meets the closed box with corners `lo` and
    /// `hi`, each once, plus possibly segments that only pass near it.
    pub fn meeting(&mut self, lo: GridPoint, hi: GridPoint, out: &mut Vec<u32>) {
        self.meeting_box(corner(lo), corner(hi), out);
    }

    /// [`SegmentGrid::meeting`] for a box with `i64` corners (any values; the box is
    /// clamped to the grid).
    pub fn meeting_box(&mut self, lo: [i64; 2], hi: [i64; 2], out: &mut Vec<u32>) {
        out.clear();
        self.for_each_meeting_box(lo, hi, |i| out.push(i));
    }

    /// Calls `visit` with each segment [`SegmentGrid::meeting_box`] would list, once, in
    /// the same order: a caller with a finer filter keeps what it wants as it goes, with
    /// no list to filter again.
    #[inline]
    pub fn for_each_meeting_box(&mut self, lo: [i64; 2], hi: [i64; 2], visit: impl FnMut(u32)) {
        self.for_each_meeting_box_where(lo, hi, |_| true, visit);
    }

    /// [`SegmentGrid::for_each_meeting_box`] with a filter: calls `visit` with each
    /// segment it would list for which `keep` holds, once, in the same order. `keep` is
    /// asked before a segment is marked as seen (so that a rejected one costs no mark), so
    /// it is asked again for a segment listed in several buckets and must give the same
    /// answer each time.
    #[inline]
    pub fn for_each_meeting_box_where(
        &mut self,
        lo: [i64; 2],
        hi: [i64; 2],
        mut keep: impl FnMut(u32) -> bool,
        mut visit: impl FnMut(u32),
    ) {
        let (lo, hi) = (
            [lo[0].min(hi[0]), lo[1].min(hi[1])],
            [lo[0].max(hi[0]), lo[1].max(hi[1])],
        );
        let g = self.layout;
        let far = [g.origin[0] + g.nx * g.size, g.origin[1] + g.ny * g.size];
        if hi[0] < g.origin[0] || hi[1] < g.origin[1] || lo[0] >= far[0] || lo[1] >= far[1] {
            return;
        }
        let generation = self.next_generation();
        let (c0, c1) = (g.bucket(lo[0], 0), g.bucket(hi[0], 0));
        for r in g.bucket(lo[1], 1)..=g.bucket(hi[1], 1) {
            // The buckets of one row are consecutive in `items`: one slice per row.
            let (first, last) = ((r * g.nx + c0) as usize, (r * g.nx + c1) as usize);
            let row = &self.items[self.start[first] as usize..self.start[last + 1] as usize];
            for &i in row {
                if keep(i) && self.marks[i as usize] != generation {
                    self.marks[i as usize] = generation;
                    visit(i);
                }
            }
        }
    }

    /// Replaces `out` with every segment that shares a point with segment `a b`, each
    /// once, plus possibly segments that only pass near it.
    pub fn meeting_segment(&mut self, a: GridPoint, b: GridPoint, out: &mut Vec<u32>) {
        out.clear();
        let generation = self.next_generation();
        let (start, items, marks) = (&self.start, &self.items, &mut self.marks);
        self.layout.cells_of_segment(a, b, |k| {
            for &i in &items[start[k] as usize..start[k + 1] as usize] {
                if marks[i as usize] != generation {
                    marks[i as usize] = generation;
                    out.push(i);
                }
            }
        });
    }
}

impl Layout {
    /// The column (row) of the bucket holding coordinate `v` along axis `axis`, clamped
    /// to the grid.
    ///
    /// Inlined: four of these per query (validation makes one per run of bending points).
    #[inline]
    fn bucket(&self, v: i64, axis: usize) -> i64 {
        let n = if axis == 0 { self.nx } else { self.ny };
        (v - self.origin[axis])
            .div_euclid(self.size)
            .clamp(0, n - 1)
    }

    /// Calls `f` with every bucket a point of segment `a b` falls in (and maybe a few
    /// more): row by row, the segment's x range within the row, widened by half a grid
    /// unit against rounding.
    fn cells_of_segment(&self, a: GridPoint, b: GridPoint, mut f: impl FnMut(usize)) {
        let (a, b) = (corner(a), corner(b));
        let (r0, r1) = (
            self.bucket(a[1].min(b[1]), 1),
            self.bucket(a[1].max(b[1]), 1),
        );
        let (xmin, xmax) = (a[0].min(b[0]), a[0].max(b[0]));
        // One row, or a vertical segment: every row spans the whole x range (for a vertical
        // one the general formula below gives `xmin..=xmax` exactly too: the rounding
        // margin is clipped to the range), so its columns are the same in every row.
        let straight = r0 == r1 || xmin == xmax;
        let whole = (self.bucket(xmin, 0), self.bucket(xmax, 0));
        for r in r0..=r1 {
            let (c0, c1) = if straight {
                whole
            } else {
                // The part of the segment with y in this row's slab (closed, so that
                // points on a row border are covered on both sides).
                let slab = self.origin[1] + r * self.size;
                let y_low = slab.max(a[1].min(b[1])) as f64;
                let y_high = (slab + self.size).min(a[1].max(b[1])) as f64;
                let (dx, dy) = ((b[0] - a[0]) as f64, (b[1] - a[1]) as f64);
                let x_at = |y: f64| a[0] as f64 + (y - a[1] as f64) * dx / dy;
                let (p, q) = (x_at(y_low), x_at(y_high));
                let x0 = ((p.min(q) - 0.5).floor() as i64).max(xmin);
                let x1 = ((p.max(q) + 0.5).ceil() as i64).min(xmax);
                (self.bucket(x0, 0), self.bucket(x1, 0))
            };
            let row = r * self.nx;
            for c in c0..=c1 {
                f((row + c) as usize);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn box_meets_segment(lo: GridPoint, hi: GridPoint, a: GridPoint, b: GridPoint) -> bool {
        let inside = |p: GridPoint| p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y;
        if inside(a) || inside(b) {
            return true;
        }
        let c = [
            lo,
            GridPoint::new(hi.x, lo.y),
            hi,
            GridPoint::new(lo.x, hi.y),
        ];
        (0..4).any(|k| crate::segments_intersect_grid(a, b, c[k], c[(k + 1) % 4]))
    }

    /// `WallSources` takes no more room than the `Vec` it replaced, and a list of one
    /// source stays inline.
    #[test]
    fn wall_sources_are_small() {
        use std::mem::size_of;
        assert_eq!(size_of::<WallSources>(), size_of::<Vec<WallSource>>());
        let one = WallSources::from(vec![WallSource::Obstacle(ObstacleId(3))]);
        assert!(!one.spilled());
    }

    /// `segments_conflict` before the shortcut for a horizontal and a vertical segment.
    fn segments_conflict_before(a: GridPoint, b: GridPoint, c: GridPoint, d: GridPoint) -> bool {
        if a.x.max(b.x) < c.x.min(d.x)
            || c.x.max(d.x) < a.x.min(b.x)
            || a.y.max(b.y) < c.y.min(d.y)
            || c.y.max(d.y) < a.y.min(b.y)
        {
            return false;
        }
        let (p, q, r) = match (a == c, a == d, b == c, b == d) {
            (true, false, false, false) => (a, b, d),
            (false, true, false, false) => (a, b, c),
            (false, false, true, false) => (b, a, d),
            (false, false, false, true) => (b, a, c),
            (false, false, false, false) => return crate::segments_intersect_grid(a, b, c, d),
            _ => return true,
        };
        orient_grid(p, q, r) == Orientation::Collinear
            && (q.x as i64 - p.x as i64) * (r.x as i64 - p.x as i64)
                + (q.y as i64 - p.y as i64) * (r.y as i64 - p.y as i64)
                > 0
    }

    /// The same answers as before the horizontal/vertical shortcut on pairs of non-empty
    /// segments on a small lattice (mostly axis-parallel: common ends, T-junctions,
    /// crossings, overlaps, the same segment twice), near the coordinate limits too.
    #[test]
    fn segments_conflict_matches_before() {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let mut shortcut = 0;
        for round in 0..200_000 {
            let base = [
                0,
                SnapGrid::MAX_GRID_COORDINATE - 4,
                -SnapGrid::MAX_GRID_COORDINATE,
            ][round % 3];
            let point = |rng: &mut ChaCha8Rng| {
                GridPoint::new(base + rng.random_range(0..5), base + rng.random_range(0..5))
            };
            let segment = |rng: &mut ChaCha8Rng| loop {
                let a = point(rng);
                let mut b = point(rng);
                match rng.random_range(0..5) {
                    0 | 1 => b.x = a.x,
                    2 | 3 => b.y = a.y,
                    _ => {}
                }
                if a != b {
                    return if rng.random_bool(0.5) { (a, b) } else { (b, a) };
                }
            };
            let ((a, b), (c, d)) = (segment(&mut rng), segment(&mut rng));
            let (c, d) = if round % 7 == 0 { (a, b) } else { (c, d) };
            shortcut += usize::from((a.x == b.x) != (c.x == d.x) && (a.y == b.y) != (c.y == d.y));
            assert_eq!(
                segments_conflict(a, b, c, d),
                segments_conflict_before(a, b, c, d),
                "{a:?} {b:?} {c:?} {d:?}"
            );
        }
        assert!(shortcut > 20_000, "{shortcut}");
    }

    /// The grid never misses a segment that meets a query box or a query segment, lists
    /// each at most once, and stays within four entries per segment on average — on
    /// short, long, axis-aligned and slanted segments, tiny and huge coordinates.
    #[test]
    fn segment_grid_finds_everything_that_meets() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for round in 0..300 {
            let span: i32 = [10, 1000, 1 << 29][round % 3];
            let n = rng.random_range(0..60);
            let point = |rng: &mut ChaCha8Rng| {
                GridPoint::new(
                    rng.random_range(-span..=span),
                    rng.random_range(-span..=span),
                )
            };
            let mut segments = Vec::new();
            for _ in 0..n {
                let a = point(&mut rng);
                let b = match rng.random_range(0..4) {
                    0 => a,
                    1 => GridPoint::new(a.x, rng.random_range(-span..=span)),
                    2 => GridPoint::new(rng.random_range(-span..=span), a.y),
                    _ => point(&mut rng),
                };
                segments.push((a, b));
            }
            let mut grid = SegmentGrid::new(&segments);
            assert!(grid.items.len() <= 4 * n + 64 || n == 0, "round {round}");
            let mut found = Vec::new();
            for _ in 0..40 {
                let (p, q) = (point(&mut rng), point(&mut rng));
                let (lo, hi) = (
                    GridPoint::new(p.x.min(q.x), p.y.min(q.y)),
                    GridPoint::new(p.x.max(q.x), p.y.max(q.y)),
                );
                grid.meeting(lo, hi, &mut found);
                let mut sorted = found.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), found.len(), "round {round}: listed twice");
                for (i, &(a, b)) in segments.iter().enumerate() {
                    if box_meets_segment(lo, hi, a, b) {
                        assert!(found.contains(&(i as u32)), "round {round}: box missed {i}");
                    }
                }
                grid.meeting_segment(p, q, &mut found);
                for (i, &(a, b)) in segments.iter().enumerate() {
                    if crate::segments_intersect_grid(p, q, a, b) {
                        assert!(
                            found.contains(&(i as u32)),
                            "round {round}: segment missed {i}"
                        );
                    }
                }
            }
        }
    }
}
