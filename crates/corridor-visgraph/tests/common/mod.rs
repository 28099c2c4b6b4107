//! Closed forms shared by the tests of the round body's planners.

use corridor_geom::Point;

/// The exact shortest path for a disk of radius `r` from (5, 10) over the top of the
/// wall [9, 11] × [5, 15] to (15, 10): two tangents, two arcs round the top corners and
/// the straight piece between them.
pub fn exact_over_the_wall(r: f64) -> f64 {
    let (s, corner) = (Point::new(5.0, 10.0), Point::new(9.0, 15.0));
    let v = s - corner;
    let d = v.length();
    let tangent = (d * d - r * r).sqrt();
    let to_up = (v.dot(Point::Y) / d).acos();
    let arc = to_up - (r / d).acos();
    2.0 * (tangent + r * arc) + 2.0
}
