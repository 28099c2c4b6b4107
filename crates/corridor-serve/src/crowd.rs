//! One connection's crowd: a `corridor_crowd::Simulation` on a copy of an environment's
//! shared map, stepped on the server at a fixed rate, its frames (positions, radii,
//! phases) offered to the connection through a `watch` channel, which keeps only the
//! newest: a slow client misses frames instead of queueing them. Updates of the shared
//! map reach the crowd through the simulation's own update path (`change_obstacles`), one
//! update per step, so characters whose corridor changed plan again.

use crate::app::Event;
use crate::protocol::{ServeError, MAX_CROWD};
use crate::world::World;
use corridor_crowd::{Avoidance, Character, Options, Phase, Simulation};
use corridor_ecm::{Change, DynamicEcm};
use corridor_geom::Point;
use rand::Rng;
use serde_json::json;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, mpsc, oneshot, watch};

/// Simulated (and wall-clock) time between frames.
pub const FRAME: Duration = Duration::from_millis(50);
/// Updates waiting for the crowd beyond this: it copies the shared map afresh instead.
const MAX_QUEUED_UPDATES: usize = 32;
/// Random candidates per character when placing the crowd or choosing goals.
const TRIES_PER_CHARACTER: usize = 60;

/// What a crowd is asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrowdSpec {
    /// How many characters.
    pub count: usize,
    /// Their radius.
    pub radius: f64,
    /// Their preferred clearance.
    pub clearance: f64,
    /// Arrived or blocked characters get new random goals.
    pub wander: bool,
}

/// The state of a crowd's map and characters, for checks.
#[derive(Clone, Debug)]
pub struct CrowdCheck {
    /// The environment.
    pub env: String,
    /// Steps made (the `seq` of the newest frame).
    pub seq: u64,
    /// The shared map's version the crowd's copy is at.
    pub version: u64,
    /// The crowd's map.
    pub map: DynamicEcm,
    /// Every character's position and radius.
    pub characters: Vec<(Point, f64)>,
}

enum Control {
    Goal(Option<Point>, oneshot::Sender<usize>),
    Check(oneshot::Sender<CrowdCheck>),
}

