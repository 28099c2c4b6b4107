//! Reading files: the format is chosen by the path.

use crate::PinchRule;
use crate::{
    read_geojson, read_json, read_map, read_maze, read_mesh, read_problems, read_scenarios,
    CellGrid, GeoJsonError, GridError, JsonError, Mesh, MeshError, Problem, ProblemError, Scenario,
    ScenarioError,
};
use corridor_geom::{Environment, Point};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The environment file formats [`load_environment`] knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Corridor's native JSON (`.json`), see [`read_json`].
    Json,
    /// GeoJSON FeatureCollection (`.geojson`, or a `.json` whose top-level `type` is
    /// `FeatureCollection`), see [`read_geojson`].
    GeoJson,
    /// Moving AI grid (`.map`), see [`read_map`].
    MovingAiMap,
    /// Any-angle maze (a file named `maze.txt`, or a folder holding one), see
    /// [`read_maze`].
    AnyAngleMaze,
    /// Polyanya navigation mesh (`.mesh`), see [`read_mesh`].
    PolyanyaMesh,
}

impl Format {
    /// The format a path names, by its extension (case-insensitive) or name; a
    /// directory means an any-angle folder. `None` when nothing matches. (A `.json`
    /// file is [`Format::Json`] here; [`load_environment`] also looks inside.)
    ///
    /// ```
    /// use corridor_io::Format;
    /// assert_eq!(Format::detect("maps/arena.map".as_ref()), Some(Format::MovingAiMap));
    /// assert_eq!(Format::detect("x/maze.txt".as_ref()), Some(Format::AnyAngleMaze));
    /// assert_eq!(Format::detect("notes.txt".as_ref()), None);
    /// ```
    pub fn detect(path: &Path) -> Option<Format> {
        if path.is_dir() {
            return Some(Format::AnyAngleMaze);
        }
        if path.file_name().is_some_and(|n| n == "maze.txt") {
            return Some(Format::AnyAngleMaze);
        }
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "json" => Some(Format::Json),
            "geojson" => Some(Format::GeoJson),
            "map" => Some(Format::MovingAiMap),
            "mesh" => Some(Format::PolyanyaMesh),
            _ => None,
        }
    }
}

/// Why a file could not be loaded. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The path is not a regular file (a device, a FIFO, a socket): refused rather than
    /// read without end.
    #[error("{}: not a regular file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The file is larger than the input limit ([`max_input_bytes`]).
    #[error("{}: larger than the input limit of {limit} bytes (set CORRIDOR_MAX_INPUT_BYTES to raise it)", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
    /// The file is not UTF-8 text.
    #[error("{}: line {line}, column {column}: the file is not valid UTF-8", path.display())]
    Utf8 {
        /// The file.
        path: PathBuf,
        /// Line of the first bad byte.
        line: usize,
        /// Column of the first bad byte.
        column: usize,
    },
    /// The path names no known format.
    #[error("{}: unknown format (expected .json, .geojson, .map, .mesh, maze.txt or a folder holding maze.txt)", path.display())]
    UnknownFormat {
        /// The file.
        path: PathBuf,
    },
    /// A native JSON error.
    #[error("{}: {source}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: JsonError,
    },
    /// A GeoJSON error.
    #[error("{}: {source}", path.display())]
    GeoJson {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: GeoJsonError,
    },
    /// A `.map` or `maze.txt` error.
    #[error("{}: {source}", path.display())]
    Grid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: GridError,
    },
    /// A `.mesh` error.
    #[error("{}: {source}", path.display())]
    Mesh {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: MeshError,
    },
    /// A `.scen` error.
    #[error("{}: {source}", path.display())]
    Scenario {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: ScenarioError,
    },
    /// A problem-list error.
    #[error("{}: {source}", path.display())]
    Problem {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: ProblemError,
    },
}

/// The input limit when `CORRIDOR_MAX_INPUT_BYTES` is not set: 1 GiB.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 1 << 30;

