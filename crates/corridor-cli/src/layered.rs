//! The commands on a layered map (`builtin:layers`, a `.obj` level, a layered `.json`):
//! `info`, `render`, `convert`, `build` and `path` answer for every layer, with
//! connections, per-layer ECMs, and paths in 3D.

use crate::environment_arg::write;
use crate::error::CliError;
use crate::progress;
use corridor_ecm::{LayeredEcm, LayeredPlanner};
use corridor_geom::{LayerId, LayeredEnvironment, Point};
use corridor_io::svg::{IsometricSvg, LayeredSvg};
use serde_json::json;
use std::path::Path;
use std::time::Instant;

/// Whether `file` is a layered map (the commands then take this module's route).
pub fn is_layered(file: &str) -> bool {
    corridor_io::is_layered_map(file)
}

/// Refuses a saved-ECM option on a layered map.
pub fn refuse(option: &str) -> CliError {
    CliError::Usage(format!("{option} is not available for layered maps"))
}

pub(crate) fn load(file: &str) -> Result<LayeredEnvironment, CliError> {
    let _spinner = progress::spinner(format!("loading {file}"));
    Ok(corridor_io::load_layered(file)?)
}

pub(crate) fn build_ecm(world: &LayeredEnvironment) -> Result<(LayeredEcm, f64), CliError> {
    let _spinner = progress::spinner("building the layered ECM");
    let started = Instant::now();
    let ecm = LayeredEcm::build(world)?;
    Ok((ecm, started.elapsed().as_secs_f64() * 1e3))
}

/// `corridor info` of a layered map: layers (name, vertices, height, whether it has
/// per-patch heights), connections and the validation result.
pub fn info(file: &str, json: bool) -> Result<(), CliError> {
    let world = load(file)?;
    let valid = world.validate();
    let layers: Vec<_> = world
        .layers()
        .map(|(id, l)| {
            json!({
                "layer": id.0,
                "name": l.name,
                "vertices": l.environment.vertex_count(),
                "obstacles": l.environment.obstacles().count(),
                "height": [l.height.a, l.height.b, l.height.c],
                "surface_patches": l.surface.as_ref().map_or(0, |s| s.patches().len()),
            })
        })
        .collect();
    if json {
        let value = json!({
            "file": file,
            "layers": layers,
            "connections": world.connections().len(),
            "vertices": world.vertex_count(),
            "valid": valid.is_ok(),
            "error": valid.as_ref().err().map(|e| e.to_string()),
        });
        println!("{value}");
    } else {
        println!(
            "{file}: {} layers, {} connections, {} obstacle vertices",
            world.layer_count(),
            world.connections().len(),
            world.vertex_count()
        );
        match valid {
            Ok(()) => println!("valid"),
            Err(e) => println!("invalid: {e}"),
        }
    }
    Ok(())
}

/// `corridor render` of a layered map: every layer side by side, or (`--iso`) an
/// isometric 3D view.
pub fn render(file: &str, output: &Path, iso: bool) -> Result<(), CliError> {
    let world = load(file)?;
    if iso {
        return write(output, &IsometricSvg::new(&world).render());
    }
    write(output, &LayeredSvg::new(&world).render())
}

/// `corridor convert` of a layered map: the layered JSON format.
pub fn convert(file: &str, output: &Path) -> Result<(), CliError> {
    let world = load(file)?;
    write(output, &corridor_io::write_layered_json(&world)?)
}

