//! What is free? The boundary of the free space as exact walls with free wedges.
//!
//! Obstacles given as interior-disjoint polygons (touching along edges or at corners, as
//! the cells of a grid map do) are merged exactly, without any new coordinates: every
//! polygon edge is split at the vertices lying on it, pieces that two polygons share
//! (or that a polygon shares with the outer boundary) cancel, and straight runs are
//! joined. What is left is a set of walls with the free space on their left (one-sided)
//! or on both sides (thin walls), and at every wall vertex the closed sectors of free
//! directions ([`Wedge`]s). All decisions use exact orientation tests.
//!
//! The module also answers the same question for normalized [`Walls`](crate::Walls):
//! their free-space polygons (`traced`). Below [`FreeSpace`]: `wedge` (exact directions
//! and the free sectors at a point), `ray` (where a path meets the walls), `walk` (how a
//! straight path passes them), `build` (the constructors) and `query` (classification
//! and free segments). The items that the visibility planners need inside a free space
//! ([`Dir`], [`Place`], [`Walk`], [`WallRec`], ...) are public here, not at the crate
//! root.

mod build;
mod error;
mod query;
mod ray;
pub(crate) mod traced;
mod walk;
mod wedge;

pub use error::{FreeSpaceError, PathQueryError};
pub use query::properly_cross;
pub use ray::{along_ray_cmp, Arrival, Place};
pub use walk::Walk;
pub use wedge::{
    angle_from_cmp, flip, in_half_open, pseudo_angle, side, wrap4, Dir, Wedge, BOTH, LEFT, RIGHT,
};

use crate::spatial::FloatSegmentGrid;
use crate::{point_on_segment, Aabb, FxHashMap as HashMap, ObstacleId, Point, Ring, Segment};

/// One wall of the free space.
///
/// ```
/// use corridor_geom::{Environment, Point};
/// use corridor_geom::FreeSpace;
/// let env = Environment::rectangle(Point::ZERO, Point::new(4.0, 3.0));
/// let free = FreeSpace::from_environment(&env).unwrap();
/// // The boundary, counter-clockwise: the free space lies on the left of every wall.
/// assert_eq!(free.walls().count(), 4);
/// assert!(free.walls().all(|w| !w.two_sided));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FreeSpaceWall {
    /// The wall from `segment.a` to `segment.b`.
    pub segment: Segment,
    /// Free space on both sides (a thin wall); otherwise only on the left of `a → b`.
    pub two_sided: bool,
    /// The obstacle the wall came from (`None` for the outer boundary).
    pub source: Option<ObstacleId>,
}

/// Where a point lies relative to the free space.
#[derive(Clone, Debug, PartialEq)]
pub enum PointClass {
    /// In the open free space.
    Free,
    /// On a wall; the free directions there. More than one wedge where obstacles touch at
    /// the point (a diagonal pinch) or on a thin wall.
    Boundary(Vec<Wedge>),
    /// Inside an obstacle; the owner of the nearest wall to the right, when known.
    Blocked(Option<ObstacleId>),
    /// Outside the environment's boundary.
    Outside,
}

impl PointClass {
    /// Whether a path may start or end here.
    #[inline]
    pub fn is_free(&self) -> bool {
        matches!(self, PointClass::Free | PointClass::Boundary(_))
    }

    /// Whether a path may leave the point towards `to`.
    #[inline]
    pub fn allows_towards(&self, to: Point) -> bool {
        self.sides_towards(to) != 0
    }

    /// On which sides of a path leaving towards `to` the free space lies (0: none).
    #[inline]
    pub fn sides_towards(&self, to: Point) -> u8 {
        match self {
            PointClass::Free => BOTH,
            PointClass::Boundary(wedges) => wedges
                .iter()
                .fold(0, |s, w| s | w.sides_along(Dir::towards(to))),
            _ => 0,
        }
    }
}

