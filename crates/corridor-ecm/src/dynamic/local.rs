//! The local repair of the ECM after a change of the walls.
//!
//! # Why it is exact
//! Let `C` be the walls (segments and points, as sets of grid points) that the change
//! removed or added. A medial-axis point `q` of clearance `r` is *stable* if every
//! element of `C` is farther than `r` from it. A stable point has the same nearest walls,
//! the same annotation and the same neighbourhood in the old and the new diagram (nothing
//! within its clearance disc changed), so the stable parts of both medial axes coincide,
//! ECM vertices included. An old ECM edge all of whose points are stable is therefore an
//! edge of the new ECM, unchanged; these are the *kept* edges. Every other old edge is
//! *influenced* and removed. The test is conservative (a chord of bending points `a b`
//! is influenced when `C` comes within `ε` of the convex hull of the discs of radius
//! `r_a + deviation` around `a` and `r_b + deviation` around `b`: along a Voronoi arc the
//! clearance is convex in the parameter along the chord, so at most the interpolation of
//! `r_a` and `r_b`, and each arc point is within the sampling deviation of the chord
//! point of the same parameter), so it may remove a stable edge too, which is then
//! found again below.
//!
//! The new ECM is the kept edges plus a set `Y` of new edges. `Y` is taken from the
//! ECM `L` of the new walls that meet a box `B`: a point of `L` whose clearance disc lies
//! inside `B` has no other wall in its disc than the ones `L` was built from, so it is a
//! point of the new medial axis with the same annotation, and a vertex of `L` whose disc
//! lies inside `B` has the same incident edges as in the new ECM. An edge of `L` all of
//! whose chords have their discs (bounded as above) strictly inside `B` is *certified*:
//! it is an edge of the new ECM. `Y` is every certified edge of `L` that is not a kept
//! edge.
//!
//! # Open vertices
//! The local diagram has no frame around its walls (a frame of 4 far walls cost a fifth
//! of the Voronoi step), so some medial-axis edges of `L` are infinite: bisectors of two
//! wall end points on the convex hull of the local walls, on their free side. Extraction
//! does not trace them; it counts them at their finite end vertex, which is *open*, and
//! always makes that vertex a vertex of `L` (with the infinite edges counted, the degree
//! of every vertex is its degree in the diagram of the local walls, so a vertex is never
//! taken for a bending point). Two cases:
//! * an open vertex of degree ≠ 2 is a true vertex of `L`, but its infinite edges are
//!   missing from its list. They are never in `Y`, so check (1) fails at it as a new
//!   vertex (it counts them), and check (2) at an old end vertex does not look at `L`'s
//!   edges at all (only at the `Y` edge ends it gets);
//! * an open vertex of degree 2 is a bending point of the medial axis of the local walls
//!   where the chain through it runs off to infinity: an edge of `L` that ends there is
//!   only a part of an edge of that medial axis, so it is not certified (nor is a cut
//!   piece that ends there). The edge on its other side is infinite, so not certified
//!   either: no `Y` edge ends at such a vertex.
//!
//! Any other infinite medial-axis edge (there is none: in a segment Voronoi diagram an
//! infinite edge between two cells is the bisector of two points on the convex hull of
//! the sites, or the boundary between a segment and its end point) makes extraction
//! fail, and the update tries the next recovery transform. So every edge end that `L`
//! has at a vertex is either in its list or counted as open, and the checks below see
//! every edge of `L` as they would with a frame around the walls. That is all they
//! need: only certified parts of `L` go into the map, and those do not depend on any
//! wall outside their discs.
//!
//! `Y` is complete when (1) every vertex of `Y` that is not an old vertex has all of its
//! `L` edges in `Y`, (2) every old vertex where kept and influenced edges meet (an *end
//! vertex*, stable, so of the same degree in both maps) gets exactly as many `Y` edge
//! ends as it lost influenced ones, and (3) the cells of `Y` minus those of the removed
//! edges cover exactly the change of the free area (a whole missing component has an
//! area of at least half a grid step squared). A missing edge of the new ECM would break
//! (1) or (2) at one of its ends, or (3) if its whole component is missing. When a check
//! fails, `B` is doubled; after a few doublings the update falls back to a full rebuild.
//! The Voronoi diagram of `L` is validated on the edges of `Y` with the predicates of
//! the full build (equidistance, no closer wall, no inverted cell), with the same exact
//! transforms for recovery.
//!
//! # Cut edges
//! An influenced edge is often influenced only near one spot, and rebuilding it whole
//! needs the walls around all of it. So the first attempt rebuilds only its chords near
//! the change and a few stable chords on each side, up to the second Voronoi vertex
//! (extraction flags the bending points that are Voronoi vertices), and keeps the rest
//! of the edge: it is cut at a bending point `P` that is a vertex of the local Voronoi
//! diagram where a local edge passes through with its neighbour on the kept side equal
//! to the old edge's. `P` is then a Voronoi vertex of the new diagram whose disc is
//! stable, so also one of the old diagram: the old bending points on the kept side are
//! the samples of whole stable arcs (the sampling of an arc depends only on its ends and
//! its two sites), those of the new map. The kept
//! part is joined to the certified part of the local edge from `P` on (whole arcs of the
//! new map as well) into one new edge, up to a local vertex or another cut. The old
//! vertex at the kept end stays, and counts in (2) like an end vertex. When a planned
//! cut is not found, or a check fails, the update retries with whole edges.

use super::canonical::same_geometry;
use super::DynamicEcm;
use crate::build::finalize;
use crate::extract::{extract_open, voronoi, OpenVertex};
use crate::graph::{
    cell_corners, signed_area, BendingPoint, ComponentId, Ecm, Edge, EdgeId, Side, Vertex, VertexId,
};
use crate::index::{union, LogIndex, EMPTY_BOX};
use crate::validate::{nearest_on_segment, tolerance};
use corridor_geom::{DynamicTree, GridPoint, Point, WallDelta, WallKey, WallSegment, Walls};
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{Envelope, AABB};
use slotmap::SecondaryMap;
use smallvec::SmallVec;
use std::cell::Cell;
use std::collections::VecDeque;

/// FxHash maps: the keys (ids, grid coordinates, walls) are not chosen by an adversary,
/// and SipHash showed in the profiles of small updates.
type HashMap<K, V> = rustc_hash::FxHashMap<K, V>;
type HashSet<K> = rustc_hash::FxHashSet<K>;
use std::time::{Duration, Instant};

type SweepItem = GeomWithData<Rectangle<[f64; 2]>, EdgeId>;

/// What the local repair keeps next to the ECM: an index of the boxes that bound the
/// clearance discs of every edge (user coordinates), and the size and one vertex of every
/// component (so that components can be renumbered locally).
#[derive(Clone, Debug)]
pub(crate) struct UpdateIndex {
    sweep: Sweep,
    /// Vertices per component.
    sizes: Vec<u32>,
    /// A vertex of each component (checked before use; may be stale).
    representative: Vec<Option<VertexId>>,
}

