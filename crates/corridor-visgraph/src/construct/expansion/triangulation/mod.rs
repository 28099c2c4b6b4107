//! A triangulation of the free space in which every wall is an edge (no Delaunay
//! property: triangular expansion does not need one).
//!
//! The points are triangulated by a lexicographic sweep (each new point is joined to the
//! hull edges it sees; edges are flipped towards Delaunay only where a float incircle
//! test is certain, which keeps the triangles round and the expansion's walks short);
//! every wall that is not yet an edge is then inserted by removing the triangles it
//! crosses and filling the cavity on each side of it by an ear scan along the cavity's
//! boundary. Validity rests on exact orientation signs and coordinate comparisons alone;
//! the incircle test only decides whether a flip is worth making and is never evaluated
//! exactly, so cocircular points cost nothing extra.
//! Finally the triangles are marked free or not by flooding across the non-wall edges.
//!
//! Here: the triangulation and its builder's storage; `points` triangulates the points,
//! `walls` forces the walls in, `flood` marks the free triangles.

mod flood;
mod points;
#[cfg(test)]
mod tests;
mod walls;

use corridor_geom::free_space::FreeSpace;
use corridor_geom::{orient, Orientation, Point};

/// No triangle (across a hull edge).
pub(crate) const NO_TRIANGLE: u32 = u32::MAX;

/// A triangulation of the convex hull of the free space's points whose vertices are
/// exactly `FreeSpace::points` (same ids, no new points) and in which every wall is an edge.
#[derive(Clone, Debug)]
pub(crate) struct Triangulation {
    /// Corners of triangle `t`, counter-clockwise (exact orientation strictly positive).
    pub corners: Vec<[u32; 3]>,
    /// `neighbours[t][i]`: the triangle across the edge opposite corner `i` (the edge from
    /// `corners[t][(i + 1) % 3]` to `corners[t][(i + 2) % 3]`), or `NO_TRIANGLE` on the hull.
    pub neighbours: Vec<[u32; 3]>,
    /// Bit `i` set: the edge opposite corner `i` is a wall (one- or two-sided).
    pub wall_edges: Vec<u8>,
    /// Whether triangle `t` lies in the free space (false: inside an obstacle or outside
    /// the boundary ring).
    pub free: Vec<bool>,
    /// For every point, one triangle that has it as a corner.
    pub triangle_at: Vec<u32>,
}

/// Why a free space could not be triangulated: only an inconsistent free space (one that
/// breaks `FreeSpace`'s guarantees) gets here.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub(crate) enum TriangulationError {
    /// Fewer than three points, or all of them on one line: no triangle at all.
    #[error("the free space's points are fewer than three or all on one line")]
    Flat,
    /// A point that is not finite or that appears twice.
    #[error("point ({}, {}) is not finite or appears twice", point.x, point.y)]
    BadPoint {
        /// The point.
        point: Point,
    },
    /// A wall passes through a point or crosses another wall.
    #[error("wall {wall} passes through a point or crosses another wall")]
    WallBlocked {
        /// Index of the wall in the free space.
        wall: u32,
    },
    /// The walls disagree about which side of them is free.
    #[error("the walls disagree about which side of them is free")]
    Inconsistent,
}

/// Triangulates the free space: see [`Triangulation`].
///
/// # Errors
/// Only when `fs` breaks its own guarantees (points repeated or not finite, a wall
/// through a point, crossing walls, walls that disagree about the free side) or has no
/// area at all.
pub(crate) fn triangulate(fs: &FreeSpace) -> Result<Triangulation, TriangulationError> {
    triangulate_with(fs, true)
}

