//! `corridor path`: one path from any planner, printed, drawn (`--svg`) and written as
//! GeoJSON (`--geojson`); for the ECM, which of its two routes is the answer (`--route`).
//!
//! The ECM returns two routes through one corridor: the shortest path for the radius, and
//! the indicative route, which keeps the preferred clearance (`--clearance`, at least the
//! radius) from the walls where the corridor has room for it and the radius elsewhere.
//! `--route` picks the one printed; both are drawn and written.

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

/// Which of the ECM's routes is the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RouteKind {
    /// The shortest path for the radius (it touches the corners at the radius).
    Shortest,
    /// The indicative route: the preferred clearance where there is room (ECM only).
    Indicative,
}

impl RouteKind {
    /// The name on the command line and in JSON and GeoJSON.
    pub fn name(self) -> &'static str {
        match self {
            RouteKind::Shortest => "shortest",
            RouteKind::Indicative => "indicative",
        }
    }
}

/// The preferred clearance of the query: `--clearance` when given, else the radius. A
/// clearance below the radius is refused (the route never keeps less than the radius, so
/// such a value would silently mean something else).
pub fn preferred_clearance(radius: f64, clearance: Option<f64>) -> Result<f64, CliError> {
    match clearance {
        Some(c) if c < radius => Err(CliError::Usage(format!(
            "--clearance {c} is below --radius {radius}: the indicative route keeps at least \
             the radius from walls; give a clearance of at least {radius}, or leave it out"
        ))),
        Some(c) => Ok(c),
        None => Ok(radius),
    }
}

/// One route: its points and length.
struct Route<'a> {
    kind: RouteKind,
    points: &'a [Point],
    length: f64,
}

/// The length of a polyline (an empty sum is -0.0 in Rust; add 0.0 to print 0).
fn polyline_length(points: &[Point]) -> f64 {
    points.windows(2).map(|w| w[0].distance(w[1])).sum::<f64>() + 0.0
}

/// What `corridor path` was asked.
pub struct PathArgs<'a> {
    /// The map argument.
    pub file: &'a str,
    /// Start, goal, radius and preferred clearance.
    pub query: PathQuery,
    /// Which planner answers.
    pub planner: PlannerKind,
    /// Which route is printed (the indicative one needs the ECM).
    pub route: RouteKind,
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
    let shortest = Route {
        kind: RouteKind::Shortest,
        points: &path.points,
        length: path.length,
    };
    let indicative = path.indicative_route.as_deref().map(|points| Route {
        kind: RouteKind::Indicative,
        points,
        length: polyline_length(points),
    });
    // The chosen route first, the other (when the planner has one) second.
    let (chosen, other) = match (args.route, indicative) {
        (RouteKind::Shortest, other) => (shortest, other),
        (RouteKind::Indicative, Some(indicative)) => (indicative, Some(shortest)),
        (RouteKind::Indicative, None) => {
            return Err(CliError::Usage(format!(
                "--route indicative needs the ecm planner: the {} planner has no indicative route",
                args.planner.name()
            )))
        }
    };
    if args.json {
        let mut value = json!({
            "planner": args.planner.name(),
            "route": chosen.kind.name(),
            "length": chosen.length,
            "points": xy_list(chosen.points),
            "radius": args.query.radius,
            "ms": ms,
            "build_ms": build_ms,
        });
        if let Some(steps) = corridor_steps {
            value["corridor_steps"] = steps.into();
            // Never silent: which safety net the ECM used, or null.
            value["fallback"] = path.fallback.map(|f| f.name()).into();
        }
        if let Some(other) = &other {
            value["clearance"] = args.query.preferred_clearance.into();
            for route in [&chosen, other] {
                value[format!("{}_route", route.kind.name())] = json!({
                    "length": route.length,
                    "points": xy_list(route.points),
                });
            }
        }
        println!("{value}");
    } else {
        let corridor = corridor_steps.map_or(String::new(), |n| format!(", corridor of {n} steps"));
        let route = match &other {
            Some(other) => format!(
                "{} route, clearance {}; {} route {:.6}, ",
                chosen.kind.name(),
                args.query.preferred_clearance,
                other.kind.name(),
                other.length
            ),
            None => String::new(),
        };
        println!(
            "length {:.6} ({route}{} points{corridor}, {ms:.3} ms; {} built in {build_ms:.1} ms)",
            chosen.length,
            chosen.points.len(),
            args.planner.name(),
        );
        let list: Vec<String> = chosen
            .points
            .iter()
            .map(|p| format!("({:.4}, {:.4})", p.x, p.y))
            .collect();
        println!("{}", list.join(" "));
        if let Some(fallback) = path.fallback {
            println!(
                "note: the funnel's path failed the clearance check; fallback: {}",
                fallback.name()
            );
        }
    }
    if let (Some(out), Some(mut doc)) = (args.svg, doc) {
        let corridor = path.corridor.as_deref().unwrap_or_default();
        let colour = |kind| match kind {
            RouteKind::Shortest => "#d4a000",
            RouteKind::Indicative => "#d0408a",
        };
        if let Some(other) = &other {
            draw::add_faint_route(
                &mut doc,
                other.points,
                &format!("{}-route", other.kind.name()),
                colour(other.kind),
            );
        }
        draw::add_path(
            &mut doc,
            chosen.points,
            corridor,
            "path",
            colour(chosen.kind),
        );
        if other.is_some() {
            let mut legend = Vec::new();
            for route in std::iter::once(&chosen).chain(&other) {
                let label = match route.kind {
                    RouteKind::Shortest => format!("shortest ({:.2})", route.length),
                    RouteKind::Indicative => format!(
                        "indicative, clearance {} ({:.2})",
                        args.query.preferred_clearance, route.length
                    ),
                };
                legend.push((label, colour(route.kind), route.kind == chosen.kind));
            }
            let entries: Vec<(&str, &str, bool)> = legend
                .iter()
                .map(|(l, c, p)| (l.as_str(), *c, *p))
                .collect();
            draw::add_legend(&mut doc, &entries);
        }
        write(out, &doc.render())?;
    }
    if let Some(out) = args.geojson {
        let text = serde_json::to_string(&geojson(&path, &chosen, other.as_ref(), args))
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

/// A FeatureCollection: the chosen route (kind `path`, with its length, planner, radius
/// and `role`: `shortest` or `indicative`), the other route when the planner has one (kind
/// `indicative_route` or `shortest_route`, with its `role` and length) and the corridor
/// (MultiPolygon of the quadrilaterals between consecutive corridor steps, as drawn by
/// `--svg`) when the planner has them.
fn geojson(path: &PlannedPath, chosen: &Route, other: Option<&Route>, args: &PathArgs) -> Value {
    let q = &args.query;
    let mut features = vec![json!({
        "type": "Feature",
        "properties": {
            "kind": "path",
            "role": chosen.kind.name(),
            "planner": args.planner.name(),
            "length": chosen.length,
            "radius": q.radius,
            "start": xy(q.start),
            "goal": xy(q.goal),
        },
        "geometry": { "type": "LineString", "coordinates": xy_list(chosen.points) },
    })];
    if let Some(other) = other {
        features[0]["properties"]["preferred_clearance"] = q.preferred_clearance.into();
        features.push(json!({
            "type": "Feature",
            "properties": {
                "kind": format!("{}_route", other.kind.name()),
                "role": other.kind.name(),
                "length": other.length,
                "preferred_clearance": q.preferred_clearance,
            },
            "geometry": { "type": "LineString", "coordinates": xy_list(other.points) },
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
