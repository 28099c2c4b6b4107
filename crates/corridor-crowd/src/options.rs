//! How the simulation runs: time step and substeps, the avoidance parameters (RVO2's
//! names and meanings), route following and threads.

use serde::{Deserialize, Serialize};

/// The parameters of collision avoidance between characters, as RVO2 names them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Avoidance {
    /// Characters further than this (centre to centre) are ignored.
    pub neighbour_distance: f64,
    /// At most this many nearest neighbours are taken into account.
    pub max_neighbours: usize,
    /// Collisions with other characters are avoided this many seconds ahead.
    pub time_horizon: f64,
    /// Collisions with walls are avoided this many seconds ahead.
    pub obstacle_horizon: f64,
}

impl Default for Avoidance {
    /// RVO2's Circle example: 15 m, 10 neighbours, 10 s, 10 s.
    fn default() -> Self {
        Avoidance {
            neighbour_distance: 15.0,
            max_neighbours: 10,
            time_horizon: 10.0,
            obstacle_horizon: 10.0,
        }
    }
}

/// How a [`Simulation`](crate::Simulation) runs.
///
/// ```
/// use corridor_crowd::Options;
/// let o = Options { substeps: 2, threads: 1, ..Options::default() };
/// assert_eq!(o.time_step, 0.25);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Seconds per step (route following runs once a step).
    pub time_step: f64,
    /// Avoidance and integration run this many times per step, each over
    /// `time_step / substeps`.
    pub substeps: usize,
    /// Worker threads (0: one per core). Results depend on nothing else: the same
    /// scenario gives the same trajectories for any thread count.
    pub threads: usize,
    /// Avoidance between characters.
    pub avoidance: Avoidance,
    /// Follow the indicative route of an ECM path (on), or walk straight at the goal as
    /// RVO2's examples do (off; walls still stop characters).
    pub route_following: bool,
    /// How far ahead on the indicative route the attraction point lies, beyond the
    /// character's radius (metres).
    pub lookahead: f64,
    /// A character further than this from its indicative route (beyond its preferred
    /// clearance) plans a new one.
    pub stray_distance: f64,
    /// A character counts as arrived within this distance of its goal (0: its radius).
    pub arrival_distance: f64,
    /// Arrived characters leave the simulation (an evacuation), instead of staying.
    pub remove_arrived: bool,
    /// Characters starting close together for the same place share one plan
    /// ([`share_route`](crate::share_route)): one plans, the others join its route.
    pub share_plans: bool,
    /// Seed of the tiny perturbation of preferred velocities that breaks perfect
    /// symmetries (RVO2's Blocks does the same); 0 for none.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            time_step: 0.25,
            substeps: 1,
            threads: 0,
            avoidance: Avoidance::default(),
            route_following: true,
            lookahead: 2.0,
            stray_distance: 3.0,
            arrival_distance: 0.0,
            remove_arrived: false,
            share_plans: false,
            seed: 0,
        }
    }
}
