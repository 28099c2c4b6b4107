//! Seeded random environments, for property tests and benchmarks.
//!
//! Everything here is a pure function of the seed and the options: the generator is
//! ChaCha8 ([`rand_chacha`]) and the geometry uses only `+ − × ÷` and `sqrt`, which IEEE 754
//! rounds the same way on every platform (no `sin`/`cos`), so a seed names the same
//! environment everywhere.
//!
//! ```
//! use corridor_testkit::random::{random_environment, RandomEnvironmentOptions};
//! let options = RandomEnvironmentOptions { obstacles: 30, ..Default::default() };
//! let env = random_environment(7, &options);
//! assert_eq!(env.obstacles().count(), 30);
//! env.validate().unwrap();
//! assert_eq!(env, random_environment(7, &options));
//! ```

use corridor_geom::{Aabb, Environment, Obstacle, Point, Polygon, Ring, SnapGrid};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Relative weights of the obstacle kinds [`random_environment`] draws (they need not sum
/// to one; a zero weight disables a kind).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObstacleMix {
    /// Single points.
    pub points: f64,
    /// Single segments.
    pub segments: f64,
    /// Open polylines (random walks, may cross themselves).
    pub polylines: f64,
    /// Axis-aligned rectangles.
    pub rectangles: f64,
    /// Convex polygons.
    pub convex: f64,
    /// Star-shaped concave polygons ([`random_concave_polygon`]).
    pub star: f64,
    /// Jagged polygons whose radius follows a random walk ([`random_walk_polygon`]).
    pub random_walk: f64,
    /// Star-shaped polygons with a convex hole.
    pub with_hole: f64,
}

impl ObstacleMix {
    /// Every kind equally likely.
    pub const ALL: ObstacleMix = ObstacleMix {
        points: 1.0,
        segments: 1.0,
        polylines: 1.0,
        rectangles: 1.0,
        convex: 1.0,
        star: 1.0,
        random_walk: 1.0,
        with_hole: 1.0,
    };

    /// Polygons only (no points or polylines): what most maps contain.
    pub const POLYGONS: ObstacleMix = ObstacleMix {
        points: 0.0,
        segments: 0.0,
        polylines: 0.0,
        rectangles: 1.0,
        convex: 1.0,
        star: 1.0,
        random_walk: 1.0,
        with_hole: 0.5,
    };

    /// Rectangles only: with a lattice, the blocked cells of a grid map.
    pub const RECTANGLES: ObstacleMix = ObstacleMix {
        points: 0.0,
        segments: 0.0,
        polylines: 0.0,
        rectangles: 1.0,
        convex: 0.0,
        star: 0.0,
        random_walk: 0.0,
        with_hole: 0.0,
    };

    fn weights(&self) -> [f64; 8] {
        [
            self.points,
            self.segments,
            self.polylines,
            self.rectangles,
            self.convex,
            self.star,
            self.random_walk,
            self.with_hole,
        ]
    }
}

impl Default for ObstacleMix {
    fn default() -> Self {
        ObstacleMix::ALL
    }
}

/// The shape of the outer boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BoundaryShape {
    /// The square `[origin, origin + size]²`.
    #[default]
    Square,
    /// A star-shaped concave polygon inside that square.
    Star,
}

/// What [`random_environment`] generates. Lengths are in user units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomEnvironmentOptions {
    /// Number of obstacles.
    pub obstacles: usize,
    /// Lower-left corner of the boundary's bounding square.
    pub origin: Point,
    /// Side of the boundary's bounding square: small values stress snapping, large ones
    /// the integer range.
    pub size: f64,
    /// The boundary's shape.
    pub boundary: BoundaryShape,
    /// How likely each obstacle kind is.
    pub mix: ObstacleMix,
    /// Smallest obstacle radius, as a fraction of `size`.
    pub min_radius: f64,
    /// Largest obstacle radius, as a fraction of `size`.
    pub max_radius: f64,
    /// Most vertices of a polygon or polyline (at least 3 are used for polygons).
    pub max_vertices: usize,
    /// Probability that an obstacle is centred on the boundary, so it touches or crosses it.
    pub on_boundary: f64,
    /// When set, every coordinate is rounded to a multiple of this step, which makes
    /// obstacles share edges, touch at corners (diagonal pinches) and meet the boundary
    /// exactly. Polygons that rounding breaks are drawn again.
    pub lattice: Option<f64>,
    /// The environment's snap grid.
    pub snap: SnapGrid,
}

