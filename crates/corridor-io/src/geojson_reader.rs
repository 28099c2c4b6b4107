//! GeoJSON FeatureCollections as environments.

use crate::native::owner_of;
use crate::text::{excerpt, line_column, LineCursor};
use corridor_geom::{
    Aabb, Environment, EnvironmentError, Obstacle, ObstacleId, Owner, Point, Polygon, Ring,
};
use geojson::{Feature, GeometryValue, Position};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::collections::HashMap;

/// Without a boundary feature, the boundary is the bounding box of all coordinates grown
/// on every side by this fraction of its larger side (or by 1 unit when the box has no
/// extent at all).
pub const GEOJSON_MARGIN_FRACTION: f64 = 0.05;

/// What is wrong with a GeoJSON environment. Features are counted from 0 in the order of
/// the `features` array; lines and columns are 1-based.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GeoJsonError {
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
    /// Valid JSON that is not valid GeoJSON (a missing member, a wrong type…).
    #[error("line {line}, column {column}: {message}")]
    Schema {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// The top-level object is not a FeatureCollection.
    #[error("expected a FeatureCollection, found a `{found}`")]
    NotFeatureCollection {
        /// The `type` found.
        found: String,
    },
    /// A feature without geometry.
    #[error("line {line}: feature {feature} has no geometry")]
    MissingGeometry {
        /// Feature index.
        feature: usize,
        /// Line where the feature starts.
        line: usize,
    },
    /// A geometry type that cannot become an obstacle (GeometryCollection), or a
    /// boundary that is not a Polygon.
    #[error("line {line}: feature {feature}: {kind} is not supported {context}")]
    UnsupportedGeometry {
        /// Feature index.
        feature: usize,
        /// Line where the feature starts.
        line: usize,
        /// The geometry type.
        kind: &'static str,
        /// `as an obstacle` or `as the boundary`.
        context: &'static str,
    },
    /// A multi-geometry without parts, or a polygon without rings.
    #[error("line {line}: feature {feature}: the {kind} is empty")]
    EmptyGeometry {
        /// Feature index.
        feature: usize,
        /// Line where the feature starts.
        line: usize,
        /// The geometry type.
        kind: &'static str,
    },
    /// A position without exactly two coordinates (altitudes are not dropped silently).
    #[error("line {line}: feature {feature}: a position has {dimensions} coordinates, expected 2")]
    BadPosition {
        /// Feature index.
        feature: usize,
        /// Line where the feature starts.
        line: usize,
        /// How many it has.
        dimensions: usize,
    },
    /// An `id` property that cannot be an obstacle id.
    #[error("line {line}: feature {feature}: id {found}: {reason}")]
    BadId {
        /// Feature index.
        feature: usize,
        /// Line where the feature starts.
        line: usize,
        /// The value found.
        found: String,
        /// Why it cannot be used.
        reason: &'static str,
    },
    /// Two features with the same `id`.
    #[error("line {line}: feature {feature} repeats the id {id} of feature {first_feature}")]
    DuplicateId {
        /// Feature index.
        feature: usize,
        /// Line where the feature starts.
        line: usize,
        /// The id.
        id: u32,
        /// The feature that used it first.
        first_feature: usize,
    },
    /// A `role` other than `boundary` or `obstacle`.
    #[error("line {line}: feature {feature}: unknown role {found} (expected \"boundary\" or \"obstacle\")")]
    UnknownRole {
        /// Feature index.
        feature: usize,
        /// Line where the feature starts.
        line: usize,
        /// The value found.
        found: String,
    },
    /// Two features with `"role": "boundary"`.
    #[error("line {line}: feature {feature} is a second boundary (the first is feature {first_feature})")]
    DuplicateBoundary {
        /// Feature index.
        feature: usize,
        /// Line where the feature starts.
        line: usize,
        /// The first boundary feature.
        first_feature: usize,
    },
    /// No boundary and no coordinates to make one from.
    #[error("the collection has no boundary feature and no coordinates to make one from")]
    Empty,
    /// More obstacles than ids.
    #[error("line {line}: feature {feature}: no obstacle ids are left")]
    IdsExhausted {
        /// Feature index.
        feature: usize,
        /// Line where the feature starts.
        line: usize,
    },
    /// The environment read is invalid. `feature` is the feature at fault (`None` for
    /// the boundary made from the bounding box).
    #[error("line {line}: {}: {source}", feature.map_or("the generated boundary".to_string(), |f| format!("feature {f}")))]
    Invalid {
        /// Feature index.
        feature: Option<usize>,
        /// Line where the feature starts (1 for the generated boundary).
        line: usize,
        /// What [`Environment::validate`] found.
        source: EnvironmentError,
    },
}

