//! The ECM of a multi-layered environment ([`LayeredEcm`]): one 2D [`Ecm`] per layer,
//! built in parallel (rayon), with every connection closed, that is, treated as the wall
//! it lies on (the first step of the construction of van Toll et al.: "treat the
//! connections as obstacles, then open them one by one"), and one 2D ECM per *chart* of
//! several layers ([`LayeredEnvironment::charts`]): layers joined by connections whose
//! free spaces do not overlap in the ground plane, where ground-plane distance and
//! visibility through the connections are those of the union of their free spaces, so
//! the chart's ECM has its connections open exactly ([`LayeredEcm::chart_ecm`]: cells,
//! clearance, nearest obstacle and retraction across them).
//!
//! Planning (in `route`) works on *regions* ([`LayeredMap::region_of`]): a chart, or a
//! layer alone. Legs are planned in a region's ECM and cut into per-layer steps where
//! they meet the open connections (in `split`); the connections between regions stay
//! closed and are crossed on sampled straight segments checked against the walls of both
//! layers, so paths are valid for their radius; see [`LayeredPlanner`].
//!
//! **What is not done yet:** connections between layers that overlap (two floors joined
//! by a staircase that meets both) stay closed, so [`LayeredEcm::clearance`] near them is
//! the distance to the closed connection, a lower bound of the layered clearance. A
//! [`DynamicLayeredEcm`] (in `dynamic`) keeps every connection closed (no charts): a
//! change on one layer changes only that layer's ECM.
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
mod split;

pub use dynamic::{DynamicLayeredEcm, LayeredChange, LayeredPatch};
pub(crate) use route::outside_of;
pub use route::{LayeredPath, LayeredPlanner, LayeredStep, CROSSING_MARGIN_STEPS};

