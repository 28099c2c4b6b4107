//! What the Voronoi-based planners see of an environment: interior-disjoint [`Walls`] on
//! the integer grid, and [`normalize`], which makes them from user obstacles that may
//! overlap, touch, be concave, lie partly outside, or be points and segments.
//!
//! The types live here; below them, one module per step: [`snap`] and [`input`] read the
//! obstacles onto the grid, [`size`] refuses inputs whose overlay would be too large,
//! [`route`] picks the way (the [`disjoint`] fast route or the [`overlay`]), [`merge`]
//! finishes the walls, [`check`] verifies them, [`sources`] keeps track of where every
//! piece came from, and [`dynamic`] keeps walls current under edits.

mod check;
mod disjoint;
pub(crate) mod dynamic;
mod input;
mod merge;
mod overlay;
mod route;
mod size;
mod snap;
mod sources;

pub(crate) use route::normalize_snapped_trusted;
pub use route::{normalize, normalize_indexed, normalize_indexed_within, normalize_within};
#[cfg(feature = "test-oracles")]
pub use route::{normalize_through_overlay, normalize_with_overlay_shapes, takes_disjoint_path};
pub use size::{overlay_size, NormalizeLimits, OverlaySize};
pub(crate) use snap::{snap_shape, snapped_boundary, SnappedShape};

use crate::free_space::traced::trace_free_space;
use crate::{
    point_on_segment, EnvironmentError, GridPoint, ObstacleId, Point, Ring, Segment, SnapGrid,
};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

/// Where a wall piece came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
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
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
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
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
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
    /// The obstacles overlap so much that the overlay would split them into more pieces
    /// than [`NormalizeLimits::max_wall_pieces`] allows (refused before it starts).
    #[error(
        "the obstacles overlap too much: {edges} edges crossing at least {crossings_at_least} \
         times make more than the limit of {limit} wall pieces"
    )]
    TooManyPieces {
        /// The limit.
        limit: usize,
        /// Input edges (boundary, obstacle rings, open pieces).
        edges: usize,
        /// Crossings counted before the limit was passed.
        crossings_at_least: usize,
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
    /// The form is canonical ([`canonical_free_space`](crate::canonical_free_space)): every
    /// contour starts at its least vertex and has no straight vertices, holes are sorted
    /// within a shape and shapes by their outer contour. Computed on each call in O(n log
    /// n) plus, per hole, a scan of the outer contours whose box holds it; meant for tests,
    /// exports and occasional queries.
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `WallSources` takes no more room than the `Vec` it replaced, and a list of one
    /// source stays inline.
    #[test]
    fn wall_sources_are_small() {
        use std::mem::size_of;
        assert_eq!(size_of::<WallSources>(), size_of::<Vec<WallSource>>());
        let one = WallSources::from(vec![WallSource::Obstacle(ObstacleId(3))]);
        assert!(!one.spilled());
    }
}
