//! Where each character ends a substep: it moves by the velocity avoidance chose, never
//! into a wall ([`move_clear`]), and the run's extremes (closest approach, wall gap,
//! overlaps) are gathered on the way, in place, on as many threads as the step uses.

use crate::crowd::Crowd;
use crate::options::Options;
use crate::stats::Stats;
use crate::walls::{move_clear, MoveOutcome, WallCache};
use corridor_ecm::Ecm;
use corridor_geom::Point;
use rayon::prelude::*;

/// What the avoidance pass found for one character.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avoided {
    pub(crate) velocity: Point,
    /// Distance to the nearest neighbour's centre.
    pub(crate) nearest: f64,
    /// Smallest gap between its disc and a neighbour's.
    pub(crate) gap: f64,
    /// Neighbours of higher index it overlaps.
    pub(crate) overlaps: u32,
}

/// Moves every character by its new velocity without entering a wall, and records the
/// run's extremes. Each character's slots are written in place; the extremes are
/// minima and counts, the same whatever the threads' shares.
pub(crate) fn integrate(
    parallel: bool,
    ecm: &Ecm,
    options: &Options,
    crowd: &mut Crowd,
    chosen: &[Avoided],
    stats: &mut Stats,
    dt: f64,
) {
    let horizon = options.avoidance.obstacle_horizon;
    let Crowd {
        position,
        velocity,
        radius,
        max_speed,
        walls,
        walked,
        ..
    } = crowd;
    let (radius, max_speed) = (&*radius, &*max_speed);
    let reach = horizon.max(dt);
    let one = |t: &mut Tally, (i, (((p, v), w), walked)): Slots| {
        let (from, r) = (*p, radius[i]);
        // Less than twice the radius per substep: the swept segment stays clear.
        let step = (chosen[i].velocity * dt).clamp_length_max(1.9 * r);
        let margin = max_speed[i] * reach;
        let to = from + step;
        // Far from every wall (`move_clear`'s first test, inlined): the cache stays.
        let (q, outcome) = if w.clearance_bound(to) >= r + margin {
            (to, MoveOutcome::Free)
        } else {
            let (q, outcome, cache) = move_clear(ecm, w, from, to, r, margin);
            *w = cache;
            (q, outcome)
        };
        *walked += from.distance(q);
        *v = if outcome == MoveOutcome::Undone {
            Point::ZERO
        } else {
            (q - from) / dt
        };
        *p = q;
        if w.probe == q {
            t.min_wall_gap = t.min_wall_gap.min(w.clearance - r);
        }
        match outcome {
            MoveOutcome::Free => {}
            MoveOutcome::Pushed => t.pushes += 1,
            MoveOutcome::Undone => t.undone += 1,
        }
        let found = chosen[i];
        t.nearest = t.nearest.min(found.nearest);
        t.gap = t.gap.min(found.gap);
        t.collisions += u64::from(found.overlaps);
    };
    let t = if parallel {
        position
            .par_iter_mut()
            .zip(velocity.par_iter_mut())
            .zip(walls.par_iter_mut())
            .zip(walked.par_iter_mut())
            .enumerate()
            .with_min_len(128)
            .fold(Tally::default, |mut t, slots| {
                one(&mut t, slots);
                t
            })
            .reduce(Tally::default, Tally::merge)
    } else {
        // A loop with the tally in place: cheaper than passing it by value.
        let mut t = Tally::default();
        let slots = position.iter_mut().zip(velocity.iter_mut());
        let slots = slots.zip(walls.iter_mut()).zip(walked.iter_mut());
        for slot in slots.enumerate() {
            one(&mut t, slot);
        }
        t
    };
    stats.min_wall_gap = stats.min_wall_gap.min(t.min_wall_gap);
    stats.wall_pushes += t.pushes;
    stats.undone_moves += t.undone;
    stats.min_pairwise_distance = stats.min_pairwise_distance.min(t.nearest);
    stats.min_pairwise_gap = stats.min_pairwise_gap.min(t.gap);
    stats.collisions += t.collisions;
}

/// One character's slots in [`integrate`]: index, ((position, velocity), walls), walked.
type Slots<'a> = (
    usize,
    (
        ((&'a mut Point, &'a mut Point), &'a mut WallCache),
        &'a mut f64,
    ),
);

/// The extremes and counts of a substep's moves over some characters.
#[derive(Clone, Copy)]
struct Tally {
    min_wall_gap: f64,
    nearest: f64,
    gap: f64,
    collisions: u64,
    pushes: u64,
    undone: u64,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            min_wall_gap: f64::INFINITY,
            nearest: f64::INFINITY,
            gap: f64::INFINITY,
            collisions: 0,
            pushes: 0,
            undone: 0,
        }
    }
}

impl Tally {
    fn merge(a: Tally, b: Tally) -> Tally {
        Tally {
            min_wall_gap: a.min_wall_gap.min(b.min_wall_gap),
            nearest: a.nearest.min(b.nearest),
            gap: a.gap.min(b.gap),
            collisions: a.collisions + b.collisions,
            pushes: a.pushes + b.pushes,
            undone: a.undone + b.undone,
        }
    }
}
