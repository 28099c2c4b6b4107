//! Exact predicates: orientation, segment intersection, point on segment.

use crate::{GridPoint, Point};

/// The turn made by three points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// `c` lies to the left of the directed line `a → b`.
    CounterClockwise,
    /// `c` lies to the right of the directed line `a → b`.
    Clockwise,
    /// The three points lie on one line.
    Collinear,
}

impl Orientation {
    fn from_sign(sign: f64) -> Self {
        if sign > 0.0 {
            Orientation::CounterClockwise
        } else if sign < 0.0 {
            Orientation::Clockwise
        } else {
            Orientation::Collinear
        }
    }
}

/// Exact orientation of `c` relative to the directed line `a → b` (Shewchuk's adaptive
/// predicate, so the answer is right for every finite input, not just most).
///
/// ```
/// use corridor_geom::{orient, Orientation, Point};
/// let (a, b) = (Point::new(0.0, 0.0), Point::new(1.0, 1.0));
/// assert_eq!(orient(a, b, Point::new(0.3, 0.3)), Orientation::Collinear);
/// assert_eq!(orient(a, b, Point::new(0.0, 1.0)), Orientation::CounterClockwise);
/// ```
///
/// Shewchuk's stage-A filter decides almost every call with one rounded determinant and
/// its error bound, inlined into the caller (the planners and the visibility sweep make
/// millions of these tests, and a call cost more than the filter); only the undecided
/// rest pays for the call and the adaptive arithmetic. The answer is exact either way.
#[inline]
pub fn orient(a: Point, b: Point, c: Point) -> Orientation {
    // Shewchuk's ccwerrboundA = (3 + 16ε)ε with ε = 2⁻⁵³.
    const BOUND: f64 = 3.330_669_073_875_471_6e-16;
    let left = (a.x - c.x) * (b.y - c.y);
    let right = (a.y - c.y) * (b.x - c.x);
    let det = left - right;
    let bound = BOUND * (left.abs() + right.abs());
    if det > bound {
        Orientation::CounterClockwise
    } else if -det > bound {
        Orientation::Clockwise
    } else {
        orient_adaptive(a, b, c)
    }
}

/// [`orient`] without the filter: the `robust` crate's adaptive predicate.
#[inline(never)]
fn orient_adaptive(a: Point, b: Point, c: Point) -> Orientation {
    let coord = |p: Point| robust::Coord { x: p.x, y: p.y };
    Orientation::from_sign(robust::orient2d(coord(a), coord(b), coord(c)))
}

/// Exact orientation on grid points (integer arithmetic, no rounding at all).
///
/// ```
/// use corridor_geom::{orient_grid, GridPoint, Orientation};
/// let o = orient_grid(GridPoint::new(0, 0), GridPoint::new(10, 0), GridPoint::new(3, -1));
/// assert_eq!(o, Orientation::Clockwise);
/// ```
pub fn orient_grid(a: GridPoint, b: GridPoint, c: GridPoint) -> Orientation {
    let cross = (b.x as i64 - a.x as i64) as i128 * (c.y as i64 - a.y as i64) as i128
        - (b.y as i64 - a.y as i64) as i128 * (c.x as i64 - a.x as i64) as i128;
    match cross.signum() {
        1 => Orientation::CounterClockwise,
        -1 => Orientation::Clockwise,
        _ => Orientation::Collinear,
    }
}

/// Whether `p` lies on the closed segment `a b` (exact).
///
/// ```
/// use corridor_geom::{point_on_segment, Point};
/// assert!(point_on_segment(Point::new(0.5, 0.5), Point::ZERO, Point::ONE));
/// assert!(!point_on_segment(Point::new(1.5, 1.5), Point::ZERO, Point::ONE));
/// ```
pub fn point_on_segment(p: Point, a: Point, b: Point) -> bool {
    orient(a, b, p) == Orientation::Collinear && within_box(p, a, b)
}

fn within_box(p: Point, a: Point, b: Point) -> bool {
    p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y)
}

/// Whether the closed segments `a b` and `c d` share at least one point (exact; touching
/// at an endpoint and overlapping collinear segments count).
///
/// ```
/// use corridor_geom::{segments_intersect, Point};
/// let p = |x, y| Point::new(x, y);
/// assert!(segments_intersect(p(0., 0.), p(2., 2.), p(0., 2.), p(2., 0.)));
/// assert!(segments_intersect(p(0., 0.), p(1., 0.), p(1., 0.), p(2., 5.)));
/// assert!(!segments_intersect(p(0., 0.), p(1., 0.), p(0., 1.), p(1., 1.)));
/// ```
pub fn segments_intersect(a: Point, b: Point, c: Point, d: Point) -> bool {
    intersect_by(
        orient(a, b, c),
        orient(a, b, d),
        orient(c, d, a),
        orient(c, d, b),
        || within_box(c, a, b) || within_box(d, a, b) || within_box(a, c, d) || within_box(b, c, d),
    )
}

/// [`segments_intersect`] on grid points, in exact integer arithmetic.
pub fn segments_intersect_grid(a: GridPoint, b: GridPoint, c: GridPoint, d: GridPoint) -> bool {
    let inside = |p: GridPoint, s: GridPoint, t: GridPoint| {
        p.x >= s.x.min(t.x) && p.x <= s.x.max(t.x) && p.y >= s.y.min(t.y) && p.y <= s.y.max(t.y)
    };
    intersect_by(
        orient_grid(a, b, c),
        orient_grid(a, b, d),
        orient_grid(c, d, a),
        orient_grid(c, d, b),
        || inside(c, a, b) || inside(d, a, b) || inside(a, c, d) || inside(b, c, d),
    )
}

fn intersect_by(
    abc: Orientation,
    abd: Orientation,
    cda: Orientation,
    cdb: Orientation,
    collinear_overlap: impl FnOnce() -> bool,
) -> bool {
    use Orientation::Collinear;
    if abc == Collinear && abd == Collinear && cda == Collinear && cdb == Collinear {
        // All four points on one line: they meet iff the boxes overlap. (Checking both
        // pairs matters when a segment is a single point: `a == b` makes `abc` and `abd`
        // collinear for any `c`, `d`.)
        return collinear_overlap();
    }
    let straddles = |o1: Orientation, o2: Orientation| o1 != o2 || o1 == Collinear;
    if !(straddles(abc, abd) && straddles(cda, cdb)) {
        return false;
    }
    // Not all collinear: the supporting lines meet in one point, and the straddle tests
    // on both pairs put that point within both segments (a zero orientation means an
    // endpoint is that point).
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn filtered_orient_agrees_with_the_adaptive_predicate() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..200_000 {
            // Nearly collinear triples, where the filter must hand over.
            let a = Point::new(rng.random_range(-1e3..1e3), rng.random_range(-1e3..1e3));
            let b = Point::new(rng.random_range(-1e3..1e3), rng.random_range(-1e3..1e3));
            let t: f64 = rng.random_range(-2.0..2.0);
            let mut c = a + (b - a) * t;
            if rng.random_bool(0.5) {
                c.x = f64::from_bits(c.x.to_bits().wrapping_add(rng.random_range(0..3)));
            }
            assert_eq!(orient(a, b, c), orient_adaptive(a, b, c));
            let c = Point::new(rng.random_range(-1e3..1e3), rng.random_range(-1e3..1e3));
            assert_eq!(orient(a, b, c), orient_adaptive(a, b, c));
        }
    }
}