/// One wall as [`FreeSpace`] stores it: its ends as vertex ids (indices into
/// [`FreeSpace::vertices`]). [`FreeSpace::walls`] gives the same walls as segments.
#[derive(Clone, Copy, Debug)]
pub struct WallRec {
    /// Start vertex.
    pub a: u32,
    /// End vertex.
    pub b: u32,
    /// Free space on both sides (a thin wall); otherwise only on the left of `a → b`.
    pub two_sided: bool,
    /// The obstacle the wall came from (`None` for the outer boundary).
    pub source: Option<ObstacleId>,
}

/// The free space of an environment, as walls with exact free wedges at their vertices.
///
/// Points and wedges are numbered; a wedge is what a path can turn in, so the
/// visibility graph's nodes are wedges, not points.
///
/// ```
/// use corridor_geom::{Environment, Obstacle, Point};
/// use corridor_geom::{FreeSpace, PointClass};
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(3.0, 3.0));
/// // Two cells touching at (1, 1) only diagonally.
/// env.insert(Obstacle::rectangle(Point::new(0.0, 0.0), Point::new(1.0, 1.0)));
/// env.insert(Obstacle::rectangle(Point::new(1.0, 1.0), Point::new(2.0, 2.0)));
/// let free = FreeSpace::from_environment(&env).unwrap();
/// match free.classify(Point::new(1.0, 1.0)) {
///     PointClass::Boundary(wedges) => assert_eq!(wedges.len(), 2),
///     other => panic!("{other:?}"),
/// }
/// // A path may not squeeze between the two cells...
/// assert!(!free.segment_is_free(Point::new(0.5, 1.5), Point::new(1.5, 0.5)));
/// // ...but may touch the corner and turn back.
/// assert!(free.segment_is_free(Point::new(0.5, 1.5), Point::new(1.0, 1.0)));
/// assert!(free.segment_is_free(Point::new(0.0, 2.5), Point::new(3.0, 2.5)));
/// ```
#[derive(Clone, Debug)]
pub struct FreeSpace {
    /// The wall vertices, numbered (see [`FreeSpace::vertices`]).
    pub points: Vec<Point>,
    point_ids: HashMap<(u64, u64), u32>,
    /// The walls, each once, by vertex ids.
    pub walls: Vec<WallRec>,
    /// The walls (by their index in `walls`) in a bucket grid.
    pub grid: FloatSegmentGrid,
    /// CSR: walls incident to point `p` are `incident[incident_start[p]..incident_start[p + 1]]`.
    incident_start: Vec<u32>,
    incident: Vec<u32>,
    /// CSR: wedges at point `p` are `wedges[wedge_start[p]..wedge_start[p + 1]]`.
    wedge_start: Vec<u32>,
    /// The wedges at every vertex, grouped by vertex (see [`FreeSpace::wedges_at`]).
    pub wedges: Vec<Wedge>,
    /// The vertex of each wedge.
    pub wedge_apex: Vec<u32>,
    boundary: Ring,
}

#[inline]
pub(crate) fn point_key(p: Point) -> (u64, u64) {
    // +0.0 and -0.0 are the same point.
    ((p.x + 0.0).to_bits(), (p.y + 0.0).to_bits())
}

