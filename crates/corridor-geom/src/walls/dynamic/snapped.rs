//! The obstacles as a [`WallMap`](super::WallMap) keeps them: snapped to the grid, cut
//! into input edges with their boxes.

use crate::spatial::{boxed, Boxed};
use crate::walls::{snap_shape, SnappedShape};
use crate::{GridPoint, NormalizeError, Obstacle, ObstacleId, SnapGrid};
use rstar::{Envelope, AABB};

/// How far (grid steps) bounding boxes are grown when the group of interacting obstacles
/// is collected: rounded crossing points and the snapping of later splitting rounds move
/// edges by much less than this.
pub const GROUP_MARGIN: i64 = 16;

/// Obstacles with a slanted edge and at most this many input edges are indexed by their
/// box alone (see `WallMap::edge_tree`); larger ones edge by edge, so that a query near a
/// part of a large obstacle does not read all its edges.
pub(super) const SMALL_OBSTACLE: usize = 8;

/// What kind of input edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// An edge of the boundary or of a polygon ring, directed so that the winding number
    /// of its ring is what normalization counts (boundary counter-clockwise, obstacle
    /// exteriors clockwise, holes counter-clockwise).
    Ring,
    /// An open edge (of a polyline or a polygon that collapsed on the grid), `a < b`.
    Open,
    /// A point obstacle (`a == b`).
    Point,
}

/// One snapped input element as normalization sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Input {
    pub(super) a: GridPoint,
    pub(super) b: GridPoint,
    pub(super) kind: Kind,
    /// `None` for the boundary.
    pub(super) owner: Option<ObstacleId>,
}

impl Input {
    pub(super) fn item(self) -> Boxed<Input> {
        boxed(self.a, self.b, self)
    }

    pub(super) fn axis_parallel(self) -> bool {
        self.a.x == self.b.x || self.a.y == self.b.y
    }
}

/// An obstacle snapped to the grid, as normalization reads it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Snapped {
    pub(super) inputs: Vec<Input>,
    /// What normalization collects (see [`snap_shape`]).
    pub(super) shape: SnappedShape,
    pub(super) min: [i64; 2],
    pub(super) max: [i64; 2],
    pub(super) rectilinear: bool,
    pub(super) vertices: usize,
}

impl Snapped {
    pub(super) fn new(inputs: Vec<Input>, shape: SnappedShape, vertices: usize) -> Self {
        let mut min = [i64::MAX; 2];
        let mut max = [i64::MIN; 2];
        for i in &inputs {
            for p in [i.a, i.b] {
                min = [min[0].min(p.x as i64), min[1].min(p.y as i64)];
                max = [max[0].max(p.x as i64), max[1].max(p.y as i64)];
            }
        }
        let rectilinear = inputs.iter().all(|i| i.axis_parallel());
        Snapped {
            inputs,
            shape,
            min,
            max,
            rectilinear,
            vertices,
        }
    }

    pub(super) fn has_box(&self) -> bool {
        !self.inputs.is_empty()
    }

    /// Whether its edges are indexed by its box alone (see `WallMap::edge_tree`): a small
    /// obstacle with a slanted edge. Rectilinear ones (grid maps) stay indexed edge by
    /// edge: the window method's ray casts run along long rays through them, where a
    /// box lookup would read whole obstacles (measured: +12 k instructions per Aurora
    /// door).
    pub(super) fn is_small(&self) -> bool {
        !self.rectilinear && self.inputs.len() <= SMALL_OBSTACLE
    }
}

pub(super) fn push_ring(out: &mut Vec<Input>, ring: &[GridPoint], owner: Option<ObstacleId>) {
    let n = ring.len();
    out.reserve(n);
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if a != b {
            out.push(Input {
                a,
                b,
                kind: Kind::Ring,
                owner,
            });
        }
    }
}

fn push_open(out: &mut Vec<Input>, vertices: &[GridPoint], owner: Option<ObstacleId>) {
    let mut any = false;
    for w in vertices.windows(2) {
        if w[0] != w[1] {
            any = true;
            out.push(Input {
                a: w[0].min(w[1]),
                b: w[0].max(w[1]),
                kind: Kind::Open,
                owner,
            });
        }
    }
    if !any {
        if let Some(&p) = vertices.first() {
            out.push(Input {
                a: p,
                b: p,
                kind: Kind::Point,
                owner,
            });
        }
    }
}

/// The obstacle's input to normalization (as [`normalize`](crate::normalize) collects it).
pub(super) fn snap_obstacle(
    grid: &SnapGrid,
    id: ObstacleId,
    obstacle: &Obstacle,
) -> Result<Snapped, NormalizeError> {
    let who = Some(id);
    let (shape, vertices) = snap_shape(grid, id, obstacle)?;
    let mut inputs = Vec::new();
    match &shape {
        SnappedShape::Point(g) => inputs.push(Input {
            a: *g,
            b: *g,
            kind: Kind::Point,
            owner: who,
        }),
        SnappedShape::Open(v) => push_open(&mut inputs, v, who),
        SnappedShape::Rings(rings) => {
            for ring in rings {
                push_ring(&mut inputs, ring, who);
            }
        }
    }
    Ok(Snapped::new(inputs, shape, vertices))
}

/// Whether the box of an input edge meets `envelope` (as its R-tree entry would).
pub(super) fn box_meets(i: Input, envelope: &AABB<[i64; 2]>) -> bool {
    let (lo, hi) = bbox(i.a, i.b);
    AABB::from_corners(lo, hi).intersects(envelope)
}

/// Whether two closed boxes `(min, max)` share a point.
pub(super) fn boxes_meet((lo, hi): ([i64; 2], [i64; 2]), (l, h): ([i64; 2], [i64; 2])) -> bool {
    lo[0] <= h[0] && hi[0] >= l[0] && lo[1] <= h[1] && hi[1] >= l[1]
}

/// The bounding box of two points.
pub(super) fn bbox(a: GridPoint, b: GridPoint) -> ([i64; 2], [i64; 2]) {
    (
        [a.x.min(b.x) as i64, a.y.min(b.y) as i64],
        [a.x.max(b.x) as i64, a.y.max(b.y) as i64],
    )
}
