//! Which vertices does a vertex see? Triangular expansion (Bungiu, Hemmer, Hershberger,
//! Huang and Kröller 2014, as in CGAL's `Triangular_expansion_visibility_2`) over a
//! triangulation of the free space in which every wall is an edge.
//!
//! **Direct pairs.** Call `(v, x)` *direct* when the direction from `v` towards `x` lies
//! in a closed free wedge at `v`, no wall properly crosses the segment and no vertex lies
//! inside it. From `v` the expansion walks the fan of triangles around `v`; in every free
//! triangle `(v, a, b)` the corners `a` and `b` are direct (the segments are triangulation
//! edges in the closed free space), and through the edge `(a, b)`, unless it is a wall,
//! the open cone between the rays `v → a` and `v → b` enters the next triangle. Its third
//! corner `c` is direct exactly when it lies *strictly* inside the cone (exact orientation
//! signs): then every edge crossed so far is crossed in its interior, by a segment lying
//! in the open free triangles. The cone then splits into the sub-cones through the edges
//! `(a, c)` and `(c, b)`, else it goes on unchanged through the one edge it meets; wall
//! edges stop it. A corner on a cone's boundary ray is not direct: the ray passes the
//! vertex that bounds the cone first. Conversely a direct segment leaves `v` into a free
//! triangle (or along a fan edge), and, meeting no vertex, leaves every triangle through
//! the interior of an edge, which is no wall (it would be crossed properly): the
//! expansion follows it to `x`. Open cones of different branches are disjoint, so every
//! direct corner is found once; a fan corner shared by two free fan triangles is
//! reported by one of them.
//!
//! **Chains.** A pair `(v, y)` whose open segment holds vertices `w1, …, wk` (in order) is
//! visible for the naive oracle ([`crate::construct::naive::visibility`]) exactly when no wall
//! crosses the segment properly and a [`Walk`] along it passes every `wi`. A wall crossing
//! it properly does so inside one piece `(wi, wi+1)`: no vertex lies in a wall's interior
//! (the free space splits walls at every vertex on them). A walk passing `wi` needs a
//! wedge at `wi` holding both directions of the line, so the piece after `wi` leaves `wi`
//! in a closed free wedge. So the visible pairs are the direct pairs `(v, w1)` extended
//! piece by piece: the walk tries to pass `w1`, the next vertex on the ray is found by
//! walking the triangles the ray crosses (stopping at a wall), with orientation signs
//! against the line through `v` and `w1` (exact), and so on. Every pair found, and only
//! these, is linked with the walk's arrival, as the naive oracle does;
//! [`VisibilityGraph::link`] then checks the wedges at both ends.
//!
//! **Which direct vertices start a chain.** Only those the expansion reports as *events*:
//! a triangle corner lying exactly on a cone's boundary ray, beyond the direct vertex `b`
//! that bounds the cone. None occur on inputs without collinear vertices, so chains cost
//! nothing there. Every chain with a second piece does produce one: if the walk passes
//! `w1`, one wedge at `w1` holds both directions of the line with free space on one side
//! `S` between them, so `S` is free along both pieces next to `w1` (the pieces are
//! triangulation edges or cross open triangles, and a piece is free on a side along its
//! whole length or nowhere). Rays from `v` turned a little towards `S` then run through
//! the free space past `w1` to `w2` and are followed by the expansion, in the cone whose
//! boundary ray on that side is the one through `w1` (cones are bounded by direct
//! vertices, and `w1` is the only one in that direction); the first triangle around `w2`
//! they enter has `w2` as the corner opposite the entry edge: an event with bound `w1`.
//!
//! **Edges without wedge tests.** Between two vertices whose one wedge is a node and
//! that have no thin wall, a direct pair gives `link`'s answer at once: the segment leaves
//! and reaches them through free triangles, so both wedges hold it with free space on
//! both sides; the full graph takes the edge, the reduced one when the line is tangent at
//! both ends (the wedge's two walls not strictly on opposite sides of it). For the
//! reduced graph the expansion from such a vertex does not follow cones lying strictly
//! inside the sector opposite the obstacle's corner: no line there is tangent at the
//! vertex. Bounds on that sector's edges keep their cones, so the events of chains along
//! those edges still come.
//!
//! Cost: the triangulation, then per vertex one fan walk and one stack-driven expansion
//! (flat arrays, corner look-up in O(1), a cone that goes on through one edge followed
//! without the stack, no allocation per vertex), plus a ray walk per event.

