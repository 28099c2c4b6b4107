//! Which crowds to run: the built-in scenarios (RVO2's Circle and Blocks with their exact
//! parameters, Circle scaled up, two groups crossing in a corridor, the dungeon's
//! evacuation, crossing the city with or without a door closing) and the versioned JSON
//! file that describes any scenario.

use crate::character::{Character, Phase};
use crate::error::CrowdError;
use crate::options::{Avoidance, Options};
use crate::sim::Simulation;
use corridor_ecm::{Change, Ecm};
use corridor_geom::{Environment, Obstacle, ObstacleId, Point};
use corridor_io::scenes::Scene;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// The version of the scenario file format this crate reads and writes.
pub const SCENARIO_VERSION: u32 = 1;

/// The built-in scenarios.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScenarioKind {
    /// RVO2's Circle: characters evenly on a circle walk to the antipodes (250 on a
    /// circle of radius 200; more characters on a proportionally larger circle, so the
    /// spacing stays 5.03 m).
    Circle,
    /// RVO2's Blocks: four groups of 25 cross between four square blocks.
    Blocks,
    /// Two groups walk head-on through a corridor 100 m × 12 m, radii and speeds mixed.
    Crossing,
    /// The built-in dungeon: characters spread over the rooms walk to the central room
    /// and leave the simulation there.
    Evacuation,
    /// The built-in city: characters walk between random places up to 120 m apart.
    City,
    /// The city, characters crossing a street at (250, 275) from both sides, where a door
    /// closes the street a quarter into the run.
    CityDoor,
    /// The city, characters in groups of 20 that start within a few metres of each
    /// other and walk to one place (goals within a 2 m cell), sharing their plans.
    CityGroups,
}

impl ScenarioKind {
    /// Every built-in scenario.
    pub const ALL: [ScenarioKind; 7] = [
        ScenarioKind::Circle,
        ScenarioKind::Blocks,
        ScenarioKind::Crossing,
        ScenarioKind::Evacuation,
        ScenarioKind::City,
        ScenarioKind::CityDoor,
        ScenarioKind::CityGroups,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ScenarioKind::Circle => "circle",
            ScenarioKind::Blocks => "blocks",
            ScenarioKind::Crossing => "crossing",
            ScenarioKind::Evacuation => "evacuation",
            ScenarioKind::City => "city",
            ScenarioKind::CityDoor => "city-door",
            ScenarioKind::CityGroups => "city-groups",
        }
    }

    /// The scenario of a name (`circle-5k` and `circle-50k` name Circle with 5,000 and
    /// 50,000 characters), with the count that name implies.
    pub fn from_name(name: &str) -> Option<(ScenarioKind, Option<usize>)> {
        match name {
            "circle-5k" => return Some((ScenarioKind::Circle, Some(5_000))),
            "circle-50k" => return Some((ScenarioKind::Circle, Some(50_000))),
            _ => {}
        }
        Self::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .map(|k| (k, None))
    }

    /// How many characters it has unless told otherwise.
    pub fn default_count(self) -> usize {
        match self {
            ScenarioKind::Circle => 250,
            ScenarioKind::Blocks => 100,
            ScenarioKind::Crossing => 200,
            ScenarioKind::Evacuation => 400,
            ScenarioKind::City => 50_000,
            ScenarioKind::CityDoor => 10_000,
            ScenarioKind::CityGroups => 10_000,
        }
    }
}

/// Obstacles inserted or removed when a step begins (planned during that step, applied
/// when it ends).
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The step (0-based) during which the change is planned.
    pub at_step: u64,
    /// The changes, as one update.
    pub changes: Vec<Change>,
}

/// A scenario: a map, options, characters and timed obstacle changes.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Its name.
    pub name: String,
    /// The environment.
    pub environment: Environment,
    /// How it runs.
    pub options: Options,
    /// The characters at the start.
    pub characters: Vec<Character>,
    /// Obstacle changes during the run.
    pub events: Vec<Event>,
    /// How many steps a run takes unless told otherwise.
    pub steps: u64,
}

/// A scenario being run.
pub struct Run {
    /// The simulation.
    pub sim: Simulation,
    events: Vec<Event>,
    /// The steps the scenario asks for.
    pub steps: u64,
}