/// The box that contains the clearance disc of every point of the arc between two
/// consecutive bending points (user units).
fn chord_box(a: &crate::BendingPoint, b: &crate::BendingPoint, deviation: f64) -> Aabb2 {
    let r = a.clearance.max(b.clearance) + deviation;
    Aabb2 {
        min: a.position.min(b.position) - Point::splat(r),
        max: a.position.max(b.position) + Point::splat(r),
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Aabb2 {
    min: Point,
    max: Point,
}

impl Aabb2 {
    const EMPTY: Aabb2 = Aabb2 {
        min: Point::splat(f64::INFINITY),
        max: Point::splat(f64::NEG_INFINITY),
    };

    fn union(self, o: Aabb2) -> Aabb2 {
        Aabb2 {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }

    fn expanded(self, m: f64) -> Aabb2 {
        Aabb2 {
            min: self.min - Point::splat(m),
            max: self.max + Point::splat(m),
        }
    }

    fn strictly_inside(&self, outer: &Aabb2) -> bool {
        self.min.x > outer.min.x
            && self.min.y > outer.min.y
            && self.max.x < outer.max.x
            && self.max.y < outer.max.y
    }
}

/// A part of the plane whose new walls a local diagram takes (user units): a box, or the
/// convex hull of the discs of radius `ra` around `a` and `rb` around `b` (a tapered
/// capsule, which holds the clearance discs along a chord with fewer walls than its box).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Zone {
    Box(Aabb2),
    Cone {
        a: Point,
        ra: f64,
        b: Point,
        rb: f64,
    },
}

/// The distance from `p` to the convex hull of the discs `(a, ra)` and `(b, rb)`, negative
/// inside (then minus the radius of a disc around `p` that fits inside). The hull is the
/// union of the discs around `a + s (b − a)` of radius `ra + s (rb − ra)`, `s` in
/// `[0, 1]`, and the distance is the smallest of `|p − c(s)| − r(s)`, a convex function of
/// `s`, whose minimum has a closed form. When one disc (nearly) holds the other, `lower`
/// chooses a bound from below (the capsule of the larger radius) or from above (the
/// nearer end disc).
fn cone_distance(p: Point, a: Point, ra: f64, b: Point, rb: f64, lower: bool) -> f64 {
    let d = b - a;
    let len = d.length();
    let k = if len > 0.0 { (rb - ra) / len } else { 1.0 };
    if len == 0.0 || 1.0 - k * k < 1e-9 {
        return if lower {
            p.distance(nearest_on_segment(a, b, p)) - ra.max(rb)
        } else {
            (p.distance(a) - ra).min(p.distance(b) - rb)
        };
    }
    let u = d / len;
    let rel = p - a;
    let x = rel.dot(u);
    let y = rel.perp_dot(u).abs();
    let s = ((x + k * y / (1.0 - k * k).sqrt()) / len).clamp(0.0, 1.0);
    p.distance(a + d * s) - (ra + s * (rb - ra))
}

impl Zone {
    /// The tapered capsule of the clearance discs along the arc between two bending
    /// points. Along a Voronoi arc the clearance is convex in the parameter along the
    /// chord (affine between two segments, convex between two points or a point and a
    /// segment), so it is at most the interpolation of the ends' clearances, and every arc
    /// point is within the deviation of the chord point of the same parameter: its disc
    /// lies in the disc around that chord point of the interpolated radius plus the
    /// deviation.
    fn chord(a: &BendingPoint, b: &BendingPoint, deviation: f64) -> Zone {
        Zone::Cone {
            a: a.position,
            ra: a.clearance + deviation,
            b: b.position,
            rb: b.clearance + deviation,
        }
    }

    fn bbox(&self) -> Aabb2 {
        match *self {
            Zone::Box(b) => b,
            Zone::Cone { a, ra, b, rb } => Aabb2 {
                min: (a - Point::splat(ra)).min(b - Point::splat(rb)),
                max: (a + Point::splat(ra)).max(b + Point::splat(rb)),
            },
        }
    }

    fn expanded(self, m: f64) -> Zone {
        match self {
            Zone::Box(b) => Zone::Box(b.expanded(m)),
            Zone::Cone { a, ra, b, rb } => Zone::Cone {
                a,
                ra: ra + m,
                b,
                rb: rb + m,
            },
        }
    }

    /// Whether the segment `p q` (user units) comes within the zone, with `slack` to
    /// spare (a box: whether the boxes meet, as for a wall's bounding box).
    ///
    /// For a cone, the smallest of `|x − c(s)| − r(s)` over points `x` of the segment and
    /// `s` in `[0, 1]` (convex in both) is on an edge of the parameter square (an end of
    /// the segment against the cone, or the segment against an end disc), or where the
    /// segment crosses the axis `a b`.
    fn meets(&self, p: Point, q: Point, slack: f64) -> bool {
        match *self {
            Zone::Box(b) => {
                let w = Aabb2 {
                    min: p.min(q),
                    max: p.max(q),
                };
                w.min.x <= b.max.x + slack
                    && w.min.y <= b.max.y + slack
                    && w.max.x >= b.min.x - slack
                    && w.max.y >= b.min.y - slack
            }
            Zone::Cone { a, ra, b, rb } => {
                if self.box_misses(p, q, slack) {
                    return false;
                }
                let r = ra.max(rb) + slack;
                let r = r + 1e-9 * (r + a.abs().max(b.abs()).max_element());
                // The cone lies in the capsule of radius `max(ra, rb)` around its axis, so a
                // segment farther than `r` from the axis misses it (most segments that
                // pass the box test; the four tests below cost twice this one).
                let axis = segment_distance(a, b, p, q);
                if axis > r {
                    return false;
                }
                let to_segment = |c: Point| c.distance(nearest_on_segment(p, q, c));
                axis <= 0.0
                    || cone_distance(p, a, ra, b, rb, true) <= slack
                    || cone_distance(q, a, ra, b, rb, true) <= slack
                    || to_segment(a) - ra <= slack
                    || to_segment(b) - rb <= slack
            }
        }
    }

    /// The first test of [`Zone::meets`] for a cone (`false` for a box): every way of
    /// meeting the cone passes within `max(ra, rb) + slack` of the axis, so a segment
    /// whose box is farther in x or y is out (with a margin for rounding). Cheap, and
    /// inlined where most segments fail it.
    #[inline(always)]
    fn box_misses(&self, p: Point, q: Point, slack: f64) -> bool {
        let Zone::Cone { a, ra, b, rb } = *self else {
            return false;
        };
        let r = ra.max(rb) + slack;
        let r = r + 1e-9 * (r + a.abs().max(b.abs()).max_element());
        p.x.max(q.x) < a.x.min(b.x) - r
            || p.y.max(q.y) < a.y.min(b.y) - r
            || p.x.min(q.x) > a.x.max(b.x) + r
            || p.y.min(q.y) > a.y.max(b.y) + r
    }

    /// Whether `inner` lies strictly inside this zone, `slack` to spare. A cone is convex,
    /// so it holds another cone when it holds both end discs, and a box when it holds its
    /// corners. `outer_box` and `inner_box` are the zones' bounding boxes.
    fn holds_boxed(&self, outer_box: &Aabb2, inner: &Zone, inner_box: &Aabb2, slack: f64) -> bool {
        if !inner_box.strictly_inside(outer_box) {
            return false;
        }
        let Zone::Cone { a, ra, b, rb } = *self else {
            return true;
        };
        let inside = |p: Point, r: f64| cone_distance(p, a, ra, b, rb, false) + r < -slack;
        match *inner {
            Zone::Cone {
                a: c,
                ra: rc,
                b: d,
                rb: rd,
            } => inside(c, rc) && inside(d, rd),
            Zone::Box(x) => [
                x.min,
                x.max,
                Point::new(x.min.x, x.max.y),
                Point::new(x.max.x, x.min.y),
            ]
            .into_iter()
            .all(|p| inside(p, 0.0)),
        }
    }
}

/// The boxes that bound the clearance discs of every edge: those of a build in an R-tree
/// loaded in bulk (the clearance boxes overlap a lot, and `rstar`'s bulk load groups them
/// more tightly than Hilbert packing: queries visit fewer boxes), those of updates in a
/// [`LogIndex`] (no R* insertion).
#[derive(Clone, Debug, Default)]
struct Sweep {
    base: DynamicTree<SweepItem>,
    added: LogIndex<EdgeId>,
}

impl Sweep {
    /// The edges whose sweep boxes meet `envelope`, in no particular order.
    fn edges_meeting(&self, envelope: AABB<[f64; 2]>) -> impl Iterator<Item = EdgeId> + '_ {
        let (lo, hi) = (envelope.lower(), envelope.upper());
        self.base
            .locate_in_envelope_intersecting(envelope)
            .map(|item| item.data)
            .chain(self.added.meeting([lo[0], lo[1], hi[0], hi[1]]).copied())
    }
}

/// The sweep box of an edge (`[min x, min y, max x, max y]`): the box of its chords' boxes.
fn sweep_box(edge: &Edge, deviation: f64) -> [f64; 4] {
    let b = edge
        .bending_points
        .windows(2)
        .map(|w| chord_box(&w[0], &w[1], deviation))
        .fold(Aabb2::EMPTY, Aabb2::union);
    [b.min.x, b.min.y, b.max.x, b.max.y]
}

impl UpdateIndex {
    pub(crate) fn new(ecm: &Ecm, deviation: f64) -> Self {
        let mut index = UpdateIndex {
            sweep: Sweep::default(),
            sizes: Vec::new(),
            representative: Vec::new(),
        };
        index.rebuild(ecm, deviation);
        index
    }

    /// Indexes a whole new ECM.
    pub(crate) fn rebuild(&mut self, ecm: &Ecm, deviation: f64) {
        self.sweep = Sweep {
            base: DynamicTree::bulk_load_with_params(
                ecm.edges()
                    .map(|(id, e)| {
                        let b = sweep_box(e, deviation);
                        SweepItem::new(Rectangle::from_corners([b[0], b[1]], [b[2], b[3]]), id)
                    })
                    .collect(),
            ),
            added: LogIndex::default(),
        };
        self.sizes = vec![0; ecm.component_count as usize];
        self.representative = vec![None; ecm.component_count as usize];
        for (id, v) in ecm.vertices.iter() {
            let c = v.component.0 as usize;
            if c < self.sizes.len() {
                self.sizes[c] += 1;
                self.representative[c].get_or_insert(id);
            }
        }
    }
}

/// Why the local repair gave up (the update then rebuilds the whole ECM).
#[derive(Clone, Debug)]
pub(crate) struct Fallback {
    pub reason: String,
    pub widenings: usize,
    pub voronoi_time: Duration,
}

/// A vertex of a new edge: an old end vertex, or one of the splice's new vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VertexRef {
    Old(VertexId),
    New(usize),
}

/// A new edge (its `start`/`end` ids are placeholders until it is applied).
#[derive(Clone, Debug)]
pub(crate) struct NewEdge {
    start: VertexRef,
    end: VertexRef,
    edge: Edge,
}

/// The local replacement computed by [`plan_patch`].
#[derive(Clone, Debug)]
pub(crate) struct Splice {
    pub remove_edges: Vec<EdgeId>,
    pub remove_vertices: Vec<VertexId>,
    pub new_vertices: Vec<Vertex>,
    pub new_edges: Vec<NewEdge>,
    pub free_area: f64,
    pub widenings: usize,
    /// Whether influenced edges were cut at Voronoi vertices (else rebuilt whole).
    pub cut: bool,
    /// Time spent building local Voronoi diagrams.
    pub voronoi_time: Duration,
    /// Walls given to the last local Voronoi diagram.
    pub local_walls: usize,
}

/// The bounding box of a wall (grid coordinates, as `f64`).
fn key_envelope(k: WallKey) -> AABB<[f64; 2]> {
    let (a, b) = k.ends();
    AABB::from_corners([a.x as f64, a.y as f64], [b.x as f64, b.y as f64])
}

/// Distance between segments `a b` and `c d` (either may be a point).
fn segment_distance(a: Point, b: Point, c: Point, d: Point) -> f64 {
    let cross = |o: Point, p: Point, q: Point| (p - o).perp_dot(q - o);
    let (d1, d2) = (cross(a, b, c), cross(a, b, d));
    let (d3, d4) = (cross(c, d, a), cross(c, d, b));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return 0.0;
    }
    let p = |q: Point, s: Point, t: Point| q.distance(nearest_on_segment(s, t, q));
    p(a, c, d).min(p(b, c, d)).min(p(c, a, b)).min(p(d, a, b))
}

/// A local wall in grid coordinates, for the validation of the local diagram.
#[derive(Clone, Copy, Debug)]
struct LocalWall {
    a: Point,
    b: Point,
    min: Point,
    max: Point,
}

impl LocalWall {
    fn new(k: WallKey) -> LocalWall {
        let (a, b) = k.ends();
        let (a, b) = (
            Point::new(a.x as f64, a.y as f64),
            Point::new(b.x as f64, b.y as f64),
        );
        LocalWall {
            a,
            b,
            min: a.min(b),
            max: a.max(b),
        }
    }

    fn distance_squared(&self, q: Point) -> f64 {
        q.distance_squared(nearest_on_segment(self.a, self.b, q))
    }
}

/// Farther than this from a wall's box on one axis is farther than `limit` from `q`
/// (with a margin for rounding): the box test of [`closer_wall`].
fn closer_margin(q: Point, limit: f64) -> f64 {
    limit * (1.0 + 1e-9) + 1e-9 * q.abs().max_element()
}

/// Whether one of `walls` is closer than `limit` to `q` (grid units). A few dozen walls:
/// a scan with a box test first is cheaper than a tree.
fn closer_wall(walls: &[LocalWall], q: Point, limit: f64) -> bool {
    let limit2 = limit * limit;
    let m = closer_margin(q, limit);
    walls.iter().any(|w| {
        q.x >= w.min.x - m && q.y >= w.min.y - m && q.x <= w.max.x + m && q.y <= w.max.y + m && {
            let d2 = w.distance_squared(q);
            d2 <= limit2 && d2.sqrt() < limit
        }
    })
}

