//! A layered scene (floors joined by staircases) as the page sees it: every floor's map,
//! the connections between floors, paths that cross floors (cut into one piece per
//! floor), random points and visibility on one floor. Layered scenes are read-only: the
//! library has no dynamic updates on layers yet. A scene owns its ECMs and its planners,
//! so dropping it (an uploaded scene pushed out of the server's list) frees them.

use crate::protocol::ServeError;
use crate::view;
use corridor_ecm::LayeredPath;
use corridor_ecm::{Ecm, LayeredEcm, LayeredPlanner, PathQuery, Planner};
use corridor_geom::{LayerId, LayeredEnvironment, Point};
use rand::Rng;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// Random candidates tried by [`LayeredScene::random_point`].
const RANDOM_TRIES: usize = 200;
/// Layered planners kept (one per radius; placing a radius's crossing samples and
/// measuring between them takes about 0.4 s on `builtin:layers`, a query a few ms).
const PLANNERS_KEPT: usize = 4;

/// A layered planner borrows its ECMs.
type Borrowing<'a> = LayeredPlanner<'a>;

self_cell::self_cell!(
    /// A layered planner kept with (a share of) the ECMs it borrows, so that the scene
    /// can keep planners without living for the whole process.
    struct KeptPlanner {
        owner: Arc<LayeredEcm>,
        #[covariant]
        dependent: Borrowing,
    }
);

/// One layered scene and its per-floor ECMs (built once, never changed).
pub struct LayeredScene {
    name: String,
    ecm: Arc<LayeredEcm>,
    /// The planners of the last radii asked for, newest last.
    planners: Mutex<Vec<(u64, Arc<KeptPlanner>)>>,
    /// The map message, made for the first client that asks.
    view: OnceLock<Arc<str>>,
}

impl LayeredScene {
    /// Builds every floor's ECM.
    ///
    /// ```
    /// let scene = corridor_serve::LayeredScene::build("layers", corridor_io::scenes::layers()).unwrap();
    /// assert_eq!(scene.ecm().layers().len(), 4);
    /// ```
    pub fn build(name: &str, world: LayeredEnvironment) -> Result<LayeredScene, ServeError> {
        let ecm = LayeredEcm::build(&world).map_err(|e| ServeError::Build(e.to_string()))?;
        Ok(LayeredScene::new(name, ecm))
    }

    /// The scene of ECMs already built.
    ///
    /// ```
    /// let ecm = corridor_ecm::LayeredEcm::build(&corridor_io::scenes::layers()).unwrap();
    /// let scene = corridor_serve::LayeredScene::new("house", ecm);
    /// assert_eq!(scene.name(), "house");
    /// ```
    pub fn new(name: &str, ecm: LayeredEcm) -> LayeredScene {
        LayeredScene {
            name: name.to_owned(),
            ecm: Arc::new(ecm),
            planners: Mutex::new(Vec::new()),
            view: OnceLock::new(),
        }
    }

    /// The scene's ECMs.
    pub fn ecm(&self) -> &LayeredEcm {
        &self.ecm
    }

    /// The scene's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A weak handle on the ECMs: dead once the scene and every planner it kept are
    /// dropped (how a test sees that an evicted upload's memory is freed).
    pub fn ecm_weak(&self) -> std::sync::Weak<LayeredEcm> {
        Arc::downgrade(&self.ecm)
    }

    /// The planner for `radius`, kept or made.
    fn planner(&self, radius: f64) -> Result<Arc<KeptPlanner>, ServeError> {
        let key = radius.to_bits();
        let kept = |planners: &Mutex<Vec<(u64, Arc<KeptPlanner>)>>| {
            let list = planners.lock().unwrap_or_else(|p| p.into_inner());
            list.iter().find(|(k, _)| *k == key).map(|(_, p)| p.clone())
        };
        if let Some(planner) = kept(&self.planners) {
            return Ok(planner);
        }
        let planner = Arc::new(KeptPlanner::try_new(self.ecm.clone(), |ecm| {
            LayeredPlanner::new(&**ecm, radius)
        })?);
        let mut list = self.planners.lock().unwrap_or_else(|p| p.into_inner());
        if list.len() >= PLANNERS_KEPT {
            list.remove(0);
        }
        list.push((key, planner.clone()));
        Ok(planner)
    }

    /// One floor's ECM.
    pub fn floor(&self, layer: u32) -> Result<&Ecm, ServeError> {
        Ok(self.ecm.layer(LayerId(layer))?)
    }

