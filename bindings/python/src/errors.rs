//! Which Python exception a Corridor error becomes: each library error maps to one
//! exception class (a subclass of a built-in one, so `except ValueError` works) carrying
//! the library's own message.

use corridor::ecm::{BuildError, StoreError, UpdateError};
use corridor::geom::EnvironmentError;
use corridor::io::{JsonError, LoadError};
use corridor::prelude::PlanError;
use corridor::VisibilityError;
use pyo3::create_exception;
use pyo3::exceptions::{
    PyFileNotFoundError, PyKeyError, PyLookupError, PyOSError, PyPermissionError, PyRuntimeError,
    PyValueError,
};
use pyo3::prelude::*;

create_exception!(
    corridor,
    GeometryError,
    PyValueError,
    "An environment or obstacle is unusable (self-intersecting ring, too few vertices, \
     non-finite coordinate, outside the boundary), or no ECM could be built from it."
);
create_exception!(
    corridor,
    QueryError,
    PyValueError,
    "A query point is not finite, not in the free space, or closer to a wall than the \
     radius; or the radius is negative or not finite."
);
create_exception!(
    corridor,
    NoPathError,
    PyLookupError,
    "Start and goal are both valid but no path joins them (different components of the \
     free space, or no corridor wide enough for the radius)."
);
create_exception!(
    corridor,
    UnknownObstacleError,
    PyKeyError,
    "No obstacle has this id (never inserted, or already removed)."
);
create_exception!(
    corridor,
    FormatError,
    PyValueError,
    "A file or text is not in the format expected (its message names the line and column)."
);
create_exception!(
    corridor,
    ReadOnlyMapError,
    PyRuntimeError,
    "The map was loaded from a saved ECM without its environment, so it cannot be updated."
);

create_exception!(
    corridor,
    CrowdError,
    PyValueError,
    "A character or a simulation option is refused: a radius not positive, speeds negative \
     or preferred above max, a point not finite, a start closer to a wall than the radius, \
     an option out of range."
);
create_exception!(
    corridor,
    UnknownCharacterError,
    PyKeyError,
    "No character of the simulation has this id (never added, or already removed)."
);

/// Registers the exception classes in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("GeometryError", py.get_type::<GeometryError>())?;
    m.add("QueryError", py.get_type::<QueryError>())?;
    m.add("NoPathError", py.get_type::<NoPathError>())?;
    m.add(
        "UnknownObstacleError",
        py.get_type::<UnknownObstacleError>(),
    )?;
    m.add("FormatError", py.get_type::<FormatError>())?;
    m.add("ReadOnlyMapError", py.get_type::<ReadOnlyMapError>())?;
    m.add("CrowdError", py.get_type::<CrowdError>())?;
    m.add(
        "UnknownCharacterError",
        py.get_type::<UnknownCharacterError>(),
    )?;
    Ok(())
}

/// An I/O error as the matching `OSError` subclass, with the library's message (which
/// names the file).
fn os_error(kind: std::io::ErrorKind, message: String) -> PyErr {
    match kind {
        std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// Library errors converted at the boundary (a newtype, since neither `PyErr` nor the
/// error types are defined here).
pub struct Error(pub PyErr);

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        e.0
    }
}

impl From<PyErr> for Error {
    fn from(e: PyErr) -> Error {
        Error(e)
    }
}

impl From<EnvironmentError> for Error {
    fn from(e: EnvironmentError) -> Error {
        Error(match e {
            EnvironmentError::UnknownObstacle(_) => UnknownObstacleError::new_err(e.to_string()),
            _ => GeometryError::new_err(e.to_string()),
        })
    }
}

impl From<BuildError> for Error {
    fn from(e: BuildError) -> Error {
        Error(GeometryError::new_err(e.to_string()))
    }
}

impl From<PlanError> for Error {
    fn from(e: PlanError) -> Error {
        Error(match e {
            PlanError::DifferentComponents | PlanError::NoCorridor { .. } => {
                NoPathError::new_err(e.to_string())
            }
            _ => QueryError::new_err(e.to_string()),
        })
    }
}

impl From<corridor::ecm::QueryError> for Error {
    fn from(e: corridor::ecm::QueryError) -> Error {
        Error(QueryError::new_err(e.to_string()))
    }
}

impl From<VisibilityError> for Error {
    fn from(e: VisibilityError) -> Error {
        Error(QueryError::new_err(e.to_string()))
    }
}

impl From<UpdateError> for Error {
    fn from(e: UpdateError) -> Error {
        Error(match e {
            UpdateError::UnknownObstacle(_) => UnknownObstacleError::new_err(e.to_string()),
            UpdateError::StalePatch { .. } => PyRuntimeError::new_err(e.to_string()),
            _ => GeometryError::new_err(e.to_string()),
        })
    }
}

impl From<LoadError> for Error {
    fn from(e: LoadError) -> Error {
        Error(match &e {
            LoadError::Io { source, .. } => os_error(source.kind(), e.to_string()),
            _ => FormatError::new_err(e.to_string()),
        })
    }
}

impl From<JsonError> for Error {
    fn from(e: JsonError) -> Error {
        Error(FormatError::new_err(e.to_string()))
    }
}

impl From<StoreError> for Error {
    fn from(e: StoreError) -> Error {
        Error(match &e {
            StoreError::Io { source, .. } => os_error(source.kind(), e.to_string()),
            _ => FormatError::new_err(e.to_string()),
        })
    }
}

impl From<corridor::crowd::CrowdError> for Error {
    fn from(e: corridor::crowd::CrowdError) -> Error {
        use corridor::crowd::CrowdError as E;
        match e {
            E::Map(e) => e.into(),
            E::Threads(_) => Error(PyRuntimeError::new_err(e.to_string())),
            _ => Error(CrowdError::new_err(e.to_string())),
        }
    }
}

/// The result type of the binding's functions.
pub type Result<T> = std::result::Result<T, Error>;
