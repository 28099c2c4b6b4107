//! Corridor: navigation for 2D worlds whose obstacles change while characters move.
//!
//! Corridor plans paths for disk-shaped characters of any radius on the Explicit
//! Corridor Map ([`Ecm`](ecm::Ecm)): the medial axis of the free space, annotated with the
//! nearest obstacle points, so that every path comes with its corridor and the room on
//! either side. When obstacles are inserted, moved or removed, the map is repaired
//! locally instead of rebuilt; the repair is planned without blocking the readers and
//! applied in one step.
//!
//! This crate is the way in: `use corridor::prelude::*;` brings what a game needs, and
//! every crate of the workspace is here as a module: [`geom`] (geometry kernel,
//! environments), [`io`] (file formats, built-in scenes, SVG pictures), [`ecm`] (the
//! Explicit Corridor Map: construction, queries, paths, dynamic updates), [`visgraph`]
//! (visibility graph: exact shortest paths), [`trapmap`] (trapezoidal map), [`asfv`]
//! (adaptive space-filling volumes), [`crowd`] (crowd simulation: route following,
//! ORCA avoidance, many threads), and [`glam`] (the vector type behind
//! [`Point`](prelude::Point)).
//!
//! Features: `mint` (off by default) converts [`Point`](prelude::Point) to and from the
//! [`mint`](https://docs.rs/mint) interchange types (glam's `mint-05`), for engines
//! that speak mint. Environments and ECMs always serialize with `serde`.
//!
//! # A guided tour
//!
//! ## 1. An environment: a built-in scene, a file, or your own polygons
//! An [`Environment`](prelude::Environment) is a boundary ring and obstacles (polygons,
//! possibly with holes, polylines and points), each with an
//! [`ObstacleId`](prelude::ObstacleId).
//! ```
//! use corridor::prelude::*;
//! let dungeon = Scene::Dungeon.build();
//! assert!(dungeon.obstacles().count() > 100);
//!
//! let mut env = Environment::rectangle(Point::ZERO, Point::new(20.0, 10.0));
//! let wall = env.insert(Obstacle::rectangle(Point::new(8.0, 0.0), Point::new(12.0, 7.0)));
//! env.insert(Obstacle::polygon(vec![
//!     Point::new(2.0, 6.0),
//!     Point::new(4.0, 6.0),
//!     Point::new(3.0, 8.0),
//! ]));
//! env.validate()?;
//! assert_eq!(env.obstacle(wall).map(Obstacle::kind), Some("polygon"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//! Files (native JSON, GeoJSON, Moving AI `.map`, Polyanya `.mesh`, any-angle mazes) load
//! with [`load_environment`](prelude::load_environment).
//!
//! ## 2. The Explicit Corridor Map
//! ```
//! # use corridor::prelude::*;
//! # let mut env = Environment::rectangle(Point::ZERO, Point::new(20.0, 10.0));
//! # env.insert(Obstacle::rectangle(Point::new(8.0, 0.0), Point::new(12.0, 7.0)));
//! let ecm = Ecm::build(&env)?;
//! assert_eq!(ecm.component_count(), 1);
//! assert!((ecm.free_area() - (200.0 - 28.0)).abs() < 1e-9);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## 3. A path for a character of some radius
//! The path keeps the radius from every wall; it bends around corners on arcs (given as
//! short polylines) and its length is exact. Touching is fitting: a character of radius
//! `r` fits wherever the clearance is at least `r` (at `r = 0.5` it passes a 1-wide door
//! of a grid map), with a tolerance of `corridor_ecm::FIT_TOLERANCE_STEPS` grid steps
//! (10⁻⁷ units at the default snap grid) that the start and goal checks, the corridor
//! search, the funnel and the path's clearance check all apply alike.
//! ```
//! # use corridor::prelude::*;
//! # let mut env = Environment::rectangle(Point::ZERO, Point::new(20.0, 10.0));
//! # env.insert(Obstacle::rectangle(Point::new(8.0, 0.0), Point::new(12.0, 7.0)));
//! # let ecm = Ecm::build(&env)?;
//! let (start, goal) = (Point::new(2.0, 2.0), Point::new(18.0, 2.0));
//! let path = ecm.plan(&PathQuery::new(start, goal).with_radius(0.5))?;
//! assert_eq!((path.points[0], *path.points.last().unwrap()), (start, goal));
//! assert!(path.length > 19.0); // over the wall, not through it
//! // The gap above the wall is 3 wide: a character of radius 2 does not fit.
//! assert!(ecm.plan(&PathQuery::new(start, goal).with_radius(2.0)).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## 4. The indicative route: keep some room where there is room
//! The shortest path hugs the corners; the indicative route keeps a preferred clearance
//! where the corridor is wide enough, and is what a character can follow naturally.
//! ```
//! # use corridor::prelude::*;
//! # let mut env = Environment::rectangle(Point::ZERO, Point::new(20.0, 10.0));
//! # env.insert(Obstacle::rectangle(Point::new(8.0, 0.0), Point::new(12.0, 7.0)));
//! # let ecm = Ecm::build(&env)?;
//! # let (start, goal) = (Point::new(2.0, 2.0), Point::new(18.0, 2.0));
//! let query = PathQuery::new(start, goal).with_radius(0.5).with_preferred_clearance(1.0);
//! let path = ecm.plan(&query)?;
//! for p in &path.indicative_route {
//!     assert!(ecm.clearance(*p)? >= 0.5 - 1e-6);
//! }
//! // The corridor: the medial axis along the route with the room on either side.
//! assert!(path.corridor.iter().all(|step| step.clearance > 0.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## 5. Clearance and the nearest obstacle at a point
//! ```
//! # use corridor::prelude::*;
//! # let mut env = Environment::rectangle(Point::ZERO, Point::new(20.0, 10.0));
//! # env.insert(Obstacle::rectangle(Point::new(8.0, 0.0), Point::new(12.0, 7.0)));
//! # let ecm = Ecm::build(&env)?;
//! let here = Point::new(10.0, 8.0);
//! assert!((ecm.clearance(here)? - 1.0).abs() < 1e-9);
//! assert!((ecm.nearest_obstacle_point(here)? - Point::new(10.0, 7.0)).length() < 1e-9);
//! assert!(ecm.clearance(Point::new(10.0, 3.0)).is_err()); // inside the wall
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## 6. One way to ask any planner
//! Every planner answers [`PathPlanner::find_path`] with
//! the same [`PlannedPath`]: the ECM, the visibility graph (exact
//! shortest paths; [`RadiusGraph`] for a radius), the trapezoidal
//! map and the space-filling volumes.
//! ```
//! # use corridor::prelude::*;
//! # let mut env = Environment::rectangle(Point::ZERO, Point::new(20.0, 10.0));
//! # env.insert(Obstacle::rectangle(Point::new(8.0, 0.0), Point::new(12.0, 7.0)));
//! let query = PathQuery::new(Point::new(2.0, 2.0), Point::new(18.0, 2.0));
//! let ecm: Box<dyn PathPlanner> = Box::new(Ecm::build(&env)?);
//! let graph: Box<dyn PathPlanner> = Box::new(VisibilityGraph::build(&env)?);
//! let (a, b) = (ecm.find_path(&query)?, graph.find_path(&query)?);
//! assert!((a.length - b.length).abs() < 1e-6); // both exact
//! assert!(a.corridor.is_some() && b.corridor.is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## 7. Obstacles that move: plan the update off-thread, apply it in one step
//! A [`DynamicEcm`](prelude::DynamicEcm) keeps the environment and its ECM together.
//! Planning an update ([`Change`](prelude::Change): insert, move, remove) only reads the
//! map, so characters keep planning on the current ECM meanwhile; applying the
//! [`Patch`](prelude::Patch) swaps in the repaired part.
//! ```
//! # use corridor::prelude::*;
//! # let mut env = Environment::rectangle(Point::ZERO, Point::new(20.0, 10.0));
//! # let wall = env.insert(Obstacle::rectangle(Point::new(8.0, 0.0), Point::new(12.0, 7.0)));
//! let mut map = DynamicEcm::new(env)?;
//! let crate_box = Obstacle::rectangle(Point::new(14.0, 4.0), Point::new(15.0, 5.0));
//! let query = PathQuery::new(Point::new(2.0, 2.0), Point::new(18.0, 2.0));
//! let (patch, path) = std::thread::scope(|s| {
//!     let update = s.spawn(|| map.plan_update(&Change::Insert(crate_box)));
//!     let path = map.ecm().plan(&query); // meanwhile, on the current map
//!     (update.join().expect("no panic"), path)
//! });
//! assert!(path.is_ok());
//! let inserted = map.apply(patch?)?;
//! assert_eq!(map.environment().obstacles().count(), 2);
//!
//! // Move it, then remove the wall: the same two steps, or one call each.
//! let moved = Obstacle::rectangle(Point::new(14.0, 6.0), Point::new(15.0, 7.0));
//! map.apply(map.plan_update(&Change::Move { id: inserted[0], obstacle: moved })?)?;
//! map.remove(wall)?;
//! assert!((map.ecm().free_area() - (200.0 - 1.0)).abs() < 1e-9);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## 8. Save and load
//! Environments as native JSON (exact: they read back bit-identical); an ECM in a
//! compact binary form with its cell index, so that a game can ship it prebuilt.
//! ```
//! # use corridor::prelude::*;
//! # let mut env = Environment::rectangle(Point::ZERO, Point::new(20.0, 10.0));
//! # env.insert(Obstacle::rectangle(Point::new(8.0, 0.0), Point::new(12.0, 7.0)));
//! let text = write_json(&env)?;
//! assert_eq!(read_json(&text)?.obstacles().count(), env.obstacles().count());
//!
//! let ecm = Ecm::build(&env)?;
//! let file = std::env::temp_dir().join(format!("corridor-tour-{}.ecm", std::process::id()));
//! ecm.save(&file)?;
//! let loaded = Ecm::load(&file)?;
//! assert_eq!(loaded.edge_count(), ecm.edge_count());
//! # std::fs::remove_file(&file)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