    /// The `map` message: `"layered": true`, every floor's map (as a 2D map's fields,
    /// with the bounds of the whole scene so that floors line up on screen), and the
    /// connections.
    pub fn map_view(&self) -> Arc<str> {
        self.view
            .get_or_init(|| {
                let world = self.ecm.world();
                let mut bounds: Option<corridor_geom::Aabb> = None;
                for (_, layer) in world.layers() {
                    let b = layer.environment.bounds();
                    bounds = Some(bounds.map_or(b, |a| a.union(b)));
                }
                let bounds = bounds.map(|b| [b.min.x, b.min.y, b.max.x, b.max.y]);
                let floors: Vec<Value> = self
                    .ecm
                    .layers()
                    .map(|(id, ecm)| {
                        let layer = world.layer(id).expect("the ECM's own layer");
                        let mut v = view::floor(&layer.environment, ecm, &BTreeSet::new());
                        v["own_bounds"] = v["bounds"].clone();
                        v["bounds"] = json!(bounds);
                        v["id"] = json!(id.0);
                        v["name"] = json!(layer.name);
                        v["env"] = json!(self.name);
                        v["version"] = json!(0);
                        v
                    })
                    .collect();
                let connections: Vec<Value> = world
                    .connections()
                    .map(|(id, c)| {
                        json!({
                            "id": id.0,
                            "layers": [c.layers[0].0, c.layers[1].0],
                            "segment": [[c.segment.a.x, c.segment.a.y], [c.segment.b.x, c.segment.b.y]],
                        })
                    })
                    .collect();
                json!({
                    "type": "map",
                    "layered": true,
                    "env": self.name,
                    "version": 0,
                    "bounds": bounds,
                    "layers": floors,
                    "connections": connections,
                })
                .to_string()
                .into()
            })
            .clone()
    }

    /// A path from `from` to `to` for a disc of `radius`, one piece per floor, each
    /// piece's indicative route keeping `clearance` from the walls where its floor is
    /// wide enough.
    ///
    /// The layered planner chooses the crossings for the radius alone (a preferred
    /// clearance is not one of its options); each floor's piece is then planned again
    /// between the same two points with the preferred clearance, in the ECM of the
    /// floor's chart (where its open connections are not walls). That 2D plan is the one
    /// the layered planner made for the piece (same query, same radius), plus the
    /// indicative route at `clearance`.
    ///
    /// ```
    /// use corridor_geom::Point;
    /// let scene = corridor_serve::LayeredScene::build("layers", corridor_io::scenes::layers()).unwrap();
    /// let path = scene.path((0, Point::new(2.0, 2.0)), (1, Point::new(2.0, 6.0)), 0.3, 0.8).unwrap();
    /// assert_eq!(path.steps.first().unwrap().layer.0, 0);
    /// assert_eq!(path.steps.last().unwrap().layer.0, 1);
    /// ```
    pub fn path(
        &self,
        from: (u32, Point),
        to: (u32, Point),
        radius: f64,
        clearance: f64,
    ) -> Result<LayeredPath, ServeError> {
        // Unknown floors are refused before a planner is made for them.
        self.floor(from.0)?;
        self.floor(to.0)?;
        let planner = self.planner(radius)?;
        let mut path =
            planner
                .borrow_dependent()
                .plan(LayerId(from.0), from.1, LayerId(to.0), to.1)?;
        if clearance > radius {
            let mut planner = Planner::new();
            for step in &mut path.steps {
                let (Some(&a), Some(&b)) = (step.path.points.first(), step.path.points.last())
                else {
                    continue;
                };
                let query = PathQuery::new(a, b)
                    .with_radius(radius)
                    .with_preferred_clearance(clearance);
                // The chart's ECM: a piece may end on an open connection, a wall of
                // its floor's own ECM.
                let ecm = self.ecm.chart_ecm(LayerId(step.layer.0))?;
                step.path = planner.plan(ecm, &query)?;
            }
        }
        Ok(path)
    }

    /// The `layered_path` message: [`LayeredScene::path`] as the page draws it, one piece
    /// per floor it walks on, and the connections it crosses.
    pub fn plan(
        &self,
        from: (u32, Point),
        to: (u32, Point),
        radius: f64,
        clearance: f64,
    ) -> Result<Value, ServeError> {
        let start = Instant::now();
        let path = self.path(from, to, radius, clearance)?;
        let steps: Vec<Value> = path
            .steps
            .iter()
            .map(|s| {
                let mut v = view::path_body(&s.path);
                v["layer"] = json!(s.layer.0);
                v
            })
            .collect();
        Ok(json!({
            "type": "layered_path",
            "env": self.name,
            "length": path.length,
            "steps": steps,
            "crossings": path.crossings.iter().map(|c| c.0).collect::<Vec<_>>(),
            "clearance": clearance,
            "ms": start.elapsed().as_secs_f64() * 1e3,
        }))
    }

