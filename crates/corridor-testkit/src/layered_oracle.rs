//! The reference for shortest paths of a point (radius 0) in a layered environment,
//! written without the ECM: a visibility graph over the vertices of every layer, where
//! whether one point sees another is decided by walking the segment between them through
//! connections.
//!
//! A walk starts in the first point's layer; each time the segment crosses one of the
//! current layer's connections from its free side it continues in the layer on the other
//! side; every piece must stay in the closed free space of the layer it is in (it may
//! touch walls, never cross one, and runs along a wall only with open free space on one
//! side, probed 10⁻⁷ units off; pieces stop 10⁻⁹ units short of the rounded crossing
//! points), and the walk must end in the second point's layer.
//! Nodes are every vertex of every layer (boundary, obstacles) and both endpoints of every
//! connection, the latter present in both layers with a zero-length link; Dijkstra's
//! algorithm then gives the shortest path. Distances are in the ground plane.

use corridor_geom::{
    orient, point_on_segment, Environment, LayerId, LayeredEnvironment, Obstacle, Orientation,
    Point, Ring, Segment, SnapGrid,
};
use rand::Rng;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A layer drawn uniformly and a point drawn uniformly in its environment's bounds: one
/// draw of the rejection sampling the layered tests do (each keeps drawing until the
/// point passes its own test of freeness and clearance).
///
/// ```
/// use rand::SeedableRng;
/// let world = corridor_io::scenes::layers();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let (layer, p) = corridor_testkit::layered_oracle::random_layer_point(&world, &mut rng);
/// let b = world.layer(layer).unwrap().environment.bounds();
/// assert!(b.min.x <= p.x && p.x <= b.max.x && b.min.y <= p.y && p.y <= b.max.y);
/// ```
pub fn random_layer_point<R: Rng + ?Sized>(
    world: &LayeredEnvironment,
    rng: &mut R,
) -> (LayerId, Point) {
    let layer = LayerId(rng.random_range(0..world.layer_count() as u32));
    let b = world
        .layer(layer)
        .expect("a layer drawn below the count")
        .environment
        .bounds();
    let p = Point::new(
        rng.random_range(b.min.x..b.max.x),
        rng.random_range(b.min.y..b.max.y),
    );
    (layer, p)
}

/// A point drawn as by [`random_layer_point`] until it is free by the ECM's (snapped)
/// rule and more than a grid step from the layer ECM's walls: snapping moves a wall by
/// at most half a grid diagonal (0.71 steps), so the point is also free in the exact
/// layer the oracles walk, and both agree on what it sees.
pub fn random_clear_layer_point<R: Rng + ?Sized>(
    world: &LayeredEnvironment,
    ecm: &corridor_ecm::LayeredEcm,
    rng: &mut R,
) -> (LayerId, Point) {
    let grid_step = 1.0 / SnapGrid::DEFAULT_SCALE;
    loop {
        let (layer, p) = random_layer_point(world, rng);
        let env = &world.layer(layer).expect("a drawn layer").environment;
        if in_snapped_free_space(env, SnapGrid::default(), p)
            && ecm.clearance(layer, p).is_ok_and(|c| c > grid_step)
        {
            return (layer, p);
        }
    }
}

/// Whether `p` lies in the closed free space of `env`: inside or on the boundary, not
/// strictly inside a polygon obstacle.
pub fn in_closed_free_space(env: &Environment, p: Point) -> bool {
    env.boundary().contains_or_touches(p)
        && !env.obstacles().any(|(_, o)| match o {
            Obstacle::Polygon(poly) => poly.contains(p),
            _ => false,
        })
}

/// [`in_closed_free_space`] by the ECM's rule: the ECM is built from the walls with every
/// vertex snapped to its grid (`corridor_geom::SnapGrid`, by default 10⁻⁴ units, see
/// corridor-geom's crate doc), so its free space is that of the snapped layer, and within
/// half a grid diagonal of a wall the two can differ. This snaps every vertex the same way
/// first, then decides exactly.
///
/// ```
/// use corridor_geom::{Environment, Obstacle, Point, SnapGrid};
/// use corridor_testkit::layered_oracle::{in_closed_free_space, in_snapped_free_space};
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(4.0, 4.0));
/// // A block whose west side x = 1.00004 snaps to x = 1.0.
/// env.insert(Obstacle::rectangle(Point::new(1.00004, 1.0), Point::new(2.0, 2.0)));
/// let p = Point::new(1.00002, 1.5);
/// assert!(in_closed_free_space(&env, p));
/// assert!(!in_snapped_free_space(&env, SnapGrid::default(), p));
/// ```
pub fn in_snapped_free_space(env: &Environment, grid: SnapGrid, p: Point) -> bool {
    let snap = |ring: &Ring| {
        Ring::new(
            ring.vertices()
                .iter()
                .map(|&v| grid.snap(v).map_or(v, |g| grid.to_point(g)))
                .collect(),
        )
    };
    snap(env.boundary()).contains_or_touches(p)
        && !env.obstacles().any(|(_, o)| match o {
            Obstacle::Polygon(poly) => {
                snap(&poly.exterior).contains(p)
                    && !poly.holes.iter().any(|h| snap(h).contains_or_touches(p))
            }
            _ => false,
        })
}

