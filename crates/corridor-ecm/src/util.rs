//! Small helpers shared by the build, the index and the planner (they depend on nothing
//! else in the crate, so that every module can use them without an import circle).

use slotmap::Key;
use std::cmp::Ordering;

/// The slot index of a slotmap key (dense, reused after removal; the version is left
/// out, which is fine for state that lives within one query on one map).
#[inline]
pub(crate) fn slot<K: Key>(key: K) -> usize {
    (key.data().as_ffi() & 0xffff_ffff) as usize
}

/// A stable sort of a few items (a vertex's edge ends or nearest points): each item moves
/// down past the ones before it that are greater, so equal items keep their order, as in
/// `slice::sort_by`.
pub(crate) fn insertion_sort<T: Copy>(items: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    for i in 1..items.len() {
        let item = items[i];
        let mut j = i;
        while j > 0 && cmp(&items[j - 1], &item) == Ordering::Greater {
            items[j] = items[j - 1];
            j -= 1;
        }
        items[j] = item;
    }
}

/// Whether `x <= y`; false when either is NaN (so that checks written with it fail on
/// NaN).
pub(crate) fn at_most(x: f64, y: f64) -> bool {
    x <= y
}
