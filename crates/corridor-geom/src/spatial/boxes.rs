//! What is the box of two boxes, and do two boxes meet? Axis-aligned boxes as plain
//! `[min x, min y, max x, max y]` arrays, the form [`PackedTree`](crate::PackedTree) and
//! [`LogIndex`](crate::LogIndex) store (four `f64` in a row, no `Option`, cheap to copy
//! and compare in their hot loops); [`Aabb`](crate::Aabb) is the named-corner box of the
//! rest of the kernel.

/// The box that holds nothing (`union` with it gives the other box).
pub const EMPTY_BOX: [f64; 4] = [
    f64::INFINITY,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NEG_INFINITY,
];

/// The box of two boxes `[min x, min y, max x, max y]`.
#[inline]
pub fn union(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    [
        a[0].min(b[0]),
        a[1].min(b[1]),
        a[2].max(b[2]),
        a[3].max(b[3]),
    ]
}

/// [`union`] of two boxes without NaN coordinates, by comparisons (`min`/`max` with their
/// NaN fix-ups cost about three times the instructions): the same box, except that of two
/// equal zeros it may keep the other sign, which no comparison sees.
#[inline]
pub fn union_of_numbers(mut a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    for k in 0..2 {
        if b[k] < a[k] {
            a[k] = b[k];
        }
        if b[k + 2] > a[k + 2] {
            a[k + 2] = b[k + 2];
        }
    }
    a
}

/// Whether two closed boxes `[min x, min y, max x, max y]` share a point.
#[inline]
pub fn boxes_meet(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}
