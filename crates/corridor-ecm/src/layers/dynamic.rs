//! A layered map whose obstacles change ([`DynamicLayeredEcm`]): which layers an update
//! touches, and how each layer's ECM is repaired.
//!
//! Each layer is a [`DynamicEcm`] (the exact local repair of the 2D ECM, equal to a full
//! rebuild after every update). Since the connections are closed in every layer's ECM
//! (see the module above), a change on one layer changes only that layer's ECM: an
//! update is planned per layer (in parallel when it touches several) and applied as one
//! step. The connections stay in the model; one that an obstacle blocks (a closed stair
//! gate) is simply not crossed, since a [`LayeredPlanner`](super::LayeredPlanner) keeps a
//! crossing only when it stays clear of the walls of both layers and its ends lie in free
//! space. The side of each connection where each layer is free is taken once, when the
//! map is made from a valid environment, so a gate right at a connection (which the
//! model's check would refuse: no free side left) does not invalidate the map.

use super::{LayeredEcmError, LayeredMap};
use crate::{Change, DynamicEcm, Ecm, Patch, PatchReport, UpdateError, UpdateOptions};
use corridor_geom::{
    ConnectionId, LayerId, LayeredEnvironment, LayeredError, Obstacle, ObstacleId, Orientation,
    Point,
};
use rayon::prelude::*;

/// One change of the obstacles of one layer.
#[derive(Clone, Debug, PartialEq)]
pub struct LayeredChange {
    /// The layer.
    pub layer: LayerId,
    /// The change, as in 2D.
    pub change: Change,
}

/// A planned layered update: one 2D [`Patch`] per touched layer, with the changes it
/// carries. Made by [`DynamicLayeredEcm::plan_batch`], applied by
/// [`DynamicLayeredEcm::apply`].
#[derive(Clone, Debug)]
pub struct LayeredPatch {
    base: u64,
    parts: Vec<(LayerId, Patch, Vec<Change>)>,
}

impl LayeredPatch {
    /// Each touched layer with what planning found there.
    pub fn reports(&self) -> impl Iterator<Item = (LayerId, &PatchReport)> {
        self.parts.iter().map(|(l, p, _)| (*l, p.report()))
    }
}

/// The layered ECM of a changing layered environment: one [`DynamicEcm`] per layer
/// (connections closed), kept equal to a full rebuild after every update.
///
/// ```
/// use corridor_ecm::{DynamicLayeredEcm, LayeredPlanner};
/// use corridor_geom::{Environment, HeightPlane, Layer, LayeredEnvironment, Obstacle, Point, Segment};
/// let p = Point::new;
/// let mut world = LayeredEnvironment::new();
/// let hall = world.add_layer(Layer::new("hall",
///     Environment::rectangle(p(0.0, 0.0), p(10.0, 4.0)), HeightPlane::flat(0.0)));
/// let ramp = world.add_layer(Layer::new("ramp",
///     Environment::rectangle(p(10.0, 0.0), p(15.0, 4.0)), HeightPlane::new(0.2, 0.0, -2.0)));
/// world.connect(hall, ramp, Segment::new(p(10.0, 1.0), p(10.0, 3.0))).unwrap();
/// let mut map = DynamicLayeredEcm::new(&world).unwrap();
/// let walk = |map: &DynamicLayeredEcm| {
///     LayeredPlanner::new(map, 0.0).unwrap().plan(hall, p(2.0, 2.0), ramp, p(13.0, 2.0))
/// };
/// assert!(walk(&map).is_ok());
/// // A gate in front of the connection: the ramp cannot be reached.
/// let gate = map.insert(hall, Obstacle::rectangle(p(9.5, 0.0), p(10.0, 4.0))).unwrap();
/// assert!(walk(&map).is_err());
/// map.remove(hall, gate).unwrap();
/// assert!(walk(&map).is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct DynamicLayeredEcm {
    world: LayeredEnvironment,
    layers: Vec<DynamicEcm>,
    /// For each connection, the free side of each of its two layers.
    sides: Vec<[Orientation; 2]>,
    version: u64,
}

impl DynamicLayeredEcm {
    /// Validates `world` and builds every layer's map in parallel, with default options.
    pub fn new(world: &LayeredEnvironment) -> Result<Self, LayeredEcmError> {
        Self::with_options(world, UpdateOptions::default())
    }

