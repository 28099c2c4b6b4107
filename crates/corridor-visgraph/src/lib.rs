//! Exact Euclidean shortest paths among polygonal obstacles, by the visibility graph.
//!
//! [`VisibilityGraph::build`] turns an [`Environment`](corridor_geom::Environment) into
//! its [`FreeSpace`] (walls with the free space on a known side, and at every corner the
//! exact sectors of free directions, [`Wedge`]s) and links the corners that see each
//! other. [`VisibilityGraph::shortest_path`] then joins start and goal to the graph
//! without rebuilding it and runs A*.
//!
//! * **Four constructions.** Triangular expansion: the view from every corner pushed
//!   through a constrained triangulation of the free space, triangle by triangle (work
//!   close to the number of visible pairs); Lee's rotational sweep around every corner,
//!   O(n² log n) with a balanced ordered status; every pair of corners through a cheap
//!   direction filter and a segment test along grid cells (no per-corner set-up); and the
//!   naive O(n³) test of every pair against every wall, kept as the oracle the others are
//!   tested against. The default ([`Construction::Auto`]) is the expansion: from 8 to 10,000
//!   vertices it is the cheapest, or within 6 % of pairs on small reduced graphs.
//! * **Reduced graph by default.** Only corners where the free space is reflex and only
//!   edges tangent at both ends — enough for shortest paths (see [`GraphKind`]).
//! * **Exact.** Every decision (which side, which order, visible or not) is an exact
//!   orientation test on the input coordinates; only lengths are rounded.
//! * **Round bodies, exactly.** [`DiskVisibilityGraph`] plans for a disk of radius r:
//!   tangent segments and arcs of radius r around convex corners (the visibility–Voronoi
//!   complex's tangent graph), clearance ≥ r, lengths exact up to floating point.
//!   [`inflate_obstacles`] instead grows the obstacles by a 32-gon around the disk (at
//!   most 0.48 % of the radius too cautious).
//! * **Overlapping obstacles** are unioned by [`corridor_geom::normalize`] first; obstacles
//!   that only touch (grid maps) are merged exactly, at their own coordinates.
//! * **Grid maps.** Obstacles may touch along edges and at corners. A path may run along
//!   walls and touch corners, but never passes between two obstacles that touch only at a
//!   point (a diagonal pinch of a grid map): each corner has one wedge per free sector,
//!   and a path that turns at or passes through a corner stays within one wedge.
//!
//! ```
//! use corridor_geom::{Environment, Obstacle, Point};
//! use corridor_visgraph::{QueryError, VisibilityGraph};
//! let mut env = Environment::rectangle(Point::ZERO, Point::new(3.0, 3.0));
//! // Two blocked cells touching diagonally at (1, 1) close off the corner cell.
//! env.insert(Obstacle::rectangle(Point::new(0.0, 1.0), Point::new(1.0, 2.0)));
//! env.insert(Obstacle::rectangle(Point::new(1.0, 0.0), Point::new(2.0, 1.0)));
//! let graph = VisibilityGraph::build(&env).unwrap();
//! let (corner, far) = (Point::new(0.5, 0.5), Point::new(2.5, 2.5));
//! assert!(matches!(graph.shortest_path(corner, far), Err(QueryError::NoPath { .. })));
//! // The pinch point itself is reachable from outside, and the path may touch it.
//! let path = graph.shortest_path(Point::new(1.0, 1.0), far).unwrap();
//! assert!((path.length - 1.5 * 2f64.sqrt()).abs() < 1e-12);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

mod construct;
mod disk;
mod error;
mod graph;
mod inflate;
mod search;
mod sweep;

pub use corridor_geom::Endpoint;
/// The free space the graph is built on (from corridor-geom, where the trapezoidal map
/// finds it too).
pub use corridor_geom::{FreeSpace, FreeSpaceWall, PointClass, Wedge};
pub use disk::{DiskArc, DiskBuildError, DiskPath, DiskPiece, DiskQueryError, DiskVisibilityGraph};
pub use error::{BuildError, QueryError};
pub use graph::{Construction, GraphKind, GraphOptions, VisibilityGraph};
pub use inflate::{inflate_obstacles, INFLATE_SIDES};
pub use search::GraphPath;
