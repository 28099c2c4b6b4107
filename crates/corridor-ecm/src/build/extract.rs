//! From the segment Voronoi diagram to the medial axis of the free space: which Voronoi
//! edges to keep and how to chain them into ECM edges (the bending points and their
//! nearest obstacle points come from [`super::annotate`]). Everything here is in grid
//! coordinates of the (possibly transformed) walls.

use super::annotate::{pt, round, sample_arc, Extractor, SegmentGeometry, Site};
use super::voronoi::ExtractError;
use crate::graph::BendingPoint;
use corridor_geom::{GridPoint, Orientation, Point, PointGroups, Walls};
use corridor_voronoi::prelude::{EdgeList, SourceCategory};

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

const NONE: u32 = u32::MAX;

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

/// The medial axis of the free space of a part of the walls without a closing frame (for
/// local diagrams): where a medial-axis edge is infinite, the chain stops at its finite
/// end vertex, which becomes a vertex of the result (also when the edge makes it a bending
/// point) and is listed with its infinite edges. Infinite edges other than the bisector of
/// two points (there are none in a segment Voronoi diagram) still fail with
/// [`ExtractError::Unbounded`].
pub(crate) fn extract_open(
    walls: &Walls,
    diagram: EdgeList,
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
    diagram: EdgeList,
    deviation: f64,
) -> Result<RawEcm, ExtractError> {
    extract_impl(walls, ends, diagram, deviation, None)
}

/// [`extract_with`], or with `open` [`extract_open`] (the vertices with infinite
/// medial-axis edges are written there).
///
/// The diagram is taken by value and dropped as soon as the chain records hold what
/// tracing needs, before the bending points are gathered: it was the largest holder at
/// the peak of a build (the `EdgeList`, a quarter of the heap at the end of tracing).
fn extract_impl(
    walls: &Walls,
    ends: &PointGroups,
    diagram: EdgeList,
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
    // Everything tracing reads is in `chain` and `half` now.
    drop(corners);
    drop(infinite);
    drop(diagram);

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
        // (Not a corner, so the chain record holds the diagram's position.)
        raw.vertices.push((chain[v].position, false));
        trace(v, s, &mut raw, &chain, &mut visited, &mut traced);
    }
    Ok(raw)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::voronoi::voronoi;
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
        let diagram = || voronoi(&walls).unwrap();
        // The full build's extraction refuses an unbounded free space.
        assert!(matches!(
            extract_with(&walls, &segment_ends(&walls), diagram(), 0.1),
            Err(ExtractError::Unbounded(_))
        ));
        let (raw, open) = extract_open(&walls, diagram(), 0.1).unwrap();
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
