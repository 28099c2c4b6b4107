//! Axis-aligned boxes `[min x, min y, max x, max y]`: the empty box, unions and overlap.

/// The box that holds nothing (`union` with it gives the other box).
pub(crate) const EMPTY_BOX: [f64; 4] = [
    f64::INFINITY,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NEG_INFINITY,
];

/// The box of two boxes `[min x, min y, max x, max y]`.
pub(crate) fn union(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
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
pub(crate) fn union_of_numbers(mut a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
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
pub(crate) fn boxes_meet(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}
