//! `corridor build` and `corridor path`: the ECM of an environment and paths on it.

use crate::draw;
use crate::environment_arg::{load, write, CliError};
use corridor_ecm::{Ecm, PathQuery};
use corridor_geom::Point;
use corridor_io::svg::SvgDocument;
use std::path::Path;
use std::time::Instant;

/// Parses `x,y`.
pub fn parse_point(text: &str) -> Result<Point, String> {
    let (x, y) = text
        .split_once(',')
        .ok_or_else(|| format!("'{text}' is not x,y"))?;
    let number = |s: &str| {
        s.trim()
            .parse::<f64>()
            .map_err(|_| format!("'{s}' in '{text}' is not a number"))
    };
    let p = Point::new(number(x)?, number(y)?);
    if p.is_finite() {
        Ok(p)
    } else {
        Err(format!("'{text}' is not finite"))
    }
}

/// Builds the ECM of `file` and prints counts and phase times.
pub fn build(
    file: &str,
    svg: Option<&Path>,
    save: Option<&Path>,
    json: bool,
) -> Result<(), CliError> {
    let env = load(file)?;
    let started = Instant::now();
    let ecm = Ecm::build(&env)?;
    let wall = started.elapsed();
    let stats = ecm.stats();
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    if json {
        let value = serde_json::json!({
            "file": file,
            "vertices": ecm.vertex_count(),
            "edges": ecm.edge_count(),
            "bending_points": ecm.bending_point_count(),
            "components": ecm.component_count(),
            "input_segments": stats.input_segments,
            "input_points": stats.input_points,
            "recoveries": stats.recoveries,
            "free_area": ecm.free_area(),
            "ms": {
                "normalize": ms(stats.normalize),
                "voronoi": ms(stats.voronoi),
                "extraction": ms(stats.extraction),
                "validation": ms(stats.validation),
                "index": ms(stats.index),
                "total": ms(wall),
            },
        });
        println!("{value}");
    } else {
        println!("{file}");
        println!(
            "  walls        {} segments, {} points",
            stats.input_segments, stats.input_points
        );
        println!(
            "  ECM          {} vertices, {} edges, {} bending points, {} components",
            ecm.vertex_count(),
            ecm.edge_count(),
            ecm.bending_point_count(),
            ecm.component_count()
        );
        println!("  recoveries   {}", stats.recoveries);
        println!(
            "  time (ms)    normalize {:.1}, voronoi {:.1}, extraction {:.1}, validation {:.1}, index {:.1}, total {:.1}",
            ms(stats.normalize),
            ms(stats.voronoi),
            ms(stats.extraction),
            ms(stats.validation),
            ms(stats.index),
            ms(wall)
        );
    }
    if let Some(out) = svg {
        let mut doc = SvgDocument::of_environment(&env, false).with_title(file);
        doc.add_ecm(&ecm);
        write(out, &doc.render())?;
    }
    if let Some(out) = save {
        ecm.save(out).map_err(|e| CliError::Io {
            path: out.display().to_string(),
            source: std::io::Error::other(e.to_string()),
        })?;
    }
    Ok(())
}

/// Plans one path and prints it.
pub fn path(file: &str, query: PathQuery, svg: Option<&Path>, json: bool) -> Result<(), CliError> {
    let env = load(file)?;
    let ecm = Ecm::build(&env)?;
    let started = Instant::now();
    let path = ecm.plan(&query)?;
    let elapsed = started.elapsed().as_secs_f64() * 1e3;
    if json {
        let points: Vec<[f64; 2]> = path.points.iter().map(|p| [p.x, p.y]).collect();
        println!(
            "{}",
            serde_json::json!({ "length": path.length, "points": points, "corridor_steps": path.corridor.len(), "ms": elapsed })
        );
    } else {
        println!(
            "length {:.6} ({} points, corridor of {} steps, {:.3} ms)",
            path.length,
            path.points.len(),
            path.corridor.len(),
            elapsed
        );
        let list: Vec<String> = path
            .points
            .iter()
            .map(|p| format!("({:.4}, {:.4})", p.x, p.y))
            .collect();
        println!("{}", list.join(" "));
    }
    if let Some(out) = svg {
        let mut doc = SvgDocument::of_environment(&env, false).with_title(file);
        doc.add_ecm(&ecm);
        draw::add_path(&mut doc, &path, "path", "#e6c300");
        write(out, &doc.render())?;
    }
    Ok(())
}
