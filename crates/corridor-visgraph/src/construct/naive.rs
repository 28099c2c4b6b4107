//! Which corners see each other, by the slow answer that is obviously right? Test one
//! segment against every wall and every vertex, O(n) per pair, O(n³) for the whole
//! graph. Kept as the test oracle for the other constructions.

use crate::graph::{Edge, VisibilityGraph};
use corridor_geom::free_space::Dir;
use corridor_geom::free_space::{along_ray_cmp, Arrival, Place, Walk};
use corridor_geom::free_space::{properly_cross, FreeSpace};
use corridor_geom::point_on_segment;

/// Whether the open segment between vertices `p` and `q` is free (it properly crosses
/// no wall and every vertex strictly inside it lets the path pass), and if so what the
/// path must agree with side-wise at its ends.
pub(super) fn visibility(fs: &FreeSpace, p: u32, q: u32) -> Option<Arrival> {
    let (pp, qp) = (fs.points[p as usize], fs.points[q as usize]);
    for w in 0..fs.walls.len() {
        let (a, b) = fs.wall_points(w as u32);
        if properly_cross(pp, qp, a, b) {
            return None;
        }
    }
    let mut inside: Vec<u32> = (0..fs.points.len() as u32)
        .filter(|&v| {
            let x = fs.points[v as usize];
            x != pp && x != qp && point_on_segment(x, pp, qp)
        })
        .collect();
    inside.sort_by(|&u, &v| along_ray_cmp(pp, fs.points[u as usize], fs.points[v as usize]));
    let mut walk = Walk::new(fs, Place::Vertex(p), Dir::away_from(pp));
    for v in inside {
        walk.arrive(Place::Vertex(v));
        if !walk.pass(v) {
            return None;
        }
    }
    Some(walk.arrive(Place::Vertex(q)))
}

/// The edges of `graph`: every pair of vertices with nodes through [`visibility`].
pub(super) fn adjacency(graph: &VisibilityGraph) -> Vec<Edge> {
    let free = &graph.free;
    let mut edges = Vec::new();
    let n = free.points.len() as u32;
    for v in 0..n {
        if !graph.has_nodes(v) {
            continue;
        }
        for x in 0..n {
            if x == v || !graph.has_nodes(x) {
                continue;
            }
            if let Some(arrival) = visibility(free, v, x) {
                graph.link(v, x, arrival, &mut edges);
            }
        }
    }
    edges
}
