//! Line of sight on a layered map: does a point on one layer see a point on another,
//! through the connections between them? The segment (in the ground plane) is walked
//! through the ECM cells of its layer; where the walk first meets a wall, and that wall
//! lies on a connection which the segment crosses inside, the walk goes on in the layer
//! across, from the cell whose wall side holds the same crossing point. Nothing is built
//! beyond the layers' ECMs.
//!
//! The connections are closed in each layer's ECM (they lie on its walls), so a crossing
//! is a wall side the segment crosses transversally; every test is an exact orientation
//! test on the segment's end points and the ECM's own points.

use super::cells::Across;
use super::sight::Exit;
use super::VisibilityError;
use crate::graph::{CellRef, Ecm};
use crate::layers::{LayeredEcmError, LayeredMap};
use corridor_geom::{orient, LayerId, Orientation, Point, Segment};

const CCW: Orientation = Orientation::CounterClockwise;
const CW: Orientation = Orientation::Clockwise;
const COL: Orientation = Orientation::Collinear;

/// Why a layered line-of-sight query has no answer.
#[derive(Debug, thiserror::Error)]
pub enum LayeredSightError {
    /// A layer the map does not have.
    #[error(transparent)]
    Layer(#[from] LayeredEcmError),
    /// The viewpoint is not free on its layer, or a point is not finite.
    #[error(transparent)]
    Point(#[from] VisibilityError),
}

/// Whether `p` on layer `from` sees `q` on layer `to`: the closed ground-plane segment
/// `p q` touches no wall of the layers it passes through, and passes from layer to layer
/// only across the inside of a connection, ending on layer `to`. On one layer, with no
/// connection crossed, this is [`Ecm::line_of_sight`].
///
/// ```
/// use corridor_ecm::{layered_line_of_sight, LayeredEcm};
/// use corridor_geom::{Environment, HeightPlane, Layer, LayeredEnvironment, Point, Segment};
/// let mut world = LayeredEnvironment::new();
/// let hall = world.add_layer(Layer::new("hall",
///     Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 4.0)), HeightPlane::flat(0.0)));
/// let ramp = world.add_layer(Layer::new("ramp",
///     Environment::rectangle(Point::new(10.0, 0.0), Point::new(15.0, 4.0)), HeightPlane::new(0.2, 0.0, -2.0)));
/// world.connect(hall, ramp, Segment::new(Point::new(10.0, 1.0), Point::new(10.0, 3.0))).unwrap();
/// let ecm = LayeredEcm::build(&world).unwrap();
/// // Through the doorway, and not through the wall beside it.
/// assert!(layered_line_of_sight(&ecm, hall, Point::new(5.0, 2.0), ramp, Point::new(14.0, 2.5)).unwrap());
/// assert!(!layered_line_of_sight(&ecm, hall, Point::new(5.0, 0.5), ramp, Point::new(14.0, 0.5)).unwrap());
/// ```
///
/// # Errors
/// [`LayeredSightError::Layer`] for a layer the map does not have;
/// [`LayeredSightError::Point`] when `p` is not free on `from` or `q` is not finite (a
/// finite `q` outside the free space is simply not seen).
pub fn layered_line_of_sight(
    map: &impl LayeredMap,
    from: LayerId,
    p: Point,
    to: LayerId,
    q: Point,
) -> Result<bool, LayeredSightError> {
    if !q.is_finite() {
        return Err(VisibilityError::NotFinite { point: q }.into());
    }
    map.layer_ecm(to)?;
    let ecm = map.layer_ecm(from)?;
    let located = ecm.locate_free(p).map_err(VisibilityError::from)?;
    let (mut cell, _) = ecm
        .home_cell(p, located)
        .ok_or(VisibilityError::NotInFreeSpace { point: p })?;
    let (mut layer, mut entry) = (from, None);
    // A segment crosses each connection's line at most once.
    for _ in 0..=map.world().connections().len() {
        let ecm = map.layer_ecm(layer)?;
        let (u, v) = match ecm.sight_walk(p, q, cell, entry)? {
            Exit::Seen => return Ok(layer == to),
            Exit::Blocked => return Ok(false),
            Exit::Wall(u, v) => (u, v),
        };
        let crossed = map.world().connections_of(layer).find(|(_, c)| {
            let s = c.segment;
            orient(s.a, s.b, u) == COL && orient(s.a, s.b, v) == COL && crosses_inside(s, p, q)
        });
        let Some((id, connection)) = crossed else {
            return Ok(false);
        };
        let Some(next) = connection.other(layer) else {
            return Ok(false);
        };
        let side = map.entry_side(id, next)?;
        match entry_cell(map.layer_ecm(next)?, connection.segment, side, p, q) {
            Some((n, j)) => (layer, cell, entry) = (next, n, Some(j)),
            // The crossing point is a corner of the next layer's cells: a wall end (the
            // segment touches that wall) or, rarely, a spoke's foot on the connection,
            // which this walk does not yet pass (answered as blocked).
            None => return Ok(false),
        }
    }
    Ok(false)
}

/// Whether the segment `p q` crosses the line of `c` from one side to the other, inside
/// the open segment `c`.
fn crosses_inside(c: Segment, p: Point, q: Point) -> bool {
    let (oa, ob) = (orient(p, q, c.a), orient(p, q, c.b));
    let (op, oq) = (orient(c.a, c.b, p), orient(c.a, c.b, q));
    oa != COL && ob != COL && oa != ob && op != COL && oq != COL && op != oq
}

/// The cell of `ecm` that the segment `p q` enters across connection `c` (its layer free
/// on `side` of `c`), and the wall side it enters by: a side on the line of `c` that the
/// segment crosses inside, into the cell. Found by locating a point just across `c` and
/// looking through the cells around it (the test itself is exact).
fn entry_cell(
    ecm: &Ecm,
    c: Segment,
    side: Orientation,
    p: Point,
    q: Point,
) -> Option<(CellRef, u8)> {
    let (d, e) = (q - p, c.b - c.a);
    let t = (c.a - p).perp_dot(e) / d.perp_dot(e);
    let x = p + d * t;
    let normal = if side == CCW { e.perp() } else { -e.perp() }.normalize();
    let scale = e.length().max(x.abs().max_element()).max(1.0);
    let located = [1e-9, 1e-7, 1e-5]
        .iter()
        .find_map(|eps| ecm.locate_free(x + normal * (eps * scale)).ok())?;
    let enters = |cell: CellRef| {
        let piece = ecm.piece(cell)?;
        (0..4).find_map(|j| {
            let (u, v) = (piece.corners[j], piece.corners[(j + 1) % 4]);
            (piece.across[j] == Across::Wall
                && orient(c.a, c.b, u) == COL
                && orient(c.a, c.b, v) == COL
                && orient(p, q, u) == CCW
                && orient(p, q, v) == CW
                && orient(u, v, q) == CCW
                && orient(u, v, p) == CW)
                .then_some(j as u8)
        })
    };
    // Breadth first over the pieces around the located one (the point just across may
    // fall in a neighbour of the piece that holds the crossing).
    let mut seen = vec![located];
    let mut next = 0;
    while next < seen.len() && next < 64 {
        let cell = seen[next];
        next += 1;
        if let Some(j) = enters(cell) {
            return Some((cell, j));
        }
        let piece = ecm.piece(cell)?;
        for j in 0..4 {
            if let Across::Piece(n, _) = ecm.resolve(cell, piece.across[j]) {
                if !seen.contains(&n) {
                    seen.push(n);
                }
            }
        }
    }
    None
}
