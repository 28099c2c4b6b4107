//! From the segment Voronoi diagram to the medial axis of the free space: which Voronoi
//! edges to keep, how to chain them into ECM edges, and where the bending points and
//! their nearest obstacle points are. Everything here is in grid coordinates of the
//! (possibly transformed) walls.

use corridor_geom::{
    orient, GridPoint, Orientation, Point, PointGroups, WallSegment, WallSource, Walls,
};
use corridor_voronoi::prelude::{Builder, EdgeList, SourceCategory};

use crate::graph::BendingPoint;

/// A Voronoi site: an isolated point, a segment end point, or a segment.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Site {
    Point(GridPoint),
    Segment(u32),
}

/// An ECM edge in grid coordinates.
///
/// Its bending points are already [`BendingPoint`]s, in grid coordinates of the
/// (possibly transformed) walls, with the left and right of the diagram and `clearance`
/// not yet set: `finalize` turns them into user coordinates in place, so that the ECM's
/// edges keep the lists written here. (A shared list of raw points copied into the
/// edges afterwards was 8 MB written and read again on Aurora.)
#[derive(Clone, Debug)]
pub(crate) struct RawEdge {
    pub start: u32,
    pub end: u32,
    pub bending_points: Vec<BendingPoint>,
}

/// The medial axis in grid coordinates: vertices (positions, and whether the vertex lies
/// on a wall corner) and edges.
#[derive(Clone, Debug, Default)]
pub(crate) struct RawEcm {
    pub vertices: Vec<(Point, bool)>,
    pub edges: Vec<RawEdge>,
}

/// A vertex of a diagram extracted without a closing frame ([`extract_open`]) that has
/// infinite Voronoi edges in the free space: they are not traced, so the vertex's edges in
/// the extracted medial axis are not all of its edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OpenVertex {
    /// The vertex (an index into [`RawEcm::vertices`]).
    pub vertex: u32,
    /// How many of its medial-axis edges are infinite (not traced).
    pub open_edges: u32,
    /// Whether it has two medial-axis edges in all, so that it is a bending point of the
    /// medial axis of these walls: it is a vertex of the extracted graph only because the
    /// chain through it stops there (it runs off to infinity).
    pub bending: bool,
}

/// Why extraction failed.
#[derive(Clone, Debug)]
pub(crate) enum ExtractError {
    /// The Voronoi library returned an error.
    Voronoi(String),
    /// An infinite Voronoi edge lies in the free space.
    Unbounded(Vec<WallSource>),
}

/// Builds the Voronoi diagram of the walls' segments and points, as the library's compact
/// output: the sweep of a full `Builder::build`, without the cells, links and colours
/// that extraction does not read (the same edges, sites and vertices, see
/// `boostvoronoi::output::EdgeList`).
pub(crate) fn voronoi(walls: &Walls) -> Result<EdgeList, ExtractError> {
    let err = |e: corridor_voronoi::prelude::BvError| ExtractError::Voronoi(e.to_string());
    // The sites of `Walls::integer_sites`, handed over as they are converted (no lists of
    // them written and read back).
    Builder::<i64>::default()
        .with_vertices(walls.integer_points())
        .map_err(err)?
        .with_segments(walls.integer_segments())
        .map_err(err)?
        .build_output::<EdgeList>()
        .map_err(err)
}

/// `x.round()` wherever it is less than 2⁵¹ from 0 and not halfway between two integers
/// (elsewhere some other value), without a call into the maths library: adding and
/// subtracting 1.5 · 2⁵² rounds to an integer (halfway to the even one). Extraction only
/// uses the result where it is within 10⁻⁶ of `x` and 2³¹ of 0, as a grid coordinate.
fn round(x: f64) -> f64 {
    const SHIFT: f64 = 6_755_399_441_055_744.0;
    // `round` keeps the sign of a zero result (−0.3 rounds to −0).
    ((x + SHIFT) - SHIFT).copysign(x)
}

fn pt(p: GridPoint) -> Point {
    Point::new(p.x as f64, p.y as f64)
}

struct Extractor<'a> {
    walls: &'a Walls,
    /// Per wall segment, its floating-point geometry.
    segments: Vec<SegmentGeometry>,
    /// The segment ends grouped by point (see [`segment_ends`]).
    ends: &'a PointGroups,
    /// Maximum chord deviation of sampled parabolic arcs (grid units).
    deviation: f64,
}

const NONE: u32 = u32::MAX;

/// A wall segment in grid coordinates as floating-point points, with the difference of its
/// ends and the tolerance of [`Extractor::nearest_with_kind`], which would otherwise be
/// recomputed for every bending point near the segment.
#[derive(Clone, Copy, Debug)]
struct SegmentGeometry {
    a: Point,
    b: Point,
    /// `b - a`.
    d: Point,
    /// The squared length of `d`.
    len2: f64,
    /// How close to an end a nearest point counts as that end (see
    /// [`Extractor::nearest_with_kind`]).
    near_end: f64,
}

impl SegmentGeometry {
    fn new(s: &WallSegment) -> Self {
        let (a, b) = (pt(s.a), pt(s.b));
        let d = b - a;
        let len2 = d.length_squared();
        SegmentGeometry {
            a,
            b,
            d,
            len2,
            // `1e-9 * d.length()`.
            near_end: 1e-9 * len2.sqrt(),
        }
    }
}

