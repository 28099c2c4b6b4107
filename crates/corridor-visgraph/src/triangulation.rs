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

use crate::free_space::FreeSpace;
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

/// The number of triangles of [`triangulate`] (0 when it fails), for the
/// `repeat_build` example's (mode `triangulation`) instruction counts; the triangulation itself is
/// crate-internal.
#[doc(hidden)]
pub fn triangle_count(fs: &FreeSpace) -> usize {
    triangulate(fs).map_or(0, |t| t.corners.len())
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

/// An order-preserving integer key of a coordinate (-0 and +0 alike).
fn coordinate_key(x: f64) -> u64 {
    corridor_geom::radix::total_order_key(x + 0.0)
}

/// Whether `d` lies inside the circle through the counter-clockwise `a`, `b`, `c` for
/// certain: the float determinant beyond Shewchuk's error bound (`false` when in doubt).
fn clearly_in_circle(a: Point, b: Point, c: Point, d: Point) -> bool {
    // Shewchuk's iccerrboundA = (10 + 96ε)ε with ε = 2⁻⁵³.
    const BOUND: f64 = 1.110_223_024_625_157_7e-15;
    let (adx, ady) = (a.x - d.x, a.y - d.y);
    let (bdx, bdy) = (b.x - d.x, b.y - d.y);
    let (cdx, cdy) = (c.x - d.x, c.y - d.y);
    let (bdxcdy, cdxbdy) = (bdx * cdy, cdx * bdy);
    let (cdxady, adxcdy) = (cdx * ady, adx * cdy);
    let (adxbdy, bdxady) = (adx * bdy, bdx * ady);
    let alift = adx * adx + ady * ady;
    let blift = bdx * bdx + bdy * bdy;
    let clift = cdx * cdx + cdy * cdy;
    let det = alift * (bdxcdy - cdxbdy) + blift * (cdxady - adxcdy) + clift * (adxbdy - bdxady);
    let permanent = (bdxcdy.abs() + cdxbdy.abs()) * alift
        + (cdxady.abs() + adxcdy.abs()) * blift
        + (adxbdy.abs() + bdxady.abs()) * clift;
    det > BOUND * permanent
}

/// Whether `q` lies on the same side of `a` as `p` on a line through `a`, `p` and `q`
/// (both different from `a`): compares coordinates, exact.
fn same_direction(a: Point, p: Point, q: Point) -> bool {
    let along = |u: Point| {
        if u.x != a.x {
            u.x > a.x
        } else {
            u.y > a.y
        }
    };
    along(p) == along(q)
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

    /// Triangulates the points (no walls yet) by a sweep in lexicographic order.
    fn sweep(&mut self, flips: bool) -> Result<(), TriangulationError> {
        let pts = self.pts;
        let n = pts.len();
        if let Some(&point) = pts.iter().find(|p| !p.is_finite()) {
            return Err(TriangulationError::BadPoint { point });
        }
        let mut keyed: Vec<(u128, u32)> = pts
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let key = (coordinate_key(p.x) as u128) << 64 | coordinate_key(p.y) as u128;
                (key, i as u32)
            })
            .collect();
        keyed.sort_unstable_by_key(|k| k.0);
        if let Some(w) = keyed.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(TriangulationError::BadPoint {
                point: pts[w[0].1 as usize],
            });
        }
        let order: Vec<u32> = keyed.into_iter().map(|k| k.1).collect();
        if n < 3 {
            return Err(TriangulationError::Flat);
        }
        // The first points may lie on one line (sorted along it); the first point off it
        // is joined to all of them.
        let (o0, o1) = (order[0], order[1]);
        let Some(k) = (2..n).find(|&k| self.orient(o0, o1, order[k]) != Orientation::Collinear)
        else {
            return Err(TriangulationError::Flat);
        };
        let apex = order[k];
        // Hull, counter-clockwise: `next` and `prev` over point ids; `hull_edge[v]` the
        // triangle on the inner side of the edge `v → next[v]` and that edge's index in it
        // (packed: `4 t + i`).
        let mut next = vec![u32::MAX; n];
        let mut prev = vec![u32::MAX; n];
        let mut hull_edge = vec![u32::MAX; n];
        let mut link_hull = |v: u32, w: u32, t: u32, i: u32| {
            next[v as usize] = w;
            prev[w as usize] = v;
            hull_edge[v as usize] = 4 * t + i;
        };
        let line = &order[..k];
        if self.orient(o0, o1, apex) == Orientation::CounterClockwise {
            // Triangles [o_i, o_{i+1}, apex]; the hull runs along the line, then to apex.
            for i in 0..k - 1 {
                let t = self.new_triangle(line[i], line[i + 1], apex);
                if i > 0 {
                    self.join(t, 1, t - 1, 0);
                }
                link_hull(line[i], line[i + 1], t, 2);
            }
            let last = (k - 2) as u32;
            link_hull(line[k - 1], apex, last, 0);
            link_hull(apex, o0, 0, 1);
        } else {
            // Triangles [o_{i+1}, o_i, apex]; the hull runs to apex, then back along the line.
            for i in 0..k - 1 {
                let t = self.new_triangle(line[i + 1], line[i], apex);
                if i > 0 {
                    self.join(t, 0, t - 1, 1);
                }
                link_hull(line[i + 1], line[i], t, 2);
            }
            let last = (k - 2) as u32;
            link_hull(o0, apex, 0, 0);
            link_hull(apex, line[k - 1], last, 1);
        }
        // Every later point is lexicographically after all earlier ones: outside their
        // hull, seeing (strictly) a chain of hull edges that ends at the last point added.
        let mut last = apex;
        // Lawson's flips bound (a generous multiple of the expected few per point).
        let mut flips_left = if flips { 16 * n + 64 } else { 0 };
        for &p in &order[k + 1..] {
            let mut first = last;
            let mut steps = 0;
            loop {
                let v = prev[first as usize];
                if steps > n || self.orient(v, first, p) != Orientation::Clockwise {
                    break;
                }
                first = v;
                steps += 1;
            }
            let mut end = last;
            loop {
                let w = next[end as usize];
                if steps > n || self.orient(end, w, p) != Orientation::Clockwise {
                    break;
                }
                end = w;
                steps += 1;
            }
            if first == end || steps > n {
                // Nothing seen: only possible for points that are not where they claim.
                return Err(TriangulationError::BadPoint {
                    point: pts[p as usize],
                });
            }
            let (mut v, mut before, mut first_tri) = (first, NO_TRIANGLE, NO_TRIANGLE);
            while v != end {
                let w = next[v as usize];
                // [p, w, v]: the hull edge v → w is opposite p.
                let t = self.new_triangle(p, w, v);
                let packed = hull_edge[v as usize];
                self.join(t, 0, packed / 4, (packed % 4) as usize);
                if before == NO_TRIANGLE {
                    first_tri = t;
                } else {
                    self.join(t, 1, before, 2);
                }
                before = t;
                v = w;
            }
            next[first as usize] = p;
            prev[p as usize] = first;
            hull_edge[first as usize] = 4 * first_tri + 1;
            next[p as usize] = end;
            prev[end as usize] = p;
            hull_edge[p as usize] = 4 * before + 2;
            last = p;
            if flips_left > 0 {
                self.legalize(p, first_tri..before + 1, &mut hull_edge, &mut flips_left);
            }
        }
        self.removed_by = vec![0; self.corners.len()];
        Ok(())
    }

    /// Flips the edges opposite `p` in the triangles `fan` (and those they lead to) while
    /// the point across is clearly inside the triangle's circumcircle.
    ///
    /// Only for the shape of the triangles (fewer crossed by each wall later, and rounder
    /// ones for the expansion): the float incircle test flips only when its sign is
    /// certain (Shewchuk's error bound), so the flips are true Delaunay flips and cannot
    /// cycle; validity rests on the exact orientation test of the flipped pair alone.
    fn legalize(
        &mut self,
        p: u32,
        fan: std::ops::Range<u32>,
        hull_edge: &mut [u32],
        flips_left: &mut usize,
    ) {
        // Entries `4 t + i`: the edge opposite corner `i` (which is `p`) of triangle `t`.
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.extend(fan.map(|t| 4 * t));
        let pts = self.pts;
        let pp = pts[p as usize];
        while let Some(e) = stack.pop() {
            let (t, i) = (e / 4, (e % 4) as usize);
            let u = self.neighbours[t as usize][i];
            if u == NO_TRIANGLE {
                continue;
            }
            let nu = self.neighbours[u as usize];
            let k = if nu[0] == t {
                0
            } else if nu[1] == t {
                1
            } else {
                2
            };
            let c = self.corners[t as usize];
            let (x, y, q) = (c[next3(i)], c[prev3(i)], self.corners[u as usize][k]);
            let (px, py, pq) = (pts[x as usize], pts[y as usize], pts[q as usize]);
            if !clearly_in_circle(pp, px, py, pq)
                || orient(pp, px, pq) != Orientation::CounterClockwise
                || orient(pq, py, pp) != Orientation::CounterClockwise
            {
                continue;
            }
            // t = [p, x, y], u = [q, y, x]  →  t = [p, x, q], u = [q, y, p].
            let nt = self.neighbours[t as usize];
            let (a, b) = (nt[next3(i)], nt[prev3(i)]);
            let (cc, d) = (nu[next3(k)], nu[prev3(k)]);
            self.corners[t as usize] = [p, x, q];
            self.neighbours[t as usize] = [cc, u, b];
            self.corners[u as usize] = [q, y, p];
            self.neighbours[u as usize] = [a, t, d];
            if cc != NO_TRIANGLE {
                let back = &mut self.neighbours[cc as usize];
                if let Some(e) = back.iter_mut().find(|e| **e == u) {
                    *e = t;
                }
            } else {
                hull_edge[x as usize] = 4 * t;
            }
            if a != NO_TRIANGLE {
                let back = &mut self.neighbours[a as usize];
                if let Some(e) = back.iter_mut().find(|e| **e == t) {
                    *e = u;
                }
            } else {
                hull_edge[y as usize] = 4 * u;
            }
            if b == NO_TRIANGLE {
                hull_edge[p as usize] = 4 * t + 2;
            }
            if d == NO_TRIANGLE {
                hull_edge[q as usize] = 4 * u + 2;
            }
            self.triangle_at[x as usize] = t;
            self.triangle_at[y as usize] = u;
            *flips_left -= 1;
            if *flips_left == 0 {
                break;
            }
            stack.push(4 * t);
            stack.push(4 * u + 2);
        }
        self.stack = stack;
    }

    /// The link across edge `i` of triangle `t`, seen from `t`.
    fn far_link(&self, t: u32, i: usize) -> EdgeLink {
        let far = self.neighbours[t as usize][i];
        let f = self.flags[t as usize];
        let flags = (f >> i) & 1 | ((f >> (3 + i)) & 1) << 1;
        let idx = if far == NO_TRIANGLE {
            0
        } else {
            let nb = self.neighbours[far as usize];
            if nb[0] == t {
                0
            } else if nb[1] == t {
                1
            } else {
                2
            }
        };
        EdgeLink {
            tri: far,
            idx,
            flags,
        }
    }

    /// Gives edge `i` of the new triangle `t` the far side and near-side flags of `link`.
    fn attach(&mut self, t: u32, i: usize, link: EdgeLink) {
        let f = &mut self.flags[t as usize];
        *f = *f & !(1 << i | 8 << i) | (link.flags & 1) << i | (link.flags >> 1 & 1) << (3 + i);
        if link.idx == STALE {
            self.neighbours[t as usize][i] = NO_TRIANGLE;
            self.stale.push((t, i as u8));
        } else {
            self.neighbours[t as usize][i] = link.tri;
            if link.tri != NO_TRIANGLE {
                self.neighbours[link.tri as usize][link.idx as usize] = t;
            }
        }
    }

    /// Marks edge `i` of `t` as a wall; `blocked`: `t` is on the wall's blocked side.
    fn mark_wall(&mut self, t: u32, i: usize, blocked: bool) {
        self.flags[t as usize] |= 1 << i | (blocked as u8) << (3 + i);
    }

    /// Makes the wall `a → b` an edge. `Err` when it passes through a point or crosses a
    /// wall already inserted.
    fn insert_wall(&mut self, a: u32, b: u32, two_sided: bool) -> Result<(), ()> {
        // Already an edge (the usual case after the flips): found by ids alone.
        let edge = self.around(a, |c, j| {
            // a → u is opposite w (the triangle on its left), w → a opposite u.
            if c[next3(j)] == b {
                Some((prev3(j), true))
            } else if c[prev3(j)] == b {
                Some((next3(j), false))
            } else {
                None
            }
        })?;
        if let Some((t, (i, t_left))) = edge {
            self.mark_wall(t, i, !t_left && !two_sided);
            let far = self.far_link(t, i);
            if far.tri != NO_TRIANGLE {
                self.mark_wall(far.tri, far.idx as usize, t_left && !two_sided);
            }
            return Ok(());
        }
        // Else the triangle whose angle at a holds the direction to b.
        let (pa, pb) = (self.pts[a as usize], self.pts[b as usize]);
        let pts = self.pts;
        let start = self.around(a, |c, j| {
            let (pu, pw) = (pts[c[next3(j)] as usize], pts[c[prev3(j)] as usize]);
            let (ou, ow) = (orient(pa, pu, pb), orient(pa, pw, pb));
            if ou == Orientation::CounterClockwise && ow == Orientation::Clockwise {
                Some(true)
            } else if (ou == Orientation::Collinear && same_direction(pa, pu, pb))
                || (ow == Orientation::Collinear && same_direction(pa, pw, pb))
            {
                // A point on the wall, or the wall's end on an edge.
                Some(false)
            } else {
                None
            }
        })?;
        let Some((t0, true)) = start else {
            return Err(());
        };
        let ja = self.corners[t0 as usize]
            .iter()
            .position(|&v| v == a)
            .ok_or(())?;

        // Walk from a to b through the triangles the wall crosses, collecting the cavity's
        // boundary on each side (vertices and the links of the edges between them).
        self.insertions += 1;
        #[cfg(test)]
        tests::INSERTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let stamp = self.insertions;
        self.removed.clear();
        self.left.clear();
        self.left_links.clear();
        self.right.clear();
        self.right_links.clear();
        let c = self.corners[t0 as usize];
        let (mut r, mut l) = (c[next3(ja)], c[prev3(ja)]);
        self.left.extend([a, l]);
        self.left_links.push(self.far_link(t0, next3(ja)));
        self.right.extend([a, r]);
        self.right_links.push(self.far_link(t0, prev3(ja)));
        self.removed.push(t0);
        self.removed_by[t0 as usize] = stamp;
        // The crossed edge r → l is edge `cross` of `cur`.
        let (mut cur, mut cross) = (t0, ja);
        loop {
            if self.flags[cur as usize] >> cross & 1 == 1 {
                return Err(());
            }
            let nt = self.neighbours[cur as usize][cross];
            if nt == NO_TRIANGLE || self.removed_by[nt as usize] == stamp {
                return Err(());
            }
            let c = self.corners[nt as usize];
            let j = (0..3).find(|&j| c[j] != r && c[j] != l).ok_or(())?;
            if c[next3(j)] != l || c[prev3(j)] != r {
                return Err(());
            }
            let v = c[j];
            self.removed.push(nt);
            self.removed_by[nt as usize] = stamp;
            // In nt = [v, l, r]: v → l is opposite r, r → v opposite l.
            if v == b {
                self.left_links.push(self.far_link(nt, prev3(j)));
                self.left.push(b);
                self.right_links.push(self.far_link(nt, next3(j)));
                self.right.push(b);
                break;
            }
            match orient(pa, pb, self.pts[v as usize]) {
                Orientation::CounterClockwise => {
                    self.left_links.push(self.far_link(nt, prev3(j)));
                    self.left.push(v);
                    (cur, cross, l) = (nt, next3(j), v);
                }
                Orientation::Clockwise => {
                    self.right_links.push(self.far_link(nt, next3(j)));
                    self.right.push(v);
                    (cur, cross, r) = (nt, prev3(j), v);
                }
                Orientation::Collinear => return Err(()),
            }
        }
        // Links into the cavity itself (an enclosed vertex's edge) are matched up later.
        for link in self
            .left_links
            .iter_mut()
            .chain(self.right_links.iter_mut())
        {
            if link.tri != NO_TRIANGLE && self.removed_by[link.tri as usize] == stamp {
                link.idx = STALE;
            }
        }
        if self.left.len() + self.right.len() - 4 != self.removed.len() {
            return Err(());
        }
        self.stale.clear();
        // Each side as a counter-clockwise walk with the wall closing it: the left side
        // from b to a, the right from a to b.
        let left = std::mem::take(&mut self.left);
        let left_links = std::mem::take(&mut self.left_links);
        let into_left = self.fill(left.iter().rev().copied(), left_links.iter().rev().copied());
        self.left = left;
        self.left_links = left_links;
        let right = std::mem::take(&mut self.right);
        let right_links = std::mem::take(&mut self.right_links);
        let into_right = self.fill(right.iter().copied(), right_links.iter().copied());
        self.right = right;
        self.right_links = right_links;
        let (into_left, into_right) = (into_left?, into_right?);
        // The wall: left side free, right side free only for a thin wall.
        self.join(
            into_left.tri,
            into_left.idx as usize,
            into_right.tri,
            into_right.idx as usize,
        );
        self.mark_wall(into_left.tri, into_left.idx as usize, false);
        self.mark_wall(into_right.tri, into_right.idx as usize, !two_sided);
        self.match_stale()
    }

    /// The first answer of `visit(corners, index of a)` over the triangles around `a`
    /// (counter-clockwise from `triangle_at[a]` to the hull, then clockwise), with the
    /// triangle; `None` when every triangle was visited; `Err` for a broken fan.
    fn around<R>(
        &self,
        a: u32,
        mut visit: impl FnMut([u32; 3], usize) -> Option<R>,
    ) -> Result<Option<(u32, R)>, ()> {
        let start = self.triangle_at[a as usize];
        if start == NO_TRIANGLE {
            return Err(());
        }
        let (mut t, mut ccw) = (start, true);
        for _ in 0..=self.corners.len() {
            let c = self.corners[t as usize];
            let j = c.iter().position(|&v| v == a).ok_or(())?;
            if let Some(r) = visit(c, j) {
                return Ok(Some((t, r)));
            }
            // Counter-clockwise crosses a → c[j + 2], clockwise a → c[j + 1].
            let mut next = self.neighbours[t as usize][if ccw { next3(j) } else { prev3(j) }];
            if next == start {
                return Ok(None);
            }
            if next == NO_TRIANGLE {
                if !ccw {
                    return Ok(None);
                }
                // The hull: on clockwise from the start.
                ccw = false;
                let c = self.corners[start as usize];
                let j = c.iter().position(|&v| v == a).ok_or(())?;
                next = self.neighbours[start as usize][prev3(j)];
                if next == NO_TRIANGLE {
                    return Ok(None);
                }
            }
            t = next;
        }
        Err(())
    }

    /// Fills the polygon `verts` (a counter-clockwise walk, closed by the edge from its
    /// last vertex back to its first; `links[k]` joins `verts[k]` and `verts[k + 1]`) with
    /// triangles in the removed slots, by cutting every convex corner met while scanning.
    /// Returns the link into the triangle on the closing edge.
    fn fill(
        &mut self,
        verts: impl Iterator<Item = u32>,
        mut links: impl Iterator<Item = EdgeLink>,
    ) -> Result<EdgeLink, ()> {
        self.stack.clear();
        self.stack_links.clear();
        for v in verts {
            if !self.stack.is_empty() {
                self.stack_links.push(links.next().ok_or(())?);
            }
            self.stack.push(v);
            while self.stack.len() >= 3 {
                let s = self.stack.len();
                let (x, y, z) = (self.stack[s - 3], self.stack[s - 2], self.stack[s - 1]);
                if self.orient(x, y, z) != Orientation::CounterClockwise {
                    break;
                }
                let t = self.removed.pop().ok_or(())?;
                self.corners[t as usize] = [x, y, z];
                self.flags[t as usize] = 0;
                self.removed_by[t as usize] = 0;
                let l = self.stack_links.len();
                let (xy, yz) = (self.stack_links[l - 2], self.stack_links[l - 1]);
                self.attach(t, 2, xy);
                self.attach(t, 0, yz);
                for v in [x, y, z] {
                    self.triangle_at[v as usize] = t;
                }
                self.stack.truncate(s - 2);
                self.stack.push(z);
                self.stack_links.truncate(l - 2);
                self.stack_links.push(EdgeLink {
                    tri: t,
                    idx: 1,
                    flags: 0,
                });
            }
        }
        if self.stack.len() != 2 {
            return Err(());
        }
        Ok(self.stack_links[0])
    }

    /// Joins the new triangles on the two sides of each edge the cavity held inside.
    fn match_stale(&mut self) -> Result<(), ()> {
        let mut k = 0;
        while k < self.stale.len() {
            let (t, i) = self.stale[k];
            let c = self.corners[t as usize];
            let (u, v) = (c[next3(i as usize)], c[prev3(i as usize)]);
            let partner = self.stale[k + 1..].iter().position(|&(s, j)| {
                let d = self.corners[s as usize];
                d[next3(j as usize)] == v && d[prev3(j as usize)] == u
            });
            let Some(p) = partner else {
                return Err(());
            };
            let (s, j) = self.stale.remove(k + 1 + p);
            self.join(t, i as usize, s, j as usize);
            #[cfg(test)]
            tests::ENCLOSED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            k += 1;
        }
        self.stale.clear();
        Ok(())
    }

    /// Free or not, per triangle: the walls' sides seed it, hull edges that are not walls
    /// lie outside, and it spreads across the edges that are not walls.
    fn flood(&self) -> Result<Vec<bool>, TriangulationError> {
        const UNKNOWN: u8 = 0;
        const FREE: u8 = 1;
        const BLOCKED: u8 = 2;
        let count = self.corners.len();
        let mut state = vec![UNKNOWN; count];
        let mut todo: Vec<u32> = Vec::with_capacity(count);
        for (t, (&f, nb)) in self.flags.iter().zip(&self.neighbours).enumerate() {
            let walls = f & WALLS;
            let blocked_sides = f >> 3;
            let on_open_hull = (0..3).any(|i| walls >> i & 1 == 0 && nb[i] == NO_TRIANGLE);
            let blocked = blocked_sides != 0 || on_open_hull;
            let free = walls & !blocked_sides != 0;
            if free && blocked {
                return Err(TriangulationError::Inconsistent);
            }
            if free || blocked {
                state[t] = if free { FREE } else { BLOCKED };
                todo.push(t as u32);
            }
        }
        while let Some(t) = todo.pop() {
            let s = state[t as usize];
            let walls = self.flags[t as usize] & WALLS;
            for i in 0..3 {
                let u = self.neighbours[t as usize][i];
                if walls >> i & 1 == 1 || u == NO_TRIANGLE {
                    continue;
                }
                match state[u as usize] {
                    UNKNOWN => {
                        state[u as usize] = s;
                        todo.push(u);
                    }
                    other if other != s => return Err(TriangulationError::Inconsistent),
                    _ => {}
                }
            }
        }
        if state.contains(&UNKNOWN) {
            return Err(TriangulationError::Inconsistent);
        }
        Ok(state.into_iter().map(|s| s == FREE).collect())
    }
}

