//! The reference for layered visibility polygons, written without the ECM: the area seen
//! on each layer from a point, by an angular sweep over every wall end point of every
//! layer. Between two consecutive directions to such points (and eight fixed directions,
//! so that no gap reaches a half turn) nothing changes along the rays, so one ray in the
//! middle is walked: in its layer to the first wall it meets; where that point lies inside
//! a connection of the layer and the layer across is free beyond it, on in that layer (its
//! walls on the connection's line left out). Each stretch of the ray between two walls
//! sweeps a piece of area between the two walls' lines, summed per layer.
//!
//! The walls are snapped to the ECM's grid first (`corridor_geom::SnapGrid`, as
//! `layered_oracle::in_snapped_free_space` does), so the areas are those of the geometry
//! the ECM is built from.

use corridor_geom::{
    orient, LayerId, LayeredEnvironment, Obstacle, Orientation, Point, Segment, SnapGrid,
};
use std::f64::consts::{PI, TAU};

/// The walls and connections of a layered environment, snapped to the default grid.
pub struct LayeredSweep {
    /// Per layer, every wall segment.
    walls: Vec<Vec<Segment>>,
    /// (layers, segment, free side of each layer).
    connections: Vec<([LayerId; 2], Segment, [Orientation; 2])>,
    /// Every wall and connection end point.
    points: Vec<Point>,
}

impl LayeredSweep {
    /// The sweep of `world` (which should validate).
    ///
    /// ```
    /// use corridor_geom::{Environment, HeightPlane, Layer, LayeredEnvironment, Point, Segment};
    /// use corridor_testkit::layered_visibility_oracle::LayeredSweep;
    /// let mut world = LayeredEnvironment::new();
    /// let hall = world.add_layer(Layer::new("hall",
    ///     Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 4.0)), HeightPlane::flat(0.0)));
    /// let ramp = world.add_layer(Layer::new("ramp",
    ///     Environment::rectangle(Point::new(10.0, 0.0), Point::new(15.0, 4.0)), HeightPlane::flat(1.0)));
    /// world.connect(hall, ramp, Segment::new(Point::new(10.0, 1.0), Point::new(10.0, 3.0))).unwrap();
    /// let areas = LayeredSweep::new(&world).areas(hall, Point::new(8.0, 2.0));
    /// assert!((areas[0] - 40.0).abs() < 1e-9);
    /// // Through the doorway the cone widens from 2 at x = 10 to the ramp's 4 at x = 12:
    /// // a trapezoid of 6, then the rest of the ramp, 3 × 4.
    /// assert!((areas[1] - 18.0).abs() < 1e-9);
    /// ```
    pub fn new(world: &LayeredEnvironment) -> Self {
        let grid = SnapGrid::default();
        let snap = |p: Point| grid.snap(p).map_or(p, |g| grid.to_point(g));
        let mut walls = Vec::new();
        let mut points = Vec::new();
        for (_, layer) in world.layers() {
            let env = &layer.environment;
            let mut w: Vec<Segment> = env.boundary().edges().collect();
            for (_, o) in env.obstacles() {
                match o {
                    Obstacle::Polygon(poly) => w.extend(poly.edges()),
                    Obstacle::Polyline(v) => {
                        w.extend(v.windows(2).map(|p| Segment::new(p[0], p[1])))
                    }
                    Obstacle::Point(p) => w.push(Segment::new(*p, *p)),
                }
            }
            let w: Vec<Segment> = w
                .into_iter()
                .map(|s| Segment::new(snap(s.a), snap(s.b)))
                .collect();
            points.extend(w.iter().flat_map(|s| [s.a, s.b]));
            walls.push(w);
        }
        let connections = world
            .connections()
            .filter_map(|(id, c)| {
                let sides = [
                    world.free_side(id, c.layers[0]).ok()?,
                    world.free_side(id, c.layers[1]).ok()?,
                ];
                let s = Segment::new(snap(c.segment.a), snap(c.segment.b));
                Some((c.layers, s, sides))
            })
            .collect::<Vec<_>>();
        points.extend(connections.iter().flat_map(|c| [c.1.a, c.1.b]));
        points.sort_by(|a, b| (a.x, a.y).partial_cmp(&(b.x, b.y)).expect("finite"));
        points.dedup();
        LayeredSweep {
            walls,
            connections,
            points,
        }
    }

    /// The area seen from the free point `q` of layer `from` on each layer (indexed by
    /// layer id).
    pub fn areas(&self, from: LayerId, q: Point) -> Vec<f64> {
        self.areas_within(from, q, None, None)
    }