/// A kept Voronoi half-edge, as chain tracing reads it: the slot of its twin, the vertex
/// where it ends, and the sites on its left and right.
#[derive(Clone, Copy, Debug)]
struct HalfEdge {
    twin: u32,
    end: u32,
    left: Site,
    right: Site,
}

/// A kept Voronoi edge as found: the vertex each of its two half-edges starts at, and
/// the site on the left of each.
#[derive(Clone, Copy, Debug)]
struct KeptPair {
    starts: [u32; 2],
    sites: [Site; 2],
}

/// A Voronoi vertex, as chain tracing reads it: its position (the exact grid point on a
/// wall corner), where its outgoing kept half-edges start (they end where the next
/// vertex's start), and its ECM vertex. 24 bytes: the records of all vertices are
/// written and then read out of order while tracing.
#[derive(Clone, Copy, Debug)]
struct ChainVertex {
    position: Point,
    first: u32,
    /// The ECM vertex, [`CORNER`] for corners (which get one per incident edge), or
    /// `NONE` for bending points and vertices without kept edges.
    ecm_vertex: u32,
}

/// [`ChainVertex::ecm_vertex`] of a vertex on a wall corner.
const CORNER: u32 = u32::MAX - 1;

/// Most samples on one parabolic arc (a guard against absurd deviation settings).
const MAX_ARC_SAMPLES: usize = 1 << 16;

impl<'a> Extractor<'a> {
    /// The segments that end at `p`, in increasing order.
    fn incident(&self, p: GridPoint) -> impl Iterator<Item = u32> + '_ {
        self.ends.at(p).iter().map(|end| end / 2)
    }

    fn site_sources(&self, site: Site) -> Vec<WallSource> {
        match site {
            Site::Segment(s) => self.walls.segments[s as usize].sources.to_vec(),
            Site::Point(p) => {
                let mut out: Vec<WallSource> = self
                    .incident(p)
                    .flat_map(|s| self.walls.segments[s as usize].sources.iter().copied())
                    .collect();
                out.extend(
                    self.walls
                        .points
                        .iter()
                        .filter(|(q, _)| *q == p)
                        .flat_map(|(_, s)| s.iter().copied()),
                );
                out
            }
        }
    }

    /// The bending point at `q` between the sites on its left and right (grid
    /// coordinates; `clearance` is set by `finalize`).
    #[inline(always)]
    fn annotate(&self, q: Point, left: Site, right: Site, is_voronoi_vertex: bool) -> BendingPoint {
        let (left, left_is_corner) = self.nearest_with_kind(left, q);
        let (right, right_is_corner) = self.nearest_with_kind(right, q);
        BendingPoint {
            position: q,
            left,
            right,
            clearance: 0.0,
            left_is_corner,
            right_is_corner,
            is_voronoi_vertex,
        }
    }

    /// The nearest point of a site to `q`, and whether it is a wall end point (a corner)
    /// rather than a point inside a segment. (Inlined: it is a few lines, and once the
    /// compiler stopped inlining it on its own extraction cost 6 % more instructions.)
    #[inline]
    fn nearest_with_kind(&self, site: Site, q: Point) -> (Point, bool) {
        match site {
            Site::Point(p) => (pt(p), true),
            Site::Segment(s) => {
                // `nearest_on_segment(a, b, q)` with `b - a` and its squared length as
                // stored (the same operations, so the same point). A Voronoi vertex on a
                // corner's bisector projects onto the segment's end up to rounding: count
                // that as the corner. (At an end, the distance to it is 0.)
                let g = &self.segments[s as usize];
                if g.len2 == 0.0 {
                    return (g.a, true);
                }
                let t = ((q - g.a).dot(g.d) / g.len2).clamp(0.0, 1.0);
                if t == 0.0 {
                    (g.a, true)
                } else if t == 1.0 {
                    (g.b, true)
                } else {
                    let n = g.a + g.d * t;
                    (
                        n,
                        n.distance(g.a) <= g.near_end || n.distance(g.b) <= g.near_end,
                    )
                }
            }
        }
    }

    /// The nearest point of a site to `q`.
    fn nearest(&self, site: Site, q: Point) -> Point {
        self.nearest_with_kind(site, q).0
    }

    /// Whether `q`, a point whose nearest wall point is `p` (a segment end point or an
    /// isolated point), lies in free space: find the wall that bounds the wedge around `p`
    /// containing `q` on its counter-clockwise side and ask which side of it is free.
    fn free_near_point(&self, p: GridPoint, q: Point) -> bool {
        let d = q - pt(p);
        let first = if d.is_finite() {
            self.first_wall_ccw(p, d)
        } else {
            self.first_wall_ccw_by_angles(p, d)
        };
        // No wall: an isolated point lies in free space. Otherwise the wedge is clockwise
        // of the wall as seen from `p`: that is the wall's left side exactly when it
        // arrives at `p`.
        first.is_none_or(|s| {
            let seg = &self.walls.segments[s as usize];
            seg.two_sided || seg.b == p
        })
    }

    /// The first wall at `p` counter-clockwise from the direction `d`, angles taken in
    /// (0, 2π] (a wall along `d` counts as 2π): ordered by the quarter of the turn they
    /// fall in (by the signs of the cross and dot products with `d`, the values `atan2`
    /// would be given), then within the open half-turns by the exact orientation of the
    /// two walls.
    fn first_wall_ccw(&self, p: GridPoint, d: Point) -> Option<u32> {
        let rank = |w: Point| -> u8 {
            let (y, x) = (d.perp_dot(w), d.dot(w));
            if y > 0.0 {
                0
            } else if y < 0.0 {
                2
            } else if x < 0.0 {
                1
            } else {
                3
            }
        };
        let mut best: Option<(u8, GridPoint, u32)> = None;
        for s in self.incident(p) {
            let other = self.other_end(s, p);
            let r = rank(pt(other) - pt(p));
            let first = match best {
                None => true,
                Some((b, _, _)) if r != b => r < b,
                // In an open half-turn the wall clockwise of the other comes first.
                Some((_, o, _)) => {
                    (r == 0 || r == 2)
                        && corridor_geom::orient_grid(p, other, o) == Orientation::CounterClockwise
                }
            };
            if first {
                best = Some((r, other, s));
            }
        }
        best.map(|(_, _, s)| s)
    }

    /// [`Extractor::first_wall_ccw`] by `atan2` angles, for a non-finite direction `d`
    /// (where the orientation tests are undefined).
    fn first_wall_ccw_by_angles(&self, p: GridPoint, d: Point) -> Option<u32> {
        let mut best: Option<(f64, u32)> = None;
        for s in self.incident(p) {
            let w = pt(self.other_end(s, p)) - pt(p);
            let mut ccw = d.perp_dot(w).atan2(d.dot(w));
            if ccw <= 0.0 {
                ccw += std::f64::consts::TAU;
            }
            if best.is_none_or(|(b, _)| ccw < b) {
                best = Some((ccw, s));
            }
        }
        best.map(|(_, s)| s)
    }

    /// The end of wall `s` that is not `p`.
    fn other_end(&self, s: u32, p: GridPoint) -> GridPoint {
        let seg = &self.walls.segments[s as usize];
        if seg.a == p {
            seg.b
        } else {
            seg.a
        }
    }

    /// Whether the point `q()` on a Voronoi edge between `a` and `b` lies in free space
    /// (`q` is called only when the sites do not decide it).
    #[inline(always)]
    fn free_between(&self, a: Site, b: Site, q: impl FnOnce() -> Point) -> bool {
        match (a, b) {
            (Site::Segment(s), other) | (other, Site::Segment(s)) => {
                let seg = &self.walls.segments[s as usize];
                if seg.two_sided {
                    return true;
                }
                // For a parabola (segment against a point off its line) the point itself
                // is on the edge's side of the segment: decide exactly on integers (`orient`
                // is exact too, so on the point it would say the same; an end point of the
                // segment is collinear with it).
                if let Site::Point(p) = other {
                    let side = corridor_geom::orient_grid(seg.a, seg.b, p);
                    if side != Orientation::Collinear {
                        return side == Orientation::CounterClockwise;
                    }
                }
                let g = &self.segments[s as usize];
                orient(g.a, g.b, q()) == Orientation::CounterClockwise
            }
            (Site::Point(p), Site::Point(_)) => self.free_near_point(p, q()),
        }
    }
}

