//! One way to ask for a path, whichever planner answers: the [`PathPlanner`] trait and
//! the one path shape it returns, [`PlannedPath`].

use corridor_asfv::{AsfvError, Decomposition};
use corridor_ecm::{CorridorStep, Ecm, PathQuery, PlanError, Planner};
use corridor_geom::{Environment, Point};
use corridor_trapmap::TrapezoidalMap;
use corridor_visgraph::{inflate_obstacles, BuildError, QueryError, VisibilityGraph};
use std::cell::RefCell;

/// A planner that answers path queries: the Explicit Corridor Map ([`Ecm`]), the
/// visibility graph ([`VisibilityGraph`], or [`RadiusGraph`] for a character with a
/// radius), the trapezoidal map ([`TrapezoidalMap`]) and adaptive space-filling volumes
/// ([`Decomposition`]).
///
/// ```
/// use corridor::prelude::*;
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 6.0));
/// env.insert(Obstacle::rectangle(Point::new(4.0, 0.0), Point::new(6.0, 4.0)));
/// let planners: Vec<Box<dyn PathPlanner>> = vec![
///     Box::new(Ecm::build(&env)?),
///     Box::new(VisibilityGraph::build(&env)?),
///     Box::new(TrapezoidalMap::build(&env)?),
///     Box::new(Decomposition::build(&env, &Default::default())?),
/// ];
/// let query = PathQuery::new(Point::new(1.0, 1.0), Point::new(9.0, 1.0));
/// for planner in &planners {
///     let path = planner.find_path(&query)?;
///     assert_eq!(path.points.first(), Some(&query.start));
///     assert_eq!(path.points.last(), Some(&query.goal));
///     // Over the wall: at least the shortest length (the trapezoidal map's roadmap is
///     // valid but not shortest).
///     assert!(path.length >= 2.0 * 18f64.sqrt() + 2.0 - 1e-9, "{}", planner.name());
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait PathPlanner {
    /// The path from `query.start` to `query.goal` for a character of `query.radius`.
    /// Planners that have no indicative route ignore `query.preferred_clearance`.
    fn find_path(&self, query: &PathQuery) -> Result<PlannedPath, FindPathError>;

    /// A short name for messages (`ecm`, `visgraph`, `trapmap`, `asfv`).
    fn name(&self) -> &'static str;
}

/// A path as every planner returns it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlannedPath {
    /// The polyline from start to goal.
    pub points: Vec<Point>,
    /// Its length (for the ECM, exact: straight pieces plus arcs around corners).
    pub length: f64,
    /// The route that keeps the query's preferred clearance where there is room (ECM only).
    pub indicative_route: Option<Vec<Point>>,
    /// The corridor around the path: the medial-axis points along the route with their
    /// nearest obstacle points left and right (ECM only).
    pub corridor: Option<Vec<CorridorStep>>,
    /// The safety net the ECM used instead of the funnel's path, if any (see
    /// [`corridor_ecm::Fallback`]); `None` for the other planners.
    pub fallback: Option<corridor_ecm::Fallback>,
}

