//! The simulation loop, in the levels the ECM papers use: global route (an ECM path for
//! the character's radius and its indicative route) → route following (an attraction
//! point ahead on that route) → local avoidance (ORCA between characters, a half-plane
//! per nearby wall) → integration that never enters a wall; a fixed time step with
//! substeps, obstacle changes planned beside a step and applied between steps.
//!
//! Every per-character computation reads the state before the step and writes its own
//! slot of a separate buffer, so the result is the same for any number of threads.

use crate::character::{Character, CharacterId, Phase};
use crate::crowd::Crowd;
use crate::error::CrowdError;
use crate::lists::NeighbourLists;
use crate::moves::{integrate, Avoided};
use crate::options::Options;
use crate::orca::{choose_velocity, orca_half_plane_inv, HalfPlane};
use crate::route::Route;
use crate::share::{self, share_route};
use crate::stats::Stats;
use crate::walls::{wall_half_plane, WallCache};
use corridor_ecm::{Change, DynamicEcm, Ecm, PathQuery, Planner};
use corridor_geom::{Environment, Point};
use rayon::prelude::*;

/// Re-plans after straying are at least this far apart (seconds) per character.
const STRAY_REPLAN_INTERVAL: f64 = 2.0;

/// A crowd on a changing map.
///
/// ```
/// use corridor_crowd::{Character, Options, Simulation};
/// use corridor_geom::{Environment, Point};
/// let env = Environment::rectangle(Point::ZERO, Point::new(20.0, 10.0));
/// let mut sim = Simulation::new(env, Options { threads: 1, ..Options::default() })?;
/// let a = sim.add(Character::new(Point::new(2.0, 5.0), Point::new(18.0, 5.0), 0.5))?;
/// sim.add(Character::new(Point::new(18.0, 5.2), Point::new(2.0, 5.0), 0.5))?;
/// for _ in 0..200 {
///     sim.step();
/// }
/// let i = sim.crowd().index_of(a).unwrap();
/// assert!(sim.crowd().positions()[i].distance(Point::new(18.0, 5.0)) < 0.5);
/// assert!(sim.stats().min_pairwise_distance >= 1.0 - 1e-6);
/// # Ok::<(), corridor_crowd::CrowdError>(())
/// ```
pub struct Simulation {
    map: DynamicEcm,
    options: Options,
    pool: rayon::ThreadPool,
    crowd: Crowd,
    grid: NeighbourLists,
    preferred: Vec<Point>,
    new_velocity: Vec<Avoided>,
    pending: Vec<Change>,
    stats: Stats,
}

/// Per-thread scratch of the avoidance pass.
#[derive(Default)]
struct Scratch {
    found: Vec<(f64, u32)>,
    planes: Vec<HalfPlane>,
    spare: Vec<HalfPlane>,
}

impl Simulation {
    /// A simulation on `env` (its ECM is built here).
    ///
    /// # Errors
    /// [`CrowdError::BadOption`] for a time step, substep count or avoidance parameter
    /// out of range; [`CrowdError::Map`] when the ECM cannot be built.
    pub fn new(env: Environment, options: Options) -> Result<Self, CrowdError> {
        Self::with_map(DynamicEcm::new(env)?, options)
    }