// The degenerate random environments of the integration tests.
#[cfg(test)]
#[path = "../tests/common/mod.rs"]
mod common;

#[cfg(test)]
mod tests {
    use super::*;
    use corridor_geom::{point_on_segment, Environment, Obstacle, Ring};
    use corridor_testkit::random::{random_environment, BoundaryShape, RandomEnvironmentOptions};
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    use super::common;

    fn cross(a: Point, b: Point, c: Point) -> f64 {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    /// The points on the boundary of the convex hull (collinear ones included), counted
    /// independently of the triangulation: the strict hull by a monotone chain, then every
    /// point on one of its edges.
    fn hull_boundary_points(pts: &[Point]) -> (usize, f64) {
        let mut sorted: Vec<Point> = pts.to_vec();
        sorted.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
        let mut hull: Vec<Point> = Vec::new();
        for pass in 0..2 {
            let start = hull.len();
            let iter: Box<dyn Iterator<Item = &Point>> = if pass == 0 {
                Box::new(sorted.iter())
            } else {
                Box::new(sorted.iter().rev())
            };
            for &p in iter {
                while hull.len() >= start + 2
                    && orient(hull[hull.len() - 2], hull[hull.len() - 1], p)
                        != Orientation::CounterClockwise
                {
                    hull.pop();
                }
                hull.push(p);
            }
            hull.pop();
        }
        let k = hull.len();
        let on_hull = pts
            .iter()
            .filter(|&&p| (0..k).any(|i| point_on_segment(p, hull[i], hull[(i + 1) % k])))
            .count();
        let area = (0..k)
            .map(|i| cross(hull[0], hull[i], hull[(i + 1) % k]))
            .sum::<f64>()
            / 2.0;
        (on_hull, area)
    }

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1e-300)
    }

    /// The free area by the shoelace formula over the one-sided walls (the free space is
    /// on their left, so they bound it counter-clockwise).
    fn wall_area(fs: &FreeSpace) -> f64 {
        fs.walls
            .iter()
            .filter(|w| !w.two_sided)
            .map(|w| {
                cross(
                    fs.points[0],
                    fs.points[w.a as usize],
                    fs.points[w.b as usize],
                )
            })
            .sum::<f64>()
            / 2.0
    }

    /// The signed area of a ring, by the shoelace formula about its first vertex (about
    /// the origin, far-away rings would lose digits).
    fn ring_area(ring: &[Point]) -> f64 {
        let k = ring.len();
        (0..k)
            .map(|i| cross(ring[0], ring[i], ring[(i + 1) % k]))
            .sum::<f64>()
            / 2.0
    }

    /// The free area of the environment normalized by the geometry kernel (boundary
    /// minus the union of the obstacles), computed from its own polygons.
    fn normalized_free_area(env: &Environment) -> f64 {
        let walls = corridor_geom::normalize(env).unwrap();
        let mut area = 0.0;
        for shape in &walls.free_space() {
            for contour in shape {
                let ring: Vec<Point> = contour.iter().map(|&g| walls.grid.to_point(g)).collect();
                area += ring_area(&ring);
            }
        }
        area
    }

    /// Walls inserted across triangles, and edges of an enclosed vertex matched up, by all
    /// tests so far.
    pub(super) static INSERTED: AtomicUsize = AtomicUsize::new(0);
    pub(super) static ENCLOSED: AtomicUsize = AtomicUsize::new(0);

    /// Every property the expansion relies on, with and without the rounding flips;
    /// returns the number of triangles.
    fn check(fs: &FreeSpace, free_area: Option<f64>, what: &str) -> usize {
        let flipped = check_one(fs, free_area, true, what);
        assert_eq!(flipped, check_one(fs, free_area, false, what));
        flipped
    }

    fn check_one(fs: &FreeSpace, free_area: Option<f64>, flips: bool, what: &str) -> usize {
        let what = &format!("{what} (flips: {flips})");
        let tri = triangulate_with(fs, flips).unwrap_or_else(|e| panic!("{what}: {e}"));
        let pts = &fs.points;
        let n = pts.len();
        let count = tri.corners.len();
        assert_eq!(tri.neighbours.len(), count);
        assert_eq!(tri.wall_edges.len(), count);
        assert_eq!(tri.free.len(), count);
        assert_eq!(tri.triangle_at.len(), n);
        let (h, hull_area) = hull_boundary_points(pts);
        assert_eq!(count, 2 * n - h - 2, "{what}: Euler");
        let mut edges: HashMap<(u32, u32), (u32, usize)> = HashMap::new();
        let (mut area, mut free_tri_area, mut hull_edges) = (0.0, 0.0, 0);
        for t in 0..count {
            let c = tri.corners[t];
            let (a, b, d) = (pts[c[0] as usize], pts[c[1] as usize], pts[c[2] as usize]);
            assert_eq!(
                orient(a, b, d),
                Orientation::CounterClockwise,
                "{what}: triangle {t}"
            );
            let x = cross(a, b, d) / 2.0;
            area += x;
            if tri.free[t] {
                free_tri_area += x;
            }
            assert_eq!(tri.wall_edges[t] & !WALLS, 0);
            for i in 0..3 {
                let (u, v) = (c[(i + 1) % 3], c[(i + 2) % 3]);
                assert!(
                    edges.insert((u, v), (t as u32, i)).is_none(),
                    "{what}: edge twice"
                );
                let nb = tri.neighbours[t][i];
                if nb == NO_TRIANGLE {
                    hull_edges += 1;
                    continue;
                }
                let d = tri.corners[nb as usize];
                let k = (0..3)
                    .find(|&k| tri.neighbours[nb as usize][k] == t as u32)
                    .unwrap_or_else(|| panic!("{what}: neighbours not symmetric"));
                assert_eq!(
                    (d[(k + 1) % 3], d[(k + 2) % 3]),
                    (v, u),
                    "{what}: shared edge"
                );
                assert_eq!(
                    tri.wall_edges[t] >> i & 1,
                    tri.wall_edges[nb as usize] >> k & 1,
                    "{what}: wall bit on one side only"
                );
                if tri.wall_edges[t] >> i & 1 == 0 {
                    assert_eq!(tri.free[t], tri.free[nb as usize], "{what}: free across");
                }
            }
        }
        assert_eq!(hull_edges, h, "{what}: hull edges");
        assert!(
            close(area, hull_area),
            "{what}: area {area} vs hull {hull_area}"
        );
        for (p, &t) in tri.triangle_at.iter().enumerate() {
            assert!(
                tri.corners[t as usize].contains(&(p as u32)),
                "{what}: triangle_at"
            );
        }
        let mut wall_edge_sides = 0;
        for w in &fs.walls {
            let left = edges.get(&(w.a, w.b)).copied();
            let right = edges.get(&(w.b, w.a)).copied();
            let (lt, li) = left.unwrap_or_else(|| panic!("{what}: wall's left side missing"));
            assert!(
                tri.wall_edges[lt as usize] >> li & 1 == 1,
                "{what}: left bit"
            );
            assert!(tri.free[lt as usize], "{what}: wall's left side not free");
            wall_edge_sides += 1;
            match right {
                Some((rt, ri)) => {
                    assert!(
                        tri.wall_edges[rt as usize] >> ri & 1 == 1,
                        "{what}: right bit"
                    );
                    assert_eq!(tri.free[rt as usize], w.two_sided, "{what}: right side");
                    wall_edge_sides += 1;
                }
                None => assert!(!w.two_sided, "{what}: thin wall on the hull"),
            }
        }
        let marked: u32 = tri.wall_edges.iter().map(|f| f.count_ones()).sum();
        assert_eq!(
            marked, wall_edge_sides,
            "{what}: edges marked that are no walls"
        );
        let walls_say = wall_area(fs);
        assert!(
            close(free_tri_area, walls_say),
            "{what}: free triangles {free_tri_area} vs walls {walls_say}"
        );
        if let Some(expected) = free_area {
            assert!(
                close(free_tri_area, expected),
                "{what}: free triangles {free_tri_area} vs free area {expected}"
            );
        }
        count
    }

    /// The free area: the boundary's minus the obstacles' when they are interior-disjoint
    /// (the free space keeps their coordinates), else the normalized free polygons' (the
    /// free space's walls lie on the same snap grid).
    fn free_area(env: &Environment) -> f64 {
        if FreeSpace::from_disjoint(env).is_ok() {
            let obstacles: f64 = env
                .obstacles()
                .map(|(_, o)| match o {
                    Obstacle::Polygon(poly) => {
                        let outer = ring_area(poly.exterior.vertices()).abs();
                        let holes: f64 = poly
                            .holes
                            .iter()
                            .map(|h| ring_area(h.vertices()).abs())
                            .sum();
                        outer - holes
                    }
                    _ => 0.0,
                })
                .sum();
            ring_area(env.boundary().vertices()).abs() - obstacles
        } else {
            normalized_free_area(env)
        }
    }

    fn check_env(env: &Environment, what: &str) -> usize {
        let fs = FreeSpace::from_environment(env).unwrap();
        check(&fs, Some(free_area(env)), what)
    }

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn degenerate_random_environments() {
        let mut triangles = 0;
        for seed in 0..1000u64 {
            let (w, h) = (3 + (seed % 4) as i32, 3 + ((seed / 4) % 4) as i32);
            let env = common::random_environment(seed, w, h);
            triangles += check_env(&env, &format!("seed {seed}"));
        }
        assert!(triangles > 10_000);
        // The cavity code ran, including a vertex enclosed by one cavity (its edges met
        // from both sides; other tests running at the same time only add to the counts).
        assert!(INSERTED.load(Relaxed) > 1000);
        assert!(ENCLOSED.load(Relaxed) > 0);
        for seed in 0..200u64 {
            let env = common::random_environment(seed + 5000, 12 + (seed % 7) as i32, 9);
            check_env(&env, &format!("large seed {seed}"));
        }
    }

    #[test]
    fn generated_environments_with_every_obstacle_kind() {
        for seed in 0..180u64 {
            let options = match seed % 6 {
                0 => RandomEnvironmentOptions::default(),
                // Far from the origin and small, or spanning the snap grid's whole
                // range: orientation falls back to exact arithmetic more often.
                4 => RandomEnvironmentOptions {
                    origin: p(3e4, -2e4),
                    size: 0.5,
                    ..RandomEnvironmentOptions::default()
                },
                5 => RandomEnvironmentOptions {
                    origin: p(-4e4, 1e4),
                    size: 4e4,
                    ..RandomEnvironmentOptions::default()
                },
                1 => RandomEnvironmentOptions::grid_map(16, 40),
                2 => RandomEnvironmentOptions {
                    boundary: BoundaryShape::Star,
                    on_boundary: 0.3,
                    ..RandomEnvironmentOptions::default()
                },
                _ => RandomEnvironmentOptions {
                    obstacles: 60,
                    ..RandomEnvironmentOptions::default()
                },
            };
            let env = random_environment(seed, &options);
            check_env(&env, &format!("generated seed {seed}"));
        }
    }

    #[test]
    fn hand_made_corner_cases() {
        // A pinch: two cells touching at a corner, one touching the boundary.
        let mut env = Environment::rectangle(p(0.0, 0.0), p(3.0, 3.0));
        env.insert(Obstacle::rectangle(p(0.0, 0.0), p(1.0, 1.0)));
        env.insert(Obstacle::rectangle(p(1.0, 1.0), p(2.0, 2.0)));
        check_env(&env, "pinch");
        // Thin walls (one dangling, one a chain), a point obstacle, a concave obstacle
        // touching a convex one along part of an edge.
        let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 8.0));
        env.insert(Obstacle::Polyline(vec![p(1.0, 1.0), p(4.0, 1.0)]));
        env.insert(Obstacle::Polyline(vec![
            p(1.0, 7.0),
            p(2.0, 6.0),
            p(3.0, 7.0),
        ]));
        env.insert(Obstacle::Point(p(5.0, 5.0)));
        env.insert(Obstacle::polygon(vec![
            p(5.0, 2.0),
            p(9.0, 2.0),
            p(9.0, 6.0),
            p(7.0, 6.0),
            p(7.0, 4.0),
            p(5.0, 4.0),
        ]));
        env.insert(Obstacle::rectangle(p(5.0, 4.0), p(6.0, 5.0)));
        check_env(&env, "thin walls and a concave obstacle");
        // A non-convex boundary (an L) with obstacles touching it, one at its reflex
        // corner, one along an edge.
        let boundary = Ring::new(vec![
            p(0.0, 0.0),
            p(6.0, 0.0),
            p(6.0, 3.0),
            p(3.0, 3.0),
            p(3.0, 6.0),
            p(0.0, 6.0),
        ]);
        let mut env = Environment::new(boundary);
        env.insert(Obstacle::polygon(vec![
            p(3.0, 3.0),
            p(2.0, 3.0),
            p(2.0, 2.0),
        ]));
        env.insert(Obstacle::rectangle(p(4.0, 0.0), p(5.0, 1.0)));
        env.insert(Obstacle::polygon(vec![
            p(0.0, 5.0),
            p(1.0, 4.0),
            p(1.0, 6.0),
        ]));
        check_env(&env, "L boundary");
        // Cocircular and collinear points: a regular polygon and a comb of equal teeth.
        let mut env = Environment::rectangle(p(-2.0, -2.0), p(12.0, 2.0));
        let ring: Vec<Point> = (0..32)
            .map(|k| {
                let a = k as f64 * std::f64::consts::TAU / 32.0;
                p(a.cos(), a.sin())
            })
            .collect();
        env.insert(Obstacle::polygon(ring));
        for k in 0..8 {
            let x = 2.0 + k as f64;
            env.insert(Obstacle::polygon(vec![
                p(x, -1.0),
                p(x + 0.5, -1.0),
                p(x, 1.0),
            ]));
        }
        check_env(&env, "cocircular and collinear");
    }

    #[test]
    fn shared_grid_maps() {
        let dir = common::data_dir();
        let grids = ["arena.map", "den312d.map"]
            .iter()
            .map(|m| dir.join("movingai").join(m))
            .chain(common::anyangle_maze_dirs().into_iter().step_by(10));
        for path in grids {
            let env = corridor_io::load_grid(&path).unwrap().to_environment();
            let fs = FreeSpace::from_environment(&env).unwrap();
            check(&fs, Some(free_area(&env)), &path.display().to_string());
        }
    }

    #[test]
    fn inconsistent_free_spaces_are_errors() {
        let mut env = Environment::rectangle(p(0.0, 0.0), p(4.0, 4.0));
        env.insert(Obstacle::rectangle(p(1.0, 1.0), p(2.0, 2.0)));
        let fs = FreeSpace::from_environment(&env).unwrap();
        assert!(triangulate(&fs).is_ok());
        // A wall reversed: its sides disagree with the others'.
        let mut reversed = fs.clone();
        let w = &mut reversed.walls[0];
        (w.a, w.b) = (w.b, w.a);
        assert_eq!(
            triangulate(&reversed).err(),
            Some(TriangulationError::Inconsistent)
        );
        // A wall crossing another one, and a wall through a point.
        let id = |q: Point| fs.vertex_at(q).unwrap() as u32;
        let mut crossing = fs.clone();
        let extra = extra_wall(&fs, id(p(1.0, 1.0)), id(p(4.0, 4.0)));
        crossing.walls.push(extra);
        assert!(matches!(
            triangulate(&crossing),
            Err(TriangulationError::WallBlocked { .. })
        ));
        let mut through = fs.clone();
        through
            .walls
            .push(extra_wall(&fs, id(p(0.0, 0.0)), id(p(2.0, 2.0))));
        assert!(matches!(
            triangulate(&through),
            Err(TriangulationError::WallBlocked { .. })
        ));
        // Out-of-range ids, repeated and infinite points, no area.
        let mut bad = fs.clone();
        bad.walls[0].b = 99;
        assert!(triangulate(&bad).is_err());
        let mut repeated = fs.clone();
        repeated.points[1] = repeated.points[0];
        assert!(triangulate(&repeated).is_err());
        let mut infinite = fs.clone();
        infinite.points[2] = p(f64::INFINITY, 0.0);
        assert!(triangulate(&infinite).is_err());
        let mut flat = fs.clone();
        for (k, q) in flat.points.iter_mut().enumerate() {
            *q = p(k as f64, 2.0 * k as f64);
        }
        assert_eq!(triangulate(&flat).err(), Some(TriangulationError::Flat));
    }

    /// Broken free spaces (walls removed, reversed, added between random points, points
    /// moved onto others) give an error or a valid triangulation, never a panic.
    #[test]
    fn broken_free_spaces_never_panic() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let (mut ok, mut failed) = (0, 0);
        for seed in 0..300u64 {
            let env = common::random_environment(seed, 4 + (seed % 3) as i32, 4);
            let mut fs = FreeSpace::from_environment(&env).unwrap();
            let (n, m) = (fs.points.len() as u32, fs.walls.len());
            for _ in 0..rng.random_range(1..4) {
                match rng.random_range(0..4) {
                    0 => {
                        fs.walls.swap_remove(rng.random_range(0..fs.walls.len()));
                    }
                    1 => {
                        let k = rng.random_range(0..m.min(fs.walls.len()));
                        let w = &mut fs.walls[k];
                        (w.a, w.b) = (w.b, w.a);
                    }
                    2 => {
                        let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
                        let two_sided = rng.random_bool(0.5);
                        fs.walls.push(crate::free_space::WallRec {
                            a,
                            b,
                            two_sided,
                            ..fs.walls[0]
                        });
                    }
                    _ => {
                        let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
                        fs.points[a as usize] = fs.points[b as usize];
                    }
                }
            }
            match triangulate(&fs) {
                Ok(tri) => {
                    ok += 1;
                    for (t, c) in tri.corners.iter().enumerate() {
                        let q = |i: usize| fs.points[c[i] as usize];
                        assert_eq!(orient(q(0), q(1), q(2)), Orientation::CounterClockwise);
                        for &nb in &tri.neighbours[t] {
                            assert!(
                                nb == NO_TRIANGLE
                                    || tri.neighbours[nb as usize].contains(&(t as u32))
                            );
                        }
                    }
                }
                Err(_) => failed += 1,
            }
        }
        // Most corruptions are caught; some (a wall removed between two free regions)
        // leave a consistent free space.
        assert!(failed > 100 && ok > 10, "{ok} ok, {failed} errors");
    }

    fn extra_wall(fs: &FreeSpace, a: u32, b: u32) -> crate::free_space::WallRec {
        crate::free_space::WallRec {
            a,
            b,
            ..fs.walls[0]
        }
    }
}