impl Default for RandomEnvironmentOptions {
    fn default() -> Self {
        RandomEnvironmentOptions {
            obstacles: 20,
            origin: Point::ZERO,
            size: 100.0,
            boundary: BoundaryShape::Square,
            mix: ObstacleMix::ALL,
            min_radius: 0.02,
            max_radius: 0.12,
            max_vertices: 12,
            on_boundary: 0.15,
            lattice: None,
            snap: SnapGrid::default(),
        }
    }
}

impl RandomEnvironmentOptions {
    /// A grid map: `cells × cells` unit cells, blocked blocks of 1–3 cells on the lattice
    /// (sharing edges and touching diagonally), in a square boundary.
    ///
    /// ```
    /// use corridor_testkit::random::{random_environment, RandomEnvironmentOptions};
    /// let env = random_environment(1, &RandomEnvironmentOptions::grid_map(16, 40));
    /// assert!(env.obstacles().all(|(_, o)| o.points().all(|p| p.x.fract() == 0.0)));
    /// ```
    pub fn grid_map(cells: usize, obstacles: usize) -> Self {
        RandomEnvironmentOptions {
            obstacles,
            size: cells as f64,
            mix: ObstacleMix::RECTANGLES,
            min_radius: 0.5 / cells.max(1) as f64,
            max_radius: 1.5 / cells.max(1) as f64,
            on_boundary: 0.1,
            lattice: Some(1.0),
            ..Default::default()
        }
    }

    /// The default mix scaled to a boundary of side `size` centred on `center`.
    pub fn scaled(size: f64, center: Point) -> Self {
        RandomEnvironmentOptions {
            origin: center - Point::splat(size / 2.0),
            size,
            ..Default::default()
        }
    }
}

/// A random environment: a deterministic function of `seed` and `options` (see the module
/// documentation). It passes [`Environment::validate`] whenever the boundary itself fits
/// the snap grid's range: obstacles that would not are drawn again.
///
/// ```
/// use corridor_testkit::random::{random_environment, BoundaryShape, ObstacleMix, RandomEnvironmentOptions};
/// use corridor_geom::normalize;
/// let options = RandomEnvironmentOptions {
///     obstacles: 12,
///     boundary: BoundaryShape::Star,
///     mix: ObstacleMix::POLYGONS,
///     ..Default::default()
/// };
/// let env = random_environment(3, &options);
/// let walls = normalize(&env).unwrap();
/// assert!(walls.free_area() > 0.0);
/// ```
pub fn random_environment(seed: u64, options: &RandomEnvironmentOptions) -> Environment {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let size = if options.size.is_finite() && options.size > 0.0 {
        options.size
    } else {
        1.0
    };
    let lattice = options.lattice.filter(|s| s.is_finite() && *s > 0.0);
    let round = |p: Point| match lattice {
        Some(step) => Point::new((p.x / step).round() * step, (p.y / step).round() * step),
        None => p,
    };
    let origin = options.origin;
    let center = origin + Point::splat(size / 2.0);
    let square = Ring::new(
        Aabb::new(origin, origin + Point::splat(size))
            .corners()
            .to_vec(),
    );
    let boundary = match options.boundary {
        BoundaryShape::Square => square,
        BoundaryShape::Star => {
            let mut ring = None;
            for _ in 0..16 {
                let r = star_polygon(&mut rng, center, size / 2.0, 12, 0.6);
                let r = Ring::new(r.vertices().iter().map(|&p| round(p)).collect());
                if r.find_self_intersection().is_none() && r.distinct_vertex_count() >= 3 {
                    ring = Some(r);
                    break;
                }
            }
            ring.unwrap_or(square)
        }
    };
    let mut env = Environment::new(boundary.clone()).with_snap_grid(options.snap);
    let mut probe = Environment::new(boundary).with_snap_grid(options.snap);
    let weights = options.mix.weights();
    let total: f64 = weights.iter().filter(|w| **w > 0.0).sum();
    let (min_r, max_r) = (
        options.min_radius.abs().min(options.max_radius.abs()) * size,
        options.max_radius.abs().max(options.min_radius.abs()) * size,
    );
    let max_vertices = options.max_vertices.max(3) as u32;
    while env.obstacles().count() < options.obstacles {
        let mut added = false;
        for _attempt in 0..32 {
            let c = if rng.random::<f64>() < options.on_boundary {
                point_on_ring(&mut rng, env.boundary())
            } else {
                point_inside(&mut rng, env.boundary(), center)
            };
            let c = round(c);
            let radius = min_r + (max_r - min_r) * rng.random::<f64>();
            let kind = pick(&mut rng, &weights, total);
            let vertices = rng.random_range(3..=max_vertices) as usize;
            let obstacle = match kind {
                0 => Obstacle::Point(c),
                1 => Obstacle::segment(c, round(c + direction(rng.random()) * 2.0 * radius)),
                2 => {
                    let mut points = vec![c];
                    for _ in 1..vertices.max(2) {
                        let last = points[points.len() - 1];
                        points.push(round(last + direction(rng.random()) * radius));
                    }
                    Obstacle::Polyline(points)
                }
                3 => {
                    let half = Point::new(
                        radius * (0.3 + 0.7 * rng.random::<f64>()),
                        radius * (0.3 + 0.7 * rng.random::<f64>()),
                    );
                    Obstacle::rectangle(round(c - half), round(c + half))
                }
                4 => Obstacle::Polygon(Polygon::simple(map_ring(
                    &random_convex_polygon(&mut rng, c, radius, vertices),
                    round,
                ))),
                5 => Obstacle::Polygon(Polygon::simple(map_ring(
                    &random_concave_polygon(&mut rng, c, radius, vertices),
                    round,
                ))),
                6 => Obstacle::Polygon(Polygon::simple(map_ring(
                    &random_walk_polygon(&mut rng, c, radius, vertices.max(6)),
                    round,
                ))),
                _ => {
                    let exterior = map_ring(&star_polygon(&mut rng, c, radius, 12, 0.7), round);
                    let hole_center = round(c + direction(rng.random()) * (0.1 * radius));
                    let hole = map_ring(
                        &random_convex_polygon(&mut rng, hole_center, 0.35 * radius, vertices),
                        round,
                    );
                    let inside = hole.vertices().iter().all(|&p| exterior.contains(p))
                        && !hole
                            .edges()
                            .any(|h| exterior.edges().any(|e| h.intersects(&e)));
                    let holes = if inside { vec![hole] } else { Vec::new() };
                    Obstacle::Polygon(Polygon::new(exterior, holes))
                }
            };
            // Validate the candidate alone (rounding can break a polygon, or leave an
            // obstacle centred on the boundary just outside it).
            let probe_id = probe.insert(obstacle);
            let valid = probe.validate().is_ok();
            let Some(obstacle) = probe.remove(probe_id) else {
                continue;
            };
            if !valid {
                continue;
            }
            env.insert(obstacle);
            added = true;
            break;
        }
        if !added {
            // Nothing valid fits (e.g. a lattice coarser than the obstacles): a point at
            // the centre does (the star boundary is star-shaped around it).
            let rounded = round(center);
            let at = if env.boundary().contains(rounded) {
                rounded
            } else {
                center
            };
            env.insert(Obstacle::Point(at));
        }
    }
    env
}

