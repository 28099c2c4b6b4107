//! Corridor's own JSON environment format, version 1 (described in `docs/FORMAT.md`).

use crate::text::{excerpt, line_column, offset_in, LineCursor};
use corridor_geom::{
    Environment, EnvironmentError, Obstacle, ObstacleId, Owner, Point, Polygon, Ring, SnapGrid,
};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The version of the native JSON format this crate reads and writes.
pub const JSON_FORMAT_VERSION: u32 = 1;

/// What is wrong with a native JSON environment. Lines and columns are 1-based.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum JsonError {
    /// The text is not JSON.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// serde_json's message.
        message: String,
    },
    /// The text ends in the middle of the document.
    #[error("line {line}, column {column}: the file ended too early: {message}")]
    Truncated {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// serde_json's message.
        message: String,
    },
    /// Valid JSON of the wrong shape: a missing or unknown field, a string where a
    /// number belongs, a point without exactly two coordinates, a number too large for
    /// an `f64`…
    #[error("line {line}, column {column}: {message}")]
    Schema {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// serde_json's message.
        message: String,
    },
    /// A `version` other than [`JSON_FORMAT_VERSION`].
    #[error("line {line}, column {column}: unsupported format version {found}, this reader knows version 1")]
    UnsupportedVersion {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// The version as written.
        found: String,
    },
    /// An obstacle that is not exactly one of point, polyline or polygon, or has holes
    /// without being a polygon.
    #[error("line {line}, column {column}: obstacle {index}: {problem}")]
    BadObstacle {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// 0-based position in the `obstacles` array.
        index: usize,
        /// What is wrong.
        problem: &'static str,
    },
    /// An id that cannot be used.
    #[error("line {line}, column {column}: obstacle id {id} is reserved (ids go up to {max})", max = u32::MAX - 1)]
    ReservedId {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// The id.
        id: u32,
    },
    /// Two obstacles with the same id.
    #[error("line {line}, column {column}: obstacle id {id} is used a second time (first on line {first_line})")]
    DuplicateId {
        /// Line of the second use.
        line: usize,
        /// Column.
        column: usize,
        /// The id.
        id: u32,
        /// Line of the first use.
        first_line: usize,
    },
    /// `next_id` is not above every obstacle id, or too few ids are left for the
    /// obstacles without one.
    #[error("line {line}, column {column}: next_id {next_id} is not above obstacle id {id}")]
    NextIdTooSmall {
        /// Line of `next_id` (or of the obstacle when ids run out).
        line: usize,
        /// Column.
        column: usize,
        /// `next_id`.
        next_id: u64,
        /// The obstacle id it should exceed.
        id: u64,
    },
    /// `snap_scale` is not a positive finite number.
    #[error("line {line}, column {column}: snap_scale {scale} is not a positive finite number")]
    BadSnapScale {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// The scale.
        scale: f64,
    },
    /// The environment read is invalid; the position is that of the obstacle (or
    /// boundary) at fault.
    #[error("line {line}, column {column}: {source}")]
    Invalid {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// What [`Environment::validate`] found.
        source: EnvironmentError,
    },
    /// Writing: a coordinate is NaN or infinite (JSON has no such numbers).
    #[error("cannot write {0}")]
    Unwritable(EnvironmentError),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDocument<'a> {
    #[serde(borrow)]
    version: &'a RawValue,
    #[serde(borrow)]
    boundary: &'a RawValue,
    #[serde(borrow, default)]
    obstacles: Option<&'a RawValue>,
    #[serde(borrow, default)]
    snap_scale: Option<&'a RawValue>,
    #[serde(borrow, default)]
    next_id: Option<&'a RawValue>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ObstacleEntry {
    #[serde(default)]
    id: Option<u32>,
    #[serde(default)]
    point: Option<XY>,
    #[serde(default)]
    polyline: Option<Vec<XY>>,
    #[serde(default)]
    polygon: Option<Vec<XY>>,
    #[serde(default)]
    holes: Option<Vec<Vec<XY>>>,
}

/// A point written `[x, y]`: exactly two numbers, with a clear message otherwise.
pub(crate) struct XY(pub Point);

