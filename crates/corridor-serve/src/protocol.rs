//! What the page and the server say to each other: the requests a client sends, parsed
//! and checked into [`Request`], and the error a bad one gets ([`ServeError`]). The
//! replies are built as JSON by [`crate::view`]; docs/SERVE.md lists both.

use corridor_geom::{Obstacle, ObstacleId, Point};
use serde_json::Value;

/// Most vertices one obstacle of an update may have (a drawn polygon has a handful).
pub const MAX_OBSTACLE_VERTICES: usize = 4096;
/// Most changes in one update message.
pub const MAX_CHANGES: usize = 64;
/// Largest coordinate magnitude a request may name (far outside any built-in scene).
pub const MAX_COORDINATE: f64 = 1e9;
/// Largest environment text a client may upload (bytes).
pub const MAX_UPLOAD_BYTES: usize = 8 << 20;
/// The most wall pieces (edges plus two per crossing) a map's obstacles may overlap into:
/// a pile of overlapping polygons in an upload is refused before its overlay is built
/// (about 5 µs and 90 bytes per piece), instead of holding a thread for minutes.
pub const MAX_WALL_PIECES: usize = 1_000_000;
/// Most characters in one connection's crowd (each step costs the server about N log N).
pub const MAX_CROWD: usize = 500;

