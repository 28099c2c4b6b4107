//! Small helpers shared by the build, the index and the planner (they depend on nothing
//! else in the crate, so that every module can use them without an import circle).

use slotmap::Key;

/// The slot index of a slotmap key (dense, reused after removal; the version is left
/// out, which is fine for state that lives within one query on one map).
#[inline]
pub(crate) fn slot<K: Key>(key: K) -> usize {
    (key.data().as_ffi() & 0xffff_ffff) as usize
}

/// Whether `x <= y`; false when either is NaN (so that checks written with it fail on
/// NaN).
pub(crate) fn at_most(x: f64, y: f64) -> bool {
    x <= y
}
