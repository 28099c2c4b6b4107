//! Which corners see each other, pair by pair? The construction for small inputs.
//!
//! The rotational sweep pays per centre for sorting every event, building a status and
//! growing its culling region; with a few hundred vertices that fixed cost (tens of µs
//! per vertex) is most of the build. Here every pair of vertices with nodes is looked at
//! once instead, in two cheap stages:
//!
//! 1. **Direction filter.** A pair can only give an edge if the direction from each end
//!    to the other is allowed by one of that end's nodes (inside the wedge for the full
//!    graph; tangent — both the direction and its opposite inside the wedge — for the
//!    reduced graph). Each node's allowed directions are signs of two cross products of
//!    the direction with the node's walls (both at least 0, either, or their product at
//!    most 0); a sign is trusted only beyond the product's rounding error, a direction
//!    clearly outside is dropped, anything else goes on ([`VisibilityGraph::link`]
//!    decides exactly afterwards). Four multiplications per end, no branches, a row of
//!    pairs at a time; for the reduced graph this drops most pairs.
//! 2. **Segment test.** The open segment between the two vertices is free exactly when it
//!    properly crosses no wall and every vertex strictly inside it lets a straight line
//!    pass (the same [`Walk`] as the sweep and the naive oracle). Only walls stored in
//!    the grid cells the (padded) segment meets are tested — a wall meeting the segment
//!    is stored in the cell of the meeting point, and the cover is conservative — and the
//!    test stops at the first proper crossing.
//!
//! This is O(n²) filter steps plus a segment test per surviving pair, so it loses to the
//! culled sweep on large maps; [`crate::Construction::Auto`] picks it below
//! [`PAIRS_LIMIT`] vertices. The result is the same edge set as the naive oracle's
//! (tested on the degenerate random environments).

use crate::angle::{Dir, Wedge, BOTH};
use crate::free_space::FreeSpace;
use crate::graph::{GraphKind, VisibilityGraph};
use crate::predicates::orient;
use crate::ray::{along_ray_cmp, Arrival, Place, Walk};
use corridor_geom::{point_on_segment, Orientation, Point};

/// Below this many free-space vertices, [`crate::Construction::Auto`] builds by pairs.
/// Measured on the synthetic benchmark inputs (see docs/BENCHMARKS.md): pairs are
/// several times faster than the sweep up to a few thousand vertices and about even
/// near 10,000, where the O(n²) filter and the long segment tests catch up.
pub(crate) const PAIRS_LIMIT: usize = 6_000;

/// Relative error bound of a rounded cross product of two rounded differences (a few
/// units of roundoff, 2⁻⁵² each; generously rounded up).
const CROSS_REL: f64 = 1e-14;

/// Added to every error bound: covers products that fall into the subnormal range.
const CROSS_ABS: f64 = 1e-290;

/// Which directions a node allows, as signs of two cross products with the wedge's
/// walls (`s`: towards its start, `e`: towards its end, both from the apex).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Every direction, free on both sides (a full wedge).
    All,
    /// Inside a wedge of at most π: `s × d ≥ 0` and `d × e ≥ 0`.
    And,
    /// Inside a wedge of more than π: `s × d ≥ 0` or `d × e ≥ 0`.
    Or,
    /// Tangent at a reflex wedge (both `d` and `−d` inside): `(s × d)(d × e) ≤ 0`.
    Tangent,
    /// Not decided here (a vertex with several nodes): always unsure.
    Several,
}

/// [`Allowed::code`]: no node allows the direction.
const OUTSIDE: u8 = 1;
/// [`Allowed::code`]: the only node allows it, strictly inside.
const INSIDE: u8 = 2;

/// The directions one node allows (see [`Mode`]).
#[derive(Clone, Copy, Debug)]
struct Allowed {
    s: Point,
    e: Point,
    mode: Mode,
}

/// What the direction filter knows about one end of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Filter {
    /// No node there allows the direction.
    Outside,
    /// Perhaps; the exact tests decide.
    Unsure,
    /// The vertex's only node allows it, strictly inside (free on both sides).
    Inside,
}