    /// The area seen from `q` on each layer within `range` of it (in the ground plane)
    /// and within the cone (a direction and its opening in radians), when given. The
    /// sweep then also stops at the cone's sides and where a wall or a connection crosses
    /// the range circle, so that between two directions each stretch of a ray lies wholly
    /// within the circle, wholly beyond it, or from within to beyond (a circular sector
    /// then bounds it).
    pub fn areas_within(
        &self,
        from: LayerId,
        q: Point,
        range: Option<f64>,
        cone: Option<(Point, f64)>,
    ) -> Vec<f64> {
        let at = |a: f64| (a, Point::new(a.cos(), a.sin()));
        let mut dirs: Vec<(f64, Point)> = self
            .points
            .iter()
            .filter(|&&p| p != q)
            .map(|&p| {
                let d = p - q;
                (d.y.atan2(d.x), d)
            })
            .chain((0..8).map(|i| at(i as f64 * TAU / 8.0 - PI)))
            .collect();
        let cone = cone.map(|(d, opening)| (d.y.atan2(d.x) - opening / 2.0, opening));
        if let Some((start, opening)) = cone {
            for a in [start, start + opening] {
                dirs.push(at((a + PI).rem_euclid(TAU) - PI));
            }
        }
        if let Some(r) = range {
            let segments = self
                .walls
                .iter()
                .flatten()
                .chain(self.connections.iter().map(|c| &c.1));
            for s in segments {
                dirs.extend(circle_crossings(q, r, *s).map(|p| {
                    let d = p - q;
                    (d.y.atan2(d.x), d)
                }));
            }
        }
        dirs.sort_by(|a, b| a.0.total_cmp(&b.0));
        dirs.dedup_by(|b, a| b.0 - a.0 < 1e-13);
        let mut areas = vec![0.0; self.walls.len()];
        for i in 0..dirs.len() {
            let (a1, d1) = dirs[i];
            let (mut a2, d2) = dirs[(i + 1) % dirs.len()];
            if i + 1 == dirs.len() {
                a2 += TAU;
            }
            if a2 - a1 < 1e-13 {
                continue;
            }
            let mid = (a1 + a2) * 0.5;
            if cone.is_some_and(|(start, opening)| (mid - start).rem_euclid(TAU) >= opening) {
                continue;
            }
            let m = Point::new(mid.cos(), mid.sin());
            for (layer, near, far) in self.stretches(from, q, m) {
                let sweep = |s: Segment| tri(q, hit(q, d1, s), hit(q, d2, s));
                let reach = |s: Segment| hit(q, m, s).distance(q);
                let near_area = near.map_or(0.0, sweep);
                areas[layer.0 as usize] += match range {
                    None => sweep(far) - near_area,
                    Some(r) if near.is_some_and(|s| reach(s) >= r) => 0.0,
                    Some(r) if reach(far) > r => 0.5 * r * r * (a2 - a1) - near_area,
                    Some(_) => sweep(far) - near_area,
                };
            }
        }
        areas
    }

    /// The stretches of the ray from `q` along `m`: (layer, the wall or connection it
    /// starts on, the wall it ends on).
    fn stretches(
        &self,
        from: LayerId,
        q: Point,
        m: Point,
    ) -> Vec<(LayerId, Option<Segment>, Segment)> {
        let mut out = Vec::new();
        let (mut layer, mut t0, mut entry) = (from, 0.0, None::<Segment>);
        for _ in 0..=self.connections.len() {
            let mut best: Option<(f64, Segment)> = None;
            for &w in &self.walls[layer.0 as usize] {
                if entry.is_some_and(|c| {
                    orient(c.a, c.b, w.a) == Orientation::Collinear
                        && orient(c.a, c.b, w.b) == Orientation::Collinear
                }) {
                    continue;
                }
                let e = w.b - w.a;
                let denom = m.perp_dot(e);
                if denom == 0.0 {
                    continue;
                }
                let t = (w.a - q).perp_dot(e) / denom;
                let s = (w.a - q).perp_dot(m) / denom;
                if (0.0..=1.0).contains(&s) && t > t0 && best.is_none_or(|(b, _)| t < b) {
                    best = Some((t, w));
                }
            }
            let Some((t, wall)) = best else {
                break;
            };
            out.push((layer, entry, wall));
            // Through a connection of this layer, inside it, towards the free side across.
            let through = self.connections.iter().find_map(|&(layers, c, sides)| {
                let k = layers.iter().position(|&l| l == layer)?;
                let e = c.b - c.a;
                let on_line = orient(c.a, c.b, wall.a) == Orientation::Collinear
                    && orient(c.a, c.b, wall.b) == Orientation::Collinear;
                let denom = m.perp_dot(e);
                if !on_line || denom == 0.0 {
                    return None;
                }
                let s = (c.a - q).perp_dot(m) / denom;
                let beyond = match orient(c.a, c.b, q) {
                    Orientation::Clockwise => Orientation::CounterClockwise,
                    Orientation::CounterClockwise => Orientation::Clockwise,
                    Orientation::Collinear => return None,
                };
                (s > 0.0 && s < 1.0 && sides[1 - k] == beyond).then_some((layers[1 - k], c))
            });
            let Some((next, c)) = through else {
                break;
            };
            (layer, t0, entry) = (next, t, Some(c));
        }
        out
    }
}

/// Where the ray from `q` along `d` meets the line of `s`.
fn hit(q: Point, d: Point, s: Segment) -> Point {
    let e = s.b - s.a;
    q + d * ((s.a - q).perp_dot(e) / d.perp_dot(e))
}

/// Where the segment `s` crosses the circle of radius `r` around `q`.
fn circle_crossings(q: Point, r: f64, s: Segment) -> impl Iterator<Item = Point> {
    let (d, f) = (s.b - s.a, s.a - q);
    let (a, b, c) = (d.dot(d), f.dot(d), f.dot(f) - r * r);
    let disc = b * b - a * c;
    let roots = if a > 0.0 && disc >= 0.0 {
        vec![(-b - disc.sqrt()) / a, (-b + disc.sqrt()) / a]
    } else {
        Vec::new()
    };
    roots
        .into_iter()
        .filter(|t| (0.0..=1.0).contains(t))
        .map(move |t| s.a + d * t)
}

/// The signed area of the triangle `q a b`.
fn tri(q: Point, a: Point, b: Point) -> f64 {
    0.5 * (a - q).perp_dot(b - q)
}