enum Step {
    Done(Splice),
    Widen(String),
    Fail(String),
}

struct Context<'a> {
    ecm: &'a Ecm,
    index: &'a UpdateIndex,
    walls: &'a corridor_geom::WallSet,
    delta: &'a WallDelta,
    removed: HashSet<WallKey>,
    influenced: HashSet<EdgeId>,
    options: &'a crate::BuildOptions,
    deviation: f64,
    /// Position tolerance for matching (user units).
    tol: f64,
    /// Validation tolerance (grid units).
    tol_grid: f64,
    total_walls: usize,
    max_local_fraction: f64,
    /// Twice the free area before and after the change (grid units², exact).
    old_twice: i128,
    new_twice: i128,
    /// Time spent in the Voronoi builder so far.
    voronoi_time: Cell<Duration>,
    /// Walls of the last local diagram.
    local_walls: Cell<usize>,
}

/// Which end of an influenced old edge keeps its bending points up to a cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum End {
    /// The edge keeps its bending points `0..=k` (from its start vertex).
    Start,
    /// The edge keeps its bending points `k..` (to its end vertex).
    End,
}

/// A bending point of an influenced old edge where the edge may be cut: every chord on
/// its kept side is stable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Candidate {
    edge: EdgeId,
    k: usize,
    end: End,
}

/// The cut points an attempt looks for, by position.
struct Cuts {
    /// Candidates with their positions, sorted by `x` once all are added (a few dozen:
    /// a binary search finds the ones within `cell`).
    by_x: Vec<(Point, Candidate)>,
    cell: f64,
    /// The smallest and largest coordinates of the candidates (NaN left out).
    lo: Point,
    hi: Point,
    /// Every cut end that must be found (its vertex counts on getting the edge back).
    planned: Vec<(EdgeId, End)>,
}

impl Cuts {
    /// Every candidate within `cell` of `p` (and none farther than `cell` on an axis).
    fn near(&self, p: Point) -> impl Iterator<Item = &Candidate> + '_ {
        let cell = self.cell;
        // A candidate `q` passes the tests below only if `q.x >= p.x - cell`,
        // `q.x <= p.x + cell` and `|q.y - p.y| <= cell` as computed; rounding is monotone
        // (and `p.y - q.y` is `-(q.y - p.y)`), so then `lo` and `hi` pass these tests too.
        // When they fail, no candidate is near (most bending points of a local diagram).
        let maybe = p.x - cell <= self.hi.x
            && p.x + cell >= self.lo.x
            && self.lo.y - p.y <= cell
            && p.y - self.hi.y <= cell;
        let from = if maybe {
            self.by_x.partition_point(|(q, _)| q.x < p.x - cell)
        } else {
            self.by_x.len()
        };
        self.by_x[from..]
            .iter()
            .take_while(move |(q, _)| q.x <= p.x + cell)
            .filter(move |(q, _)| (q.y - p.y).abs() <= cell)
            .map(|(_, c)| c)
    }
}

/// How an attempt rebuilds the influenced edges: whole, or cut at Voronoi vertices on
/// their stable parts (then only the chords near the change are rebuilt).
struct Mode {
    /// Old vertices that stay (they keep an edge or a cut part of one), with the number
    /// of influenced edge ends they lose.
    end_vertices: HashMap<VertexId, usize>,
    remove_vertices: Vec<VertexId>,
    cuts: Option<Cuts>,
}

/// Plans the local repair of `dynamic`'s ECM for the new walls.
pub(crate) fn plan_patch(dynamic: &DynamicEcm, delta: &WallDelta) -> Result<Splice, Fallback> {
    let ecm = &dynamic.ecm;
    let grid = ecm.grid;
    let deviation = dynamic.options.build.max_arc_deviation;
    let walls = dynamic.walls.walls();
    let extent = walls.extent().max(walls.extent_after(delta));
    let tol_grid = tolerance(extent as f64);
    let tol = tol_grid / grid.scale();
    let eps = 4.0 * tol;
    let changed: Vec<(Point, Point)> = delta
        .removed()
        .iter()
        .chain(delta.added())
        .map(|k| {
            let (a, b) = k.ends();
            (grid.to_point(a), grid.to_point(b))
        })
        .collect();

    // Influenced edges, with their first and last influenced chord.
    let mut influenced: HashSet<EdgeId> = HashSet::default();
    let mut hits: HashMap<EdgeId, (usize, usize)> = HashMap::default();
    let mut change_zones: Vec<Zone> = Vec::with_capacity(changed.len());
    for &(a, b) in &changed {
        let env = AABB::from_corners([a.x, a.y], [b.x, b.y]);
        change_zones.push(Zone::Box(Aabb2 {
            min: a.min(b),
            max: a.max(b),
        }));
        for id in dynamic.index.sweep.edges_meeting(env) {
            let Some(e) = ecm.edges.get(id) else { continue };
            let near = |w: &[BendingPoint]| {
                let z = Zone::chord(&w[0], &w[1], deviation);
                !z.box_misses(a, b, eps) && z.meets(a, b, eps)
            };
            let chords = &e.bending_points;
            if let Some(h) = hits.get_mut(&id) {
                // Already influenced by another changed wall: only chords outside its
                // first and last influenced ones can move them.
                if let Some(first) = chords[..=h.0].windows(2).position(near) {
                    h.0 = first;
                }
                let after = &chords[h.1 + 1..];
                if let Some(k) = after.windows(2).rev().position(near) {
                    h.1 += after.len() - 1 - k;
                }
                continue;
            }
            let Some(first) = chords.windows(2).position(near) else {
                continue;
            };
            let last = chords.len() - 2 - chords.windows(2).rev().position(near).unwrap_or(0);
            influenced.insert(id);
            hits.insert(id, (first, last));
        }
    }
    // Old vertices at the ends of influenced edges, with the influenced edge ends they lose.
    let mut lost: Vec<(VertexId, usize, bool)> = Vec::with_capacity(2 * influenced.len());
    let mut seen: HashSet<VertexId> = HashSet::default();
    for &id in &influenced {
        let e = &ecm.edges[id];
        for v in [e.start, e.end] {
            if !seen.insert(v) {
                continue;
            }
            let vertex = &ecm.vertices[v];
            let n = vertex
                .edges
                .iter()
                .filter(|x| influenced.contains(x))
                .count();
            lost.push((v, n, n < vertex.edges.len()));
        }
    }
    let margin = 2.0 * deviation + 4.0 / grid.scale();
    let mode_of = |anchored: &dyn Fn(VertexId, bool) -> bool, cuts: Option<Cuts>| {
        let mut mode = Mode {
            end_vertices: HashMap::default(),
            remove_vertices: Vec::new(),
            cuts,
        };
        for &(v, n, keeps_edge) in &lost {
            if anchored(v, keeps_edge) {
                mode.end_vertices.insert(v, n);
            } else {
                mode.remove_vertices.push(v);
            }
        }
        mode
    };
    let region_of = |zones: &[Zone]| {
        zones
            .iter()
            .map(Zone::bbox)
            .fold(Aabb2::EMPTY, Aabb2::union)
    };

    // Cut edges: only the chords near the change and a few stable ones around them, up to
    // the second Voronoi vertex on each side (bending points flagged by extraction), are
    // rebuilt.
    let match_tol = 8.0 * tol;
    let mut cuts = Cuts {
        by_x: Vec::new(),
        cell: 2.0 * match_tol,
        lo: Point::splat(f64::INFINITY),
        hi: Point::splat(f64::NEG_INFINITY),
        planned: Vec::new(),
    };
    // The rebuilt bending points `from..=to` of each influenced edge, in order.
    let mut spans: Vec<(EdgeId, usize, usize)> = Vec::with_capacity(hits.len());
    let mut cut_vertices: HashSet<VertexId> = HashSet::default();
    for (&id, &(first, last)) in &hits {
        let e = &ecm.edges[id];
        let bps = &e.bending_points;
        let n = bps.len();
        let vertex = |k: &usize| bps[*k].is_voronoi_vertex;
        // Prefix: candidates `k` in `from + 1 ..= first`, chords `from..` rebuilt. The
        // rebuilt chords reach the second Voronoi vertex outside the change, so that the
        // arc beyond the first one (the cut) is whole in the local diagram: the zone of the
        // chord ending there holds that vertex's disc, hence its three sites. (No chord
        // beyond it: that only took more walls; the cut's neighbour test and the
        // certification decide anyway.)
        let mut from = 0;
        let mut likely = (1..=first).rev().take(MAX_CUT_SEARCH).filter(vertex);
        if let (Some(_), Some(k2)) = (likely.next(), likely.next()) {
            from = k2;
            cuts.planned.push((id, End::Start));
            cut_vertices.insert(e.start);
            cuts.add(id, End::Start, bps, from + 1..=first);
        }
        // Suffix: candidates `k` in `last + 1 ..= to - 1`, chords `..to` rebuilt.
        let mut to = n - 1;
        let mut likely = (last + 1..=n - 2).take(MAX_CUT_SEARCH).filter(vertex);
        if let (Some(_), Some(k2)) = (likely.next(), likely.next()) {
            to = k2;
            cuts.planned.push((id, End::End));
            cut_vertices.insert(e.end);
            cuts.add(id, End::End, bps, last + 1..=to - 1);
        }
        spans.push((id, from, to));
    }
    let mut cut_zones =
        Vec::with_capacity(change_zones.len() + spans.iter().map(|s| s.2 - s.1).sum::<usize>());
    cut_zones.extend_from_slice(&change_zones);
    for &(id, from, to) in &spans {
        for w in ecm.edges[id].bending_points[from..=to].windows(2) {
            cut_zones.push(Zone::chord(&w[0], &w[1], deviation));
        }
    }
    cuts.by_x.sort_unstable_by(|a, b| a.0.x.total_cmp(&b.0.x));
    for (q, _) in &cuts.by_x {
        cuts.lo = Point::new(f64::min(cuts.lo.x, q.x), f64::min(cuts.lo.y, q.y));
        cuts.hi = Point::new(f64::max(cuts.hi.x, q.x), f64::max(cuts.hi.y, q.y));
    }
    for z in &mut cut_zones {
        *z = z.expanded(margin);
    }
    let cut = (!cuts.planned.is_empty()).then(|| {
        let region = region_of(&cut_zones);
        let mode = mode_of(
            &|v, keeps_edge| keeps_edge || cut_vertices.contains(&v),
            Some(cuts),
        );
        (mode, cut_zones, region)
    });

    let ctx = Context {
        ecm,
        index: &dynamic.index,
        walls,
        delta,
        removed: delta.removed().iter().copied().collect(),
        influenced,
        options: &dynamic.options.build,
        deviation,
        tol,
        tol_grid,
        total_walls: walls.len() + delta.added().len() - delta.removed().len(),
        max_local_fraction: dynamic.options.max_local_fraction,
        old_twice: walls.free_area_twice(),
        new_twice: delta.free_area_twice(),
        voronoi_time: Cell::new(Duration::ZERO),
        local_walls: Cell::new(0),
    };
    let done = |mut splice: Splice, widenings: usize, cut: bool| {
        splice.widenings = widenings;
        splice.cut = cut;
        splice.voronoi_time = ctx.voronoi_time.get();
        splice.local_walls = ctx.local_walls.get();
        splice
    };
    // First the cut edges; when they cannot be proven (no cut found on some side, or a
    // check failed), the whole edges.
    if let Some((mode, zones, region)) = &cut {
        if let Step::Done(splice) = attempt(&ctx, mode, zones, *region) {
            return Ok(done(splice, 0, true));
        }
    }
    // Whole edges: every chord of every influenced edge is rebuilt.
    let mut zones = change_zones;
    zones.reserve(
        ctx.influenced
            .iter()
            .map(|&id| ecm.edges[id].bending_points.len() - 1)
            .sum(),
    );
    for &id in &ctx.influenced {
        for w in ecm.edges[id].bending_points.windows(2) {
            zones.push(Zone::chord(&w[0], &w[1], deviation));
        }
    }
    for z in &mut zones {
        *z = z.expanded(margin);
    }
    let whole = mode_of(&|_, keeps_edge| keeps_edge, None);
    let mut region = region_of(&zones);
    let mut last = String::new();
    for widenings in 0..=dynamic.options.max_widenings {
        // The first attempt takes the walls near the influenced edges (the union of the
        // capsules of their chords); wider ones the walls in a box around everything.
        let step = if widenings == 0 {
            attempt(&ctx, &whole, &zones, region)
        } else {
            attempt(&ctx, &whole, &[Zone::Box(region)], region)
        };
        match step {
            Step::Done(splice) => return Ok(done(splice, widenings, false)),
            Step::Fail(reason) => {
                return Err(Fallback {
                    reason,
                    widenings,
                    voronoi_time: ctx.voronoi_time.get(),
                })
            }
            Step::Widen(reason) => {
                last = reason;
                let size = region.max - region.min;
                region = region.expanded(0.5 * size.x.max(size.y));
            }
        }
    }
    Err(Fallback {
        reason: format!("still unproven after widening: {last}"),
        widenings: dynamic.options.max_widenings,
        voronoi_time: ctx.voronoi_time.get(),
    })
}

