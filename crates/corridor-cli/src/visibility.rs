//! `corridor visibility`: what a point sees on a map (its visibility polygon from the ECM),
//! printed, as JSON or drawn; or, with `--batch`, the polygons of many points from a CSV;
//! optionally limited to a range and a field-of-view cone.
//!
//! A batch answers with the fastest exact method: a [`VisibilityIndex`] (the walls
//! triangulated once, 2–25× faster per point than the ECM walk, docs/BENCHMARKS.md) when
//! the map's walls are at hand, and the ECM walk for a saved ECM (which keeps no walls).

use crate::environment_arg::{ecm_bounds, load_map, write, Map};
use crate::error::CliError;
use crate::progress;
use corridor_ecm::{
    Ecm, EdgeKind, ViewLimits, VisibilityError, VisibilityIndex, VisibilityPolygon,
};
use corridor_geom::Point;
use corridor_io::svg::SvgDocument;
use serde_json::json;
use std::path::Path;
use std::time::Instant;

/// What `corridor visibility` was asked.
pub struct VisibilityArgs<'a> {
    /// The map argument.
    pub file: &'a str,
    /// The viewpoint (one query).
    pub from: Option<Point>,
    /// A CSV of viewpoints `x,y` (and, on a layered map, optionally their `layer`; a
    /// header line is skipped), for a batch.
    pub batch: Option<&'a Path>,
    /// Layered maps: the viewpoint's layer (by default, the first whose free space
    /// holds it).
    pub layer: Option<u32>,
    /// Picture to write (one query).
    pub svg: Option<&'a Path>,
    /// One JSON object (one query) or one per line (batch) instead of text.
    pub json: bool,
    /// Range and field of view.
    pub limits: ViewLimits,
}

/// The limits from `--range R`, `--fov DEG` and `--dir x,y` (checked by the query).
pub fn limits(range: Option<f64>, fov: Option<f64>, dir: Option<Point>) -> ViewLimits {
    let mut limits = ViewLimits::new();
    if let Some(r) = range {
        limits = limits.with_range(r);
    }
    if let (Some(deg), Some(dir)) = (fov, dir) {
        limits = limits.with_cone(dir, deg.to_radians());
    }
    limits
}

/// Answers one query or a batch.
pub fn run(args: &VisibilityArgs) -> Result<(), CliError> {
    args.limits
        .validate()
        .map_err(|e| CliError::Usage(format!("--range/--fov/--dir: {e}")))?;
    let map = load_map(args.file)?;
    let (ecm, env) = match map {
        Map::Environment(env) => {
            let _spinner = progress::spinner("building the ECM");
            (Ecm::build(&env)?, Some(env))
        }
        Map::Ecm(ecm) => (*ecm, None),
    };
    match (args.from, args.batch) {
        (Some(q), None) => {
            let started = Instant::now();
            let seen = ecm
                .visibility_polygon_within(q, &args.limits)
                .map_err(|e| CliError::Usage(format!("--from: {e}")))?;
            let us = started.elapsed().as_secs_f64() * 1e6;
            if args.json {
                println!("{}", polygon_json(&seen, Some(us)));
            } else {
                let windows = seen
                    .kinds()
                    .iter()
                    .filter(|&&k| k == EdgeKind::Window)
                    .count();
                println!(
                    "from ({}, {}): {} corners ({windows} windows), area {:.6}, {us:.1} µs",
                    q.x,
                    q.y,
                    seen.len(),
                    seen.area()
                );
            }
            if let Some(out) = args.svg {
                let mut doc = match &env {
                    Some(env) => SvgDocument::of_environment(env, false),
                    None => {
                        let mut doc = SvgDocument::new(ecm_bounds(&ecm));
                        doc.add_ecm(&ecm);
                        doc
                    }
                };
                doc.add_visibility(&seen);
                write(out, &doc.render())?;
            }
            Ok(())
        }
        (None, Some(csv)) => {
            // Same polygons either way; the index's triangulation (0.5 ms to 0.5 s on the
            // shared maps) pays for itself within a few points.
            let index = env.as_ref().and_then(|env| {
                let _spinner = progress::spinner("triangulating the walls");
                VisibilityIndex::build(env).ok()
            });
            let view = |q: Point| match &index {
                Some(index) => index.visibility_polygon_within(q, &args.limits),
                None => ecm.visibility_polygon_within(q, &args.limits),
            };
            batch(view, csv, args.json)
        }
        _ => Err(CliError::Usage(
            "give either --from x,y or --batch FILE.csv".into(),
        )),
    }
}

