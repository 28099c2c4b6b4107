//! A visibility index: the map's walls as the constrained edges of a Delaunay
//! triangulation (spade), built once per map, so that the visibility queries walk
//! triangles by triangular expansion (Bungiu et al. 2014, the method of CGAL's
//! `Triangular_expansion_visibility_2`) instead of ECM cell pieces.
//!
//! Why beside the ECM walk: an ECM has about four times as many cell pieces as this
//! triangulation has triangles, and its bending points split windows that no wall bounds;
//! the triangle walk is several times faster on the shared maps (docs/BENCHMARKS.md). Its
//! price is the triangulation (a few milliseconds to a second, once per map), which an
//! ECM alone does not need; rebuild it after changing the map.
//!
//! Every vertex of the triangulation is a wall end point or a point obstacle, so a
//! segment that passes through a vertex touches a wall: that is what keeps the walks short.

use super::VisibilityError;
use corridor_geom::{normalize, orient, Environment, NormalizeError, Orientation, Point, Walls};
use spade::handles::FixedVertexHandle;
use spade::{
    ConstrainedDelaunayTriangulation, HierarchyHintGenerator, Point2, PositionInTriangulation,
    Triangulation,
};
use std::collections::HashMap;

type Cdt = ConstrainedDelaunayTriangulation<Point2<f64>, (), (), (), HierarchyHintGenerator<f64>>;

/// Across a side: no triangle (the side is on the convex hull of the walls).
pub(super) const BLOCKED: u32 = u32::MAX;

/// The walls of a map triangulated for fast visibility queries
/// ([`VisibilityIndex::visibility_polygon`], [`VisibilityIndex::line_of_sight`]); the
/// answers are those of the [`crate::Ecm`] methods of the same names on the same map.
///
/// ```
/// use corridor_ecm::VisibilityIndex;
/// use corridor_geom::{Environment, Obstacle, Point};
/// let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
/// env.insert(Obstacle::rectangle(Point::new(4.0, 4.0), Point::new(6.0, 6.0)));
/// let index = VisibilityIndex::build(&env).unwrap();
/// let seen = index.visibility_polygon(Point::new(1.0, 5.0)).unwrap();
/// assert!(seen.area() < 96.0);
/// assert!(index.line_of_sight(Point::new(1.0, 1.0), Point::new(9.0, 1.0)).unwrap());
/// assert!(!index.line_of_sight(Point::new(1.0, 5.0), Point::new(9.0, 5.0)).unwrap());
/// ```
#[derive(Clone)]
pub struct VisibilityIndex {
    cdt: Cdt,
    /// Per face, by spade's face index (0 is the outer face).
    pub(super) faces: Vec<Face>,
    /// Where point location starts its walk.
    hints: Hints,
}

/// One triangle in one cache line: the walks read each face they cross once, and on
/// large maps those reads miss the cache (measured: three separate arrays cost three
/// misses per face).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(super) struct Face {
    /// The corners, counter-clockwise; side `j` runs from corner `j` to corner `j + 1`.
    pub(super) corners: [Point; 3],
    /// Per side: the face across it and the side's index there, as `face << 2 | side`,
    /// or [`BLOCKED`] on the convex hull. A face across a side that is not a wall is free
    /// exactly when this one is (the free faces are flooded across such sides), so the
    /// walks check [`Face::wall`] first and point location uses every link.
    pub(super) across: [u32; 3],
    /// Per side: whether it is a wall.
    pub(super) wall: [bool; 3],
    /// Whether the face lies in the free space.
    pub(super) free: bool,
}

/// A uniform grid over the points' bounds with, per bucket, a triangle near its centre:
/// the start of the walk that locates a point. Measured: spade's own hierarchy, and then a
/// grid of vertex hints (one per vertex) followed by spade's walk, made point location
/// most of a line-of-sight query; a bucket per triangle and a walk over [`Face`] records
/// touches about two triangles.
#[derive(Clone, Debug)]
struct Hints {
    origin: Point,
    /// Buckets per unit length.
    inv: f64,
    nx: usize,
    ny: usize,
    face: Vec<u32>,
}