impl Run {
    /// One step, with the scenario's events of that step.
    pub fn step(&mut self) -> Result<(), CrowdError> {
        let now = self.sim.stats().steps;
        for e in self.events.iter().filter(|e| e.at_step == now) {
            self.sim.change_obstacles(e.changes.iter().cloned());
        }
        self.sim.step()
    }

    /// Whether every character has arrived (or left).
    pub fn all_arrived(&self) -> bool {
        self.sim
            .crowd()
            .phases()
            .iter()
            .all(|&p| p == Phase::Arrived)
    }
}

impl Scenario {
    /// A built-in scenario with `count` characters (its default when `None`).
    ///
    /// # Errors
    /// [`CrowdError::Scenario`] when `count` is 0 or the map has no room for so many.
    pub fn builtin(kind: ScenarioKind, count: Option<usize>) -> Result<Scenario, CrowdError> {
        let n = count.unwrap_or(kind.default_count());
        if n == 0 {
            return Err(CrowdError::Scenario("at least one character".into()));
        }
        match kind {
            ScenarioKind::Circle => Ok(circle(n)),
            ScenarioKind::Blocks => Ok(blocks(n)),
            ScenarioKind::Crossing => crossing(n),
            ScenarioKind::Evacuation => evacuation(n),
            ScenarioKind::City | ScenarioKind::CityDoor | ScenarioKind::CityGroups => city(n, kind),
        }
    }

    /// Builds the simulation and adds the characters (`threads` 0: one per core).
    pub fn start(&self, threads: usize) -> Result<Run, CrowdError> {
        let options = Options {
            threads,
            ..self.options
        };
        let mut sim = Simulation::new(self.environment.clone(), options)?;
        for c in &self.characters {
            sim.add(*c)?;
        }
        Ok(Run {
            sim,
            events: self.events.clone(),
            steps: self.steps,
        })
    }

    /// The obstacles the events insert (a door, for example).
    pub fn inserted_obstacles(&self) -> impl Iterator<Item = (u64, &Obstacle)> {
        self.events.iter().flat_map(|e| {
            e.changes.iter().filter_map(move |c| match c {
                Change::Insert(o) => Some((e.at_step, o)),
                _ => None,
            })
        })
    }

    /// The scenario as versioned JSON (the environment inline in the native format).
    pub fn to_json(&self) -> Result<String, CrowdError> {
        let env = corridor_io::write_json(&self.environment)
            .map_err(|e| CrowdError::Scenario(e.to_string()))?;
        let env: serde_json::Value =
            serde_json::from_str(&env).map_err(|e| CrowdError::Scenario(e.to_string()))?;
        let events = self
            .events
            .iter()
            .map(|e| {
                let mut insert = Vec::new();
                let mut remove = Vec::new();
                for c in &e.changes {
                    match c {
                        Change::Insert(o) => insert.push(obstacle_json(o)),
                        Change::Remove(id) => remove.push(id.0),
                        Change::Move { id, obstacle } => {
                            remove.push(id.0);
                            insert.push(obstacle_json(obstacle));
                        }
                    }
                }
                EventFile {
                    at_step: e.at_step,
                    insert,
                    remove,
                }
            })
            .collect();
        let file = ScenarioFile {
            version: SCENARIO_VERSION,
            name: self.name.clone(),
            environment: EnvironmentSource::Native(env),
            options: self.options,
            steps: self.steps,
            characters: self.characters.clone(),
            events,
        };
        serde_json::to_string_pretty(&file).map_err(|e| CrowdError::Scenario(e.to_string()))
    }

