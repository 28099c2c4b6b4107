//! Turning a command-line argument into an environment.

use corridor_geom::Environment;
use corridor_io::scenes::Scene;

/// Why the command failed: one line for the user.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// `builtin:NAME` with an unknown name.
    #[error("unknown built-in scene '{0}' (try empty, military, dungeon, city)")]
    UnknownScene(String),
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The environment is invalid.
    #[error("{0}")]
    Environment(#[from] corridor_geom::EnvironmentError),
    /// The file could not be read or parsed.
    #[error("{0}")]
    Load(#[from] corridor_io::LoadError),
    /// The ECM could not be built.
    #[error("{0}")]
    Build(#[from] corridor_ecm::BuildError),
    /// No path.
    #[error("{0}")]
    Plan(#[from] corridor_ecm::PlanError),
    /// The command line asks for something impossible.
    #[error("{0}")]
    Usage(String),
    /// Writing JSON failed.
    #[error("{0}")]
    Json(#[from] corridor_io::JsonError),
    /// An obstacle file could not be parsed.
    #[error("{path}: {source}")]
    Obstacles {
        /// The file.
        path: String,
        /// Why.
        source: corridor_io::JsonError,
    },
    /// A dynamic update failed.
    #[error("{0}")]
    Update(#[from] corridor_ecm::UpdateError),
}

/// Loads `builtin:NAME` or an environment file.
pub fn load(arg: &str) -> Result<Environment, CliError> {
    if let Some(name) = arg.strip_prefix("builtin:") {
        return Scene::from_name(name)
            .map(Scene::build)
            .ok_or_else(|| CliError::UnknownScene(name.into()));
    }
    Ok(corridor_io::load_environment(std::path::Path::new(arg))?)
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
