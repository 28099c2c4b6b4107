//! `corridor visibility` on a layered map: what a point sees on its layer and, through
//! connections, on the layers across (per layer, the regions seen), printed, as JSON or
//! drawn over every layer's panel.

use crate::environment_arg::write;
use crate::error::CliError;
use crate::layered::{build_ecm, layer_of, load};
use corridor_ecm::{layered_visibility, LayeredView, RegionEdge};
use corridor_geom::Point;
use corridor_io::svg::{LayeredSvg, Style};
use serde_json::json;
use std::path::Path;
use std::time::Instant;

/// What `corridor visibility` asks of a layered map.
pub struct LayeredVisibilityArgs<'a> {
    /// The map.
    pub file: &'a str,
    /// The viewpoint (ground plane) and its layer, if given.
    pub from: (Point, Option<u32>),
    /// Picture to write.
    pub svg: Option<&'a Path>,
    /// One JSON object instead of text.
    pub json: bool,
}

/// Answers one query on a layered map.
pub fn run(args: &LayeredVisibilityArgs) -> Result<(), CliError> {
    let world = load(args.file)?;
    let (ecm, _) = build_ecm(&world)?;
    let (q, layer) = (
        args.from.0,
        layer_of(&ecm, args.from.0, args.from.1, "from")?,
    );
    let started = Instant::now();
    let view =
        layered_visibility(&ecm, layer, q).map_err(|e| CliError::Usage(format!("--from: {e}")))?;
    let us = started.elapsed().as_secs_f64() * 1e6;
    let areas: Vec<(u32, f64)> = world
        .layers()
        .map(|(id, _)| (id.0, view.area_on(id)))
        .filter(|&(_, a)| a > 0.0)
        .collect();
    if args.json {
        println!("{}", view_json(&view, us));
    } else {
        println!(
            "from ({}, {}) on layer {}: {} regions, {us:.1} µs",
            q.x,
            q.y,
            layer.0,
            view.regions().len()
        );
        for (l, area) in &areas {
            println!("  layer {l}: area {area:.6}");
        }
    }
    if let Some(out) = args.svg {
        let mut picture = LayeredSvg::new(&world);
        for region in view.regions() {
            let Some(doc) = picture.panel(region.layer()) else {
                continue;
            };
            let mut ring = region.vertices().to_vec();
            ring.extend(ring.first().copied());
            doc.layer(
                "visibility-region",
                Style::filled("#ffd400", "none", 0.0).with_opacity(0.45),
            )
            .polyline(&ring);
            for (kind, name, style) in [
                (
                    RegionEdge::Wall,
                    "visibility-walls",
                    Style::stroke("#d62728", 2.0),
                ),
                (
                    RegionEdge::Window,
                    "visibility-windows",
                    Style::stroke("#8c6d00", 1.0),
                ),
                (
                    RegionEdge::Connection,
                    "visibility-connections",
                    Style::stroke("#1f77b4", 2.0),
                ),
            ] {
                let layer = doc.layer(name, style);
                for (a, b, _) in region.edges().filter(|e| e.2 == kind) {
                    layer.segment(a, b);
                }
            }
        }
        if let Some(doc) = picture.panel(layer) {
            let size = 0.006 * doc.view().size().max_element();
            doc.layer("visibility-origin", Style::filled("#d62728", "none", 0.0))
                .circle(q, size);
        }
        write(out, &picture.render())?;
    }
    Ok(())
}

fn view_json(view: &LayeredView, us: f64) -> serde_json::Value {
    let (layer, q) = view.origin();
    json!({
        "from": [q.x, q.y],
        "layer": layer.0,
        "us": us,
        "regions": view.regions().iter().map(|r| json!({
            "layer": r.layer().0,
            "area": r.area(),
            "vertices": r.vertices().iter().map(|p| [p.x, p.y]).collect::<Vec<_>>(),
            "kinds": r.kinds().iter().map(|k| match k {
                RegionEdge::Wall => "wall",
                RegionEdge::Window => "window",
                RegionEdge::Connection => "connection",
            }).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}
