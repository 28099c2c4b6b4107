//! The server's state ([`App`]): which environments there are (files given on the
//! command line, the built-in scenes, files dropped on the page), their shared maps built
//! on first use, and the answer to each message. Uploaded maps are kept in bounded
//! numbers ([`MAX_UPLOADS`], [`MAX_LAYERED_UPLOADS`]), so a long-running server's memory
//! stays bounded.

use crate::layered::LayeredScene;
use crate::protocol::{self, EditRequest, Request, ServeError};
use crate::upload::{read_upload, Uploaded};
use crate::view;
use crate::world::World;
use corridor_ecm::{Change, PathQuery, Planner, ViewLimits};
use corridor_geom::{Environment, LayeredEnvironment, Point};
use corridor_io::scenes::Scene;
use rand::Rng;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Instant;
use tokio::sync::broadcast;

/// Most environments uploaded from the page kept at once (the oldest goes first).
pub const MAX_UPLOADS: usize = 8;
/// Most layered scenes uploaded from the page kept at once (the least recently used goes
/// first; its ECMs and planners are freed when the last query on it ends).
pub const MAX_LAYERED_UPLOADS: usize = 4;
/// Most crowds running at once, over all connections.
pub const MAX_CROWDS: usize = 8;
/// Random candidates tried by `random_point`.
const RANDOM_TRIES: usize = 200;

/// An update, as every client of its environment hears of it.
#[derive(Clone, Debug)]
pub struct Event {
    /// The environment.
    pub env: Arc<str>,
    /// The connection that asked for it (it already has the answer).
    pub origin: u64,
    /// The `updated` message.
    pub text: Arc<str>,
    /// The map's version after the update.
    pub version: u64,
    /// The changes as applied (for the crowds that walk on copies of the map).
    pub changes: Arc<[Change]>,
}

/// An answer: a JSON value, or a cached JSON text (the map).
enum Answer {
    Value(Value),
    Text(Arc<str>),
}

/// An environment and its map, built on first use.
struct Slot {
    source: Mutex<Option<Environment>>,
    world: OnceLock<Result<Arc<World>, String>>,
}

struct Entry {
    name: String,
    uploaded: bool,
    slot: Arc<Slot>,
}

/// A layered scene, built on first use (an uploaded one at once).
struct LayeredEntry {
    name: String,
    uploaded: bool,
    /// When it was last asked for (the tick of [`App::clock`]).
    used: AtomicU64,
    slot: Arc<LayeredSlot>,
}

/// A layered scene's floors (given on the command line; `None` for a built-in scene,
/// made from its name) and the scene, built on first use.
struct LayeredSlot {
    source: Mutex<Option<LayeredEnvironment>>,
    scene: OnceLock<Result<Arc<LayeredScene>, String>>,
}

impl LayeredSlot {
    fn new(source: Option<LayeredEnvironment>) -> Arc<LayeredSlot> {
        Arc::new(LayeredSlot {
            source: Mutex::new(source),
            scene: OnceLock::new(),
        })
    }
}

/// The server's state, shared by every connection.
pub struct App {
    entries: RwLock<Vec<Entry>>,
    /// Locked after `entries` when both are.
    layered: RwLock<Vec<LayeredEntry>>,
    /// Ticks at every use of a layered scene (for least-recently-used eviction).
    clock: AtomicU64,
    /// Crowds running (each connection may run one); bounded by [`MAX_CROWDS`].
    pub(crate) crowds: Arc<tokio::sync::Semaphore>,
    planners: Arc<Planners>,
    events: broadcast::Sender<Event>,
}

/// Plans off the async threads, as many at once as there are cores, each with a planner
/// from a shared pool: a planner's caches (the map's adjacency, edge costs) are rebuilt
/// for every new version of a map, so few planners, kept warm, beat one per thread; and
/// a long query never holds up the connections' tasks.
struct Planners {
    pool: Mutex<Vec<Planner>>,
    permits: tokio::sync::Semaphore,
}

impl Planners {
    fn new() -> Planners {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Planners {
            pool: Mutex::new(Vec::new()),
            permits: tokio::sync::Semaphore::new(cores),
        }
    }