    /// A simulation on a map already built.
    pub fn with_map(map: DynamicEcm, options: Options) -> Result<Self, CrowdError> {
        check_options(&options)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads)
            .build()?;
        Ok(Simulation {
            map,
            options,
            pool,
            crowd: Crowd::default(),
            grid: NeighbourLists::default(),
            preferred: Vec::new(),
            new_velocity: Vec::new(),
            pending: Vec::new(),
            stats: Stats::new(),
        })
    }

    /// The characters.
    pub fn crowd(&self) -> &Crowd {
        &self.crowd
    }

    /// The map.
    pub fn map(&self) -> &DynamicEcm {
        &self.map
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// What the run measured so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Simulated seconds so far.
    pub fn time(&self) -> f64 {
        self.stats.time
    }

    /// Adds a character; it plans its route at the start of the next step.
    ///
    /// # Errors
    /// A bad radius, speed or point, or a start closer to a wall than the radius.
    pub fn add(&mut self, c: Character) -> Result<CharacterId, CrowdError> {
        if !(c.radius.is_finite() && c.radius > 0.0) {
            return Err(CrowdError::BadRadius(c.radius));
        }
        let speeds_ok = [c.preferred_speed, c.max_speed]
            .iter()
            .all(|s| s.is_finite() && *s >= 0.0)
            && c.preferred_speed <= c.max_speed;
        if !speeds_ok {
            return Err(CrowdError::BadSpeed {
                preferred: c.preferred_speed,
                max: c.max_speed,
            });
        }
        for p in [c.position, c.goal] {
            if !p.is_finite() {
                return Err(CrowdError::NotFinite(p));
            }
        }
        if !c.preferred_clearance.is_finite() {
            return Err(CrowdError::BadRadius(c.preferred_clearance));
        }
        let walls = WallCache::ask(self.map.ecm(), c.position)
            .filter(|w| w.clearance >= c.radius)
            .ok_or(CrowdError::StartInWall {
                position: c.position,
                radius: c.radius,
            })?;
        Ok(self.crowd.push(&c, walls, self.stats.time))
    }

    /// Removes a character; returns it as it is now (where it stands).
    pub fn remove(&mut self, id: CharacterId) -> Option<Character> {
        let i = self.crowd.index_of(id)?;
        self.stats.distance_sum += self.crowd.walked[i];
        if self.crowd.arrived_at[i].is_none() {
            self.stats.walking_time_sum += self.stats.time - self.crowd.joined_at[i];
        }
        let c = self.crowd.remove(id)?;
        self.stats.removed += 1;
        Some(c)
    }

    /// Queues obstacle changes: the next [`Simulation::step`] plans them on another
    /// thread while it moves the crowd, and applies them when the step ends. Characters
    /// whose corridor the change touches re-plan before the following step; characters
    /// a new obstacle caught are pushed out to the nearest free point.
    pub fn change_obstacles(&mut self, changes: impl IntoIterator<Item = Change>) {
        self.pending.extend(changes);
    }

    /// One step: plans, route following, then `substeps` of avoidance and movement;
    /// applies queued obstacle changes at the end.
    ///
    /// # Errors
    /// When a queued change is invalid (an unknown id, bad geometry), it is dropped and
    /// its error returned after the step has been run.
    pub fn step(&mut self) -> Result<(), CrowdError> {
        let changes = std::mem::take(&mut self.pending);
        let Simulation {
            map,
            options,
            pool,
            crowd,
            grid,
            preferred,
            new_velocity,
            stats,
            ..
        } = self;
        let parallel = pool.current_num_threads() > 1;
        let mut advance = || {
            let ecm = map.ecm();
            plan_routes(parallel, ecm, options, crowd, stats);
            follow_routes(parallel, options, crowd, preferred, stats.steps);
            let dt = options.time_step / options.substeps as f64;
            for _ in 0..options.substeps {
                avoid(parallel, options, crowd, grid, preferred, new_velocity, dt);
                integrate(parallel, ecm, options, crowd, new_velocity, stats, dt);
            }
        };
        let plan = || (!changes.is_empty()).then(|| map.plan_batch(&changes));
        let patch = if parallel {
            // The change is planned on one worker while the others move the crowd.
            pool.install(|| rayon::join(plan, advance).0)
        } else {
            advance();
            plan()
        };
        self.stats.steps += 1;
        self.stats.time += self.options.time_step;
        self.arrivals();
        match patch {
            Some(Ok(patch)) => {
                self.map.apply(patch)?;
                self.after_change();
                Ok(())
            }
            Some(Err(e)) => Err(e.into()),
            None => Ok(()),
        }
    }

    /// Marks arrivals (and removes arrived characters when asked to).
    fn arrivals(&mut self) {
        let now = self.stats.time;
        let mut leaving = Vec::new();
        for i in 0..self.crowd.len() {
            if self.crowd.phase[i] != Phase::Walking {
                continue;
            }
            let reach = if self.options.arrival_distance > 0.0 {
                self.options.arrival_distance
            } else {
                self.crowd.radius[i]
            };
            if self.crowd.position[i].distance(self.crowd.goal[i]) <= reach {
                self.crowd.phase[i] = Phase::Arrived;
                self.crowd.arrived_at[i] = Some(now);
                let travel = now - self.crowd.joined_at[i];
                self.stats.arrived += 1;
                self.stats.travel_time_sum += travel;
                self.stats.travel_time_max = self.stats.travel_time_max.max(travel);
                self.stats.walking_time_sum += travel;
                if self.options.remove_arrived {
                    leaving.push(self.crowd.ids[i]);
                }
            }
        }
        for id in leaving {
            self.remove(id);
        }
    }

    /// The sums of walking time of those still walking (for [`Stats::mean_speed`]) are
    /// added when the run ends; call this once then.
    pub fn finish(&mut self) {
        for i in 0..self.crowd.len() {
            if self.crowd.arrived_at[i].is_none() {
                self.stats.walking_time_sum += self.stats.time - self.crowd.joined_at[i];
            }
        }
        self.stats.distance_sum += self.crowd.walked.iter().sum::<f64>();
    }

    /// After an obstacle change: fresh wall caches, characters caught inside pushed out,
    /// characters whose corridor lost an edge (and blocked ones) plan again.
    fn after_change(&mut self) {
        self.stats.changes += 1;
        let ecm = self.map.ecm();
        let crowd = &mut self.crowd;
        for i in 0..crowd.len() {
            let (p, r) = (crowd.position[i], crowd.radius[i]);
            match WallCache::ask(ecm, p).filter(|w| w.clearance >= r) {
                Some(w) => crowd.walls[i] = w,
                None => match nearest_free_point(ecm, p, r) {
                    Some((q, w)) => {
                        crowd.position[i] = q;
                        crowd.walls[i] = w;
                        crowd.velocity[i] = Point::ZERO;
                        crowd.needs_plan[i] = true;
                        self.stats.pushed_out += 1;
                    }
                    None => {
                        crowd.phase[i] = Phase::Blocked;
                        crowd.velocity[i] = Point::ZERO;
                        self.stats.stuck += 1;
                        continue;
                    }
                },
            }
            let invalid = crowd.phase[i] == Phase::Walking && !crowd.route[i].is_valid_in(ecm);
            if invalid {
                self.stats.invalidated += 1;
            }
            if invalid || crowd.phase[i] == Phase::Blocked {
                crowd.needs_plan[i] = true;
                // Long ago (so it may plan at once), yet planned before: a re-plan.
                crowd.planned_at[i] = f64::MIN;
            }
        }
    }
}

