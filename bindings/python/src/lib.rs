//! Python bindings of Corridor: `corridor.Environment`, `corridor.Map`, `corridor.Path`
//! `corridor.VisibilityPolygon` and the crowd's `corridor.Simulation`, with NumPy arrays for coordinates and one exception
//! class per kind of error. The Python package (`python/corridor`) re-exports this module.

mod arrays;
mod crowd;
mod environment;
mod errors;
mod map;
mod path;
mod visibility;

use pyo3::prelude::*;

/// The native module `corridor._corridor`; import `corridor` instead.
#[pymodule]
fn _corridor(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<environment::Environment>()?;
    m.add_class::<map::Map>()?;
    m.add_class::<path::Path>()?;
    m.add_class::<visibility::VisibilityPolygon>()?;
    m.add_class::<crowd::Simulation>()?;
    errors::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
