//! What a run measured: arrivals, speeds, the closest approach between characters and
//! to walls, collisions, re-plans and what obstacle changes did to the crowd.

use serde::Serialize;

/// Counters and extremes over the whole run (since the simulation was made).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    /// Steps run.
    pub steps: u64,
    /// Simulated seconds.
    pub time: f64,
    /// Smallest distance between two characters' centres seen at any substep (among
    /// each character's avoidance neighbours, which always include its nearest).
    pub min_pairwise_distance: f64,
    /// Smallest gap between two characters' discs (distance minus both radii; negative:
    /// they overlapped).
    pub min_pairwise_gap: f64,
    /// Pairs found overlapping, summed over substeps.
    pub collisions: u64,
    /// Smallest wall clearance minus radius of a character that the ECM was asked
    /// about (never negative: a negative value would be a penetration).
    pub min_wall_gap: f64,
    /// Moves that entered a wall and were pushed back out.
    pub wall_pushes: u64,
    /// Moves undone because pushing out failed.
    pub undone_moves: u64,
    /// Paths planned (first plans included).
    pub plans: u64,
    /// Of which re-plans: after straying from the route, after an obstacle change
    /// invalidated the corridor, or after being blocked.
    pub replans: u64,
    /// Of which after an obstacle change touched the corridor.
    pub invalidated: u64,
    /// Of the plans, routes joined from a group member's plan instead of planned
    /// ([`Options::share_plans`](crate::Options::share_plans)).
    pub shared_plans: u64,
    /// Plans that found no corridor (the character waits, blocked).
    pub failed_plans: u64,
    /// Obstacle changes applied.
    pub changes: u64,
    /// Characters a new obstacle caught, pushed out to the nearest free point.
    pub pushed_out: u64,
    /// Characters a new obstacle caught that found no free point near (left in place,
    /// blocked).
    pub stuck: u64,
    /// Characters that arrived.
    pub arrived: u64,
    /// Characters that arrived and left (`remove_arrived`).
    pub removed: u64,
    /// Sum of the arrived characters' travel times (seconds), for the mean.
    pub travel_time_sum: f64,
    /// Largest travel time of an arrived character.
    pub travel_time_max: f64,
    /// Sum of the distances walked by all characters (including those removed).
    pub distance_sum: f64,
    /// Sum of the seconds characters spent walking (until arrival).
    pub walking_time_sum: f64,
}

impl Stats {
    pub(crate) fn new() -> Self {
        Stats {
            min_pairwise_distance: f64::INFINITY,
            min_pairwise_gap: f64::INFINITY,
            min_wall_gap: f64::INFINITY,
            ..Stats::default()
        }
    }

    /// Mean travel time of the arrived characters.
    pub fn mean_travel_time(&self) -> f64 {
        self.travel_time_sum / self.arrived.max(1) as f64
    }

    /// Mean walking speed: distance walked over time spent walking.
    pub fn mean_speed(&self) -> f64 {
        self.distance_sum / self.walking_time_sum.max(1e-300)
    }
}