#[derive(Deserialize)]
struct RawCollection<'a> {
    #[serde(rename = "type")]
    kind: String,
    #[serde(borrow, default)]
    features: Option<Vec<&'a RawValue>>,
}

fn serde_error(e: serde_json::Error, whole: &str, part: &str) -> GeoJsonError {
    match crate::native::serde_error_parts(e, whole, part) {
        (crate::native::JsonErrorKind::Eof, line, column, message) => GeoJsonError::Truncated {
            line,
            column,
            message,
        },
        (crate::native::JsonErrorKind::Data, line, column, message) => GeoJsonError::Schema {
            line,
            column,
            message,
        },
        (crate::native::JsonErrorKind::Syntax, line, column, message) => GeoJsonError::Syntax {
            line,
            column,
            message,
        },
    }
}

/// Reads a GeoJSON FeatureCollection into an environment and validates it.
///
/// * `Polygon` → one polygon obstacle (first ring exterior, others holes); `MultiPolygon`
///   → one obstacle per polygon; `LineString` / `MultiLineString` → polyline obstacles;
///   `Point` / `MultiPoint` → point obstacles. `GeometryCollection` → error naming the
///   feature.
/// * A `Polygon` feature whose properties have `"role": "boundary"` is the boundary (at
///   most one); its holes, if any, become polygon obstacles. Without one, the boundary
///   is the bounding box of all coordinates grown by [`GEOJSON_MARGIN_FRACTION`] of its
///   larger side on every side.
/// * A numeric `"id"` property (a whole number from 0 to 4 294 967 294) keeps the
///   obstacle id; it is allowed only where the feature makes exactly one obstacle.
///   Obstacles without one get fresh ids after the largest given id, in feature order.
///   (The feature's own top-level `id` member is not used.)
/// * Positions must have exactly 2 coordinates; rings may or may not repeat their first
///   position at the end.
///
/// ```
/// let text = r#"{"type": "FeatureCollection", "features": [
///   {"type": "Feature", "properties": {"role": "boundary"},
///    "geometry": {"type": "Polygon", "coordinates": [[[0,0],[10,0],[10,10],[0,10],[0,0]]]}},
///   {"type": "Feature", "properties": {"id": 12},
///    "geometry": {"type": "Polygon", "coordinates": [[[2,2],[4,2],[4,4],[2,2]]]}},
///   {"type": "Feature", "properties": null,
///    "geometry": {"type": "MultiPoint", "coordinates": [[6,6],[7,7]]}}
/// ]}"#;
/// let env = corridor_io::read_geojson(text).unwrap();
/// assert_eq!(env.boundary().area(), 100.0);
/// let ids: Vec<u32> = env.obstacles().map(|(id, _)| id.0).collect();
/// assert_eq!(ids, [12, 13, 14]);
///
/// let bad = text.replace(
///     r#"{"type": "MultiPoint", "coordinates": [[6,6],[7,7]]}"#,
///     r#"{"type": "GeometryCollection", "geometries": []}"#,
/// );
/// let err = corridor_io::read_geojson(&bad).unwrap_err();
/// assert_eq!(err.to_string(), "line 6: feature 2: GeometryCollection is not supported as an obstacle");
/// ```
pub fn read_geojson(text: &str) -> Result<Environment, GeoJsonError> {
    let top: RawCollection = serde_json::from_str(text).map_err(|e| serde_error(e, text, text))?;
    if top.kind != "FeatureCollection" {
        return Err(GeoJsonError::NotFeatureCollection {
            found: excerpt(&top.kind),
        });
    }
    let Some(raw_features) = top.features else {
        let (line, column) = line_column(text, text.len());
        return Err(GeoJsonError::Schema {
            line,
            column,
            message: "missing field `features`".into(),
        });
    };
    let mut boundary: Option<(Ring, usize)> = None;
    let mut named: Vec<(u32, Obstacle, usize)> = Vec::new();
    let mut unnamed: Vec<(Obstacle, usize)> = Vec::new();
    let mut first_use: HashMap<u32, usize> = HashMap::new();
    let mut lines = Vec::with_capacity(raw_features.len());
    // Features come in file order: one pass over the text finds all their lines.
    let mut cursor = LineCursor::new(text);
    for (index, raw) in raw_features.iter().enumerate() {
        let feature: Feature =
            serde_json::from_str(raw.get()).map_err(|e| serde_error(e, text, raw.get()))?;
        let line = cursor.at_part(raw.get()).0;
        lines.push(line);
        let props = feature.properties.as_ref();
        let role = props.and_then(|p| p.get("role"));
        let is_boundary = match role {
            None | Some(serde_json::Value::Null) => false,
            Some(serde_json::Value::String(s)) if s == "obstacle" => false,
            Some(serde_json::Value::String(s)) if s == "boundary" => true,
            Some(other) => {
                return Err(GeoJsonError::UnknownRole {
                    feature: index,
                    line,
                    found: excerpt(&other.to_string()),
                })
            }
        };
        let id = match props.and_then(|p| p.get("id")) {
            None | Some(serde_json::Value::Null) => None,
            Some(v) => Some(parse_id(v, index, line)?),
        };
        let Some(geometry) = feature.geometry else {
            return Err(GeoJsonError::MissingGeometry {
                feature: index,
                line,
            });
        };
        let ctx = Ctx {
            feature: index,
            line,
        };
        if is_boundary {
            if let Some((_, first_feature)) = boundary {
                return Err(GeoJsonError::DuplicateBoundary {
                    feature: index,
                    line,
                    first_feature,
                });
            }
            let GeometryValue::Polygon { coordinates } = &geometry.value else {
                return Err(GeoJsonError::UnsupportedGeometry {
                    feature: index,
                    line,
                    kind: geometry.value.type_name(),
                    context: "as the boundary",
                });
            };
            if let Some(id) = id {
                return Err(GeoJsonError::BadId {
                    feature: index,
                    line,
                    found: id.to_string(),
                    reason: "the boundary is not an obstacle and has no id",
                });
            }
            let polygon = ctx.polygon(coordinates)?;
            boundary = Some((polygon.exterior, index));
            for hole in polygon.holes {
                unnamed.push((Obstacle::Polygon(Polygon::simple(hole)), index));
            }
            continue;
        }
        let obstacles = ctx.obstacles(&geometry.value)?;
        match id {
            Some(id) => {
                if obstacles.len() != 1 {
                    return Err(GeoJsonError::BadId {
                        feature: index,
                        line,
                        found: id.to_string(),
                        reason: "the geometry makes several obstacles, which cannot share one id",
                    });
                }
                if let Some(&first_feature) = first_use.get(&id) {
                    return Err(GeoJsonError::DuplicateId {
                        feature: index,
                        line,
                        id,
                        first_feature,
                    });
                }
                first_use.insert(id, index);
                named.extend(obstacles.into_iter().map(|o| (id, o, index)));
            }
            None => unnamed.extend(obstacles.into_iter().map(|o| (o, index))),
        }
    }
    let (ring, boundary_feature) = match boundary {
        Some((ring, f)) => (ring, Some(f)),
        None => {
            let all = named
                .iter()
                .map(|(_, o, _)| o)
                .chain(unnamed.iter().map(|(o, _)| o))
                .flat_map(|o| o.points());
            let b = Aabb::from_points(all).ok_or(GeoJsonError::Empty)?;
            let side = b.size().x.max(b.size().y);
            let margin = if side > 0.0 {
                side * GEOJSON_MARGIN_FRACTION
            } else {
                1.0
            };
            (Ring::new(b.expanded(margin).corners().to_vec()), None)
        }
    };
    let mut env = Environment::new(ring);
    let mut feature_of: HashMap<ObstacleId, usize> = HashMap::new();
    for (id, obstacle, feature) in named {
        env.insert_with_id(ObstacleId(id), obstacle);
        feature_of.insert(ObstacleId(id), feature);
    }
    for (obstacle, feature) in unnamed {
        if env.next_id().0 == u32::MAX {
            return Err(GeoJsonError::IdsExhausted {
                feature,
                line: lines[feature],
            });
        }
        feature_of.insert(env.insert(obstacle), feature);
    }
    env.validate().map_err(|source| {
        let feature = match owner_of(&source) {
            Some(Owner::Obstacle(id)) => feature_of.get(&id).copied(),
            _ => boundary_feature,
        };
        GeoJsonError::Invalid {
            feature,
            line: feature.map_or(1, |f| lines[f]),
            source,
        }
    })?;
    Ok(env)
}