/// The medial axis of the free space of a part of the walls without a closing frame (for
/// local diagrams): where a medial-axis edge is infinite, the chain stops at its finite
/// end vertex, which becomes a vertex of the result (also when the edge makes it a bending
/// point) and is listed with its infinite edges. Infinite edges other than the bisector of
/// two points (there are none in a segment Voronoi diagram) still fail with
/// [`ExtractError::Unbounded`].
pub(crate) fn extract_open(
    walls: &Walls,
    diagram: &EdgeList,
    deviation: f64,
) -> Result<(RawEcm, Vec<OpenVertex>), ExtractError> {
    let mut open = Vec::new();
    let raw = extract_impl(
        walls,
        &segment_ends(walls),
        diagram,
        deviation,
        Some(&mut open),
    )?;
    Ok((raw, open))
}

/// The end points of the walls' segments grouped by point: segment `i`'s ends `a` and `b`
/// are items `2i` and `2i + 1`.
pub(crate) fn segment_ends(walls: &Walls) -> PointGroups {
    // (A range mapped to the ends rather than a `flat_map` over the segments: an exact
    // length and no inner iterator state to step through.)
    let segments = &walls.segments;
    PointGroups::new((0..2 * segments.len()).map(|end| {
        let s = &segments[end / 2];
        if end % 2 == 0 {
            s.a
        } else {
            s.b
        }
    }))
}

/// [`corner_sides`]: the Voronoi cell of the corner lies in the free space.
const CORNER_FREE: u8 = 1;
/// [`corner_sides`]: the Voronoi cell of the corner lies in the obstacle.
const CORNER_BLOCKED: u8 = 0;
/// [`corner_sides`]: not a corner of exactly two one-sided walls; ask
/// [`Extractor::free_near_point`].
const CORNER_OTHER: u8 = 2;

