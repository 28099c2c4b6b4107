//! Which parts of the local ECM go into the new ECM ([`pieces_of`]: certified local edges
//! that are not kept old edges, and the rebuilt parts of cut edges), and whether they
//! complete the kept edges exactly ([`select`]: vertices matched, degrees and areas
//! balanced), which turns them into a [`Splice`].

use super::certify::Local;
use super::components::UNLABELLED;
use super::context::{Context, Step};
use super::cuts::{kept_part, End, FoundCut, Mode};
use super::splice::{NewEdge, Splice, VertexRef};
use crate::canonical::same_geometry;
use crate::graph::{cell_corners, signed_area, BendingPoint, Edge, EdgeId, Side, Vertex, VertexId};
use corridor_geom::FxHashMap as HashMap;
use corridor_geom::Point;
use rstar::AABB;
use slotmap::SecondaryMap;
use std::time::Duration;

/// A part of a local edge that goes into the new ECM: its bending points `from..=to`,
/// joined at each end to the kept part of a cut old edge (`head`, `tail`) or ending at a
/// local vertex.
#[derive(Clone, Copy, Debug)]
pub(super) struct Piece {
    pub(super) edge: EdgeId,
    pub(super) from: usize,
    pub(super) to: usize,
    pub(super) head: Option<FoundCut>,
    pub(super) tail: Option<FoundCut>,
}

/// The pieces of the local ECM that go into the new ECM: every certified local edge
/// without cuts that is not a kept old edge, and on edges with cuts the parts on the
/// rebuilt side of their cuts (which must be certified; else why the region must grow).
pub(super) fn pieces_of(
    ctx: &Context<'_>,
    local: &Local<'_>,
    found: &HashMap<EdgeId, Vec<FoundCut>>,
) -> Result<Vec<Piece>, String> {
    let l = local.ecm;
    let mut pieces = Vec::new();
    for (id, e) in l.edges() {
        let n = e.bending_points.len();
        let Some(cs) = found.get(&id) else {
            if local.certify_edge(e) && !is_kept(ctx, e) {
                pieces.push(Piece {
                    edge: id,
                    from: 0,
                    to: n - 1,
                    head: None,
                    tail: None,
                });
            }
            continue;
        };
        if cs.windows(2).any(|w| w[0].at == w[1].at) {
            return Err("two cuts at one bending point".into());
        }
        let mut prev: Option<FoundCut> = None;
        for i in 0..=cs.len() {
            let next = cs.get(i).copied();
            let inside = prev.is_some_and(|c| c.dir > 0) || next.is_some_and(|c| c.dir < 0);
            let outside = prev.is_some_and(|c| c.dir < 0) || next.is_some_and(|c| c.dir > 0);
            if inside && outside {
                return Err("the cuts of a local edge disagree".into());
            }
            if inside {
                let from = prev.map_or(0, |c| c.at);
                let to = next.map_or(n - 1, |c| c.at);
                let runs_off = (prev.is_none() && local.open.is_bending(e.start))
                    || (next.is_none() && local.open.is_bending(e.end));
                if runs_off || !(local.certify)(&e.bending_points[from..=to]) {
                    return Err("a cut edge leaves the region".into());
                }
                pieces.push(Piece {
                    edge: id,
                    from,
                    to,
                    head: prev,
                    tail: next,
                });
            }
            prev = next;
        }
    }
    Ok(pieces)
}

/// Whether a local edge is a kept old edge.
fn is_kept(ctx: &Context<'_>, e: &Edge) -> bool {
    let tol = 8.0 * ctx.tol;
    let p = e.bending_points[0].position;
    let env = AABB::from_corners([p.x - tol, p.y - tol], [p.x + tol, p.y + tol]);
    ctx.index.sweep.edges_meeting(env).any(|id| {
        !ctx.influenced.contains(&id)
            && ctx
                .ecm
                .edges
                .get(id)
                .is_some_and(|o| same_geometry(o, e, tol))
    })
}