    /// Runs `job` with a planner on a blocking thread.
    async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        job: impl FnOnce(&mut Planner) -> T + Send + 'static,
    ) -> Result<T, ServeError> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|e| ServeError::Internal(e.to_string()))?;
        let planners = self.clone();
        tokio::task::spawn_blocking(move || {
            let taken = planners
                .pool
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .pop();
            let mut planner = taken.unwrap_or_default();
            let result = job(&mut planner);
            planners
                .pool
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(planner);
            result
        })
        .await
        .map_err(|e| ServeError::Internal(format!("a query failed inside: {e}")))
    }
}

impl App {
    /// The environments `given` (name and environment) followed by the four built-in
    /// scenes, and the built-in layered scenes.
    ///
    /// ```
    /// let app = corridor_serve::App::new(vec![]);
    /// assert_eq!(app.names(), ["empty", "military", "dungeon", "city"]);
    /// assert_eq!(app.layered_names(), ["layers"]);
    /// ```
    pub fn new(given: Vec<(String, Environment)>) -> App {
        let mut entries: Vec<Entry> = Vec::new();
        let builtin = Scene::ALL.map(|s| (s.name().to_owned(), s.build()));
        for (name, env) in given.into_iter().chain(builtin) {
            let name = unique_name(|n| entries.iter().any(|e| e.name == n), &name);
            entries.push(Entry {
                name,
                uploaded: false,
                slot: Arc::new(Slot {
                    source: Mutex::new(Some(env)),
                    world: OnceLock::new(),
                }),
            });
        }
        let layered = corridor_io::scenes::LAYERED
            .iter()
            .map(|name| LayeredEntry {
                name: (*name).to_owned(),
                uploaded: false,
                used: AtomicU64::new(0),
                slot: LayeredSlot::new(None),
            })
            .collect();
        App {
            entries: RwLock::new(entries),
            layered: RwLock::new(layered),
            clock: AtomicU64::new(0),
            crowds: Arc::new(tokio::sync::Semaphore::new(MAX_CROWDS)),
            planners: Arc::new(Planners::new()),
            events: broadcast::channel(256).0,
        }
    }

    /// Adds layered scenes (name and floors, from files given on the command line) before
    /// the built-in ones, each built on first use.
    ///
    /// ```
    /// let app = corridor_serve::App::new(vec![])
    ///     .with_layered(vec![("house.json".into(), corridor_io::scenes::layers())]);
    /// assert_eq!(app.layered_names(), ["house.json", "layers"]);
    /// ```
    pub fn with_layered(self, given: Vec<(String, LayeredEnvironment)>) -> App {
        {
            let entries = self.read_entries();
            let mut layered = self.layered.write().unwrap_or_else(|p| p.into_inner());
            for (at, (name, world)) in given.into_iter().enumerate() {
                let name = unique_name(
                    |n| entries.iter().any(|e| e.name == n) || layered.iter().any(|e| e.name == n),
                    &name,
                );
                let entry = LayeredEntry {
                    name,
                    uploaded: false,
                    used: AtomicU64::new(0),
                    slot: LayeredSlot::new(Some(world)),
                };
                layered.insert(at, entry);
            }
        }
        self
    }

    /// The environments' names, in the page's order (the layered scenes apart).
    pub fn names(&self) -> Vec<String> {
        self.read_entries().iter().map(|e| e.name.clone()).collect()
    }

    /// The layered scenes' names.
    pub fn layered_names(&self) -> Vec<String> {
        self.read_layered().iter().map(|e| e.name.clone()).collect()
    }

    /// How many layered scenes dropped on the page are kept (at most
    /// [`MAX_LAYERED_UPLOADS`]).
    pub fn uploaded_layered_count(&self) -> usize {
        self.read_layered().iter().filter(|e| e.uploaded).count()
    }

