//! The ECM of a multi-layered environment ([`LayeredEcm`]): one 2D [`Ecm`] per layer,
//! built in parallel (rayon), with every connection closed, that is, treated as the wall
//! it lies on (the first step of the construction of van Toll et al.: "treat the
//! connections as obstacles, then open them one by one").
//!
//! **What is not done yet:** opening the connections in the medial axis. The per-layer
//! ECMs are exact (and validated as every 2D ECM is) for each layer with its connections
//! closed, so [`LayeredEcm::clearance`] near a connection is the distance to the closed
//! connection, a lower bound of the layered clearance. Planning across layers (in
//! `route`) goes through the connections anyway: it crosses each one on a straight
//! segment checked against the walls of both layers, so paths are valid for their
//! radius; see [`LayeredPlanner`]. Obstacles change per layer in a
//! [`DynamicLayeredEcm`] (in `dynamic`): with the connections closed, a change on one
//! layer changes only that layer's ECM.
//!
//! **Design for opening a connection** `c` = `ab` between layers `L` and `N` (to come):
//!
//! 1. *Sites seen through `c`.* A point `p` of `L` sees a wall point `w` of `N` when the
//!    segment `pw` crosses `c` and its part beyond `c` stays in `N`'s free space (the
//!    oracle's walk). Since `a` and `b` lie on walls of both layers, a wall of `N` that
//!    `p` cannot see through `c` is hidden behind `a` or `b`, so the nearest visible
//!    site of `p` is among: `L`'s walls (minus `c`), the point sites `a`, `b`, and the
//!    walls of `N` clipped to the wedge from `p` through `c`. For the medial axis of `L`
//!    this is a Voronoi diagram of `L`'s walls plus `N`'s walls *inside the half-plane
//!    beyond `c`, cut to the region `N` shows through `c`* (its visibility polygon from
//!    the segment `c`, computed with the existing visibility module on `N`'s ECM), with
//!    the rays from the walls through `a` and `b` as extra boundary: a point whose
//!    nearest such site is not visible is nearer to `a` or `b`, which are sites too.
//! 2. *Local, exact, as the dynamic repair.* Opening `c` is an update of `L`: remove the
//!    wall `c` and add the seen-through sites (tagged with their layer `N`), then
//!    repair with `dynamic::local` (the ECM edges whose clearance disc meets `c` are
//!    replaced by the matching part of a Voronoi diagram of the walls around them),
//!    and the same for `N` with `L`'s sites. The repair's own check (new discs inside
//!    the region whose walls were used, widening otherwise) keeps it exact. Disc regions
//!    are in the ground plane, so a layer overlapping `L` elsewhere (a floor above a
//!    stair) does not enter: only sites reached through `c` are added. Cost: one local
//!    repair per connection and side, O(k · m log m) for m walls near the connections,
//!    the paper's O(kn log n) bound.
//! 3. *Annotations across layers.* A nearest point gains the layer of its wall
//!    (`NearestPoints` with a `LayerId` tag, `Ecm` in a layered map holding foreign
//!    nearest points); cells next to `c` get `c` as a side (a portal) instead of a wall,
//!    so locate, clearance, nearest obstacle and retraction answer across `c`, and the
//!    ECM graphs of `L` and `N` are joined by the edges crossing `c` (one graph for A*,
//!    the corridor follows them, no sampled crossings).
//! 4. *Validation as in 2D*: equidistance of every medial-axis point to its nearest
//!    points with ground-plane distances across layers; no visible wall closer, with
//!    visibility decided by walking through connections; cells add up to the free area
//!    of all layers (the portal sides are shared, not walls). The layered oracle of the
//!    test kit checks paths; clearance is checked against brute force over the walls
//!    seen through connections.

mod dynamic;
mod route;

pub use dynamic::{DynamicLayeredEcm, LayeredChange, LayeredPatch};
pub(crate) use route::outside_of;
pub use route::{LayeredPath, LayeredPlanner, LayeredStep, CROSSING_MARGIN_STEPS};