impl FreeSpace {
    /// The bytes this free space occupies: the struct itself plus the heap behind it,
    /// counted from its vectors' capacities × element sizes (the point-lookup hash map
    /// as capacity × (entry + 1 control byte), an approximation of its table). The
    /// benchmarks report it; it is a count, not a measurement of the allocator.
    ///
    /// ```
    /// use corridor_geom::{Environment, Point};
    /// use corridor_geom::FreeSpace;
    /// let env = Environment::rectangle(Point::ZERO, Point::new(4.0, 3.0));
    /// let free = FreeSpace::from_environment(&env).unwrap();
    /// assert!(free.memory_bytes() > 4 * std::mem::size_of::<Point>());
    /// ```
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        size_of::<Self>()
            + self.points.capacity() * size_of::<Point>()
            + self.point_ids.capacity() * (size_of::<((u64, u64), u32)>() + 1)
            + self.walls.capacity() * size_of::<WallRec>()
            + self.grid.memory_bytes()
            + (self.incident_start.capacity()
                + self.incident.capacity()
                + self.wedge_start.capacity()
                + self.wedge_apex.capacity())
                * size_of::<u32>()
            + self.wedges.capacity() * size_of::<Wedge>()
            + self.boundary.len() * size_of::<Point>()
    }

    /// The wall vertices.
    #[inline]
    pub fn vertices(&self) -> &[Point] {
        &self.points
    }

    /// The walls, each once.
    pub fn walls(&self) -> impl ExactSizeIterator<Item = FreeSpaceWall> + '_ {
        self.walls.iter().map(|w| FreeSpaceWall {
            segment: Segment::new(self.points[w.a as usize], self.points[w.b as usize]),
            two_sided: w.two_sided,
            source: w.source,
        })
    }

    /// Number of walls.
    #[inline]
    pub fn wall_count(&self) -> usize {
        self.walls.len()
    }

    /// All wedges (free sectors at wall vertices), numbered.
    #[inline]
    pub fn wedges(&self) -> &[Wedge] {
        &self.wedges
    }

    /// The wedges at vertex `v` (an index into [`FreeSpace::vertices`]).
    #[inline]
    pub fn wedges_at(&self, v: usize) -> &[Wedge] {
        &self.wedges[self.wedge_start[v] as usize..self.wedge_start[v + 1] as usize]
    }

    /// The wedge ids at vertex `v`.
    #[inline]
    pub fn wedge_range(&self, v: u32) -> std::ops::Range<usize> {
        self.wedge_start[v as usize] as usize..self.wedge_start[v as usize + 1] as usize
    }

    /// The walls (indices into `walls`) that end at vertex `v`.
    #[inline]
    pub fn incident_walls(&self, v: u32) -> &[u32] {
        &self.incident
            [self.incident_start[v as usize] as usize..self.incident_start[v as usize + 1] as usize]
    }

    /// The end points of wall `w`.
    #[inline]
    pub fn wall_points(&self, w: u32) -> (Point, Point) {
        let w = self.walls[w as usize];
        (self.points[w.a as usize], self.points[w.b as usize])
    }

    /// The index of the vertex at exactly `p`, if any.
    #[inline]
    pub fn vertex_at(&self, p: Point) -> Option<usize> {
        self.point_ids.get(&point_key(p)).map(|&i| i as usize)
    }

    /// The environment's outer boundary.
    #[inline]
    pub fn boundary(&self) -> &Ring {
        &self.boundary
    }

    /// Bounding box of all walls.
    #[inline]
    pub fn bounds(&self) -> Aabb {
        self.grid.bounds()
    }

    /// On which sides of a straight path passing vertex `v` along `d` the free space may
    /// lie (0: the path cannot pass there).
    #[inline]
    pub fn passable_sides(&self, v: u32, d: Dir) -> u8 {
        self.wedge_range(v)
            .fold(0, |sides, w| sides | self.wedges[w].sides_through(d))
    }

    /// Where `p` lies on the walls (without checking that it is free).
    #[inline]
    pub fn place(&self, p: Point) -> Place {
        if let Some(v) = self.vertex_at(p) {
            return Place::Vertex(v as u32);
        }
        let mut found = Place::Free;
        self.grid.for_each_in_box(&Aabb::new(p, p), |wi| {
            let (a, b) = self.wall_points(wi);
            if point_on_segment(p, a, b) {
                found = Place::OnWall(wi);
            }
        });
        found
    }

    /// Whether the straight piece between two consecutive boundary points of a path runs
    /// along a thin wall.
    #[inline]
    pub fn thin_wall_between(&self, a: Place, b: Place) -> bool {
        let thin_with_end = |w: u32, v: u32| {
            let rec = self.walls[w as usize];
            rec.two_sided && (rec.a == v || rec.b == v)
        };
        match (a, b) {
            (Place::Vertex(a), Place::Vertex(b)) => self
                .incident_walls(b)
                .iter()
                .any(|&w| thin_with_end(w, a) && (a != b)),
            (Place::OnWall(w), Place::Vertex(v)) | (Place::Vertex(v), Place::OnWall(w)) => {
                thin_with_end(w, v)
            }
            (Place::OnWall(w1), Place::OnWall(w2)) => w1 == w2 && self.walls[w1 as usize].two_sided,
            _ => false,
        }
    }
}