/// A star-shaped polygon around `center`: `vertices` directions in increasing angle, each
/// at a random distance between a quarter of `radius` and `radius`. Star-shaped rings
/// are simple by construction; with five or more vertices they are almost always concave.
///
/// ```
/// use corridor_testkit::random::random_concave_polygon;
/// use corridor_geom::Point;
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let ring = random_concave_polygon(&mut rng, Point::new(5.0, 5.0), 2.0, 9);
/// assert_eq!(ring.len(), 9);
/// assert!(ring.find_self_intersection().is_none());
/// assert!(ring.contains(Point::new(5.0, 5.0)));
/// ```
pub fn random_concave_polygon<R: Rng + ?Sized>(
    rng: &mut R,
    center: Point,
    radius: f64,
    vertices: usize,
) -> Ring {
    star_polygon(rng, center, radius, vertices, 0.25)
}

/// A convex polygon with `vertices` corners on the circle of `radius` around `center`.
///
/// ```
/// use corridor_testkit::random::random_convex_polygon;
/// use corridor_geom::{convex_hull, Point};
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
/// let ring = random_convex_polygon(&mut rng, Point::ZERO, 1.0, 7);
/// assert_eq!(convex_hull(ring.vertices()).len(), 7);
/// ```
pub fn random_convex_polygon<R: Rng + ?Sized>(
    rng: &mut R,
    center: Point,
    radius: f64,
    vertices: usize,
) -> Ring {
    let n = vertices.max(3);
    let directions = increasing_directions(rng, n);
    Ring::new(
        directions
            .into_iter()
            .map(|d| center + d * radius)
            .collect(),
    )
}

/// A jagged star-shaped polygon whose distance from `center` follows a bounded random walk
/// (each step changes it by up to 35 %, between a fifth of `radius` and `radius`).
///
/// ```
/// use corridor_testkit::random::random_walk_polygon;
/// use corridor_geom::Point;
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
/// let ring = random_walk_polygon(&mut rng, Point::ZERO, 10.0, 40);
/// assert!(ring.find_self_intersection().is_none());
/// ```
pub fn random_walk_polygon<R: Rng + ?Sized>(
    rng: &mut R,
    center: Point,
    radius: f64,
    vertices: usize,
) -> Ring {
    let n = vertices.max(3);
    let directions = increasing_directions(rng, n);
    let mut r = radius * (0.5 + 0.5 * rng.random::<f64>());
    let mut points = Vec::with_capacity(n);
    for d in directions {
        let step = 1.0 + 0.35 * (2.0 * rng.random::<f64>() - 1.0);
        r = (r * step).clamp(0.2 * radius, radius);
        points.push(center + d * r);
    }
    Ring::new(points)
}

