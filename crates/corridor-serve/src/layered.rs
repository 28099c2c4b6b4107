//! A layered scene (floors joined by staircases) as the page sees it: every floor's map,
//! the connections between floors, paths that cross floors (cut into one piece per
//! floor), random points and visibility on one floor. Layered scenes are read-only: the
//! library has no dynamic updates on layers yet.

use crate::protocol::ServeError;
use crate::view;
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

/// One layered scene and its per-floor ECMs (built once, never changed).
pub struct LayeredScene {
    name: String,
    /// Lives as long as the process: the planners kept borrow it. (A server builds each
    /// built-in layered scene once, on first use.)
    ecm: &'static LayeredEcm,
    /// The planners of the last radii asked for, newest last.
    planners: Mutex<Vec<(u64, Arc<LayeredPlanner<'static>>)>>,
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
        Ok(LayeredScene {
            name: name.to_owned(),
            ecm: Box::leak(Box::new(
                LayeredEcm::build(&world).map_err(|e| ServeError::Build(e.to_string()))?,
            )),
            planners: Mutex::new(Vec::new()),
            view: OnceLock::new(),
        })
    }

    /// The scene's ECMs.
    pub fn ecm(&self) -> &LayeredEcm {
        self.ecm
    }

    /// The planner for `radius`, kept or made.
    fn planner(&self, radius: f64) -> Result<Arc<LayeredPlanner<'static>>, ServeError> {
        let key = radius.to_bits();
        let kept = |planners: &Mutex<Vec<(u64, Arc<LayeredPlanner<'static>>)>>| {
            let list = planners.lock().unwrap_or_else(|p| p.into_inner());
            list.iter().find(|(k, _)| *k == key).map(|(_, p)| p.clone())
        };
        if let Some(planner) = kept(&self.planners) {
            return Ok(planner);
        }
        let planner = Arc::new(LayeredPlanner::new(self.ecm, radius)?);
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

    /// The `layered_path` message: the path from `from` to `to` for a disc of `radius`,
    /// one piece per floor it walks on, and the connections it crosses. (The layered
    /// planner keeps the radius; a preferred clearance is not one of its options.)
    pub fn plan(
        &self,
        from: (u32, Point),
        to: (u32, Point),
        radius: f64,
    ) -> Result<Value, ServeError> {
        let start = Instant::now();
        // Unknown floors are refused before a planner is made for them.
        self.floor(from.0)?;
        self.floor(to.0)?;
        let planner = self.planner(radius)?;
        let path = planner.plan(LayerId(from.0), from.1, LayerId(to.0), to.1)?;
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
            .plan((0, Point::new(2.0, 2.0)), (1, Point::new(2.0, 6.0)), 0.3)
            .unwrap();
        let first = start.elapsed();
        let start = Instant::now();
        let again = scene
            .plan((0, Point::new(2.0, 2.0)), (1, Point::new(2.0, 6.0)), 0.3)
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
