//! `corridor visibility` on a layered map: what a point sees on its layer and, through
//! connections, on the layers across (per layer, the regions seen), printed, as JSON or
//! drawn over every layer's panel; or, with `--batch`, the regions of many points from a
//! CSV (`x,y[,layer]`); optionally limited to a range and a field-of-view cone.

use crate::environment_arg::write;
use crate::error::CliError;
use crate::layered::{build_ecm, layer_of, load};
use crate::visibility::{each_point, read_points, VisibilityArgs};
use corridor_ecm::{layered_visibility_within, LayeredView, RegionEdge, VisibleRegion};
use corridor_geom::{LayerId, Point};
use corridor_io::svg::{LayeredSvg, Style};
use serde_json::json;
use std::time::Instant;

/// Answers one query or a batch on a layered map (`args.layer`: the viewpoint's layer).
pub fn run(args: &VisibilityArgs) -> Result<(), CliError> {
    args.limits
        .validate()
        .map_err(|e| CliError::Usage(format!("--range/--fov/--dir: {e}")))?;
    let world = load(args.file)?;
    let (ecm, _) = build_ecm(&world)?;
    let view = |q: Point, layer: LayerId| {
        layered_visibility_within(&ecm, layer, q, &args.limits)
            .map_err(|e| CliError::Usage(format!("--from: {e}")))
    };
    let (q, layer) = match (args.from, args.batch) {
        (Some(q), None) => (q, layer_of(&ecm, q, args.layer, "from")?),
        (None, Some(csv)) => {
            let header = (!args.json).then_some("x,y,layer,regions,area,error");
            each_point(&read_points(csv)?, header, |q, given| {
                let answer = layer_of(&ecm, q, given.or(args.layer), "from")
                    .and_then(|layer| Ok((layer, view(q, layer)?)));
                batch_line(q, answer, args.json)
            });
            return Ok(());
        }
        _ => {
            return Err(CliError::Usage(
                "give either --from x,y or --batch FILE.csv".into(),
            ))
        }
    };
    let started = Instant::now();
    let view = view(q, layer)?;
    let us = started.elapsed().as_secs_f64() * 1e6;
    let areas: Vec<(u32, f64)> = world
        .layers()
        .map(|(id, _)| (id.0, view.area_on(id)))
        .filter(|&(_, a)| a > 0.0)
        .collect();
    if args.json {
        let mut value = view_json(&view);
        value["us"] = us.into();
        println!("{value}");
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
            let ring = outline(region);
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
                (
                    RegionEdge::Cone,
                    "visibility-cone",
                    Style::stroke("#2ca02c", 1.0),
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

/// One batch line: the point's layer, regions and area seen (all layers), or its error.
fn batch_line(q: Point, answer: Result<(LayerId, LayeredView), CliError>, json: bool) -> String {
    match answer {
        Ok((_, view)) if json => view_json(&view).to_string(),
        Ok((layer, view)) => {
            let area: f64 = view.regions().iter().map(VisibleRegion::area).sum();
            format!(
                "{},{},{},{},{area},",
                q.x,
                q.y,
                layer.0,
                view.regions().len()
            )
        }
        Err(e) if json => json!({ "from": [q.x, q.y], "error": e.to_string() }).to_string(),
        Err(e) => format!("{},{},,,,{e}", q.x, q.y),
    }
}

/// The region's outline for drawing: its corners, with points along each arc (the
/// closing corner repeated).
fn outline(region: &VisibleRegion) -> Vec<Point> {
    let mut out = Vec::with_capacity(region.vertices().len() + 1);
    for (a, b, kind) in region.edges() {
        out.push(a);
        if let (RegionEdge::Arc, Some((c, r))) = (kind, region.circle()) {
            let (u, v) = (a - c, b - c);
            let from = u.y.atan2(u.x);
            let mut turn = (v.y.atan2(v.x) - from).rem_euclid(std::f64::consts::TAU);
            if a == b {
                turn = std::f64::consts::TAU;
            }
            let steps = (turn * 16.0).ceil().max(1.0) as usize;
            out.extend((1..steps).map(|k| {
                let t = from + turn * k as f64 / steps as f64;
                c + Point::new(t.cos(), t.sin()) * r
            }));
        }
    }
    out.extend(out.first().copied());
    out
}

fn view_json(view: &LayeredView) -> serde_json::Value {
    let (layer, q) = view.origin();
    let mut value = json!({
        "from": [q.x, q.y],
        "layer": layer.0,
        "regions": view.regions().iter().map(|r| json!({
            "layer": r.layer().0,
            "area": r.area(),
            "vertices": r.vertices().iter().map(|p| [p.x, p.y]).collect::<Vec<_>>(),
            "kinds": r.kinds().iter().map(|k| match k {
                RegionEdge::Wall => "wall",
                RegionEdge::Window => "window",
                RegionEdge::Connection => "connection",
                RegionEdge::Arc => "arc",
                RegionEdge::Cone => "cone",
            }).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    if let Some((_, range)) = view.regions().first().and_then(VisibleRegion::circle) {
        value["range"] = range.into();
    }
    value
}
