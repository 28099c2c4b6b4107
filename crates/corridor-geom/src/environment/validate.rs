//! Is an environment usable? [`Environment::validate`](super::Environment::validate):
//! finite coordinates on the snap grid, simple rings, holes inside their polygons.

use super::{Environment, EnvironmentError, Obstacle, Owner};
use crate::polygon::{RingLocator, SweepScratch};
use crate::{Aabb, Point, Polygon, Ring};

impl Environment {
    /// Checks everything the planners rely on; the first problem found is returned.
    pub fn validate(&self) -> Result<(), EnvironmentError> {
        // One set of sweep buffers for every ring.
        let mut scratch = SweepScratch::default();
        self.validate_ring(Owner::Boundary, 0, &self.boundary, &mut scratch)?;
        let bounds = self.bounds();
        for (id, obstacle) in self.obstacles() {
            let owner = Owner::Obstacle(id);
            self.validate_obstacle(owner, obstacle, &mut scratch)?;
            if !self.touches_boundary_region(obstacle, &bounds) {
                return Err(EnvironmentError::OutsideBoundary { owner });
            }
        }
        Ok(())
    }

    /// Validates one obstacle on its own (as an update would before inserting it).
    pub fn validate_obstacle_geometry(&self, obstacle: &Obstacle) -> Result<(), EnvironmentError> {
        self.validate_obstacle(
            Owner::Obstacle(self.next_id()),
            obstacle,
            &mut SweepScratch::default(),
        )
    }

    fn validate_obstacle(
        &self,
        owner: Owner,
        obstacle: &Obstacle,
        scratch: &mut SweepScratch,
    ) -> Result<(), EnvironmentError> {
        self.check_coordinates(owner, obstacle.points())?;
        match obstacle {
            Obstacle::Point(_) => Ok(()),
            Obstacle::Polyline(points) if points.len() < 2 => Err(EnvironmentError::TooFewPoints {
                owner,
                count: points.len(),
            }),
            Obstacle::Polyline(_) => Ok(()),
            Obstacle::Polygon(poly) => {
                // The coordinates were all checked above.
                for (ring_index, ring) in poly.rings().enumerate() {
                    validate_ring_shape(owner, ring_index, ring, scratch)?;
                }
                match first_hole_outside(poly) {
                    Some(h) => Err(EnvironmentError::HoleOutside { owner, hole: h + 1 }),
                    None => Ok(()),
                }
            }
        }
    }

    fn validate_ring(
        &self,
        owner: Owner,
        ring_index: usize,
        ring: &Ring,
        scratch: &mut SweepScratch,
    ) -> Result<(), EnvironmentError> {
        self.check_coordinates(owner, ring.vertices().iter().copied())?;
        validate_ring_shape(owner, ring_index, ring, scratch)
    }

    /// [`Self::check_coordinate`] of every point, the first error in the given order.
    ///
    /// One pass first takes the extreme coordinates of finite points: snapping rounds
    /// `coordinate × scale`, which is monotone in the coordinate (non-decreasing for a
    /// positive scale, non-increasing for a negative one), so when the corners `lo` and
    /// `hi` of the points' box both snap, every point between them does. Otherwise (a
    /// non-finite point, a corner out of range) the points are checked one by one, as
    /// before, to name the first that fails.
    fn check_coordinates<I>(&self, owner: Owner, points: I) -> Result<(), EnvironmentError>
    where
        I: Iterator<Item = Point> + Clone,
    {
        let (mut lo, mut hi) = (Point::splat(f64::INFINITY), Point::splat(f64::NEG_INFINITY));
        let mut finite = true;
        for p in points.clone() {
            finite &= p.is_finite();
            lo = lo.min(p);
            hi = hi.max(p);
        }
        if finite && (lo.x > hi.x || (self.snap.snap(lo).is_ok() && self.snap.snap(hi).is_ok())) {
            return Ok(());
        }
        for p in points {
            self.check_coordinate(owner, p)?;
        }
        Ok(())
    }

    fn check_coordinate(&self, owner: Owner, p: Point) -> Result<(), EnvironmentError> {
        if !p.is_finite() {
            return Err(EnvironmentError::NonFinite {
                owner,
                x: p.x,
                y: p.y,
            });
        }
        self.snap
            .snap(p)
            .map(|_| ())
            .map_err(|source| EnvironmentError::Snap { owner, source })
    }

