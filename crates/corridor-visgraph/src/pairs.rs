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
//!    reduced graph). Each node's allowed directions are one or two ranges of a rounded
//!    pseudo-angle; a direction clearly outside every range is dropped, anything else goes
//!    on (keys within [`KEY_SLACK`] of a range end are never trusted, and
//!    [`VisibilityGraph::link`] decides exactly afterwards). For the reduced graph this
//!    drops most pairs for the price of one division.
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

use crate::angle::{pseudo_angle, wrap4, Dir, Wedge, BOTH};
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

/// Pseudo-angle keys closer than this to a range end are not trusted (rounding errors
/// are some 1e-16).
const KEY_SLACK: f64 = 1e-9;

/// A range of directions counter-clockwise from pseudo-angle `lo` over `width`; a width
/// above 4 lets every direction through. `sure`: a key strictly inside (by more than the
/// slack) is a direction the node allows with free space on both sides of it.
#[derive(Clone, Copy, Debug)]
struct Range {
    lo: f64,
    width: f64,
    sure: bool,
}

/// Every direction, not known to be strictly inside anything.
const UNKNOWN: Range = Range {
    lo: 0.0,
    width: 5.0,
    sure: false,
};

/// What the direction filter knows about one end of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Filter {
    /// No node there allows the direction.
    Outside,
    /// Perhaps; the exact tests decide.
    Unsure,
    /// The vertex's only node allows it, strictly inside its range (free on both sides).
    Inside,
}

impl Range {
    /// Counter-clockwise from key `lo` to key `hi` (keys of rounded directions, or such
    /// keys plus 2 for the opposite direction); [`UNKNOWN`] when the rounded width is too
    /// close to 0 or a full turn to tell which it is.
    fn between(lo: f64, hi: f64) -> Range {
        let below4 = |k: f64| if k >= 4.0 { k - 4.0 } else { k };
        let (lo, hi) = (below4(lo), below4(hi));
        let width = wrap4(hi - lo);
        if lo.is_finite() && width > 4.0 * KEY_SLACK && width < 4.0 - 4.0 * KEY_SLACK {
            Range {
                lo,
                width,
                sure: true,
            }
        } else {
            UNKNOWN
        }
    }

    /// What the range says about direction key `k` (in `[0, 6)`: a key, or a key plus 2).
    #[inline]
    fn filter(self, k: f64) -> Filter {
        let k = if k >= 4.0 { k - 4.0 } else { k };
        let t = wrap4(k - self.lo);
        if t > self.width + KEY_SLACK && t < 4.0 - KEY_SLACK {
            Filter::Outside
        } else if self.sure && t > KEY_SLACK && t < self.width - KEY_SLACK {
            Filter::Inside
        } else {
            Filter::Unsure
        }
    }
}

/// The direction ranges a node's wedge allows (see the module doc).
fn ranges(wedge: &Wedge, kind: GraphKind, out: &mut Vec<Range>) {
    if wedge.full {
        // Every direction, free on both sides.
        out.push(Range {
            sure: true,
            ..UNKNOWN
        });
        return;
    }
    let c = wedge.apex;
    let (ks, ke) = (pseudo_angle(wedge.start - c), pseudo_angle(wedge.end - c));
    match kind {
        GraphKind::Full => out.push(Range::between(ks, ke)),
        GraphKind::Reduced => {
            // Reduced-graph nodes are reflex: the tangents run from the start to the
            // opposite of the end, and from the opposite of the start to the end. The
            // opposite of a direction is its key plus 2 (not a rounded point behind the
            // apex, whose direction can be far off when the apex is far from the origin).
            out.push(Range::between(ks, ke + 2.0));
            out.push(Range::between(ks + 2.0, ke));
        }
    }
}

/// Scratch space for segment tests over one free space.
struct SegmentTester<'a> {
    fs: &'a FreeSpace,
    wall_mark: Vec<u32>,
    stamp: u32,
    inside: Vec<u32>,
}

