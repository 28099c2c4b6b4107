//! Which corners see each other, by Lee's rotational sweep around every node's vertex?
//! O(n² log n), each sweep culled to a growing region around its centre (see
//! [`crate::sweep`]).

use crate::graph::{Edge, GraphKind, VisibilityGraph};
use crate::sweep::{Seen, Sweeper};
use corridor_geom::free_space::Place;

/// The edges of `graph` found by one sweep per vertex with nodes (`cull`: limit each
/// sweep to a growing region around its centre).
pub(super) fn adjacency(graph: &VisibilityGraph, cull: bool) -> Vec<Edge> {
    let free = &graph.free;
    let mut edges = Vec::new();
    let mut sweeper = Sweeper::new(free);
    sweeper.cull = cull;
    let mut seen = Seen::default();
    for v in 0..free.points.len() as u32 {
        if !graph.has_nodes(v) {
            continue;
        }
        sweeper.visible_from(
            free.points[v as usize],
            Place::Vertex(v),
            free.wedges_at(v as usize),
            graph.kind == GraphKind::Reduced,
            &mut seen,
        );
        for &(x, arrival) in &seen.vertices {
            graph.link(v, x, arrival, &mut edges);
        }
    }
    edges
}
