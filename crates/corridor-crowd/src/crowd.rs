//! Where the characters are kept: one array per attribute (struct of arrays), so that a
//! pass over one attribute reads memory in sequence and threads split the arrays by
//! index; characters come and go by [`CharacterId`].

use crate::character::{Character, CharacterId, Phase};
use crate::route::Route;
use crate::walls::WallCache;
use corridor_geom::Point;
use rustc_hash::FxHashMap;

/// The characters of a simulation, one array per attribute, all of the same length.
#[derive(Clone, Debug, Default)]
pub struct Crowd {
    pub(crate) ids: Vec<CharacterId>,
    pub(crate) position: Vec<Point>,
    pub(crate) velocity: Vec<Point>,
    pub(crate) goal: Vec<Point>,
    pub(crate) radius: Vec<f64>,
    pub(crate) preferred_speed: Vec<f64>,
    pub(crate) max_speed: Vec<f64>,
    pub(crate) preferred_clearance: Vec<f64>,
    pub(crate) phase: Vec<Phase>,
    pub(crate) route: Vec<Route>,
    pub(crate) walls: Vec<WallCache>,
    /// Must plan (again) before the next step's route following.
    pub(crate) needs_plan: Vec<bool>,
    /// When it last planned (seconds), to space out re-plans after straying.
    pub(crate) planned_at: Vec<f64>,
    /// When it joined, when it arrived, how far it walked.
    pub(crate) joined_at: Vec<f64>,
    pub(crate) arrived_at: Vec<Option<f64>>,
    pub(crate) walked: Vec<f64>,
    index: FxHashMap<CharacterId, usize>,
    next_id: u64,
}

impl Crowd {
    /// How many characters there are.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Adds a character (already checked) at time `now`, with a wall cache for its start.
    pub(crate) fn push(&mut self, c: &Character, walls: WallCache, now: f64) -> CharacterId {
        let id = CharacterId(self.next_id);
        self.next_id += 1;
        self.index.insert(id, self.ids.len());
        self.ids.push(id);
        self.position.push(c.position);
        self.velocity.push(Point::ZERO);
        self.goal.push(c.goal);
        self.radius.push(c.radius);
        self.preferred_speed.push(c.preferred_speed);
        self.max_speed.push(c.max_speed);
        self.preferred_clearance
            .push(c.preferred_clearance.max(c.radius));
        self.phase.push(Phase::Walking);
        self.route.push(Route::straight(c.position, c.goal));
        self.walls.push(walls);
        self.needs_plan.push(true);
        self.planned_at.push(f64::NEG_INFINITY);
        self.joined_at.push(now);
        self.arrived_at.push(None);
        self.walked.push(0.0);
        id
    }

    /// Removes a character (the last one takes its place); returns it as it is now.
    pub(crate) fn remove(&mut self, id: CharacterId) -> Option<Character> {
        let i = self.index.remove(&id)?;
        let c = self.character(i);
        macro_rules! take {
            ($($field:ident),*) => { $( self.$field.swap_remove(i); )* };
        }
        take!(
            ids,
            position,
            velocity,
            goal,
            radius,
            preferred_speed,
            max_speed,
            preferred_clearance,
            phase,
            route,
            walls,
            needs_plan,
            planned_at,
            joined_at,
            arrived_at,
            walked
        );
        if i < self.ids.len() {
            self.index.insert(self.ids[i], i);
        }
        Some(c)
    }

    /// The character at index `i` as a [`Character`] (where it is now).
    pub(crate) fn character(&self, i: usize) -> Character {
        Character {
            position: self.position[i],
            goal: self.goal[i],
            radius: self.radius[i],
            preferred_speed: self.preferred_speed[i],
            max_speed: self.max_speed[i],
            preferred_clearance: self.preferred_clearance[i],
        }
    }

    /// The index of a character.
    pub fn index_of(&self, id: CharacterId) -> Option<usize> {
        self.index.get(&id).copied()
    }

    /// Every character's id, in index order.
    pub fn ids(&self) -> &[CharacterId] {
        &self.ids
    }

    /// Every character's position, in index order.
    pub fn positions(&self) -> &[Point] {
        &self.position
    }

    /// Every character's velocity, in index order.
    pub fn velocities(&self) -> &[Point] {
        &self.velocity
    }

    /// Every character's radius, in index order.
    pub fn radii(&self) -> &[f64] {
        &self.radius
    }

    /// Every character's goal, in index order.
    pub fn goals(&self) -> &[Point] {
        &self.goal
    }

    /// Every character's phase, in index order.
    pub fn phases(&self) -> &[Phase] {
        &self.phase
    }

    /// Every character's current indicative route, in index order.
    pub fn routes(&self) -> &[Route] {
        &self.route
    }
}
