//! What a region is: a convex polygon of free space with a stable id, the four growing
//! sides and the obstacle lines it adopted, and its portals to neighbouring regions.

use crate::convex;
use corridor_geom::{Aabb, Point, Ring, Segment};
use std::fmt;

/// A stable region id: a slot and a generation, so an id is never reused for another
/// region even when its slot is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegionId {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl fmt::Display for RegionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}.{}", self.index, self.generation)
    }
}

/// One convex region of the decomposition.
///
/// ```
/// use corridor_asfv::{AsfvOptions, Decomposition};
/// use corridor_geom::{Environment, Point};
/// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 4.0));
/// let d = Decomposition::build(&env, &AsfvOptions::default()).unwrap();
/// let r = d.regions().next().unwrap();
/// assert!(r.polygon().len() >= 3);
/// assert!(r.area() > 0.0);
/// ```
#[derive(Clone, Debug)]
pub struct Region {
    pub(crate) id: RegionId,
    /// Growing sides: `[x_max, y_max, x_min, y_min]` (see `convex::Side`).
    pub(crate) offsets: [f64; 4],
    /// Obstacle lines adopted while growing (free side on the left of `a → b`).
    pub(crate) lines: Vec<(Point, Point)>,
    pub(crate) polygon: Vec<Point>,
    pub(crate) bbox: Aabb,
    /// The box the region is listed under in the bucket grid (grows with it).
    pub(crate) indexed: Aabb,
    pub(crate) active: [bool; 4],
    /// Neighbour slot and the shared boundary piece.
    pub(crate) neighbours: Vec<(u32, Point, Point)>,
}

impl Region {
    /// The stable id.
    pub fn id(&self) -> RegionId {
        self.id
    }

    /// The vertices, counter-clockwise, every turn a strict left turn.
    pub fn polygon(&self) -> &[Point] {
        &self.polygon
    }

    /// The polygon as a [`Ring`] (for drawing).
    pub fn ring(&self) -> Ring {
        Ring::new(self.polygon.clone())
    }

    /// Area.
    pub fn area(&self) -> f64 {
        convex::area(&self.polygon)
    }

    /// A point inside (the vertex average).
    pub fn centre(&self) -> Point {
        convex::centre(&self.polygon)
    }

    /// Bounding box.
    pub fn aabb(&self) -> Aabb {
        self.bbox
    }

    /// Number of obstacle lines the region adopted while growing (its order above a quad).
    pub fn adopted_lines(&self) -> usize {
        self.lines.len()
    }

    /// Whether `p` lies inside or on the region (exact).
    pub fn contains(&self, p: Point) -> bool {
        convex::point_inside_or_on(&self.polygon, p)
    }
}

/// A shared boundary piece of two regions: an edge of the connectivity graph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RegionPortal {
    /// The two regions, the smaller id first.
    pub regions: (RegionId, RegionId),
    /// The common boundary piece (positive length; endpoints are region vertices).
    pub segment: Segment,
}
