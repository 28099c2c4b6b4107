//! `corridor build`: the ECM of an environment, its counts, phase times, picture and
//! saved form.

use crate::environment_arg::{ecm_bounds, load_map, write, Map};
use crate::error::CliError;
use crate::progress;
use corridor_ecm::{BuildOptions, Ecm};
use corridor_geom::NormalizeLimits;
use corridor_io::svg::SvgDocument;
use std::path::Path;
use std::time::Instant;

/// Builds the ECM of `file` and prints counts and phase times (of a saved `.ecm`: the
/// counts, the time to load it, and the phase times of the build that made it).
pub fn build(
    file: &str,
    svg: Option<&Path>,
    save: Option<&Path>,
    json: bool,
    threads: Option<u16>,
    max_wall_pieces: Option<usize>,
    tiles: usize,
) -> Result<(), CliError> {
    let map = load_map(file)?;
    // The build's stages run on this pool (rayon's default: one thread per core).
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        pool = pool.num_threads(n.into());
    }
    let pool = pool
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start {threads:?} build threads: {e}")))?;
    let started = Instant::now();
    let (ecm, env) = match map {
        Map::Environment(env) => {
            let _spinner = progress::spinner("building the ECM");
            let options = BuildOptions {
                normalize: NormalizeLimits { max_wall_pieces },
                tiles,
                ..BuildOptions::default()
            };
            (pool.install(|| Ecm::build_with(&env, &options))?, Some(env))
        }
        Map::Ecm(ecm) => (*ecm, None),
    };
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
            "threads": pool.current_num_threads(),
            "tiles": stats.tiles,
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
        println!("  tiles        {} (0: one diagram)", stats.tiles);
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
        let mut doc = match &env {
            Some(env) => SvgDocument::of_environment(env, false),
            None => SvgDocument::new(ecm_bounds(&ecm)),
        }
        .with_title(file);
        doc.add_ecm(&ecm);
        write(out, &doc.render())?;
    }
    if let Some(out) = save {
        if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| CliError::Io {
                path: parent.display().to_string(),
                source,
            })?;
        }
        ecm.save(out)?;
    }
    Ok(())
}