/// Every wall edge of a layer: boundary, polygon and polyline edges.
fn edges(env: &Environment) -> Vec<(Segment, bool)> {
    let mut out: Vec<(Segment, bool)> = env.boundary().edges().map(|e| (e, false)).collect();
    for (_, o) in env.obstacles() {
        match o {
            Obstacle::Polygon(poly) => out.extend(poly.edges().map(|e| (e, false))),
            Obstacle::Polyline(v) => {
                out.extend(v.windows(2).map(|w| (Segment::new(w[0], w[1]), true)))
            }
            Obstacle::Point(_) => {}
        }
    }
    out
}

fn properly_cross(s: Segment, e: Segment) -> bool {
    let (o1, o2) = (orient(s.a, s.b, e.a), orient(s.a, s.b, e.b));
    let (o3, o4) = (orient(e.a, e.b, s.a), orient(e.a, e.b, s.b));
    let opposite = |x: Orientation, y: Orientation| {
        matches!(
            (x, y),
            (Orientation::Clockwise, Orientation::CounterClockwise)
                | (Orientation::CounterClockwise, Orientation::Clockwise)
        )
    };
    opposite(o1, o2) && opposite(o3, o4)
}

/// Whether the segment `s` stays in the closed free space of `env`: it crosses no wall
/// edge, and between the wall vertices it touches every piece is free.
fn piece_is_free(env: &Environment, walls: &[(Segment, bool)], s: Segment) -> bool {
    if walls.iter().any(|(e, _)| properly_cross(s, *e)) {
        return false;
    }
    let d = s.b - s.a;
    let len2 = d.length_squared();
    let mut ts = vec![0.0, 1.0];
    if len2 > 0.0 {
        for (e, _) in walls {
            for v in [e.a, e.b] {
                if point_on_segment(v, s.a, s.b) {
                    ts.push(((v - s.a).dot(d) / len2).clamp(0.0, 1.0));
                }
            }
        }
    }
    ts.sort_by(f64::total_cmp);
    ts.dedup();
    // A piece along a wall is free when the open free space is on one side of it: a
    // corridor of zero width (an obstacle touching the boundary) is not.
    let normal = d.perp().normalize_or_zero() * PROBE;
    ts.windows(2).all(|w| {
        let m = s.a + d * (0.5 * (w[0] + w[1]));
        in_open_free_space(env, m)
            || in_open_free_space(env, m + normal)
            || in_open_free_space(env, m - normal)
    })
}

/// How far off a piece along a wall the oracle looks for open free space (user units).
const PROBE: f64 = 1e-7;

/// Whether `p` lies strictly inside the boundary and outside every polygon obstacle.
fn in_open_free_space(env: &Environment, p: Point) -> bool {
    env.boundary().contains(p)
        && !env.obstacles().any(|(_, o)| match o {
            Obstacle::Polygon(poly) => poly.contains_or_touches(p),
            _ => false,
        })
}

/// The layered oracle: the graph's nodes and the layers' walls.
pub struct LayeredVisibility<'a> {
    world: &'a LayeredEnvironment,
    walls: Vec<Vec<(Segment, bool)>>,
    nodes: Vec<(LayerId, Point)>,
}

impl<'a> LayeredVisibility<'a> {
    /// The oracle of `world` (which should validate).
    pub fn new(world: &'a LayeredEnvironment) -> Self {
        let mut nodes = Vec::new();
        let mut walls = Vec::new();
        for (id, layer) in world.layers() {
            let w = edges(&layer.environment);
            for (e, _) in &w {
                nodes.push((id, e.a));
                nodes.push((id, e.b));
            }
            for (_, o) in layer.environment.obstacles() {
                if let Obstacle::Point(p) = o {
                    nodes.push((id, *p));
                }
            }
            walls.push(w);
        }
        for (_, c) in world.connections() {
            for layer in c.layers {
                nodes.push((layer, c.segment.a));
                nodes.push((layer, c.segment.b));
            }
        }
        nodes.sort_by(|a, b| {
            (a.0, a.1.x, a.1.y)
                .partial_cmp(&(b.0, b.1.x, b.1.y))
                .unwrap_or(Ordering::Equal)
        });
        nodes.dedup();
        LayeredVisibility {
            world,
            walls,
            nodes,
        }
    }

