use crate::{orient, Orientation, Point};

/// The convex hull of a point set by Andrew's monotone chain, O(n log n).
///
/// Returns the hull's vertices counter-clockwise, starting at the lowest-leftmost point,
/// without collinear points on its edges and without repeating the first vertex. Fewer
/// than three distinct non-collinear points give the distinct extreme points.
///
/// ```
/// use corridor_geom::{convex_hull, Point};
/// let pts = [(0., 0.), (2., 0.), (1., 1.), (2., 2.), (0., 2.), (1., 0.)]
///     .map(|(x, y)| Point::new(x, y));
/// assert_eq!(convex_hull(&pts).len(), 4);
/// ```
pub fn convex_hull(points: &[Point]) -> Vec<Point> {
    let mut sorted: Vec<Point> = points.iter().copied().filter(|p| p.is_finite()).collect();
    sorted.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    sorted.dedup();
    if sorted.len() < 3 {
        return sorted;
    }
    let mut hull: Vec<Point> = Vec::with_capacity(sorted.len() + 1);
    let chain = |hull: &mut Vec<Point>, p: Point, floor: usize| {
        while hull.len() >= floor + 2
            && orient(hull[hull.len() - 2], hull[hull.len() - 1], p)
                != Orientation::CounterClockwise
        {
            hull.pop();
        }
        hull.push(p);
    };
    for &p in &sorted {
        chain(&mut hull, p, 0);
    }
    let lower_len = hull.len() - 1;
    for &p in sorted.iter().rev().skip(1) {
        chain(&mut hull, p, lower_len);
    }
    hull.pop();
    hull
}