mod triangulation;

use crate::graph::{Edge, GraphKind, VisibilityGraph};
use corridor_geom::free_space::FreeSpace;
use corridor_geom::free_space::{along_ray_cmp, Place, Walk};
use corridor_geom::free_space::{side, Dir};
use corridor_geom::Point;
use std::cmp::Ordering;
use triangulation::{next3, prev3, triangulate, Triangulation, NO_TRIANGLE};

/// No way across an edge (a wall, the hull, or not free).
const CLOSED: u32 = u32::MAX;

/// An open cone of view from the expanding vertex, about to enter a triangle.
#[derive(Clone, Copy)]
struct Cone {
    /// The triangle entered and its corner opposite the entry edge: `(t << 2) | corner`.
    into: u32,
    /// The vertices whose rays bound the cone on the right and on the left.
    r: u32,
    l: u32,
    /// Whether each bound lies in the sector not followed (a cone with both bounds there
    /// lies in it).
    r_skipped: bool,
    l_skipped: bool,
}

/// An open sector of directions at the expanding vertex, less than π wide: from the ray
/// away from `after` counter-clockwise to the ray away from `before`. Open, because a
/// cone bounded by a ray on its boundary can still report the collinear chain along that
/// ray (see the module doc: the event comes from either side).
#[derive(Clone, Copy)]
pub(crate) struct Sector {
    after: Point,
    before: Point,
}

/// A placeholder sector for expansions that skip nothing.
const NO_SECTOR: Sector = Sector {
    after: Point::ZERO,
    before: Point::ZERO,
};

impl Sector {
    /// Whether the direction from `pv` towards `p` lies in the sector.
    #[inline]
    fn holds(&self, pv: Point, p: Point) -> bool {
        side(pv, self.after, p) < 0 && side(pv, self.before, p) > 0
    }
}

/// The triangulation as the expansion reads it.
pub(crate) struct Expansion<'a> {
    points: &'a [Point],
    corners: Vec<[u32; 3]>,
    /// Across the edge opposite corner `i` of free triangle `t`: `(neighbour << 2) | the
    /// neighbour's corner opposite the same edge`, or [`CLOSED`] for a wall, the hull, or a
    /// triangle that is not free.
    across: Vec<[u32; 3]>,
    /// Raw neighbours and free flags, for the fan walks.
    neighbours: Vec<[u32; 3]>,
    free: Vec<bool>,
    triangle_at: Vec<u32>,
    /// The pending cones.
    stack: Vec<Cone>,
}

impl<'a> Expansion<'a> {
    /// Prepares the expansion over a triangulation of `fs`.
    pub(crate) fn new(fs: &'a FreeSpace, tri: Triangulation) -> Self {
        let n = tri.corners.len();
        let mut across = vec![[CLOSED; 3]; n];
        for (t, links) in across.iter_mut().enumerate() {
            if !tri.free[t] {
                continue;
            }
            for (i, link) in links.iter_mut().enumerate() {
                let g = tri.neighbours[t][i];
                if tri.wall_edges[t] >> i & 1 == 1 || g == NO_TRIANGLE || !tri.free[g as usize] {
                    continue;
                }
                let back = tri.neighbours[g as usize]
                    .iter()
                    .position(|&h| h == t as u32);
                if let Some(j) = back {
                    *link = g << 2 | j as u32;
                }
            }
        }
        Expansion {
            points: &fs.points,
            corners: tri.corners,
            across,
            neighbours: tri.neighbours,
            free: tri.free,
            triangle_at: tri.triangle_at,
            stack: Vec::new(),
        }
    }

    /// The corner index of `v` in triangle `t`.
    #[inline]
    fn corner_of(&self, t: u32, v: u32) -> u32 {
        let c = &self.corners[t as usize];
        if c[0] == v {
            0
        } else if c[1] == v {
            1
        } else {
            2
        }
    }

