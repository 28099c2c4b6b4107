//! The Explicit Corridor Map (ECM) of Corridor: construction, validation, point queries,
//! path planning for any radius, dynamic updates and storage.
//!
//! This crate owns the ECM: the medial axis of the free space of a 2D environment as a
//! graph ([`Ecm`]) whose vertices have degree 1 or at least 3 and whose edges are
//! sequences of [`BendingPoint`]s, each annotated with its nearest obstacle point on the
//! left and on the right. The bending points and their nearest points cut the free
//! space into ECM cells, available through [`Edge::cell`], [`Edge::cell_pieces`] and
//! [`Ecm::locate`].
//!
//! # How it is built
//! [`Ecm::build`] normalizes an [`corridor_geom::Environment`] into [`corridor_geom::Walls`]
//! on the integer snap grid (10 000 steps per unit by default), computes the segment
//! Voronoi diagram with `corridor-voronoi` (the fixed fork of `boostvoronoi` 0.12.1, `i64`
//! input, whose circle-event filters work in a frame centred on a site, see
//! `vendor/boostvoronoi/PATCH.md`: 1.5–2× faster on game maps), keeps the edges
//! that lie in free space (a one-sided wall has free space only on its left), drops the
//! secondary edges between a segment and its own end point, splits vertices on wall
//! corners so that each corner branch ends in its own degree-1 vertex (so no medial axis
//! passes through a diagonal pinch point), samples parabolic arcs with a bounded
//! deviation ([`BuildOptions::max_arc_deviation`]) and annotates every bending point
//! exactly (projection onto the site segment, or the site point).
//!
//! # Validation, always on
//! `boostvoronoi` 0.12.1 occasionally places a Voronoi vertex wrongly. Every build is
//! checked before it is returned: each bending point is equidistant from its two nearest
//! points, no wall (found with an R-tree) is closer than its clearance, no cell piece is
//! turned over, the cells add up to the free area and the degrees are right. On failure
//! the walls are rebuilt under an exact grid [`Transform`] (90° rotations, mirrors,
//! integer shifts) and mapped back; [`BuildStats::recoveries`] counts these. If every
//! transform fails, the build returns [`BuildError::Unrecoverable`], never a wrong ECM.
//!
//! # Coordinates
//! Everything public is in user units (`f64`), converted once from the grid at the end
//! of the build; tolerances are stated in grid steps.
//!
//! # Questions and paths
//! [`Ecm::locate`] names the cell piece holding a point; [`Ecm::clearance`],
//! [`Ecm::nearest_obstacle_point`] and [`Ecm::retract`] answer from it. [`Ecm::plan`] (or a
//! reused [`Planner`]) finds a [`CorridorPath`] for a [`PathQuery`]'s radius.
//!
//! # Storage
//! [`Ecm::to_bytes`]/[`Ecm::from_bytes`] (and [`Ecm::save`]/[`Ecm::load`]) store the whole
//! ECM with its cell index in a compact binary form (postcard) behind a header with a
//! version and a checksum; loading refuses damaged files and checks the decoded map's
//! structure ([`LoadOptions`] adds the geometric checks), so a bad file is a
//! [`StoreError`], never a panic or a silently different map.
//!
//! # Layout
//! The modules are private; everything public is re-exported here. From the bottom up:
//! `util` knows nothing of the ECM (the box indexes, the packed R-tree and its
//! log-structured index, are corridor-geom's [`corridor_geom::PackedTree`] and
//! [`corridor_geom::LogIndex`]); `graph` is the data (vertices, edges, cells, the cell
//! index's storage, build stats); `build` makes it (Voronoi diagram, extraction,
//! annotation, assembly, validation, recovery); `locate` builds the cell index and
//! answers point queries; `route` plans paths; `update` changes a built ECM; `store`
//! saves and loads; `canonical` compares two ECMs; `layers` is the layered ECM (one ECM
//! per layer, connections closed) and planning across connections ([`LayeredPlanner`]).
//!
//! ```
//! use corridor_ecm::Ecm;
//! use corridor_geom::{GridPoint, SnapGrid, WallSegment, WallSource, Walls};
//! let ring = |pts: &[(i32, i32)], source: WallSource| -> Vec<WallSegment> {
//!     (0..pts.len()).map(|i| WallSegment {
//!         a: GridPoint::new(pts[i].0, pts[i].1),
//!         b: GridPoint::new(pts[(i + 1) % pts.len()].0, pts[(i + 1) % pts.len()].1),
//!         two_sided: false,
//!         sources: [source].into(),
//!     }).collect()
//! };
//! // A 10 × 10 room (counter-clockwise) around a 2 × 2 block (clockwise).
//! let mut segments = ring(&[(0, 0), (10, 0), (10, 10), (0, 10)], WallSource::Boundary);
//! let block = WallSource::Obstacle(corridor_geom::ObstacleId(0));
//! segments.extend(ring(&[(4, 4), (4, 6), (6, 6), (6, 4)], block));
//! let walls = Walls { grid: SnapGrid::new(1.0).unwrap(), segments, ..Walls::default() };
//! let ecm = Ecm::from_walls(&walls).unwrap();
//! assert_eq!(ecm.component_count(), 1);
//! assert!((ecm.free_area() - 96.0).abs() < 1e-9);
//! assert!(ecm.vertices().all(|(_, v)| v.degree() == 1 || v.degree() >= 3));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

mod build;
mod canonical;
mod dynamic;
mod graph;
mod layers;
mod locate;
mod route;
mod store;
mod transform;
mod util;
mod visibility;

pub use build::{BuildError, BuildOptions, FailureKind, ValidationFailure, WallProblem};
pub use dynamic::{
    Change, DynamicEcm, Patch, PatchReport, RepairMethod, UpdateError, UpdateOptions, UpdateStats,
};
pub use graph::{
    BendingPoint, BuildStats, CellIndex, CellRef, ComponentId, Ecm, Edge, EdgeId, NearestPoints,
    Side, Vertex, VertexEdges, VertexId,
};
pub use layers::{
    DynamicLayeredEcm, LayeredChange, LayeredEcm, LayeredEcmError, LayeredMap, LayeredPatch,
    LayeredPath, LayeredPlanner, LayeredStep, CROSSING_MARGIN_STEPS,
};
pub use locate::{NearestObstacle, QueryError, Retraction};
pub use route::{
    CorridorPath, CorridorStep, Fallback, PathQuery, PlanError, Planner, FIT_TOLERANCE_STEPS,
};
pub use store::{EnvironmentProblem, LoadOptions, StoreError, StructureProblem};
pub use transform::Transform;
pub use visibility::{
    layered_line_of_sight, layered_line_of_sight_with_radius, layered_visible_points,
    LayeredSightError,
};
pub use visibility::{
    layered_visibility, layered_visibility_within, LayeredView, RegionEdge, VisibleRegion,
};
pub use visibility::{
    EdgeKind, ViewLimits, VisibilityError, VisibilityIndex, VisibilityIndexError, VisibilityPolygon,
};
