//! The one locator of the repository's test data (`data/` at the workspace root: Moving
//! AI maps, any-angle mazes, Polyanya meshes, hard Voronoi inputs; see `data/README.md`
//! for their sources and licenses). Every test, benchmark and example finds its files
//! here, so that a plain clone tests itself.

use std::path::{Path, PathBuf};

/// The data folder: `$CORRIDOR_DATA` when set (to test against another copy), else the
/// repository's `data/`.
///
/// ```
/// let movingai = corridor_testkit::data_dir().join("movingai");
/// assert!(movingai.join("den520d.map").is_file());
/// ```
pub fn data_dir() -> PathBuf {
    match std::env::var_os("CORRIDOR_DATA") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data"),
    }
}

/// A path inside the data folder, e.g. `data_path("polyanya/aurora.mesh")`.
///
/// ```
/// assert!(corridor_testkit::data_path("polyanya/aurora.mesh").is_file());
/// ```
pub fn data_path(relative: impl AsRef<Path>) -> PathBuf {
    data_dir().join(relative)
}

/// The Moving AI maps in the data folder (`movingai/*.map`), sorted by path: the shared
/// game maps every map-wide test walks.
///
/// ```
/// let maps = corridor_testkit::movingai_maps();
/// assert!(maps.iter().any(|p| p.ends_with("arena.map")));
/// ```
pub fn movingai_maps() -> Vec<PathBuf> {
    let dir = data_path("movingai");
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the Moving AI maps in {}: {e}", dir.display()));
    let mut maps: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "map"))
        .collect();
    maps.sort();
    maps
}