/// Why a planner found no path.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FindPathError {
    /// The ECM's answer.
    #[error(transparent)]
    Ecm(#[from] PlanError),
    /// The visibility graph's or the trapezoidal map's answer (one error type: both ask
    /// the free space).
    #[error(transparent)]
    Graph(#[from] QueryError),
    /// The space-filling volumes' answer.
    #[error(transparent)]
    Asfv(#[from] AsfvError),
    /// The exact disk planner's answer ([`corridor_visgraph::DiskVisibilityGraph`]).
    #[error(transparent)]
    Disk(#[from] corridor_visgraph::DiskQueryError),
    /// This planner plans for one radius only (points, or the radius it was built for).
    #[error("the {planner} planner plans for radius {supported} only, not {radius}")]
    UnsupportedRadius {
        /// The planner's [`PathPlanner::name`].
        planner: &'static str,
        /// The radius it plans for.
        supported: f64,
        /// The radius asked for.
        radius: f64,
    },
}

thread_local! {
    /// One search state per thread, reused by every [`Ecm`] query on it (the planner
    /// notices a change of map), so that repeated queries do not allocate.
    static ECM_PLANNER: RefCell<Planner> = RefCell::new(Planner::new());
}

impl PathPlanner for Ecm {
    fn find_path(&self, query: &PathQuery) -> Result<PlannedPath, FindPathError> {
        let path = ECM_PLANNER.with(|planner| match planner.try_borrow_mut() {
            Ok(mut planner) => planner.plan(self, query),
            // Only when a query runs inside another on the same thread.
            Err(_) => self.plan(query),
        })?;
        Ok(PlannedPath {
            points: path.points,
            length: path.length,
            indicative_route: Some(path.indicative_route),
            corridor: Some(path.corridor),
            fallback: path.fallback,
        })
    }

    fn name(&self) -> &'static str {
        "ecm"
    }
}

/// Points only: `radius` must be 0.
fn points_only(planner: &'static str, query: &PathQuery) -> Result<(), FindPathError> {
    point_radius(planner, 0.0, query.radius)
}

fn point_radius(planner: &'static str, supported: f64, radius: f64) -> Result<(), FindPathError> {
    if radius == supported {
        Ok(())
    } else {
        Err(FindPathError::UnsupportedRadius {
            planner,
            supported,
            radius,
        })
    }
}

fn polyline(points: Vec<Point>, length: f64) -> PlannedPath {
    PlannedPath {
        points,
        length,
        indicative_route: None,
        corridor: None,
        fallback: None,
    }
}

/// Exact Euclidean shortest paths for points (radius 0); see [`RadiusGraph`] for a
/// character with a radius.
impl PathPlanner for VisibilityGraph {
    fn find_path(&self, query: &PathQuery) -> Result<PlannedPath, FindPathError> {
        points_only(self.name(), query)?;
        let path = self.shortest_path(query.start, query.goal)?;
        Ok(polyline(path.points, path.length))
    }

    fn name(&self) -> &'static str {
        "visgraph"
    }
}

/// Valid paths for points (radius 0) along the roadmap of trapezoid centres and wall
/// midpoints (not the shortest).
impl PathPlanner for TrapezoidalMap {
    fn find_path(&self, query: &PathQuery) -> Result<PlannedPath, FindPathError> {
        points_only(self.name(), query)?;
        let path = self.path(query.start, query.goal)?;
        Ok(polyline(path.points, path.length))
    }

    fn name(&self) -> &'static str {
        "trapmap"
    }
}

/// Paths for points (radius 0) through convex regions, pulled taut by the funnel.
impl PathPlanner for Decomposition {
    fn find_path(&self, query: &PathQuery) -> Result<PlannedPath, FindPathError> {
        points_only(self.name(), query)?;
        let path = self.path(query.start, query.goal)?;
        Ok(polyline(path.points, path.length))
    }

    fn name(&self) -> &'static str {
        "asfv"
    }
}

/// A visibility graph for a character of one radius: built on the obstacles grown by
/// the radius ([`inflate_obstacles`], a 32-gon per corner), so its paths are exact for
/// the grown obstacles.
///
/// ```
/// use corridor::prelude::*;
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 6.0));
/// env.insert(Obstacle::rectangle(Point::new(4.0, 0.0), Point::new(6.0, 4.0)));
/// let graph = RadiusGraph::build(&env, 0.5)?;
/// let query = PathQuery::new(Point::new(1.0, 1.0), Point::new(9.0, 1.0));
/// assert!(graph.find_path(&query.with_radius(0.5)).is_ok());
/// assert!(graph.find_path(&query).is_err()); // built for radius 0.5 only
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct RadiusGraph {
    graph: VisibilityGraph,
    radius: f64,
}

impl RadiusGraph {
    /// The graph of `env` with its obstacles grown by `radius` (no growth at 0; a negative
    /// or non-finite radius is an error).
    pub fn build(env: &Environment, radius: f64) -> Result<Self, BuildError> {
        let graph = if radius != 0.0 {
            VisibilityGraph::build(&inflate_obstacles(env, radius)?)?
        } else {
            VisibilityGraph::build(env)?
        };
        Ok(RadiusGraph { graph, radius })
    }

    /// The graph (of the grown obstacles).
    pub fn graph(&self) -> &VisibilityGraph {
        &self.graph
    }

    /// The radius it plans for.
    pub fn radius(&self) -> f64 {
        self.radius
    }
}

impl PathPlanner for RadiusGraph {
    fn find_path(&self, query: &PathQuery) -> Result<PlannedPath, FindPathError> {
        point_radius(self.name(), self.radius, query.radius)?;
        let path = self.graph.shortest_path(query.start, query.goal)?;
        Ok(polyline(path.points, path.length))
    }

    fn name(&self) -> &'static str {
        "visgraph"
    }
}