    /// Reads a scenario file; `base` is the folder relative paths are taken from.
    ///
    /// ```
    /// use corridor_crowd::Scenario;
    /// let text = r#"{
    ///   "version": 1, "name": "two", "steps": 100,
    ///   "environment": {"builtin": "empty"},
    ///   "options": {"time_step": 0.1},
    ///   "characters": [
    ///     {"position": [10, 10], "goal": [20, 10], "radius": 0.5},
    ///     {"position": [20, 10], "goal": [10, 10], "radius": 0.4, "max_speed": 1.5}
    ///   ],
    ///   "events": [{"at_step": 50, "insert": [{"point": [15, 30]}]}]
    /// }"#;
    /// let s = Scenario::from_json(text, std::path::Path::new("."))?;
    /// assert_eq!(s.characters.len(), 2);
    /// assert_eq!(s.events[0].at_step, 50);
    /// assert!(Scenario::from_json(&text.replace("\"version\": 1", "\"version\": 9"), ".".as_ref()).is_err());
    /// # Ok::<(), corridor_crowd::CrowdError>(())
    /// ```
    pub fn from_json(text: &str, base: &std::path::Path) -> Result<Scenario, CrowdError> {
        let bad = |e: &dyn std::fmt::Display| CrowdError::Scenario(e.to_string());
        let file: ScenarioFile = serde_json::from_str(text).map_err(|e| bad(&e))?;
        if file.version != SCENARIO_VERSION {
            return Err(CrowdError::Scenario(format!(
                "version {} is not supported (this build reads version {SCENARIO_VERSION})",
                file.version
            )));
        }
        let environment = match file.environment {
            EnvironmentSource::Builtin(name) => Scene::from_name(&name)
                .map(Scene::build)
                .ok_or_else(|| CrowdError::Scenario(format!("no built-in scene {name:?}")))?,
            EnvironmentSource::File(path) => {
                corridor_io::load_environment(base.join(path)).map_err(|e| bad(&e))?
            }
            EnvironmentSource::Native(value) => {
                corridor_io::read_json(&value.to_string()).map_err(|e| bad(&e))?
            }
        };
        let mut events = Vec::new();
        for e in file.events {
            let mut changes: Vec<Change> = e
                .remove
                .iter()
                .map(|&id| Change::Remove(ObstacleId(id)))
                .collect();
            if !e.insert.is_empty() {
                let text = serde_json::Value::Array(e.insert).to_string();
                for record in corridor_io::read_obstacles(&text).map_err(|e| bad(&e))? {
                    environment
                        .validate_obstacle_geometry(&record.obstacle)
                        .map_err(|e| bad(&e))?;
                    changes.push(Change::Insert(record.obstacle));
                }
            }
            events.push(Event {
                at_step: e.at_step,
                changes,
            });
        }
        Ok(Scenario {
            name: file.name,
            environment,
            options: file.options,
            characters: file.characters,
            events,
            steps: file.steps,
        })
    }
}

/// The file form of a scenario.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    version: u32,
    #[serde(default)]
    name: String,
    environment: EnvironmentSource,
    #[serde(default)]
    options: Options,
    #[serde(default = "default_steps")]
    steps: u64,
    characters: Vec<Character>,
    #[serde(default)]
    events: Vec<EventFile>,
}

fn default_steps() -> u64 {
    1000
}

/// Where a scenario's environment comes from.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum EnvironmentSource {
    /// A built-in scene by name.
    Builtin(String),
    /// A file, relative to the scenario file.
    File(String),
    /// The native JSON format, inline.
    Native(serde_json::Value),
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EventFile {
    at_step: u64,
    #[serde(default)]
    insert: Vec<serde_json::Value>,
    #[serde(default)]
    remove: Vec<u32>,
}

fn obstacle_json(o: &Obstacle) -> serde_json::Value {
    let pts = |ps: &[Point]| ps.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>();
    match o {
        Obstacle::Point(p) => serde_json::json!({ "point": [p.x, p.y] }),
        Obstacle::Polyline(ps) => serde_json::json!({ "polyline": pts(ps) }),
        Obstacle::Polygon(poly) => {
            let outer = pts(poly.exterior.vertices());
            let holes: Vec<_> = poly.holes.iter().map(|h| pts(h.vertices())).collect();
            if holes.is_empty() {
                serde_json::json!({ "polygon": outer })
            } else {
                serde_json::json!({ "polygon": outer, "holes": holes })
            }
        }
    }
}

