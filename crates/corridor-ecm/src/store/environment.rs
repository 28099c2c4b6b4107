//! A saved map that holds its environment (format `CRDECM08`), so that it can be updated
//! after loading: how the environment is written beside the ECM, and what a load checks
//! before it hands out a [`DynamicEcm`] (the environment valid and read back exactly as
//! written, on the ECM's snap grid, with the ECM's free area; optionally the ECM equal to
//! a rebuild).
//!
//! The environment is written as plain lists (boundary, then `(id, shape)` in increasing
//! id order), not through the geometry types' own serde, whose optional fields a
//! non-self-describing format like postcard cannot skip; the bytes are therefore fixed
//! by this module alone, and deterministic (obstacles in id order).

use super::check::checked;
use super::error::{EnvironmentProblem, StoreError};
use super::frame::{decode_all, framed, payload, read_bounded, write_file, Format, LoadOptions};
use super::frame::{MAGIC_COMPACT_TEXT, MAGIC_ENV, MAGIC_TEXT};
use crate::{DynamicEcm, Ecm, UpdateOptions};
use corridor_geom::{Environment, Obstacle, ObstacleId, Point, Polygon, Ring, SnapGrid};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The largest difference in free area (relative) between the ECM and the normalized
/// environment of a saved map: both come from the same integer count of grid squares,
/// so anything but rounding is a mismatch.
const FREE_AREA_TOLERANCE: f64 = 1e-12;

/// How far an ECM may be from a rebuild of its environment under
/// [`LoadOptions::full_validation`] (user units), as the update tests compare them.
const REBUILD_TOLERANCE: f64 = 1e-7;

/// An obstacle's geometry as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Shape {
    Point(Point),
    Polyline(Vec<Point>),
    /// Exterior, then holes.
    Polygon(Vec<Point>, Vec<Vec<Point>>),
}

/// The environment as written, with the arc deviation the ECM was built with (an
/// update must build with the same).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct SavedEnvironment {
    snap_scale: f64,
    max_arc_deviation: f64,
    next_id: u32,
    boundary: Vec<Point>,
    obstacles: Vec<(u32, Shape)>,
}

impl SavedEnvironment {
    fn of(env: &Environment, max_arc_deviation: f64) -> Self {
        let points = |r: &Ring| r.vertices().to_vec();
        let obstacles = env
            .obstacles()
            .map(|(id, o)| {
                let shape = match o {
                    Obstacle::Point(p) => Shape::Point(*p),
                    Obstacle::Polyline(ps) => Shape::Polyline(ps.clone()),
                    Obstacle::Polygon(p) => {
                        Shape::Polygon(points(&p.exterior), p.holes.iter().map(points).collect())
                    }
                };
                (id.0, shape)
            })
            .collect();
        SavedEnvironment {
            snap_scale: env.snap_grid().scale(),
            max_arc_deviation,
            next_id: env.next_id().0,
            boundary: points(env.boundary()),
            obstacles,
        }
    }

    /// The environment written, once it is valid and reads back exactly as written.
    fn environment(&self) -> Result<Environment, EnvironmentProblem> {
        let snap = SnapGrid::new(self.snap_scale)
            .map_err(|_| EnvironmentProblem::SnapScale(self.snap_scale))?;
        let deviation = self.max_arc_deviation;
        if !(deviation.is_finite() && deviation > 0.0) {
            return Err(EnvironmentProblem::ArcDeviation(deviation));
        }
        for pair in self.obstacles.windows(2) {
            if pair[0].0 >= pair[1].0 {
                return Err(EnvironmentProblem::UnsortedIds {
                    previous: pair[0].0,
                    id: pair[1].0,
                });
            }
        }
        if let Some(&(id, _)) = self.obstacles.last() {
            if self.next_id < id.saturating_add(1) {
                return Err(EnvironmentProblem::NextId {
                    next_id: self.next_id,
                    id,
                });
            }
        }
        let mut env = Environment::new(Ring::new(self.boundary.clone())).with_snap_grid(snap);
        if self.next_id > 0 {
            // Environment has no setter for its id counter: inserting under
            // `next_id - 1` and removing again leaves exactly that counter behind.
            let last = ObstacleId(self.next_id - 1);
            env.insert_with_id(last, Obstacle::Point(Point::ZERO));
            env.remove(last);
        }
        for (id, shape) in &self.obstacles {
            let obstacle = match shape {
                Shape::Point(p) => Obstacle::Point(*p),
                Shape::Polyline(ps) => Obstacle::Polyline(ps.clone()),
                Shape::Polygon(exterior, holes) => Obstacle::Polygon(Polygon::new(
                    Ring::new(exterior.clone()),
                    holes.iter().map(|h| Ring::new(h.clone())).collect(),
                )),
            };
            env.insert_with_id(ObstacleId(*id), obstacle);
        }
        if SavedEnvironment::of(&env, deviation) != *self {
            return Err(EnvironmentProblem::NotCanonical);
        }
        env.validate()?;
        Ok(env)
    }
}

/// A `CRDECM08` payload: the ECM (checked as a `CRDECM07` one is) and its environment
/// (valid, on the ECM's grid), with the arc deviation.
pub(super) fn decode(
    payload: &[u8],
    options: &LoadOptions,
) -> Result<(Ecm, Environment, f64), StoreError> {
    let (ecm, saved): (Ecm, SavedEnvironment) = decode_all(payload)?;
    let ecm = checked(ecm, options)?;
    let env = saved.environment()?;
    if env.snap_grid().scale() != ecm.snap_grid().scale() {
        return Err(EnvironmentProblem::Grid {
            environment: env.snap_grid().scale(),
            ecm: ecm.snap_grid().scale(),
        }
        .into());
    }
    Ok((ecm, env, saved.max_arc_deviation))
}