use crate::{BuildError, BuildOptions, CellRef, Ecm, PlanError, QueryError, UpdateError};
use corridor_geom::{ConnectionId, LayerId, LayeredEnvironment, LayeredError, Orientation, Point};
use rayon::prelude::*;

/// What can go wrong building or using a [`LayeredEcm`].
#[derive(Debug, thiserror::Error)]
pub enum LayeredEcmError {
    /// The layered environment is invalid.
    #[error(transparent)]
    Model(#[from] LayeredError),
    /// One layer's ECM could not be built.
    #[error("layer {layer}: {source}")]
    Build {
        /// The layer.
        layer: LayerId,
        /// Why.
        source: BuildError,
    },
    /// A point query on one layer failed.
    #[error("layer {layer}: {source}")]
    Query {
        /// The layer.
        layer: LayerId,
        /// Why.
        source: QueryError,
    },
    /// A path could not be planned inside one layer (start or goal unusable).
    #[error("layer {layer}: {source}")]
    Plan {
        /// The layer.
        layer: LayerId,
        /// Why.
        source: PlanError,
    },
    /// Start and goal are not joined by a path wide enough for the radius, across all
    /// layers and connections.
    #[error("no path for radius {radius} from layer {from} to layer {to}")]
    NoPath {
        /// The start's layer.
        from: LayerId,
        /// The goal's layer.
        to: LayerId,
        /// The radius asked for.
        radius: f64,
    },
    /// A radius that is negative or not finite.
    #[error("radius {0} must be finite and non-negative")]
    InvalidRadius(f64),
    /// An update of one layer's obstacles was refused.
    #[error("layer {layer}: {source}")]
    Update {
        /// The layer.
        layer: LayerId,
        /// Why.
        source: UpdateError,
    },
    /// The patch was planned for another state of the layered map; plan it again.
    #[error("the patch was planned for version {patch} of the layered map, which is now at version {current}")]
    StalePatch {
        /// The version the patch was planned for.
        patch: u64,
        /// The map's version.
        current: u64,
    },
}

/// What a [`LayeredPlanner`] reads of a layered map: the environment, one ECM per layer
/// and the side of each connection where each layer is free. Both the static
/// [`LayeredEcm`] and the updatable [`DynamicLayeredEcm`] are such maps, so one planner
/// serves both.
///
/// ```
/// use corridor_ecm::{LayeredEcm, LayeredMap};
/// use corridor_geom::{Environment, HeightPlane, Layer, LayeredEnvironment, LayerId, Point};
/// let mut world = LayeredEnvironment::new();
/// world.add_layer(Layer::new("hall",
///     Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 4.0)), HeightPlane::flat(0.0)));
/// let ecm = LayeredEcm::build(&world).unwrap();
/// let map: &dyn LayeredMap = &ecm;
/// assert!(map.layer_ecm(LayerId(0)).is_ok());
/// ```
pub trait LayeredMap: Sync {
    /// The layered environment as it is now.
    fn world(&self) -> &LayeredEnvironment;
    /// The ECM of one layer (its connections closed).
    fn layer_ecm(&self, layer: LayerId) -> Result<&Ecm, LayeredEcmError>;
    /// The side of connection `id` (from its segment's `a` towards `b`) where `layer` is
    /// free: [`Orientation::CounterClockwise`] for the left.
    fn entry_side(&self, id: ConnectionId, layer: LayerId) -> Result<Orientation, LayeredEcmError>;
}

impl LayeredMap for LayeredEcm {
    fn world(&self) -> &LayeredEnvironment {
        &self.world
    }

    fn layer_ecm(&self, layer: LayerId) -> Result<&Ecm, LayeredEcmError> {
        self.layer(layer)
    }

