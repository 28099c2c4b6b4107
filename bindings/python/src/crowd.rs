//! The Python `Simulation`: a crowd of disk-shaped characters on a map (corridor's
//! `crowd` module): characters added and removed in batches from NumPy arrays, steps run
//! with the GIL released, positions and velocities read back as NumPy arrays.
//!
//! Obstacles change while the simulation runs as the crowd module allows: changes are
//! queued (`insert_obstacle`, `move_obstacle`, `remove_obstacle`) and take effect at the
//! end of the next step. The binding checks each change against the environment as the
//! queued changes will leave it, so that an unknown id or bad geometry raises at once and
//! an insertion returns the id the obstacle will have.
//!
//! Thread safety: the simulation sits behind a mutex; every call waits for it with the GIL
//! released, so a step on one Python thread never blocks the others' Python code, and a
//! read on another thread waits until the step is done.

use crate::arrays::{self, Coords};
use crate::environment::{self, Environment};
use crate::errors::{CrowdError, Error, Result, UnknownCharacterError};
use crate::map::Map;
use corridor::crowd::{Avoidance, Character, CharacterId, Options, Phase};
use corridor::ecm::Change;
use corridor::prelude::{Obstacle, ObstacleId, Point};
use numpy::ndarray::Array1;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Mutex;

/// A crowd on its own copy of a map: characters follow ECM paths for their radius (their
/// indicative routes), avoid each other with ORCA and never enter a wall.
///
/// `Simulation(map, time_step=0.25, substeps=1, threads=0, ...)` copies the map (later
/// updates of `map` do not reach the simulation). `threads=0` uses every core; the
/// trajectories are the same for any thread count.
///
/// Characters are added in batches (`add`) and named by integer ids (never reused).
/// The array properties (`positions`, `velocities`, ...) list them in index order, the
/// order of `ids`; they are new arrays on each access (one copy of 16 bytes per
/// character), since the storage moves when characters come and go and a view into it
/// could dangle.
#[pyclass(module = "corridor", frozen)]
pub struct Simulation {
    inner: Mutex<State>,
}

/// The simulation and the obstacle changes queued for its next step.
struct State {
    sim: corridor::crowd::Simulation,
    /// The environment as the queued changes will leave it (`None`: nothing queued).
    queued: Option<corridor::prelude::Environment>,
}

/// A float per character: one number for all, or an array of shape `(n,)`.
fn per_character(obj: &Bound<'_, PyAny>, n: usize, what: &str) -> Result<Vec<f64>> {
    if let Ok(x) = obj.extract::<f64>() {
        return Ok(vec![x; n]);
    }
    let values: Vec<f64> = obj.extract().map_err(|_| {
        Error(PyValueError::new_err(format!(
            "{what} must be a number or a sequence of {n} numbers"
        )))
    })?;
    if values.len() != n {
        return Err(Error(PyValueError::new_err(format!(
            "{what} must have {n} values (one per character), got {}",
            values.len()
        ))));
    }
    Ok(values)
}

/// Points of shape `(2,)` (one character) or `(n, 2)`.
fn many(obj: &Bound<'_, PyAny>, what: &str) -> Result<Vec<Point>> {
    Ok(match arrays::coords(obj, what)? {
        Coords::One(p) => vec![p],
        Coords::Many(ps) => ps,
    })
}

/// Ids from one integer or a sequence of them.
fn ids(obj: &Bound<'_, PyAny>) -> Result<Vec<CharacterId>> {
    let ids: Vec<u64> = match obj.extract::<u64>() {
        Ok(id) => vec![id],
        Err(_) => obj.extract().map_err(|_| {
            Error(PyValueError::new_err(
                "ids must be a non-negative integer or a sequence of them",
            ))
        })?,
    };
    Ok(ids.into_iter().map(CharacterId).collect())
}