impl Allowed {
    fn new(wedge: &Wedge, kind: GraphKind) -> Self {
        let c = wedge.apex;
        let (s, e) = (wedge.start - c, wedge.end - c);
        let mode = if wedge.full {
            Mode::All
        } else {
            match kind {
                // Reduced-graph nodes are reflex.
                GraphKind::Reduced => Mode::Tangent,
                GraphKind::Full if wedge.is_reflex() => Mode::Or,
                GraphKind::Full => Mode::And,
            }
        };
        Allowed { s, e, mode }
    }

    /// What the node says about direction `d` (a rounded difference of two vertices).
    /// The products' signs are trusted only beyond their rounding error; `Outside` and
    /// `Inside` are exact answers, `Unsure` is everything else.
    #[inline(always)]
    fn filter(&self, d: Point) -> Filter {
        let (a1, b1) = (self.s.x * d.y, self.s.y * d.x);
        let (a2, b2) = (d.x * self.e.y, d.y * self.e.x);
        let (c1, c2) = (a1 - b1, a2 - b2);
        let t1 = CROSS_REL * (a1.abs() + b1.abs()) + CROSS_ABS;
        let t2 = CROSS_REL * (a2.abs() + b2.abs()) + CROSS_ABS;
        let (p1, n1, p2, n2) = (c1 > t1, c1 < -t1, c2 > t2, c2 < -t2);
        let (outside, inside) = match self.mode {
            Mode::All => (false, true),
            Mode::And => (n1 | n2, p1 & p2),
            Mode::Or => (n1 & n2, p1 | p2),
            Mode::Tangent => ((p1 & p2) | (n1 & n2), (p1 & n2) | (n1 & p2)),
            Mode::Several => (false, false),
        };
        if outside {
            Filter::Outside
        } else if inside {
            Filter::Inside
        } else {
            Filter::Unsure
        }
    }

    /// [`Allowed::filter`] as bits, [`OUTSIDE`], [`INSIDE`] or 0 (unsure), without
    /// branches (the pair loop runs it on every pair).
    #[inline(always)]
    fn code(&self, d: Point) -> u8 {
        let (a1, b1) = (self.s.x * d.y, self.s.y * d.x);
        let (a2, b2) = (d.x * self.e.y, d.y * self.e.x);
        let (c1, c2) = (a1 - b1, a2 - b2);
        let t1 = CROSS_REL * (a1.abs() + b1.abs()) + CROSS_ABS;
        let t2 = CROSS_REL * (a2.abs() + b2.abs()) + CROSS_ABS;
        let (p1, n1, p2, n2) = (
            (c1 > t1) as u8,
            (c1 < -t1) as u8,
            (c2 > t2) as u8,
            (c2 < -t2) as u8,
        );
        let m = self.mode as u8;
        let bit = |mode: Mode| (m == mode as u8) as u8;
        let (and, or, tangent) = (bit(Mode::And), bit(Mode::Or), bit(Mode::Tangent));
        let outside = and & (n1 | n2) | or & n1 & n2 | tangent & (p1 & p2 | n1 & n2);
        let inside =
            bit(Mode::All) | and & p1 & p2 | or & (p1 | p2) | tangent & (p1 & n2 | n1 & p2);
        (outside * OUTSIDE) | ((inside & (outside ^ 1)) * INSIDE)
    }
}

/// One wall for the segment test: its ends, their vertex ids, its own id and its convex
/// obstacle (see [`convex_obstacles`]).
#[derive(Clone, Copy, Debug)]
struct WallEnds {
    a: Point,
    b: Point,
    ia: u32,
    ib: u32,
    id: u32,
    obstacle: u32,
}

/// No convex obstacle.
const NONE: u32 = u32::MAX;

