//! The snapped input of a normalization: the boundary, obstacle rings and open edges on
//! the integer grid, each edge tagged with its sources, in the form both routes read.

use super::snap::{snap_shape, snapped_boundary, SnappedShape};
use super::sources::{Tag, TagStore};
use super::{NormalizeError, WallSource};
use crate::{Environment, GridPoint, ObstacleId};
use i_overlay::i_float::int::point::IntPoint;

/// An open edge (from a polyline or a collapsed polygon), canonical `a < b`.
#[derive(Clone, Copy, Debug)]
pub(super) struct OpenEdge {
    pub(super) a: GridPoint,
    pub(super) b: GridPoint,
    pub(super) set: u32,
}

pub(super) struct Input {
    pub(super) store: TagStore,
    /// The boundary, counter-clockwise.
    pub(super) boundary: Vec<IntPoint<i32>>,
    /// Obstacle rings oriented so that each obstacle has winding −1 inside, 0 in holes.
    pub(super) polygons: Vec<(Vec<IntPoint<i32>>, Tag)>,
    pub(super) strings: Vec<OpenEdge>,
    pub(super) points: Vec<(GridPoint, u32)>,
}

impl Input {
    pub(super) fn new() -> Self {
        Input {
            store: TagStore::default(),
            boundary: Vec::new(),
            polygons: Vec::new(),
            strings: Vec::new(),
            points: Vec::new(),
        }
    }

    pub(super) fn collect(&mut self, env: &Environment) -> Result<(), NormalizeError> {
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
    pub(super) fn add_shape(&mut self, id: ObstacleId, shape: &SnappedShape) {
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

pub(super) fn ip(g: GridPoint) -> IntPoint<i32> {
    IntPoint::new(g.x, g.y)
}

pub(super) fn gp(p: IntPoint<i32>) -> GridPoint {
    GridPoint::new(p.x, p.y)
}

/// The supporting line of the non-empty segment `a b` (reduced direction with its first
/// nonzero component positive, and offset), then the positions of `a` and `b` along it.
/// Vertical: (0, 1), offset −x, position y; horizontal: (1, 0), offset y, position x (the
/// general formulas' values, without their 128-bit products).
#[inline]
pub(super) fn supporting_line(a: GridPoint, b: GridPoint) -> ((i64, i64, i128), i128, i128) {
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

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}