impl Hints {
    /// About one bucket per triangle.
    fn new(cdt: &Cdt, points: &[Point]) -> Self {
        let (mut lo, mut hi) = (points[0], points[0]);
        for p in points {
            lo = Point::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = Point::new(hi.x.max(p.x), hi.y.max(p.y));
        }
        let (w, h) = (
            (hi.x - lo.x).max(f64::MIN_POSITIVE),
            (hi.y - lo.y).max(f64::MIN_POSITIVE),
        );
        let size = ((w * h) / cdt.num_inner_faces().max(1) as f64)
            .sqrt()
            .max(w.max(h) / 4096.0);
        let inv = 1.0 / size;
        let (nx, ny) = (
            ((w * inv) as usize + 1).min(4096),
            ((h * inv) as usize + 1).min(4096),
        );
        let mut face = Vec::with_capacity(nx * ny);
        let mut last = FixedVertexHandle::from_index(0);
        // An inner face at the located position (0, spade's outer face, when there is none).
        let inner = |f: spade::handles::FaceHandle<'_, _, _, _, _, _>| {
            f.as_inner().map_or(0, |f| f.fix().index() as u32)
        };
        for j in 0..ny {
            for i in 0..nx {
                let c = Point2::new(
                    lo.x + (i as f64 + 0.5) * size,
                    lo.y + (j as f64 + 0.5) * size,
                );
                let f = match cdt.locate_with_hint(c, last) {
                    PositionInTriangulation::OnVertex(v) => {
                        last = v;
                        cdt.vertex(v)
                            .out_edges()
                            .map(|e| inner(e.face()))
                            .find(|&f| f != 0)
                            .unwrap_or(0)
                    }
                    PositionInTriangulation::OnEdge(e)
                    | PositionInTriangulation::OutsideOfConvexHull(e) => {
                        let e = cdt.directed_edge(e);
                        last = e.from().fix();
                        inner(e.face()).max(inner(e.rev().face()))
                    }
                    PositionInTriangulation::OnFace(f) => {
                        let f = cdt.face(f);
                        last = f.vertices()[0].fix();
                        f.fix().index() as u32
                    }
                    PositionInTriangulation::NoTriangulation => 0,
                };
                face.push(f);
            }
        }
        Hints {
            origin: lo,
            inv,
            nx,
            ny,
            face,
        }
    }

    /// The face of the bucket that holds `q` (the nearest bucket when outside).
    #[inline]
    fn near(&self, q: Point) -> u32 {
        let i = (((q.x - self.origin.x) * self.inv).max(0.0) as usize).min(self.nx - 1);
        let j = (((q.y - self.origin.y) * self.inv).max(0.0) as usize).min(self.ny - 1);
        self.face[j * self.nx + i]
    }
}

impl std::fmt::Debug for VisibilityIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VisibilityIndex")
            .field("triangles", &self.faces.len().saturating_sub(1))
            .finish_non_exhaustive()
    }
}

/// Why a visibility index could not be built.
#[derive(Debug, thiserror::Error)]
pub enum VisibilityIndexError {
    /// The environment's walls could not be normalized.
    #[error("the environment's walls: {0}")]
    Walls(#[from] NormalizeError),
    /// A wall point that the triangulation cannot hold (out of its coordinate range).
    #[error("wall point ({}, {}) is out of the triangulation's coordinate range", .point.x, .point.y)]
    BadPoint {
        /// The point.
        point: Point,
    },
    /// Two walls cross or overlap (normalized walls never do).
    #[error("wall from ({}, {}) to ({}, {}) crosses another wall", .a.x, .a.y, .b.x, .b.y)]
    CrossingWalls {
        /// The wall's start.
        a: Point,
        /// The wall's end.
        b: Point,
    },
}

/// Where a point lies in the index.
pub(super) enum Place {
    /// In the interior of a free face.
    Face(u32),
    /// On a side of a free face that is not a wall (face, side), with the face across.
    Side(u32, usize),
}

impl VisibilityIndex {
    /// Normalizes the environment's walls (as [`crate::Ecm::build`] does) and triangulates
    /// them.
    ///
    /// # Errors
    /// [`VisibilityIndexError::Walls`] when the environment cannot be normalized.
    pub fn build(env: &Environment) -> Result<Self, VisibilityIndexError> {
        Self::from_walls(&normalize(env)?)
    }

