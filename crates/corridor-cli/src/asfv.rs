//! `corridor asfv`: the adaptive space-filling volume decomposition of an environment.

use crate::environment_arg::{load, write, CliError};
use corridor_asfv::{AsfvOptions, Decomposition};
use corridor_geom::Point;
use corridor_io::svg::{Style, SvgDocument};
use std::path::Path;
use std::time::Instant;

/// Builds the decomposition, prints regions, coverage and build time, and draws it.
pub fn run(file: &str, svg: Option<&Path>, json: bool) -> Result<(), CliError> {
    let env = load(file)?;
    let started = Instant::now();
    let decomposition = Decomposition::build(&env, &AsfvOptions::default())
        .map_err(|e| CliError::Usage(format!("asfv: {e}")))?;
    let build_ms = started.elapsed().as_secs_f64() * 1e3;
    let coverage = decomposition.coverage().fraction();
    let portals = decomposition.portals().len();
    if json {
        let value = serde_json::json!({
            "file": file,
            "regions": decomposition.region_count(),
            "portals": portals,
            "coverage": coverage,
            "build_ms": build_ms,
        });
        println!("{value}");
    } else {
        println!("{file}");
        println!(
            "  regions   {} ({portals} portals)",
            decomposition.region_count()
        );
        println!("  coverage  {:.3} % of the free area", 100.0 * coverage);
        println!("  build     {build_ms:.1} ms");
    }
    if let Some(out) = svg {
        let mut doc = SvgDocument::of_environment(&env, false).with_title(file);
        draw(&mut doc, &decomposition);
        write(out, &doc.render())?;
    }
    Ok(())
}

/// Adds the regions (light fills), portals (green) and connectivity graph (grey).
pub fn draw(doc: &mut SvgDocument, decomposition: &Decomposition) {
    const FILLS: [&str; 6] = [
        "#cfe8ff", "#d8f5d0", "#fde7c8", "#ead8f7", "#fbd3d9", "#d6f3f1",
    ];
    for (k, fill) in FILLS.iter().enumerate() {
        let layer = doc.layer(
            &format!("asfv-regions-{k}"),
            Style::filled(fill, "#7a7a7a", 0.5),
        );
        for region in decomposition.regions().skip(k).step_by(FILLS.len()) {
            layer.ring(&region.ring());
        }
    }
    let portals = doc.layer("asfv-portals", Style::stroke("#2ca02c", 1.5));
    for portal in decomposition.portals() {
        portals.segment(portal.segment.a, portal.segment.b);
    }
    let graph = doc.layer(
        "asfv-graph",
        Style::stroke("#555555", 0.5).with_opacity(0.6),
    );
    for s in decomposition.graph_segments() {
        graph.segment(s.a, s.b);
    }
}

/// Plans one path through the decomposition (points only: radius 0).
pub fn path(
    file: &str,
    from: Point,
    to: Point,
    radius: f64,
    svg: Option<&Path>,
    json: bool,
) -> Result<(), CliError> {
    if radius > 0.0 {
        return Err(CliError::Usage(
            "the asfv planner plans for points only (radius 0)".into(),
        ));
    }
    let env = load(file)?;
    let decomposition = Decomposition::build(&env, &AsfvOptions::default())
        .map_err(|e| CliError::Usage(format!("asfv: {e}")))?;
    let started = Instant::now();
    let path = decomposition
        .path(from, to)
        .map_err(|e| CliError::Usage(format!("asfv: {e}")))?;
    let elapsed = started.elapsed().as_secs_f64() * 1e3;
    if json {
        let points: Vec<[f64; 2]> = path.points.iter().map(|p| [p.x, p.y]).collect();
        println!(
            "{}",
            serde_json::json!({ "length": path.length, "points": points, "regions": path.regions.len(), "ms": elapsed })
        );
    } else {
        println!(
            "length {:.6} ({} points through {} regions, {elapsed:.3} ms)",
            path.length,
            path.points.len(),
            path.regions.len()
        );
    }
    if let Some(out) = svg {
        let mut doc = SvgDocument::of_environment(&env, false).with_title(file);
        draw(&mut doc, &decomposition);
        doc.layer("path", Style::stroke("#e6c300", 3.0))
            .polyline(&path.points);
        write(out, &doc.render())?;
    }
    Ok(())
}
