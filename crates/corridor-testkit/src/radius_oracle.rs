//! Does the ECM's path for a radius r > 0 hold against the exact disk planner? The ECM's
//! answers compared with [`DiskVisibilityGraph`] (an independent exact oracle: tangents
//! and arcs of radius r, no ECM code): solvable queries refused, clearance below r by
//! brute force over every wall, and the length ratios ECM / oracle.
//!
//! ```
//! use corridor_geom::{Environment, Obstacle, Point};
//! use corridor_testkit::radius_oracle::{compare, RadiusTally};
//! let mut env = Environment::rectangle(Point::ZERO, Point::new(20.0, 20.0));
//! env.insert(Obstacle::rectangle(Point::new(9.0, 5.0), Point::new(11.0, 15.0)));
//! let ecm = corridor_ecm::Ecm::build(&env).unwrap();
//! let mut tally = RadiusTally::default();
//! let pairs = [(Point::new(5.0, 10.0), Point::new(15.0, 10.0))];
//! compare(&env, &ecm, 1.0, &pairs, &mut tally).unwrap();
//! assert_eq!(tally.ratios.len(), 1);
//! // Not shorter than the exact path, but for the ECM's fitting tolerance
//! // (`corridor_ecm::FIT_TOLERANCE_STEPS`, 1e-7 units here: it may pass that much closer).
//! assert!(tally.ratios[0] >= 1.0 - 1e-6);
//! ```

use corridor_ecm::{Ecm, PathQuery, Planner, FIT_TOLERANCE_STEPS};
use corridor_geom::{Environment, FreeSpace, Obstacle, Point, Segment};
use corridor_visgraph::{DiskQueryError, DiskVisibilityGraph};
use std::time::Instant;

/// One query worth showing: where, and what happened.
#[derive(Clone, Debug)]
pub struct Case {
    /// Which environment and radius (as the caller labelled it).
    pub label: String,
    /// Start.
    pub start: Point,
    /// Goal.
    pub goal: Point,
    /// What went wrong, or the ratio.
    pub detail: String,
}

/// The figures of many comparisons.
#[derive(Clone, Debug, Default)]
pub struct RadiusTally {
    /// Queries whose ends both fit the disk (others are skipped).
    pub queries: usize,
    /// Of those, the ones the oracle solves.
    pub solvable: usize,
    /// Solvable queries the ECM refused.
    pub refused: Vec<Case>,
    /// ECM paths coming closer to a wall than r minus the fitting tolerance
    /// ([`FIT_TOLERANCE_STEPS`] grid steps, + 1e-9) and the walls' [`snap_displacement`],
    /// or found where the oracle has none.
    pub violations: Vec<Case>,
    /// ECM length / oracle length per solved query.
    pub ratios: Vec<f64>,
    /// The largest ratios with their queries (at most 10).
    pub worst: Vec<(f64, Case)>,
    /// Seconds spent building oracles.
    pub oracle_build_s: f64,
    /// Seconds per oracle query.
    pub oracle_query_s: Vec<f64>,
    /// Label given to the next cases.
    pub label: String,
}

impl RadiusTally {
    /// Mean, 99th percentile and largest length ratio (1 when there are none).
    pub fn ratio_stats(&self) -> (f64, f64, f64) {
        if self.ratios.is_empty() {
            return (1.0, 1.0, 1.0);
        }
        let mut r = self.ratios.clone();
        r.sort_by(f64::total_cmp);
        let mean = r.iter().sum::<f64>() / r.len() as f64;
        (mean, crate::quantile(&r, 0.99), *r.last().unwrap())
    }

    /// Whether the issue's thresholds hold: nothing refused, no clearance violation,
    /// mean ≤ 1.005, p99 ≤ 1.02, max ≤ 1.05.
    pub fn meets_thresholds(&self) -> bool {
        let (mean, p99, max) = self.ratio_stats();
        self.refused.is_empty()
            && self.violations.is_empty()
            && mean <= 1.005
            && p99 <= 1.02
            && max <= 1.05
    }

    /// One line of figures.
    pub fn summary(&self) -> String {
        let (mean, p99, max) = self.ratio_stats();
        let q = if self.oracle_query_s.is_empty() {
            0.0
        } else {
            let mut s = self.oracle_query_s.clone();
            s.sort_by(f64::total_cmp);
            crate::median(&s) * 1e3
        };
        format!(
            "{} queries, {} solvable, {} refused, {} clearance violations, ratio min {:.6} mean {mean:.5} p99 {p99:.5} max {max:.5}; oracle build {:.2} s, median query {q:.2} ms",
            self.queries,
            self.solvable,
            self.refused.len(),
            self.violations.len(),
            self.ratios.iter().copied().fold(1.0, f64::min),
            self.oracle_build_s
        )
    }

    fn note_ratio(&mut self, ratio: f64, case: Case) {
        self.ratios.push(ratio);
        if self.worst.len() < 10 || ratio > self.worst.last().unwrap().0 {
            self.worst.push((ratio, case));
            self.worst.sort_by(|a, b| b.0.total_cmp(&a.0));
            self.worst.truncate(10);
        }
    }
}

/// Every wall of `env`: the free space's walls and the point obstacles.
pub fn walls(env: &Environment) -> Vec<Segment> {
    let Ok(free) = FreeSpace::from_environment(env) else {
        return Vec::new();
    };
    let mut out: Vec<Segment> = free.walls().map(|w| w.segment).collect();
    for (_, o) in env.obstacles() {
        if let Obstacle::Point(p) = o {
            out.push(Segment::new(*p, *p));
        }
    }
    out
}

