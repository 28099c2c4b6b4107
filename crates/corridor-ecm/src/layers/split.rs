//! A path planned in a chart's ECM (several layers, their connections open) cut into its
//! pieces on each layer: every point where the path meets an open connection (crossing,
//! touching an end, or running along it) is a cut, and each stretch between two cuts
//! lies on the one layer whose closed free space holds its middle (the layers of a chart
//! do not overlap), so the layer changes only at connections, exactly where the path
//! meets them.

use crate::CorridorPath;
use corridor_geom::{
    orient, segments_intersect, ConnectionId, LayerId, LayeredEnvironment, Obstacle, Orientation,
    Point,
};

/// The path on one layer, and the open connection it leaves through (none for the last).
pub(super) struct Piece {
    pub layer: LayerId,
    pub path: CorridorPath,
    pub exit: Option<ConnectionId>,
}

/// Cuts `path` (in the union of `layers`, from layer `first` to layer `last`, with the
/// chart's `open` connections) into pieces per layer. Each piece's length is its share of
/// the path's exact length in proportion to its polyline's; its indicative route is its
/// points (the corridor and medial route belong to the chart's ECM and are left empty).
pub(super) fn split(
    world: &LayeredEnvironment,
    layers: &[LayerId],
    open: &[ConnectionId],
    (first, last): (LayerId, LayerId),
    path: CorridorPath,
) -> Vec<Piece> {
    let doors: Vec<_> = open
        .iter()
        .filter_map(|id| Some((*id, *world.connection(*id).ok()?)))
        .collect();
    let cut = cut_points(&path.points, doors.iter().map(|(_, c)| c.segment));
    let holds = |layer: LayerId, p: Point| {
        world.layer(layer).is_ok_and(|l| {
            let env = &l.environment;
            env.boundary().contains_or_touches(p)
                && !env
                    .obstacles()
                    .any(|(_, o)| matches!(o, Obstacle::Polygon(poly) if poly.contains(p)))
        })
    };
    // (layer, points) per stretch of one layer.
    let mut runs: Vec<(LayerId, Vec<Point>)> = vec![(first, vec![cut[0]])];
    for w in cut.windows(2) {
        let mid = (w[0] + w[1]) * 0.5;
        let current = runs.last().map_or(first, |r| r.0);
        let layer = if holds(current, mid) {
            current
        } else {
            layers
                .iter()
                .copied()
                .find(|l| holds(*l, mid))
                .unwrap_or(current)
        };
        if layer != current {
            runs.push((layer, vec![w[0]]));
        }
        if let Some(run) = runs.last_mut() {
            run.1.push(w[1]);
        }
    }
    if runs.last().is_some_and(|r| r.0 != last) {
        runs.push((last, vec![*cut.last().unwrap_or(&cut[0])]));
    }
    let polyline = |p: &[Point]| p.windows(2).map(|w| w[0].distance(w[1])).sum::<f64>();
    let total = polyline(&cut);
    let scale = if total > 0.0 {
        path.length / total
    } else {
        0.0
    };
    let count = runs.len();
    let mut pieces = Vec::with_capacity(count);
    for k in 0..count {
        let (layer, points) = &runs[k];
        let exit = runs.get(k + 1).map(|(next, next_points)| {
            let at = next_points[0];
            let joins =
                |c: &corridor_geom::Connection| c.layers.contains(layer) && c.layers.contains(next);
            doors
                .iter()
                .filter(|(_, c)| joins(c))
                .min_by(|a, b| {
                    a.1.segment
                        .distance(at)
                        .total_cmp(&b.1.segment.distance(at))
                })
                .or_else(|| {
                    doors.iter().min_by(|a, b| {
                        a.1.segment
                            .distance(at)
                            .total_cmp(&b.1.segment.distance(at))
                    })
                })
                .map_or(ConnectionId(u32::MAX), |(id, _)| *id)
        });
        let points = if points.len() == 1 {
            vec![points[0], points[0]]
        } else {
            points.clone()
        };
        pieces.push(Piece {
            layer: *layer,
            path: CorridorPath {
                length: polyline(&points) * scale,
                indicative_route: points.clone(),
                points,
                medial_route: Vec::new(),
                corridor: Vec::new(),
                edges: Vec::new(),
                fallback: path.fallback,
            },
            exit,
        });
    }
    pieces
}

/// The polyline `points` with a vertex added wherever it meets one of `doors` (a proper
/// crossing, an end of either touching the other, or the ends of a common stretch).
fn cut_points(
    points: &[Point],
    doors: impl Iterator<Item = corridor_geom::Segment> + Clone,
) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::with_capacity(points.len() + 4);
    let push = |p: Point, out: &mut Vec<Point>| {
        if out.last() != Some(&p) {
            out.push(p);
        }
    };
    if let Some(&p) = points.first() {
        push(p, &mut out);
    }
    for w in points.windows(2) {
        let (p, q) = (w[0], w[1]);
        let d = q - p;
        let mut ts: Vec<f64> = Vec::new();
        if d.length_squared() > 0.0 {
            for c in doors.clone() {
                if !segments_intersect(p, q, c.a, c.b) {
                    continue;
                }
                let collinear = orient(p, q, c.a) == Orientation::Collinear
                    && orient(p, q, c.b) == Orientation::Collinear;
                if collinear {
                    ts.extend([c.a, c.b].map(|e| (e - p).dot(d) / d.length_squared()));
                } else {
                    let e = c.b - c.a;
                    let denom = d.perp_dot(e);
                    if denom != 0.0 {
                        ts.push((c.a - p).perp_dot(e) / denom);
                    }
                }
            }
        }
        ts.retain(|t| *t > 0.0 && *t < 1.0);
        ts.sort_by(f64::total_cmp);
        for t in ts {
            push(p + d * t, &mut out);
        }
        push(q, &mut out);
    }
    if out.len() == 1 {
        out.push(out[0]);
    }
    out
}
