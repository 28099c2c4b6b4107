//! When one taut-search label makes another useless: whether one funnel holds another
//! that shares its apex and its window.
//!
//! Label `A` dominates label `B` at one window `W` with one apex `a` when `A`'s apex
//! length is no longer and `A`'s funnel holds `B`'s: each of `A`'s chain corners lies in
//! the bump that `B`'s chain on that side cuts off (between the chain and the chord from
//! `a` to the chain's end, which is an end of `W`). Then the region `B`'s corridor
//! leaves open between `a` and `W` lies inside `A`'s, so every point of `W` is reached
//! through `A` no later than through `B`. With the goal beyond `W` every extension
//! crosses `W`, and what follows depends only on the window (the node and the edge it
//! was entered by), so each extension of `B` has one through `A` that is no longer.

use super::funnel::{Funnel, StoredFunnel};
use corridor_geom::{orient, Orientation, Point};

/// Whether the stored funnel `outer` holds the funnel with chains `inner` (both from
/// `apex`): see [`within_bump`].
pub(crate) fn holds(
    (pool, outer): (&[Point], &StoredFunnel),
    inner: (&[Point], &[Point]),
    apex: Point,
) -> bool {
    let left = &pool[outer.left.0 as usize..outer.left.1 as usize];
    let right = &pool[outer.right.0 as usize..outer.right.1 as usize];
    within_bump(left, apex, inner.0, Orientation::Clockwise)
        && within_bump(right, apex, inner.1, Orientation::CounterClockwise)
}

/// Whether the funnel `outer` holds the stored funnel `inner` (see [`holds`]).
pub(crate) fn holds_stored(outer: &Funnel, (pool, inner): (&[Point], &StoredFunnel)) -> bool {
    let left = &pool[inner.left.0 as usize..inner.left.1 as usize];
    let right = &pool[inner.right.0 as usize..inner.right.1 as usize];
    within_bump(&outer.left, outer.apex, left, Orientation::Clockwise)
        && within_bump(
            &outer.right,
            outer.apex,
            right,
            Orientation::CounterClockwise,
        )
}

/// Whether every corner of `outer` (a funnel chain from `apex`) lies in the bump that
/// the chain `inner` from the same apex cuts off: the polygon of `apex` and `inner`'s
/// corners, on whose every edge (the closing chord included) no point lies to the
/// `outside` side, and inside its bounding box (for a bump flattened to a segment).
/// Exact (robust orientation, no arithmetic on the points).
fn within_bump(outer: &[Point], apex: Point, inner: &[Point], outside: Orientation) -> bool {
    let corners = || std::iter::once(apex).chain(inner.iter().copied());
    let (mut lo, mut hi) = (apex, apex);
    for c in corners() {
        lo = Point::new(lo.x.min(c.x), lo.y.min(c.y));
        hi = Point::new(hi.x.max(c.x), hi.y.max(c.y));
    }
    let last = inner.last().copied().unwrap_or(apex);
    outer.iter().all(|&p| {
        p.x >= lo.x
            && p.x <= hi.x
            && p.y >= lo.y
            && p.y <= hi.y
            && orient(last, apex, p) != outside
            && corners()
                .zip(inner.iter().copied())
                .all(|(a, b)| orient(a, b, p) != outside)
    })
}
