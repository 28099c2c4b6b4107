//! The build pipeline and its recovery: normalize, diagram, extract, validate; when the
//! Voronoi library gets a diagram wrong, the same walls again under the next exact
//! [`Transform`], mapped back.

use super::assemble::finalize;
use super::error::{BuildError, FailureKind, ValidationFailure};
use super::extract::{extract_with, segment_ends};
use super::options::BuildOptions;
use super::tiles::tiled_medial_axis;
use super::validate::{check_ranges, check_walls, free_area_twice, validate, WallsChecked};
use super::voronoi::{voronoi, ExtractError};
use crate::graph::{BuildStats, CellIndex, Ecm};
use crate::transform::Transform;
use corridor_geom::{normalize_indexed_within, Environment, Point, Walls};
use std::borrow::Cow;
use std::time::Instant;

impl Ecm {
    /// Builds the ECM of an environment with default options: normalizes it into walls
    /// on its snap grid, then [`Ecm::from_walls_with`].
    ///
    /// Independent stages (the wall checks beside the Voronoi diagram, the cell index
    /// beside validation) run side by side on the current rayon pool (the global one
    /// outside [`rayon::ThreadPool::install`]); the ECM is the same for every thread
    /// count, and a pool of one thread builds it sequentially.
    ///
    /// ```
    /// use corridor_ecm::Ecm;
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
    /// env.insert(Obstacle::rectangle(Point::new(4.0, 4.0), Point::new(6.0, 6.0)));
    /// let ecm = Ecm::build(&env)?;
    /// assert_eq!(ecm.component_count(), 1);
    /// assert!((ecm.free_area() - 96.0).abs() < 1e-9);
    /// // The ring around the block is 4 wide, so the widest corridor has clearance 2.
    /// let widest = ecm.edges().map(|(_, e)| e.min_clearance).fold(0.0, f64::max);
    /// assert!((widest - 2.0).abs() < 1e-9);
    /// println!("{:?}", ecm.stats());
    /// # Ok::<(), corridor_ecm::BuildError>(())
    /// ```
    pub fn build(env: &Environment) -> Result<Ecm, BuildError> {
        Self::build_with(env, &BuildOptions::default())
    }