/// How many bending points outside the influenced chords are searched for a
/// Voronoi vertex to cut an edge at (farther, the edge is rebuilt to its vertex).
const MAX_CUT_SEARCH: usize = 24;

impl Cuts {
    /// Adds the bending points `ks` of an edge as candidates for a cut keeping `end`.
    fn add(
        &mut self,
        edge: EdgeId,
        end: End,
        bps: &[BendingPoint],
        ks: std::ops::RangeInclusive<usize>,
    ) {
        for k in ks {
            self.by_x
                .push((bps[k].position, Candidate { edge, k, end }));
        }
    }
}

/// The new walls (the current ones without the removed, with the added) that meet the
/// zone (a box: whose bounding boxes meet it), each passed to `f`.
fn new_walls_meeting(ctx: &Context<'_>, zone: &Zone, mut f: impl FnMut(WallKey)) {
    walls_meeting_while(ctx, zone, |k| {
        f(k);
        true
    });
}

/// [`new_walls_meeting`], stopping when `f` returns `false`; whether it went through all.
fn walls_meeting_while(ctx: &Context<'_>, zone: &Zone, mut f: impl FnMut(WallKey) -> bool) -> bool {
    let grid = ctx.ecm.grid;
    let scale = grid.scale();
    let b = zone.bbox();
    let meets = |k: WallKey| match zone {
        Zone::Box(_) => true,
        Zone::Cone { .. } => {
            let (a, b) = k.ends();
            zone.meets(grid.to_point(a), grid.to_point(b), ctx.tol)
        }
    };
    let lo = [(b.min.x * scale).floor(), (b.min.y * scale).floor()];
    let hi = [(b.max.x * scale).ceil(), (b.max.y * scale).ceil()];
    let env = AABB::from_corners(lo, hi);
    let (ilo, ihi) = (
        [lo[0] as i64 - 1, lo[1] as i64 - 1],
        [hi[0] as i64 + 1, hi[1] as i64 + 1],
    );
    for k in ctx.walls.in_box(ilo, ihi) {
        if !ctx.removed.contains(&k) && env.intersects(&key_envelope(k)) && meets(k) && !f(k) {
            return false;
        }
    }
    for k in ctx.delta.added() {
        if env.intersects(&key_envelope(*k)) && meets(*k) && !f(*k) {
            return false;
        }
    }
    true
}

/// The new walls whose bounding boxes meet an attempt's region (one wall query), sorted,
/// each with whether it meets one of the attempt's zones (then it is *taken* into the
/// local diagram). Every wall a zone or a chord inside the region can meet is here.
struct Nearby {
    walls: Vec<NearbyWall>,
    /// The walls that were not taken, in the same order.
    untaken: Vec<NearbyWall>,
}

#[derive(Clone, Copy, Debug)]
struct NearbyWall {
    key: WallKey,
    /// Bounding box, grid units (grid points: integers, never `-0.0`).
    min: Point,
    max: Point,
    /// Ends, user units.
    p: Point,
    q: Point,
    taken: bool,
}

/// `floor(x) <= n` as `rstar` compares (through `OrderedFloat`: as `f64` but for NaN),
/// for `x` not NaN and an integer `n`: exactly `x < n + 1`.
#[inline]
fn floor_le(x: f64, n: f64) -> bool {
    x < n + 1.0
}

/// `ceil(x) >= n` as `rstar` compares, for `x` not NaN and an integer `n`: exactly
/// `x > n - 1`.
#[inline]
fn ceil_ge(x: f64, n: f64) -> bool {
    x > n - 1.0
}

/// Whether a zone's [`grid_box`] takes the fast box test: not NaN, and not flat (then
/// `floor` of its lower and `ceil` of its upper corner are its rounded corners in the
/// order `AABB::from_corners` puts them, as in [`grid_envelope`]).
#[inline]
fn plain(b: &Aabb2) -> bool {
    b.min.x < b.max.x && b.min.y < b.max.y
}

/// The box of grid points that holds a zone's bounding box (grid units).
fn grid_envelope(zone: &Zone, scale: f64) -> AABB<[f64; 2]> {
    let b = zone.bbox();
    AABB::from_corners(
        [(b.min.x * scale).floor(), (b.min.y * scale).floor()],
        [(b.max.x * scale).ceil(), (b.max.y * scale).ceil()],
    )
}

#[cfg(test)]
mod box_test_tests {
    use super::*;

    /// `floor_le` and `ceil_ge` against `floor`, `ceil` and `rstar`'s `intersects`.
    #[test]
    fn fast_box_test_matches_rounding() {
        let mut xs = vec![
            0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.0, -2.0, 0.999, -0.999,
        ];
        xs.extend([
            1e-300,
            -1e-300,
            3.0e9,
            -3.0e9,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ]);
        let mut r = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..4000 {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            xs.push((r % 4001) as f64 * 0.0025 - 5.0);
        }
        for &x in &xs {
            for n in -4..=4 {
                let n = n as f64;
                // One axis of `intersects`: the other axis always meets.
                let wall = AABB::from_corners([n, -10.0], [n, 10.0]);
                let lower = AABB::from_corners([x.floor(), 0.0], [x.floor().max(n) + 1.0, 1.0]);
                let upper = AABB::from_corners([x.ceil().min(n) - 1.0, 0.0], [x.ceil(), 1.0]);
                assert_eq!(
                    floor_le(x, n),
                    lower.intersects(&wall),
                    "floor_le({x:e}, {n})"
                );
                assert_eq!(
                    ceil_ge(x, n),
                    upper.intersects(&wall),
                    "ceil_ge({x:e}, {n})"
                );
            }
        }
    }
}

/// A zone's bounding box in grid units (not rounded to grid points).
fn grid_box(zone: &Zone, scale: f64) -> Aabb2 {
    let b = zone.bbox();
    Aabb2 {
        min: Point::new(b.min.x * scale, b.min.y * scale),
        max: Point::new(b.max.x * scale, b.max.y * scale),
    }
}

impl Nearby {
    fn collect(ctx: &Context<'_>, zones: &[Zone], region: Aabb2) -> Nearby {
        let grid = ctx.ecm.grid;
        // Sorted as keys (equal keys are the same wall), then completed.
        let mut keys = Vec::new();
        new_walls_meeting(ctx, &Zone::Box(region), |key| keys.push(key));
        keys.sort_unstable();
        keys.dedup();
        let mut walls: Vec<NearbyWall> = keys
            .into_iter()
            .map(|key| {
                let (a, b) = key.ends();
                NearbyWall {
                    key,
                    min: Point::new(a.x.min(b.x) as f64, a.y.min(b.y) as f64),
                    max: Point::new(a.x.max(b.x) as f64, a.y.max(b.y) as f64),
                    p: grid.to_point(a),
                    q: grid.to_point(b),
                    taken: false,
                }
            })
            .collect();
        let boxes: Vec<Aabb2> = zones.iter().map(|z| grid_box(z, grid.scale())).collect();
        // The zones in runs of `CHUNK` (consecutive chords of an edge lie close together),
        // with the union of their boxes: the smallest and largest coordinates, no
        // rounding. `floor_le` and `ceil_ge` are monotone, so a wall that meets a box of
        // the run meets the union, and when it misses the union the run's zones need no
        // test. A run with a box off the fast test ([`plain`]) is always tested.
        const CHUNK: usize = 8;
        let least = |a: f64, b: f64| if b < a { b } else { a };
        let most = |a: f64, b: f64| if b > a { b } else { a };
        let unions: Vec<Option<Aabb2>> = boxes
            .chunks(CHUNK)
            .map(|c| {
                let (mut lo, mut hi) =
                    (Point::splat(f64::INFINITY), Point::splat(f64::NEG_INFINITY));
                for b in c {
                    if !plain(b) {
                        return None;
                    }
                    lo = Point::new(least(lo.x, b.min.x), least(lo.y, b.min.y));
                    hi = Point::new(most(hi.x, b.max.x), most(hi.y, b.max.y));
                }
                Some(Aabb2 { min: lo, max: hi })
            })
            .collect();
        let scale = grid.scale();
        for w in &mut walls {
            w.taken = zones
                .chunks(CHUNK)
                .zip(boxes.chunks(CHUNK))
                .zip(&unions)
                .any(|((zs, bs), u)| {
                    u.is_none_or(|u| w.box_meets(&u))
                        && zs
                            .iter()
                            .zip(bs)
                            .any(|(z, b)| w.meets(z, b, scale, ctx.tol))
                });
        }
        let untaken = walls.iter().filter(|w| !w.taken).copied().collect();
        Nearby { walls, untaken }
    }