impl<'a> SegmentTester<'a> {
    fn new(fs: &'a FreeSpace) -> Self {
        SegmentTester {
            fs,
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
    /// `hint` is a wall to try first (the one that blocked the previous segment from
    /// `v`: consecutive candidates often end on one obstacle and are blocked by the same
    /// wall); it is updated to this segment's blocker. Only an exact proper crossing
    /// counts, so the hint changes the speed, never the answer.
    fn visibility(&mut self, v: u32, x: u32, hint: &mut u32) -> (Option<Arrival>, Option<Arrival>) {
        let fs = self.fs;
        let (p, q) = (fs.points[v as usize], fs.points[x as usize]);
        let crosses = |w: u32| {
            let (a, b) = fs.wall_points(w);
            let side = |y: Point| {
                // A wall ending at `p` or `q` is collinear there (no need to ask).
                if y == p || y == q {
                    Orientation::Collinear
                } else {
                    orient(p, q, y)
                }
            };
            opposite(side(a), side(b)) && opposite(orient(a, b, p), orient(a, b, q))
        };
        if *hint != u32::MAX && crosses(*hint) {
            return (None, None);
        }
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
        let (wall_mark, inside) = (&mut self.wall_mark, &mut self.inside);
        let mut blocker = u32::MAX;
        // Walls whose box misses the segment's box cannot meet it (exact comparisons).
        let (lo, hi) = (
            Point::new(p.x.min(q.x), p.y.min(q.y)),
            Point::new(p.x.max(q.x), p.y.max(q.y)),
        );
        let free = fs.grid.cover_segment(p, q, pad, |cell| {
            for &w in fs.grid.cell_items(cell) {
                if wall_mark[w as usize] == stamp {
                    continue;
                }
                wall_mark[w as usize] = stamp;
                let rec = fs.walls[w as usize];
                let (a, b) = (fs.points[rec.a as usize], fs.points[rec.b as usize]);
                if a.x.max(b.x) < lo.x
                    || a.x.min(b.x) > hi.x
                    || a.y.max(b.y) < lo.y
                    || a.y.min(b.y) > hi.y
                {
                    continue;
                }
                // A wall ending at `p` or `q` is collinear there (no need to ask).
                let side = |y: Point| {
                    if y == p || y == q {
                        Orientation::Collinear
                    } else {
                        orient(p, q, y)
                    }
                };
                let (oa, ob) = (side(a), side(b));
                if opposite(oa, ob) && opposite(orient(a, b, p), orient(a, b, q)) {
                    blocker = w;
                    return false;
                }
                for (id, y, o) in [(rec.a, a, oa), (rec.b, b, ob)] {
                    if o == Orientation::Collinear && y != p && y != q && point_on_segment(y, p, q)
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
    // Vertices with nodes, the direction ranges their nodes allow (CSR), and their
    // node when they have only one.
    let mut vertices: Vec<u32> = Vec::new();
    let mut single: Vec<u32> = Vec::new();
    let mut starts: Vec<u32> = vec![0];
    let mut all: Vec<Range> = Vec::new();
    for v in 0..fs.points.len() as u32 {
        let before = all.len();
        let mut nodes = graph.nodes_at(v);
        let first = nodes.next();
        let only = first.filter(|_| nodes.next().is_none());
        for n in graph.nodes_at(v) {
            ranges(
                &fs.wedges[graph.node_wedge[n as usize] as usize],
                graph.kind,
                &mut all,
            );
        }
        if all.len() > before {
            vertices.push(v);
            single.push(only.unwrap_or(u32::MAX));
            starts.push(all.len() as u32);
        }
    }
    let filter = |i: usize, k: f64| {
        let mut best = Filter::Outside;
        for r in &all[starts[i] as usize..starts[i + 1] as usize] {
            match r.filter(k) {
                Filter::Outside => {}
                Filter::Inside if single[i] != u32::MAX => return Filter::Inside,
                _ => best = Filter::Unsure,
            }
        }
        best
    };
    let mut tester = SegmentTester::new(fs);
    for i in 0..vertices.len() {
        let v = vertices[i];
        let p = fs.points[v as usize];
        let mut hint = u32::MAX;
        for (j, &x) in vertices.iter().enumerate().skip(i + 1) {
            let q = fs.points[x as usize];
            let k = pseudo_angle(q - p);
            let there_filter = filter(i, k);
            if there_filter == Filter::Outside {
                continue;
            }
            // The opposite direction's key is the key plus 2 (up to a rounding far below
            // the slack); `filter` brings it back below 4.
            let back_filter = filter(j, k + 2.0);
            if back_filter == Filter::Outside {
                continue;
            }
            let (there, back) = tester.visibility(v, x, &mut hint);
            if there_filter == Filter::Inside && back_filter == Filter::Inside {
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
