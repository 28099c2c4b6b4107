//! Which walkable pieces go on which layer? Pieces joined across edges (where their
//! heights differ by at most a step) are grown into layers breadth-first; a piece
//! that would overlap its layer in the ground plane starts or joins another layer, and
//! the edges between pieces of different layers become connections.

use super::ground::{region_area, region_box, GroundGrid, Region};
use super::walkable::WalkablePiece;
use corridor_geom::{HeightPlane, PackedTree, Point};
use std::collections::VecDeque;

/// Points this close (in level units) count as the same, and edges this close to a
/// line as on it: two steps of the snap grid (results of cuts are rounded to it), far
/// below any level's detail.
pub(crate) const GROUND_TOLERANCE: f64 = 2e-4;

/// Overlaps smaller than this (in square units) are rounding, not overlap.
const AREA_TOLERANCE: f64 = 1e-6;

/// One connected part of a walkable piece: a node of the layer graph.
pub(crate) struct Node {
    pub triangle: usize,
    pub plane: HeightPlane,
    /// One shape: outer contour and holes.
    pub region: Region,
    pub bbox: [f64; 4],
}

/// Two nodes touching along a segment, with heights within a step there.
pub(crate) struct Adjacency {
    pub nodes: [usize; 2],
    pub segment: (Point, Point),
}

/// The nodes of the pieces: one per connected shape.
pub(crate) fn nodes(pieces: Vec<WalkablePiece>) -> Vec<Node> {
    let mut out = Vec::new();
    for piece in pieces {
        for shape in piece.region {
            let region = vec![shape];
            let Some((lo, hi)) = region_box(&region) else {
                continue;
            };
            if region_area(&region) <= AREA_TOLERANCE * 1e-3 {
                continue;
            }
            out.push(Node {
                triangle: piece.triangle,
                plane: piece.plane,
                region,
                bbox: [lo.x, lo.y, hi.x, hi.y],
            });
        }
    }
    out
}

/// Every pair of nodes whose boundaries share a segment of positive length along
/// which their heights differ by at most `max_climb`.
pub(crate) fn adjacencies(nodes: &[Node], max_climb: f64) -> Vec<Adjacency> {
    let tol = GROUND_TOLERANCE;
    let grown: Vec<[f64; 4]> = nodes
        .iter()
        .map(|n| {
            [
                n.bbox[0] - tol,
                n.bbox[1] - tol,
                n.bbox[2] + tol,
                n.bbox[3] + tol,
            ]
        })
        .collect();
    let tree = PackedTree::new(&grown);
    let mut out = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        for j in tree.meeting(grown[i]) {
            let j = j as usize;
            if j <= i || nodes[j].triangle == n.triangle {
                continue;
            }
            let m = &nodes[j];
            for (p, q) in edges(&n.region) {
                for (s0, s1) in shared_parts(p, q, &m.region) {
                    let steps =
                        [s0, s1].map(|s| (n.plane.height_at(s) - m.plane.height_at(s)).abs());
                    if steps.iter().all(|&d| d <= max_climb) {
                        out.push(Adjacency {
                            nodes: [i, j],
                            segment: (s0, s1),
                        });
                    }
                }
            }
        }
    }
    out
}

pub(crate) fn edges(region: &Region) -> impl Iterator<Item = (Point, Point)> + '_ {
    region.iter().flatten().flat_map(|c| {
        (0..c.len()).map(move |k| {
            let (p, q) = (c[k], c[(k + 1) % c.len()]);
            (Point::new(p[0], p[1]), Point::new(q[0], q[1]))
        })
    })
}

/// The parts of segment `p q` that lie on edges of `region` (within the tolerance).
pub(crate) fn shared_parts(p: Point, q: Point, region: &Region) -> Vec<(Point, Point)> {
    let length = p.distance(q);
    if length <= GROUND_TOLERANCE {
        return Vec::new();
    }
    let dir = (q - p) / length;
    let mut spans: Vec<(f64, f64)> = Vec::new();
    for (a, b) in edges(region) {
        let (da, db) = (dir.perp_dot(a - p), dir.perp_dot(b - p));
        if da.abs() > GROUND_TOLERANCE || db.abs() > GROUND_TOLERANCE {
            continue;
        }
        let (ta, tb) = (dir.dot(a - p), dir.dot(b - p));
        let (lo, hi) = (ta.min(tb).max(0.0), ta.max(tb).min(length));
        if hi - lo > GROUND_TOLERANCE {
            spans.push((lo, hi));
        }
    }
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut merged: Vec<(f64, f64)> = Vec::new();
    for (lo, hi) in spans {
        match merged.last_mut() {
            Some(last) if lo <= last.1 + GROUND_TOLERANCE => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    merged
        .into_iter()
        .map(|(lo, hi)| (p + dir * lo, p + dir * hi))
        .collect()
}

/// The layer of every node: breadth-first growth over the adjacencies, seeded at the
/// first node without a layer; a node joins the layer of the node it is reached from
/// unless it overlaps that layer's nodes in the ground plane.
pub(crate) fn assign_layers(
    nodes: &[Node],
    adjacencies: &[Adjacency],
    grid: &GroundGrid,
) -> Vec<usize> {
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for a in adjacencies {
        next[a.nodes[0]].push(a.nodes[1]);
        next[a.nodes[1]].push(a.nodes[0]);
    }
    let mut layer_of = vec![usize::MAX; nodes.len()];
    let mut layer_count = 0;
    for seed in 0..nodes.len() {
        if layer_of[seed] != usize::MAX {
            continue;
        }
        let layer = layer_count;
        layer_count += 1;
        layer_of[seed] = layer;
        let mut members = vec![seed];
        let mut queue = VecDeque::from([seed]);
        while let Some(n) = queue.pop_front() {
            for &m in &next[n] {
                if layer_of[m] != usize::MAX {
                    continue;
                }
                let overlaps = members.iter().any(|&k| {
                    boxes_overlap(nodes[k].bbox, nodes[m].bbox)
                        && grid.overlap_area(&nodes[k].region, &nodes[m].region) > AREA_TOLERANCE
                });
                if !overlaps {
                    layer_of[m] = layer;
                    members.push(m);
                    queue.push_back(m);
                }
            }
        }
    }
    layer_of
}

/// Whether two boxes overlap with positive area.
fn boxes_overlap(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}