/// RVO2's Circle parameters, scaled: radius 200 for 250 characters.
fn circle(n: usize) -> Scenario {
    let big = 200.0 * n as f64 / 250.0;
    let big = big.max(200.0);
    // RVO2's Circle has no walls; ours (the map's box) stay beyond the obstacle horizon's
    // reach of everyone (radius 1.5 + 2 m/s × 10 s = 21.5 m), so that no wall matters.
    let margin = 25.0;
    let environment =
        Environment::rectangle(Point::splat(-big - margin), Point::splat(big + margin));
    let characters = (0..n)
        .map(|i| {
            let at = Point::from_angle(i as f64 * std::f64::consts::TAU / n as f64) * big;
            Character::new(at, -at, 1.5).with_speeds(1.0, 2.0)
        })
        .collect();
    Scenario {
        name: format!("circle-{n}"),
        environment,
        options: Options {
            avoidance: Avoidance {
                neighbour_distance: 15.0,
                max_neighbours: 10,
                time_horizon: 10.0,
                obstacle_horizon: 10.0,
            },
            // RVO2 breaks Circle's perfect symmetry by float rounding; f64 keeps it, so
            // nudge preferred velocities by at most 1e-4 m/s, as its Blocks does.
            seed: 1,
            ..Options::default()
        },
        characters,
        events: Vec::new(),
        steps: (2.2 * big / 0.25) as u64 + 200,
    }
}

/// RVO2's Blocks: 4 × 25 characters, radius 2, four 30 × 30 blocks; arrival within 20 m
/// as its example checks. `n` rounds to a multiple of 4 (a square group per corner).
/// The indicative routes of Blocks keep this far from the blocks where they can: routes
/// that hug the corners at the radius funnel all four groups onto the same lines.
const BLOCKS_CLEARANCE: f64 = 4.0;

fn blocks(n: usize) -> Scenario {
    let side = ((n as f64 / 4.0).sqrt().ceil() as usize).max(1);
    let reach = 45.0 + 10.0 * side as f64 + 5.0;
    let mut environment = Environment::rectangle(Point::splat(-reach), Point::splat(reach));
    for (sx, sy) in [(-1.0, 1.0), (1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)] {
        let a = Point::new(10.0 * sx, 10.0 * sy);
        let b = Point::new(40.0 * sx, 40.0 * sy);
        environment.insert(Obstacle::rectangle(a.min(b), a.max(b)));
    }
    let mut characters = Vec::new();
    for i in 0..side {
        for j in 0..side {
            let (x, y) = (55.0 + 10.0 * i as f64, 55.0 + 10.0 * j as f64);
            for (sx, sy) in [(1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)] {
                characters.push(
                    Character::new(
                        Point::new(sx * x, sy * y),
                        Point::new(-sx * 75.0, -sy * 75.0),
                        2.0,
                    )
                    .with_speeds(1.0, 2.0)
                    .with_preferred_clearance(BLOCKS_CLEARANCE),
                );
            }
        }
    }
    Scenario {
        name: "blocks".into(),
        environment,
        options: Options {
            avoidance: Avoidance {
                neighbour_distance: 15.0,
                max_neighbours: 10,
                time_horizon: 5.0,
                obstacle_horizon: 5.0,
            },
            arrival_distance: 20.0,
            seed: 1,
            ..Options::default()
        },
        characters,
        events: Vec::new(),
        steps: 2000,
    }
}

/// Pedestrian avoidance: 5 m, 8 neighbours, 3 s ahead of characters, 1 s of walls; two
/// substeps of 0.125 s.
fn pedestrian_options() -> Options {
    Options {
        time_step: 0.25,
        substeps: 2,
        avoidance: Avoidance {
            neighbour_distance: 5.0,
            max_neighbours: 8,
            time_horizon: 3.0,
            obstacle_horizon: 1.0,
        },
        arrival_distance: 1.0,
        seed: 7,
        ..Options::default()
    }
}

/// A pedestrian with a radius and speeds drawn from `rng`.
fn pedestrian(rng: &mut ChaCha8Rng, at: Point, goal: Point) -> Character {
    let radius = rng.random_range(0.22..0.32);
    let speed = rng.random_range(1.1..1.5);
    Character::new(at, goal, radius)
        .with_speeds(speed, speed * 1.4)
        .with_preferred_clearance(radius + rng.random_range(0.1..0.5))
}