    /// [`Ecm::build`] with explicit options.
    ///
    /// With [`BuildOptions::tiles`] > 1 the Voronoi diagrams of that many vertical strips
    /// of the walls are built in parallel and stitched where each is certified (the
    /// local repair's argument, see the module `build::tiles`); when the strips cannot
    /// prove every edge, one diagram of all the walls is built as usual. The ECM equals
    /// the sequential one up to the numbering of vertices and edges, for any thread count.
    ///
    /// ```
    /// use corridor_ecm::{BuildOptions, Ecm};
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(60.0, 21.0));
    /// for i in 0..20 {
    ///     for j in 0..7 {
    ///         let (x, y) = (3.0 * i as f64 + 1.0, 3.0 * j as f64 + 1.0);
    ///         env.insert(Obstacle::rectangle(Point::new(x, y), Point::new(x + 1.0, y + 1.0)));
    ///     }
    /// }
    /// let options = BuildOptions { tiles: 2, ..BuildOptions::default() };
    /// let stitched = Ecm::build_with(&env, &options)?;
    /// assert_eq!(stitched.stats().tiles, 2);
    /// assert_eq!(stitched.canonical_diff(&Ecm::build(&env)?, 0.0), None);
    /// # Ok::<(), corridor_ecm::BuildError>(())
    /// ```
    pub fn build_with(env: &Environment, options: &BuildOptions) -> Result<Ecm, BuildError> {
        let start = Instant::now();
        let (walls, grid) = normalize_indexed_within(env, &options.normalize)?;
        let normalize_time = start.elapsed();
        let mut ecm = Self::build_from_walls(&walls, options, WallsChecked::Disjoint(grid))?;
        ecm.stats.normalize = normalize_time;
        Ok(ecm)
    }

    /// Builds the ECM of walls that are already on the grid, with default options.
    ///
    /// The walls must keep their contract (see [`Walls`]); violations are reported as
    /// [`BuildError::InvalidWalls`]. See [`Ecm`] for an example.
    pub fn from_walls(walls: &Walls) -> Result<Ecm, BuildError> {
        Self::from_walls_with(walls, &BuildOptions::default())
    }

    /// Builds the ECM of walls with explicit options.
    ///
    /// The result has passed validation: every bending point is equidistant from its two
    /// nearest points, no wall is closer than its clearance, the cells add up to the free
    /// area and the degrees are right. When the Voronoi library gets a diagram wrong,
    /// the walls are rebuilt under the next exact transform of `options.recovery`; if all
    /// fail, [`BuildError::Unrecoverable`] names the walls where the first one failed.
    pub fn from_walls_with(walls: &Walls, options: &BuildOptions) -> Result<Ecm, BuildError> {
        Self::build_from_walls(walls, options, WallsChecked::No)
    }

    /// [`Ecm::from_walls_with`], told how much of the walls' contract is known to hold.
    fn build_from_walls(
        walls: &Walls,
        options: &BuildOptions,
        checked: WallsChecked,
    ) -> Result<Ecm, BuildError> {
        let mut stats = BuildStats {
            input_segments: walls.segments.len(),
            input_points: walls.points.len(),
            ..BuildStats::default()
        };
        let clock = Instant::now();
        // Walls from `normalize` (already disjoint) need only cheap checks before the
        // Voronoi diagram of the identity transform can start: the rest of the checks
        // (orientation, the wall index) runs beside it, on another thread of the current
        // rayon pool when it has one. Both sides compute what the sequential order
        // computes, and a wall error still wins over the diagram.
        // With `options.tiles` > 1 the identity's medial axis is first tried from strips
        // (`tiles`), in the diagram's place.
        let deviation = walls.grid.to_grid_length(options.max_arc_deviation);
        let tiles = options.tiles;
        let identity_first = options.recovery.first() == Some(&Transform::Identity);
        let tiled = || {
            let clock = Instant::now();
            (
                tiled_medial_axis(walls, tiles, deviation).ok(),
                clock.elapsed(),
            )
        };
        let mut first_diagram = None;
        let mut first_tiled = None;
        let (mut index, ends) = match checked {
            WallsChecked::Disjoint(grid) if identity_first => {
                check_ranges(walls)?;
                let timed_checks = || {
                    let clock = Instant::now();
                    (
                        check_walls(walls, WallsChecked::Disjoint(grid)),
                        clock.elapsed(),
                    )
                };
                let checks = if tiles > 1 {
                    let (checks, raw) = rayon::join(timed_checks, tiled);
                    first_tiled = Some(raw);
                    checks
                } else {
                    let (checks, diagram) = rayon::join(timed_checks, || {
                        let clock = Instant::now();
                        (voronoi(walls), clock.elapsed())
                    });
                    first_diagram = Some(diagram);
                    checks
                };
                stats.validation += checks.1;
                checks.0?
            }
            checked => {
                let checks = check_walls(walls, checked)?;
                stats.validation += clock.elapsed();
                if tiles > 1 && identity_first {
                    first_tiled = Some(tiled());
                }
                checks
            }
        };
        let mut tiled_raw = None;
        if let Some((raw, time)) = first_tiled {
            stats.voronoi += time;
            tiled_raw = raw;
        }
        let clock = Instant::now();
        let free_twice = free_area_twice(walls);
        let one_sided = walls.segments.iter().any(|s| !s.two_sided);
        stats.validation += clock.elapsed();
        if !one_sided || free_twice <= 0 {
            let mut sources: Vec<_> = walls
                .segments
                .iter()
                .flat_map(|s| s.sources.iter().copied())
                .chain(walls.points.iter().flat_map(|(_, s)| s.iter().copied()))
                .collect();
            sources.sort();
            sources.dedup();
            return Err(BuildError::Unbounded { sources });
        }
        let mut first_failure: Option<ValidationFailure> = None;
        // An unbounded free space is reported only if every attempt saw it (a wrong
        // diagram can also show an infinite edge in free space).
        let mut unbounded: Option<Vec<_>> = None;
        let mut all_unbounded = true;
        let mut attempts = 0usize;
        // The stitched strips first (`None`), then the transforms.
        let steps = tiled_raw.is_some().then_some(None);
        for step in steps.into_iter().chain(options.recovery.iter().map(Some)) {
            let (transform, raw, clock) = match step {
                None => {
                    let raw = tiled_raw.take().unwrap_or_default();
                    (Transform::Identity, raw, Instant::now())
                }
                Some(&transform) => {
                    // The identity needs no copy of the walls (a copy was 1 % of a map build).
                    let transformed = if transform == Transform::Identity {
                        Cow::Borrowed(walls)
                    } else {
                        match transform.apply_walls(walls) {
                            Some(t) => Cow::Owned(t),
                            None => continue,
                        }
                    };
                    attempts += 1;
                    // The identity's diagram may have been built beside the wall checks.
                    let diagram = match first_diagram.take() {
                        Some((diagram, time)) if transform == Transform::Identity => {
                            stats.voronoi += time;
                            diagram
                        }
                        _ => {
                            let clock = Instant::now();
                            let diagram = voronoi(&transformed);
                            stats.voronoi += clock.elapsed();
                            diagram
                        }
                    };
                    let clock = Instant::now();
                    // The segment ends are grouped by equality, which every transform keeps, but
                    // looked up by transformed point: regrouped for other transforms.
                    let transformed_ends = match transform {
                        Transform::Identity => Cow::Borrowed(&ends),
                        _ => Cow::Owned(segment_ends(&transformed)),
                    };
                    let raw = diagram
                        .and_then(|d| extract_with(&transformed, &transformed_ends, d, deviation));
                    let raw = match raw {
                        Ok(raw) => raw,
                        Err(e) => {
                            let (kind, sources) = match e {
                                ExtractError::Voronoi(message) => {
                                    all_unbounded = false;
                                    (FailureKind::Voronoi { message }, Vec::new())
                                }
                                ExtractError::Unbounded(sources) => {
                                    unbounded.get_or_insert(sources.clone());
                                    (FailureKind::Unbounded, sources)
                                }
                            };
                            first_failure.get_or_insert(ValidationFailure {
                                kind,
                                position: Point::ZERO,
                                sources,
                            });
                            stats.extraction += clock.elapsed();
                            continue;
                        }
                    };
                    (transform, raw, clock)
                }
            };
            let mut ecm = finalize(raw, transform, walls);
            ecm.free_area =
                walls.grid.to_user_length(walls.grid.to_user_length(1.0)) * free_twice as f64 * 0.5;
            stats.extraction += clock.elapsed();
            // With more than one thread, the cell index is built beside validation (and
            // dropped if validation fails: then a recovery follows anyway).
            let timed_index = |edges| {
                let clock = Instant::now();
                (CellIndex::build(edges), clock.elapsed())
            };
            let timed_validation = |index: &mut _| {
                let clock = Instant::now();
                (validate(&ecm, walls, free_twice, index), clock.elapsed())
            };
            let ((verdict, validation_time), cells) = if rayon::current_num_threads() > 1 {
                let (checked, cells) =
                    rayon::join(|| timed_validation(&mut index), || timed_index(&ecm.edges));
                (checked, Some(cells))
            } else {
                (timed_validation(&mut index), None)
            };
            stats.validation += validation_time;
            match verdict {
                Ok(()) => {
                    let (cells, time) = cells.unwrap_or_else(|| timed_index(&ecm.edges));
                    ecm.cells = cells;
                    stats.index = time;
                    stats.recoveries = attempts.saturating_sub(1);
                    stats.tiles = if step.is_none() { tiles } else { 0 };
                    stats.transform = Some(transform);
                    stats.vertices = ecm.vertex_count();
                    stats.edges = ecm.edge_count();
                    stats.bending_points = ecm.bending_point_count();
                    stats.components = ecm.component_count();
                    ecm.stats = stats;
                    return Ok(ecm);
                }
                // A failure of the stitched strips is not reported: the diagram of all
                // the walls follows.
                Err(failure) if step.is_some() => {
                    all_unbounded = false;
                    first_failure.get_or_insert(failure);
                }
                Err(_) => {}
            }
        }
        if let Some(sources) = unbounded.filter(|_| all_unbounded) {
            return Err(BuildError::Unbounded { sources });
        }
        Err(BuildError::Unrecoverable {
            attempts,
            failure: first_failure.unwrap_or(ValidationFailure {
                kind: FailureKind::Voronoi {
                    message: "no transform keeps the walls on the grid".into(),
                },
                position: Point::ZERO,
                sources: Vec::new(),
            }),
        })
    }
}
