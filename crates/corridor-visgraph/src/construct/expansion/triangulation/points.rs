//! How are the points triangulated? A sweep in lexicographic order, each new point joined
//! to the hull edges it sees, with flips towards Delaunay where a float incircle test is
//! certain.

use super::{next3, prev3, Builder, TriangulationError, NO_TRIANGLE};
use corridor_geom::{orient, Orientation, Point};

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

impl Builder<'_> {
    /// Triangulates the points (no walls yet) by a sweep in lexicographic order.
    pub(super) fn sweep(&mut self, flips: bool) -> Result<(), TriangulationError> {
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
    pub(super) fn legalize(
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
}