/// Per vertex, the convex obstacle it is a corner of (a number), or [`NONE`].
///
/// An obstacle here is a connected set of walls; it is convex when it is a cycle of
/// one-sided walls and every corner has one wedge, strictly reflex (the obstacle's angle
/// there is below π): a simple polygon turning the same way at every corner. A convex
/// polygon lies in the cone its two sides span at each corner, so a segment leaving a
/// corner strictly inside that corner's wedge (or strictly tangent to it) meets none of
/// the polygon's walls again: the segment test may skip them.
fn convex_obstacles(fs: &FreeSpace) -> Vec<u32> {
    let n = fs.points.len();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn root(parent: &mut [u32], mut v: u32) -> u32 {
        while parent[v as usize] != v {
            let up = parent[parent[v as usize] as usize];
            parent[v as usize] = up;
            v = up;
        }
        v
    }
    let mut convex = vec![true; n];
    for w in &fs.walls {
        let (ra, rb) = (root(&mut parent, w.a), root(&mut parent, w.b));
        parent[ra as usize] = rb;
        if w.two_sided {
            convex[rb as usize] = false;
            convex[ra as usize] = false;
        }
    }
    let mut of: Vec<u32> = (0..n as u32).map(|v| root(&mut parent, v)).collect();
    for r in 0..n {
        if !convex[r] {
            convex[of[r] as usize] = false;
        }
    }
    for v in 0..n {
        let wedges = fs.wedges_at(v);
        let corner = fs.incident_walls(v as u32).len() == 2
            && wedges.len() == 1
            && !wedges[0].full
            && wedges[0].is_reflex();
        if !corner {
            convex[of[v] as usize] = false;
        }
    }
    for o in &mut of {
        if !convex[*o as usize] {
            *o = NONE;
        }
    }
    of
}

/// The sign of `orient(p, q, y)` from `n = q − p` (rounded once per segment) when the
/// rounded determinant `n × (y − p)` decides it (Shewchuk's stage-A bound, pivot `p`),
/// else 0: exactly 0 when `y` is `p` or `q`, otherwise perhaps undecided. No branches.
#[inline(always)]
fn quick_side(p: Point, n: Point, y: Point) -> i32 {
    const BOUND: f64 = 3.330_669_073_875_471_6e-16;
    let left = n.x * (y.y - p.y);
    let right = n.y * (y.x - p.x);
    let det = left - right;
    let bound = BOUND * (left.abs() + right.abs());
    (det > bound) as i32 - (-det > bound) as i32
}

/// Scratch space for segment tests over one free space.
struct SegmentTester<'a> {
    fs: &'a FreeSpace,
    /// Per wall, and per grid slot (the walls of each cell, in the grid's order).
    walls: Vec<WallEnds>,
    slots: Vec<WallEnds>,
    /// Per vertex, its convex obstacle or [`NONE`].
    obstacle: Vec<u32>,
    wall_mark: Vec<u32>,
    stamp: u32,
    inside: Vec<u32>,
}

impl<'a> SegmentTester<'a> {
    fn new(fs: &'a FreeSpace) -> Self {
        let obstacle = convex_obstacles(fs);
        let walls: Vec<WallEnds> = fs
            .walls
            .iter()
            .enumerate()
            .map(|(id, w)| WallEnds {
                a: fs.points[w.a as usize],
                b: fs.points[w.b as usize],
                ia: w.a,
                ib: w.b,
                id: id as u32,
                obstacle: obstacle[w.a as usize],
            })
            .collect();
        let slots = fs
            .grid
            .all_items()
            .iter()
            .map(|&w| walls[w as usize])
            .collect();
        SegmentTester {
            fs,
            walls,
            slots,
            obstacle,
            wall_mark: vec![0; fs.walls.len()],
            stamp: 0,
            inside: Vec::new(),
        }
    }