    fn read_layered(&self) -> std::sync::RwLockReadGuard<'_, Vec<LayeredEntry>> {
        self.layered.read().unwrap_or_else(|p| p.into_inner())
    }

    /// A layered scene, built (off the async threads) on first use; `None` when `name`
    /// is not one.
    pub async fn layered(&self, name: &str) -> Option<Result<Arc<LayeredScene>, ServeError>> {
        let slot = {
            let list = self.read_layered();
            let entry = list.iter().find(|e| e.name == name)?;
            let tick = self.clock.fetch_add(1, Ordering::Relaxed) + 1;
            entry.used.store(tick, Ordering::Relaxed);
            entry.slot.clone()
        };
        if let Some(built) = slot.scene.get() {
            return Some(built.clone().map_err(ServeError::Build));
        }
        let name = name.to_owned();
        let source = slot.clone();
        let built = tokio::task::spawn_blocking(move || {
            let given = source
                .source
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take();
            let world = given
                .or_else(|| corridor_io::scenes::layered_from_name(&name))
                .ok_or_else(|| format!("no layered scene named '{name}'"))?;
            LayeredScene::build(&name, world)
                .map(Arc::new)
                .map_err(|e| e.to_string())
        })
        .await;
        Some(match built {
            Ok(result) => slot
                .scene
                .get_or_init(|| result)
                .clone()
                .map_err(ServeError::Build),
            Err(e) => Err(ServeError::Internal(e.to_string())),
        })
    }

    /// A layered scene, or the reason there is none of this name.
    async fn scene(&self, name: &str) -> Result<Arc<LayeredScene>, ServeError> {
        self.layered(name).await.unwrap_or_else(|| {
            Err(ServeError::Unsupported(format!(
                "'{name}' is not a layered scene"
            )))
        })
    }

    /// Listens to the updates of every environment.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    fn read_entries(&self) -> std::sync::RwLockReadGuard<'_, Vec<Entry>> {
        self.entries.read().unwrap_or_else(|p| p.into_inner())
    }

    /// The shared map of an environment, built (off the async threads) on first use.
    pub async fn world(&self, name: &str) -> Result<Arc<World>, ServeError> {
        let slot = self
            .read_entries()
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.slot.clone());
        let Some(slot) = slot else {
            if self.read_layered().iter().any(|e| e.name == name) {
                return Err(ServeError::Unsupported(format!(
                    "'{name}' is a layered scene: it has floors (layered_path, a layer for \
                     random_point and visibility) and takes no updates or crowds"
                )));
            }
            return Err(ServeError::UnknownEnvironment(name.to_owned()));
        };
        if let Some(built) = slot.world.get() {
            return built.clone().map_err(ServeError::Build);
        }
        let name = name.to_owned();
        let built = tokio::task::spawn_blocking(move || {
            slot.world
                .get_or_init(|| {
                    let env = slot
                        .source
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .take()
                        .ok_or("the environment was lost while building")?;
                    World::build(&name, env)
                        .map(Arc::new)
                        .map_err(|e| e.to_string())
                })
                .clone()
        })
        .await
        .map_err(|e| ServeError::Internal(e.to_string()))?;
        built.map_err(ServeError::Build)
    }

    /// Answers one message from connection `origin` with one message (crowd messages
    /// need a connection: see [`crate::Session`]).
    pub async fn handle(&self, text: &str, origin: u64) -> String {
        let (id, request) = protocol::parse(text);
        self.respond(id, request, origin).await
    }

    /// Answers one parsed request.
    pub(crate) async fn respond(
        &self,
        id: Option<u64>,
        request: Result<Request, ServeError>,
        origin: u64,
    ) -> String {
        let answer = match request {
            Ok(request) => self.answer(request, origin).await,
            Err(e) => Err(e),
        };
        match answer {
            Ok(Answer::Value(v)) => view::with_id(v, id).to_string(),
            Ok(Answer::Text(text)) => match id {
                // The cached map text is an object: splice the id in after its brace.
                Some(id) => format!("{{\"id\":{id},{}", &text[1..]),
                None => text.to_string(),
            },
            Err(e) => view::error(id, &e).to_string(),
        }
    }

    async fn answer(&self, request: Request, origin: u64) -> Result<Answer, ServeError> {
        let value = match request {
            Request::List => self.list(),
            Request::Map { env } => {
                if let Some(scene) = self.layered(&env).await {
                    return Ok(Answer::Text(scene?.map_view()));
                }
                let world = self.world(&env).await?;
                let snapshot = world.snapshot();
                let text = snapshot
                    .view
                    .get_or_init(|| view::map(&env, &snapshot).to_string().into())
                    .clone();
                return Ok(Answer::Text(text));
            }
            Request::Path {
                env,
                from,
                to,
                radius,
                clearance,
            } => {
                let world = self.world(&env).await?;
                let snapshot = world.snapshot();
                let query = PathQuery::new(from, to)
                    .with_radius(radius)
                    .with_preferred_clearance(clearance);
                let (version, env2) = (snapshot.version, env.clone());
                self.planners
                    .run(move |planner| {
                        let start = Instant::now();
                        let path = planner.plan(&snapshot.ecm, &query)?;
                        Ok::<_, ServeError>(view::path(&env2, version, &path, start.elapsed()))
                    })
                    .await??
            }
            Request::RandomPoint {
                env,
                radius,
                from,
                layer: Some(layer),
            } => {
                let scene = self.scene(&env).await?;
                let point = self
                    .planners
                    .run(move |_| scene.random_point(layer, radius, from))
                    .await??;
                json!({"type": "point", "env": env, "layer": layer, "point": [point.x, point.y]})
            }
            Request::RandomPoint {
                env, radius, from, ..
            } => {
                let world = self.world(&env).await?;
                let point = self
                    .planners
                    .run(move |planner| random_point(&world, planner, radius, from))
                    .await??;
                json!({"type": "point", "env": env, "point": [point.x, point.y]})
            }
            Request::LayeredPath {
                env,
                from,
                to,
                radius,
                clearance,
            } => {
                let scene = self.scene(&env).await?;
                self.planners
                    .run(move |_| scene.plan(from, to, radius, clearance))
                    .await??
            }
            Request::Visibility {
                env,
                at,
                layer,
                range,
                cone,
            } => {
                let mut limits = ViewLimits::new();
                if let Some(range) = range {
                    limits = limits.with_range(range);
                }
                if let Some((dir, opening)) = cone {
                    limits = limits.with_cone(dir, opening);
                }
                match layer {
                    Some(layer) => {
                        let scene = self.scene(&env).await?;
                        self.planners
                            .run(move |_| {
                                let start = Instant::now();
                                let seen =
                                    scene.floor(layer)?.visibility_polygon_within(at, &limits)?;
                                let mut v = view::visibility(&env, 0, &seen, start.elapsed());
                                v["layer"] = json!(layer);
                                Ok::<_, ServeError>(v)
                            })
                            .await??
                    }
                    None => {
                        let snapshot = self.world(&env).await?.snapshot();
                        self.planners
                            .run(move |_| {
                                let start = Instant::now();
                                let seen = snapshot.ecm.visibility_polygon_within(at, &limits)?;
                                Ok::<_, ServeError>(view::visibility(
                                    &env,
                                    snapshot.version,
                                    &seen,
                                    start.elapsed(),
                                ))
                            })
                            .await??
                    }
                }
            }
            Request::Update { env, edits } => self.update(&env, edits, origin).await?,
            Request::Upload { name, text } => self.upload(&name, text).await?,
            Request::CrowdStart { .. } | Request::CrowdGoal { .. } | Request::CrowdStop => {
                return Err(ServeError::Unsupported(
                    "crowd messages need a connection (the WebSocket)".into(),
                ))
            }
        };
        Ok(Answer::Value(value))
    }

    fn list(&self) -> Value {
        let entries = self.read_entries();
        let list: Vec<Value> = entries
            .iter()
            .map(|e| {
                let version = e
                    .slot
                    .world
                    .get()
                    .and_then(|w| w.as_ref().ok())
                    .map(|w| w.snapshot().version);
                json!({"name": e.name, "uploaded": e.uploaded, "version": version})
            })
            .chain(self.read_layered().iter().map(
                |e| json!({"name": e.name, "uploaded": e.uploaded, "version": 0, "layered": true}),
            ))
            .collect();
        json!({"type": "environments", "environments": list})
    }

    async fn update(
        &self,
        env: &str,
        edits: Vec<EditRequest>,
        origin: u64,
    ) -> Result<Value, ServeError> {
        let world = self.world(env).await?;
        let outcome = tokio::task::spawn_blocking(move || {
            let result = world.update(&edits);
            result.map(|o| (world, o))
        })
        .await
        .map_err(|e| ServeError::Internal(format!("the update failed inside: {e}")))?;
        let (_, outcome) = outcome?;
        let message = view::updated(env, &outcome);
        // Nobody listening is fine.
        let _ = self.events.send(Event {
            env: env.into(),
            origin,
            text: message.to_string().into(),
            version: outcome.version,
            changes: outcome.changes.clone(),
        });
        Ok(message)
    }

    /// A dropped file becomes a new environment, or a new layered scene (built now, off
    /// the async threads, so that a bad file is refused at once). The oldest upload (the
    /// least recently used layered one) makes room when there are too many.
    async fn upload(&self, file_name: &str, text: String) -> Result<Value, ServeError> {
        let base = Path::new(file_name)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("upload")
            .to_owned();
        let name_for_reader = base.clone();
        let built =
            tokio::task::spawn_blocking(move || match read_upload(&name_for_reader, &text)? {
                Uploaded::Flat(env) => {
                    World::build(&name_for_reader, env).map(|w| Built::Flat(Box::new(w)))
                }
                Uploaded::Layered(world) => corridor_ecm::LayeredEcm::build(&world)
                    .map(Built::Layered)
                    .map_err(|e| ServeError::Build(format!("{name_for_reader}: {e}"))),
            })
            .await
            .map_err(|e| ServeError::Internal(e.to_string()))??;
        let mut entries = self.entries.write().unwrap_or_else(|p| p.into_inner());
        let mut layered = self.layered.write().unwrap_or_else(|p| p.into_inner());
        let name = unique_name(
            |n| entries.iter().any(|e| e.name == n) || layered.iter().any(|e| e.name == n),
            &base,
        );
        match built {
            Built::Flat(world) => {
                if entries.iter().filter(|e| e.uploaded).count() >= MAX_UPLOADS {
                    if let Some(oldest) = entries.iter().position(|e| e.uploaded) {
                        entries.remove(oldest);
                    }
                }
                let slot = Slot {
                    source: Mutex::new(None),
                    world: OnceLock::new(),
                };
                let _ = slot.world.set(Ok(Arc::new(*world)));
                entries.push(Entry {
                    name: name.clone(),
                    uploaded: true,
                    slot: Arc::new(slot),
                });
            }
            Built::Layered(ecm) => {
                if layered.iter().filter(|e| e.uploaded).count() >= MAX_LAYERED_UPLOADS {
                    let unused = layered
                        .iter()
                        .enumerate()
                        .filter(|(_, e)| e.uploaded)
                        .min_by_key(|(_, e)| e.used.load(Ordering::Relaxed))
                        .map(|(i, _)| i);
                    if let Some(i) = unused {
                        layered.remove(i);
                    }
                }
                let slot = LayeredSlot::new(None);
                let _ = slot.scene.set(Ok(Arc::new(LayeredScene::new(&name, ecm))));
                layered.push(LayeredEntry {
                    name: name.clone(),
                    uploaded: true,
                    used: AtomicU64::new(self.clock.fetch_add(1, Ordering::Relaxed) + 1),
                    slot,
                });
            }
        }
        drop((entries, layered));
        let mut list = self.list();
        list["type"] = json!("uploaded");
        list["env"] = json!(name);
        Ok(list)
    }
}