    /// Whether `q` on layer `to` is visible from `p` on layer `from`, walking the segment
    /// through connections.
    pub fn sees(&self, from: LayerId, p: Point, to: LayerId, q: Point) -> bool {
        let mut layer = from;
        let mut t0 = 0.0;
        let d = q - p;
        let at = |t: f64| if t >= 1.0 { q } else { p + d * t };
        // Crossing points are rounded: the pieces stop this short of them (10⁻⁹ units).
        let gap = 1e-9 / d.length().max(1e-300);
        let inner = |t0: f64| if t0 > 0.0 { t0 + gap } else { 0.0 };
        for _ in 0..=self.world.connections().len() {
            // The first connection of the current layer the rest of the segment crosses
            // from the layer's free side.
            let mut next: Option<(f64, LayerId)> = None;
            for (id, c) in self.world.connections_of(layer) {
                let s = c.segment;
                let Ok(side) = self.world.free_side(id, layer) else {
                    continue;
                };
                // Leaving means q lies strictly on the other side.
                if orient(s.a, s.b, q) == side || orient(s.a, s.b, q) == Orientation::Collinear {
                    continue;
                }
                // Where the segment meets the connection's line, if within the connection.
                let (o1, o2) = (orient(p, q, s.a), orient(p, q, s.b));
                if o1 == o2 && o1 != Orientation::Collinear {
                    continue;
                }
                let e = s.b - s.a;
                let denom = d.perp_dot(e);
                if denom == 0.0 {
                    continue;
                }
                let t = (s.a - p).perp_dot(e) / denom;
                if t <= t0 + 1e-12 || t > 1.0 {
                    continue;
                }
                let other = c.other(layer).expect("connections_of gives touching ones");
                if next.is_none_or(|(best, _)| t < best) {
                    next = Some((t, other));
                }
            }
            let layer_walls = &self.walls[layer.0 as usize];
            let env = &self.world.layer(layer).expect("known layer").environment;
            match next {
                None => {
                    let piece = Segment::new(at(inner(t0)), q);
                    return layer == to && piece_is_free(env, layer_walls, piece);
                }
                Some((t, other)) => {
                    let piece = Segment::new(at(inner(t0)), at(t - gap));
                    if !piece_is_free(env, layer_walls, piece) {
                        return false;
                    }
                    layer = other;
                    t0 = t;
                }
            }
        }
        false
    }

    /// The length of a shortest path from `start` on layer `from` to `goal` on layer
    /// `to`, with its points, or `None` when none exists (or an end is not free).
    pub fn shortest_path(
        &self,
        from: LayerId,
        start: Point,
        to: LayerId,
        goal: Point,
    ) -> Option<(f64, Vec<(LayerId, Point)>)> {
        let free = |l: LayerId, p: Point| {
            self.world
                .layer(l)
                .is_ok_and(|layer| in_closed_free_space(&layer.environment, p))
        };
        if !free(from, start) || !free(to, goal) {
            return None;
        }
        let mut nodes = self.nodes.clone();
        nodes.push((from, start));
        nodes.push((to, goal));
        let (s, g) = (nodes.len() - 2, nodes.len() - 1);
        let n = nodes.len();
        let mut dist = vec![f64::INFINITY; n];
        let mut prev = vec![usize::MAX; n];
        let mut done = vec![false; n];
        let mut heap = BinaryHeap::new();
        dist[s] = 0.0;
        heap.push(Entry(0.0, s));
        while let Some(Entry(d, u)) = heap.pop() {
            if done[u] {
                continue;
            }
            done[u] = true;
            if u == g {
                break;
            }
            let (lu, pu) = nodes[u];
            for v in 0..n {
                if done[v] || v == s {
                    continue;
                }
                let (lv, pv) = nodes[v];
                let step = if pu == pv && lu != lv {
                    // The same point on two layers: linked only through a connection.
                    let joined = self.world.connections().any(|(_, c)| {
                        c.layers.contains(&lu)
                            && c.layers.contains(&lv)
                            && point_on_segment(pu, c.segment.a, c.segment.b)
                    });
                    if !joined {
                        continue;
                    }
                    0.0
                } else if self.sees(lu, pu, lv, pv) {
                    pu.distance(pv)
                } else {
                    continue;
                };
                if d + step < dist[v] {
                    dist[v] = d + step;
                    prev[v] = u;
                    heap.push(Entry(dist[v], v));
                }
            }
        }
        if !dist[g].is_finite() {
            return None;
        }
        let mut path = vec![nodes[g]];
        let mut at = g;
        while at != s {
            at = prev[at];
            path.push(nodes[at]);
        }
        path.reverse();
        Some((dist[g], path))
    }
}