/// The largest file the loaders read: `CORRIDOR_MAX_INPUT_BYTES` (a number of bytes) when
/// set to one, else [`DEFAULT_MAX_INPUT_BYTES`].
///
/// ```
/// assert!(corridor_io::max_input_bytes() > 0);
/// ```
pub fn max_input_bytes() -> u64 {
    std::env::var("CORRIDOR_MAX_INPUT_BYTES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(DEFAULT_MAX_INPUT_BYTES)
}

/// Reads a whole file as UTF-8 text: a regular file of at most [`max_input_bytes`] (see
/// [`read_text_bounded`]).
pub fn read_text(path: &Path) -> Result<String, LoadError> {
    read_text_bounded(path, max_input_bytes())
}

/// Reads a whole regular file of at most `limit` bytes as UTF-8 text. A device, a FIFO
/// or a socket is [`LoadError::NotAFile`] (it may never end); a larger file is
/// [`LoadError::TooLarge`], found by its size and by reading at most `limit + 1` bytes
/// (a file may grow while it is read).
///
/// ```
/// use corridor_io::{read_text_bounded, LoadError};
/// # #[cfg(unix)] {
/// let err = read_text_bounded("/dev/zero".as_ref(), 1 << 20).unwrap_err();
/// assert!(matches!(err, LoadError::NotAFile { .. }), "{err}");
/// # }
/// let path = std::env::temp_dir().join(format!("corridor-doc-limit-{}.map", std::process::id()));
/// std::fs::write(&path, "0123456789")?;
/// assert!(matches!(read_text_bounded(&path, 5), Err(LoadError::TooLarge { limit: 5, .. })));
/// assert_eq!(read_text_bounded(&path, 10)?, "0123456789");
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_text_bounded(path: &Path, limit: u64) -> Result<String, LoadError> {
    use std::io::Read;
    let io = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(LoadError::NotAFile {
            path: path.to_path_buf(),
        });
    }
    let too_large = || LoadError::TooLarge {
        path: path.to_path_buf(),
        limit,
    };
    if meta.len() > limit {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let line = bytes[..good].iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = bytes[..good]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        LoadError::Utf8 {
            path: path.to_path_buf(),
            line,
            column: good - line_start + 1,
        }
    })
}

/// Whether a JSON text looks like GeoJSON: a top-level `type` of `FeatureCollection`
/// and no `version`.
fn looks_like_geojson(text: &str) -> bool {
    #[derive(Deserialize)]
    struct Sniff {
        #[serde(rename = "type", default)]
        kind: Option<String>,
        #[serde(default)]
        version: Option<serde::de::IgnoredAny>,
    }
    matches!(
        serde_json::from_str::<Sniff>(text),
        Ok(Sniff { kind: Some(k), version: None }) if k == "FeatureCollection"
    )
}

/// Loads an environment, choosing the reader by [`Format::detect`]:
/// `.json` (native; GeoJSON when the top-level `type` is `FeatureCollection` and there is
/// no `version`), `.geojson`, `.map`, `.mesh` ([`Mesh::to_environment`]), a file named
/// `maze.txt` or a folder holding one. Grids become environments by
/// [`CellGrid::to_environment`]. The environment is valid when this returns `Ok`.
///
/// ```
/// let path = std::env::temp_dir().join(format!("corridor-doc-{}.map", std::process::id()));
/// std::fs::write(&path, "type octile\nheight 2\nwidth 3\nmap\n.@@\n..@\n")?;
/// let env = corridor_io::load_environment(&path)?;
/// assert_eq!(env.obstacles().count(), 1);
/// assert_eq!(env.vertex_count(), 6); // an L of three cells
/// # std::fs::remove_file(&path)?;
/// let err = corridor_io::load_environment("notes.txt").unwrap_err();
/// assert!(err.to_string().starts_with("notes.txt: unknown format"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn load_environment(path: impl AsRef<Path>) -> Result<Environment, LoadError> {
    load_environment_with(path, PinchRule::Closed)
}

