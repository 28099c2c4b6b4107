//! Which layered environment does a command-line map name? `builtin:NAME` (a built-in
//! layered scene), a Wavefront `.obj` level (split into layers with the default
//! [`WalkableOptions`]) or a layered JSON file ([`read_layered_json`]).

use crate::obj::{read_level, LevelError, WalkableOptions};
use crate::{is_layered_json, read_layered_json, read_text, scenes, LayeredJsonError, LoadError};
use corridor_geom::LayeredEnvironment;
use std::path::{Path, PathBuf};

/// Why a layered environment could not be loaded. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum LayeredLoadError {
    /// The file could not be read (missing, too large, not UTF-8…).
    #[error(transparent)]
    Read(#[from] LoadError),
    /// A layered JSON error.
    #[error("{}: {source}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: LayeredJsonError,
    },
    /// An OBJ level that cannot be made into layers.
    #[error("{}: {source}", path.display())]
    Level {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: LevelError,
    },
    /// `builtin:NAME` names no layered scene.
    #[error("unknown built-in layered scene '{0}' (try {list})", list = scenes::LAYERED.join(", "))]
    UnknownScene(String),
    /// The file is not a layered environment (a 2D format, or an unknown extension).
    #[error("{}: not a layered environment (expected builtin:layers, a .obj level or a layered .json with \"format\": \"corridor-layered\")", path.display())]
    NotLayered {
        /// The file.
        path: PathBuf,
    },
}

/// Whether the map argument `arg` names a layered environment: a built-in layered scene,
/// a `.obj` file, or a `.json` file whose top-level `format` is `corridor-layered` (the
/// file is read to tell; an unreadable one is not layered here, and its 2D reader
/// reports why).
///
/// ```
/// assert!(corridor_io::is_layered_map("builtin:layers"));
/// assert!(!corridor_io::is_layered_map("builtin:military"));
/// assert!(corridor_io::is_layered_map("levels/dungeon.OBJ"));
/// ```
pub fn is_layered_map(arg: &str) -> bool {
    if let Some(name) = arg.strip_prefix("builtin:") {
        return scenes::LAYERED.contains(&name);
    }
    match extension(Path::new(arg)).as_deref() {
        Some("obj") => true,
        Some("json") => read_text(Path::new(arg)).is_ok_and(|t| is_layered_json(&t)),
        _ => false,
    }
}

/// Loads the layered environment `arg` names ([`is_layered_map`]).
///
/// ```
/// let world = corridor_io::load_layered("builtin:layers").unwrap();
/// assert_eq!(world.layer_count(), 4);
/// assert!(corridor_io::load_layered("builtin:nowhere").is_err());
/// ```
pub fn load_layered(arg: &str) -> Result<LayeredEnvironment, LayeredLoadError> {
    if let Some(name) = arg.strip_prefix("builtin:") {
        return scenes::layered_from_name(name)
            .ok_or_else(|| LayeredLoadError::UnknownScene(name.into()));
    }
    let path = Path::new(arg);
    match extension(path).as_deref() {
        Some("obj") => read_level(&read_text(path)?, &WalkableOptions::default())
            .map(|level| level.into_layered())
            .map_err(|source| LayeredLoadError::Level {
                path: path.to_path_buf(),
                source,
            }),
        Some("json") => {
            let text = read_text(path)?;
            if !is_layered_json(&text) {
                return Err(LayeredLoadError::NotLayered {
                    path: path.to_path_buf(),
                });
            }
            read_layered_json(&text).map_err(|source| LayeredLoadError::Json {
                path: path.to_path_buf(),
                source,
            })
        }
        _ => Err(LayeredLoadError::NotLayered {
            path: path.to_path_buf(),
        }),
    }
}

fn extension(path: &Path) -> Option<String> {
    Some(path.extension()?.to_str()?.to_ascii_lowercase())
}
