//! `corridor path --planner visgraph|trapmap`: the visibility graph and the trapezoidal
//! map, with their pictures.

use crate::environment_arg::{load, write, CliError};
use crate::scenarios::PlannerKind;
use corridor_geom::Point;
use corridor_io::svg::{Style, SvgDocument};
use corridor_trapmap::TrapezoidalMap;
use corridor_visgraph::{inflate_obstacles, VisibilityGraph};
use std::path::Path;
use std::time::Instant;

/// Plans one path with the visibility graph or the trapezoidal map.
pub fn path(
    file: &str,
    kind: PlannerKind,
    from: Point,
    to: Point,
    radius: f64,
    svg: Option<&Path>,
    json: bool,
) -> Result<(), CliError> {
    let env = load(file)?;
    let fail = |e: &dyn std::fmt::Display| CliError::Usage(format!("{kind:?}: {e}").to_lowercase());
    let mut doc = SvgDocument::of_environment(&env, false).with_title(file);
    let started = Instant::now();
    let (points, length) = match kind {
        PlannerKind::Visgraph => {
            let grown = inflate_obstacles(&env, radius).map_err(|e| fail(&e))?;
            let graph = VisibilityGraph::build(&grown).map_err(|e| fail(&e))?;
            let path = graph.shortest_path(from, to).map_err(|e| fail(&e))?;
            let layer = doc.layer(
                "visibility-graph",
                Style::stroke("#8c6bb1", 0.5).with_opacity(0.6),
            );
            for s in graph.edge_segments() {
                layer.segment(s.a, s.b);
            }
            (path.points, path.length)
        }
        PlannerKind::Trapmap => {
            if radius > 0.0 {
                return Err(CliError::Usage(
                    "the trapmap planner plans for points only (radius 0)".into(),
                ));
            }
            let map = TrapezoidalMap::build(&env).map_err(|e| fail(&e))?;
            let path = map.path(from, to).map_err(|e| fail(&e))?;
            let cells = doc.layer("trapezoids", Style::filled("#e8f1fb", "#9bb7d4", 0.5));
            for t in map.trapezoids().filter(|t| t.free) {
                cells.raw(&format!(
                    "<polygon points=\"{}\"/>\n",
                    t.corners
                        .iter()
                        .map(|p| format!("{},{}", p.x, p.y))
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
            }
            let roadmap = doc.layer("roadmap", Style::stroke("#2ca02c", 0.6));
            for s in map.roadmap().edge_segments() {
                roadmap.segment(s.a, s.b);
            }
            (path.points, path.length)
        }
        PlannerKind::Ecm | PlannerKind::Asfv => unreachable!("handled by their own commands"),
    };
    let elapsed = started.elapsed().as_secs_f64() * 1e3;
    if json {
        let list: Vec<[f64; 2]> = points.iter().map(|p| [p.x, p.y]).collect();
        println!(
            "{}",
            serde_json::json!({ "length": length, "points": list, "ms_including_build": elapsed })
        );
    } else {
        println!(
            "length {length:.6} ({} points; build and query {elapsed:.1} ms)",
            points.len()
        );
    }
    if let Some(out) = svg {
        doc.layer("path", Style::stroke("#e6c300", 3.0))
            .polyline(&points);
        write(out, &doc.render())?;
    }
    Ok(())
}
