//! The Python `Environment`: a boundary and obstacles, built from a file, a built-in scene
//! or coordinates, checked as each obstacle is added.

use crate::arrays;
use crate::errors::{Result, UnknownObstacleError};
use corridor::prelude::*;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::PathBuf;

/// A 2D world: a boundary ring and obstacles (polygons, possibly with holes, polylines
/// and points), each with an integer id.
///
/// Build one with `Environment.rectangle`, `Environment.from_polygons`,
/// `Environment.scene`, `Environment.load` or `Environment.from_json`, then add
/// obstacles; every obstacle is checked when it is added (`GeometryError` names the
/// problem). Pass it to `Map` to build the Explicit Corridor Map. Coordinates are
/// snapped to a grid of 1e-4 units when the map is built.
#[pyclass(module = "corridor")]
#[derive(Clone)]
pub struct Environment {
    pub env: corridor::prelude::Environment,
}

/// A polygon obstacle from an exterior ring and optional holes.
pub fn polygon(
    vertices: &Bound<'_, PyAny>,
    holes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Obstacle> {
    let exterior = Ring::new(arrays::points(vertices, "vertices")?);
    let mut rings = Vec::new();
    if let Some(holes) = holes {
        for hole in holes.try_iter()? {
            rings.push(Ring::new(arrays::points(&hole?, "holes")?));
        }
    }
    Ok(Obstacle::Polygon(Polygon::new(exterior, rings)))
}

impl Environment {
    /// Checks an obstacle and inserts it.
    fn add(&mut self, obstacle: Obstacle) -> Result<u32> {
        self.env.validate_obstacle_geometry(&obstacle)?;
        Ok(self.env.insert(obstacle).0)
    }
}

#[pymethods]
impl Environment {
    /// An axis-aligned rectangular boundary from `min` to `max`, without obstacles.
    #[staticmethod]
    fn rectangle(min: &Bound<'_, PyAny>, max: &Bound<'_, PyAny>) -> Result<Self> {
        let (min, max) = (arrays::point(min, "min")?, arrays::point(max, "max")?);
        if !(min.is_finite() && max.is_finite() && min.x < max.x && min.y < max.y) {
            return Err(PyValueError::new_err(format!(
                "rectangle needs finite min < max, got min ({}, {}) and max ({}, {})",
                min.x, min.y, max.x, max.y
            ))
            .into());
        }
        Ok(Environment {
            env: corridor::prelude::Environment::rectangle(min, max),
        })
    }

    /// A boundary ring (shape `(n, 2)`) and a list of polygon obstacles (each `(k, 2)`).
    /// Obstacle ids are 0, 1, ... in list order.
    #[staticmethod]
    #[pyo3(signature = (boundary, polygons=None))]
    fn from_polygons(
        boundary: &Bound<'_, PyAny>,
        polygons: Option<&Bound<'_, PyAny>>,
    ) -> Result<Self> {
        let ring = Ring::new(arrays::points(boundary, "boundary")?);
        let mut env = Environment {
            env: corridor::prelude::Environment::new(ring),
        };
        env.env.validate()?;
        if let Some(polygons) = polygons {
            for p in polygons.try_iter()? {
                env.add(polygon(&p?, None)?)?;
            }
        }
        Ok(env)
    }

    /// A built-in scene: `"empty"`, `"military"`, `"dungeon"` or `"city"`.
    #[staticmethod]
    fn scene(name: &str) -> PyResult<Self> {
        let scene = Scene::from_name(name).ok_or_else(|| {
            let names: Vec<_> = Scene::ALL.iter().map(|s| s.name()).collect();
            PyValueError::new_err(format!(
                "unknown scene {name:?}; the scenes are {}",
                names.join(", ")
            ))
        })?;
        Ok(Environment { env: scene.build() })
    }

    /// Reads a file: native JSON, GeoJSON, Moving AI `.map`, Polyanya `.mesh` or an
    /// any-angle `maze.txt` (by its name). Raises `FileNotFoundError`/`OSError` or
    /// `FormatError` (with line and column).
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> Result<Self> {
        let env = py.detach(|| load_environment(&path))?;
        Ok(Environment { env })
    }

    /// Parses the native JSON format.
    #[staticmethod]
    fn from_json(text: &str) -> Result<Self> {
        Ok(Environment {
            env: read_json(text)?,
        })
    }

    /// The native JSON text (exact: it reads back bit-identical).
    fn to_json(&self) -> Result<String> {
        Ok(write_json(&self.env)?)
    }

    /// Writes the native JSON format to a file.
    pub fn save(&self, path: PathBuf) -> Result<()> {
        let text = write_json(&self.env)?;
        std::fs::write(&path, text).map_err(|e| {
            PyErr::from(std::io::Error::new(
                e.kind(),
                format!("{}: {e}", path.display()),
            ))
        })?;
        Ok(())
    }

    /// Adds a polygon obstacle (exterior ring `(k, 2)`, optional list of hole rings) and
    /// returns its id.
    #[pyo3(signature = (vertices, holes=None))]
    fn add_polygon(
        &mut self,
        vertices: &Bound<'_, PyAny>,
        holes: Option<&Bound<'_, PyAny>>,
    ) -> Result<u32> {
        self.add(polygon(vertices, holes)?)
    }

    /// Adds an open polyline obstacle (a thin wall, `(k, 2)`) and returns its id.
    fn add_polyline(&mut self, points: &Bound<'_, PyAny>) -> Result<u32> {
        self.add(Obstacle::Polyline(arrays::points(points, "points")?))
    }

    /// Adds a point obstacle (a pillar of zero width) and returns its id.
    fn add_point(&mut self, point: &Bound<'_, PyAny>) -> Result<u32> {
        self.add(Obstacle::Point(arrays::point(point, "point")?))
    }

    /// Removes an obstacle; raises `UnknownObstacleError` if no obstacle has this id.
    fn remove(&mut self, id: u32) -> Result<()> {
        match self.env.remove(ObstacleId(id)) {
            Some(_) => Ok(()),
            None => Err(UnknownObstacleError::new_err(format!("no obstacle with id {id}")).into()),
        }
    }

    /// Checks the whole environment; raises `GeometryError` naming the first problem.
    fn validate(&self) -> Result<()> {
        Ok(self.env.validate()?)
    }

    /// The obstacles' ids, ascending.
    fn obstacle_ids(&self) -> Vec<u32> {
        self.env.obstacles().map(|(id, _)| id.0).collect()
    }

    /// The vertices of an obstacle as a `(k, 2)` array (a polygon's exterior ring, a
    /// polyline's points or the one point).
    fn obstacle<'py>(&self, py: Python<'py>, id: u32) -> Result<Bound<'py, numpy::PyArray2<f64>>> {
        let obstacle = self
            .env
            .obstacle(ObstacleId(id))
            .ok_or_else(|| UnknownObstacleError::new_err(format!("no obstacle with id {id}")))?;
        let points: Vec<Point> = match obstacle {
            Obstacle::Polygon(p) => p
                .rings()
                .next()
                .map(|r| r.vertices().to_vec())
                .unwrap_or_default(),
            other => other.points().collect(),
        };
        Ok(arrays::to_array(py, &points))
    }

    /// The boundary ring as a `(n, 2)` array.
    #[getter]
    fn boundary<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray2<f64>> {
        arrays::to_array(py, self.env.boundary().vertices())
    }

    /// The bounding box `((min_x, min_y), (max_x, max_y))`.
    #[getter]
    fn bounds(&self) -> ((f64, f64), (f64, f64)) {
        let b = self.env.bounds();
        ((b.min.x, b.min.y), (b.max.x, b.max.y))
    }

    /// The number of obstacles.
    fn __len__(&self) -> usize {
        self.env.obstacles().count()
    }

    fn __repr__(&self) -> String {
        let b = self.env.bounds();
        format!(
            "Environment(bounds=(({}, {}), ({}, {})), obstacles={}, vertices={})",
            b.min.x,
            b.min.y,
            b.max.x,
            b.max.y,
            self.env.obstacles().count(),
            self.env.vertex_count()
        )
    }
}