/// Computes `f(i)` for `i` in `0..n` into `out` (reused), on the pool's threads when
/// `parallel`, else on this thread without touching the pool. Each call writes only its
/// own slot, so the result does not depend on the thread count.
fn map_indices<T: Send, S>(
    parallel: bool,
    n: usize,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, usize) -> T + Sync + Send,
    out: &mut Vec<T>,
) {
    if parallel {
        (0..n)
            .into_par_iter()
            .with_min_len(128)
            .map_init(init, f)
            .collect_into_vec(out);
    } else {
        out.clear();
        let mut scratch = init();
        out.extend((0..n).map(|i| f(&mut scratch, i)));
    }
}

fn check_options(o: &Options) -> Result<(), CrowdError> {
    let bad = |name, value, why| Err(CrowdError::BadOption { name, value, why });
    if !(o.time_step.is_finite() && o.time_step > 0.0) {
        return bad("time_step", o.time_step, "positive");
    }
    if o.substeps == 0 || o.substeps > 1000 {
        return bad("substeps", o.substeps as f64, "1 to 1000");
    }
    let a = &o.avoidance;
    if !(a.neighbour_distance.is_finite() && a.neighbour_distance > 0.0) {
        return bad("neighbour_distance", a.neighbour_distance, "positive");
    }
    if !(a.time_horizon.is_finite() && a.time_horizon > 0.0) {
        return bad("time_horizon", a.time_horizon, "positive");
    }
    if !(a.obstacle_horizon.is_finite() && a.obstacle_horizon > 0.0) {
        return bad("obstacle_horizon", a.obstacle_horizon, "positive");
    }
    for (name, v) in [
        ("lookahead", o.lookahead),
        ("stray_distance", o.stray_distance),
        ("arrival_distance", o.arrival_distance),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            return bad(name, v, "finite, non-negative");
        }
    }
    Ok(())
}