    fn taken(&self) -> impl Iterator<Item = WallKey> + '_ {
        self.walls.iter().filter(|w| w.taken).map(|w| w.key)
    }

    fn is_taken(&self, key: WallKey) -> bool {
        self.walls
            .binary_search_by_key(&key, |w| w.key)
            .is_ok_and(|i| self.walls[i].taken)
    }

    /// Whether a wall that was not taken meets `zone` (whose box lies in the region).
    fn untaken_meet(&self, ctx: &Context<'_>, zone: &Zone) -> bool {
        let scale = ctx.ecm.grid.scale();
        let b = grid_box(zone, scale);
        self.untaken
            .iter()
            .any(|w| w.meets(zone, &b, scale, ctx.tol))
    }
}

impl NearbyWall {
    /// Whether the wall's bounding box meets the box of grid points that holds `b` (a
    /// zone's [`grid_box`], [`plain`]): the box test of [`new_walls_meeting`] (`floor` and
    /// `ceil` of `b` against the wall's box), without rounding.
    #[inline]
    fn box_meets(&self, b: &Aabb2) -> bool {
        floor_le(b.min.x, self.max.x)
            && floor_le(b.min.y, self.max.y)
            && ceil_ge(b.max.x, self.min.x)
            && ceil_ge(b.max.y, self.min.y)
    }

    /// The box test of [`new_walls_meeting`] as it is written there (for a zone box that
    /// is not [`plain`]: never in practice).
    #[cold]
    #[inline(never)]
    fn rounded_box_meets(&self, zone: &Zone, scale: f64) -> bool {
        grid_envelope(zone, scale).intersects(&key_envelope(self.key))
    }

    /// The test of [`new_walls_meeting`]: the boxes meet, and for a cone the wall. `b` is
    /// the zone's [`grid_box`] (`scale` the grid's, for a box off the fast test).
    #[inline]
    fn meets(&self, zone: &Zone, b: &Aabb2, scale: f64, slack: f64) -> bool {
        let boxes_meet = if plain(b) {
            self.box_meets(b)
        } else {
            self.rounded_box_meets(zone, scale)
        };
        boxes_meet
            && match zone {
                Zone::Box(_) => true,
                Zone::Cone { .. } => zone.meets(self.p, self.q, slack),
            }
    }
}

/// One try of the local repair with the walls that meet `zones` (user units; `region`
/// is their bounding box).
fn attempt(ctx: &Context<'_>, mode: &Mode, zones: &[Zone], region: Aabb2) -> Step {
    let grid = ctx.ecm.grid;
    let scale = grid.scale();
    let lo = [
        (region.min.x * scale).floor(),
        (region.min.y * scale).floor(),
    ];
    let hi = [(region.max.x * scale).ceil(), (region.max.y * scale).ceil()];
    let near = Nearby::collect(ctx, zones, region);
    let keys: Vec<WallKey> = near.taken().collect();
    if keys.len() as f64 > ctx.max_local_fraction * ctx.total_walls as f64 && ctx.total_walls > 64 {
        return Step::Fail("the region covers most of the walls".into());
    }
    // The local walls, and a box around them and the region that bounds the work of the
    // certification.
    let mut local = Walls {
        grid,
        ..Walls::default()
    };
    let (mut fmin, mut fmax) = ([lo[0] as i64, lo[1] as i64], [hi[0] as i64, hi[1] as i64]);
    for k in &keys {
        let (a, b) = k.ends();
        for p in [a, b] {
            fmin = [fmin[0].min(p.x as i64), fmin[1].min(p.y as i64)];
            fmax = [fmax[0].max(p.x as i64), fmax[1].max(p.y as i64)];
        }
        match *k {
            WallKey::Segment { a, b, two_sided } => local.segments.push(WallSegment {
                a,
                b,
                two_sided,
                sources: Default::default(),
            }),
            WallKey::Point(p) => local.points.push((p, Vec::new())),
        }
    }
    let pad = 16.max((fmax[0] - fmin[0]).max(fmax[1] - fmin[1]) / 16);
    let limit = i32::MAX as i64 - 64;
    let (x0, y0) = ((fmin[0] - pad).max(-limit), (fmin[1] - pad).max(-limit));
    let (x1, y1) = ((fmax[0] + pad).min(limit), (fmax[1] + pad).min(limit));
    if keys.is_empty() {
        // No walls: a frame on the box, so that the diagram has a site (nothing inside
        // can be certified, as before the frame was dropped).
        let corners = [
            GridPoint::new(x0 as i32, y0 as i32),
            GridPoint::new(x1 as i32, y0 as i32),
            GridPoint::new(x1 as i32, y1 as i32),
            GridPoint::new(x0 as i32, y1 as i32),
        ];
        for i in 0..4 {
            local.segments.push(WallSegment {
                a: corners[i],
                b: corners[(i + 1) % 4],
                two_sided: false,
                sources: Default::default(),
            });
        }
    }
    let local_walls: Vec<LocalWall> = keys.iter().map(|k| LocalWall::new(*k)).collect();
    let deviation_grid = grid.to_grid_length(ctx.deviation);
    // A chord is certified when its capsule (which holds the clearance discs along it)
    // meets no new wall that was not taken: strictly inside one of the zones whose walls
    // were all taken, or checked against the wall index. Only chords inside `inner` are
    // tried (the box where the frame of the local diagram used to be, less a grid step):
    // farther out they are outside the region, and each would query the walls far away.
    let inner = Aabb2 {
        min: Point::new(x0 as f64 + 1.0, y0 as f64 + 1.0) / scale,
        max: Point::new(x1 as f64 - 1.0, y1 as f64 - 1.0) / scale,
    };
    // Whether the region lies inside that box (it does unless the box was clamped at the
    // grid's limits).
    let bounded = region.strictly_inside(&inner);
    let zone_boxes: Vec<Aabb2> = zones.iter().map(Zone::bbox).collect();
    let known = |cz: &Zone| {
        let cb = cz.bbox();
        let inside = cb.strictly_inside(&inner);
        if cb.strictly_inside(&region) {
            // Every wall meeting `cz` is one of the region's (first the cheaper test).
            return (inside && !near.untaken_meet(ctx, cz))
                || zones
                    .iter()
                    .zip(&zone_boxes)
                    .any(|(z, zb)| z.holds_boxed(zb, cz, &cb, ctx.tol));
        }
        if !inside {
            return false;
        }
        // Every wall meeting `cz` was taken (the first one that was not ends the query).
        walls_meeting_while(ctx, cz, |k| near.is_taken(k))
    };
    for &transform in &ctx.options.recovery {
        let Some(transformed) = transform.apply_walls(&local) else {
            continue;
        };
        let clock = Instant::now();
        ctx.local_walls
            .set(transformed.segments.len() + transformed.points.len());
        let diagram = voronoi(&transformed);
        ctx.voronoi_time
            .set(ctx.voronoi_time.get() + clock.elapsed());
        let Ok(diagram) = diagram else {
            continue;
        };
        let Ok((raw, open)) = extract_open(&transformed, &diagram, deviation_grid) else {
            continue;
        };
        let l = finalize(raw, transform, &local);
        let open = OpenVertices::new(&l, &open);
        let certify = |bps: &[BendingPoint]| {
            // The box of a whole piece holds the capsules of its chords: when it is known,
            // so are they (one wall query instead of one per chord).
            let chords = bps
                .windows(2)
                .map(|w| Zone::chord(&w[0], &w[1], ctx.deviation));
            let whole = chords
                .clone()
                .map(|z| z.bbox())
                .fold(Aabb2::EMPTY, Aabb2::union);
            if bounded && !whole.strictly_inside(&inner) {
                // A chord leaves the box: it is outside the region too, so unknown.
                return false;
            }
            known(&Zone::Box(whole)) || chords.into_iter().all(|cz| known(&cz))
        };
        let found = match &mode.cuts {
            Some(cuts) => {
                let (found, count) = find_cuts(ctx, cuts, &l);
                if count < cuts.planned.len() {
                    return Step::Widen("an influenced edge has no cut in the region".into());
                }
                found
            }
            None => HashMap::default(),
        };
        let local_ecm = Local {
            ecm: &l,
            open: &open,
            certify: &certify,
        };
        let pieces = match pieces_of(ctx, &local_ecm, &found) {
            Ok(pieces) => pieces,
            Err(reason) => return Step::Widen(reason),
        };
        // Only the new pieces are validated: the other certified edges are dropped (they
        // equal kept old edges), so a diagram is only as good as the pieces taken from it.
        if !valid(&l, &pieces, &local_walls, ctx.tol_grid) {
            continue;
        }
        return select(ctx, mode, &local_ecm, &found, pieces);
    }
    Step::Fail("no local diagram passed validation".into())
}

/// The vertices of a local ECM with infinite medial-axis edges (a few, or none).
struct OpenVertices(Vec<(VertexId, OpenVertex)>);

impl OpenVertices {
    /// The local ECM's vertices listed by extraction (`finalize` inserts the raw vertices
    /// in order into a new slot map, so the `i`-th key is raw vertex `i`).
    fn new(l: &Ecm, open: &[OpenVertex]) -> OpenVertices {
        if open.is_empty() {
            return OpenVertices(Vec::new());
        }
        let ids: Vec<VertexId> = l.vertices.keys().collect();
        OpenVertices(open.iter().map(|o| (ids[o.vertex as usize], *o)).collect())
    }

    fn get(&self, v: VertexId) -> Option<&OpenVertex> {
        self.0.iter().find(|(id, _)| *id == v).map(|(_, o)| o)
    }

    /// How many infinite medial-axis edges the vertex has.
    fn edges(&self, v: VertexId) -> usize {
        self.get(v).map_or(0, |o| o.open_edges as usize)
    }

