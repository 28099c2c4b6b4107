//! Corridor: navigation for 2D and multi-layered worlds whose obstacles change while
//! characters move.
//!
//! This facade re-exports the workspace's crates under one name:
//! [`geom`] (geometry kernel, environments, normalization), [`io`] (file formats,
//! SVG pictures) [`ecm`] (the Explicit Corridor Map: construction, queries, paths, dynamic updates)
//! and [`asfv`] (dynamic adaptive space-filling volumes).
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

pub use corridor_asfv as asfv;
pub use corridor_ecm as ecm;
pub use corridor_geom as geom;
pub use corridor_io as io;