/// Per segment end (item `2i` is segment `i`'s `a`, `2i + 1` its `b`, as in
/// [`segment_ends`]), whether the Voronoi cell of the point there lies in the free space,
/// where exactly two one-sided walls meet at it, one arriving and one leaving, not in a
/// straight line ([`CORNER_OTHER`] elsewhere).
///
/// The cell of such a corner `p` (as a point site, among the segments) lies beyond the
/// perpendiculars of both walls at `p`, so inside the wedge between the walls that is
/// wider than a half-turn, at an angle of a quarter-turn or more from both walls. Its
/// points, and so the midpoint of any Voronoi edge of the cell, are in free space exactly
/// when that wedge is, that is when the walls (free on their left) turn clockwise at `p`.
/// [`Extractor::free_near_point`] finds the same wedge around the direction from `p` to
/// the point (which the rounding of the Voronoi vertices cannot move by a quarter-turn),
/// after a lookup of the point's walls per edge; this is one pass over the corners.
fn corner_sides(walls: &Walls, ends: &PointGroups) -> Vec<u8> {
    let mut sides = vec![CORNER_OTHER; 2 * walls.segments.len()];
    for g in 0..ends.len() {
        let &[x, y] = ends.group(g) else {
            continue;
        };
        if (x ^ y) & 1 == 0 {
            continue;
        }
        let (arriving, leaving) = if x & 1 == 1 { (x, y) } else { (y, x) };
        let (arriving, leaving) = (
            &walls.segments[arriving as usize / 2],
            &walls.segments[leaving as usize / 2],
        );
        if arriving.two_sided || leaving.two_sided {
            continue;
        }
        let side = match corridor_geom::orient_grid(arriving.a, arriving.b, leaving.b) {
            Orientation::Clockwise => CORNER_FREE,
            Orientation::CounterClockwise => CORNER_BLOCKED,
            Orientation::Collinear => continue,
        };
        sides[x as usize] = side;
        sides[y as usize] = side;
    }
    sides
}

/// The medial axis of the free space of `walls` (which must close it: an infinite
/// medial-axis edge fails with [`ExtractError::Unbounded`]), from their Voronoi diagram,
/// given their [`segment_ends`] (built once for the wall checks too).
pub(crate) fn extract_with(
    walls: &Walls,
    ends: &PointGroups,
    diagram: &EdgeList,
    deviation: f64,
) -> Result<RawEcm, ExtractError> {
    extract_impl(walls, ends, diagram, deviation, None)
}

