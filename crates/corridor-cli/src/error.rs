//! Why a command failed: one line for the user, and a short kind for `--json` errors.

/// Why the command failed.
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
    /// A saved ECM could not be read or written.
    #[error("{0}")]
    SavedEcm(#[from] corridor_ecm::StoreError),
    /// The command needs the environment (its obstacles), and the file is a saved ECM,
    /// which does not hold it.
    #[error("{file} is a saved ECM, which does not hold the environment's obstacles: {what} needs the environment file (or builtin:NAME) the ECM was built from")]
    NeedsEnvironment {
        /// The `.ecm` file.
        file: String,
        /// What needed it (`corridor update`, `--ids`, `the visgraph planner`...).
        what: String,
    },
    /// The ECM could not be built.
    #[error("{0}")]
    Build(#[from] corridor_ecm::BuildError),
    /// A planner other than the ECM could not be built (the message names it).
    #[error("{0}")]
    Planner(String),
    /// No path.
    #[error("{0}")]
    Plan(#[from] corridor::FindPathError),
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
    /// A scenario file was made for another map.
    #[error("{scen}: scenario {scenario} is for map '{scenario_map}' of {}x{} cells, but {map} is '{map_name}' of {}x{} cells", .scenario_size.0, .scenario_size.1, .map_size.0, .map_size.1)]
    ScenarioMismatch {
        /// The scenario file.
        scen: String,
        /// The first scenario that does not match (1 for the first in the file).
        scenario: usize,
        /// The map named by the scenario.
        scenario_map: String,
        /// Its width and height as stated by the scenario.
        scenario_size: (u32, u32),
        /// The map file given.
        map: String,
        /// Its file name.
        map_name: String,
        /// Its width and height.
        map_size: (u32, u32),
    },
    /// A crowd simulation could not be set up or run.
    #[error("{0}")]
    Crowd(#[from] corridor::crowd::CrowdError),
    /// Some queries of a scenario run found no path (the report lists why).
    #[error("{failed} of {total} queries failed")]
    QueriesFailed {
        /// Queries without a path.
        failed: usize,
        /// All queries.
        total: usize,
    },
    /// A check failed: an update differs from a full rebuild.
    #[error("{0}")]
    Mismatch(String),
    /// A layered map could not be loaded.
    #[error("{0}")]
    LayeredLoad(#[from] corridor_io::LayeredLoadError),
    /// A layered map could not be written.
    #[error("{0}")]
    LayeredJson(#[from] corridor_io::LayeredJsonError),
    /// The layered ECM could not be built, or no path was found across layers.
    #[error("{0}")]
    Layered(#[from] corridor_ecm::LayeredEcmError),
}

impl CliError {
    /// A short name for the kind of error (`--json` errors' `kind`).
    pub fn kind(&self) -> &'static str {
        match self {
            CliError::UnknownScene(_) => "unknown_scene",
            CliError::Io { .. } => "io",
            CliError::Environment(_) => "environment",
            CliError::Load(_) => "load",
            CliError::SavedEcm(_) => "saved_ecm",
            CliError::NeedsEnvironment { .. } => "needs_environment",
            CliError::Build(_) => "build",
            CliError::Planner(_) => "planner",
            CliError::Plan(_) => "plan",
            CliError::Usage(_) => "usage",
            CliError::Json(_) => "json",
            CliError::Obstacles { .. } => "obstacles",
            CliError::Update(_) => "update",
            CliError::ScenarioMismatch { .. } => "scenario_mismatch",
            CliError::QueriesFailed { .. } => "queries_failed",
            CliError::Mismatch(_) => "mismatch",
            CliError::LayeredLoad(_) => "load",
            CliError::LayeredJson(_) => "json",
            CliError::Layered(_) => "layered",
            CliError::Crowd(_) => "crowd",
        }
    }
}