    /// Whether the open segment between vertices `v` and `x` is free, and if so what a
    /// path along it must agree with side-wise, for each direction (`v → x`, `x → v`).
    /// Equal to [`crate::naive::visibility`] both ways, with the walls taken from the
    /// grid cells along the segment.
    ///
    /// `clear_v` (`clear_x`): the segment leaves `v` (`x`) strictly inside its only wedge
    /// or strictly tangent to it, so the walls of a convex obstacle there are skipped.
    ///
    /// `hint` is a wall to try first (the one that blocked the previous segment from
    /// `v`: consecutive candidates often end on one obstacle and are blocked by the same
    /// wall); it is updated to this segment's blocker. Only an exact proper crossing
    /// counts, so the hint changes the speed, never the answer.
    fn visibility(
        &mut self,
        (v, clear_v): (u32, bool),
        (x, clear_x): (u32, bool),
        hint: &mut u32,
    ) -> (Option<Arrival>, Option<Arrival>) {
        let fs = self.fs;
        let (p, q) = (fs.points[v as usize], fs.points[x as usize]);
        // Points are interned: a wall end is at `p` exactly when it is vertex `v`. A wall
        // end at `p` or `q` is collinear there (no need to ask).
        let side = |y: Point, id: u32| {
            if id == v || id == x {
                Orientation::Collinear
            } else {
                orient(p, q, y)
            }
        };
        let crosses = |w: &WallEnds| {
            opposite(side(w.a, w.ia), side(w.b, w.ib))
                && opposite(orient(w.a, w.b, p), orient(w.a, w.b, q))
        };
        if let Some(w) = self.walls.get(*hint as usize) {
            if crosses(w) {
                return (None, None);
            }
        }
        // Obstacles to skip ([`NONE`] - 1 matches no wall).
        let skip = |clear: bool, u: u32| match self.obstacle[u as usize] {
            o if clear && o != NONE => o,
            _ => NONE - 1,
        };
        let (skip_v, skip_x) = (skip(clear_v, v), skip(clear_x, x));
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.wall_mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.inside.clear();
        let scale =
            p.abs().max_element().max(q.abs().max_element()) + fs.bounds().size().max_element();
        let pad = 2e-9 * scale + 2e-6 * fs.grid.cell_size();
        let (slots, wall_mark, inside) = (&self.slots, &mut self.wall_mark, &mut self.inside);
        let mut blocker = u32::MAX;
        // Walls whose box misses the segment's box cannot meet it (exact comparisons).
        let (lo, hi) = (
            Point::new(p.x.min(q.x), p.y.min(q.y)),
            Point::new(p.x.max(q.x), p.y.max(q.y)),
        );
        let n = q - p;
        let free = fs.grid.cover_segment(p, q, pad, |cell| {
            for wall in &slots[fs.grid.cell_slots(cell)] {
                if (wall.obstacle == skip_v) | (wall.obstacle == skip_x) {
                    continue;
                }
                // Everything up to the next branch is computed for every wall: most
                // walls are dismissed by it, and which ones is hard to predict.
                let mark = &mut wall_mark[wall.id as usize];
                let fresh = *mark != stamp;
                *mark = stamp;
                let (a, b) = (wall.a, wall.b);
                let off_box = (a.x < lo.x) & (b.x < lo.x)
                    | (a.x > hi.x) & (b.x > hi.x)
                    | (a.y < lo.y) & (b.y < lo.y)
                    | (a.y > hi.y) & (b.y > hi.y);
                let (sa, sb) = (quick_side(p, n, a), quick_side(p, n, b));
                // A 0 at a wall end that is `p` or `q` is exact; elsewhere it may be.
                let unsure = (sa == 0) & (wall.ia != v) & (wall.ia != x)
                    | (sb == 0) & (wall.ib != v) & (wall.ib != x);
                if !(fresh & !off_box & (unsure | (sa * sb < 0))) {
                    // Both ends strictly on one side (or at `p` / `q`): neither a
                    // crossing nor a vertex inside the segment.
                    continue;
                }
                let (oa, ob) = (side(a, wall.ia), side(b, wall.ib));
                if opposite(oa, ob) {
                    if opposite(orient(a, b, p), orient(a, b, q)) {
                        blocker = wall.id;
                        return false;
                    }
                    continue;
                }
                for (id, y, o) in [(wall.ia, a, oa), (wall.ib, b, ob)] {
                    if o == Orientation::Collinear
                        && id != v
                        && id != x
                        && point_on_segment(y, p, q)
                    {
                        inside.push(id);
                    }
                }
            }
            true
        });
        if !free {
            *hint = blocker;
            return (None, None);
        }
        if self.inside.is_empty() {
            let walk = |from: u32, to: u32| {
                Walk::new(
                    fs,
                    Place::Vertex(from),
                    Dir::away_from(fs.points[from as usize]),
                )
                .arrive(Place::Vertex(to))
            };
            return (Some(walk(v, x)), Some(walk(x, v)));
        }
        self.inside.sort_unstable_by(|&u, &w| {
            along_ray_cmp(p, fs.points[u as usize], fs.points[w as usize])
        });
        self.inside.dedup();
        let walk = |from: u32, to: u32, on_the_way: &mut dyn Iterator<Item = u32>| {
            let mut walk = Walk::new(
                fs,
                Place::Vertex(from),
                Dir::away_from(fs.points[from as usize]),
            );
            for u in on_the_way {
                walk.arrive(Place::Vertex(u));
                if !walk.pass(u) {
                    return None;
                }
            }
            Some(walk.arrive(Place::Vertex(to)))
        };
        (
            walk(v, x, &mut self.inside.iter().copied()),
            walk(x, v, &mut self.inside.iter().rev().copied()),
        )
    }
}

