//! The trapezoidal map of the free space, its O(log n) point location, and a roadmap
//! for (not shortest) paths.
//!
//! [`TrapezoidalMap::build`] takes the walls of an
//! [`Environment`] (through
//! [`corridor_geom::FreeSpace`], which merges touching obstacles exactly) and cuts
//! the plane into trapezoids by randomized incremental construction with a seeded
//! order, keeping the search DAG: expected O(n log n) time, O(n) size and O(log n)
//! expected query time. Trapezoids inside obstacles or outside the boundary are marked
//! blocked; the free ones form the [`Roadmap`] (centres and middles of shared vertical
//! sides), and [`TrapezoidalMap::path`] walks it.
//!
//! Points with equal x are handled by the standard symbolic shear (points compared by
//! x, then y), so vertical walls and grid maps need no special case; every test is
//! exact. A start or goal on a wall is located by nudging it symbolically into one of
//! its free wedges.
//!
//! ```
//! use corridor_geom::{Environment, Obstacle, Point};
//! use corridor_trapmap::TrapezoidalMap;
//! let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
//! env.insert(Obstacle::rectangle(Point::new(4.0, 0.0), Point::new(6.0, 8.0)));
//! let map = TrapezoidalMap::build(&env).unwrap();
//! let (s, f) = (Point::new(1.0, 1.0), Point::new(9.0, 1.0));
//! let path = map.path(s, f).unwrap();
//! assert_eq!((path.points[0], *path.points.last().unwrap()), (s, f));
//! // Every piece is free, and the path is longer than the shortest one (≈ 17.23).
//! assert!(path.segments().all(|seg| map.free_space().segment_is_free(seg.a, seg.b)));
//! assert!(path.length > 17.2);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

mod error;
mod map;
mod query;
mod roadmap;
mod shape;

pub use corridor_geom::Endpoint;
use corridor_geom::{Environment, Point, Segment};
pub use corridor_geom::{FreeSpace, PointClass};
pub use error::{BuildError, QueryError};
use map::{Decomposition, NONE};
pub use query::RoadmapPath;
pub use roadmap::Roadmap;

/// One trapezoid of the map, in real coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trapezoid {
    /// Its number (stable for one map).
    pub id: usize,
    /// The wall above it (`None`: the frame around everything).
    pub top: Option<Segment>,
    /// The wall below it.
    pub bottom: Option<Segment>,
    /// The point whose vertical line bounds it on the left.
    pub left_point: Point,
    /// The point whose vertical line bounds it on the right.
    pub right_point: Point,
    /// Whether it lies in the free space (not in an obstacle, not outside the boundary).
    pub free: bool,
    /// Its corners, counter-clockwise from the lower left (a sliver between two points
    /// of equal x has collinear corners).
    pub corners: [Point; 4],
}

/// The trapezoidal map of an environment's free space.
#[derive(Clone, Debug)]
pub struct TrapezoidalMap {
    free_space: FreeSpace,
    map: Decomposition,
    free: Vec<bool>,
    /// Roadmap node of each free trapezoid's centre.
    centre_node: Vec<u32>,
    roadmap: Roadmap,
}

impl TrapezoidalMap {
    /// The map of an environment with the default seed (0).
    ///
    /// # Errors
    /// [`BuildError::FreeSpace`]: see [`FreeSpace::from_environment`].
    pub fn build(env: &Environment) -> Result<Self, BuildError> {
        Self::build_seeded(env, 0)
    }

    /// The map of an environment, inserting the walls in the random order drawn from
    /// `seed`.
    ///
    /// # Errors
    /// [`BuildError::FreeSpace`]: see [`FreeSpace::from_environment`].
    pub fn build_seeded(env: &Environment, seed: u64) -> Result<Self, BuildError> {
        Ok(Self::from_free_space(
            FreeSpace::from_environment(env)?,
            seed,
        ))
    }

    /// The map of an already built free space.
    pub fn from_free_space(free_space: FreeSpace, seed: u64) -> Self {
        let map = Decomposition::build(&free_space, seed);
        let n = map.traps.len();
        let mut free = vec![false; n];
        for (t, is_free) in free.iter_mut().enumerate() {
            if !map.alive(t as u32) {
                continue;
            }
            let tr = map.traps[t];
            let (top, bottom) = (map.segs[tr.top as usize], map.segs[tr.bottom as usize]);
            *is_free = if top.wall != NONE {
                top.free_below
            } else {
                bottom.wall != NONE && bottom.free_above
            };
        }
        let mut roadmap = Roadmap::default();
        let mut centre_node = vec![NONE; n];
        for t in 0..n {
            if free[t] {
                centre_node[t] = roadmap.add_node(map.centre(t as u32));
            }
        }
        for t in 0..n {
            if !free[t] {
                continue;
            }
            let tr = map.traps[t];
            let mut rights = [tr.ur, tr.lr];
            if rights[0] == rights[1] {
                rights[1] = NONE;
            }
            for r in rights {
                if r != NONE && free[r as usize] {
                    let door = roadmap.add_node(map.door(t as u32, r));
                    roadmap.add_edge(centre_node[t], door);
                    roadmap.add_edge(door, centre_node[r as usize]);
                }
            }
        }
        roadmap.finish();
        TrapezoidalMap {
            free_space,
            map,
            free,
            centre_node,
            roadmap,
        }
    }

