//! The medial axis of many walls from the diagrams of vertical strips of them, built in
//! parallel: which parts of each strip's medial axis are certainly parts of the whole
//! one, and whether together they are all of it.
//!
//! # Why it is exact
//! The argument of the local repair (see `dynamic::local`): let `L` be the medial axis
//! of the walls that meet a slab `S = (lo, hi) × ℝ`. A point of `L` whose clearance disc
//! lies strictly inside `S` has no other wall in its disc than those `L` was built from,
//! so it is a point of the whole medial axis with the same nearest walls; a vertex of `L`
//! whose disc lies inside `S` has the same incident edges (its degree in `L`, infinite
//! edges of `L` counted, is its true degree). An edge of `L` whose chords' discs, grown by
//! the sampling deviation, all lie strictly inside `S` is *certified*: it is an edge of
//! the whole medial axis, sampled at the same bending points (the sampling of an arc
//! depends only on its ends and its two sites). An edge that ends at an open vertex of
//! degree 2 (where the chain of `L` runs off to infinity) is only part of an edge, and
//! is not certified.
//!
//! # The scheme
//! 1. The walls are cut at `tiles - 1` abscissas (quantiles of the segment midpoints, so
//!    the strips hold as many walls each) into strips; strip `k` takes the walls meeting
//!    its slab widened by a margin (1/16 of the width per strip). The strips' diagrams
//!    are built and extracted in parallel (rayon), with the identity transform only.
//! 2. Every certified edge of every strip is taken once: the same edge certified by two
//!    strips has the same end points and bending points, and the first strip (in order)
//!    gives it. Vertices are merged by position (wall corners, which carry one vertex per
//!    edge, never are).
//! 3. Completeness: every vertex taken must have all the edges it has in the strip that
//!    certified an edge at it (its true degree). An edge of the whole medial axis that no
//!    strip certified (one crossing a cut with discs wider than the margin) leaves a
//!    vertex short at each end, unless its whole component is missing. For each cut a
//!    wider *seam* slab (4 margins each side) is then built (in parallel over the cuts)
//!    and its certified edges added; if a vertex is still short, the tiled build gives up.
//! 4. The assembled medial axis goes through the same `finalize` and the same whole
//!    validation as a sequential build (equidistance, no closer wall, degrees, and the
//!    cells adding up to the free area, which catches a whole missing component). If
//!    validation or any step above fails, the sequential build runs as before.
//!
//! The result depends only on the walls and the tile count, never on the thread count:
//! strips and seams are assembled in their order. It is the sequential ECM up to the
//! numbering of its vertices and edges (equal in canonical form).

use super::extract::{extract_open, RawEcm, RawEdge};
use super::validate::tolerance;
use super::voronoi::voronoi;
use crate::graph::BendingPoint;
use corridor_geom::FxHashMap as HashMap;
use corridor_geom::{Point, WallSegment, Walls};
use rayon::prelude::*;

/// The certified part of one strip's medial axis: its vertices (grid position, on a
/// wall corner), each vertex's degree in the strip's diagram, and the certified edges
/// (ends indexing `vertices`).
struct Piece {
    vertices: Vec<(Point, bool)>,
    degrees: Vec<u32>,
    edges: Vec<RawEdge>,
}

/// A slab `(lo, hi) × ℝ` in grid coordinates.
#[derive(Clone, Copy, Debug)]
struct Slab {
    lo: f64,
    hi: f64,
}

/// Builds the medial axis of `walls` (grid coordinates, identity transform) from
/// `tiles` strips, or says why it cannot prove it complete (the caller then builds it
/// sequentially). `deviation` is in grid units.
pub(crate) fn tiled_medial_axis(
    walls: &Walls,
    tiles: usize,
    deviation: f64,
) -> Result<RawEcm, String> {
    let n = walls.segments.len();
    if tiles < 2 || n / 64 < tiles {
        return Err("too few walls for tiles".into());
    }
    // Cuts at quantiles of twice the segment midpoints (exact integers).
    let mut mids: Vec<i64> = walls
        .segments
        .iter()
        .map(|s| s.a.x as i64 + s.b.x as i64)
        .collect();
    let mut cuts = Vec::with_capacity(tiles - 1);
    for k in 1..tiles {
        let (_, &mut m, _) = mids.select_nth_unstable(k * n / tiles);
        cuts.push(m as f64 * 0.5);
    }
    let (x0, x1) = walls
        .segments
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), s| {
            let (a, b) = (s.a.x as f64, s.b.x as f64);
            (lo.min(a.min(b)), hi.max(a.max(b)))
        });
    let margin = ((x1 - x0) / (16.0 * tiles as f64)).max(16.0);
    let strips: Vec<Slab> = (0..tiles)
        .map(|k| Slab {
            lo: if k == 0 {
                f64::NEG_INFINITY
            } else {
                cuts[k - 1] - margin
            },
            hi: cuts.get(k).map_or(f64::INFINITY, |c| c + margin),
        })
        .collect();
    // A grid step plus four times the validation's tolerance at the largest coordinates
    // (2^31 grid steps).
    let eps = 1.0 + 4.0 * tolerance(f64::from(i32::MAX));
    let pieces = build_pieces(walls, &strips, deviation, eps)?;
    let mut assembly = Assembly::default();
    for piece in pieces {
        assembly.add(piece)?;
    }
    if assembly.short_vertex().is_none() {
        return Ok(assembly.raw);
    }
    let seams: Vec<Slab> = cuts
        .iter()
        .map(|&c| Slab {
            lo: c - 4.0 * margin,
            hi: c + 4.0 * margin,
        })
        .collect();
    for piece in build_pieces(walls, &seams, deviation, eps)? {
        assembly.add(piece)?;
    }
    match assembly.short_vertex() {
        None => Ok(assembly.raw),
        Some(p) => Err(format!(
            "no slab certified every edge at ({}, {})",
            p.x, p.y
        )),
    }
}

