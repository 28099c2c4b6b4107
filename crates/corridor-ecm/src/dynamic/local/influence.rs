//! Which old ECM edges a change of the walls influences: the edges with a chord whose
//! clearance capsule comes near a changed wall (with their first and last such chord),
//! and the old vertices at their ends with how many influenced edge ends they lose.

use super::index::UpdateIndex;
use super::zone::Zone;
use crate::graph::{BendingPoint, Ecm, EdgeId, VertexId};
use corridor_geom::{Aabb, Point, WallDelta};
use corridor_geom::{FxHashMap as HashMap, FxHashSet as HashSet};
use rstar::AABB;

/// What a change of the walls influences in the old ECM.
pub(super) struct Influence {
    /// The influenced edges (removed by the repair).
    pub(super) influenced: HashSet<EdgeId>,
    /// The first and last influenced chord of each influenced edge.
    pub(super) hits: HashMap<EdgeId, (usize, usize)>,
    /// The boxes of the changed walls (user units).
    pub(super) change_zones: Vec<Zone>,
    /// The old vertices at the ends of influenced edges, with the influenced edge ends
    /// they lose and whether they keep another edge.
    pub(super) lost: Vec<(VertexId, usize, bool)>,
}

/// The edges of `ecm` whose chords' capsules (bending points' clearances plus
/// `deviation`) come within `eps` of a wall that `delta` removes or adds (user units).
pub(super) fn influence(
    ecm: &Ecm,
    index: &UpdateIndex,
    delta: &WallDelta,
    deviation: f64,
    eps: f64,
) -> Influence {
    let grid = ecm.grid;
    let changed: Vec<(Point, Point)> = delta
        .removed()
        .iter()
        .chain(delta.added())
        .map(|k| {
            let (a, b) = k.ends();
            (grid.to_point(a), grid.to_point(b))
        })
        .collect();

    // Influenced edges, with their first and last influenced chord.
    let mut influenced: HashSet<EdgeId> = HashSet::default();
    let mut hits: HashMap<EdgeId, (usize, usize)> = HashMap::default();
    let mut change_zones: Vec<Zone> = Vec::with_capacity(changed.len());
    for &(a, b) in &changed {
        let env = AABB::from_corners([a.x, a.y], [b.x, b.y]);
        change_zones.push(Zone::Box(Aabb {
            min: a.min(b),
            max: a.max(b),
        }));
        for id in index.sweep.edges_meeting(env) {
            let Some(e) = ecm.edges.get(id) else { continue };
            let near = |w: &[BendingPoint]| {
                let z = Zone::chord(&w[0], &w[1], deviation);
                !z.box_misses(a, b, eps) && z.meets(a, b, eps)
            };
            let chords = &e.bending_points;
            if let Some(h) = hits.get_mut(&id) {
                // Already influenced by another changed wall: only chords outside its
                // first and last influenced ones can move them.
                if let Some(first) = chords[..=h.0].windows(2).position(near) {
                    h.0 = first;
                }
                let after = &chords[h.1 + 1..];
                if let Some(k) = after.windows(2).rev().position(near) {
                    h.1 += after.len() - 1 - k;
                }
                continue;
            }
            let Some(first) = chords.windows(2).position(near) else {
                continue;
            };
            let last = chords.len() - 2 - chords.windows(2).rev().position(near).unwrap_or(0);
            influenced.insert(id);
            hits.insert(id, (first, last));
        }
    }
    // Old vertices at the ends of influenced edges, with the influenced edge ends they lose.
    let mut lost: Vec<(VertexId, usize, bool)> = Vec::with_capacity(2 * influenced.len());
    let mut seen: HashSet<VertexId> = HashSet::default();
    for &id in &influenced {
        let e = &ecm.edges[id];
        for v in [e.start, e.end] {
            if !seen.insert(v) {
                continue;
            }
            let vertex = &ecm.vertices[v];
            let n = vertex
                .edges
                .iter()
                .filter(|x| influenced.contains(x))
                .count();
            lost.push((v, n, n < vertex.edges.len()));
        }
    }
    Influence {
        influenced,
        hits,
        change_zones,
        lost,
    }
}
