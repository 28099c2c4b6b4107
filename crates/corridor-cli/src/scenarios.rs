//! Scenario runners: `corridor scen`, `corridor anyangle` and `corridor meshscen` plan every
//! problem of a benchmark set and compare the lengths with the stated optima.

use crate::environment_arg::CliError;
use corridor_asfv::{AsfvOptions, Decomposition};
use corridor_ecm::{Ecm, PathQuery, Planner};
use corridor_geom::{Environment, Point};
use corridor_trapmap::TrapezoidalMap;
use corridor_visgraph::{inflate_obstacles, VisibilityGraph};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Which planner answers the queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlannerKind {
    /// A* on the Explicit Corridor Map, then the taut path inside the corridor.
    Ecm,
    /// Adaptive space-filling volumes: A* over convex regions, then the funnel.
    Asfv,
    /// Visibility graph (reduced, rotational sweep): exact Euclidean shortest paths; a
    /// radius grows the obstacles by a 32-gon.
    Visgraph,
    /// Trapezoidal-map roadmap: trapezoid centres and wall midpoints (valid, not shortest).
    Trapmap,
}

/// One problem with its stated optimum.
pub struct Problem {
    /// Start.
    pub start: Point,
    /// Goal.
    pub goal: Point,
    /// Stated optimal length.
    pub optimum: f64,
}

impl From<&corridor_io::Problem> for Problem {
    fn from(p: &corridor_io::Problem) -> Self {
        Problem {
            start: p.start,
            goal: p.goal,
            optimum: p.length,
        }
    }
}

/// A built planner for one environment.
enum Built {
    Ecm(Box<(Ecm, Planner)>),
    Asfv(Box<Decomposition>),
    Visgraph(Box<VisibilityGraph>),
    Trapmap(Box<TrapezoidalMap>),
}

impl Built {
    fn new(kind: PlannerKind, env: &Environment, radius: f64) -> Result<Built, CliError> {
        match kind {
            PlannerKind::Ecm => Ok(Built::Ecm(Box::new((Ecm::build(env)?, Planner::new())))),
            PlannerKind::Asfv if radius > 0.0 => Err(CliError::Usage(
                "the asfv planner plans for points only (radius 0)".into(),
            )),
            PlannerKind::Asfv => Decomposition::build(env, &AsfvOptions::default())
                .map(|d| Built::Asfv(Box::new(d)))
                .map_err(|e| CliError::Usage(format!("asfv: {e}"))),
            PlannerKind::Visgraph => {
                let grown;
                let env = if radius > 0.0 {
                    grown = inflate_obstacles(env, radius)
                        .map_err(|e| CliError::Usage(format!("visgraph: {e}")))?;
                    &grown
                } else {
                    env
                };
                VisibilityGraph::build(env)
                    .map(|g| Built::Visgraph(Box::new(g)))
                    .map_err(|e| CliError::Usage(format!("visgraph: {e}")))
            }
            PlannerKind::Trapmap if radius > 0.0 => Err(CliError::Usage(
                "the trapmap planner plans for points only (radius 0)".into(),
            )),
            PlannerKind::Trapmap => TrapezoidalMap::build(env)
                .map(|m| Built::Trapmap(Box::new(m)))
                .map_err(|e| CliError::Usage(format!("trapmap: {e}"))),
        }
    }

    fn length(&mut self, start: Point, goal: Point, radius: f64) -> Result<f64, String> {
        match self {
            Built::Ecm(built) => built
                .1
                .plan(&built.0, &PathQuery::new(start, goal).with_radius(radius))
                .map(|p| p.length)
                .map_err(|e| e.to_string()),
            Built::Asfv(d) => d
                .path(start, goal)
                .map(|p| p.length)
                .map_err(|e| e.to_string()),
            Built::Visgraph(g) => g
                .shortest_path(start, goal)
                .map(|p| p.length)
                .map_err(|e| e.to_string()),
            Built::Trapmap(m) => m
                .path(start, goal)
                .map(|p| p.length)
                .map_err(|e| e.to_string()),
        }
    }
}

/// What a run measured.
#[derive(Default)]
pub struct Tally {
    ratios: Vec<f64>,
    query_ms: Vec<f64>,
    failures: BTreeMap<String, usize>,
    longer_than_optimum: usize,
    shorter_than_optimum: usize,
    build_ms: f64,
}

impl Tally {
    fn run(&mut self, built: &mut Built, problems: &[Problem], radius: f64, tolerance: f64) {
        for p in problems {
            let started = Instant::now();
            let result = built.length(p.start, p.goal, radius);
            self.query_ms.push(started.elapsed().as_secs_f64() * 1e3);
            match result {
                Ok(length) => {
                    let ratio = if p.optimum > 0.0 {
                        length / p.optimum
                    } else {
                        1.0 + length
                    };
                    if ratio > 1.0 + tolerance {
                        self.longer_than_optimum += 1;
                    }
                    if ratio < 1.0 - tolerance {
                        self.shorter_than_optimum += 1;
                    }
                    self.ratios.push(ratio);
                }
                Err(reason) => {
                    let kind = reason.split(':').next().unwrap_or(&reason).to_string();
                    *self.failures.entry(kind).or_insert(0) += 1;
                }
            }
        }
    }

