//! Where exactly do two layers meet? Connection segments made exact on the layers' snap
//! grid: both layers' rings get the same vertices along every connection, everything is
//! snapped, and a connection is a run of grid edges on one line, so that the model's
//! exact check (`LayeredEnvironment::connect`) accepts it.

use super::ground::Region;
use super::layers::GROUND_TOLERANCE;
use corridor_geom::{orient_grid, GridPoint, Orientation, Point, SnapGrid};

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

/// The stations snapped and cut into runs of grid segments on one line: the
/// connections' segments.
pub(crate) fn runs(stations: &[Point], grid: SnapGrid) -> Vec<(Point, Point)> {
    let mut points: Vec<GridPoint> = Vec::new();
    for p in stations {
        if let Ok(g) = grid.snap(*p) {
            if points.last() != Some(&g) {
                points.push(g);
            }
        }
    }
    let mut out = Vec::new();
    let mut start = 0;
    for k in 1..points.len() {
        let last = k + 1 == points.len();
        if last || orient_grid(points[start], points[k], points[k + 1]) != Orientation::Collinear {
            out.push((grid.to_point(points[start]), grid.to_point(points[k])));
            start = k;
        }
    }
    out
}