    /// Whether any part of the obstacle may lie inside or on the boundary: some vertex is
    /// inside, or some obstacle edge meets a boundary edge, or (for polygons) the boundary
    /// lies inside the obstacle.
    fn touches_boundary_region(&self, obstacle: &Obstacle, bounds: &Aabb) -> bool {
        match obstacle.aabb() {
            Some(b) if b.intersects(bounds) => {}
            _ => return false,
        }
        if obstacle
            .points()
            .any(|p| self.boundary.contains_or_touches(p))
        {
            return true;
        }
        let edges: Vec<crate::Segment> = match obstacle {
            Obstacle::Point(_) => return false,
            Obstacle::Polyline(v) => v
                .windows(2)
                .map(|w| crate::Segment::new(w[0], w[1]))
                .collect(),
            Obstacle::Polygon(poly) => poly.edges().collect(),
        };
        if edges
            .iter()
            .any(|e| self.boundary.edges().any(|b| e.intersects(&b)))
        {
            return true;
        }
        matches!(obstacle, Obstacle::Polygon(poly) if poly.contains(self.boundary.vertices()[0]))
    }
}

/// At least three distinct vertices and no self-intersection (coordinates not checked).
fn validate_ring_shape(
    owner: Owner,
    ring_index: usize,
    ring: &Ring,
    scratch: &mut SweepScratch,
) -> Result<(), EnvironmentError> {
    let distinct = ring.distinct_vertex_count_up_to(3);
    if distinct < 3 {
        return Err(EnvironmentError::TooFewVertices {
            owner,
            ring: ring_index,
            distinct,
        });
    }
    if let Some(x) = ring.find_self_intersection_in(scratch) {
        return Err(EnvironmentError::SelfIntersecting {
            owner,
            ring: ring_index,
            first_edge: x.first_edge,
            second_edge: x.second_edge,
        });
    }
    Ok(())
}

