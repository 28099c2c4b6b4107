//! Which parts of a local ECM can be trusted: arcs whose clearance capsules meet no new
//! wall the local diagram was not built from ([`Certifier`]), and the open vertices where
//! its medial axis runs off to infinity ([`OpenVertices`]), read together as [`Local`].

use super::context::Context;
use super::window::{walls_meeting_while, Nearby};
use super::zone::{strictly_inside, Zone, EMPTY_AABB};
use crate::build::OpenVertex;
use crate::graph::{BendingPoint, Ecm, Edge, VertexId};
use corridor_geom::{Aabb, PackedTree};

/// The vertices of a local ECM with infinite medial-axis edges (a few, or none).
pub(super) struct OpenVertices(Vec<(VertexId, OpenVertex)>);

impl OpenVertices {
    /// The local ECM's vertices listed by extraction (`finalize` inserts the raw vertices
    /// in order into a new slot map, so the `i`-th key is raw vertex `i`).
    pub(super) fn new(l: &Ecm, open: &[OpenVertex]) -> OpenVertices {
        if open.is_empty() {
            return OpenVertices(Vec::new());
        }
        let ids: Vec<VertexId> = l.vertices.keys().collect();
        OpenVertices(open.iter().map(|o| (ids[o.vertex as usize], *o)).collect())
    }

    fn get(&self, v: VertexId) -> Option<&OpenVertex> {
        self.0.iter().find(|(id, _)| *id == v).map(|(_, o)| o)
    }

    /// How many infinite medial-axis edges the vertex has.
    pub(super) fn edges(&self, v: VertexId) -> usize {
        self.get(v).map_or(0, |o| o.open_edges as usize)
    }

    /// Whether the vertex is a bending point of the local medial axis where the chain
    /// through it runs off to infinity.
    pub(super) fn is_bending(&self, v: VertexId) -> bool {
        self.get(v).is_some_and(|o| o.bending)
    }
}

/// The local ECM as the splice reads it.
pub(super) struct Local<'a> {
    pub(super) ecm: &'a Ecm,
    pub(super) open: &'a OpenVertices,
    /// Whether the arc through these bending points is certified.
    pub(super) certify: &'a dyn Fn(&[BendingPoint]) -> bool,
}

impl Local<'_> {
    /// Whether a whole local edge is certified: an edge that ends where the medial axis
    /// runs on to infinity is a part of a longer edge, so it is not.
    pub(super) fn certify_edge(&self, e: &Edge) -> bool {
        !self.open.is_bending(e.start)
            && !self.open.is_bending(e.end)
            && (self.certify)(&e.bending_points)
    }
}

/// From how many zones [`Certifier`] looks them up in a tree instead of a list.
const ZONE_TREE_FROM: usize = 32;

/// A box as the spatial index takes it: `[min x, min y, max x, max y]`.
fn box_array(b: &Aabb) -> [f64; 4] {
    [b.min.x, b.min.y, b.max.x, b.max.y]
}

/// Which arcs of a local ECM can be trusted: those whose clearance capsules meet no new
/// wall that the local diagram was not built from.
///
/// A chord is certified when its capsule (which holds the clearance discs along it)
/// meets no new wall that was not taken: strictly inside one of the zones whose walls
/// were all taken, or checked against the wall index. Only chords inside `inner` are
/// tried (the box where the frame of the local diagram used to be, less a grid step):
/// farther out they are outside the region, and each would query the walls far away.
pub(super) struct Certifier<'a> {
    ctx: &'a Context<'a>,
    near: &'a Nearby,
    /// The zones whose walls were taken, and their bounding boxes.
    zones: &'a [Zone],
    zone_boxes: Vec<Aabb>,
    /// The zone boxes as a tree when there are many of them (a batch of changes far
    /// apart): each chord then asks only the zones near it, not all of them (measured:
    /// 500 squares in one update spent a third of the plan in this test, quadratically).
    zone_tree: Option<PackedTree>,
    /// The bounding box of the zones.
    region: Aabb,
    inner: Aabb,
    /// Whether the region lies inside `inner` (it does unless the box was clamped at the
    /// grid's limits).
    bounded: bool,
}

impl<'a> Certifier<'a> {
    pub(super) fn new(
        ctx: &'a Context<'a>,
        near: &'a Nearby,
        zones: &'a [Zone],
        region: Aabb,
        inner: Aabb,
    ) -> Self {
        let zone_boxes: Vec<Aabb> = zones.iter().map(Zone::bbox).collect();
        let zone_tree = (zone_boxes.len() > ZONE_TREE_FROM).then(|| {
            let boxes: Vec<[f64; 4]> = zone_boxes.iter().map(box_array).collect();
            PackedTree::new(&boxes)
        });
        Certifier {
            ctx,
            near,
            zones,
            zone_boxes,
            zone_tree,
            region,
            inner,
            bounded: strictly_inside(&region, &inner),
        }
    }

    /// Whether every new wall that meets `cz` was taken into the local diagram.
    fn known(&self, cz: &Zone) -> bool {
        let ctx = self.ctx;
        let near = self.near;
        let cb = cz.bbox();
        let inside = strictly_inside(&cb, &self.inner);
        if strictly_inside(&cb, &self.region) {
            // Every wall meeting `cz` is one of the region's (first the cheaper test).
            let holds = |i: usize| self.zones[i].holds_boxed(&self.zone_boxes[i], cz, &cb, ctx.tol);
            return (inside && !near.untaken_meet(ctx, cz))
                || match &self.zone_tree {
                    Some(tree) => tree.meeting(box_array(&cb)).any(|i| holds(i as usize)),
                    None => (0..self.zones.len()).any(holds),
                };
        }
        if !inside {
            return false;
        }
        // Every wall meeting `cz` was taken (the first one that was not ends the query).
        walls_meeting_while(ctx, cz, |k| near.is_taken(k))
    }

    /// Whether the arc through these bending points (of the local ECM) is certified.
    pub(super) fn certify(&self, bps: &[BendingPoint]) -> bool {
        // The box of a whole piece holds the capsules of its chords: when it is known,
        // so are they (one wall query instead of one per chord).
        let chords = bps
            .windows(2)
            .map(|w| Zone::chord(&w[0], &w[1], self.ctx.deviation));
        let whole = chords
            .clone()
            .map(|z| z.bbox())
            .fold(EMPTY_AABB, Aabb::union);
        if self.bounded && !strictly_inside(&whole, &self.inner) {
            // A chord leaves the box: it is outside the region too, so unknown.
            return false;
        }
        self.known(&Zone::Box(whole)) || chords.into_iter().all(|cz| self.known(&cz))
    }
}