    /// [`DynamicLayeredEcm::new`] with explicit options for every layer.
    pub fn with_options(
        world: &LayeredEnvironment,
        options: UpdateOptions,
    ) -> Result<Self, LayeredEcmError> {
        world.validate()?;
        let sides = world
            .connections()
            .map(|(id, c)| {
                Ok([
                    world.free_side(id, c.layers[0])?,
                    world.free_side(id, c.layers[1])?,
                ])
            })
            .collect::<Result<Vec<_>, LayeredError>>()?;
        let envs: Vec<_> = world.layers().collect();
        let layers = envs
            .par_iter()
            .map(|(id, layer)| {
                DynamicEcm::with_options(layer.environment.clone(), options.clone())
                    .map_err(|source| LayeredEcmError::Update { layer: *id, source })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(DynamicLayeredEcm {
            world: world.clone(),
            layers,
            sides,
            version: 0,
        })
    }

    /// The map of one layer.
    pub fn layer(&self, layer: LayerId) -> Result<&DynamicEcm, LayeredEcmError> {
        self.layers
            .get(layer.0 as usize)
            .ok_or(LayeredEcmError::Model(LayeredError::UnknownLayer {
                layer,
                count: self.layers.len(),
            }))
    }

    /// Every layer's map, in layer order.
    pub fn layers(&self) -> impl ExactSizeIterator<Item = (LayerId, &DynamicEcm)> {
        self.layers
            .iter()
            .enumerate()
            .map(|(i, e)| (LayerId(i as u32), e))
    }

    /// How many patches have been applied; a patch is valid only for the version it was
    /// planned for.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The free area of all layers together.
    pub fn free_area(&self) -> f64 {
        self.layers.iter().map(|l| l.ecm().free_area()).sum()
    }

    /// Plans one change without modifying the map.
    pub fn plan_update(&self, change: &LayeredChange) -> Result<LayeredPatch, LayeredEcmError> {
        self.plan_batch(std::slice::from_ref(change))
    }

    /// Plans several changes as one update: the changes of each layer, in their order,
    /// become one 2D patch of that layer (the layers are planned in parallel).
    pub fn plan_batch(&self, changes: &[LayeredChange]) -> Result<LayeredPatch, LayeredEcmError> {
        let mut groups: Vec<(LayerId, Vec<Change>)> = Vec::new();
        for c in changes {
            self.layer(c.layer)?;
            match groups.iter_mut().find(|(l, _)| *l == c.layer) {
                Some((_, g)) => g.push(c.change.clone()),
                None => groups.push((c.layer, vec![c.change.clone()])),
            }
        }
        let parts = groups
            .into_par_iter()
            .map(|(layer, group)| {
                self.layers[layer.0 as usize]
                    .plan_batch(&group)
                    .map(|patch| (layer, patch, group))
                    .map_err(|source| LayeredEcmError::Update { layer, source })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(LayeredPatch {
            base: self.version,
            parts,
        })
    }

    /// Applies a patch planned on this version of the map; returns the layer and id of
    /// every obstacle it inserted, in the order of the changes of each layer.
    pub fn apply(
        &mut self,
        patch: LayeredPatch,
    ) -> Result<Vec<(LayerId, ObstacleId)>, LayeredEcmError> {
        if patch.base != self.version {
            return Err(LayeredEcmError::StalePatch {
                patch: patch.base,
                current: self.version,
            });
        }
        let mut inserted = Vec::new();
        for (layer, part, changes) in patch.parts {
            let map = &mut self.layers[layer.0 as usize];
            // Only this type changes the layers' maps, so their versions follow ours and
            // the part cannot be stale.
            let ids = map
                .apply(part)
                .map_err(|source| LayeredEcmError::Update { layer, source })?;
            let touched = changes.iter().filter_map(|c| match c {
                Change::Insert(_) => None,
                Change::Remove(id) | Change::Move { id, .. } => Some(*id),
            });
            let env = &mut self.world.layer_mut(layer)?.environment;
            for id in touched.chain(ids.iter().copied()) {
                match map.environment().obstacle(id) {
                    Some(o) => env.insert_with_id(id, o.clone()),
                    None => env.remove(id),
                };
            }
            let next = map.environment().next_id();
            if env.next_id() < next {
                // Ids inserted and removed by the same patch are used up in both.
                let last = ObstacleId(next.0 - 1);
                env.insert_with_id(last, Obstacle::Point(Point::ZERO));
                env.remove(last);
            }
            inserted.extend(ids.into_iter().map(|id| (layer, id)));
        }
        self.version += 1;
        Ok(inserted)
    }

    /// Inserts an obstacle on a layer (plan and apply) and returns its id.
    pub fn insert(
        &mut self,
        layer: LayerId,
        obstacle: Obstacle,
    ) -> Result<ObstacleId, LayeredEcmError> {
        let change = Change::Insert(obstacle);
        let patch = self.plan_update(&LayeredChange { layer, change })?;
        Ok(self.apply(patch)?[0].1)
    }

    /// Removes an obstacle from a layer (plan and apply) and returns it.
    pub fn remove(&mut self, layer: LayerId, id: ObstacleId) -> Result<Obstacle, LayeredEcmError> {
        let old = self.layer(layer)?.environment().obstacle(id).cloned();
        let old = old.ok_or(LayeredEcmError::Update {
            layer,
            source: UpdateError::UnknownObstacle(id),
        })?;
        let change = Change::Remove(id);
        let patch = self.plan_update(&LayeredChange { layer, change })?;
        self.apply(patch)?;
        Ok(old)
    }

    /// Replaces the geometry of an obstacle on a layer (plan and apply).
    pub fn move_to(
        &mut self,
        layer: LayerId,
        id: ObstacleId,
        obstacle: Obstacle,
    ) -> Result<(), LayeredEcmError> {
        let change = Change::Move { id, obstacle };
        let patch = self.plan_update(&LayeredChange { layer, change })?;
        self.apply(patch).map(|_| ())
    }
}

impl LayeredMap for DynamicLayeredEcm {
    fn world(&self) -> &LayeredEnvironment {
        &self.world
    }

    fn layer_ecm(&self, layer: LayerId) -> Result<&Ecm, LayeredEcmError> {
        self.layer(layer).map(DynamicEcm::ecm)
    }

    fn entry_side(&self, id: ConnectionId, layer: LayerId) -> Result<Orientation, LayeredEcmError> {
        let c = self.world.connection(id)?;
        let side = self.sides[id.0 as usize];
        match c.layers.iter().position(|l| *l == layer) {
            Some(k) => Ok(side[k]),
            None => Err(LayeredEcmError::Model(LayeredError::UnknownLayer {
                layer,
                count: self.layers.len(),
            })),
        }
    }
}

#[cfg(test)]
mod tests;
