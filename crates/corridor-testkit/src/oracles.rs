//! Second constructions the library's algorithms are tested against: the convex hull by
//! Jarvis's march (gift wrapping), O(n h) for h hull vertices.

use corridor_geom::{orient, Orientation, Point};

/// The convex hull of a point set by Jarvis's march: from the lowest-leftmost point,
/// repeatedly wrap to the point with every other point on its left.
///
/// Same result as [`corridor_geom::convex_hull`] (Andrew's monotone chain): counter-clockwise
/// from the point smallest in (x, y) order, without collinear points on its edges and
/// without repeating the first vertex; fewer than three distinct non-collinear points
/// give the distinct extreme points. Exact orientation tests; O(n h).
///
/// ```
/// use corridor_geom::{convex_hull, Point};
/// use corridor_testkit::oracles::convex_hull_jarvis;
/// let pts = [(0., 0.), (2., 0.), (1., 1.), (2., 2.), (0., 2.), (1., 0.)]
///     .map(|(x, y)| Point::new(x, y));
/// assert_eq!(convex_hull_jarvis(&pts), convex_hull(&pts));
/// ```
pub fn convex_hull_jarvis(points: &[Point]) -> Vec<Point> {
    let mut pts: Vec<Point> = points.iter().copied().filter(|p| p.is_finite()).collect();
    pts.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let start = pts[0];
    let mut hull = vec![start];
    let mut p = start;
    loop {
        let mut q = if pts[0] != p { pts[0] } else { pts[1] };
        for &r in &pts {
            if r == p || r == q {
                continue;
            }
            match orient(p, q, r) {
                Orientation::Clockwise => q = r,
                // On the same ray from p (p is a hull vertex): keep the farther one, so
                // that points inside hull edges are skipped.
                Orientation::Collinear if farther(p, q, r) => q = r,
                _ => {}
            }
        }
        if q == start || hull.len() > pts.len() {
            break;
        }
        hull.push(q);
        p = q;
    }
    hull
}

/// Whether `r` lies farther from `p` than `q` does, for `q` and `r` on one ray from `p`.
fn farther(p: Point, q: Point, r: Point) -> bool {
    if q.x != p.x {
        (r.x > q.x) == (q.x > p.x) && r.x != q.x
    } else {
        (r.y > q.y) == (q.y > p.y) && r.y != q.y
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use corridor_geom::convex_hull;
    use rand::{Rng, SeedableRng};

    #[test]
    fn agrees_with_andrews_monotone_chain() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for case in 0..3000 {
            let n = rng.random_range(0..40);
            // Small integer grids give many collinear and repeated points.
            let side = if case % 3 == 0 { 3 } else { 12 };
            let mut pts: Vec<Point> = (0..n)
                .map(|_| {
                    Point::new(
                        rng.random_range(0..side) as f64,
                        rng.random_range(0..side) as f64,
                    )
                })
                .collect();
            if case % 7 == 0 {
                // All on one line.
                pts = (0..n)
                    .map(|_| {
                        let t = rng.random_range(0..10) as f64;
                        Point::new(t, 2.0 * t - 1.0)
                    })
                    .collect();
            }
            if case % 5 == 0 {
                pts.extend(
                    (0..n).map(|_| {
                        Point::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0))
                    }),
                );
            }
            assert_eq!(
                convex_hull_jarvis(&pts),
                convex_hull(&pts),
                "case {case}: {pts:?}"
            );
        }
    }

    #[test]
    fn small_inputs() {
        let p = |x: f64, y: f64| Point::new(x, y);
        assert!(convex_hull_jarvis(&[]).is_empty());
        assert_eq!(convex_hull_jarvis(&[p(1., 1.), p(1., 1.)]), vec![p(1., 1.)]);
        assert_eq!(
            convex_hull_jarvis(&[p(2., 0.), p(0., 0.), p(1., 0.)]),
            vec![p(0., 0.), p(2., 0.)]
        );
        let hull = convex_hull_jarvis(&[p(0., 0.), p(4., 0.), p(0., 3.), p(1., 1.), p(2., 0.)]);
        assert_eq!(hull, vec![p(0., 0.), p(4., 0.), p(0., 3.)]);
    }
}