/// A running crowd; dropping it stops the simulation.
pub struct CrowdRun {
    control: mpsc::Sender<Control>,
    /// The newest frame (a `crowd_frame` message).
    pub frames: watch::Receiver<Arc<str>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for CrowdRun {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The simulation and what it needs to follow the shared map.
struct Crowd {
    env: Arc<str>,
    world: Arc<World>,
    sim: Simulation,
    spec: CrowdSpec,
    /// The shared map's version the simulation's map is (or, once its queue is applied,
    /// will be) at.
    version: u64,
    /// Updates not yet handed to the simulation, one per step.
    queued: VecDeque<Arc<[Change]>>,
    seq: u64,
    step_ms: f64,
}

impl CrowdRun {
    /// Places `spec.count` characters at random free points of `world` (with random
    /// goals) and starts stepping. Returns the run and how many were placed.
    pub async fn start(
        env: &str,
        world: Arc<World>,
        events: broadcast::Receiver<Event>,
        spec: CrowdSpec,
    ) -> Result<(CrowdRun, usize), ServeError> {
        let env: Arc<str> = env.into();
        let crowd = {
            let env = env.clone();
            tokio::task::spawn_blocking(move || Crowd::new(env, world, spec))
                .await
                .map_err(|e| ServeError::Internal(e.to_string()))??
        };
        let placed = crowd.sim.crowd().len();
        let (control, orders) = mpsc::channel(8);
        let (frames_in, frames) = watch::channel(Arc::<str>::from(""));
        let task = tokio::spawn(run(crowd, orders, events, frames_in));
        Ok((
            CrowdRun {
                control,
                frames,
                task,
            },
            placed,
        ))
    }

    /// New goals: `goal` for everyone, or random ones. Returns how many got one.
    pub async fn set_goal(&self, goal: Option<Point>) -> Result<usize, ServeError> {
        let (answer, reply) = oneshot::channel();
        self.control
            .send(Control::Goal(goal, answer))
            .await
            .map_err(|_| stopped())?;
        reply.await.map_err(|_| stopped())
    }

    /// The crowd's map and characters as they are between two steps.
    pub async fn check(&self) -> Result<CrowdCheck, ServeError> {
        let (answer, reply) = oneshot::channel();
        self.control
            .send(Control::Check(answer))
            .await
            .map_err(|_| stopped())?;
        reply.await.map_err(|_| stopped())
    }
}

fn stopped() -> ServeError {
    ServeError::Internal("the crowd stopped".into())
}

/// Steps the crowd every [`FRAME`] (skipping ticks it is late for), follows the map's
/// updates, answers orders; ends when the run is dropped.
async fn run(
    mut crowd: Crowd,
    mut orders: mpsc::Receiver<Control>,
    mut events: broadcast::Receiver<Event>,
    frames: watch::Sender<Arc<str>>,
) {
    let mut tick = tokio::time::interval(FRAME);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tokio::select! {
            _ = tick.tick() => {
                // The step runs off the async threads; the crowd comes back with it.
                let Ok(back) = tokio::task::spawn_blocking(move || { crowd.step(); crowd }).await else { return };
                crowd = back;
                frames.send_replace(crowd.frame().into());
            }
            order = orders.recv() => match order {
                Some(Control::Goal(goal, reply)) => { let _ = reply.send(crowd.set_goals(goal)); }
                Some(Control::Check(reply)) => { let _ = reply.send(crowd.check()); }
                None => return,
            },
            event = events.recv() => match event {
                Ok(event) if *event.env == *crowd.env => crowd.follow(event.version, &event.changes),
                Ok(_) => {}
                Err(broadcast::error::RecvError::Lagged(_)) => crowd.resync(),
                Err(broadcast::error::RecvError::Closed) => return,
            },
        }
    }
}

impl Crowd {
    fn new(env: Arc<str>, world: Arc<World>, spec: CrowdSpec) -> Result<Crowd, ServeError> {
        let count = spec.count.min(MAX_CROWD);
        let (version, map) = world.map_copy();
        let mut crowd = Crowd {
            env,
            world,
            sim: Simulation::with_map(map, options(spec.radius))?,
            spec,
            version,
            queued: VecDeque::new(),
            seq: 0,
            step_ms: 0.0,
        };
        let mut rng = rand::rng();
        let mut placed: Vec<Point> = Vec::with_capacity(count);
        for _ in 0..count * TRIES_PER_CHARACTER {
            if placed.len() == count {
                break;
            }
            let Some(p) = crowd.free_point(&mut rng) else {
                continue;
            };
            if placed.iter().any(|q| q.distance(p) < 2.2 * spec.radius) {
                continue;
            }
            let goal = crowd.free_point(&mut rng).unwrap_or(p);
            if crowd.sim.add(crowd.character(p, goal)).is_ok() {
                placed.push(p);
            }
        }
        if placed.is_empty() {
            return Err(ServeError::BadRequest(format!(
                "no free room for a character of radius {}",
                spec.radius
            )));
        }
        Ok(crowd)
    }

    fn character(&self, at: Point, goal: Point) -> Character {
        let speed = self.speed();
        Character::new(at, goal, self.spec.radius)
            .with_speeds(speed, 2.0 * speed)
            .with_preferred_clearance(self.spec.clearance)
    }

    /// Walking speed: a character crosses the map in about 40 s, whatever its units.
    fn speed(&self) -> f64 {
        let size = self.sim.map().environment().bounds().size();
        (size.x.min(size.y) / 40.0).max(self.spec.radius)
    }

    /// A random point with room for a character (one try).
    fn free_point(&self, rng: &mut impl Rng) -> Option<Point> {
        let b = self.sim.map().environment().bounds();
        let p = Point::new(
            rng.random_range(b.min.x..=b.max.x),
            rng.random_range(b.min.y..=b.max.y),
        );
        let ecm = self.sim.map().ecm();
        ecm.clearance(p)
            .is_ok_and(|c| c >= self.spec.radius * 1.05)
            .then_some(p)
    }

    /// One step; hands the oldest queued update to the simulation first.
    fn step(&mut self) {
        if let Some(changes) = self.queued.pop_front() {
            self.sim.change_obstacles(changes.iter().cloned());
        }
        let start = Instant::now();
        // A refused change leaves the copy behind the shared map: copy it afresh.
        if self.sim.step().is_err() {
            self.resync();
        }
        self.step_ms = start.elapsed().as_secs_f64() * 1e3;
        self.seq += 1;
        if self.spec.wander {
            let done: Vec<usize> = (0..self.sim.crowd().len())
                .filter(|&i| self.sim.crowd().phases()[i] != Phase::Walking)
                .collect();
            self.retarget(&done, None);
        }
    }

