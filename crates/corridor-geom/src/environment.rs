//! The environment a user describes: an outer boundary and obstacles with stable ids.

use crate::{Aabb, Point, Polygon, Ring, SnapError, SnapGrid};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// A stable obstacle id: never reused within one [`Environment`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ObstacleId(pub u32);

impl fmt::Display for ObstacleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Something characters cannot pass through.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Obstacle {
    /// A single point (a pillar of zero width).
    Point(Point),
    /// An open polyline of one or more segments (a fence, a thin wall).
    Polyline(Vec<Point>),
    /// A solid polygon, possibly concave, possibly with holes (free pockets inside).
    Polygon(Polygon),
}

impl Obstacle {
    /// A segment from `a` to `b`.
    pub fn segment(a: Point, b: Point) -> Self {
        Obstacle::Polyline(vec![a, b])
    }

    /// A polygon without holes through `vertices`.
    pub fn polygon(vertices: Vec<Point>) -> Self {
        Obstacle::Polygon(Polygon::simple(Ring::new(vertices)))
    }

    /// An axis-aligned rectangle.
    pub fn rectangle(min: Point, max: Point) -> Self {
        Obstacle::polygon(Aabb::new(min, max).corners().to_vec())
    }

    /// The obstacle with every coordinate passed through `f` (a move, a rotation).
    ///
    /// ```
    /// use corridor_geom::{Obstacle, Point};
    /// let fence = Obstacle::segment(Point::new(0.0, 0.0), Point::new(2.0, 0.0));
    /// let moved = fence.mapped(|p| p + Point::new(1.0, 3.0));
    /// assert_eq!(moved, Obstacle::segment(Point::new(1.0, 3.0), Point::new(3.0, 3.0)));
    /// ```
    pub fn mapped(&self, f: impl Fn(Point) -> Point) -> Obstacle {
        let ring = |r: &Ring| Ring::new(r.vertices().iter().map(|p| f(*p)).collect());
        match self {
            Obstacle::Point(p) => Obstacle::Point(f(*p)),
            Obstacle::Polyline(v) => Obstacle::Polyline(v.iter().map(|p| f(*p)).collect()),
            Obstacle::Polygon(poly) => Obstacle::Polygon(Polygon {
                exterior: ring(&poly.exterior),
                holes: poly.holes.iter().map(ring).collect(),
            }),
        }
    }

    /// The obstacle shifted by `offset`.
    pub fn translated(&self, offset: Point) -> Obstacle {
        self.mapped(|p| p + offset)
    }

    /// All coordinates of the obstacle.
    pub fn points(&self) -> Box<dyn Iterator<Item = Point> + '_> {
        match self {
            Obstacle::Point(p) => Box::new(std::iter::once(*p)),
            Obstacle::Polyline(v) => Box::new(v.iter().copied()),
            Obstacle::Polygon(poly) => {
                Box::new(poly.rings().flat_map(|r| r.vertices().iter().copied()))
            }
        }
    }

    /// Bounding box.
    pub fn aabb(&self) -> Option<Aabb> {
        Aabb::from_points(self.points())
    }

    /// Short name of the kind, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Obstacle::Point(_) => "point",
            Obstacle::Polyline(_) => "polyline",
            Obstacle::Polygon(_) => "polygon",
        }
    }
}

/// What is wrong with an environment. Every variant names the obstacle (or the boundary).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EnvironmentError {
    /// A coordinate is NaN or infinite.
    #[error("{owner}: coordinate ({x}, {y}) is not finite")]
    NonFinite {
        /// The obstacle, or the boundary.
        owner: Owner,
        /// x as given.
        x: f64,
        /// y as given.
        y: f64,
    },
    /// A polygon ring has fewer than three distinct vertices.
    #[error("{owner}: ring {ring} has {distinct} distinct vertices, a polygon needs at least 3")]
    TooFewVertices {
        /// The obstacle, or the boundary.
        owner: Owner,
        /// 0 for the exterior, 1.. for holes.
        ring: usize,
        /// How many distinct vertices it has.
        distinct: usize,
    },
    /// A polyline with fewer than two points.
    #[error("{owner}: a polyline needs at least 2 points, it has {count}")]
    TooFewPoints {
        /// The obstacle.
        owner: Owner,
        /// How many it has.
        count: usize,
    },
    /// A ring crosses or touches itself.
    #[error("{owner}: ring {ring} intersects itself: edge {first_edge} meets edge {second_edge}")]
    SelfIntersecting {
        /// The obstacle, or the boundary.
        owner: Owner,
        /// 0 for the exterior, 1.. for holes.
        ring: usize,
        /// Edge `i` runs from vertex `i` to vertex `i + 1`.
        first_edge: usize,
        /// The other edge.
        second_edge: usize,
    },
    /// A hole lies (partly) outside its polygon's exterior.
    #[error("{owner}: hole {hole} is not inside the exterior ring")]
    HoleOutside {
        /// The obstacle.
        owner: Owner,
        /// 1-based hole number.
        hole: usize,
    },
    /// An obstacle lies entirely outside the boundary.
    #[error("{owner}: the obstacle lies entirely outside the boundary")]
    OutsideBoundary {
        /// The obstacle.
        owner: Owner,
    },
    /// A coordinate cannot be snapped to the integer grid.
    #[error("{owner}: {source}")]
    Snap {
        /// The obstacle, or the boundary.
        owner: Owner,
        /// Why.
        source: SnapError,
    },
    /// The environment has no obstacle with this id.
    #[error("no obstacle with id {0}")]
    UnknownObstacle(ObstacleId),
}