fn star_polygon<R: Rng + ?Sized>(
    rng: &mut R,
    center: Point,
    radius: f64,
    vertices: usize,
    min_fraction: f64,
) -> Ring {
    let n = vertices.max(3);
    let directions = increasing_directions(rng, n);
    Ring::new(
        directions
            .into_iter()
            .map(|d| {
                center + d * (radius * (min_fraction + (1.0 - min_fraction) * rng.random::<f64>()))
            })
            .collect(),
    )
}

/// `n` unit vectors in strictly increasing angle, spread around the full turn
/// (stratified, so no two are close and no gap exceeds about two strata).
fn increasing_directions<R: Rng + ?Sized>(rng: &mut R, n: usize) -> Vec<Point> {
    let offset = rng.random::<f64>();
    (0..n)
        .map(|i| {
            let u = (i as f64 + 0.1 + 0.8 * rng.random::<f64>()) / n as f64;
            direction(u + offset)
        })
        .collect()
}

/// The unit vector at "angle" `u` turns (`u` is taken modulo 1), measured along the
/// perimeter of a square instead of a circle: monotone in `u` like an angle, but computed
/// without trigonometry, so the result is bit-for-bit the same on every platform.
fn direction(u: f64) -> Point {
    let t = (u - u.floor()) * 8.0;
    let p = if t < 2.0 {
        Point::new(1.0, t - 1.0)
    } else if t < 4.0 {
        Point::new(3.0 - t, 1.0)
    } else if t < 6.0 {
        Point::new(-1.0, 5.0 - t)
    } else {
        Point::new(t - 7.0, -1.0)
    };
    p / (p.x * p.x + p.y * p.y).sqrt()
}

fn map_ring(ring: &Ring, f: impl Fn(Point) -> Point) -> Ring {
    Ring::new(ring.vertices().iter().map(|&p| f(p)).collect())
}

fn pick<R: Rng + ?Sized>(rng: &mut R, weights: &[f64; 8], total: f64) -> usize {
    if total <= 0.0 {
        return 0;
    }
    let mut x = rng.random::<f64>() * total;
    for (i, &w) in weights.iter().enumerate() {
        if w > 0.0 {
            if x < w {
                return i;
            }
            x -= w;
        }
    }
    weights.iter().rposition(|&w| w > 0.0).unwrap_or(0)
}

/// A uniformly random point on the ring's boundary (by length).
fn point_on_ring<R: Rng + ?Sized>(rng: &mut R, ring: &Ring) -> Point {
    let total: f64 = ring.edges().map(|e| e.length()).sum();
    let mut x = rng.random::<f64>() * total;
    for e in ring.edges() {
        let l = e.length();
        if x <= l && l > 0.0 {
            return e.a + (e.b - e.a) * (x / l);
        }
        x -= l;
    }
    ring.vertices().first().copied().unwrap_or(Point::ZERO)
}

/// A uniformly random point inside the ring (rejection sampling in its box; `fallback`
/// if that keeps failing).
fn point_inside<R: Rng + ?Sized>(rng: &mut R, ring: &Ring, fallback: Point) -> Point {
    let Some(b) = ring.aabb() else {
        return fallback;
    };
    for _ in 0..64 {
        let p = b.min + (b.max - b.min) * Point::new(rng.random(), rng.random());
        if ring.contains(p) {
            return p;
        }
    }
    fallback
}

/// One random obstacle drawn like the obstacles of `options` (any kind of its mix,
/// possibly on the boundary); a point in the middle of the square in the rare case the
/// draw gives nothing.
///
/// ```
/// use corridor_testkit::random::{random_obstacle, RandomEnvironmentOptions};
/// let a = random_obstacle(7, &RandomEnvironmentOptions::default());
/// assert_eq!(a, random_obstacle(7, &RandomEnvironmentOptions::default()));
/// ```
pub fn random_obstacle(seed: u64, options: &RandomEnvironmentOptions) -> Obstacle {
    let one = RandomEnvironmentOptions {
        obstacles: 1,
        ..*options
    };
    let env = random_environment(seed, &one);
    let obstacle = env.obstacles().next().map(|(_, o)| o.clone());
    obstacle.unwrap_or(Obstacle::Point(
        options.origin + Point::splat(options.size / 2.0),
    ))
}
