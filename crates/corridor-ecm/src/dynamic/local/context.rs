//! What every step of one local repair reads ([`Context`]: the old ECM, the change of
//! the walls, the options and tolerances) and how one attempt ends ([`Step`]).

use super::index::UpdateIndex;
use super::splice::Splice;
use crate::graph::{Ecm, EdgeId};
use crate::BuildOptions;
use corridor_geom::FxHashSet as HashSet;
use corridor_geom::{WallDelta, WallKey, WallSet};
use std::cell::Cell;
use std::time::Duration;

/// What every step of one local repair reads: the old ECM and its index, the walls
/// before the change and the change, the options, the tolerances and the exact free
/// areas; and what the steps count (Voronoi time, walls of the last local diagram).
pub(super) struct Context<'a> {
    pub(super) ecm: &'a Ecm,
    pub(super) index: &'a UpdateIndex,
    pub(super) walls: &'a WallSet,
    pub(super) delta: &'a WallDelta,
    pub(super) removed: HashSet<WallKey>,
    pub(super) influenced: HashSet<EdgeId>,
    pub(super) options: &'a BuildOptions,
    pub(super) deviation: f64,
    /// Position tolerance for matching (user units).
    pub(super) tol: f64,
    /// Validation tolerance (grid units).
    pub(super) tol_grid: f64,
    pub(super) total_walls: usize,
    pub(super) max_local_fraction: f64,
    /// Twice the free area before and after the change (grid units², exact).
    pub(super) old_twice: i128,
    pub(super) new_twice: i128,
    /// Time spent in the Voronoi builder so far.
    pub(super) voronoi_time: Cell<Duration>,
    /// Walls of the last local diagram.
    pub(super) local_walls: Cell<usize>,
}

/// How one attempt ends: with a splice, with a reason to widen the region, or with a
/// reason to give up on the local repair.
pub(super) enum Step {
    Done(Splice),
    Widen(String),
    Fail(String),
}
