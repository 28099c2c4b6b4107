//! `corridor demo`: the main job on the built-in environments.

use crate::environment_arg::{write, CliError};
use corridor_io::scenes::Scene;
use corridor_io::svg::SvgDocument;
use std::path::Path;
use std::time::Instant;

/// Builds every built-in scene and writes its pictures into `output`.
pub fn run(output: &Path) -> Result<(), CliError> {
    for scene in Scene::ALL {
        let started = Instant::now();
        let env = scene.build();
        env.validate()?;
        let file = output.join(format!("{}.svg", scene.name()));
        write(
            &file,
            &SvgDocument::of_environment(&env, false)
                .with_title(scene.name())
                .render(),
        )?;
        println!(
            "{:<9} {:>4} obstacles {:>5} vertices  {:>7.2} ms  -> {}",
            scene.name(),
            env.obstacles().count(),
            env.vertex_count(),
            started.elapsed().as_secs_f64() * 1e3,
            file.display()
        );
    }
    Ok(())
}
