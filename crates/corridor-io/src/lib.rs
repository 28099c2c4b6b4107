//! File formats and pictures for Corridor.
//!
//! Readers for the native JSON environment format, GeoJSON, Moving AI `.map`/`.scen`
//! grids, any-angle `maze.txt`/`problems.csv` sets and Polyanya `.mesh` (version 2)
//! navigation meshes; every reader returns a typed error with the line (and column where
//! it helps) and never panics. The SVG writer draws environments and takes extra layers
//! from the planners.
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

pub mod scenes;
pub mod svg;
