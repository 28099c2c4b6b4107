//! How coordinates cross between NumPy and Corridor: array-likes (lists, tuples, NumPy
//! arrays of any real dtype) in, float64 arrays of shape `(n, 2)` out, with shape and
//! dtype problems reported as `ValueError`/`TypeError` naming the argument.

use corridor::prelude::Point;
use numpy::ndarray::Array2;
use numpy::{
    AllowTypeChange, IntoPyArray, PyArray2, PyArrayDescrMethods, PyArrayLikeDyn, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyInt, PyList, PyTuple};

/// Coordinates given as one point `(2,)` or many `(n, 2)`.
pub enum Coords {
    One(Point),
    Many(Vec<Point>),
}

/// Reads an array-like of real numbers into a float64 array of any shape.
fn real_array<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyArrayLikeDyn<'py, f64, AllowTypeChange>> {
    if obj.is_none() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an array of real numbers, got None"
        )));
    }
    if let Ok(array) = obj.cast::<PyUntypedArray>() {
        let kind = array.dtype().kind();
        if !matches!(kind, b'i' | b'u' | b'f') {
            return Err(PyTypeError::new_err(format!(
                "{what} must hold real numbers, got an array of dtype {}",
                array.dtype()
            )));
        }
    }
    let py = obj.py();
    obj.extract::<PyArrayLikeDyn<'py, f64, AllowTypeChange>>()
        .map_err(|e| {
            let message = format!("{what} must be an array of real numbers: {}", e.value(py));
            if e.is_instance_of::<PyValueError>(py) {
                PyValueError::new_err(message)
            } else {
                PyTypeError::new_err(message)
            }
        })
}

/// One point or many, by the array's shape.
pub fn coords(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Coords> {
    if let Some(p) = plain_pair(obj) {
        return Ok(Coords::One(p));
    }
    let array = real_array(obj, what)?;
    let view = array.as_array();
    match view.shape() {
        [2] => Ok(Coords::One(Point::new(view[[0]], view[[1]]))),
        [_, 2] => Ok(Coords::Many(
            view.outer_iter()
                .map(|row| Point::new(row[0], row[1]))
                .collect(),
        )),
        shape => Err(PyValueError::new_err(format!(
            "{what} must have shape (2,) or (n, 2), got {shape:?}"
        ))),
    }
}

/// A tuple or list of two Python floats or ints (not bools), read without NumPy: the
/// common case of one point, where the array conversion cost ~7 µs a call (measured).
fn plain_pair(obj: &Bound<'_, PyAny>) -> Option<Point> {
    let number = |o: Bound<'_, PyAny>| -> Option<f64> {
        let plain = o.is_exact_instance_of::<PyFloat>() || o.is_exact_instance_of::<PyInt>();
        plain.then(|| o.extract::<f64>().ok()).flatten()
    };
    let items = if let Ok(t) = obj.cast::<PyTuple>() {
        (t.len() == 2).then(|| (t.get_item(0).ok(), t.get_item(1).ok()))?
    } else if let Ok(l) = obj.cast::<PyList>() {
        (l.len() == 2).then(|| (l.get_item(0).ok(), l.get_item(1).ok()))?
    } else {
        return None;
    };
    Some(Point::new(number(items.0?)?, number(items.1?)?))
}

/// Exactly one point, shape `(2,)`.
pub fn point(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Point> {
    if let Some(p) = plain_pair(obj) {
        return Ok(p);
    }
    match coords(obj, what)? {
        Coords::One(p) => Ok(p),
        Coords::Many(_) => Err(PyValueError::new_err(format!(
            "{what} must be one point of shape (2,), got several"
        ))),
    }
}

/// Many points, shape `(n, 2)`.
pub fn points(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Point>> {
    match coords(obj, what)? {
        Coords::Many(v) => Ok(v),
        Coords::One(_) => Err(PyValueError::new_err(format!(
            "{what} must have shape (n, 2), got (2,)"
        ))),
    }
}

/// Points as a new float64 array of shape `(n, 2)`.
pub fn to_array<'py>(py: Python<'py>, points: &[Point]) -> Bound<'py, PyArray2<f64>> {
    let flat: Vec<f64> = points.iter().flat_map(|p| [p.x, p.y]).collect();
    Array2::from_shape_vec((points.len(), 2), flat)
        .expect("two coordinates per point")
        .into_pyarray(py)
}
