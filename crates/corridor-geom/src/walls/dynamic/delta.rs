//! What a planned change does: the obstacle edits asked for ([`ObstacleEdit`]) and the
//! walls they remove and add ([`WallDelta`]), with the method that found them
//! ([`NormalizeScope`]).

use super::key::WallKey;
use super::snapped::Snapped;
use crate::{Obstacle, ObstacleId};

/// Which method computed a [`WallDelta`] (see [`WallMap`](crate::WallMap)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NormalizeScope {
    /// Nothing changed on the grid.
    Unchanged,
    /// A box around the change, in a rectilinear neighbourhood.
    Window,
    /// The group of obstacles interacting with the change.
    Group,
    /// The whole environment.
    Global,
}

/// The change of the walls caused by a change of obstacles, computed by
/// [`WallMap::plan`](crate::WallMap::plan) and applied by [`WallMap::apply`](crate::WallMap::apply).
#[derive(Clone, Debug)]
pub struct WallDelta {
    pub(super) removed: Vec<WallKey>,
    pub(super) added: Vec<WallKey>,
    pub(super) scope: NormalizeScope,
    pub(super) note: Option<String>,
    pub(super) edits: Vec<(ObstacleId, Option<Snapped>)>,
    pub(super) free_twice: i128,
}

impl WallDelta {
    /// The walls that disappear (sorted).
    pub fn removed(&self) -> &[WallKey] {
        &self.removed
    }

    /// The walls that appear (sorted).
    pub fn added(&self) -> &[WallKey] {
        &self.added
    }

    /// Whether no wall changes.
    pub fn is_empty(&self) -> bool {
        self.removed.is_empty() && self.added.is_empty()
    }

    /// How the change was computed.
    pub fn scope(&self) -> NormalizeScope {
        self.scope
    }

    /// Why a local method was not used, when the scope is wider than it could have been.
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// Twice the free area after the change (grid units², exact).
    pub fn free_area_twice(&self) -> i128 {
        self.free_twice
    }
}

/// One obstacle change for [`WallMap::plan`](crate::WallMap::plan): the obstacle with this id gets this
/// geometry (`None`: it is removed; an id not in the environment: it is inserted).
#[derive(Clone, Copy, Debug)]
pub struct ObstacleEdit<'a> {
    /// The obstacle.
    pub id: ObstacleId,
    /// Its new geometry, or `None` to remove it.
    pub obstacle: Option<&'a Obstacle>,
}