/// Who owns a faulty coordinate: an obstacle or the boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Owner {
    /// The outer boundary.
    Boundary,
    /// An obstacle.
    Obstacle(ObstacleId),
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Owner::Boundary => write!(f, "boundary"),
            Owner::Obstacle(id) => write!(f, "obstacle {id}"),
        }
    }
}

/// A 2D world: the outer boundary (any simple polygon) and obstacles with stable ids.
///
/// Obstacles may overlap, touch, stick out of the boundary or be points and polylines;
/// [`crate::normalize`] turns them into interior-disjoint walls.
///
/// ```
/// use corridor_geom::{Environment, Obstacle, Point};
/// let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
/// let crate_id = env.insert(Obstacle::rectangle(Point::new(2.0, 2.0), Point::new(3.0, 3.0)));
/// let pillar = env.insert(Obstacle::Point(Point::new(7.0, 7.0)));
/// assert_ne!(crate_id, pillar);
/// env.validate().unwrap();
/// assert!(env.remove(crate_id).is_some());
/// assert_eq!(env.obstacles().count(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Environment {
    boundary: Ring,
    obstacles: BTreeMap<ObstacleId, Obstacle>,
    next_id: u32,
    snap: SnapGrid,
}

impl Environment {
    /// An environment bounded by `boundary` with no obstacles and the default snap grid.
    pub fn new(boundary: Ring) -> Self {
        Environment {
            boundary,
            obstacles: BTreeMap::new(),
            next_id: 0,
            snap: SnapGrid::default(),
        }
    }

    /// An environment bounded by the rectangle with corners `min` and `max`.
    pub fn rectangle(min: Point, max: Point) -> Self {
        Environment::new(Ring::new(Aabb::new(min, max).corners().to_vec()))
    }

    /// The same environment on another snap grid.
    pub fn with_snap_grid(mut self, snap: SnapGrid) -> Self {
        self.snap = snap;
        self
    }

    /// The snap grid the planners use for this environment.
    pub fn snap_grid(&self) -> SnapGrid {
        self.snap
    }

    /// The outer boundary.
    pub fn boundary(&self) -> &Ring {
        &self.boundary
    }

    /// Bounding box of the boundary.
    pub fn bounds(&self) -> Aabb {
        self.boundary
            .aabb()
            .unwrap_or(Aabb::new(Point::ZERO, Point::ZERO))
    }

    /// Adds an obstacle and returns its new id.
    pub fn insert(&mut self, obstacle: Obstacle) -> ObstacleId {
        let id = ObstacleId(self.next_id);
        self.next_id += 1;
        self.obstacles.insert(id, obstacle);
        id
    }

    /// Adds an obstacle under a given id (for readers of formats that carry ids).
    /// Later [`Environment::insert`]s pick ids above it. Returns the replaced obstacle.
    pub fn insert_with_id(&mut self, id: ObstacleId, obstacle: Obstacle) -> Option<Obstacle> {
        self.next_id = self.next_id.max(id.0.saturating_add(1));
        self.obstacles.insert(id, obstacle)
    }

    /// Removes an obstacle, returning it.
    pub fn remove(&mut self, id: ObstacleId) -> Option<Obstacle> {
        self.obstacles.remove(&id)
    }

    /// Replaces an obstacle's geometry, keeping its id.
    pub fn replace(
        &mut self,
        id: ObstacleId,
        obstacle: Obstacle,
    ) -> Result<Obstacle, EnvironmentError> {
        match self.obstacles.get_mut(&id) {
            Some(slot) => Ok(std::mem::replace(slot, obstacle)),
            None => Err(EnvironmentError::UnknownObstacle(id)),
        }
    }

    /// The obstacle with this id.
    pub fn obstacle(&self, id: ObstacleId) -> Option<&Obstacle> {
        self.obstacles.get(&id)
    }

