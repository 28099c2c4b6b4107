//! Turning a command-line argument into a map: an environment (a file or
//! `builtin:NAME`) or a saved ECM (`.ecm`, written by `corridor build --save`).

use crate::error::CliError;
use crate::progress;
use corridor_ecm::Ecm;
use corridor_geom::{Aabb, Environment, Point};
use corridor_io::scenes::Scene;

/// What a map argument holds.
pub enum Map {
    /// An environment: the ECM and every other planner can be built from it.
    Environment(Environment),
    /// A saved ECM: paths and pictures of the ECM, but no obstacles.
    Ecm(Box<Ecm>),
}

/// Whether `arg` names a saved ECM (by its `.ecm` extension).
pub fn is_saved_ecm(arg: &str) -> bool {
    std::path::Path::new(arg)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ecm"))
}

/// Loads `builtin:NAME`, an environment file or a saved `.ecm`.
pub fn load_map(arg: &str) -> Result<Map, CliError> {
    if is_saved_ecm(arg) {
        let _spinner = progress::spinner(format!("loading {arg}"));
        return Ok(Map::Ecm(Box::new(Ecm::load(arg)?)));
    }
    load(arg).map(Map::Environment)
}

/// Loads `builtin:NAME` or an environment file; a saved ECM is refused with a message
/// saying that `what` needs the environment.
pub fn load_environment(arg: &str, what: &str) -> Result<Environment, CliError> {
    if is_saved_ecm(arg) {
        return Err(CliError::NeedsEnvironment {
            file: arg.into(),
            what: what.into(),
        });
    }
    load(arg)
}

fn load(arg: &str) -> Result<Environment, CliError> {
    if let Some(name) = arg.strip_prefix("builtin:") {
        return Scene::from_name(name)
            .map(Scene::build)
            .ok_or_else(|| CliError::UnknownScene(name.into()));
    }
    let _spinner = progress::spinner(format!("loading {arg}"));
    Ok(corridor_io::load_environment_with(
        std::path::Path::new(arg),
        pinch(),
    )?)
}

/// How grid maps treat diagonal pinches (`--pinch`; see [`corridor_io::PinchRule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Pinch {
    /// Two cells touching at a corner block passage (Moving AI).
    Closed,
    /// A point path may pass through the touching corner (the any-angle suite).
    Open,
}

static PINCH: std::sync::OnceLock<Pinch> = std::sync::OnceLock::new();

/// Sets the rule for the whole run (once, from the command line).
pub fn set_pinch(pinch: Pinch) {
    let _ = PINCH.set(pinch);
}

/// The rule grid maps are read with.
pub fn pinch() -> corridor_io::PinchRule {
    match PINCH.get() {
        Some(Pinch::Open) => corridor_io::PinchRule::Open,
        _ => corridor_io::PinchRule::Closed,
    }
}

/// The box around everything an ECM holds (its bending points and their nearest
/// obstacle points): the view of a picture drawn without the environment.
pub fn ecm_bounds(ecm: &Ecm) -> Aabb {
    let (mut lo, mut hi) = (Point::splat(f64::INFINITY), Point::splat(f64::NEG_INFINITY));
    for (_, e) in ecm.edges() {
        for b in &e.bending_points {
            lo = lo.min(b.position).min(b.left).min(b.right);
            hi = hi.max(b.position).max(b.left).max(b.right);
        }
    }
    if lo.x > hi.x {
        (lo, hi) = (Point::ZERO, Point::ONE);
    }
    Aabb::new(lo, hi)
}

/// Writes a file, naming it in the error.
pub fn write(path: &std::path::Path, contents: &str) -> Result<(), CliError> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|source| CliError::Io {
            path: parent.display().to_string(),
            source,
        })?;
    }
    std::fs::write(path, contents).map_err(|source| CliError::Io {
        path: path.display().to_string(),
        source,
    })
}
