//! The overlay route: free space and open pieces through `i_overlay`'s integer engine,
//! split until no two edges cross, with every edge's provenance tag carried along.

use super::input::{gp, ip, supporting_line, OpenEdge};
use super::merge::RawWall;
use super::sources::{Tag, TagStore};
use crate::free_space::traced::winding_doubled;
use crate::GridPoint;
use i_overlay::core::edge_data::{EdgeDataMerge, EdgeDataSplit, OverlayEdgeData};
use i_overlay::core::edge_overlay::{EdgeOverlay, InputEdge};
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay::ShapeType;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::i_float::int::number::int::IntNumber;
use i_overlay::i_float::int::point::IntPoint;
use i_overlay::segm::boolean::ShapeCountBoolean;
use i_overlay::vector::edge::{DataVectorEdge, DataVectorShape, SUBJ_LEFT, SUBJ_RIGHT};

/// How often open pieces that cancelled out of the arrangement are put back before giving up.
pub(super) const MAX_SPLIT_ROUNDS: usize = 16;

pub(super) struct SplitRound {
    pub(super) shapes: Vec<DataVectorShape<i32, Tag>>,
    pub(super) one_sided: Vec<RawWall>,
    pub(super) two_sided: Vec<RawWall>,
    /// Open pieces that dropped out of the arrangement because two of them coincided in
    /// opposite directions (their counts cancelled); they must be split again.
    pub(super) vanished: Vec<OpenEdge>,
    pub(super) store: TagStore,
}

/// One overlay of the free-space edges (`subject`, free space on their left, already
/// split among themselves) with the open edges: splits everything at every crossing and
/// sorts the pieces into one-sided walls, two-sided walls (open pieces inside the free
/// space) and pieces that vanished.
pub(super) fn split_round(
    subject: &[RawWall],
    open: &[OpenEdge],
    mut store: TagStore,
    want_shapes: bool,
) -> SplitRound {
    store.hidden.clear();
    store.vanished.clear();
    let mut overlay = EdgeOverlay::<i32, Tag>::new(subject.len() + open.len());
    for w in subject {
        let data = store.tag(w.set, None);
        overlay.add_edge(
            InputEdge {
                a: ip(w.a),
                b: ip(w.b),
                data,
            },
            ShapeType::Subject,
        );
    }
    for s in open {
        let (a, b) = (ip(s.a.min(s.b)), ip(s.a.max(s.b)));
        let data = store.tag(s.set, Some((a, b)));
        // Canonical direction (a < b) so that coinciding open edges add up.
        overlay.add_edge(InputEdge { a, b, data }, ShapeType::Clip);
    }
    *overlay.data_store_mut() = store;
    // The free space is clean (winding 0 or 1), so even-odd equals non-zero for it; for
    // the open edges, even-odd marks every piece covered an odd number of times.
    let (shapes, free_edges) = if want_shapes {
        let shapes = overlay.build_vector_shapes(OverlayRule::Subject, FillRule::EvenOdd);
        (shapes, Vec::new())
    } else {
        let edges = overlay.build_vectors(OverlayRule::Subject, FillRule::EvenOdd);
        (Vec::new(), edges)
    };
    let open_pieces = overlay.build_vectors(OverlayRule::Clip, FillRule::EvenOdd);
    let store = overlay.into_data_store();
    let mut one_sided = Vec::new();
    collect_one_sided(shapes.iter().flatten().flatten(), &store, &mut one_sided);
    collect_one_sided(&free_edges, &store, &mut one_sided);
    let mut two_sided = Vec::new();
    for edge in &open_pieces {
        if edge.fill & (SUBJ_LEFT | SUBJ_RIGHT) == SUBJ_LEFT | SUBJ_RIGHT {
            two_sided.push(RawWall::two_sided(
                gp(edge.a),
                gp(edge.b),
                store.set(edge.data),
            ));
        }
    }
    // Pieces covered an even number of times (two open edges bent onto the same grid
    // points) stay in the arrangement but are invisible to the even-odd rule; the tags
    // remember them.
    for &id in &store.hidden {
        let entry = store.entries[id as usize];
        let (Some((a, b)), false) = (entry.piece, entry.consumed) else {
            continue;
        };
        let (a, b) = (gp(a), gp(b));
        let mid = (a.x as i64 + b.x as i64, a.y as i64 + b.y as i64);
        if a != b
            && winding_doubled(
                mid,
                one_sided
                    .iter()
                    .filter(|w| !w.two_sided)
                    .map(|w| (w.a, w.b)),
            ) == 1
        {
            two_sided.push(RawWall::two_sided(a, b, entry.set));
        }
    }
    let vanished = store
        .vanished
        .iter()
        .filter_map(|&id| {
            let entry = store.entries[id as usize];
            let (a, b) = entry.piece.filter(|_| !entry.consumed)?;
            (a != b).then(|| OpenEdge {
                a: gp(a.min(b)),
                b: gp(a.max(b)),
                set: entry.set,
            })
        })
        .collect();
    SplitRound {
        shapes,
        one_sided,
        two_sided,
        vanished,
        store,
    }
}

pub(super) fn add_ring(overlay: &mut EdgeOverlay<i32, Tag>, ring: &[IntPoint<i32>], tag: Tag) {
    let n = ring.len();
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if a != b {
            overlay.add_edge(InputEdge { a, b, data: tag }, ShapeType::Subject);
        }
    }
}