/// The index of the first hole with a vertex outside the exterior ring (on it is inside).
/// Large polygons query a [`RingLocator`] (each vertex looks at one row of exterior edges,
/// not the whole ring); small ones, and vertices outside the exterior's bounding box, need
/// no index.
fn first_hole_outside(poly: &Polygon) -> Option<usize> {
    let hole_vertices: usize = poly.holes.iter().map(Ring::len).sum();
    if hole_vertices == 0 {
        return None;
    }
    if hole_vertices.saturating_mul(poly.exterior.len()) <= 256 {
        return poly.holes.iter().position(|hole| {
            !hole
                .vertices()
                .iter()
                .all(|&p| poly.exterior.contains_or_touches(p))
        });
    }
    let Some(locator) = RingLocator::new(&poly.exterior) else {
        return Some(0); // an empty exterior contains nothing
    };
    poly.holes.iter().position(|hole| {
        !hole
            .vertices()
            .iter()
            .all(|&p| locator.contains_or_touches(p))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ObstacleId, SnapGrid};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The check as it was before the row index: every hole vertex against every edge.
    fn first_hole_outside_brute(poly: &Polygon) -> Option<usize> {
        poly.holes.iter().position(|hole| {
            !hole
                .vertices()
                .iter()
                .all(|&p| poly.exterior.contains_or_touches(p))
        })
    }

    /// A star-shaped ring around `c` on integer coordinates, or a staircase-like
    /// rectilinear one (many horizontal edges, many vertices at equal heights).
    fn random_ring(rng: &mut ChaCha8Rng, c: Point, radius: f64, n: usize) -> Ring {
        if rng.random_bool(0.3) {
            // Rectilinear: a monotone staircase up the right side, then back down the left.
            let h = n.max(4) / 2;
            let mut right = Vec::new();
            let mut left = Vec::new();
            let step = (2.0 * radius / h as f64).max(1.0).round();
            for k in 0..h {
                let y0 = c.y - radius + step * k as f64;
                let xr = c.x + rng.random_range(1..=radius.max(2.0) as i64) as f64;
                let xl = c.x - rng.random_range(1..=radius.max(2.0) as i64) as f64;
                right.push(Point::new(xr, y0));
                right.push(Point::new(xr, y0 + step));
                left.push(Point::new(xl, y0));
                left.push(Point::new(xl, y0 + step));
            }
            left.reverse();
            right.extend(left);
            right.dedup();
            return Ring::new(right);
        }
        let mut angles: Vec<f64> = (0..n)
            .map(|_| rng.random_range(0.0..std::f64::consts::TAU))
            .collect();
        angles.sort_by(f64::total_cmp);
        let mut v: Vec<Point> = angles
            .iter()
            .map(|&a| {
                let r = rng.random_range(0.2..1.0) * radius;
                Point::new((c.x + r * a.cos()).round(), (c.y + r * a.sin()).round())
            })
            .collect();
        v.dedup();
        Ring::new(v)
    }

    /// Points that stress the exact tests: the ring's own vertices, midpoints of its edges,
    /// lattice points in and around its box, and far-away points.
    fn probe_points(rng: &mut ChaCha8Rng, ring: &Ring, count: usize) -> Vec<Point> {
        let b = ring.aabb().unwrap();
        let mut out: Vec<Point> = ring.vertices().to_vec();
        out.extend(ring.edges().map(|e| (e.a + e.b) * 0.5));
        for _ in 0..count {
            let x = rng.random_range(b.min.x - 2.0..=b.max.x + 2.0).round();
            let y = rng.random_range(b.min.y - 2.0..=b.max.y + 2.0).round();
            out.push(Point::new(x, y));
        }
        out.push(Point::new(b.max.x + 1e9, b.min.y));
        out.push(Point::new(b.min.x, b.max.y + 1e9));
        out
    }

    /// The box check of coordinates returns what checking each point in turn returns:
    /// the first failing point (non-finite, or out of the snap range on either side,
    /// at several scales), or none.
    #[test]
    fn coordinate_box_check_matches_the_point_by_point_check() {
        let mut rng = ChaCha8Rng::seed_from_u64(20);
        let specials = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -0.0,
            0.0,
            f64::MAX,
            -f64::MAX,
        ];
        let mut oks = 0;
        for case in 0..4000 {
            let scale = [1.0, 3.0, 1024.0, 1e-3, 7e8][case % 5];
            let env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0))
                .with_snap_grid(SnapGrid::new(scale).unwrap());
            let limit = env.snap_grid().limit();
            let n = rng.random_range(0..12);
            let points: Vec<Point> = (0..n)
                .map(|_| {
                    // Half the cases near the edge of the range, half well inside.
                    let wild = case % 2 == 0;
                    let mut coordinate = || match rng.random_range(if wild { 0 } else { 3 }..10) {
                        0 => specials[rng.random_range(0..specials.len())],
                        // At the edge of the range: rounding decides.
                        1 | 2 => {
                            let edge = limit + rng.random_range(-2.0..2.0) / scale;
                            if rng.random_bool(0.5) {
                                edge
                            } else {
                                -edge
                            }
                        }
                        _ => rng.random_range(-limit..limit),
                    };
                    Point::new(coordinate(), coordinate())
                })
                .collect();
            let owner = Owner::Obstacle(ObstacleId(7));
            let one_by_one = points
                .iter()
                .try_for_each(|&p| env.check_coordinate(owner, p));
            let boxed = env.check_coordinates(owner, points.iter().copied());
            // By their text: a NaN coordinate in an error is not equal to itself.
            oks += usize::from(boxed.is_ok());
            assert_eq!(
                format!("{boxed:?}"),
                format!("{one_by_one:?}"),
                "case {case}: {points:?}"
            );
        }
        assert!((1000..3000).contains(&oks), "{oks} cases pass");
    }

    #[test]
    fn ring_locator_matches_the_full_scan() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for case in 0..400 {
            let n = rng.random_range(3..400);
            let radius = [4.0, 30.0, 1000.0, 1e6][case % 4];
            let ring = random_ring(&mut rng, Point::ZERO, radius, n);
            if ring.len() < 3 || ring.find_self_intersection().is_some() {
                continue;
            }
            let locator = RingLocator::new(&ring).unwrap();
            for p in probe_points(&mut rng, &ring, 200) {
                assert_eq!(
                    locator.contains_or_touches(p),
                    ring.contains_or_touches(p),
                    "case {case}: {p:?} against {:?}",
                    ring.vertices()
                );
            }
        }
    }

    #[test]
    fn hole_check_matches_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let (mut outside, mut inside) = (0, 0);
        for case in 0..600 {
            let radius = [20.0, 200.0, 5000.0][case % 3];
            let n = rng.random_range(3..300);
            let exterior = random_ring(&mut rng, Point::ZERO, radius, n);
            if exterior.len() < 3 {
                continue;
            }
            let probes = probe_points(&mut rng, &exterior, 40);
            let interior: Vec<Point> = probes
                .iter()
                .copied()
                .filter(|&p| exterior.contains(p))
                .collect();
            let holes: Vec<Ring> = (0..rng.random_range(1..5))
                .map(|_| match rng.random_range(0..4) {
                    // A small ring around a probe point: inside, outside, or crossing.
                    0 | 1 => {
                        let c = if interior.is_empty() || rng.random_bool(0.3) {
                            probes[rng.random_range(0..probes.len())]
                        } else {
                            interior[rng.random_range(0..interior.len())]
                        };
                        let m = rng.random_range(3..12);
                        let r = radius * rng.random_range(0.005..0.2);
                        random_ring(&mut rng, c, r, m)
                    }
                    // Vertices on the exterior (its vertices and edge midpoints): touching.
                    2 => {
                        let mut v: Vec<Point> = (0..rng.random_range(3..6))
                            .map(|_| probes[rng.random_range(0..2 * exterior.len())])
                            .collect();
                        v.dedup();
                        Ring::new(v)
                    }
                    // A tiny triangle at a vertex of the exterior, pointing either way.
                    _ => {
                        let c = exterior.vertices()[rng.random_range(0..exterior.len())];
                        let d = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
                        Ring::new(vec![
                            c,
                            Point::new(c.x + d, c.y + 1.0),
                            Point::new(c.x - d, c.y + 1.0),
                        ])
                    }
                })
                .collect();
            let poly = Polygon::new(exterior, holes);
            let expected = first_hole_outside_brute(&poly);
            assert_eq!(first_hole_outside(&poly), expected, "case {case}");
            match expected {
                Some(_) => outside += 1,
                None => inside += 1,
            }
        }
        assert!(
            outside > 100 && inside > 100,
            "{outside} outside, {inside} inside"
        );
    }

    #[test]
    fn insert_never_overwrites_after_the_last_id() {
        let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
        let point = |x: f64| Obstacle::Point(Point::new(x, 1.0));
        env.insert_with_id(ObstacleId(1), point(1.0));
        env.insert_with_id(ObstacleId(u32::MAX), point(2.0));
        assert_eq!(env.next_id(), ObstacleId(u32::MAX));
        // The counter's id is taken: the smallest free ids follow, in order.
        let ids: Vec<ObstacleId> = (0..3).map(|k| env.insert(point(3.0 + k as f64))).collect();
        assert_eq!(ids, [ObstacleId(0), ObstacleId(2), ObstacleId(3)]);
        assert_eq!(env.obstacles().len(), 5);
        assert_eq!(env.obstacle(ObstacleId(u32::MAX)), Some(&point(2.0)));
        // Once the last id is free again, the counter's id is used.
        env.remove(ObstacleId(u32::MAX));
        assert_eq!(env.insert(point(9.0)), ObstacleId(u32::MAX));
    }

    #[test]
    fn distinct_count_up_to_a_limit() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for case in 0..4000 {
            // Limits on the stack buffer (up to 8) and beyond it.
            let (n, side, limit) = if case % 2 == 0 {
                (rng.random_range(0..7), 2, 3)
            } else {
                (rng.random_range(0..30), 4, rng.random_range(0..14))
            };
            let v: Vec<Point> = (0..n)
                .map(|_| {
                    Point::new(
                        rng.random_range(0..side) as f64,
                        rng.random_range(0..side) as f64,
                    )
                })
                .collect();
            let ring = Ring::new(v);
            assert_eq!(
                ring.distinct_vertex_count_up_to(limit),
                ring.distinct_vertex_count().min(limit)
            );
        }
    }

    #[test]
    fn hole_outside_names_the_obstacle() {
        let sq = |x0: f64, y0: f64, s: f64| {
            Ring::new(vec![
                Point::new(x0, y0),
                Point::new(x0 + s, y0),
                Point::new(x0 + s, y0 + s),
                Point::new(x0, y0 + s),
            ])
        };
        let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(100.0, 100.0));
        env.insert(Obstacle::Polygon(Polygon::new(
            sq(10.0, 10.0, 20.0),
            vec![sq(12.0, 12.0, 2.0)],
        )));
        // A comb exterior with many teeth, so the row index is used; the third hole sticks
        // out between two teeth, the first touches the exterior at a corner.
        let mut comb = vec![Point::new(40.0, 40.0), Point::new(90.0, 40.0)];
        for k in (0..25).rev() {
            let x = 40.0 + 2.0 * k as f64;
            comb.extend([
                Point::new(x + 2.0, 90.0),
                Point::new(x + 1.0, 90.0),
                Point::new(x + 1.0, 50.0),
                Point::new(x, 50.0),
            ]);
        }
        let comb = Ring::new(comb);
        assert!(comb.find_self_intersection().is_none());
        let sticking_out = Ring::new(vec![
            Point::new(45.0, 48.0),
            Point::new(48.0, 48.0),
            Point::new(46.5, 52.0),
        ]);
        let holes = vec![sq(40.0, 40.0, 3.0), sq(45.0, 45.0, 1.0), sticking_out];
        let id = env.insert(Obstacle::Polygon(Polygon::new(comb, holes)));
        let e = env.validate().unwrap_err();
        assert_eq!(
            e,
            EnvironmentError::HoleOutside {
                owner: Owner::Obstacle(id),
                hole: 3
            }
        );
        assert_eq!(
            e.to_string(),
            "obstacle #1: hole 3 is not inside the exterior ring"
        );
    }
}
