//! `corridor path`: one path from any planner, printed, drawn (`--svg`) and written as
//! GeoJSON (`--geojson`).

use crate::draw;
use crate::environment_arg::{ecm_bounds, load_map, write, Map};
use crate::error::CliError;
use crate::planners::{self, PlannerKind};
use corridor::PlannedPath;
use corridor_ecm::PathQuery;
use corridor_geom::Point;
use corridor_io::svg::SvgDocument;
use serde_json::{json, Value};
use std::path::Path;
use std::time::Instant;

/// What `corridor path` was asked.
pub struct PathArgs<'a> {
    /// The map argument.
    pub file: &'a str,
    /// Start, goal, radius and preferred clearance.
    pub query: PathQuery,
    /// Which planner answers.
    pub planner: PlannerKind,
    /// Picture to write.
    pub svg: Option<&'a Path>,
    /// GeoJSON to write.
    pub geojson: Option<&'a Path>,
    /// One JSON object instead of text.
    pub json: bool,
}

/// Plans one path and prints it.
pub fn run(args: &PathArgs) -> Result<(), CliError> {
    let map = load_map(args.file)?;
    let mut doc = args.svg.map(|_| picture(&map, args.file));
    let started = Instant::now();
    let planner = planners::build(
        args.planner,
        args.file,
        map,
        args.query.radius,
        doc.as_mut(),
    )?;
    let build_ms = started.elapsed().as_secs_f64() * 1e3;
    let started = Instant::now();
    let mut path = planner.find_path(&args.query)?;
    // A path of one point has length zero, which some planners sum to -0.0: print 0.
    path.length += 0.0;
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let corridor_steps = path.corridor.as_ref().map(Vec::len);
    if args.json {
        let mut value = json!({
            "planner": args.planner.name(),
            "length": path.length,
            "points": xy_list(&path.points),
            "ms": ms,
            "build_ms": build_ms,
        });
        if let Some(steps) = corridor_steps {
            value["corridor_steps"] = steps.into();
        }
        if let Some(route) = &path.indicative_route {
            value["indicative_route"] = xy_list(route);
        }
        println!("{value}");
    } else {
        let corridor = corridor_steps.map_or(String::new(), |n| format!(", corridor of {n} steps"));
        println!(
            "length {:.6} ({} points{corridor}, {ms:.3} ms; {} built in {build_ms:.1} ms)",
            path.length,
            path.points.len(),
            args.planner.name(),
        );
        let list: Vec<String> = path
            .points
            .iter()
            .map(|p| format!("({:.4}, {:.4})", p.x, p.y))
            .collect();
        println!("{}", list.join(" "));
    }
    if let (Some(out), Some(mut doc)) = (args.svg, doc) {
        let corridor = path.corridor.as_deref().unwrap_or_default();
        draw::add_path(&mut doc, &path.points, corridor, "path", "#e6c300");
        write(out, &doc.render())?;
    }
    if let Some(out) = args.geojson {
        let text = serde_json::to_string(&geojson(&path, args))
            .map_err(|e| CliError::Usage(format!("cannot write GeoJSON: {e}")))?;
        write(out, &text)?;
    }
    Ok(())
}

/// The picture's background: the environment, or for a saved ECM an empty view of its
/// extent.
fn picture(map: &Map, file: &str) -> SvgDocument {
    match map {
        Map::Environment(env) => SvgDocument::of_environment(env, false),
        Map::Ecm(ecm) => SvgDocument::new(ecm_bounds(ecm)),
    }
    .with_title(file)
}

fn xy(p: Point) -> Value {
    json!([p.x, p.y])
}

fn xy_list(points: &[Point]) -> Value {
    points.iter().map(|&p| xy(p)).collect()
}

/// A FeatureCollection: the path (LineString, with its length, planner and radius), the
/// indicative route (LineString) and the corridor (MultiPolygon of the quadrilaterals
/// between consecutive corridor steps, as drawn by `--svg`) when the planner has them.
fn geojson(path: &PlannedPath, args: &PathArgs) -> Value {
    let q = &args.query;
    let mut features = vec![json!({
        "type": "Feature",
        "properties": {
            "kind": "path",
            "planner": args.planner.name(),
            "length": path.length,
            "radius": q.radius,
            "start": xy(q.start),
            "goal": xy(q.goal),
        },
        "geometry": { "type": "LineString", "coordinates": xy_list(&path.points) },
    })];
    if let Some(route) = &path.indicative_route {
        features.push(json!({
            "type": "Feature",
            "properties": { "kind": "indicative_route", "preferred_clearance": q.preferred_clearance },
            "geometry": { "type": "LineString", "coordinates": xy_list(route) },
        }));
    }
    if let Some(corridor) = &path.corridor {
        let quads: Vec<Value> = corridor
            .windows(2)
            .map(|w| {
                let (a, b) = (w[0], w[1]);
                json!([xy_list(&[a.left, b.left, b.right, a.right, a.left])])
            })
            .collect();
        features.push(json!({
            "type": "Feature",
            "properties": { "kind": "corridor", "steps": corridor.len() },
            "geometry": { "type": "MultiPolygon", "coordinates": quads },
        }));
    }
    json!({ "type": "FeatureCollection", "features": features })
}