/// Splits open edges that overlap collinearly (the same fence drawn twice, two fences
/// sharing a stretch) at each other's endpoints and keeps every stretch once, listing all
/// the edges that cover it, so that every open piece enters the overlay exactly once.
pub(super) fn merge_collinear_strings(edges: Vec<OpenEdge>, store: &mut TagStore) -> Vec<OpenEdge> {
    let mut keyed: Vec<_> = edges.into_iter().map(|e| (open_line_key(&e), e)).collect();
    keyed.sort_by_key(|(k, e)| (*k, e.set));
    let mut out: Vec<OpenEdge> = Vec::with_capacity(keyed.len());
    let mut i = 0;
    while i < keyed.len() {
        let mut j = i + 1;
        while j < keyed.len() && keyed[j].0 .0 == keyed[i].0 .0 {
            j += 1;
        }
        let group = &keyed[i..j];
        i = j;
        let mut reach = group[0].0 .2;
        let overlapping = group[1..].iter().any(|(k, _)| {
            let hit = k.1 < reach;
            reach = reach.max(k.2);
            hit
        });
        if !overlapping {
            out.extend(group.iter().map(|(_, e)| *e));
            continue;
        }
        // Elementary stretches between consecutive endpoints, each with the union of the
        // sources of the edges covering it.
        let mut breaks: Vec<(i128, GridPoint)> = group
            .iter()
            .flat_map(|((_, ta, tb), e)| [(*ta, e.a), (*tb, e.b)])
            .collect();
        breaks.sort();
        breaks.dedup_by_key(|b| b.0);
        for w in breaks.windows(2) {
            let ((t0, p0), (t1, p1)) = (w[0], w[1]);
            let mut set: Option<u32> = None;
            for ((_, ta, tb), e) in group {
                if *ta <= t0 && t1 <= *tb {
                    set = Some(set.map_or(e.set, |s| store.union(s, e.set)));
                }
            }
            if let Some(set) = set {
                out.push(OpenEdge { a: p0, b: p1, set });
            }
        }
    }
    out
}

/// [`supporting_line`] of an open edge (`a < b`, so `a` comes first along it).
fn open_line_key(e: &OpenEdge) -> ((i64, i64, i128), i128, i128) {
    supporting_line(e.a, e.b)
}

/// Whether two open edges overlap along a stretch (or coincide): what
/// [`merge_collinear_strings`] splits.
pub(super) fn strings_overlap(edges: &[OpenEdge]) -> bool {
    if edges.len() < 2 {
        return false;
    }
    let mut keyed: Vec<_> = edges.iter().map(open_line_key).collect();
    keyed.sort_unstable();
    let mut reach = keyed[0].2;
    for w in keyed.windows(2) {
        let (k, l) = (w[0], w[1]);
        if k.0 != l.0 {
            reach = l.2;
            continue;
        }
        if l.1 < reach {
            return true;
        }
        reach = reach.max(l.2);
    }
    false
}

fn to_i32_point<I: IntNumber>(p: IntPoint<I>) -> IntPoint<i32> {
    // The engine is `i32`; the conversion through `f64` is exact for it.
    IntPoint::new(p.x.to_f64() as i32, p.y.to_f64() as i32)
}

impl OverlayEdgeData for Tag {
    type Store = TagStore;

    fn split<I: IntNumber>(self, ctx: EdgeDataSplit<I>, store: &mut TagStore) -> (Self, Self) {
        let entry = store.entries[self.0 as usize];
        if entry.piece.is_none() {
            return (self, self);
        }
        store.entries[self.0 as usize].consumed = true;
        let (a, p, b) = (
            to_i32_point(ctx.a),
            to_i32_point(ctx.p),
            to_i32_point(ctx.b),
        );
        (
            store.tag(entry.set, Some((a, p))),
            store.tag(entry.set, Some((p, b))),
        )
    }

    fn merge(ctx: EdgeDataMerge<ShapeCountBoolean, Self>, store: &mut TagStore) -> Self {
        let (lhs, rhs) = (ctx.lhs_data, ctx.rhs_data);
        let (l, r) = (store.entries[lhs.0 as usize], store.entries[rhs.0 as usize]);
        let set = store.union(l.set, r.set);
        let piece = l.piece.or(r.piece);
        if piece.is_none() && set == l.set {
            return lhs;
        }
        store.entries[lhs.0 as usize].consumed = true;
        store.entries[rhs.0 as usize].consumed = true;
        let tag = store.tag(set, piece);
        if piece.is_some() && ctx.out_count.subj == 0 {
            if ctx.out_count.clip == 0 {
                store.vanished.push(tag.0);
            } else if ctx.out_count.clip % 2 == 0 {
                store.hidden.push(tag.0);
            }
        }
        tag
    }
}

/// The edge directed so that the free space (subject fill) is on its left, or `None` when
/// both or neither side is free.
pub(super) fn free_on_left(
    edge: &DataVectorEdge<i32, Tag>,
) -> Option<(IntPoint<i32>, IntPoint<i32>)> {
    match edge.fill & (SUBJ_LEFT | SUBJ_RIGHT) {
        SUBJ_LEFT => Some((edge.a, edge.b)),
        SUBJ_RIGHT => Some((edge.b, edge.a)),
        _ => None,
    }
}

pub(super) fn collect_one_sided<'a>(
    edges: impl IntoIterator<Item = &'a DataVectorEdge<i32, Tag>>,
    store: &TagStore,
    out: &mut Vec<RawWall>,
) {
    for edge in edges {
        if let Some((a, b)) = free_on_left(edge) {
            out.push(RawWall {
                a: gp(a),
                b: gp(b),
                two_sided: false,
                set: store.set(edge.data),
            });
        }
    }
}
