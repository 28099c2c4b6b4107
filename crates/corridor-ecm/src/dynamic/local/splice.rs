//! The local replacement of a part of the ECM ([`Splice`]) and how it is applied: the
//! influenced edges and vertices out, the new ones in, the cell index, the sweep boxes
//! and the components kept current.

use super::components::{update_components, UNLABELLED};
use super::index::{remove_sweep, sweep_box, UpdateIndex};
use crate::graph::{Ecm, Edge, EdgeId, Vertex, VertexId};
use corridor_geom::FxHashSet as HashSet;
use smallvec::SmallVec;
use std::time::Duration;

/// A vertex of a new edge: an old end vertex, or one of the splice's new vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VertexRef {
    Old(VertexId),
    New(usize),
}

/// A new edge (its `start`/`end` ids are placeholders until it is applied).
#[derive(Clone, Debug)]
pub(crate) struct NewEdge {
    pub(super) start: VertexRef,
    pub(super) end: VertexRef,
    pub(super) edge: Edge,
}

/// The local replacement computed by [`plan_patch`](super::plan_patch).
#[derive(Clone, Debug)]
pub(crate) struct Splice {
    pub(crate) remove_edges: Vec<EdgeId>,
    pub(crate) remove_vertices: Vec<VertexId>,
    pub(crate) new_vertices: Vec<Vertex>,
    pub(crate) new_edges: Vec<NewEdge>,
    pub(crate) free_area: f64,
    pub(crate) widenings: usize,
    /// Whether influenced edges were cut at Voronoi vertices (else rebuilt whole).
    pub(crate) cut: bool,
    /// Time spent building local Voronoi diagrams.
    pub(crate) voronoi_time: Duration,
    /// Walls given to the last local Voronoi diagram.
    pub(crate) local_walls: usize,
}

/// Splices a planned repair into the ECM and keeps the indexes current.
pub(crate) fn apply_splice(ecm: &mut Ecm, index: &mut UpdateIndex, splice: Splice, deviation: f64) {
    // Two end vertices per removed and per new edge, then the new vertices as seeds.
    let mut touched: Vec<VertexId> = Vec::with_capacity(
        2 * (splice.remove_edges.len() + splice.new_edges.len()) + splice.new_vertices.len(),
    );
    let mut affected: HashSet<u32> = HashSet::default();
    let mut removed: Vec<(EdgeId, Edge)> = Vec::with_capacity(splice.remove_edges.len());
    for id in splice.remove_edges {
        let Some(edge) = ecm.edges.remove(id) else {
            continue;
        };
        affected.insert(edge.component.0);
        for v in [edge.start, edge.end] {
            if let Some(vertex) = ecm.vertices.get_mut(v) {
                vertex.edges.retain(|e| *e != id);
                touched.push(v);
            }
        }
        removed.push((id, edge));
    }
    // The bending-point count is kept up to date by difference: counting it again would
    // walk every edge of the map on every update.
    let interior = |e: &Edge| e.bending_points.len().saturating_sub(2);
    let vertices_before = ecm.vertex_count();
    let mut interior_points = ecm.stats.bending_points.saturating_sub(vertices_before);
    interior_points -= removed
        .iter()
        .map(|(_, e)| interior(e))
        .sum::<usize>()
        .min(interior_points);
    match removed.as_slice() {
        [(id, edge)] => ecm.cells.remove_edge(*id, edge),
        _ => ecm
            .cells
            .remove_edges(removed.iter().map(|(id, e)| (*id, e))),
    }
    remove_sweep(&mut index.sweep, &removed, deviation);
    for v in splice.remove_vertices {
        if let Some(vertex) = ecm.vertices.remove(v) {
            let c = vertex.component.0;
            affected.insert(c);
            if let Some(n) = index.sizes.get_mut(c as usize) {
                *n = n.saturating_sub(1);
            }
        }
    }
    let new_ids: Vec<VertexId> = splice
        .new_vertices
        .into_iter()
        .map(|mut v| {
            v.component = UNLABELLED;
            ecm.vertices.insert(v)
        })
        .collect();
    let resolve = |r: VertexRef| match r {
        VertexRef::Old(v) => v,
        VertexRef::New(i) => new_ids[i],
    };
    for ne in splice.new_edges {
        let (start, end) = (resolve(ne.start), resolve(ne.end));
        let mut edge = ne.edge;
        edge.start = start;
        edge.end = end;
        edge.component = UNLABELLED;
        interior_points += interior(&edge);
        let id = ecm.edges.insert(edge);
        let edge = &ecm.edges[id];
        ecm.cells.insert_edge(id, edge);
        index.sweep.added.insert(sweep_box(edge, deviation), id);
        for v in [start, end] {
            ecm.vertices[v].edges.push(id);
            touched.push(v);
        }
    }
    touched.sort_unstable();
    touched.dedup();
    touched.retain(|v| ecm.vertices.contains_key(*v));
    for &v in &touched {
        sort_incident(ecm, v);
    }
    let mut seeds = touched;
    seeds.extend(new_ids.iter().copied());
    seeds.sort_unstable();
    seeds.dedup();
    update_components(ecm, index, &seeds, affected);
    ecm.free_area = splice.free_area;
    ecm.stats.vertices = ecm.vertex_count();
    ecm.stats.edges = ecm.edge_count();
    ecm.stats.bending_points = ecm.vertex_count() + interior_points;
    debug_assert_eq!(ecm.stats.bending_points, ecm.bending_point_count());
    ecm.stats.components = ecm.component_count();
}

/// Orders a vertex's incident edges counter-clockwise by leaving direction (as the build
/// does).
fn sort_incident(ecm: &mut Ecm, vid: VertexId) {
    let edges = &ecm.edges;
    let angle = |e: EdgeId| {
        let edge = &edges[e];
        let bps = &edge.bending_points;
        let (from, to) = if edge.start == vid {
            (
                bps[0].position,
                bps.iter()
                    .map(|b| b.position)
                    .find(|p| *p != bps[0].position),
            )
        } else {
            let l = bps[bps.len() - 1].position;
            (l, bps.iter().rev().map(|b| b.position).find(|p| *p != l))
        };
        to.map(|t| (t - from).y.atan2((t - from).x)).unwrap_or(0.0)
    };
    // Each angle once (the comparison sort computed two per comparison); a stable sort of
    // the pairs keeps the order the edges had among equal angles, as before. Up to 8
    // edges are keyed on the stack.
    let mut keyed: SmallVec<[(f64, EdgeId); 8]> = ecm.vertices[vid]
        .edges
        .iter()
        .map(|&e| (angle(e), e))
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (slot, k) in ecm.vertices[vid].edges.iter_mut().zip(&keyed) {
        *slot = k.1;
    }
}
