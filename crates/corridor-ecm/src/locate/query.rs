//! Questions about a point: which cell holds it, its nearest obstacle point, its clearance
//! and its retraction onto the medial axis (van Toll et al., SoCG 2016, §3).

use crate::graph::{cell_piece, CellIndex, CellRef, Ecm, EdgeId};
use corridor_geom::Point;

/// Why a point query has no answer.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum QueryError {
    /// The point is not in the free space (inside an obstacle or outside the boundary).
    #[error("point ({}, {}) is not in the free space", .point.x, .point.y)]
    NotInFreeSpace {
        /// The point.
        point: Point,
    },
    /// The point lies on an obstacle: it has no retraction.
    #[error("point ({}, {}) lies on an obstacle", .point.x, .point.y)]
    OnObstacle {
        /// The point.
        point: Point,
    },
    /// A coordinate is NaN or infinite.
    #[error("point ({}, {}) is not finite", .point.x, .point.y)]
    NotFinite {
        /// The point.
        point: Point,
    },
}

/// Where a point lands on the medial axis (see [`Ecm::retract`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Retraction {
    /// The point on the medial axis.
    pub point: Point,
    /// The cell the query point lies in; its edge carries the retraction.
    pub cell: CellRef,
    /// Position between bending points `cell.piece` (0) and `cell.piece + 1` (1).
    pub t: f64,
    /// Distance from the retraction to the nearest obstacle.
    pub clearance: f64,
    /// The query point's nearest obstacle point.
    pub nearest_obstacle_point: Point,
}

/// A point's nearest obstacle point, its clearance and the cell that holds the point (see
/// [`Ecm::nearest_obstacle_from`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NearestObstacle {
    /// The nearest obstacle point.
    pub point: Point,
    /// Distance from the query point to `point`.
    pub clearance: f64,
    /// The cell piece holding the query point: the hint for the next query nearby.
    pub cell: CellRef,
}

impl Retraction {
    /// The edge the retraction lies on.
    pub fn edge(&self) -> EdgeId {
        self.cell.edge
    }
}

impl Ecm {
    /// The ECM cell piece that contains `p` (user units), if `p` is in the free space.
    ///
    /// The free space is that of the walls as built, every vertex snapped to the ECM's
    /// grid ([`corridor_geom::SnapGrid`], 10⁻⁴ units by default): within a grid step of a
    /// wall the answer follows the snapped wall, not the unsnapped one (the test kit's
    /// `in_snapped_free_space` decides the same rule exactly).
    ///
    /// A point on the boundary between cell pieces (a medial-axis chord, the segment from
    /// a bending point to its nearest obstacle point, or a shared corner) lies in all of
    /// them; the answer is then the smallest of them by [`CellRef`]'s order (edge id,
    /// side, piece index), whatever order the index holds them in, so an ECM answers the
    /// same whether its index was built in one go or grown by dynamic updates.
    ///
    /// ```
    /// # use corridor_ecm::{Ecm, Side};
    /// # use corridor_geom::{GridPoint, Point, SnapGrid, WallSegment, WallSource, Walls};
    /// # let corners = [(0, 0), (4, 0), (4, 2), (0, 2)];
    /// # let segments = (0..4).map(|i| { let (a, b) = (corners[i], corners[(i + 1) % 4]);
    /// #     WallSegment { a: GridPoint::new(a.0, a.1), b: GridPoint::new(b.0, b.1), two_sided: false,
    /// #     sources: [WallSource::Boundary].into() } }).collect();
    /// # let walls = Walls { grid: SnapGrid::new(1.0).unwrap(), segments, ..Walls::default() };
    /// let ecm = Ecm::from_walls(&walls).unwrap();
    /// let cell = ecm.locate(Point::new(2.0, 0.5)).unwrap();
    /// let piece = ecm.cell_piece(cell).unwrap();
    /// // The cell below the centre line reaches down to the bottom wall.
    /// assert!(piece.iter().any(|p| p.y == 0.0));
    /// assert!(ecm.locate(Point::new(5.0, 1.0)).is_err());
    /// ```
    ///
    /// # Errors
    /// [`QueryError::NotFinite`] for a NaN or infinite coordinate,
    /// [`QueryError::NotInFreeSpace`] when no cell holds `p`.
    pub fn locate(&self, p: Point) -> Result<CellRef, QueryError> {
        if !p.is_finite() {
            return Err(QueryError::NotFinite { point: p });
        }
        let holds = |closed: bool| {
            move |c: CellRef| {
                self.cell_piece(c)
                    .is_some_and(|ring| in_polygon(&ring, p) || (closed && on_boundary(&ring, p)))
            }
        };
        self.cells
            .smallest_holding(&self.edges, p, holds(false))
            .or_else(|| self.cells.smallest_holding(&self.edges, p, holds(true)))
            .ok_or(QueryError::NotInFreeSpace { point: p })
    }

