//! What the server sends: the JSON of a map (obstacles, medial axis, nearest-obstacle
//! annotations), of a path, of an update, and of an error.

use crate::protocol::ServeError;
use crate::world::{Snapshot, UpdateOutcome};
use corridor_ecm::{CorridorPath, RepairMethod};
use corridor_geom::{Obstacle, Point};
use serde_json::{json, Value};
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
    let bounds = s.env.bounds();
    let obstacles: Vec<Value> = s
        .env
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
            v["door"] = json!(s.doors.contains(&id));
            v
        })
        .collect();
    let medial: Vec<Vec<[f64; 2]>> = s.ecm.edges().map(|(_, e)| line(e.polyline())).collect();
    // One annotation per bending point: its position and its nearest obstacle points.
    let annotations: Vec<[f64; 6]> = s
        .ecm
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
        "type": "map",
        "env": name,
        "version": s.version,
        "bounds": [bounds.min.x, bounds.min.y, bounds.max.x, bounds.max.y],
        "boundary": line(s.env.boundary().vertices().iter().copied()),
        "obstacles": obstacles,
        "medial": medial,
        "annotations": annotations,
        "stats": {
            "vertices": s.ecm.vertex_count(),
            "edges": s.ecm.edge_count(),
            "components": s.ecm.component_count(),
            "free_area": s.ecm.free_area(),
        },
        "last_update_ms": s.last_update.map(|t| ms(t.plan + t.apply + t.publish)),
    })
}

/// The `path` message.
pub fn path(name: &str, version: u64, path: &CorridorPath, elapsed: Duration) -> Value {
    json!({
        "type": "path",
        "env": name,
        "version": version,
        "length": path.length,
        "points": line(path.points.iter().copied()),
        "indicative_route": line(path.indicative_route.iter().copied()),
        "corridor": {
            "left": line(path.corridor.iter().map(|s| s.left)),
            "right": line(path.corridor.iter().map(|s| s.right)),
            "medial": line(path.corridor.iter().map(|s| s.position)),
        },
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
