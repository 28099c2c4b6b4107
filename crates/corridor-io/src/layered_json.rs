//! Corridor's layered JSON format, version 1 (described in `docs/FORMAT.md`): a
//! multi-layered environment as layers (a name, a height plane, optional per-patch
//! heights and a native JSON environment each) and connections between them.

use crate::native::{read_json_in, serde_error_parts, JsonErrorKind, XY};
use crate::text::{excerpt, line_column, offset_in};
use crate::{write_json, JsonError};
use corridor_geom::{
    HeightField, HeightPlane, Layer, LayerId, LayeredEnvironment, LayeredError, Segment,
};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::fmt::Write as _;

/// The `format` value of a layered JSON document.
pub const LAYERED_FORMAT: &str = "corridor-layered";

/// The version of the layered JSON format this crate reads and writes.
pub const LAYERED_FORMAT_VERSION: u32 = 1;

/// What is wrong with a layered JSON document. Lines and columns are 1-based, in the
/// whole document.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LayeredJsonError {
    /// Not JSON, cut short, or JSON of the wrong shape (a missing or unknown field, a
    /// string where a number belongs…).
    #[error("line {line}, column {column}: {message}")]
    Shape {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// serde_json's message.
        message: String,
    },
    /// `format` is not `"corridor-layered"` or `version` is not
    /// [`LAYERED_FORMAT_VERSION`].
    #[error("line {line}, column {column}: unsupported {what} {found} (this reader knows format \"corridor-layered\", version 1)")]
    Unsupported {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// `format` or `version`.
        what: &'static str,
        /// The value as written.
        found: String,
    },
    /// A layer's environment is not a valid native JSON environment.
    #[error("layer {layer}: {source}")]
    Environment {
        /// The layer's index.
        layer: usize,
        /// What is wrong (its position is in the whole document).
        source: JsonError,
    },
    /// A layer's height plane or surface is not finite or not well formed.
    #[error("line {line}, column {column}: layer {layer}: {problem}")]
    Height {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// The layer's index.
        layer: usize,
        /// What is wrong.
        problem: String,
    },
    /// A connection the model refuses (an unknown layer, not on both layers' free
    /// boundary, free on the same side…).
    #[error("line {line}, column {column}: connection {index}: {source}")]
    Connection {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// 0-based position in `connections`.
        index: usize,
        /// What the model's check found.
        source: LayeredError,
    },
    /// Writing: a layer cannot be written (NaN or infinite coordinates or heights).
    #[error("cannot write layer {layer}: {problem}")]
    Unwritable {
        /// The layer's index.
        layer: usize,
        /// What is wrong.
        problem: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDocument<'a> {
    #[serde(borrow)]
    format: &'a RawValue,
    #[serde(borrow)]
    version: &'a RawValue,
    #[serde(borrow)]
    layers: Vec<RawLayer<'a>>,
    #[serde(borrow, default)]
    connections: Vec<&'a RawValue>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLayer<'a> {
    #[serde(default)]
    name: String,
    #[serde(borrow)]
    height: &'a RawValue,
    #[serde(borrow, default)]
    surface: Option<&'a RawValue>,
    #[serde(borrow)]
    environment: &'a RawValue,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConnection {
    layers: [u32; 2],
    segment: [XY; 2],
}

fn shape(e: serde_json::Error, whole: &str, part: &str) -> LayeredJsonError {
    let (kind, line, column, message) = serde_error_parts(e, whole, part);
    let message = match kind {
        JsonErrorKind::Eof => format!("the file ended too early: {message}"),
        JsonErrorKind::Syntax | JsonErrorKind::Data => message,
    };
    LayeredJsonError::Shape {
        line,
        column,
        message,
    }
}

fn parse<T: DeserializeOwned>(whole: &str, raw: &RawValue) -> Result<T, LayeredJsonError> {
    serde_json::from_str(raw.get()).map_err(|e| shape(e, whole, raw.get()))
}

fn position(whole: &str, raw: &RawValue) -> (usize, usize) {
    line_column(whole, offset_in(whole, raw.get()))
}

/// Reads a layered environment in the layered JSON format and validates it: every
/// layer's environment as [`crate::read_json`] does, every connection with the model's
/// exact check ([`LayeredEnvironment::connect`]).
///
/// ```
/// let text = r#"{
///   "format": "corridor-layered", "version": 1,
///   "layers": [
///     {"name": "hall", "height": {"a": 0, "b": 0, "c": 0},
///      "environment": {"version": 1, "boundary": [[0, 0], [10, 0], [10, 4], [0, 4]]}},
///     {"name": "ramp", "height": {"a": 0.2, "b": 0, "c": -2},
///      "environment": {"version": 1, "boundary": [[10, 0], [15, 0], [15, 4], [10, 4]]}}
///   ],
///   "connections": [{"layers": [0, 1], "segment": [[10, 1], [10, 3]]}]
/// }"#;
/// let world = corridor_io::read_layered_json(text).unwrap();
/// assert_eq!((world.layer_count(), world.connections().len()), (2, 1));
/// let again = corridor_io::write_layered_json(&world).unwrap();
/// assert_eq!(corridor_io::read_layered_json(&again).unwrap(), world);
/// // A connection inside the hall is on neither boundary: refused, with its line.
/// let bad = text.replace("[[10, 1], [10, 3]]", "[[5, 1], [5, 3]]");
/// let err = corridor_io::read_layered_json(&bad).unwrap_err();
/// assert!(err.to_string().starts_with("line 9, column 19: connection 0"), "{err}");
/// ```
pub fn read_layered_json(text: &str) -> Result<LayeredEnvironment, LayeredJsonError> {
    let doc: RawDocument = serde_json::from_str(text).map_err(|e| shape(e, text, text))?;
    let format: serde_json::Value = parse(text, doc.format)?;
    if format.as_str() != Some(LAYERED_FORMAT) {
        let (line, column) = position(text, doc.format);
        return Err(LayeredJsonError::Unsupported {
            line,
            column,
            what: "format",
            found: excerpt(doc.format.get()),
        });
    }
    let version: serde_json::Value = parse(text, doc.version)?;
    if version.as_u64() != Some(LAYERED_FORMAT_VERSION as u64) {
        let (line, column) = position(text, doc.version);
        return Err(LayeredJsonError::Unsupported {
            line,
            column,
            what: "version",
            found: excerpt(doc.version.get()),
        });
    }
    let mut world = LayeredEnvironment::new();
    for (index, raw) in doc.layers.into_iter().enumerate() {
        let environment = read_json_in(text, raw.environment.get()).map_err(|source| {
            LayeredJsonError::Environment {
                layer: index,
                source,
            }
        })?;
        let height: HeightPlane = parse(text, raw.height)?;
        let bad_height = |at: &RawValue, problem: String| {
            let (line, column) = position(text, at);
            LayeredJsonError::Height {
                line,
                column,
                layer: index,
                problem,
            }
        };
        if ![height.a, height.b, height.c].iter().all(|v| v.is_finite()) {
            return Err(bad_height(
                raw.height,
                "the height plane is not finite".into(),
            ));
        }
        let mut layer = Layer::new(raw.name, environment, height);
        if let Some(at) = raw.surface {
            // HeightField's own check (rings of 3 points, finite) runs as it is read.
            let surface: HeightField = serde_json::from_str(at.get())
                .map_err(|e| bad_height(at, format!("surface: {e}")))?;
            layer = layer.with_surface(surface);
        }
        world.add_layer(layer);
    }
    for (index, raw) in doc.connections.iter().enumerate() {
        let c: RawConnection = parse(text, raw)?;
        let [a, b] = c.segment.map(|p| p.0);
        let (line, column) = position(text, raw);
        world
            .connect(
                LayerId(c.layers[0]),
                LayerId(c.layers[1]),
                Segment::new(a, b),
            )
            .map_err(|source| LayeredJsonError::Connection {
                line,
                column,
                index,
                source,
            })?;
    }
    Ok(world)
}

/// Writes a layered environment in the layered JSON format: each layer's environment
/// as [`write_json`] writes it (bit-identical coordinates), heights and connections in
/// the shortest decimal form that reads back to the same `f64`, so
/// [`read_layered_json`] gives back an equal environment (when it is valid).
pub fn write_layered_json(world: &LayeredEnvironment) -> Result<String, LayeredJsonError> {
    let mut out = String::new();
    let _ = write!(
        out,
        "{{\n  \"format\": \"{LAYERED_FORMAT}\",\n  \"version\": {LAYERED_FORMAT_VERSION},\n  \"layers\": ["
    );
    for (id, layer) in world.layers() {
        let index = id.0 as usize;
        let unwritable = |problem: String| LayeredJsonError::Unwritable {
            layer: index,
            problem,
        };
        let h = layer.height;
        if ![h.a, h.b, h.c].iter().all(|v| v.is_finite()) {
            return Err(unwritable("the height plane is not finite".into()));
        }
        out.push_str(if index == 0 { "\n    {" } else { ",\n    {" });
        let name = serde_json::to_string(&layer.name).map_err(|e| unwritable(e.to_string()))?;
        let height = serde_json::to_string(&h).map_err(|e| unwritable(e.to_string()))?;
        let _ = write!(
            out,
            "\n      \"name\": {name},\n      \"height\": {height},"
        );
        if let Some(surface) = &layer.surface {
            let finite = surface.patches().iter().all(|p| {
                [p.plane.a, p.plane.b, p.plane.c]
                    .iter()
                    .all(|v| v.is_finite())
                    && p.rings.iter().flatten().all(|q| q.is_finite())
            });
            if !finite {
                return Err(unwritable("the surface is not finite".into()));
            }
            let s = serde_json::to_string(surface).map_err(|e| unwritable(e.to_string()))?;
            let _ = write!(out, "\n      \"surface\": {s},");
        }
        let env = write_json(&layer.environment).map_err(|e| unwritable(e.to_string()))?;
        out.push_str("\n      \"environment\": ");
        out.push_str(&env.trim_end().replace('\n', "\n      "));
        out.push_str("\n    }");
    }
    out.push_str("\n  ],\n  \"connections\": [");
    for (id, c) in world.connections() {
        let s = c.segment;
        if ![s.a, s.b].iter().all(|p| p.is_finite()) {
            return Err(LayeredJsonError::Unwritable {
                layer: c.layers[0].0 as usize,
                problem: format!("connection {id} is not finite"),
            });
        }
        let _ = write!(
            out,
            "{}\n    {{\"layers\": [{}, {}], \"segment\": [[{:?}, {:?}], [{:?}, {:?}]]}}",
            if id.0 == 0 { "" } else { "," },
            c.layers[0].0,
            c.layers[1].0,
            s.a.x,
            s.a.y,
            s.b.x,
            s.b.y
        );
    }
    out.push_str("\n  ]\n}\n");
    Ok(out)
}

/// Whether `text` looks like a layered JSON document (a top-level `"format":
/// "corridor-layered"`), to tell it from a native or GeoJSON file of the same extension.
pub fn is_layered_json(text: &str) -> bool {
    #[derive(Deserialize)]
    struct Probe {
        #[serde(default)]
        format: Option<String>,
    }
    serde_json::from_str::<Probe>(text).is_ok_and(|p| p.format.as_deref() == Some(LAYERED_FORMAT))
}
