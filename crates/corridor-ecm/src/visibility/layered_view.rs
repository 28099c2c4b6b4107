//! What a point sees on a layered map: the visibility polygon's walk through the ECM cells
//! of the point's layer, going on through connections into the layers across. Where the
//! walk meets a wall side that lies on a connection, the part of the view that the
//! connection shows is cut out (exact orientation tests against the connection's end
//! points) and walked again in the layer across, from the cells whose wall sides lie on
//! the connection, with the view cone narrowed to that part. Nothing is built beyond the
//! layers' ECMs.
//!
//! Each walk gives one region: the root's is star-shaped around the viewpoint; a region
//! seen through a connection is bounded by that connection on its near side. A ray from
//! the viewpoint crosses each connection's line at most once, so the regions of one layer
//! never overlap and the walks end.

use super::cells::Across;
use super::polygon::{drop_vertices, ray_hit, Seen, Step, WallView};
use super::{LayeredSightError, VisibilityError};
use crate::graph::{CellRef, Ecm};
use crate::layers::LayeredMap;
use corridor_geom::{orient, ConnectionId, FxHashSet, LayerId, Orientation, Point, Segment};
use std::collections::VecDeque;

const CCW: Orientation = Orientation::CounterClockwise;
const CW: Orientation = Orientation::Clockwise;
const COL: Orientation = Orientation::Collinear;

/// What an edge of a [`VisibleRegion`] runs along.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegionEdge {
    /// A wall of the region's layer.
    Wall,
    /// A window: a ray from the viewpoint past a corner, with free space beyond.
    Window,
    /// A connection: the view goes on in the layer across (or, on a region's near side,
    /// came from there).
    Connection,
    /// An arc of the range circle ([`super::layered_visibility_within`]), counter-clockwise
    /// around the viewpoint (all the way round when the region has one corner).
    Arc,
    /// A side of the field-of-view cone: along a ray from the viewpoint.
    Cone,
}

/// One region seen on one layer: a simple polygon, counter-clockwise, in user units
/// (ground plane); edge `i` runs from vertex `i` to vertex `i + 1` (cyclically).
#[derive(Clone, Debug, PartialEq)]
pub struct VisibleRegion {
    pub(super) layer: LayerId,
    pub(super) vertices: Vec<Point>,
    pub(super) kinds: Vec<RegionEdge>,
    /// The range circle's centre and radius, when the view was limited to one.
    pub(super) circle: Option<(Point, f64)>,
}

impl VisibleRegion {
    /// The layer the region lies on.
    pub fn layer(&self) -> LayerId {
        self.layer
    }

    /// The corners, counter-clockwise.
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// What edge `i` (from vertex `i` to vertex `i + 1`) runs along.
    pub fn kinds(&self) -> &[RegionEdge] {
        &self.kinds
    }

    /// The edges as (from, to, kind).
    pub fn edges(&self) -> impl Iterator<Item = (Point, Point, RegionEdge)> + '_ {
        let n = self.vertices.len();
        (0..n).map(move |i| (self.vertices[i], self.vertices[(i + 1) % n], self.kinds[i]))
    }

    /// The range circle's centre (the viewpoint) and radius, when the view was limited.
    pub fn circle(&self) -> Option<(Point, f64)> {
        self.circle
    }

    /// The area (shoelace over the corners; an arc adds the circular segment between it
    /// and its chord).
    pub fn area(&self) -> f64 {
        let o = self.vertices.first().copied().unwrap_or(Point::ZERO);
        let (c, r) = self.circle.unwrap_or((o, 0.0));
        let n = self.vertices.len();
        self.edges()
            .map(|(a, b, kind)| {
                let chord = (a - o).perp_dot(b - o);
                if kind != RegionEdge::Arc {
                    return chord;
                }
                let (u, v) = (a - c, b - c);
                let turn = if n == 1 {
                    std::f64::consts::TAU
                } else {
                    (v.y.atan2(v.x) - u.y.atan2(u.x)).rem_euclid(std::f64::consts::TAU)
                };
                chord + r * r * (turn - turn.sin())
            })
            .sum::<f64>()
            * 0.5
    }
}

/// The region seen from a point of a layered map: per layer, the parts seen there
/// ([`layered_visibility`]). The first region is the one around the viewpoint.
#[derive(Clone, Debug, PartialEq)]
pub struct LayeredView {
    pub(super) origin: (LayerId, Point),
    pub(super) regions: Vec<VisibleRegion>,
}