/// The polygons of every point of a CSV, one line each (text or JSON); points that are
/// not free get their error on their line, and the batch goes on.
fn batch(
    view: impl Fn(Point) -> Result<VisibilityPolygon, VisibilityError>,
    csv: &Path,
    json: bool,
) -> Result<(), CliError> {
    let header = (!json).then_some("x,y,corners,windows,area,error");
    each_point(&read_points(csv)?, header, |q, _| match view(q) {
        Ok(seen) if json => polygon_json(&seen, None).to_string(),
        Ok(seen) => {
            let windows = seen
                .kinds()
                .iter()
                .filter(|&&k| k == EdgeKind::Window)
                .count();
            format!("{},{},{},{windows},{},", q.x, q.y, seen.len(), seen.area())
        }
        Err(e) if json => json!({ "from": [q.x, q.y], "error": e.to_string() }).to_string(),
        Err(e) => format!("{},{},,,,{e}", q.x, q.y),
    });
    Ok(())
}

/// The viewpoints of a batch CSV: `x,y` per line and an optional third column, a layer
/// (left empty or absent: none); a header line is skipped.
pub(crate) fn read_points(csv: &Path) -> Result<Vec<(Point, Option<u32>)>, CliError> {
    let text = std::fs::read_to_string(csv).map_err(|source| CliError::Io {
        path: csv.display().to_string(),
        source,
    })?;
    let mut points = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let parsed = match fields.as_slice() {
            [x, y, rest @ ..] => {
                let layer = match rest.first() {
                    None | Some(&"") => Some(None),
                    Some(l) => l.parse::<u32>().ok().map(Some),
                };
                x.parse::<f64>().ok().zip(y.parse::<f64>().ok()).zip(layer)
            }
            _ => None,
        };
        match parsed {
            Some(((x, y), layer)) => points.push((Point::new(x, y), layer)),
            None if i == 0 || line.trim().is_empty() => {}
            None => {
                return Err(CliError::Usage(format!(
                    "{}:{}: expected x,y[,layer], found '{line}'",
                    csv.display(),
                    i + 1
                )))
            }
        }
    }
    Ok(points)
}

/// Prints `header` (if any), then `line` of every point, with a progress bar.
pub(crate) fn each_point(
    points: &[(Point, Option<u32>)],
    header: Option<&str>,
    mut line: impl FnMut(Point, Option<u32>) -> String,
) {
    let bar = progress::bar(points.len() as u64, "{bar:40} {pos}/{len} points {elapsed}");
    if let Some(header) = header {
        println!("{header}");
    }
    for &(q, layer) in points {
        println!("{}", line(q, layer));
        bar.inc(1);
    }
    bar.finish_and_clear();
}

fn polygon_json(seen: &VisibilityPolygon, us: Option<f64>) -> serde_json::Value {
    let mut value = json!({
        "from": [seen.origin().x, seen.origin().y],
        "area": seen.area(),
        "vertices": seen.vertices().iter().map(|p| [p.x, p.y]).collect::<Vec<_>>(),
        "kinds": seen.kinds().iter().map(|k| match k {
            EdgeKind::Wall => "wall",
            EdgeKind::Window => "window",
            EdgeKind::Arc => "arc",
            EdgeKind::Cone => "cone",
        }).collect::<Vec<_>>(),
    });
    if let Some(us) = us {
        value["us"] = us.into();
    }
    if let Some(range) = seen.range() {
        value["range"] = range.into();
    }
    value
}