    /// Triangulates normalized walls (free space on the left of a one-sided wall).
    ///
    /// ```
    /// use corridor_ecm::VisibilityIndex;
    /// use corridor_geom::{normalize, Environment, Point};
    /// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(4.0, 3.0));
    /// let index = VisibilityIndex::from_walls(&normalize(&env).unwrap()).unwrap();
    /// assert_eq!(index.triangle_count(), 2);
    /// ```
    ///
    /// # Errors
    /// [`VisibilityIndexError::BadPoint`] for a point the triangulation cannot hold, and
    /// [`VisibilityIndexError::CrossingWalls`] for walls that cross.
    pub fn from_walls(walls: &Walls) -> Result<Self, VisibilityIndexError> {
        let mut ids: HashMap<(u64, u64), usize> = HashMap::new();
        let mut points: Vec<Point> = Vec::new();
        let mut id = |p: Point| {
            *ids.entry((p.x.to_bits(), p.y.to_bits()))
                .or_insert_with(|| {
                    points.push(p);
                    points.len() - 1
                })
        };
        let segments: Vec<(usize, usize, bool)> = walls
            .segments
            .iter()
            .map(|s| {
                let seg = s.to_user(&walls.grid);
                (id(seg.a), id(seg.b), s.two_sided)
            })
            .collect();
        for (p, _) in &walls.points {
            id(walls.grid.to_point(*p));
        }
        for &p in &points {
            let ok = |v: f64| {
                v == 0.0
                    || (v.abs() >= spade::MIN_ALLOWED_VALUE && v.abs() <= spade::MAX_ALLOWED_VALUE)
            };
            if !(p.is_finite() && ok(p.x) && ok(p.y)) {
                return Err(VisibilityIndexError::BadPoint { point: p });
            }
        }
        let edges: Vec<[usize; 2]> = segments.iter().map(|&(a, b, _)| [a, b]).collect();
        let mut conflict = None;
        let vertices = points.iter().map(|p| Point2::new(p.x, p.y)).collect();
        let cdt = Cdt::try_bulk_load_cdt(vertices, edges, |e| conflict = conflict.or(Some(e)))
            .map_err(|_| VisibilityIndexError::BadPoint { point: points[0] })?;
        if let Some([a, b]) = conflict {
            return Err(VisibilityIndexError::CrossingWalls {
                a: points[a],
                b: points[b],
            });
        }
        let at = |p: Point2<f64>| Point::new(p.x, p.y);
        let faces = cdt.all_faces().len();
        let mut corners = vec![[Point::new(0.0, 0.0); 3]; faces];
        let mut across = vec![[BLOCKED; 3]; faces];
        let mut wall = vec![[true; 3]; faces];
        for face in cdt.inner_faces() {
            let f = face.fix().index();
            let edges = face.adjacent_edges();
            for (j, e) in edges.iter().enumerate() {
                corners[f][j] = at(e.from().position());
                wall[f][j] = e.is_constraint_edge();
                if let Some(other) = e.rev().face().as_inner() {
                    let back = e.rev().fix();
                    let k = other
                        .adjacent_edges()
                        .iter()
                        .position(|x| x.fix() == back)
                        .expect("a face's edge is among its neighbour's");
                    across[f][j] = ((other.fix().index() as u32) << 2) | k as u32;
                }
            }
        }
        // Free faces: flood from the free side of every wall across the sides that are
        // not walls.
        let mut free = vec![false; faces];
        let mut todo: Vec<u32> = Vec::new();
        for &(a, b, two_sided) in &segments {
            let (va, vb) = (
                FixedVertexHandle::from_index(a),
                FixedVertexHandle::from_index(b),
            );
            let Some(e) = cdt.get_edge_from_neighbors(va, vb) else {
                continue;
            };
            let sides = if two_sided {
                vec![e.face(), e.rev().face()]
            } else {
                vec![e.face()]
            };
            for face in sides.iter().filter_map(|f| f.as_inner()) {
                let f = face.fix().index();
                if !free[f] {
                    free[f] = true;
                    todo.push(f as u32);
                }
            }
        }
        while let Some(f) = todo.pop() {
            for j in 0..3 {
                let n = across[f as usize][j];
                if !wall[f as usize][j] && n != BLOCKED && !free[(n >> 2) as usize] {
                    free[(n >> 2) as usize] = true;
                    todo.push(n >> 2);
                }
            }
        }
        let hints = Hints::new(&cdt, &points);
        Ok(VisibilityIndex {
            hints,
            cdt,
            faces: (0..faces)
                .map(|f| Face {
                    corners: corners[f],
                    across: across[f],
                    wall: wall[f],
                    free: free[f],
                })
                .collect(),
        })
    }

