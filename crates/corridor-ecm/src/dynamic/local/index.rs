//! What the local repair keeps next to the ECM between updates ([`UpdateIndex`]): the
//! boxes that bound the clearance discs of every edge, to find the edges a change
//! influences, and the size and one vertex of every component, to renumber components
//! locally.

use super::zone::{chord_box, EMPTY_AABB};
use crate::graph::{Ecm, Edge, EdgeId, VertexId};
use corridor_geom::boxes::{union, EMPTY_BOX};
use corridor_geom::{Aabb, DynamicTree, LogIndex};
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{Envelope, AABB};

type SweepItem = GeomWithData<Rectangle<[f64; 2]>, EdgeId>;

/// What the local repair keeps next to the ECM: an index of the boxes that bound the
/// clearance discs of every edge (user coordinates), and the size and one vertex of every
/// component (so that components can be renumbered locally).
#[derive(Clone, Debug)]
pub(crate) struct UpdateIndex {
    pub(super) sweep: Sweep,
    /// Vertices per component.
    pub(super) sizes: Vec<u32>,
    /// A vertex of each component (checked before use; may be stale).
    pub(super) representative: Vec<Option<VertexId>>,
}

impl UpdateIndex {
    pub(crate) fn new(ecm: &Ecm, deviation: f64) -> Self {
        let mut index = UpdateIndex {
            sweep: Sweep::default(),
            sizes: Vec::new(),
            representative: Vec::new(),
        };
        index.rebuild(ecm, deviation);
        index
    }

    /// Indexes a whole new ECM.
    pub(crate) fn rebuild(&mut self, ecm: &Ecm, deviation: f64) {
        self.sweep = Sweep {
            base: DynamicTree::bulk_load_with_params(
                ecm.edges()
                    .map(|(id, e)| {
                        let b = sweep_box(e, deviation);
                        SweepItem::new(Rectangle::from_corners([b[0], b[1]], [b[2], b[3]]), id)
                    })
                    .collect(),
            ),
            added: LogIndex::default(),
        };
        self.sizes = vec![0; ecm.component_count as usize];
        self.representative = vec![None; ecm.component_count as usize];
        for (id, v) in ecm.vertices.iter() {
            let c = v.component.0 as usize;
            if c < self.sizes.len() {
                self.sizes[c] += 1;
                self.representative[c].get_or_insert(id);
            }
        }
    }
}

/// The boxes that bound the clearance discs of every edge: those of a build in an R-tree
/// loaded in bulk (the clearance boxes overlap a lot, and `rstar`'s bulk load groups them
/// more tightly than Hilbert packing: queries visit fewer boxes), those of updates in a
/// [`LogIndex`] (no R* insertion).
#[derive(Clone, Debug, Default)]
pub(super) struct Sweep {
    pub(super) base: DynamicTree<SweepItem>,
    pub(super) added: LogIndex<EdgeId>,
}

impl Sweep {
    /// The edges whose sweep boxes meet `envelope`, in no particular order.
    pub(super) fn edges_meeting(
        &self,
        envelope: AABB<[f64; 2]>,
    ) -> impl Iterator<Item = EdgeId> + '_ {
        let (lo, hi) = (envelope.lower(), envelope.upper());
        self.base
            .locate_in_envelope_intersecting(envelope)
            .map(|item| item.data)
            .chain(self.added.meeting([lo[0], lo[1], hi[0], hi[1]]).copied())
    }
}

/// The sweep box of an edge (`[min x, min y, max x, max y]`): the box of its chords' boxes.
pub(super) fn sweep_box(edge: &Edge, deviation: f64) -> [f64; 4] {
    let b = edge
        .bending_points
        .windows(2)
        .map(|w| chord_box(&w[0], &w[1], deviation))
        .fold(EMPTY_AABB, Aabb::union);
    [b.min.x, b.min.y, b.max.x, b.max.y]
}

/// Removes the sweep boxes of these edges in one walk of each tree.
pub(super) fn remove_sweep(sweep: &mut Sweep, removed: &[(EdgeId, Edge)], deviation: f64) {
    if removed.is_empty() {
        return;
    }
    let mut ids: Vec<EdgeId> = removed.iter().map(|(id, _)| *id).collect();
    ids.sort_unstable();
    let extent = removed
        .iter()
        .fold(EMPTY_BOX, |a, (_, e)| union(a, sweep_box(e, deviation)));
    let mut left = removed.len();
    sweep
        .added
        .remove_meeting(extent, |id| ids.binary_search(id).is_ok(), |_| left -= 1);
    if left == 0 {
        return;
    }
    struct Select<'a> {
        envelope: AABB<[f64; 2]>,
        ids: &'a [EdgeId],
    }
    impl rstar::SelectionFunction<SweepItem> for Select<'_> {
        fn should_unpack_parent(&self, envelope: &AABB<[f64; 2]>) -> bool {
            self.envelope.intersects(envelope)
        }
        fn should_unpack_leaf(&self, leaf: &SweepItem) -> bool {
            self.ids.binary_search(&leaf.data).is_ok()
        }
    }
    sweep
        .base
        .drain_with_selection_function(Select {
            envelope: AABB::from_corners([extent[0], extent[1]], [extent[2], extent[3]]),
            ids: &ids,
        })
        .for_each(drop);
}