impl Simulation {
    /// Runs `f` on the simulation, waiting for it (and running) with the GIL released.
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut corridor::crowd::Simulation) -> T + Send,
    ) -> T {
        self.with_state(py, |state| f(&mut state.sim))
    }

    /// [`Simulation::with`] on the simulation and its queued changes.
    fn with_state<T: Send>(&self, py: Python<'_>, f: impl FnOnce(&mut State) -> T + Send) -> T {
        py.detach(|| f(&mut self.inner.lock().unwrap_or_else(|e| e.into_inner())))
    }

    /// Queues a change for the next step once it is valid after the changes already
    /// queued; returns the obstacle's id (the new one for an insertion).
    fn queue(&self, py: Python<'_>, change: Change) -> Result<u32> {
        self.with_state(py, |state| {
            let env = state
                .queued
                .get_or_insert_with(|| state.sim.map().environment().clone());
            let id = change.apply_to(env)?;
            state.sim.change_obstacles([change]);
            Ok(id.0)
        })
    }

    /// The indexes of `ids`, or the first unknown one as an error.
    fn indexes(sim: &corridor::crowd::Simulation, ids: &[CharacterId]) -> Result<Vec<usize>> {
        ids.iter()
            .map(|&id| {
                sim.crowd().index_of(id).ok_or_else(|| {
                    Error(UnknownCharacterError::new_err(format!(
                        "no character has id {}",
                        id.0
                    )))
                })
            })
            .collect()
    }
}

