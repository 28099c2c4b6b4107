//! How is a wall forced into the triangulation? The triangles it crosses are removed and
//! the cavity on each side is filled again by an ear scan along its boundary.

use super::{next3, prev3, Builder, EdgeLink, NO_TRIANGLE, STALE};
use corridor_geom::{orient, Orientation, Point};

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

impl Builder<'_> {
    /// The link across edge `i` of triangle `t`, seen from `t`.
    pub(super) fn far_link(&self, t: u32, i: usize) -> EdgeLink {
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
    pub(super) fn attach(&mut self, t: u32, i: usize, link: EdgeLink) {
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
    pub(super) fn mark_wall(&mut self, t: u32, i: usize, blocked: bool) {
        self.flags[t as usize] |= 1 << i | (blocked as u8) << (3 + i);
    }

    /// Makes the wall `a → b` an edge. `Err` when it passes through a point or crosses a
    /// wall already inserted.
    pub(super) fn insert_wall(&mut self, a: u32, b: u32, two_sided: bool) -> Result<(), ()> {
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
        super::tests::INSERTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
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
    pub(super) fn around<R>(
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
    pub(super) fn fill(
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
    pub(super) fn match_stale(&mut self) -> Result<(), ()> {
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
            super::tests::ENCLOSED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            k += 1;
        }
        self.stale.clear();
        Ok(())
    }
}