/// The certified pieces of the slabs, built in parallel, in the slabs' order.
fn build_pieces(
    walls: &Walls,
    slabs: &[Slab],
    deviation: f64,
    eps: f64,
) -> Result<Vec<Piece>, String> {
    slabs
        .par_iter()
        .map(|&slab| piece(walls, slab, deviation, eps))
        .collect()
}

/// The certified part of the medial axis of the walls that meet `slab`.
fn piece(walls: &Walls, slab: Slab, deviation: f64, eps: f64) -> Result<Piece, String> {
    let meets = |x0: i32, x1: i32| (x0.min(x1) as f64) <= slab.hi && (x0.max(x1) as f64) >= slab.lo;
    let local = Walls {
        grid: walls.grid,
        segments: walls
            .segments
            .iter()
            .filter(|s| meets(s.a.x, s.b.x))
            .map(|s| WallSegment {
                a: s.a,
                b: s.b,
                two_sided: s.two_sided,
                sources: Default::default(),
            })
            .collect(),
        points: walls
            .points
            .iter()
            .filter(|(p, _)| meets(p.x, p.x))
            .map(|(p, _)| (*p, Vec::new()))
            .collect(),
    };
    let diagram = voronoi(&local).map_err(|e| format!("strip diagram: {e:?}"))?;
    let (raw, open) = extract_open(&local, diagram, deviation)
        .map_err(|e| format!("strip medial axis: {e:?}"))?;
    let mut degrees = vec![0u32; raw.vertices.len()];
    for e in &raw.edges {
        degrees[e.start as usize] += 1;
        degrees[e.end as usize] += 1;
    }
    let mut bending = vec![false; raw.vertices.len()];
    for o in &open {
        degrees[o.vertex as usize] += o.open_edges;
        bending[o.vertex as usize] |= o.bending;
    }
    let inside = |b: &BendingPoint| {
        let r = b
            .position
            .distance(b.left)
            .min(b.position.distance(b.right))
            + deviation
            + eps;
        b.position.x - r > slab.lo && b.position.x + r < slab.hi
    };
    let edges = raw
        .edges
        .into_iter()
        .filter(|e| {
            !bending[e.start as usize]
                && !bending[e.end as usize]
                && e.bending_points.iter().all(inside)
        })
        .collect();
    Ok(Piece {
        vertices: raw.vertices,
        degrees,
        edges,
    })
}

/// The bits of a point, as a key.
fn bits(p: Point) -> (u64, u64) {
    (p.x.to_bits(), p.y.to_bits())
}

/// What identifies an edge whichever way it runs: each end with the next bending point.
type EdgeKey = [((u64, u64), (u64, u64)); 2];

fn edge_key(bps: &[BendingPoint]) -> EdgeKey {
    let k = bps.len() - 1;
    let first = (bits(bps[0].position), bits(bps[1.min(k)].position));
    let last = (
        bits(bps[k].position),
        bits(bps[k.saturating_sub(1)].position),
    );
    if first <= last {
        [first, last]
    } else {
        [last, first]
    }
}

/// The medial axis assembled so far, with each vertex's true degree.
#[derive(Default)]
struct Assembly {
    raw: RawEcm,
    expected: Vec<u32>,
    found: Vec<u32>,
    vertex_at: HashMap<(u64, u64), u32>,
    edges: HashMap<EdgeKey, ()>,
}

impl Assembly {
    /// Adds a piece's edges that are not in yet.
    fn add(&mut self, piece: Piece) -> Result<(), String> {
        let Piece {
            vertices,
            degrees,
            edges,
        } = piece;
        let mut ids = vec![u32::MAX; vertices.len()];
        for mut e in edges {
            if self.edges.insert(edge_key(&e.bending_points), ()).is_some() {
                continue;
            }
            for end in [&mut e.start, &mut e.end] {
                let v = *end as usize;
                if ids[v] == u32::MAX {
                    ids[v] = self.vertex(vertices[v], degrees[v])?;
                }
                self.found[ids[v] as usize] += 1;
                *end = ids[v];
            }
            self.raw.edges.push(e);
        }
        Ok(())
    }

    /// The vertex at a point (a new one on a wall corner), whose true degree is `degree`.
    fn vertex(&mut self, (p, corner): (Point, bool), degree: u32) -> Result<u32, String> {
        let new = self.raw.vertices.len() as u32;
        let id = if corner {
            new
        } else {
            *self.vertex_at.entry(bits(p)).or_insert(new)
        };
        if id == new {
            self.raw.vertices.push((p, corner));
            self.expected.push(degree);
            self.found.push(0);
        } else if self.expected[id as usize] != degree {
            return Err(format!(
                "slabs disagree on the degree at ({}, {})",
                p.x, p.y
            ));
        }
        Ok(id)
    }

    /// A vertex that misses some of its edges.
    fn short_vertex(&self) -> Option<Point> {
        (0..self.expected.len())
            .find(|&v| self.found[v] != self.expected[v])
            .map(|v| self.raw.vertices[v].0)
    }
}
