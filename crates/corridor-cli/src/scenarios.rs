//! Scenario runners: `corridor scen`, `corridor anyangle` and `corridor meshscen` plan every
//! problem of a benchmark set and compare the lengths with the stated optima.

use crate::error::CliError;
use crate::planners::{self, AnyPlanner, PlannerKind};
use crate::progress;
use corridor_ecm::PathQuery;
use corridor_geom::{Environment, Point};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

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

/// What a run measured.
#[derive(Default)]
pub struct Tally {
    ratios: Vec<f64>,
    query_ms: Vec<f64>,
    failures: BTreeMap<String, usize>,
    longer_than_optimum: usize,
    shorter_than_optimum: usize,
    /// Paths the ECM made with a safety net instead of the funnel, by kind.
    fallbacks: BTreeMap<&'static str, usize>,
    build_ms: f64,
}

impl Tally {
    fn run(&mut self, built: &AnyPlanner, problems: &[Problem], radius: f64, tolerance: f64) {
        let progress = progress::bar(
            problems.len() as u64,
            "{spinner} problems [{bar:30}] {pos}/{len} eta {eta}",
        );
        for p in problems {
            let started = Instant::now();
            let query = PathQuery::new(p.start, p.goal).with_radius(radius);
            let result = built
                .find_path(&query)
                .map(|path| {
                    if let Some(f) = path.fallback {
                        *self.fallbacks.entry(f.name()).or_insert(0) += 1;
                    }
                    path.length
                })
                .map_err(|e| e.to_string());
            self.query_ms.push(started.elapsed().as_secs_f64() * 1e3);
            progress.inc(1);
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
        progress.finish_and_clear();
    }

    /// Prints the report; an error when some query failed (after the report, so that a
    /// script sees both the figures and a nonzero exit).
    fn print(mut self, label: &str, json: bool, optimum_name: &str) -> Result<(), CliError> {
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
                "fallbacks": self.fallbacks,
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
            for (kind, count) in &self.fallbacks {
                println!("  fallback {count}: {kind}");
            }
            println!(
                "  query time (ms): p50 {q50:.4}  p99 {q99:.4};  build {:.1} ms",
                self.build_ms
            );
        }
        if failed > 0 {
            return Err(CliError::QueriesFailed {
                failed,
                total: solved + failed,
            });
        }
        Ok(())
    }
}

fn build(
    kind: PlannerKind,
    env: &Environment,
    radius: f64,
    tally: &mut Tally,
) -> Result<AnyPlanner, CliError> {
    let started = Instant::now();
    let built = planners::build_on(kind, env, radius, None)?;
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
    let env = corridor_io::load_environment_with(map, crate::environment_arg::pinch())?;
    let scenarios = corridor_io::load_scenarios(scen)?;
    check_scenarios(map, &env, scen, &scenarios)?;
    let problems: Vec<Problem> = scenarios
        .iter()
        .map(|s| Problem {
            start: s.start_point(),
            goal: s.goal_point(),
            optimum: s.optimal_length,
        })
        .collect();
    let mut tally = Tally::default();
    let built = build(kind, &env, radius, &mut tally)?;
    tally.run(&built, &problems, radius, 1e-6);
    tally.print(&map.display().to_string(), json, "octile optimum")
}

/// Refuses scenarios made for another map: each must name the map's file (the folders
/// before it do not count) and its width and height (of the grid, or for a map in
/// another format the size of its bounding box).
fn check_scenarios(
    map: &Path,
    env: &Environment,
    scen: &Path,
    scenarios: &[corridor_io::Scenario],
) -> Result<(), CliError> {
    let map_size = match corridor_io::load_grid(map) {
        Ok(grid) => (grid.width(), grid.height()),
        Err(_) => {
            let size = env.bounds().size();
            (size.x.round() as u32, size.y.round() as u32)
        }
    };
    let map_name = map
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file_name = |s: &str| s.rsplit(['/', '\\']).next().unwrap_or(s).to_string();
    for (k, s) in scenarios.iter().enumerate() {
        if file_name(&s.map) != map_name || (s.map_width, s.map_height) != map_size {
            return Err(CliError::ScenarioMismatch {
                scen: scen.display().to_string(),
                scenario: k + 1,
                scenario_map: s.map.clone(),
                scenario_size: (s.map_width, s.map_height),
                map: map.display().to_string(),
                map_name,
                map_size,
            });
        }
    }
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
        let env = corridor_io::load_environment_with(
            folder.join("maze.txt"),
            crate::environment_arg::pinch(),
        )?;
        let problems: Vec<Problem> = corridor_io::load_problems(folder.join("problems.csv"))?
            .iter()
            .map(Problem::from)
            .collect();
        let built = build(kind, &env, radius, &mut tally)?;
        // Stated lengths have 8 significant digits.
        tally.run(&built, &problems, radius, 1e-6);
    }
    tally.print(
        &format!("{} ({} mazes)", dir.display(), folders.len()),
        json,
        "Euclidean optimum",
    )
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
    let built = build(kind, &env, radius, &mut tally)?;
    // Stated lengths have 6 significant digits.
    tally.run(&built, &problems, radius, 5e-6);
    tally.print(&mesh.display().to_string(), json, "Euclidean optimum")
}