impl<'de> Deserialize<'de> for XY {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = XY;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a point [x, y]")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<XY, A::Error> {
                use serde::de::Error;
                const WHAT: &str = "a point [x, y] with exactly 2 coordinates";
                let x: f64 = seq
                    .next_element()?
                    .ok_or_else(|| A::Error::invalid_length(0, &WHAT))?;
                let y: f64 = seq
                    .next_element()?
                    .ok_or_else(|| A::Error::invalid_length(1, &WHAT))?;
                let mut n = 2;
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    n += 1;
                }
                if n > 2 {
                    return Err(A::Error::invalid_length(n, &WHAT));
                }
                Ok(XY(Point::new(x, y)))
            }
        }
        d.deserialize_seq(Visitor)
    }
}

fn points(v: Vec<XY>) -> Vec<Point> {
    v.into_iter().map(|p| p.0).collect()
}

/// The kind of a serde_json error.
pub(crate) enum JsonErrorKind {
    Syntax,
    Eof,
    Data,
}

/// Splits a serde_json error inside `part` (a slice of `whole`) into its kind, its line
/// and column in `whole`, and its message (without serde_json's position suffix).
pub(crate) fn serde_error_parts(
    e: serde_json::Error,
    whole: &str,
    part: &str,
) -> (JsonErrorKind, usize, usize, String) {
    let (part_line, part_column) = line_column(whole, offset_in(whole, part));
    let (line, column) = match e.line() {
        0 => (part_line, part_column),
        1 => (part_line, part_column + e.column().saturating_sub(1)),
        l => (part_line + l - 1, e.column()),
    };
    let text = e.to_string();
    let message = match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    };
    use serde_json::error::Category;
    let kind = match e.classify() {
        Category::Eof => JsonErrorKind::Eof,
        Category::Data => JsonErrorKind::Data,
        Category::Syntax | Category::Io => JsonErrorKind::Syntax,
    };
    (kind, line, column, message)
}

fn serde_error(e: serde_json::Error, whole: &str, part: &str) -> JsonError {
    match serde_error_parts(e, whole, part) {
        (JsonErrorKind::Eof, line, column, message) => JsonError::Truncated {
            line,
            column,
            message,
        },
        (JsonErrorKind::Data, line, column, message) => JsonError::Schema {
            line,
            column,
            message,
        },
        (JsonErrorKind::Syntax, line, column, message) => JsonError::Syntax {
            line,
            column,
            message,
        },
    }
}

fn parse_part<T: DeserializeOwned>(whole: &str, raw: &RawValue) -> Result<T, JsonError> {
    serde_json::from_str(raw.get()).map_err(|e| serde_error(e, whole, raw.get()))
}

fn position(whole: &str, raw: &RawValue) -> (usize, usize) {
    line_column(whole, offset_in(whole, raw.get()))
}

/// Reads an environment in the native JSON format and validates it.
///
/// Obstacles keep the ids written in the file; obstacles without an `id` get fresh ones
/// after all written ids (and after `next_id`), in file order. Every error names its
/// line and column: syntax and shape errors where serde_json stopped, semantic ones
/// (duplicate ids, [`Environment::validate`] failures) at the obstacle at fault.
///
/// ```
/// let text = r#"{
///   "version": 1,
///   "boundary": [[0, 0], [10, 0], [10, 10], [0, 10]],
///   "obstacles": [
///     {"id": 4, "polygon": [[2, 2], [3, 2], [3, 3]]},
///     {"id": 7, "point": [5, 5]}
///   ]
/// }"#;
/// let env = corridor_io::read_json(text).unwrap();
/// assert_eq!(env.obstacles().count(), 2);
/// assert!(env.obstacle(corridor_geom::ObstacleId(7)).is_some());
/// assert_eq!(corridor_io::read_json(&corridor_io::write_json(&env).unwrap()).unwrap(), env);
///
/// let bad = text.replace("[3, 3]", "[3, 2]"); // a triangle with a repeated vertex
/// let err = corridor_io::read_json(&bad).unwrap_err();
/// assert!(matches!(err, corridor_io::JsonError::Invalid { line: 5, .. }), "{err}");
/// ```
pub fn read_json(text: &str) -> Result<Environment, JsonError> {
    read_json_in(text, text)
}