/// Why a request got an error message instead of an answer. The connection stays open.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The text is not JSON.
    #[error("malformed JSON: {0}")]
    BadJson(String),
    /// The JSON does not have the shape of a request.
    #[error("bad request: {0}")]
    BadRequest(String),
    /// A number is not finite or out of range.
    #[error("bad number: {0}")]
    BadNumber(String),
    /// Too large: too many vertices, changes or bytes.
    #[error("too large: {0}")]
    TooLarge(String),
    /// No environment has this name.
    #[error("no environment named '{0}'")]
    UnknownEnvironment(String),
    /// An uploaded environment file could not be read.
    #[error("{0}")]
    Load(String),
    /// The environment's map could not be built.
    #[error("{0}")]
    Build(String),
    /// An obstacle of an update could not be read.
    #[error("obstacle: {0}")]
    Obstacle(#[from] corridor_io::JsonError),
    /// The update was refused (unknown id, invalid or self-intersecting obstacle...).
    #[error("{0}")]
    Update(#[from] corridor_ecm::UpdateError),
    /// No path for this query.
    #[error("{0}")]
    Plan(#[from] corridor_ecm::PlanError),
    /// A point query failed (outside the free space...).
    #[error("{0}")]
    Query(#[from] corridor_ecm::QueryError),
    /// A visibility query failed (outside the free space, bad range or cone).
    #[error("{0}")]
    Visibility(#[from] corridor_ecm::VisibilityError),
    /// A layered query failed (unknown layer, no path across the floors...).
    #[error("{0}")]
    Layered(#[from] corridor_ecm::LayeredEcmError),
    /// A crowd could not be set up.
    #[error("crowd: {0}")]
    Crowd(#[from] corridor_crowd::CrowdError),
    /// The request needs a state this connection or environment does not have (no crowd
    /// running, an update on a layered scene...).
    #[error("{0}")]
    Unsupported(String),
    /// The server failed inside (a bug); the map is rebuilt from its environment.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ServeError {
    /// The short kind the error message carries (`"kind"`).
    pub fn kind(&self) -> &'static str {
        match self {
            ServeError::BadJson(_) => "bad_json",
            ServeError::BadRequest(_) => "bad_request",
            ServeError::BadNumber(_) => "bad_number",
            ServeError::TooLarge(_) => "too_large",
            ServeError::UnknownEnvironment(_) => "unknown_environment",
            ServeError::Load(_) => "load",
            ServeError::Build(_) => "build",
            ServeError::Obstacle(_) => "bad_obstacle",
            ServeError::Update(corridor_ecm::UpdateError::UnknownObstacle(_)) => "unknown_obstacle",
            ServeError::Update(corridor_ecm::UpdateError::InvalidObstacle { .. }) => {
                "invalid_obstacle"
            }
            ServeError::Update(_) => "update",
            ServeError::Plan(_) => "no_path",
            ServeError::Query(_) => "query",
            ServeError::Visibility(_) => "visibility",
            ServeError::Layered(_) => "layered",
            ServeError::Crowd(_) => "crowd",
            ServeError::Unsupported(_) => "unsupported",
            ServeError::Internal(_) => "internal",
        }
    }
}

/// A change of an update, as the server applies it.
#[derive(Clone, Debug, PartialEq)]
pub enum EditRequest {
    /// Add an obstacle.
    Insert(Obstacle),
    /// Remove an obstacle.
    Remove(ObstacleId),
    /// Replace an obstacle's geometry.
    Move(ObstacleId, Obstacle),
    /// Shift an obstacle by an offset (a drag).
    Translate(ObstacleId, Point),
    /// Close the passage through this point with a thin door obstacle.
    CloseDoor(Point),
}

/// A checked request.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// The environments and their versions.
    List,
    /// The whole map of one environment (obstacles, medial axis, annotations).
    Map {
        /// Environment name.
        env: String,
    },
    /// A path for a disk of `radius`, with the indicative route at `clearance`.
    Path {
        /// Environment name.
        env: String,
        /// Start.
        from: Point,
        /// Goal.
        to: Point,
        /// Character radius.
        radius: f64,
        /// Preferred clearance of the indicative route.
        clearance: f64,
    },
    /// A random free point with clearance at least `radius`, reachable from `from`.
    RandomPoint {
        /// Environment name.
        env: String,
        /// Required clearance.
        radius: f64,
        /// Where the character is, if it must be reachable from there.
        from: Option<Point>,
        /// The floor, in a layered scene.
        layer: Option<u32>,
    },
    /// A path across the floors of a layered scene.
    LayeredPath {
        /// Environment name (a layered scene).
        env: String,
        /// Start floor and point.
        from: (u32, Point),
        /// Goal floor and point.
        to: (u32, Point),
        /// Character radius.
        radius: f64,
        /// Preferred clearance of the indicative routes.
        clearance: f64,
    },
    /// The region seen from a point, cut to a range and a field of view when given.
    Visibility {
        /// Environment name.
        env: String,
        /// The viewpoint.
        at: Point,
        /// The floor, in a layered scene.
        layer: Option<u32>,
        /// How far the view reaches.
        range: Option<f64>,
        /// The view cone: direction and opening (radians).
        cone: Option<(Point, f64)>,
    },
    /// Starts this connection's crowd (replacing one that runs): `count` characters of
    /// `radius` at random free points; `wander` gives arrived ones new random goals.
    CrowdStart {
        /// Environment name.
        env: String,
        /// How many characters (at most [`MAX_CROWD`]).
        count: usize,
        /// Their radius (positive).
        radius: f64,
        /// Their preferred clearance.
        clearance: f64,
        /// New random goals on arrival.
        wander: bool,
    },
    /// New goals for the whole crowd: one point for all, or random ones (`None`).
    CrowdGoal {
        /// The goal, or `None` for a random goal each.
        goal: Option<Point>,
    },
    /// Stops this connection's crowd.
    CrowdStop,
    /// Changes of the obstacles, applied as one local update.
    Update {
        /// Environment name.
        env: String,
        /// The changes.
        edits: Vec<EditRequest>,
    },
    /// A new environment from the text of a dropped file.
    Upload {
        /// File name (its extension picks the reader).
        name: String,
        /// File contents.
        text: String,
    },
}

/// The request id a message carries (echoed in the answer), if any.
pub fn request_id(value: &Value) -> Option<u64> {
    value.get("id").and_then(Value::as_u64)
}

/// Parses one message. Returns the request id (when the message has one) beside the
/// result, so that an error can name the request it answers.
pub fn parse(text: &str) -> (Option<u64>, Result<Request, ServeError>) {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return (None, Err(ServeError::BadJson(e.to_string()))),
    };
    (request_id(&value), parse_value(&value))
}

fn parse_value(value: &Value) -> Result<Request, ServeError> {
    let kind = value.get("type").and_then(Value::as_str).ok_or_else(|| {
        ServeError::BadRequest("a request is an object with a string 'type'".into())
    })?;
    let env = || string(value, "env");
    Ok(match kind {
        "list" => Request::List,
        "map" => Request::Map { env: env()? },
        "path" => {
            let radius = distance(value, "radius")?;
            Request::Path {
                env: env()?,
                from: point(value.get("from"), "from")?,
                to: point(value.get("to"), "to")?,
                radius,
                clearance: distance(value, "clearance")?.max(radius),
            }
        }
        "random_point" => Request::RandomPoint {
            env: env()?,
            radius: distance(value, "radius")?,
            from: match value.get("from") {
                None | Some(Value::Null) => None,
                some => Some(point(some, "from")?),
            },
            layer: layer(value, "layer")?,
        },
        "layered_path" => {
            let radius = distance(value, "radius")?;
            let floor = |field: &str| {
                layer(value, field)?.ok_or_else(|| {
                    ServeError::BadRequest(format!("'{field}' must be a layer number"))
                })
            };
            Request::LayeredPath {
                env: env()?,
                from: (floor("from_layer")?, point(value.get("from"), "from")?),
                to: (floor("to_layer")?, point(value.get("to"), "to")?),
                radius,
                clearance: distance(value, "clearance")?.max(radius),
            }
        }
        "visibility" => Request::Visibility {
            env: env()?,
            at: point(value.get("at"), "at")?,
            layer: layer(value, "layer")?,
            range: match distance(value, "range")? {
                r if r > 0.0 => Some(r),
                _ => None,
            },
            cone: match distance(value, "fov")? {
                // An opening of 360° or more is no cone.
                fov if fov > 0.0 && fov < 360.0 => {
                    let dir = point(value.get("dir"), "dir")?;
                    if dir.length() == 0.0 {
                        return Err(ServeError::BadNumber("'dir' must not be zero".into()));
                    }
                    Some((dir, fov.to_radians()))
                }
                _ => None,
            },
        },
        "crowd_start" => {
            let count = value
                .get("count")
                .and_then(Value::as_u64)
                .ok_or_else(|| ServeError::BadRequest("'count' must be a whole number".into()))?;
            if count == 0 || count > MAX_CROWD as u64 {
                return Err(ServeError::TooLarge(format!(
                    "a crowd of {count} (one to {MAX_CROWD})"
                )));
            }
            let radius = distance(value, "radius")?;
            if radius <= 0.0 {
                return Err(ServeError::BadNumber("'radius' must be positive".into()));
            }
            Request::CrowdStart {
                env: env()?,
                count: count as usize,
                radius,
                clearance: distance(value, "clearance")?.max(radius),
                wander: value.get("wander").and_then(Value::as_bool).unwrap_or(true),
            }
        }
        "crowd_goal" => Request::CrowdGoal {
            goal: match value.get("goal") {
                None | Some(Value::Null) => None,
                some => Some(point(some, "goal")?),
            },
        },
        "crowd_stop" => Request::CrowdStop,
        "update" => Request::Update {
            env: env()?,
            edits: edits(value.get("changes"))?,
        },
        "upload" => {
            let text = string(value, "text")?;
            if text.len() > MAX_UPLOAD_BYTES {
                return Err(ServeError::TooLarge(format!(
                    "the file has {} bytes, more than {MAX_UPLOAD_BYTES}",
                    text.len()
                )));
            }
            Request::Upload {
                name: string(value, "name")?,
                text,
            }
        }
        other => {
            return Err(ServeError::BadRequest(format!(
                "unknown request type '{other}' (list, map, path, random_point, update, upload, \
                 layered_path, visibility, crowd_start, crowd_goal, crowd_stop)"
            )))
        }
    })
}

fn string(value: &Value, field: &str) -> Result<String, ServeError> {
    value
        .get(field)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| ServeError::BadRequest(format!("'{field}' must be a string")))
}

/// A finite coordinate within [`MAX_COORDINATE`].
fn coordinate(v: &Value, what: &str) -> Result<f64, ServeError> {
    let x = v
        .as_f64()
        .ok_or_else(|| ServeError::BadRequest(format!("{what} must be a number")))?;
    if !x.is_finite() || x.abs() > MAX_COORDINATE {
        return Err(ServeError::BadNumber(format!(
            "{what} = {x} is out of range"
        )));
    }
    Ok(x)
}

fn point(v: Option<&Value>, what: &str) -> Result<Point, ServeError> {
    match v.and_then(Value::as_array).map(Vec::as_slice) {
        Some([x, y]) => Ok(Point::new(coordinate(x, what)?, coordinate(y, what)?)),
        _ => Err(ServeError::BadRequest(format!("'{what}' must be [x, y]"))),
    }
}

/// A non-negative finite distance; missing means 0.
fn distance(value: &Value, field: &str) -> Result<f64, ServeError> {
    match value.get(field) {
        None | Some(Value::Null) => Ok(0.0),
        Some(v) => {
            let d = coordinate(v, field)?;
            if d < 0.0 {
                return Err(ServeError::BadNumber(format!("{field} = {d} is negative")));
            }
            Ok(d)
        }
    }
}

/// An optional layer number.
fn layer(value: &Value, field: &str) -> Result<Option<u32>, ServeError> {
    match value.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .and_then(|l| u32::try_from(l).ok())
            .map(Some)
            .ok_or_else(|| ServeError::BadRequest(format!("'{field}' must be a layer number"))),
    }
}

fn obstacle_id(v: Option<&Value>, what: &str) -> Result<ObstacleId, ServeError> {
    v.and_then(Value::as_u64)
        .and_then(|id| u32::try_from(id).ok())
        .map(ObstacleId)
        .ok_or_else(|| ServeError::BadRequest(format!("'{what}' must be an obstacle id")))
}

/// An obstacle in the native format (`{"polygon": [[x, y], ...]}`, `{"polyline": ...}`,
/// `{"point": [x, y]}`), read by corridor-io's reader and bounded in size.
fn obstacle(v: Option<&Value>) -> Result<Obstacle, ServeError> {
    let v = v.ok_or_else(|| ServeError::BadRequest("missing 'obstacle'".into()))?;
    if !v.is_object() {
        return Err(ServeError::BadRequest(
            "an obstacle is one JSON object".into(),
        ));
    }
    let records = corridor_io::read_obstacles(&v.to_string())?;
    let [record] = <[_; 1]>::try_from(records)
        .map_err(|_| ServeError::BadRequest("expected one obstacle".into()))?;
    let count = record.obstacle.points().count();
    if count > MAX_OBSTACLE_VERTICES {
        return Err(ServeError::TooLarge(format!(
            "an obstacle of {count} vertices (at most {MAX_OBSTACLE_VERTICES})"
        )));
    }
    if let Some(p) = record
        .obstacle
        .points()
        .find(|p| !(p.x.abs() <= MAX_COORDINATE && p.y.abs() <= MAX_COORDINATE))
    {
        return Err(ServeError::BadNumber(format!(
            "obstacle vertex ({}, {}) is out of range",
            p.x, p.y
        )));
    }
    Ok(record.obstacle)
}

fn edits(v: Option<&Value>) -> Result<Vec<EditRequest>, ServeError> {
    let list = v
        .and_then(Value::as_array)
        .ok_or_else(|| ServeError::BadRequest("'changes' must be a list".into()))?;
    if list.is_empty() || list.len() > MAX_CHANGES {
        return Err(ServeError::TooLarge(format!(
            "{} changes (one to {MAX_CHANGES} per update)",
            list.len()
        )));
    }
    list.iter().map(edit).collect()
}

fn edit(v: &Value) -> Result<EditRequest, ServeError> {
    let object = v
        .as_object()
        .filter(|o| o.len() == 1)
        .ok_or_else(|| ServeError::BadRequest("a change is an object with one key".into()))?;
    let (key, body) = object.iter().next().expect("one key");
    Ok(match key.as_str() {
        "insert" => EditRequest::Insert(obstacle(Some(body))?),
        "remove" => EditRequest::Remove(obstacle_id(Some(body), "remove")?),
        "move" => EditRequest::Move(
            obstacle_id(body.get("id"), "move.id")?,
            obstacle(body.get("obstacle"))?,
        ),
        "translate" => EditRequest::Translate(
            obstacle_id(body.get("id"), "translate.id")?,
            point(body.get("offset"), "translate.offset")?,
        ),
        "close_door" => EditRequest::CloseDoor(point(Some(body), "close_door")?),
        other => {
            return Err(ServeError::BadRequest(format!(
                "unknown change '{other}' (insert, remove, move, translate, close_door)"
            )))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_messages_get_typed_errors() {
        let cases = [
            ("{", "bad_json"),
            ("[]", "bad_request"),
            (r#"{"type": "dance"}"#, "bad_request"),
            (
                r#"{"type": "path", "env": "empty", "from": [0, 1e999], "to": [1, 1]}"#,
                "bad_json",
            ),
            (
                r#"{"type": "path", "env": "empty", "from": [0, 1e300], "to": [1, 1]}"#,
                "bad_number",
            ),
            (
                r#"{"type": "path", "env": "empty", "from": [0, 1], "to": [1, 1], "radius": -1}"#,
                "bad_number",
            ),
            (
                r#"{"type": "path", "env": "empty", "from": [0], "to": [1, 1]}"#,
                "bad_request",
            ),
            (
                r#"{"type": "update", "env": "empty", "changes": []}"#,
                "too_large",
            ),
            (
                r#"{"type": "update", "env": "empty", "changes": [{"remove": -3}]}"#,
                "bad_request",
            ),
            (
                r#"{"type": "update", "env": "empty", "changes": [{"insert": {"pont": [1, 1]}}]}"#,
                "bad_obstacle",
            ),
            (
                r#"{"type": "crowd_start", "env": "empty", "count": 100000, "radius": 1}"#,
                "too_large",
            ),
            (
                r#"{"type": "crowd_start", "env": "empty", "count": 10, "radius": 0}"#,
                "bad_number",
            ),
            (
                r#"{"type": "visibility", "env": "empty", "at": [1, 1], "fov": 90, "dir": [0, 0]}"#,
                "bad_number",
            ),
            (
                r#"{"type": "layered_path", "env": "layers", "from": [1, 1], "to": [2, 2]}"#,
                "bad_request",
            ),
        ];
        for (text, kind) in cases {
            let (_, result) = parse(text);
            assert_eq!(result.unwrap_err().kind(), kind, "{text}");
        }
    }

    #[test]
    fn a_huge_polygon_is_refused_before_it_reaches_the_map() {
        let ring: Vec<[f64; 2]> = (0..MAX_OBSTACLE_VERTICES + 1)
            .map(|i| {
                let a = i as f64 / 1000.0;
                [a.cos(), a.sin()]
            })
            .collect();
        let text = serde_json::json!({"type": "update", "env": "x", "changes": [{"insert": {"polygon": ring}}]});
        assert_eq!(parse(&text.to_string()).1.unwrap_err().kind(), "too_large");
    }

    #[test]
    fn valid_requests_parse_with_their_id() {
        let (id, r) = parse(
            r#"{"type": "path", "id": 7, "env": "dungeon", "from": [1, 2], "to": [3, 4], "radius": 0.5}"#,
        );
        assert_eq!(id, Some(7));
        let Request::Path {
            radius, clearance, ..
        } = r.unwrap()
        else {
            panic!()
        };
        assert_eq!((radius, clearance), (0.5, 0.5));
        let (_, r) = parse(
            r#"{"type": "update", "env": "e", "changes": [{"translate": {"id": 3, "offset": [1, 0]}}, {"close_door": [4, 4]}]}"#,
        );
        assert_eq!(
            r.unwrap(),
            Request::Update {
                env: "e".into(),
                edits: vec![
                    EditRequest::Translate(ObstacleId(3), Point::new(1.0, 0.0)),
                    EditRequest::CloseDoor(Point::new(4.0, 4.0))
                ]
            }
        );
    }
}