fn opposite(x: Orientation, y: Orientation) -> bool {
    use Orientation::*;
    matches!(
        (x, y),
        (Clockwise, CounterClockwise) | (CounterClockwise, Clockwise)
    )
}

/// The adjacency lists of `graph`'s nodes, pair by pair (see the module doc).
pub(crate) fn adjacency(graph: &VisibilityGraph) -> Vec<Vec<(u32, f64)>> {
    let fs = &graph.free;
    let mut lists = vec![Vec::new(); graph.node_wedge.len()];
    // Vertices with nodes, the directions their nodes allow (CSR), and their node when
    // they have only one.
    let mut vertices: Vec<u32> = Vec::new();
    let mut single: Vec<u32> = Vec::new();
    let mut starts: Vec<u32> = vec![0];
    let mut all: Vec<Allowed> = Vec::new();
    for v in 0..fs.points.len() as u32 {
        let before = all.len();
        for n in graph.nodes_at(v) {
            all.push(Allowed::new(
                &fs.wedges[graph.node_wedge[n as usize] as usize],
                graph.kind,
            ));
        }
        if all.len() > before {
            vertices.push(v);
            let mut nodes = graph.nodes_at(v);
            let only = nodes.next().filter(|_| nodes.next().is_none());
            single.push(only.unwrap_or(u32::MAX));
            starts.push(all.len() as u32);
        }
    }
    // The direction filter, branch-free over one row of pairs at a time: per vertex its
    // position and its only node's directions (a vertex with several nodes gets mode
    // bits 0 here, "unsure", and the exact per-node answer below).
    let pos: Vec<Point> = vertices.iter().map(|&v| fs.points[v as usize]).collect();
    let first: Vec<Allowed> = (0..vertices.len())
        .map(|i| {
            let mut a = all[starts[i] as usize];
            if single[i] == u32::MAX {
                a.mode = Mode::Several;
            }
            a
        })
        .collect();
    let several = |i: usize, d: Point| {
        let nodes = &all[starts[i] as usize..starts[i + 1] as usize];
        if nodes.iter().all(|a| a.filter(d) == Filter::Outside) {
            Filter::Outside
        } else {
            Filter::Unsure
        }
    };
    let mut codes: Vec<u8> = Vec::with_capacity(vertices.len());
    let mut tester = SegmentTester::new(fs);
    for i in 0..vertices.len() {
        let (v, p, here) = (vertices[i], pos[i], first[i]);
        codes.clear();
        codes.extend(pos[i + 1..].iter().zip(&first[i + 1..]).map(|(&q, there)| {
            // Rounding is symmetric: the direction back is exactly `-d`.
            let d = q - p;
            here.code(d) | there.code(-d) << 2
        }));
        let mut hint = u32::MAX;
        for (k, &code) in codes.iter().enumerate() {
            if code & (OUTSIDE | OUTSIDE << 2) != 0 {
                continue;
            }
            let j = i + 1 + k;
            let (x, q) = (vertices[j], pos[j]);
            if here.mode == Mode::Several && several(i, q - p) == Filter::Outside
                || first[j].mode == Mode::Several && several(j, p - q) == Filter::Outside
            {
                continue;
            }
            let (there, back) = tester.visibility(
                (v, code & INSIDE != 0),
                (x, code & INSIDE << 2 != 0),
                &mut hint,
            );
            if code == INSIDE | INSIDE << 2 {
                // Each end's only node allows the direction with free space on both
                // sides: what `link` would find, without its exact wedge tests.
                let dist = p.distance(q);
                let (u, w) = (single[i], single[j]);
                if there.is_some_and(|a| a.admits(BOTH, BOTH)) {
                    lists[u as usize].push((w, dist));
                }
                if back.is_some_and(|a| a.admits(BOTH, BOTH)) {
                    lists[w as usize].push((u, q.distance(p)));
                }
                continue;
            }
            if let Some(arrival) = there {
                graph.link(v, x, arrival, &mut lists);
            }
            if let Some(arrival) = back {
                graph.link(x, v, arrival, &mut lists);
            }
        }
    }
    lists
}