    /// Whether the vertex is a bending point of the local medial axis where the chain
    /// through it runs off to infinity.
    fn is_bending(&self, v: VertexId) -> bool {
        self.get(v).is_some_and(|o| o.bending)
    }
}

/// The local ECM as the splice reads it.
struct Local<'a> {
    ecm: &'a Ecm,
    open: &'a OpenVertices,
    /// Whether the arc through these bending points is certified.
    certify: &'a dyn Fn(&[BendingPoint]) -> bool,
}

impl Local<'_> {
    /// Whether a whole local edge is certified: an edge that ends where the medial axis
    /// runs on to infinity is a part of a longer edge, so it is not.
    fn certify_edge(&self, e: &Edge) -> bool {
        !self.open.is_bending(e.start)
            && !self.open.is_bending(e.end)
            && (self.certify)(&e.bending_points)
    }
}

/// A cut found on a local edge: the candidate it matches, the index of the bending
/// point, and on which side of it (`+1`: higher indices) the rebuilt part lies.
#[derive(Clone, Copy, Debug)]
struct FoundCut {
    cand: Candidate,
    at: usize,
    dir: i8,
}

fn close(a: Point, b: Point, tol: f64) -> bool {
    (a - b).abs().max_element() <= tol
}

/// The cuts of the old edges found on the local ECM, by local edge, and how many.
///
/// A candidate bending point `P` of an old edge is a cut when a local edge passes through
/// it, `P` is a vertex of the local Voronoi diagram, and the local edge's neighbour on
/// one side is the old edge's neighbour on the kept side. `P` is stable (the chords on its
/// kept side are), so it is a Voronoi vertex of the old diagram too, and the old bending
/// points on the kept side (samples of whole stable arcs) are those of the new map.
/// Where an old edge has several, the one nearest the change is taken.
fn find_cuts(ctx: &Context<'_>, cuts: &Cuts, l: &Ecm) -> (HashMap<EdgeId, Vec<FoundCut>>, usize) {
    let tol = 8.0 * ctx.tol;
    let mut best: HashMap<(EdgeId, End), (EdgeId, FoundCut)> = HashMap::default();
    for (lid, e) in l.edges() {
        let bps = &e.bending_points;
        let n = bps.len();
        for at in 1..n.saturating_sub(1) {
            let p = bps[at].position;
            for c in cuts.near(p) {
                let old = &ctx.ecm.edges[c.edge].bending_points;
                if !close(old[c.k].position, p, tol) {
                    continue;
                }
                let outside = match c.end {
                    End::Start => old[c.k - 1].position,
                    End::End => old[c.k + 1].position,
                };
                let dir = match (
                    close(bps[at - 1].position, outside, tol),
                    close(bps[at + 1].position, outside, tol),
                ) {
                    (true, false) => 1,
                    (false, true) => -1,
                    _ => continue,
                };
                if !bps[at].is_voronoi_vertex {
                    continue;
                }
                let f = FoundCut { cand: *c, at, dir };
                let entry = best.entry((c.edge, c.end)).or_insert((lid, f));
                let inner = match c.end {
                    End::Start => f.cand.k > entry.1.cand.k,
                    End::End => f.cand.k < entry.1.cand.k,
                };
                if inner {
                    *entry = (lid, f);
                }
            }
        }
    }
    let count = best.len();
    let mut by_edge: HashMap<EdgeId, Vec<FoundCut>> = HashMap::default();
    for (_, (lid, f)) in best {
        by_edge.entry(lid).or_default().push(f);
    }
    for cs in by_edge.values_mut() {
        cs.sort_unstable_by_key(|c| c.at);
    }
    (by_edge, count)
}

/// A part of a local edge that goes into the new ECM: its bending points `from..=to`,
/// joined at each end to the kept part of a cut old edge (`head`, `tail`) or ending at a
/// local vertex.
#[derive(Clone, Copy, Debug)]
struct Piece {
    edge: EdgeId,
    from: usize,
    to: usize,
    head: Option<FoundCut>,
    tail: Option<FoundCut>,
}

/// Whether a local edge is a kept old edge.
fn is_kept(ctx: &Context<'_>, e: &Edge) -> bool {
    let tol = 8.0 * ctx.tol;
    let p = e.bending_points[0].position;
    let env = AABB::from_corners([p.x - tol, p.y - tol], [p.x + tol, p.y + tol]);
    ctx.index.sweep.edges_meeting(env).any(|id| {
        !ctx.influenced.contains(&id)
            && ctx
                .ecm
                .edges
                .get(id)
                .is_some_and(|o| same_geometry(o, e, tol))
    })
}

/// The pieces of the local ECM that go into the new ECM: every certified local edge
/// without cuts that is not a kept old edge, and on edges with cuts the parts on the
/// rebuilt side of their cuts (which must be certified; else why the region must grow).
fn pieces_of(
    ctx: &Context<'_>,
    local: &Local<'_>,
    found: &HashMap<EdgeId, Vec<FoundCut>>,
) -> Result<Vec<Piece>, String> {
    let l = local.ecm;
    let mut pieces = Vec::new();
    for (id, e) in l.edges() {
        let n = e.bending_points.len();
        let Some(cs) = found.get(&id) else {
            if local.certify_edge(e) && !is_kept(ctx, e) {
                pieces.push(Piece {
                    edge: id,
                    from: 0,
                    to: n - 1,
                    head: None,
                    tail: None,
                });
            }
            continue;
        };
        if cs.windows(2).any(|w| w[0].at == w[1].at) {
            return Err("two cuts at one bending point".into());
        }
        let mut prev: Option<FoundCut> = None;
        for i in 0..=cs.len() {
            let next = cs.get(i).copied();
            let inside = prev.is_some_and(|c| c.dir > 0) || next.is_some_and(|c| c.dir < 0);
            let outside = prev.is_some_and(|c| c.dir < 0) || next.is_some_and(|c| c.dir > 0);
            if inside && outside {
                return Err("the cuts of a local edge disagree".into());
            }
            if inside {
                let from = prev.map_or(0, |c| c.at);
                let to = next.map_or(n - 1, |c| c.at);
                let runs_off = (prev.is_none() && local.open.is_bending(e.start))
                    || (next.is_none() && local.open.is_bending(e.end));
                if runs_off || !(local.certify)(&e.bending_points[from..=to]) {
                    return Err("a cut edge leaves the region".into());
                }
                pieces.push(Piece {
                    edge: id,
                    from,
                    to,
                    head: prev,
                    tail: next,
                });
            }
            prev = next;
        }
    }
    Ok(pieces)
}

/// The validation of the full build, on pieces of the local ECM.
fn valid(l: &Ecm, pieces: &[Piece], walls: &[LocalWall], tol: f64) -> bool {
    let scale = l.grid.scale();
    // The walls that can pass `closer_wall`'s box test for some bending point of a piece.
    let mut near: Vec<LocalWall> = Vec::with_capacity(walls.len());
    // The positions to test against the walls, with their limits.
    let mut tests: Vec<(Point, f64)> = Vec::new();
    for piece in pieces {
        let bps = &l.edges[piece.edge].bending_points[piece.from..=piece.to];
        // The bending points' positions and clearances (grid units), equidistance first;
        // the box of the tested positions, and the largest box-test margin.
        let (mut lo, mut hi, mut margin) = (
            Point::splat(f64::INFINITY),
            -Point::splat(f64::INFINITY),
            0.0f64,
        );
        tests.clear();
        for bp in bps {
            let q = bp.position * scale;
            let (dl, dr) = (q.distance(bp.left * scale), q.distance(bp.right * scale));
            if (dl - dr).abs() > tol {
                return false;
            }
            let clearance = dl.min(dr);
            if clearance > tol {
                tests.push((q, clearance - tol));
                lo = lo.min(q);
                hi = hi.max(q);
                margin = margin.max(closer_margin(q, clearance - tol));
            }
        }
        // A wall passes the box test for `q` with margin `m` when `q.x >= min.x - m` (and
        // alike on the other sides). Rounding is monotone, so `min.x - margin` rounds to at
        // most `min.x - m` for `m <= margin`, and `hi.x >= q.x`: the wall passes this test
        // too. The other walls pass no bending point's test and are left out.
        near.clear();
        near.extend(walls.iter().filter(|w| {
            hi.x >= w.min.x - margin
                && hi.y >= w.min.y - margin
                && lo.x <= w.max.x + margin
                && lo.y <= w.max.y + margin
        }));
        if tests.iter().any(|&(q, limit)| closer_wall(&near, q, limit)) {
            return false;
        }
        for side in [Side::Left, Side::Right] {
            for w in bps.windows(2) {
                let piece = cell_corners(&w[0], &w[1], side);
                let area = signed_area(&piece) * scale * scale;
                // `-tol * size.max(1.0)` is at most `-tol` (rounding is monotone), so an
                // area of at least `-tol` passes without the size.
                if area < -tol && {
                    let size = piece
                        .iter()
                        .map(|p| (*p - piece[0]).length() * scale)
                        .fold(0.0, f64::max);
                    area < -tol * size.max(1.0)
                } {
                    return false;
                }
            }
        }
    }
    true
}

fn edge_area(e: &Edge) -> f64 {
    [Side::Left, Side::Right]
        .into_iter()
        .flat_map(|side| {
            e.bending_points
                .windows(2)
                .map(move |w| signed_area(&cell_corners(&w[0], &w[1], side)))
        })
        .sum()
}

/// The kept part of a cut old edge, in the direction of travel towards the cut (`head`)
/// or away from it, without the cut point; and the old vertex at its far end.
fn kept_part(ecm: &Ecm, c: &FoundCut, head: bool, out: &mut Vec<BendingPoint>) -> VertexId {
    let e = &ecm.edges[c.cand.edge];
    let bps = &e.bending_points;
    let k = c.cand.k;
    match (c.cand.end, head) {
        (End::Start, true) => out.extend_from_slice(&bps[..k]),
        (End::Start, false) => out.extend(bps[..k].iter().rev().map(BendingPoint::flipped)),
        (End::End, true) => out.extend(bps[k + 1..].iter().rev().map(BendingPoint::flipped)),
        (End::End, false) => out.extend_from_slice(&bps[k + 1..]),
    }
    match c.cand.end {
        End::Start => e.start,
        End::End => e.end,
    }
}

