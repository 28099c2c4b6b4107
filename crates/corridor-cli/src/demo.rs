//! `corridor demo`: the main job on the built-in environments: build each scene's ECM,
//! plan paths for two character radii, and draw everything.

use crate::draw;
use crate::environment_arg::{write, CliError};
use corridor_asfv::{AsfvParams, Decomposition};
use corridor_ecm::{Ecm, PathQuery, Planner};
use corridor_geom::{Environment, Point};
use corridor_io::scenes::Scene;
use corridor_io::svg::SvgDocument;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;
use std::time::Instant;

/// Builds every built-in scene and writes its pictures into `output`.
pub fn run(output: &Path) -> Result<(), CliError> {
    let progress = ProgressBar::new(Scene::ALL.len() as u64).with_style(
        ProgressStyle::with_template("{spinner} {msg:<10} [{bar:30}] {pos}/{len}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut lines = Vec::new();
    for scene in Scene::ALL {
        progress.set_message(scene.name());
        lines.push(run_scene(scene, output)?);
        progress.inc(1);
    }
    progress.finish_and_clear();
    for line in lines {
        println!("{line}");
    }
    println!("pictures in {}", output.display());
    Ok(())
}

fn run_scene(scene: Scene, output: &Path) -> Result<String, CliError> {
    let env = scene.build();
    env.validate()?;
    let name = scene.name();
    write(
        &output.join(format!("{name}.svg")),
        &SvgDocument::of_environment(&env, false)
            .with_title(name)
            .render(),
    )?;
    let started = Instant::now();
    let ecm = Ecm::build(&env)?;
    let build_ms = started.elapsed().as_secs_f64() * 1e3;
    let mut doc = SvgDocument::of_environment(&env, false)
        .with_title(&format!("{name}: explicit corridor map"));
    draw::add_ecm(&mut doc, &ecm);
    write(&output.join(format!("{name}-ecm.svg")), &doc.render())?;

    // Paths between opposite corners for a point and for a wide character.
    let (start, goal) = corner_points(&env, &ecm);
    let radius = 0.01 * env.bounds().size().min_element();
    let mut doc = SvgDocument::of_environment(&env, false)
        .with_title(&format!("{name}: paths for radius 0 and {radius}"));
    let mut planner = Planner::new();
    let mut summary = String::new();
    for (r, colour) in [(0.0, "#e6c300"), (radius, "#d62728")] {
        let query = PathQuery::new(start, goal).with_radius(r);
        match planner.plan(&ecm, &query) {
            Ok(path) => {
                draw::add_path(&mut doc, &path, &format!("path-r{r}"), colour);
                summary.push_str(&format!("  r={r}: length {:.2}", path.length));
            }
            Err(e) => summary.push_str(&format!("  r={r}: {e}")),
        }
    }
    write(&output.join(format!("{name}-paths.svg")), &doc.render())?;

    // The adaptive space-filling volumes, before and after a crate is dropped in the
    // middle and taken out again.
    let asfv_started = Instant::now();
    let mut decomposition = Decomposition::build(&env, &AsfvParams::default())
        .map_err(|e| CliError::Usage(format!("asfv: {e}")))?;
    let asfv_ms = asfv_started.elapsed().as_secs_f64() * 1e3;
    let picture = |title: &str, file: &str, d: &Decomposition| {
        let mut doc = SvgDocument::of_environment(d.environment(), false).with_title(title);
        crate::asfv::draw(&mut doc, d);
        write(&output.join(file), &doc.render())
    };
    picture(
        &format!("{name}: adaptive space-filling volumes"),
        &format!("{name}-asfv.svg"),
        &decomposition,
    )?;
    let centre = env.bounds().min.lerp(env.bounds().max, 0.5);
    let half = 0.04 * env.bounds().size().min_element();
    let crate_box = corridor_geom::Obstacle::rectangle(
        centre - Point::splat(half),
        centre + Point::splat(half),
    );
    if let Ok(id) = decomposition.insert_obstacle(crate_box) {
        picture(
            &format!("{name}: after a crate is added"),
            &format!("{name}-asfv-added.svg"),
            &decomposition,
        )?;
        if decomposition.remove_obstacle(id).is_ok() {
            picture(
                &format!("{name}: after it is removed"),
                &format!("{name}-asfv-removed.svg"),
                &decomposition,
            )?;
        }
    }
    summary.push_str(&format!(
        " | ASFV {} regions, {:.2} % covered, {asfv_ms:.0} ms",
        decomposition.region_count(),
        100.0 * decomposition.coverage().fraction()
    ));
    Ok(format!(
        "{name:<9} {:>4} obstacles {:>5} vertices | ECM {:>5} vertices {:>5} edges {:>2} components in {build_ms:>7.1} ms |{summary}",
        env.obstacles().count(),
        env.vertex_count(),
        ecm.vertex_count(),
        ecm.edge_count(),
        ecm.component_count(),
    ))
}

/// Free points near two opposite corners of the scene (the first point with some
/// clearance along the diagonal from each corner inwards).
fn corner_points(env: &Environment, ecm: &Ecm) -> (Point, Point) {
    let b = env.bounds();
    let wanted = 0.02 * b.size().min_element();
    let find = |from: Point, to: Point| {
        (1..200)
            .map(|k| from.lerp(to, k as f64 / 400.0))
            .find(|&p| ecm.clearance(p).is_ok_and(|c| c >= wanted))
            .unwrap_or(b.min.lerp(b.max, 0.5))
    };
    (find(b.min, b.max), find(b.max, b.min))
}