impl LayeredView {
    /// The viewpoint and its layer.
    pub fn origin(&self) -> (LayerId, Point) {
        self.origin
    }

    /// Every region, the viewpoint's first, then in the order the walk reached them.
    pub fn regions(&self) -> &[VisibleRegion] {
        &self.regions
    }

    /// The regions on `layer`.
    pub fn on_layer(&self, layer: LayerId) -> impl Iterator<Item = &VisibleRegion> + '_ {
        self.regions.iter().filter(move |r| r.layer == layer)
    }

    /// The area seen on `layer`.
    pub fn area_on(&self, layer: LayerId) -> f64 {
        self.on_layer(layer).map(VisibleRegion::area).sum()
    }
}

/// The region seen from the free point `q` of layer `from`, on its own layer and, through
/// connections, on the layers across (the closure, as [`Ecm::visibility_polygon`]; a view
/// through a connection follows [`super::layered_line_of_sight`]'s rule: a ray passes into
/// the layer across where it crosses the inside of a connection towards that layer's free
/// side).
///
/// ```
/// use corridor_ecm::{layered_visibility, LayeredEcm, RegionEdge};
/// use corridor_geom::{Environment, HeightPlane, Layer, LayeredEnvironment, Point, Segment};
/// let mut world = LayeredEnvironment::new();
/// let hall = world.add_layer(Layer::new("hall",
///     Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 4.0)), HeightPlane::flat(0.0)));
/// let ramp = world.add_layer(Layer::new("ramp",
///     Environment::rectangle(Point::new(10.0, 0.0), Point::new(15.0, 4.0)), HeightPlane::new(0.2, 0.0, -2.0)));
/// world.connect(hall, ramp, Segment::new(Point::new(10.0, 0.0), Point::new(10.0, 4.0))).unwrap();
/// let ecm = LayeredEcm::build(&world).unwrap();
/// let view = layered_visibility(&ecm, hall, Point::new(5.0, 2.0)).unwrap();
/// // The whole hall, and the ramp seen through the doorway as wide as the wall.
/// assert!((view.area_on(hall) - 40.0).abs() < 1e-9);
/// assert!((view.area_on(ramp) - 20.0).abs() < 1e-9);
/// assert!(view.regions()[0].kinds().contains(&RegionEdge::Connection));
/// ```
///
/// # Errors
/// [`LayeredSightError::Layer`] for a layer the map does not have;
/// [`LayeredSightError::Point`] when `q` is not free on `from`.
pub fn layered_visibility(
    map: &impl LayeredMap,
    from: LayerId,
    q: Point,
) -> Result<LayeredView, LayeredSightError> {
    let ecm = map.layer_ecm(from)?;
    let located = ecm.locate_free(q).map_err(VisibilityError::from)?;
    let mut stack = ecm.start_steps(q, located)?;
    let mut regions = Vec::new();
    let mut todo = VecDeque::new();
    let parts = walk(map, 0, from, q, &mut stack, &mut todo)?;
    regions.push(region(from, &parts, None));
    // Every cone narrows at each connection and a ray crosses a connection once; the bound
    // only guards a broken map.
    let limit = (map.world().connections().len() + 1) * (ecm.cells.len() + 16);
    while let Some(cone) = todo.pop_front() {
        if regions.len() > limit {
            break;
        }
        let ecm = map.layer_ecm(cone.layer)?;
        let side = map.entry_side(cone.connection, cone.layer)?;
        let mut stack = entry_steps(ecm, cone.segment, side, q, cone.r, cone.l);
        if stack.is_empty() {
            continue;
        }
        let parts = walk(map, regions.len(), cone.layer, q, &mut stack, &mut todo)?;
        let near = (
            on_connection(q, cone.l, cone.segment),
            on_connection(q, cone.r, cone.segment),
        );
        regions.push(region(cone.layer, &parts, Some(near)));
    }
    Ok(LayeredView {
        origin: (from, q),
        regions,
    })
}

/// Where the ray from `q` through `d` crosses the connection `c` (exact at its ends).
fn on_connection(q: Point, d: Point, c: Segment) -> Point {
    if d == c.a || d == c.b {
        d
    } else {
        ray_hit(q, d, c.a, c.b)
    }
}