    /// A random point of `layer` with clearance at least `radius`, reachable inside that
    /// floor from `from` when given.
    pub fn random_point(
        &self,
        layer: u32,
        radius: f64,
        from: Option<Point>,
    ) -> Result<Point, ServeError> {
        let ecm = self.floor(layer)?;
        let bounds = self
            .ecm
            .world()
            .layer(LayerId(layer))
            .map_err(corridor_ecm::LayeredEcmError::from)?
            .environment
            .bounds();
        let mut rng = rand::rng();
        let mut planner = Planner::new();
        for _ in 0..RANDOM_TRIES {
            let p = Point::new(
                rng.random_range(bounds.min.x..=bounds.max.x),
                rng.random_range(bounds.min.y..=bounds.max.y),
            );
            if !ecm.clearance(p).is_ok_and(|c| c >= radius) {
                continue;
            }
            let reachable = from.is_none_or(|from| {
                planner
                    .plan(ecm, &PathQuery::new(from, p).with_radius(radius))
                    .is_ok()
            });
            if reachable {
                return Ok(p);
            }
        }
        Err(ServeError::BadRequest(format!(
            "no free point with clearance {radius} found on layer {layer} in {RANDOM_TRIES} tries"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_from_the_ground_floor_upstairs_crosses_a_staircase() {
        let scene = LayeredScene::build("layers", corridor_io::scenes::layers()).unwrap();
        let start = Instant::now();
        let v = scene
            .plan(
                (0, Point::new(2.0, 2.0)),
                (1, Point::new(2.0, 6.0)),
                0.3,
                0.3,
            )
            .unwrap();
        let first = start.elapsed();
        let start = Instant::now();
        let again = scene
            .plan(
                (0, Point::new(2.0, 2.0)),
                (1, Point::new(2.0, 6.0)),
                0.3,
                0.3,
            )
            .unwrap();
        println!(
            "layered path in {:.1} ms, {:.1} ms with the planner kept",
            first.as_secs_f64() * 1e3,
            start.elapsed().as_secs_f64() * 1e3
        );
        assert_eq!(v["length"], again["length"]);
        let layers: Vec<u64> = v["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["layer"].as_u64().unwrap())
            .collect();
        // Ground floor, one staircase, upper floor.
        assert_eq!(layers.len(), 3, "{layers:?}");
        assert_eq!((layers[0], layers[2]), (0, 1));
        assert!(layers[1] == 2 || layers[1] == 3);
        // Each piece ends where the next begins, across its connection (at most a
        // crossing segment's length away).
        let steps = v["steps"].as_array().unwrap();
        let total: f64 = steps.iter().map(|s| s["length"].as_f64().unwrap()).sum();
        assert!(v["length"].as_f64().unwrap() >= total - 1e-9);
        let map: Value = serde_json::from_str(&scene.map_view()).unwrap();
        assert_eq!(map["layers"].as_array().unwrap().len(), 4);
        assert_eq!(map["connections"].as_array().unwrap().len(), 4);
        assert!(scene
            .random_point(1, 0.5, Some(Point::new(2.0, 6.0)))
            .is_ok());
        assert!(scene.floor(9).is_err());
    }
}

#[cfg(test)]
mod clearance_tests {
    use super::*;

    /// Clearance of the walls along a polyline, sampled every 0.05 units.
    fn clearances(ecm: &Ecm, line: &[Point]) -> Vec<f64> {
        line.windows(2)
            .flat_map(|w| {
                let n = (w[0].distance(w[1]) / 0.05).ceil().max(1.0) as usize;
                (0..n).map(move |k| w[0] + (w[1] - w[0]) * (k as f64 / n as f64))
            })
            .filter_map(|p| ecm.clearance(p).ok())
            .collect()
    }

    /// The preferred clearance moves each floor's indicative route off the walls (checked
    /// by the floor's chart ECM's own clearance, an independent query) and leaves the shortest
    /// path and the crossings as they were.
    #[test]
    fn layered_routes_keep_the_preferred_clearance() {
        let scene = LayeredScene::build("layers", corridor_io::scenes::layers()).unwrap();
        let (from, to, r) = ((0, Point::new(2.0, 2.0)), (1, Point::new(2.0, 6.0)), 0.3);
        let tight = scene.path(from, to, r, r).unwrap();
        let wide = scene.path(from, to, r, 1.0).unwrap();
        assert_eq!(tight.crossings, wide.crossings);
        assert_eq!(tight.length, wide.length);
        let (mut low, mut high) = (Vec::new(), Vec::new());
        for (a, b) in tight.steps.iter().zip(&wide.steps) {
            assert_eq!(a.layer, b.layer);
            assert_eq!(a.path.points, b.path.points, "the shortest path stays");
            // Walls as the chart's ECM sees them: an open connection is not a wall.
            let ecm = scene.ecm().chart_ecm(a.layer).unwrap();
            low.extend(clearances(ecm, &a.path.indicative_route));
            high.extend(clearances(ecm, &b.path.indicative_route));
        }
        let min = high.iter().copied().fold(f64::INFINITY, f64::min);
        assert!(min >= r - 1e-3, "the route comes {min} from a wall");
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        println!(
            "mean clearance along the routes: {:.3} at {r}, {:.3} at 1.0",
            mean(&low),
            mean(&high)
        );
        assert!(mean(&high) > mean(&low) + 0.1);
    }
}
