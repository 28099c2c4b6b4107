//! The Python `Map`: an environment with its Explicit Corridor Map, answering path,
//! clearance, nearest-obstacle and visibility queries and taking dynamic updates.
//!
//! Thread safety: the map sits behind a read-write lock. Queries take the read lock with
//! the GIL released, so Python threads query in parallel; an update plans its repair under
//! the read lock (queries go on meanwhile) and takes the write lock only to apply it.

use crate::arrays::{self, Coords};
use crate::environment::{self, Environment};
use crate::errors::{Error, QueryError, ReadOnlyMapError, Result};
use crate::path::Path;
use crate::visibility::VisibilityPolygon;
use corridor::ecm::{CorridorPath, StoreError, UpdateError};
use corridor::prelude::*;
use numpy::ndarray::Array1;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyFloat;
use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

/// A map that takes updates, or one loaded from a saved ECM without its environment
/// (format `CRDECM07`, written by `save_ecm(path, environment=False)` or by older
/// versions).
enum Inner {
    Dynamic(Box<DynamicEcm>),
    Static(Box<Ecm>),
}

impl Inner {
    fn ecm(&self) -> &Ecm {
        match self {
            Inner::Dynamic(m) => m.ecm(),
            Inner::Static(e) => e,
        }
    }

    fn dynamic(&self) -> Result<&DynamicEcm> {
        match self {
            Inner::Dynamic(m) => Ok(m),
            Inner::Static(_) => Err(read_only()),
        }
    }
}

fn read_only() -> Error {
    Error(ReadOnlyMapError::new_err(
        "this map was loaded from a saved ECM that holds no environment (format CRDECM07, \
         written by save_ecm(path, environment=False) or by an older version); build it \
         from an Environment, or save it with its environment, to update it",
    ))
}

thread_local! {
    /// One planner per thread: its buffers are reused from query to query.
    static PLANNER: RefCell<Planner> = RefCell::new(Planner::new());
}

fn query(start: Point, goal: Point, radius: f64, preferred_clearance: f64) -> PathQuery {
    PathQuery::new(start, goal)
        .with_preferred_clearance(preferred_clearance)
        .with_radius(radius)
}

/// An environment with its Explicit Corridor Map (ECM): paths for disk-shaped characters
/// of any radius, clearance and nearest obstacle at points, and dynamic updates that
/// repair the map locally.
///
/// `Map(env)` builds the ECM of an `Environment` (the GIL is released meanwhile).
/// Queries from many Python threads run in parallel; updates are planned while queries
/// go on and applied in one step.
#[pyclass(module = "corridor", frozen)]
pub struct Map {
    inner: RwLock<Inner>,
}

impl Map {
    fn read(&self) -> RwLockReadGuard<'_, Inner> {
        self.inner.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> RwLockWriteGuard<'_, Inner> {
        self.inner.write().unwrap_or_else(|e| e.into_inner())
    }

    fn build(py: Python<'_>, env: corridor::prelude::Environment) -> Result<Map> {
        let map = py.detach(|| DynamicEcm::new(env))?;
        Ok(Map {
            inner: RwLock::new(Inner::Dynamic(Box::new(map))),
        })
    }

    /// Plans a change under the read lock and applies it under the write lock, planning
    /// again if another thread applied an update in between.
    fn update(&self, py: Python<'_>, change: Change) -> Result<Vec<ObstacleId>> {
        py.detach(|| loop {
            let patch = self.read().dynamic()?.plan_update(&change)?;
            let mut inner = self.write();
            let Inner::Dynamic(map) = &mut *inner else {
                return Err(read_only());
            };
            match map.apply(patch) {
                Err(UpdateError::StalePatch { .. }) => continue,
                other => return Ok(other?),
            }
        })
    }

    /// A copy of the updatable map (for a crowd simulation, which owns its map), made with
    /// the GIL released.
    pub(crate) fn dynamic_copy(&self, py: Python<'_>) -> Result<DynamicEcm> {
        py.detach(|| Ok(self.read().dynamic()?.clone()))
    }

    /// Runs `f` on every point (in parallel when there are many) and collects the answers.
    fn each_point<T: Send>(
        &self,
        py: Python<'_>,
        points: &[Point],
        f: impl Fn(&Ecm, Point) -> T + Sync,
    ) -> Vec<T> {
        py.detach(|| {
            let inner = self.read();
            points.iter().map(|&p| f(inner.ecm(), p)).collect()
        })
    }
}

/// Checks that every coordinate is finite, naming the first bad row.
fn finite(points: &[Point], what: &str) -> Result<()> {
    match points.iter().position(|p| !p.is_finite()) {
        None => Ok(()),
        Some(i) => Err(Error(QueryError::new_err(format!(
            "{what}[{i}] = ({}, {}) is not finite",
            points[i].x, points[i].y
        )))),
    }
}