/// [`read_json`] of `part`, a slice of `whole` (an environment inside a larger
/// document): errors name lines and columns of `whole`.
pub(crate) fn read_json_in(whole: &str, part: &str) -> Result<Environment, JsonError> {
    let text = whole;
    let doc: RawDocument = serde_json::from_str(part).map_err(|e| serde_error(e, whole, part))?;
    let version: serde_json::Value = parse_part(text, doc.version)?;
    if version.as_u64() != Some(JSON_FORMAT_VERSION as u64) {
        let (line, column) = position(text, doc.version);
        return Err(JsonError::UnsupportedVersion {
            line,
            column,
            found: excerpt(doc.version.get()),
        });
    }
    let boundary = Ring::new(points(parse_part(text, doc.boundary)?));
    let mut env = Environment::new(boundary);
    if let Some(raw) = doc.snap_scale {
        let scale: f64 = parse_part(text, raw)?;
        let (line, column) = position(text, raw);
        let grid = SnapGrid::new(scale).map_err(|_| JsonError::BadSnapScale {
            line,
            column,
            scale,
        })?;
        env = env.with_snap_grid(grid);
    }
    let raw_obstacles: Vec<&RawValue> = match doc.obstacles {
        Some(raw) => parse_raw_list(text, raw)?,
        None => Vec::new(),
    };
    let mut entries = Vec::with_capacity(raw_obstacles.len());
    let mut first_use: HashMap<u32, usize> = HashMap::new();
    let mut max_id: Option<u32> = None;
    // Obstacles come in file order: one pass over the text finds all their positions.
    let mut cursor = LineCursor::new(text);
    for (index, raw) in raw_obstacles.iter().enumerate() {
        let entry: ObstacleEntry = parse_part(text, raw)?;
        let (line, column) = cursor.at_part(raw.get());
        let (id, obstacle) = entry_obstacle(entry, line, column, index)?;
        if let Some(id) = id {
            if let Some(&first_line) = first_use.get(&id) {
                return Err(JsonError::DuplicateId {
                    line,
                    column,
                    id,
                    first_line,
                });
            }
            first_use.insert(id, line);
            max_id = max_id.max(Some(id));
        }
        entries.push((id, obstacle, (line, column)));
    }
    if let Some(raw) = doc.next_id {
        let next_id: u32 = parse_part(text, raw)?;
        let (line, column) = position(text, raw);
        if let Some(id) = max_id.filter(|&id| id >= next_id) {
            return Err(JsonError::NextIdTooSmall {
                line,
                column,
                next_id: next_id as u64,
                id: id as u64,
            });
        }
        if next_id > 0 {
            // Environment has no setter for its id counter: inserting under
            // `next_id - 1` and removing again leaves exactly that counter behind.
            let last = ObstacleId(next_id - 1);
            env.insert_with_id(last, Obstacle::Point(Point::ZERO));
            env.remove(last);
        }
    }
    let mut positions: HashMap<ObstacleId, (usize, usize)> = HashMap::new();
    let mut unnamed = Vec::new();
    for (id, obstacle, at) in entries {
        match id {
            Some(id) => {
                env.insert_with_id(ObstacleId(id), obstacle);
                positions.insert(ObstacleId(id), at);
            }
            None => unnamed.push((obstacle, at)),
        }
    }
    for (obstacle, at) in unnamed {
        let next = env.next_id().0;
        if next == u32::MAX {
            return Err(JsonError::NextIdTooSmall {
                line: at.0,
                column: at.1,
                next_id: next as u64 + 1,
                id: next as u64,
            });
        }
        positions.insert(env.insert(obstacle), at);
    }
    env.validate().map_err(|source| {
        let (line, column) = match owner_of(&source) {
            Some(Owner::Obstacle(id)) => positions.get(&id).copied(),
            _ => None,
        }
        .unwrap_or_else(|| position(text, doc.boundary));
        JsonError::Invalid {
            line,
            column,
            source,
        }
    })?;
    Ok(env)
}

