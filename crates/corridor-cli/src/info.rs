//! `corridor info`, `render` and `convert`.

use crate::environment_arg::{ecm_bounds, load_environment, load_map, write, Map};
use crate::error::CliError;
use corridor_ecm::Ecm;
use corridor_geom::{Environment, Obstacle};
use corridor_io::svg::SvgDocument;
use serde_json::json;
use std::path::Path;

/// Prints counts, bounds and the validation result of an environment (with `ids`, every
/// obstacle's id, kind and bounding box), or the counts of a saved ECM.
pub fn run(file: &str, json: bool, ids: bool) -> Result<(), CliError> {
    match load_map(file)? {
        Map::Environment(env) => environment(file, &env, json, ids),
        Map::Ecm(_) if ids => Err(CliError::NeedsEnvironment {
            file: file.into(),
            what: "listing the obstacle ids (--ids)".into(),
        }),
        Map::Ecm(ecm) => {
            saved_ecm(file, &ecm, json);
            Ok(())
        }
    }
}

fn saved_ecm(file: &str, ecm: &Ecm, json: bool) {
    let bounds = ecm_bounds(ecm);
    if json {
        let value = json!({
            "file": file,
            "saved_ecm": true,
            "vertices": ecm.vertex_count(),
            "edges": ecm.edge_count(),
            "bending_points": ecm.bending_point_count(),
            "components": ecm.component_count(),
            "free_area": ecm.free_area(),
            "bounds": [bounds.min.x, bounds.min.y, bounds.max.x, bounds.max.y],
            "snap_scale": ecm.snap_grid().scale(),
        });
        println!("{value}");
    } else {
        println!("{file} (a saved ECM)");
        println!(
            "  ECM        {} vertices, {} edges, {} bending points, {} components",
            ecm.vertex_count(),
            ecm.edge_count(),
            ecm.bending_point_count(),
            ecm.component_count()
        );
        println!("  free area  {}", ecm.free_area());
        println!(
            "  bounds     [{}, {}] x [{}, {}]",
            bounds.min.x, bounds.max.x, bounds.min.y, bounds.max.y
        );
        println!("  snap grid  {} steps per unit", ecm.snap_grid().scale());
    }
}

fn environment(file: &str, env: &Environment, json: bool, ids: bool) -> Result<(), CliError> {
    let count = |kind: &str| env.obstacles().filter(|(_, o)| o.kind() == kind).count();
    let bounds = env.bounds();
    let validation = env.validate();
    let holes: usize = env
        .obstacles()
        .map(|(_, o)| match o {
            Obstacle::Polygon(p) => p.holes.len(),
            _ => 0,
        })
        .sum();
    let boxes = |o: &Obstacle| o.aabb().map(|b| [b.min.x, b.min.y, b.max.x, b.max.y]);
    if json {
        let mut value = json!({
            "file": file,
            "obstacles": env.obstacles().count(),
            "points": count("point"),
            "polylines": count("polyline"),
            "polygons": count("polygon"),
            "holes": holes,
            "vertices": env.vertex_count(),
            "boundary_vertices": env.boundary().len(),
            "bounds": [bounds.min.x, bounds.min.y, bounds.max.x, bounds.max.y],
            "snap_scale": env.snap_grid().scale(),
            "valid": validation.is_ok(),
            "error": validation.as_ref().err().map(|e| e.to_string()),
        });
        if ids {
            value["obstacle_ids"] = env
                .obstacles()
                .map(|(id, o)| json!({ "id": id.0, "kind": o.kind(), "bounds": boxes(o) }))
                .collect();
        }
        println!("{value}");
    } else {
        println!("{file}");
        println!(
            "  obstacles  {} ({} points, {} polylines, {} polygons with {} holes)",
            env.obstacles().count(),
            count("point"),
            count("polyline"),
            count("polygon"),
            holes
        );
        println!(
            "  vertices   {} (+ {} on the boundary)",
            env.vertex_count(),
            env.boundary().len()
        );
        println!(
            "  bounds     [{}, {}] x [{}, {}]",
            bounds.min.x, bounds.max.x, bounds.min.y, bounds.max.y
        );
        println!("  snap grid  {} steps per unit", env.snap_grid().scale());
        match &validation {
            Ok(()) => println!("  valid      yes"),
            Err(e) => println!("  valid      no: {e}"),
        }
        if ids {
            println!("  ids        id kind [min x, max x] x [min y, max y]");
            for (id, o) in env.obstacles() {
                match o.aabb() {
                    Some(b) => println!(
                        "  {:>8} {:<8} [{}, {}] x [{}, {}]",
                        id.0,
                        o.kind(),
                        b.min.x,
                        b.max.x,
                        b.min.y,
                        b.max.y
                    ),
                    None => println!("  {:>8} {:<8} (empty)", id.0, o.kind()),
                }
            }
        }
    }
    validation.map_err(CliError::from)
}

/// Draws the environment, or a saved ECM's layers on an empty view of its extent.
pub fn render(file: &str, output: &Path, ids: bool) -> Result<(), CliError> {
    let doc = match load_map(file)? {
        Map::Environment(env) => SvgDocument::of_environment(&env, ids),
        Map::Ecm(_) if ids => {
            return Err(CliError::NeedsEnvironment {
                file: file.into(),
                what: "labelling the obstacles (--ids)".into(),
            })
        }
        Map::Ecm(ecm) => {
            let mut doc = SvgDocument::new(ecm_bounds(&ecm));
            doc.add_ecm(&ecm);
            doc
        }
    };
    write(output, &doc.with_title(file).render())?;
    println!("wrote {}", output.display());
    Ok(())
}

/// Writes the native JSON format.
pub fn convert(file: &str, output: &Path) -> Result<(), CliError> {
    let env = load_environment(file, "corridor convert")?;
    write(output, &corridor_io::write_json(&env)?)?;
    println!("wrote {}", output.display());
    Ok(())
}
