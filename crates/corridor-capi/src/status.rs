//! How a call reports failure: a status code, a per-thread message, and panics caught at
//! the boundary.

use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What a call returned: 0 on success, a kind of failure otherwise.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorridorStatus {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullArgument = 1,
    /// An argument is out of range: a string that is not UTF-8, a count of zero, an
    /// unknown scene name, a negative or non-finite radius.
    InvalidArgument = 2,
    /// An environment or obstacle is unusable (self-intersecting, too few vertices,
    /// non-finite, outside the boundary), or no map could be built from it.
    InvalidGeometry = 3,
    /// A query point is not finite, not in the free space, or too close to a wall.
    QueryFailed = 4,
    /// No path joins start and goal (different components, no corridor wide enough).
    NoPath = 5,
    /// No obstacle has this id.
    UnknownObstacle = 6,
    /// A file could not be read or written.
    Io = 7,
    /// A file is not in the expected format.
    Format = 8,
    /// The patch was planned on an older version of the map: plan it again.
    StalePatch = 9,
    /// The map was loaded from a saved ECM without its environment and takes no updates.
    ReadOnly = 10,
    /// A bug inside the library (a caught panic); the map passed in may be unusable.
    Panic = 11,
    /// No character of the crowd simulation has this id.
    UnknownCharacter = 12,
}

/// A failure: its status and message.
#[derive(Debug)]
pub struct Failure {
    pub status: CorridorStatus,
    pub message: String,
}

impl Failure {
    /// A failure of some status with a message.
    pub fn new(status: CorridorStatus, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with_borrow_mut(|e| *e = text);
}

/// Runs a call's body: its status on success or failure, the message saved for
/// [`corridor_last_error`], and a panic caught and reported as
/// [`CorridorStatus::Panic`].
pub fn guard(body: impl FnOnce() -> Result<(), Failure>) -> CorridorStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => CorridorStatus::Ok,
        Ok(Err(f)) => {
            set_last_error(&f.message);
            f.status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            set_last_error(&format!("internal error (panic): {what}"));
            CorridorStatus::Panic
        }
    }
}

/// The message of the last failed call on this thread ("" if none failed yet).
///
/// The string belongs to the library: it stays valid until the next failing call on this
/// thread; copy it to keep it.
#[no_mangle]
pub extern "C" fn corridor_last_error() -> *const c_char {
    LAST_ERROR.with_borrow(|e| e.as_ptr())
}

impl From<corridor::ecm::UpdateError> for Failure {
    fn from(e: corridor::ecm::UpdateError) -> Failure {
        use corridor::ecm::UpdateError as E;
        let status = match e {
            E::UnknownObstacle(_) => CorridorStatus::UnknownObstacle,
            E::StalePatch { .. } => CorridorStatus::StalePatch,
            _ => CorridorStatus::InvalidGeometry,
        };
        Failure::new(status, e.to_string())
    }
}

impl From<corridor::geom::EnvironmentError> for Failure {
    fn from(e: corridor::geom::EnvironmentError) -> Failure {
        Failure::new(CorridorStatus::InvalidGeometry, e.to_string())
    }
}

impl From<corridor::prelude::PlanError> for Failure {
    fn from(e: corridor::prelude::PlanError) -> Failure {
        use corridor::prelude::PlanError as E;
        let status = match e {
            E::InvalidRadius { .. } => CorridorStatus::InvalidArgument,
            E::DifferentComponents | E::NoCorridor { .. } => CorridorStatus::NoPath,
            _ => CorridorStatus::QueryFailed,
        };
        Failure::new(status, e.to_string())
    }
}

impl From<corridor::ecm::QueryError> for Failure {
    fn from(e: corridor::ecm::QueryError) -> Failure {
        Failure::new(CorridorStatus::QueryFailed, e.to_string())
    }
}

impl From<corridor::io::LoadError> for Failure {
    fn from(e: corridor::io::LoadError) -> Failure {
        let status = match e {
            corridor::io::LoadError::Io { .. } => CorridorStatus::Io,
            _ => CorridorStatus::Format,
        };
        Failure::new(status, e.to_string())
    }
}

impl From<corridor::io::JsonError> for Failure {
    fn from(e: corridor::io::JsonError) -> Failure {
        Failure::new(CorridorStatus::Format, e.to_string())
    }
}

impl From<corridor::ecm::StoreError> for Failure {
    fn from(e: corridor::ecm::StoreError) -> Failure {
        let status = match e {
            corridor::ecm::StoreError::Io { .. } => CorridorStatus::Io,
            _ => CorridorStatus::Format,
        };
        Failure::new(status, e.to_string())
    }
}

impl From<corridor::crowd::CrowdError> for Failure {
    fn from(e: corridor::crowd::CrowdError) -> Failure {
        use corridor::crowd::CrowdError as E;
        match e {
            E::Map(e) => e.into(),
            E::StartInWall { .. } => Failure::new(CorridorStatus::QueryFailed, e.to_string()),
            _ => Failure::new(CorridorStatus::InvalidArgument, e.to_string()),
        }
    }
}