#[pymethods]
impl Map {
    /// Builds the ECM of an environment. Raises `GeometryError` if the environment is
    /// unusable.
    #[new]
    fn new(py: Python<'_>, environment: &Environment) -> Result<Self> {
        Map::build(py, environment.env.clone())
    }

    /// Reads an environment file (any format `Environment.load` reads) and builds its ECM.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> Result<Self> {
        let env = py.detach(|| load_environment(&path))?;
        Map::build(py, env)
    }

    /// Loads a map saved with `save_ecm`, ready at once (no ECM is built). A file saved
    /// with its environment (the default) gives a map that takes updates; one saved
    /// without it (`environment=False`, or by an older version) a read-only map that
    /// answers queries and raises `ReadOnlyMapError` on updates. A damaged or
    /// inconsistent file raises `FormatError`.
    #[staticmethod]
    fn load_ecm(py: Python<'_>, path: PathBuf) -> Result<Self> {
        let inner = py.detach(|| match DynamicEcm::load(&path) {
            Ok(map) => Ok(Inner::Dynamic(Box::new(map))),
            Err(StoreError::NoEnvironment { .. }) => Ok(Inner::Static(Box::new(Ecm::load(&path)?))),
            Err(e) => Err(e),
        })?;
        Ok(Map {
            inner: RwLock::new(inner),
        })
    }

    /// Writes the environment (native JSON, exact); `Map.load` reads it back.
    fn save(&self, path: PathBuf) -> Result<()> {
        let env = Environment {
            env: self.read().dynamic()?.environment().clone(),
        };
        env.save(path)
    }

    /// Writes the map in its compact binary form (the ECM and, by default, the
    /// environment, 2–5 % more bytes); `Map.load_ecm` reads it back, ready at once.
    /// With `environment=False` only the ECM is written and the loaded map is
    /// read-only. A read-only map always writes the ECM alone.
    #[pyo3(signature = (path, environment=true))]
    fn save_ecm(&self, py: Python<'_>, path: PathBuf, environment: bool) -> Result<()> {
        Ok(py.detach(|| match &*self.read() {
            Inner::Dynamic(map) if environment => map.save(&path),
            inner => inner.ecm().save(&path),
        })?)
    }

    /// A path from `start` to `goal` for a disk of `radius`, keeping
    /// `preferred_clearance` (at least the radius) on the indicative route where there
    /// is room.
    ///
    /// Raises `QueryError` (a `ValueError`) when an end is not finite, not in the free
    /// space or closer to a wall than the radius, and `NoPathError` (a `LookupError`)
    /// when no corridor joins them.
    #[pyo3(signature = (start, goal, radius=0.0, preferred_clearance=0.0))]
    fn path(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        goal: &Bound<'_, PyAny>,
        radius: f64,
        preferred_clearance: f64,
    ) -> Result<Path> {
        let q = query(
            arrays::point(start, "start")?,
            arrays::point(goal, "goal")?,
            radius,
            preferred_clearance,
        );
        let path = py.detach(|| {
            let inner = self.read();
            PLANNER.with_borrow_mut(|planner| planner.plan(inner.ecm(), &q))
        })?;
        Ok(Path { path })
    }

    /// Many paths at once, on all cores with the GIL released: `starts` and `goals` of
    /// shape `(n, 2)`. Returns a list of `n` entries, a `Path` or `None` where that query
    /// has no path (an end outside the free space or too close to a wall, or no corridor).
    /// Raises `QueryError` for non-finite coordinates or an invalid radius.
    #[pyo3(signature = (starts, goals, radius=0.0, preferred_clearance=0.0))]
    fn paths(
        &self,
        py: Python<'_>,
        starts: &Bound<'_, PyAny>,
        goals: &Bound<'_, PyAny>,
        radius: f64,
        preferred_clearance: f64,
    ) -> Result<Vec<Option<Path>>> {
        let starts = arrays::points(starts, "starts")?;
        let goals = arrays::points(goals, "goals")?;
        if starts.len() != goals.len() {
            return Err(Error(pyo3::exceptions::PyValueError::new_err(format!(
                "starts and goals must have the same length, got {} and {}",
                starts.len(),
                goals.len()
            ))));
        }
        finite(&starts, "starts")?;
        finite(&goals, "goals")?;
        let queries: Vec<PathQuery> = starts
            .iter()
            .zip(&goals)
            .map(|(&s, &g)| query(s, g, radius, preferred_clearance))
            .collect();
        if let Some(q) = queries.first() {
            if let Err(e @ PlanError::InvalidRadius { .. }) =
                self.read()
                    .ecm()
                    .plan(&query(q.start, q.start, radius, preferred_clearance))
            {
                return Err(e.into());
            }
        }
        let results = py.detach(|| {
            let inner = self.read();
            plan_parallel(inner.ecm(), &queries)
        });
        Ok(results
            .into_iter()
            .map(|r| r.ok().map(|path| Path { path }))
            .collect())
    }

    /// The distance to the nearest obstacle: a float for one point `(2,)`, a `(n,)`
    /// array for points `(n, 2)`, with NaN where a point is not in the free space.
    /// Raises `QueryError` for a non-finite coordinate.
    fn clearance(&self, py: Python<'_>, points: &Bound<'_, PyAny>) -> Result<Py<PyAny>> {
        match arrays::coords(points, "points")? {
            Coords::One(p) => {
                finite(&[p], "points")?;
                let c = py.detach(|| self.read().ecm().clearance(p));
                Ok(PyFloat::new(py, c.unwrap_or(f64::NAN)).into_any().unbind())
            }
            Coords::Many(ps) => {
                finite(&ps, "points")?;
                let c = self.each_point(py, &ps, |ecm, p| ecm.clearance(p).unwrap_or(f64::NAN));
                Ok(Array1::from(c).into_pyarray(py).into_any().unbind())
            }
        }
    }

    /// The nearest obstacle point: shape `(2,)` for one point, `(n, 2)` for points
    /// `(n, 2)`, NaN rows where a point is not in the free space. Raises `QueryError`
    /// for a non-finite coordinate.
    fn nearest_obstacle(&self, py: Python<'_>, points: &Bound<'_, PyAny>) -> Result<Py<PyAny>> {
        let (ps, one) = match arrays::coords(points, "points")? {
            Coords::One(p) => (vec![p], true),
            Coords::Many(ps) => (ps, false),
        };
        finite(&ps, "points")?;
        let nearest = self.each_point(py, &ps, |ecm, p| {
            ecm.nearest_obstacle_point(p).unwrap_or(Point::NAN)
        });
        Ok(if one {
            Array1::from(vec![nearest[0].x, nearest[0].y])
                .into_pyarray(py)
                .into_any()
                .unbind()
        } else {
            arrays::to_array(py, &nearest).into_any().unbind()
        })
    }

    /// The region seen from the free point `point` (shape `(2,)`): a
    /// `VisibilityPolygon` with its corners, edge kinds (`"wall"`/`"window"`) and area.
    /// Found by walking the ECM's cells from the point's cell, with the GIL released.
    ///
    /// Raises `QueryError` (a `ValueError`) when the point is not finite, not in the free
    /// space, or on a wall.
    fn visibility_polygon(
        &self,
        py: Python<'_>,
        point: &Bound<'_, PyAny>,
    ) -> Result<VisibilityPolygon> {
        let p = arrays::point(point, "point")?;
        let polygon = py.detach(|| self.read().ecm().visibility_polygon(p))?;
        Ok(VisibilityPolygon { polygon })
    }

    /// Whether the free point `p` sees `q` (the closed segment touches no wall), or,
    /// with `radius > 0`, whether a disk of that radius can move straight from `p` to `q`
    /// (no wall closer than `radius` to the segment). A `q` outside the free space is not
    /// seen (`False`).
    ///
    /// Raises `QueryError` when `p` is not free, a coordinate is not finite, or the radius
    /// is negative or not finite.
    #[pyo3(signature = (p, q, radius=0.0))]
    fn line_of_sight(
        &self,
        py: Python<'_>,
        p: &Bound<'_, PyAny>,
        q: &Bound<'_, PyAny>,
        radius: f64,
    ) -> Result<bool> {
        let (p, q) = (arrays::point(p, "p")?, arrays::point(q, "q")?);
        Ok(py.detach(|| self.read().ecm().line_of_sight_with_radius(p, q, radius))?)
    }

    /// For each row of `candidates` (shape `(n, 2)`), whether the free point `point` sees
    /// it: a bool array of shape `(n,)`, the same answers as `line_of_sight` one by one
    /// (candidates outside the free space are not seen), with the point located once and
    /// the GIL released.
    ///
    /// Raises `QueryError` when `point` is not free or a coordinate is not finite.
    fn visible(
        &self,
        py: Python<'_>,
        point: &Bound<'_, PyAny>,
        candidates: &Bound<'_, PyAny>,
    ) -> Result<Py<PyAny>> {
        let p = arrays::point(point, "point")?;
        let candidates = arrays::points(candidates, "candidates")?;
        finite(&candidates, "candidates")?;
        let seen = py.detach(|| self.read().ecm().visible_points(p, &candidates))?;
        Ok(Array1::from(seen).into_pyarray(py).into_any().unbind())
    }

    /// Inserts a polygon obstacle (exterior `(k, 2)`, optional holes) and returns its id.
    #[pyo3(signature = (vertices, holes=None))]
    fn insert(
        &self,
        py: Python<'_>,
        vertices: &Bound<'_, PyAny>,
        holes: Option<&Bound<'_, PyAny>>,
    ) -> Result<u32> {
        let obstacle = environment::polygon(vertices, holes)?;
        Ok(self.update(py, Change::Insert(obstacle))?[0].0)
    }

    /// Inserts a point obstacle and returns its id.
    fn insert_point(&self, py: Python<'_>, point: &Bound<'_, PyAny>) -> Result<u32> {
        let obstacle = Obstacle::Point(arrays::point(point, "point")?);
        Ok(self.update(py, Change::Insert(obstacle))?[0].0)
    }

    /// Inserts a polyline obstacle (a thin wall) and returns its id.
    fn insert_polyline(&self, py: Python<'_>, points: &Bound<'_, PyAny>) -> Result<u32> {
        let obstacle = Obstacle::Polyline(arrays::points(points, "points")?);
        Ok(self.update(py, Change::Insert(obstacle))?[0].0)
    }

    /// Gives obstacle `id` a new polygon (it keeps its id). Raises
    /// `UnknownObstacleError` (a `KeyError`) for an unknown id.
    #[pyo3(name = "move", signature = (id, vertices, holes=None))]
    fn move_to(
        &self,
        py: Python<'_>,
        id: u32,
        vertices: &Bound<'_, PyAny>,
        holes: Option<&Bound<'_, PyAny>>,
    ) -> Result<()> {
        let obstacle = environment::polygon(vertices, holes)?;
        self.update(
            py,
            Change::Move {
                id: ObstacleId(id),
                obstacle,
            },
        )?;
        Ok(())
    }

    /// Moves obstacle `id` by `offset` (shape `(2,)`).
    fn translate(&self, py: Python<'_>, id: u32, offset: &Bound<'_, PyAny>) -> Result<()> {
        let offset = arrays::point(offset, "offset")?;
        let obstacle = self
            .read()
            .dynamic()?
            .environment()
            .obstacle(ObstacleId(id))
            .ok_or(UpdateError::UnknownObstacle(ObstacleId(id)))?
            .translated(offset);
        self.update(
            py,
            Change::Move {
                id: ObstacleId(id),
                obstacle,
            },
        )?;
        Ok(())
    }

    /// Removes obstacle `id`. Raises `UnknownObstacleError` for an unknown id.
    fn remove(&self, py: Python<'_>, id: u32) -> Result<()> {
        self.update(py, Change::Remove(ObstacleId(id)))?;
        Ok(())
    }

    /// A copy of the current environment.
    #[getter]
    fn environment(&self) -> Result<Environment> {
        Ok(Environment {
            env: self.read().dynamic()?.environment().clone(),
        })
    }

    /// The obstacles' ids, ascending.
    fn obstacle_ids(&self) -> Result<Vec<u32>> {
        Ok(self
            .read()
            .dynamic()?
            .environment()
            .obstacles()
            .map(|(id, _)| id.0)
            .collect())
    }

    /// Whether the map was loaded from a saved ECM and takes no updates.
    #[getter]
    fn read_only(&self) -> bool {
        matches!(*self.read(), Inner::Static(_))
    }

    /// How many updates were applied since the map was built.
    #[getter]
    fn version(&self) -> u64 {
        match &*self.read() {
            Inner::Dynamic(m) => m.version(),
            Inner::Static(_) => 0,
        }
    }

    /// The area of the free space.
    #[getter]
    fn free_area(&self) -> f64 {
        self.read().ecm().free_area()
    }

    /// The number of connected components of the free space.
    #[getter]
    fn component_count(&self) -> usize {
        self.read().ecm().component_count()
    }

    /// The number of medial-axis vertices and edges, `(vertices, edges)`.
    #[getter]
    fn size(&self) -> (usize, usize) {
        let inner = self.read();
        (inner.ecm().vertex_count(), inner.ecm().edge_count())
    }

    fn __repr__(&self) -> String {
        let inner = self.read();
        let ecm = inner.ecm();
        format!(
            "Map(vertices={}, edges={}, components={}, free_area={}, read_only={})",
            ecm.vertex_count(),
            ecm.edge_count(),
            ecm.component_count(),
            ecm.free_area(),
            matches!(*inner, Inner::Static(_))
        )
    }
}

/// Plans the queries on all cores, one planner per thread, answers in query order.
fn plan_parallel(
    ecm: &Ecm,
    queries: &[PathQuery],
) -> Vec<std::result::Result<CorridorPath, PlanError>> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(queries.len().div_ceil(8))
        .max(1);
    let chunk = queries.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = queries
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut planner = Planner::new();
                    part.iter()
                        .map(|q| planner.plan(ecm, q))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}
