//! How high is a layer over a ground point when one plane is not enough? A
//! [`HeightField`]: the layer's surface as patches (the walkable parts of a terrain's
//! triangles), each with its own [`HeightPlane`], found by an R-tree. A flat floor or a
//! straight ramp needs no field: its [`HeightPlane`] is exact.

use super::HeightPlane;
use crate::{Point, Segment};
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{RTree, AABB};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a [`HeightField`] cannot be made from its patches.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum HeightFieldError {
    /// A patch ring has fewer than 3 points.
    #[error("height patch {patch}: ring {ring} has {points} points, at least 3 are needed")]
    ShortRing {
        /// The patch's index.
        patch: usize,
        /// The ring's index in the patch.
        ring: usize,
        /// How many points it has.
        points: usize,
    },
    /// A patch has no ring.
    #[error("height patch {0} has no ring")]
    Empty(usize),
    /// A coordinate or a plane coefficient is NaN or infinite.
    #[error("height patch {0} has a coordinate or plane coefficient that is not finite")]
    NonFinite(usize),
}

/// A piece of a layer's surface: a ground-plane region (rings under the even-odd rule:
/// the outline and its holes) on one plane.
///
/// ```
/// use corridor_geom::{HeightPatch, Point};
/// use glam::DVec3;
/// let t = HeightPatch::triangle([
///     DVec3::new(0.0, 0.0, 1.0), DVec3::new(4.0, 0.0, 3.0), DVec3::new(0.0, 4.0, 1.0),
/// ]).unwrap();
/// assert_eq!(t.plane.height_at(Point::new(2.0, 1.0)), 2.0);
/// assert_eq!(t.distance(Point::new(1.0, 1.0)), 0.0);
/// assert_eq!(t.distance(Point::new(-1.0, 1.0)), 1.0);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct HeightPatch {
    /// The region, ground-plane rings (closed implicitly), even-odd.
    pub rings: Vec<Vec<Point>>,
    /// Its height.
    pub plane: HeightPlane,
}

impl HeightPatch {
    /// The ground projection of a 3D triangle (x, y, z) with the plane through it; `None`
    /// when the projection is degenerate (a vertical triangle).
    pub fn triangle(corners: [glam::DVec3; 3]) -> Option<HeightPatch> {
        let [p, q, r] = corners;
        let plane = HeightPlane::through(p, q, r)?;
        Some(HeightPatch {
            rings: vec![corners.iter().map(|c| Point::new(c.x, c.y)).collect()],
            plane,
        })
    }

    /// Distance in the ground plane from `p` to the region (zero inside or on it).
    pub fn distance(&self, p: Point) -> f64 {
        let mut inside = false;
        let mut nearest = f64::INFINITY;
        for ring in &self.rings {
            for (k, &a) in ring.iter().enumerate() {
                let b = ring[(k + 1) % ring.len()];
                nearest = nearest.min(Segment::new(a, b).distance(p));
                if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x)
                {
                    inside = !inside;
                }
            }
        }
        if inside {
            0.0
        } else {
            nearest
        }
    }

    fn envelope(&self) -> AABB<[f64; 2]> {
        let points: Vec<[f64; 2]> = self.rings.iter().flatten().map(|p| [p.x, p.y]).collect();
        AABB::from_points(&points)
    }

    fn check(&self, index: usize) -> Result<(), HeightFieldError> {
        if self.rings.is_empty() {
            return Err(HeightFieldError::Empty(index));
        }
        for (r, ring) in self.rings.iter().enumerate() {
            if ring.len() < 3 {
                return Err(HeightFieldError::ShortRing {
                    patch: index,
                    ring: r,
                    points: ring.len(),
                });
            }
            if !ring.iter().all(|p| p.is_finite()) {
                return Err(HeightFieldError::NonFinite(index));
            }
        }
        if !self.plane.is_finite() {
            return Err(HeightFieldError::NonFinite(index));
        }
        Ok(())
    }
}

type Entry = GeomWithData<Rectangle<[f64; 2]>, usize>;