/// The view through a connection, to walk in the layer across.
struct Cone {
    layer: LayerId,
    connection: ConnectionId,
    segment: Segment,
    /// The rays' points: clockwise and counter-clockwise bounds.
    r: Point,
    l: Point,
    /// The region whose walk queued it.
    from_walk: usize,
}

/// A part of a region's far side, in angular order.
#[derive(Clone, Copy, Debug)]
struct Part {
    seen: Seen,
    kind: RegionEdge,
}

/// Runs the walk of one region on `layer` and splits the wall parts that lie on
/// connections, queueing the views through them.
fn walk(
    map: &impl LayeredMap,
    walk_id: usize,
    layer: LayerId,
    q: Point,
    stack: &mut Vec<Step>,
    todo: &mut VecDeque<Cone>,
) -> Result<Vec<Part>, LayeredSightError> {
    let ecm = map.layer_ecm(layer)?;
    let connections: Vec<(ConnectionId, Segment, Option<LayerId>)> = map
        .world()
        .connections_of(layer)
        .map(|(id, c)| (id, c.segment, c.other(layer)))
        .collect();
    let mut parts = Vec::new();
    ecm.expand(q, stack, &mut |w: WallView| {
        let on = connections
            .iter()
            .find(|(_, s, _)| orient(s.a, s.b, w.u) == COL && orient(s.a, s.b, w.v) == COL);
        let Some(&(id, s, other)) = on else {
            parts.push(Part {
                seen: w.seen,
                kind: RegionEdge::Wall,
            });
            return;
        };
        // The connection's ends in angular order around `q` (the side faces away from `q`,
        // so `q` is not on its line).
        let (e0, e1) = if orient(q, s.a, s.b) == CCW {
            (s.a, s.b)
        } else {
            (s.b, s.a)
        };
        let (lo, hi) = (w.lo, w.hi);
        let at = |x: Point, end: Point, seen_end: Point| if x == end { seen_end } else { x };
        // Before the connection: the wall up to `e0`.
        if orient(q, lo, e0) == CCW {
            let h = if orient(q, e0, hi) == CCW { e0 } else { hi };
            parts.push(Part {
                seen: Seen {
                    b: at(h, hi, w.seen.b),
                    b_junction: h == hi && w.seen.b_junction,
                    ..w.seen
                },
                kind: RegionEdge::Wall,
            });
        }
        // On the connection.
        let r = if orient(q, lo, e0) == CCW { e0 } else { lo };
        let l = if orient(q, e1, hi) == CCW { e1 } else { hi };
        if orient(q, r, l) == CCW {
            parts.push(Part {
                seen: Seen {
                    a: at(r, lo, w.seen.a),
                    b: at(l, hi, w.seen.b),
                    a_junction: false,
                    b_junction: false,
                },
                kind: RegionEdge::Connection,
            });
            if let Some(layer) = other {
                // The cell sides along one connection come one after another: one cone.
                match todo.back_mut() {
                    Some(last)
                        if last.connection == id && last.l == r && last.from_walk == walk_id =>
                    {
                        last.l = l
                    }
                    _ => todo.push_back(Cone {
                        layer,
                        connection: id,
                        segment: s,
                        r,
                        l,
                        from_walk: walk_id,
                    }),
                }
            }
        }
        // After the connection: the wall from `e1`.
        if orient(q, e1, hi) == CCW {
            let a = if orient(q, lo, e1) == CCW { e1 } else { lo };
            parts.push(Part {
                seen: Seen {
                    a: at(a, lo, w.seen.a),
                    a_junction: a == lo && w.seen.a_junction,
                    ..w.seen
                },
                kind: RegionEdge::Wall,
            });
        }
    });
    Ok(parts)
}

