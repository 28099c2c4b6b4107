//! Benchmark of path planning (issue 7): the query time of [`Planner`] on the Aurora mesh
//! problems (2,990) and the any-angle mazes (4,102), radius 0, overall and per phase,
//! with the path length over the stated optimum beside it.
//!
//! A plain `fn main` harness (`harness = false`), so it needs no benchmark framework:
//!
//! ```text
//! cargo bench -p corridor-ecm --bench plan                          # both sets
//! cargo bench -p corridor-ecm --bench plan -- --set aurora          # one set
//! cargo bench -p corridor-ecm --bench plan -- --candidates 0,4      # compare settings
//! ```
//!
//! Options: `--set aurora|anyangle` (default both), `--candidates LIST` (how many A*
//! corridors each query compares with the taut-length search's, see
//! [`Planner::set_candidate_corridors`]; default 4, the planner's default; several values
//! are measured one after the other in the same run), `--every N` (every n-th problem).
//! Without cargo's `--bench` flag (as under `cargo test --benches`) it only runs a few
//! problems as a smoke test.
//!
//! Method: the maps are loaded and their ECMs built first (untimed). Each setting then
//! runs every query once to warm up (edge-cost cache, buffers) and once timed, with one
//! reused [`Planner`] and [`CorridorPath`] ([`Planner::plan_into`]). Query times are wall clock
//! per query; the phase times come from [`Planner::phase_times`] (timing is on for the
//! whole timed pass, which costs a few clock reads per query). p50 and p99 are over the
//! queries; a phase's quantiles are taken over its own per-query times, so they do not
//! add up to the overall ones. The machine this was written on is shared: read the
//! medians, and compare settings within one run.

use corridor_ecm::{CorridorPath, Ecm, PathQuery, Planner};
use corridor_io::Problem;
use std::path::PathBuf;
use std::time::Instant;

struct Set {
    name: &'static str,
    /// (ECM, problems) per map.
    maps: Vec<(Ecm, Vec<Problem>)>,
}

fn shared() -> PathBuf {
    corridor_testkit::data_dir()
}

fn load_aurora(every: usize, limit: usize) -> Set {
    let dir = shared().join("polyanya");
    let env = corridor_io::load_environment(dir.join("aurora.mesh")).expect("aurora.mesh");
    let ecm = Ecm::build(&env).expect("ECM of Aurora");
    let problems = corridor_io::load_problems(dir.join("aurora-euclidean.csv")).expect("csv");
    let problems = problems.into_iter().step_by(every).take(limit).collect();
    Set {
        name: "Aurora mesh",
        maps: vec![(ecm, problems)],
    }
}

fn load_anyangle(every: usize, limit: usize) -> Set {
    let root = shared().join("anyangle");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("anyangle data")
        .map(|e| e.expect("entry").path())
        .collect();
    dirs.sort();
    let maps = dirs
        .iter()
        .take(limit)
        .map(|dir| {
            let env = corridor_io::load_environment(dir.join("maze.txt")).expect("maze");
            let ecm = Ecm::build(&env).expect("ECM of a maze");
            let problems = corridor_io::load_problems(dir.join("problems.csv")).expect("csv");
            (ecm, problems.into_iter().step_by(every).collect())
        })
        .collect();
    Set {
        name: "any-angle mazes",
        maps,
    }
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v
}

fn run(set: &Set, candidates: usize) {
    let mut planner = Planner::new();
    planner.set_candidate_corridors(candidates);
    let mut path = CorridorPath::empty();
    // Warm-up: every query once.
    for (ecm, problems) in &set.maps {
        for p in problems {
            let _ = planner.plan_into(ecm, &PathQuery::new(p.start, p.goal), &mut path);
        }
    }
    planner.set_timing(true);
    let mut total = Vec::new();
    let mut phases: Vec<(&'static str, Vec<f64>)> = planner
        .phase_times()
        .iter()
        .map(|(name, _)| (*name, Vec::new()))
        .collect();
    let (mut ratios, mut failed) = (Vec::new(), 0usize);
    for (ecm, problems) in &set.maps {
        for p in problems {
            let query = PathQuery::new(p.start, p.goal);
            let t = Instant::now();
            let result = planner.plan_into(ecm, &query, &mut path);
            total.push(t.elapsed().as_secs_f64() * 1e3);
            for (k, (_, d)) in planner.phase_times().iter().enumerate() {
                phases[k].1.push(d.as_secs_f64() * 1e3);
            }
            match result {
                Ok(()) => ratios.push(if p.length > 0.0 {
                    path.length / p.length
                } else {
                    1.0 + path.length
                }),
                Err(_) => failed += 1,
            }
        }
    }
    let total = sorted(total);
    let ratios = sorted(ratios);
    let mean = ratios.iter().sum::<f64>() / ratios.len().max(1) as f64;
    println!(
        "{} ({} problems), candidates {candidates}: query p50 {:.4} ms, p99 {:.3} ms, mean {:.4} ms | length/optimum mean {mean:.5} p99 {:.5} max {:.5} min {:.7} | failed {failed}",
        set.name,
        total.len(),
        quantile(&total, 0.5),
        quantile(&total, 0.99),
        total.iter().sum::<f64>() / total.len().max(1) as f64,
        quantile(&ratios, 0.99),
        quantile(&ratios, 1.0),
        quantile(&ratios, 0.0),
    );
    let sum: f64 = total.iter().sum();
    for (name, times) in phases {
        let share = times.iter().sum::<f64>() / sum.max(1e-300);
        let times = sorted(times);
        println!(
            "    {name:<12} p50 {:>9.4} ms  p99 {:>9.3} ms  share of total {:>5.1}%",
            quantile(&times, 0.5),
            quantile(&times, 0.99),
            100.0 * share
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let benching = args.iter().any(|a| a == "--bench");
    let (mut sets, mut candidates, mut every) = (Vec::new(), Vec::new(), 1usize);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().cloned().unwrap_or_default();
        match arg.as_str() {
            "--bench" => {}
            "--set" => sets.push(value()),
            "--candidates" => candidates.extend(
                value()
                    .split(',')
                    .map(|s| s.trim().parse::<usize>().expect("--candidates N[,N...]")),
            ),
            "--every" => every = value().parse().expect("--every N"),
            other => panic!("unknown option {other}"),
        }
    }
    if sets.is_empty() {
        sets = vec!["aurora".into(), "anyangle".into()];
    }
    if candidates.is_empty() {
        candidates.push(4);
    }
    // Smoke test only under `cargo test --benches`.
    let (every, limit) = if benching {
        (every.max(1), usize::MAX)
    } else {
        (every.max(100), 3)
    };
    for name in &sets {
        let started = Instant::now();
        let set = match name.as_str() {
            "aurora" => load_aurora(every, limit),
            "anyangle" => load_anyangle(every, limit),
            other => panic!("unknown set {other} (aurora or anyangle)"),
        };
        println!(
            "{}: loaded and built in {:.1} s",
            set.name,
            started.elapsed().as_secs_f64()
        );
        for &c in &candidates {
            run(&set, c);
        }
    }
}