/// Plans (in parallel, one planner per worker) for every character that needs it.
fn plan_routes(parallel: bool, ecm: &Ecm, options: &Options, crowd: &mut Crowd, stats: &mut Stats) {
    let now = stats.time;
    let due: Vec<usize> = (0..crowd.len())
        .filter(|&i| crowd.needs_plan[i] && crowd.phase[i] != Phase::Arrived)
        .collect();
    if due.is_empty() {
        return;
    }
    if !options.route_following {
        for &i in &due {
            crowd.route[i] = Route::straight(crowd.position[i], crowd.goal[i]);
            crowd.needs_plan[i] = false;
        }
        return;
    }
    let plans = if options.share_plans {
        plan_shared(parallel, ecm, crowd, &due, stats)
    } else {
        plan_each(parallel, ecm, crowd, &due, None)
    };
    for (&i, plan) in due.iter().zip(plans) {
        stats.plans += 1;
        if crowd.planned_at[i] > f64::NEG_INFINITY || crowd.phase[i] == Phase::Blocked {
            stats.replans += 1;
        }
        crowd.needs_plan[i] = false;
        crowd.planned_at[i] = now;
        match plan {
            Some(route) => {
                crowd.route[i] = route;
                crowd.phase[i] = Phase::Walking;
            }
            None => {
                stats.failed_plans += 1;
                crowd.phase[i] = Phase::Blocked;
            }
        }
    }
}

/// Plans for each of `due` on its own (in parallel, one planner per worker), for its
/// radius or the one `radius` gives it.
fn plan_each(
    parallel: bool,
    ecm: &Ecm,
    crowd: &Crowd,
    due: &[usize],
    radius: Option<&[f64]>,
) -> Vec<Option<Route>> {
    let mut plans = Vec::new();
    map_indices(
        parallel,
        due.len(),
        Planner::new,
        |planner, k| {
            let i = due[k];
            let r = radius.map_or(crowd.radius[i], |r| r[k]);
            let query = PathQuery::new(crowd.position[i], crowd.goal[i])
                .with_radius(r)
                .with_preferred_clearance(crowd.preferred_clearance[i].max(r));
            let path = planner.plan(ecm, &query).ok()?;
            let mut points = path.indicative_route;
            if points.len() < 2 {
                points = vec![crowd.position[i], crowd.goal[i]];
            }
            Some(Route {
                points,
                edges: path.edges.iter().map(|&(e, _)| e).collect(),
                segment: 0,
            })
        },
        &mut plans,
    );
    plans
}

/// Plans for `due` in groups ([`crate::share`]): one plan per group, for its largest
/// radius; the others join it, and whoever cannot plans alone.
fn plan_shared(
    parallel: bool,
    ecm: &Ecm,
    crowd: &Crowd,
    due: &[usize],
    stats: &mut Stats,
) -> Vec<Option<Route>> {
    let leader = share::leaders(due, crowd);
    let mut group_radius: Vec<f64> = due.iter().map(|&i| crowd.radius[i]).collect();
    for (k, &l) in leader.iter().enumerate() {
        group_radius[l] = group_radius[l].max(crowd.radius[due[k]]);
    }
    let heads: Vec<usize> = (0..due.len()).filter(|&k| leader[k] == k).collect();
    let head_due: Vec<usize> = heads.iter().map(|&k| due[k]).collect();
    let head_radius: Vec<f64> = heads.iter().map(|&k| group_radius[k]).collect();
    let head_plans = plan_each(parallel, ecm, crowd, &head_due, Some(&head_radius));
    let mut plan_of: Vec<Option<&Route>> = vec![None; due.len()];
    for (&k, plan) in heads.iter().zip(&head_plans) {
        plan_of[k] = plan.as_ref();
    }
    let mut plans = Vec::new();
    map_indices(
        parallel,
        due.len(),
        || (),
        |_, k| {
            let (l, i) = (leader[k], due[k]);
            if l == k {
                return None;
            }
            share_route(
                ecm,
                plan_of[l]?,
                crowd.position[i],
                crowd.goal[i],
                crowd.radius[i],
            )
        },
        &mut plans,
    );
    stats.shared_plans += plans.iter().filter(|p| p.is_some()).count() as u64;
    for (&k, plan) in heads.iter().zip(head_plans) {
        plans[k] = plan;
    }
    // Followers who could not join, and leaders whose group's radius did not fit.
    let alone: Vec<usize> = (0..due.len())
        .filter(|&k| {
            plans[k].is_none() && !(leader[k] == k && group_radius[k] == crowd.radius[due[k]])
        })
        .collect();
    let alone_due: Vec<usize> = alone.iter().map(|&k| due[k]).collect();
    for (&k, plan) in alone
        .iter()
        .zip(plan_each(parallel, ecm, crowd, &alone_due, None))
    {
        plans[k] = plan;
    }
    plans
}

