//! How a character keeps out of walls: a half-plane of velocities from its nearest wall
//! point (the ECM answers it in O(log n)), and after each move a check that pushes the
//! disc back out of any wall it entered, or undoes the move.
//!
//! The guarantee: after every substep each character's clearance (distance to the
//! nearest wall point) is at least its radius, and it moved less than twice its radius,
//! so the segment it moved along stays at positive clearance: it never crossed a wall.

use crate::orca::HalfPlane;
use corridor_ecm::{CellRef, Ecm};
use corridor_geom::Point;

/// What a character knows about the walls near it: the nearest wall point at `probe`
/// and the clearance there. Since clearance changes by at most the distance moved, the
/// ECM need not be asked again while the character is far from every wall. `cell`, the
/// cell of the last answer, is the hint of the next question (one point-in-piece test
/// instead of a location while the character stays in its cell).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WallCache {
    /// Where the ECM was last asked.
    pub probe: Point,
    /// The nearest wall point to `probe`.
    pub nearest: Point,
    /// `probe`'s clearance (0 when unknown: the next check asks the ECM).
    pub clearance: f64,
    /// The ECM cell holding `probe` (a hint: checked before use, so it may be stale).
    pub cell: Option<CellRef>,
}

impl WallCache {
    /// Nothing known.
    pub const UNKNOWN: WallCache = WallCache {
        probe: Point::ZERO,
        nearest: Point::ZERO,
        clearance: 0.0,
        cell: None,
    };

    /// A lower bound of the clearance at `at`.
    #[inline]
    pub fn clearance_bound(&self, at: Point) -> f64 {
        self.clearance - self.probe.distance(at)
    }

    /// Asks the ECM about `at`; `None` when `at` is not in the free space.
    pub fn ask(ecm: &Ecm, at: Point) -> Option<WallCache> {
        Self::ask_from(ecm, at, None)
    }

    /// [`WallCache::ask`] starting from the cell `hint` (the same answer, cheaper while
    /// `at` is still in that cell).
    pub fn ask_from(ecm: &Ecm, at: Point, hint: Option<CellRef>) -> Option<WallCache> {
        let n = ecm.nearest_obstacle_from(at, hint).ok()?;
        Some(WallCache {
            probe: at,
            nearest: n.point,
            clearance: n.clearance,
            cell: Some(n.cell),
        })
    }
}

/// The half-plane keeping a character of `radius` at `position` from reaching its
/// nearest wall point within `horizon` seconds, or `None` when the wall is too far to
/// matter at `max_speed`.
#[inline]
pub fn wall_half_plane(
    cache: &WallCache,
    position: Point,
    radius: f64,
    max_speed: f64,
    horizon: f64,
) -> Option<HalfPlane> {
    if cache.clearance_bound(position) > radius + max_speed * horizon {
        return None;
    }
    let towards = cache.nearest - position;
    let d = towards.length();
    if d <= 0.0 {
        return None;
    }
    let normal = towards / d;
    Some(HalfPlane {
        normal,
        offset: (d - radius).max(0.0) / horizon,
    })
}

/// How a move ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveOutcome {
    /// The move was clear of walls.
    Free,
    /// The disc entered a wall and was pushed back out.
    Pushed,
    /// Pushing out failed: the character stayed where it was.
    Undone,
}

/// Margin added when pushing out, so the check afterwards passes despite rounding.
const PUSH_MARGIN: f64 = 1e-9;

/// Moves a character of `radius` from `from` to `to` without letting it enter a wall;
/// returns where it ends, how, and the wall cache there. `cache` must hold for `from`'s
/// neighbourhood (its bound is trusted while it shows the disc far from every wall).
pub fn move_clear(
    ecm: &Ecm,
    cache: &WallCache,
    from: Point,
    to: Point,
    radius: f64,
    margin: f64,
) -> (Point, MoveOutcome, WallCache) {
    if cache.clearance_bound(to) >= radius + margin {
        return (to, MoveOutcome::Free, *cache);
    }
    let mut at = to;
    let mut outcome = MoveOutcome::Free;
    let mut hint = cache.cell;
    for _ in 0..4 {
        let Some(here) = WallCache::ask_from(ecm, at, hint) else {
            break;
        };
        hint = here.cell;
        if here.clearance >= radius {
            if at.distance(from) < 2.0 * radius {
                return (at, outcome, here);
            }
            break;
        }
        let out = (at - here.nearest).try_normalize();
        let Some(out) = out else { break };
        at = here.nearest + out * (radius * (1.0 + PUSH_MARGIN) + PUSH_MARGIN);
        outcome = MoveOutcome::Pushed;
    }
    let stay = WallCache::ask_from(ecm, from, cache.cell).unwrap_or(*cache);
    (from, MoveOutcome::Undone, stay)
}