    /// The polygon of one cell piece (counter-clockwise, user units).
    pub fn cell_piece(&self, cell: CellRef) -> Option<Vec<Point>> {
        let e = self.edges.get(cell.edge)?;
        let k = cell.piece as usize;
        let (a, b) = (e.bending_points.get(k)?, e.bending_points.get(k + 1)?);
        Some(cell_piece(a, b, cell.side))
    }

    /// The cell index (for its size; queries go through [`Ecm::locate`]).
    pub fn cell_index(&self) -> &CellIndex {
        &self.cells
    }
}

impl Ecm {
    /// [`Ecm::locate`] by another way (the same answer and errors): it checks the candidate
    /// pieces without building a polygon for each, so it allocates nothing.
    pub fn locate_free(&self, q: Point) -> Result<CellRef, QueryError> {
        if !q.is_finite() {
            return Err(QueryError::NotFinite { point: q });
        }
        self.locate_quietly(q)
            .ok_or(QueryError::NotInFreeSpace { point: q })
    }

    /// [`Ecm::locate`] without building a polygon per candidate cell (no allocation);
    /// the same answer, by the same rule on boundaries.
    fn locate_quietly(&self, p: Point) -> Option<CellRef> {
        let holds = |closed: bool| move |c: CellRef| self.piece_holds(c, p, closed);
        self.cells
            .smallest_holding(&self.edges, p, holds(false))
            .or_else(|| self.cells.smallest_holding(&self.edges, p, holds(true)))
    }

    /// Whether `p` lies inside the cell piece (or on its boundary, if `closed`).
    fn piece_holds(&self, cell: CellRef, p: Point, closed: bool) -> bool {
        self.piece_ring(cell).is_some_and(|(ring, n)| {
            in_polygon(&ring[..n], p) || (closed && on_boundary(&ring[..n], p))
        })
    }

    /// The polygon of one cell piece as [`Ecm::cell_piece`] gives it, in a fixed array
    /// (the ring and its length).
    fn piece_ring(&self, cell: CellRef) -> Option<([Point; 4], usize)> {
        let e = self.edges.get(cell.edge)?;
        let k = cell.piece as usize;
        let (a, b) = (e.bending_points.get(k)?, e.bending_points.get(k + 1)?);
        let raw = match cell.side {
            crate::Side::Left => [a.position, b.position, b.left, a.left],
            crate::Side::Right => [a.position, a.right, b.right, b.position],
        };
        let mut ring = [Point::ZERO; 4];
        let mut n = 0;
        for q in raw {
            if n == 0 || ring[n - 1] != q {
                ring[n] = q;
                n += 1;
            }
        }
        while n > 1 && ring[0] == ring[n - 1] {
            n -= 1;
        }
        Some((ring, n))
    }

