//! The geometry kernel of Corridor.
//!
//! Everything the planners share lives here: points ([`Point`], an alias of
//! [`glam::DVec2`]), [`Segment`]s, simple [`Ring`]s and [`Polygon`]s with holes,
//! axis-aligned boxes ([`Aabb`]), exact predicates ([`orient`], [`segments_intersect`],
//! [`Ring::contains`]), distances and nearest points, the convex hull, the
//! [`Environment`] model with its validation, and [`normalize`], which turns user
//! obstacles that may overlap into interior-disjoint [`Walls`] on an integer grid
//! (kept current under edits by a [`WallMap`]), and the [`FreeSpace`] of the visibility
//! planners, with exact free [`Wedge`]s at the corners.
//!
//! # Layout
//! Below the public names: `walls/` (the walls, [`normalize`], its routes and checks;
//! `walls/dynamic/` for the [`WallMap`]), `free_space/` ([`FreeSpace`] and the traced
//! free-space polygons of [`Walls`]), `spatial/` (the bucket grids, the dynamic R-tree,
//! the packed R-tree of boxes with its log-structured index and [`boxes`]), the
//! environment model, the primitives and predicates. [`funnel`] (taut paths through
//! portals) and [`radix`] (the build's radix sort) are modules of their own.
//!
//! # Features
//! `serde` (default): `Serialize`/`Deserialize` for the environment model and the walls.
//!
//! # Numbers
//! Coordinates are `f64` in user units. Predicates that decide topology use
//! Shewchuk's adaptive arithmetic (the `robust` crate) on `f64`, or exact `i64`/`i128`
//! arithmetic on snapped [`GridPoint`]s. The Voronoi-based planners work on a grid of
//! [`SnapGrid::DEFAULT_SCALE`] = 10 000 steps per unit (0.1 mm when units are metres).
//!
//! ```
//! use corridor_geom::{Point, Ring, orient, Orientation};
//! let square = Ring::new(vec![
//!     Point::new(0.0, 0.0), Point::new(2.0, 0.0), Point::new(2.0, 2.0), Point::new(0.0, 2.0),
//! ]);
//! assert_eq!(square.area(), 4.0);
//! assert!(square.contains(Point::new(1.0, 1.0)));
//! assert_eq!(orient(Point::ZERO, Point::X, Point::Y), Orientation::CounterClockwise);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

mod aabb;
mod endpoint;
mod environment;
pub mod free_space;
pub mod funnel;
mod hull;
mod layered;
mod polygon;
mod predicates;
pub mod radix;
mod segment;
mod snap_grid;
mod spatial;
mod union_find;
mod walls;

pub use aabb::Aabb;
pub use endpoint::Endpoint;
pub use environment::{Environment, EnvironmentError, Obstacle, ObstacleId, Owner};
pub use free_space::traced::canonical_free_space;
pub use free_space::{FreeSpace, FreeSpaceError, FreeSpaceWall, PathQueryError, PointClass, Wedge};
pub use hull::convex_hull;
pub use layered::{Chart, HeightField, HeightFieldError, HeightPatch};
pub use layered::{
    Connection, ConnectionId, HeightPlane, Layer, LayerId, LayeredEnvironment, LayeredError,
};
pub use polygon::{Polygon, Ring, SelfIntersection};
pub use predicates::{
    orient, orient_grid, point_on_segment, segments_intersect, segments_intersect_grid, Orientation,
};
pub use segment::Segment;
pub use snap_grid::{GridPoint, PointGroups, SnapError, SnapGrid};
pub use spatial::{boxes, BoxesWhere, LogIndex, PackedTree, Slot};
pub use spatial::{DynamicTree, DynamicTreeOptions};
pub use spatial::{FloatSegmentGrid, GridMarks, SegmentGrid};
pub use union_find::UnionFind;
pub use walls::dynamic::{
    NormalizeScope, ObstacleEdit, WallDelta, WallKey, WallMap, WallSet, GROUP_MARGIN,
};
pub use walls::{
    normalize, normalize_indexed, normalize_indexed_within, normalize_within, overlay_size,
    IntegerSites, NormalizeError, NormalizeLimits, OverlaySize, WallConflict, WallSegment,
    WallSource, WallSources, Walls,
};
/// The reference routes of normalization that the tests compare the fast paths with
/// (feature `test-oracles`, which the test kit turns on; not part of the stable API).
#[cfg(feature = "test-oracles")]
pub use walls::{normalize_through_overlay, normalize_with_overlay_shapes, takes_disjoint_path};

/// FxHash maps and sets (rustc-hash): a fast hasher for small keys that no adversary
/// chooses (ids, grid points, walls), where SipHash showed in the profiles of small
/// builds and updates. Only looked up, never iterated where the order would matter.
pub use rustc_hash::{FxHashMap, FxHashSet};

/// A point or vector in user units.
pub type Point = glam::DVec2;

/// A 3D point (x, y in the ground plane, z the height) of a layered environment's output.
pub type Point3 = glam::DVec3;
