//! `corridor info`, `render` and `convert`.

use crate::environment_arg::{load, write, CliError};
use corridor_geom::Obstacle;
use corridor_io::svg::SvgDocument;
use std::path::Path;

/// Prints counts, bounds and the validation result.
pub fn run(file: &str, json: bool) -> Result<(), CliError> {
    let env = load(file)?;
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
    if json {
        let value = serde_json::json!({
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
    }
    validation.map_err(CliError::from)
}

/// Draws the environment.
pub fn render(file: &str, output: &Path, ids: bool) -> Result<(), CliError> {
    let env = load(file)?;
    let doc = SvgDocument::of_environment(&env, ids).with_title(file);
    write(output, &doc.render())?;
    println!("wrote {}", output.display());
    Ok(())
}

/// Writes the native JSON format.
pub fn convert(file: &str, output: &Path) -> Result<(), CliError> {
    let env = load(file)?;
    write(output, &corridor_io::write_json(&env)?)?;
    println!("wrote {}", output.display());
    Ok(())
}