impl DynamicEcm {
    /// The map as compact bytes that hold the environment too (format `CRDECM08`: the
    /// header of [`Ecm::to_bytes`], then the ECM and the environment with its ids, id
    /// counter, snap grid and the arc deviation), so that [`DynamicEcm::from_bytes`]
    /// gives a map that takes updates. [`Ecm::from_bytes`] reads it too (as an ECM).
    /// Deterministic: the same map saves the same bytes.
    ///
    /// ```
    /// use corridor_ecm::{DynamicEcm, Ecm};
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(20.0, 10.0));
    /// env.insert(Obstacle::rectangle(Point::new(9.0, 0.0), Point::new(11.0, 4.0)));
    /// let map = DynamicEcm::new(env)?;
    /// let bytes = map.to_bytes();
    /// let mut loaded = DynamicEcm::from_bytes(&bytes)?;
    /// assert_eq!(loaded.to_bytes(), bytes);
    /// // The loaded map takes updates, and stays equal to a full rebuild.
    /// loaded.insert(Obstacle::rectangle(Point::new(9.0, 6.0), Point::new(11.0, 10.0)))?;
    /// let rebuilt = Ecm::build(loaded.environment())?;
    /// assert_eq!(loaded.ecm().canonical_diff(&rebuilt, 1e-7), None);
    /// // A file of the ECM alone loads as an Ecm, not as a map to update.
    /// assert!(DynamicEcm::from_bytes(&map.ecm().to_bytes()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let saved =
            SavedEnvironment::of(self.environment(), self.options().build.max_arc_deviation);
        framed(MAGIC_ENV, &(self.ecm(), &saved))
    }

    /// Reads a map written by [`DynamicEcm::to_bytes`] with default [`LoadOptions`] and
    /// [`UpdateOptions`].
    pub fn from_bytes(bytes: &[u8]) -> Result<DynamicEcm, StoreError> {
        DynamicEcm::from_bytes_with(bytes, &LoadOptions::default(), UpdateOptions::default())
    }

    /// Reads a map written by [`DynamicEcm::to_bytes`]: checks the ECM as
    /// [`Ecm::from_bytes_with`] does and the environment (valid, read back exactly as
    /// written, on the ECM's grid), normalizes the environment for the updates (no ECM
    /// is built) and checks that its free area is the ECM's; with
    /// [`LoadOptions::full_validation`], also that a rebuild equals the ECM. The arc
    /// deviation in `options` is replaced by the saved map's (the updates must build with
    /// the one the ECM was built with).
    ///
    /// A file of the ECM alone (`CRDECM07`, [`Ecm::to_bytes`]) is
    /// [`StoreError::NoEnvironment`]: load it with [`Ecm::from_bytes`], read-only.
    pub fn from_bytes_with(
        bytes: &[u8],
        load: &LoadOptions,
        mut options: UpdateOptions,
    ) -> Result<DynamicEcm, StoreError> {
        let payload = match payload(bytes)? {
            (Format::EcmOnly, _) => {
                return Err(StoreError::NoEnvironment { found: MAGIC_TEXT });
            }
            (Format::Compact, _) => {
                return Err(StoreError::NoEnvironment {
                    found: MAGIC_COMPACT_TEXT,
                });
            }
            (Format::WithEnvironment, payload) => payload,
        };
        let (ecm, env, deviation) = decode(payload, load)?;
        options.build.max_arc_deviation = deviation;
        let ecm_area = ecm.free_area();
        let map = DynamicEcm::from_parts(env, ecm, options).map_err(EnvironmentProblem::from)?;
        let walls = map.walls().map_err(EnvironmentProblem::from)?;
        let area = walls.free_area();
        if (area - ecm_area).abs() > FREE_AREA_TOLERANCE * area.abs().max(1.0) {
            return Err(EnvironmentProblem::FreeArea {
                environment: area,
                ecm: ecm_area,
            }
            .into());
        }
        if load.full_validation {
            let rebuilt = Ecm::from_walls_with(walls, &map.options().build)
                .map_err(|e| EnvironmentProblem::Rebuild(e.to_string()))?;
            if let Some(diff) = map.ecm().canonical_diff(&rebuilt, REBUILD_TOLERANCE) {
                return Err(EnvironmentProblem::Rebuild(diff).into());
            }
        }
        Ok(map)
    }

    /// Writes [`DynamicEcm::to_bytes`] to a file.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), StoreError> {
        write_file(path.as_ref(), &self.to_bytes())
    }

    /// Reads a file written by [`DynamicEcm::save`] (a regular file of at most 4 GiB).
    pub fn load(path: impl AsRef<Path>) -> Result<DynamicEcm, StoreError> {
        DynamicEcm::load_with(path, &LoadOptions::default(), UpdateOptions::default())
    }

    /// [`DynamicEcm::load`] with [`LoadOptions`] and [`UpdateOptions`] (see
    /// [`DynamicEcm::from_bytes_with`]).
    ///
    /// ```
    /// use corridor_ecm::{DynamicEcm, LoadOptions, StoreError, UpdateOptions};
    /// let missing = std::env::temp_dir().join("corridor-no-such-map.ecm");
    /// let err = DynamicEcm::load_with(&missing, &LoadOptions::default(), UpdateOptions::default());
    /// assert!(matches!(err, Err(StoreError::Io { .. })));
    /// ```
    pub fn load_with(
        path: impl AsRef<Path>,
        load: &LoadOptions,
        options: UpdateOptions,
    ) -> Result<DynamicEcm, StoreError> {
        DynamicEcm::from_bytes_with(&read_bounded(path.as_ref(), load)?, load, options)
    }
}
