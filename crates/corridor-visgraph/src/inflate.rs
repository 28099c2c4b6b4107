//! How much room does a round body need? Obstacles grown by its radius.
//!
//! A disk of radius `r` moves freely exactly where its centre stays at least `r` from
//! every obstacle and from the boundary: in the free space of the obstacles grown by `r`
//! (their Minkowski sum with the disk). The disk is replaced by the regular polygon with
//! [`INFLATE_SIDES`] sides *around* it (its edges touch the circle), so the grown
//! obstacles contain the true ones: a path found never comes closer than `r`.
//!
//! **Error bound.** The polygon reaches `r / cos(π / k)` from its centre at its corners,
//! so the grown obstacles exceed the true ones by at most `r (1 / cos(π / k) − 1)`
//! (about 0.48 % of `r` for k = 32), and a shortest path is at most as long as the
//! exact one for radius `r / cos(π / k)`. The union of the grown pieces is computed by
//! [`corridor_geom::normalize`], which snaps to the environment's grid (0.1 mm at the
//! default 10 000 steps per unit), adding at most half a grid step per coordinate.

use crate::BuildError;
use corridor_geom::{convex_hull, Environment, Obstacle, Point, Polygon, Ring};

/// Sides of the polygon standing in for the disk.
pub const INFLATE_SIDES: usize = 32;

/// The environment whose obstacles are those of `env` grown by `radius` (and whose
/// boundary keeps `radius` away from the outer walls): plan for a point in it to plan for
/// a disk in `env`. Polygons, thin walls and points all grow; the pieces overlap and are
/// unioned when the free space is built.
///
/// # Errors
/// [`BuildError::Environment`] when `env` is invalid or `radius` is negative or not
/// finite (reported as a non-finite coordinate).
///
/// ```
/// use corridor_geom::{Environment, Obstacle, Point};
/// use corridor_visgraph::{inflate_obstacles, VisibilityGraph};
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 4.0));
/// // A wall with a 1-wide gap between y = 2 and y = 3.
/// env.insert(Obstacle::rectangle(Point::new(5.0, 0.0), Point::new(6.0, 2.0)));
/// env.insert(Obstacle::rectangle(Point::new(5.0, 3.0), Point::new(6.0, 4.0)));
/// let (s, g) = (Point::new(1.0, 2.5), Point::new(9.0, 2.5));
/// let thin = VisibilityGraph::build(&inflate_obstacles(&env, 0.4).unwrap()).unwrap();
/// assert!(thin.shortest_path(s, g).is_ok());
/// let fat = VisibilityGraph::build(&inflate_obstacles(&env, 0.6).unwrap()).unwrap();
/// assert!(fat.shortest_path(s, g).is_err());
/// ```
pub fn inflate_obstacles(env: &Environment, radius: f64) -> Result<Environment, BuildError> {
    env.validate()?;
    if !(radius.is_finite() && radius >= 0.0) {
        return Err(BuildError::Environment(
            corridor_geom::EnvironmentError::NonFinite {
                owner: corridor_geom::Owner::Boundary,
                x: radius,
                y: radius,
            },
        ));
    }
    let mut out = env.clone();
    if radius == 0.0 {
        return Ok(out);
    }
    let k = INFLATE_SIDES;
    let corner = radius / (std::f64::consts::PI / k as f64).cos();
    let disk: Vec<Point> = (0..k)
        .map(|i| {
            let a = std::f64::consts::TAU * (i as f64 + 0.5) / k as f64;
            Point::new(a.cos(), a.sin()) * corner
        })
        .collect();
    let swept = |a: Point, b: Point| {
        let pts: Vec<Point> = disk.iter().flat_map(|&d| [a + d, b + d]).collect();
        Obstacle::Polygon(Polygon::simple(Ring::new(convex_hull(&pts))))
    };
    let mut grown = Vec::new();
    for (id, obstacle) in env.obstacles() {
        match obstacle {
            Obstacle::Point(p) => grown.push((id, swept(*p, *p))),
            Obstacle::Polyline(line) => {
                for w in line.windows(2) {
                    grown.push((id, swept(w[0], w[1])));
                }
            }
            Obstacle::Polygon(poly) => {
                for e in poly.edges() {
                    grown.push((id, swept(e.a, e.b)));
                }
            }
        }
    }
    for e in env.boundary().edges() {
        out.insert(swept(e.a, e.b));
    }
    for (_, obstacle) in grown {
        out.insert(obstacle);
    }
    Ok(out)
}
