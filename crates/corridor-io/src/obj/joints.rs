//! Where exactly do two layers meet? Connection segments made exact on the layers' snap
//! grid: both layers' rings get the same vertices along every connection, everything is
//! snapped, and a connection is a run of edges both layers' rings have, straight on the
//! grid, so that the model's exact check (`LayeredEnvironment::connect`) accepts it.

use super::ground::Region;
use super::layers::GROUND_TOLERANCE;
use corridor_geom::{orient_grid, Environment, GridPoint, Obstacle, Orientation, Point, SnapGrid};

/// A layer's rings (outer first, then holes) as plain points.
pub(crate) type Rings = Vec<Vec<Point>>;

/// The rings of a single-shape region.
pub(crate) fn rings_of(part: &Region) -> Rings {
    part[0]
        .iter()
        .map(|c| c.iter().map(|p| Point::new(p[0], p[1])).collect())
        .collect()
}

/// The points along `segment` where either layer's rings have a vertex, the segment's
/// ends included, in order from its start.
pub(crate) fn stations(segment: (Point, Point), a: &Rings, b: &Rings) -> Vec<Point> {
    let (p, q) = segment;
    let length = p.distance(q);
    let dir = (q - p) / length;
    // (position along the segment, point, whether a ring has it as a vertex)
    let mut at: Vec<(f64, Point, bool)> = vec![(0.0, p, false), (length, q, false)];
    for v in a.iter().chain(b).flatten() {
        let d = *v - p;
        let t = dir.dot(d);
        let on_line = dir.perp_dot(d).abs() <= GROUND_TOLERANCE;
        if on_line && t > -GROUND_TOLERANCE && t < length + GROUND_TOLERANCE {
            at.push((t, *v, true));
        }
    }
    at.sort_by(|x, y| x.0.total_cmp(&y.0));
    // Points closer than the tolerance are one station: a ring vertex if there is one,
    // so that both layers snap it alike.
    let mut out: Vec<(f64, Point, bool)> = Vec::new();
    for x in at {
        match out.last_mut() {
            Some(last) if x.0 - last.0 <= GROUND_TOLERANCE => {
                if x.2 && !last.2 {
                    *last = x;
                }
            }
            _ => out.push(x),
        }
    }
    out.into_iter().map(|x| x.1).collect()
}

/// Inserts `points` into the edges of `rings` they lie on (within the tolerance,
/// strictly inside the edge).
pub(crate) fn insert_points(rings: &mut Rings, points: &[Point]) {
    for ring in rings.iter_mut() {
        let mut out = Vec::with_capacity(ring.len());
        for k in 0..ring.len() {
            let (p, q) = (ring[k], ring[(k + 1) % ring.len()]);
            out.push(p);
            let length = p.distance(q);
            if length <= GROUND_TOLERANCE {
                continue;
            }
            let dir = (q - p) / length;
            let mut inside: Vec<(f64, Point)> = points
                .iter()
                .filter_map(|&x| {
                    let t = dir.dot(x - p);
                    let near = dir.perp_dot(x - p).abs() <= GROUND_TOLERANCE;
                    (near && t > GROUND_TOLERANCE && t < length - GROUND_TOLERANCE)
                        .then_some((t, x))
                })
                .collect();
            inside.sort_by(|x, y| x.0.total_cmp(&y.0));
            out.extend(inside.into_iter().map(|x| x.1));
        }
        *ring = out;
    }
}

/// Every ring snapped to `grid`, with repeated points (consecutive after snapping)
/// dropped; rings that fall below three points are dropped too.
pub(crate) fn snap_rings(rings: &Rings, grid: SnapGrid) -> Vec<Vec<Point>> {
    rings
        .iter()
        .map(|ring| {
            let mut out: Vec<GridPoint> = Vec::with_capacity(ring.len());
            for p in ring {
                if let Ok(g) = grid.snap(*p) {
                    if out.last() != Some(&g) {
                        out.push(g);
                    }
                }
            }
            while out.len() > 1 && out.first() == out.last() {
                out.pop();
            }
            out.into_iter()
                .map(|g| grid.to_point(g))
                .collect::<Vec<_>>()
        })
        .enumerate()
        .filter(|(i, r)| *i == 0 || r.len() >= 3)
        .map(|(_, r)| r)
        .collect()
}

/// The edges of an environment's rings (boundary and polygon obstacles).
pub(crate) fn ring_edges(env: &Environment) -> Vec<(Point, Point)> {
    let mut out: Vec<(Point, Point)> = env.boundary().edges().map(|e| (e.a, e.b)).collect();
    for (_, o) in env.obstacles() {
        if let Obstacle::Polygon(poly) = o {
            out.extend(poly.edges().map(|e| (e.a, e.b)));
        }
    }
    out
}

/// The edges along `segment` (within the tolerance) that both layers' rings have,
/// joined into runs that are exactly straight on `grid`: each run is covered by edges
/// of both layers, so the model's exact check holds wherever the free sides are
/// opposite.
pub(crate) fn shared_runs(
    segment: (Point, Point),
    a: &[(Point, Point)],
    b: &[(Point, Point)],
    grid: SnapGrid,
) -> Vec<(Point, Point)> {
    let (p, q) = segment;
    let length = p.distance(q);
    if length == 0.0 {
        return Vec::new();
    }
    let dir = (q - p) / length;
    let along = |x: Point| {
        let d = x - p;
        let t = dir.dot(d);
        (dir.perp_dot(d).abs() <= GROUND_TOLERANCE
            && t >= -GROUND_TOLERANCE
            && t <= length + GROUND_TOLERANCE)
            .then_some(t)
    };
    let key = |x: Point| grid.snap(x).ok();
    let theirs: std::collections::HashSet<(GridPoint, GridPoint)> = b
        .iter()
        .filter_map(|&(x, y)| Some((key(x)?, key(y)?)))
        .flat_map(|(x, y)| [(x, y), (y, x)])
        .collect();
    // Shared edges as (start, end) along the segment's direction.
    let mut shared: Vec<(f64, GridPoint, GridPoint)> = a
        .iter()
        .filter_map(|&(x, y)| {
            let (tx, ty) = (along(x)?, along(y)?);
            let (gx, gy) = (key(x)?, key(y)?);
            theirs
                .contains(&(gx, gy))
                .then_some(if tx <= ty { (tx, gx, gy) } else { (ty, gy, gx) })
        })
        .collect();
    shared.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut out: Vec<(GridPoint, GridPoint)> = Vec::new();
    for (_, s, e) in shared {
        match out.last_mut() {
            Some(last) if last.1 == s && orient_grid(last.0, s, e) == Orientation::Collinear => {
                last.1 = e
            }
            _ => out.push((s, e)),
        }
    }
    out.into_iter()
        .map(|(s, e)| (grid.to_point(s), grid.to_point(e)))
        .collect()
}
