//! File formats and pictures for Corridor.
//!
//! Readers for the native JSON environment format, GeoJSON, Moving AI `.map`/`.scen`
//! grids, any-angle `maze.txt`/`problems.csv` sets and Polyanya `.mesh` (version 2)
//! navigation meshes; every reader returns a typed error with the line (and column where
//! it helps) and never panics. [`obj`] turns a Wavefront OBJ 3D level into walkable
//! layers joined by connections (a `LayeredEnvironment`); [`read_layered_json`] reads
//! the native layered format and [`load_layered`] any layered map (JSON, OBJ, built-in). The SVG writer
//! ([`svg::SvgDocument`]) draws environments and Explicit Corridor Maps
//! ([`svg::SvgDocument::add_ecm`]), and takes extra layers from the other planners.
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

pub mod obj;
pub mod scenes;
pub mod svg;

mod anyangle;
mod geojson_reader;
mod grid;
mod layered_json;
mod layered_load;
mod load;
mod mesh;
mod movingai;
mod native;
mod text;

pub use anyangle::{
    read_maze, read_maze_environment, read_maze_environment_with, read_problems, Problem,
    ProblemError,
};
pub use geojson_reader::{read_geojson, GeoJsonError, GEOJSON_MARGIN_FRACTION};
pub use grid::{CellGrid, GridError, PinchRule, MAX_GRID_SIDE, OPEN_PINCH_CUT};
pub use layered_json::{
    is_layered_json, read_layered_json, write_layered_json, LayeredJsonError, LAYERED_FORMAT,
    LAYERED_FORMAT_VERSION,
};
pub use layered_load::{is_layered_map, load_layered, LayeredLoadError};
pub use load::{
    load_environment, load_environment_with, load_grid, load_mesh, load_point_pairs, load_problems,
    load_scenarios, max_input_bytes, read_text, read_text_bounded, Format, LoadError,
    DEFAULT_MAX_INPUT_BYTES,
};
pub use mesh::{read_mesh, Mesh, MeshError, MeshPolygon, MeshVertex};
pub use movingai::{
    read_map, read_map_environment, read_map_environment_with, read_scenarios, Scenario,
    ScenarioError,
};
pub use native::{
    read_json, read_obstacles, write_json, JsonError, ObstacleRecord, JSON_FORMAT_VERSION,
};