/// Checks that the new pieces complete the kept edges and turns them into a splice.
pub(super) fn select(
    ctx: &Context<'_>,
    mode: &Mode,
    local: &Local<'_>,
    found: &HashMap<EdgeId, Vec<FoundCut>>,
    pieces: Vec<Piece>,
) -> Step {
    let l = local.ecm;
    let ecm = ctx.ecm;
    let tol = 8.0 * ctx.tol;
    // Piece ends at local vertices.
    let mut used: SecondaryMap<VertexId, usize> = SecondaryMap::new();
    let mut in_pieces: SecondaryMap<EdgeId, ()> = SecondaryMap::new();
    for p in &pieces {
        let e = &l.edges[p.edge];
        in_pieces.insert(p.edge, ());
        if p.head.is_none() {
            *used.entry(e.start).unwrap().or_insert(0) += 1;
        }
        if p.tail.is_none() {
            *used.entry(e.end).unwrap().or_insert(0) += 1;
        }
    }
    // End vertices by position.
    let cell = 4.0 * tol;
    let bucket = |p: Point| ((p.x / cell).floor() as i64, (p.y / cell).floor() as i64);
    let mut buckets: HashMap<(i64, i64), Vec<VertexId>> = HashMap::default();
    for &v in mode.end_vertices.keys() {
        buckets
            .entry(bucket(ecm.vertices[v].position))
            .or_default()
            .push(v);
    }
    let near_end =
        |p: Point| -> Vec<VertexId> {
            let (bx, by) = bucket(p);
            let mut out = Vec::new();
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(vs) = buckets.get(&(bx + dx, by + dy)) {
                        out.extend(vs.iter().copied().filter(|v| {
                            (ecm.vertices[*v].position - p).abs().max_element() <= tol
                        }));
                    }
                }
            }
            out
        };
    let mut map: SecondaryMap<VertexId, VertexRef> = SecondaryMap::new();
    let mut used_old: HashMap<VertexId, VertexId> = HashMap::default();
    let mut new_vertices: Vec<Vertex> = Vec::new();
    let mut gained: HashMap<VertexId, usize> = HashMap::default();
    for (lv, &count) in &used {
        let v = &l.vertices[lv];
        // Its medial-axis edges in the local diagram, the infinite ones included.
        let open_edges = local.open.edges(lv);
        let candidates = if v.degree() + open_edges >= 2 {
            near_end(v.position)
        } else {
            Vec::new()
        };
        let r = match candidates.as_slice() {
            [] => {
                // A new vertex: all its local edges must be new (an infinite one never is).
                if count != v.edges.len() || open_edges > 0 {
                    let kept_edge = v.edges.iter().any(|le| {
                        !in_pieces.contains_key(*le)
                            && !found.contains_key(le)
                            && local.certify_edge(&l.edges[*le])
                    });
                    return if kept_edge {
                        Step::Fail(format!("a new vertex at {:?} has a kept edge", v.position))
                    } else {
                        Step::Widen(format!(
                            "an edge of the new vertex at {:?} leaves the region",
                            v.position
                        ))
                    };
                }
                let mut nv = v.clone();
                nv.edges.clear();
                new_vertices.push(nv);
                VertexRef::New(new_vertices.len() - 1)
            }
            [old] => {
                if used_old.insert(*old, lv).is_some() {
                    return Step::Fail("two local vertices match one end vertex".into());
                }
                *gained.entry(*old).or_default() += count;
                VertexRef::Old(*old)
            }
            _ => return Step::Fail("ambiguous end vertices".into()),
        };
        map.insert(lv, r);
    }
    // The new edges: pieces, joined to the kept parts of cut old edges.
    let mut new_edges: Vec<NewEdge> = Vec::with_capacity(pieces.len());
    for p in &pieces {
        let e = &l.edges[p.edge];
        let (start, end, edge) = if p.head.is_none() && p.tail.is_none() {
            (map[e.start], map[e.end], e.clone())
        } else {
            let mut bps: Vec<BendingPoint> = Vec::new();
            let start = match &p.head {
                Some(c) => VertexRef::Old(kept_part(ecm, c, true, &mut bps)),
                None => map[e.start],
            };
            bps.extend_from_slice(&e.bending_points[p.from..=p.to]);
            let end = match &p.tail {
                Some(c) => VertexRef::Old(kept_part(ecm, c, false, &mut bps)),
                None => map[e.end],
            };
            if let Some(c) = &p.head {
                let v = if c.cand.end == End::Start {
                    ecm.edges[c.cand.edge].start
                } else {
                    ecm.edges[c.cand.edge].end
                };
                *gained.entry(v).or_default() += 1;
            }
            if let Some(c) = &p.tail {
                let v = if c.cand.end == End::Start {
                    ecm.edges[c.cand.edge].start
                } else {
                    ecm.edges[c.cand.edge].end
                };
                *gained.entry(v).or_default() += 1;
            }
            let (length, min_clearance) = BendingPoint::length_and_min_clearance(&bps);
            let edge = Edge {
                start: VertexId::default(),
                end: VertexId::default(),
                bending_points: bps,
                length,
                min_clearance,
                component: UNLABELLED,
            };
            (start, end, edge)
        };
        new_edges.push(NewEdge { start, end, edge });
    }
    for (v, lost) in &mode.end_vertices {
        let got = gained.get(v).copied().unwrap_or(0);
        if got != *lost {
            return Step::Widen(format!(
                "the end vertex at {:?} lost {lost} edges and regained {got}",
                ecm.vertices[*v].position
            ));
        }
    }
    // Areas.
    let scale = ecm.grid.scale();
    let added: f64 = new_edges.iter().map(|ne| edge_area(&ne.edge)).sum();
    let removed: f64 = ctx
        .influenced
        .iter()
        .map(|id| edge_area(&ecm.edges[*id]))
        .sum();
    let (new_twice, old_twice) = (ctx.new_twice, ctx.old_twice);
    let change = (new_twice - old_twice) as f64 * 0.5;
    let area_scale = scale * scale;
    let mismatch = ((added - removed) * area_scale - change).abs();
    let allowed = 1e-9 * (added.abs() + removed.abs()) * area_scale + 0.05 + ctx.tol_grid;
    if mismatch > allowed {
        return Step::Widen(format!(
            "the new cells cover {} grid units² but the free area changed by {change}",
            (added - removed) * area_scale
        ));
    }
    let grid = ecm.grid;
    let free_area = grid.to_user_length(grid.to_user_length(1.0)) * new_twice as f64 * 0.5;
    Step::Done(Splice {
        remove_edges: ctx.influenced.iter().copied().collect(),
        remove_vertices: mode.remove_vertices.clone(),
        new_vertices,
        new_edges,
        free_area,
        widenings: 0,
        cut: false,
        voronoi_time: Duration::ZERO,
        local_walls: 0,
    })
}

fn edge_area(e: &Edge) -> f64 {
    [Side::Left, Side::Right]
        .into_iter()
        .flat_map(|side| {
            e.bending_points
                .windows(2)
                .map(move |w| signed_area(&cell_corners(&w[0], &w[1], side)))
        })
        .sum()
}