    /// The obstacle point nearest to `q`: O(log n) to find the cell, then O(1), because
    /// only the two obstacle features of the cell's edge (segment pieces or points) can be
    /// nearest (exact, see `nearest_in_cell`, up to the rounding of the ECM's coordinates).
    ///
    /// ```
    /// # use corridor_ecm::Ecm;
    /// # use corridor_geom::{Environment, Obstacle, Point};
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 4.0));
    /// env.insert(Obstacle::rectangle(Point::new(4.0, 1.0), Point::new(6.0, 3.0)));
    /// let ecm = Ecm::build(&env).unwrap();
    /// let n = ecm.nearest_obstacle_point(Point::new(1.0, 0.5)).unwrap();
    /// assert!((n - Point::new(1.0, 0.0)).length() < 1e-9);
    /// assert!((ecm.clearance(Point::new(5.0, 3.5)).unwrap() - 0.5).abs() < 1e-9);
    /// assert!(ecm.clearance(Point::new(5.0, 2.0)).is_err()); // inside the block
    /// ```
    pub fn nearest_obstacle_point(&self, q: Point) -> Result<Point, QueryError> {
        let cell = self.locate_free(q)?;
        Ok(self.nearest_in_cell(cell, q))
    }

    /// [`Ecm::nearest_obstacle_point`] and its clearance, starting from a cell `hint` (the
    /// cell of an earlier answer for a nearby point): when `q` is still in the hinted cell
    /// the answer costs one point-in-piece test instead of a location in the cell index.
    /// The answer is always the same as [`Ecm::nearest_obstacle_point`]'s, whatever the
    /// hint: the hint is re-checked against the current pieces (a cell the hint names may
    /// be gone or different after dynamic updates; then, or when `q` left the cell, the
    /// full location answers), and a point inside the pieces' union lies in exactly one
    /// piece by the half-open rule (see the module doc), the one location finds. The
    /// answer's `cell` is the next hint.
    ///
    /// ```
    /// # use corridor_ecm::Ecm;
    /// # use corridor_geom::{Environment, Obstacle, Point};
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 4.0));
    /// env.insert(Obstacle::rectangle(Point::new(4.0, 1.0), Point::new(6.0, 3.0)));
    /// let ecm = Ecm::build(&env).unwrap();
    /// let mut hint = None;
    /// for i in 0..20 {
    ///     let q = Point::new(0.5 + 0.45 * i as f64, 0.5);
    ///     let n = ecm.nearest_obstacle_from(q, hint).unwrap();
    ///     assert_eq!(n.point, ecm.nearest_obstacle_point(q).unwrap());
    ///     assert_eq!(n.clearance, n.point.distance(q));
    ///     hint = Some(n.cell);
    /// }
    /// assert!(ecm.nearest_obstacle_from(Point::new(5.0, 2.0), hint).is_err()); // in the block
    /// ```
    ///
    /// # Errors
    /// As [`Ecm::nearest_obstacle_point`]: [`QueryError::NotFinite`],
    /// [`QueryError::NotInFreeSpace`].
    pub fn nearest_obstacle_from(
        &self,
        q: Point,
        hint: Option<CellRef>,
    ) -> Result<NearestObstacle, QueryError> {
        if !q.is_finite() {
            return Err(QueryError::NotFinite { point: q });
        }
        let cell = match hint.filter(|&c| self.piece_holds(c, q, false)) {
            Some(c) => c,
            None => self.locate_free(q)?,
        };
        let point = self.nearest_in_cell(cell, q);
        Ok(NearestObstacle {
            point,
            clearance: point.distance(q),
            cell,
        })
    }

    /// Distance from `q` to the nearest obstacle.
    pub fn clearance(&self, q: Point) -> Result<f64, QueryError> {
        Ok(self.nearest_obstacle_point(q)?.distance(q))
    }

    /// Where the half-line from `q`'s nearest obstacle point through `q` first meets the
    /// medial axis.
    ///
    /// ```
    /// # use corridor_ecm::Ecm;
    /// # use corridor_geom::{Environment, Point};
    /// let env = Environment::rectangle(Point::ZERO, Point::new(10.0, 4.0));
    /// let ecm = Ecm::build(&env).unwrap();
    /// let r = ecm.retract(Point::new(5.0, 0.5)).unwrap();
    /// assert!((r.point - Point::new(5.0, 2.0)).length() < 1e-9);
    /// assert!((r.clearance - 2.0).abs() < 1e-9);
    /// ```
    pub fn retract(&self, q: Point) -> Result<Retraction, QueryError> {
        let cell = self.locate_free(q)?;
        let nearest = self.nearest_in_cell(cell, q);
        let direction = q - nearest;
        if direction.length_squared() == 0.0 {
            return Err(QueryError::OnObstacle { point: q });
        }
        let edge = &self.edges[cell.edge];
        let k = cell.piece as usize;
        let (a, b) = (
            edge.bending_points[k].position,
            edge.bending_points[k + 1].position,
        );
        // nearest + s·direction = a + t·(b − a)
        let chord = b - a;
        let denominator = direction.perp_dot(chord);
        let t = if denominator.abs() < 1e-300 {
            // The ray runs along the chord (a degenerate piece): take the nearer end.
            if q.distance_squared(a) <= q.distance_squared(b) {
                0.0
            } else {
                1.0
            }
        } else {
            ((a - nearest).perp_dot(direction) / denominator).clamp(0.0, 1.0)
        };
        let point = a + chord * t;
        Ok(Retraction {
            point,
            cell,
            t,
            clearance: self.nearest_in_cell(cell, point).distance(point),
            nearest_obstacle_point: nearest,
        })
    }

    /// Every way `q` joins the medial axis. A point inside a cell has one retraction; a
    /// point on a wall (paths may start at an obstacle corner, or at a diagonal pinch
    /// between two free regions) has one per cell piece that touches it, each landing on
    /// the point of that piece's medial-axis chord nearest to `q`.
    pub fn retractions(&self, q: Point) -> Result<Vec<Retraction>, QueryError> {
        let mut found = Vec::new();
        self.retractions_into(q, &mut found)?;
        Ok(found)
    }

    /// [`Ecm::retractions`] into a reused buffer (cleared first).
    pub(crate) fn retractions_into(
        &self,
        q: Point,
        found: &mut Vec<Retraction>,
    ) -> Result<(), QueryError> {
        found.clear();
        match self.retract(q) {
            Ok(r) => {
                found.push(r);
                return Ok(());
            }
            Err(QueryError::NotFinite { point }) => return Err(QueryError::NotFinite { point }),
            Err(_) => {}
        }
        let tolerance = 0.5 / self.grid.scale();
        let envelope = rstar::AABB::from_corners(
            [q.x - tolerance, q.y - tolerance],
            [q.x + tolerance, q.y + tolerance],
        );
        for cell in self.cells.pieces_meeting(&self.edges, envelope) {
            let Some((piece, n)) = self.piece_ring(cell) else {
                continue;
            };
            let touches = (0..n).any(|i| {
                corridor_geom::Segment::new(piece[i], piece[(i + 1) % n]).distance(q) <= tolerance
            });
            if !touches {
                continue;
            }
            let edge = &self.edges[cell.edge];
            let k = cell.piece as usize;
            let (a, b) = (
                edge.bending_points[k].position,
                edge.bending_points[k + 1].position,
            );
            let chord = b - a;
            let t = if chord.length_squared() > 0.0 {
                ((q - a).dot(chord) / chord.length_squared()).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let point = a + chord * t;
            found.push(Retraction {
                point,
                cell,
                t,
                clearance: self.nearest_in_cell(cell, point).distance(point),
                nearest_obstacle_point: q,
            });
        }
        if found.is_empty() {
            Err(QueryError::NotInFreeSpace { point: q })
        } else {
            Ok(())
        }
    }

    /// The nearest obstacle point of `q`, a point of `cell`: the nearer of the obstacle
    /// features on the two sides of the cell's edge (the cell's own, on its outer side,
    /// and the one across the medial-axis chord). A chord only approximates a parabolic
    /// arc of the medial axis (within [`crate::BuildOptions::max_arc_deviation`]); in the
    /// sliver between chord and arc the feature across the chord is the nearer one, and
    /// nowhere in the piece is a third feature nearer (the arc bounds the two features'
    /// Voronoi regions; the piece's other sides run to its own feature).
    pub(crate) fn nearest_in_cell(&self, cell: CellRef, q: Point) -> Point {
        let edge = &self.edges[cell.edge];
        let k = cell.piece as usize;
        let (a, b) = (&edge.bending_points[k], &edge.bending_points[k + 1]);
        let own = corridor_geom::Segment::new(a.nearest(cell.side), b.nearest(cell.side))
            .nearest_point(q);
        let other_side = cell.side.opposite();
        let across = corridor_geom::Segment::new(a.nearest(other_side), b.nearest(other_side))
            .nearest_point(q);
        if across.distance_squared(q) < own.distance_squared(q) {
            across
        } else {
            own
        }
    }
}

