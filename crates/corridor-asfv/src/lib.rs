//! Dynamic adaptive space-filling volumes (DASFV) for Corridor: a decomposition of an
//! environment's free space into convex regions that repairs itself locally when
//! obstacles are inserted, removed or moved.
//!
//! * [`Decomposition::build`] seeds unit quads on a lattice, grows them until they meet
//!   obstacles or each other, lets a region adopt slanted obstacle edges as extra sides
//!   (raising its order while it stays convex), and reseeds until no seed fits
//!   (Hale, Youngblood & Dixit, AIIDE 2008).
//! * Regions and their shared boundary pieces ([`RegionPortal`]s) form the connectivity graph;
//!   [`Decomposition::path`] searches it and pulls the path taut through the portals.
//! * [`Decomposition::insert`], [`Decomposition::remove`] and
//!   [`Decomposition::move_to`] repair the decomposition as the DASFV paper
//!   describes (Hale & Youngblood 2009), touching only the regions near the change.
//! * [`check_regions`] is an independent validator: convexity, disjointness, free space, and the
//!   graph equal to the regions' geometric adjacency.
//!
//! Region vertices are `f64`; every decision about collisions, containment and
//! adjacency is made with exact predicates ([`corridor_geom::orient`]), so a region never
//! overlaps a wall or another region by a rounding error. Growth positions are sums of
//! dyadic steps (see [`AsfvOptions`]), so growing sides meet exactly and become portals.
//!
//! The crate depends only on `corridor-geom`; drawing is left to callers, who get
//! regions as polygons and portals as segments.
//!
//! ```
//! use corridor_asfv::{AsfvOptions, Decomposition};
//! use corridor_geom::{Environment, Obstacle, Point};
//! let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(50.0, 50.0));
//! env.insert(Obstacle::polygon(vec![
//!     Point::new(20.0, 20.0), Point::new(30.0, 25.0), Point::new(22.0, 32.0),
//! ]));
//! let d = Decomposition::build(&env, &AsfvOptions::default()).unwrap();
//! let report = d.validate().unwrap();
//! assert!(report.regions > 1);
//! assert!(d.coverage().fraction() > 0.98);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

mod check;
mod convex;
mod decomposition;
mod error;
mod graph;
mod grid;
mod growth;
mod options;
mod path;
mod region;
mod repair;
mod walls;

pub use check::{check_regions, check_regions_within, CheckReport, ValidationError};
pub use decomposition::{Coverage, Decomposition};
pub use error::AsfvError;
pub use options::AsfvOptions;
pub use path::AsfvPath;
pub use region::{Region, RegionId, RegionPortal};
pub use repair::RepairReport;