/// Checks that the new pieces complete the kept edges and turns them into a splice.
fn select(
    ctx: &Context<'_>,
    mode: &Mode,
    local: &Local<'_>,
    found: &HashMap<EdgeId, Vec<FoundCut>>,
    pieces: Vec<Piece>,
) -> Step {
    let l = local.ecm;
    let ecm = ctx.ecm;
    let tol = 8.0 * ctx.tol;
    // Piece ends at local vertices.
    let mut used: SecondaryMap<VertexId, usize> = SecondaryMap::new();
    let mut in_pieces: SecondaryMap<EdgeId, ()> = SecondaryMap::new();
    for p in &pieces {
        let e = &l.edges[p.edge];
        in_pieces.insert(p.edge, ());
        if p.head.is_none() {
            *used.entry(e.start).unwrap().or_insert(0) += 1;
        }
        if p.tail.is_none() {
            *used.entry(e.end).unwrap().or_insert(0) += 1;
        }
    }
    // End vertices by position.
    let cell = 4.0 * tol;
    let bucket = |p: Point| ((p.x / cell).floor() as i64, (p.y / cell).floor() as i64);
    let mut buckets: HashMap<(i64, i64), Vec<VertexId>> = HashMap::default();
    for &v in mode.end_vertices.keys() {
        buckets
            .entry(bucket(ecm.vertices[v].position))
            .or_default()
            .push(v);
    }
    let near_end =
        |p: Point| -> Vec<VertexId> {
            let (bx, by) = bucket(p);
            let mut out = Vec::new();
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(vs) = buckets.get(&(bx + dx, by + dy)) {
                        out.extend(vs.iter().copied().filter(|v| {
                            (ecm.vertices[*v].position - p).abs().max_element() <= tol
                        }));
                    }
                }
            }
            out
        };
    let mut map: SecondaryMap<VertexId, VertexRef> = SecondaryMap::new();
    let mut used_old: HashMap<VertexId, VertexId> = HashMap::default();
    let mut new_vertices: Vec<Vertex> = Vec::new();
    let mut gained: HashMap<VertexId, usize> = HashMap::default();
    for (lv, &count) in &used {
        let v = &l.vertices[lv];
        // Its medial-axis edges in the local diagram, the infinite ones included.
        let open_edges = local.open.edges(lv);
        let candidates = if v.degree() + open_edges >= 2 {
            near_end(v.position)
        } else {
            Vec::new()
        };
        let r = match candidates.as_slice() {
            [] => {
                // A new vertex: all its local edges must be new (an infinite one never is).
                if count != v.edges.len() || open_edges > 0 {
                    let kept_edge = v.edges.iter().any(|le| {
                        !in_pieces.contains_key(*le)
                            && !found.contains_key(le)
                            && local.certify_edge(&l.edges[*le])
                    });
                    return if kept_edge {
                        Step::Fail(format!("a new vertex at {:?} has a kept edge", v.position))
                    } else {
                        Step::Widen(format!(
                            "an edge of the new vertex at {:?} leaves the region",
                            v.position
                        ))
                    };
                }
                let mut nv = v.clone();
                nv.edges.clear();
                new_vertices.push(nv);
                VertexRef::New(new_vertices.len() - 1)
            }
            [old] => {
                if used_old.insert(*old, lv).is_some() {
                    return Step::Fail("two local vertices match one end vertex".into());
                }
                *gained.entry(*old).or_default() += count;
                VertexRef::Old(*old)
            }
            _ => return Step::Fail("ambiguous end vertices".into()),
        };
        map.insert(lv, r);
    }
    // The new edges: pieces, joined to the kept parts of cut old edges.
    let mut new_edges: Vec<NewEdge> = Vec::with_capacity(pieces.len());
    for p in &pieces {
        let e = &l.edges[p.edge];
        let (start, end, edge) = if p.head.is_none() && p.tail.is_none() {
            (map[e.start], map[e.end], e.clone())
        } else {
            let mut bps: Vec<BendingPoint> = Vec::new();
            let start = match &p.head {
                Some(c) => VertexRef::Old(kept_part(ecm, c, true, &mut bps)),
                None => map[e.start],
            };
            bps.extend_from_slice(&e.bending_points[p.from..=p.to]);
            let end = match &p.tail {
                Some(c) => VertexRef::Old(kept_part(ecm, c, false, &mut bps)),
                None => map[e.end],
            };
            if let Some(c) = &p.head {
                let v = if c.cand.end == End::Start {
                    ecm.edges[c.cand.edge].start
                } else {
                    ecm.edges[c.cand.edge].end
                };
                *gained.entry(v).or_default() += 1;
            }
            if let Some(c) = &p.tail {
                let v = if c.cand.end == End::Start {
                    ecm.edges[c.cand.edge].start
                } else {
                    ecm.edges[c.cand.edge].end
                };
                *gained.entry(v).or_default() += 1;
            }
            let (length, min_clearance) = BendingPoint::length_and_min_clearance(&bps);
            let edge = Edge {
                start: VertexId::default(),
                end: VertexId::default(),
                bending_points: bps,
                length,
                min_clearance,
                component: UNLABELLED,
            };
            (start, end, edge)
        };
        new_edges.push(NewEdge { start, end, edge });
    }
    for (v, lost) in &mode.end_vertices {
        let got = gained.get(v).copied().unwrap_or(0);
        if got != *lost {
            return Step::Widen(format!(
                "the end vertex at {:?} lost {lost} edges and regained {got}",
                ecm.vertices[*v].position
            ));
        }
    }
    // Areas.
    let scale = ecm.grid.scale();
    let added: f64 = new_edges.iter().map(|ne| edge_area(&ne.edge)).sum();
    let removed: f64 = ctx
        .influenced
        .iter()
        .map(|id| edge_area(&ecm.edges[*id]))
        .sum();
    let (new_twice, old_twice) = (ctx.new_twice, ctx.old_twice);
    let change = (new_twice - old_twice) as f64 * 0.5;
    let area_scale = scale * scale;
    let mismatch = ((added - removed) * area_scale - change).abs();
    let allowed = 1e-9 * (added.abs() + removed.abs()) * area_scale + 0.05 + ctx.tol_grid;
    if mismatch > allowed {
        return Step::Widen(format!(
            "the new cells cover {} grid units² but the free area changed by {change}",
            (added - removed) * area_scale
        ));
    }
    let grid = ecm.grid;
    let free_area = grid.to_user_length(grid.to_user_length(1.0)) * new_twice as f64 * 0.5;
    Step::Done(Splice {
        remove_edges: ctx.influenced.iter().copied().collect(),
        remove_vertices: mode.remove_vertices.clone(),
        new_vertices,
        new_edges,
        free_area,
        widenings: 0,
        cut: false,
        voronoi_time: Duration::ZERO,
        local_walls: 0,
    })
}

/// Splices a planned repair into the ECM and keeps the indexes current.
pub(crate) fn apply(ecm: &mut Ecm, index: &mut UpdateIndex, splice: Splice, deviation: f64) {
    // Two end vertices per removed and per new edge, then the new vertices as seeds.
    let mut touched: Vec<VertexId> = Vec::with_capacity(
        2 * (splice.remove_edges.len() + splice.new_edges.len()) + splice.new_vertices.len(),
    );
    let mut affected: HashSet<u32> = HashSet::default();
    let mut removed: Vec<(EdgeId, Edge)> = Vec::with_capacity(splice.remove_edges.len());
    for id in splice.remove_edges {
        let Some(edge) = ecm.edges.remove(id) else {
            continue;
        };
        affected.insert(edge.component.0);
        for v in [edge.start, edge.end] {
            if let Some(vertex) = ecm.vertices.get_mut(v) {
                vertex.edges.retain(|e| *e != id);
                touched.push(v);
            }
        }
        removed.push((id, edge));
    }
    // The bending-point count is kept up to date by difference: counting it again would
    // walk every edge of the map on every update.
    let interior = |e: &Edge| e.bending_points.len().saturating_sub(2);
    let vertices_before = ecm.vertex_count();
    let mut interior_points = ecm.stats.bending_points.saturating_sub(vertices_before);
    interior_points -= removed
        .iter()
        .map(|(_, e)| interior(e))
        .sum::<usize>()
        .min(interior_points);
    match removed.as_slice() {
        [(id, edge)] => ecm.cells.remove_edge(*id, edge),
        _ => ecm
            .cells
            .remove_edges(removed.iter().map(|(id, e)| (*id, e))),
    }
    remove_sweep(&mut index.sweep, &removed, deviation);
    for v in splice.remove_vertices {
        if let Some(vertex) = ecm.vertices.remove(v) {
            let c = vertex.component.0;
            affected.insert(c);
            if let Some(n) = index.sizes.get_mut(c as usize) {
                *n = n.saturating_sub(1);
            }
        }
    }
    let new_ids: Vec<VertexId> = splice
        .new_vertices
        .into_iter()
        .map(|mut v| {
            v.component = UNLABELLED;
            ecm.vertices.insert(v)
        })
        .collect();
    let resolve = |r: VertexRef| match r {
        VertexRef::Old(v) => v,
        VertexRef::New(i) => new_ids[i],
    };
    for ne in splice.new_edges {
        let (start, end) = (resolve(ne.start), resolve(ne.end));
        let mut edge = ne.edge;
        edge.start = start;
        edge.end = end;
        edge.component = UNLABELLED;
        interior_points += interior(&edge);
        let id = ecm.edges.insert(edge);
        let edge = &ecm.edges[id];
        ecm.cells.insert_edge(id, edge);
        index.sweep.added.insert(sweep_box(edge, deviation), id);
        for v in [start, end] {
            ecm.vertices[v].edges.push(id);
            touched.push(v);
        }
    }
    touched.sort_unstable();
    touched.dedup();
    touched.retain(|v| ecm.vertices.contains_key(*v));
    for &v in &touched {
        sort_incident(ecm, v);
    }
    let mut seeds = touched;
    seeds.extend(new_ids.iter().copied());
    seeds.sort_unstable();
    seeds.dedup();
    update_components(ecm, index, &seeds, affected);
    ecm.free_area = splice.free_area;
    ecm.stats.vertices = ecm.vertex_count();
    ecm.stats.edges = ecm.edge_count();
    ecm.stats.bending_points = ecm.vertex_count() + interior_points;
    debug_assert_eq!(ecm.stats.bending_points, ecm.bending_point_count());
    ecm.stats.components = ecm.component_count();
}

