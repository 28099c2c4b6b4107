//! The Python `Path`: one planned path with its length, indicative route and corridor,
//! handed out as NumPy arrays.

use crate::arrays;
use corridor::ecm::CorridorPath;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;

/// A path for a disk of some radius: its points (arcs around corners given as short
/// polylines), exact length, the indicative route (keeps the preferred clearance where
/// there is room) and the corridor (the medial axis along the route with the nearest
/// wall points on either side).
///
/// Each array attribute is a new float64 array on every access.
#[pyclass(module = "corridor", frozen)]
pub struct Path {
    pub path: CorridorPath,
}

#[pymethods]
impl Path {
    /// The path's points, shape `(n, 2)`, from start to goal.
    #[getter]
    fn points<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        arrays::to_array(py, &self.path.points)
    }

    /// The exact length of the path.
    #[getter]
    fn length(&self) -> f64 {
        self.path.length
    }

    /// The indicative route, shape `(m, 2)`.
    #[getter]
    fn indicative_route<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        arrays::to_array(py, &self.path.indicative_route)
    }

    /// The corridor, shape `(k, 7)`: per step the medial-axis point `x, y`, the nearest
    /// wall point on the left `lx, ly` and on the right `rx, ry`, and the clearance.
    #[getter]
    fn corridor<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let flat: Vec<f64> = self
            .path
            .corridor
            .iter()
            .flat_map(|s| {
                [
                    s.position.x,
                    s.position.y,
                    s.left.x,
                    s.left.y,
                    s.right.x,
                    s.right.y,
                    s.clearance,
                ]
            })
            .collect();
        Array2::from_shape_vec((self.path.corridor.len(), 7), flat)
            .expect("seven numbers per step")
            .into_pyarray(py)
    }

    /// The number of points.
    fn __len__(&self) -> usize {
        self.path.points.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Path(length={}, points={}, corridor_steps={})",
            self.path.length,
            self.path.points.len(),
            self.path.corridor.len()
        )
    }
}