/// [`load_environment`] with grid maps read under `pinch` (other formats ignore it).
pub fn load_environment_with(
    path: impl AsRef<Path>,
    pinch: PinchRule,
) -> Result<Environment, LoadError> {
    let path = path.as_ref();
    let unknown = || LoadError::UnknownFormat {
        path: path.to_path_buf(),
    };
    match Format::detect(path).ok_or_else(unknown)? {
        Format::Json => {
            let text = read_text(path)?;
            if looks_like_geojson(&text) {
                read_geojson(&text).map_err(|source| LoadError::GeoJson {
                    path: path.to_path_buf(),
                    source,
                })
            } else {
                read_json(&text).map_err(|source| LoadError::Json {
                    path: path.to_path_buf(),
                    source,
                })
            }
        }
        Format::GeoJson => read_geojson(&read_text(path)?).map_err(|source| LoadError::GeoJson {
            path: path.to_path_buf(),
            source,
        }),
        Format::MovingAiMap | Format::AnyAngleMaze => {
            Ok(load_grid(path)?.to_environment_with(pinch))
        }
        Format::PolyanyaMesh => {
            load_mesh(path)?
                .to_environment()
                .map_err(|source| LoadError::Mesh {
                    path: path.to_path_buf(),
                    source,
                })
        }
    }
}

/// Loads a grid: a Moving AI `.map`, an any-angle `maze.txt` or a folder holding one.
pub fn load_grid(path: impl AsRef<Path>) -> Result<CellGrid, LoadError> {
    let path = path.as_ref();
    let (file, format) = if path.is_dir() {
        (path.join("maze.txt"), Format::AnyAngleMaze)
    } else {
        (
            path.to_path_buf(),
            Format::detect(path).unwrap_or(Format::Json),
        )
    };
    let text = read_text(&file)?;
    let result = match format {
        Format::MovingAiMap => read_map(&text),
        Format::AnyAngleMaze => read_maze(&text),
        _ => return Err(LoadError::UnknownFormat { path: file }),
    };
    result.map_err(|source| LoadError::Grid { path: file, source })
}

/// Loads a Polyanya `.mesh` (version 2).
pub fn load_mesh(path: impl AsRef<Path>) -> Result<Mesh, LoadError> {
    let path = path.as_ref();
    read_mesh(&read_text(path)?).map_err(|source| LoadError::Mesh {
        path: path.to_path_buf(),
        source,
    })
}

/// Loads a Moving AI `.scen` file.
pub fn load_scenarios(path: impl AsRef<Path>) -> Result<Vec<Scenario>, LoadError> {
    let path = path.as_ref();
    read_scenarios(&read_text(path)?).map_err(|source| LoadError::Scenario {
        path: path.to_path_buf(),
        source,
    })
}

/// Loads a problem list (`problems.csv`, `aurora-euclidean.csv`); a folder means its
/// `problems.csv`.
pub fn load_problems(path: impl AsRef<Path>) -> Result<Vec<Problem>, LoadError> {
    let path = path.as_ref();
    let file = if path.is_dir() {
        path.join("problems.csv")
    } else {
        path.to_path_buf()
    };
    read_problems(&read_text(&file)?).map_err(|source| LoadError::Problem { path: file, source })
}

/// The start and goal of every problem of a Moving AI `.scen` file (cell centres) or of a
/// problem list ([`load_problems`]), whichever `path` is: what a planner benchmark needs.
pub fn load_point_pairs(path: impl AsRef<Path>) -> Result<Vec<(Point, Point)>, LoadError> {
    let path = path.as_ref();
    Ok(if path.extension().is_some_and(|e| e == "scen") {
        load_scenarios(path)?
            .iter()
            .map(|s| (s.start_point(), s.goal_point()))
            .collect()
    } else {
        load_problems(path)?
            .iter()
            .map(|p| (p.start, p.goal))
            .collect()
    })
}