/// Removes the sweep boxes of these edges in one walk of each tree.
fn remove_sweep(sweep: &mut Sweep, removed: &[(EdgeId, Edge)], deviation: f64) {
    if removed.is_empty() {
        return;
    }
    let mut ids: Vec<EdgeId> = removed.iter().map(|(id, _)| *id).collect();
    ids.sort_unstable();
    let extent = removed
        .iter()
        .fold(EMPTY_BOX, |a, (_, e)| union(a, sweep_box(e, deviation)));
    let mut left = removed.len();
    sweep
        .added
        .remove_meeting(extent, |id| ids.binary_search(id).is_ok(), |_| left -= 1);
    if left == 0 {
        return;
    }
    struct Select<'a> {
        envelope: AABB<[f64; 2]>,
        ids: &'a [EdgeId],
    }
    impl rstar::SelectionFunction<SweepItem> for Select<'_> {
        fn should_unpack_parent(&self, envelope: &AABB<[f64; 2]>) -> bool {
            self.envelope.intersects(envelope)
        }
        fn should_unpack_leaf(&self, leaf: &SweepItem) -> bool {
            self.ids.binary_search(&leaf.data).is_ok()
        }
    }
    sweep
        .base
        .drain_with_selection_function(Select {
            envelope: AABB::from_corners([extent[0], extent[1]], [extent[2], extent[3]]),
            ids: &ids,
        })
        .for_each(drop);
}

/// The component of vertices and edges that are not numbered yet.
const UNLABELLED: ComponentId = ComponentId(u32::MAX);

/// One breadth-first search of [`update_components`] (merged into another when they meet).
struct Search {
    queue: VecDeque<VertexId>,
    explored: Vec<VertexId>,
    /// The old component ids seen.
    old: Vec<u32>,
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Numbers the components again after a splice, looking only at the part of the graph
/// that can have changed.
///
/// Every changed component contains a seed (a vertex that lost or gained an edge, or a
/// new vertex). Breadth-first searches start from all seeds at once, one vertex each in
/// turn, and merge when they meet. A search that runs out of vertices has found a whole
/// component; the searches stop when at most one is still running (it holds the rest,
/// usually the large component around the change, which is not walked). So a door that
/// closes off a room costs a walk of the room, an update that splits nothing a walk of a
/// few vertices around the change. Ids stay `0..count`: the running search keeps the id
/// of the largest old component it met (others it met are renumbered to it), finished
/// searches take the remaining old ids or new ones, and ids left over are filled by
/// renumbering the last component.
fn update_components(
    ecm: &mut Ecm,
    index: &mut UpdateIndex,
    seeds: &[VertexId],
    affected: HashSet<u32>,
) {
    let mut owner: HashMap<VertexId, usize> = HashMap::default();
    owner.reserve(4 * seeds.len());
    let mut searches: Vec<Search> = Vec::with_capacity(seeds.len());
    let mut parent: Vec<usize> = Vec::with_capacity(seeds.len());
    let mut running: Vec<usize> = Vec::with_capacity(seeds.len());
    for &s in seeds {
        if owner.contains_key(&s) {
            continue;
        }
        let i = searches.len();
        owner.insert(s, i);
        let c = ecm.vertices[s].component;
        searches.push(Search {
            queue: VecDeque::from([s]),
            explored: vec![s],
            old: if c == UNLABELLED {
                Vec::new()
            } else {
                vec![c.0]
            },
        });
        parent.push(i);
        running.push(i);
    }
    let mut finished: Vec<usize> = Vec::new();
    loop {
        running.retain(|&i| find(&mut parent, i) == i);
        if running.is_empty() {
            break;
        }
        if running.len() == 1 && !searches[running[0]].old.is_empty() {
            break;
        }
        let mut k = 0;
        while k < running.len() {
            let i = find(&mut parent, running[k]);
            if i != running[k] {
                k += 1;
                continue;
            }
            let Some(u) = searches[i].queue.pop_front() else {
                finished.push(i);
                running.swap_remove(k);
                continue;
            };
            for &e in &ecm.vertices[u].edges {
                let edge = &ecm.edges[e];
                for w in [edge.start, edge.end] {
                    match owner.get(&w) {
                        Some(&j) => {
                            let j = find(&mut parent, j);
                            if j != i {
                                // Merge search j into i.
                                parent[j] = i;
                                let other = std::mem::replace(
                                    &mut searches[j],
                                    Search {
                                        queue: VecDeque::new(),
                                        explored: Vec::new(),
                                        old: Vec::new(),
                                    },
                                );
                                let s = &mut searches[i];
                                s.queue.extend(other.queue);
                                s.explored.extend(other.explored);
                                s.old.extend(other.old);
                            }
                        }
                        None => {
                            owner.insert(w, i);
                            let s = &mut searches[i];
                            s.queue.push_back(w);
                            s.explored.push(w);
                            let c = ecm.vertices[w].component;
                            if c != UNLABELLED {
                                s.old.push(c.0);
                            }
                        }
                    }
                }
            }
            k += 1;
        }
    }
    // Ids that may be given out again: every old id involved.
    let mut free: Vec<u32> = affected.into_iter().collect();
    for &i in finished.iter().chain(&running) {
        let s = &mut searches[i];
        s.old.sort_unstable();
        s.old.dedup();
        free.extend(s.old.iter().copied());
    }
    free.sort_unstable();
    free.dedup();
    let mut relabelled: Vec<VertexId> = Vec::with_capacity(seeds.len());
    // The search still running keeps the largest old component's id.
    if let Some(&i) = running.first() {
        let s = &searches[i];
        let keep = *s
            .old
            .iter()
            .max_by_key(|c| {
                (
                    index.sizes.get(**c as usize).copied().unwrap_or(0),
                    u32::MAX - **c,
                )
            })
            .unwrap_or(&0);
        free.retain(|c| *c != keep);
        for &v in &s.explored {
            let c = ecm.vertices[v].component;
            if c == UNLABELLED {
                relabel(ecm, index, v, keep, &mut relabelled);
            } else if c.0 != keep {
                flood(ecm, index, v, c, keep, &mut relabelled);
            } else {
                relabelled.push(v);
            }
        }
        if let Some(&v) = s.explored.first() {
            set_representative(index, keep, v);
        }
    }
    // Every finished search is a whole component.
    free.reverse(); // pop the smallest first
    for &i in &finished {
        let id = match free.pop() {
            Some(id) => id,
            None => {
                index.sizes.push(0);
                index.representative.push(None);
                ecm.component_count += 1;
                ecm.component_count - 1
            }
        };
        let explored = std::mem::take(&mut searches[i].explored);
        for &v in &explored {
            relabel(ecm, index, v, id, &mut relabelled);
        }
        if let Some(&v) = explored.first() {
            set_representative(index, id, v);
        }
    }
    // Ids left over: fill them from the top so that ids stay 0..count.
    free.sort_unstable_by(|a, b| b.cmp(a));
    for f in free {
        let last = ecm.component_count - 1;
        if f != last {
            let start = representative(ecm, index, last);
            if let Some(v) = start {
                flood(ecm, index, v, ComponentId(last), f, &mut relabelled);
                set_representative(index, f, v);
            }
        }
        index.sizes.pop();
        index.representative.pop();
        ecm.component_count -= 1;
    }
    // Edges take their start vertex's component.
    for v in relabelled {
        let vertex = &ecm.vertices[v];
        for &e in &vertex.edges {
            ecm.edges[e].component = vertex.component;
        }
    }
}

fn set_representative(index: &mut UpdateIndex, c: u32, v: VertexId) {
    if let Some(slot) = index.representative.get_mut(c as usize) {
        *slot = Some(v);
    }
}

/// A vertex of component `c` (a scan of all vertices when the remembered one is stale).
fn representative(ecm: &Ecm, index: &UpdateIndex, c: u32) -> Option<VertexId> {
    let remembered = index.representative.get(c as usize).copied().flatten();
    if let Some(v) = remembered {
        if ecm.vertices.get(v).is_some_and(|x| x.component.0 == c) {
            return Some(v);
        }
    }
    ecm.vertices
        .iter()
        .find(|(_, x)| x.component.0 == c)
        .map(|(id, _)| id)
}

fn relabel(ecm: &mut Ecm, index: &mut UpdateIndex, v: VertexId, to: u32, out: &mut Vec<VertexId>) {
    let vertex = &mut ecm.vertices[v];
    let from = vertex.component;
    if from.0 == to {
        out.push(v);
        return;
    }
    if from != UNLABELLED {
        if let Some(n) = index.sizes.get_mut(from.0 as usize) {
            *n = n.saturating_sub(1);
        }
    }
    vertex.component = ComponentId(to);
    if let Some(n) = index.sizes.get_mut(to as usize) {
        *n += 1;
    }
    out.push(v);
}

/// Renumbers the vertices of component `from` reachable from `start` through vertices of
/// `from` to `to`.
fn flood(
    ecm: &mut Ecm,
    index: &mut UpdateIndex,
    start: VertexId,
    from: ComponentId,
    to: u32,
    out: &mut Vec<VertexId>,
) {
    if ecm.vertices[start].component != from {
        return;
    }
    relabel(ecm, index, start, to, out);
    let mut stack = vec![start];
    while let Some(u) = stack.pop() {
        for k in 0..ecm.vertices[u].edges.len() {
            let e = ecm.vertices[u].edges[k];
            let edge = &ecm.edges[e];
            for w in [edge.start, edge.end] {
                if ecm.vertices[w].component == from {
                    relabel(ecm, index, w, to, out);
                    stack.push(w);
                }
            }
        }
    }
}

/// Orders a vertex's incident edges counter-clockwise by leaving direction (as the build
/// does).
fn sort_incident(ecm: &mut Ecm, vid: VertexId) {
    let edges = &ecm.edges;
    let angle = |e: EdgeId| {
        let edge = &edges[e];
        let bps = &edge.bending_points;
        let (from, to) = if edge.start == vid {
            (
                bps[0].position,
                bps.iter()
                    .map(|b| b.position)
                    .find(|p| *p != bps[0].position),
            )
        } else {
            let l = bps[bps.len() - 1].position;
            (l, bps.iter().rev().map(|b| b.position).find(|p| *p != l))
        };
        to.map(|t| (t - from).y.atan2((t - from).x)).unwrap_or(0.0)
    };
    // Each angle once (the comparison sort computed two per comparison); a stable sort of
    // the pairs keeps the order the edges had among equal angles, as before. Up to 8
    // edges are keyed on the stack.
    let mut keyed: SmallVec<[(f64, EdgeId); 8]> = ecm.vertices[vid]
        .edges
        .iter()
        .map(|&e| (angle(e), e))
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (slot, k) in ecm.vertices[vid].edges.iter_mut().zip(&keyed) {
        *slot = k.1;
    }
}