    /// Number of triangles (free or not).
    pub fn triangle_count(&self) -> usize {
        self.cdt.num_inner_faces()
    }

    /// Where the free point `q` lies (exact predicates): a walk over the faces from the
    /// hint bucket's triangle, crossing a side that has `q` strictly beyond it; spade's
    /// own location when the walk is long (a constrained triangulation does not promise
    /// that this walk ends, so it is bounded).
    pub(super) fn place(&self, q: Point) -> Result<Place, VisibilityError> {
        if !q.is_finite() {
            return Err(VisibilityError::NotFinite { point: q });
        }
        let outside = VisibilityError::NotInFreeSpace { point: q };
        let mut f = self.hints.near(q) as usize;
        if f == 0 {
            return self.place_by_spade(q);
        }
        for step in 0..64 {
            let c = &self.faces[f].corners;
            let o = [
                orient(c[0], c[1], q),
                orient(c[1], c[2], q),
                orient(c[2], c[0], q),
            ];
            // Start the scan at a side that turns with the step, so that the walk does not
            // loop on one choice (the side it came in by never has `q` beyond it).
            let beyond = (0..3)
                .map(|k| (k + step) % 3)
                .find(|&j| o[j] == Orientation::Clockwise);
            let Some(j) = beyond else {
                return self.classify(q, f, o);
            };
            let n = self.faces[f].across[j];
            if n == BLOCKED {
                return Err(outside);
            }
            f = (n >> 2) as usize;
        }
        self.place_by_spade(q)
    }

    /// The place of `q` in the closed face `f`, from its sides' orientations to `q`
    /// (none clockwise).
    fn classify(&self, q: Point, f: usize, o: [Orientation; 3]) -> Result<Place, VisibilityError> {
        let face = &self.faces[f];
        let mut on = (0..3).filter(|&j| o[j] == Orientation::Collinear);
        match (on.next(), on.next()) {
            (None, _) if face.free => Ok(Place::Face(f as u32)),
            (Some(j), None) if face.wall[j] => Err(VisibilityError::OnObstacle { point: q }),
            (Some(j), None) if face.free => Ok(Place::Side(f as u32, j)),
            // On a side that is not a wall the face across is as free as this one.
            (None, _) | (Some(_), None) => Err(VisibilityError::NotInFreeSpace { point: q }),
            // Every vertex is a wall end point or a point obstacle.
            (Some(_), Some(_)) => Err(VisibilityError::OnObstacle { point: q }),
        }
    }

    /// Point location by spade (hierarchy), for walks that [`VisibilityIndex::place`]
    /// cut short.
    fn place_by_spade(&self, q: Point) -> Result<Place, VisibilityError> {
        let outside = VisibilityError::NotInFreeSpace { point: q };
        match self.cdt.locate(Point2::new(q.x, q.y)) {
            PositionInTriangulation::OnFace(f) if self.faces[f.index()].free => {
                Ok(Place::Face(f.index() as u32))
            }
            PositionInTriangulation::OnEdge(e) => {
                let e = self.cdt.directed_edge(e);
                if e.is_constraint_edge() {
                    return Err(VisibilityError::OnObstacle { point: q });
                }
                let Some(face) = e.face().as_inner() else {
                    return Err(outside);
                };
                let f = face.fix().index();
                if !self.faces[f].free {
                    return Err(outside);
                }
                let j = face
                    .adjacent_edges()
                    .iter()
                    .position(|x| x.fix() == e.fix())
                    .expect("an edge is among its face's");
                Ok(Place::Side(f as u32, j))
            }
            // Every vertex is a wall end point or a point obstacle, and touches free space.
            PositionInTriangulation::OnVertex(_) => Err(VisibilityError::OnObstacle { point: q }),
            _ => Err(outside),
        }
    }
}
