//! What a point sees: its visibility polygon, and whether two points (or a character of
//! some radius moving between them) see each other, by walking ECM cells from the cell
//! that holds the point (van Toll et al., SoCG 2016, §3) — no sweep over the whole map and
//! nothing built beyond the ECM.
//!
//! # Semantics
//! The obstacles are closed sets, as in the ECM: a segment that touches a wall, even at a
//! single point (a corner, or the pinch point where two obstacles meet diagonally), is
//! blocked. The visibility polygon is the closure of the region seen from the point
//! (CGAL's regularized visibility): rays that graze a corner see on past it, and nothing is
//! seen through a pinch point.
//!
//! # Exactness
//! Which cells, walls and corners are seen is decided by exact orientation tests on the
//! ECM's own points; the polygon's corners are wall end points (exact) or the points where
//! a ray through a corner meets a wall (one rounding). The walls are known through the
//! ECM's nearest obstacle points: on a slanted wall those are rounded, so a point exactly on
//! such a wall may be answered as free (on axis-parallel walls, as in grid maps, it is not).
//!
//! ```
//! use corridor_ecm::{Ecm, EdgeKind};
//! use corridor_geom::{Environment, Obstacle, Point, Polygon, Ring};
//! let square = |x0: f64, y0: f64, x1: f64, y1: f64| Ring::new(vec![
//!     Point::new(x0, y0), Point::new(x1, y0), Point::new(x1, y1), Point::new(x0, y1)]);
//! let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
//! env.insert(Obstacle::Polygon(Polygon::new(square(4.0, 4.0, 6.0, 6.0), vec![])));
//! let ecm = Ecm::build(&env).unwrap();
//! let seen = ecm.visibility_polygon(Point::new(1.0, 5.0)).unwrap();
//! // The block hides part of the room: 100 − 4 minus its shadow.
//! assert!(seen.area() < 96.0);
//! assert!(seen.kinds().contains(&EdgeKind::Window));
//! assert!(ecm.line_of_sight(Point::new(1.0, 1.0), Point::new(9.0, 1.0)).unwrap());
//! assert!(!ecm.line_of_sight(Point::new(1.0, 5.0), Point::new(9.0, 5.0)).unwrap());
//! ```

mod cells;
mod expansion;
mod index;
mod layered;
mod layered_limits;
mod layered_view;
mod limits;
mod polygon;
mod sight;

pub use index::{VisibilityIndex, VisibilityIndexError};
pub use layered::{
    layered_line_of_sight, layered_line_of_sight_with_radius, layered_visible_points,
    LayeredSightError,
};
pub use layered_limits::layered_visibility_within;
pub use layered_view::{layered_visibility, LayeredView, RegionEdge, VisibleRegion};
pub use limits::ViewLimits;

use crate::graph::Ecm;
use crate::locate::QueryError;
use corridor_geom::Point;

/// What an edge of a [`VisibilityPolygon`] runs along.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EdgeKind {
    /// A wall (an obstacle's boundary).
    Wall,
    /// A window: a ray from the viewpoint past a corner, with free space beyond.
    Window,
    /// An arc of the range circle ([`ViewLimits::with_range`]), counter-clockwise around
    /// the viewpoint from one corner to the next (all the way round when the polygon has
    /// one corner).
    Arc,
    /// A side of the field-of-view cone ([`ViewLimits::with_cone`]): a segment from or to
    /// the viewpoint.
    Cone,
}

/// The region seen from a point: a simple polygon, counter-clockwise, star-shaped around
/// its origin, in user units; edge `i` runs from vertex `i` to vertex `i + 1` (cyclically),
/// straight, or along the range circle for an [`EdgeKind::Arc`].
#[derive(Clone, Debug, PartialEq)]
pub struct VisibilityPolygon {
    origin: Point,
    vertices: Vec<Point>,
    kinds: Vec<EdgeKind>,
    /// The range circle's radius, when the view was limited to one.
    range: Option<f64>,
}

impl VisibilityPolygon {
    /// The viewpoint.
    pub fn origin(&self) -> Point {
        self.origin
    }