/// Checks one obstacle object (exactly one kind, holes only on polygons, a usable id)
/// and turns it into its id and geometry.
fn entry_obstacle(
    entry: ObstacleEntry,
    line: usize,
    column: usize,
    index: usize,
) -> Result<(Option<u32>, Obstacle), JsonError> {
    let bad = |problem| JsonError::BadObstacle {
        line,
        column,
        index,
        problem,
    };
    let kinds = [
        entry.point.is_some(),
        entry.polyline.is_some(),
        entry.polygon.is_some(),
    ];
    match kinds.iter().filter(|&&k| k).count() {
        0 => return Err(bad("needs one of `point`, `polyline` or `polygon`")),
        1 => {}
        _ => {
            return Err(bad(
                "has more than one of `point`, `polyline` and `polygon`",
            ))
        }
    }
    if entry.holes.is_some() && entry.polygon.is_none() {
        return Err(bad("only a `polygon` may have `holes`"));
    }
    if entry.id == Some(u32::MAX) {
        return Err(JsonError::ReservedId {
            line,
            column,
            id: u32::MAX,
        });
    }
    let obstacle = if let Some(p) = entry.point {
        Obstacle::Point(p.0)
    } else if let Some(v) = entry.polyline {
        Obstacle::Polyline(points(v))
    } else {
        let exterior = Ring::new(points(entry.polygon.unwrap_or_default()));
        let holes = entry
            .holes
            .unwrap_or_default()
            .into_iter()
            .map(|h| Ring::new(points(h)))
            .collect();
        Obstacle::Polygon(Polygon::new(exterior, holes))
    };
    Ok((entry.id, obstacle))
}

/// One obstacle read by [`read_obstacles`].
#[derive(Clone, Debug, PartialEq)]
pub struct ObstacleRecord {
    /// The geometry.
    pub obstacle: Obstacle,
    /// The `id` written in the text, if any.
    pub id: Option<ObstacleId>,
    /// Line of the obstacle object (1-based).
    pub line: usize,
    /// Column of the obstacle object (1-based, in bytes).
    pub column: usize,
}

/// Reads obstacles on their own, without an environment: one obstacle object of the
/// native format (`{"polygon": …}`, `{"point": …}`, `{"polyline": …}`, optionally with
/// `"id"` and `"holes"`) or a JSON list of them. This is the input of dynamic updates
/// (`corridor update --insert`).
///
/// The objects are checked exactly as in [`read_json`] (one kind each, no unknown
/// fields, holes only on polygons, points of two numbers); errors name the line and
/// column, and [`JsonError::BadObstacle`] the 0-based position in the list. The geometry
/// itself (simple rings, finite coordinates) depends on the environment it goes into:
/// check it with [`Environment::validate_obstacle_geometry`]. Ids are returned as
/// written, without a duplicate check (an update hands out fresh ids anyway).
///
/// ```
/// use corridor_geom::{Environment, Obstacle, Point};
/// let one = corridor_io::read_obstacles(r#"{"polygon": [[1, 1], [2, 1], [2, 3]]}"#).unwrap();
/// assert_eq!(one.len(), 1);
/// assert!(matches!(one[0].obstacle, Obstacle::Polygon(_)));
///
/// let list = corridor_io::read_obstacles("[\n  {\"point\": [5, 5]},\n  {\"id\": 3, \"polyline\": [[0, 0], [1, 1]]}\n]").unwrap();
/// assert_eq!(list[0].obstacle, Obstacle::Point(Point::new(5.0, 5.0)));
/// assert_eq!((list[1].id, list[1].line), (Some(corridor_geom::ObstacleId(3)), 3));
///
/// // The geometry is checked against the environment it is meant for.
/// let env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
/// let bow_tie = corridor_io::read_obstacles(r#"{"polygon": [[0, 0], [2, 2], [2, 0], [0, 2]]}"#).unwrap();
/// assert!(env.validate_obstacle_geometry(&bow_tie[0].obstacle).is_err());
///
/// let err = corridor_io::read_obstacles(r#"[{"point": [1, 1], "polygon": []}]"#).unwrap_err();
/// assert!(matches!(err, corridor_io::JsonError::BadObstacle { index: 0, .. }), "{err}");
/// ```
pub fn read_obstacles(text: &str) -> Result<Vec<ObstacleRecord>, JsonError> {
    let value: &RawValue = serde_json::from_str(text).map_err(|e| serde_error(e, text, text))?;
    let raw = value.get().trim_start();
    let list: Vec<&RawValue> = if raw.starts_with('[') {
        parse_raw_list(text, value)?
    } else {
        vec![value]
    };
    let mut records = Vec::with_capacity(list.len());
    let mut cursor = LineCursor::new(text);
    for (index, raw) in list.into_iter().enumerate() {
        let entry: ObstacleEntry = parse_part(text, raw)?;
        let (line, column) = cursor.at_part(raw.get());
        let (id, obstacle) = entry_obstacle(entry, line, column, index)?;
        records.push(ObstacleRecord {
            obstacle,
            id: id.map(ObstacleId),
            line,
            column,
        });
    }
    Ok(records)
}