/// A min-heap entry of Dijkstra's algorithm.
#[derive(PartialEq)]
struct Entry(f64, usize);

impl Eq for Entry {}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use corridor_geom::{HeightPlane, Layer};

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    /// Three layers side by side: a floor, a narrow stair layer and another floor.
    #[test]
    fn a_path_through_two_connections_is_found_and_walls_count() {
        let mut w = LayeredEnvironment::new();
        let flat =
            |min, max, z| Layer::new("l", Environment::rectangle(min, max), HeightPlane::flat(z));
        let ground = w.add_layer(flat(p(0.0, 0.0), p(10.0, 10.0), 0.0));
        let stairs = w.add_layer(flat(p(10.0, 4.0), p(14.0, 6.0), 1.0));
        let upper = w.add_layer(flat(p(14.0, 0.0), p(24.0, 10.0), 2.0));
        w.connect(ground, stairs, Segment::new(p(10.0, 4.0), p(10.0, 6.0)))
            .unwrap();
        w.connect(stairs, upper, Segment::new(p(14.0, 4.0), p(14.0, 6.0)))
            .unwrap();
        let oracle = LayeredVisibility::new(&w);
        // Straight through both connections.
        let (len, _) = oracle
            .shortest_path(ground, p(2.0, 5.0), upper, p(20.0, 5.0))
            .unwrap();
        assert!((len - 18.0).abs() < 1e-12);
        // From (2, 1) to (22, 1) it bends around the corners (10, 4) and (14, 4).
        let (len, path) = oracle
            .shortest_path(ground, p(2.0, 1.0), upper, p(22.0, 1.0))
            .unwrap();
        let want = p(2.0, 1.0).distance(p(10.0, 4.0)) + 4.0 + p(14.0, 4.0).distance(p(22.0, 1.0));
        assert!((len - want).abs() < 1e-9, "{len} vs {want}: {path:?}");
        // Same ground point on the wrong layer: not visible without a connection.
        assert!(!oracle.sees(ground, p(2.0, 5.0), upper, p(8.0, 5.0)));
        assert!(oracle.sees(ground, p(2.0, 5.0), stairs, p(12.0, 5.0)));
    }

    #[test]
    fn the_builtin_layers_scene_connects_both_floors() {
        let w = corridor_io_free_scene();
        let oracle = LayeredVisibility::new(&w);
        let (len, path) = oracle
            .shortest_path(LayerId(0), p(1.0, 1.0), LayerId(1), p(1.0, 1.0))
            .unwrap();
        // Up stairs A straight to its top corner (20, 3) (the segment enters the stairs
        // through the connection at x = 10), back west on top around the stairwell's
        // corner (10, 3).
        let want = p(1.0, 1.0).distance(p(20.0, 3.0)) + 10.0 + p(10.0, 3.0).distance(p(1.0, 1.0));
        assert!((len - want).abs() < 1e-9, "{len}: {path:?}");
        assert!(path.iter().any(|(l, _)| *l == LayerId(2)));
    }

    /// A copy of the stairs A half of `builtin:layers` (the test kit does not depend on
    /// corridor-io outside tests' dev-dependencies).
    fn corridor_io_free_scene() -> LayeredEnvironment {
        let mut w = LayeredEnvironment::new();
        let mut ground = Environment::rectangle(p(0.0, 0.0), p(40.0, 20.0));
        ground.insert(Obstacle::rectangle(p(10.0, 0.0), p(20.0, 3.0)));
        let mut upper = ground.clone();
        upper.insert(Obstacle::rectangle(p(14.0, 5.0), p(17.0, 9.0)));
        let l0 = w.add_layer(Layer::new("g", ground, HeightPlane::flat(0.0)));
        let l1 = w.add_layer(Layer::new("u", upper, HeightPlane::flat(4.0)));
        let sa = w.add_layer(Layer::new(
            "s",
            Environment::rectangle(p(10.0, 0.0), p(20.0, 3.0)),
            HeightPlane::new(0.4, 0.0, -4.0),
        ));
        w.connect(l0, sa, Segment::new(p(10.0, 0.0), p(10.0, 3.0)))
            .unwrap();
        w.connect(sa, l1, Segment::new(p(20.0, 0.0), p(20.0, 3.0)))
            .unwrap();
        w
    }
}
