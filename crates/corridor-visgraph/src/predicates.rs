//! How do three points turn? The exact orientation test with a fast first stage.
//!
//! Shewchuk's stage-A filter decides almost every call with one rounded determinant and
//! its error bound; only the undecided rest goes to the adaptive exact predicate of
//! [`corridor_geom::orient`]. The answer is exact either way. (Inlined here because the
//! sweep calls it in its innermost loops.)

use corridor_geom::{Orientation, Point};

/// Exact orientation of `c` relative to the directed line `a → b`.
#[inline]
pub(crate) fn orient(a: Point, b: Point, c: Point) -> Orientation {
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
        corridor_geom::orient(a, b, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn agrees_with_the_adaptive_predicate() {
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
            assert_eq!(orient(a, b, c), corridor_geom::orient(a, b, c));
            let c = Point::new(rng.random_range(-1e3..1e3), rng.random_range(-1e3..1e3));
            assert_eq!(orient(a, b, c), corridor_geom::orient(a, b, c));
        }
    }
}
