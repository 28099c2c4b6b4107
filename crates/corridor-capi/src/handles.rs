//! What the opaque handles hold, and how raw pointers from C become Rust references
//! (NULL checked, reported as a status).

use crate::status::{CorridorStatus, Failure};
use corridor::prelude::*;
use std::ffi::{c_char, CStr};

/// A map: an environment with its Explicit Corridor Map (updatable), or an ECM loaded
/// from a file (read-only). Opaque; free with `corridor_map_free`.
pub struct CorridorMap {
    pub(crate) inner: Inner,
}

pub(crate) enum Inner {
    Dynamic(Box<DynamicEcm>),
    Static(Box<Ecm>),
}

impl CorridorMap {
    pub(crate) fn ecm(&self) -> &Ecm {
        match &self.inner {
            Inner::Dynamic(m) => m.ecm(),
            Inner::Static(e) => e,
        }
    }

    pub(crate) fn dynamic(&self) -> Result<&DynamicEcm, Failure> {
        match &self.inner {
            Inner::Dynamic(m) => Ok(m),
            Inner::Static(_) => Err(read_only()),
        }
    }

    pub(crate) fn dynamic_mut(&mut self) -> Result<&mut DynamicEcm, Failure> {
        match &mut self.inner {
            Inner::Dynamic(m) => Ok(m),
            Inner::Static(_) => Err(read_only()),
        }
    }
}

fn read_only() -> Failure {
    Failure::new(
        CorridorStatus::ReadOnly,
        "this map was loaded from a saved ECM that holds no environment (written by \
         corridor_map_save_ecm_only or an older version) and takes no updates",
    )
}

/// One step of a path's corridor: a medial-axis point, the nearest wall point on its left
/// and on its right, and the clearance there.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CorridorStep {
    pub x: f64,
    pub y: f64,
    pub left_x: f64,
    pub left_y: f64,
    pub right_x: f64,
    pub right_y: f64,
    pub clearance: f64,
}

/// A planned path with its points, indicative route and corridor, laid out for C.
/// Opaque; free with `corridor_path_free`.
pub struct CorridorPath {
    pub(crate) length: f64,
    pub(crate) points: Vec<f64>,
    pub(crate) route: Vec<f64>,
    pub(crate) corridor: Vec<CorridorStep>,
}

impl CorridorPath {
    pub(crate) fn new(path: &corridor::ecm::CorridorPath) -> CorridorPath {
        let flat = |ps: &[Point]| ps.iter().flat_map(|p| [p.x, p.y]).collect();
        CorridorPath {
            length: path.length,
            points: flat(&path.points),
            route: flat(&path.indicative_route),
            corridor: path
                .corridor
                .iter()
                .map(|s| CorridorStep {
                    x: s.position.x,
                    y: s.position.y,
                    left_x: s.left.x,
                    left_y: s.left.y,
                    right_x: s.right.x,
                    right_y: s.right.y,
                    clearance: s.clearance,
                })
                .collect(),
        }
    }
}

/// An update planned on one version of a map, to be applied to it. Opaque; consumed by
/// `corridor_map_apply` or freed with `corridor_patch_free`.
pub struct CorridorPatch {
    pub(crate) patch: Patch,
}

/// A reference from a pointer that may be NULL.
///
/// # Safety
/// `p` is NULL or points to a live `T` that nothing mutates meanwhile.
pub(crate) unsafe fn get<'a, T>(p: *const T, what: &str) -> Result<&'a T, Failure> {
    // SAFETY: the caller's contract.
    unsafe { p.as_ref() }.ok_or_else(|| null(what))
}

/// A mutable reference from a pointer that may be NULL.
///
/// # Safety
/// `p` is NULL or points to a live `T` that nothing else uses meanwhile.
pub(crate) unsafe fn get_mut<'a, T>(p: *mut T, what: &str) -> Result<&'a mut T, Failure> {
    // SAFETY: the caller's contract.
    unsafe { p.as_mut() }.ok_or_else(|| null(what))
}

/// Writes a result through an output pointer.
///
/// # Safety
/// `out` is NULL or valid for a write of `T`.
pub(crate) unsafe fn put<T>(out: *mut T, value: T, what: &str) -> Result<(), Failure> {
    if out.is_null() {
        return Err(null(what));
    }
    // SAFETY: checked non-NULL; valid by the caller's contract.
    unsafe { out.write(value) };
    Ok(())
}

/// A UTF-8 string from a NUL-terminated C string.
///
/// # Safety
/// `s` is NULL or a NUL-terminated string.
pub(crate) unsafe fn text<'a>(s: *const c_char, what: &str) -> Result<&'a str, Failure> {
    if s.is_null() {
        return Err(null(what));
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    unsafe { CStr::from_ptr(s) }.to_str().map_err(|_| {
        Failure::new(
            CorridorStatus::InvalidArgument,
            format!("{what} is not valid UTF-8"),
        )
    })
}

/// Points from `count` (x, y) pairs.
///
/// # Safety
/// `xy` is NULL or valid for reads of `2 * count` doubles.
pub(crate) unsafe fn points(
    xy: *const f64,
    count: usize,
    what: &str,
) -> Result<Vec<Point>, Failure> {
    if xy.is_null() {
        return Err(null(what));
    }
    let len = count.checked_mul(2).ok_or_else(|| {
        Failure::new(
            CorridorStatus::InvalidArgument,
            format!("{what}: count {count} is too large"),
        )
    })?;
    // SAFETY: valid for `len` reads by the caller's contract.
    let flat = unsafe { std::slice::from_raw_parts(xy, len) };
    Ok(flat
        .chunks_exact(2)
        .map(|c| Point::new(c[0], c[1]))
        .collect())
}

/// Hands a Rust value to C as an owned handle.
pub(crate) fn into_handle<T>(value: T) -> *mut T {
    Box::into_raw(Box::new(value))
}

/// Takes back and drops a handle made by [`into_handle`] (NULL is ignored).
///
/// # Safety
/// `p` is NULL or came from [`into_handle`] and was not freed before.
pub(crate) unsafe fn free_handle<T>(p: *mut T) {
    if !p.is_null() {
        // SAFETY: the caller's contract.
        drop(unsafe { Box::from_raw(p) });
    }
}

fn null(what: &str) -> Failure {
    Failure::new(CorridorStatus::NullArgument, format!("{what} is NULL"))
}