    /// The corners, counter-clockwise.
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// What edge `i` (from vertex `i` to vertex `i + 1`) runs along.
    pub fn kinds(&self) -> &[EdgeKind] {
        &self.kinds
    }

    /// The edges as (from, to, kind).
    pub fn edges(&self) -> impl Iterator<Item = (Point, Point, EdgeKind)> + '_ {
        let n = self.vertices.len();
        (0..n).map(move |i| (self.vertices[i], self.vertices[(i + 1) % n], self.kinds[i]))
    }

    /// Number of corners.
    pub fn len(&self) -> usize {
        self.vertices.len()
    }

    /// Whether the polygon has no corners (never for a free point of a valid map).
    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }

    /// The radius of the range circle the arcs run along, when the view was limited.
    pub fn range(&self) -> Option<f64> {
        self.range
    }

    /// The area (shoelace, taken around the origin, where every triangle is positive; an
    /// arc adds its circular sector).
    pub fn area(&self) -> f64 {
        let o = self.origin;
        let r = self.range.unwrap_or(0.0);
        let n = self.vertices.len();
        self.edges()
            .map(|(a, b, kind)| match kind {
                EdgeKind::Arc if n == 1 => std::f64::consts::TAU * r * r,
                EdgeKind::Arc => {
                    let (u, v) = (a - o, b - o);
                    let turn = (v.y.atan2(v.x) - u.y.atan2(u.x)).rem_euclid(std::f64::consts::TAU);
                    turn * r * r
                }
                _ => (a - o).perp_dot(b - o),
            })
            .sum::<f64>()
            * 0.5
    }
}

/// Why a visibility query has no answer.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum VisibilityError {
    /// A coordinate is NaN or infinite.
    #[error("point ({}, {}) is not finite", .point.x, .point.y)]
    NotFinite {
        /// The point.
        point: Point,
    },
    /// The point is not in the free space.
    #[error("point ({}, {}) is not in the free space", .point.x, .point.y)]
    NotInFreeSpace {
        /// The point.
        point: Point,
    },
    /// The point lies on a wall (obstacles are closed, so it is not free).
    #[error("point ({}, {}) lies on a wall", .point.x, .point.y)]
    OnObstacle {
        /// The point.
        point: Point,
    },
    /// The range is not a finite number > 0.
    #[error("range {range} is not a finite number > 0")]
    BadRange {
        /// The range.
        range: f64,
    },
    /// The cone's direction is zero or not finite, or its opening is not in (0, 2π].
    #[error("cone direction ({}, {}) with opening {opening} rad: need a finite non-zero direction and an opening in (0, 2π]", .direction.x, .direction.y)]
    BadCone {
        /// The direction.
        direction: Point,
        /// The opening angle (radians).
        opening: f64,
    },
    /// The character radius is negative or not finite.
    #[error("radius {radius} is not a finite number ≥ 0")]
    BadRadius {
        /// The radius.
        radius: f64,
    },
}

impl From<QueryError> for VisibilityError {
    fn from(e: QueryError) -> Self {
        match e {
            QueryError::NotFinite { point } => VisibilityError::NotFinite { point },
            QueryError::NotInFreeSpace { point } => VisibilityError::NotInFreeSpace { point },
            QueryError::OnObstacle { point } => VisibilityError::OnObstacle { point },
        }
    }
}

impl Ecm {
    /// The visibility polygon of the free point `q`: the closure of the region seen from
    /// it, found by expanding angular windows through the ECM cells from the cell of `q`.
    ///
    /// ```
    /// # use corridor_ecm::Ecm;
    /// # use corridor_geom::{Environment, Point};
    /// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(4.0, 3.0));
    /// let ecm = Ecm::build(&env).unwrap();
    /// let seen = ecm.visibility_polygon(Point::new(1.0, 1.0)).unwrap();
    /// assert_eq!(seen.len(), 4);
    /// assert!((seen.area() - 12.0).abs() < 1e-12);
    /// assert!(ecm.visibility_polygon(Point::new(5.0, 1.0)).is_err());
    /// ```
    ///
    /// # Errors
    /// [`VisibilityError::NotFinite`], [`VisibilityError::NotInFreeSpace`], or
    /// [`VisibilityError::OnObstacle`] for a point on a wall.
    pub fn visibility_polygon(&self, q: Point) -> Result<VisibilityPolygon, VisibilityError> {
        let start = self.locate_free(q)?;
        self.visibility_from(q, start)
    }