    /// Gives the characters at `indices` a new goal (`goal`, or a random one each): a
    /// character is taken out where it stands and put back with the new goal.
    fn retarget(&mut self, indices: &[usize], goal: Option<Point>) -> usize {
        let ids: Vec<_> = indices.iter().map(|&i| self.sim.crowd().ids()[i]).collect();
        let mut rng = rand::rng();
        let mut count = 0;
        for id in ids {
            let target =
                goal.or_else(|| (0..TRIES_PER_CHARACTER).find_map(|_| self.free_point(&mut rng)));
            let Some(target) = target else { continue };
            if let Some(mut c) = self.sim.remove(id) {
                c.goal = target;
                count += usize::from(self.sim.add(c).is_ok());
            }
        }
        count
    }

    fn set_goals(&mut self, goal: Option<Point>) -> usize {
        let all: Vec<usize> = (0..self.sim.crowd().len()).collect();
        self.retarget(&all, goal)
    }

    /// An update of the shared map, to pass on to the simulation in turn.
    fn follow(&mut self, version: u64, changes: &Arc<[Change]>) {
        if version <= self.version {
            return;
        }
        if version > self.version + 1 || self.queued.len() >= MAX_QUEUED_UPDATES {
            self.resync();
            return;
        }
        self.queued.push_back(changes.clone());
        self.version = version;
    }

    /// Moves the characters onto a fresh copy of the shared map (after missed updates):
    /// those the new map leaves no room for are dropped.
    fn resync(&mut self) {
        let (version, map) = self.world.map_copy();
        let Ok(mut sim) = Simulation::with_map(map, options(self.spec.radius)) else {
            return;
        };
        let crowd = self.sim.crowd();
        for i in 0..crowd.len() {
            let c = self.character(crowd.positions()[i], crowd.goals()[i]);
            let _ = sim.add(c);
        }
        self.sim = sim;
        self.version = version;
        self.queued.clear();
    }

    fn check(&self) -> CrowdCheck {
        let crowd = self.sim.crowd();
        CrowdCheck {
            env: self.env.to_string(),
            seq: self.seq,
            version: self.version - self.queued.len() as u64,
            map: self.sim.map().clone(),
            characters: crowd
                .positions()
                .iter()
                .copied()
                .zip(crowd.radii().iter().copied())
                .collect(),
        }
    }

    /// The `crowd_frame` message: flat `[x0, y0, x1, y1, ...]` positions (to 1/1000 of a
    /// unit), radii, and a phase letter per character (w walking, a arrived, b blocked).
    fn frame(&self) -> String {
        let crowd = self.sim.crowd();
        let round = |v: f64| (v * 1000.0).round() / 1000.0;
        let positions: Vec<f64> = crowd
            .positions()
            .iter()
            .flat_map(|p| [round(p.x), round(p.y)])
            .collect();
        let radii: Vec<f64> = crowd.radii().iter().map(|&r| round(r)).collect();
        let phases: String = crowd
            .phases()
            .iter()
            .map(|p| match p {
                Phase::Walking => 'w',
                Phase::Arrived => 'a',
                Phase::Blocked => 'b',
            })
            .collect();
        let stats = self.sim.stats();
        json!({
            "type": "crowd_frame",
            "env": &*self.env,
            "seq": self.seq,
            "time": self.sim.time(),
            "version": self.version - self.queued.len() as u64,
            "step_ms": self.step_ms,
            "count": crowd.len(),
            "positions": positions,
            "radii": radii,
            "phases": phases,
            "min_wall_gap": stats.min_wall_gap,
            "changes": stats.changes,
            "replans": stats.replans,
            "invalidated": stats.invalidated,
        })
        .to_string()
    }
}

/// The simulation's options for characters of `radius`: one thread (many clients share
/// two cores), one step per frame, avoidance scaled to the characters' size.
fn options(radius: f64) -> Options {
    Options {
        time_step: FRAME.as_secs_f64(),
        substeps: 1,
        threads: 1,
        avoidance: Avoidance {
            neighbour_distance: 10.0 * radius,
            max_neighbours: 10,
            time_horizon: 2.0,
            obstacle_horizon: 1.0,
        },
        lookahead: 4.0 * radius,
        stray_distance: 6.0 * radius,
        seed: 29,
        ..Options::default()
    }
}