mod planner;
pub mod prelude;

pub use corridor_asfv as asfv;
/// Crowd simulation on the ECM: characters follow indicative routes and avoid each other.
pub use corridor_crowd as crowd;
pub use corridor_ecm as ecm;
pub use corridor_geom as geom;
pub use corridor_io as io;
pub use corridor_trapmap as trapmap;
pub use corridor_visgraph as visgraph;
pub use glam;

pub use corridor_ecm::{DynamicLayeredEcm, LayeredChange, LayeredMap, LayeredPatch};
/// Visibility on the ECM: [`Ecm::visibility_polygon`](ecm::Ecm::visibility_polygon), [`Ecm::line_of_sight`](ecm::Ecm::line_of_sight).
pub use corridor_ecm::{EdgeKind, ViewLimits, VisibilityError, VisibilityPolygon};
/// Multi-layered (2.5D) environments: the model, its ECM and paths across layers.
pub use corridor_ecm::{LayeredEcm, LayeredEcmError, LayeredPath, LayeredPlanner};
/// Faster visibility queries on a triangulation of the walls, built once per map.
pub use corridor_ecm::{VisibilityIndex, VisibilityIndexError};
pub use corridor_geom::{HeightPlane, Layer, LayerId, LayeredEnvironment, LayeredError};
pub use planner::{FindPathError, PathPlanner, PlannedPath, RadiusGraph};

/// The README's quick start, run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeQuickStart;