    /// All obstacles in id order.
    pub fn obstacles(&self) -> impl ExactSizeIterator<Item = (ObstacleId, &Obstacle)> {
        self.obstacles.iter().map(|(id, o)| (*id, o))
    }

    /// The id the next [`Environment::insert`] will return.
    pub fn next_id(&self) -> ObstacleId {
        ObstacleId(self.next_id)
    }

    /// Total number of obstacle vertices (points count as one).
    pub fn vertex_count(&self) -> usize {
        self.obstacles.values().map(|o| o.points().count()).sum()
    }

    /// Checks everything the planners rely on; the first problem found is returned.
    pub fn validate(&self) -> Result<(), EnvironmentError> {
        self.validate_ring(Owner::Boundary, 0, &self.boundary)?;
        let bounds = self.bounds();
        for (id, obstacle) in self.obstacles() {
            let owner = Owner::Obstacle(id);
            self.validate_obstacle(owner, obstacle)?;
            if !self.touches_boundary_region(obstacle, &bounds) {
                return Err(EnvironmentError::OutsideBoundary { owner });
            }
        }
        Ok(())
    }

    /// Validates one obstacle on its own (as an update would before inserting it).
    pub fn validate_obstacle_geometry(&self, obstacle: &Obstacle) -> Result<(), EnvironmentError> {
        self.validate_obstacle(Owner::Obstacle(self.next_id()), obstacle)
    }

    fn validate_obstacle(&self, owner: Owner, obstacle: &Obstacle) -> Result<(), EnvironmentError> {
        for p in obstacle.points() {
            self.check_coordinate(owner, p)?;
        }
        match obstacle {
            Obstacle::Point(_) => Ok(()),
            Obstacle::Polyline(points) if points.len() < 2 => Err(EnvironmentError::TooFewPoints {
                owner,
                count: points.len(),
            }),
            Obstacle::Polyline(_) => Ok(()),
            Obstacle::Polygon(poly) => {
                for (ring_index, ring) in poly.rings().enumerate() {
                    self.validate_ring(owner, ring_index, ring)?;
                }
                for (h, hole) in poly.holes.iter().enumerate() {
                    let inside = hole
                        .vertices()
                        .iter()
                        .all(|&p| poly.exterior.contains_or_touches(p));
                    if !inside {
                        return Err(EnvironmentError::HoleOutside { owner, hole: h + 1 });
                    }
                }
                Ok(())
            }
        }
    }

    fn validate_ring(
        &self,
        owner: Owner,
        ring_index: usize,
        ring: &Ring,
    ) -> Result<(), EnvironmentError> {
        for &p in ring.vertices() {
            self.check_coordinate(owner, p)?;
        }
        let distinct = ring.distinct_vertex_count();
        if distinct < 3 {
            return Err(EnvironmentError::TooFewVertices {
                owner,
                ring: ring_index,
                distinct,
            });
        }
        if let Some(x) = ring.find_self_intersection() {
            return Err(EnvironmentError::SelfIntersecting {
                owner,
                ring: ring_index,
                first_edge: x.first_edge,
                second_edge: x.second_edge,
            });
        }
        Ok(())
    }

    fn check_coordinate(&self, owner: Owner, p: Point) -> Result<(), EnvironmentError> {
        if !p.is_finite() {
            return Err(EnvironmentError::NonFinite {
                owner,
                x: p.x,
                y: p.y,
            });
        }
        self.snap
            .snap(p)
            .map(|_| ())
            .map_err(|source| EnvironmentError::Snap { owner, source })
    }

    /// Whether any part of the obstacle may lie inside or on the boundary: some vertex is
    /// inside, or some obstacle edge meets a boundary edge, or (for polygons) the boundary
    /// lies inside the obstacle.
    fn touches_boundary_region(&self, obstacle: &Obstacle, bounds: &Aabb) -> bool {
        match obstacle.aabb() {
            Some(b) if b.intersects(bounds) => {}
            _ => return false,
        }
        if obstacle
            .points()
            .any(|p| self.boundary.contains_or_touches(p))
        {
            return true;
        }
        let edges: Vec<crate::Segment> = match obstacle {
            Obstacle::Point(_) => return false,
            Obstacle::Polyline(v) => v
                .windows(2)
                .map(|w| crate::Segment::new(w[0], w[1]))
                .collect(),
            Obstacle::Polygon(poly) => poly.edges().collect(),
        };
        if edges
            .iter()
            .any(|e| self.boundary.edges().any(|b| e.intersects(&b)))
        {
            return true;
        }
        matches!(obstacle, Obstacle::Polygon(poly) if poly.contains(self.boundary.vertices()[0]))
    }
}