fn parse_id(v: &serde_json::Value, feature: usize, line: usize) -> Result<u32, GeoJsonError> {
    let bad = |reason| GeoJsonError::BadId {
        feature,
        line,
        found: excerpt(&v.to_string()),
        reason,
    };
    let serde_json::Value::Number(n) = v else {
        return Err(bad("an id must be a number"));
    };
    let value = match (n.as_u64(), n.as_f64()) {
        (Some(u), _) => u,
        (None, Some(f)) if f >= 0.0 && f.fract() == 0.0 && f < 4_294_967_296.0 => f as u64,
        _ => return Err(bad("an id must be a whole number from 0 to 4294967294")),
    };
    if value >= u32::MAX as u64 {
        return Err(bad("an id must be a whole number from 0 to 4294967294"));
    }
    Ok(value as u32)
}

struct Ctx {
    feature: usize,
    line: usize,
}

impl Ctx {
    fn point(&self, p: &Position) -> Result<Point, GeoJsonError> {
        match p.as_slice() {
            &[x, y] => Ok(Point::new(x, y)),
            other => Err(GeoJsonError::BadPosition {
                feature: self.feature,
                line: self.line,
                dimensions: other.len(),
            }),
        }
    }

    fn points(&self, v: &[Position]) -> Result<Vec<Point>, GeoJsonError> {
        v.iter().map(|p| self.point(p)).collect()
    }

