//! What a point sees, for Python: the `VisibilityPolygon` class handed out by
//! `Map.visibility_polygon`, with its corners as a NumPy array and its edges' kinds as
//! strings.

use crate::arrays;
use corridor::{EdgeKind, VisibilityPolygon as Polygon};
use numpy::PyArray2;
use pyo3::prelude::*;

/// The region seen from a point (the closure of what it sees; obstacles are closed, so a
/// ray that touches a wall stops there): a simple polygon, counter-clockwise and
/// star-shaped around its origin.
///
/// Edge `i` runs from `points[i]` to `points[(i + 1) % n]` and is a `"wall"` (along an
/// obstacle's boundary) or a `"window"` (a ray past a corner, free space beyond).
#[pyclass(module = "corridor", frozen)]
pub struct VisibilityPolygon {
    pub polygon: Polygon,
}

/// The name Python sees for an edge kind.
fn kind_name(kind: EdgeKind) -> &'static str {
    match kind {
        EdgeKind::Wall => "wall",
        EdgeKind::Window => "window",
        // Only polygons cut by a range or a field of view have these (not asked from
        // Python yet), named as the CLI's JSON names them.
        EdgeKind::Arc => "arc",
        EdgeKind::Cone => "cone",
    }
}

#[pymethods]
impl VisibilityPolygon {
    /// The corners, shape `(n, 2)`, counter-clockwise (a new float64 array each access).
    #[getter]
    fn points<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        arrays::to_array(py, self.polygon.vertices())
    }

    /// What each edge runs along, `"wall"` or `"window"`; entry `i` is the edge from
    /// corner `i` to corner `i + 1`.
    #[getter]
    fn edge_kinds(&self) -> Vec<&'static str> {
        self.polygon.kinds().iter().map(|&k| kind_name(k)).collect()
    }

    /// The area seen.
    #[getter]
    fn area(&self) -> f64 {
        self.polygon.area()
    }

    /// The viewpoint `(x, y)`.
    #[getter]
    fn origin(&self) -> (f64, f64) {
        let o = self.polygon.origin();
        (o.x, o.y)
    }

    /// The number of corners.
    fn __len__(&self) -> usize {
        self.polygon.len()
    }

    fn __repr__(&self) -> String {
        let o = self.polygon.origin();
        format!(
            "VisibilityPolygon(origin=({}, {}), corners={}, area={})",
            o.x,
            o.y,
            self.polygon.len(),
            self.polygon.area()
        )
    }
}