/// Whether `p` lies in the polygon `ring` by the half-open crossing rule, decided with
/// exact orientation tests (see the module doc): `p` is inside when the half-line from
/// `p` to the right crosses the boundary an odd number of times, where an edge counts
/// when it has one end above `p` and the other at or below it (`y > p.y`, exactly), and
/// when `p` lies strictly to the left of it ([`corridor_geom::orient`], exact). Every
/// point on an edge that two polygons share with the same end points is therefore in
/// exactly one of them, and no rounding can drop it from both (the old test computed
/// the crossing's `x` in floating point, differently for the two directions of the
/// edge, and lost 18 free cell centres of the Moving AI maps on 45° chords).
/// Point location and retraction both use it, so that they agree on a point's cell.
pub(crate) fn in_polygon(ring: &[Point], p: Point) -> bool {
    use corridor_geom::{orient, Orientation};
    let mut inside = false;
    let n = ring.len();
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) {
            // `p` strictly left of the crossing: left of the edge when it goes up, right
            // of it when it goes down.
            let wanted = if b.y > a.y {
                Orientation::CounterClockwise
            } else {
                Orientation::Clockwise
            };
            if orient(a, b, p) == wanted {
                inside = !inside;
            }
        }
    }
    inside
}

/// Whether `p` lies on the boundary of `ring` (exactly: collinear with an edge and within
/// its box). The half-open rule of [`in_polygon`] leaves out a polygon's right and top
/// edges; where no neighbour takes such a point (it lies on a wall), location falls back
/// to the pieces whose closed polygon holds it.
pub(crate) fn on_boundary(ring: &[Point], p: Point) -> bool {
    let n = ring.len();
    (0..n).any(|i| {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        a.x.min(b.x) <= p.x
            && p.x <= a.x.max(b.x)
            && a.y.min(b.y) <= p.y
            && p.y <= a.y.max(b.y)
            && corridor_geom::orient(a, b, p) == corridor_geom::Orientation::Collinear
    })
}