/// Preferred velocities: towards the attraction point on the route at the preferred
/// speed, slowing down over the last second before the goal. Characters far off their
/// route ask for a new plan. Each character's slots are written in place (no buffer of
/// answers and no second pass).
fn follow_routes(
    parallel: bool,
    options: &Options,
    crowd: &mut Crowd,
    preferred: &mut Vec<Point>,
    step: u64,
) {
    preferred.resize(crowd.len(), Point::ZERO);
    let follow = Follow {
        options,
        step,
        now: step as f64 * options.time_step,
        ids: &crowd.ids,
        position: &crowd.position,
        goal: &crowd.goal,
        radius: &crowd.radius,
        preferred_speed: &crowd.preferred_speed,
        preferred_clearance: &crowd.preferred_clearance,
        phase: &crowd.phase,
        planned_at: &crowd.planned_at,
    };
    let (route, needs_plan) = (&mut crowd.route, &mut crowd.needs_plan);
    if parallel {
        route
            .par_iter_mut()
            .zip(needs_plan.par_iter_mut())
            .zip(preferred.par_iter_mut())
            .enumerate()
            .with_min_len(128)
            .for_each(|(i, ((r, n), v))| *v = follow.one(i, r, n));
    } else {
        let slots = route.iter_mut().zip(needs_plan.iter_mut());
        for (i, ((r, n), v)) in slots.zip(preferred.iter_mut()).enumerate() {
            *v = follow.one(i, r, n);
        }
    }
}

/// What route following reads: the step and the characters' attributes.
struct Follow<'a> {
    options: &'a Options,
    step: u64,
    now: f64,
    ids: &'a [CharacterId],
    position: &'a [Point],
    goal: &'a [Point],
    radius: &'a [f64],
    preferred_speed: &'a [f64],
    preferred_clearance: &'a [f64],
    phase: &'a [Phase],
    planned_at: &'a [f64],
}

impl Follow<'_> {
    /// Character `i`'s preferred velocity (its route's segment moves on; it may ask for
    /// a plan). Inlined into the loops: a call per character cost more than its body's
    /// bookkeeping.
    #[inline(always)]
    fn one(&self, i: usize, route: &mut Route, needs_plan: &mut bool) -> Point {
        let options = self.options;
        let p = self.position[i];
        let speed = self.preferred_speed[i];
        let phase = self.phase[i];
        let target = match phase {
            Phase::Blocked => return Point::ZERO,
            Phase::Arrived => self.goal[i],
            Phase::Walking if !options.route_following => {
                route.segment = 0;
                self.goal[i]
            }
            Phase::Walking => {
                let ahead = options.lookahead + self.radius[i];
                let (target, off, segment) = route.look_ahead(p, ahead);
                route.segment = segment;
                let limit = options.stray_distance + self.preferred_clearance[i];
                if off > limit && self.now - self.planned_at[i] >= STRAY_REPLAN_INTERVAL {
                    *needs_plan = true;
                }
                target
            }
        };
        let to = target - p;
        let last = route.points.last().copied().unwrap_or(self.goal[i]);
        let mut v = if target == last || phase == Phase::Arrived {
            // Arrive: one second to the goal, no faster than preferred.
            to.clamp_length_max(speed)
        } else {
            to.normalize_or_zero() * speed
        };
        if options.seed != 0 {
            v += perturbation(options.seed, self.ids[i].0, self.step);
        }
        v
    }
}

/// A tiny deterministic nudge (below 1e-4 m/s, as RVO2's Blocks adds) from the seed,
/// the character and the step: breaks perfect symmetries without a shared generator.
fn perturbation(seed: u64, id: u64, step: u64) -> Point {
    let mut x =
        seed ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ step.wrapping_mul(0xD1B5_4A32_D192_ED03);
    // splitmix64
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    // Two coordinates in [−1, 1) from the high and low halves: no trigonometry.
    let unit = |bits: u64| (bits & 0xFFFF_FFFF) as f64 / 2_147_483_648.0 - 1.0;
    Point::new(unit(x >> 32), unit(x)) * 0.7e-4
}