    fn print(mut self, label: &str, json: bool, optimum_name: &str) {
        let quantile = |v: &mut Vec<f64>, q: f64| -> f64 {
            if v.is_empty() {
                return f64::NAN;
            }
            v.sort_by(f64::total_cmp);
            v[((v.len() - 1) as f64 * q).round() as usize]
        };
        let solved = self.ratios.len();
        let failed: usize = self.failures.values().sum();
        let mean = self.ratios.iter().sum::<f64>() / solved.max(1) as f64;
        let (p50, p99, max) = (
            quantile(&mut self.ratios, 0.5),
            quantile(&mut self.ratios, 0.99),
            quantile(&mut self.ratios, 1.0),
        );
        let (q50, q99) = (
            quantile(&mut self.query_ms, 0.5),
            quantile(&mut self.query_ms, 0.99),
        );
        if json {
            let value = serde_json::json!({
                "set": label,
                "solved": solved,
                "failed": failed,
                "failures": self.failures,
                "ratio": { "mean": mean, "p50": p50, "p99": p99, "max": max },
                "longer_than_optimum": self.longer_than_optimum,
                "shorter_than_optimum": self.shorter_than_optimum,
                "query_ms": { "p50": q50, "p99": q99 },
                "build_ms": self.build_ms,
            });
            println!("{value}");
        } else {
            println!("{label}: {solved} solved, {failed} failed");
            for (reason, count) in &self.failures {
                println!("  failed {count}: {reason}");
            }
            println!("  length / {optimum_name}: mean {mean:.5}  p50 {p50:.5}  p99 {p99:.5}  max {max:.5}");
            println!(
                "  longer than the {optimum_name}: {}, shorter: {}",
                self.longer_than_optimum, self.shorter_than_optimum
            );
            println!(
                "  query time (ms): p50 {q50:.4}  p99 {q99:.4};  build {:.1} ms",
                self.build_ms
            );
        }
    }
}

fn build(
    kind: PlannerKind,
    env: &Environment,
    radius: f64,
    tally: &mut Tally,
) -> Result<Built, CliError> {
    let started = Instant::now();
    let built = Built::new(kind, env, radius)?;
    tally.build_ms += started.elapsed().as_secs_f64() * 1e3;
    Ok(built)
}

/// `corridor scen MAP SCEN`: Moving AI scenarios (cell centres; optimum = octile length,
/// an upper bound for any-angle paths).
pub fn scen(
    map: &Path,
    scen: &Path,
    kind: PlannerKind,
    radius: f64,
    json: bool,
) -> Result<(), CliError> {
    let env = corridor_io::load_environment(map)?;
    let problems: Vec<Problem> = corridor_io::load_scenarios(scen)?
        .iter()
        .map(|s| Problem {
            start: s.start_point(),
            goal: s.goal_point(),
            optimum: s.optimal_length,
        })
        .collect();
    let mut tally = Tally::default();
    let mut built = build(kind, &env, radius, &mut tally)?;
    tally.run(&mut built, &problems, radius, 1e-6);
    tally.print(&map.display().to_string(), json, "octile optimum");
    Ok(())
}

/// `corridor anyangle DIR`: a folder with `maze.txt` + `problems.csv`, or a parent of such
/// folders (Euclidean optima).
pub fn anyangle(dir: &Path, kind: PlannerKind, radius: f64, json: bool) -> Result<(), CliError> {
    let mut folders: Vec<PathBuf> = if dir.join("maze.txt").is_file() {
        vec![dir.to_path_buf()]
    } else {
        let entries = std::fs::read_dir(dir).map_err(|source| CliError::Io {
            path: dir.display().to_string(),
            source,
        })?;
        entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("maze.txt").is_file())
            .collect()
    };
    folders.sort();
    if folders.is_empty() {
        return Err(CliError::Usage(format!(
            "{}: no maze.txt here or in its sub-folders",
            dir.display()
        )));
    }
    let mut tally = Tally::default();
    for folder in &folders {
        let env = corridor_io::load_environment(folder.join("maze.txt"))?;
        let problems: Vec<Problem> = corridor_io::load_problems(folder.join("problems.csv"))?
            .iter()
            .map(Problem::from)
            .collect();
        let mut built = build(kind, &env, radius, &mut tally)?;
        // Stated lengths have 8 significant digits.
        tally.run(&mut built, &problems, radius, 1e-6);
    }
    tally.print(
        &format!("{} ({} mazes)", dir.display(), folders.len()),
        json,
        "Euclidean optimum",
    );
    Ok(())
}

/// `corridor meshscen MESH CSV`: Polyanya mesh problems (Euclidean optima).
pub fn meshscen(
    mesh: &Path,
    csv: &Path,
    kind: PlannerKind,
    radius: f64,
    json: bool,
) -> Result<(), CliError> {
    let env = corridor_io::load_environment(mesh)?;
    let problems: Vec<Problem> = corridor_io::load_problems(csv)?
        .iter()
        .map(Problem::from)
        .collect();
    let mut tally = Tally::default();
    let mut built = build(kind, &env, radius, &mut tally)?;
    // Stated lengths have 6 significant digits.
    tally.run(&mut built, &problems, radius, 5e-6);
    tally.print(&mesh.display().to_string(), json, "Euclidean optimum");
    Ok(())
}