    /// Calls `f(t, i)` for every triangle `t` around `v` (`i`: the corner of `v`), until
    /// it returns true; whether it did.
    fn any_around(&self, v: u32, mut f: impl FnMut(u32, u32) -> bool) -> bool {
        let t0 = self.triangle_at[v as usize];
        if t0 == NO_TRIANGLE {
            return false;
        }
        // Counter-clockwise: across the edge (v, b), opposite the corner after v. (Each
        // turn is bounded by the triangle count, so a malformed triangulation cannot
        // loop forever.)
        let mut t = t0;
        for _ in 0..self.corners.len() {
            let i = self.corner_of(t, v);
            if f(t, i) {
                return true;
            }
            t = self.neighbours[t as usize][next3(i as usize)];
            if t == t0 {
                return false;
            }
            if t == NO_TRIANGLE {
                break;
            }
        }
        // The hull stopped us: the rest clockwise from the start.
        let mut t = t0;
        for _ in 0..self.corners.len() {
            let i = self.corner_of(t, v);
            t = self.neighbours[t as usize][prev3(i as usize)];
            if t == NO_TRIANGLE {
                return false;
            }
            if f(t, self.corner_of(t, v)) {
                return true;
            }
        }
        false
    }

    /// The vertices directly visible from `v` (see the module doc), into `out`; into
    /// `events`, direct vertices with another vertex exactly beyond them on the ray from
    /// `v` (possibly repeated). With `skip`, the cones lying inside that open sector of
    /// directions from `v` are not followed (their vertices are not needed).
    pub(crate) fn direct_from(
        &mut self,
        v: u32,
        skip: Option<Sector>,
        out: &mut Vec<u32>,
        events: &mut Vec<u32>,
    ) {
        out.clear();
        events.clear();
        let mut stack = std::mem::take(&mut self.stack);
        let pv = self.points[v as usize];
        let inside = |p: Point| skip.is_some_and(|s| s.holds(pv, p));
        self.any_around(v, |t, i| {
            if !self.free[t as usize] {
                return false;
            }
            let c = self.corners[t as usize];
            let (a, b) = (c[next3(i as usize)], c[prev3(i as usize)]);
            out.push(b);
            let cw = self.neighbours[t as usize][prev3(i as usize)];
            if cw == NO_TRIANGLE || !self.free[cw as usize] {
                out.push(a);
            }
            let into = self.across[t as usize][i as usize];
            if into != CLOSED {
                let (ra, lb) = (
                    inside(self.points[a as usize]),
                    inside(self.points[b as usize]),
                );
                if !(ra && lb) {
                    stack.push(Cone {
                        into,
                        r: a,
                        l: b,
                        r_skipped: ra,
                        l_skipped: lb,
                    });
                    match skip {
                        Some(sector) => self.expand::<true>(v, sector, &mut stack, out, events),
                        None => self.expand::<false>(v, NO_SECTOR, &mut stack, out, events),
                    }
                }
            }
            false
        });
        self.stack = stack;
    }