    fn entry_side(&self, id: ConnectionId, layer: LayerId) -> Result<Orientation, LayeredEcmError> {
        Ok(self.world.free_side(id, layer)?)
    }
}

/// The layered ECM: the environment and one ECM per layer (in layer order).
///
/// ```
/// use corridor_ecm::LayeredEcm;
/// use corridor_geom::{Environment, HeightPlane, Layer, LayeredEnvironment, LayerId, Point, Segment};
/// let mut world = LayeredEnvironment::new();
/// let hall = world.add_layer(Layer::new("hall",
///     Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 4.0)), HeightPlane::flat(0.0)));
/// let ramp = world.add_layer(Layer::new("ramp",
///     Environment::rectangle(Point::new(10.0, 0.0), Point::new(15.0, 4.0)), HeightPlane::new(0.2, 0.0, -2.0)));
/// world.connect(hall, ramp, Segment::new(Point::new(10.0, 1.0), Point::new(10.0, 3.0))).unwrap();
/// let ecm = LayeredEcm::build(&world).unwrap();
/// let (layer, _cell) = ecm.locate(ramp, Point::new(12.0, 2.0)).unwrap();
/// assert_eq!(layer, ramp);
/// assert!((ecm.free_area() - 60.0).abs() < 1e-6);
/// ```
#[derive(Debug)]
pub struct LayeredEcm {
    world: LayeredEnvironment,
    layers: Vec<Ecm>,
}

impl LayeredEcm {
    /// Validates `world` and builds every layer's ECM in parallel.
    pub fn build(world: &LayeredEnvironment) -> Result<LayeredEcm, LayeredEcmError> {
        Self::build_with(world, &BuildOptions::default())
    }

    /// [`LayeredEcm::build`] with explicit options for every layer.
    pub fn build_with(
        world: &LayeredEnvironment,
        options: &BuildOptions,
    ) -> Result<LayeredEcm, LayeredEcmError> {
        world.validate()?;
        let envs: Vec<_> = world.layers().collect();
        let layers = envs
            .par_iter()
            .map(|(id, layer)| {
                Ecm::build_with(&layer.environment, options)
                    .map_err(|source| LayeredEcmError::Build { layer: *id, source })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(LayeredEcm {
            world: world.clone(),
            layers,
        })
    }

    /// The environment it was built from.
    pub fn world(&self) -> &LayeredEnvironment {
        &self.world
    }

    /// The ECM of one layer (its connections closed).
    pub fn layer(&self, layer: LayerId) -> Result<&Ecm, LayeredEcmError> {
        self.layers
            .get(layer.0 as usize)
            .ok_or(LayeredEcmError::Model(LayeredError::UnknownLayer {
                layer,
                count: self.layers.len(),
            }))
    }

    /// Every layer's ECM, in layer order.
    pub fn layers(&self) -> impl ExactSizeIterator<Item = (LayerId, &Ecm)> {
        self.layers
            .iter()
            .enumerate()
            .map(|(i, e)| (LayerId(i as u32), e))
    }

    /// The (layer, cell piece) holding the ground point `p` on `layer`.
    pub fn locate(&self, layer: LayerId, p: Point) -> Result<(LayerId, CellRef), LayeredEcmError> {
        let cell = self
            .layer(layer)?
            .locate(p)
            .map_err(|source| LayeredEcmError::Query { layer, source })?;
        Ok((layer, cell))
    }

    /// The distance from `p` on `layer` to the nearest wall of its layer, connections
    /// counted as walls (so a lower bound of the layered clearance near a connection).
    pub fn clearance(&self, layer: LayerId, p: Point) -> Result<f64, LayeredEcmError> {
        self.layer(layer)?
            .clearance(p)
            .map_err(|source| LayeredEcmError::Query { layer, source })
    }

    /// The nearest wall point to `p` on its layer, connections counted as walls.
    pub fn nearest_obstacle_point(
        &self,
        layer: LayerId,
        p: Point,
    ) -> Result<Point, LayeredEcmError> {
        self.layer(layer)?
            .nearest_obstacle_point(p)
            .map_err(|source| LayeredEcmError::Query { layer, source })
    }

    /// The free area of all layers together (the sum of their cells).
    pub fn free_area(&self) -> f64 {
        self.layers.iter().map(Ecm::free_area).sum()
    }
}

#[cfg(test)]
mod tests;
