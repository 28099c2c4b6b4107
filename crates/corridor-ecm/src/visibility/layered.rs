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
    let located = locate(map, from, p, to, q)?;
    Ok(stretches(map, from, p, to, q, located)?.is_some())
}

/// Whether a disk of `radius` can move straight from `p` on layer `from` to `q` on layer
/// `to`: the segment sees through ([`layered_line_of_sight`]) and the part of it on each
/// layer stays at least `radius` from that layer's walls (touching is allowed, as in 2D),
/// the inside of the connections it crosses there not counting as walls (their ends do).
/// A radius of 0 is [`layered_line_of_sight`].
///
/// ```
/// use corridor_ecm::{layered_line_of_sight_with_radius, LayeredEcm};
/// use corridor_geom::{Environment, HeightPlane, Layer, LayeredEnvironment, Point, Segment};
/// let mut world = LayeredEnvironment::new();
/// let hall = world.add_layer(Layer::new("hall",
///     Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 4.0)), HeightPlane::flat(0.0)));
/// let ramp = world.add_layer(Layer::new("ramp",
///     Environment::rectangle(Point::new(10.0, 0.0), Point::new(15.0, 4.0)), HeightPlane::new(0.2, 0.0, -2.0)));
/// world.connect(hall, ramp, Segment::new(Point::new(10.0, 1.0), Point::new(10.0, 3.0))).unwrap();
/// let ecm = LayeredEcm::build(&world).unwrap();
/// let (p, q) = (Point::new(5.0, 1.8), Point::new(14.0, 2.2));
/// // Through the 2-wide doorway (its jambs 0.98 from the segment): a disk of radius 0.9
/// // passes, one of 1.1 does not.
/// assert!(layered_line_of_sight_with_radius(&ecm, hall, p, ramp, q, 0.9).unwrap());
/// assert!(!layered_line_of_sight_with_radius(&ecm, hall, p, ramp, q, 1.1).unwrap());
/// ```
///
/// # Errors
/// As [`layered_line_of_sight`], and [`LayeredSightError::Point`] with
/// [`VisibilityError::BadRadius`].
pub fn layered_line_of_sight_with_radius(
    map: &impl LayeredMap,
    from: LayerId,
    p: Point,
    to: LayerId,
    q: Point,
    radius: f64,
) -> Result<bool, LayeredSightError> {
    if !(radius.is_finite() && radius >= 0.0) {
        return Err(VisibilityError::BadRadius { radius }.into());
    }
    let located = locate(map, from, p, to, q)?;
    let Some(stretches) = stretches(map, from, p, to, q, located)? else {
        return Ok(false);
    };
    if radius == 0.0 {
        return Ok(true);
    }
    for s in &stretches {
        let ecm = map.layer_ecm(s.layer)?;
        if !ecm.capsule_clear(s.from, s.to, radius, s.cell, &s.crossed) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// For each candidate (a layer and a point), whether `p` on layer `from` sees it
/// ([`layered_line_of_sight`], `p` located once); a candidate on a layer the map does not
/// have, not finite, or outside the free space is not seen.
///
/// ```
/// use corridor_ecm::{layered_visible_points, LayeredEcm};
/// use corridor_geom::{Environment, HeightPlane, Layer, LayerId, LayeredEnvironment, Point, Segment};
/// let mut world = LayeredEnvironment::new();
/// let hall = world.add_layer(Layer::new("hall",
///     Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 4.0)), HeightPlane::flat(0.0)));
/// let ramp = world.add_layer(Layer::new("ramp",
///     Environment::rectangle(Point::new(10.0, 0.0), Point::new(15.0, 4.0)), HeightPlane::new(0.2, 0.0, -2.0)));
/// world.connect(hall, ramp, Segment::new(Point::new(10.0, 1.0), Point::new(10.0, 3.0))).unwrap();
/// let ecm = LayeredEcm::build(&world).unwrap();
/// let candidates = [(ramp, Point::new(14.0, 2.5)), (ramp, Point::new(14.0, 0.1)), (LayerId(7), Point::new(1.0, 1.0))];
/// let seen = layered_visible_points(&ecm, hall, Point::new(5.0, 2.0), &candidates).unwrap();
/// assert_eq!(seen, vec![true, false, false]);
/// ```
///
/// # Errors
/// As [`layered_line_of_sight`] for `from` and `p`.
pub fn layered_visible_points(
    map: &impl LayeredMap,
    from: LayerId,
    p: Point,
    candidates: &[(LayerId, Point)],
) -> Result<Vec<bool>, LayeredSightError> {
    let located = locate(map, from, p, from, p)?;
    candidates
        .iter()
        .map(|&(to, q)| {
            if !q.is_finite() || map.layer_ecm(to).is_err() {
                return Ok(false);
            }
            Ok(stretches(map, from, p, to, q, located)?.is_some())
        })
        .collect()
}

/// Checks the query's layers and `q`, and locates `p` on `from`.
fn locate(
    map: &impl LayeredMap,
    from: LayerId,
    p: Point,
    to: LayerId,
    q: Point,
) -> Result<CellRef, LayeredSightError> {
    if !q.is_finite() {
        return Err(VisibilityError::NotFinite { point: q }.into());
    }
    map.layer_ecm(to)?;
    let ecm = map.layer_ecm(from)?;
    let located = ecm.locate_free(p).map_err(VisibilityError::from)?;
    let (cell, _) = ecm
        .home_cell(p, located)
        .ok_or(VisibilityError::NotInFreeSpace { point: p })?;
    Ok(cell)
}

/// The part of a segment that sees through on one layer.
struct Stretch {
    layer: LayerId,
    /// The cell the part starts in.
    cell: CellRef,
    from: Point,
    to: Point,
    /// The connections crossed at its ends.
    crossed: Vec<Segment>,
}

/// The segment `p q` walked from `cell` (which holds `p`) through the layers, one stretch
/// per layer, when it sees through and ends on layer `to`; `None` when it does not.
fn stretches(
    map: &impl LayeredMap,
    from: LayerId,
    p: Point,
    to: LayerId,
    q: Point,
    mut cell: CellRef,
) -> Result<Option<Vec<Stretch>>, LayeredSightError> {
    let (mut layer, mut entry) = (from, None);
    let (mut start, mut behind) = (p, None::<Segment>);
    let mut out = Vec::new();
    // A segment crosses each connection's line at most once.
    for _ in 0..=map.world().connections().len() {
        let ecm = map.layer_ecm(layer)?;
        let (u, v) = match ecm.sight_walk(p, q, cell, entry)? {
            Exit::Seen if layer == to => {
                out.push(Stretch {
                    layer,
                    cell,
                    from: start,
                    to: q,
                    crossed: behind.into_iter().collect(),
                });
                return Ok(Some(out));
            }
            Exit::Seen | Exit::Blocked => return Ok(None),
            Exit::Wall(u, v) => (u, v),
        };
        let crossed = map.world().connections_of(layer).find(|(_, c)| {
            let s = c.segment;
            orient(s.a, s.b, u) == COL && orient(s.a, s.b, v) == COL && crosses_inside(s, p, q)
        });
        let Some((id, connection)) = crossed else {
            return Ok(None);
        };
        let Some(next) = connection.other(layer) else {
            return Ok(None);
        };
        let c = connection.segment;
        let x = crossing(p, q, c);
        out.push(Stretch {
            layer,
            cell,
            from: start,
            to: x,
            crossed: behind.into_iter().chain([c]).collect(),
        });
        let side = map.entry_side(id, next)?;
        match entry_cell(map.layer_ecm(next)?, c, side, p, q) {
            Some((n, j)) => (layer, cell, entry) = (next, n, Some(j)),
            // The crossing point is a corner of the next layer's cells: a wall end (the
            // segment touches that wall) or, rarely, a spoke's foot on the connection,
            // which this walk does not yet pass (answered as blocked).
            None => return Ok(None),
        }
        (start, behind) = (x, Some(c));
    }
    Ok(None)
}

/// Where the line of `p q` meets the line of `c` (one rounding).
fn crossing(p: Point, q: Point, c: Segment) -> Point {
    let (d, e) = (q - p, c.b - c.a);
    p + d * ((c.a - p).perp_dot(e) / d.perp_dot(e))
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
    let e = c.b - c.a;
    let x = crossing(p, q, c);
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