/// The boundary or obstacle an [`EnvironmentError`] names.
pub(crate) fn owner_of(e: &EnvironmentError) -> Option<Owner> {
    match e {
        EnvironmentError::NonFinite { owner, .. }
        | EnvironmentError::TooFewVertices { owner, .. }
        | EnvironmentError::TooFewPoints { owner, .. }
        | EnvironmentError::SelfIntersecting { owner, .. }
        | EnvironmentError::HoleOutside { owner, .. }
        | EnvironmentError::OutsideBoundary { owner }
        | EnvironmentError::Snap { owner, .. } => Some(*owner),
        EnvironmentError::UnknownObstacle(id) => Some(Owner::Obstacle(*id)),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

fn parse_raw_list<'a>(text: &'a str, raw: &'a RawValue) -> Result<Vec<&'a RawValue>, JsonError> {
    serde_json::from_str(raw.get()).map_err(|e| serde_error(e, text, raw.get()))
}

/// Writes an environment in the native JSON format: one obstacle a line, every
/// coordinate in the shortest decimal form that reads back to the same `f64`, so
/// [`read_json`] gives back an equal environment (same ids, same `next_id`, same snap
/// scale, bit-identical coordinates).
///
/// Fails only for NaN or infinite coordinates, which JSON cannot hold. The environment
/// is not validated (an invalid one is written as it is, and reading it back fails).
///
/// ```
/// use corridor_geom::{Environment, Obstacle, Point};
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(4.0, 3.0));
/// env.insert(Obstacle::segment(Point::new(1.0, 1.0), Point::new(2.5, 1.0)));
/// let text = corridor_io::write_json(&env).unwrap();
/// assert!(text.contains(r#"{"id": 0, "polyline": [[1.0, 1.0], [2.5, 1.0]]}"#));
/// ```
pub fn write_json(env: &Environment) -> Result<String, JsonError> {
    let mut out = String::new();
    out.push_str("{\n  \"version\": 1,\n  \"snap_scale\": ");
    number(&mut out, env.snap_grid().scale(), Owner::Boundary)?;
    let _ = write!(
        out,
        ",\n  \"next_id\": {},\n  \"boundary\": ",
        env.next_id().0
    );
    point_list(&mut out, env.boundary().vertices(), Owner::Boundary)?;
    out.push_str(",\n  \"obstacles\": [");
    for (k, (id, obstacle)) in env.obstacles().enumerate() {
        out.push_str(if k == 0 { "\n    " } else { ",\n    " });
        let owner = Owner::Obstacle(id);
        let _ = write!(out, "{{\"id\": {}, ", id.0);
        match obstacle {
            Obstacle::Point(p) => {
                out.push_str("\"point\": ");
                point(&mut out, *p, owner)?;
            }
            Obstacle::Polyline(v) => {
                out.push_str("\"polyline\": ");
                point_list(&mut out, v, owner)?;
            }
            Obstacle::Polygon(poly) => {
                out.push_str("\"polygon\": ");
                point_list(&mut out, poly.exterior.vertices(), owner)?;
                if !poly.holes.is_empty() {
                    out.push_str(", \"holes\": [");
                    for (h, hole) in poly.holes.iter().enumerate() {
                        if h > 0 {
                            out.push_str(", ");
                        }
                        point_list(&mut out, hole.vertices(), owner)?;
                    }
                    out.push(']');
                }
            }
        }
        out.push('}');
    }
    out.push_str(if env.obstacles().len() == 0 {
        "]\n}\n"
    } else {
        "\n  ]\n}\n"
    });
    Ok(out)
}

fn number(out: &mut String, x: f64, owner: Owner) -> Result<(), JsonError> {
    if !x.is_finite() {
        return Err(JsonError::Unwritable(EnvironmentError::NonFinite {
            owner,
            x,
            y: x,
        }));
    }
    // serde_json prints the shortest representation that parses back to the same bits
    // (and this crate enables serde_json's `float_roundtrip` so that parsing is exact).
    out.push_str(&serde_json::to_string(&x).unwrap_or_default());
    Ok(())
}

fn point(out: &mut String, p: Point, owner: Owner) -> Result<(), JsonError> {
    if !p.is_finite() {
        return Err(JsonError::Unwritable(EnvironmentError::NonFinite {
            owner,
            x: p.x,
            y: p.y,
        }));
    }
    out.push('[');
    number(out, p.x, owner)?;
    out.push_str(", ");
    number(out, p.y, owner)?;
    out.push(']');
    Ok(())
}

fn point_list(out: &mut String, v: &[Point], owner: Owner) -> Result<(), JsonError> {
    out.push('[');
    for (i, &p) in v.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        point(out, p, owner)?;
    }
    out.push(']');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_obstacles_reads_one_or_a_list_like_read_json() {
        // Every obstacle of a written environment reads back alone and as a list.
        let mut env = Environment::rectangle(Point::ZERO, Point::new(20.0, 10.0));
        env.insert(Obstacle::Polygon(Polygon::new(
            Ring::new(vec![
                Point::new(2.0, 2.0),
                Point::new(6.0, 2.0),
                Point::new(6.0, 6.0),
                Point::new(2.0, 6.0),
            ]),
            vec![Ring::new(vec![
                Point::new(3.0, 3.0),
                Point::new(4.0, 3.0),
                Point::new(4.0, 4.0),
            ])],
        )));
        env.insert(Obstacle::Polyline(vec![
            Point::new(8.0, 1.0),
            Point::new(8.0, 9.0),
        ]));
        env.insert(Obstacle::Point(Point::new(15.5, 5.25)));
        let text = write_json(&env).unwrap();
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        let list = doc["obstacles"].to_string();
        let records = read_obstacles(&list).unwrap();
        assert_eq!(records.len(), 3);
        for (record, (id, obstacle)) in records.iter().zip(env.obstacles()) {
            assert_eq!(record.id, Some(id));
            assert_eq!(&record.obstacle, obstacle);
            let alone = read_obstacles(&doc["obstacles"][id.0 as usize].to_string()).unwrap();
            assert_eq!(
                alone,
                vec![ObstacleRecord {
                    line: 1,
                    column: 1,
                    ..record.clone()
                }]
            );
        }
        assert_eq!(read_obstacles("[]").unwrap(), vec![]);
    }

    #[test]
    fn read_obstacles_names_the_problem_and_its_place() {
        let cases: &[(&str, &str, usize)] = &[
            ("{\"polygon\": [[0, 0], [1, 0], [1, 1]]", "Truncated", 1),
            (
                "[\n{\"point\": [1, 1]},\n{\"pont\": [1, 1]}\n]",
                "Schema",
                3,
            ),
            ("[\n{\"point\": [1, 1]},\n{\"id\": 4}\n]", "BadObstacle", 3),
            ("{\"polyline\": [[0, 0]], \"holes\": []}", "BadObstacle", 1),
            ("{\"point\": [1, 2, 3]}", "Schema", 1),
            ("{\"point\": [1, 1], \"id\": 4294967295}", "ReservedId", 1),
            ("\"point\"", "Schema", 1),
            ("[1, 2", "Truncated", 1),
            ("nonsense", "Syntax", 1),
        ];
        for (text, variant, line) in cases {
            let err = read_obstacles(text).unwrap_err();
            let debug = format!("{err:?}");
            assert!(debug.starts_with(variant), "{text}: {debug}");
            assert!(
                err.to_string().starts_with(&format!("line {line},")),
                "{text}: {err}"
            );
        }
        let err = read_obstacles("[{\"point\": [1, 1]}, {}]").unwrap_err();
        assert!(
            matches!(err, JsonError::BadObstacle { index: 1, .. }),
            "{err}"
        );
    }
}
