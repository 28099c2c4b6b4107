//! Small helpers shared by the build, the index and the planner: slot indices, point
//! hashing (they depend on nothing else in the crate, so that every module can use them
//! without an import circle).

use corridor_geom::Point;
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

/// A cheap hasher for point bit patterns (the default SipHash costs more than the
/// search step it guards).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BuildPointHasher;

impl std::hash::BuildHasher for BuildPointHasher {
    type Hasher = PointHasher;
    fn build_hasher(&self) -> PointHasher {
        PointHasher(0)
    }
}

/// Multiply-rotate hashing of 64-bit words (FxHash style).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointHasher(u64);

impl std::hash::Hasher for PointHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The hash key of a point (its coordinates' bits).
pub(crate) fn point_key(p: Point) -> (u64, u64) {
    // +0.0 and -0.0 are one point.
    ((p.x + 0.0).to_bits(), (p.y + 0.0).to_bits())
}