    /// The free space the map was built from.
    pub fn free_space(&self) -> &FreeSpace {
        &self.free_space
    }

    /// The roadmap.
    pub fn roadmap(&self) -> &Roadmap {
        &self.roadmap
    }

    /// The bytes the map alone occupies (without its free space): the struct plus the
    /// walls, trapezoids and DAG nodes of the decomposition, the free flags and the
    /// roadmap, counted from the vectors' capacities × element sizes.
    pub fn map_memory_bytes(&self) -> usize {
        use std::mem::size_of;
        size_of::<Self>() - size_of::<FreeSpace>()
            + self.map.memory_bytes()
            + self.free.capacity() * size_of::<bool>()
            + self.centre_node.capacity() * size_of::<u32>()
            + self.roadmap.memory_bytes()
    }

    /// The bytes the whole map occupies, its free space included (what a path query
    /// needs): [`TrapezoidalMap::map_memory_bytes`] plus [`FreeSpace::memory_bytes`].
    ///
    /// ```
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// use corridor_trapmap::TrapezoidalMap;
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
    /// env.insert(Obstacle::rectangle(Point::new(4.0, 4.0), Point::new(6.0, 6.0)));
    /// let map = TrapezoidalMap::build(&env).unwrap();
    /// assert_eq!(
    ///     map.memory_bytes(),
    ///     map.map_memory_bytes() + map.free_space().memory_bytes()
    /// );
    /// ```
    pub fn memory_bytes(&self) -> usize {
        self.map_memory_bytes() + self.free_space.memory_bytes()
    }

    /// Number of trapezoids (free and blocked).
    pub fn trapezoid_count(&self) -> usize {
        (0..self.map.traps.len() as u32)
            .filter(|&t| self.map.alive(t))
            .count()
    }

    /// Depth of the search DAG (the worst point-location cost).
    pub fn dag_depth(&self) -> usize {
        self.map.depth()
    }

    /// Number of DAG nodes.
    pub fn dag_size(&self) -> usize {
        self.map.nodes.len()
    }

    /// Trapezoid `id`.
    ///
    /// # Panics
    /// If `id` is not a trapezoid of this map.
    pub fn trapezoid(&self, id: usize) -> Trapezoid {
        assert!(self.map.alive(id as u32), "no trapezoid {id}");
        let tr = self.map.traps[id];
        let wall = |s: u32| {
            let seg = self.map.segs[s as usize];
            (seg.wall != NONE).then(|| Segment::new(seg.p, seg.q))
        };
        Trapezoid {
            id,
            top: wall(tr.top),
            bottom: wall(tr.bottom),
            left_point: tr.leftp,
            right_point: tr.rightp,
            free: self.free[id],
            corners: self.map.corners(id as u32),
        }
    }

    /// All trapezoids (for drawing), free and blocked; the frame's outer ones included.
    pub fn trapezoids(&self) -> impl Iterator<Item = Trapezoid> + '_ {
        (0..self.map.traps.len())
            .filter(|&t| self.map.alive(t as u32))
            .map(|t| self.trapezoid(t))
    }

    /// The trapezoid whose interior holds `p` (in the sheared sense), found in the DAG:
    /// O(log n) expected. For a point on a wall or at a vertex this is one of the
    /// trapezoids touching it (ties go right and above).
    ///
    /// ```
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// use corridor_trapmap::TrapezoidalMap;
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(4.0, 4.0));
    /// env.insert(Obstacle::rectangle(Point::new(1.0, 1.0), Point::new(3.0, 3.0)));
    /// let map = TrapezoidalMap::build(&env).unwrap();
    /// assert!(map.trapezoid(map.locate(Point::new(0.5, 2.0))).free);
    /// assert!(!map.trapezoid(map.locate(Point::new(2.0, 2.0))).free);
    /// assert!(map.trapezoid_contains(map.locate(Point::new(0.5, 2.0)), Point::new(0.5, 2.0)));
    /// ```
    pub fn locate(&self, p: Point) -> usize {
        self.map.locate(p, None) as usize
    }

    /// Whether `p` lies strictly inside trapezoid `id` (in the sheared sense). Exact;
    /// O(1). With it, point location can be checked by brute force.
    pub fn trapezoid_contains(&self, id: usize, p: Point) -> bool {
        self.map.alive(id as u32) && self.map.contains(id as u32, p)
    }
}