use crate::{BuildError, BuildOptions, CellRef, Ecm, PlanError, QueryError, UpdateError};
use corridor_geom::{
    Chart, ConnectionId, LayerId, LayeredEnvironment, LayeredError, Orientation, Point,
};
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
    /// The region of `layer`: the part of the map planned in one 2D ECM (a chart of
    /// layers joined by open connections, or the layer alone). Regions are numbered from
    /// 0 below [`LayeredMap::region_count`].
    fn region_of(&self, layer: LayerId) -> usize {
        layer.0 as usize
    }
    /// The number of regions.
    fn region_count(&self) -> usize {
        self.world().layer_count()
    }
    /// The ECM of a region.
    fn region_ecm(&self, region: usize) -> Result<&Ecm, LayeredEcmError> {
        self.layer_ecm(LayerId(region as u32))
    }
    /// Whether connection `id` is open in its region's ECM (crossed inside that ECM,
    /// not on sampled crossing segments).
    fn is_open(&self, _id: ConnectionId) -> bool {
        false
    }
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

    fn region_of(&self, layer: LayerId) -> usize {
        self.chart_of
            .get(layer.0 as usize)
            .copied()
            .unwrap_or(usize::MAX)
    }

    fn region_count(&self) -> usize {
        self.charts.len()
    }

    fn region_ecm(&self, region: usize) -> Result<&Ecm, LayeredEcmError> {
        match (self.chart_ecms.get(region), self.charts.get(region)) {
            (Some(Some(ecm)), _) => Ok(ecm),
            (_, Some(chart)) => self.layer(chart.layers[0]),
            _ => Err(LayeredEcmError::Model(LayeredError::UnknownLayer {
                layer: LayerId(region as u32),
                count: self.charts.len(),
            })),
        }
    }

    fn is_open(&self, id: ConnectionId) -> bool {
        self.chart_of_connection(id).is_some()
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
    /// The charts of the world ([`LayeredEnvironment::charts`]).
    charts: Vec<Chart>,
    /// The chart of each layer.
    chart_of: Vec<usize>,
    /// The ECM of each chart of several layers (`None` for one layer: its own ECM).
    chart_ecms: Vec<Option<Ecm>>,
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
        let charts = world.charts();
        let mut chart_of = vec![0; world.layer_count()];
        for (k, chart) in charts.iter().enumerate() {
            for l in &chart.layers {
                chart_of[l.0 as usize] = k;
            }
        }
        // One job per layer and per chart of several layers, all in parallel.
        let mut jobs: Vec<(LayerId, Option<&Chart>)> =
            world.layers().map(|(id, _)| (id, None)).collect();
        jobs.extend(
            charts
                .iter()
                .filter(|c| c.layers.len() > 1)
                .map(|c| (c.layers[0], Some(c))),
        );
        let mut built = jobs
            .par_iter()
            .map(|&(layer, chart)| {
                let env = match chart {
                    None => world.layer(layer)?.environment.clone(),
                    Some(chart) => world.chart_environment(chart)?,
                };
                Ecm::build_with(&env, options)
                    .map_err(|source| LayeredEcmError::Build { layer, source })
            })
            .collect::<Result<Vec<_>, _>>()?
            .into_iter();
        let layers: Vec<Ecm> = built.by_ref().take(world.layer_count()).collect();
        let chart_ecms = charts
            .iter()
            .map(|c| {
                if c.layers.len() > 1 {
                    built.next()
                } else {
                    None
                }
            })
            .collect();
        Ok(LayeredEcm {
            world: world.clone(),
            layers,
            charts,
            chart_of,
            chart_ecms,
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

    /// The charts: groups of layers whose connections among them are open in one 2D ECM.
    pub fn charts(&self) -> &[Chart] {
        &self.charts
    }

    /// How many connections are open in the charts' ECMs (the others are closed).
    pub fn open_connection_count(&self) -> usize {
        self.charts.iter().map(|c| c.open.len()).sum()
    }

    /// The chart in which connection `id` is open, if any.
    pub fn chart_of_connection(&self, id: ConnectionId) -> Option<usize> {
        self.charts.iter().position(|c| c.open.contains(&id))
    }

    /// The chart of `layer` (an index into [`LayeredEcm::charts`]).
    pub fn chart_of(&self, layer: LayerId) -> Result<usize, LayeredEcmError> {
        self.layer(layer)?;
        Ok(self.chart_of[layer.0 as usize])
    }

    /// The ECM of the chart of `layer`: its cells, clearance, nearest obstacle points and
    /// retraction see through the chart's open connections exactly (walls of the other
    /// layers of the chart included); connections to other charts are walls there. For a
    /// layer alone in its chart, its own ECM.
    ///
    /// ```
    /// use corridor_ecm::LayeredEcm;
    /// use corridor_geom::{Environment, HeightPlane, Layer, LayeredEnvironment, Point, Segment};
    /// let rect = |x0, x1| Environment::rectangle(Point::new(x0, 0.0), Point::new(x1, 4.0));
    /// let mut world = LayeredEnvironment::new();
    /// let hall = world.add_layer(Layer::new("hall", rect(0.0, 10.0), HeightPlane::flat(0.0)));
    /// let ramp = world.add_layer(Layer::new("ramp", rect(10.0, 15.0), HeightPlane::new(0.2, 0.0, -2.0)));
    /// world.connect(hall, ramp, Segment::new(Point::new(10.0, 1.0), Point::new(10.0, 3.0))).unwrap();
    /// let ecm = LayeredEcm::build(&world).unwrap();
    /// assert_eq!(ecm.open_connection_count(), 1);
    /// let p = Point::new(10.0, 2.0);
    /// // Closed, the door is a wall; open, the nearest walls are its posts' sides.
    /// assert_eq!(ecm.clearance(hall, Point::new(9.5, 2.0)).unwrap(), 0.5);
    /// assert!((ecm.chart_ecm(hall).unwrap().clearance(p).unwrap() - 1.0).abs() < 1e-9);
    /// ```
    pub fn chart_ecm(&self, layer: LayerId) -> Result<&Ecm, LayeredEcmError> {
        let k = self.chart_of(layer)?;
        match &self.chart_ecms[k] {
            Some(ecm) => Ok(ecm),
            None => self.layer(layer),
        }
    }

    /// The free area of all layers together (the sum of their cells).
    pub fn free_area(&self) -> f64 {
        self.layers.iter().map(Ecm::free_area).sum()
    }
}

#[cfg(test)]
mod tests;