fn crossing(n: usize) -> Result<Scenario, CrowdError> {
    let (length, width) = (100.0, 12.0);
    let environment = Environment::rectangle(Point::ZERO, Point::new(length, width));
    let mut rng = ChaCha8Rng::seed_from_u64(0xC0551);
    let ecm = Ecm::build(&environment).map_err(|e| CrowdError::Map(e.into()))?;
    let mut placer = Placer::new(&ecm, 0.35);
    let mut characters = Vec::new();
    for k in 0..n {
        let east = k % 2 == 0;
        let x_range = if east { 2.0..30.0 } else { 70.0..98.0 };
        let goal_x = if east { length - 3.0 } else { 3.0 };
        let at = placer
            .place(&mut rng, |r| {
                Point::new(
                    r.random_range(x_range.clone()),
                    r.random_range(1.0..width - 1.0),
                )
            })
            .ok_or_else(|| CrowdError::Scenario(format!("no room for {n} characters")))?;
        let goal = Point::new(goal_x, rng.random_range(2.0..width - 2.0));
        characters.push(pedestrian(&mut rng, at, goal));
    }
    Ok(Scenario {
        name: "crossing".into(),
        environment,
        options: pedestrian_options(),
        characters,
        events: Vec::new(),
        steps: 600,
    })
}

fn evacuation(n: usize) -> Result<Scenario, CrowdError> {
    let environment = Scene::Dungeon.build();
    let ecm = Ecm::build(&environment).map_err(|e| CrowdError::Map(e.into()))?;
    let exit = Point::new(50.0, 50.0);
    let exit = free_near(&ecm, exit, 1.0)
        .ok_or_else(|| CrowdError::Scenario("no free point near the dungeon's centre".into()))?;
    let component = component_of(&ecm, exit);
    let mut rng = ChaCha8Rng::seed_from_u64(0xE7AC);
    let mut placer = Placer::new(&ecm, 0.35);
    let mut characters = Vec::new();
    for _ in 0..n {
        let at = placer
            .place_in(&mut rng, component, |r| {
                Point::new(r.random_range(1.0..99.0), r.random_range(1.0..99.0))
            })
            .ok_or_else(|| CrowdError::Scenario(format!("no room for {n} characters")))?;
        characters.push(pedestrian(&mut rng, at, exit));
    }
    Ok(Scenario {
        name: "evacuation".into(),
        environment,
        options: Options {
            remove_arrived: true,
            arrival_distance: 3.0,
            ..pedestrian_options()
        },
        characters,
        events: Vec::new(),
        steps: 1200,
    })
}

/// The door of the city scenario: across the street between blocks 4 and 5 (x 245–255)
/// at y = 275, overlapping the buildings on either side.
fn city_door() -> Obstacle {
    Obstacle::rectangle(Point::new(243.0, 274.0), Point::new(257.0, 276.0))
}

/// How far from its start a city pedestrian's goal lies at most: planning long trips on
/// the city costs the ECM planner up to a quarter of a second each (docs/BENCHMARKS.md).
const CITY_TRIP: f64 = 120.0;

/// Characters per group in the city with groups.
const CITY_GROUP: usize = 20;