/// The walk's first steps in a layer entered through connection `c` (the layer free on
/// `side` of it), looking between the rays to `r` and `l`: every cell whose wall side lies
/// on the connection's line, faces away from `q` and shows part of the cone, the last in
/// angular order first. Found from a point located just across the connection and the
/// cells around it that touch the connection (the tests themselves are exact).
fn entry_steps(
    ecm: &Ecm,
    c: Segment,
    side: Orientation,
    q: Point,
    r: Point,
    l: Point,
) -> Vec<Step> {
    let (x, y) = (on_connection(q, r, c), on_connection(q, l, c));
    let mid = (x + y) * 0.5;
    let e = c.b - c.a;
    let normal = if side == CCW { e.perp() } else { -e.perp() }.normalize();
    let scale = e.length().max(mid.abs().max_element()).max(1.0);
    let Some(located) = [1e-9, 1e-7, 1e-5]
        .iter()
        .find_map(|eps| ecm.locate_free(mid + normal * (eps * scale)).ok())
    else {
        return Vec::new();
    };
    let touches =
        |p: Point| orient(c.a, c.b, p) == COL && (p - c.a).dot(e) >= 0.0 && (p - c.b).dot(e) <= 0.0;
    let mut entries: Vec<(CellRef, u8, Point, Point)> = Vec::new();
    let mut seen = FxHashSet::default();
    seen.insert(located);
    let mut queue = vec![located];
    while let Some(cell) = queue.pop() {
        let Some(piece) = ecm.piece(cell) else {
            continue;
        };
        for j in 0..4 {
            let (u, v) = (piece.corners[j], piece.corners[(j + 1) % 4]);
            if piece.across[j] == Across::Wall
                && orient(c.a, c.b, u) == COL
                && orient(c.a, c.b, v) == COL
                && orient(q, u, v) == CW
            {
                // Seen from `q`, the side runs from `v` (clockwise) to `u`.
                let lo = if orient(q, r, v) == CCW { v } else { r };
                let hi = if orient(q, u, l) == CCW { u } else { l };
                if orient(q, lo, hi) == CCW {
                    entries.push((cell, j as u8, lo, hi));
                }
            }
        }
        // Go on through the cells that touch the connection (and a few around the start).
        if seen.len() > 16 && !piece.corners.iter().any(|&p| touches(p)) {
            continue;
        }
        for j in 0..4 {
            if let Across::Piece(n, _) = ecm.resolve(cell, piece.across[j]) {
                if seen.insert(n) {
                    queue.push(n);
                }
            }
        }
    }
    // Disjoint angular intervals inside a cone narrower than a half turn.
    entries.sort_by(|a, b| match orient(q, a.2, b.2) {
        CCW => std::cmp::Ordering::Less,
        CW => std::cmp::Ordering::Greater,
        COL => std::cmp::Ordering::Equal,
    });
    entries
        .iter()
        .rev()
        .map(|&(cell, entry, r, l)| Step::Enter { cell, entry, r, l })
        .collect()
}

/// The region from its far side's parts in angular order and, for a region seen through
/// a connection, the points where the cone's counter-clockwise and clockwise rays cross
/// it (its near side). Consecutive parts that do not meet are joined by a window; cell
/// junctions along one wall and vertices between collinear parts of one kind are dropped.
fn region(layer: LayerId, parts: &[Part], near: Option<(Point, Point)>) -> VisibleRegion {
    // (vertex, kind of the edge leaving it, junction)
    let mut ring: Vec<(Point, RegionEdge, bool)> = Vec::with_capacity(parts.len() * 2 + 2);
    let push = |ring: &mut Vec<(Point, RegionEdge, bool)>, p: Point, kind, junction| match ring
        .last_mut()
    {
        Some(last) if last.0 == p => {
            last.1 = kind;
            last.2 &= junction;
        }
        _ => ring.push((p, kind, junction)),
    };
    for part in parts {
        push(&mut ring, part.seen.a, part.kind, part.seen.a_junction);
        ring.push((part.seen.b, RegionEdge::Window, part.seen.b_junction));
    }
    if let Some((l, r)) = near {
        push(&mut ring, l, RegionEdge::Connection, false);
        ring.push((r, RegionEdge::Window, false));
    }
    if ring.len() > 1 && ring[0].0 == ring[ring.len() - 1].0 {
        let last = ring.pop().expect("two or more");
        ring[0].2 &= last.2;
    }
    let droppable = |prev: &(Point, RegionEdge, bool), cur: &(Point, RegionEdge, bool), next| {
        prev.1 == cur.1
            && cur.1 != RegionEdge::Window
            && (cur.2
                || (orient(prev.0, cur.0, next) == COL && (cur.0 - prev.0).dot(next - cur.0) > 0.0))
    };
    let out = drop_vertices(ring, droppable);
    VisibleRegion {
        layer,
        vertices: out.iter().map(|v| v.0).collect(),
        kinds: out.iter().map(|v| v.1).collect(),
        circle: None,
    }
}