    /// Runs the pending cones from `v` to exhaustion (not following cones inside `skip`
    /// when `SKIP`; a separate copy, so the full graph's loop has no such test).
    fn expand<const SKIP: bool>(
        &self,
        v: u32,
        skip: Sector,
        stack: &mut Vec<Cone>,
        out: &mut Vec<u32>,
        events: &mut Vec<u32>,
    ) {
        let pv = self.points[v as usize];
        // The cone in hand: one of two after a split waits on the stack, a cone that
        // goes on through one edge is followed at once.
        let Some(mut cone) = stack.pop() else {
            return;
        };
        loop {
            let (t, e) = ((cone.into >> 2) as usize, cone.into & 3);
            let c = self.corners[t][e as usize];
            let pc = self.points[c as usize];
            // Entered through (a, b): a = corner e + 1 is on the left, b = e + 2 on the
            // right. The part right of c leaves through (b, c), opposite a; the part
            // left of c through (c, a), opposite b.
            let to_r = side(pv, self.points[cone.r as usize], pc);
            let through = if to_r <= 0 {
                // Right of the cone (or on its right ray, beyond r: a collinear chain
                // may start at r): it all goes on through (c, a).
                if to_r == 0 {
                    events.push(cone.r);
                }
                self.across[t][prev3(e as usize)]
            } else {
                let to_l = side(pv, self.points[cone.l as usize], pc);
                if to_l < 0 {
                    out.push(c);
                    let c_skipped = SKIP && skip.holds(pv, pc);
                    let mut right = self.across[t][next3(e as usize)];
                    let mut left = self.across[t][prev3(e as usize)];
                    if cone.r_skipped && c_skipped {
                        right = CLOSED;
                    }
                    if c_skipped && cone.l_skipped {
                        left = CLOSED;
                    }
                    if left != CLOSED {
                        if right != CLOSED {
                            stack.push(Cone {
                                into: right,
                                l: c,
                                l_skipped: c_skipped,
                                ..cone
                            });
                        }
                        cone.r = c;
                        cone.r_skipped = c_skipped;
                        left
                    } else {
                        cone.l = c;
                        cone.l_skipped = c_skipped;
                        right
                    }
                } else {
                    if to_l == 0 {
                        events.push(cone.l);
                    }
                    self.across[t][next3(e as usize)]
                }
            };
            if through != CLOSED {
                cone.into = through;
                continue;
            }
            match stack.pop() {
                Some(next_cone) => cone = next_cone,
                None => return,
            }
        }
    }

    /// The next vertex beyond `x` on the ray from `v` through `x`, if the open segment to
    /// it crosses no wall. The direction must lie in a closed free wedge at `x`.
    fn next_on_ray(&self, pv: Point, x: u32) -> Option<u32> {
        let px = self.points[x as usize];
        let mut found = None;
        let mut into = CLOSED;
        // `p`, on the line through `v` and `x`, lies beyond `x` (a distinct point).
        let beyond = |p: Point| along_ray_cmp(pv, px, p) == Ordering::Less;
        self.any_around(x, |t, i| {
            let c = self.corners[t as usize];
            let (a, b) = (c[next3(i as usize)], c[prev3(i as usize)]);
            let (pa, pb) = (self.points[a as usize], self.points[b as usize]);
            let (sa, sb) = (side(pv, px, pa), side(pv, px, pb));
            if sa == 0 && beyond(pa) {
                found = Some(a);
                true
            } else if sb == 0 && beyond(pb) {
                found = Some(b);
                true
            } else if sa < 0 && sb > 0 {
                into = self.across[t as usize][i as usize];
                true
            } else {
                false
            }
        });
        if found.is_some() {
            return found;
        }
        // A straight ray enters each triangle at most once.
        for _ in 0..self.corners.len() {
            if into == CLOSED {
                return None;
            }
            let (t, e) = ((into >> 2) as usize, into & 3);
            let c = self.corners[t][e as usize];
            match side(pv, px, self.points[c as usize]) {
                0 => return Some(c),
                1 => into = self.across[t][next3(e as usize)],
                _ => into = self.across[t][prev3(e as usize)],
            }
        }
        None
    }
}

/// A vertex whose one wedge is a node (not full, no thin wall there): `link`'s answer
/// for a direct pair between two such vertices needs no wedge tests.
#[derive(Clone, Copy)]
struct Simple {
    node: u32,
    start: Point,
    end: Point,
}

impl Simple {
    /// Whether the line through the vertex `px` along `pv → px` keeps the obstacle on one
    /// side (the wedge holds both directions). The wedge holds the direction towards `pv`;
    /// for a reflex wedge (the obstacle's sector below π) the other direction is free
    /// exactly when the wedge's two walls are not strictly on opposite sides of the line.
    fn tangent(&self, pv: Point, px: Point) -> bool {
        side(pv, px, self.start) * side(pv, px, self.end) >= 0
    }
}