/// [`extract_with`], or with `open` [`extract_open`] (the vertices with infinite
/// medial-axis edges are written there).
fn extract_impl(
    walls: &Walls,
    ends: &PointGroups,
    diagram: &EdgeList,
    deviation: f64,
    mut open: Option<&mut Vec<OpenVertex>>,
) -> Result<RawEcm, ExtractError> {
    let x = Extractor {
        walls,
        segments: walls.segments.iter().map(SegmentGeometry::new).collect(),
        ends,
        deviation,
    };
    let np = walls.points.len();
    let site = |pair: &corridor_voronoi::prelude::EdgePair, half: usize| {
        let i = pair.source_index(half);
        match pair.source_category(half) {
            SourceCategory::SinglePoint => Site::Point(walls.points[i].0),
            SourceCategory::SegmentStart => Site::Point(walls.segments[i - np].a),
            SourceCategory::SegmentEnd => Site::Point(walls.segments[i - np].b),
            SourceCategory::Segment => Site::Segment((i - np) as u32),
        }
    };
    // The library's compact output: one record per Voronoi edge (its halves are the
    // half-edges `2i` and `2i + 1`), the vertex positions read where needed. Vertices
    // keep the sweep's numbering (`EdgeList::start` applies the merges of degenerate
    // edges); those that start no edge have no kept edges here either, and the others
    // come in the finished diagram's order, so the ECM is the same.
    let pairs = diagram.pairs();
    let dv = diagram.vertices();
    let nv = dv.len();
    let verts = |v: usize| Point::new(dv[v][0], dv[v][1]);

    let corners = corner_sides(walls, ends);

    // 1. Which Voronoi edges are medial-axis edges of the free space.
    //    The kept pairs are listed in the order of their first half-edge, with what the
    //    chain records need.
    let mut kept: Vec<KeptPair> = Vec::with_capacity(pairs.len() / 2);
    let mut degree = vec![0u32; nv];
    // Infinite medial-axis edges per vertex (only without a frame; else they fail).
    let mut infinite = if open.is_some() {
        vec![0u32; nv]
    } else {
        Vec::new()
    };
    for pair in pairs {
        if !pair.is_primary() {
            continue;
        }
        let (a, b) = (site(pair, 0), site(pair, 1));
        match (diagram.start(pair, 0), diagram.start(pair, 1)) {
            (Some(v0), Some(v1)) => {
                // The edge's midpoint, computed only where a test needs it.
                let mid = || (verts(v0) + verts(v1)) * 0.5;
                let free = match (a, b) {
                    // Between two points: at a corner of two walls, decided once per
                    // corner (see [`corner_sides`]), else by the walls around the point.
                    (Site::Point(p), Site::Point(_)) => {
                        let i = pair.source_index(0).wrapping_sub(np);
                        let end = match pair.source_category(0) {
                            SourceCategory::SegmentStart => 2 * i,
                            SourceCategory::SegmentEnd => 2 * i + 1,
                            _ => usize::MAX,
                        };
                        match corners.get(end) {
                            Some(&CORNER_FREE) => true,
                            Some(&CORNER_BLOCKED) => false,
                            _ => x.free_near_point(p, mid()),
                        }
                    }
                    _ => x.free_between(a, b, mid),
                };
                if !free {
                    continue;
                }
                // Two segments meeting in a straight line have the same nearest point all
                // along their common perpendicular: not a medial-axis edge.
                // (Two points are their own nearest points.)
                let same = match (a, b) {
                    (Site::Point(p), Site::Point(r)) => p == r,
                    _ => {
                        let q = mid();
                        x.nearest(a, q) == x.nearest(b, q)
                    }
                };
                if same {
                    continue;
                }
                kept.push(KeptPair {
                    starts: [v0 as u32, v1 as u32],
                    sites: [a, b],
                });
                degree[v0] += 1;
                degree[v1] += 1;
            }
            (v0, v1) => {
                // Infinite primary edges run between two point sites along their bisector.
                let (Site::Point(p1), Site::Point(p2)) = (a, b) else {
                    if open.is_some() {
                        // Not expected; without a frame its vertex could not be marked.
                        return Err(ExtractError::Unbounded(Vec::new()));
                    }
                    continue;
                };
                let dir = (pt(p2) - pt(p1)).perp();
                let q = match (v0, v1) {
                    (Some(v), None) => verts(v) + dir,
                    (None, Some(v)) => verts(v) - dir,
                    _ => (pt(p1) + pt(p2)) * 0.5,
                };
                if x.free_between(a, b, || q) {
                    if open.is_some() {
                        for v in [v0, v1].into_iter().flatten() {
                            infinite[v] += 1;
                        }
                        continue;
                    }
                    let mut sources = x.site_sources(a);
                    sources.extend(x.site_sources(b));
                    return Err(ExtractError::Unbounded(sources));
                }
            }
        }
    }

    // 2. Outgoing kept half-edges per vertex (compressed rows, in increasing half-edge
    //    order within a row), each copied into a `HalfEdge` record with what tracing
    //    needs. Tracing jumps from one end of a chain to the other, far away in the
    //    diagram's memory: there it reads one record per half-edge and one per vertex
    //    (with the library's full diagram these were an edge, its twin, two cells, and
    //    four per-vertex arrays: the cache misses of the whole tracing were the largest
    //    cost of extraction by time). A vertex's kept half-edges are its `degree` (one
    //    leaves each end of a kept pair), so the rows are sized without another pass
    //    over the diagram.
    //    The degrees become the cursors that hand out the slots.
    // 3. Vertices on wall corners (clearance 0) get one ECM vertex per incident edge, so
    //    that no medial axis passes through a pinch point; other vertices of degree ≠ 2
    //    are ECM vertices, degree-2 vertices become bending points.
    // Both in one pass over the vertices (a vertex's chain record holds where its row
    // starts), in a plain loop: as an iterator collected into the list, the per-vertex
    // closure was called through the iterator's fold, 15 instructions a vertex.
    // Sized once: growing them copied 14 MB on Aurora. Every ECM edge takes at least one
    // kept pair.
    let mut raw = RawEcm {
        vertices: Vec::with_capacity(kept.len()),
        edges: Vec::with_capacity(kept.len()),
    };
    let mut fill = degree;
    let mut chain: Vec<ChainVertex> = Vec::with_capacity(nv + 1);
    let mut sum = 0u32;
    for (v, f) in fill.iter_mut().enumerate() {
        let degree = *f;
        let mut vertex = ChainVertex {
            position: Point::ZERO,
            first: sum,
            ecm_vertex: NONE,
        };
        (*f, sum) = (sum, sum + degree);
        if degree != 0 {
            let p = verts(v);
            vertex.position = p;
            let open_edges = infinite.get(v).copied().unwrap_or(0);
            let r = Point::new(round(p.x), round(p.y));
            if (p - r).length() <= 1e-6
                && r.x.abs() <= i32::MAX as f64
                && r.y.abs() <= i32::MAX as f64
                && x.ends
                    .find(GridPoint::new(r.x as i32, r.y as i32))
                    .is_some()
            {
                // The corner's grid point, exactly.
                vertex.position = r;
                vertex.ecm_vertex = CORNER;
            } else if degree != 2 || open_edges > 0 {
                vertex.ecm_vertex = raw.vertices.len() as u32;
                if let Some(open) = open.as_deref_mut().filter(|_| open_edges > 0) {
                    open.push(OpenVertex {
                        vertex: vertex.ecm_vertex,
                        open_edges,
                        bending: degree + open_edges == 2,
                    });
                }
                raw.vertices.push((p, false));
            }
        }
        chain.push(vertex);
    }
    chain.push(ChainVertex {
        position: Point::ZERO,
        first: sum,
        ecm_vertex: NONE,
    });
    let mut take_slot = |v: u32| {
        let slot = fill[v as usize];
        fill[v as usize] += 1;
        slot
    };
    let mut half = vec![
        HalfEdge {
            twin: 0,
            end: 0,
            left: Site::Segment(0),
            right: Site::Segment(0),
        };
        2 * kept.len()
    ];
    // The records of a kept pair whose halves have the slots `s`.
    let mut write = |k: &KeptPair, s: [u32; 2]| {
        for side in 0..2 {
            half[s[side] as usize] = HalfEdge {
                twin: s[1 - side],
                end: k.starts[1 - side],
                left: k.sites[side],
                right: k.sites[1 - side],
            };
        }
    };
    // Slots are given in increasing half-edge order: the halves of edge `i` are `2i` and
    // `2i + 1` and the kept pairs come in edge order, so listing each kept pair's two
    // halves in turn lists them in that order.
    for k in &kept {
        let s = [take_slot(k.starts[0]), take_slot(k.starts[1])];
        write(k, s);
    }
    drop(fill);
    drop(kept);

    // 4. Chains of kept half-edges between ECM vertices.
    let mut visited = vec![false; half.len()];
    let mut bps: Vec<BendingPoint> = Vec::new();
    // Kept half-edges traced so far.
    let mut traced = 0;
    let mut trace = |v_start: usize,
                     s0: usize,
                     raw: &mut RawEcm,
                     chain: &[ChainVertex],
                     visited: &mut [bool],
                     traced: &mut usize|
     -> Option<()> {
        let start_vertex = &chain[v_start];
        let start = if start_vertex.ecm_vertex == CORNER {
            raw.vertices.push((start_vertex.position, true));
            raw.vertices.len() as u32 - 1
        } else {
            start_vertex.ecm_vertex
        };
        bps.clear();
        // Every point but the arc samples is a Voronoi vertex (a corner one included).
        let annotate = |q: Point, h: &HalfEdge| x.annotate(q, h.left, h.right, true);
        bps.push(annotate(start_vertex.position, &half[s0]));
        let (mut s, mut v) = (s0, v_start);
        let end = loop {
            let h = half[s];
            visited[s] = true;
            visited[h.twin as usize] = true;
            *traced += 2;
            let v_end = &chain[h.end as usize];
            // (Arcs between two segments are straight: nothing to sample.)
            if !matches!((h.left, h.right), (Site::Segment(_), Site::Segment(_))) {
                sample_arc(
                    &x,
                    h.left,
                    h.right,
                    chain[v].position,
                    v_end.position,
                    &mut bps,
                );
            }
            if v_end.ecm_vertex == CORNER {
                bps.push(annotate(v_end.position, &h));
                raw.vertices.push((v_end.position, true));
                break raw.vertices.len() as u32 - 1;
            }
            if v_end.ecm_vertex != NONE {
                bps.push(annotate(v_end.position, &h));
                break v_end.ecm_vertex;
            }
            let last = chain[h.end as usize + 1].first;
            let next = (v_end.first..last).find(|&t| t != h.twin)? as usize;
            bps.push(annotate(v_end.position, &half[next]));
            (s, v) = (next, h.end as usize);
        };
        // Traced into a reused buffer, then copied once at its final size.
        raw.edges.push(RawEdge {
            start,
            end,
            bending_points: bps.as_slice().to_vec(),
        });
        Some(())
    };
    for v in 0..nv {
        let (vertex, last) = (&chain[v], chain[v + 1].first);
        if vertex.ecm_vertex == NONE {
            continue;
        }
        for s in vertex.first..last {
            if !visited[s as usize] {
                trace(v, s as usize, &mut raw, &chain, &mut visited, &mut traced);
            }
        }
    }
    // Closed loops without any vertex: one of their points becomes the vertex. (Only
    // looked for if some kept half-edge is not traced yet.)
    for v in 0..if traced < half.len() { nv } else { 0 } {
        if chain[v + 1].first - chain[v].first != 2 || chain[v].ecm_vertex == CORNER {
            continue;
        }
        let s = chain[v].first as usize;
        if visited[s] {
            continue;
        }
        chain[v].ecm_vertex = raw.vertices.len() as u32;
        raw.vertices.push((verts(v), false));
        trace(v, s, &mut raw, &chain, &mut visited, &mut traced);
    }
    Ok(raw)
}