/// [`triangulate`], with or without the flips that round the sweep's triangles (without:
/// more walls to insert, which the tests want to exercise).
fn triangulate_with(fs: &FreeSpace, flips: bool) -> Result<Triangulation, TriangulationError> {
    let mut b = Builder::new(&fs.points);
    b.sweep(flips)?;
    for (w, wall) in fs.walls.iter().enumerate() {
        let ends_known = (wall.a as usize) < fs.points.len() && (wall.b as usize) < fs.points.len();
        if !ends_known || wall.a == wall.b {
            return Err(TriangulationError::WallBlocked { wall: w as u32 });
        }
        b.insert_wall(wall.a, wall.b, wall.two_sided)
            .map_err(|()| TriangulationError::WallBlocked { wall: w as u32 })?;
    }
    let free = b.flood()?;
    Ok(Triangulation {
        wall_edges: b.flags.iter().map(|f| f & WALLS).collect(),
        corners: b.corners,
        neighbours: b.neighbours,
        free,
        triangle_at: b.triangle_at,
    })
}

/// Flag bits of a triangle: bit `i`, the edge opposite corner `i` is a wall; bit `3 + i`,
/// the triangle lies on the blocked side of that (one-sided) wall. The second set is
/// only used while building.
const WALLS: u8 = 0b111;

/// The far side of one edge of a cavity: the triangle there (and the edge's index in it),
/// and the flags of the near side (bit 0: wall, bit 1: blocked side).
#[derive(Clone, Copy, Debug)]
struct EdgeLink {
    tri: u32,
    idx: u8,
    flags: u8,
}

/// A link whose far triangle is removed with the cavity too (a vertex enclosed by the
/// cavity, reached along one edge from both sides): matched up after the fill.
const STALE: u8 = u8::MAX;

struct Builder<'a> {
    pts: &'a [Point],
    corners: Vec<[u32; 3]>,
    neighbours: Vec<[u32; 3]>,
    flags: Vec<u8>,
    triangle_at: Vec<u32>,
    /// Scratch of the wall insertion: removed triangles (their slots are reused), the
    /// two sides' cavity boundaries, the ear scan's stack and the stale edges.
    removed: Vec<u32>,
    left: Vec<u32>,
    left_links: Vec<EdgeLink>,
    right: Vec<u32>,
    right_links: Vec<EdgeLink>,
    stack: Vec<u32>,
    stack_links: Vec<EdgeLink>,
    stale: Vec<(u32, u8)>,
    /// `removed_by[t] == k + 1`: triangle `t` was removed by the `k`-th wall insertion.
    removed_by: Vec<u32>,
    insertions: u32,
}

/// The next corner of a triangle, counter-clockwise (corners are 0, 1, 2).
#[inline]
pub(crate) fn next3(i: usize) -> usize {
    if i == 2 {
        0
    } else {
        i + 1
    }
}

/// The previous corner of a triangle, counter-clockwise.
#[inline]
pub(crate) fn prev3(i: usize) -> usize {
    if i == 0 {
        2
    } else {
        i - 1
    }
}

impl<'a> Builder<'a> {
    fn new(pts: &'a [Point]) -> Self {
        let n = pts.len();
        let t = (2 * n).saturating_sub(2);
        Builder {
            pts,
            corners: Vec::with_capacity(t),
            neighbours: Vec::with_capacity(t),
            flags: Vec::with_capacity(t),
            triangle_at: vec![NO_TRIANGLE; n],
            removed: Vec::new(),
            left: Vec::new(),
            left_links: Vec::new(),
            right: Vec::new(),
            right_links: Vec::new(),
            stack: Vec::new(),
            stack_links: Vec::new(),
            stale: Vec::new(),
            removed_by: Vec::new(),
            insertions: 0,
        }
    }

    #[inline]
    fn orient(&self, a: u32, b: u32, c: u32) -> Orientation {
        orient(
            self.pts[a as usize],
            self.pts[b as usize],
            self.pts[c as usize],
        )
    }

    fn new_triangle(&mut self, a: u32, b: u32, c: u32) -> u32 {
        let t = self.corners.len() as u32;
        self.corners.push([a, b, c]);
        self.neighbours.push([NO_TRIANGLE; 3]);
        self.flags.push(0);
        for v in [a, b, c] {
            self.triangle_at[v as usize] = t;
        }
        t
    }

    #[inline]
    fn join(&mut self, t: u32, i: usize, u: u32, k: usize) {
        self.neighbours[t as usize][i] = u;
        self.neighbours[u as usize][k] = t;
    }
}