/// A layer's exact heights: patches that do not overlap in the ground plane, each on its
/// own plane, located by an R-tree of their bounding boxes. A point on no patch (a path
/// corner on a wall that snapping moved by a hair) takes the height of the nearest patch.
///
/// ```
/// use corridor_geom::{HeightField, HeightPatch, Point};
/// use glam::DVec3;
/// // A roof: two triangles over the unit square, the ridge along the diagonal.
/// let v = |x, y, z| DVec3::new(x, y, z);
/// let field = HeightField::new(vec![
///     HeightPatch::triangle([v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(1.0, 1.0, 1.0)]).unwrap(),
///     HeightPatch::triangle([v(0.0, 0.0, 0.0), v(1.0, 1.0, 1.0), v(0.0, 1.0, 0.0)]).unwrap(),
/// ]).unwrap();
/// assert_eq!(field.height_at(Point::new(0.8, 0.2)), Some(0.2));
/// assert_eq!(field.height_at(Point::new(0.2, 0.8)), Some(0.2));
/// assert_eq!(field.height_at(Point::new(0.5, 0.5)), Some(0.5));
/// assert_eq!(field.height_at(Point::new(2.0, 0.0)), Some(0.0)); // nearest: (1, 0)
/// ```
#[derive(Clone)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "Patches", into = "Patches"))]
pub struct HeightField {
    patches: Vec<HeightPatch>,
    tree: RTree<Entry>,
}

/// The stored form of a [`HeightField`]: its patches only (the tree is rebuilt).
#[cfg(feature = "serde")]
#[derive(Clone, Serialize, Deserialize)]
struct Patches {
    patches: Vec<HeightPatch>,
}

#[cfg(feature = "serde")]
impl TryFrom<Patches> for HeightField {
    type Error = HeightFieldError;
    fn try_from(p: Patches) -> Result<Self, Self::Error> {
        HeightField::new(p.patches)
    }
}

#[cfg(feature = "serde")]
impl From<HeightField> for Patches {
    fn from(f: HeightField) -> Self {
        Patches { patches: f.patches }
    }
}

impl HeightField {
    /// A field of `patches` (checked: at least one ring of 3 points each, all finite).
    pub fn new(patches: Vec<HeightPatch>) -> Result<HeightField, HeightFieldError> {
        for (k, patch) in patches.iter().enumerate() {
            patch.check(k)?;
        }
        let entries = patches
            .iter()
            .enumerate()
            .map(|(k, patch)| {
                let e = patch.envelope();
                GeomWithData::new(Rectangle::from_corners(e.lower(), e.upper()), k)
            })
            .collect();
        Ok(HeightField {
            patches,
            tree: RTree::bulk_load(entries),
        })
    }

    /// The patches, in the order given.
    pub fn patches(&self) -> &[HeightPatch] {
        &self.patches
    }

    /// The patch holding `p`, or else the nearest one, with its ground-plane distance to
    /// `p`; `None` for a field with no patch.
    pub fn locate(&self, p: Point) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        for (entry, box_d2) in self.tree.nearest_neighbor_iter_with_distance_2([p.x, p.y]) {
            if best.is_some_and(|(_, d)| box_d2.sqrt() > d) {
                break;
            }
            let d = self.patches[entry.data].distance(p);
            if best.is_none_or(|(_, bd)| d < bd) {
                best = Some((entry.data, d));
                if d == 0.0 {
                    break;
                }
            }
        }
        best
    }

    /// The height over ground point `p`: that of the patch holding it (or the nearest
    /// patch); `None` for a field with no patch.
    pub fn height_at(&self, p: Point) -> Option<f64> {
        self.locate(p)
            .map(|(k, _)| self.patches[k].plane.height_at(p))
    }
}

impl PartialEq for HeightField {
    fn eq(&self, other: &Self) -> bool {
        self.patches == other.patches
    }
}

impl fmt::Debug for HeightField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HeightField")
            .field("patches", &self.patches.len())
            .finish()
    }
}