/// An uploaded file's map, built.
enum Built {
    Flat(Box<World>),
    Layered(corridor_ecm::LayeredEcm),
}

/// `name`, or `name (2)`, `name (3)`... if taken.
fn unique_name(taken: impl Fn(&str) -> bool, name: &str) -> String {
    if !taken(name) {
        return name.to_owned();
    }
    (2..)
        .map(|k| format!("{name} ({k})"))
        .find(|n| !taken(n))
        .expect("some suffix is free")
}

/// A random point with clearance at least `radius`, reachable from `from` when given.
fn random_point(
    world: &World,
    planner: &mut Planner,
    radius: f64,
    from: Option<Point>,
) -> Result<Point, ServeError> {
    let snapshot = world.snapshot();
    let bounds = snapshot.env.bounds();
    let mut rng = rand::rng();
    for _ in 0..RANDOM_TRIES {
        let p = Point::new(
            rng.random_range(bounds.min.x..=bounds.max.x),
            rng.random_range(bounds.min.y..=bounds.max.y),
        );
        if !snapshot.ecm.clearance(p).is_ok_and(|c| c >= radius) {
            continue;
        }
        let reachable = from.is_none_or(|from| {
            let query = PathQuery::new(from, p).with_radius(radius);
            planner.plan(&snapshot.ecm, &query).is_ok()
        });
        if reachable {
            return Ok(p);
        }
    }
    Err(ServeError::BadRequest(format!(
        "no free point with clearance {radius} found in {RANDOM_TRIES} tries"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use corridor_geom::{HeightPlane, Layer, LayeredEnvironment, Segment};

    /// A hall and a landing `k` units wide joined by a doorway, as a layered JSON file.
    fn house(k: usize) -> String {
        let mut world = LayeredEnvironment::new();
        let w = 6.0 + k as f64;
        let hall = world.add_layer(Layer::new(
            "hall",
            Environment::rectangle(Point::new(0.0, 0.0), Point::new(w, 6.0)),
            HeightPlane::flat(0.0),
        ));
        let landing = world.add_layer(Layer::new(
            "landing",
            Environment::rectangle(Point::new(w, 0.0), Point::new(w + 4.0, 6.0)),
            HeightPlane::flat(1.0),
        ));
        world
            .connect(
                hall,
                landing,
                Segment::new(Point::new(w, 2.0), Point::new(w, 4.0)),
            )
            .unwrap();
        corridor_io::write_layered_json(&world).unwrap()
    }

    async fn ask(app: &App, message: Value) -> Value {
        serde_json::from_str(&app.handle(&message.to_string(), 0).await).unwrap()
    }

    /// Uploads past the bound push out the least recently used scene, and its ECMs and
    /// planners are freed (their weak handles die), so memory stays bounded.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn layered_uploads_are_bounded_and_evicted_ones_are_freed() {
        let app = App::new(vec![]);
        let mut handles = Vec::new();
        let uploads = MAX_LAYERED_UPLOADS + 3;
        for k in 0..uploads {
            let answer = ask(
                &app,
                json!({"type": "upload", "name": format!("house{k}.json"), "text": house(k)}),
            )
            .await;
            assert_eq!(answer["type"], "uploaded", "{answer}");
            let name = answer["env"].as_str().unwrap().to_owned();
            // A path across the doorway: the scene keeps a planner that shares its ECMs.
            let w = 6.0 + k as f64;
            let path = ask(
                &app,
                json!({"type": "layered_path", "env": name, "from_layer": 0, "from": [1.0, 3.0],
                       "to_layer": 1, "to": [w + 3.0, 3.0], "radius": 0.2}),
            )
            .await;
            assert_eq!(path["type"], "layered_path", "{path}");
            assert!(
                (path["length"].as_f64().unwrap() - (w + 2.0)).abs() < 0.05,
                "{path}"
            );
            let scene = app.layered(&name).await.unwrap().unwrap();
            handles.push((name, scene.ecm_weak()));
            drop(scene);
            if k >= 1 {
                // The first upload is used again and again: the others go first.
                let map = ask(&app, json!({"type": "map", "env": handles[0].0})).await;
                assert_eq!(map["layered"], true);
            }
            assert_eq!(
                app.uploaded_layered_count(),
                (k + 1).min(MAX_LAYERED_UPLOADS)
            );
        }
        let names = app.layered_names();
        let alive: Vec<bool> = handles.iter().map(|(_, w)| w.strong_count() > 0).collect();
        for ((name, _), alive) in handles.iter().zip(&alive) {
            assert_eq!(
                names.contains(name),
                *alive,
                "{name}: listed iff its ECMs live"
            );
        }
        // The first one was used after each other one: those went first.
        assert_eq!(
            alive,
            [true, false, false, false, true, true, true],
            "{names:?}"
        );
        let gone = ask(&app, json!({"type": "map", "env": handles[1].0})).await;
        assert_eq!(gone["kind"], "unknown_environment", "{gone}");
    }

    /// A Recast level dropped on the page becomes a layered scene with floors and
    /// connections; a broken one gets a load error.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_dropped_obj_level_opens_floor_by_floor() {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/recast/nav_test.obj");
        let text = std::fs::read_to_string(data).unwrap();
        let app = App::new(vec![]);
        let answer = ask(
            &app,
            json!({"type": "upload", "name": "nav_test.obj", "text": text}),
        )
        .await;
        assert_eq!(answer["env"], "nav_test.obj", "{answer}");
        let map = ask(&app, json!({"type": "map", "env": "nav_test.obj"})).await;
        assert_eq!(map["layered"], true);
        assert!(map["layers"].as_array().unwrap().len() > 1);
        assert!(!map["connections"].as_array().unwrap().is_empty());
        let bad = ask(
            &app,
            json!({"type": "upload", "name": "x.obj", "text": "v 1 2\nf 1 2 3\n"}),
        )
        .await;
        assert_eq!(bad["kind"], "load", "{bad}");
    }
}
