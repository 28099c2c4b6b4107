//! What the server sends: the JSON of a map (obstacles, medial axis, nearest-obstacle
//! annotations), of a path, of an update, and of an error.

use crate::protocol::ServeError;
use crate::world::{Snapshot, UpdateOutcome};
use corridor_ecm::{CorridorPath, Ecm, EdgeKind, RepairMethod, VisibilityPolygon};
use corridor_geom::{Environment, Obstacle, ObstacleId, Point};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::time::Duration;

fn xy(p: Point) -> [f64; 2] {
    [p.x, p.y]
}

fn line(points: impl IntoIterator<Item = Point>) -> Vec<[f64; 2]> {
    points.into_iter().map(xy).collect()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The `map` message of a snapshot.
pub fn map(name: &str, s: &Snapshot) -> Value {
    let mut v = floor(&s.env, &s.ecm, &s.doors);
    v["type"] = json!("map");
    v["env"] = json!(name);
    v["version"] = json!(s.version);
    v["last_update_ms"] = json!(s.last_update.map(|t| ms(t.plan + t.apply + t.publish)));
    v
}

/// What the page draws of one environment (a map, or one floor of a layered scene):
/// bounds, boundary, obstacles, medial axis, annotations and counts.
pub fn floor(env: &Environment, ecm: &Ecm, doors: &BTreeSet<ObstacleId>) -> Value {
    let bounds = env.bounds();
    let obstacles: Vec<Value> = env
        .obstacles()
        .map(|(id, o)| {
            let mut v = match o {
                Obstacle::Point(p) => json!({"kind": "point", "point": xy(*p)}),
                Obstacle::Polyline(points) => {
                    json!({"kind": "polyline", "points": line(points.iter().copied())})
                }
                Obstacle::Polygon(polygon) => json!({
                    "kind": "polygon",
                    "rings": polygon.rings().map(|r| line(r.vertices().iter().copied())).collect::<Vec<_>>(),
                }),
            };
            v["id"] = json!(id.0);
            v["door"] = json!(doors.contains(&id));
            v
        })
        .collect();
    let medial: Vec<Vec<[f64; 2]>> = ecm.edges().map(|(_, e)| line(e.polyline())).collect();
    // One annotation per bending point: its position and its nearest obstacle points.
    let annotations: Vec<[f64; 6]> = ecm
        .edges()
        .flat_map(|(_, e)| e.bending_points.iter())
        .map(|b| {
            [
                b.position.x,
                b.position.y,
                b.left.x,
                b.left.y,
                b.right.x,
                b.right.y,
            ]
        })
        .collect();
    json!({
        "bounds": [bounds.min.x, bounds.min.y, bounds.max.x, bounds.max.y],
        "boundary": line(env.boundary().vertices().iter().copied()),
        "obstacles": obstacles,
        "medial": medial,
        "annotations": annotations,
        "stats": {
            "vertices": ecm.vertex_count(),
            "edges": ecm.edge_count(),
            "components": ecm.component_count(),
            "free_area": ecm.free_area(),
        },
    })
}

/// The `path` message.
pub fn path(name: &str, version: u64, path: &CorridorPath, elapsed: Duration) -> Value {
    let mut v = path_body(path);
    v["type"] = json!("path");
    v["env"] = json!(name);
    v["version"] = json!(version);
    v["ms"] = json!(ms(elapsed));
    v
}

/// A path's points, indicative route and corridor (of a map, or of one floor).
pub fn path_body(path: &CorridorPath) -> Value {
    json!({
        "length": path.length,
        "points": line(path.points.iter().copied()),
        "indicative_route": line(path.indicative_route.iter().copied()),
        "corridor": {
            "left": line(path.corridor.iter().map(|s| s.left)),
            "right": line(path.corridor.iter().map(|s| s.right)),
            "medial": line(path.corridor.iter().map(|s| s.position)),
        },
    })
}

/// The `visibility` message: the polygon's corners and what each edge runs along
/// (`wall`, `window`, `arc` of the range circle, `cone` side).
pub fn visibility(name: &str, version: u64, seen: &VisibilityPolygon, elapsed: Duration) -> Value {
    let kinds: Vec<&str> = seen
        .kinds()
        .iter()
        .map(|k| match k {
            EdgeKind::Wall => "wall",
            EdgeKind::Window => "window",
            EdgeKind::Arc => "arc",
            EdgeKind::Cone => "cone",
        })
        .collect();
    json!({
        "type": "visibility",
        "env": name,
        "version": version,
        "origin": xy(seen.origin()),
        "vertices": line(seen.vertices().iter().copied()),
        "kinds": kinds,
        "range": seen.range(),
        "area": seen.area(),
        "ms": ms(elapsed),
    })
}

/// The `updated` message every client of the environment gets.
pub fn updated(name: &str, outcome: &UpdateOutcome) -> Value {
    let method = match outcome.method {
        RepairMethod::Unchanged => "unchanged",
        RepairMethod::Local => "local",
        RepairMethod::FullRebuild => "full_rebuild",
    };
    let t = outcome.times;
    json!({
        "type": "updated",
        "env": name,
        "version": outcome.version,
        "method": method,
        "changed_walls": outcome.report.changed_walls,
        "removed_edges": outcome.report.removed_edges,
        "added_edges": outcome.report.added_edges,
        "inserted": outcome.inserted.iter().map(|id| id.0).collect::<Vec<_>>(),
        "ms": {"plan": ms(t.plan), "apply": ms(t.apply), "publish": ms(t.publish), "total": ms(t.plan + t.apply + t.publish)},
    })
}

/// The `error` message.
pub fn error(id: Option<u64>, e: &ServeError) -> Value {
    json!({"type": "error", "id": id, "kind": e.kind(), "message": e.to_string()})
}

/// Adds the request id to an answer.
pub fn with_id(mut v: Value, id: Option<u64>) -> Value {
    if let (Some(id), Some(object)) = (id, v.as_object_mut()) {
        object.insert("id".into(), json!(id));
    }
    v
}