/// `corridor build` of a layered map: per-layer ECMs (in parallel), counts and time.
pub fn build(file: &str, svg: Option<&Path>, json: bool) -> Result<(), CliError> {
    let world = load(file)?;
    let (ecm, ms) = build_ecm(&world)?;
    let (vertices, edges) = ecm.layers().fold((0, 0), |(v, e), (_, l)| {
        (v + l.vertex_count(), e + l.edge_count())
    });
    if json {
        let value = json!({
            "file": file,
            "layers": world.layer_count(),
            "connections": world.connections().len(),
            "vertices": vertices,
            "edges": edges,
            "free_area": ecm.free_area(),
            "ms": {"total": ms},
        });
        println!("{value}");
    } else {
        println!(
            "{file}: {} layers, {} connections; ECM {vertices} vertices, {edges} edges, free area {:.3}; built in {ms:.1} ms",
            world.layer_count(),
            world.connections().len(),
            ecm.free_area()
        );
    }
    if let Some(path) = svg {
        let mut picture = LayeredSvg::new(&world);
        picture.add_ecm(&ecm);
        write(path, &picture.render())?;
    }
    Ok(())
}

/// What `corridor path` asks of a layered map.
pub struct PathArgs<'a> {
    /// The map.
    pub file: &'a str,
    /// Start (ground plane) and its layer, if given.
    pub from: (Point, Option<u32>),
    /// Goal and its layer, if given.
    pub to: (Point, Option<u32>),
    /// Disk radius.
    pub radius: f64,
    /// Picture to write.
    pub svg: Option<&'a Path>,
    /// One JSON object on stdout.
    pub json: bool,
    /// Draw the picture as an isometric 3D view.
    pub iso: bool,
}

/// The layer of a ground point: the one given, or the first whose free space holds it.
pub(crate) fn layer_of(
    ecm: &LayeredEcm,
    p: Point,
    given: Option<u32>,
    what: &str,
) -> Result<LayerId, CliError> {
    match given {
        Some(l) => {
            let layer = LayerId(l);
            ecm.locate(layer, p)
                .map_err(|e| CliError::Usage(format!("--{what} {p} on layer {l}: {e}")))?;
            Ok(layer)
        }
        None => ecm
            .layers()
            .map(|(id, _)| id)
            .find(|&id| ecm.locate(id, p).is_ok())
            .ok_or_else(|| CliError::Usage(format!("--{what} {p} is on no layer's free space"))),
    }
}

/// `corridor path` on a layered map: the shortest path for the radius across layers,
/// in 3D (`--json`: points with x, y, z and layer, the connections crossed).
pub fn path(args: &PathArgs) -> Result<(), CliError> {
    let world = load(args.file)?;
    let (ecm, build_ms) = build_ecm(&world)?;
    let from = layer_of(&ecm, args.from.0, args.from.1, "from")?;
    let to = layer_of(&ecm, args.to.0, args.to.1, "to")?;
    let started = Instant::now();
    let planner = LayeredPlanner::new(&ecm, args.radius)?;
    let path = planner.plan(from, args.from.0, to, args.to.0)?;
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let points: Vec<_> = path
        .points()
        .into_iter()
        .zip(path.points_3d(&ecm))
        .map(|((layer, _), q)| json!({"layer": layer.0, "x": q.x, "y": q.y, "z": q.z}))
        .collect();
    if args.json {
        let value = json!({
            "file": args.file,
            "planner": "layered-ecm",
            "radius": args.radius,
            "length": path.length,
            "points": points,
            "crossings": path.crossings.iter().map(|c| c.0).collect::<Vec<_>>(),
            "layers": path.steps.iter().map(|s| s.layer.0).collect::<Vec<_>>(),
            "ms": ms,
            "build_ms": build_ms,
        });
        println!("{value}");
    } else {
        println!(
            "length {:.4} (ground plane), {} points over layers {:?}, {} crossings, {ms:.2} ms",
            path.length,
            points.len(),
            path.steps.iter().map(|s| s.layer.0).collect::<Vec<_>>(),
            path.crossings.len()
        );
    }
    if let Some(svg) = args.svg {
        if args.iso {
            let mut picture = IsometricSvg::new(&world);
            picture.add_path(&world, &path);
            write(svg, &picture.render())?;
        } else {
            let mut picture = LayeredSvg::new(&world);
            picture.add_ecm(&ecm).add_path(&path);
            write(svg, &picture.render())?;
        }
    }
    Ok(())
}