    /// Whether the free points `p` and `q` see each other: the closed segment between them
    /// touches no wall. Walks the cells the segment crosses.
    ///
    /// ```
    /// # use corridor_ecm::Ecm;
    /// # use corridor_geom::{Environment, Point};
    /// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(4.0, 3.0));
    /// let ecm = Ecm::build(&env).unwrap();
    /// assert!(ecm.line_of_sight(Point::new(0.5, 0.5), Point::new(3.5, 2.5)).unwrap());
    /// // The far end on the boundary wall: the segment touches it.
    /// assert!(!ecm.line_of_sight(Point::new(0.5, 0.5), Point::new(4.0, 2.5)).unwrap());
    /// ```
    ///
    /// # Errors
    /// As [`Ecm::visibility_polygon`], for `p`; a `q` outside the free space is simply not
    /// seen (`Ok(false)`).
    pub fn line_of_sight(&self, p: Point, q: Point) -> Result<bool, VisibilityError> {
        if !q.is_finite() {
            return Err(VisibilityError::NotFinite { point: q });
        }
        let start = self.locate_free(p)?;
        self.sight_from(p, q, start)
    }

    /// Whether a disk of `radius` can move straight from `p` to `q`: the segment sees
    /// through and no wall is closer than `radius` to it (touching is allowed, the ECM's
    /// rule for a disk that fits). A radius of 0 is [`Ecm::line_of_sight`].
    ///
    /// ```
    /// # use corridor_ecm::Ecm;
    /// # use corridor_geom::{Environment, Point};
    /// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(4.0, 3.0));
    /// let ecm = Ecm::build(&env).unwrap();
    /// let (p, q) = (Point::new(1.0, 1.5), Point::new(3.0, 1.5));
    /// assert!(ecm.line_of_sight_with_radius(p, q, 1.0).unwrap());
    /// assert!(!ecm.line_of_sight_with_radius(p, q, 1.2).unwrap());
    /// ```
    ///
    /// # Errors
    /// As [`Ecm::line_of_sight`], and [`VisibilityError::BadRadius`].
    pub fn line_of_sight_with_radius(
        &self,
        p: Point,
        q: Point,
        radius: f64,
    ) -> Result<bool, VisibilityError> {
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(VisibilityError::BadRadius { radius });
        }
        if !q.is_finite() {
            return Err(VisibilityError::NotFinite { point: q });
        }
        let start = self.locate_free(p)?;
        if !self.sight_from(p, q, start)? {
            return Ok(false);
        }
        Ok(radius == 0.0 || self.capsule_clear(p, q, radius, start, &[]))
    }

    /// For each candidate, whether `q` sees it ([`Ecm::line_of_sight`] from one located
    /// cell; candidates outside the free space are not seen).
    ///
    /// ```
    /// # use corridor_ecm::Ecm;
    /// # use corridor_geom::{Environment, Point};
    /// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(4.0, 3.0));
    /// let ecm = Ecm::build(&env).unwrap();
    /// let seen = ecm.visible_points(Point::new(1.0, 1.0), &[Point::new(3.0, 2.0), Point::new(9.0, 9.0)]).unwrap();
    /// assert_eq!(seen, vec![true, false]);
    /// ```
    ///
    /// # Errors
    /// As [`Ecm::line_of_sight`].
    pub fn visible_points(
        &self,
        q: Point,
        candidates: &[Point],
    ) -> Result<Vec<bool>, VisibilityError> {
        let start = self.locate_free(q)?;
        candidates
            .iter()
            .map(|&c| {
                if c.is_finite() {
                    self.sight_from(q, c, start)
                } else {
                    Ok(false)
                }
            })
            .collect()
    }
}