/// New velocities (into `out`, with each character's nearest centre distance and the
/// overlapping neighbours of higher index): ORCA against the nearest neighbours, a
/// half-plane for the nearest wall.
fn avoid(
    parallel: bool,
    options: &Options,
    crowd: &Crowd,
    grid: &mut NeighbourLists,
    preferred: &[Point],
    out: &mut Vec<Avoided>,
    dt: f64,
) {
    let a = options.avoidance;
    // The ORCA lines divide by these once per neighbour otherwise.
    let (inv_horizon, inv_dt) = (1.0 / a.time_horizon, 1.0 / dt);
    grid.update(&crowd.position, a.neighbour_distance, a.max_neighbours);
    let grid = &*grid;
    // Slices, not vectors: their lengths and pointers stay in registers while the
    // closure writes its planes.
    let (position, velocity, radius, max_speed, walls) = (
        &crowd.position[..],
        &crowd.velocity[..],
        &crowd.radius[..],
        &crowd.max_speed[..],
        &crowd.walls[..],
    );
    let widest = radius.iter().fold(0.0, |m: f64, &r| m.max(r));
    map_indices(
        parallel,
        crowd.len(),
        Scratch::default,
        |s, i| {
            // Slices of one length, cut here where the compiler sees it: one bounds
            // check per neighbour covers all three.
            let n = position.len();
            let (velocity, radius) = (&velocity[..n], &radius[..n]);
            let (p, v, r) = (position[i], velocity[i], radius[i]);
            s.planes.clear();
            if let Some(h) = wall_half_plane(&walls[i], p, r, max_speed[i], a.obstacle_horizon) {
                s.planes.push(h);
            }
            let hard = s.planes.len();
            grid.nearest(
                i,
                position,
                a.neighbour_distance,
                a.max_neighbours,
                &mut s.found,
            );
            // One extend, not a push per neighbour: no capacity test per line.
            s.planes.extend(s.found.iter().map(|&(_, j)| {
                let j = j as usize;
                orca_half_plane_inv(
                    p,
                    v,
                    position[j],
                    velocity[j],
                    r + radius[j],
                    inv_horizon,
                    inv_dt,
                    0.5,
                )
            }));
            let (gap, overlaps) = pair_extremes(&s.found, i, r, radius, widest);
            // The search answers nearest first, and the square root is monotonic.
            let nearest = s.found.first().map_or(f64::INFINITY, |f| f.0.sqrt());
            let chosen = choose_velocity(&s.planes, hard, max_speed[i], preferred[i], &mut s.spare);
            Avoided {
                velocity: chosen,
                nearest,
                gap,
                overlaps,
            }
        },
        out,
    );
}

/// The smallest gap between character `i` (of radius `r`) and its neighbours `found`
/// (nearest first), and how many of higher index it overlaps. `widest` bounds every
/// radius, so once a neighbour is `r + widest` away and no nearer than the smallest gap
/// so far allows, no further one can lower the gap or overlap (rounding is monotonic):
/// the scan stops there with the same answer as a scan of all.
#[inline]
fn pair_extremes(
    found: &[(f64, u32)],
    i: usize,
    r: f64,
    radius: &[f64],
    widest: f64,
) -> (f64, u32) {
    let reach = r + widest;
    let (mut gap, mut overlaps) = (f64::INFINITY, 0);
    for &(d_sq, j) in found {
        let d = d_sq.sqrt();
        if d >= reach && d - reach >= gap {
            break;
        }
        let combined = r + radius[j as usize];
        gap = gap.min(d - combined);
        if j as usize > i && d < combined - 1e-9 {
            overlaps += 1;
        }
    }
    (gap, overlaps)
}

/// The free point nearest `p` (on rings of growing radius) where a disc of `radius`
/// fits, with its wall cache.
fn nearest_free_point(ecm: &Ecm, p: Point, radius: f64) -> Option<(Point, WallCache)> {
    const DIRECTIONS: usize = 32;
    for ring in 1..=60 {
        let distance = ring as f64 * radius * 0.25;
        for k in 0..DIRECTIONS {
            let angle = k as f64 / DIRECTIONS as f64 * std::f64::consts::TAU;
            let q = p + Point::from_angle(angle) * distance;
            if let Some(w) = WallCache::ask(ecm, q) {
                if w.clearance >= radius * (1.0 + 1e-9) + 1e-9 {
                    return Some((q, w));
                }
            }
        }
    }
    None
}