/// How far the snap grid moves the ends of `walls`: the largest distance from a wall end
/// to its grid point (0 when every end lies on the grid, as in grid maps). The ECM is the
/// map of the snapped walls, so its clearances may differ from the given walls' by this.
pub fn snap_displacement(env: &Environment, walls: &[Segment]) -> f64 {
    let grid = env.snap_grid();
    walls
        .iter()
        .flat_map(|w| [w.a, w.b])
        .filter_map(|p| Some(grid.to_point(grid.snap(p).ok()?).distance(p)))
        .fold(0.0, f64::max)
}

/// The polyline's smallest distance to any wall, by brute force.
pub fn polyline_clearance(points: &[Point], walls: &[Segment]) -> f64 {
    let pieces: Vec<Segment> = if points.len() == 1 {
        vec![Segment::new(points[0], points[0])]
    } else {
        points
            .windows(2)
            .map(|w| Segment::new(w[0], w[1]))
            .collect()
    };
    pieces
        .iter()
        .flat_map(|s| walls.iter().map(move |w| s.distance_to_segment(w)))
        .fold(f64::INFINITY, f64::min)
}

/// Compares the ECM's paths for `radius` with the exact oracle's on `pairs`, adding to
/// `tally`. Queries with an end closer than `radius` to a wall are skipped.
///
/// # Errors
/// When the oracle cannot be built (an invalid environment), its message.
pub fn compare(
    env: &Environment,
    ecm: &Ecm,
    radius: f64,
    pairs: &[(Point, Point)],
    tally: &mut RadiusTally,
) -> Result<(), String> {
    let t = Instant::now();
    let oracle = DiskVisibilityGraph::build(env, radius).map_err(|e| e.to_string())?;
    tally.oracle_build_s += t.elapsed().as_secs_f64();
    let walls = walls(env);
    let moved = snap_displacement(env, &walls);
    let mut planner = Planner::new();
    for &(start, goal) in pairs {
        let case = |detail: String| Case {
            label: tally.label.clone(),
            start,
            goal,
            detail,
        };
        let t = Instant::now();
        let exact = oracle.shortest_path(start, goal);
        let elapsed = t.elapsed().as_secs_f64();
        let exact = match exact {
            Err(DiskQueryError::TooClose { .. })
            | Err(DiskQueryError::Free(corridor_geom::PathQueryError::NotFinite { .. }))
            | Err(DiskQueryError::Free(corridor_geom::PathQueryError::OutsideBoundary {
                ..
            }))
            | Err(DiskQueryError::Free(corridor_geom::PathQueryError::InsideObstacle { .. })) => {
                continue
            }
            other => other,
        };
        tally.queries += 1;
        tally.oracle_query_s.push(elapsed);
        let found = planner.plan(ecm, &PathQuery::new(start, goal).with_radius(radius));
        match (exact, found) {
            (Ok(exact), Ok(path)) => {
                tally.solvable += 1;
                let clearance = polyline_clearance(&path.points, &walls);
                // The documented rule: a disk fits where clearance >= r minus the fitting
                // tolerance (FIT_TOLERANCE_STEPS grid steps), plus 1e-9 for rounding,
                // measured from the walls as snapped to the grid: the given walls may
                // lie up to `moved` from those (0 for inputs on the grid).
                let slack = ecm.snap_grid().to_user_length(FIT_TOLERANCE_STEPS) + 1e-9 + moved;
                if clearance < radius - slack {
                    let c = case(format!("clearance {clearance} < {radius}"));
                    tally.violations.push(c);
                }
                let ratio = if exact.length > 0.0 {
                    path.length / exact.length
                } else {
                    1.0
                };
                let c = case(format!("ecm {} oracle {}", path.length, exact.length));
                tally.note_ratio(ratio, c);
            }
            (Ok(exact), Err(e)) => {
                tally.solvable += 1;
                let c = case(format!("refused ({e}); oracle length {}", exact.length));
                tally.refused.push(c);
            }
            (Err(_), Ok(path)) => {
                let clearance = polyline_clearance(&path.points, &walls);
                let c = case(format!(
                    "oracle finds no path; ECM length {} clearance {clearance}",
                    path.length
                ));
                tally.violations.push(c);
            }
            (Err(_), Err(_)) => {}
        }
    }
    Ok(())
}

/// `n` seeded random pairs of points of `env` where a disk of `radius` fits (in the free
/// space, at least `radius` from every wall); fewer when such points are rare.
pub fn random_free_pairs(
    env: &Environment,
    walls: &[Segment],
    radius: f64,
    n: usize,
    seed: u64,
) -> Vec<(Point, Point)> {
    use rand::{Rng, SeedableRng};
    let Ok(free) = FreeSpace::from_environment(env) else {
        return Vec::new();
    };
    let bounds = env.bounds();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut points = Vec::new();
    for _ in 0..200 * (n + 1) {
        if points.len() == n + 1 {
            break;
        }
        let p = Point::new(
            rng.random_range(bounds.min.x..=bounds.max.x),
            rng.random_range(bounds.min.y..=bounds.max.y),
        );
        if free.classify(p) == corridor_geom::PointClass::Free
            && walls.iter().all(|w| w.distance(p) >= radius)
        {
            points.push(p);
        }
    }
    points.windows(2).map(|w| (w[0], w[1])).collect()
}