    fn empty(&self, kind: &'static str) -> GeoJsonError {
        GeoJsonError::EmptyGeometry {
            feature: self.feature,
            line: self.line,
            kind,
        }
    }

    fn polygon(&self, rings: &[Vec<Position>]) -> Result<Polygon, GeoJsonError> {
        let Some((exterior, holes)) = rings.split_first() else {
            return Err(self.empty("Polygon"));
        };
        let exterior = Ring::new(self.points(exterior)?);
        let holes = holes
            .iter()
            .map(|h| self.points(h).map(Ring::new))
            .collect::<Result<_, _>>()?;
        Ok(Polygon::new(exterior, holes))
    }

    fn obstacles(&self, value: &GeometryValue) -> Result<Vec<Obstacle>, GeoJsonError> {
        let out = match value {
            GeometryValue::Point { coordinates } => vec![Obstacle::Point(self.point(coordinates)?)],
            GeometryValue::MultiPoint { coordinates } => coordinates
                .iter()
                .map(|p| self.point(p).map(Obstacle::Point))
                .collect::<Result<_, _>>()?,
            GeometryValue::LineString { coordinates } => {
                vec![Obstacle::Polyline(self.points(coordinates)?)]
            }
            GeometryValue::MultiLineString { coordinates } => coordinates
                .iter()
                .map(|l| self.points(l).map(Obstacle::Polyline))
                .collect::<Result<_, _>>()?,
            GeometryValue::Polygon { coordinates } => {
                vec![Obstacle::Polygon(self.polygon(coordinates)?)]
            }
            GeometryValue::MultiPolygon { coordinates } => coordinates
                .iter()
                .map(|p| self.polygon(p).map(Obstacle::Polygon))
                .collect::<Result<_, _>>()?,
            GeometryValue::GeometryCollection { .. } => {
                return Err(GeoJsonError::UnsupportedGeometry {
                    feature: self.feature,
                    line: self.line,
                    kind: value.type_name(),
                    context: "as an obstacle",
                })
            }
        };
        if out.is_empty() {
            return Err(self.empty(value.type_name()));
        }
        Ok(out)
    }
}
