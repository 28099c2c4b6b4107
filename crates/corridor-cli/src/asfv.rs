//! `corridor asfv`: the adaptive space-filling volume decomposition of an environment.

use crate::environment_arg::{load_environment, write};
use crate::error::CliError;
use crate::planners::draw_asfv;
use crate::progress;
use corridor_asfv::Decomposition;
use corridor_io::svg::SvgDocument;
use std::path::Path;
use std::time::Instant;

/// Builds the decomposition, prints regions, coverage and build time, and draws it.
pub fn run(file: &str, svg: Option<&Path>, json: bool) -> Result<(), CliError> {
    let env = load_environment(file, "corridor asfv")?;
    let started = Instant::now();
    let spinner = progress::spinner("decomposing the free space");
    let decomposition = Decomposition::build(&env, &Default::default())
        .map_err(|e| CliError::Planner(format!("asfv: {e}")))?;
    drop(spinner);
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
        draw_asfv(&mut doc, &decomposition);
        write(out, &doc.render())?;
    }
    Ok(())
}