#[pymethods]
impl Simulation {
    /// A simulation on a copy of `map` (which must take updates: not a read-only map
    /// loaded from a file saved without its environment). The options are the crowd module's (RVO2's names for avoidance).
    /// Raises `CrowdError` (a `ValueError`) for an option out of range.
    #[new]
    #[pyo3(signature = (map, *, time_step=0.25, substeps=1, threads=0, route_following=true,
        neighbour_distance=15.0, max_neighbours=10, time_horizon=10.0, obstacle_horizon=10.0,
        lookahead=2.0, stray_distance=3.0, arrival_distance=0.0, remove_arrived=false, share_plans=false, seed=0))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments
    fn new(
        py: Python<'_>,
        map: &Map,
        time_step: f64,
        substeps: usize,
        threads: usize,
        route_following: bool,
        neighbour_distance: f64,
        max_neighbours: usize,
        time_horizon: f64,
        obstacle_horizon: f64,
        lookahead: f64,
        stray_distance: f64,
        arrival_distance: f64,
        remove_arrived: bool,
        share_plans: bool,
        seed: u64,
    ) -> Result<Self> {
        let options = Options {
            time_step,
            substeps,
            threads,
            avoidance: Avoidance {
                neighbour_distance,
                max_neighbours,
                time_horizon,
                obstacle_horizon,
            },
            route_following,
            lookahead,
            stray_distance,
            arrival_distance,
            remove_arrived,
            share_plans,
            seed,
        };
        let copy = map.dynamic_copy(py)?;
        let sim = py.detach(|| corridor::crowd::Simulation::with_map(copy, options))?;
        Ok(Simulation {
            inner: Mutex::new(State { sim, queued: None }),
        })
    }

    /// Adds characters, all or none: `positions` and `goals` of shape `(n, 2)` (or `(2,)`
    /// for one), `radii` and the optional speeds and preferred clearance each a number or
    /// shape `(n,)`. Returns their ids (uint64, shape `(n,)`); each plans its route at
    /// the start of the next step. `preferred_clearance` defaults to the radius.
    ///
    /// Raises `CrowdError` naming the first bad character (radius not positive, speeds
    /// negative or preferred above max, a point not finite, a start closer to a wall than
    /// the radius); nothing is added then.
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments
    #[pyo3(signature = (positions, goals, radii, preferred_speed=None, max_speed=None, preferred_clearance=None))]
    fn add<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
        goals: &Bound<'py, PyAny>,
        radii: &Bound<'py, PyAny>,
        preferred_speed: Option<&Bound<'py, PyAny>>,
        max_speed: Option<&Bound<'py, PyAny>>,
        preferred_clearance: Option<&Bound<'py, PyAny>>,
    ) -> Result<Bound<'py, PyArray1<u64>>> {
        let positions = many(positions, "positions")?;
        let goals = many(goals, "goals")?;
        let n = positions.len();
        if goals.len() != n {
            return Err(Error(PyValueError::new_err(format!(
                "positions and goals must have the same length, got {n} and {}",
                goals.len()
            ))));
        }
        let radii = per_character(radii, n, "radii")?;
        let or = |given: Option<&Bound<'py, PyAny>>, default: &[f64], what| match given {
            Some(values) => per_character(values, n, what),
            None => Ok(default.to_vec()),
        };
        let preferred_speed = or(preferred_speed, &vec![1.0; n], "preferred_speed")?;
        let max_speed = or(max_speed, &vec![2.0; n], "max_speed")?;
        let clearance = or(preferred_clearance, &radii, "preferred_clearance")?;
        let characters: Vec<Character> = (0..n)
            .map(|i| {
                Character::new(positions[i], goals[i], radii[i])
                    .with_speeds(preferred_speed[i], max_speed[i])
                    .with_preferred_clearance(clearance[i])
            })
            .collect();
        let added = self.with(py, |sim| {
            let mut added = Vec::with_capacity(n);
            for (i, c) in characters.into_iter().enumerate() {
                match sim.add(c) {
                    Ok(id) => added.push(id.0),
                    Err(e) => {
                        for id in added {
                            sim.remove(CharacterId(id));
                        }
                        return Err(Error(CrowdError::new_err(format!("character {i}: {e}"))));
                    }
                }
            }
            Ok(added)
        })?;
        Ok(Array1::from(added).into_pyarray(py))
    }

    /// Removes characters by id (one id or a sequence), all or none. Raises
    /// `UnknownCharacterError` (a `KeyError`) for an id not in the simulation.
    fn remove(&self, py: Python<'_>, ids: &Bound<'_, PyAny>) -> Result<()> {
        let ids = self::ids(ids)?;
        self.with(py, |sim| {
            Simulation::indexes(sim, &ids)?;
            for id in ids {
                sim.remove(id);
            }
            Ok(())
        })
    }

    /// The index (row in the array properties) of each id: an int array of the ids'
    /// shape. Raises `UnknownCharacterError` for an id not in the simulation.
    fn index<'py>(
        &self,
        py: Python<'py>,
        ids: &Bound<'py, PyAny>,
    ) -> Result<Bound<'py, PyArray1<usize>>> {
        let ids = self::ids(ids)?;
        let indexes = self.with(py, |sim| Simulation::indexes(sim, &ids))?;
        Ok(Array1::from(indexes).into_pyarray(py))
    }

    /// Runs `steps` steps (each `time_step` seconds) on the simulation's threads, with
    /// the GIL released. Queued obstacle changes are applied at the end of the first
    /// (planned on one thread while the others move the crowd); characters a new
    /// obstacle caught are pushed out to the nearest free point, and those whose corridor
    /// changed plan again. Should the map refuse the queued changes (rare: they were
    /// checked when queued), they are dropped and the error raised after that step.
    #[pyo3(signature = (steps=1))]
    fn step(&self, py: Python<'_>, steps: usize) -> Result<()> {
        Ok(self.with_state(py, |state| {
            if steps > 0 {
                state.queued = None;
            }
            (0..steps).try_for_each(|_| state.sim.step())
        })?)
    }

    /// Queues a polygon obstacle (with optional holes) for the end of the next step and
    /// returns the id it will have. Raises `GeometryError` for a bad polygon (nothing is
    /// queued then).
    #[pyo3(signature = (vertices, holes=None))]
    fn insert_obstacle(
        &self,
        py: Python<'_>,
        vertices: &Bound<'_, PyAny>,
        holes: Option<&Bound<'_, PyAny>>,
    ) -> Result<u32> {
        let obstacle = environment::polygon(vertices, holes)?;
        self.queue(py, Change::Insert(obstacle))
    }

    /// Queues a point obstacle (a pillar) for the end of the next step; returns its id.
    fn insert_point_obstacle(&self, py: Python<'_>, point: &Bound<'_, PyAny>) -> Result<u32> {
        let obstacle = Obstacle::Point(crate::arrays::point(point, "point")?);
        self.queue(py, Change::Insert(obstacle))
    }

    /// Queues a new polygon for obstacle `id` (it keeps its id) for the end of the next
    /// step. Raises `UnknownObstacleError` (a `KeyError`) for an id that is not there
    /// once the queued changes apply, `GeometryError` for a bad polygon.
    #[pyo3(signature = (id, vertices, holes=None))]
    fn move_obstacle(
        &self,
        py: Python<'_>,
        id: u32,
        vertices: &Bound<'_, PyAny>,
        holes: Option<&Bound<'_, PyAny>>,
    ) -> Result<()> {
        let obstacle = environment::polygon(vertices, holes)?;
        self.queue(
            py,
            Change::Move {
                id: ObstacleId(id),
                obstacle,
            },
        )?;
        Ok(())
    }

    /// Queues the removal of obstacle `id` for the end of the next step. Raises
    /// `UnknownObstacleError` for an id that is not there once the queued changes apply.
    fn remove_obstacle(&self, py: Python<'_>, id: u32) -> Result<()> {
        self.queue(py, Change::Remove(ObstacleId(id)))?;
        Ok(())
    }

    /// The obstacles' ids, ascending, as the queued changes will leave them.
    fn obstacle_ids(&self, py: Python<'_>) -> Vec<u32> {
        self.with_state(py, |state| {
            let env = match &state.queued {
                Some(env) => env,
                None => state.sim.map().environment(),
            };
            env.obstacles().map(|(id, _)| id.0).collect()
        })
    }

    /// A copy of the environment the characters walk in now (queued changes not
    /// included until the step that applies them).
    #[getter]
    fn environment(&self, py: Python<'_>) -> Environment {
        Environment {
            env: self.with(py, |sim| sim.map().environment().clone()),
        }
    }

    /// The characters' ids in index order (uint64, shape `(n,)`).
    #[getter]
    fn ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        let ids: Vec<u64> = self.with(py, |sim| sim.crowd().ids().iter().map(|id| id.0).collect());
        Array1::from(ids).into_pyarray(py)
    }

    /// Where the characters' centres are, shape `(n, 2)`.
    #[getter]
    fn positions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        arrays::to_array(py, &self.with(py, |sim| sim.crowd().positions().to_vec()))
    }

    /// The characters' velocities (m/s), shape `(n, 2)`.
    #[getter]
    fn velocities<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        arrays::to_array(py, &self.with(py, |sim| sim.crowd().velocities().to_vec()))
    }

    /// The characters' goals, shape `(n, 2)`.
    #[getter]
    fn goals<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        arrays::to_array(py, &self.with(py, |sim| sim.crowd().goals().to_vec()))
    }

    /// The characters' radii, shape `(n,)`.
    #[getter]
    fn radii<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        Array1::from(self.with(py, |sim| sim.crowd().radii().to_vec())).into_pyarray(py)
    }

    /// Where each character is in its journey (uint8, shape `(n,)`):
    /// `Simulation.WALKING` (0), `ARRIVED` (1) or `BLOCKED` (2: no corridor wide enough
    /// leads to its goal; it tries again after the next obstacle change).
    #[getter]
    fn phases<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        let phases: Vec<u8> = self.with(py, |sim| {
            let code = |p: &Phase| match p {
                Phase::Walking => 0,
                Phase::Arrived => 1,
                Phase::Blocked => 2,
            };
            sim.crowd().phases().iter().map(code).collect()
        });
        Array1::from(phases).into_pyarray(py)
    }

    /// The phase code of a walking character.
    #[classattr]
    const WALKING: u8 = 0;
    /// The phase code of a character within the arrival distance of its goal.
    #[classattr]
    const ARRIVED: u8 = 1;
    /// The phase code of a character that no corridor leads to its goal.
    #[classattr]
    const BLOCKED: u8 = 2;

    /// Simulated seconds so far.
    #[getter]
    fn time(&self, py: Python<'_>) -> f64 {
        self.with(py, |sim| sim.time())
    }

    /// What the run measured so far, as a dict: steps and time, the closest approach
    /// between characters (`min_pairwise_distance`, `min_pairwise_gap`; `inf` before any
    /// pair met) and to walls (`min_wall_gap`, never negative), `collisions`, `plans`,
    /// `replans`, `arrived`, `removed`, travel times and distances walked.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.with(py, |sim| sim.stats().clone());
        let d = PyDict::new(py);
        macro_rules! put {
            ($($field:ident),*) => { $( d.set_item(stringify!($field), s.$field)?; )* };
        }
        put!(
            steps,
            time,
            min_pairwise_distance,
            min_pairwise_gap,
            collisions,
            min_wall_gap,
            wall_pushes,
            undone_moves,
            plans,
            replans,
            invalidated,
            failed_plans,
            changes,
            pushed_out,
            stuck,
            arrived,
            removed,
            travel_time_sum,
            travel_time_max,
            distance_sum,
            walking_time_sum
        );
        Ok(d)
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.with(py, |sim| sim.crowd().len())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        self.with(py, |sim| {
            format!(
                "Simulation(characters={}, time={}, threads={})",
                sim.crowd().len(),
                sim.time(),
                sim.options().threads
            )
        })
    }
}
