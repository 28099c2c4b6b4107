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
//!    decides exactly afterwards). Six multiplications per end and a table look-up;
//!    the row's own end for a whole row of pairs first, the other end only where that
//!    passes. For the reduced graph this drops most pairs.
//! 2. **Segment test.** The open segment between the two vertices is free exactly when it
//!    properly crosses no wall and every vertex strictly inside it lets a straight line
//!    pass (the same [`Walk`](corridor_geom::free_space::Walk) as the sweep and the naive oracle). Only walls stored in
//!    the grid cells the (padded) segment meets are tested — a wall meeting the segment
//!    is stored in the cell of the meeting point, and the cover is conservative — and the
//!    test stops at the first proper crossing. The walls of the obstacle at an end are
//!    skipped when the segment leaves that end, a corner of the obstacle's convex hull,
//!    strictly outside the hull (any obstacle: convex, star-shaped, with pockets).
//!
//! This is O(n²) filter steps plus a segment test per surviving pair: it loses to the
//! triangular expansion except on small reduced graphs, by a few percent (and near 10,000 vertices to the culled sweep), and
//! [`crate::Construction::Auto`] takes it only when the triangulation fails. The result is
//! the same edge set as the naive oracle's (tested on the degenerate random environments).

mod cones;
mod filter;
mod obstacles;
mod segment;

use crate::graph::{Edge, GraphKind, VisibilityGraph};
use corridor_geom::free_space::BOTH;
use corridor_geom::Point;
use filter::{Allowed, Filter, Mode, INSIDE, OUTSIDE};
use obstacles::CONE_ROW;
use segment::SegmentTester;

/// The directed edges of `graph`'s nodes, pair by pair (see the module doc).
pub(super) fn adjacency(graph: &VisibilityGraph) -> Vec<Edge> {
    let fs = &graph.free;
    // About as many directed edges as the graph of a few hundred scattered polygons
    // has (the full graph ≈ 25 per vertex at 100 vertices, the reduced one ≈ 10): at
    // most one growth there, a few at thousands of vertices.
    let per_vertex = match graph.kind {
        GraphKind::Full => 32,
        GraphKind::Reduced => 16,
    };
    let mut edges = Vec::with_capacity(per_vertex * fs.points.len());
    // Vertices with nodes, the directions their nodes allow (CSR), and their node when
    // they have only one.
    let n = fs.points.len();
    let mut vertices: Vec<u32> = Vec::with_capacity(n);
    let mut single: Vec<u32> = Vec::with_capacity(n);
    let mut starts: Vec<u32> = Vec::with_capacity(n + 1);
    starts.push(0);
    let mut all: Vec<Allowed> = Vec::with_capacity(n);
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
        // This end first (for the reduced graph most directions leave it untangent),
        // the other end only where that passes.
        here.codes_towards(p, &pos[i + 1..], &mut codes);
        let mut hint = u32::MAX;
        // The row's candidates: how many, and a box holding their segments.
        let (mut candidates, mut lo, mut hi) = (0, p, p);
        for (&code, &q) in codes.iter().zip(&pos[i + 1..]) {
            if code & OUTSIDE == 0 {
                candidates += 1;
                lo = Point::new(lo.x.min(q.x), lo.y.min(q.y));
                hi = Point::new(hi.x.max(q.x), hi.y.max(q.y));
            }
        }
        tester.use_cones(
            candidates >= CONE_ROW.max(tester.obstacles.small / 4),
            (lo, hi),
        );
        for (k, &code) in codes.iter().enumerate() {
            if code & OUTSIDE != 0 {
                continue;
            }
            let j = i + 1 + k;
            let (x, q) = (vertices[j], pos[j]);
            // Rounding is symmetric: the direction back is exactly `-d`.
            let back = p - q;
            let code = code | first[j].code(back, back.x.abs() + back.y.abs()) << 2;
            if code & OUTSIDE << 2 != 0 {
                continue;
            }
            if here.mode == Mode::Several && several(i, q - p) == Filter::Outside
                || first[j].mode == Mode::Several && several(j, p - q) == Filter::Outside
            {
                continue;
            }
            let (there, back) = tester.visibility(v, x, &mut hint);
            if code == INSIDE | INSIDE << 2 {
                // Each end's only node allows the direction with free space on both
                // sides: what `link` would find, without its exact wedge tests.
                let dist = p.distance(q);
                let (u, w) = (single[i], single[j]);
                if there.is_some_and(|a| a.admits(BOTH, BOTH)) {
                    edges.push(Edge {
                        from: u,
                        to: w,
                        length: dist,
                    });
                }
                if back.is_some_and(|a| a.admits(BOTH, BOTH)) {
                    edges.push(Edge {
                        from: w,
                        to: u,
                        length: q.distance(p),
                    });
                }
                continue;
            }
            if let Some(arrival) = there {
                graph.link(v, x, arrival, &mut edges);
            }
            if let Some(arrival) = back {
                graph.link(x, v, arrival, &mut edges);
            }
        }
    }
    edges
}