/// Appends the interior sample points of the Voronoi arc from `p0` to `p1` between the
/// sites `left` and `right`, annotated.
///
/// A parabolic arc (segment against a point) is sampled uniformly along the segment's
/// direction with spacing `sqrt(8 · deviation · d)`, `d` the distance of the point from the
/// segment's line: the parabola `h(t) = ((t − t0)² + d²) / 2d` deviates from a chord of
/// width `Δt` by at most `Δt² / 8d` (its vertical offset, which bounds the perpendicular
/// one), so no point of the arc is farther than `deviation` from the polyline. The apex
/// `t0` (the point of smallest clearance) is added when it is inside the arc. On a
/// straight arc between two points the midpoint of the two points (smallest clearance)
/// is added when it is inside; straight arcs between segments have their smallest
/// clearance at an end.
/// Whether two coordinates along an arc (grid units) are one point up to the rounding of
/// the Voronoi vertices (relative to their magnitude).
fn near(a: f64, b: f64) -> bool {
    (a - b).abs() <= SAME_POINT * (1.0 + a.abs().max(b.abs()))
}

/// Whether `q` is one of the arc's ends up to rounding: an apex or midpoint that falls on a
/// Voronoi vertex is that vertex, and must not become a second bending point in one build
/// and not in another.
fn near_end(q: Point, p0: Point, p1: Point) -> bool {
    [p0, p1].iter().any(|&p| near(q.x, p.x) && near(q.y, p.y))
}