/// The graph's edges by triangular expansion, or `None` when the free space cannot be
/// triangulated (the caller then uses another construction).
pub(crate) fn adjacency(graph: &VisibilityGraph) -> Option<Vec<Edge>> {
    let fs = &graph.free;
    let tri = triangulate(fs).ok()?;
    let mut expansion = Expansion::new(fs, tri);
    let n = fs.points.len() as u32;
    let has_nodes: Vec<bool> = (0..n).map(|v| graph.has_nodes(v)).collect();
    let simple: Vec<Option<Simple>> = (0..n)
        .map(|v| {
            let wedges = fs.wedge_range(v);
            if wedges.len() != 1 {
                return None;
            }
            let node = graph.wedge_node[wedges.start];
            let thin = fs
                .incident_walls(v)
                .iter()
                .any(|&w| fs.walls[w as usize].two_sided);
            let w = &fs.wedges[wedges.start];
            (node != u32::MAX && !w.full && !thin).then_some(Simple {
                node,
                start: w.start,
                end: w.end,
            })
        })
        .collect();
    let full = graph.kind == GraphKind::Full;
    let per_vertex = if full { 32 } else { 16 };
    let mut edges = Vec::with_capacity(per_vertex * fs.points.len());
    let (mut direct, mut events) = (Vec::new(), Vec::new());
    let mut chained = vec![u32::MAX; n as usize];
    for v in 0..n {
        if !has_nodes[v as usize] {
            continue;
        }
        // Reduced graph: from a simple (reflex) vertex only lines tangent there count, so
        // the directions opposite the obstacle's corner (the sector from the ray away
        // from the wedge's end to the ray away from its start) are not followed.
        let skip = simple[v as usize].filter(|_| !full).map(|sv| Sector {
            after: sv.end,
            before: sv.start,
        });
        expansion.direct_from(v, skip, &mut direct, &mut events);
        // Node ids grow with vertex ids: each node's list comes out in order, and the
        // graph's store need not sort it.
        direct.sort_unstable();
        let pv = fs.points[v as usize];
        for &x in &direct {
            let px = fs.points[x as usize];
            if let (Some(sv), Some(sx)) = (simple[v as usize], simple[x as usize]) {
                // Direct: the segment leaves v and reaches x through free triangles, so
                // each one wedge holds the direction along it, with free space on both
                // sides, and no thin wall runs between them: `link` would add this edge
                // in the full graph, and in the reduced one when both ends are tangent.
                if full || sv.tangent(px, pv) && sx.tangent(pv, px) {
                    edges.push(Edge {
                        from: sv.node,
                        to: sx.node,
                        length: pv.distance(px),
                    });
                }
            } else if has_nodes[x as usize] {
                let mut walk = Walk::new(fs, Place::Vertex(v), Dir::away_from(pv));
                graph.link(v, x, walk.arrive(Place::Vertex(x)), &mut edges);
            }
        }
        // The collinear vertices beyond a direct vertex, while the walk passes them.
        for &x in &events {
            if std::mem::replace(&mut chained[x as usize], v) == v {
                continue;
            }
            let mut walk = Walk::new(fs, Place::Vertex(v), Dir::away_from(pv));
            walk.arrive(Place::Vertex(x));
            let mut at = x;
            while walk.pass(at) {
                let Some(y) = expansion.next_on_ray(pv, at) else {
                    break;
                };
                let arrival = walk.arrive(Place::Vertex(y));
                if has_nodes[y as usize] {
                    graph.link(v, y, arrival, &mut edges);
                }
                at = y;
            }
        }
    }
    Some(edges)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Construction, GraphKind, GraphOptions};
    use corridor_geom::{Environment, Obstacle};

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    /// The expansion (never the fallback) gives the naive oracle's edges, full and
    /// reduced; returns the full graph's edge count.
    fn equals_naive(env: &Environment) -> usize {
        let free = FreeSpace::from_environment(env).unwrap();
        let mut full_edges = 0;
        for kind in [GraphKind::Full, GraphKind::Reduced] {
            let build = |construction| {
                VisibilityGraph::from_free_space(
                    free.clone(),
                    GraphOptions {
                        kind,
                        construction,
                        no_culling: false,
                    },
                )
            };
            let naive = build(Construction::Naive);
            assert!(adjacency(&naive).is_some(), "triangulation failed");
            let expansion = build(Construction::Expansion);
            let (a, b): (Vec<_>, Vec<_>) = (expansion.edges().collect(), naive.edges().collect());
            assert_eq!(a, b, "{kind:?}");
            if kind == GraphKind::Full {
                full_edges = a.len();
            }
        }
        full_edges
    }

    #[test]
    fn collinear_corners_and_rays_through_vertices() {
        // Squares in a row and in a column: their corners lie on common lines, so rays
        // pass through vertices and run along walls.
        let mut env = Environment::rectangle(p(0.0, 0.0), p(20.0, 20.0));
        for k in 0..4 {
            let x = 2.0 + 4.0 * k as f64;
            env.insert(Obstacle::rectangle(p(x, 2.0), p(x + 2.0, 4.0)));
            env.insert(Obstacle::rectangle(
                p(2.0, 6.0 + 3.0 * k as f64),
                p(4.0, 7.0 + 3.0 * k as f64),
            ));
        }
        // A triangle whose corners are collinear with the squares' diagonals.
        env.insert(Obstacle::polygon(vec![
            p(10.0, 10.0),
            p(14.0, 10.0),
            p(12.0, 12.0),
        ]));
        assert!(equals_naive(&env) > 100);
    }

    #[test]
    fn walls_along_the_ray_and_touching_obstacles() {
        // Two squares sharing an edge (merged), one touching it at a corner, one touching
        // the boundary: rays run along the merged walls and through touching corners.
        let mut env = Environment::rectangle(p(0.0, 0.0), p(12.0, 8.0));
        env.insert(Obstacle::rectangle(p(2.0, 2.0), p(4.0, 4.0)));
        env.insert(Obstacle::rectangle(p(4.0, 2.0), p(6.0, 4.0)));
        env.insert(Obstacle::rectangle(p(6.0, 4.0), p(7.0, 5.0)));
        env.insert(Obstacle::rectangle(p(8.0, 0.0), p(9.0, 2.0)));
        env.insert(Obstacle::polygon(vec![
            p(9.0, 4.0),
            p(11.0, 4.0),
            p(10.0, 6.0),
        ]));
        equals_naive(&env);
    }

    #[test]
    fn grid_map_pinch_points() {
        // A checkerboard: every inner corner is a diagonal pinch with two wedges.
        let mut env = Environment::rectangle(p(0.0, 0.0), p(6.0, 6.0));
        for y in 0..6 {
            for x in 0..6 {
                if (x + y) % 2 == 0 && (x, y) != (0, 0) {
                    let (x, y) = (x as f64, y as f64);
                    env.insert(Obstacle::rectangle(p(x, y), p(x + 1.0, y + 1.0)));
                }
            }
        }
        equals_naive(&env);
    }

    #[test]
    fn thin_walls_and_point_obstacles() {
        let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
        // A straight thin wall through several collinear vertices, a bent one, one
        // touching an obstacle and one along the boundary's direction.
        env.insert(Obstacle::Polyline(vec![p(1.0, 5.0), p(3.0, 5.0)]));
        env.insert(Obstacle::Polyline(vec![
            p(3.0, 5.0),
            p(5.0, 5.0),
            p(6.0, 7.0),
        ]));
        env.insert(Obstacle::rectangle(p(7.0, 1.0), p(8.0, 3.0)));
        env.insert(Obstacle::Polyline(vec![p(8.0, 2.0), p(9.0, 2.0)]));
        env.insert(Obstacle::Polyline(vec![p(2.0, 1.0), p(2.0, 3.0)]));
        env.insert(Obstacle::Point(p(5.0, 8.0)));
        env.insert(Obstacle::Point(p(1.0, 1.0)));
        assert!(equals_naive(&env) > 20);
    }

    #[test]
    fn non_convex_boundary() {
        // An L-shaped boundary: the triangles in the notch lie outside.
        let ring = corridor_geom::Ring::new(vec![
            p(0.0, 0.0),
            p(10.0, 0.0),
            p(10.0, 4.0),
            p(4.0, 4.0),
            p(4.0, 10.0),
            p(0.0, 10.0),
        ]);
        let mut env = Environment::new(ring);
        env.insert(Obstacle::rectangle(p(1.0, 1.0), p(2.0, 2.0)));
        env.insert(Obstacle::Polyline(vec![p(6.0, 2.0), p(8.0, 2.0)]));
        equals_naive(&env);
    }
}