fn city(n: usize, kind: ScenarioKind) -> Result<Scenario, CrowdError> {
    let (door, groups) = (
        kind == ScenarioKind::CityDoor,
        kind == ScenarioKind::CityGroups,
    );
    let environment = Scene::City.build();
    let ecm = Ecm::build(&environment).map_err(|e| CrowdError::Map(e.into()))?;
    // The streets' component (the courtyards are closed off).
    let component = component_of(&ecm, Point::new(250.0, 250.0));
    let mut rng = ChaCha8Rng::seed_from_u64(0xC17E5);
    let mut placer = Placer::new(&ecm, 0.35);
    let mut goals = Placer::new(&ecm, 0.35);
    let mut characters: Vec<Character> = Vec::new();
    // With the door: everyone starts near it (within 60 m, more for large crowds so
    // that they fit), west or east, and walks to the mirrored place on the other side;
    // without: anywhere.
    let door_at = Point::new(250.0, 275.0);
    let (centre, spread) = if door {
        (door_at, (n as f64).sqrt().max(60.0))
    } else {
        (Point::splat(250.0), 249.0)
    };
    let box_around = |c: Point, half: f64, r: &mut ChaCha8Rng| {
        Point::new(
            r.random_range((c.x - half).max(1.0)..(c.x + half).min(499.0)),
            r.random_range((c.y - half).max(1.0)..(c.y + half).min(499.0)),
        )
    };
    let no_room = |what: &str| CrowdError::Scenario(format!("no room for {n} {what}"));
    for k in 0..n {
        // A group's first member is placed as anyone; the others within 4 m of it,
        // with goals in its goal's 2 m cell.
        let first = (groups && k % CITY_GROUP != 0).then(|| characters[k - k % CITY_GROUP]);
        // Near the group's first member, else (a cramped spot) a little further, else
        // anywhere.
        let near = first.map_or(Vec::new(), |f| vec![(f.position, 4.0), (f.position, 8.0)]);
        let at = near
            .into_iter()
            .chain([(centre, spread)])
            .find_map(|(c, half)| placer.place_in(&mut rng, component, |r| box_around(c, half, r)))
            .ok_or_else(|| no_room("characters"))?;
        let goal = match first {
            Some(f) => {
                let cell = (f.goal / 2.0).floor() * 2.0;
                (0..1000)
                    .map(|_| {
                        cell + Point::new(
                            rng.random_range(0.35..1.65),
                            rng.random_range(0.35..1.65),
                        )
                    })
                    .find(|&q| ecm.clearance(q).is_ok_and(|c| c >= 0.4))
                    .unwrap_or(f.goal)
            }
            None => goals
                .place_in(&mut rng, component, |r| {
                    if door {
                        // Mirrored across the door's street.
                        let q = box_around(at, 20.0, r);
                        Point::new(2.0 * door_at.x - q.x, q.y)
                            .clamp(Point::splat(1.0), Point::splat(499.0))
                    } else {
                        box_around(at, CITY_TRIP / 2.0_f64.sqrt(), r)
                    }
                })
                .ok_or_else(|| no_room("goals"))?,
        };
        characters.push(pedestrian(&mut rng, at, goal));
    }
    let steps = 400;
    let events = if door {
        vec![Event {
            at_step: steps / 4,
            changes: vec![Change::Insert(city_door())],
        }]
    } else {
        Vec::new()
    };
    Ok(Scenario {
        name: kind.name().into(),
        environment,
        options: Options {
            share_plans: groups,
            ..pedestrian_options()
        },
        characters,
        events,
        steps,
    })
}

fn component_of(ecm: &Ecm, p: Point) -> Option<corridor_ecm::ComponentId> {
    let cell = ecm.locate_free(p).ok()?;
    Some(ecm.edge(cell.edge)?.component)
}

/// A free point near `p` with clearance at least `clearance`.
fn free_near(ecm: &Ecm, p: Point, clearance: f64) -> Option<Point> {
    (0..200).find_map(|k| {
        let q = p + Point::from_angle(k as f64 * 2.4) * (k as f64 * 0.1);
        (ecm.clearance(q).ok()? >= clearance).then_some(q)
    })
}

/// Random places where a pedestrian's disc (up to `radius`) fits and overlaps no
/// earlier one.
struct Placer<'a> {
    ecm: &'a Ecm,
    radius: f64,
    taken: FxHashMap<(i64, i64), Vec<Point>>,
}

impl<'a> Placer<'a> {
    fn new(ecm: &'a Ecm, radius: f64) -> Self {
        Placer {
            ecm,
            radius,
            taken: FxHashMap::default(),
        }
    }

    fn cell(&self, p: Point) -> (i64, i64) {
        let s = 2.0 * self.radius;
        ((p.x / s).floor() as i64, (p.y / s).floor() as i64)
    }

    fn place(
        &mut self,
        rng: &mut ChaCha8Rng,
        sample: impl FnMut(&mut ChaCha8Rng) -> Point,
    ) -> Option<Point> {
        self.place_in(rng, None, sample)
    }

    fn place_in(
        &mut self,
        rng: &mut ChaCha8Rng,
        component: Option<corridor_ecm::ComponentId>,
        mut sample: impl FnMut(&mut ChaCha8Rng) -> Point,
    ) -> Option<Point> {
        'tries: for _ in 0..10_000 {
            let p = sample(rng);
            if self
                .ecm
                .clearance(p)
                .map_or(true, |c| c < self.radius + 0.05)
            {
                continue;
            }
            if component.is_some() && component_of(self.ecm, p) != component {
                continue;
            }
            let (cx, cy) = self.cell(p);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(list) = self.taken.get(&(cx + dx, cy + dy)) {
                        if list.iter().any(|q| q.distance(p) < 2.0 * self.radius) {
                            continue 'tries;
                        }
                    }
                }
            }
            self.taken.entry((cx, cy)).or_default().push(p);
            return Some(p);
        }
        None
    }
}