/// Relative distance under which two computed points are taken as one (Voronoi vertices
/// are computed to a few units in the last place; this leaves a wide margin).
const SAME_POINT: f64 = 1e-9;

/// `(r.ceil() as usize).clamp(1, MAX_ARC_SAMPLES)` for `r ≥ 0` or NaN (as a ratio of a
/// length to a positive step is), without a call into the maths library: below the
/// clamp the integer part by conversion, plus 1 if it is less than `r`.
fn ceil_pieces(r: f64) -> usize {
    if r >= MAX_ARC_SAMPLES as f64 {
        return MAX_ARC_SAMPLES;
    }
    let t = r as usize;
    (t + usize::from((t as f64) < r)).max(1)
}

fn sample_arc(
    x: &Extractor<'_>,
    left: Site,
    right: Site,
    p0: Point,
    p1: Point,
    bps: &mut Vec<BendingPoint>,
) {
    #[inline(always)]
    fn push(x: &Extractor<'_>, q: Point, left: Site, right: Site, bps: &mut Vec<BendingPoint>) {
        bps.push(x.annotate(q, left, right, false));
    }
    match (left, right) {
        (Site::Point(a), Site::Point(b)) => {
            let m = (pt(a) + pt(b)) * 0.5;
            let d = p1 - p0;
            let t = (m - p0).dot(d) / d.length_squared();
            if t > 0.0 && t < 1.0 && !near_end(m, p0, p1) {
                push(x, m, left, right, bps);
            }
        }
        (Site::Segment(s), Site::Point(p)) | (Site::Point(p), Site::Segment(s)) => {
            let seg = &x.walls.segments[s as usize];
            if p == seg.a || p == seg.b {
                return;
            }
            let g = &x.segments[s as usize];
            let a = g.a;
            // `(b - a).length()`.
            let len = g.len2.sqrt();
            let u = g.d / len;
            let mut n = u.perp();
            let rel = pt(p) - a;
            let mut d = rel.dot(n);
            if d < 0.0 {
                n = -n;
                d = -d;
            }
            if d <= 0.0 {
                return;
            }
            let t0 = rel.dot(u);
            let ts = (p0 - a).dot(u);
            let te = (p1 - a).dot(u);
            let on_arc = |t: f64| {
                let h = ((t - t0) * (t - t0) + d * d) / (2.0 * d);
                a + u * t + n * h
            };
            let step = (8.0 * x.deviation.max(f64::MIN_POSITIVE) * d).sqrt();
            let span = te - ts;
            // The ratio is exact in theory but not in floating point: on lattice input it
            // is often a whole number, and the rounding of the Voronoi vertices (which
            // depends on the transform and on the other sites) would round it up in one
            // build and not in another. A whole number up to a relative 1e-7 is taken as
            // whole, so every build samples the arc alike.
            let ratio = span.abs() / step;
            let pieces = ceil_pieces(ratio * (1.0 - 1e-7));
            let apex_inside = (t0 - ts) * (te - t0) > 0.0 && !near_end(on_arc(t0), p0, p1);
            let mut apex_done = !apex_inside;
            for k in 1..pieces {
                let t = ts + span * (k as f64 / pieces as f64);
                if !apex_done && (t - t0) * span.signum() >= 0.0 {
                    if !near(t, t0) {
                        push(x, on_arc(t0), left, right, bps);
                    }
                    apex_done = true;
                }
                push(x, on_arc(t), left, right, bps);
            }
            if !apex_done {
                push(x, on_arc(t0), left, right, bps);
            }
        }
        (Site::Segment(_), Site::Segment(_)) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use corridor_geom::WallSegment;

    /// A square obstacle (free outside) and a point obstacle to its right: no wall closes
    /// the free space.
    fn square_and_point() -> Walls {
        let ring = [(0, 0), (0, 10), (10, 10), (10, 0)].map(|(x, y)| GridPoint::new(x, y));
        Walls {
            segments: (0..4)
                .map(|i| WallSegment {
                    a: ring[i],
                    b: ring[(i + 1) % 4],
                    two_sided: false,
                    sources: Default::default(),
                })
                .collect(),
            points: vec![(GridPoint::new(30, 5), Vec::new())],
            ..Walls::default()
        }
    }

    #[test]
    fn ceil_pieces_is_the_clamped_library_ceil() {
        let mut values = vec![f64::NAN, f64::INFINITY, 0.0, -0.0, 1e-300, 65535.5, 65536.0];
        for k in [0u32, 1, 2, 7, 1000, 65535, 65536, 65537, 1 << 30] {
            for e in [0.0, 1e-9, -1e-9, 0.5, -0.5] {
                values.push((k as f64 + e).max(0.0));
            }
        }
        for r in values {
            let expected = (r.ceil() as usize).clamp(1, MAX_ARC_SAMPLES);
            assert_eq!(ceil_pieces(r), expected, "{r}");
        }
    }

    #[test]
    fn round_is_the_library_round_near_integers() {
        let mut values = vec![0.0, -0.0, 1e-300, -1e-300, 0.3, -0.3, 2.0, -7.0];
        for k in [
            -2_147_483_648i64,
            -1000,
            -1,
            0,
            1,
            17,
            1 << 20,
            2_147_483_647,
        ] {
            for e in [
                0.0, 1e-7, -1e-7, 9.9e-7, -9.9e-7, 0.25, -0.25, 0.4999, -0.4999,
            ] {
                values.push(k as f64 + e);
            }
        }
        for x in values {
            assert_eq!(round(x).to_bits(), x.round().to_bits(), "{x}");
        }
    }

    /// Closed rings of one-sided walls (free on their left).
    fn rings(rings: &[&[(i32, i32)]]) -> Walls {
        let mut segments = Vec::new();
        for ring in rings {
            let at = |i: usize| GridPoint::new(ring[i % ring.len()].0, ring[i % ring.len()].1);
            segments.extend((0..ring.len()).map(|i| WallSegment {
                a: at(i),
                b: at(i + 1),
                two_sided: false,
                sources: Default::default(),
            }));
        }
        Walls {
            segments,
            ..Walls::default()
        }
    }

    #[test]
    fn corner_sides_agree_with_the_walls_around_the_point() {
        // A room (counter-clockwise) around an L-shaped obstacle (clockwise): convex and
        // reflex corners of both.
        let walls = rings(&[
            &[(0, 0), (20, 0), (20, 20), (0, 20)],
            &[(5, 5), (5, 12), (8, 12), (8, 8), (12, 8), (12, 5)],
        ]);
        let ends = segment_ends(&walls);
        let sides = corner_sides(&walls, &ends);
        let x = Extractor {
            walls: &walls,
            segments: Vec::new(),
            ends: &ends,
            deviation: 0.1,
        };
        let mut seen = [0; 3];
        for (end, &side) in sides.iter().enumerate() {
            seen[side as usize] += 1;
            let s = &walls.segments[end / 2];
            let p = if end % 2 == 0 { s.a } else { s.b };
            let [arriving, leaving] = [1, 0].map(|parity| {
                let w = ends.at(p).iter().find(|&&e| e % 2 == parity).unwrap();
                &walls.segments[*w as usize / 2]
            });
            // Directions beyond both walls' perpendiculars at `p` (the corner's cell).
            for k in 0..64 {
                let angle = k as f64 * std::f64::consts::TAU / 64.0;
                let d = Point::new(angle.cos(), angle.sin());
                if d.dot(pt(p) - pt(arriving.a)) <= 0.0 || d.dot(pt(leaving.b) - pt(p)) >= 0.0 {
                    continue;
                }
                for r in [0.5, 3.0] {
                    let free = x.free_near_point(p, pt(p) + d * r);
                    assert_eq!(free, side == CORNER_FREE, "corner {p:?}, direction {d:?}");
                }
            }
        }
        // The obstacle's five convex corners and the room's four plus the obstacle's
        // reflex one, each the end of two walls.
        assert_eq!(seen, [10, 10, 0]);
    }

    #[test]
    fn open_extraction_lists_the_ends_of_infinite_edges() {
        let walls = square_and_point();
        let diagram = voronoi(&walls).unwrap();
        // The full build's extraction refuses an unbounded free space.
        assert!(matches!(
            extract_with(&walls, &segment_ends(&walls), &diagram, 0.1),
            Err(ExtractError::Unbounded(_))
        ));
        let (raw, open) = extract_open(&walls, &diagram, 0.1).unwrap();
        assert!(!open.is_empty());
        let mut degree = vec![0u32; raw.vertices.len()];
        for e in &raw.edges {
            degree[e.start as usize] += 1;
            degree[e.end as usize] += 1;
        }
        for o in &open {
            let v = o.vertex as usize;
            assert!(!raw.vertices[v].1, "a corner is never open");
            // Traced edges plus infinite ones: a bending point has two in all.
            assert_eq!(o.bending, degree[v] + o.open_edges == 2);
        }
        // Between the square's right side and the point the medial axis is a parabola
        // whose ends, on the lines y = 0 and y = 10, are bending points where the axis
        // runs off to infinity (the bisectors of the point and the square's corners).
        let x = 825.0 / 40.0;
        let ends = [0.0, 10.0].map(|y| {
            let at = |p: Point| (p - Point::new(x, y)).length() < 1e-6;
            let o = open
                .iter()
                .find(|o| at(raw.vertices[o.vertex as usize].0))
                .expect("an open vertex at the parabola's end");
            assert!(o.bending);
            assert_eq!(o.open_edges, 1);
            o.vertex
        });
        // The chain stops there: the parabola is one edge between the two.
        assert!(raw.edges.iter().any(|e| {
            (e.start, e.end) == (ends[0], ends[1]) || (e.start, e.end) == (ends[1], ends[0])
        }));
    }
}
