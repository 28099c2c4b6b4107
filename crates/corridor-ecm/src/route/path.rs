//! What a caller of the planner sees: the query (start, goal, radius, preferred
//! clearance), the planned path with its corridor and routes, and why there is none.

use crate::graph::EdgeId;
use crate::locate::QueryError;
use corridor_geom::funnel::{Disk, Portal};
use corridor_geom::Point;

/// What to plan: from `start` to `goal` for a character of `radius`, preferring to keep
/// `preferred_clearance` from the walls where the corridor is wide enough.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathQuery {
    /// Where the character's centre starts.
    pub start: Point,
    /// Where it should end.
    pub goal: Point,
    /// The character's radius: the path keeps at least this distance from every wall.
    pub radius: f64,
    /// The distance the indicative route keeps where the corridor allows it (at least
    /// `radius`).
    pub preferred_clearance: f64,
}

impl PathQuery {
    /// A query for a point-sized character.
    pub fn new(start: Point, goal: Point) -> Self {
        PathQuery {
            start,
            goal,
            radius: 0.0,
            preferred_clearance: 0.0,
        }
    }

    /// The same query for a character of `radius`.
    pub fn with_radius(mut self, radius: f64) -> Self {
        self.radius = radius;
        self.preferred_clearance = self.preferred_clearance.max(radius);
        self
    }

    /// The same query with a preferred clearance for the indicative route.
    pub fn with_preferred_clearance(mut self, clearance: f64) -> Self {
        self.preferred_clearance = clearance;
        self
    }
}

/// Why there is no path.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum PlanError {
    /// The radius or preferred clearance is negative or not finite.
    #[error("radius {radius} and preferred clearance {preferred_clearance} must be finite and non-negative")]
    InvalidRadius {
        /// As given.
        radius: f64,
        /// As given.
        preferred_clearance: f64,
    },
    /// The start is not usable.
    #[error("start: {0}")]
    Start(QueryError),
    /// The goal is not usable.
    #[error("goal: {0}")]
    Goal(QueryError),
    /// The start is closer to a wall than the radius.
    #[error("start ({}, {}) is {clearance} from a wall, closer than the radius {radius}", .point.x, .point.y)]
    StartTooClose {
        /// The start.
        point: Point,
        /// Its clearance.
        clearance: f64,
        /// The radius asked for.
        radius: f64,
    },
    /// The goal is closer to a wall than the radius.
    #[error("goal ({}, {}) is {clearance} from a wall, closer than the radius {radius}", .point.x, .point.y)]
    GoalTooClose {
        /// The goal.
        point: Point,
        /// Its clearance.
        clearance: f64,
        /// The radius asked for.
        radius: f64,
    },
    /// Start and goal lie in different connected parts of the free space.
    #[error("start and goal are in different components of the free space")]
    DifferentComponents,
    /// They are connected, but not by a corridor as wide as the character.
    #[error("no corridor is wide enough for radius {radius}")]
    NoCorridor {
        /// The radius asked for.
        radius: f64,
    },
}

/// One bending point the path passes, seen in the direction of travel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CorridorStep {
    /// The medial-axis point.
    pub position: Point,
    /// Nearest obstacle point on the walker's left.
    pub left: Point,
    /// Nearest obstacle point on the walker's right.
    pub right: Point,
    /// Clearance at `position`.
    pub clearance: f64,
    /// Whether `left` is an obstacle corner rather than a point inside a straight wall.
    pub left_is_corner: bool,
    /// Whether `right` is an obstacle corner rather than a point inside a straight wall.
    pub right_is_corner: bool,
}

impl CorridorStep {
    /// What the path must keep out of on one side for clearance `r`: around a corner the
    /// disk of radius `r`; along a straight wall the point `r` out from the wall towards
    /// the medial axis, since a disk there would let the path bend around it and dip
    /// below `r` from the wall on either side of that point.
    pub(super) fn keep_out(&self, wall_point: Point, is_corner: bool, r: f64) -> Disk {
        if is_corner || r == 0.0 {
            Disk::new(wall_point, r)
        } else {
            let out = (self.position - wall_point).normalize_or_zero();
            Disk::point(wall_point + out * r)
        }
    }

    /// The portal this step puts across the corridor for clearance `r`.
    pub(crate) fn portal(&self, r: f64) -> Portal {
        Portal {
            left: self.keep_out(self.left, self.left_is_corner, r),
            right: self.keep_out(self.right, self.right_is_corner, r),
        }
    }
}

/// A planned path.
#[derive(Clone, Debug, PartialEq)]
pub struct CorridorPath {
    /// The shortest path with clearance `radius` inside the corridor, as a polyline whose
    /// arcs around corners are replaced by tangent polylines outside the clearance disk.
    pub points: Vec<Point>,
    /// Exact length of that path (straight pieces plus circular arcs).
    pub length: f64,
    /// The indicative route: like `points`, but keeping `preferred_clearance` where the
    /// corridor is wide enough.
    pub indicative_route: Vec<Point>,
    /// The medial-axis route from the start's retraction to the goal's.
    pub medial_route: Vec<Point>,
    /// The corridor: the bending points along the route with their left and right
    /// nearest obstacle points.
    pub corridor: Vec<CorridorStep>,
    /// The edges followed, in order, with the direction (true: start → end vertex).
    pub edges: Vec<(EdgeId, bool)>,
    /// `None` when `points` (and the indicative route) are the funnel's paths through the
    /// corridor; otherwise which safety net the planner used instead (see [`Fallback`]).
    pub fallback: Option<Fallback>,
}

/// A safety net the planner used because the funnel's path through the chosen corridor
/// failed the final clearance check. The result still keeps the radius from every wall,
/// but it may be longer than the shortest path: callers that care can see it.
///
/// ```
/// use corridor_ecm::{Ecm, PathQuery};
/// use corridor_geom::{Environment, Obstacle, Point};
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(20.0, 10.0));
/// env.insert(Obstacle::rectangle(Point::new(9.0, 0.0), Point::new(11.0, 6.0)));
/// let ecm = Ecm::build(&env)?;
/// let query = PathQuery::new(Point::new(2.0, 2.0), Point::new(18.0, 2.0)).with_radius(1.0);
/// let path = ecm.plan(&query)?;
/// // Planned by the funnel: no safety net was needed.
/// assert_eq!(path.fallback, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// `points` is the medial route pulled taut (each piece checked against the walls),
    /// not the funnel's path; the indicative route is the same polyline or its own.
    MedialRoute,
    /// `points` is the funnel's path, but the indicative route's funnel failed the check:
    /// the indicative route is a copy of `points`.
    IndicativeRoute,
}

impl Fallback {
    /// A short name for reports (`medial_route`, `indicative_route`).
    pub fn name(self) -> &'static str {
        match self {
            Fallback::MedialRoute => "medial_route",
            Fallback::IndicativeRoute => "indicative_route",
        }
    }
}

impl CorridorPath {
    /// An empty path, to be filled by [`Planner::plan_into`](crate::Planner::plan_into).
    pub fn empty() -> Self {
        CorridorPath {
            points: Vec::new(),
            length: 0.0,
            indicative_route: Vec::new(),
            medial_route: Vec::new(),
            corridor: Vec::new(),
            edges: Vec::new(),
            fallback: None,
        }
    }
}

impl Default for CorridorPath {
    fn default() -> Self {
        CorridorPath::empty()
    }
}
